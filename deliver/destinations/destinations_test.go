package destinations

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/deliver/pgsync"
	"github.com/ocean-safety/ingest/deliver/push"
	"github.com/ocean-safety/ingest/deliver/push/pushconf"
	"github.com/ocean-safety/ingest/schema"
)

// secret is planted in every URL below: no error may show it.
const secret = "planted-S3cret"

// TestOpen checks each address opens its destination, and that an address
// of no destination, or of one the caller gave no settings for, is refused
// naming the addresses it takes, credentials masked.
func TestOpen(t *testing.T) {
	pg := &pgsync.Options{}
	ps := &push.Options{Settings: pushconf.DefaultSettings(), Token: "tok-" + secret}
	both := Options{Postgres: pg, Push: ps}
	all := "want postgres://…, postgresql://…, host=… dbname=…, http://… or https://…"
	tests := []struct {
		name string
		to   string
		opt  Options
		want string // the destination's type, or what its error says
	}{
		{"postgres", "postgres://kb:" + secret + "@db/kb", both, "*pgsync.Destination"},
		{"postgresql", "postgresql://kb@db/kb", both, "*pgsync.Destination"},
		{"a scheme in capitals", "POSTGRES://kb@db/kb", both, "*pgsync.Destination"},
		{"libpq keywords", "host=db dbname=kb password=" + secret, both, "*pgsync.Destination"},
		{"no URL: libpq's to refuse", "kb:5432", both, "*pgsync.Destination"},
		{"https", "https://bot:" + secret + "@kb.example.org/v1/ingest", both, "*push.Destination"},
		{"http to this machine", "http://127.0.0.1:8080/ingest", both, "*push.Destination"},
		{"only the sync's settings", "postgres://kb@db/kb", Options{Postgres: pg}, "*pgsync.Destination"},
		{"unknown scheme", "ftp://bot:" + secret + "@kb.example.org/x", both, "ftp://***@kb.example.org/x: no destination takes ftp://: " + all},
		{"unknown scheme, sync's settings only", "qdrant://kb.example.org:6333/chunks?api_key=" + secret, Options{Postgres: pg},
			"qdrant://kb.example.org:6333/chunks?api_key=***: no destination takes qdrant://: want postgres://…, postgresql://… or host=… dbname=…"},
		{"an ingest API to a sync", "https://bot:" + secret + "@kb.example.org/v1/ingest", Options{Postgres: pg},
			"https://***@kb.example.org/v1/ingest is an ingest API's address, and this delivery is not to one: want postgres://…, postgresql://… or host=… dbname=…"},
		{"a table to a push", "postgres://kb:" + secret + "@db/kb", Options{Push: ps},
			"postgres://kb:***@db/kb is a pgvector table's address, and this delivery is not to one: want http://… or https://…"},
		{"libpq keywords to a push", "host=db password=" + secret, Options{Push: ps},
			"host=db password=*** is a pgvector table's address, and this delivery is not to one: want http://… or https://…"},
		{"no settings at all", "https://kb.example.org/ingest", Options{},
			"is an ingest API's address, and this delivery is not to one: want the settings of a destination"},
		{"the destination's own check", "postgres://kb:" + secret + "@db/kb", Options{Postgres: &pgsync.Options{Table: "Bad;"}},
			`table "Bad;": want a lower-case SQL name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Open(tt.to, tt.opt)
			got := fmt.Sprintf("%T", d)
			if err != nil {
				got = err.Error()
				if d != nil {
					t.Errorf("got destination %T with error %v, want nil", d, err)
				}
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if strings.Contains(got, secret) {
				t.Errorf("the credentials are in %q", got)
			}
		})
	}
}

// TestOpenSettingError checks push's bad settings come out as its
// *schema.SettingError (the command names the flag from it), with no
// destination.
func TestOpenSettingError(t *testing.T) {
	opt := &push.Options{Settings: pushconf.DefaultSettings(), Token: secret}
	d, err := Open("http://kb.example.org/ingest", Options{Push: opt})
	var se *schema.SettingError
	if d != nil || !errors.As(err, &se) || se.Key != "push.to" || strings.Contains(err.Error(), secret) {
		t.Errorf("got %v, %v; want no destination and a push.to setting error without the token", d, err)
	}
}

// TestSchemeOf checks what counts as a URL's scheme.
func TestSchemeOf(t *testing.T) {
	tests := []struct{ to, want string }{
		{"postgres://db", "postgres"},
		{"HTTPS://kb", "https"},
		{"git+ssh://host/x", "git+ssh"},
		{"host=db dbname=kb", ""},
		{"host=db password=a://b", ""},
		{"kb:5432", ""},
		{"://kb", ""},
		{"1http://kb", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.to, func(t *testing.T) {
			if got := schemeOf(tt.to); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
