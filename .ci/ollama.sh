#!/usr/bin/env bash
# A real Ollama server for the test tier that proves the models package's Ollama client against the
# real thing (models/backends/ollama_real_test.go), and the pipeline's schedule against a one-slot
# server's prompt cache (stages/ollama_real_test.go). The server is built from the Go module proxy
# with cgo, once per machine, into a cache folder outside the clone.
#
#   .ci/ollama.sh build   build ollama into the cache (skipped when it is there)
#   .ci/ollama.sh start   make the tiny models (once), start a server, create the models,
#                         print export lines for eval
#   .ci/ollama.sh stop    stop the server named by INGEST_OLLAMA_RUN
#   .ci/ollama.sh log     print the end of that server's log
#   .ci/ollama.sh test    all of it: build, start two servers, run the tier's tests, stop
#
# INGEST_CI_CACHE moves the cache (default ~/.cache/ingest-ci). start prints
# INGEST_OLLAMA_HOST, INGEST_OLLAMA_CHAT_MODEL, INGEST_OLLAMA_EMBED_MODEL (what
# the tests read) and INGEST_OLLAMA_RUN (the server's folder, what stop reads).
set -euo pipefail
cd "$(dirname "$0")/.."

readonly version=0.17.4 # the server's version is the one .ci/tinymodels writes its models with (checked)
readonly cache=${INGEST_CI_CACHE:-$HOME/.cache/ingest-ci}/ollama-$version
readonly bin=$cache/bin/ollama
readonly build_limit=2400  # seconds; a cold build takes 7 to 13 minutes on 2 cores
readonly startup_limit=60  # seconds for the server to answer; it takes about one
readonly create_limit=120  # seconds for one `ollama create` of a model under 1 MB
readonly stop_limit=10     # seconds for the server to exit on SIGTERM before SIGKILL

log() { echo "ollama.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# need_apt installs the Debian packages that are missing; each supplies a header that
# the module zip leaves out of llama.cpp's vendor/ folder.
need_apt() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  [ "$(id -u)" -eq 0 ] || die "need root to install ${missing[*]}"
  mkdir -p "$cache"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
    >"$cache/apt.log" 2>&1 || { cat "$cache/apt.log" >&2; die "apt-get install ${missing[*]} failed"; }
}

# stub_miniaudio writes the one vendor header Debian does not ship. mtmd-helper.cpp uses
# miniaudio only to decode audio input, which our models never get, so every decoder
# call fails and the runner reports that it cannot read the audio.
stub_miniaudio() {
  local h=$cache/include/miniaudio/miniaudio.h
  [ -f "$h" ] && return 0
  mkdir -p "${h%/*}"
  cat >"$h.tmp" <<'HDR'
/* Stub of miniaudio for building ollama without llama.cpp's vendor/ folder:
   audio input is not decoded; every decoder call fails. */
#ifndef INGEST_MINIAUDIO_STUB_H
#define INGEST_MINIAUDIO_STUB_H
#include <stddef.h>
#include <stdint.h>
typedef int ma_result;
typedef uint32_t ma_uint32;
typedef uint64_t ma_uint64;
#define MA_SUCCESS 0
#define MA_ERROR (-1)
typedef enum { ma_format_unknown = 0, ma_format_f32 = 5 } ma_format;
typedef struct { ma_format format; ma_uint32 channels; ma_uint32 sampleRate; } ma_decoder_config;
typedef struct { int unused; } ma_decoder;
static inline ma_decoder_config ma_decoder_config_init(ma_format f, ma_uint32 ch, ma_uint32 rate) {
  ma_decoder_config c = { f, ch, rate };
  return c;
}
static inline ma_result ma_decoder_init_memory(const void *data, size_t size,
    const ma_decoder_config *config, ma_decoder *decoder) {
  (void)data; (void)size; (void)config; (void)decoder;
  return MA_ERROR;
}
static inline ma_result ma_decoder_get_length_in_pcm_frames(ma_decoder *d, ma_uint64 *n) {
  (void)d; *n = 0; return MA_ERROR;
}
static inline ma_result ma_decoder_read_pcm_frames(ma_decoder *d, void *out, ma_uint64 n, ma_uint64 *read) {
  (void)d; (void)out; (void)n; *read = 0; return MA_ERROR;
}
static inline ma_result ma_decoder_uninit(ma_decoder *d) { (void)d; return MA_SUCCESS; }
#endif
HDR
  mv "$h.tmp" "$h"
}

