package corpus

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/ocean-safety/ingest/schema"
)

// How a document's language was decided, from the strongest evidence: what
// the document says, the folder it is in, what its words are, the default.
const (
	LangFromDocument = "document" // a Lang: line or a lang/language front-matter key
	LangFromPath     = "path"     // a folder named for a language (pt, pt-BR, pt_br, en, en-us…) or a file name's suffix (a.pt.md)
	LangFromWords    = "detected" // the built-in detector: stop words of English and Portuguese
	LangFromDefault  = "default"  // default_lang: nothing else said
)

// resolveLang decides the document's language and records how; words are
// the document's prose, read when nothing else says.
func resolveLang(doc *schema.Document, h header, words string, opt Options, ds *diagnostics) {
	if h.lang.value != "" {
		l, err := schema.ParseLang(langTag(h.lang.value))
		if err != nil {
			ds.add(h.lang.line, schema.SeverityError, "unknown-lang", err.Error())
		} else {
			doc.Lang, doc.LangFrom = l, LangFromDocument
			return
		}
	}
	if l, _, ok := suffixLang(doc.Path); ok {
		doc.Lang, doc.LangFrom = l, LangFromPath
		return
	}
	if l, ok := pathLang(doc.Path, opt.RootName); ok {
		doc.Lang, doc.LangFrom = l, LangFromPath
		return
	}
	if l, ok := detectLang(h.title.value + "\n" + h.description.value + "\n" + words); ok { // a short page's title and description say as much as its prose
		doc.Lang, doc.LangFrom = l, LangFromWords
		return
	}
	doc.Lang, doc.LangFrom = opt.DefaultLang, LangFromDefault
}

// langTag folds a language tag to the forms schema.ParseLang reads:
// "pt_BR", "pt-br", "Portuguese" → "pt-BR"/"pt"; "en-US" → "en".
func langTag(s string) string {
	t := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), "_", "-"))
	switch {
	case t == "pt" || strings.HasPrefix(t, "pt-") || t == "portuguese" || t == "português":
		return string(schema.LangPT)
	case t == "en" || strings.HasPrefix(t, "en-") || t == "english":
		return string(schema.LangEN)
	}
	return s
}

// pathLang finds a folder of rel (or the corpus folder itself) named for a
// language ingest knows, nearest the file first.
// RootLang is the language the corpus folder's own name stands for (a
// folder named "pt" or "en-US"), "" when it names none: what the folder a
// corpus is read from decides of its documents, beside its default label.
func RootLang(root string) schema.Lang {
	l, _ := pathLang("", filepath.Base(filepath.Clean(root)))
	return l
}

func pathLang(rel, root string) (schema.Lang, bool) {
	segs := strings.Split(path.Dir(rel), "/")
	for i := len(segs) - 1; i >= -1; i-- {
		seg := root
		if i >= 0 {
			seg = segs[i]
		}
		if seg == "" || seg == "." {
			continue
		}
		t := strings.ToLower(strings.ReplaceAll(seg, "_", "-"))
		if t == "pt" || t == "pt-br" || t == "en" || t == "en-us" || t == "en-gb" {
			l, err := schema.ParseLang(langTag(t))
			return l, err == nil
		}
	}
	return "", false
}

// suffixLang reads the language a file's name gives it before its
// extension, as mkdocs-static-i18n's suffix layout and Hugo's translation
// by file name write it ("a.pt.md", "a.pt-BR.md", "a.en.md"), and returns
// rel without it ("a.md"), the path the site serves the page by. Only the
// languages ingest reads count: "a.zh.md" or "v1.2.md" say nothing. It
// applies whatever the site's layout: a page named for a language is in
// it, and no site writes "x.pt.md" for a page not in Portuguese.
func suffixLang(rel string) (schema.Lang, string, bool) {
	ext := path.Ext(rel)
	stem := strings.TrimSuffix(rel, ext)
	tag := path.Ext(stem)
	if tag == "" || strings.Contains(tag, "/") {
		return "", rel, false
	}
	switch strings.ToLower(strings.ReplaceAll(tag[1:], "_", "-")) {
	case "en", "en-us", "en-gb", "pt", "pt-br", "pt-pt":
		l, err := schema.ParseLang(langTag(tag[1:]))
		return l, strings.TrimSuffix(stem, tag) + ext, err == nil
	}
	return "", rel, false
}

// Stop words: the commonest function words, frequent in any prose of the
// language and rare in the other.
var (
	enWords = set("the and of to is in that for with you are this on be it can by from or not your if an will when which was have has but they their these than should into about")
	ptWords = set("de que o e do da em para com não os uma um é na se por mais dos das ao ou você quando pelo pela também seu sua são como sobre mas pode está isso entre sem até à ser há") // not "no" or "as", words of both
)

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// detectLang counts English and Portuguese stop words in the prose of a
// Markdown body (fenced code skipped) and answers when one language has
// clearly more: at least 8 hits and twice the other's. Only words count:
// a token with a digit, a slash, a dot inside or any other mark (a URL's
// "com", a commit hash's "e", a path, an identifier) says nothing of the
// language around it.
func detectLang(body string) (schema.Lang, bool) {
	en, pt := 0, 0
	eachProseLine(body, func(l, _ string) bool {
		for _, tok := range strings.Fields(l) {
			w := strings.ToLower(strings.Trim(tok, wordEdges))
			if w == "" || !isWord(w) {
				continue
			}
			if enWords[w] {
				en++
			}
			if ptWords[w] || strings.ContainsAny(w, ptMarks) {
				pt++
			}
		}
		return true
	})
	switch {
	case en+pt < 8:
		return "", false
	case en >= 2*pt:
		return schema.LangEN, true
	case pt >= 2*en:
		return schema.LangPT, true
	}
	return "", false
}

// ptMarks are the letters of Portuguese words that English words never
// have (ã, ç, õ; the accents of "não", "você", "código"): a word with one
// counts for Portuguese as a stop word does, so a short page of technical
// terms and names still says its language.
const ptMarks = "ãõçáéíóúâêôàÃÕÇÁÉÍÓÚÂÊÔÀ"

// wordEdges is punctuation that may wrap a word in prose: quotes, brackets,
// emphasis, and the marks that end a clause.
const wordEdges = "\"'“”‘’«»()[]{}*_,.;:!?…"

// isWord reports whether w is letters only (Latin, with accents).
func isWord(w string) bool {
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 0xC0 && r <= 0x24F && r != 0xD7 && r != 0xF7) {
			return false
		}
	}
	return true
}
