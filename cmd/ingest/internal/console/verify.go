package console

import (
	"fmt"
	"io"
	"strings"

	"github.com/ocean-safety/ingest/artifacts/verify"
)

// PrintVerify writes one line per check, its problems indented below it.
func PrintVerify(w io.Writer, rep *verify.VerifyReport) {
	fmt.Fprintf(w, "verify %s\n", rep.Dir)
	for _, c := range rep.Checks {
		fmt.Fprintf(w, "  %-7s %-14s %s\n", c.Status, c.Name, c.Detail)
		for _, p := range c.Problems {
			fmt.Fprintf(w, "            %s\n", p)
		}
		if c.More > 0 {
			fmt.Fprintf(w, "            and %d more\n", c.More)
		}
	}
	if failed := rep.Failed(); len(failed) > 0 {
		fmt.Fprintf(w, "%d of %d checks failed: %s\n", len(failed), len(rep.Checks), strings.Join(failed, ", "))
	} else {
		fmt.Fprintf(w, "all %d checks passed\n", len(rep.Checks))
	}
}

// WriteVerify writes rep as JSON, with whether it passed ("ok"), or as
// PrintVerify's text.
func WriteVerify(w io.Writer, rep *verify.VerifyReport, asJSON bool) error {
	if asJSON {
		return WriteJSON(w, struct {
			*verify.VerifyReport
			OK bool `json:"ok"`
		}{rep, rep.OK()})
	}
	PrintVerify(w, rep)
	return nil
}
