# ingest: turn the Markdown knowledge corpus into a retrieval-ready snapshot.

corpus := "corpus/ocean"
out := "out/knowledge"

# The main job: index the shipped corpus with the offline defaults.
knowledge-index:
    go run ./cmd/ingest index --corpus {{corpus}} --out {{out}}

# The tests, as CI runs them.
test:
    go test ./...

# Throughput benchmarks (parse + chunk MB/s with 1 and all cores; unit parser MB/s).
bench:
    go test -run '^$' -bench . -benchtime 3x ./stages ./units

# Retrieval quality of the shipped corpus's snapshot on its golden questions (recall@k, MRR).
eval: knowledge-index
    go run ./cmd/ingest eval --snapshot {{out}} --questions corpus/ocean.golden.json --min-recall 0.9

# Rewrite the golden files after an intended change; review the diff.
update-golden:
    go test ./... -update

# Everything CI checks.
ci:
    bash .ci/run
