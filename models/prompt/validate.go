package prompt

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
	"github.com/ocean-safety/ingest/text/printable"
	"github.com/ocean-safety/ingest/text/sentence"
	"github.com/ocean-safety/ingest/thresholds"
)

// A model's answer is checked for form (the JSON schema, on our side too:
// a server may apply it loosely) and for content: what it says must be
// something the document says. Each failed check has a reason; an answer
// that fails gets one repair round, then the extractive header, and
// report.json counts the failures by reason.
const (
	ReasonNotJSON         = "not-json"              // not one JSON object
	ReasonSchema          = "schema"                // a key missing, unexpected or of the wrong type
	ReasonTooLong         = "too-long"              // over its length cap
	ReasonLineBreak       = "line-break"            // a one-line field with a line break
	ReasonControl         = "control-character"     // C0/C1 controls (ESC, NUL, BEL…), which a terminal or a log obeys
	ReasonBidi            = "bidi-control"          // right-to-left overrides and isolates, which reorder what a reader sees
	ReasonSentences       = "not-one-sentence"      // a context header of none or several sentences
	ReasonHazard          = "unknown-hazard"        // a hazard outside Hazards
	ReasonSeason          = "unknown-season"        // a season outside Seasons
	ReasonPlace           = "place-not-in-document" // a place the document does not name
	ReasonClaim           = "claim-not-in-chunk"    // an unsourced claim that is not a quote of the chunk
	ReasonLink            = "link-not-in-document"  // a URL or e-mail address the document does not contain
	ReasonInjected        = "copies-instructions"   // words copied from a paragraph that reads as instructions to a model
	ReasonThreshold       = "bad-threshold"         // a threshold of the wrong shape
	ReasonInstructionText = "instructions-in-chunk" // the chunk reads as instructions to a model: not sent
	ReasonUngrounded      = "header-not-grounded"   // a context header whose words are mostly not the document's (grounding.go)
	ReasonSafetyClaim     = "claim-not-made"        // a context header that reassures where the chunk does not ("always safe", "no lifeguard needed"; claims.go)
)

// Hazards and Seasons are the closed sets of the hazard and season fields.
var (
	Hazards = []string{"rip_current", "cold_water", "high_surf", "shore_break", "strong_wind", "storm", "lightning",
		"jellyfish", "marine_life", "sharks", "sun_exposure", "heat", "tide", "rocks", "drowning", "water_quality", "boating"}
	Seasons = []string{"summer", "autumn", "winter", "spring", "rainy_season", "dry_season", "all_year"}
	// Subjects are the subjects a model's threshold may constrain: the
	// thresholds package's.
	Subjects = []string{thresholds.SubjectWaveHeight, thresholds.SubjectWindSpeed, thresholds.SubjectWaterTemperature,
		thresholds.SubjectAirTemperature, thresholds.SubjectWaterDepth, thresholds.SubjectDistance, thresholds.SubjectCurrentSpeed}
)

// copiedWords is the run of words an answer may not share with an
// instruction-like paragraph: enough to be a copy, not a common phrase.
const copiedWords = 4

// AnswerKeys are the keys an answer may have; only context_header must be
// there (a field left out is empty; see answerSchema).
var AnswerKeys = []string{"context_header", "hazard", "place", "season", "thresholds", "unsourced_claim"}

// answer is a validated model answer.
type answer struct {
	ContextHeader  string                     `json:"context_header"`
	Hazard         string                     `json:"hazard"`
	Place          string                     `json:"place"`
	Season         string                     `json:"season"`
	Thresholds     []schema.ProposedThreshold `json:"thresholds"`
	UnsourcedClaim string                     `json:"unsourced_claim"`
}

func (a answer) Enrichment(calls int) models.Enrichment {
	return models.Enrichment{
		Header: a.ContextHeader, Source: schema.HeaderModel, Thresholds: a.Thresholds, Calls: calls,
		Fields: schema.Fields{Hazard: a.Hazard, Place: a.Place, Season: a.Season, UnsourcedClaim: a.UnsourcedClaim},
	}
}

// problem is one failed check of an answer.
type problem struct{ reason, msg string }

func (p problem) Error() string { return p.msg }

// Reasons lists the reasons of the problems in err, in order, once each.
func Reasons(err error) []string {
	var out []string
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var p problem
		if errors.As(e, &p) && !slices.Contains(out, p.reason) {
			out = append(out, p.reason)
		}
	}
	walk(err)
	return out
}

// Evidence is what an answer's content is checked against: the document
// and the chunk with their instruction-like paragraphs blanked (folded for
// comparison), and those paragraphs' words; the document's words, and the
// claims of the chunk with its title, section path and lead-in.
type Evidence struct {
	doc, chunk string     // folded, one space between words
	injected   [][]string // tokens of each instruction-like paragraph
	stems      wordStems  // the document's words (grounding.go)
	claims     map[claim]bool
	absolute   bool // the chunk says "always" or "at any time"
	lang       schema.Lang
}

func NewEvidence(doc schema.Document, c schema.Chunk) Evidence {
	var pc PrepCache
	return EvidenceOf(pc.Get(doc), c)
}

