package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/internal/recipes"
	"github.com/ocean-safety/ingest/internal/slowtest"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/search"
	"github.com/ocean-safety/ingest/text/lexicon"
)

// otelCorpus is real documentation nobody here wrote: the OpenTelemetry
// site, en and pt (see ../shared/corpora/README.md).
const otelCorpus = "../../../shared/corpora/otel"

// otelConfig is all a user writes to index it: where its pages live, and
// which files are partials.
const otelConfig = "source_url_template: \"https://opentelemetry.io/{path}/\"\nexclude: [\"**/_includes/**\"]\n"

var (
	inlineCodeRe = regexp.MustCompile("`+[^`]*`+")
	// headerSyntaxRe is Markdown a header should not quote: strong
	// emphasis, a callout marker, a link's target, a quote or list marker
	// after the header's colon.
	headerSyntaxRe = regexp.MustCompile(`\*\*|\[![A-Za-z]+\]|\]\(|: (?:> |- |\d+\. )`)
	debrisRe       = regexp.MustCompile(`(?i)\{\{[<%]|<!--|<\?[a-z]|</?(?:a|b|br|code|details|div|em|figure|h[1-6]|i|iframe|img|li|link|meta|ol|p|pre|script|span|strong|style|summary|table|td|th|tr|ul)(?:\s[^<>]*)?/?>`)
	onlyMarkerRe   = regexp.MustCompile(`^\s*(?:[-*+]|\d{1,9}[.)])\s*$`)
	powerRe        = regexp.MustCompile(`(\d)\*\*(-?\d)`)
)

// withoutPowers is a header with its powers written "2**2" read as
// "2^2": the header is plain text, and "2\*\*2\*\*-0" in the page reads
// "2**2**-0", which is no emphasis.
func withoutPowers(s string) string {
	for {
		t := powerRe.ReplaceAllString(s, "$1^$2")
		if t == s {
			return s
		}
		s = t
	}
}

