// Package forgive is the forgiving side of ingest's argument parsing: a CLI
// that forgives a typo says what was typed and what was meant. urfave/cli's
// flag parser reports "-wrokers" for --wrokers and suggests nothing, and a
// misspelt command followed by flags fails on the first flag, since the
// root has none of them; UnknownCommand and Flag say it as typed, with the
// nearest name (Nearest, by edit distance; Unmatched for names given that
// matched nothing, such as an --ignore code), NotFound says the parser's
// unknown command, and CompletionArgs takes the shell names people give the
// completion command. Typed and Value read what was typed before the parser
// runs (a flag named at all; --log-format, which decides the form of the
// parser's own errors).
//
// It returns plain errors; the command marks them as usage errors.
package forgive
