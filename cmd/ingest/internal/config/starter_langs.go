package config

import (
	"fmt"
	"slices"
	"strings"
)

// writeSuffixTemplates writes the address of each language a suffix-layout
// site serves elsewhere than its default's: mkdocs-static-i18n serves the
// default language at the site's root (source_url_template) and every other
// under its locale as the site writes it (/pt-BR/a/ for a.pt-BR.md), which
// {lang} (pt) could not say.
func writeSuffixTemplates(w func(string, ...any), s Site, base string) {
	var lines []string
	example := ""
	seen := map[string]bool{}
	for _, locale := range s.SiteLangs {
		lang, ok := ingestLang(locale)
		if !ok || seen[lang] || strings.EqualFold(locale, s.DefaultLang) {
			continue
		}
		seen[lang] = true
		if example == "" {
			example = locale
		}
		lines = append(lines, fmt.Sprintf("  %s: %q", lang, base+locale+"/{path}/"))
	}
	if len(lines) == 0 {
		return
	}
	w("# The other languages' pages are served under their locale (a.%s.md → %s%s/a/).", example, base, example)
	w("source_url_templates:")
	for _, l := range lines {
		w("%s", l)
	}
}

// leftOutLangs are the globs of the pages in languages ingest does not read
// (it reads en and pt; schema.Langs): labelled en or pt, they would be
// searched as what they are not; and of those the site does not build. It
// says so in the config, and what to do when the site's default language
// is one ingest does not read.
func leftOutLangs(w func(string, ...any), s Site) []string {
	var globs, names []string
	if s.Suffix {
		for _, locale := range s.SiteLangs {
			if _, ok := ingestLang(locale); !ok && !strings.EqualFold(locale, s.DefaultLang) {
				globs, names = append(globs, "**/*."+locale+".md"), append(names, locale)
			}
		}
	} else {
		for _, f := range s.Langs {
			if _, ok := ingestLang(f); !ok {
				globs, names = append(globs, f+"/**"), append(names, f)
			}
		}
	}
	var unbuilt []string
	for _, locale := range s.Unbuilt {
		if s.Suffix {
			unbuilt = append(unbuilt, "**/*."+locale+".md")
		} else if slices.Contains(s.Langs, locale) && !slices.Contains(globs, locale+"/**") {
			unbuilt = append(unbuilt, locale+"/**")
		}
	}
	if len(unbuilt) > 0 {
		w("# Pages in %s, which the site does not build (build: false): on no page of it.", strings.Join(s.Unbuilt, ", "))
	}
	if _, ok := ingestLang(s.DefaultLang); s.Suffix && s.DefaultLang != "" && !ok {
		w("# The site's default language, %s, is not one ingest reads: its pages (a.md) are only", s.DefaultLang)
		w("# told apart by their name; keep the translations alone with include: [\"**/*.en.md\"].")
	}
	if len(globs) > 0 {
		w("# Pages in %s, a language ingest does not read (it reads en and pt): labelled en or pt,", strings.Join(names, ", "))
		w("# they would be searched as what they are not.")
	}
	return append(globs, unbuilt...)
}
