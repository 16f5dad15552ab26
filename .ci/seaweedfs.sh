#!/usr/bin/env bash
# A real S3-compatible server for the end-to-end publishing test, without Docker: SeaweedFS,
# built from the Go module proxy once per machine into a cache outside the clone (about 5
# minutes the first time), run as one process with its S3 gateway on free local ports.
#
#   .ci/seaweedfs.sh install   build weed into the cache (skipped when there)
#   .ci/seaweedfs.sh start     start a server; print export lines for eval
#   .ci/seaweedfs.sh stop      stop the server named by INGEST_WEED_RUN
#   .ci/seaweedfs.sh test      all of it: install, start, run the S3 tests, stop
#
# INGEST_CI_CACHE moves the cache (default ~/.cache/ingest-ci). start prints INGEST_TEST_S3
# (the endpoint the tests read; they skip without it) and INGEST_WEED_RUN.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly module=github.com/seaweedfs/seaweedfs@v0.0.0-20261109003541-7506e5f91cd6
readonly cache=${INGEST_CI_CACHE:-$HOME/.cache/ingest-ci}
readonly weed=$cache/weed
readonly startup_limit=120

log() { echo "seaweedfs.sh: $*" >&2; }
die() { log "$*"; exit 1; }

install() {
  if [ -x "$weed" ]; then return 0; fi
  mkdir -p "$cache"
  log "building SeaweedFS ($module) into $weed (once per machine)"
  local dir src
  # go install refuses a module with replace directives: build from a copy of its source.
  dir=$(cd "$cache" && GOFLAGS=-mod=mod go mod download -json "$module" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  [ -n "$dir" ] || die "go mod download $module failed"
  src=$cache/seaweedfs-src
  rm -rf "$src"
  cp -r "$dir" "$src"
  chmod -R u+w "$src"
  (cd "$src" && GOFLAGS=-mod=mod go build -o "$weed.tmp" ./weed) >&2 || die "build failed"
  mv "$weed.tmp" "$weed"
}

# A free port below 55535 whose gRPC twin (port + 10000, SeaweedFS's rule) is free too.
free_port() {
  python3 -c '
import random, socket
def free(p):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p)); return True
    except OSError:
        return False
    finally:
        s.close()
while True:
    p = random.randint(20000, 45000)
    if free(p) and free(p + 10000):
        print(p); break'
}

start() {
  install
  local run s3 master volume filer i
  run=$(mktemp -d "${TMPDIR:-/tmp}/ingest-weed.XXXXXX")
  s3=$(free_port); master=$(free_port); volume=$(free_port); filer=$(free_port)
  mkdir -p "$run/data"
  "$weed" server -ip=127.0.0.1 -ip.bind=127.0.0.1 -dir="$run/data" -master.port="$master" \
    -volume.port="$volume" -filer.port="$filer" -s3 -s3.port="$s3" -volume.max=0 \
    >"$run/log" 2>&1 &
  echo $! >"$run/pid"
  for ((i = 0; i < startup_limit * 10; i++)); do
    # Anonymous access is allowed when no identities are configured: create the bucket.
    if curl -fsS -X PUT "http://127.0.0.1:$s3/knowledge" >/dev/null 2>&1; then
      echo "export INGEST_TEST_S3=http://127.0.0.1:$s3"
      echo "export INGEST_WEED_RUN=$run"
      return 0
    fi
    kill -0 "$(cat "$run/pid")" 2>/dev/null || { tail -20 "$run/log" >&2; die "weed exited before serving"; }
    sleep 0.1
  done
  tail -20 "$run/log" >&2
  stop_run "$run"
  die "weed did not serve S3 within ${startup_limit}s"
}

stop_run() {
  local run=$1 pid
  [ -f "$run/pid" ] || return 0
  pid=$(cat "$run/pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -rf "$run"
}

stop() { stop_run "${INGEST_WEED_RUN:?INGEST_WEED_RUN is not set}"; }

test_s3() {
  eval "$(start)"
  trap 'stop_run "$INGEST_WEED_RUN"' EXIT
  go test -count=1 -run 'TestS3Server' ./publish/bucket
  go test -count=1 -run 'TestS3EndToEnd' ./cmd/ingest
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  test) test_s3 ;;
  *) die "usage: $0 install|start|stop|test" ;;
esac