cmd_build() {
  [ -x "$bin" ] && { log "cached: $bin"; return 0; }
  mkdir -p "$cache"
  # One build at a time per cache: a second caller waits, then finds the binary.
  exec 9>"$cache/build.lock"
  flock -w "$build_limit" 9 || die "another build holds $cache/build.lock"
  [ -x "$bin" ] && { log "cached: $bin (built meanwhile)"; return 0; }
  need_apt g++ nlohmann-json3-dev libstb-dev
  stub_miniaudio
  local tmpbin=$cache/bin.tmp buildlog=$cache/build.log start=$SECONDS pid
  rm -rf "$tmpbin"
  log "building ollama v$version with cgo (7 to 13 minutes cold); log: $buildlog"
  # Outside the clone, so the build resolves ollama's own go.mod, not ours.
  # The version is stamped, or /api/version says 0.0.0.
  (
    cd "$cache"
    GOBIN=$tmpbin GOFLAGS=-buildvcs=false GOWORK=off CGO_ENABLED=1 \
      CGO_CPPFLAGS="-I$cache/include" \
      exec timeout "$build_limit" go install \
      -ldflags "-X github.com/ollama/ollama/version.Version=$version" \
      "github.com/ollama/ollama@v$version"
  ) >"$buildlog" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    if [ $(((SECONDS - start) % 60)) -lt 5 ]; then log "still building ($((SECONDS - start))s)"; fi
  done
  wait "$pid" || {
    tail -n 40 "$buildlog" >&2
    die "build failed after $((SECONDS - start))s; full log: $buildlog"
  }
  mkdir -p "${bin%/*}"
  mv "$tmpbin/ollama" "$bin"
  rmdir "$tmpbin"
  exec 9>&- # unlock, and keep the lock out of the servers started later
  log "built $bin in $((SECONDS - start))s"
}

# check_client fails when .ci/tinymodels writes its models with another version of Ollama's
# module than the server this script builds. (models/ollama imports none: its requests are
# pinned to what this version's client sent, models/ollama/testdata/wire.txtar.)
check_client() {
  local want
  want=$(cd .ci/tinymodels && go list -m -f '{{.Version}}' github.com/ollama/ollama 2>/dev/null) || return 0
  [ "$want" = "v$version" ] || die ".ci/tinymodels requires ollama $want, this script builds v$version: change version in $0"
}

