#!/bin/bash
# Submit a crawl's census to Slurm: an array job of SHARDS tasks (repcensus-array.sbatch, one
# shard each), then one job that derives robots_hosts and the summaries and writes the report,
# queued with afterok so that it runs only when every task succeeded.
#
#   contrib/slurm/submit.sh MANIFEST OUT SHARDS [SCAN OPTION...]
#   contrib/slurm/submit.sh robotstxt.paths.gz /shared/census/CC-MAIN-2025-33 100 \
#       --prefix s3://commoncrawl/ --crawl CC-MAIN-2025-33
#
# SCAN OPTIONs go to every task's `repcensus scan`. SBATCH_ARGS (split on spaces) go to both
# sbatch calls (--partition, --account, ...). If a task fails, the second job never starts:
# cancel it (`scancel`), and run this again with the same arguments; the tasks resume
# (--resume), reading only what the failed shards had not completed. Prints the two job ids.
set -euo pipefail
usage="usage: submit.sh MANIFEST OUT SHARDS [SCAN OPTION...]"
manifest=$(realpath "${1:?$usage}")
out=${2:?$usage}
shards=${3:?$usage}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
repcensus=${REPCENSUS:-repcensus}
# shellcheck disable=SC2086 # split on purpose
array=$(SHARDS=$shards sbatch --parsable ${SBATCH_ARGS:-} --export=ALL,SHARDS="$shards" \
    --array="0-$((shards - 1))" "$here/repcensus-array.sbatch" "$manifest" "$out" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
after=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=repcensus-hosts \
    --dependency="afterok:$array" --output="repcensus-hosts-%j.log" \
    --wrap "'$repcensus' hosts '$out' && '$repcensus' report '$out' --out '$out/report.html'")
echo "array job $array ($shards tasks); hosts and report: job ${after%%;*} (after all succeed)"
