package redact

import (
	"net/url"
	"regexp"
	"strings"
)

// Mask stands for a credential in what is shown.
const Mask = "***"

// secretParam recognises a query parameter or option that carries a
// credential.
var secretParam = regexp.MustCompile(`(?i)(key|token|secret|password|passwd|pwd|auth|signature|sig|credential)`)

// isDSN reports a database URL: its user name stays (most often the
// scheme's own word, "postgres"), its password goes.
func isDSN(scheme string) bool {
	s := strings.ToLower(scheme)
	return s == "postgres" || s == "postgresql"
}

// URL returns u with its credentials replaced by Mask: the user info (for
// a database URL the password only), the values of credential-like query
// parameters, and the credentials of a URL given as a parameter's value
// (a bucket's endpoint=http://user:pass@host), at any depth. The rest of
// u is kept as it was written. Text that does not parse as a URL goes
// through Text.
func URL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" && p.User == nil {
		return Text(u)
	}
	if p.User != nil {
		if pw, ok := p.User.Password(); isDSN(p.Scheme) && ok && pw != "" {
			p.User = url.UserPassword(p.User.Username(), Mask)
		} else if !isDSN(p.Scheme) {
			p.User = url.User(Mask)
		}
	}
	p.RawQuery = query(p.RawQuery)
	s := p.String()
	return strings.NewReplacer("%2A%2A%2A", Mask, "%2a%2a%2a", Mask).Replace(s)
}

// query redacts a raw query, parameter by parameter, keeping their order
// and spelling.
func query(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, "&")
	for i, kv := range parts {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		key, err := url.QueryUnescape(k)
		if err != nil {
			key = k
		}
		if secretParam.MatchString(key) {
			parts[i] = k + "=" + Mask
			continue
		}
		val, err := url.QueryUnescape(v)
		if err != nil {
			parts[i] = k + "=" + Text(v)
			continue
		}
		if r := redactValue(val); r != val {
			parts[i] = k + "=" + strings.ReplaceAll(url.QueryEscape(r), "%2A%2A%2A", Mask)
		}
	}
	return strings.Join(parts, "&")
}

// redactValue redacts a parameter's value that is itself an address.
func redactValue(v string) string {
	if strings.Contains(v, "://") {
		return URL(v)
	}
	return Text(v)
}

var (
	// userinfo finds the user info of URLs in free text; group 1 is the
	// scheme, 2 the user, 3 the password (with its colon).
	userinfo = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)([^/?#@\s:]*)(:[^/?#@\s]*)?@`)
	// encodedUserinfo is the same in a URL-encoded URL (a bucket's endpoint
	// option inside another URL): "%3A%2F%2Fuser%3Apass%40".
	encodedUserinfo = regexp.MustCompile(`(?i)(%3A%2F%2F)([^\s/&?#]*?)%40`)
	// secretAssign finds a credential-like parameter or keyword with its
	// value: ?api_key=…, &token=…, password='…' in a connection string.
	// The value ends where a quote or a backslash does too: in a JSON
	// line ("?password=x\n","tokens": 5) the masked value must not take
	// the string's closing quote with it. A quoted value ('…', "…", or \"…\"
	// inside JSON) is masked whole.
	secretAssign = regexp.MustCompile(`(?i)((?:^|[\s?&;,])[a-z0-9_.-]*(?:key|token|secret|password|passwd|pwd|signature|sig|credential)[a-z0-9_.-]*=)('(?:[^'\\]|\\.)*'|\\"(?:[^"\\]|\\[^"])*\\"|"(?:[^"\\]|\\.)*"|[^\s&;,"\\]*)`)
)

// Text removes the credentials of every address in free text: user info
// (a database URL keeps its user), URL-encoded user info, and the values of
// credential-like parameters and connection-string keywords.
func Text(s string) string {
	if !strings.Contains(s, "@") && !strings.Contains(s, "=") && !strings.Contains(strings.ToUpper(s), "%40") {
		return s
	}
	s = userinfo.ReplaceAllStringFunc(s, func(m string) string {
		g := userinfo.FindStringSubmatch(m)
		switch {
		case isDSN(strings.TrimSuffix(g[1], "://")) && g[3] != "":
			return g[1] + g[2] + ":" + Mask + "@"
		case isDSN(strings.TrimSuffix(g[1], "://")):
			return m
		}
		return g[1] + Mask + "@"
	})
	s = encodedUserinfo.ReplaceAllString(s, "${1}"+Mask+"%40")
	return secretAssign.ReplaceAllString(s, "${1}"+Mask)
}
