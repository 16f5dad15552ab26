// Package units finds physical quantities (lengths, speeds and temperatures)
// in English and Brazilian-Portuguese text and gives each its canonical SI
// value, so that "5 ft", "1,52 m" and "cinco pés" compare equal downstream.
//
// Parse is a hand-written scanner rather than a set of regular expressions:
// it looks at each run of digits and each word once, reads a numeral in the
// document's convention (decimal comma and thousands dot in Portuguese; the
// numerals are read by package units/numeral), and accepts it only when a
// known unit follows. It is deliberately
// conservative: a number without a clear unit (years, times, phone numbers,
// list numbers, road markers) is never a quantity, and ambiguous spellings
// ("in", "mi", "C", "m") are accepted only where they cannot be something
// else.
//
// What counts as a numeral:
//
//   - Digits, with fractions and mixed numbers ("7/16", "3 1/4", "½",
//     "2½"; a proper fraction with a denominator up to 64, or 1000 before
//     a unit that is no preposition ("1/72 polegada"), so "4/3 mm" and
//     "24/7" are not), powers of ten ("3×10⁸", "1.5 x 10^3", "3e8") and
//     magnitudes ("1.5k feet", "5 thousand feet", "35 mil pés").
//   - Words, in the text's language only: "twelve", "forty-two", "one
//     hundred and twenty", "two and a half", "half a", "three quarters of
//     a"; "dois", "cento e vinte", "dois mil", "meia", "três quartos de".
//     "A mile and a half" is 1.5 mi, but "a mile" alone is not a
//     measurement.
//   - A bare "5k" or "10K" is a race in kilometres only when race words
//     ("ran", "corrida", "prova" …) are near; "5k views" is not.
//
// Decisions a reader of the output needs to know:
//
//   - Ranges ("2–3 m", "entre 15 e 18 °C", "six to eight feet") give two
//     quantities sharing a Range id. The lower end's Surface is its number
//     alone ("2") because the unit is written only once, after the upper
//     end; the upper end's Surface is its number with the unit ("3 m").
//     Both carry the unit in Unit. Two values joined by "ou" or "or"
//     ("0,25 ou 0,35 mm") are read the same way but are alternatives, not
//     a range: both carry the unit and neither has a Range id. So are the
//     sides of a size with a spaced "x" or "×" ("250 x 353 mm"), lengths
//     only.
//   - A compound ("5 ft 8 in", "3 yards 2 ft 4 inches", "6' 2"", "1 m 75",
//     "um metro e setenta") is one quantity: its Surface spans the parts,
//     its Unit is the first part's and its Value the sum in that unit, so
//     the parts never count as readings of their own. "2 ft, 3 ft" is a
//     list, not a compound. "Dois metros e meio" and "a mile and a half"
//     add the half the same way.
//   - Primes (9′, 14″) and quote marks used as primes (6' 2") are feet and
//     inches only glued to digits that no quote or degree sign opens:
//     "12" in quotes and the coordinate 27°35′ are not lengths, and 2' 30"
//     (more than 11 inches) is a time.
//   - A restatement in parentheses or brackets ("3 ft (about 0.9 m)", and
//     the "5 ft [1.52 m]" form ingest itself writes) links the second
//     quantity to the first through EquivalentOf.
//   - A bare "degrees", "graus" or "°" takes its scale from the nearest
//     explicit °C or °F in the same text, or from a "Celsius"/"Fahrenheit"
//     written anywhere in it. Without either, Portuguese text means Celsius
//     and English text means Fahrenheit, except when no bare value in the
//     text exceeds 45, which is read as Celsius: a beach reading that low in
//     Fahrenheit is near-freezing water, and this corpus's beaches are
//     Brazilian. All bare degrees of one text share that default. A bare
//     degree next to "angle", "rotate", "turn", "ângulo", "gire", "latitude"
//     … is an angle and is dropped; "27°35′" is a coordinate.
//   - Signs are kept only on temperatures (a "-5 m" is far more often a
//     dash in prose than a negative length): "-5", "−5", "+5°", "minus
//     40", "negative 12", "menos 4", and after the unit "below zero",
//     "abaixo de zero", "negativos". "Plus or minus" and "mais ou menos"
//     are a tolerance, not a sign. The sign is part of the Surface.
//   - Letters that are units elsewhere are vetoed by the words around them:
//     "C" near charge or battery words (coulomb, C-rate), "F" near
//     capacitors (farad), "kt"/"kn" near yield, gold or money words
//     (kilotons, karats, kuna) and "kN" always (kilonewtons); "C" and "F"
//     after grade, room, bus …; "m" and "mi" before users, people, reais …
//     or near a currency sign (millions); "knots"/"nós" near a rope; "two
//     feet" after "his", "os" … (a body's); "degrees" near university words.
//     A length followed by "square", "quadrados", "cúbicos" or written "km²"
//     is an area or a volume, not a length.
//   - Numbers that real text writes next to a unit-like letter by chance
//     are not measurements (see plausible.go): a letter C above 60 or F
//     above 140 is a model ("Xeon 8581C"); a glued "m" right after a word
//     of time ("timeout ~60m", "1 minute (1m)") or inside a PromQL range
//     ("[5m]") is minutes; a number in words takes no unit word of the
//     other language ("um meter provider"); "um grau", "one degree" need a
//     temperature word near ("um grau maior de sofisticação"); a number
//     glued after "host:" is a port, not inches before a closing quote
//     (`"http://localhost:4317"`); a quote that a sign opened closes after
//     the number (`-o="-D 4"`, `=CONT.SES(B2:B6;">=20")`). A glued "m"
//     after "=" or a command-line option ("size=512m", "-t 3m") or among
//     other glued times ("30s, then 5m") is not metres either. A length
//     over a time the table does not spell as a speed ("200 km por
//     segundo", "5 mm/s") is a rate, not a length. A bare degree is an
//     angle too when a compass point follows it ("37.5 degrees West") or
//     labels it in brackets ("o Leste (0°)"), or when its text is about
//     angles (the sky's words, "angular", "órbita", a hue, a coordinate
//     like 48°51′, a bare 360 degrees) with no word of temperature in it.
//     Word lists match a capital accent ("Ângulo", "Água") and phrases
//     ("sentido horário", "anti-horário"). A number after "n / " is a
//     denominator ("1200 / 3937 meters"), not a length of its own, and so
//     is one after a volume and "per" or "/" ("l/100 km"). Degrees of
//     freedom, a Portuguese ordinal written "4°" after an article, and the
//     degrees of a clause a rotation verb opens ("Girar os componentes
//     selecionados 180 graus") are no temperatures.
//   - Options.Lang other than "pt" is treated as English.
package units
