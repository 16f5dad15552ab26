#!/usr/bin/env bash
# One sharded night: the Indexed Job, then, when every shard has completed,
# the merge. Run it from a CronJob with kubectl, or from CI.
#   SHARDS=8 deploy/kubernetes/run.sh
set -euo pipefail
cd "$(dirname "$0")"
export SHARDS="${SHARDS:-4}"
export RUN_ID="${RUN_ID:-$(date -u +%Y%m%dt%H%M%S)}" # lower case: part of the Jobs' names
TIMEOUT="${TIMEOUT:-12h}"

envsubst '${RUN_ID} ${SHARDS}' < shards.yaml | kubectl apply -f -
# A shard that exhausts its retries fails the Job (maxFailedIndexes: 0):
# wait for either outcome, and merge only after a complete one.
kubectl wait --for=condition=complete --timeout="$TIMEOUT" "job/knowledge-index-$RUN_ID" &
ok=$!
kubectl wait --for=condition=failed --timeout="$TIMEOUT" "job/knowledge-index-$RUN_ID" &
failed=$!
if ! wait -n "$ok" "$failed" || ! kill -0 "$failed" 2>/dev/null; then
    echo "shards of run $RUN_ID failed; nothing merged, the published snapshot is as it was" >&2
    kill "$ok" "$failed" 2>/dev/null || true
    exit 1
fi
kill "$failed" 2>/dev/null || true
envsubst '${RUN_ID} ${SHARDS}' < merge.yaml | kubectl apply -f -
kubectl wait --for=condition=complete --timeout=1h "job/knowledge-merge-$RUN_ID"
