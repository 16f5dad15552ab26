package settings

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/shard"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
)

// Defaults, each with its reason.
const (
	// Header calls in flight are learned per server (models.Lanes),
	// starting at models.DefaultStartWidth, up to llm_max_concurrency.
	defaultLLMConcurrency = 0
	// Ollama serves one request per model at once by default
	// (OLLAMA_NUM_PARALLEL); a second in flight keeps it from idling
	// between two, more only queue there and wait out their timeout.
	defaultEmbedConcurrency = 2
	// A nightly corpus loses a few documents, not half of them: more is a
	// wrong folder, a failed checkout or a broken generator.
	defaultMaxShrink = 0.5
)

// Config is everything a run is shaped by, and how hard it works. The config
// file and the flags fill it at the edge; Validate checks it once, before any
// work starts. Where the run reads and writes is not here: that is its
// publish.Target.
type Config struct {
	Corpus  string `yaml:"corpus" json:"-"`
	Workers int    `yaml:"workers" json:"-"` // 0: one per core
	// LLMConcurrency fixes the header calls in flight in all, over the
	// servers (0: each server's is learned at run time, from
	// models.DefaultStartWidth up to LLMMaxConcurrency, or read from what
	// the server says). EmbedConcurrency bounds the embedding batches in
	// flight (0: as Workers). A model server's request slots stay full
	// without queueing calls into their timeouts.
	LLMConcurrency    int `yaml:"llm_concurrency" json:"-"`
	EmbedConcurrency  int `yaml:"embed_concurrency" json:"-"`
	LLMMaxConcurrency int `yaml:"llm_max_concurrency" json:"-"` // the most header calls in flight one server is given

	Strict bool `yaml:"strict" json:"-"`

	TenantID    string `yaml:"tenant_id" json:"tenant_id"`
	SourceLabel string `yaml:"source_label" json:"source_label"`
	DefaultLang string `yaml:"default_lang" json:"default_lang"`
	// RequireSource makes a missing "Source:" an error (true, the default) or
	// a warning.
	RequireSource bool `yaml:"require_source" json:"require_source"`
	// SourceURLTemplate gives a document without a source URL one made from
	// its path: "https://opentelemetry.io/{path}/" (see corpus.SourceURL).
	SourceURLTemplate string `yaml:"source_url_template" json:"source_url_template"`
	// SourceURLTemplates are the templates of the languages a site serves
	// elsewhere: {en: "https://opentelemetry.io/{page}/"} beside
	// "https://opentelemetry.io/{lang}/{page}/" for a site whose default
	// language has no folder in its addresses. Left out of the config's
	// JSON (and so of its hash) when empty: a config without them hashes
	// as it did.
	SourceURLTemplates map[string]string `yaml:"source_url_templates" json:"source_url_templates,omitempty"`
	// MetadataKeys are the front-matter keys copied into each chunk's
	// metadata column (tags, categories…), for consumers to filter on.
	MetadataKeys []string `yaml:"metadata_keys" json:"metadata_keys"`
	// Include and Exclude choose the corpus's documents by path (globs).
	corpus.Filter `yaml:",inline"`

	Chunk  chunking.Config `yaml:"chunk" json:"chunk"`
	Embed  EmbedConfig     `yaml:"embed" json:"embed"`
	Header HeaderConfig    `yaml:"header" json:"header"`
	Limits corpus.Limits   `yaml:"limits" json:"limits"`
	// Includes are where include directives (snippets, include-markdown,
	// {* file *}) may read besides the corpus.
	Includes IncludesConfig `yaml:"includes" json:"includes,omitzero"` // omitted when unset: the config hash of a site without includes is what it was

	// Diagnostics are the warnings the run accepts; they do not shape the
	// output (diagnostics.jsonl marks them), so they are not hashed.
	Diagnostics DiagnosticsConfig `yaml:"diagnostics" json:"-"`

	// Publish guards what replaces a good snapshot; it does not shape the
	// output, so it is not in the config hash.
	Publish PublishConfig `yaml:"publish" json:"-"`
	// AllowShrink accepts a run that drops more than publish.max_shrink of
	// the previous snapshot's documents (--allow-shrink; never from a file).
	AllowShrink bool `yaml:"-" json:"-"`
	// RetryRejected asks the model again for the chunks whose header in the
	// previous snapshot is a fallback (--retry-rejected; never from a file):
	// otherwise an unchanged chunk's failed answer is reused like any other.
	RetryRejected bool `yaml:"-" json:"-"`
	// Shard, when set, runs one shard of the corpus into a part snapshot
	// (--shard K/N) for Merge to assemble; it does not shape the chunks.
	Shard shard.Shard `yaml:"-" json:"-"`
	// ShardRun names the sharded run a part belongs to (see
	// artifacts.ShardInfo.Run).
	ShardRun string `yaml:"-" json:"-"`
}

