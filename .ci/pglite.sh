#!/usr/bin/env bash
# A real PostgreSQL with pgvector for the pgsync tests, without Docker: PGlite (PostgreSQL 18 in
# WASM) from npm, served over the wire protocol by .ci/pglite-server.mjs (a small server around
# PGlite that takes connections in turn, resets the session between them and emulates
# COPY FROM STDIN; see that file). Installed once per machine into a cache outside the clone.
#
#   .ci/pglite.sh install   npm install the pinned packages into the cache (skipped when there)
#   .ci/pglite.sh start     start a server on a free port; print export lines for eval
#   .ci/pglite.sh stop      stop the server named by INGEST_PGLITE_RUN
#   .ci/pglite.sh test      all of it: install, start, run the pgsync tests, stop
#
# INGEST_CI_CACHE moves the cache (default ~/.cache/ingest-ci). start prints
# INGEST_TEST_POSTGRES (the URL the tests read) and INGEST_PGLITE_RUN (the server's folder,
# what stop reads).
set -euo pipefail
cd "$(dirname "$0")/.."

# The versions that work together (../shared/README.md): newer pglite has no matching
# pgvector release. pglite-socket is not needed: pglite-server.mjs serves the wire protocol
# itself, to fix the stock server's traps.
readonly packages=(@electric-sql/pglite@0.5.14 @electric-sql/pglite-pgvector@0.0.15)
readonly cache=${INGEST_CI_CACHE:-$HOME/.cache/ingest-ci}/pglite-0.5.14
readonly startup_limit=120 # seconds for the server to listen; a cold WASM start takes about 10
readonly stop_limit=10     # seconds for the server to exit on SIGTERM before SIGKILL

log() { echo "pglite.sh: $*" >&2; }
die() { log "$*"; exit 1; }

install() {
  command -v node >/dev/null || die "node is not installed (apt-get install nodejs npm)"
  if [ -f "$cache/node_modules/.ingest-installed" ]; then return 0; fi
  mkdir -p "$cache"
  [ -f "$cache/package.json" ] || echo '{"private": true}' >"$cache/package.json"
  log "npm install ${packages[*]} into $cache"
  (cd "$cache" && npm install --no-audit --no-fund --silent "${packages[@]}") >&2 \
    || die "npm install failed"
  touch "$cache/node_modules/.ingest-installed"
}

start() {
  install
  local run
  run=$(mktemp -d "${TMPDIR:-/tmp}/ingest-pglite.XXXXXX")
  # ESM resolves imports from the script's own folder: run it beside node_modules.
  cp .ci/pglite-server.mjs "$cache/server.mjs"
  node "$cache/server.mjs" 0 >"$run/url" 2>"$run/log" &
  echo $! >"$run/pid"
  local i
  for ((i = 0; i < startup_limit * 10; i++)); do
    if [ -s "$run/url" ]; then
      echo "export INGEST_TEST_POSTGRES=$(head -n1 "$run/url")"
      echo "export INGEST_PGLITE_RUN=$run"
      return 0
    fi
    kill -0 "$(cat "$run/pid")" 2>/dev/null || { cat "$run/log" >&2; die "server exited before listening"; }
    sleep 0.1
  done
  cat "$run/log" >&2
  stop_run "$run"
  die "server did not listen within ${startup_limit}s"
}

stop_run() {
  local run=$1 pid i
  [ -f "$run/pid" ] || return 0
  pid=$(cat "$run/pid")
  kill "$pid" 2>/dev/null || true
  for ((i = 0; i < stop_limit * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  rm -rf "$run"
}

stop() {
  [ -n "${INGEST_PGLITE_RUN:-}" ] || die "INGEST_PGLITE_RUN is not set (eval the output of start)"
  stop_run "$INGEST_PGLITE_RUN"
}

run_tests() {
  eval "$(start)"
  trap 'stop_run "$INGEST_PGLITE_RUN"' EXIT
  log "server at ${INGEST_TEST_POSTGRES}"
  # One package at a time: one session serves them all, and they would only queue for it.
  go test -count=1 ./deliver/pgsync
  go test -count=1 -run 'Sync' ./cmd/ingest
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  test) run_tests ;;
  *) die "usage: $0 install|start|stop|test" ;;
esac
