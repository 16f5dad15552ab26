// Package quantities holds what a chunk states in numbers: the normalise
// stage (Normaliser: the quantities of its text, with their SI values, and
// the thresholds they state) and the check of a model's proposed
// thresholds against them (Ground): a model may read a bound into a chunk,
// it may not invent one.
package quantities
