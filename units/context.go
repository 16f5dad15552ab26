package units

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/units/numeral"
)

// context names the words around a number that make a unit's spelling
// mean something else. A unit letter after a number is a unit only when
// the dimension fits the words around it.
type context uint8

const (
	anyContext context = iota
	coulomb            // "C": a charge of 3 C, charge at 1 C, grade 3C, bus 5C
	farad              // "F": a 10 F supercapacitor, room 12F
	knotAbbrev         // "kt", "kn": a 20 kt yield, 18 kt gold, 200 kn for dinner, 200 kN
	million            // "m", "mi": 40m users, US$ 5m, revenue of 40m
	rope               // "knots", "nós": tie 3 knots in the rope
	body               // "feet", "pés": on his two feet, com os dois pés
	academic           // "degrees": two degrees in oceanography
)

// contextWindow is how many bytes either side of a quantity are searched
// for the words of its context: about six words.
const contextWindow = 48

// contextWords veto a unit when one of them is near. An entry ending in
// "*" matches any word it starts ("capacit*": capacitor, capacitância).
var contextWords = [...]*wordList{
	coulomb: words("charg*", "coulomb*", "carga", "cargas", "carreg*", "capacit*", "supercapacit*", "batter*",
		"bateria*", "discharg*", "descarg*", "electr*", "elétric*", "eletric*", "amp", "amps", "mah"),
	farad: words("farad*", "capacit*", "supercapacit*", "ultracapacit*"),
	knotAbbrev: words("yield*", "tnt", "kiloton*", "quiloton*", "warhead*", "ogiva*", "bomb*", "nuclear",
		"explos*", "rendimento", "megaton*", "gold", "ouro", "karat*", "carat*", "quilate*", "jewel*",
		"joia*", "ring", "rings", "anel", "silver", "prata", "kuna*", "hrk", "paid", "pay", "pays",
		"pagamos", "pagar", "paguei", "pago", "cost", "costs", "custou", "custa", "custo", "preço",
		"preco", "price*", "dinner", "lunch", "breakfast", "jantar", "almoço", "almoco", "shop", "loja",
		"bill", "restaurant*", "euro*", "ticket*", "ingresso*"),
	million: words("$*", "€*", "£*", "usd", "brl", "eur", "revenue*", "receita*", "budget*", "orçament*",
		"orcament*", "raised", "captou", "captar", "captação", "funding", "investment*", "investiment*",
		"sales", "vendas", "profit*", "lucro*", "valued", "worth", "faturamento", "faturou", "dollar*",
		"dólar*", "dolar*", "reais", "valuation"),
	rope: words("tie", "ties", "tied", "tying", "rope*", "cord*", "lace*", "string*", "corda*", "amarr*",
		"dê", "dar", "dá", "laço*", "laco*", "cadarço*", "gravata*",
		// nodes, not knots: "uma elipse de 5 nós", "polígono com menos de 3 nós"
		"elipse*", "polígono*", "poligono*", "caminho*", "vértice*", "vertice*", "aresta*", "grafo*",
		"árvore*", "arvore*", "cluster*", "polygon*", "graph*"),
	academic: words("universit*", "college*", "bachelor*", "master*", "phd", "doctorate*", "diploma*",
		"graduat*", "holds", "earned", "universidade*", "faculdade*", "bacharel*", "mestrado*",
		"doutorado*", "graduação", "graduacao", "formad*", "parentesco"),
}

// labelWords, just before a number, make a letter after it part of a
// label: grade 3C, bus 5C, room 12F.
var labelWords = map[string]bool{
	"grade": true, "class": true, "bus": true, "room": true, "apartment": true, "apt": true,
	"suite": true, "gate": true, "seat": true, "row": true, "section": true, "level": true,
	"floor": true, "platform": true, "unit": true, "block": true, "vitamin": true, "route": true,
	"line": true, "turma": true, "série": true, "serie": true, "ônibus": true, "onibus": true,
	"sala": true, "classe": true, "apartamento": true, "ap": true, "quarto": true, "portão": true,
	"portao": true, "assento": true, "fila": true, "seção": true, "secao": true, "nível": true,
	"nivel": true, "andar": true, "plataforma": true, "bloco": true, "linha": true, "rota": true,
	"vitamina": true, "appendix": true, "annex": true, "chapter": true, "figure": true, "fig": true,
	"table": true, "part": true, "step": true, "item": true, "page": true, "anexo": true,
	"apêndice": true, "apendice": true, "capítulo": true, "capitulo": true, "figura": true,
	"tabela": true, "parte": true, "passo": true, "página": true, "pagina": true, "version": true,
	"release": true, "versão": true, "versao": true,
}

