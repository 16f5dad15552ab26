package reuse

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
)

// Journal checkpoints paid-for results (headers and vectors, under their
// reuse keys) as they arrive, in a file beside the output, so a run killed at
// any point and started again repeats no finished call. It is an append-only
// JSON-lines file; a torn last line from a crash is dropped on open. Only an
// index (key → position) is held in memory.
type Journal struct {
	mu    sync.Mutex
	f     *os.File
	path  string
	end   int64
	index map[string]entryPos
	// appended counts this process's new lines: headers, vectors
	appended [2]int
	mirror   *mirrored // nil: the file alone
}

type entryPos struct{ off, n int64 }

type journalLine struct {
	Key    string      `json:"k"`
	Header *Enrichment `json:"h,omitempty"`
	Vector string      `json:"v,omitempty"` // little-endian float32s, base64
}

// OpenJournal opens (or creates) the journal at path and indexes it.
func OpenJournal(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j, err := indexJournal(f, path)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(j.end); err != nil { // the torn last line of a crash
		f.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	return j, nil
}

// ReadJournal opens the journal at path to read only (a plan looks, and
// changes nothing); nil when there is none.
func ReadJournal(path string) (*Journal, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return indexJournal(f, path)
}

// indexJournal reads f's whole lines into an index of key → position.
func indexJournal(f *os.File, path string) (*Journal, error) {
	j := &Journal{f: f, path: path, index: map[string]entryPos{}}
	r := bufio.NewReader(f)
	var off int64
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			break // a line without its newline is torn: left out
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("journal %s: %w", path, err)
		}
		var jl journalLine
		if json.Unmarshal(line, &jl) == nil && jl.Key != "" {
			j.index[jl.Key] = entryPos{off, int64(len(line))}
		}
		off += int64(len(line))
	}
	j.end = off
	return j, nil
}

func (j *Journal) read(key string) (journalLine, bool) {
	j.mu.Lock()
	pos, ok := j.index[key]
	j.mu.Unlock()
	if !ok {
		return journalLine{}, false
	}
	buf := make([]byte, pos.n)
	if _, err := j.f.ReadAt(buf, pos.off); err != nil {
		return journalLine{}, false
	}
	var jl journalLine
	if json.Unmarshal(buf, &jl) != nil {
		return journalLine{}, false
	}
	return jl, true
}

// Header returns the enrichment journaled under a header key.
func (j *Journal) Header(key string) (Enrichment, bool) {
	jl, ok := j.read("h:" + key)
	if !ok || jl.Header == nil {
		return Enrichment{}, false
	}
	return *jl.Header, true
}

// Vector returns the vector journaled under a vector key, if it has dims
// dimensions.
func (j *Journal) Vector(key string, dims int) ([]float32, bool) {
	jl, ok := j.read("v:" + key)
	if !ok {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(jl.Vector)
	if err != nil || len(b) != 4*dims {
		return nil, false
	}
	v := make([]float32, dims)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, true
}

// PutHeader journals an enrichment.
func (j *Journal) PutHeader(key string, e Enrichment) error {
	return j.append(journalLine{Key: "h:" + key, Header: &e})
}

// PutVector journals a vector.
func (j *Journal) PutVector(key string, v []float32) error {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return j.append(journalLine{Key: "v:" + key, Vector: base64.StdEncoding.EncodeToString(b)})
}

// append writes one whole line at the end. Written straight to the file (no
// buffer), a line survives the process being killed right after.
func (j *Journal) append(jl journalLine) error {
	line, err := json.Marshal(jl)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	j.mu.Lock()
	if _, err := j.f.WriteAt(line, j.end); err != nil {
		j.mu.Unlock()
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	j.index[jl.Key] = entryPos{j.end, int64(len(line))}
	j.end += int64(len(line))
	if jl.Header != nil {
		j.appended[0]++
	} else {
		j.appended[1]++
	}
	end := j.end
	j.mu.Unlock()
	return j.mirror.sync(j, end) // outside the lock: appends go on while a piece is stored
}

// Appended returns the headers and vectors journaled since it was opened:
// paid-for results a stopped run leaves for the next one.
func (j *Journal) Appended() (headers, vectors int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.appended[0], j.appended[1]
}

// Close closes the journal file, which stays for the next run.
func (j *Journal) Close() error { return j.f.Close() }

// Remove deletes the journal once its results are published, and its
// mirror.
func (j *Journal) Remove() error {
	j.f.Close()
	err := os.Remove(j.path)
	if j.mirror != nil {
		ctx, cancel := context.WithTimeout(context.Background(), mirrorTimeout)
		defer cancel()
		err = errors.Join(err, j.mirror.m.RemoveJournal(ctx))
	}
	return err
}