// IncludesConfig names the folders include directives may read from.
type IncludesConfig struct {
	// Base are folders (absolute, or relative to the corpus folder) a
	// site's includes come from: FastAPI's docs_src, a snippets folder.
	Base []string `yaml:"base" json:"base"`
}

// PublishConfig guards publishing.
type PublishConfig struct {
	// MaxShrink is the largest share of the replaced snapshot's documents a
	// run may drop (0.5: half). A mis-pointed or half-broken corpus fails
	// instead of replacing a good snapshot.
	MaxShrink float64 `yaml:"max_shrink"`
}

// EmbedConfig shapes the vectors.
type EmbedConfig struct {
	Dims      int `yaml:"dims" json:"dims"`
	BatchSize int `yaml:"batch_size" json:"batch_size"`
	// MaxDims is the widest vector the consumers' index takes: a wider
	// model is refused at start.
	MaxDims int `yaml:"max_dims" json:"max_dims"`
}

// HeaderConfig shapes the context headers.
type HeaderConfig struct {
	MaxChars int `yaml:"max_chars" json:"max_chars"`
}

// DefaultConfig returns the configuration a run gets with no file and no flags.
func DefaultConfig() Config {
	return Config{
		LLMConcurrency:    defaultLLMConcurrency,
		EmbedConcurrency:  defaultEmbedConcurrency,
		LLMMaxConcurrency: models.DefaultMaxWidth,
		DefaultLang:       string(schema.LangEN),
		RequireSource:     true,
		Chunk:             chunking.DefaultConfig(),
		Embed:             EmbedConfig{Dims: models.DefaultDims, BatchSize: models.DefaultBatchSize, MaxDims: models.MaxDims},
		Header:            HeaderConfig{MaxChars: models.DefaultHeaderChars},
		Publish:           PublishConfig{MaxShrink: defaultMaxShrink},
		Limits:            corpus.DefaultLimits(),
	}
}

// Ranges of the numeric settings: wide enough for any real corpus and
// model, narrow enough that a typo (an extra zero, a minus sign) fails at
// start instead of an hour in, or by exhausting memory.
const (
	maxChunk       = 100_000 // characters or tokens: beyond any model's context
	maxDimsLimit   = 65_536
	maxBatch       = 1_000
	maxHeaderChars = 2_000
	maxConcurrency = 256
	maxWorkers     = 1_024
)

