#!/usr/bin/env bash
# ingest's release (.ci/image's release command), from the committed HEAD only: a clone is built,
# never the work tree, so the release is the commit's; with the Go that .ci/image/go.mod's toolchain
# line names, so one commit gives the same bytes on any machine.
#
#   .ci/release.sh build OUT [--version 1.2.0] [--platforms linux/amd64,…]
#                       what just release runs: per platform OUT/ingest_V_OS_ARCH.tar.gz (.zip for
#                       windows: ingest, LICENSE, NOTICE, README.md, THIRD_PARTY_LICENSES,
#                       sbom.cdx.json) and OUT/ingest_V_OS_ARCH.cdx.json, then OUT/SHA256SUMS;
#                       V is HEAD's v-tag without the v, else 0.1.0-dev+REVISION
#   .ci/release.sh run COMMAND ARGS…
#                       .ci/image's COMMAND (release, build) on a clone of HEAD with the pinned Go
#                       (.ci/image.sh build runs it)
#   .ci/release.sh test CI: linux/amd64 released twice from two clones at different paths must give
#                       one SHA256SUMS; the archive holds its files, the SBOM lists parquet-go, and the
#                       binary runs and names the version and revision
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "release.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# run COMMAND ARGS…: .ci/image's COMMAND (release, build) on a clone of HEAD, with the Go the clone's
# .ci/image/go.mod names (GOTOOLCHAIN, which every go command the tool runs inherits). What build
# runs, and .ci/image.sh build.
run() {
  local cmd=$1; shift
  [ -n "$(git status --porcelain --untracked-files=no)" ] && log "the work tree has uncommitted changes: they are not built (HEAD is)"
  local src go
  src=$(mktemp -d "${TMPDIR:-/tmp}/ingest-release.XXXXXX")
  git clone -q . "$src/ingest"
  go=$(awk '$1 == "toolchain" { print $2 }' "$src/ingest/.ci/image/go.mod")
  [ -n "$go" ] || { rm -rf "$src"; die ".ci/image/go.mod names no toolchain"; }
  (cd "$src/ingest/.ci/image" && GOTOOLCHAIN=$go go run . "$cmd" --src "$src/ingest" "$@") || { rm -rf "$src"; exit 1; }
  rm -rf "$src"
}

build() {
  local out=$1; shift
  case "$out" in /*) ;; *) out=$PWD/$out ;; esac
  run release --out "$out" "$@"
}

work=""
run_tests() {
  local rev v name root
  work=$(mktemp -d "${TMPDIR:-/tmp}/ingest-release-test.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  rev=$(git rev-parse --short=12 HEAD)
  build "$work/a" --platforms linux/amd64 >/dev/null 2>"$work/a.log" || { cat "$work/a.log"; die "the release failed"; }
  build "$work/b" --platforms linux/amd64 >/dev/null 2>"$work/b.log" || { cat "$work/b.log"; die "the second release failed"; }
  cmp -s "$work/a/SHA256SUMS" "$work/b/SHA256SUMS" || { diff "$work/a/SHA256SUMS" "$work/b/SHA256SUMS"; die "two releases of $rev: their SHA256SUMS differ"; }
  (cd "$work/a" && sha256sum --check --quiet SHA256SUMS)
  echo "two releases of $rev from two clones: one SHA256SUMS ($(wc -l <"$work/a/SHA256SUMS") files), and it checks"
  name=$(cd "$work/a" && ls ingest_*_linux_amd64.tar.gz)
  name=${name%.tar.gz}
  v=${name#ingest_}
  v=${v%_linux_amd64}
  [ "$(tar -tzf "$work/a/$name.tar.gz" | sort | tr '\n' ' ')" = "$name/ $name/LICENSE $name/NOTICE $name/README.md $name/THIRD_PARTY_LICENSES $name/ingest $name/sbom.cdx.json " ] ||
    die "$name.tar.gz holds $(tar -tzf "$work/a/$name.tar.gz" | tr '\n' ' ')"
  grep -q '"name": "github.com/parquet-go/parquet-go"' "$work/a/$name.cdx.json" || die "$name.cdx.json does not list parquet-go"
  mkdir "$work/root" && tar -xzf "$work/a/$name.tar.gz" -C "$work/root"
  root=$work/root/$name
  cmp -s "$root/sbom.cdx.json" "$work/a/$name.cdx.json" || die "the archive's SBOM is not the one beside it"
  grep -q 'github.com/parquet-go/parquet-go v0' "$root/THIRD_PARTY_LICENSES" || die "THIRD_PARTY_LICENSES lacks parquet-go"
  "$root/ingest" --version | grep -q "^ingest $v ($rev" || die "the binary says \"$("$root/ingest" --version)\", want ingest $v ($rev…"
  echo "$name.tar.gz: $(tar -tzf "$work/a/$name.tar.gz" | sed 1d | sed "s|$name/||" | tr '\n' ' ')— the SBOM lists $(grep -c '"type": "library"' "$root/sbom.cdx.json") modules, the binary says $("$root/ingest" --version)"
}

case "${1:-}" in
  build) [ $# -ge 2 ] || die "usage: $0 build OUT [--version V] [--platforms …]"; shift; build "$@" ;;
  run) [ $# -ge 2 ] || die "usage: $0 run release|build ARGS…"; shift; run "$@" ;;
  test) run_tests ;;
  *) die "usage: $0 build OUT [--version V] [--platforms …] | run release|build ARGS… | test" ;;
esac
