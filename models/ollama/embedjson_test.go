package ollama

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/models/server"
)

// stdEmbed decodes an /api/embed answer as encoding/json does: the
// reference the fast decoder must agree with.
func stdEmbed(b []byte) (server.EmbedResult, error) {
	var r struct {
		Embeddings      [][]float32 `json:"embeddings"`
		PromptEvalCount int         `json:"prompt_eval_count"`
	}
	err := json.Unmarshal(b, &r)
	return server.EmbedResult{Vectors: r.Embeddings, Tokens: r.PromptEvalCount}, err
}

func TestDecodeOllamaEmbed(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string
	}{
		{"plain", `{"model":"bge-m3","embeddings":[[0.1,-0.2,3e-5],[1,2,3]],"prompt_eval_count":12}`, ""},
		{"other fields around", `{"total_duration":123,"embeddings":[[0.5]],"x":{"a":[1,{"b":"c\"]}"}],"t":true,"f":false,"n":null},"load_duration":4}`, ""},
		{"spaces", " {\n \"embeddings\" : [ [ 1.5 , 2.5 ] ] ,\n\"prompt_eval_count\" : 3 }\n", ""},
		{"no vectors", `{"embeddings":[]}`, ""},
		{"null vectors", `{"embeddings":null}`, ""},
		{"empty object", `{}`, ""},
		{"exponents and signs", `{"embeddings":[[1E+2,-0.0,2.5e-10,-1e3]]}`, ""},
		{"truncated", `{"embeddings":[[0.1,0.2`, "unexpected end"},
		{"bad number", `{"embeddings":[[0.1,x]]}`, "want a number"},
		{"garbage after", `{"embeddings":[[1]]} {}`, "want the end"},
		{"not an object", `[[1,2]]`, "want '{'"},
		{"a string for a number", `{"embeddings":[["1"]]}`, "want a number"},
		{"html error page", `<html>502 Bad Gateway</html>`, "want '{'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeOllamaEmbed([]byte(tt.in), 2, 3)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, %v; want an error with %q", got, err, tt.wantErr)
				}
				return
			}
			want, werr := stdEmbed([]byte(tt.in))
			if err != nil || werr != nil {
				t.Fatalf("got %v (encoding/json: %v)", err, werr)
			}
			if len(got.Vectors) == 0 && len(want.Vectors) == 0 {
				got.Vectors, want.Vectors = nil, nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// FuzzDecodeOllamaEmbed: whatever encoding/json reads as an answer, the fast
// decoder reads the same.
func FuzzDecodeOllamaEmbed(f *testing.F) {
	f.Add(`{"embeddings":[[0.1,-0.2,3e-5],[1,2,3]],"prompt_eval_count":12}`)
	f.Add(`{"a":{"b":[1,"]"]},"embeddings":[[1e300]]}`)
	f.Add(`{"embeddings":[[0.30000001192092896]]}`)
	f.Fuzz(func(t *testing.T, in string) {
		want, werr := stdEmbed([]byte(in))
		got, err := decodeOllamaEmbed([]byte(in), 0, 0)
		if werr != nil {
			return // the fast decoder may read a little more than JSON (leading zeros); never less
		}
		if err != nil {
			t.Fatalf("encoding/json reads %q, the fast decoder fails: %v", in, err)
		}
		if len(got.Vectors) == 0 && len(want.Vectors) == 0 {
			got.Vectors, want.Vectors = nil, nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %v, encoding/json %v", in, got, want)
		}
	})
}

// embedAnswer is an /api/embed answer of n vectors of dims, as Ollama
// writes it.
func embedAnswer(n, dims int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	vecs := make([][]float32, n)
	for i := range vecs {
		vecs[i] = make([]float32, dims)
		for j := range vecs[i] {
			vecs[i][j] = r.Float32()*2 - 1
		}
	}
	b, _ := json.Marshal(map[string]any{"model": "bge-m3", "embeddings": vecs, "total_duration": 123456, "prompt_eval_count": 80})
	return b
}

// BenchmarkDecodeEmbed: a batch of 10 vectors of 1,024 dimensions, the fast
// decoder against encoding/json (ns/op and allocations per answer).
//
//	go test ./models -run '^$' -bench DecodeEmbed -benchmem
func BenchmarkDecodeEmbed(b *testing.B) {
	answer := embedAnswer(10, 1024)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(answer)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeOllamaEmbed(answer, 10, 1024); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(answer)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := stdEmbed(answer); err != nil {
				b.Fatal(err)
			}
		}
	})
}
