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
	// MkDocs: Material's "language: pt" (the i18n plugin's default is
	// read with the plugin, readMkdocs)
	themeLanguageRe = regexp.MustCompile(`(?m)^\s+language\s*:\s*["']?([A-Za-z_-]+)`)
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
		for _, l := range readMkdocs(config).langs {
			if l.Default {
				return l.Locale
			}
		}
		if m := themeLanguageRe.FindStringSubmatch(config); m != nil {
			return m[1]
		}
	}
	return ""
}
