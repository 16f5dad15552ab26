package site

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/text/language"
)

// isLang reports whether a folder's name is a language's: shaped like a tag
// (en, pt-BR, zh_Hans) and naming a language BCP 47 knows, so "js" or "ui"
// is not one.
func isLang(name string) bool {
	if !langFolder.MatchString(name) {
		return false
	}
	_, err := language.Parse(strings.ReplaceAll(name, "_", "-"))
	return err == nil
}

// errFound stops a walk at the first page.
var errFound = errors.New("found")

// holdsPages reports whether dir holds a Markdown page, at any depth: a
// language folder of a site holds its pages; js/ or an image folder none.
func holdsPages(dir string) bool {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != dir || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && isPage(d.Name()) {
			return errFound
		}
		return nil
	})
	return errors.Is(err, errFound)
}

// pagesBeside reports whether dir holds pages outside its subfolder lang.
func pagesBeside(dir, lang string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.Name() == lang || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if e.IsDir() && holdsPages(p) || !e.IsDir() && isPage(e.Name()) {
			return true
		}
	}
	return false
}

func isPage(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".mdx", ".markdown":
		return true
	}
	return false
}

var (
	// Hugo: defaultContentLanguage = "pt" (TOML) or defaultContentLanguage: pt (YAML)
	hugoDefaultRe = regexp.MustCompile(`(?m)^\s*["']?defaultContentLanguage["']?\s*[:=]\s*["']?([A-Za-z_-]+)`)
	// Hugo: defaultContentLanguageInSubdir = true: the default language
	// under its folder too
	hugoInSubdirRe = regexp.MustCompile(`(?m)^\s*["']?defaultContentLanguageInSubdir["']?\s*[:=]\s*true\b`)
	// Docusaurus: i18n: { defaultLocale: 'pt-BR', … }
	docusaurusDefaultRe = regexp.MustCompile(`\bdefaultLocale\s*:\s*["'` + "`" + `]([A-Za-z_-]+)`)
	// MkDocs: mkdocs-static-i18n's "- locale: pt" item with "default: true",
	// its older "default_language: pt", and Material's "language: pt"
	i18nLocaleRe      = regexp.MustCompile(`^(\s*)(?:-\s+)?locale\s*:\s*["']?([A-Za-z_-]+)`)
	i18nDefaultRe     = regexp.MustCompile(`^\s*(?:-\s+)?default\s*:\s*true\b`)
	i18nOldDefaultRe  = regexp.MustCompile(`(?m)^\s*default_language\s*:\s*["']?([A-Za-z_-]+)`)
	themeLanguageRe   = regexp.MustCompile(`(?m)^\s+language\s*:\s*["']?([A-Za-z_-]+)`)
	mkdocsItemStartRe = regexp.MustCompile(`^\s*-\s`)
)

// defaultLang is the default language a generator's config file names.
func defaultLang(gen, config string) string {
	switch gen {
	case Hugo:
		if m := hugoDefaultRe.FindStringSubmatch(config); m != nil {
			return m[1]
		}
		return "en" // Hugo's own default
	case Docusaurus:
		if m := docusaurusDefaultRe.FindStringSubmatch(config); m != nil {
			return m[1]
		}
	case MkDocs:
		if l := mkdocsI18nDefault(config); l != "" {
			return l
		}
		for _, re := range []*regexp.Regexp{i18nOldDefaultRe, themeLanguageRe} {
			if m := re.FindStringSubmatch(config); m != nil {
				return m[1]
			}
		}
	}
	return ""
}

// mkdocsI18nDefault is the locale of the i18n plugin's language item that
// says "default: true", in either order: an item's lines run from its "- ".
func mkdocsI18nDefault(config string) string {
	locale, isDefault := "", false
	for l := range strings.Lines(config) {
		if mkdocsItemStartRe.MatchString(l) {
			locale, isDefault = "", false
		}
		if m := i18nLocaleRe.FindStringSubmatch(l); m != nil {
			locale = m[2]
		}
		if i18nDefaultRe.MatchString(l) {
			isDefault = true
		}
		if locale != "" && isDefault {
			return locale
		}
	}
	return ""
}
