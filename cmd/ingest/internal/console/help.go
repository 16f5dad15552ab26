package console

import "strings"

// HelpTemplate is a command's help page template, tmpl, with an EXAMPLES
// section of the command lines examples, each shown as it is typed.
func HelpTemplate(tmpl string, examples []string) string {
	var b strings.Builder
	b.WriteString(tmpl)
	b.WriteString("\nEXAMPLES:\n")
	for _, e := range examples {
		// Braces would open a template action: quoted as template strings.
		b.WriteString("   " + strings.NewReplacer("{{", `{{"{{"}}`, "}}", `{{"}}"}}`).Replace(e) + "\n")
	}
	return b.String()
}
