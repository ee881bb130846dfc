//! `summary_page_ai_preferences`: the AI-usage preferences a crawl's 2xx pages state (aipref's
//! `Content-Usage` header, the `Content-Signal` header and `<meta name="content-signal">`), per
//! form, vocabulary, key and value, with the pages and hosts that state each, so that
//! `signals_ai_preferences.sql` reads a few rows instead of every page signal.
//!
//! Memory: a part's pages per value (a part is one input, so a page is counted once per value
//! however many of its signals state it), and the crawl's hosts per value, of the few hosts that
//! state a preference at all.

use super::plan::{CrawlParts, Derivation};
use super::read::{read_beside, summary_part};
use super::tally::missing;
use crate::parts::{OutDir, PartRef};
use crate::signals::Source;
use crate::tables::{SummaryPageAiPreferenceRow, SummaryPageAiPreferencesBuilder, Table};
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{Array, DictionaryArray, RecordBatch, StringArray};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

/// The tables derived here.
pub const TABLES: [Table; 1] = [Table::SummaryPageAiPreferences];

/// `summary_page_ai_preferences`, derived from `page_signals`.
pub struct AiPreferences;

impl Derivation for AiPreferences {
    fn from(&self) -> Table {
        Table::PageSignals
    }

    fn writes(&self) -> &'static [Table] {
        &TABLES
    }

    fn derive(&self, out: &OutDir, crawl: &str, parts: &CrawlParts<'_>) -> Result<Vec<u64>> {
        let mut tally = Tally::default();
        for part in parts.of(Table::PageSignals) {
            let mut pages = FxHashSet::default();
            read_beside(
                out,
                std::slice::from_ref(part),
                &COLUMNS,
                &TEXT,
                |part, b| {
                    tally.add(&Batch::of(part, b)?, &mut pages);
                    Ok(())
                },
            )?;
            tally.end_part(pages);
        }
        let (part, rows) = summary_part(out, crawl, tally.rows())?;
        out.commit(vec![part])?;
        Ok(vec![rows])
    }

    /// Said only for a crawl whose pages state some preference (few do).
    fn say(&self, crawl: &str, rows: &[u64]) -> Option<String> {
        let n = *rows.first().filter(|n| **n > 0)?;
        let noun = if n == 1 { "value" } else { "values" };
        Some(format!(
            "summary_page_ai_preferences  {crawl}: {n} AI-usage preference {noun} stated by pages"
        ))
    }
}

/// The columns of `page_signals` read, and those of them read as dictionaries.
const COLUMNS: [&str; 8] = [
    "warc_offset",
    "host",
    "http_status",
    "source",
    "name",
    "vocabulary",
    "directive",
    "directive_value",
];
const TEXT: [&str; 6] = [
    "host",
    "source",
    "name",
    "vocabulary",
    "directive",
    "directive_value",
];
/// Places in [`TEXT`].
const HOST: usize = 0;
const SOURCE: usize = 1;
const NAME: usize = 2;
const VOCABULARY: usize = 3;
const DIRECTIVE: usize = 4;
const VALUE: usize = 5;

/// The form a preference is stated in (`page_signals.source`, a meta tag's as
/// `content_signal_meta`), its vocabulary, key and value.
type Preference = (&'static str, Option<String>, Option<String>, Option<String>);

/// The form of a signal row that states an AI-usage preference, if it does.
fn form(source: &str, name: Option<&str>) -> Option<&'static str> {
    match Source::from_name(source)? {
        Source::ContentUsage => Some(Source::ContentUsage.as_str()),
        Source::ContentSignal => Some(Source::ContentSignal.as_str()),
        Source::Meta if name.is_some_and(|n| n.eq_ignore_ascii_case("content-signal")) => {
            Some("content_signal_meta")
        }
        _ => None,
    }
}

/// A batch's columns, the strings read through their dictionaries.
struct Batch<'b> {
    offset: &'b arrow_array::PrimitiveArray<Int64Type>,
    status: &'b arrow_array::PrimitiveArray<Int32Type>,
    text: Vec<(&'b DictionaryArray<Int32Type>, &'b StringArray)>,
}

impl<'b> Batch<'b> {
    fn of(part: &PartRef, b: &'b RecordBatch) -> Result<Self> {
        let prim = |c: &str| b.column_by_name(c).with_context(|| missing(part, c));
        let text = (TEXT.iter())
            .map(|&c| {
                let d = (b
                    .column_by_name(c)
                    .and_then(|a| a.as_dictionary_opt::<Int32Type>()))
                .with_context(|| missing(part, c))?;
                let v = d.values().as_string_opt::<i32>();
                Ok((d, v.with_context(|| missing(part, c))?))
            })
            .collect::<Result<_>>()?;
        Ok(Batch {
            offset: (prim("warc_offset")?.as_primitive_opt())
                .with_context(|| missing(part, "warc_offset"))?,
            status: (prim("http_status")?.as_primitive_opt())
                .with_context(|| missing(part, "http_status"))?,
            text,
        })
    }

    /// Row `i`'s value of the `k`th column of [`TEXT`].
    fn text(&self, k: usize, i: usize) -> Option<&'b str> {
        let (d, v) = self.text[k];
        d.is_valid(i).then(|| v.value(d.keys().value(i) as usize))
    }
}

/// Pages and hosts per preference.
#[derive(Default)]
struct Tally {
    ids: FxHashMap<Preference, u32>,
    pages: Vec<i64>,
    hosts: Vec<FxHashSet<String>>,
}

