// Package thresholds finds the numeric bounds the corpus states ("waves
// above 1.5 m are dangerous for beginners", "água abaixo de 18 °C traz risco
// de hipotermia") and writes them as a proposal for people to review.
//
// Extraction is deterministic and rule-based: a quantity found by package
// units, bound by a comparator phrase just before it ("acima dos", "up to",
// "between … and …") or just after it, past a restatement ("35 knots
// (about 65 km/h) or more", "25 nós no mínimo", "10 °C ou mais fria"), or
// a plain range whose sentence gives a consequence or a directive ("ondas
// de 2 a 3 m são perigosas", "limit swims in water of 15–18 °C"). Only
// sentences that state a limit are proposed: the bound
// comes with a hazard, a directive, a condition or the word limit itself,
// and the sentence is no measurement ("the pier is more than 300 m long"),
// history ("em 2024 houve … até 3,5 m"), comparison ("the difference can
// exceed 4 °C") or description ("usually below 20 °C"). The subject
// it constrains comes from a small bilingual vocabulary ("ondas", "wind",
// "água" …) matched in the same sentence, nearest to the quantity wins (a
// length's subject is the noun it measures, never its unit: "a wetsuit of
// at least 3 mm" bounds the suit's thickness, not the water's depth); the
// hazard is a short phrase opened by a danger keyword. Nothing here is ever
// applied: Write renders thresholds.md, which says so in its first lines,
// and lists as conflicts the values documents give apart for one subject
// and comparator, and the bounds that fall outside another document's
// range for the subject.
//
// It also holds the normalise stage (Normaliser: a chunk's quantities with
// their SI values, and the thresholds they state) and the check of a
// model's proposed thresholds against them (Ground): a model may read a
// bound into a chunk, it may not invent one.
package thresholds