// TestOtelCorpus indexes the OpenTelemetry docs with a two-line config:
// nothing rejected, every Portuguese page labelled pt, no chunk that is
// markup or a bare list marker, no markup left in prose, no heading id in a
// section path, and a short stderr.
func TestOtelCorpus(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(otelCorpus); err != nil {
		t.Skipf("%s is not here (%v): the real-corpus test needs ../shared beside the clone", otelCorpus, err)
	}
	if testing.Short() {
		t.Skip("a real corpus: about 10 s")
	}
	slowtest.Mark(t, "the OpenTelemetry docs indexed in two languages: about 10 s")
	for _, lang := range []string{"en", "pt"} {
		t.Run(lang, func(t *testing.T) {
			// The config README.md gives for this language, as written there.
			rs, err := recipes.Read("../../README.md", "otel-"+lang)
			if err != nil {
				t.Fatal(err)
			}
			cfg := filepath.Join(t.TempDir(), "otel.yaml")
			os.WriteFile(cfg, []byte(rs[0].SQL), 0o644)
			site := "https://opentelemetry.io/"
			if lang != "en" {
				site += lang + "/"
			}
			snap := filepath.Join(t.TempDir(), "snap")
			code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", filepath.Join(otelCorpus, lang), "--out", snap, "--config", cfg)
			if code != exitOK {
				t.Fatalf("exit %d, want 0:\n%s", code, stderr)
			}
			if n := strings.Count(stderr, "\n"); n >= 40 {
				t.Errorf("got %d lines on stderr, want under 40:\n%s", n, stderr)
			}
			cf, err := artifacts.OpenChunks(filepath.Join(snap, artifacts.ChunksFile))
			if err != nil {
				t.Fatal(err)
			}
			defer cf.Close()
			bad := map[string]int{}
			example := map[string]string{}
			flag := func(what string, c schema.Chunk) {
				if bad[what]++; bad[what] == 1 {
					example[what] = c.Key() + ": " + c.Text
				}
			}
			chunks := 0
			err = cf.Each(context.Background(), func(c schema.Chunk) error {
				chunks++
				if lang == "pt" && c.Lang != schema.LangPT {
					flag("not labelled pt", c)
				}
				// A page of the site (not one whose front matter names its
				// own source, a blog post's canonical URL elsewhere) is under
				// its language's prefix.
				if onSite := strings.HasPrefix(c.SourceURL, "https://opentelemetry.io/"); onSite && !strings.HasPrefix(c.SourceURL, site) ||
					lang == "en" && (strings.HasPrefix(c.SourceURL, site+"pt/") || strings.HasPrefix(c.SourceURL, site+"en/")) {
					flag("a source URL of the site not under "+site, c)
				}
				if c.SourceLabel != "otel-"+lang {
					flag("source label "+c.SourceLabel+", not otel-"+lang, c)
				}
				for _, s := range c.SectionPath {
					if strings.Contains(s, "{#") {
						flag("{# in a section path", c)
					}
				}
				if headerSyntaxRe.MatchString(withoutPowers(c.ContextHeader)) {
					flag("Markdown syntax in the context header", c)
				}
				if c.Element == schema.ElementCodeBlock {
					return nil
				}
				if onlyMarkerRe.MatchString(c.Text) {
					flag("only a list marker", c)
				}
				if !regexp.MustCompile(`[\p{L}\p{N}]`).MatchString(inlineCodeRe.ReplaceAllString(c.Text, "x")) {
					flag("only markup", c)
				}
				if debrisRe.MatchString(inlineCodeRe.ReplaceAllString(c.Text, "")) {
					flag("markup in prose", c)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for what, n := range bad {
				t.Errorf("%d of %d chunks: %s, e.g. %.300q", n, chunks, what, example[what])
			}
		})
	}
}

// TestOtelEval indexes the OpenTelemetry docs (en and pt in one corpus)
// with the offline defaults and evaluates testdata/otel.golden.json: the
// retrieved chunk must hold the answer (a command, a list item under its
// lead-in), not only come from the right page; a question answered only in
// the other language must reach it through translation. Questions cross
// languages through translations learned from the corpus's translated
// pages (--translate corpus: the same figures wherever the test runs), and
// with FreeDict's dictionaries too when they are installed (.ci/run
// installs them; without them that half is skipped, saying so). Floors sit
// a little below the figures measured with the built-in embedder's ranking
// weighed a quarter in hybrid's fusion and BM25 and the embedder reading
// search_text (issue 33, issue 32's item 3; whole set, hybrid and bm25:
// answer@5 0.771 and 0.819, doc recall@5 0.916 and 0.904; with the vector
// leg weighed in full and the verbatim text, 0.687 and 0.807, 0.855 and
// 0.904), and the other language weighed down only when the question's own
// language reaches BM25's floor (issue 33; search.reaches).
func TestOtelEval(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(otelCorpus); err != nil {
		t.Skipf("%s is not here (%v): the real-corpus test needs ../shared beside the clone", otelCorpus, err)
	}
	if testing.Short() {
		t.Skip("a real corpus: about 10 s")
	}
	slowtest.Mark(t, "the OpenTelemetry docs indexed and evaluated: about 30 s")
	cfg := filepath.Join(t.TempDir(), "otel.yaml")
	os.WriteFile(cfg, []byte(otelConfig), 0o644)
	snap := filepath.Join(t.TempDir(), "snap")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", otelCorpus, "--out", snap, "--config", cfg, "--quiet"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	eval := func(t *testing.T, translate string) *search.Report {
		return evalReport(t, snap, "../../testdata/otel.golden.json", "--translate", translate)
	}
	type floor struct {
		mode                 search.Mode
		group                string
		answer1, answer5, d5 float64
	}
	check := func(t *testing.T, rep *search.Report, floors []floor) {
		for _, f := range floors {
			c, ok := rep.Cell(f.mode, f.group)
			if !ok || c.Answers < 15 {
				t.Fatalf("%s %s: got cell %+v, want 15 or more questions with an answer", f.mode, f.group, c)
			}
			if c.AnswerAt[0] < f.answer1 || c.AnswerAt[1] < f.answer5 || c.Recall[1] < f.d5 {
				t.Errorf("%s %s: got answer@1 %.3f, answer@5 %.3f, doc recall@5 %.3f; want at least %.2f, %.2f and %.2f",
					f.mode, f.group, c.AnswerAt[0], c.AnswerAt[1], c.Recall[1], f.answer1, f.answer5, f.d5)
			}
		}
	}
	t.Run("translations learned from the corpus", func(t *testing.T) {
		rep := eval(t, "corpus")
		// Measured: all 0.506/0.819/0.940 (hybrid), 0.518/0.843/0.940
		// (bm25); cross-lingual 0.267/0.733/0.867, 0.400/0.733/0.800
		// (with the other language weighed down whatever the question's
		// own language reached: all 0.494/0.771/0.916, 0.494/0.831/0.916;
		// cross-lingual 0.200/0.467/0.733, 0.267/0.667/0.667; before stem
		// backoff, bm25: all 0.494/0.819/0.904, cross-lingual
		// 0.267/0.600/0.600; before search_text: all 0.494/0.759/0.904,
		// 0.494/0.807/0.904; cross-lingual 0.333/0.467/0.733,
		// 0.267/0.600/0.667).
		check(t, rep, []floor{
			{search.ModeHybrid, search.GroupAll, 0.49, 0.80, 0.93},
			{search.ModeBM25, search.GroupAll, 0.50, 0.83, 0.93},
			{search.ModeHybrid, search.GroupCross, 0.26, 0.72, 0.86},
			{search.ModeBM25, search.GroupCross, 0.39, 0.72, 0.79},
		})
		// Measured at hybrid's built-in floor (0.56, relevance-v3: the
		// legs weighed as fusion weighs them): AUROC 0.957, 14 of 17
		// unanswerable questions flagged (0.82), 5 of 83 answerable
		// (0.06); at 0.54, before the other language counted in full
		// where the question's own language does not reach BM25's
		// floor: 0.958, 15 of 17 (0.88), 7 of 83 (0.08). On relevance-v2
		// (an even mean, floor 0.44): 0.948, 13 of 17 (0.76), 6 of 83.
		for _, s := range rep.Separations {
			if s.Mode == search.ModeHybrid && (s.Unanswerable < 12 || s.AUROC < 0.94 || s.FlaggedUnanswerable < 0.8 || s.FlaggedAnswerable > 0.10) {
				t.Errorf("hybrid: got %d unanswerable, AUROC %.3f, flagged %.2f of them and %.2f of the answerable; want 12 or more, at least 0.94 and 0.8, at most 0.10",
					s.Unanswerable, s.AUROC, s.FlaggedUnanswerable, s.FlaggedAnswerable)
			}
		}
	})
	t.Run("and FreeDict's", func(t *testing.T) {
		if _, err := lexicon.OpenFreeDict(lexicon.FreeDictDir); err != nil {
			t.Skipf("the figures with FreeDict are not checked: %v", err)
		}
		// Measured: all 0.530/0.819/0.940 (hybrid), 0.518/0.855/0.940
		// (bm25); cross-lingual 0.400/0.733/0.867, 0.400/0.800/0.800
		// (with the other language weighed down whatever the question's
		// own language reached: all 0.494/0.795/0.928, 0.494/0.831/0.928;
		// cross-lingual 0.200/0.600/0.800, 0.267/0.667/0.733; at hybrid's
		// floor, then 0.54, AUROC 0.965, 15 of 17 unanswerable and 6 of 83
		// answerable flagged, now at 0.56 0.968, 14 of 17 and 4 of 83;
		// before stem backoff, bm25: all 0.506/0.819/0.916, cross-lingual
		// 0.333/0.600/0.667, a question of the held-out half lost its
		// answer's first place; before search_text: all 0.506/0.783/0.916,
		// 0.506/0.807/0.916; cross-lingual 0.400/0.600/0.800,
		// 0.333/0.600/0.733).
		check(t, eval(t, "corpus,freedict"), []floor{
			{search.ModeHybrid, search.GroupAll, 0.51, 0.80, 0.93},
			{search.ModeBM25, search.GroupAll, 0.50, 0.84, 0.93},
			{search.ModeHybrid, search.GroupCross, 0.39, 0.72, 0.86},
			{search.ModeBM25, search.GroupCross, 0.39, 0.79, 0.79},
		})
	})
}

// evalReport runs ingest eval on snap with the questions file and args
// (k 1 and 5) and returns its report.
func evalReport(t *testing.T, snap, questions string, args ...string) *search.Report {
	t.Helper()
	args = append([]string{"eval", "--snapshot", snap, "--questions", questions, "--k", "1,5", "--json"}, args...)
	code, stdout, stderr := runCLI(context.Background(), "", args...)
	if code != exitOK {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var out evalOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	return out.Report
}

// TestFloorCalibration proposes the built-in embedder's relevance floors
// again, as they were set (search.ProposeFloors over ingest eval's proposals
// on the otel golden set's dev half and the shipped corpus's set, with the
// default translation), logs the proposal and fails when the built-in
// floors differ from it: after a change to what BM25 indexes, the fusion or
// the built-in embedder, run
//
//	INGEST_TEST_SLOW=1 go test ./cmd/ingest -run TestFloorCalibration -v
//
// and write what it proposes into search/floor.go's builtinFloors. It also
// holds the floors to issue 33's targets on the dev half (hybrid: AUROC at
// least 0.90, at most a tenth of the answerable questions flagged) and
// checks a snapshot's manifest records them.
func TestFloorCalibration(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(otelCorpus); err != nil {
		t.Skipf("%s is not here (%v): the real-corpus test needs ../shared beside the clone", otelCorpus, err)
	}
	if _, err := lexicon.OpenFreeDict(lexicon.FreeDictDir); err != nil {
		t.Skipf("the floors are calibrated with the default translation, FreeDict's included: %v", err)
	}
	if testing.Short() {
		t.Skip("a real corpus: about 30 s")
	}
	slowtest.Mark(t, "the OpenTelemetry docs and the shipped corpus indexed and evaluated: about 30 s")
	cfg := filepath.Join(t.TempDir(), "otel.yaml")
	os.WriteFile(cfg, []byte(otelConfig), 0o644)
	snap := filepath.Join(t.TempDir(), "snap")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", otelCorpus, "--out", snap, "--config", cfg, "--quiet"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	dev := evalReport(t, snap, "../../testdata/otel.golden.json", "--half", "dev")
	ocean := evalReport(t, oceanSnapshot(t), "../../corpus/ocean.golden.json")
	m, err := artifacts.ReadManifest(snap)
	if err != nil {
		t.Fatal(err)
	}
	proposed := search.ProposeFloors(dev, ocean)
	for _, r := range []struct {
		name string
		rep  *search.Report
	}{{"otel dev half", dev}, {"shipped corpus", ocean}} {
		for _, s := range r.rep.Separations {
			t.Logf("%s, %s: AUROC %.3f, proposed %.3f (%d answerable, %d unanswerable)", r.name, s.Mode, s.AUROC, s.Proposed, s.Answerable, s.Unanswerable)
		}
	}
	t.Logf("proposed floors: bm25 %.2f, vector %.2f, hybrid %.2f",
		proposed[search.ModeBM25], proposed[search.ModeVector], proposed[search.ModeHybrid])
	for _, mode := range search.Modes {
		if got := search.DefaultFloor(m.Embedder.Name, mode); got != proposed[mode] {
			t.Errorf("%s: got built-in floor %.2f, proposed %.2f: write the proposal into search/floor.go's builtinFloors", mode, got, proposed[mode])
		}
	}
	if want := search.ManifestFloor(m.Embedder.Name); want == nil || !reflect.DeepEqual(m.RelevanceFloor, want) {
		t.Errorf("got the manifest's floor %+v, want %+v", m.RelevanceFloor, want)
	}
	for _, s := range dev.Separations {
		if s.Mode == search.ModeHybrid && (s.AUROC < 0.90 || s.FlaggedAnswerable > 0.10) {
			t.Errorf("hybrid, dev half: got AUROC %.3f, %.2f of the answerable flagged; want at least 0.90 and at most 0.10", s.AUROC, s.FlaggedAnswerable)
		}
	}
}
