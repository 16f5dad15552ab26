package redact

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestURL: every kind of address the tool is given, credentials out, the
// rest as written.
func TestURL(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"model server, none", "http://127.0.0.1:11434", "http://127.0.0.1:11434"},
		{"model server, user and token", "http://admin:sk-SECRET@host:1/v1", "http://***@host:1/v1"},
		{"model server, token as user", "https://sk-SECRET@host/v1", "https://***@host/v1"},
		{"api key parameter", "https://host/v1?api_key=SECRET&model=x", "https://host/v1?api_key=***&model=x"},
		{"access token", "https://host/?access_token=SECRET", "https://host/?access_token=***"},
		{"bucket endpoint with user:pass@", "s3://kb/prefix?endpoint=http://u:hunter2PASS@127.0.0.1:8333&region=us-east-1&s3ForcePathStyle=true",
			"s3://kb/prefix?endpoint=http%3A%2F%2F***%40127.0.0.1%3A8333&region=us-east-1&s3ForcePathStyle=true"},
		{"bucket endpoint encoded", "s3://kb/p?endpoint=http%3A%2F%2Fu%3Ahunter2PASS%40127.0.0.1%3A8333&region=x",
			"s3://kb/p?endpoint=http%3A%2F%2F***%40127.0.0.1%3A8333&region=x"},
		{"bucket secret option", "s3://kb/p?awssdk=v2&secret_access_key=hunter2PASS", "s3://kb/p?awssdk=v2&secret_access_key=***"},
		{"azure sas", "azblob://c/p?sig=abcdEFGH&sv=2020", "azblob://c/p?sig=***&sv=2020"},
		{"dsn", "postgres://kb:s3cret@db.example:5432/kb?sslmode=require", "postgres://kb:***@db.example:5432/kb?sslmode=require"},
		{"dsn, user only", "postgresql://kb@db.example/kb", "postgresql://kb@db.example/kb"},
		{"dsn, empty user", "postgres://:s3cret@db.example/kb", "postgres://:***@db.example/kb"},
		{"dsn keywords", "host=db.example user=kb password=s3cret dbname=kb", "host=db.example user=kb password=*** dbname=kb"},
		{"dsn keywords quoted", "host=db.example password='s3 cret' dbname=kb", "host=db.example password=*** dbname=kb"},
		{"dsn password parameter", "postgres://db.example/kb?user=kb&password=s3cret", "postgres://db.example/kb?user=kb&password=***"},
		{"free text", "connect to postgres://kb:s3cret@db.example/kb: refused; not a url admin:pw@host //user:pw@host",
			"connect to postgres://kb:***@db.example/kb: refused; not a url admin:pw@host //user:pw@host"},
		{"free text, any scheme", "open s3://b/p?endpoint=http://u:hunter2PASS@h:1: denied", "open s3://b/p?endpoint=http://***@h:1: denied"},
		{"folder", "/srv/kb/published", "/srv/kb/published"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := URL(tt.in); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			for _, s := range []string{"hunter2PASS", "s3cret", "sk-SECRET", "SECRET", "abcdEFGH"} {
				if strings.Contains(URL(tt.in), s) {
					t.Errorf("got %s in %s", s, URL(tt.in))
				}
			}
		})
	}
}

// TestSecrets: the credentials of every kind of address, with their
// encoded forms, so the scrubber catches a message that quotes one.
func TestSecrets(t *testing.T) {
	got := Secrets("--publish=s3://kb/p?endpoint=http://AKIDUSER:hunter2PASS@h:1", "http://u-user:pw-pass@h/?token=tok-en",
		"postgres://postgres:pg-pass@db/kb", "host=db password=kw-pass")
	for _, want := range []string{"AKIDUSER", "hunter2PASS", "u-user", "pw-pass", "tok-en", "pg-pass", "kw-pass"} {
		if !slices.Contains(got, want) {
			t.Errorf("got secrets %q, want %s among them", got, want)
		}
	}
	if slices.Contains(got, "postgres") {
		t.Errorf("got the database user name %q as a secret", "postgres")
	}
	t.Setenv("OPENAI_API_KEY", "sk-PLANTED/x+y")
	t.Setenv("INGEST_PUBLISH", "s3://kb/p?endpoint=http://u:env-PASS@h:1")
	env := Secrets(Environment(os.Environ(), "OPENAI_API_KEY")...)
	for _, want := range []string{"sk-PLANTED/x+y", "sk-PLANTED%2Fx%2By", "env-PASS"} {
		if !slices.Contains(env, want) {
			t.Errorf("got secrets %q from the environment, want %s", env, want)
		}
	}
}

// TestScrubber: what goes through the scrubber holds no secret, in any
// encoding, nor any address's credentials.
func TestScrubber(t *testing.T) {
	var b bytes.Buffer
	w := NewScrubber(&b, Secrets("s3://kb/p?endpoint=http://u:hunter2PASS@h:1"))
	w.Write([]byte(`{"snapshot": "s3://kb/p?endpoint=http%3A%2F%2Fu%3Ahunter2PASS%40h%3A1/20260101", "error": "Get http://x:other-pw@h: refused"}` + "\n"))
	for _, s := range []string{"hunter2PASS", "other-pw"} {
		if strings.Contains(b.String(), s) {
			t.Errorf("got %s in %s", s, b.String())
		}
	}
}

// TestTextInJSON: masking a credential-like value in a JSON line keeps the
// line JSON (the value stops at the string's end: it took the closing
// quote, and a chunk of docs about ?password= broke ingest chunk's output),
// and still masks a value quoted inside the JSON string.
func TestTextInJSON(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"value at a string's end", `{"text":"Example: ?password=hunter2","tokens":5}`, `{"text":"Example: ?password=` + Mask + `","tokens":5}`},
		{"value before an escaped newline", `{"text":"?password=hunter2\n","n":1}`, `{"text":"?password=` + Mask + `\n","n":1}`},
		{"an escaped quoted value", `{"text":"dsn: password=\"hunter2 x\" host=db"}`, `{"text":"dsn: password=` + Mask + ` host=db"}`},
		{"plain text", `host=db password=hunter2 user=x`, `host=db password=` + Mask + ` user=x`},
		{"single-quoted", `password='a b' port=5432`, `password=` + Mask + ` port=5432`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Text(tt.in)
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if strings.HasPrefix(tt.in, "{") && !json.Valid([]byte(got)) {
				t.Errorf("got %s: not JSON", got)
			}
			if strings.Contains(got, "hunter2") {
				t.Errorf("got %s: the secret shows", got)
			}
		})
	}
}
