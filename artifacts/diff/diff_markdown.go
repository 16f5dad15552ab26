package diff

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/units"
)

// WriteMarkdown renders the report for a pull-request comment: a summary
// line, the counts before and after, changed components and thresholds as
// tables, added and removed documents as a list, and one collapsed
// <details> per changed document with its chunk changes grouped under their
// heading paths. Everything is in a fixed order, so the comment of the same
// two snapshots is the same bytes.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "### Snapshot diff: %s → %s\n\n%s\n", mdCode(mdUnnamed(r.Old.Name)), mdCode(mdUnnamed(r.New.Name)), summaryLine(r))
	if r.Changed() {
		writeCountsTable(&b, r.Counts)
		writeComponents(&b, r.Components)
		writeThresholdTable(&b, r.Documents)
		writeDocuments(&b, r.Documents)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write diff report: %w", err)
	}
	return nil
}

func summaryLine(r *Report) string {
	if !r.Changed() {
		return "No changes: the same documents, chunks and thresholds, made the same way."
	}
	s := r.Summary
	var parts []string
	if p := tallyPhrase("document", []int{s.DocumentsAdded, s.DocumentsRemoved, s.DocumentsChanged, s.DocumentsRegenerated},
		[]string{"added", "removed", "changed", "regenerated"}); p != "" {
		parts = append(parts, p)
	}
	if p := tallyPhrase("chunk", []int{s.ChunksAdded, s.ChunksRemoved, s.ChunksChanged, s.ChunksMoved, s.ChunksRelabelled},
		[]string{"added", "removed", "changed", "moved", "relabelled"}); p != "" {
		parts = append(parts, p)
	}
	if p := tallyPhrase("threshold", []int{s.ThresholdsAdded, s.ThresholdsRemoved, s.ThresholdsChanged},
		[]string{"added", "removed", "changed"}); p != "" {
		parts = append(parts, p)
	}
	if len(r.Components) > 0 {
		names := make([]string, len(r.Components))
		for i, c := range r.Components {
			names[i] = strings.ReplaceAll(c.Name, "_", " ")
		}
		parts = append(parts, strings.Join(names, ", ")+" changed")
	}
	if len(parts) == 0 { // only counts differ: cannot happen with a consistent pair, said rather than hidden
		return "Counts differ; no document does."
	}
	line := strings.Join(parts, "; ")
	return "**" + strings.ToUpper(line[:1]) + line[1:] + ".**"
}

// tallyPhrase renders "3 chunks added, 1 removed, 2 moved", skipping zeros.
func tallyPhrase(noun string, ns []int, verbs []string) string {
	var out []string
	for i, n := range ns {
		if n == 0 {
			continue
		}
		if len(out) == 0 {
			out = append(out, mdPlural(n, noun)+" "+verbs[i])
		} else {
			out = append(out, strconv.Itoa(n)+" "+verbs[i])
		}
	}
	return strings.Join(out, ", ")
}

func writeCountsTable(b *bytes.Buffer, counts []CountDelta) {
	b.WriteString("\n| | before | after | Δ |\n|:--|--:|--:|--:|\n")
	for _, c := range counts {
		delta := ""
		if d := c.After - c.Before; d != 0 {
			delta = fmt.Sprintf("%+d", d)
		}
		fmt.Fprintf(b, "| %s | %d | %d | %s |\n", c.Name, c.Before, c.After, delta)
	}
}