impl Tally {
    /// Count a batch's rows that state a preference on a 2xx page; `pages` holds the part's
    /// (preference, page offset) pairs seen so far.
    fn add(&mut self, b: &Batch<'_>, pages: &mut FxHashSet<(u32, i64)>) {
        for i in 0..b.offset.len() {
            let ok = b.status.is_valid(i) && (200..300).contains(&b.status.value(i));
            let source = b.text(SOURCE, i).filter(|_| ok);
            let Some(form) = source.and_then(|s| form(s, b.text(NAME, i))) else {
                continue;
            };
            let owned = |k| b.text(k, i).map(str::to_string);
            let key = (form, owned(VOCABULARY), owned(DIRECTIVE), owned(VALUE));
            let next = self.ids.len() as u32;
            let id = *self.ids.entry(key).or_insert(next);
            if id == next {
                self.hosts.push(FxHashSet::default());
                self.pages.push(0);
            }
            pages.insert((id, b.offset.value(i)));
            if let Some(h) = b.text(HOST, i) {
                if !self.hosts[id as usize].contains(h) {
                    self.hosts[id as usize].insert(h.to_string());
                }
            }
        }
    }

    /// A part read: its pages counted per preference.
    fn end_part(&mut self, pages: FxHashSet<(u32, i64)>) {
        for (id, _) in pages {
            self.pages[id as usize] += 1;
        }
    }

    /// The summary's rows, by form, vocabulary, key and value.
    fn rows(self) -> SummaryPageAiPreferencesBuilder {
        let sorted: BTreeMap<&Preference, u32> = self.ids.iter().map(|(p, &id)| (p, id)).collect();
        let mut b = SummaryPageAiPreferencesBuilder::default();
        for ((form, vocabulary, key, value), id) in sorted {
            b.append(&SummaryPageAiPreferenceRow {
                form: Some(form),
                vocabulary: vocabulary.as_deref(),
                key: key.as_deref(),
                value: value.as_deref(),
                pages: Some(self.pages[id as usize]),
                hosts: Some(self.hosts[id as usize].len() as i64),
            });
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::TableBuilder;
    use std::sync::Arc;

    /// A batch of `page_signals` rows: (offset, host, status, source, name, directive, value).
    type Row<'a> = (i64, &'a str, i32, &'a str, &'a str, &'a str, &'a str);

    fn batch<'a>(rows: &[Row<'a>]) -> RecordBatch {
        use arrow_array::{ArrayRef, Int32Array, Int64Array};
        let dict = |f: &dyn Fn(&Row<'a>) -> Option<&'a str>| -> ArrayRef {
            Arc::new(rows.iter().map(f).collect::<DictionaryArray<Int32Type>>())
        };
        RecordBatch::try_from_iter([
            (
                "warc_offset",
                Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.0))) as ArrayRef,
            ),
            ("host", dict(&|r| Some(r.1))),
            (
                "http_status",
                Arc::new(Int32Array::from_iter_values(rows.iter().map(|r| r.2))) as ArrayRef,
            ),
            ("source", dict(&|r| Some(r.3))),
            ("name", dict(&|r| Some(r.4))),
            ("vocabulary", dict(&|_| Some("aipref"))),
            ("directive", dict(&|r| Some(r.5))),
            ("directive_value", dict(&|r| Some(r.6))),
        ])
        .unwrap()
    }

    fn count(parts: &[&[Row<'_>]]) -> Vec<(String, String, i64, i64)> {
        let mut t = Tally::default();
        let part = PartRef::Local("page_signals/crawl=C/part-p.parquet".into());
        for rows in parts {
            let b = batch(rows);
            let mut pages = FxHashSet::default();
            t.add(&Batch::of(&part, &b).unwrap(), &mut pages);
            t.end_part(pages);
        }
        let mut got: Vec<_> = (t.ids.iter())
            .map(|((form, _, key, value), &id)| {
                let kv = format!("{}={}", key.as_deref().unwrap(), value.as_deref().unwrap());
                (
                    form.to_string(),
                    kv,
                    t.pages[id as usize],
                    t.hosts[id as usize].len() as i64,
                )
            })
            .collect();
        got.sort();
        assert_eq!(t.rows().len(), got.len());
        got
    }

    #[test]
    fn a_crawl_whose_pages_state_preferences_is_said_and_one_without_is_not() {
        let say = |n| AiPreferences.say("C", &[n]);
        assert_eq!(
            say(1).unwrap(),
            "summary_page_ai_preferences  C: 1 AI-usage preference value stated by pages"
        );
        assert!(say(3)
            .unwrap()
            .ends_with(": 3 AI-usage preference values stated by pages"));
        assert_eq!(say(0), None);
    }

    #[test]
    fn each_2xx_page_and_host_counts_once_per_preference_and_form() {
        let cu = "content_usage";
        let got = count(&[
            &[
                // One page stating train-ai=n twice, another page of the same host once.
                (10, "a.example", 200, cu, "Content-Usage", "train-ai", "n"),
                (10, "a.example", 200, cu, "Content-Usage", "train-ai", "n"),
                (20, "a.example", 200, cu, "Content-Usage", "train-ai", "n"),
                // A 404 page and a robots meta tag state no preference here.
                (30, "b.example", 404, cu, "Content-Usage", "train-ai", "n"),
                (40, "b.example", 200, "meta", "robots", "noindex", ""),
                (
                    50,
                    "b.example",
                    200,
                    "meta",
                    "Content-Signal",
                    "ai-train",
                    "no",
                ),
            ],
            // Another input: offset 10 is another page there.
            &[(10, "c.example", 204, cu, "Content-Usage", "train-ai", "n")],
        ]);
        assert_eq!(
            got,
            [
                ("content_signal_meta".into(), "ai-train=no".into(), 1, 1),
                ("content_usage".into(), "train-ai=n".into(), 3, 2),
            ]
        );
    }
}
