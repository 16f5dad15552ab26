#!/usr/bin/env bash
# bench-scale: a whole offline run of copies of the OpenTelemetry docs at the
# three sizes of issue 34, a table row a size: CPU-s, MB per CPU-s, peak RSS,
# report.json (and diagnostics.jsonl) size; for the largest, an unchanged
# re-run, --plan of it, --plan and a run of a 1% edit (a sentence appended to
# every 100th file, each written anew as an editor or git writes it), the
# same edit reading every file (--rehash, as on a fresh checkout), and a
# from-scratch run of the edited corpus that the edit's snapshot must equal
# byte for byte. Each size runs on a copy of its corpus (linked, under the
# same folder name, so the same config) that its nights edit in place, as
# a nightly job's working tree, with its own stamps folder.
#
#   .ci/bench-scale.sh [--bin BIN] [--runs N] [SIZE...]   SIZE: 15k 45k 100k (default: all)
#
# The corpora are copies of ../shared/corpora/otel (en and pt, 927 files):
# 16, 48 and 112 of them (14,832 / 44,496 / 103,824 files), built once into
# $INGEST_BENCH_CACHE (default ~/.cache/ingest-bench), outside the clone, and
# indexed with the README's two-line otel config. A 100k run costs about
# 200 CPU-s: --runs defaults to 1.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=bin/ingest runs=1 sizes=()
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) bin=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    15k | 45k | 100k) sizes+=("$1"); shift ;;
    *) echo "bench-scale: unknown argument $1 (sizes are 15k, 45k, 100k)" >&2; exit 2 ;;
    esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(15k 45k 100k)

src=../shared/corpora/otel
if [ ! -d "$src/en" ] || [ ! -d "$src/pt" ]; then
    echo "bench-scale: skipped: $src is not here (the corpora are copies of ../shared/corpora/otel; clone ../shared beside this one)"
    exit 0
fi
cache=${INGEST_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ingest-bench}
copies() { case "$1" in 15k) echo 16 ;; 45k) echo 48 ;; 100k) echo 112 ;; esac; }

# corpus SIZE: the folder of SIZE's copies, built once (a stamp file marks a
# whole one; a half-built folder is built again).
corpus() {
    local n dir
    n=$(copies "$1")
    dir=$cache/otel-x$n
    if [ ! -e "$dir/.built" ]; then
        echo "building $dir: $n copies of $src" >&2
        rm -rf "$dir"
        mkdir -p "$dir"
        for i in $(seq -w 0 $((n - 1))); do
            mkdir -p "$dir/c$i"
            cp -r "$src/en" "$src/pt" "$dir/c$i/"
        done
        touch "$dir/.built"
    fi
    echo "$dir"
}

# tree CORPUS: a copy of CORPUS (linked where it can be) under the same
# folder name, for a size's nights to edit; prints its folder.
tree() {
    local dst=$work/tree/$(basename "$1")
    rm -rf "$work/tree"
    mkdir -p "$work/tree"
    cp -al "$1" "$dst" 2>/dev/null || { rm -rf "$dst"; cp -r "$1" "$dst"; }
    echo "$dst"
}