// labelBefore is the word before the number at start, past a colon or a
// bracket: "Grade: 4 F", "(Appendix 3 C".
func labelBefore(t string, start int) string {
	i := wordBefore(t, start)
	j := i
	for j < start {
		r, size := utf8.DecodeRuneInString(t[j:])
		if !unicode.IsLetter(r) {
			break
		}
		j += size
	}
	return t[i:j]
}

// codeNouns, right after a "C" or an "F", make the letter a programming
// language: "50 C files", "2 C compilers".
var codeNouns = map[string]bool{
	"file": true, "files": true, "code": true, "compiler": true, "compilers": true, "program": true,
	"programs": true, "source": true, "sources": true, "function": true, "functions": true,
	"library": true, "libraries": true, "project": true, "projects": true, "header": true,
	"headers": true, "binding": true, "bindings": true, "programmers": true, "arquivos": true,
	"código": true, "codigo": true, "programas": true, "bibliotecas": true, "funções": true,
	"compiladores": true, "projetos": true,
}

// codeAfter reports whether the letter ending at end names a language by
// a mark glued to it: "C++", "C#", "F#".
func codeAfter(t string, end int) bool {
	return end < len(t) && (t[end] == '#' || t[end] == '+')
}

// millionNouns, right after "40m" (or after "de"/"of"), are what the
// millions count.
var millionNouns = map[string]bool{
	"users": true, "people": true, "devices": true, "downloads": true, "views": true, "viewers": true,
	"subscribers": true, "customers": true, "visitors": true, "tourists": true, "residents": true,
	"inhabitants": true, "tons": true, "tonnes": true, "barrels": true, "dollars": true, "euros": true,
	"reais": true, "jobs": true, "votes": true, "followers": true, "passengers": true,
	"usuários": true, "usuarios": true, "pessoas": true, "dispositivos": true, "visualizações": true,
	"assinantes": true, "clientes": true, "visitantes": true, "turistas": true, "moradores": true,
	"habitantes": true, "toneladas": true, "barris": true, "dólares": true, "empregos": true,
	"votos": true, "seguidores": true, "acessos": true, "passageiros": true,
}

// countedNouns, right after a glued "1m", are what software counts in
// millions: "1m rows", "5m requests a day", "10m de linhas". Spaced, "40 m
// lines" are a rope's metres, so only the glued form is read as millions.
var countedNouns = map[string]bool{
	"rows": true, "records": true, "requests": true, "lines": true, "events": true, "messages": true,
	"items": true, "documents": true, "installs": true, "stars": true, "tokens": true,
	"parameters": true, "params": true, "queries": true, "transactions": true, "keys": true,
	"linhas": true, "registros": true, "requisições": true, "mensagens": true, "eventos": true,
	"documentos": true, "consultas": true, "transações": true, "parâmetros": true,
}

// areaWords after a length make it an area or a volume.
var areaWords = map[string]bool{
	"square": true, "squared": true, "cubic": true, "cubed": true, "quadrado": true,
	"quadrados": true, "quadrada": true, "quadradas": true, "cúbico": true, "cúbicos": true,
	"cúbica": true, "cúbicas": true, "cubico": true, "cubicos": true,
}

// bodyBefore and bodyAfter, around "one foot" or "dois pés" in words, make
// the feet a body's: "on his two feet", "com os dois pés na areia", "put
// one foot in front".
var (
	bodyBefore = map[string]bool{
		"os": true, "dos": true, "nos": true, "com": true, "seus": true, "suas": true, "meus": true,
		"minhas": true, "ambos": true, "his": true, "her": true, "my": true, "your": true,
		"their": true, "our": true, "both": true, "on": true, "the": true, "with": true,
	}
	bodyAfter = map[string]bool{
		"on": true, "in": true, "into": true, "onto": true, "forward": true, "first": true, "na": true,
		"no": true, "nas": true, "nos": true, "em": true, "dentro": true, "fora": true,
	}
)

