//! The `ranks` table: ranked lists of sites (Tranco, CrUX, a list of domains) as the studies
//! use them, one row per ranked name, partitioned by list (`ranks/list=NAME/`) rather than by
//! crawl: a list is matched to every crawl. `repcensus ranks` writes it (`crate::ranks`).

use super::SCHEMA_VERSION;
use crate::parts::TableDesc;
use arrow_array::builder::{Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use std::sync::Arc;

/// The table's name and folder.
pub const RANKS: &str = "ranks";
/// The folder key of its parts: `ranks/list=NAME/`.
pub const RANKS_KEY: &str = "list";

str_enum! {
    /// The smallest tier of the studies that holds a rank (`ranks.tier`). The studies' tiers are
    /// cumulative (`top10k` holds ranks 1 to 10,000, so `top1k` too): a query counts a tier
    /// as the ranks up to its [`Tier::limit`].
    pub enum Tier {
        Top1k = "top1k",
        Top10k = "top10k",
        Top100k = "top100k",
        Top1m = "top1m",
        /// Beyond 1,000,000.
        Rest = "rest",
    }
}

impl Tier {
    /// The last rank of the tier (none for `rest`).
    pub fn limit(self) -> Option<i64> {
        match self {
            Tier::Top1k => Some(1_000),
            Tier::Top10k => Some(10_000),
            Tier::Top100k => Some(100_000),
            Tier::Top1m => Some(1_000_000),
            Tier::Rest => None,
        }
    }

    /// The smallest tier that holds `rank`.
    pub fn of(rank: i64) -> Tier {
        (Tier::ALL.iter().copied())
            .find(|t| t.limit().is_some_and(|l| rank <= l))
            .unwrap_or(Tier::Rest)
    }
}

str_enum! {
    /// What a ranked name names (`ranks.kind`).
    pub enum RankKind {
        /// A registered domain (`example.co.uk`): it matches every host of that domain.
        Domain = "domain",
        /// A host (a CrUX origin's, or a name below its registered domain): it matches that
        /// host only.
        Host = "host",
    }
}

/// One ranked name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankRow {
    /// The host or domain, as `robots_files.host` writes hosts (lowercase, punycode).
    pub name: String,
    pub kind: RankKind,
    pub rank: i64,
    /// Its registered domain, when the public suffix list gives one.
    pub registered_domain: Option<String>,
}

/// The table's columns.
pub fn ranks_desc() -> TableDesc {
    let text = |n: &str| Field::new(n, DataType::Utf8, true);
    TableDesc {
        name: RANKS,
        schema: Arc::new(Schema::new(vec![
            text("list"),
            text("name"),
            text("kind"),
            Field::new("rank", DataType::Int64, true),
            text("tier"),
            text("registered_domain"),
        ])),
        plain_columns: vec!["name", "registered_domain"],
        from_runs: false,
        schema_version: SCHEMA_VERSION,
        small_parts: false,
    }
}

/// The rows of list `list` as one batch.
pub fn ranks_batch(list: &str, rows: &[RankRow]) -> RecordBatch {
    let (mut lists, mut names, mut kinds) = (
        StringBuilder::new(),
        StringBuilder::new(),
        StringBuilder::new(),
    );
    let (mut ranks, mut tiers, mut domains) = (
        Int64Builder::new(),
        StringBuilder::new(),
        StringBuilder::new(),
    );
    for r in rows {
        lists.append_value(list);
        names.append_value(&r.name);
        kinds.append_value(r.kind.as_str());
        ranks.append_value(r.rank);
        tiers.append_value(Tier::of(r.rank).as_str());
        domains.append_option(r.registered_domain.as_deref());
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(lists.finish()),
        Arc::new(names.finish()),
        Arc::new(kinds.finish()),
        Arc::new(ranks.finish()),
        Arc::new(tiers.finish()),
        Arc::new(domains.finish()),
    ];
    RecordBatch::try_new(ranks_desc().schema, columns).expect("the ranks schema")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rank_falls_in_the_smallest_tier_that_holds_it() {
        assert_eq!(Tier::of(1), Tier::Top1k);
        assert_eq!(Tier::of(1_000), Tier::Top1k);
        assert_eq!(Tier::of(1_001), Tier::Top10k);
        assert_eq!(Tier::of(1_000_000), Tier::Top1m);
        assert_eq!(Tier::of(1_000_001), Tier::Rest);
    }
}
