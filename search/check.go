package search

import (
	"errors"
	"fmt"

	"github.com/ocean-safety/ingest/search/golden"
)

// Check reports every golden question whose expected document or section,
// or an alternate's, is not in the index: a question that cannot be
// answered right measures nothing.
func (ix *Index) Check(qs *golden.Set) error {
	var errs []error
	for n, q := range qs.Questions {
		name := golden.Name(n, q.ID)
		if !q.Answerable() {
			continue
		}
		docs := append([]golden.Alternate{{Doc: *q.ExpectedDoc, Section: q.ExpectedSection}}, q.Alternates...)
		for i, d := range docs {
			field := "expected"
			if i > 0 {
				field = fmt.Sprintf("acceptable_alternates[%d]", i-1)
			}
			switch {
			case !ix.HasDoc(d.Doc):
				errs = append(errs, fmt.Errorf("%s: %s doc %q is not in the snapshot", name, field, d.Doc))
			case d.Section != "" && !ix.HasSection(d.Doc, d.Section):
				errs = append(errs, fmt.Errorf("%s: %s section %q is not a section of %s", name, field, d.Section, d.Doc))
			}
		}
		if q.Answer != "" && !ix.holds(q) {
			errs = append(errs, fmt.Errorf("%s: answer %q is in the text of no chunk", name, q.Answer))
		}
	}
	return errors.Join(errs...)
}
