//! `summary_app_directives` and `summary_acap_fields`: what the `App-Directives` and ACAP lines of
//! a crawl's robots.txt files say, counted as the other summaries of lines are ([`super::lines`]:
//! hosts and rows by each host's latest capture, captures by every capture). Their values are
//! any text, so each keeps the [`VALUES_KEPT`] rows most hosts write.

use super::read::{read_beside, summary_part, Slots};
use super::tally::{missing, Cursor, Dict, LineParts, Use};
use crate::parts::runs::Names;
use crate::parts::{OutDir, PartOutcome};
use crate::tables::{
    SummaryAcapFieldRow, SummaryAcapFieldsBuilder, SummaryAcapProblemRow,
    SummaryAcapProblemsBuilder, SummaryAppDirectiveRow, SummaryAppDirectivesBuilder, VALUES_KEPT,
};
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, ListArray};
use rustc_hash::FxHashMap;

/// The columns of `app_directives` read (as dictionaries, but the offset).
pub(super) const APP_COLUMNS: [&str; 8] = [
    "warc_file",
    "warc_offset",
    "app_id",
    "directive",
    "value",
    "value_type",
    "problem",
    "key_raw",
];

/// The columns of `acap_fields` read.
pub(super) const ACAP_COLUMNS: [&str; 8] = [
    "warc_file",
    "warc_offset",
    "field",
    "usage",
    "resource",
    "resource_type",
    "crawlers",
    "problems",
];

/// The ACAP field columns read as dictionaries.
const ACAP_DICTIONARIES: [&str; 5] = ["warc_file", "field", "usage", "resource", "resource_type"];

/// To whom an ACAP field speaks, by its record's crawlers.
const ANY_CRAWLER: &str = "any crawler";
const NAMED_CRAWLERS: &str = "named crawlers";

/// The crawl's tallies of application directives and ACAP fields; strings are ids of `names`.
#[derive(Default)]
pub(super) struct Extensions {
    names: Names,
    /// (app_id, directive, value, value_type, problem, spelling) -> use.
    apps: FxHashMap<[Option<u32>; 6], Use>,
    /// (field, usage, resource_type, addressed_to) -> use, and fields with problems in
    /// latest captures.
    acap: FxHashMap<[Option<u32>; 4], (Use, i64)>,
    /// (field, problem) -> use.
    problems: FxHashMap<[Option<u32>; 2], Use>,
    /// A `key_raw` id's lowercase id.
    lower: FxHashMap<u32, u32>,
}

impl Extensions {
    /// Read the crawl's `app_directives` and `acap_fields` parts.
    pub(super) fn read(
        &mut self,
        out: &OutDir,
        parts: &LineParts,
        files: &mut Names,
        slots: &mut Slots,
        cursor: &mut Cursor,
    ) -> Result<()> {
        read_beside(
            out,
            parts.app_directives,
            &APP_COLUMNS,
            &APP_COLUMNS,
            |part, batch| {
                let mut dicts: Vec<Dict> = Vec::new();
                for c in APP_COLUMNS.iter().filter(|&&c| c != "warc_offset") {
                    dicts.push(Dict::of(batch, c, part)?);
                }
                let offset = batch
                    .column_by_name("warc_offset")
                    .and_then(|a| a.as_primitive_opt::<Int64Type>())
                    .with_context(|| missing(part, "warc_offset"))?;
                for i in 0..batch.num_rows() {
                    let Some(file) = dicts[0].id(i, files).filter(|_| offset.is_valid(i)) else {
                        continue;
                    };
                    let (serial, latest) = cursor.row(part, file, offset.value(i), slots);
                    let mut key = [None; 6];
                    for (k, d) in key.iter_mut().zip(&mut dicts[1..]) {
                        *k = d.id(i, &mut self.names);
                    }
                    key[5] = key[5].map(|raw| self.lowercase(raw));
                    self.apps.entry(key).or_default().line(serial, latest);
                }
                Ok(())
            },
        )?;
        read_beside(
            out,
            parts.acap_fields,
            &ACAP_COLUMNS,
            &ACAP_DICTIONARIES,
            |part, batch| {
                let mut dicts: Vec<Dict> = Vec::new();
                for c in ACAP_DICTIONARIES {
                    dicts.push(Dict::of(batch, c, part)?);
                }
                let offset = batch
                    .column_by_name("warc_offset")
                    .and_then(|a| a.as_primitive_opt::<Int64Type>())
                    .with_context(|| missing(part, "warc_offset"))?;
                let list = |c: &str| -> Result<&ListArray> {
                    batch
                        .column_by_name(c)
                        .and_then(|a| a.as_list_opt::<i32>())
                        .with_context(|| missing(part, c))
                };
                let (crawlers, problems) = (list("crawlers")?, list("problems")?);
                let version = self.names.id("version");
                let (any, named) = (self.names.id(ANY_CRAWLER), self.names.id(NAMED_CRAWLERS));
                for i in 0..batch.num_rows() {
                    let Some(file) = dicts[0].id(i, files).filter(|_| offset.is_valid(i)) else {
                        continue;
                    };
                    let (serial, latest) = cursor.row(part, file, offset.value(i), slots);
                    let field = dicts[1].id(i, &mut self.names);
                    // The usage column of a `version` field is its resource (the version).
                    let usage = match field == Some(version) {
                        true => dicts[3].id(i, &mut self.names),
                        false => dicts[2].id(i, &mut self.names),
                    };
                    let addressed_to = crawlers.is_valid(i).then(|| {
                        let names = crawlers.value(i);
                        let names = names.as_string::<i32>();
                        match names.iter().any(|n| n == Some("*")) {
                            true => any,
                            false => named,
                        }
                    });
                    let key = [field, usage, dicts[4].id(i, &mut self.names), addressed_to];
                    let e = self.acap.entry(key).or_default();
                    e.0.line(serial, latest);
                    let has_problems = problems.is_valid(i) && !problems.value(i).is_empty();
                    if has_problems {
                        e.1 += i64::from(latest);
                    }
                    if has_problems {
                        let listed = problems.value(i);
                        let mut ids: Vec<u32> = (listed.as_string::<i32>().iter().flatten())
                            .map(|p| self.names.id(p))
                            .collect();
                        ids.sort_unstable();
                        ids.dedup();
                        for p in ids {
                            let e = self.problems.entry([field, Some(p)]).or_default();
                            e.line(serial, latest);
                        }
                    }
                }
                Ok(())
            },
        )
    }

