# ingest: turn the Markdown knowledge corpus into a retrieval-ready snapshot.

corpus := "corpus/ocean"
out := "out/knowledge"
publish := "out/published"
bin := "bin/ingest"

# Build the binary the other recipes run (go run would turn every exit code into 1).
build:
    go build -buildvcs=auto -o {{bin}} ./cmd/ingest

# The main job, once: index the shipped corpus into out/knowledge with the offline defaults. Exits as ingest does (3: partial).
index: build
    {{bin}} index --corpus {{corpus}} --out {{out}}

# The nightly job: publish to {{publish}} (a folder, or a bucket: just publish='s3://bucket/knowledge?region=eu-west-1' knowledge-index), move latest, write <name>.diff.md beside it against the previous latest, when KB_DATABASE_URL is set sync latest into pgvector (tenant KB_TENANT), and when KB_PUSH_URL is set push latest to that ingest API (token in INGEST_PUSH_TOKEN); exits with the run's code (3: partial, still published, synced and pushed).
knowledge-index: build
    #!/usr/bin/env bash
    set -uo pipefail
    {{bin}} index --corpus {{corpus}} --publish "{{publish}}" --keep 7 --diff
    code=$?
    if [ -n "${KB_DATABASE_URL:-}" ] && { [ $code = 0 ] || [ $code = 3 ]; }; then
        {{bin}} sync --snapshot "{{publish}}/latest" --to "$KB_DATABASE_URL" --tenant "${KB_TENANT:-}" --migrate || exit $?
    fi
    if [ -n "${KB_PUSH_URL:-}" ] && { [ $code = 0 ] || [ $code = 3 ]; }; then
        {{bin}} push --snapshot "{{publish}}/latest" --to "$KB_PUSH_URL" --tenant "${KB_TENANT:-}" || exit $?
    fi
    exit $code

# The nightly job split into shards on this machine, as an Indexed Job splits it across pods: N ingest processes at once (each reusing the latest snapshot, each with its share of the cores, as a pod has its CPU limit), then one merge that publishes what a single run would.
knowledge-index-sharded shards="4": build
    #!/usr/bin/env bash
    set -uo pipefail
    run=$(date -u +%Y%m%dT%H%M%SZ)
    parts=out/parts/$run
    prev=()
    [ -e {{publish}}/latest ] && prev=(--prev {{publish}}/latest)
    # Each shard gets its share of the cores, one at least, as a pod has its CPU limit: N processes
    # each sized to every core fight over them (about a tenth more CPU for 4 on 2 cores).
    workers=$(( $(getconf _NPROCESSORS_ONLN) / {{shards}} )); [ $workers -ge 1 ] || workers=1
    pids=()
    for k in $(seq 0 $(({{shards}} - 1))); do
        {{bin}} index --corpus {{corpus}} --shard $k/{{shards}} --run-id $run --publish $parts "${prev[@]}" --workers $workers --quiet &
        pids+=($!)
    done
    failed=0
    for p in "${pids[@]}"; do wait $p || failed=1; done
    [ $failed = 0 ] || { echo "a shard failed; nothing merged (parts kept in $parts)"; exit 1; }
    {{bin}} merge --parts $parts --shards {{shards}} --run-id $run --publish "{{publish}}" --keep 7 --diff && rm -rf $parts

# The release of HEAD (a clone, never the work tree) into out/release: for linux, darwin and windows × amd64 and arm64 a static binary in ingest_VERSION_OS_ARCH.tar.gz (.zip for windows) with LICENSE, NOTICE, README.md, THIRD_PARTY_LICENSES and its CycloneDX SBOM (the SBOM also beside it), and SHA256SUMS. VERSION: HEAD's v-tag without the v, else 0.1.0-dev+REVISION. One commit, the same bytes on any machine (built with the Go that .ci/image/go.mod names); a cold build of all six takes minutes.
release version="":
    rm -rf out/release && bash .ci/release.sh build out/release {{ if version != "" { "--version " + version } else { "" } }}

# The OCI image of HEAD, built without a container daemon (.ci/image, on go-containerregistry) from HEAD's linux release: out/image/oci (an OCI layout), out/image/ingest.tar (podman load, docker load), out/image/digest and out/image/release (the archives, SBOMs and SHA256SUMS it holds); the SBOM and licences in /usr/share/doc/ingest, the CA bundle from a pinned module; one commit, one digest, on any machine.
image platforms="linux/amd64":
    rm -rf out/image && bash .ci/image.sh build out/image --platforms {{platforms}}

