package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/markdown"
	"github.com/ocean-safety/ingest/models/extractive"
)

// chunkLine is one line of `ingest chunk` output.
type chunkLine struct {
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

func chunkCommand() *cli.Command {
	return &cli.Command{
		Name:      "chunk",
		Usage:     "show how files would be chunked, as JSON lines (for authors tuning their documents); --stats judges a whole corpus",
		ArgsUsage: "FILE|DIR...",
		Description: "A FILE is chunked as it is; a DIR is read as a corpus (the config's include and exclude apply).\n" +
			"--stats prints, per argument, what a reader would judge of the chunks instead of the chunks:\n" +
			"fragments, lead-ins cut from what they introduce, code without context, headers, sizes.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Usage: "YAML config file, read exactly as index reads it"},
			&cli.IntFlag{Name: "max", Usage: "override chunk.max"},
			&cli.BoolFlag{Name: "stats", Usage: "print chunk quality figures per FILE or DIR instead of the chunks"},
		},
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() == 0 {
				return usage("chunk needs at least one FILE or DIR")
			}
			f, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			cfg := f.Run
			if cmd.IsSet("max") {
				cfg.Chunk.Max = cmd.Int("max")
			}
			ch, err := chunking.NewChunker(cfg.Chunk, cfg.TenantID)
			if err != nil {
				return settingsError(err)
			}
			enc := json.NewEncoder(cmd.Root().Writer)
			enc.SetEscapeHTML(false)
			rejected := 0
			for _, arg := range cmd.Args().Slice() {
				root, paths, err := chunkInputs(arg, cfg.Filter)
				if err != nil {
					return err
				}
				cfg.Corpus = root
				if root == "" {
					cfg.Corpus = "."
				}
				p := markdown.NewParser(cfg.Corpus, cfg.CorpusOptions())
				q := chunking.NewQuality(ch)
				for _, path := range paths {
					file := path // a FILE argument, as given
					if root != "" {
						file = filepath.Join(root, filepath.FromSlash(path))
					}
					raw, err := os.ReadFile(file)
					if err != nil {
						return err
					}
					parsed := p.ParseBytes(path, raw)
					body := parsed.Body()
					chunks, diags := ch.Chunk(body)
					if parsed.Rejected {
						rejected++
					}
					if cmd.Bool("stats") {
						if !parsed.Rejected && !parsed.Doc.Draft {
							for i := range chunks {
								chunks[i].ContextHeader = extractive.Header(parsed.Doc.Title, chunks[i], cfg.Header.MaxChars)
							}
							q.Add(ch, body, chunks)
						}
						continue
					}
					for _, d := range append(parsed.Diags, diags...) {
						fmt.Fprintln(cmd.Root().ErrWriter, d.String())
					}
					for _, c := range chunks {
						line := chunkLine{Path: path, Order: c.Order, Kind: string(c.Kind), Element: string(c.Element), SectionPath: c.SectionPath,
							LineStart: c.LineStart, LineEnd: c.LineEnd, TokenCount: c.TokenCount, Oversize: c.Oversize, LeadIn: c.LeadIn, Text: c.Text}
						if err := enc.Encode(line); err != nil {
							return err
						}
					}
				}
				if cmd.Bool("stats") {
					q.Write(cmd.Root().Writer, arg)
				}
			}
			if rejected > 0 && !cmd.Bool("stats") {
				return errPartial
			}
			return nil
		},
	}
}

// chunkInputs is what one argument of chunk names: a file (no root: its
// path is read and printed as given) or a corpus folder and its documents.
func chunkInputs(arg string, filter corpus.Filter) (root string, paths []string, err error) {
	info, err := os.Stat(arg)
	if err != nil {
		return "", nil, err
	}
	if !info.IsDir() {
		return "", []string{arg}, nil
	}
	l, err := corpus.ScanFiltered(arg, filter)
	if err != nil {
		return "", nil, err
	}
	return arg, l.Docs, nil
}
