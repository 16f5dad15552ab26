package pgsync

import (
	"net/url"
	"regexp"
	"strings"
)

// A postgres:// URL carries its password; a sync names its target in every
// report and many errors, so the password is removed from both.

var (
	userinfoPassword = regexp.MustCompile(`(//[^/:@\s]*):[^@\s/]*@`)
	keywordPassword  = regexp.MustCompile(`(?i)(password=)('(?:[^'\\]|\\.)*'|[^\s&]*)`)
)

// RedactURL returns a connection string (URL or key=value form) with its
// password replaced by ***: the user and host stay, to say where it went.
func RedactURL(s string) string {
	s = userinfoPassword.ReplaceAllString(s, "$1:***@")
	return keywordPassword.ReplaceAllString(s, "${1}***")
}

// Secrets returns the password of a connection string, if it has one (in
// the forms it may be quoted in): what must never be printed. The user name
// is not one: it is most often "postgres", the scheme's own word.
func Secrets(s string) []string {
	var out []string
	if u, err := url.Parse(s); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			out = append(out, pw, url.QueryEscape(pw), url.PathEscape(pw))
		}
		if pw := u.Query().Get("password"); pw != "" {
			out = append(out, pw)
		}
	}
	for _, m := range keywordPassword.FindAllStringSubmatch(s, -1) {
		if pw := strings.Trim(m[2], "'"); pw != "" {
			out = append(out, pw)
		}
	}
	return out
}

// redactedError is an error whose message had the password removed; it
// still unwraps to the original, so errors.Is and errors.As work.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactErr removes the connection string's password from err's message.
func redactErr(err error, connString string) error {
	if err == nil {
		return nil
	}
	msg := RedactURL(err.Error())
	for _, s := range Secrets(connString) {
		if len(s) >= 3 { // shorter would scrub ordinary words
			msg = strings.ReplaceAll(msg, s, "***")
		}
	}
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg, err}
}
