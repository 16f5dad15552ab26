package config

import (
	"strings"
	"testing"
)

// TestSettingsFiniteAndLabelled (issue 31, item 7): every numeric setting
// is finite and in range, a chunk.min the file spells out is a minimum (not
// the "left out" marker), and a source_label is one printable line in one
// normal form, whatever the file says. Before, publish.max_shrink: .nan
// switched the shrink guard off (a 1-document corpus replaced 29 documents,
// exit 0), chunk.min: -1 was taken, and labels with a newline, a NUL, a
// trailing space or a zero-width space were written on every chunk.
func TestSettingsFiniteAndLabelled(t *testing.T) {
	tests := []struct{ yaml, key string }{
		{"publish: {max_shrink: .nan}", "publish.max_shrink"},
		{"publish: {max_shrink: .inf}", "publish.max_shrink"},
		{"publish: {max_shrink: -.inf}", "publish.max_shrink"},
		{"chunk: {min: -1}", "chunk.min"},
		{"chunk: {min: -2}", "chunk.min"},
		{"chunk: {max: 100, min: -1}", "chunk.min"},
		{`source_label: "src1\n::error::forged"`, "source_label"},
		{`source_label: "src1\0"`, "source_label"},
		{`source_label: "src1 "`, "source_label"},
		{`source_label: " src1"`, "source_label"},
		{`source_label: "src1\u200b"`, "source_label"},
		{`source_label: "src\u00a01"`, "source_label"},
		{`source_label: "src1\u2028"`, "source_label"},
		{`source_label: "src1\u202e"`, "source_label"},
		{`source_label: "src1\ufeff"`, "source_label"},
		{`source_label: "cafe\u0301"`, "source_label"}, // decomposed: café is another scope
		{`source_label: "src1\t"`, "source_label"},
		{"retrieval: {top_k: 1000000000}", "retrieval.top_k"},
		{"push: {batch_chunks: 1000000000}", "push.batch_chunks"},
		{"push: {delete_batch: 1000000000}", "push.delete_batch"},
		{"push: {in_flight: 1000000}", "push.in_flight"},
		{"push: {tasks: 1000000}", "push.tasks"},
		{"push: {retries: 1000000000}", "push.retries"},
		{"push: {max_bytes: 100000000000}", "push.max_bytes"},
		{"push: {timeout: 1000000h}", "push.timeout"},
		{"push: {poll_interval: 1000000h}", "push.poll_interval"},
		{"push: {task_timeout: 1000000h}", "push.task_timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.yaml, func(t *testing.T) {
			f, err := Parse([]byte(tt.yaml + "\n"))
			if err == nil {
				err = f.Validate()
			}
			if err == nil || !strings.Contains(err.Error(), tt.key+": ") {
				t.Errorf("got %v, want an error naming %s", err, tt.key)
			}
		})
	}
	// A number past float64 is refused by the YAML decoder, at its line
	// and column.
	if _, err := Parse([]byte("publish: {max_shrink: 1e400}\n")); err == nil || !strings.Contains(err.Error(), "[1:") {
		t.Errorf("max_shrink: 1e400: got %v, want the value refused at its position", err)
	}
	for _, ok := range []string{
		"publish: {max_shrink: -0}", "publish: {max_shrink: 0}", "publish: {max_shrink: 1}",
		"chunk: {min: 0}", "chunk: {max: 100, min: 100}",
		`source_label: "ocean docs"`, `source_label: "café"`, `source_label: "praias-do-sul"`, `source_label: "海"`,
		"retrieval: {top_k: 100}", "push: {retries: 0}",
	} {
		t.Run(ok, func(t *testing.T) {
			f, err := Parse([]byte(ok + "\n"))
			if err == nil {
				err = f.Validate()
			}
			if err != nil {
				t.Errorf("got %v, want %s taken", err, ok)
			}
		})
	}
}
