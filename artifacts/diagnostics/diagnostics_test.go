package diagnostics

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

func diag(path string, line int, code string, sev schema.Severity) schema.Diagnostic {
	return schema.Diagnostic{Path: path, Line: line, Code: code, Severity: sev, Message: "m " + path}
}

// TestDigest: the first MaxSampled of each code are sampled in the order
// added, and every diagnostic is counted by code and severity.
func TestDigest(t *testing.T) {
	var g Digest
	for i := range MaxSampled + 3 {
		g.Add(diag(fmt.Sprintf("a%02d.md", i), 1, "oversize", schema.SeverityInfo))
		if i < 2 {
			d := diag(fmt.Sprintf("b%02d.md", i), 0, "missing-title", schema.SeverityWarning)
			d.Ignored = i == 0
			g.Add(d)
		}
	}
	g.Add(diag("c.md", 3, "oversize", schema.SeverityWarning)) // another severity of a sampled-out code
	s := g.Sample()
	if len(s) != MaxSampled+2 {
		t.Fatalf("got %d sampled, want %d", len(s), MaxSampled+2)
	}
	if s[0].Path != "a00.md" || s[1].Path != "b00.md" || s[len(s)-1].Path != "a19.md" {
		t.Errorf("got %s, %s … %s, want the order added", s[0].Path, s[1].Path, s[len(s)-1].Path)
	}
	want := []Count{
		{Code: "missing-title", Severity: schema.SeverityWarning, Count: 2, Ignored: 1},
		{Code: "oversize", Severity: schema.SeverityInfo, Count: MaxSampled + 3},
		{Code: "oversize", Severity: schema.SeverityWarning, Count: 1},
	}
	if got := g.Counts(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if g.Len() != MaxSampled+6 {
		t.Errorf("got %d, want %d", g.Len(), MaxSampled+6)
	}
	var none Digest
	if none.Sample() == nil || none.Counts() == nil {
		t.Errorf("an empty digest gives nil, want empty lists (the report writes [])")
	}
}

// TestWriterReader: what a Writer writes a Reader reads back, each
// document's in line order, and Copy copies, skips and marks.
func TestWriterReader(t *testing.T) {
	path := filepath.Join(t.TempDir(), File)
	w, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(diag("lost+found", 0, "unreadable", schema.SeverityError))
	w.WriteDocument([]schema.Diagnostic{diag("a.md", 9, "oversize", schema.SeverityInfo), diag("a.md", 0, "missing-title", schema.SeverityWarning),
		diag("a.md", 2, "table-in-prose", schema.SeverityWarning), diag("a.md", 2, "oversize", schema.SeverityInfo)})
	w.WriteDocument([]schema.Diagnostic{diag("b.md", 1, "oversize", schema.SeverityInfo)})
	rows, err := w.Close()
	if err != nil || rows != 6 {
		t.Fatalf("got %d rows, %v; want 6", rows, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	var got []string
	for {
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s:%d:%s", d.Path, d.Line, d.Code))
	}
	want := "lost+found:0:unreadable a.md:0:missing-title a.md:2:table-in-prose a.md:2:oversize a.md:9:oversize b.md:1:oversize"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}

	tests := []struct {
		name      string
		skip, n   int
		want, err string
	}{
		{"the rest, marked", 1, 5, "a.md:0:missing-title:true a.md:2:table-in-prose:true a.md:2:oversize:true a.md:9:oversize:true b.md:1:oversize:true", ""},
		{"some", 4, 1, "a.md:9:oversize:true", ""},
		{"more than there are", 2, 5, "", "fewer than its account says"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.Seek(0, io.SeekStart)
			r := NewReader(f)
			out, err := Create(filepath.Join(t.TempDir(), File))
			if err != nil {
				t.Fatal(err)
			}
			mark := func(d schema.Diagnostic) schema.Diagnostic { d.Ignored = true; return d }
			err = Copy(nil, r, tt.skip, nil)
			if err == nil {
				err = Copy(out, r, tt.n, mark)
			}
			out.Close()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("got %v, want an error saying %q", err, tt.err)
				}
				return
			}
			var got []string
			for _, d := range out.Digest().Sample() {
				got = append(got, fmt.Sprintf("%s:%d:%s:%v", d.Path, d.Line, d.Code, d.Ignored))
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("got %s, want %s", strings.Join(got, " "), tt.want)
			}
		})
	}
}

// TestReaderRefuses: a line that is not a diagnostic, or longer than any
// ingest writes, is an error naming its line.
func TestReaderRefuses(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not JSON", `{"path":"a.md"}` + "\nnot json\n", File + ":2:"},
		{"too long", strings.Repeat("x", maxLine+1), File + ":1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.in))
			var err error
			for err == nil {
				_, err = r.Next()
			}
			if errors.Is(err, io.EOF) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error at %q", err, tt.want)
			}
		})
	}
}
