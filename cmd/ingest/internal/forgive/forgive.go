package forgive

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"
)

// UnknownCommand is the error for args whose first word names no command
// of app (nil when it does, or when the first word is a flag: the parser
// decides those), with the nearest command's name.
func UnknownCommand(app *cli.Command, args []string) error {
	if len(args) < 2 || strings.HasPrefix(args[1], "-") || args[1] == "help" || args[1] == "h" {
		return nil
	}
	name := args[1]
	for _, c := range app.Commands {
		if c.HasName(name) {
			return nil
		}
	}
	if name == "completion" && app.EnableShellCompletion {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q (ingest help lists the commands)", name)
	if s := Nearest(name, commandNames(app)); s != "" {
		msg = fmt.Sprintf("unknown command %q; did you mean %q? (ingest help lists the commands)", name, s)
	}
	return errors.New(msg)
}

func commandNames(app *cli.Command) []string {
	var names []string
	for _, c := range app.Commands {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	return names
}

// undefinedFlag is the flag parser's message for a flag a command lacks.
var undefinedFlag = regexp.MustCompile(`flag provided but not defined: -+([^\s=]+)`)

// Flag rewrites the parser's error for an unknown flag of cmd: the flag as
// it was typed in args, and the nearest flag cmd has. Any other error is
// returned as it is.
func Flag(cmd *cli.Command, args []string, err error) error {
	m := undefinedFlag.FindStringSubmatch(err.Error())
	if m == nil || cmd == nil {
		return err
	}
	name, typed := m[1], "--"+m[1]
	for _, a := range args {
		if n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && n == name {
			typed, _, _ = strings.Cut(a, "=")
			break
		}
	}
	var names []string
	for _, f := range cmd.VisibleFlags() {
		names = append(names, f.Names()...)
	}
	where := "ingest " + cmd.Name
	if cmd.Root() == cmd {
		where = "ingest"
	}
	msg := fmt.Sprintf("unknown flag %s for %s", typed, where)
	if s := Nearest(name, names); s != "" {
		dashes := "--"
		if len(s) == 1 {
			dashes = "-"
		}
		msg += fmt.Sprintf("; did you mean %s%s?", dashes, s)
	}
	msg += fmt.Sprintf(" (%s --help lists them)", where)
	return errors.New(msg)
}

// Nearest is the candidate closest to typed, if it is close enough to be
// a typo of it: within a third of its length in edits (two at least, so a
// swapped pair or a doubled letter of a short name still counts).
func Nearest(typed string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(typed), strings.ToLower(c)); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > max(2, len(typed)/3) || bestD >= len(typed) {
		return ""
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps of
// neighbours that turn a into b (optimal string alignment).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// shellAliases are the names people give a shell that the completion
// command knows by another: its help offers "Powershell", its command is
// pwsh.
var shellAliases = map[string]string{"powershell": "pwsh", "PowerShell": "pwsh", "Powershell": "pwsh"}

// CompletionArgs maps "completion powershell" to the name urfave/cli gives
// the script ("completion pwsh").
func CompletionArgs(args []string) []string {
	if len(args) >= 3 && args[1] == "completion" {
		if to, ok := shellAliases[args[2]]; ok {
			args = slices.Clone(args)
			args[2] = to
		}
	}
	return args
}

// NotFound is the error for a command name the parser found none of app's
// (its CommandNotFound), with the command urfave/cli suggests.
func NotFound(app *cli.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q (ingest help lists the commands)", name)
	if s := cli.SuggestCommand(app.Commands, name); s != "" {
		msg = fmt.Sprintf("unknown command %q; did you mean %q? (ingest help lists the commands)", name, s)
	}
	return errors.New(msg)
}

// A Miss is a name given that matched none of those there were, with the
// nearest of them ("" for none close enough).
type Miss struct{ Given, Nearest string }

// Unmatched is each of given that is none of have (a list that may repeat
// names), with the nearest name have holds: an --ignore code that matched
// no diagnostic of the run is most likely a typo of one that did.
func Unmatched(given, have []string) []Miss {
	seen := map[string]bool{}
	var names []string
	for _, h := range have {
		if !seen[h] {
			seen[h] = true
			names = append(names, h)
		}
	}
	var out []Miss
	for _, g := range given {
		if !seen[g] {
			out = append(out, Miss{g, Nearest(g, names)})
		}
	}
	return out
}
