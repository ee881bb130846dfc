//! The derivation plan: each family of derived tables that is made from a crawl's parts alone
//! (not from `robots_hosts`) declares what it reads, what it writes and how it derives one
//! crawl ([`Derivation`]); [`run`] runs the plan once for every crawl, and handles what every
//! family needs alike: the parts listed once per table, the tables of crawls that have nothing
//! left to derive them from removed, a crawl with a missing part failed, a failed derivation's
//! tables removed and said, and the rows each wrote counted for the run summary.
//!
//! A new summary of this kind is its own file implementing [`Derivation`], a line in
//! `derive/mod.rs`'s plan, its tables in the catalogue and its docs.

use crate::parts::{OutDir, PartRef};
use crate::tables::Table;
use anyhow::Result;
use std::collections::{BTreeMap, BTreeSet};

/// A family of derived tables, made per crawl from the crawl's parts.
pub trait Derivation: Sync {
    /// The table a crawl is derived from: a crawl with parts of it is derived, and the tables
    /// of a crawl with none left are removed.
    fn from(&self) -> Table;

    /// The other tables it reads (their parts are listed once and handed over).
    fn reads(&self) -> &'static [Table] {
        &[]
    }

    /// The tables it writes, committed together.
    fn writes(&self) -> &'static [Table];

    /// Derive one crawl and commit its tables; the rows written to each of [`Self::writes`],
    /// in that order.
    fn derive(&self, out: &OutDir, crawl: &str, parts: &CrawlParts<'_>) -> Result<Vec<u64>>;

    /// The run summary's line for a crawl it derived (`None`: nothing worth a line).
    fn say(&self, crawl: &str, rows: &[u64]) -> Option<String> {
        let said: Vec<String> = match (self.writes(), rows) {
            ([_], [n]) => vec![format!("{n} rows")],
            (tables, rows) => (tables.iter().zip(rows))
                .map(|(t, n)| format!("{n} rows of {}", t.name()))
                .collect(),
        };
        Some(format!("{}  {crawl}: {}", self.name(), said.join(", ")))
    }

    /// How the run summary names the family (when it fails, say).
    fn name(&self) -> &'static str {
        self.writes()[0].name()
    }
}

/// The parts of one crawl, for each table a derivation reads.
pub struct CrawlParts<'a> {
    crawl: &'a str,
    listed: &'a Listed,
}

impl CrawlParts<'_> {
    /// The crawl's committed parts of `table` (none when the derivation did not declare it).
    pub fn of(&self, table: Table) -> &[PartRef] {
        (self.listed.get(&table))
            .and_then(|by_crawl| by_crawl.get(self.crawl))
            .map_or(&[][..], Vec::as_slice)
    }
}

/// What one derivation made for one crawl.
#[derive(Debug, Clone)]
pub struct Derived {
    pub crawl: String,
    /// The tables written and their rows.
    pub rows: Vec<(Table, u64)>,
    /// The run summary's line.
    pub said: Option<String>,
}

/// What running the plan did.
#[derive(Debug, Default)]
pub struct Ran {
    pub derived: Vec<Derived>,
    /// Crawls not derived because a counted part is missing (crawl, why).
    pub failed: Vec<(String, String)>,
    /// Crawls whose derivation failed, its tables removed (crawl, why).
    pub summaries_failed: Vec<(String, String)>,
}

/// The committed parts of some tables, by table and crawl.
pub type Listed = BTreeMap<Table, BTreeMap<String, Vec<PartRef>>>;

/// Run each derivation of `plan` for every crawl with parts of what it is derived from (those
/// in `only`), after removing its tables from crawls with none left. `missing` is each crawl's
/// missing parts: such a crawl is failed, not derived from the rest. `listed` holds the tables
/// the caller listed already (a listing of an `s3://` output is a request per page of keys);
/// the others are listed here, once.
pub fn run(
    plan: &[&dyn Derivation],
    out: &OutDir,
    only: Option<&BTreeSet<String>>,
    missing: &BTreeMap<String, Vec<String>>,
    mut listed: Listed,
) -> Result<Ran> {
    for d in plan {
        for &t in std::iter::once(&d.from()).chain(d.reads()) {
            if let std::collections::btree_map::Entry::Vacant(v) = listed.entry(t) {
                v.insert(parts_by_crawl(out, t)?);
            }
        }
    }
    let mut ran = Ran::default();
    for d in plan {
        let from = &listed[&d.from()];
        for t in d.writes() {
            for (crawl, _) in out.table_parts(t.name())? {
                if !from.contains_key(&crawl) {
                    out.remove_parts(t.name(), &crawl)?;
                }
            }
        }
        let crawls = from.keys().filter(|c| only.is_none_or(|o| o.contains(*c)));
        for crawl in crawls {
            if let Some(lost) = missing.get(crawl) {
                if !ran.failed.iter().any(|(c, _)| c == crawl) {
                    let why = crate::tables::missing_message(lost);
                    ran.failed.push((crawl.clone(), why));
                }
                continue;
            }
            let parts = CrawlParts {
                crawl,
                listed: &listed,
            };
            match d.derive(out, crawl, &parts) {
                Ok(rows) => ran.derived.push(Derived {
                    crawl: crawl.clone(),
                    said: d.say(crawl, &rows),
                    rows: d.writes().iter().copied().zip(rows).collect(),
                }),
                Err(e) => {
                    for t in d.writes() {
                        out.remove_parts(t.name(), crawl)?;
                    }
                    let why = format!("{}: {e:#}", d.name());
                    ran.summaries_failed.push((crawl.clone(), why));
                }
            }
        }
    }
    Ok(ran)
}

/// The committed parts of `table`, by crawl.
pub fn parts_by_crawl(out: &OutDir, table: Table) -> Result<BTreeMap<String, Vec<PartRef>>> {
    let mut by_crawl: BTreeMap<String, Vec<PartRef>> = BTreeMap::new();
    for (crawl, part) in out.table_parts(table.name())? {
        by_crawl.entry(crawl).or_default().push(part);
    }
    Ok(by_crawl)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Two;

    impl Derivation for Two {
        fn from(&self) -> Table {
            Table::PageSignals
        }
        fn writes(&self) -> &'static [Table] {
            &[Table::SummaryPageDirectives, Table::SummaryPageHeaders]
        }
        fn derive(&self, _: &OutDir, _: &str, _: &CrawlParts<'_>) -> Result<Vec<u64>> {
            Ok(vec![3, 0])
        }
    }

    struct One;

    impl Derivation for One {
        fn from(&self) -> Table {
            Table::LlmsTxt
        }
        fn writes(&self) -> &'static [Table] {
            &[Table::SummaryLlmsTxt]
        }
        fn derive(&self, _: &OutDir, _: &str, _: &CrawlParts<'_>) -> Result<Vec<u64>> {
            Ok(vec![6])
        }
    }

    #[test]
    fn a_derivation_is_said_by_its_first_table_and_the_rows_of_each() {
        assert_eq!(One.say("C", &[6]).unwrap(), "summary_llms_txt  C: 6 rows");
        assert_eq!(
            Two.say("C", &[3, 0]).unwrap(),
            "summary_page_directives  C: 3 rows of summary_page_directives, 0 rows of \
             summary_page_headers"
        );
    }
}