// EvidenceOf is a chunk's evidence, its document's side prepared.
func EvidenceOf(p *DocPrep, c schema.Chunk) Evidence {
	chunk := blank(c.Text)
	claims, absolute := claimsOf(p.title+"\n"+strings.Join(c.SectionPath, "\n")+"\n"+blank(c.LeadIn)+"\n"+chunk, c.Lang)
	return Evidence{doc: p.evidence, chunk: flat(chunk), injected: p.injected, stems: p.stems, claims: claims, absolute: absolute, lang: c.Lang}
}

// flat folds text and joins its words with single spaces.
func flat(text string) string { return strings.Join(strings.Fields(lexical.Fold(text)), " ") }

// ParseAnswer checks a raw answer, form and content, and returns every
// problem at once, for the repair prompt.
func ParseAnswer(raw string, maxChars int, ev Evidence) (answer, error) {
	a, _, err := CheckAnswer(raw, maxChars, ev)
	return a, err
}

// CheckAnswer is parseAnswer that also counts the answer's thresholds of
// the wrong shape (each item once, whatever it got wrong): dropped with
// the answer, and counted in the report.
func CheckAnswer(raw string, maxChars int, ev Evidence) (answer, int, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stripFence(raw)), &obj); err != nil {
		return answer{}, 0, problem{ReasonNotJSON, fmt.Sprintf("not a JSON object: %v", err)}
	}
	var errs []error
	bad := func(reason, format string, a ...any) {
		errs = append(errs, problem{reason, fmt.Sprintf(format, a...)})
	}
	if _, ok := obj["context_header"]; !ok {
		bad(ReasonSchema, "missing key %q", "context_header") // the others may be left out: empty
	}
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(AnswerKeys, k) {
			bad(ReasonSchema, "unexpected key %q", k)
		}
	}
	var a answer
	str := func(key string, dst *string, maxLen int) {
		if v, ok := obj[key]; ok {
			if isNull(v) || json.Unmarshal(v, dst) != nil {
				bad(ReasonSchema, "%s: want a string", key)
			}
			*dst = strings.TrimSpace(*dst)
			checkLine(key, *dst, maxLen, bad)
		}
	}
	str("context_header", &a.ContextHeader, maxChars)
	str("hazard", &a.Hazard, maxFieldChars)
	str("place", &a.Place, maxFieldChars)
	str("season", &a.Season, maxFieldChars)
	str("unsourced_claim", &a.UnsourcedClaim, maxClaimChars)
	a.Hazard, a.Season = snakeCase(a.Hazard), snakeCase(a.Season)
	if _, ok := obj["context_header"]; ok {
		switch n := len(sentence.Split(a.ContextHeader)); {
		case a.ContextHeader == "":
			bad(ReasonSentences, "context_header: empty")
		case n > 1:
			bad(ReasonSentences, "context_header: %d sentences, want one", n)
		}
	}
	badThresholds := 0
	if v, ok := obj["thresholds"]; ok {
		a.Thresholds, badThresholds = parseThresholds(v, bad)
	}
	checkContent(a, ev, bad)
	if err := errors.Join(errs...); err != nil {
		return answer{}, badThresholds, err
	}
	return a, 0, nil
}

// checkContent checks what the answer says against the document.
func checkContent(a answer, ev Evidence, bad func(string, string, ...any)) {
	if a.Hazard != "" && !slices.Contains(Hazards, a.Hazard) {
		bad(ReasonHazard, "hazard %q: want one of %s, or \"\"", a.Hazard, strings.Join(Hazards, ", "))
	}
	if a.Season != "" && !slices.Contains(Seasons, a.Season) {
		bad(ReasonSeason, "season %q: want one of %s, or \"\"", a.Season, strings.Join(Seasons, ", "))
	}
	if p := flat(a.Place); p != "" && !strings.Contains(ev.doc, p) {
		bad(ReasonPlace, "place %q: the document does not name it; give a place as the document writes it, or \"\"", a.Place)
	}
	if c := flat(trimQuotes(a.UnsourcedClaim)); c != "" && !strings.Contains(ev.chunk, c) {
		bad(ReasonClaim, "unsourced_claim: not a quote of the chunk; quote the chunk's own words, or \"\"")
	}
	for _, l := range links.FindAllString(a.ContextHeader, -1) {
		l = strings.TrimRight(l, ".,;:!?)]}\"'")
		if !strings.Contains(ev.doc, flat(l)) {
			bad(ReasonLink, "context_header: %q is not in the document", l)
		}
	}
	if a.ContextHeader != "" {
		if ws := ungrounded(a.ContextHeader, ev.stems); ws != nil {
			bad(ReasonUngrounded, "context_header: %q are not the document's words; say where the chunk comes from and what it is about in the document's words", ws[:min(len(ws), 3)])
		}
		if cs := unmadeClaims(a.ContextHeader, ev.lang, ev.claims, ev.absolute); cs != nil {
			bad(ReasonSafetyClaim, "context_header: it says %s, which the chunk does not say; claim nothing the chunk does not", strings.Join(cs, ", "))
		}
	}
	for _, field := range []string{a.ContextHeader, a.Place, a.UnsourcedClaim} {
		if copies(lexical.Tokens(field), ev.injected) {
			bad(ReasonInjected, "the answer repeats text that reads as instructions to a model; describe the chunk")
			break
		}
	}
}