// vetoed reports whether the unit d spelled at text[uStart:uEnd] after
// numeral n means something else here.
func (p *parser) vetoed(n numeral.Numeral, d *unitDef, uStart, uEnd int) bool {
	t := p.text
	if d.dim == Length && areaWords[lowerASCII(p.wordAfter(uEnd))] {
		return true // "19 quilômetros quadrados", "2 metros cúbicos"
	}
	if d.dim == Length && p.perTime(uEnd) {
		return true // "200 kilometers per second", "5 mm/s": a rate this package does not read
	}
	if p.implausible(n, d, uStart, uEnd) {
		return true
	}
	switch d.context {
	case anyContext:
		return false
	case coulomb, farad:
		if labelWords[lowerASCII(labelBefore(t, n.Start))] || codeAfter(t, uEnd) || codeNouns[lowerASCII(p.wordAfter(uEnd))] {
			return true
		}
	case knotAbbrev:
		if t[uStart:uEnd] == "kN" {
			return true // kilonewtons
		}
	case million:
		noun := p.nounAfter(uEnd)
		if millionNouns[noun] || uStart == n.End && countedNouns[noun] || p.currencyNear(n.Start, uEnd) {
			return true
		}
		if uStart > n.End {
			return false // "40 m" spaced is metres unless it counts a noun
		}
	case body:
		if !n.Words || n.Value > 2 {
			return false
		}
		before, _ := prevWord(t, n.Start)
		return bodyBefore[lowerASCII(before)] || bodyAfter[lowerASCII(p.wordAfter(uEnd))]
	}
	return p.near(n.Start, uEnd, contextWords[d.context])
}

// timeUnits, after "per", "por", "a", "an" or a slash, make a length a
// rate: a speed the unit table does not spell ("km/s", "200 km por
// segundo", "3 metres per minute"). The speeds it spells ("km/h", "metros
// por segundo") are matched whole before a length is.
var timeUnits = map[string]bool{
	"s": true, "sec": true, "second": true, "seconds": true, "min": true, "minute": true, "minutes": true,
	"h": true, "hr": true, "hour": true, "hours": true, "seg": true, "segundo": true, "segundos": true,
	"minuto": true, "minutos": true, "hora": true, "horas": true,
}

// longTimeUnits are the times a rate written with an exponent may be
// over, beside timeUnits: "mm ano^-1", "km^3 dia^-1".
var longTimeUnits = map[string]bool{
	"d": true, "day": true, "days": true, "dia": true, "dias": true, "yr": true, "year": true,
	"ano": true, "anos": true, "month": true, "mês": true, "mes": true, "a": true,
}

// perWords link a length to the time unit of a rate.
var perWords = map[string]bool{"per": true, "por": true, "a": true, "an": true}

// perTime reports whether the length whose unit ends at end is the
// numerator of a rate: "/s" glued (past a closing bracket: "(2 m)/s"), or
// "per second" after a space.
func (p *parser) perTime(end int) bool {
	t := p.text
	if strings.HasPrefix(t[end:], ")/") {
		end++
	}
	if end < len(t) && t[end] == '/' {
		return timeUnits[lowerASCII(t[end+1:numeral.WordEnd(t, end+1)])]
	}
	if w := p.wordAfter(end); w != "" {
		// "1100 mm ano^-1", "2 m s⁻¹": a time to the power of minus one
		rest := t[end+numeral.SpaceWidth(t, end)+len(w):]
		if (timeUnits[lowerASCII(w)] || longTimeUnits[lowerASCII(w)]) &&
			(strings.HasPrefix(rest, "^-1") || strings.HasPrefix(rest, "⁻¹") || strings.HasPrefix(rest, "-1")) {
			return true
		}
	}
	w := lowerASCII(p.wordAfter(end))
	if !perWords[w] {
		return false
	}
	return timeUnits[lowerASCII(p.wordAfter(end+numeral.SpaceWidth(t, end)+len(w)))]
}

// currencyNear reports whether a currency sign sits within contextWindow
// bytes of text[start:end]: "US$ 5m", "$2m" are millions of money.
func (p *parser) currencyNear(start, end int) bool {
	w := p.text[max(0, start-contextWindow):min(len(p.text), end+contextWindow)]
	return strings.IndexByte(w, '$') >= 0 || strings.Contains(w, "€") || strings.Contains(w, "£")
}

// nounAfter is the word after end, skipping a "de" or "of": "40m users",
// "40m de dispositivos".
func (p *parser) nounAfter(end int) string {
	w := lowerASCII(p.wordAfter(end))
	if w == "de" || w == "of" {
		return lowerASCII(p.wordAfter(end + 1 + len(w)))
	}
	return w
}

