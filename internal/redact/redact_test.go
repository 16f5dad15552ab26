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

// TestMasker: what goes through a masker holds none of the secrets it was
// given, in any encoding, added before or after it was made; every other
// byte is printed as written, credential-looking or not.
func TestMasker(t *testing.T) {
	set := NewSet(Secrets("s3://kb/p?endpoint=http://u-user:hunter2PASS@h:1")...)
	tests := []struct{ name, in, want string }{
		{"a given password, encoded", `{"snapshot": "s3://kb/p?endpoint=http%3A%2F%2Fu-user%3Ahunter2PASS%40h%3A1/20260101"}`,
			`{"snapshot": "s3://kb/p?endpoint=http%3A%2F%2F***%3A***%40h%3A1/20260101"}`},
		{"a given password, plain", "open http://u-user:hunter2PASS@h:1: refused", "open http://***:***@h:1: refused"},
		{"a secret added later", "Bearer tok-LATER-1234", "Bearer ***"},
		{"corpus text about keys", "OPENAI_API_KEY=<replace_with_your_openai_api_key> and ?token=abc", "OPENAI_API_KEY=<replace_with_your_openai_api_key> and ?token=abc"},
		{"a completion script", `opts=$(${COMP_WORDS[0]} ${COMP_WORDS[@]:1:$cword-1} ${cur} --generate-shell-completion 2>/dev/null); local token=x`,
			`opts=$(${COMP_WORDS[0]} ${COMP_WORDS[@]:1:$cword-1} ${cur} --generate-shell-completion 2>/dev/null); local token=x`},
		{"an address the tool was not given", "Get http://x:other-pw@h: refused", "Get http://x:other-pw@h: refused"},
	}
	set.Add(Secrets("token=tok-LATER-1234")...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if _, err := NewMasker(&b, set).Write([]byte(tt.in)); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got %s, want %s", b.String(), tt.want)
			}
		})
	}
}

// TestLongestFirst: a secret that holds another is masked whole, not
// around the shorter one.
func TestLongestFirst(t *testing.T) {
	var b bytes.Buffer
	NewMasker(&b, NewSet("abcd", "xxabcdxx")).Write([]byte("[xxabcdxx] [abcd]"))
	if got, want := b.String(), "[***] [***]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestEnvironmentNames: a variable is a secret by its value (an address, a
// connection string) or by its name; a folder's variable is none.
func TestEnvironmentNames(t *testing.T) {
	env := []string{"AWS_SECRET_ACCESS_KEY=wJalr/K7MDENG+bPxRfi", "PGPASSWORD=pg-PLANTED", "OLLAMA_AUTH=Bearer-PLANTED",
		"GITHUB_TOKEN=ghp_PLANTED", "PWD=/srv/project", "OLDPWD=/home/me", "SSH_AUTH_SOCK=/tmp/ssh-x/agent.1", "HOME=/home/me"}
	got := Secrets(Environment(env)...)
	for _, want := range []string{"wJalr/K7MDENG+bPxRfi", "pg-PLANTED", "Bearer-PLANTED", "ghp_PLANTED"} {
		if !slices.Contains(got, want) {
			t.Errorf("got secrets %q, want %s among them", got, want)
		}
	}
	for _, not := range []string{"/srv/project", "/home/me", "/tmp/ssh-x/agent.1"} {
		if slices.Contains(got, not) {
			t.Errorf("got %s among the secrets %q: a folder is no secret", not, got)
		}
	}
}

// TestLines: a config file's credentials, whatever its keys.
func TestLines(t *testing.T) {
	got := Lines("out: s3://kb/p?endpoint=http://u:cfg-PASS@h:1\npush:\n  to: \"https://tok-CFG@kb.example/ingest\"\n  tenant: x\n# password=cmt-PASS\n")
	for _, want := range []string{"cfg-PASS", "tok-CFG", "cmt-PASS"} {
		if !slices.Contains(got, want) {
			t.Errorf("got secrets %q, want %s among them", got, want)
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
