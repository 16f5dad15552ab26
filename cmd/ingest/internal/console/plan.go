package console

import (
	"fmt"
	"io"
	"time"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/estimate"
)

// PrintDiagnostics prints ds as a run shows them by default (the first
// ones, then a count per code) in format: text, github or json.
func PrintDiagnostics(w io.Writer, format string, ds []schema.Diagnostic) {
	d := NewDiagnostics(w, "", format)
	for _, x := range ds {
		d.Add(x)
	}
	d.Summary()
}

// PrintPlan prints what a run would do (--plan): documents, chunks, model
// and embedding calls of up to batch texts, what is reused; cost prints
// each model's estimated cost (the command's, beside the rates it reads).
func PrintPlan(w io.Writer, p *estimate.Result, batch int) {
	if p.Unchanged {
		fmt.Fprintf(w, "plan: the corpus and the run's settings are unchanged since %s: the run republishes it (%s, %s), no model call\n",
			p.Previous, Plural(p.Documents, "document"), Plural(p.Chunks, "chunk"))
		fmt.Fprintf(w, "  read in %.2fs\n", p.Seconds)
		return
	}
	fmt.Fprintf(w, "plan: %s (%d rejected, %.1f MB), %s\n", Plural(p.Documents, "document"), p.Rejected, float64(p.Bytes)/1e6, Plural(p.Chunks, "chunk"))
	fmt.Fprintf(w, "  headers: %s (%s reused); embeddings: %s of up to %d texts (%s reused)\n",
		Plural(p.HeaderCalls, "model call"), Plural(p.HeadersReused, "header"), Plural(p.EmbeddingCalls, "call"), batch, Plural(p.VectorsReused, "vector"))
	printCost(w, "header", p.Tokenizer, p.HeaderCost)
	printCost(w, "embedding", p.Tokenizer, p.EmbedCost)
	if p.Previous != "" {
		fmt.Fprintf(w, "  reusing from %s\n", p.Previous)
	}
	fmt.Fprintf(w, "  read in %.2fs\n", p.Seconds)
}

// printCost prints one model's estimated cost.
func printCost(w io.Writer, what, tokenizer string, c *estimate.Cost) {
	if c == nil {
		return
	}
	fmt.Fprintf(w, "  %s tokens (%s): %d prompt", what, tokenizer, c.PromptTokens)
	if c.CachedTokens > 0 {
		fmt.Fprintf(w, ", %d of them a prefix cache can reuse", c.CachedTokens)
	}
	if c.AnswerTokens > 0 {
		fmt.Fprintf(w, ", %d answer", c.AnswerTokens)
	}
	if r := c.Rate; r != nil {
		at := fmt.Sprintf("%.0f s a call", r.PerCall)
		if r.Prefill > 0 {
			at = fmt.Sprintf("%.0f prompt", r.Prefill)
			if r.Decode > 0 {
				at += fmt.Sprintf(" and %.0f answer", r.Decode)
			}
			at += " tokens a second"
		}
		from := r.From
		if from == estimate.RatesDefault {
			from = "default rates; --plan-rate or --probe for your servers'"
		}
		fmt.Fprintf(w, "; about %s at %s (%s), one call at a time on each of %s", time.Duration(c.Seconds*float64(time.Second)).Round(time.Second), at, from, Plural(r.Servers, "server"))
	}
	fmt.Fprintln(w)
}
