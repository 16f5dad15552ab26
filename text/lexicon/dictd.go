package lexicon

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
)

// maxDictBytes bounds a dictd database's data once decompressed: FreeDict's
// largest pairs are a few megabytes, so a file that inflates past this is
// not a dictionary (or is a gzip bomb) and is refused before it fills memory.
const maxDictBytes = 64 << 20

// Entry is one headword of a dictd database and its definition, as the
// database holds it (the headword line first, then the senses).
type Entry struct {
	Headword, Definition string
}

// ReadDictd reads a dictd database: its index (a line a headword: the
// headword, the definition's offset and its length in the data, the numbers
// in dictd's base 64, tab-separated) and its data (the .dict file, or the
// .dict.dz, which is gzip and is read as such). The entries come in the
// index's order; the database's own entries (00-database-info and the
// like) are left out. A bad line is an error naming it.
func ReadDictd(index, data io.Reader) ([]Entry, error) {
	raw, err := readData(data)
	if err != nil {
		return nil, err
	}
	var out []Entry
	sc := bufio.NewScanner(index)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			continue
		}
		head, off, size, err := indexLine(line)
		if err != nil {
			return nil, fmt.Errorf("index line %d: %w", n, err)
		}
		if off > len(raw) || size > len(raw)-off {
			return nil, fmt.Errorf("index line %d: %q at %d+%d is past the data's %d bytes", n, head, off, size, len(raw))
		}
		if strings.HasPrefix(head, "00database") || strings.HasPrefix(head, "00-database") {
			continue
		}
		out = append(out, Entry{Headword: head, Definition: string(raw[off : off+size])})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return out, nil
}

// readData reads a database's data, gunzipping it when it starts with
// gzip's magic number, at most maxDictBytes of it.
func readData(r io.Reader) ([]byte, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("data: %w", err)
		}
		defer zr.Close()
		r = zr
	} else {
		r = br
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxDictBytes+1))
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	if len(raw) > maxDictBytes {
		return nil, fmt.Errorf("data: more than %d MiB: not a dictionary", maxDictBytes>>20)
	}
	return raw, nil
}

// indexLine splits one index line into its headword, offset and length.
func indexLine(line string) (head string, off, size int, err error) {
	f := strings.Split(line, "\t")
	if len(f) < 3 || f[0] == "" {
		return "", 0, 0, fmt.Errorf("%q: want headword, offset and length, tab-separated", line)
	}
	if off, err = base64Number(f[1]); err == nil {
		size, err = base64Number(f[2])
	}
	return f[0], off, size, err
}

// dictdDigits are the digits of the numbers in a dictd index, 0 to 63.
const dictdDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// base64Number reads one of an index's numbers: base 64, most significant
// digit first, in dictdDigits.
func base64Number(s string) (int, error) {
	if s == "" || len(s) > 8 { // 8 digits are 2^48: no dictionary is larger
		return 0, fmt.Errorf("%q: want a number in dictd's base 64", s)
	}
	n := 0
	for _, c := range []byte(s) {
		d := strings.IndexByte(dictdDigits, c)
		if d < 0 {
			return 0, fmt.Errorf("%q: want a number in dictd's base 64", s)
		}
		n = n*64 + d
	}
	return n, nil
}
