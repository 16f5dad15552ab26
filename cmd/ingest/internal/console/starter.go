package console

import (
	"fmt"
	"io"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
)

// PrintStarter says which starter config ingest init wrote to out, for what
// it found, and what to run next.
func PrintStarter(w io.Writer, out string, l config.Site) {
	what := "no generator recognised"
	if l.Generator != "" {
		what = l.Generator + ", by " + l.Evidence
	}
	fmt.Fprintf(w, "wrote %s for %s (%s; %d Markdown files", out, l.Content, what, l.Documents)
	if len(l.Langs) > 0 {
		fmt.Fprintf(w, "; language folders %v", l.Langs)
	}
	if l.Suffix && len(l.SiteLangs) > 0 {
		fmt.Fprintf(w, "; languages by file name suffix %v", l.SiteLangs)
	}
	fmt.Fprintf(w, ")\nnext: ingest config --config %s --corpus %s, then ingest index --corpus %s --config %s --out out/knowledge\n", out, l.Content, l.Content, out)
}
