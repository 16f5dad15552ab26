package forgive

import (
	"slices"
	"strings"
)

// Typed reports whether args name flag name (-name, --name or
// --name=value), as the user typed them, whatever the parser made of it.
func Typed(args []string, name string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		return strings.HasPrefix(a, "-") && n == name
	})
}

// Value is the value args give flag name, the first time they name it
// (--name value or --name=value), read before the parser runs: what must
// be known before it can (the format of its own error); ok is false when
// args do not name it.
func Value(args []string, name string) (v string, ok bool) {
	for i, a := range args {
		n, v, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || n != name {
			continue
		}
		if !hasValue && i+1 < len(args) {
			v = args[i+1]
		}
		return v, true
	}
	return "", false
}
