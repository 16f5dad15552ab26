// Package sentence splits English and Brazilian Portuguese prose into
// sentences: the unit a chunk is never cut inside of, and what an extractive
// header quotes. Abbreviations, initials, decimals and units do not end a
// sentence. It imports nothing of the project, so header writers can use it
// without linking the Markdown parser.
package sentence