# Push the image of HEAD where IMAGE points (IMAGE=registry.example/ingest just image-push), tagged with the revision, never as latest alone, and pin it by digest in deploy/kubernetes/image, which deploy/kubernetes/run.sh reads.
image-push platforms="linux/amd64,linux/arm64":
    #!/usr/bin/env bash
    set -euo pipefail
    : "${IMAGE:?set IMAGE=registry/name, e.g. IMAGE=ghcr.io/you/ingest just image-push}"
    rm -rf out/image-push
    bash .ci/image.sh build out/image-push --platforms {{platforms}} --push "$IMAGE:$(git rev-parse --short=12 HEAD)" --pin deploy/kubernetes/image

# Sync the latest published snapshot into pgvector: KB_DATABASE_URL (postgres://…) and KB_TENANT (a UUID).
knowledge-sync: build
    {{bin}} sync --snapshot "{{publish}}/latest" --to "$KB_DATABASE_URL" --tenant "$KB_TENANT" --migrate

# The reference receiver of the push contract (docs/push.md) on ADDR: push to http://ADDR/ingest, see what it holds at http://ADDR/.
receiver addr="127.0.0.1:8787":
    go run ./cmd/push-receiver -addr {{addr}}

# ingest push of the OpenTelemetry docs (../shared/corpora/otel/en, the README's two-line config) against the reference receiver: a first push, an unchanged night, a one-paragraph edit; requests, bytes, seconds and the receiver's rows.
bench-push:
    go test -run 'TestOtelPush$' -v -count 1 ./cmd/ingest | grep -E 'otel_push|^(ok|FAIL|---)'

# The tests a developer runs often (CI adds the slow group: just test-slow).
test:
    go test ./...

# The tests with the slow group (internal/slowtest: real kills, the OpenTelemetry corpora), as CI runs them.
test-slow:
    INGEST_TEST_SLOW=1 go test ./...

# The models package's Ollama client against a real Ollama server with tiny models (the first run on a machine builds the server: 7 to 13 minutes).
test-ollama:
    bash .ci/ollama.sh test

# Throughput benchmarks: parse + chunk MB/s (1 and all cores), the offline run, re-runs, the unit parser.
bench:
    go test -run '^$' -bench 'ParseChunk|BenchmarkRun$|Rerun' -benchtime 3x ./stages
    go test -run '^$' -bench 'BenchmarkParse$' -benchtime 3s ./units

# Peak live heap of a whole offline run at 2,000 and 20,000 generated documents (about 30 s): memory should barely grow. A corpus of your own, with -memprofile: BenchmarkMemoryCorpus (stages/bench_test.go).
bench-memory:
    go test -run '^$' -bench 'MemoryFlat' -benchtime 1x ./stages

# A whole offline run of copies of the OpenTelemetry docs at three sizes (14,832 / 44,496 / 103,824 files, built once into ~/.cache/ingest-bench from ../shared/corpora/otel; skipped when ../shared is not beside the clone): CPU-s, MB per CPU-s, peak RSS, report.json and diagnostics.jsonl sizes, and, for the largest, an unchanged re-run, --plan of it, --plan and a run of a 1% edit, and a from-scratch run of the edit compared byte for byte (about 10 minutes on 2 cores: just bench-scale 15k for one size, runs=2 to measure twice).
bench-scale sizes="15k 45k 100k" runs="1": build
    nice -n 10 bash .ci/bench-scale.sh --bin {{bin}} --runs {{runs}} {{sizes}}

# A whole run against the same corpus split into shards run at once (each with its share of the cores, as knowledge-index-sharded runs them) and merged: wall time, CPU and peak RSS of each, and a byte comparison of the results (just bench-shards /path/to/corpus 4 config.yaml).
bench-shards corpus="corpus/ocean" shards="4" config="": build
    #!/usr/bin/env bash
    set -euo pipefail
    w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
    cfg=(); [ -n "{{config}}" ] && cfg=(--config "{{config}}")
    workers=$(( $(getconf _NPROCESSORS_ONLN) / {{shards}} )); [ $workers -ge 1 ] || workers=1
    t() { local f; f=$(mktemp -p "$w"); /usr/bin/time -f "$1: %e s wall, %U+%S CPU-s, peak RSS %M KB" "${@:2}" >/dev/null 2>"$f" || { cat "$f"; exit 1; }; tail -1 "$f"; }
    t "single run" {{bin}} index --corpus {{corpus}} --out "$w/single" "${cfg[@]}" --quiet
    start=$(date +%s.%N)
    for k in $(seq 0 $(({{shards}} - 1))); do t "shard $k" {{bin}} index --corpus {{corpus}} --shard $k/{{shards}} --run-id bench --out "$w/parts" "${cfg[@]}" --workers $workers --quiet & done
    wait
    echo "{{shards}} shards at once: $(echo "$(date +%s.%N) - $start" | bc) s wall"
    t "merge" {{bin}} merge --parts "$w/parts" --shards {{shards}} --out "$w/merged" --quiet
    for f in chunks.parquet thresholds.md; do cmp "$w/single/$f" "$w/merged/$f"; done && echo "merged = single run, byte for byte (chunks.parquet, thresholds.md)"

