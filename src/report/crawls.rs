//! What the page knows of each crawl beside its section (what was read, when, its headline
//! figures), and which crawls can be compared: the overview and the change between crawls
//! read it.

use super::facts::{Agents, Read};

/// A crawl's figures for the overview and the change between crawls.
pub(super) struct CrawlFigures {
    pub crawl: String,
    pub read: Read,
    /// None: no robots.txt host, or no agent summaries.
    pub agents: Option<Agents>,
    /// Hosts writing Content-Signal, of hosts whose latest capture was parsed (none: no such
    /// line or no robots_rules).
    pub content_signal: Option<(u64, u64)>,
    /// HTML pages with a robots meta tag or header, and 2xx HTML pages (none: no such page).
    pub pages_any: Option<(u64, u64)>,
    /// The earlier studies' "any AI agent" rows (none: no ranked list), or why they could not
    /// be counted.
    pub studies: Result<Vec<super::studies::Row>, String>,
}

impl CrawlFigures {
    /// The order of crawls on the page: by their earliest robots.txt capture (as
    /// agents_blocking_change.sql), crawls without one after the others, each by name.
    pub(super) fn order_key(&self) -> (bool, Option<i64>, &str) {
        let first = self.read.first_capture;
        (first.is_none(), first, &self.crawl)
    }

    /// The day of the crawl's earliest robots.txt capture (days since 1970), which orders it.
    pub(super) fn first_day(&self) -> Option<f64> {
        Some(self.read.first_capture? as f64 / 86_400e6)
    }

    /// "2024-05-18 to 2024-05-31", or one day; none without robots.txt captures.
    pub(super) fn period(&self) -> Option<String> {
        let (first, last) = (day(self.read.first_capture?), day(self.read.last_capture?));
        Some(if first == last {
            first
        } else {
            format!("{first} to {last}")
        })
    }
}

/// A time in microseconds since 1970 as its UTC day, `2024-05-18`.
pub(super) fn day(micros: i64) -> String {
    chrono::DateTime::from_timestamp_micros(micros)
        .map_or_else(|| "?".to_string(), |t| t.format("%Y-%m-%d").to_string())
}

/// The collection a crawl belongs to (`archive::source::input::crawl_collection`): crawls of one are
/// comparable.
pub(super) fn collection(crawl: &str) -> Option<String> {
    crate::archive::source::input::crawl_collection(crawl)
}

/// For crawls in page order: each one's collection as a small number, none for a crawl no
/// other is comparable with.
pub(super) fn collections(crawls: &[&str]) -> Vec<Option<usize>> {
    let keys: Vec<Option<String>> = crawls.iter().map(|c| collection(c)).collect();
    let mut count: std::collections::HashMap<&str, usize> = Default::default();
    for k in keys.iter().flatten() {
        *count.entry(k).or_default() += 1;
    }
    let mut ids: std::collections::HashMap<&str, usize> = Default::default();
    (keys.iter())
        .map(|k| {
            let k = k.as_deref().filter(|k| count[k] >= 2)?;
            let next = ids.len();
            Some(*ids.entry(k).or_insert(next))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawls_whose_names_differ_only_in_digits_are_one_collection() {
        assert_eq!(collection("CC-MAIN-2024-22"), collection("CC-MAIN-2025-08"));
        assert_ne!(
            collection("CC-MAIN-2024-22"),
            collection("CC-MAIN-GENERATED")
        );
        assert_eq!(collection("unknown"), None);
        let ids = collections(&[
            "unknown",
            "CC-MAIN-2024-22",
            "archive.org-shallow",
            "CC-MAIN-2024-26",
            "daily-0900",
            "unknown",
        ]);
        assert_eq!(ids, [None, Some(0), None, Some(0), None, None]);
    }

    #[test]
    fn a_day_is_written_in_utc() {
        assert_eq!(day(0), "1970-01-01");
        assert_eq!(day(1_716_000_000_000_000), "2024-05-18");
    }
}
