package config

import (
	"fmt"
	"slices"
	"strings"
)

// Site is what ingest init found of a docs folder (package site detects
// it; config only writes).
type Site struct {
	Generator string   // hugo, docusaurus, mkdocs or ""
	Evidence  string   // what it was recognised by
	Content   string   // the folder to index
	Lang      string   // the language the content folder is named for
	Langs     []string // its language folders
	// DefaultLang is the site's default language as its config names it
	// ("" when none does).
	DefaultLang string
	// DefaultInFolder: the site serves its default language under that
	// language's folder too, not at its root.
	DefaultInFolder bool
	SiteURL         string   // the site's address, "" when unknown
	Partials        []string // globs of partials
	Documents       int
	// Suffix: the site names a page's translations by suffix (a.pt.md,
	// mkdocs-static-i18n's suffix layout), not by folder.
	Suffix bool
	// SiteLangs are the locales the site's config lists and builds, as it
	// writes them (en, pt-BR, zh), its default among them.
	SiteLangs []string
	// Unbuilt are the locales it lists with build: false: their pages are
	// on no page of the site.
	Unbuilt []string
	// Includes are the folders its includes are read from, relative to
	// Content.
	Includes []string
}

// Starter is a commented config file for a site: the few keys a docs
// folder needs, set where what was found says how, and the rest as
// comments with their defaults. It parses as a config (TestStarter).
func Starter(s Site) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	what := "Markdown of no generator ingest knows"
	if s.Generator != "" {
		what = fmt.Sprintf("a %s site (%s)", map[string]string{"hugo": "Hugo", "docusaurus": "Docusaurus", "mkdocs": "MkDocs"}[s.Generator], s.Evidence)
	}
	w("# ingest config for %s: %s, %d Markdown files.", s.Content, what, s.Documents)
	if len(s.Langs) > 0 {
		w("# Language folders: %s. Each document's language is its folder's; index a translation", strings.Join(s.Langs, ", "))
		w("# on its own (--corpus %s/%s) to give it a source label of its own.", strings.TrimSuffix(s.Content, "/"), s.Langs[len(s.Langs)-1])
	}
	if s.Suffix && s.DefaultLang != "" {
		other := "pt" // the example: a translation ingest reads, else any
		for _, l := range slices.Backward(s.SiteLangs) {
			if _, ok := ingestLang(l); !strings.EqualFold(l, s.DefaultLang) && (ok || other == "pt") {
				other = l
			}
		}
		w("# Languages by suffix (mkdocs-static-i18n): a.%s.md is a.md in %s; a.md is in the default, %s.", other, other, s.DefaultLang)
	}
	w("# Every key left out takes its default: ingest config --config FILE prints them all,")
	w("# with where each value comes from. Then: ingest index --corpus %s --config FILE --out out/knowledge", s.Content)
	w("")
	base := s.SiteURL
	urlNote := ""
	if base == "" {
		base = "https://docs.example.org/" // a placeholder index refuses (settings.placeholderHosts)
		urlNote = ". No address was found: replace this placeholder, which index refuses"
	}
	site, siteOK := ingestLang(s.DefaultLang)
	if !siteOK {
		site = "en"
	}
	tmpl := base + "{path}/"
	rootFolder := ""                                                 // the default language's folder, when the site serves its pages at the root
	if lang, _ := ingestLang(s.Lang); s.Lang != "" && lang != site { // a translation: Hugo and Docusaurus serve it under its language
		tmpl = base + "{lang}/{path}/"
	} else if !s.DefaultInFolder {
		for _, f := range s.Langs {
			if lang, _ := ingestLang(f); lang == site {
				rootFolder = f
			}
		}
	}
	// A document's language when neither it nor its folder says: the
	// translation's when the content folder is one, else the site's default.
	def, defOK, defFrom := site, siteOK, "the site's default, "+s.DefaultLang
	if lang, ok := ingestLang(s.Lang); ok {
		def, defOK, defFrom = lang, true, "the folder's language, "+s.Lang
	}
	w("# A page's address for documents that name none: {path} is the file's path without its")
	w("# extension, a language suffix (a.pt.md) and a final index or _index, {lang} its language")
	w("# (en, pt)%s.", urlNote)
	w("source_url_template: %q", tmpl)
	if s.Suffix {
		writeSuffixTemplates(w, s, base)
	} else if rootFolder != "" {
		w("# The default language's pages are served at the site's root, without their folder")
		w("# (%s/docs/a.md → %sdocs/a/): {page} is the path without its language folder.", rootFolder, base)
		w("source_url_templates:")
		w("  %s: %q", site, base+"{page}/")
	}
	if len(s.Includes) > 0 {
		w("# Where the pages' includes ({%% include 'x.md' %%}) name their files, relative to the corpus.")
		w("includes: {base: [%s]}", quoteList(s.Includes))
	}
	exclude := slices.Concat(s.Partials, leftOutLangs(w, s))
	if len(s.Partials) > 0 {
		w("# Pieces of pages that the generator includes, not pages of their own.")
	}
	if len(exclude) > 0 {
		w("exclude: [%s]", quoteList(exclude))
	} else {
		w("# exclude: [\"**/drafts/**\"]   # doublestar globs of files that are not pages")
	}
	w("")
	switch {
	case defOK:
		w("# A document's language when neither it nor its folder says: %s.", defFrom)
		w("default_lang: %s", def)
	case s.DefaultLang != "":
		w("# default_lang: en          # the site's default language, %s, is not one ingest reads (en or pt)", s.DefaultLang)
	default:
		w("# default_lang: en          # a document's language when neither it nor its folder says (en or pt)")
	}
	w("# source_label: \"\"          # the scope key of every chunk; left out: the folder's name (a language folder with its parent's)")
	w("# require_source: true      # false: a document without a source URL is a warning, not rejected")
	w("# metadata_keys: [tags]     # front-matter keys copied into each chunk's metadata")
	w("# chunk: {unit: chars, max: 700, overlap: 0}")
	w("# diagnostics:              # warnings the corpus lives with: not printed, not failing --strict")
	w("#   ignore: [table-in-prose]")
	w("#   paths: {\"blog/**\": [\"*\"]}")
	w("# publish: {max_shrink: 0.5}")
	return b.String()
}

// ingestLang is the language ingest reads a site's language tag as (en, pt),
// and whether it reads it at all.
func ingestLang(tag string) (string, bool) {
	switch base, _, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(tag, "_", "-")), "-"); base {
	case "en", "pt":
		return base, true
	}
	return "", false
}

func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}
