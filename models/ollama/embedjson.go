package ollama

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/ocean-safety/ingest/models/server"
)

// An embedding answer is mostly numbers: 10 inputs of 1,024 dimensions are
// about 200 KB of JSON and 10,240 floats. encoding/json decodes them through
// reflection at several times the cost of parsing the numbers, which made
// the client, not the server, the bottleneck at 8 calls in flight. This is
// a decoder for exactly the answers' shape: it walks the bytes once, parses
// each number with strconv in place, and puts all vectors in one backing
// slice. Anything else in the answer is skipped as JSON; anything that is
// not JSON is an error.

// jsonScan walks a JSON document.
type jsonScan struct {
	b []byte
	i int
}

var errJSONEnd = errors.New("unexpected end of JSON")

func (s *jsonScan) fail(want string) error {
	if s.i >= len(s.b) {
		return errJSONEnd
	}
	return fmt.Errorf("invalid JSON at byte %d: want %s, got %q", s.i, want, s.b[s.i])
}

func (s *jsonScan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek skips spaces and returns the next byte (0 at the end).
func (s *jsonScan) peek() byte {
	s.ws()
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

func (s *jsonScan) expect(c byte) error {
	if s.peek() != c {
		return s.fail(strconv.QuoteRune(rune(c)))
	}
	s.i++
	return nil
}

// str reads a string and returns its raw bytes, escapes left as they are
// (keys are compared raw: the keys this decoder wants have no escapes).
func (s *jsonScan) str() ([]byte, error) {
	if err := s.expect('"'); err != nil {
		return nil, err
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '\\':
			s.i += 2
		case '"':
			s.i++
			return s.b[start : s.i-1], nil
		default:
			s.i++
		}
	}
	return nil, errJSONEnd
}

// number returns the bytes of a number.
func (s *jsonScan) number() ([]byte, error) {
	s.ws()
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			s.i++
			continue
		}
		break
	}
	if s.i == start {
		return nil, s.fail("a number")
	}
	return s.b[start:s.i], nil
}

// skip passes over one value of any kind.
func (s *jsonScan) skip() error {
	switch c := s.peek(); {
	case c == '"':
		_, err := s.str()
		return err
	case c == '{' || c == '[':
		close := byte('}')
		if c == '[' {
			close = ']'
		}
		s.i++
		if s.peek() == close {
			s.i++
			return nil
		}
		for {
			if c == '{' {
				if _, err := s.str(); err != nil {
					return err
				}
				if err := s.expect(':'); err != nil {
					return err
				}
			}
			if err := s.skip(); err != nil {
				return err
			}
			switch s.peek() {
			case ',':
				s.i++
			case close:
				s.i++
				return nil
			default:
				return s.fail("',' or '" + string(close) + "'")
			}
		}
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
				s.i += len(lit)
				return nil
			}
		}
		return s.fail("a value")
	default:
		_, err := s.number()
		return err
	}
}

// object calls field for each key of an object; field reads or skips the
// value.
func (s *jsonScan) object(field func(key []byte) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.i++
		return nil
	}
	for {
		key, err := s.str()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return s.fail("',' or '}'")
		}
	}
}

// array calls elem for each element of an array.
func (s *jsonScan) array(elem func() error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	if s.peek() == ']' {
		s.i++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		default:
			return s.fail("',' or ']'")
		}
	}
}

// floats appends an array of numbers to dst.
func (s *jsonScan) floats(dst []float32) ([]float32, error) {
	err := s.array(func() error {
		b, err := s.number()
		if err != nil {
			return err
		}
		// The bytes are not changed while ParseFloat reads them.
		f, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 32)
		if err != nil {
			return fmt.Errorf("invalid JSON number %q", b)
		}
		dst = append(dst, float32(f))
		return nil
	})
	return dst, err
}

func (s *jsonScan) int() (int, error) {
	b, err := s.number()
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(string(b))
	if err != nil {
		return 0, fmt.Errorf("invalid JSON integer %q", b)
	}
	return n, nil
}

// matrix reads an array of number arrays into vectors sharing one backing
// slice, sized for n vectors of dims when known.
func (s *jsonScan) matrix(n, dims int) ([][]float32, error) {
	flat := make([]float32, 0, n*dims)
	var ends []int // -1: null
	err := s.array(func() error {
		if s.peek() == 'n' {
			ends = append(ends, -1)
			return s.skip()
		}
		var err error
		flat, err = s.floats(flat)
		ends = append(ends, len(flat))
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(ends))
	start := 0
	for i, end := range ends {
		if end < 0 {
			continue
		}
		out[i] = flat[start:end:end]
		start = end
	}
	return out, nil
}

// keyIs matches an object key as encoding/json does: escapes read, case
// folded.
func keyIs(raw []byte, name string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return bytes.EqualFold(raw, []byte(name))
	}
	var k string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &k) != nil {
		return false
	}
	return strings.EqualFold(k, name)
}

// decodeOllamaEmbed reads /api/embed's answer:
// {"embeddings": [[…], …], "prompt_eval_count": n, …}. n and dims size the
// vectors' backing slice (0: unknown).
func decodeOllamaEmbed(b []byte, n, dims int) (server.EmbedResult, error) {
	var res server.EmbedResult
	s := &jsonScan{b: b}
	err := s.object(func(key []byte) error {
		var err error
		switch {
		case s.peek() == 'n':
			err = s.skip() // null: the field keeps its value
		case keyIs(key, "embeddings"):
			res.Vectors, err = s.matrix(n, dims)
		case keyIs(key, "prompt_eval_count"):
			res.Tokens, err = s.int()
		default:
			err = s.skip()
		}
		return err
	})
	if err == nil && s.peek() != 0 {
		err = s.fail("the end")
	}
	if err != nil {
		return server.EmbedResult{}, fmt.Errorf("embed answer: %w", err)
	}
	return res, nil
}