    fn lowercase(&mut self, raw: u32) -> u32 {
        if let Some(&l) = self.lower.get(&raw) {
            return l;
        }
        let l = self.names.id(&self.names.get(raw).to_lowercase());
        self.lower.insert(raw, l);
        l
    }

    fn text(&self, id: Option<u32>) -> Option<&str> {
        id.map(|i| self.names.get(i))
    }

    /// The keys most hosts write (then most captures, then by text), at most [`VALUES_KEPT`].
    fn kept<const N: usize, V>(
        &self,
        map: &FxHashMap<[Option<u32>; N], V>,
        use_of: impl Fn(&V) -> Use,
    ) -> Vec<([Option<u32>; N], Use)> {
        let mut rows: Vec<([Option<u32>; N], Use)> =
            map.iter().map(|(k, v)| (*k, use_of(v))).collect();
        rows.sort_unstable_by(|(a, ua), (b, ub)| {
            (-ua.hosts, -ua.captures, a.map(|x| self.text(x))).cmp(&(
                -ub.hosts,
                -ub.captures,
                b.map(|x| self.text(x)),
            ))
        });
        rows.truncate(VALUES_KEPT);
        rows
    }

    pub(super) fn app_directives_part(
        &self,
        out: &OutDir,
        crawl: &str,
    ) -> Result<(PartOutcome, u64)> {
        let rows = self.kept(&self.apps, |u| *u);
        let mut builder = SummaryAppDirectivesBuilder::default();
        for (k, u) in &rows {
            builder.append(&SummaryAppDirectiveRow {
                app_id: self.text(k[0]),
                directive: self.text(k[1]),
                value: self.text(k[2]),
                value_type: self.text(k[3]),
                problem: self.text(k[4]),
                spelling: self.text(k[5]),
                directives: Some(u.lines),
                hosts: Some(u.hosts),
                captures: Some(u.captures),
            });
        }
        summary_part(out, crawl, builder)
    }

    pub(super) fn acap_problems_part(
        &self,
        out: &OutDir,
        crawl: &str,
    ) -> Result<(PartOutcome, u64)> {
        let rows = self.kept(&self.problems, |u| *u);
        let mut builder = SummaryAcapProblemsBuilder::default();
        for (k, u) in &rows {
            builder.append(&SummaryAcapProblemRow {
                field: self.text(k[0]),
                problem: self.text(k[1]),
                fields: Some(u.lines),
                hosts: Some(u.hosts),
                captures: Some(u.captures),
            });
        }
        summary_part(out, crawl, builder)
    }

    pub(super) fn acap_part(&self, out: &OutDir, crawl: &str) -> Result<(PartOutcome, u64)> {
        let rows = self.kept(&self.acap, |v| v.0);
        let mut builder = SummaryAcapFieldsBuilder::default();
        for (k, u) in &rows {
            builder.append(&SummaryAcapFieldRow {
                field: self.text(k[0]),
                usage: self.text(k[1]),
                resource_type: self.text(k[2]),
                addressed_to: self.text(k[3]),
                fields: Some(u.lines),
                with_problems: Some(self.acap[k].1),
                hosts: Some(u.hosts),
                captures: Some(u.captures),
            });
        }
        summary_part(out, crawl, builder)
    }
}
