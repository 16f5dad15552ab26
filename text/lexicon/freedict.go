package lexicon

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// FreeDictDir is where Debian's dict-freedict-* packages install their
// databases (and where dictd looks for them).
const FreeDictDir = "/usr/share/dictd"

// freeDicts are FreeDict's databases between English and Portuguese, each
// with the Debian package that installs it. They are GPL and are read where
// the packages put them, never copied into a snapshot or this repository.
var freeDicts = []struct {
	name, pkg string
	from, to  schema.Lang
}{
	{"freedict-eng-por", "dict-freedict-eng-por", schema.LangEN, schema.LangPT},
	{"freedict-por-eng", "dict-freedict-por-eng", schema.LangPT, schema.LangEN},
}

// MissingError says which FreeDict databases are not installed and how to
// install them. OpenFreeDict returns it beside what the installed ones give.
type MissingError struct {
	Dir      string
	Packages []string // the Debian packages of the missing databases
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("FreeDict's English–Portuguese dictionaries are not in %s: install them (apt-get install %s) for questions "+
		"to cross languages through a dictionary too; until then they cross through the corpus's own translated pages only",
		e.Dir, strings.Join(e.Packages, " "))
}

// OpenFreeDict reads FreeDict's English–Portuguese databases from dir
// (FreeDictDir where Debian installs them), both directions merged. A
// database that is not there is named in a *MissingError, returned with
// what the others give; one that cannot be read is an error naming it.
func OpenFreeDict(dir string) (*Lexicon, error) {
	l := New()
	missing := &MissingError{Dir: dir}
	for _, d := range freeDicts {
		err := l.openDictd(filepath.Join(dir, d.name), d.from, d.to)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing.Packages = append(missing.Packages, d.pkg)
		case err != nil:
			return nil, err
		}
	}
	if len(missing.Packages) > 0 {
		return l, missing
	}
	return l, nil
}

// openDictd adds the database at base (base.index, and base.dict.dz or
// base.dict) as a from→to dictionary.
func (l *Lexicon) openDictd(base string, from, to schema.Lang) error {
	index, err := os.Open(base + ".index")
	if err != nil {
		return err
	}
	defer index.Close()
	data, err := os.Open(base + ".dict.dz")
	if errors.Is(err, fs.ErrNotExist) {
		data, err = os.Open(base + ".dict")
	}
	if err != nil {
		return err
	}
	defer data.Close()
	entries, err := ReadDictd(index, data)
	if err != nil {
		return fmt.Errorf("dictionary %s: %w", base, err)
	}
	l.addDictd(entries, from, to)
	return nil
}

var senseRe = regexp.MustCompile(`^(\d+)\.\s*(.*)$`)

// FromDictd reads the translations of a from→to dictionary in FreeDict's
// layout: after the headword line, a line of comma-separated translations,
// or numbered senses ("1. a, b", "2. c"). A headword of one term and each of
// its translations of one term are recorded, weighted 1/sense (a dictionary
// lists a word's common sense first) and a hundredth less for each
// translation listed before it, so its order is kept; and the other way (a
// pt word an en headword translates to translates back to it) at half that:
// the pt word's own entry, if any, knows its senses better. Phrases of
// several words ("turn off") are left out: a search matching one of their
// words matches something else.
func FromDictd(entries []Entry, from, to schema.Lang) *Lexicon {
	l := New()
	l.addDictd(entries, from, to)
	return l
}

func (l *Lexicon) addDictd(entries []Entry, from, to schema.Lang) {
	src, dst := lexical.NewStemmer(from), lexical.NewStemmer(to)
	for _, e := range entries {
		head, headWord, ok := oneTerm(src, e.Headword)
		if !ok {
			continue
		}
		lines := strings.Split(e.Definition, "\n")
		sense, pos := 1, 0
		for _, line := range lines[1:] {
			line = strings.TrimSpace(line)
			if m := senseRe.FindStringSubmatch(line); m != nil {
				sense, _ = strconv.Atoi(m[1])
				line = m[2]
			}
			for _, phrase := range strings.FieldsFunc(dropParens(line), func(r rune) bool { return r == ',' || r == ';' }) {
				term, word, ok := oneTerm(dst, phrase)
				if !ok || sense < 1 {
					continue
				}
				w := max(0.01, 1/float64(sense)-0.01*float64(pos))
				pos++
				l.Add(from, to, head, Translation{Term: term, Word: word, Weight: w})
				l.Add(to, from, term, Translation{Term: head, Word: headWord, Weight: w / 2})
			}
		}
	}
}

// oneTerm returns the stem and folded word of a phrase of one word, not a
// stop word ("em troca de" is not "troca").
func oneTerm(s *lexical.Stemmer, phrase string) (term, word string, ok bool) {
	if f := strings.Fields(phrase); len(f) != 1 || strings.ContainsAny(phrase, "-'") {
		return "", "", false
	}
	ws := s.Stemmed(phrase)
	if len(ws) != 1 {
		return "", "", false
	}
	return ws[0].Term, lexical.Fold(ws[0].Word), true
}

// dropParens removes parenthesised glosses ("(informal)").
func dropParens(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
