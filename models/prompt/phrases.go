package prompt

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// markers are the shapes of a prompt's own structure: the fences' names
// (chunk, document, system, instructions), chat templates' special tokens
// (ChatML, Llama's [INST] and <<SYS>>, Llama 3's headers), on the text
// with its markup.
var markers = regexp.MustCompile(`</?\s*(chunk|document|system|instructions?|prompt)(-[0-9a-f]+)?(\s[^>]*)?>` +
	`|<\|\s*(im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\s*\|>` +
	`|\[/?inst\]|<</?sys>>`)

// roleLines are lines that open a turn of a chat: "SYSTEM: …", a heading
// that names a role; in English, Portuguese, Spanish, French, German and
// Italian. A key in a table or a YAML listing ("system:" with nothing after
// it on the line) is not one.
var roleLines = regexp.MustCompile(`(?m)^ {0,3}[#> -]*(system|assistant|developer|sistema|assistente|asistente|systeme|assistent)[ \t]*:[ \t]*\S` +
	`|^ {0,3}#{1,6}[ \t]*(system|assistant|developer|sistema|assistente|asistente|systeme|assistent)( (prompt|instructions?|message))?[ \t]*$`)

// A family of phrases addressed to a model: a regular expression on the
// joined skeleton (lower case, accents folded) and the words it needs, one
// of which a paragraph must have for the expression to be tried (anchor).
// Matching every expression on every paragraph was most of a run's CPU.
type family struct {
	anchor uint32 // the bits of its words in anchorWords
	re     *regexp.Regexp
}

// Anchor words, by family; a paragraph's words give their bits (familiesOf).
const (
	anchorNouns uint32 = 1 << iota
	anchorNow
	anchorAnswer
	anchorHeader
	anchorAddressee
	anchorIndexes
	anchorSummarising
	anchorSummary
	roleWords
)

var anchorWords = func() map[string]uint32 {
	m := map[string]uint32{}
	for bit, words := range map[uint32]string{
		anchorNouns: `instruction instructions prompt prompts rules directions directives guidelines commands orders
			instrucao instrucoes regras orientacoes diretrizes comandos ordens instruccion instrucciones reglas indicaciones
			ordenes directrices normas consigne consignes regles ordres anweisung anweisungen regeln vorgaben befehle
			instruktion instruktionen istruzione istruzioni regole direttive`,
		anchorNow:    `now pretend agora ahora maintenant desormais jetzt nun ora adesso poi`,
		anchorAnswer: `answer respond reply output responda retorne responde contesta reponds repondez antworte rispondi`,
		anchorHeader: `header headers contextheader contextheaders`,
		anchorAddressee: `ai llm llms model models assistant assistants chatbot chatbots bot bots summariser summarisers
			summarizer summarizers indexer indexers crawler crawlers agent agents language ia assistente asistente modelo
			modele ki assistent sprachmodell modello robo`,
		anchorIndexes: `index indexes read reads summarise summarize summarises summarizes crawl crawls scrape scrapes process processes`,
		anchorSummarising: `summarise summarize summarising summarizing describe describing index indexing resumir descrever
			indexar describir resumas describas resumant decrivant indexant resumez decrivez`,
		anchorSummary: `summary summaries summarisation summarization summarisations summarizations description descriptions
			abstract abstracts snippet snippets metadata resumo resumos cabecalho descricao`,
		roleWords: `system assistant developer sistema assistente asistente systeme assistent`,
	} {
		for _, w := range strings.Fields(words) {
			m[w] |= bit
		}
	}
	return m
}()

// familiesOf is the bits of the anchor words that v has.
func familiesOf(v string) uint32 {
	var bits uint32
	for _, w := range strings.FieldsFunc(v, notWordRune) {
		bits |= anchorWords[w]
	}
	return bits
}

func notWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// phraseFamilies are the phrases of text addressed to a model, in English,
// Portuguese, Spanish, French, German and Italian: overriding what it was
// told, a new role, new orders, an answer dictated, and the polite and
// indirect forms that address whoever (whatever) summarises or indexes the
// page. Each is a shape of injection, not the words of ordinary
// instructions to a reader: "ignore the warning if you use TLS" and "never
// swim alone" are not.
var phraseFamilies = []family{
	// Overriding what it was told, or new orders.
	{anchorNouns, regexp.MustCompile(strings.Join([]string{
		`\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|preceding|all|any|your|original|initial|system)\b.{0,30}\b(instructions?|prompts?|rules|directions|directives|guidelines|commands|orders)\b`,
		`\b(ignor[ea]r?|ignorem|desconsider[ea]r?|desconsiderem|esquec[ae]r?|esquecam|descart[ea]r?)\b.{0,40}\b(instrucao|instrucoes|regras|orientacoes|diretrizes|comandos|ordens)\b`,
		`\b(ignora|ignore|ignoren|ignorar|olvida|olvide|olviden|olvidar|descarta|omite|haz caso omiso)\b.{0,40}\b(instrucciones|instruccion|reglas|indicaciones|ordenes|directrices|normas)\b`,
		`\b(ignore|ignorez|ignorer|oublie|oubliez|oublier|ne tiens pas compte|ne tenez pas compte)\b.{0,40}\b(instructions?|consignes?|regles|directives|ordres)\b`,
		`\b(ignorier\w*|vergiss|vergessen sie|missachte\w*)\b.{0,40}\b(anweisung\w*|regeln|vorgaben|befehle|instruktion\w*)\b`,
		`\b(ignora|ignorate|ignori|dimentica|dimenticate|dimentichi|trascura)\b.{0,40}\b(istruzion[ei]|regole|indicazioni|direttive)\b`,
		`\b(new|updated) (instructions?|orders|rules)\s*:|\bnovas? (instrucao|instrucoes|regras)\s*:|\bnuevas (instrucciones|reglas)\s*:|\bnouvelles (instructions|consignes|regles)\s*:|\bneue (anweisungen|regeln)\s*:|\bnuove (istruzioni|regole)\s*:`,
	}, "|"))},
	// A new role, from now on.
	{anchorNow, regexp.MustCompile(strings.Join([]string{
		`\byou are now (a|an)\b.{0,30}\b(assistant|model|ai|bot|agent)\b|\bpretend (you are|to be)\b`,
		`\bvoce agora e (um|uma)\b|\bahora eres (un|una)\b|\b(tu es|vous etes) (maintenant|desormais)\b|\bdu bist (jetzt|nun)\b|\b(ora|adesso) sei (un|una)\b`,
		`\b(from now on|a partir de agora|a partir de ahora|de ahora en adelante|a partir de maintenant|desormais|von nun an|ab jetzt|d'ora in poi|da ora in poi)\b.{0,20}\b(answer|reply|respond|write|say|output|describe|you|responda|escreva|diga|responde|escribe|di|reponds|repondez|ecris|ecrivez|dis|dites|antworte|schreibe|sag|rispondi|scrivi|dici)\b`,
	}, "|"))},
	// An answer dictated.
	{anchorAnswer, regexp.MustCompile(strings.Join([]string{
		`\b(answer|respond|reply|output)\s+(only\s+)?with\s*:|\b(responda|retorne)\s+(apenas\s+)?com\s*:|\b(responde|contesta)\s+(solo\s+)?con\s*:|\b(reponds|repondez)\s+(uniquement\s+)?(par|avec)\s*:|\bantworte\s+(nur\s+)?mit\s*:|\brispondi\s+(solo\s+)?con\s*:`,
	}, "|"))},
	// A header dictated.
	{anchorHeader, regexp.MustCompile(strings.Join([]string{
		`\b(write|give|use|set|make)\s+(the\s+|this\s+|your\s+|a\s+)?context ?headers?\s*(:|=|to\b|as\b)|\bcontext ?headers?\b.{0,20}\b(must|should|shall|will|is to)\s+(read|say|state)\b`,
		`\b(write|give|use|set)\b.{0,25}\bheaders?\s*(:|to\s*["“]|as\s*["“])|\bheaders?\s+(for|of)\s+(every|each|all)\s+(chunks?|pages?|sections?)\b`,
	}, "|"))},
	// Addressed to a model, an assistant, a summariser.
	{anchorAddressee, regexp.MustCompile(strings.Join([]string{
		`\b(note|message|reminder|instructions?|guidance|attention)\s+(to|for)\s+(the\s+|all\s+|any\s+)?(ai|llms?|(large\s+)?language\s+models?|ai\s+models?|models?|assistants?|ai\s+assistants?|chatbots?|bots?|summari[sz]ers?|indexers?|crawlers?|agents?)(\s*[:,—-]|\s+(reading|summari[sz]ing|processing|indexing|that|who)\b)`,
		`\bif you(\s+are|'re|’re)\s+(an?\s+)?(ai|llm|(large\s+)?language\s+model|ai\s+model|ai\s+assistant|assistant|chatbot|bot|summari[sz]er)(\s*[,.;:]|\s+(reading|summari[sz]ing|processing|indexing|that|who|and)\b)`,
		`\bse voce (e|for) (um|uma) (ia|assistente|modelo|robo|chatbot)\b|\bsi (eres|usted es) (un|una) (ia|asistente|modelo)\b|\bsi (tu es|vous etes) (un|une) (ia|assistant|modele)\b|\bwenn (du|sie) (eine?|ein) (ki|assistent|sprachmodell)\b|\bse (sei|tu sei) (un|una|un'|un’) ?(ia|assistente|modello)\b`,
		`\bas (the|an?) (ai\s+)?(assistant|ai|model|llm|language model|summari[sz]er|bot|chatbot)\s+(that is\s+|who is\s+|which is\s+)?(summari[sz]ing|reading|describing|indexing|processing|writing)\b`,
		`\bcomo (o |a |el |la )?(assistente|asistente|ia|modelo)\s+que\s+(resume|le|lee|descreve|describe|indexa)\b|\ben tant qu['’ ]?\s*(l['’]\s*)?(assistant|ia|modele)\b|\bals (ki|assistent|sprachmodell)\b.{0,20}\b(zusammenfass|beschreib)|\bcome (l['’]\s*)?(assistente|ia|modello) che\b`,
		`(^|[.!?:;|#]\s*|//\s*|/\*\s*)(ai\s+)?(assistant|chatbot|llm|summari[sz]er|language model)\s*[,:]\s*(please\s+)?(ignore|write|say|set|describe|answer|reply|respond|output|use|tell|remember|note|state|print|include|add|call|make)\b`,
	}, "|"))},
	// Addressed to what indexes the page.
	{anchorIndexes, regexp.MustCompile(strings.Join([]string{
		`\b(tools?|programs?|software|systems?|services?|bots?|models?)\s+(that|which)\s+(index(es)?|reads?|summari[sz]es?|crawls?|scrapes?|process(es)?)\s+(this|these)\s+(pages?|documents?|texts?|sites?|articles?|sections?)\b`,
	}, "|"))},
	// What to say when summarising.
	{anchorSummarising, regexp.MustCompile(strings.Join([]string{
		`\b(when|while)\s+(you\s+)?(summari[sz]e|summari[sz]ing|describe|describing|index|indexing)\s+(this|these)\s+(pages?|documents?|sections?|texts?|articles?|chunks?)\b.{0,40}\b(say|state|write|mention|note|claim|tell|report|add)\b`,
		`\b(ao|quando)\s+(voce\s+)?(resumir|descrever|indexar)\s+(esta|este|essa|esse)\s+(pagina|documento|texto|secao|trecho|artigo)\b|\b(al|cuando)\s+(resumir|describir|indexar|resumas|describas)\s+(esta|este)\s+(pagina|documento|texto|seccion|articulo)\b|\b(en|quand vous|quand tu|lorsque vous)\s+(resumant|decrivant|indexant|resumez|decrivez)\s+(cette|ce)\s+(page|document|texte|section|article)\b`,
	}, "|"))},
	// What summaries should say.
	{anchorSummary, regexp.MustCompile(strings.Join([]string{
		`\b(summar(y|ies)|summari[sz]ations?|(one-line\s+)?descriptions?|abstracts?|snippets?|metadata)\s+(of|for)\s+(this|these|the|every|each)\s+(pages?|documents?|sections?|chunks?|articles?|texts?)\s+(should|must|shall|needs? to|has to|will)\s+(say|state|read|mention|note|claim|include|describe|emphasi[sz]e|tell|report|assert|be)\b`,
		`\b(the\s+)?one-line\s+description\s+(should|must|shall)\s+(say|state|read|claim)\b`,
		`\b(o|os|a|as)\s+(resumo|resumos|cabecalho|descricao)\s+(desta|deste|da|do)?\s*(pagina|documento|secao|texto)?\s*(deve|devem|precisa|tem que)\s+(dizer|afirmar|informar|mencionar|indicar)\b`,
	}, "|"))},
}
