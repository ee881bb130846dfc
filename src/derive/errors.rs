//! `summary_errors`: a crawl's `errors` rows per scope and kind, with the inputs they were
//! found in, so that a nightly data-quality check of a whole crawl (`errors_by_kind.sql`)
//! reads a few rows instead of every problem. A damaged crawl has errors in the millions, a
//! few dozen kinds: memory is a set of input names per (scope, kind).

use super::plan::{CrawlParts, Derivation};
use super::read::{read_beside, summary_part};
use super::tally::missing;
use crate::parts::OutDir;
use crate::tables::{SummaryErrorRow, SummaryErrorsBuilder, Table};
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::{Array, StringArray};
use rustc_hash::FxHashSet;
use std::collections::BTreeMap;

/// The tables derived here.
pub const TABLES: [Table; 1] = [Table::SummaryErrors];

/// `summary_errors`, derived from `errors`.
pub struct ErrorsSummary;

impl Derivation for ErrorsSummary {
    fn from(&self) -> Table {
        Table::Errors
    }

    fn writes(&self) -> &'static [Table] {
        &TABLES
    }

    fn derive(&self, out: &OutDir, crawl: &str, parts: &CrawlParts<'_>) -> Result<Vec<u64>> {
        let mut tally = Tally::default();
        read_beside(out, parts.of(Table::Errors), &COLUMNS, &[], |part, b| {
            let col = |c: &str| {
                (b.column_by_name(c).and_then(|a| a.as_string_opt::<i32>()))
                    .with_context(|| missing(part, c))
            };
            tally.add(col("scope")?, col("kind")?, col("warc_file")?);
            Ok(())
        })?;
        let (part, rows) = summary_part(out, crawl, tally.rows())?;
        out.commit(vec![part])?;
        Ok(vec![rows])
    }

    /// Said only for a crawl with problems.
    fn say(&self, crawl: &str, rows: &[u64]) -> Option<String> {
        let kinds = *rows.first().filter(|n| **n > 0)?;
        let noun = if kinds == 1 { "kind" } else { "kinds" };
        Some(format!(
            "summary_errors  {crawl}: {kinds} {noun} of problem"
        ))
    }
}

/// The columns of `errors` read.
const COLUMNS: [&str; 3] = ["scope", "kind", "warc_file"];

/// A scope and a kind of problem, as `errors` writes them.
type ScopeKind = (Option<String>, Option<String>);

/// Problems and the inputs they were found in, per (scope, kind).
#[derive(Default)]
struct Tally {
    by_kind: BTreeMap<ScopeKind, (i64, FxHashSet<String>)>,
}

impl Tally {
    /// Count a batch of `errors` (its `scope`, `kind` and `warc_file`).
    fn add(&mut self, scope: &StringArray, kind: &StringArray, file: &StringArray) {
        let text = |a: &StringArray, i: usize| a.is_valid(i).then(|| a.value(i).to_string());
        for i in 0..scope.len() {
            let entry = (self.by_kind)
                .entry((text(scope, i), text(kind, i)))
                .or_default();
            entry.0 += 1;
            if let Some(f) = text(file, i) {
                entry.1.insert(f);
            }
        }
    }

    /// The summary's rows, by scope and kind.
    fn rows(self) -> SummaryErrorsBuilder {
        let mut b = SummaryErrorsBuilder::default();
        for ((scope, kind), (errors, inputs)) in self.by_kind {
            b.append(&SummaryErrorRow {
                scope: scope.as_deref(),
                kind: kind.as_deref(),
                errors: Some(errors),
                inputs: Some(inputs.len() as i64),
            });
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::TableBuilder;

    #[test]
    fn problems_are_counted_per_scope_and_kind_with_the_inputs_they_were_found_in() {
        let mut t = Tally::default();
        let a = |v: &[Option<&str>]| StringArray::from(v.to_vec());
        t.add(
            &a(&[
                Some("record"),
                Some("record"),
                Some("input"),
                Some("record"),
            ]),
            &a(&[
                Some("garbage"),
                Some("garbage"),
                Some("not_an_archive"),
                None,
            ]),
            &a(&[Some("a.warc.gz"), Some("a.warc.gz"), Some("b.txt"), None]),
        );
        t.add(
            &a(&[Some("record")]),
            &a(&[Some("garbage")]),
            &a(&[Some("c.warc.gz")]),
        );
        let got: Vec<_> = (t.by_kind.iter())
            .map(|((s, k), (n, inputs))| (s.as_deref(), k.as_deref(), *n, inputs.len()))
            .collect();
        assert_eq!(
            got,
            [
                (Some("input"), Some("not_an_archive"), 1, 1),
                (Some("record"), None, 1, 0),
                (Some("record"), Some("garbage"), 3, 2),
            ]
        );
        assert_eq!(t.rows().len(), 3);
    }

    #[test]
    fn a_crawl_with_problems_is_said_in_words_and_one_without_is_not() {
        let say = |n| ErrorsSummary.say("C", &[n]);
        assert_eq!(say(1).unwrap(), "summary_errors  C: 1 kind of problem");
        assert_eq!(say(6).unwrap(), "summary_errors  C: 6 kinds of problem");
        assert_eq!(say(0), None);
    }
}
