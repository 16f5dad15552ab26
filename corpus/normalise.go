package corpus

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

var bom = []byte("\xef\xbb\xbf")

// checkBytes rejects content that is not UTF-8 text: UTF-16 (its byte order
// mark), NUL bytes (binary files) and invalid UTF-8, naming the line of the
// first bad byte.
func checkBytes(b []byte) (line int, code, msg string) {
	if bytes.HasPrefix(b, []byte{0xff, 0xfe}) || bytes.HasPrefix(b, []byte{0xfe, 0xff}) {
		return 1, "utf16", "UTF-16 text (byte order mark); convert it to UTF-8"
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return lineAt(b, i), "binary", "binary content (NUL byte); not a text document"
	}
	if utf8.Valid(b) {
		return 0, "", ""
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return lineAt(b, i), "invalid-utf8", "invalid UTF-8 (first bad byte at column " + strconv.Itoa(i-lineStart(b, i)+1) + ")"
		}
		i += n
	}
	return 0, "", ""
}

// Normalise returns b as the text that is hashed and chunked: the UTF-8 BOM
// dropped, CRLF (and lone CR) turned into LF, and Unicode NFC, so the same
// words typed on two systems give the same hashes.
func Normalise(b []byte) string {
	b = bytes.TrimPrefix(b, bom)
	if bytes.IndexByte(b, '\r') >= 0 {
		b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		b = bytes.ReplaceAll(b, []byte("\r"), []byte("\n"))
	}
	return norm.NFC.String(string(b))
}

func lineAt(b []byte, i int) int { return bytes.Count(b[:i], []byte("\n")) + 1 }

func lineStart(b []byte, i int) int { return bytes.LastIndexByte(b[:i], '\n') + 1 }
