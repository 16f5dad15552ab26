#!/usr/bin/env bash
# ingest's OCI image, built without a container daemon (ci/image, on go-containerregistry), from
# the committed HEAD only: a clone is built, never the work tree, so the image is the commit's.
#
#   .ci/image.sh build OUT [--push REGISTRY/NAME:TAG --pin FILE] [--platforms …]
#                           one image into OUT (what just image and just image-push run)
#   .ci/image.sh test      CI: two builds from two clones at different paths must have one digest;
#                           the binary unpacked from the layer runs, names the revision and indexes
#                           the shipped corpus; where a container runtime works (podman), the image
#                           itself runs it
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "image.sh: $*" >&2; }
die() { log "$*"; exit 1; }

build() {
  local out=$1; shift
  case "$out" in /*) ;; *) out=$PWD/$out ;; esac
  [ -n "$(git status --porcelain --untracked-files=no)" ] && log "the work tree has uncommitted changes: they are not in the image (HEAD is)"
  local src
  src=$(mktemp -d "${TMPDIR:-/tmp}/ingest-image.XXXXXX")
  git clone -q . "$src/ingest"
  # GOFLAGS cleared: a -buildvcs=false there would drop the revision the labels and --version name.
  (cd "$src/ingest" && GOFLAGS= go run ./ci/image build --out "$out" "$@") || { rm -rf "$src"; exit 1; }
  rm -rf "$src"
}

run_tests() {
  local w rev a b v
  w=$(mktemp -d "${TMPDIR:-/tmp}/ingest-image-test.XXXXXX")
  trap 'rm -rf "$w"' EXIT
  rev=$(git rev-parse --short=12 HEAD)
  build "$w/a" >/dev/null
  build "$w/b" >/dev/null
  a=$(cat "$w/a/digest") b=$(cat "$w/b/digest")
  [ "$a" = "$b" ] || die "two builds of $rev: $a and $b; want one digest"
  echo "two builds of $rev from two clones: one digest, $a"
  GOFLAGS= go run ./ci/image extract --layout "$w/a/oci" --to "$w/root"
  v=$("$w/root/usr/local/bin/ingest" --version)
  grep -q "$rev" <<<"$v" || die "the layer's binary says \"$v\", not the revision $rev"
  echo "the layer's binary: $v"
  "$w/root/usr/local/bin/ingest" index --corpus corpus/ocean --out "$w/out" --quiet
  "$w/root/usr/local/bin/ingest" verify "$w/out" >/dev/null
  echo "the layer's binary indexed corpus/ocean into a snapshot that verifies"
  if ! command -v podman >/dev/null; then
    echo "no podman here: the image itself was not run"
  elif ! podman load -q -i "$w/a/ingest.tar" >"$w/podman.log" 2>&1; then
    echo "podman cannot load the image here ($(tail -1 "$w/podman.log")): not run"
  elif podman run --rm --network=none -v "$PWD/corpus/ocean:/corpus:ro" "localhost/ingest:$rev" index --corpus /corpus --out /tmp/out --quiet >"$w/podman.log" 2>&1; then
    echo "podman ran the image on corpus/ocean"
    podman rmi -f "localhost/ingest:$rev" >/dev/null 2>&1 || true
  else
    echo "podman cannot run containers here ($(tail -1 "$w/podman.log")): the image itself was not run"
    podman rmi -f "localhost/ingest:$rev" >/dev/null 2>&1 || true
  fi
}

case "${1:-}" in
  build) [ $# -ge 2 ] || die "usage: $0 build OUT [flags]"; shift; build "$@" ;;
  test) run_tests ;;
  *) die "usage: $0 build OUT [flags] | test" ;;
esac
