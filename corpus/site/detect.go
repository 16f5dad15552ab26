package site

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Generators a layout can be.
const (
	Hugo       = "hugo"
	Docusaurus = "docusaurus"
	MkDocs     = "mkdocs"
)

// Layout is what Detect found of a docs folder.
type Layout struct {
	// Dir is the folder looked at.
	Dir string
	// Generator is Hugo, Docusaurus, MkDocs or "" (Markdown of no known
	// generator).
	Generator string
	// Evidence says what the generator was recognised by.
	Evidence string
	// Content is the folder of pages to index: Dir, or the generator's
	// content folder under it (content/, docs/).
	Content string
	// Lang is the language the content folder is named for ("" when it is
	// not one): Dir is a translation's folder (content/pt).
	Lang string
	// Langs are the language folders under Content (en, pt…), sorted: a
	// folder named by a known language that holds pages, never an assets
	// folder (js/, css/, img/).
	Langs []string
	// DefaultLang is the site's default language as its config names it
	// (Hugo's defaultContentLanguage, "en" when unset; MkDocs' i18n plugin
	// or theme language; Docusaurus's i18n.defaultLocale), "" when none
	// says.
	DefaultLang string
	// DefaultInFolder reports whether the site serves its default
	// language under a folder of its name too (Hugo's
	// defaultContentLanguageInSubdir); by default the three generators
	// serve it at the root and the other languages under theirs.
	DefaultInFolder bool
	// SiteURL is the site's address where its config names it (Hugo's
	// baseURL, Docusaurus's url, MkDocs's site_url).
	SiteURL string
	// Structure is how an MkDocs i18n site (mkdocs-static-i18n) names its
	// translations, Suffix (a.pt.md) or Folder (pt/a.md); "" for a site
	// without the plugin.
	Structure string
	// SiteLangs are the languages the plugin lists, in its order.
	SiteLangs []SiteLang
	// Includes are the folders the site's includes are read from (the
	// macros plugin's include_dir), relative to Content.
	Includes []string
	// Partials are globs of files that are pieces of pages, not pages
	// (Hugo's _includes), found in the folder.
	Partials []string
	// Documents counts the Markdown files under Content.
	Documents int
}

// langFolder is a folder named like a language tag (en, pt, pt-BR, zh_Hans).
var langFolder = regexp.MustCompile(`^(?i)[a-z]{2}(?:[-_](?:[a-z]{2}|[a-z]{4}))?$`)

// configs are the files each generator keeps at its site's root.
var configs = []struct{ generator, file string }{
	{Hugo, "hugo.toml"}, {Hugo, "hugo.yaml"}, {Hugo, "hugo.json"}, {Hugo, "config.toml"},
	{Docusaurus, "docusaurus.config.js"}, {Docusaurus, "docusaurus.config.ts"}, {Docusaurus, "docusaurus.config.mjs"},
	{MkDocs, "mkdocs.yml"}, {MkDocs, "mkdocs.yaml"},
}

// siteURL finds the site's address in its config file.
var siteURL = map[string]*regexp.Regexp{
	Hugo:       regexp.MustCompile(`(?m)^\s*baseURL\s*[:=]\s*["']?([^"'\s]+)`),
	Docusaurus: regexp.MustCompile(`(?m)^\s*url\s*:\s*["']([^"']+)["']`),
	MkDocs:     regexp.MustCompile(`(?m)^site_url\s*:\s*["']?([^"'\s]+)`),
}

// contentFolders are where each generator keeps its pages.
var contentFolders = map[string]string{Hugo: "content", Docusaurus: "docs", MkDocs: "docs"}

