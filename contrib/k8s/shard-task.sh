#!/bin/sh
# One task of a Kubernetes indexed Job (see repcensus-indexed-job.yaml): the Job controller sets
# JOB_COMPLETION_INDEX (0..SHARDS-1); this scans shard JOB_COMPLETION_INDEX/SHARDS of MANIFEST
# into OUT (a shared volume), with a JSON run summary beside the tables. A pod restarted after
# a failure or eviction resumes: inputs it completed are skipped (--resume). SCAN_ARGS (split on
# spaces) goes to the scan: `--prefix s3://commoncrawl/ --crawl CC-MAIN-2025-33`, say.
set -eu
: "${JOB_COMPLETION_INDEX:?set by an indexed Job}" "${SHARDS:?number of completions}"
: "${MANIFEST:?path of the input list}" "${OUT:?output folder}"
mkdir -p "$OUT/_summaries"
# shellcheck disable=SC2086 # SCAN_ARGS is split on purpose
exec "${REPCENSUS:-repcensus}" scan "@$MANIFEST" --shard "$JOB_COMPLETION_INDEX/$SHARDS" \
    --resume --out "$OUT" --summary "$OUT/_summaries/shard-$JOB_COMPLETION_INDEX-of-$SHARDS.json" \
    ${SCAN_ARGS:-}