// wordAfter is the word after the space at t[end], or "".
func (p *parser) wordAfter(end int) string {
	t := p.text
	w := numeral.SpaceWidth(t, end)
	if w == 0 {
		return ""
	}
	return t[end+w : numeral.WordEnd(t, end+w)]
}

// near reports whether a word of l sits within contextWindow bytes of
// text[start:end].
func (p *parser) near(start, end int, l *wordList) bool {
	return l.in(p.text, max(0, start-contextWindow), min(len(p.text), end+contextWindow))
}

// wordList is a set of lower-case words, some of them prefixes ("capacit*")
// and some phrases of two words or a hyphenated word ("sentido horário",
// "anti-horário"), which a word at a time would never match.
type wordList struct {
	whole    map[string]bool
	prefixes [256][]string // by first byte
	first    [256]bool     // the first bytes of all entries, to pass over other words fast
	phrases  []string
}

func words(ws ...string) *wordList {
	l := &wordList{whole: map[string]bool{}}
	for _, w := range ws {
		if strings.ContainsAny(w, " -") {
			l.phrases = append(l.phrases, w)
			continue
		}
		if p, ok := strings.CutSuffix(w, "*"); ok {
			l.prefixes[p[0]] = append(l.prefixes[p[0]], p)
		} else {
			l.whole[w] = true
		}
		l.first[w[0]] = true
	}
	return l
}

// maxListWord bounds the words looked up, in bytes.
const maxListWord = 24

// in reports whether a word of t[lo:hi] is in the list, comparing ASCII
// letters without case. A currency sign counts as a word of its own.
func (l *wordList) in(t string, lo, hi int) bool {
	var buf [maxListWord]byte
	for i := lo; i < hi; {
		c := t[i]
		if c == '$' || c == 0xE2 || c == 0xC2 { // "$", "€", "£"
			if r, size := utf8.DecodeRuneInString(t[i:]); r == '$' || r == '€' || r == '£' {
				for _, p := range l.prefixes[c] {
					if p == t[i:i+size] {
						return true
					}
				}
				i += size
				continue
			}
		}
		if !numeral.WordByteAt(t, i) || i > lo && numeral.WordByteAt(t, i-1) && c < utf8.RuneSelf {
			i++
			continue
		}
		e := numeral.WordEnd(t, i)
		if e == i {
			i++
			continue
		}
		for _, ph := range l.phrases {
			if end := i + len(ph); end <= len(t) && !numeral.WordByteAt(t, end) && foldEqual(t[i:end], ph) {
				return true
			}
		}
		if !l.first[numeral.ASCIILower(c)] {
			i = e
			continue
		}
		n := min(e-i, maxListWord)
		for k := 0; k < n; k++ {
			buf[k] = lowerByte(t, i+k)
		}
		w := buf[:n]
		if e-i <= maxListWord && l.whole[string(w)] {
			return true
		}
		for _, p := range l.prefixes[w[0]] {
			if len(w) >= len(p) && string(w[:len(p)]) == p {
				return true
			}
		}
		i = e
	}
	return false
}

// lowerByte is t[i] in lower case: an ASCII capital, or the second byte of
// a Latin-1 capital in UTF-8 (À–Þ but ×), so that "Água" and "Ângulo" at
// the start of a sentence match "água" and "ângulo*".
func lowerByte(t string, i int) byte {
	c := t[i]
	if c >= 0x80 && c <= 0x9E && c != 0x97 && i > 0 && t[i-1] == 0xC3 {
		return c + 0x20
	}
	return numeral.ASCIILower(c)
}

// foldEqual reports whether s equals the lower-case phrase ph, folding
// case as lowerByte does.
func foldEqual(s, ph string) bool {
	if len(s) != len(ph) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lowerByte(s, i) != ph[i] {
			return false
		}
	}
	return true
}

// raceWords near a bare "5k" make it a race distance.
var raceWords = words(
	"run", "runs", "ran", "running", "race*", "marathon*", "jog*", "walk*", "swim*", "finish*",
	"register*", "corri", "correr", "corrida*", "prova*", "maratona*", "caminhada*", "travessia*",
	"inscri*", "terminou", "completou", "largada",
)

// raceDistance reports whether a bare "5k" or "10K" is a race distance in
// kilometres rather than thousands of something (5k views, 60k a year).
func (p *parser) raceDistance(n numeral.Numeral) bool {
	return n.Value >= 1 && n.Value <= 100 && p.near(n.Start, n.End, raceWords)
}
