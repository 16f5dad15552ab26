// Package lexicon translates a question's terms between English and
// Portuguese, offline: a bilingual lexicon of Snowball stems (the terms
// lexical.Stemmer gives BM25), with a word each translation is written as
// (what an embedder reads). It has two sources: a dictionary in dictd's
// format, such as Debian's FreeDict packages read where they are
// installed (dictd.go, freedict.go), and the corpus itself, where a site
// has translated pages: the pages are paired by path, their sections
// aligned (align.go), and the terms that occur together in aligned sections
// learned as each other's translations (learn.go). Guess tells which
// language a question is written in, so only it is translated.
package lexicon
