//! The run summary: what a scan did, counted input by input (read now, or found complete by
//! `--resume`, through one [`ScanSummary::add_input`]), printed at the end and written as JSON
//! with `--summary`.

use crate::derive::hosts::HostsSummary;
use crate::tables::{Table, SCHEMA_VERSION};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// What one complete input adds to the summary.
#[derive(Debug, Clone, Default)]
pub struct InputTotals {
    /// The crawl its rows are under.
    pub crawl: String,
    pub records: u64,
    /// `errors` rows.
    pub errors: u64,
    /// Rows per table (the `inputs` row itself not counted).
    pub rows: Vec<(Table, u64)>,
    /// `errors` rows by kind.
    pub errors_by_kind: BTreeMap<String, u64>,
}

/// What a scan did.
#[derive(Debug, Default, Clone)]
pub struct ScanSummary {
    pub inputs: usize,
    /// Inputs skipped by `--resume`: an earlier run completed them (their rows are counted).
    pub inputs_resumed: usize,
    pub inputs_failed: usize,
    pub inputs_with_errors: usize,
    pub records: u64,
    pub robots_captures: u64,
    pub errors: u64,
    /// `errors` rows by kind.
    pub errors_by_kind: BTreeMap<String, u64>,
    /// Rows written per table.
    pub rows: BTreeMap<String, u64>,
    pub bytes: u64,
    pub seconds: f64,
    /// The process's peak resident memory so far (Linux `VmHWM`: mapped archive pages included;
    /// `None` where it cannot be read).
    pub peak_rss_bytes: Option<u64>,
    /// Inputs that could not be read, with the reason.
    pub failures: Vec<(PathBuf, String)>,
    /// The crawls of the run's inputs.
    pub crawls: BTreeSet<String>,
    /// What deriving `robots_hosts` did at the end, if it ran.
    pub hosts: Option<HostsSummary>,
    /// Of a targeted scan (`scan --records`): range requests made (retries included), retries,
    /// and bytes fetched.
    pub fetch: Option<FetchTotals>,
    /// What the user should know before trusting the tables (rows the folder will hold twice).
    pub warnings: Vec<String>,
}

/// The range requests of a targeted scan.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FetchTotals {
    pub requests: u64,
    pub retries: u64,
    pub bytes: u64,
    /// Records the list named (each once).
    pub records: u64,
}

impl ScanSummary {
    /// Count a complete input, its `inputs` row included; `failure` is its path and reason when
    /// it could not be read.
    /// Inputs done so far (each adds its `inputs` row).
    pub(super) fn inputs_done(&self) -> u64 {
        self.rows.get(Table::Inputs.name()).copied().unwrap_or(0)
    }

    pub(super) fn add_input(&mut self, t: &InputTotals, failure: Option<(PathBuf, String)>) {
        self.crawls.insert(t.crawl.clone());
        for (table, n) in &t.rows {
            *self.rows.entry(table.name().to_string()).or_default() += n;
            if *table == Table::RobotsFiles {
                self.robots_captures += n;
            }
        }
        *self
            .rows
            .entry(Table::Inputs.name().to_string())
            .or_default() += 1;
        for (k, n) in &t.errors_by_kind {
            *self.errors_by_kind.entry(k.clone()).or_default() += n;
        }
        self.records += t.records;
        self.errors += t.errors;
        match failure {
            Some(f) => {
                self.inputs_failed += 1;
                self.failures.push(f);
            }
            None if t.errors > 0 => self.inputs_with_errors += 1,
            None => {}
        }
    }

    /// The machine-readable run summary (`scan --summary FILE`), for monitoring.
    /// Whether the run did all it was asked: no input failed, every crawl's `robots_hosts` and
    /// summaries were derived (one that was not is left stale), and, with `fail_on_error`
    /// (`--fail-on-error`), no input had errors rows. The command exits 1 otherwise.
    pub fn succeeded(&self, fail_on_error: bool) -> bool {
        let derivation_failed = (self.hosts.as_ref())
            .is_some_and(|h| !h.failed.is_empty() || !h.summaries_failed.is_empty());
        self.inputs_failed == 0
            && self.nothing_read().is_none()
            && !derivation_failed
            && !(fail_on_error && self.inputs_with_errors > 0)
    }

    /// When this run read inputs but not one record of them, and met errors doing so (a wrong
    /// `--prefix`, a server that answers every request with something else than the archive):
    /// the line that says so. Such a run is a failure, whatever its inputs' outcomes.
    pub fn nothing_read(&self) -> Option<String> {
        let read = self.inputs.saturating_sub(self.inputs_resumed);
        (read > 0 && self.records == 0 && self.errors > 0).then(|| {
            format!(
                "nothing was read: not one record of the {read} input{} ({} errors rows: \
                 `repcensus query errors_by_input OUT` says why; a wrong --prefix?)",
                if read == 1 { "" } else { "s" },
                self.errors
            )
        })
    }

