// Package groups decides where chunks.parquet's row groups end, and which
// row groups of a previous file a writer copies instead of encoding them
// again.
//
// A row group ends at a document whose path picks it (one in Every, by the
// path's hash) once the group holds MinRows, or at MaxRows whatever the
// document. The ends depend on the paths and the rows, not on a count from
// the start of the file: an edit to one document moves no end but its own
// group's, so the row groups around it are those the previous file holds,
// row for row, and a writer given them whole (Pending) copies them.
package groups

import "hash/fnv"

// Cut is where one file's row groups end. The zero Cut ends them at Max
// rows only (Min 0), as a writer that copies nothing may.
type Cut struct {
	Min, Max, Every int // rows a group holds before a document may end it, at most, and one document in Every ends one
	rows            int
	last            string
}

// Before reports whether the open row group ends before a row of the
// document at path (by content: Full ends it at once).
func (c *Cut) Before(path string) bool {
	return c.Min > 0 && c.rows >= c.Min && path != c.last && picks(path, c.Every)
}

// Full reports whether the open row group holds Max rows: it ends now.
func (c *Cut) Full() bool { return c.rows >= c.Max }

// Add counts a row of the document at path into the open group.
func (c *Cut) Add(path string) { c.rows, c.last = c.rows+1, path }

// Set has the open group hold rows rows, the last of the document at last.
func (c *Cut) Set(rows int, last string) { c.rows, c.last = rows, last }

// End starts a new group.
func (c *Cut) End() { c.rows = 0 }

// Rows is how many rows the open group holds.
func (c *Cut) Rows() int { return c.rows }

// picks reports whether a document at path ends a row group before it.
func picks(path string, every int) bool {
	h := fnv.New32a()
	h.Write([]byte(path))
	return every <= 1 || h.Sum32()%uint32(every) == 0
}

// Source is a previous file whose row groups a writer may copy.
type Source interface {
	// GroupAt is the row group that starts at row, and its rows; false
	// when no group starts there.
	GroupAt(row int64) (g int, rows int64, ok bool)
}

// Pending holds rows given as a source's own (a document taken whole from
// the previous snapshot) while they may make up one of its row groups
// whole: from a row group's first row, with the writer's own group empty.
// Once they do, the writer copies the group if it would end its own group
// where the source did, before the next row it is given (or at the end).
type Pending[R any] struct {
	src   Source
	g     int
	first int64 // the source's row of rows[0]
	want  int64 // the group's rows
	rows  []R
}

// Start begins holding rows, the source's from row first, when a row
// group of src starts there; false (nothing held) when none does.
func (p *Pending[R]) Start(src Source, first int64, rows []R) bool {
	g, n, ok := src.GroupAt(first)
	if !ok || int64(len(rows)) > n {
		return false
	}
	p.src, p.g, p.first, p.want, p.rows = src, g, first, n, append(p.rows[:0], rows...)
	return true
}

// Add holds more rows when they are the source's next and still fit its
// group; false (nothing added) when they are not.
func (p *Pending[R]) Add(src Source, first int64, rows []R) bool {
	if p.src == nil || src != p.src || first != p.first+int64(len(p.rows)) || int64(len(p.rows)+len(rows)) > p.want {
		return false
	}
	p.rows = append(p.rows, rows...)
	return true
}

// Whole reports whether the rows held make up their group whole, and
// which.
func (p *Pending[R]) Whole() (Source, int, bool) {
	return p.src, p.g, p.src != nil && int64(len(p.rows)) == p.want
}

// Take returns the rows held and holds none.
func (p *Pending[R]) Take() []R {
	rows := p.rows
	p.src, p.rows = nil, p.rows[:0:0]
	return rows
}

// From is the source of the rows held, and its row of the first.
func (p *Pending[R]) From() (Source, int64) { return p.src, p.first }

// Rows are the rows held.
func (p *Pending[R]) Rows() []R { return p.rows }

// Held reports whether rows are held.
func (p *Pending[R]) Held() bool { return p.src != nil }
