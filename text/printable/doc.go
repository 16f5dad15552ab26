// Package printable keeps what the tool prints from acting on the terminal
// or the CI log that shows it: control characters (C0, DEL, C1), line and
// paragraph separators (U+2028, U+2029) and bidirectional overrides in a path or any other user string are shown
// escaped, and no printed value can start a GitHub Actions workflow command
// line ("::error file=…::", "##[…]"). One rule for what is unsafe (Unsafe),
// used by the corpus scan to skip such names, by the model answer checks,
// and by every output path of the command line.
package printable