// Validate fails closed: every bad setting is reported at once, before any
// work is done, each a *schema.SettingError naming its key.
func (c Config) Validate() error {
	var errs []error
	bad := func(key, format string, a ...any) { errs = append(errs, schema.Setting(key, format, a...)) }
	between := func(key string, v, lo, hi int, why string) {
		if v < lo || v > hi {
			bad(key, "%d: want %d to %d%s", v, lo, hi, why)
		}
	}
	errs = append(errs, c.Chunk.Validate())
	for _, b := range c.Includes.Base {
		if !filepath.IsAbs(b) {
			b = filepath.Join(c.Corpus, b)
		}
		if info, err := os.Stat(b); err != nil || !info.IsDir() {
			bad("includes.base", "%s: not a folder", b)
		}
	}
	if c.Chunk.Max > maxChunk {
		bad("chunk.max", "%d: want at most %d", c.Chunk.Max, maxChunk)
	}
	between("embed.max_dims", c.Embed.MaxDims, 1, maxDimsLimit, "")
	between("embed.dims", c.Embed.Dims, 1, c.Embed.MaxDims, " (embed.max_dims)")
	between("embed.batch_size", c.Embed.BatchSize, 1, maxBatch, "")
	between("header.max_chars", c.Header.MaxChars, 16, maxHeaderChars, "")
	between("llm_concurrency", c.LLMConcurrency, 0, maxConcurrency, " (0: learned per server)")
	between("llm_max_concurrency", c.LLMMaxConcurrency, 1, maxConcurrency, "")
	between("embed_concurrency", c.EmbedConcurrency, 0, maxConcurrency, " (0: as workers)")
	between("workers", c.Workers, 0, maxWorkers, " (0: one per core)")
	between("limits.max_bytes", c.Limits.MaxBytes, 1<<10, 1<<30, "")
	between("limits.max_depth", c.Limits.MaxDepth, 4, 10_000, "")
	between("limits.max_blocks", c.Limits.MaxBlocks, 100, 10_000_000, "")
	between("limits.max_delimiters", c.Limits.MaxDelimiters, 100, 100_000_000, "")
	between("limits.max_block_delimiters", c.Limits.MaxBlockDelimiters, 10, 1_000_000, "")
	between("limits.max_link_openers", c.Limits.MaxLinkOpeners, 4, 1_000_000, "")
	between("limits.max_table_cells", c.Limits.MaxTableCells, 100, 100_000_000, "")
	errs = append(errs, c.Diagnostics.Validate())
	if err := c.Filter.Validate(); err != nil {
		bad("include/exclude", "%v", err)
	}
	checkTemplate := func(key, t string) {
		if t != "" && !strings.Contains(t, "{path}") && !strings.Contains(t, "{page}") {
			bad(key, "%q: want a {path} or {page} in it, or every document gets the same URL", t)
		} else if placeholderURL(t) {
			bad(key, "%q is a placeholder (ingest init writes it when it finds no site address): set the address of your site's pages", t)
		}
	}
	checkTemplate("source_url_template", c.SourceURLTemplate)
	for _, lang := range slices.Sorted(maps.Keys(c.SourceURLTemplates)) {
		key := "source_url_templates." + lang
		if !schema.Lang(lang).Valid() {
			bad(key, "%q is not in the closed set of languages: want %s", lang, langList())
			continue
		}
		if c.SourceURLTemplates[lang] == "" {
			bad(key, "empty: leave the language out to give its documents source_url_template")
			continue
		}
		checkTemplate(key, c.SourceURLTemplates[lang])
	}
	// The value is written on every chunk as it is, so it must be one of
	// the closed set itself; ParseLang's spellings (pt-BR) are a
	// document's, read before they are written.
	if l := schema.Lang(c.DefaultLang); !l.Valid() {
		msg := fmt.Sprintf("%q is not in the closed set of languages: want %s", c.DefaultLang, langList())
		if p, err := schema.ParseLang(c.DefaultLang); err == nil {
			msg += fmt.Sprintf(" (%s is written %s)", c.DefaultLang, p)
		}
		bad("default_lang", "%s", msg)
	}
	if err := checkTenant(c.TenantID); err != nil {
		bad("tenant_id", "%v", err)
	}
	if c.SourceLabel != "" {
		if err := corpus.CheckSourceLabel(c.SourceLabel); err != nil {
			bad("source_label", "%v", err)
		}
	}
	errs = append(errs, c.Publish.Validate())
	return errors.Join(errs...)
}

// Validate checks the guard is a share, for a run and a merge alike. It is
// written so that NaN fails too: every comparison with NaN is false, and
// "< 0 || > 1" let .nan through, which switched the shrink guard off (a
// 1-document corpus replaced 29 documents).
func (p PublishConfig) Validate() error {
	if s := p.MaxShrink; !(s >= 0 && s <= 1) {
		return schema.Setting("publish.max_shrink", "%g: want a share from 0 (no document may go) to 1 (any may)", s)
	}
	return nil
}