// Detect looks at dir: a site's root (its generator's config there, or in
// a folder above, up to three), or a content folder copied out of one.
func Detect(dir string) (Layout, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return Layout{}, err
	}
	if !info.IsDir() {
		return Layout{}, errors.New(dir + ": not a folder")
	}
	l := Layout{Dir: dir, Content: dir}
	if root, gen, file := findConfig(dir); gen != "" {
		l.Generator, l.Evidence = gen, file
		if b, err := os.ReadFile(file); err == nil {
			if m := siteURL[gen].FindSubmatch(b); m != nil {
				l.SiteURL = strings.TrimSuffix(string(m[1]), "/") + "/"
			}
			l.DefaultLang = defaultLang(gen, string(b))
			l.DefaultInFolder = gen == Hugo && hugoInSubdirRe.Match(b)
		}
		if root == dir {
			if c := filepath.Join(dir, contentFolders[gen]); isDir(c) {
				l.Content = c
			}
		}
		if gen == MkDocs {
			b, _ := os.ReadFile(file)
			l.applyMkdocs(root, string(b), root == dir)
		}
	}
	if base := filepath.Base(filepath.Clean(l.Content)); langFolder.MatchString(base) {
		l.Lang = strings.ToLower(base)
	}
	if l.Generator != Docusaurus { // Docusaurus keeps translations under i18n/: a folder of docs/ is a section
		l.Langs = langFolders(l.Content)
	}
	if len(l.Langs) == 1 && pagesBeside(l.Content, l.Langs[0]) {
		l.Langs = nil // one folder named like a language among pages and sections ("os", "id") is a section
	}
	if l.Generator == Docusaurus { // translations: i18n/<lang>/docusaurus-plugin-content-docs/current
		for _, lang := range langFolders(filepath.Join(dir, "i18n")) {
			if isDir(filepath.Join(dir, "i18n", lang, "docusaurus-plugin-content-docs", "current")) {
				l.Langs = append(l.Langs, lang)
			}
		}
	}
	shape := map[string]int{}
	_ = filepath.WalkDir(l.Content, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if strings.HasPrefix(name, ".") && p != l.Content || name == "node_modules" {
				return filepath.SkipDir
			}
			if name == "_includes" || name == "_partials" {
				shape["partials:"+name]++
			}
			return nil
		}
		switch ext := strings.ToLower(filepath.Ext(name)); {
		case name == "_index.md":
			shape[Hugo]++
			l.Documents++
		case name == "_category_.json" || name == "_category_.yml" || ext == ".mdx":
			shape[Docusaurus]++
			if ext == ".mdx" {
				l.Documents++
			}
		case name == ".pages":
			shape[MkDocs]++
		case ext == ".md" || ext == ".markdown":
			l.Documents++
		}
		return nil
	})
	if l.Generator == "" {
		for _, g := range []string{Hugo, Docusaurus, MkDocs} {
			if n := shape[g]; n > 0 && (l.Generator == "" || n > shape[l.Generator]) {
				l.Generator, l.Evidence = g, evidence(g, n)
			}
		}
	}
	for _, p := range []string{"_includes", "_partials"} {
		if shape["partials:"+p] > 0 {
			l.Partials = append(l.Partials, "**/"+p+"/**")
		}
	}
	return l, nil
}

func evidence(gen string, n int) string {
	what := map[string]string{Hugo: "_index.md pages", Docusaurus: "_category_ files and .mdx pages", MkDocs: ".pages files"}[gen]
	return strings.TrimSpace(strings.Join([]string{itoa(n), what}, " "))
}

func itoa(n int) string { return strconv.Itoa(n) }

// findConfig finds a generator's config file in dir or the folders above
// it (a content folder's site), and returns the site's root.
func findConfig(dir string) (root, generator, file string) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", "", ""
	}
	for range 4 {
		for _, c := range configs {
			if p := filepath.Join(d, c.file); isFile(p) {
				if d == mustAbs(dir) {
					return dir, c.generator, filepath.Join(dir, c.file)
				}
				return d, c.generator, p
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", "", ""
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// langFolders are dir's subfolders named like languages, sorted.
func langFolders(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && isLang(e.Name()) && holdsPages(filepath.Join(dir, e.Name())) {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

func isDir(p string) bool  { i, err := os.Stat(p); return err == nil && i.IsDir() }
func isFile(p string) bool { i, err := os.Stat(p); return err == nil && i.Mode().IsRegular() }