    /// Write [`ScanSummary::to_json`] to `path`, beside it first and then moved into place.
    pub fn write_json(&self, path: &std::path::Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(&self.to_json())? + "\n";
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }

    pub fn to_json(&self) -> serde_json::Value {
        let mb = self.bytes as f64 / 1e6;
        serde_json::json!({
            "tool_version": env!("CARGO_PKG_VERSION"),
            "schema_version": SCHEMA_VERSION,
            "inputs": self.inputs,
            "inputs_resumed": self.inputs_resumed,
            "inputs_failed": self.inputs_failed,
            "inputs_with_errors": self.inputs_with_errors,
            "records": self.records,
            "robots_captures": self.robots_captures,
            "rows": self.rows,
            "errors": self.errors,
            "errors_by_kind": self.errors_by_kind,
            "bytes": self.bytes,
            "seconds": self.seconds,
            "mb_per_second": if self.seconds > 0.0 { mb / self.seconds } else { 0.0 },
            "peak_rss_bytes": self.peak_rss_bytes,
            "failures": self.failures.iter().map(|(p, why)| serde_json::json!({
                "path": p.to_string_lossy(),
                "error": why,
            })).collect::<Vec<_>>(),
            "crawls": self.crawls,
            "warnings": self.warnings,
            "robots_hosts": self.hosts.as_ref().map(HostsSummary::to_json),
            "fetch": self.fetch.map(|f| serde_json::json!({
                "records_listed": f.records,
                "requests": f.requests,
                "retries": f.retries,
                "bytes": f.bytes,
            })),
        })
    }

    /// The one-screen summary printed at the end of a scan.
    pub fn render(&self) -> String {
        let mb = self.bytes as f64 / 1e6;
        let rate = if self.seconds > 0.0 {
            mb / self.seconds
        } else {
            0.0
        };
        // Where to look when something went wrong.
        let errors_hint = if self.errors > 0 {
            " (which, where: queries/errors_by_input.sql)"
        } else {
            ""
        };
        let mut s = format!(
            "inputs        {} ({} failed, {} with errors)\nrecords       {}\nrobots.txt    {} captures\nerrors        {}{errors_hint}\n",
            self.inputs, self.inputs_failed, self.inputs_with_errors, self.records, self.robots_captures, self.errors
        );
        // A targeted scan reads no archive whole: what it fetched is its measure.
        match &self.fetch {
            None => s.push_str(&format!(
                "read          {mb:.1} MB of archives in {:.2} s ({rate:.1} MB/s)\n",
                self.seconds
            )),
            Some(f) => s.push_str(&format!(
                "fetched       {:.1} MB: {} listed records by {} range requests ({} retried) in {:.2} s\n",
                f.bytes as f64 / 1e6,
                f.records,
                f.requests,
                f.retries,
                self.seconds
            )),
        }
        if let Some(b) = self.peak_rss_bytes {
            s.push_str(&format!("memory        {:.0} MB at peak\n", b as f64 / 1e6));
        }
        if let Some(h) = &self.hosts {
            s.push_str(&h.render());
        }
        if self.inputs_resumed > 0 {
            s.push_str(&format!(
                "resumed       {} inputs complete from an earlier run (counted above)\n",
                self.inputs_resumed
            ));
        }
        for (p, why) in self.failures.iter().take(10) {
            s.push_str(&format!("failed        {}: {why}\n", p.display()));
        }
        if self.failures.len() > 10 {
            s.push_str(&format!(
                "failed        ... and {} more (see the inputs table)\n",
                self.failures.len() - 10
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_targeted_scan_says_what_it_fetched_not_an_empty_read() {
        let whole = ScanSummary {
            bytes: 6_300_000,
            seconds: 1.0,
            ..Default::default()
        };
        assert!(whole
            .render()
            .contains("read          6.3 MB of archives in 1.00 s"));
        let targeted = ScanSummary {
            fetch: Some(FetchTotals {
                requests: 37,
                retries: 1,
                records: 1685,
                bytes: 800_000,
            }),
            seconds: 2.0,
            ..Default::default()
        };
        let said = targeted.render();
        assert!(!said.contains("read  "), "{said}");
        assert!(
            said.contains(
                "fetched       0.8 MB: 1685 listed records by 37 range requests (1 retried)"
            ),
            "{said}"
        );
    }
}
