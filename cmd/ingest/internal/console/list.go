package console

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ocean-safety/ingest/publish"
)

// PrintListing prints a publish folder's or bucket's listing: its snapshots,
// newest first, and the parts of sharded runs left there.
func PrintListing(w io.Writer, l *publish.Listing) {
	if len(l.Snapshots) == 0 && len(l.Parts) == 0 {
		fmt.Fprintf(w, "%s: no snapshot and no part\n", l.Place)
		return
	}
	if len(l.Snapshots) > 0 {
		fmt.Fprintf(w, "%s: %s\n", l.Place, Plural(len(l.Snapshots), "snapshot"))
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  \tNAME\tCREATED\tDOCUMENTS\tCHUNKS\tEMBEDDER\tHEADERS\tSIZE")
		for _, s := range l.Snapshots {
			mark := ""
			if s.Latest {
				mark = "latest →"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%d\t%s (%d)\t%s\t%s\n", mark, s.Name, s.CreatedAt, s.Documents, s.Chunks, s.Embedder, s.Dims, s.HeaderWriter, size(s.Bytes))
		}
		tw.Flush()
	}
	if len(l.Parts) > 0 {
		fmt.Fprintf(w, "%s of sharded runs left here (merge --remove-parts removes a merged run's):\n", Plural(len(l.Parts), "part"))
		for _, p := range l.Parts {
			what := "no snapshot (its run did not finish)"
			if s := p.Snapshot; s != nil {
				what = fmt.Sprintf("%s, %s, %d documents, %d chunks", s.Name, s.CreatedAt, s.Documents, s.Chunks)
			}
			fmt.Fprintf(w, "  %s  shard %s: %s\n", p.Path, p.Shard, what)
		}
	}
}

// size is a byte count as a person reads it.
func size(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
