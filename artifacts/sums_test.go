package artifacts_test

import (
	"reflect"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// fillInts sets every int field of the struct v points to, to its index
// plus base.
func fillInts(v any, base int64) {
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		if f := rv.Field(i); f.CanInt() {
			f.SetInt(base + int64(i))
		}
	}
}

// checkSums reports a numeric field of got that is not the sum of a's and
// b's: a field Add forgets.
func checkSums(t *testing.T, got, a, b any) {
	t.Helper()
	g, x, y := reflect.ValueOf(got), reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range g.NumField() {
		if f := g.Field(i); f.CanInt() && f.Int() != x.Field(i).Int()+y.Field(i).Int() {
			t.Errorf("%s %s: got %d, want %d + %d", g.Type().Name(), g.Type().Field(i).Name, f.Int(), x.Field(i).Int(), y.Field(i).Int())
		}
	}
}

// TestCallsAdd: Add sums every count, so a count added to Calls is summed
// across a merge's parts without anyone remembering to.
func TestCallsAdd(t *testing.T) {
	var a, b artifacts.Calls
	fillInts(&a, 10)
	fillInts(&b, 100)
	got := a
	got.Add(b)
	checkSums(t, got, a, b)
}

// TestReportMerge: a part's report merges into the run's as one run would
// have reported it: stage by stage in the order they first appear, the
// documents by language source, the markup, and the model servers' counts,
// every count of them (each server's by its address).
func TestReportMerge(t *testing.T) {
	var ha, hb schema.ModelStats
	fillInts(&ha, 10)
	fillInts(&hb, 100)
	ha.Invalid, hb.Invalid = map[string]int64{"schema": 1}, map[string]int64{"schema": 2, "not-json": 3}
	ha.Endpoints = []schema.EndpointStats{{Endpoint: "a", Calls: 1, Hedges: 1}}
	hb.Endpoints = []schema.EndpointStats{{Endpoint: "a", Calls: 2, Hedges: 2}, {Endpoint: "b", Calls: 5}}
	a := artifacts.Report{
		Stages:   []artifacts.StageStat{{Name: "parse", Items: 1, Seconds: 1}, {Name: "chunk", Items: 2, Seconds: 2}},
		LangFrom: map[string]int{"document": 1}, Markup: map[string]int{"shortcode": 2},
	}
	b := artifacts.Report{
		Stages:   []artifacts.StageStat{{Name: "chunk", Items: 3, Seconds: 3}, {Name: "embed", Items: 4, Seconds: 4}},
		LangFrom: map[string]int{"document": 2, "path": 1}, Markup: map[string]int{"shortcode": 1},
		Models: &artifacts.ModelReport{Headers: &hb, Truncations: []schema.Truncation{{}}},
	}
	var got artifacts.Report
	got.Merge(a)
	got.Merge(artifacts.Report{Models: &artifacts.ModelReport{Headers: &ha}})
	got.Merge(b)
	want := []artifacts.StageStat{{Name: "parse", Items: 1, Seconds: 1}, {Name: "chunk", Items: 5, Seconds: 5}, {Name: "embed", Items: 4, Seconds: 4}}
	if !reflect.DeepEqual(got.Stages, want) {
		t.Errorf("got stages %+v, want %+v", got.Stages, want)
	}
	if !reflect.DeepEqual(got.LangFrom, map[string]int{"document": 3, "path": 1}) || !reflect.DeepEqual(got.Markup, map[string]int{"shortcode": 3}) {
		t.Errorf("got %v and %v, want the counts summed", got.LangFrom, got.Markup)
	}
	if got.Models == nil || got.Models.Headers == nil || got.Models.Embedder != nil || len(got.Models.Truncations) != 1 {
		t.Fatalf("got models %+v, want the header writer's counts and the truncations", got.Models)
	}
	h := *got.Models.Headers
	checkSums(t, h, ha, hb)
	if !reflect.DeepEqual(h.Invalid, map[string]int64{"schema": 3, "not-json": 3}) {
		t.Errorf("got invalid answers %v, want them summed by reason", h.Invalid)
	}
	if want := []schema.EndpointStats{{Endpoint: "a", Calls: 3, Hedges: 3}, {Endpoint: "b", Calls: 5}}; !reflect.DeepEqual(h.Endpoints, want) {
		t.Errorf("got endpoints %+v, want %+v", h.Endpoints, want)
	}
}
