package redact

import (
	"net/url"
	"regexp"
	"strings"
)

// anyURL finds an address in text.
var anyURL = regexp.MustCompile(`(?i)[a-z][a-z0-9+.-]*://\S+`)

// minSecret is the shortest value scrubbed as a secret: shorter ones would
// scrub ordinary words.
const minSecret = 4

// Secrets returns the credentials found in values (command-line
// arguments, a flag's value after "=", environment values): each URL's
// user and password (a database URL's password only), credential-like
// parameters, and those of URLs nested in parameters, each also in its
// URL-encoded forms, so a message that quotes an address the tool did not
// build (an HTTP client's error, a server's answer) shows none of them.
func Secrets(values ...string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		for _, v := range []string{s, url.QueryEscape(s), url.PathEscape(s)} {
			if len(v) >= minSecret && v != Mask && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	var walk func(v string, depth int)
	walk = func(v string, depth int) {
		if depth > 4 {
			return
		}
		for _, m := range secretAssign.FindAllStringSubmatch(v, -1) { // password=… in a DSN or free text
			add(strings.Trim(m[2], "'"))
		}
		p, err := url.Parse(strings.TrimSpace(v))
		if err != nil || p.Host == "" && p.User == nil {
			for _, u := range anyURL.FindAllString(v, -1) { // --publish=s3://…, or a URL in text
				if u != v {
					walk(u, depth+1)
				}
			}
			return
		}
		if p.User != nil {
			if !isDSN(p.Scheme) {
				add(p.User.Username())
			}
			if pw, ok := p.User.Password(); ok {
				add(pw)
			}
		}
		for k, vs := range p.Query() {
			for _, x := range vs {
				if secretParam.MatchString(k) {
					add(x)
				} else if strings.Contains(x, "://") || strings.Contains(x, "@") {
					walk(x, depth+1)
				}
			}
		}
	}
	for _, v := range values {
		walk(v, 0)
	}
	return out
}

// Environment returns the values of an environment (os.Environ's
// KEY=value lines, as the command line reads them) that may hold a
// credential: addresses (anything with "://"), connection strings
// (password=), the variables whose names say they hold one
// (AWS_SECRET_ACCESS_KEY, PGPASSWORD, INGEST_PUSH_TOKEN: what a library
// may read without a flag) and the API key variables named
// (OPENAI_API_KEY and the like), whichever flag or library reads them.
func Environment(environ []string, keyVars ...string) []string {
	var out []string
	vars := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
		switch {
		case strings.Contains(v, "://") || strings.Contains(strings.ToLower(v), "password="):
			out = append(out, v)
		case secretVar(k) && len(v) >= minSecret:
			out = append(out, "api_key="+v) // read as a credential-like keyword
		}
	}
	for _, k := range keyVars {
		if v := vars[k]; len(v) >= minSecret {
			out = append(out, "api_key="+v) // read as a credential-like keyword
		}
	}
	return out
}

// secretVar reports an environment variable whose name says it holds a
// credential. Narrower than secretParam: PWD and OLDPWD are folders, and
// SSH_AUTH_SOCK a socket, whose values every path printed would lose.
func secretVar(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range []string{"PASSWORD", "PASSWD", "SECRET", "TOKEN", "API_KEY", "APIKEY", "ACCESS_KEY", "CREDENTIAL"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return strings.HasSuffix(n, "_AUTH")
}
