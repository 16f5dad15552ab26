#!/usr/bin/env bash
# One sharded night: the Indexed Job, then, when every shard has completed,
# the merge. Run it from a CronJob with kubectl, or from CI.
#   SHARDS=8 deploy/kubernetes/run.sh
# The image is pinned by digest: IMAGE=registry/name@sha256:…, else the one
# `IMAGE=registry/name just image-push` wrote to deploy/kubernetes/image.
# A tag is refused: shards of one run that start different builds make
# parts merge refuses.
# The corpus is the docs repository CORPUS_REPO at one commit: CORPUS_REF,
# else the head of CORPUS_BRANCH resolved here once (git ls-remote), so
# every shard, retries included, reads the same corpus.
# Once, before the first night: kubectl apply -f namespace.yaml; kubectl
# create -f secret.yaml (with the real values); kubectl apply -f
# config.yaml (again whenever it changes); and the bucket's rule that
# removes a failed night's parts (parts-lifecycle.json).
set -euo pipefail
cd "$(dirname "$0")"
export SHARDS="${SHARDS:-4}"
export RUN_ID="${RUN_ID:-$(date -u +%Y%m%dt%H%M%S)}" # lower case: part of the Jobs' names
TIMEOUT="${TIMEOUT:-12h}"
if [ -z "${IMAGE:-}" ] && [ -f image ]; then IMAGE=$(head -n1 image); fi
case "${IMAGE:-}" in
*@sha256:????????????????????????????????????????????????????????????????) export IMAGE ;;
"") echo "no image: run IMAGE=registry/name just image-push (it pins the digest in deploy/kubernetes/image), or set IMAGE=name@sha256:…" >&2; exit 2 ;;
*) echo "IMAGE=$IMAGE is not pinned by digest (name@sha256:…): shards could run different builds" >&2; exit 2 ;;
esac

export CORPUS_REPO="${CORPUS_REPO:-https://github.com/open-telemetry/opentelemetry.io}"
if [ -z "${CORPUS_REF:-}" ]; then
    CORPUS_REF=$(git ls-remote "$CORPUS_REPO" "refs/heads/${CORPUS_BRANCH:-main}" | cut -f1)
fi
if ! [[ "$CORPUS_REF" =~ ^[0-9a-f]{40}$ ]]; then
    echo "CORPUS_REF=$CORPUS_REF is not a commit (40 hex digits) of $CORPUS_REPO: shards could read different corpora" >&2
    exit 2
fi
export CORPUS_REF

vars='${RUN_ID} ${SHARDS} ${IMAGE} ${CORPUS_REPO} ${CORPUS_REF}'
envsubst "$vars" < shards.yaml | kubectl apply -f -
# A shard that exhausts its retries fails the Job (maxFailedIndexes: 0):
# wait for either outcome, and merge only after a complete one.
kubectl wait --for=condition=complete --timeout="$TIMEOUT" "job/knowledge-index-$RUN_ID" &
ok=$!
kubectl wait --for=condition=failed --timeout="$TIMEOUT" "job/knowledge-index-$RUN_ID" &
failed=$!
if ! wait -n "$ok" "$failed" || ! kill -0 "$failed" 2>/dev/null; then
    echo "shards of run $RUN_ID failed; nothing merged, the published snapshot is as it was (ingest list s3://knowledge/parts shows the parts left)" >&2
    kill "$ok" "$failed" 2>/dev/null || true
    exit 1
fi
kill "$failed" 2>/dev/null || true
envsubst "$vars" < merge.yaml | kubectl apply -f -
kubectl wait --for=condition=complete --timeout=1h "job/knowledge-merge-$RUN_ID"