// links finds URLs and e-mail addresses.
var links = regexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+|[\w.+-]+@[\w-]+\.[\w.-]+`)

// copies reports whether words share a run of copiedWords words with one
// of the paragraphs.
func copies(words []string, paragraphs [][]string) bool {
	if len(words) < copiedWords {
		return false
	}
	for _, p := range paragraphs {
		seen := map[string]bool{}
		for i := 0; i+copiedWords <= len(p); i++ {
			seen[strings.Join(p[i:i+copiedWords], " ")] = true
		}
		for i := 0; i+copiedWords <= len(words); i++ {
			if seen[strings.Join(words[i:i+copiedWords], " ")] {
				return true
			}
		}
	}
	return false
}

func trimQuotes(s string) string {
	return strings.Trim(strings.TrimSpace(s), "\"'“”‘’«»„ .…")
}

// parseThresholds reads the answer's thresholds and counts the items of the
// wrong shape.
func parseThresholds(v json.RawMessage, report func(string, string, ...any)) ([]schema.ProposedThreshold, int) {
	var items []map[string]json.RawMessage
	if isNull(v) || json.Unmarshal(v, &items) != nil {
		report(ReasonSchema, "thresholds: want an array of objects")
		return nil, 0
	}
	out := make([]schema.ProposedThreshold, 0, len(items))
	badItems := 0
	for i, it := range items {
		itemBad := false
		bad := func(reason, format string, a ...any) {
			itemBad = true
			report(reason, format, a...)
		}
		var t schema.ProposedThreshold
		for _, k := range []string{"subject", "comparator", "value", "unit"} {
			if _, ok := it[k]; !ok {
				bad(ReasonSchema, "thresholds[%d]: missing key %q", i, k)
			}
		}
		if len(it) != 4 {
			bad(ReasonSchema, "thresholds[%d]: want exactly subject, comparator, value and unit", i)
		}
		dec := func(k string, dst any, want string) {
			if raw, ok := it[k]; ok && (isNull(raw) || json.Unmarshal(raw, dst) != nil) {
				bad(ReasonSchema, "thresholds[%d].%s: want %s", i, k, want)
			}
		}
		dec("subject", &t.Subject, "a string")
		dec("comparator", &t.Comparator, "a string")
		dec("value", &t.Value, "a number")
		dec("unit", &t.Unit, "a string")
		t.Subject = snakeCase(t.Subject)
		if _, ok := it["subject"]; ok && !slices.Contains(Subjects, t.Subject) {
			bad(ReasonThreshold, "thresholds[%d].subject %.60q: want one of %s", i, t.Subject, strings.Join(Subjects, ", "))
		}
		checkLine(fmt.Sprintf("thresholds[%d].unit", i), t.Unit, maxFieldChars, bad)
		if _, ok := it["comparator"]; ok && !slices.Contains(Comparators, t.Comparator) {
			bad(ReasonThreshold, "thresholds[%d].comparator %q: want one of %s", i, t.Comparator, strings.Join(Comparators, ", "))
		}
		if math.IsNaN(t.Value) || math.IsInf(t.Value, 0) {
			bad(ReasonThreshold, "thresholds[%d].value: want a finite number", i)
		}
		if itemBad {
			badItems++
		}
		out = append(out, t)
	}
	return out, badItems
}

// checkLine checks a one-line field: no line break, no control or
// bidirectional-formatting character, not over maxLen.
func checkLine(key, s string, maxLen int, bad func(string, string, ...any)) {
	if strings.ContainsAny(s, "\r\n\u2028\u2029") {
		bad(ReasonLineBreak, "%s: contains a line break", key)
	}
	for _, r := range s {
		switch {
		case printable.IsControl(r) && r != '\r' && r != '\n':
			bad(ReasonControl, "%s: contains control character %U", key, r)
			return
		case printable.IsBidi(r):
			bad(ReasonBidi, "%s: contains bidirectional control %U", key, r)
			return
		}
	}
	if n := utf8.RuneCountInString(s); n > maxLen {
		bad(ReasonTooLong, "%s: %d characters, want at most %d", key, n, maxLen)
	}
}

// snakeCase folds "Rip Current" to "rip_current": the model is asked for
// ids, and a near miss is normalised rather than sent back.
func snakeCase(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(strings.NewReplacer("-", " ", "_", " ").Replace(s)), "_"))
}

// stripFence removes a ```json fence some servers add without a grammar.
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(strings.TrimPrefix(s, "```json"), "```")
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
}

// isNull reports a JSON null, which decodes into a Go zero value without
// complaint but is not the string, number or array the schema asks for.
func isNull(v json.RawMessage) bool { return strings.TrimSpace(string(v)) == "null" }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
