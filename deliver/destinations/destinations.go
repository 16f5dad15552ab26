package destinations

import (
	"fmt"
	"strings"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/deliver/pgsync"
	"github.com/ocean-safety/ingest/deliver/push"
	"github.com/ocean-safety/ingest/internal/redact"
)

// Options are the settings of each destination a caller delivers to, each
// of its own type. A caller sets those of the destinations it delivers to
// (ingest sync sets Postgres; ingest push, Push), and a URL of another is
// refused as an unknown scheme is: a command for one destination never
// turns into another because of its --to.
type Options struct {
	Postgres *pgsync.Options // its URL is the one given to Open
	Push     *push.Options   // its Settings.To is the one given to Open
}

// kind is one destination: what a message calls it, the addresses it
// takes, whether a caller's options include it, and how it is built.
type kind struct {
	name    string
	schemes []string // lower case
	bare    string   // the form of an address without a scheme it takes, if any
	given   func(Options) bool
	open    func(to string, o Options) (deliver.Destination, error)
}

// kinds are every destination, by the schemes of their URLs.
var kinds = []kind{
	{"a pgvector table", []string{"postgres", "postgresql"}, "host=… dbname=…", func(o Options) bool { return o.Postgres != nil }, openPostgres},
	{"an ingest API", []string{"http", "https"}, "", func(o Options) bool { return o.Push != nil }, openPush},
}

// Open builds the destination to names, with its settings from opt: it
// checks them (a destination's own errors: push's are
// *schema.SettingError) and contacts nothing. No error shows to's
// credentials.
func Open(to string, opt Options) (deliver.Destination, error) { return open(kinds, to, opt) }

func open(ks []kind, to string, opt Options) (deliver.Destination, error) {
	scheme := schemeOf(to)
	for _, k := range ks {
		if !k.takes(scheme) {
			continue
		}
		if !k.given(opt) {
			return nil, fmt.Errorf("%s is %s's address, and this delivery is not to one: want %s", redact.URL(to), k.name, accepted(ks, opt))
		}
		return k.open(to, opt)
	}
	if scheme == "" {
		return nil, fmt.Errorf("%s: not a destination's URL: want %s", redact.URL(to), accepted(ks, opt))
	}
	return nil, fmt.Errorf("%s: no destination takes %s://: want %s", redact.URL(to), scheme, accepted(ks, opt))
}

// takes reports whether k is the destination of an address of scheme
// ("": an address without one).
func (k kind) takes(scheme string) bool {
	if scheme == "" {
		return k.bare != ""
	}
	for _, s := range k.schemes {
		if s == scheme {
			return true
		}
	}
	return false
}

// accepted lists the addresses of the destinations opt has settings for.
func accepted(ks []kind, opt Options) string {
	var forms []string
	for _, k := range ks {
		if !k.given(opt) {
			continue
		}
		for _, s := range k.schemes {
			forms = append(forms, s+"://…")
		}
		if k.bare != "" {
			forms = append(forms, k.bare)
		}
	}
	switch n := len(forms); n {
	case 0:
		return "the settings of a destination"
	case 1:
		return forms[0]
	default:
		return strings.Join(forms[:n-1], ", ") + " or " + forms[n-1]
	}
}

// schemeOf is to's scheme in lower case (RFC 3986: a scheme is not case
// sensitive), or "" when to has none: libpq's "host=db dbname=kb", or
// "kb:5432", which is no URL either.
func schemeOf(to string) string {
	s, _, ok := strings.Cut(to, "://")
	if !ok || s == "" {
		return ""
	}
	for i, r := range s { // RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return ""
		}
	}
	return strings.ToLower(s)
}

func openPostgres(to string, o Options) (deliver.Destination, error) {
	opt := *o.Postgres
	opt.URL = to
	return built(pgsync.New(opt))
}

func openPush(to string, o Options) (deliver.Destination, error) {
	opt := *o.Push
	opt.Settings.To = to
	return built(push.New(opt))
}

// built returns d as a deliver.Destination, and nil on error: not a nil *T
// inside a non-nil interface.
func built[T deliver.Destination](d T, err error) (deliver.Destination, error) {
	if err != nil {
		return nil, err
	}
	return d, nil
}
