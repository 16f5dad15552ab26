package models

import (
	"errors"
	"net/url"
	"os"
	"regexp"
	"strings"
)

// Credentials travel in model server addresses (http://user:token@host,
// ?api_key=…) and in OPENAI_API_KEY. They are used, never shown: every
// address in a message goes through RedactURL, and Secrets gives the
// command line what to scrub from everything it prints.

// redacted stands for a credential in what is shown.
const redacted = "***"

// secretParam recognises a query parameter that carries a credential.
var secretParam = regexp.MustCompile(`(?i)(key|token|secret|password|passwd|pwd|auth|signature|sig|credential)`)

// userinfo finds the user info of URLs in text that does not parse as one.
var userinfo = regexp.MustCompile(`//[^/@\s]+@`)

// RedactURL returns u with its user info and the values of credential-like
// query parameters replaced by ***.
func RedactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return userinfo.ReplaceAllString(u, "//"+redacted+"@")
	}
	if p.User != nil {
		p.User = url.User(redacted)
	}
	if p.RawQuery != "" {
		q := p.Query()
		for k := range q {
			if secretParam.MatchString(k) {
				q[k] = []string{redacted}
			}
		}
		p.RawQuery = q.Encode()
	}
	return strings.ReplaceAll(p.String(), url.QueryEscape(redacted), redacted)
}

// Secrets returns the credentials found in the given server addresses, in
// the model servers' environment variables and in the API key variable
// (keyEnv, "" for OPENAI_API_KEY): what must never be printed.
func Secrets(addresses []string, keyEnv string) []string {
	if keyEnv == "" {
		keyEnv = defaultOpenAIKeyEnv
	}
	var out []string
	add := func(s string) {
		if len(s) >= 4 && s != redacted { // shorter would scrub ordinary words
			out = append(out, s)
		}
	}
	add(os.Getenv(keyEnv))
	for _, a := range append(addresses, os.Getenv("OLLAMA_HOST"), os.Getenv("OPENAI_BASE_URL")) {
		p, err := url.Parse(strings.TrimSpace(a))
		if err != nil || p.Host == "" {
			continue
		}
		if p.User != nil {
			add(p.User.Username())
			pw, _ := p.User.Password()
			add(pw)
		}
		for k, vs := range p.Query() {
			if secretParam.MatchString(k) {
				for _, v := range vs {
					add(v)
				}
			}
		}
	}
	return out
}

// redactErr removes credentials from the address an HTTP client's error
// quotes (Go hides a password, not a user name or a token in the query).
func redactErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = RedactURL(ue.URL)
	}
	return err
}
