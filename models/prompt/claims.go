package prompt

import (
	"regexp"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// A header that reassures ("it is always safe to swim here", "no lifeguard
// is needed", "the red flag can be ignored") must say what the chunk says:
// on a safety corpus that is what an injection is after, and what can drown
// a reader who trusts it. A header that warns more than its chunk costs a
// reader nothing, so only reassurance is held to the chunk: each claim of
// the header (a concept, and whether it is negated: "safe", "not
// dangerous", "can swim", "not needed") must be one the chunk, its lead-in,
// its section path or its title makes too, and when the header reassures,
// its absolutes ("always", "at any time") must be the chunk's as well. The
// words are read on the skeleton (lexical.Skeleton), so a look-alike letter
// does not hide a claim, in English, Portuguese, Spanish, French, German
// and Italian: an answer may be steered into any of them.

// claim is one concept a text asserts, and whether it is negated.
type claim struct {
	concept string
	negated bool
}

// concepts, each with whether it reassures when asserted (true) or when
// negated (false).
var reassuresWhenAsserted = map[string]bool{
	"safe": true, "allowed": true, "ignore": true, "guarded": true,
	"danger": false, "forbidden": false, "needed": false,
}

// claimWords maps a word to its concept; a word that names the negated
// concept ("unsafe") maps to "!concept".
var claimWords = func() map[string]string {
	m := map[string]string{}
	for concept, words := range map[string]string{
		"safe": `safe safer safest harmless riskless seguro segura seguros seguras inofensivo inofensiva inofensivos inofensivas
			sicher sicuro sicura sicuri inoffensif inoffensive securitaire`,
		"!safe": `unsafe inseguro insegura inseguros inseguras unsicher`,
		"danger": `danger dangers dangerous risk risks risky hazard hazards hazardous perigo perigos perigoso perigosa perigosos perigosas
			risco riscos arriscado arriscada peligro peligros peligroso peligrosa riesgo riesgos dangereux dangereuse risque risques
			gefahr gefahrlich pericolo pericoloso pericolosa rischio`,
		"forbidden": `forbidden prohibited banned proibido proibida proibidos vedado prohibido prohibida interdit interdite verboten vietato vietata`,
		"allowed":   `allowed permitted liberado liberada permitido permitida autorise autorisee erlaubt consentito permesso`,
		"ignore":    `ignore ignored ignoring disregard disregarded ignorar ignorada ignorado ignorer ignoree ignorieren ignoriert ignorare ignorata ignorato`,
		"needed": `need needs needed necessary required require requires precisa precisam preciso necessario necessaria necessita
			falta necesario necesaria besoin necessaire notig notwendig bisogno`,
		"!needed": `unnecessary unneeded desnecessario desnecessaria innecesario`,
		"guarded": `lifeguard lifeguards lifeguarded patrolled supervised supervision socorrista socorristas sauveteur sauveteurs
			bagnino bagnini rettungsschwimmer`,
		"!guarded": `unpatrolled unsupervised unguarded`,
	} {
		for _, w := range strings.Fields(words) {
			m[w] = concept
		}
	}
	return m
}()

// goals are the verbs that make "safe" an aim, not a claim: "stay safe",
// "keep children safe", "manter as crianças seguras".
var goals = wordSet(`stay stays staying keep keeps keeping remain remains remaining
	manter mantenha mantem ficar fique fica permanecer mantener mantenga quedarse rester restez garder`)

// negators negate a claim word up to negationReach words after them, in
// its clause.
var negators = wordSet(`not no never without cannot t nor none nobody neither non
	nao nem nunca sem jamais nenhum nenhuma ni jamas ningun ninguna tampoco ne n pas sans aucun aucune
	nicht kein keine keinen keiner ohne nie niemals mai senza nessun nessuno`)

const negationReach = 3

// absolutes are the words of "always", "at any time", in every language
// the claims are read in.
var absolutes = wordSet(`always anytime whenever sempre siempre toujours immer`)

// permission is a modal and an activity: "can swim", "pode nadar", "on peut
// se baigner": the "allowed" concept.
var permission = regexp.MustCompile(`\b(can|may|could|free to|ok to|okay to|fine to|pode|podem|pode-se|podemos|puede|pueden|puedes|se puede|peut|peuvent|pouvez|peux|on peut|puoi|puo|possono|si puo)\s+(se\s+)?(swim|swimming|bathe|surf|dive|enter|paddle|snorkel|jump|go in|nadar|entrar|mergulhar|surfar|banhar|banarse|nager|baigner|plonger|nuotare|bagnarsi|tuffarsi)\b`)

// anyTime is "any time", "at all times", "a qualquer hora" as one absolute.
var anyTime = regexp.MustCompile(`\b(any ?time|all times|all day|a qualquer hora|qualquer horario|a cualquier hora|a toute heure|jederzeit|in qualsiasi momento)\b`)

// lifeguards is the Portuguese word in two parts: one "guarded" word.
var lifeguards = regexp.MustCompile(`\b(guarda|salva)[- ]?vidas\b`)

// claimsOf are the claims text makes, and whether it says an absolute.
// Portuguese "no" is "in the", not a negation.
func claimsOf(text string, lang schema.Lang) (map[claim]bool, bool) {
	out := map[claim]bool{}
	absolute := false
	for _, clause := range clauseBreak.Split(lexical.Skeleton(text), -1) {
		clause = permission.ReplaceAllString(clause, " allowed ")
		clause = lifeguards.ReplaceAllString(clause, " lifeguard ")
		if anyTime.MatchString(clause) {
			absolute = true
		}
		words := lexical.Tokens(clause)
		for i, w := range words {
			if absolutes[w] {
				absolute = true
			}
			concept, ok := claimWords[w]
			if !ok {
				continue
			}
			neg := strings.HasPrefix(concept, "!")
			concept = strings.TrimPrefix(concept, "!")
			goal := false
			for j := max(0, i-negationReach); j < i; j++ {
				goal = goal || concept == "safe" && goals[words[j]]
				if negators[words[j]] && (words[j] != "no" || lang != schema.LangPT) {
					neg = !neg
					break
				}
			}
			if goal {
				continue
			}
			if i+1 < len(words) && words[i+1] == "free" { // "risk-free"
				neg = !neg
			}
			out[claim{concept, neg}] = true
		}
	}
	return out, absolute
}

// ofTheSea finds what a safety claim is about: the water, being in it, and
// what guards it, in the six languages. Words that technical pages use
// otherwise are left out ("current", "flag", "dive", "cold"): a header that
// reassures about none of these makes no safety claim, and "when it is safe
// to ignore the warning" is a fair paraphrase of "ignore the warning if…".
var ofTheSea = regexp.MustCompile(`\b(swim\w*|bath(e|es|ing)|water|sea|ocean|beach(es)?|surf\w*|currents|rips?|waves?|tides?|shores?|` +
	`(red|yellow|green|purple|double red|black and white|beach) flags?|lifeguard\w*|snorkel\w*|paddl\w*|drown\w*|sharks?|jellyfish|children|kids|night|` +
	`nad[aeo]\w*|banhos?|agua|mar|praias?|ondas?|correntes?|repuxos?|valas?|bandeiras? (vermelha|amarela|verde)|mares?|mergulh\w*|criancas?|noite|tubaro\w*|` +
	`bano|playas?|olas?|corrientes?|banderas? (roja|amarilla|verde)|mareas?|ninos|noche|` +
	`nag(e|er|ez|eurs?)|baign\w*|eau|mer|plages?|vagues?|courants?|drapeaux? (rouge|jaune|vert)|enfants|nuit|maitre[- ]nageur\w*|` +
	`schwimm\w*|bade\w*|wasser|meer|strand|wellen?|stromung\w*|(rote|gelbe) flagge|kinder|nacht|` +
	`nuot\w*|bagn\w*|acqua|spiaggia|bandiera (rossa|gialla)|bambini|notte|socorrist\w*|sauveteur\w*|rettungsschwimmer)\b`)

// clauseBreak ends the reach of a negation: a sentence's end, a colon, the
// › between a header's title and section, a table cell, a line.
var clauseBreak = regexp.MustCompile(`[.;:!?›|\n()]+`)

// unmadeClaims returns the reassuring claims of header that the chunk's
// claims do not include, as the words a message names them by.
func unmadeClaims(header string, lang schema.Lang, chunk map[claim]bool, chunkAbsolute bool) []string {
	if !ofTheSea.MatchString(lifeguards.ReplaceAllString(lexical.Skeleton(header), " lifeguard ")) {
		return nil // "it is safe to ignore the warning" in a technical page is no safety claim
	}
	claims, absolute := claimsOf(header, lang)
	var out []string
	for c := range claims {
		if reassuresWhenAsserted[c.concept] == c.negated || chunk[c] {
			continue
		}
		out = append(out, claimName(c))
	}
	if len(out) == 0 && absolute && !chunkAbsolute && reassures(claims) {
		out = append(out, "always")
	}
	slices.Sort(out)
	return out
}

// reassures reports whether any of claims reassures.
func reassures(claims map[claim]bool) bool {
	for c := range claims {
		if reassuresWhenAsserted[c.concept] != c.negated {
			return true
		}
	}
	return false
}

func claimName(c claim) string {
	if c.negated {
		return "not " + c.concept
	}
	return c.concept
}

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