# models writes the tiny models once per version of their generator and
# prints their folder.
models() {
  local key dir
  key=$(cat .ci/tinymodels/go.mod .ci/tinymodels/go.sum .ci/tinymodels/*.go | sha256sum | cut -c1-12)
  dir=$cache/models-$key
  if [ ! -f "$dir/tiny-embed.Modelfile" ]; then
    log "generating the tiny models into $dir"
    (cd .ci/tinymodels && go run . -out "$dir") >&2
    find "$cache" -maxdepth 1 -name 'models-*' ! -path "$dir" -exec rm -rf {} +
  fi
  echo "$dir"
}

# serve starts a server with its own HOME and model store in run folder $1
# on a free loopback port, and prints that port.
serve() {
  local run=$1 port="" deadline
  mkdir -p "$run/home" "$run/models"
  # Port 0: the kernel picks a free port and the server logs it; no race
  # with another process for a port we picked. setsid makes the server the
  # leader of a process group that also holds its model runners, so stop
  # ends them all.
  HOME=$run/home OLLAMA_MODELS=$run/models OLLAMA_HOST=127.0.0.1:0 \
    OLLAMA_FLASH_ATTENTION=0 OLLAMA_NUM_PARALLEL=1 OLLAMA_MAX_LOADED_MODELS=2 \
    OLLAMA_KEEP_ALIVE=10m OLLAMA_DEBUG=1 \
    setsid "$bin" serve </dev/null >"$run/server.log" 2>&1 &
  echo $! >"$run/pid"
  deadline=$((SECONDS + startup_limit))
  while [ -z "$port" ]; do
    port=$(sed -n 's/.*Listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$run/server.log" | head -n 1)
    [ -n "$port" ] && break
    kill -0 "$(cat "$run/pid")" 2>/dev/null || return 1
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
  deadline=$((SECONDS + startup_limit))
  until curl -sf --max-time 2 "http://127.0.0.1:$port/api/version" | grep -q "\"$version\""; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
  echo "$port"
}

# cmd_start starts a server; with a run folder as $1, one that serves a copy
# of that server's models, the same weights under the same digests (a model
# created anew gets another digest, and a pool refuses servers that differ).
cmd_start() {
  local from=${1:-}
  [ -x "$bin" ] || die "no server at $bin: run '$0 build' first"
  check_client
  need_apt curl
  local dir run port m start=$SECONDS
  dir=$(models)
  for run in "$cache"/run.*; do # left by a run that was killed: its server is gone
    if [ -d "$run" ] && ! alive "$run"; then rm -rf "$run"; fi
  done
  run=$(mktemp -d "$cache/run.XXXXXX")
  if [ -n "$from" ]; then mkdir -p "$run/models" && cp -a "$from/models/." "$run/models/"; fi
  port=$(serve "$run") || {
    tail -n 40 "$run/server.log" >&2
    stop_run "$run"
    die "the server did not answer /api/version with $version within ${startup_limit}s"
  }
  for m in tiny-chat tiny-embed; do
    [ -n "$from" ] && break
    OLLAMA_HOST=127.0.0.1:$port timeout "$create_limit" "$bin" create "$m" -f "$dir/$m.Modelfile" \
      >"$run/create-$m.log" 2>&1 || {
      cat "$run/create-$m.log" >&2
      stop_run "$run"
      die "ollama create $m failed"
    }
  done
  log "server v$version on 127.0.0.1:$port with tiny-chat and tiny-embed, ready in $((SECONDS - start))s"
  echo "export INGEST_OLLAMA_HOST=http://127.0.0.1:$port"
  echo "export INGEST_OLLAMA_CHAT_MODEL=tiny-chat"
  echo "export INGEST_OLLAMA_EMBED_MODEL=tiny-embed"
  echo "export INGEST_OLLAMA_RUN=$run"
}

# alive reports whether the server of run folder $1 is running: its pid is
# still our binary serving, not a process that reused the number.
alive() {
  local pid
  pid=$(cat "$1/pid" 2>/dev/null) && [ -n "$pid" ] &&
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$bin serve"
}

# stop_run ends the server of run folder $1 and its model runners (the
# process group the server leads), and removes the folder.
stop_run() {
  local run=$1 pid i
  if alive "$run"; then
    pid=$(cat "$run/pid")
    kill -TERM -- "-$pid" 2>/dev/null || true
    for ((i = 0; i < stop_limit * 5; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  rm -rf "$run"
}

cmd_stop() {
  local run=${INGEST_OLLAMA_RUN:-}
  [ -n "$run" ] || { log "INGEST_OLLAMA_RUN is not set: no server to stop"; return 0; }
  case $run in "$cache"/run.*) ;; *) die "INGEST_OLLAMA_RUN=$run is not a run folder of $cache" ;; esac
  stop_run "$run"
}

# cmd_log prints the end of the running server's log, for a failed test.
cmd_log() {
  local run=${INGEST_OLLAMA_RUN:-}
  if [ -f "$run/server.log" ]; then tail -n "${1:-60}" "$run/server.log" >&2; fi
}

# test_exit stops the servers when the tier ends, however it ends, with the
# first server's log first when it failed.
test_exit() {
  local status=$?
  if [ $status -ne 0 ]; then cmd_log; fi
  cmd_stop
  if [ -n "${INGEST_OLLAMA_RUN2:-}" ]; then INGEST_OLLAMA_RUN=$INGEST_OLLAMA_RUN2 cmd_stop; fi
  exit $status
}

# cmd_test runs the tier: the tests skip without INGEST_OLLAMA_HOST, so here,
# where it is set, they run or fail, never skip quietly.
cmd_test() {
  local exports start
  cmd_build
  (cd .ci/tinymodels && go vet ./...) # a module of its own: the main go vet skips it
  start=$SECONDS
  exports=$(cmd_start)
  eval "$exports"
  trap test_exit EXIT
  # A second server, for the test of a document's calls kept on one server
  # (its prompt cache): INGEST_OLLAMA_HOST2, INGEST_OLLAMA_RUN2.
  exports=$(cmd_start "$INGEST_OLLAMA_RUN")
  eval "$(sed -e 's/INGEST_OLLAMA_HOST=/INGEST_OLLAMA_HOST2=/' -e 's/INGEST_OLLAMA_RUN=/INGEST_OLLAMA_RUN2=/' \
    -e '/CHAT_MODEL\|EMBED_MODEL/d' <<<"$exports")"
  log "warm start of two servers took $((SECONDS - start))s"
  start=$SECONDS
  # One package at a time: both use the servers, whose one slot holds one prompt.
  go test -p 1 -count=1 -run '^TestOllamaReal' -v ./models/backends ./stages
  log "tests took $((SECONDS - start))s"
}

case "${1:-}" in
  build) cmd_build ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  log) cmd_log "${2:-}" ;;
  test) cmd_test ;;
  *) die "usage: $0 build|start|stop|log [LINES]|test" ;;
esac
