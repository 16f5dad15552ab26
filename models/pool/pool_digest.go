package pool

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/models/server"
)

// Lookup looks the model up on every endpoint that answers and settles the
// digest the run uses: the previous snapshot's, when an endpoint serves it
// (its headers and vectors are what the reuse keys name), else the one
// most of them serve. An endpoint without the model, or with other
// weights, is left out of the run with a warning; the run needs one left.
// Endpoints that serve different weights with no previous snapshot and no
// majority to say which are right are refused, named, before any work:
// keeping whichever answered first would silently switch the model (and
// re-pay every call) when the listing order changes.
func (p *Pool) Lookup(ctx context.Context, model string) (server.ModelInfo, error) {
	infos := map[*endpoint]server.ModelInfo{}
	var errs []error
	for _, e := range p.eps {
		if !p.usable(e) {
			continue
		}
		in, err := e.srv.Lookup(ctx, model)
		if err != nil {
			errs = append(errs, err)
			if errors.Is(err, context.Canceled) {
				return server.ModelInfo{}, err
			}
			p.rest(e, err) // looked up again before its first call
			continue
		}
		infos[e] = in
	}
	if len(infos) == 0 {
		return server.ModelInfo{}, errors.Join(errs...)
	}
	want, err := p.reference(model, infos)
	if err != nil {
		return server.ModelInfo{}, err
	}
	var info server.ModelInfo
	found := false
	for _, e := range p.eps { // in listing order: the first of the reference's gives the model's info
		in, ok := infos[e]
		switch {
		case !ok:
		case in.Digest != want:
			p.leaveOut(e, fmt.Sprintf("model %s has digest %s there, %s on the others", model, in.Digest, want))
		default:
			if !found {
				info, found = in, true
			}
			e.checked[model] = true
			e.slots = in.Slots
		}
	}
	p.mu.Lock()
	p.digests[model] = want
	p.mu.Unlock()
	return info, nil
}

// reference is the digest of model the run uses, from what the endpoints
// that answered serve.
func (p *Pool) reference(model string, infos map[*endpoint]server.ModelInfo) (string, error) {
	count := map[string]int{}
	for _, in := range infos {
		count[in.Digest]++
	}
	if d := p.prev[model]; d != "" && count[d] > 0 {
		return d, nil
	}
	digests := slices.SortedFunc(maps.Keys(count), func(a, b string) int { return count[b] - count[a] })
	if len(digests) == 1 || count[digests[0]] > count[digests[1]] {
		return digests[0], nil
	}
	var odd []string
	for _, e := range p.eps {
		if in, ok := infos[e]; ok {
			odd = append(odd, strings.TrimPrefix(e.srv.Where(), p.kind+" at ")+" has "+in.Digest)
		}
	}
	return "", fmt.Errorf("model %s differs between the servers (%s), and neither a previous snapshot nor a majority says which is right: pull the same model on every server, or list only those that match", model, strings.Join(odd, ", "))
}
