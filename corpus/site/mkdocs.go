package site

import (
	"path/filepath"
	"regexp"
	"strings"
)

// How an MkDocs i18n site names a page's translations (mkdocs-static-i18n's
// docs_structure).
const (
	// Suffix: a.md is the default language's page, a.pt.md its Portuguese
	// translation, in one tree (the plugin's default, and the only layout
	// of its releases before 0.46).
	Suffix = "suffix"
	// Folder: docs/en/a.md, docs/pt/a.md, a tree per language.
	Folder = "folder"
)

// SiteLang is a language a site's config lists.
type SiteLang struct {
	// Locale is the tag as the site writes it, in its file names (a.pt-BR.md)
	// and its addresses (/pt-BR/).
	Locale string
	// Default: the site's default language, served at its root.
	Default bool
	// Build is false when the config says the site does not build it
	// (build: false): its pages are on no page of the site.
	Build bool
}

// mkdocsConfig is what ingest reads of an mkdocs.yml: where its pages are,
// how mkdocs-static-i18n names their translations, and where the macros
// plugin reads includes from. mkdocs.yml is read line by line, not as YAML:
// sites write Python tags in it (!!python/name:…, !ENV) a YAML reader
// refuses, and only these few keys matter.
type mkdocsConfig struct {
	docsDir    string     // docs_dir, "" when unset (docs)
	structure  string     // Suffix or Folder when the i18n plugin is on, else ""
	langs      []SiteLang // the plugin's languages, in the config's order
	includeDir string     // the macros plugin's include_dir, relative to mkdocs.yml's folder
}

var (
	docsDirRe = regexp.MustCompile(`^docs_dir\s*:\s*["']?([^"'#]+?)["']?\s*(?:#.*)?$`)
	// a plugin's item under plugins: "  - i18n:" (its settings below it)
	// or "  - i18n" (none)
	pluginItemRe = regexp.MustCompile(`^(\s*)-\s+["']?([A-Za-z0-9_/.-]+)["']?\s*:?\s*$`)
	keyRe        = regexp.MustCompile(`^(\s*)(?:-\s+)?["']?([A-Za-z0-9_-]+)["']?\s*:\s*(.*?)\s*(?:#.*)?$`)
)

// readMkdocs reads the settings of config (an mkdocs.yml's text) that
// shape what ingest init writes.
func readMkdocs(config string) mkdocsConfig {
	var c mkdocsConfig
	lines := strings.Split(config, "\n")
	inPlugins := false // in the top-level plugins: list (markdown_extensions: holds items too)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := docsDirRe.FindStringSubmatch(l); m != nil {
			c.docsDir = strings.TrimSpace(m[1])
			continue
		}
		if l != "" && l[0] != ' ' && l[0] != '-' && l[0] != '#' && l[0] != '\r' {
			inPlugins = strings.HasPrefix(l, "plugins:")
		}
		m := pluginItemRe.FindStringSubmatch(l)
		if m == nil || !inPlugins {
			continue
		}
		body := block(lines[i+1:], len(m[1]), false)
		switch m[2] {
		case "i18n":
			c.structure, c.langs = readI18n(body)
		case "macros":
			for _, b := range body {
				if k := keyRe.FindStringSubmatch(b); k != nil && k[2] == "include_dir" {
					c.includeDir = unquote(k[3])
				}
			}
		}
	}
	return c
}

// block is the lines below a key at indent that belong to it: those
// indented deeper, blank ones among them, and when items is set the list
// items at its own indent (YAML's "languages:" over "- locale: en").
func block(lines []string, indent int, items bool) []string {
	n := 0
	for ; n < len(lines); n++ {
		l := lines[n]
		in := len(l) - len(strings.TrimLeft(l, " "))
		if strings.TrimSpace(l) == "" {
			continue
		}
		if in < indent || in == indent && !(items && strings.HasPrefix(l[in:], "-")) {
			break
		}
	}
	return lines[:n]
}

