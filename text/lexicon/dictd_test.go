package lexicon

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// dictdNumber writes n in dictd's base 64, as an index holds it.
func dictdNumber(n int) string {
	if n == 0 {
		return "A"
	}
	var b []byte
	for ; n > 0; n /= 64 {
		b = append([]byte{dictdDigits[n%64]}, b...)
	}
	return string(b)
}

// tinyDictd builds a dictd database of the given entries (headword and
// definition, the headword line included), in the order given: its index
// and its data, gzipped when zip. No GPL data: the entries are the test's.
func tinyDictd(t *testing.T, zip bool, entries ...[2]string) (index, data []byte) {
	t.Helper()
	var raw, idx bytes.Buffer
	for _, e := range entries {
		idx.WriteString(e[0] + "\t" + dictdNumber(raw.Len()) + "\t" + dictdNumber(len(e[1])) + "\n")
		raw.WriteString(e[1])
	}
	if !zip {
		return idx.Bytes(), raw.Bytes()
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(raw.Bytes())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return idx.Bytes(), z.Bytes()
}

var tinyEntries = [][2]string{
	{"00databaseinfo", "a tiny dictionary for tests\n"},
	{"file", "file /fail/ <s>\n1. arquivo, fichário\n2. fila\n"},
	{"log", "log /lɒɡ/\nregistro (de eventos), diário\n"},
	{"turn off", "turn off\ndesligar\n"},
	{"because", "because\nem troca de\n"},
}

func TestBase64Number(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 4095, 4096, 1 << 30} {
		if got, err := base64Number(dictdNumber(n)); err != nil || got != n {
			t.Errorf("%d: got %d, %v; want %d", n, got, err, n)
		}
	}
	for _, s := range []string{"", "A-", "AAAAAAAAA"} {
		if _, err := base64Number(s); err == nil {
			t.Errorf("%q: got no error, want one", s)
		}
	}
}

func TestReadDictd(t *testing.T) {
	plainIdx, plain := tinyDictd(t, false, tinyEntries...)
	zipIdx, zipped := tinyDictd(t, true, tinyEntries...)
	heads := []string{"file", "log", "turn off", "because"} // the database's own entry left out
	tests := []struct {
		name        string
		index, data []byte
		wantErr     string
	}{
		{"plain .dict", plainIdx, plain, ""},
		{"gzip .dict.dz", zipIdx, zipped, ""},
		{"an empty line is skipped", append([]byte("\n"), plainIdx...), plain, ""},
		{"a line without its numbers", []byte("file\tA\n"), plain, `index line 1: "file\tA": want headword, offset and length`},
		{"a number not in base 64", []byte("file\tA\t*\n"), plain, `index line 1: "*": want a number`},
		{"an entry past the data", []byte("file\tA\t" + dictdNumber(len(plain)+1) + "\n"), plain, `index line 1: "file" at 0+`},
		{"a broken gzip stream", plainIdx, []byte{0x1f, 0x8b, 0, 0}, "data:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadDictd(bytes.NewReader(tt.index), bytes.NewReader(tt.data))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var gotHeads []string
			for _, e := range got {
				gotHeads = append(gotHeads, e.Headword)
				if !strings.HasPrefix(e.Definition, e.Headword) {
					t.Errorf("%s: got definition %q, want it to start with its headword", e.Headword, e.Definition)
				}
			}
			if strings.Join(gotHeads, "|") != strings.Join(heads, "|") {
				t.Errorf("got headwords %q, want %q", gotHeads, heads)
			}
		})
	}
}

func TestFromDictd(t *testing.T) {
	idx, data := tinyDictd(t, false, tinyEntries...)
	entries, err := ReadDictd(bytes.NewReader(idx), bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	l := FromDictd(entries, schema.LangEN, schema.LangPT)
	tests := []struct {
		name     string
		from, to schema.Lang
		term     string
		want     []Translation
	}{
		{"senses in order, each translation a hundredth below the one before", schema.LangEN, schema.LangPT, "file",
			[]Translation{{"arquiv", "arquivo", 1}, {"fichari", "fichario", 0.99}, {"fil", "fila", 0.48}}},
		{"a parenthesised gloss is dropped", schema.LangEN, schema.LangPT, "log",
			[]Translation{{"registr", "registro", 1}, {"diari", "diario", 0.99}}},
		{"a headword of several words is left out", schema.LangEN, schema.LangPT, "turn", nil},
		{`a translation of several words is left out ("em troca de" is not "troca")`, schema.LangEN, schema.LangPT, "becaus", nil},
		{"the other way, at half weight", schema.LangPT, schema.LangEN, "arquiv", []Translation{{"file", "file", 0.5}}},
		{"a term the dictionary lacks", schema.LangEN, schema.LangPT, "sea", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := l.Translate(tt.from, tt.to, tt.term)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i].Term != tt.want[i].Term || got[i].Word != tt.want[i].Word || math.Abs(got[i].Weight-tt.want[i].Weight) > 1e-9 {
					t.Errorf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}

// TestOpenFreeDict reads tiny databases under FreeDict's names; a missing
// one is named with the Debian package that installs it, and what the
// other gives is still returned.
func TestOpenFreeDict(t *testing.T) {
	write := func(dir, name string) {
		idx, data := tinyDictd(t, true, tinyEntries...)
		os.WriteFile(filepath.Join(dir, name+".index"), idx, 0o644)
		os.WriteFile(filepath.Join(dir, name+".dict.dz"), data, 0o644)
	}
	tests := []struct {
		name        string
		present     []string
		wantMissing []string
		wantTerms   bool
	}{
		{"both", []string{"freedict-eng-por", "freedict-por-eng"}, nil, true},
		{"one", []string{"freedict-eng-por"}, []string{"dict-freedict-por-eng"}, true},
		{"none", nil, []string{"dict-freedict-eng-por", "dict-freedict-por-eng"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, n := range tt.present {
				write(dir, n)
			}
			l, err := OpenFreeDict(dir)
			var missing *MissingError
			switch {
			case tt.wantMissing == nil && err != nil:
				t.Fatalf("got error %v, want none", err)
			case tt.wantMissing != nil && (!errors.As(err, &missing) || strings.Join(missing.Packages, " ") != strings.Join(tt.wantMissing, " ")):
				t.Fatalf("got error %v, want one naming %v", err, tt.wantMissing)
			case tt.wantMissing != nil && !strings.Contains(err.Error(), "apt-get install "+strings.Join(tt.wantMissing, " ")):
				t.Errorf("got %q, want it to say what to install", err)
			}
			if got := l.Len() > 0; got != tt.wantTerms {
				t.Errorf("got %d terms, want some: %v", l.Len(), tt.wantTerms)
			}
		})
	}
	t.Run("a broken database is an error naming it", func(t *testing.T) {
		dir := t.TempDir()
		write(dir, "freedict-eng-por")
		os.WriteFile(filepath.Join(dir, "freedict-por-eng.index"), []byte("x\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "freedict-por-eng.dict"), nil, 0o644)
		if _, err := OpenFreeDict(dir); err == nil || errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "freedict-por-eng") {
			t.Errorf("got %v, want an error naming freedict-por-eng", err)
		}
	})
}
