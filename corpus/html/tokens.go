package html

import (
	"strings"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// token is one token of the page with its place in Doc.Text.
type token struct {
	typ        nethtml.TokenType
	start, end int       // Doc.Text[start:end] is the token's raw bytes
	tag        atom.Atom // a tag's name; 0 for a name the atom table does not hold
	name       string    // a tag's name, lower case
	attrs      []attr    // a start tag's attributes the walker reads
}

type attr struct{ key, val string }

// attr is the value of the attribute key, and whether the tag has it.
func (t token) attr(key string) (string, bool) {
	for _, a := range t.attrs {
		if a.key == key {
			return a.val, true
		}
	}
	return "", false
}

// read are the attributes the walker reads; the others are not kept.
var read = map[string]bool{"class": true, "id": true, "role": true, "hidden": true, "aria-hidden": true, "style": true,
	"lang": true, "name": true, "property": true, "content": true, "rel": true, "href": true, "alt": true, "colspan": true,
	"start": true, "value": true, "reversed": true}

// lexer reads a page's tokens in order, with their offsets: the tokenizer's
// raw bytes, token after token, are the page's bytes. A tag left open at
// the end of the file is dropped by the tokenizer, as browsers drop it;
// its bytes are a last token of its own (typ ErrorToken).
type lexer struct {
	z     *nethtml.Tokenizer
	text  string
	off   int
	ahead []token
	done  bool
}

func newLexer(text string, from int) *lexer {
	return &lexer{z: nethtml.NewTokenizer(strings.NewReader(text[from:])), text: text, off: from}
}

// next is the next token; false at the end.
func (l *lexer) next() (token, bool) {
	if len(l.ahead) > 0 {
		t := l.ahead[0]
		l.ahead = l.ahead[1:]
		return t, true
	}
	return l.read()
}

// peek is the token i places ahead of the next one (0: the next).
func (l *lexer) peek(i int) (token, bool) {
	for len(l.ahead) <= i {
		t, ok := l.read()
		if !ok {
			return token{}, false
		}
		l.ahead = append(l.ahead, t)
	}
	return l.ahead[i], true
}

func (l *lexer) read() (token, bool) {
	if l.done {
		return token{}, false
	}
	tt := l.z.Next()
	if tt == nethtml.ErrorToken {
		l.done = true
		if l.off < len(l.text) { // an unterminated tag at the end
			t := token{typ: nethtml.ErrorToken, start: l.off, end: len(l.text)}
			l.off = len(l.text)
			return t, true
		}
		return token{}, false
	}
	t := token{typ: tt, start: l.off, end: l.off + len(l.z.Raw())}
	l.off = t.end
	if tt == nethtml.StartTagToken || tt == nethtml.EndTagToken || tt == nethtml.SelfClosingTagToken {
		name, more := l.z.TagName()
		t.tag, t.name = atom.Lookup(name), string(name)
		for more {
			var k, v []byte
			k, v, more = l.z.TagAttr()
			if read[string(k)] && tt != nethtml.EndTagToken {
				t.attrs = append(t.attrs, attr{string(k), string(v)})
			}
		}
	}
	return t, true
}