// CheckSpelled checks the values a config file spells out (set reports
// which keys it sets) against what a value means only when left out:
// chunking.AutoMin (-1) is chunk.min's "a quarter of chunk.max" in the
// defaults, and a file that writes chunk.min: -1 gets the error -2 gets,
// not the default in disguise.
func (c Config) CheckSpelled(set func(key string) bool) error {
	if set("chunk.min") && c.Chunk.Min < 0 {
		return schema.Setting("chunk.min", "%d: want 0 ≤ min ≤ max (%d), or leave chunk.min out for a quarter of max", c.Chunk.Min, c.Chunk.Max)
	}
	return nil
}

// checkTenant accepts no tenant or a UUID in its canonical form (lower-case
// 8-4-4-4-12): the tenant goes into every chunk id and sync keys rows by it,
// so "ABC…" and "abc…", or a name that is no UUID, must not make other ids
// than the tenant's own (or fail only at sync, after the run).
func checkTenant(t string) error {
	if t == "" {
		return nil
	}
	u, err := uuid.Parse(t)
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a UUID: want the tenant's UUID (8-4-4-4-12 hex), or leave it empty", t)
	case u.String() != t:
		return fmt.Errorf("%q: write the UUID in its canonical form, %q", t, u.String())
	}
	return nil
}

// Hash is a digest of the settings that shape the output (not of where it
// goes or how many workers make it): a cache key and a manifest field. Every
// setting is a plain value with its default filled in, so a file that spells
// out a default hashes like one that leaves it out. Where the corpus is read
// from is not hashed, what it decides is: the source label it defaults to
// and the language its folder's name stands for (the same corpus read from
// another folder writes other rows, and must not pass for unchanged).
func (c Config) Hash() string {
	c.Chunk = c.Chunk.Resolved() // an unset chunk.min and the quarter of max it stands for shape the same chunks
	if c.SourceLabel == "" {
		c.SourceLabel = corpus.DefaultSourceLabel(c.Corpus) // the one the corpus reader takes
	}
	for _, l := range []*[]string{&c.MetadataKeys, &c.Include, &c.Exclude} {
		if len(*l) == 0 {
			*l = nil // "exclude: []" is no exclude
		}
	}
	b, _ := json.Marshal(struct {
		Config
		RootLang schema.Lang `json:"root_lang,omitempty"` // omitted when none: the hash of a plain folder's config is what it was
	}{c, corpus.RootLang(c.Corpus)}) // plain data: cannot fail
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// CorpusOptions are the settings that decide how a corpus document is read:
// the same for a run and for a preview of its chunks.
func (c Config) CorpusOptions() corpus.Options {
	return corpus.Options{DefaultLang: schema.Lang(c.DefaultLang), SourceOptional: !c.RequireSource, SourceLabel: c.SourceLabel, Limits: c.Limits,
		SourceURLTemplate: c.SourceURLTemplate, SourceURLTemplates: c.templates(), MetadataKeys: c.MetadataKeys, RootName: filepath.Base(filepath.Clean(c.Corpus)),
		Root: c.Corpus, IncludeBases: c.Includes.Base}
}

// templates are the per-language source URL templates as the corpus reads
// them (nil when none).
func (c Config) templates() map[schema.Lang]string {
	if len(c.SourceURLTemplates) == 0 {
		return nil
	}
	m := make(map[schema.Lang]string, len(c.SourceURLTemplates))
	for lang, t := range c.SourceURLTemplates {
		m[schema.Lang(lang)] = t
	}
	return m
}

// placeholderHosts are the example addresses ingest's own texts suggest
// (ingest init's starter, the missing-source diagnostic): a template on one
// of them would give every chunk a URL that leads nowhere.
var placeholderHosts = []string{"docs.example.org", "example.org"}

// placeholderURL reports whether template points at a placeholder host.
func placeholderURL(template string) bool {
	u, err := url.Parse(template)
	return err == nil && slices.Contains(placeholderHosts, strings.ToLower(u.Hostname()))
}

// langList is the closed set of languages, "en or pt".
func langList() string {
	names := make([]string, len(schema.Langs))
	for i, l := range schema.Langs {
		names[i] = string(l)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
