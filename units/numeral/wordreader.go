package numeral

// wordNumeral reads a number written in words starting with the word
// t[i:end]: "twelve", "forty-two", "one hundred and twenty", "two and a
// half", "two point five", "three quarters", "half"; "cento e vinte",
// "vinte e dois", "dois mil", "meia", "três quartos", "dois vírgula cinco".
// A lone article "a" counts only before "hundred", "quarter", "half" …, or
// as the one of "a mile and a half".
func (p *Parser) wordNumeral(i, end int) (Numeral, bool) {
	first, ok := p.lookupWord(i, end, true)
	if !ok || first.kind == wAnd || first.kind == wPoint || first.kind == wDenom && (p.pt || first.value != 4) {
		return Numeral{}, false
	}
	r := wordReader{p: p, end: end}
	n := Numeral{Start: i, End: end, Words: true}
	switch first.kind {
	case wArticle:
		return r.article(n)
	case wHalf:
		n.Value, n.Fraction = 0.5, true
		return n, true
	case wDenom: // "quarter-mile", "a quarter mile"
		n.Value, n.Fraction = 0.25, true
		return n, true
	}
	if !r.take(first) {
		return Numeral{}, false
	}
	r.more()
	n.End, n.Value = r.end, r.total+r.cur
	n.Integer = !r.fraction && !r.decimal
	n.Fraction = r.fraction
	return n, true
}

// wordReader accumulates a number in words, one word at a time.
type wordReader struct {
	p          *Parser
	end        int     // the end of the last word taken
	total, cur float64 // thousands taken; the part below a thousand
	last       wordKind
	fraction   bool
	decimal    bool
}

// take adds a word if it can follow the words taken so far.
func (r *wordReader) take(w numWord) bool {
	switch w.kind {
	case wOnes:
		if !r.canFollow(r.last, wOnes) {
			return false
		}
		r.cur += w.value
	case wTeens, wTens:
		if !r.canFollow(r.last, w.kind) {
			return false
		}
		r.cur += w.value
	case wHundred:
		if r.last != wOnes || r.cur == 0 || r.cur > 9 {
			return false
		}
		r.cur *= 100
	case wHundreds:
		if r.last != 0 && r.last != wThousand {
			return false
		}
		r.cur += w.value
	case wThousand:
		if r.last == 0 {
			r.cur = 1 // "mil metros"
		}
		if r.last == wThousand {
			return false
		}
		r.total += r.cur * 1000
		r.cur = 0
	default:
		return false
	}
	r.last = w.kind
	return true
}

// canFollow says which word kinds may follow which: "forty-two", "cento e
// vinte", "one hundred and five", "dois mil e quinhentos".
func (r *wordReader) canFollow(last, next wordKind) bool {
	switch last {
	case 0, wThousand, wHundred, wHundreds:
		return true
	case wTens:
		return next == wOnes && int(r.cur)%10 == 0
	}
	return false
}

// separator returns where the next word starts after the word ending at
// r.end: after one space, or after a hyphen in English ("forty-two").
func (r *wordReader) separator() int {
	t := r.p.text
	switch {
	case r.end < len(t) && t[r.end] == ' ':
		return r.end + 1
	case !r.p.pt && r.end+1 < len(t) && t[r.end] == '-' && IsASCIILetter(t[r.end+1]):
		return r.end + 1
	}
	return -1
}

// next reads the word after the separator following r.end: its number
// word, where it starts and ends (start 0 when no word follows).
func (r *wordReader) next() (numWord, int, int, bool) {
	s := r.separator()
	if s < 0 || s >= len(r.p.text) || !IsASCIILetter(r.p.text[s]) {
		return numWord{}, 0, 0, false
	}
	e := WordEnd(r.p.text, s)
	w, ok := r.p.lookupWord(s, e, false)
	return w, s, e, ok
}

// more takes the words that continue the number: parts joined by a space,
// a hyphen or "and"/"e", then "and a half"/"e meio", "point five",
// "quarters"/"terços".
func (r *wordReader) more() {
	for {
		w, _, e, ok := r.next()
		if !ok {
			return
		}
		switch w.kind {
		case wAnd:
			if !r.and(e) {
				return
			}
		case wPoint:
			if !r.point(e) {
				return
			}
			return
		case wDenom:
			if r.last == wOnes && r.total == 0 && r.cur >= 1 && r.cur <= 9 {
				r.cur /= w.value
				r.end, r.fraction = e, true
			}
			return
		default:
			if !r.take(w) {
				return
			}
			r.end = e
		}
	}
}

// and takes "and"/"e" with the word after it when that word continues the
// number ("vinte e cinco", "one hundred and twenty", "mil e quinhentos")
// or makes it "and a half" ("two and a half metres").
func (r *wordReader) and(e int) bool {
	save := *r
	r.end = e
	w, _, e2, ok := r.next()
	if !ok {
		*r = save
		return false
	}
	switch {
	case w.kind == wHalf && r.p.pt && r.last != 0: // "dois e meio metros"
		r.cur += 0.5
		r.end, r.fraction = e2, true
		return false
	case w.kind == wArticle && !r.p.pt:
		r.end = e2
		if w2, _, e3, ok := r.next(); ok && w2.kind == wHalf {
			r.cur += 0.5
			r.end, r.fraction = e3, true
			return false
		}
		*r = save
		return false
	}
	joins := r.last == wThousand || r.last == wHundred && !r.p.pt || r.last == wHundreds && r.p.pt ||
		r.last == wTens && r.p.pt
	if !joins || !r.take(w) {
		*r = save
		return false
	}
	r.end = e2
	return true
}

// point reads the digits after "point"/"vírgula": "two point five".
func (r *wordReader) point(e int) bool {
	save := *r
	r.end = e
	scale := 0.1
	took := false
	for {
		w, _, e2, ok := r.next()
		if !ok || w.kind != wOnes {
			break
		}
		r.cur += w.value * scale
		scale /= 10
		r.end, took = e2, true
	}
	if !took {
		*r = save
		return false
	}
	r.decimal = true
	return true
}

// article reads what follows "a"/"an": "a hundred", "a thousand", "a
// quarter", "a half", "a third"; or marks "a" as the one of "a mile and a
// half", which the unit decides.
func (r *wordReader) article(n Numeral) (Numeral, bool) {
	w, s, e, ok := r.next()
	if !ok {
		// Only "a <unit> and a half" makes the article a number; checking
		// for it first keeps the common "a" cheap.
		if s > 0 && HasPrefixFold(r.p.text[e:], " and a half") {
			n.Value, n.OneOf = 1, true
			return n, true
		}
		return Numeral{}, false
	}
	switch w.kind {
	case wHundred, wThousand:
		r.end, r.cur, r.last = e, w.value, w.kind
		if w.kind == wThousand {
			r.total, r.cur = 1000, 0
		}
		r.more()
		n.End, n.Value, n.Integer = r.end, r.total+r.cur, !r.fraction
		return n, true
	case wHalf:
		n.End, n.Value, n.Fraction = e, 0.5, true
		return n, true
	case wDenom:
		n.End, n.Value, n.Fraction = e, 1/w.value, true
		return n, true
	}
	return Numeral{}, false
}
