package schema

import "fmt"

// Lang is the language of a document: English or Brazilian Portuguese.
type Lang string

// The languages the corpus is written in.
const (
	LangEN Lang = "en"
	LangPT Lang = "pt"
)

// Langs lists every language in a stable order.
var Langs = []Lang{LangEN, LangPT}

// ParseLang returns the Lang named by s. "pt-BR" is accepted as pt.
func ParseLang(s string) (Lang, error) {
	switch s {
	case "en":
		return LangEN, nil
	case "pt", "pt-BR", "pt-br":
		return LangPT, nil
	}
	return "", fmt.Errorf("unknown lang %q (want en or pt)", s)
}

// Element is the structural element a chunk was cut from. The set is closed:
// a chunk with any other element is a bug, caught before anything is written.
type Element string

// The elements a chunk can be.
const (
	ElementParagraph      Element = "paragraph"
	ElementSectionHeading Element = "section_heading"
	ElementCodeBlock      Element = "code_block"
	ElementListItem       Element = "list_item"
	ElementTableRow       Element = "table_row"
)

// Elements lists every element in a stable order.
var Elements = []Element{ElementParagraph, ElementSectionHeading, ElementCodeBlock, ElementListItem, ElementTableRow}

// Valid reports whether e is one of Elements.
func (e Element) Valid() bool {
	for _, v := range Elements {
		if v == e {
			return true
		}
	}
	return false
}

// Valid reports whether l is one of Langs.
func (l Lang) Valid() bool { return l == LangEN || l == LangPT }

// Header sources say who wrote a chunk's context header.
const (
	HeaderExtractive         = "extractive"          // the offline, deterministic writer
	HeaderModel              = "model"               // a model server
	HeaderExtractiveFallback = "extractive_fallback" // the model failed; the extractive header stands in
)