// readI18n reads the settings of mkdocs-static-i18n in its two formats:
// before 1.0 a default_language key and languages as a map (en: english,
// or en: over name: and build:); from 1.0 languages as a list of items,
// each with its locale, the default one saying default: true.
func readI18n(body []string) (structure string, langs []SiteLang) {
	structure, oldDefault, top := Suffix, "", -1
	for i, l := range body {
		k := keyRe.FindStringSubmatch(l)
		if k == nil {
			continue
		}
		if top < 0 {
			top = keyCol(l)
		}
		if keyCol(l) != top {
			continue
		}
		switch value := unquote(k[3]); k[2] {
		case "docs_structure":
			structure = strings.ToLower(value)
		case "default_language":
			oldDefault = value
		case "languages":
			langs = readLanguages(block(body[i+1:], keyCol(l), true))
		}
	}
	if oldDefault == "" {
		return structure, langs
	}
	for i := range langs {
		langs[i].Default = langs[i].Locale == oldDefault
	}
	if !hasDefault(langs) { // a default language the map leaves out
		langs = append([]SiteLang{{Locale: oldDefault, Default: true, Build: true}}, langs...)
	}
	return structure, langs
}

// readLanguages reads the plugin's languages: a list of items ("- locale:
// en", its keys below) or a map by locale; deeper keys (nav_translations)
// are not a language's.
func readLanguages(lines []string) []SiteLang {
	var langs []SiteLang
	first, list := -1, false
	for _, l := range lines {
		k := keyRe.FindStringSubmatch(l)
		if k == nil {
			continue
		}
		item := strings.HasPrefix(strings.TrimSpace(l), "-")
		if first < 0 {
			first, list = keyCol(l), item
		}
		key, value := k[2], unquote(k[3])
		switch {
		case list && item && keyCol(l) == first:
			langs = append(langs, SiteLang{Build: true})
			setLang(&langs[len(langs)-1], key, value)
		case list && keyCol(l) == first && len(langs) > 0:
			setLang(&langs[len(langs)-1], key, value)
		case !list && keyCol(l) == first:
			langs = append(langs, SiteLang{Locale: key, Build: true})
		case !list && key == "build" && len(langs) > 0:
			langs[len(langs)-1].Build = value != "false"
		}
	}
	return langs
}

// keyCol is the column a line's key starts at, after its indent and a
// list item's dash.
func keyCol(l string) int { return len(l) - len(strings.TrimLeft(l, " -")) }

func setLang(l *SiteLang, key, value string) {
	switch key {
	case "locale":
		l.Locale = value
	case "default":
		l.Default = value == "true"
	case "build":
		l.Build = value != "false"
	}
}

func hasDefault(langs []SiteLang) bool {
	for _, l := range langs {
		if l.Default {
			return true
		}
	}
	return false
}

func unquote(s string) string { return strings.Trim(strings.TrimSpace(s), `"'`) }

// applyMkdocs sets what an mkdocs.yml says of the layout: its pages'
// folder (docs_dir), its languages and how their pages are named, its
// includes' folder (relative to the content folder, its files partials
// when they sit in it).
func (l *Layout) applyMkdocs(root, config string, atRoot bool) {
	c := readMkdocs(config)
	if c.docsDir != "" && atRoot {
		if d := filepath.Join(root, filepath.FromSlash(c.docsDir)); isDir(d) {
			l.Content = d
		}
	}
	if c.structure != "" { // its default language is read with the rest (defaultLang)
		l.Structure, l.SiteLangs = c.structure, c.langs
	}
	if c.includeDir == "" {
		return
	}
	inc := filepath.Join(root, filepath.FromSlash(c.includeDir))
	rel, err := filepath.Rel(l.Content, inc)
	if err != nil || !isDir(inc) {
		return
	}
	rel = filepath.ToSlash(rel)
	l.Includes = append(l.Includes, rel)
	if rel != "." && !strings.HasPrefix(rel, "../") {
		l.Partials = append(l.Partials, rel+"/**")
	}
}