# edit TREE: a sentence appended to every 100th file in path order (1,038
# of 103,824), each written as a new file renamed over the old: the link to
# the cache stays as it was.
edit() {
    local f
    find "$1" -type f -name '*.md' | LC_ALL=C sort | awk 'NR % 100 == 0' | while read -r f; do
        { cat "$f"; printf '\nThis sentence was added for the one percent edit.\n'; } >"$f.new"
        mv "$f.new" "$f"
    done
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export INGEST_CACHE_DIR=$work/cache # the stamps of these runs alone: every size starts with none
printf 'source_url_template: "https://opentelemetry.io/{path}/"\nexclude: ["**/_includes/**"]\n' >"$work/otel.yaml"

# measure OUT CORPUS [FLAG...]: one run into OUT; prints "CPU-s RSS-KB".
measure() {
    local t=$work/time code=0 out=$1 corpus=$2
    shift 2
    /usr/bin/time -o "$t" -f '%U %S %M' "$bin" index --corpus "$corpus" --out "$out" --config "$work/otel.yaml" --quiet "$@" >/dev/null 2>"$work/stderr" || code=$?
    if [ $code != 0 ] && [ $code != 3 ]; then
        echo "bench-scale: ingest exited $code:" >&2
        tail -20 "$work/stderr" >&2
        exit 1
    fi
    awk '{ printf "%.1f %d\n", $1 + $2, $3 }' "$t"
}

size() { if [ -e "$1" ]; then stat -c %s "$1"; else echo 0; fi; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
kb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e3 }'; }

printf '| corpus (files / MB) | run | CPU-s | MB per CPU-s | peak RSS MB | report.json | diagnostics.jsonl |\n|---|---|---|---|---|---|---|\n'
for s in "${sizes[@]}"; do
    dir=$(corpus "$s")
    files=$(find "$dir" -type f -name '*.md' | wc -l)
    bytes=$(find "$dir" -type f -name '*.md' -printf '%s\n' | awk '{ t += $1 } END { print t }')
    label="$s: $files / $(mb "$bytes")"
    for r in $(seq 1 "$runs"); do
        out=$work/snap-$s
        rm -rf "$out" "$INGEST_CACHE_DIR"
        dir=$(tree "$(corpus "$s")")
        read -r cpu rss < <(measure "$out" "$dir")
        printf '| %s | full %d | %s | %s | %d | %s KB | %s MB |\n' "$label" "$r" "$cpu" \
            "$(awk -v b="$bytes" -v c="$cpu" 'BEGIN { printf "%.2f", b / 1e6 / c }')" $((rss / 1024)) \
            "$(kb "$(size "$out/report.json")")" "$(mb "$(size "$out/diagnostics.jsonl")")"
        if [ "$s" = 100k ]; then
            read -r cpu rss < <(measure "$out" "$dir")
            printf '| %s | unchanged %d | %s | | %d | %s KB | %s MB |\n' "$label" "$r" "$cpu" $((rss / 1024)) \
                "$(kb "$(size "$out/report.json")")" "$(mb "$(size "$out/diagnostics.jsonl")")"
            read -r cpu rss < <(measure "$out" "$dir" --plan)
            printf '| %s | --plan, unchanged %d | %s | | %d | | |\n' "$label" "$r" "$cpu" $((rss / 1024))
            edit "$dir"
            edited=$dir
            read -r cpu rss < <(measure "$out" "$edited" --plan)
            printf '| %s | --plan, 1%% edit %d | %s | | %d | | |\n' "$label" "$r" "$cpu" $((rss / 1024))
            rehash=$work/rehash-$s
            rm -rf "$rehash"
            cp -al "$out" "$rehash" # a run publishes a new folder: the links stay as they are
            read -r cpu rss < <(measure "$rehash" "$edited" --rehash)
            printf '| %s | 1%% edit, every file read (--rehash) %d | %s | | %d | | |\n' "$label" "$r" "$cpu" $((rss / 1024))
            rm -rf "$rehash"
            read -r cpu rss < <(measure "$out" "$edited")
            printf '| %s | 1%% edit %d | %s | | %d | %s KB | %s MB |\n' "$label" "$r" "$cpu" $((rss / 1024)) \
                "$(kb "$(size "$out/report.json")")" "$(mb "$(size "$out/diagnostics.jsonl")")"
            scratch=$work/scratch-$s
            rm -rf "$scratch"
            read -r cpu rss < <(measure "$scratch" "$edited")
            same=yes
            for f in chunks.parquet thresholds.md diagnostics.jsonl documents.jsonl; do
                [ -e "$out/$f" ] || [ -e "$scratch/$f" ] || continue # documents.jsonl: not in an older ingest's snapshot
                cmp -s "$out/$f" "$scratch/$f" || same="no ($f differs)"
            done
            printf '| %s | 1%% edit from scratch %d | %s | | %d | | byte-identical to the 1%% edit: %s |\n' "$label" "$r" "$cpu" $((rss / 1024)) "$same"
            rm -rf "$scratch"
        fi
    done
done