func writeComponents(b *bytes.Buffer, cs []ComponentChange) {
	if len(cs) == 0 {
		return
	}
	b.WriteString("\n| component | before | after |\n|:--|:--|:--|\n")
	for _, c := range cs {
		before, after := c.Old, c.New
		if c.Name == "config_hash" {
			before, after = shortHash(before), shortHash(after)
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", c.Name, mdCode(before), mdCode(after))
	}
}

// writeThresholdTable lists every threshold change of every document in one
// table: they are what a safety reviewer reads first.
func writeThresholdTable(b *bytes.Buffer, docs []DocDiff) {
	header := false
	for _, d := range docs {
		for _, t := range d.Thresholds {
			if !header {
				b.WriteString("\n| threshold | document | before | after |\n|:--|:--|:--|:--|\n")
				header = true
			}
			fmt.Fprintf(b, "| %s %s | %s | %s | %s |\n", t.Subject, t.Comparator, mdCode(d.Path), thresholdCell(t.Old), thresholdCell(t.New))
		}
	}
}

func thresholdCell(t *ThresholdSide) string {
	if t == nil {
		return "—"
	}
	v := units.FormatSI(t.Value, "") // 2.74, not 2.7432000000000003
	if t.Value2 != 0 {
		v += "–" + units.FormatSI(t.Value2, "")
	}
	unit := t.SIUnit
	if unit == "degC" {
		unit = "°C"
	}
	return fmt.Sprintf("%s %s (%s, line %d)", v, unit, mdQuote(t.Surface), t.Line)
}

func writeDocuments(b *bytes.Buffer, docs []DocDiff) {
	list := false
	for _, d := range docs {
		if d.Status != DocAdded && d.Status != DocRemoved {
			continue
		}
		if !list {
			b.WriteString("\n")
			list = true
		}
		n := d.ChunksAfter + d.ChunksBefore // one of them is 0
		if n == 0 {                         // a document without chunks (the manifest's list): no title in any row
			fmt.Fprintf(b, "- **%s** %s (a document without chunks)\n", d.Status, mdCode(d.Path))
			continue
		}
		fmt.Fprintf(b, "- **%s** %s — %s (%s)\n", d.Status, mdCode(d.Path), mdText(d.Title), mdPlural(n, "chunk"))
	}
	for _, d := range docs {
		if d.Status == DocChanged || d.Status == DocRegenerated {
			writeDocDetails(b, d)
		}
	}
}

func writeDocDetails(b *bytes.Buffer, d DocDiff) {
	fmt.Fprintf(b, "\n<details><summary><b>%s</b> <code>%s</code> — %s: %s</summary>\n",
		d.Status, html.EscapeString(d.Path), html.EscapeString(d.Title), html.EscapeString(docTally(d)))
	if len(d.Fields) > 0 {
		b.WriteString("\n")
		for _, f := range d.Fields {
			fmt.Fprintf(b, "- %s: %s → %s\n", f.Name, mdQuote(f.Old), mdQuote(f.New))
		}
	}
	group := "\x00"
	for _, c := range d.Chunks {
		if p := headingPath(c.SectionPath); p != group {
			fmt.Fprintf(b, "\n**%s**\n\n", mdText(p))
			group = p
		}
		writeChunkChange(b, c)
	}
	b.WriteString("\n</details>\n")
}

// docTally is the one-line content of a document's <summary>.
func docTally(d DocDiff) string {
	n := map[ChangeKind]int{}
	for _, c := range d.Chunks {
		n[c.Change]++
	}
	kinds := []ChangeKind{ChangeAdded, ChangeRemoved, ChangeChanged, ChangeMoved, ChangeRelabelled}
	ns, verbs := make([]int, len(kinds)), make([]string, len(kinds))
	for i, k := range kinds {
		ns[i], verbs[i] = n[k], string(k)
	}
	parts := []string{}
	if len(d.Fields) > 0 {
		names := make([]string, len(d.Fields))
		for i, f := range d.Fields {
			names[i] = f.Name
		}
		parts = append(parts, strings.Join(names, ", "))
	}
	if p := tallyPhrase("chunk", ns, verbs); p != "" {
		parts = append(parts, p)
	} else {
		parts = append(parts, "no chunk changed")
	}
	if len(d.Thresholds) > 0 {
		parts = append(parts, mdPlural(len(d.Thresholds), "threshold")+" changed")
	}
	return strings.Join(parts, "; ")
}

func writeChunkChange(b *bytes.Buffer, c ChunkChange) {
	switch c.Change {
	case ChangeAdded:
		fmt.Fprintf(b, "- **added** #%d: %s\n", c.New.Order, mdQuote(c.New.Excerpt))
	case ChangeRemoved:
		fmt.Fprintf(b, "- **removed** #%d: %s\n", c.Old.Order, mdQuote(c.Old.Excerpt))
	case ChangeChanged:
		fmt.Fprintf(b, "- **changed** %s\n  - before: %s\n  - after: %s\n", orders(c), mdQuote(c.Old.Excerpt), mdQuote(c.New.Excerpt))
	case ChangeMoved:
		from := ""
		if op := headingPath(c.Old.SectionPath); op != headingPath(c.New.SectionPath) {
			from = " from **" + mdText(op) + "**"
		}
		fmt.Fprintf(b, "- **moved** %s%s: %s\n", orders(c), from, mdQuote(c.New.Excerpt))
	case ChangeRelabelled:
		fmt.Fprintf(b, "- **relabelled** #%d: %s\n", c.New.Order, mdQuote(c.New.Excerpt))
	}
	for _, f := range c.Fields {
		fmt.Fprintf(b, "  - %s: %s → %s\n", f.Name, mdQuote(f.Old), mdQuote(f.New))
	}
}

// orders shows a chunk's position, "#3" or "#3 → #5".
func orders(c ChunkChange) string {
	if c.Old.Order == c.New.Order {
		return "#" + strconv.Itoa(c.New.Order)
	}
	return fmt.Sprintf("#%d → #%d", c.Old.Order, c.New.Order)
}

func headingPath(p []string) string {
	if len(p) == 0 {
		return "(before the first heading)"
	}
	return strings.Join(p, " › ")
}

// mdEscaper backslash-escapes what Markdown would read as markup in a line
// of corpus text; the corpus is Markdown, so its text is full of it.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `|`, `\|`, `~`, `\~`, `#`, `\#`)

func mdText(s string) string { return mdEscaper.Replace(s) }

func mdQuote(s string) string {
	if s == "" {
		return "(none)"
	}
	return "“" + mdText(s) + "”"
}

// code is s as inline code; a backtick inside would end it, so it becomes a quote.
func mdCode(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }

func mdUnnamed(name string) string {
	if name == "" {
		return "(unnamed)"
	}
	return name
}

func shortHash(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

func mdPlural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
