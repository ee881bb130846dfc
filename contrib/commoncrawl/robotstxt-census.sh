#!/usr/bin/env bash
# The census of one Common Crawl crawl's robots.txt subset, end to end, on one machine (or as the
# model of a cluster run: each shard below is what one Slurm array task or Kubernetes pod does).
#
#   contrib/commoncrawl/robotstxt-census.sh CC-MAIN-2025-33 /data/census/CC-MAIN-2025-33
#
# 1. Fetches the crawl's list of robots.txt archives, `crawl-data/CRAWL/robotstxt.paths.gz`
#    (one archive per main WARC file: 40-90 million captures in all), from PREFIX.
# 2. Scans it in SHARDS shards, PARALLEL at a time (`repcensus scan @LIST --prefix PREFIX
#    --shard I/SHARDS --resume`), each writing its JSON run summary to OUT/_summaries/.
# 3. Runs each failed shard again, up to RETRIES times: --resume skips the inputs it completed
#    and redoes the rest, replacing their parts (never duplicating rows).
# 4. Only when every shard succeeded: `repcensus hosts OUT` (each host's governing robots.txt and
#    the summaries, which need every shard's rows) and `repcensus report OUT`. A shard that
#    still fails stops the run here with exit 1, naming it; run this script again to go on (it
#    resumes), or look at `repcensus query errors_by_input OUT`.
#
# Settings (environment):
#   PREFIX    where the crawl is read from (default https://data.commoncrawl.org/; on AWS in
#             us-east-1, s3://commoncrawl/ with AWS credentials, or AWS_SKIP_SIGNATURE=true)
#   PATHS     the list, when not PREFIX/crawl-data/CRAWL/robotstxt.paths.gz (a file or URL)
#   SHARDS    shards (default 16); PARALLEL shards at a time (default 1)
#   THREADS   threads per shard (default: the cores / PARALLEL)
#   RETRIES   runs of a failed shard after its first (default 2)
#   REPCENSUS the binary (default repcensus on PATH)
#
# Common Crawl asks clients of https://data.commoncrawl.org/ for few connections and a backoff
# when it answers 503 (SlowDown) or 403: each shard reads THREADS archives at a time, one
# connection each, and repcensus backs off and retries on 503, 429 and 403 (exponentially, up to
# 8 times in a row per archive), so PARALLEL x THREADS is the number of connections: keep it to
# a handful over HTTPS.
set -euo pipefail
usage="usage: robotstxt-census.sh CRAWL OUT (settings in the environment: see the script's head)"
crawl=${1:?$usage}
out=${2:?$usage}
prefix=${PREFIX:-https://data.commoncrawl.org/}
[[ $prefix == */ ]] || prefix="$prefix/"
shards=${SHARDS:-16}
parallel=${PARALLEL:-1}
cores=$(nproc 2>/dev/null || echo 2)
threads=${THREADS:-$(( cores / parallel > 0 ? cores / parallel : 1 ))}
retries=${RETRIES:-2}
repcensus=${REPCENSUS:-repcensus}
paths=${PATHS:-${prefix}crawl-data/$crawl/robotstxt.paths.gz}

mkdir -p "$out/_summaries" "$out/_recipe"
list="$out/_recipe/robotstxt.paths.gz"
case $paths in
    http://* | https://*)
        if command -v curl >/dev/null; then
            curl -fsSL --retry 8 --retry-delay 2 -o "$list.tmp" "$paths"
        else
            python3 -c 'import shutil, sys, urllib.request
with urllib.request.urlopen(sys.argv[1]) as r, open(sys.argv[2], "wb") as f:
    shutil.copyfileobj(r, f)' "$paths" "$list.tmp"
        fi
        mv "$list.tmp" "$list" ;;
    s3://*)
        command -v aws >/dev/null || {
            echo "fetching $paths needs the aws CLI; or set PATHS to a copy of the list" >&2
            exit 2
        }
        aws s3 cp --only-show-errors "$paths" "$list" ;;
    *) cp "$paths" "$list" ;;
esac

# One shard; its exit code goes to OUT/_recipe/shard-I.rc.
run_shard() {
    local i=$1 rc=0
    "$repcensus" scan "@$list" --prefix "$prefix" --crawl "$crawl" --shard "$i/$shards" \
        --resume --out "$out" --threads "$threads" --quiet \
        --summary "$out/_summaries/shard-$i-of-$shards.json" || rc=$?
    echo "$rc" >"$out/_recipe/shard-$i.rc"
    [ "$rc" -eq 0 ] || echo "shard $i/$shards: exit $rc" >&2
}
export -f run_shard
export list prefix crawl shards out threads repcensus

todo=$(seq 0 $((shards - 1)))
for attempt in $(seq 0 "$retries"); do
    [ -n "$todo" ] || break
    [ "$attempt" -eq 0 ] || echo "running shards ${todo//$'\n'/ } again (attempt $((attempt + 1)))" >&2
    # xargs runs PARALLEL shards at a time; a shard's failure is in its .rc file, not here.
    echo "$todo" | xargs -P "$parallel" -I{} bash -c 'run_shard {}'
    todo=$(for i in $todo; do [ "$(cat "$out/_recipe/shard-$i.rc")" = 0 ] || echo "$i"; done)
done
if [ -n "$todo" ]; then
    echo "shards ${todo//$'\n'/ } of $shards still fail after $retries retries: robots_hosts and the" \
        "report are not derived. See repcensus query errors_by_input $out; run this script" \
        "again to resume." >&2
    exit 1
fi
"$repcensus" hosts "$out"
"$repcensus" report "$out" --out "$out/report.html"
echo "census of $crawl in $out: tables, summaries and report.html" >&2
