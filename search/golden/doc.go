// Package golden reads golden-questions files: questions, each with the
// document (and section) that answers it and the phrase its chunk must
// hold, or none when the corpus cannot answer it; validated strictly, and
// split in halves to tune on one and measure on the other (Half).
package golden
