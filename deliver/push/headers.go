package push

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// reserved are the headers a push sets itself; a header file may not.
var reserved = map[string]bool{"Content-Type": true, "Content-Encoding": true, "Content-Length": true,
	"Idempotency-Key": true, "Traceparent": true, ContractHeader: true, "Host": true, "User-Agent": true}

// ReadHeaderFile reads a header file: "Name: value" lines (blank lines and
// "#" comments skipped), sent on every request and treated as secrets. Its
// errors name the line, never a value.
func ReadHeaderFile(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("header file: %w", err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		switch {
		case !ok || !httpguts.ValidHeaderFieldName(name):
			return nil, fmt.Errorf("%s:%d: want Name: value", path, n)
		case !httpguts.ValidHeaderFieldValue(value) || value == "":
			return nil, fmt.Errorf("%s:%d: header %s has an empty or invalid value", path, n, name)
		case reserved[http.CanonicalHeaderKey(name)]:
			return nil, fmt.Errorf("%s:%d: header %s is the push's own", path, n, name)
		}
		out[http.CanonicalHeaderKey(name)] = value
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("header file %s: %w", path, err)
	}
	return out, nil
}
