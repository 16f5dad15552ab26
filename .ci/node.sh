#!/usr/bin/env bash
# DuckDB's Node package for the JavaScript recipe of docs/consumers.md, from npm, installed once
# per machine into a cache outside the clone (INGEST_CI_CACHE, default ~/.cache/ingest-ci).
#
#   .ci/node.sh install   npm install the pinned package into the cache (skipped when there)
#   .ci/node.sh test      install, then run the recipe's test (TestConsumerDocsNode)
set -euo pipefail
cd "$(dirname "$0")/.."

readonly package=@duckdb/node-api@1.5.6-r.1
readonly cache=${INGEST_CI_CACHE:-$HOME/.cache/ingest-ci}/node-duckdb-1.5.6-r.1

log() { echo "node.sh: $*" >&2; }
die() { log "$*"; exit 1; }

install() {
  command -v node >/dev/null || die "node is not installed (apt-get install nodejs npm)"
  if [ -f "$cache/node_modules/.ingest-installed" ]; then return 0; fi
  mkdir -p "$cache"
  [ -f "$cache/package.json" ] || echo '{"private": true}' >"$cache/package.json"
  log "npm install $package into $cache"
  (cd "$cache" && npm install --no-audit --no-fund --silent "$package") >&2 || die "npm install failed"
  touch "$cache/node_modules/.ingest-installed"
}

case "${1:-}" in
  install) install ;;
  test) install; INGEST_TEST_NODE_DUCKDB=$cache go test -count=1 -run 'TestConsumerDocsNode' ./cmd/ingest ;;
  *) die "usage: $0 install|test" ;;
esac
