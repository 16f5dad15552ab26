package preview

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/formats"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/stages/settings"
)

// Line is one line of `ingest chunk` output.
type Line struct {
	Path        string   `json:"doc_path"` // the names chunks.parquet uses
	Order       int      `json:"chunk_order"`
	Kind        string   `json:"kind"`
	Element     string   `json:"element"`
	SectionPath []string `json:"section_path"`
	LineStart   int      `json:"line_start"`
	LineEnd     int      `json:"line_end"`
	TokenCount  int      `json:"token_count"`
	Oversize    bool     `json:"oversize,omitempty"`
	LeadIn      string   `json:"lead_in,omitempty"`
	Text        string   `json:"text"`
}

// Previewer chunks files as a run with its config would.
type Previewer struct {
	cfg   settings.Config
	ch    *chunking.Chunker
	stats bool
	out   io.Writer // the chunks' lines, or the quality figures
	errw  io.Writer // the diagnostics of the chunks' lines
	enc   *json.Encoder
}

// New is a previewer of cfg's chunking (a bad chunk setting is a
// schema.SettingError): with stats, it writes quality figures to out;
// otherwise a JSON line a chunk to out and the diagnostics to errw.
func New(cfg settings.Config, stats bool, out, errw io.Writer) (*Previewer, error) {
	ch, err := chunking.NewChunker(cfg.Chunk, cfg.TenantID)
	if err != nil {
		return nil, err
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return &Previewer{cfg: cfg, ch: ch, stats: stats, out: out, errw: errw, enc: enc}, nil
}

// Chunk previews what arg names: a FILE is chunked as it is; a DIR is read
// as a corpus (the config's include and exclude apply), and its figures are
// named arg. It returns how many documents were rejected.
func (pv *Previewer) Chunk(arg string) (rejected int, err error) {
	cfg, ch := pv.cfg, pv.ch
	root, paths, err := inputs(arg, cfg.Filter)
	if err != nil {
		return 0, err
	}
	cfg.Corpus = root
	if root == "" {
		cfg.Corpus = "."
	}
	p := formats.All.Reader(cfg.Corpus, cfg.CorpusOptions())
	q := chunking.NewQuality(ch)
	for _, path := range paths {
		file := path // a FILE argument, as given
		if root != "" {
			file = filepath.Join(root, filepath.FromSlash(path))
		}
		raw, err := os.ReadFile(file)
		if err != nil {
			return rejected, err
		}
		parsed := p.ParseBytes(path, raw)
		body := parsed.Body
		chunks, diags := ch.Chunk(body)
		if parsed.Rejected {
			rejected++
		}
		if pv.stats {
			if !parsed.Rejected && !parsed.Doc.Draft {
				for i := range chunks {
					chunks[i].ContextHeader = extractive.Header(parsed.Doc.Title, chunks[i], cfg.Header.MaxChars)
				}
				q.Add(ch, body, chunks)
			}
			continue
		}
		for _, d := range append(parsed.Diags, diags...) {
			fmt.Fprintln(pv.errw, d.String())
		}
		for _, c := range chunks {
			line := Line{Path: path, Order: c.Order, Kind: string(c.Kind), Element: string(c.Element), SectionPath: c.SectionPath,
				LineStart: c.LineStart, LineEnd: c.LineEnd, TokenCount: c.TokenCount, Oversize: c.Oversize, LeadIn: c.LeadIn, Text: c.Text}
			if err := pv.enc.Encode(line); err != nil {
				return rejected, err
			}
		}
	}
	if pv.stats {
		q.Write(pv.out, arg)
	}
	return rejected, nil
}

// inputs is what one argument of chunk names: a file (no root: its path is
// read and printed as given) or a corpus folder and its documents.
func inputs(arg string, filter corpus.Filter) (root string, paths []string, err error) {
	info, err := os.Stat(arg)
	if err != nil {
		return "", nil, err
	}
	if !info.IsDir() {
		return "", []string{arg}, nil
	}
	l, err := corpus.ScanFiltered(arg, filter, formats.All)
	if err != nil {
		return "", nil, err
	}
	return arg, l.Docs, nil
}
