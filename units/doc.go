// Package units finds physical quantities (lengths, speeds and temperatures)
// in English and Brazilian-Portuguese text and gives each its canonical SI
// value, so that "5 ft", "1,52 m" and "cinco pés" compare equal downstream.
//
// Parse is a hand-written scanner rather than a set of regular expressions:
// it looks at each run of digits once, reads the number in the document's
// convention (decimal comma and thousands dot in Portuguese), and accepts it
// only when a known unit follows. It is deliberately conservative: a number
// without a clear unit (years, times, phone numbers, list numbers, road
// markers) is never a quantity, and ambiguous spellings ("in", "mi", "C") are
// accepted only where they cannot be an ordinary word.
//
// Decisions a reader of the output needs to know:
//
//   - Ranges ("2–3 m", "entre 15 e 18 °C") give two quantities sharing a
//     Range id. The lower end's Surface is its number alone ("2") because the
//     unit is written only once, after the upper end; the upper end's Surface
//     is its number with the unit ("3 m"). Both carry the unit in Unit.
//   - A restatement in parentheses or brackets ("3 ft (about 0.9 m)", and the
//     "5 ft [1.52 m]" form ingest itself writes) links the second quantity to
//     the first through EquivalentOf.
//   - A bare "degrees", "graus" or "°" takes its scale from the nearest
//     explicit °C or °F in the same text, or from a "Celsius"/"Fahrenheit"
//     written anywhere in it. Without either, Portuguese text means Celsius
//     and English text means Fahrenheit, except when no bare value in the
//     text exceeds 45, which is read as Celsius: a beach reading that low in
//     Fahrenheit is near-freezing water, and this corpus's beaches are
//     Brazilian. All bare degrees of one text share that default. A bare
//     degree next to "angle", "ângulo", "inclinação", "bearing", "rumo" …
//     is an angle and is dropped; "27°35′" is a coordinate.
//   - Negative signs (ASCII "-" and U+2212) are kept only on temperatures: a
//     "-5 m" is far more often a dash in prose than a negative length.
//   - Options.Lang other than "pt" is treated as English.
package units