# The model-server benchmarks against the fake (about 10 minutes): on the shipped corpus and otel-pt (when ../shared is beside the clone) with 1, 2 and 4 servers of 1 and 8 slots, calls per chunk, prefix-cache share, documents split across servers, num_ctx values, calls waiting a slot and wall/ideal (ModelCalls); a 50× slower server (SlowEndpoint); fixed calls in flight (ModelPipeline); the embedding client.
bench-models:
    go test -run '^$' -bench 'ModelCalls' -benchtime 1x -timeout 30m ./stages
    go test -run '^$' -bench 'SlowEndpoint|ModelPipeline' -benchtime 1x ./stages
    go test -run '^$' -bench 'EmbedThroughput' -benchtime 200x ./models/backends

# Retrieval quality of the shipped corpus's snapshot on its golden questions (recall@k, MRR).
eval: index
    {{bin}} eval --snapshot {{out}} --questions corpus/ocean.golden.json --min-recall 0.9

# Propose the built-in embedder's relevance floors again (otel's dev half and the shipped corpus's set) and fail when search/floor.go's differ: run after a change to what BM25 indexes, the fusion or the embedder.
calibrate-floors:
    INGEST_TEST_SLOW=1 go test ./cmd/ingest -run TestFloorCalibration -count=1 -v

# Rewrite the golden files after an intended change; review the diff. These are the packages with goldens (internal/golden declares -update).
update-golden:
    go test ./artifacts/diff ./cmd/ingest ./corpus/html ./corpus/markdown ./deliver/pgsync ./deliver/push ./models/ollama ./stages ./thresholds -update

# Everything CI checks.
ci:
    bash .ci/run

# What a reader would judge of the chunks of a corpus (fragments, lead-ins cut from what they introduce, code without context, headers, sizes): just bench-chunk-quality DIR [CONFIG]; with no DIR, the shipped corpus and the otel corpora when ../shared is beside the clone.
bench-chunk-quality corpus="" config="": build
    #!/usr/bin/env bash
    set -euo pipefail
    cfg=(); [ -n "{{config}}" ] && cfg=(--config "{{config}}")
    if [ -n "{{corpus}}" ]; then exec {{bin}} chunk --stats "${cfg[@]}" "{{corpus}}"; fi
    {{bin}} chunk --stats corpus/ocean
    w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
    printf 'source_url_template: "https://opentelemetry.io/{path}/"\nexclude: ["**/_includes/**"]\n' > "$w/otel.yaml"
    [ -n "{{config}}" ] && cp "{{config}}" "$w/otel.yaml"
    for lang in en pt; do
        dir=../shared/corpora/otel/$lang
        if [ -d "$dir" ]; then {{bin}} chunk --stats --config "$w/otel.yaml" "$dir"; else echo "otel $lang: $dir is not here, skipped"; fi
    done

# Parse + chunk against a bare goldmark parse-and-walk of the same files in one process (MB per CPU-s, the chunker/goldmark ratio, target ≥ 0.8; and the share of chunks cut inside a sentence, target 0): the shipped corpus, then the otel corpora when ../shared is beside the clone.
bench-chunk:
    #!/usr/bin/env bash
    set -euo pipefail
    bench() { # corpus folder ("" for the shipped one)
        INGEST_BENCH_CORPUS="$1" go test -run '^$' -bench 'BenchmarkChunk$' -benchtime 3s ./corpus/markdown |
            awk -v c="${1:-corpus/ocean}" '/^Benchmark/ { print } /ratio/ { for (i = 1; i < NF; i++) if ($(i+1) == "chunker/goldmark") r = $i } END { print c ": chunker/goldmark " r }'
    }
    bench ""
    for lang in en pt; do
        dir=../shared/corpora/otel/$lang
        if [ -d "$dir" ]; then bench "$(cd "$dir" && pwd)"; else echo "otel $lang: $dir is not here, skipped"; fi
    done
