"""repcensus on Spark: a crawl's manifest in, the census tables out.

Follows Common Crawl's cc-pyspark conventions: the job takes a manifest (a list of WARC paths,
one per line, optionally gzipped, like a crawl's warc.paths.gz) and an output location, and
spreads the manifest over `--num_input_partitions` Spark tasks. Each task runs
`repcensus scan @MANIFEST --shard I/N --out OUT` on its executor, so

* the part names are those of one whole run, and the union of the tasks' tables equals a
  single-process run's (tested in local mode);
* a task that fails or is re-attempted by Spark redoes only what it had not completed
  (`--resume`), and never duplicates rows;
* every task reports its outcome: exit code, its JSON run summary and the end of its log.

When the tasks are done, the driver runs `repcensus hosts OUT` (robots_hosts: each host's
effective robots.txt capture, which needs every shard's robots_files; a shard does not write
it) and `repcensus report OUT` (the census as one HTML page, OUT/_spark/<app id>.html) when
every task succeeded, prints a per-task table, writes all outcomes as JSON to
OUT/_spark/<app id>.json (for an s3:// OUT both are made locally and put there with boto3),
and exits 1 when any
task, `repcensus hosts` or `repcensus report` exited non-zero (each task's repcensus exit code is in the table:
1 when some input could not be read, or had errors with --fail-on-error; 2 for usage or output
errors).

    spark-submit --files warc.paths.gz contrib/spark/repcensus_spark.py \\
        warc.paths.gz /shared/census --num_input_partitions 400 \\
        --prefix https://data.commoncrawl.org/

A targeted census (only the records an index query selected, fetched by byte range) takes a
records list instead of a manifest, with --records: a Parquet file or folder of parts, CSV or
JSON lines naming `warc_filename`, `warc_record_offset`, `warc_record_length` (as Common Crawl's
columnar index has them; see README). Each task then runs `repcensus scan --records LIST
--shard I/N`: the list is cut into inputs of --records-per-input records, and task I takes
every N-th of them.

    spark-submit contrib/spark/repcensus_spark.py homepages.parquet /shared/census \
        --records --num_input_partitions 40 --prefix https://data.commoncrawl.org/

The manifest (or list) is shipped to the executors with SparkContext.addFile, so it need only exist on the
driver. OUT must be a folder every executor can write (a shared file system) or an s3:// prefix
(the AWS_* settings then reach the executors through their environment); the `repcensus` binary
must be on the executors' PATH or given with --repcensus (e.g. shipped with --files).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("input", help="manifest: WARC paths or URLs, one per line (may be gzipped)")
    p.add_argument("output", help="output folder of the tables (shared by all executors)")
    p.add_argument("--num_input_partitions", type=int, default=None,
                   help="Spark tasks (shards) to split the manifest into "
                        "(default: the default parallelism)")
    p.add_argument("--prefix", default=None,
                   help="put before the manifest's relative paths (repcensus scan --prefix)")
    p.add_argument("--repcensus", default=os.environ.get("REPCENSUS", "repcensus"),
                   help="the repcensus binary on the executors (and on the driver, which runs "
                        "`repcensus hosts` at the end)")
    p.add_argument("--threads", type=int, default=1,
                   help="threads per task (one per Spark core is the usual choice)")
    p.add_argument("--crawl", default=None, help="crawl name (repcensus scan --crawl)")
    p.add_argument("--master", default=None,
                   help="Spark master, when not run by spark-submit (e.g. local[2])")
    p.add_argument("--records", action="store_true",
                   help="the input is a records list (repcensus scan --records), not a manifest")
    p.add_argument("--records-per-input", type=int, default=None,
                   help="records per targeted input (repcensus scan --records-per-input)")
    p.add_argument("--fetch-concurrency", type=int, default=None,
                   help="range requests in flight per task (repcensus scan --fetch-concurrency)")
    p.add_argument("--fail-on-error", action="store_true",
                   help="count tasks whose inputs had errors rows as failed")
    return p.parse_args(argv)


def run_shard(index, total, manifest, args):
    """Run one shard with repcensus; return its outcome as a dict (never raises)."""
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="repcensus-spark-") as tmp:
        summary = os.path.join(tmp, "summary.json")
        source = ["--records", manifest] if args.records else ["@" + manifest]
        cmd = [args.repcensus, "scan", "--quiet"] + source + [
               "--shard", f"{index}/{total}",
               "--out", args.output, "--threads", str(args.threads),
               "--summary", summary]
        cmd.append("--resume")
        if args.prefix:
            cmd += ["--prefix", args.prefix]
        if args.crawl:
            cmd += ["--crawl", args.crawl]
        if args.records_per_input:
            cmd += ["--records-per-input", str(args.records_per_input)]
        if args.fetch_concurrency:
            cmd += ["--fetch-concurrency", str(args.fetch_concurrency)]
        if args.fail_on_error:
            cmd.append("--fail-on-error")
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True)
            code, log = proc.returncode, proc.stderr
        except OSError as e:
            code, log = 127, f"cannot run {args.repcensus}: {e}"
        try:
            with open(summary) as f:
                summ = json.load(f)
        except (OSError, ValueError):
            summ = None
    return {
        "shard": index,
        "shards": total,
        "exit_code": code,
        "seconds": round(time.time() - started, 3),
        "summary": summ,
        "log_tail": log[-4000:],
    }


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from pyspark import SparkFiles
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("repcensus")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    n = args.num_input_partitions or sc.defaultParallelism
    manifest = os.path.abspath(args.input)
    sc.addFile(manifest, recursive=os.path.isdir(manifest))
    name = os.path.basename(manifest)

    def task(i):
        return run_shard(i, n, SparkFiles.get(name), args)

    outcomes = sorted(sc.parallelize(range(n), n).map(task).collect(),
                      key=lambda o: o["shard"])

    failed = [o for o in outcomes if o["exit_code"] != 0]
    print(f"{'shard':>7} {'exit':>4} {'inputs':>6} {'records':>9} {'errors':>6} {'seconds':>8}")
    for o in outcomes:
        s = o["summary"] or {}
        print(f"{o['shard']:>3}/{n:<3} {o['exit_code']:>4} {s.get('inputs', '-'):>6} "
              f"{s.get('records', '-'):>9} {s.get('errors', '-'):>6} {o['seconds']:>8}")
    for o in failed:
        print(f"shard {o['shard']}/{n} failed (exit {o['exit_code']}):\n{o['log_tail']}",
              file=sys.stderr)
    if failed:
        # robots_hosts and the summaries need every shard's rows: not derived from some.
        skipped = {"exit_code": None, "log_tail": "not run: some tasks failed; submit the job "
                   "again with the same arguments (the tasks resume)"}
        hosts, census = skipped, skipped
        print(f"{len(failed)} tasks failed: repcensus hosts and report not run", file=sys.stderr)
    else:
        hosts = run_driver(args, ["hosts", args.output]
                           + (["--crawl", args.crawl] if args.crawl else []))
    remote = args.output.startswith("s3://")
    # An s3:// output's page and outcomes are made in a local folder, then put under OUT/_spark/.
    report_dir = (tempfile.mkdtemp(prefix="repcensus-spark-") if remote
                  else os.path.join(args.output, "_spark"))
    os.makedirs(report_dir, exist_ok=True)
    page = os.path.join(report_dir, f"{sc.applicationId}.html")
    if not failed:
        census = run_driver(args, ["report", args.output, "--out", page])
    report = os.path.join(report_dir, f"{sc.applicationId}.json")
    with open(report + ".tmp", "w") as f:
        json.dump({"manifest": manifest, "shards": n, "tasks": outcomes, "hosts": hosts,
                   "report": census}, f, indent=2)
    os.replace(report + ".tmp", report)
    if remote:
        put_failed = False
        for local in (page, report):
            if os.path.exists(local):
                put_failed |= not put_s3(local, f"{args.output.rstrip('/')}/_spark/"
                                         f"{os.path.basename(local)}")
        report = f"{args.output.rstrip('/')}/_spark/{sc.applicationId}.json"
        if put_failed:
            census = {"exit_code": 1}
            print(f"the page and outcomes stay in {report_dir}", file=sys.stderr)
        else:
            shutil.rmtree(report_dir, ignore_errors=True)
    print(f"{n - len(failed)} of {n} tasks succeeded; outcomes in {report}")
    spark.stop()
    return 1 if failed or hosts["exit_code"] != 0 or census["exit_code"] != 0 else 0


def put_s3(local, url):
    """Upload a local file to an s3:// URL with boto3 (AWS_ENDPOINT_URL or AWS_ENDPOINT names
    an S3-compatible server); whether it worked (a failure is said on stderr)."""
    try:
        import boto3
    except ImportError:
        print(f"cannot put {local} to {url}: boto3 is not installed", file=sys.stderr)
        return False
    bucket, _, key = url[len("s3://"):].partition("/")
    endpoint = os.environ.get("AWS_ENDPOINT_URL") or os.environ.get("AWS_ENDPOINT")
    try:
        boto3.client("s3", endpoint_url=endpoint).upload_file(local, bucket, key)
    except Exception as e:  # any failure of the upload: said, and the job fails
        print(f"cannot put {local} to {url}: {e}", file=sys.stderr)
        return False
    return True


def run_driver(args, command):
    """Run `repcensus COMMAND...` on the driver once every shard is done; its outcome."""
    cmd = [args.repcensus] + command
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
        code, log = proc.returncode, proc.stderr
    except OSError as e:
        code, log = 127, f"cannot run {args.repcensus}: {e}"
    print(log, end="", file=sys.stderr if code else sys.stdout)
    return {"exit_code": code, "log_tail": log[-4000:]}


if __name__ == "__main__":
    sys.exit(main())
