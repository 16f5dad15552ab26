#!/usr/bin/env bash
# ingest's OCI image, built without a container daemon (.ci/image, a module of its own on go-containerregistry), from
# the committed HEAD only (.ci/release.sh run: a clone is built, never the work tree, by the Go .ci/image/go.mod names),
# so the image is the commit's. It holds the commit's linux release (the same binaries, licences and SBOMs, also in
# OUT/release) and a CA bundle from a pinned module, never this machine's: one commit, one digest, on any machine.
#
#   .ci/image.sh build OUT [--push REGISTRY/NAME:TAG --pin FILE] [--platforms …] [--version V]
#                           one image into OUT (what just image and just image-push run)
#   .ci/image.sh test      CI: two builds from two clones at different paths must have one digest;
#                           the image's SBOM is the release's; the binary unpacked from the layer runs,
#                           names the revision and indexes the shipped corpus; where a container
#                           runtime works (podman), the image itself runs it
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "image.sh: $*" >&2; }
die() { log "$*"; exit 1; }

build() {
  local out=$1; shift
  case "$out" in /*) ;; *) out=$PWD/$out ;; esac
  # --pin names a file of this checkout, not of the clone the image is built from.
  local args=() a
  while [ $# -gt 0 ]; do
    a=$1; shift
    if [ "$a" = --pin ] && [ $# -gt 0 ]; then
      case "$1" in /*) args+=(--pin "$1") ;; *) args+=(--pin "$PWD/$1") ;; esac; shift
    else args+=("$a"); fi
  done
  bash .ci/release.sh run build --out "$out" ${args[@]+"${args[@]}"}
}

work=""
run_tests() {
  local rev a b v
  work=$(mktemp -d "${TMPDIR:-/tmp}/ingest-image-test.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  rev=$(git rev-parse --short=12 HEAD)
  build "$work/a" >/dev/null
  build "$work/b" >/dev/null
  a=$(cat "$work/a/digest") b=$(cat "$work/b/digest")
  [ "$a" = "$b" ] || die "two builds of $rev: $a and $b; want one digest"
  echo "two builds of $rev from two clones: one digest, $a"
  (cd .ci/image && go vet ./... && go test ./... && go run . extract --layout "$work/a/oci" --to "$work/root")
  sbom=$(ls "$work"/a/release/ingest_*_linux_amd64.cdx.json)
  cmp -s "$work/root/usr/share/doc/ingest/sbom.cdx.json" "$sbom" || die "the image's SBOM is not the release's $(basename "$sbom")"
  echo "the image's /usr/share/doc/ingest/sbom.cdx.json is the release's $(basename "$sbom"), with LICENSE, NOTICE, THIRD_PARTY_LICENSES"
  head -1 "$work/root/etc/ssl/certs/ca-certificates.crt" | grep -q 'x509roots/fallback v' || die "the image's CA bundle does not name its pinned source"
  echo "the image's CA bundle: $(grep -c 'BEGIN CERTIFICATE' "$work/root/etc/ssl/certs/ca-certificates.crt") roots, $(head -1 "$work/root/etc/ssl/certs/ca-certificates.crt" | sed 's/^# //')"
  # The image's size as a registry stores it (its blobs, compressed) and as a
  # node unpacks it (its file system): issue 30's budget is 45 MB.
  local packed unpacked
  packed=$(du -sb "$work/a/oci/blobs" | cut -f1) unpacked=$(du -sb "$work/root" | cut -f1)
  echo "the image: $((packed / 1000)) kB in the registry, $((unpacked / 1000)) kB unpacked"
  [ "$unpacked" -le 45000000 ] || die "the image unpacks to $unpacked bytes, over the 45 MB budget"
  v=$("$work/root/usr/local/bin/ingest" --version)
  grep -q "$rev" <<<"$v" || die "the layer's binary says \"$v\", not the revision $rev"
  echo "the layer's binary: $v"
  "$work/root/usr/local/bin/ingest" index --corpus corpus/ocean --out "$work/out" --quiet 2>"$work/index.log" || { cat "$work/index.log"; die "the layer's binary failed on corpus/ocean"; }
  "$work/root/usr/local/bin/ingest" verify "$work/out" >/dev/null
  echo "the layer's binary indexed corpus/ocean into a snapshot that verifies"
  run_container "$rev"
}

# run_container REV: the image itself, where podman can run containers. Here (Debian 12, no
# systemd, cgroups v1) that is podman with runc, cgroupfs and limits within the sandbox's: crun
# refuses hybrid cgroups, and podman's default limits exceed the hard ones. Without podman and
# runc (apt-get install podman runc), the image is not run.
run_container() {
  local rev=$1 image="localhost/ingest:$1"
  local podman=(podman --runtime runc --cgroup-manager=cgroupfs)
  if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
    echo "no podman and runc here (apt-get install podman runc): the image itself was not run"
    return 0
  fi
  if ! "${podman[@]}" load -q -i "$work/a/ingest.tar" >"$work/podman.log" 2>&1; then
    echo "podman cannot load the image here ($(tail -1 "$work/podman.log")): not run"
    return 0
  fi
  mkdir -p "$work/pod-out" && chmod 777 "$work/pod-out" # the image's user is 65532
  if timeout 120 "${podman[@]}" run --rm --network=none --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
      -v "$PWD/corpus/ocean:/corpus:ro" -v "$work/pod-out:/out" "$image" \
      index --corpus /corpus --out /out/snap --quiet >"$work/podman.log" 2>&1; then
    "$work/root/usr/local/bin/ingest" verify "$work/pod-out/snap" >/dev/null || die "the image's snapshot does not verify"
    echo "podman ran the image on corpus/ocean as user 65532: $(grep -o '[0-9]* documents.*chunks' "$work/podman.log" | head -1), and it verifies"
  else
    echo "podman cannot run containers here ($(tail -1 "$work/podman.log")): the image itself was not run"
  fi
  "${podman[@]}" rmi -f "$image" >/dev/null 2>&1 || true
}

case "${1:-}" in
  build) [ $# -ge 2 ] || die "usage: $0 build OUT [flags]"; shift; build "$@" ;;
  test) run_tests ;;
  *) die "usage: $0 build OUT [flags] | test" ;;
esac
