//! The summaries of how a crawl's robots.txt files are written, per crawl, small whatever the
//! crawl's size, so that the questions of `queries/robots_*.sql` read them instead of joining
//! every line of `robots_agents` and `robots_rules` with `robots_hosts`:
//!
//! * `summary_robots_keys`: per key (`user_agent`, `disallow`, `content_signal`, ...), the
//!   lines, hosts and captures using it in any spelling;
//! * `summary_robots_key_forms`: the same per key form and separator, with the most frequent
//!   spelling;
//! * `summary_robots_agents`: the same per name written in `User-agent` (or purpose in
//!   `User-Agent-Purpose`) lines, for the names most hosts write.
//!
//! Hosts and lines count each host's latest capture (the one `robots_hosts` names, as the
//! bundled queries always have), captures every capture. The detail is read once, a few
//! dictionary-encoded columns at a time, each string interned once per batch; a line costs
//! one lookup in a table of the crawl's few hundred spellings.

use super::read::{read_beside, summary_part, Governs, Slots};
use super::tally::{host_files, missing, Cursor, Dict, LineParts, Use};
use crate::parts::runs::Names;
use crate::parts::{OutDir, PartRef};
use crate::signals::ai_prefs;
use crate::tables::{
    SummaryContentSignalRow, SummaryContentSignalsBuilder, SummaryRobotsAgentRow,
    SummaryRobotsAgentsBuilder, SummaryRobotsKeyFormRow, SummaryRobotsKeyFormsBuilder,
    SummaryRobotsKeyRow, SummaryRobotsKeysBuilder, Table, AGENT_NAMES_KEPT,
};
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, Int64Array, RecordBatch};
use rustc_hash::FxHashMap;

/// The tables derived here.
pub const TABLES: [Table; 7] = [
    Table::SummaryRobotsKeys,
    Table::SummaryRobotsKeyForms,
    Table::SummaryRobotsAgents,
    Table::SummaryContentSignals,
    Table::SummaryAppDirectives,
    Table::SummaryAcapFields,
    Table::SummaryAcapProblems,
];

/// Rows written per table, in the order of [`TABLES`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrawlLines {
    pub rows: [u64; TABLES.len()],
}

impl CrawlLines {
    /// Rows written to `table` (0 for a table not derived here).
    pub fn rows_of(&self, table: Table) -> u64 {
        super::read::rows_of(&TABLES, &self.rows, table)
    }
}

/// Derive the crawl's summaries of robots.txt lines from its hosts (`governs`, with file ids of
/// `files` and outcome ids of `outcomes`) and its `robots_agents` and `robots_rules` parts, and
/// commit them together.
pub fn derive_crawl(
    out: &OutDir,
    crawl: &str,
    parts: &LineParts,
    governs: &[Governs],
    files: &mut Names,
) -> Result<CrawlLines> {
    let mut lines = Lines::default();
    lines.add(out, parts, None, governs, files)?;
    lines.finish(out, crawl)
}

/// The summaries of lines of a crawl being counted: the hosts of each partition of the crawl
/// are added in turn ([`Lines::add`]), and the tables written once ([`Lines::finish`]).
pub struct Lines {
    tally: Tally,
    cursor: Cursor,
    ext: super::extensions::Extensions,
    /// The ids of `content_signal` and `content_usage`.
    signal_keys: [u32; 2],
}

impl Default for Lines {
    fn default() -> Self {
        let mut tally = Tally::default();
        let signal_keys = [
            tally.names.id("content_signal"),
            tally.names.id("content_usage"),
        ];
        Lines {
            tally,
            cursor: Cursor::default(),
            ext: Default::default(),
            signal_keys,
        }
    }
}

impl Lines {
    /// Count the lines of `parts` (read from `out`) for the hosts of `governs`, and those of
    /// `guests`, the parts of captures of other partitions that are some host's file here.
    pub fn add(
        &mut self,
        out: &OutDir,
        parts: &LineParts,
        guests: Option<&LineParts>,
        governs: &[Governs],
        files: &mut Names,
    ) -> Result<()> {
        let mut slots = host_files(governs);
        for (parts, guest) in std::iter::once((parts, false)).chain(guests.map(|g| (g, true))) {
            self.cursor.guest = guest;
            self.read(out, parts, files, &mut slots)?;
        }
        self.cursor.guest = false;
        Ok(())
    }

    fn read(
        &mut self,
        out: &OutDir,
        parts: &LineParts,
        files: &mut Names,
        slots: &mut Slots,
    ) -> Result<()> {
        let (tally, cursor, signal_keys) = (&mut self.tally, &mut self.cursor, self.signal_keys);
        read_beside(
            out,
            parts.agents,
            &AGENT_COLUMNS,
            &AGENT_COLUMNS,
            |part, batch| {
                let mut c = LineColumns::of(batch, part, "line_kind")?;
                let mut agent = Dict::of(batch, "agent", part)?;
                for i in 0..batch.num_rows() {
                    let (file, offset) = (c.file.id(i, files), c.offset.value(i));
                    let Some(file) = file.filter(|_| c.offset.is_valid(i)) else {
                        continue;
                    };
                    let (serial, latest) = cursor.row(part, file, offset, slots);
                    let kind = tally.line(&mut c, i, serial, latest);
                    if let (Some(kind), Some(a)) = (kind, agent.id(i, &mut tally.names)) {
                        if !tally.names.get(a).is_empty() {
                            tally
                                .agents
                                .entry((kind, a))
                                .or_default()
                                .line(serial, latest);
                        }
                    }
                }
                Ok(())
            },
        )?;
        read_beside(
            out,
            parts.rules,
            &RULE_COLUMNS,
            &RULE_COLUMNS[..6],
            |part, batch| {
                let mut c = LineColumns::of(batch, part, "key")?;
                let value = batch
                    .column_by_name("value")
                    .and_then(|a| a.as_string_opt::<i32>())
                    .with_context(|| missing(part, "value"))?;
                for i in 0..batch.num_rows() {
                    let Some(file) = c.file.id(i, files).filter(|_| c.offset.is_valid(i)) else {
                        continue;
                    };
                    let (serial, latest) = cursor.row(part, file, c.offset.value(i), slots);
                    let key = tally.line(&mut c, i, serial, latest);
                    if let Some(key) = key.filter(|k| signal_keys.contains(k)) {
                        if value.is_valid(i) {
                            tally.signals(key, value.value(i), serial, latest);
                        }
                    }
                }
                Ok(())
            },
        )?;
        self.ext.read(out, parts, files, slots, cursor)
    }

    /// Write the tables counted, and commit them together.
    pub fn finish(self, out: &OutDir, crawl: &str) -> Result<CrawlLines> {
        let (tally, ext) = (self.tally, self.ext);
        let parts = [
            tally.keys_part(out, crawl)?,
            tally.forms_part(out, crawl)?,
            tally.agents_part(out, crawl)?,
            tally.signals_part(out, crawl)?,
            ext.app_directives_part(out, crawl)?,
            ext.acap_part(out, crawl)?,
            ext.acap_problems_part(out, crawl)?,
        ];
        let rows = parts.each_ref().map(|p| p.1);
        out.commit(parts.into_iter().map(|p| p.0).collect())?;
        Ok(CrawlLines { rows })
    }
}

/// The columns of `robots_agents` read (every one as a dictionary).
pub(super) const AGENT_COLUMNS: [&str; 7] = [
    "warc_file",
    "warc_offset",
    "line_kind",
    "key_raw",
    "key_form",
    "separator",
    "agent",
];

/// The columns of `robots_rules` read (all but `value` as dictionaries).
pub(super) const RULE_COLUMNS: [&str; 7] = [
    "warc_file",
    "warc_offset",
    "key",
    "key_raw",
    "key_form",
    "separator",
    "value",
];

/// No spelling kept (`unknown` and `invalid` keys, whose spellings are any text).
const NO_SPELLING: u32 = u32::MAX;

/// A spelling of a key form: its form and key (indices into [`Tally::forms`] and
/// [`Tally::keys`]) and the lines written so.
struct Spelling {
    form: u32,
    key: u32,
    latest_lines: i64,
    lines: i64,
}

/// The crawl's tallies; strings are ids of `names`.
#[derive(Default)]
struct Tally {
    names: Names,
    /// (key, key form, separator, spelling) -> index into `spellings`.
    spelling_ids: FxHashMap<(u32, u32, u32, u32), u32>,
    spellings: Vec<((u32, u32, u32, u32), Spelling)>,
    form_ids: FxHashMap<(u32, u32, u32), u32>,
    forms: Vec<((u32, u32, u32), Use)>,
    key_ids: FxHashMap<u32, u32>,
    keys: Vec<(u32, Use)>,
    /// (line kind, agent) -> use.
    agents: FxHashMap<(u32, u32), Use>,
    /// (key, signal, value) of `Content-Signal` / `Content-Usage` pairs -> use.
    signals: FxHashMap<(u32, u32, Option<u32>), Use>,
}

impl Tally {
    /// Count line `i` of `c`; its key's id (`None` for a row without a key).
    fn line(&mut self, c: &mut LineColumns, i: usize, serial: u64, latest: u32) -> Option<u32> {
        // Lines in a row are mostly written alike (a list of Disallow lines): a row with the
        // dictionary keys of the one before has its spelling.
        let raw = [
            c.key.raw(i),
            c.form.raw(i),
            c.separator.raw(i),
            c.raw.raw(i),
        ];
        let s = match c.last {
            Some((keys, s)) if keys == raw => s,
            _ => {
                let s = self.spelling(c, i);
                c.last = Some((raw, s));
                s
            }
        }?;
        let spelling = &mut self.spellings[s as usize].1;
        spelling.lines += i64::from(serial & super::tally::GUEST == 0);
        spelling.latest_lines += i64::from(latest);
        let (f, k) = (spelling.form as usize, spelling.key as usize);
        self.forms[f].1.line(serial, latest);
        self.keys[k].1.line(serial, latest);
        Some(self.keys[k].0)
    }

    /// The spelling of line `i` of `c` (`None` for a row without a key).
    fn spelling(&mut self, c: &mut LineColumns, i: usize) -> Option<u32> {
        let names = &mut self.names;
        let key = c.key.id(i, names)?;
        let form = c.form.id(i, names).unwrap_or(NO_SPELLING);
        let sep = c.separator.id(i, names).unwrap_or(NO_SPELLING);
        let raw = match names.get(key) {
            "unknown" | "invalid" => NO_SPELLING,
            _ => c.raw.id(i, names).unwrap_or(NO_SPELLING),
        };
        Some(match self.spelling_ids.get(&(key, form, sep, raw)) {
            Some(&s) => s,
            None => self.new_spelling((key, form, sep, raw)),
        })
    }

    /// Count the `key=value` pairs of a `Content-Signal` or `Content-Usage` line's value, as
    /// `robots_content_signal_values.sql` once split them: at commas, lowercased, spaces
    /// trimmed, empty pairs left out; the value is what follows the first `=` (up to another).
    fn signals(&mut self, key: u32, value: &str, serial: u64, latest: u32) {
        if self.names.get(key) == "content_usage" {
            return self.usage_members(key, value, serial, latest);
        }
        for pair in value.split(',') {
            let pair = pair.to_lowercase();
            let pair = pair.trim_matches(' ');
            if pair.is_empty() {
                continue;
            }
            let mut sides = pair.split('=');
            let signal = self
                .names
                .id(sides.next().unwrap_or_default().trim_matches(' '));
            let value = (pair.contains('=')).then(|| {
                self.names
                    .id(sides.next().unwrap_or_default().trim_matches(' '))
            });
            self.signals
                .entry((key, signal, value))
                .or_default()
                .line(serial, latest);
        }
    }

    /// Count the members of a `Content-Usage` line's value as written (`robots_rules.value`
    /// keeps them so: a Structured Field's case and quotes are meaning): the key up to its `=`
    /// or first parameter, the value after the `=`.
    fn usage_members(&mut self, key: u32, value: &str, serial: u64, latest: u32) {
        for member in crate::signals::ai_prefs::member_texts(value) {
            if member.is_empty() {
                continue;
            }
            let k = crate::signals::ai_prefs::member_key(member);
            let signal = self.names.id(k);
            let rest = member[member.find(k).unwrap_or(0) + k.len()..].trim_start();
            let value = (rest.strip_prefix('=')).map(|v| self.names.id(v.trim()));
            self.signals
                .entry((key, signal, value))
                .or_default()
                .line(serial, latest);
        }
    }

    fn signals_part(&self, out: &OutDir, crawl: &str) -> Result<(crate::parts::PartOutcome, u64)> {
        let name = |id: u32| self.names.get(id);
        let mut rows: Vec<_> = self.signals.iter().collect();
        rows.sort_unstable_by_key(|((k, s, v), _)| (name(*k), name(*s), v.map(name)));
        let mut builder = SummaryContentSignalsBuilder::default();
        for ((key, signal, value), u) in &rows {
            let (key, signal) = (name(*key), name(*signal));
            let known = match key {
                "content_usage" => ai_prefs::is_label(signal),
                _ => ai_prefs::is_content_signal_key(signal),
            };
            builder.append(&SummaryContentSignalRow {
                key: Some(key),
                signal: Some(signal),
                known: Some(known),
                value: value.map(name),
                lines: Some(u.lines),
                hosts: Some(u.hosts),
                captures: Some(u.captures),
            });
        }
        summary_part(out, crawl, builder)
    }

    fn new_spelling(&mut self, at: (u32, u32, u32, u32)) -> u32 {
        let (key, form, sep, _) = at;
        let forms = &mut self.forms;
        let f = *self.form_ids.entry((key, form, sep)).or_insert_with(|| {
            forms.push(((key, form, sep), Use::default()));
            (forms.len() - 1) as u32
        });
        let keys = &mut self.keys;
        let k = *self.key_ids.entry(key).or_insert_with(|| {
            keys.push((key, Use::default()));
            (keys.len() - 1) as u32
        });
        let s = self.spellings.len() as u32;
        self.spellings.push((
            at,
            Spelling {
                form: f,
                key: k,
                latest_lines: 0,
                lines: 0,
            },
        ));
        self.spelling_ids.insert(at, s);
        s
    }

    fn text(&self, id: u32) -> Option<&str> {
        (id != NO_SPELLING).then(|| self.names.get(id))
    }

    fn keys_part(&self, out: &OutDir, crawl: &str) -> Result<(crate::parts::PartOutcome, u64)> {
        let mut rows: Vec<&(u32, Use)> = self.keys.iter().collect();
        rows.sort_unstable_by_key(|(k, _)| self.names.get(*k));
        let mut builder = SummaryRobotsKeysBuilder::default();
        for (key, u) in &rows {
            builder.append(&SummaryRobotsKeyRow {
                key: self.text(*key),
                lines: Some(u.lines),
                hosts: Some(u.hosts),
                captures: Some(u.captures),
            });
        }
        summary_part(out, crawl, builder)
    }

    /// Each form's most frequent spelling in latest captures (ties: the first in byte order),
    /// else in every capture, and how many spellings it has.
    fn spellings_of_forms(&self) -> Vec<(Option<u32>, i32)> {
        let mut best: Vec<(Option<u32>, i32)> = vec![(None, 0); self.forms.len()];
        let mut ranks: Vec<Option<(bool, i64, i64)>> = vec![None; self.forms.len()];
        for ((_, _, _, raw), s) in &self.spellings {
            if *raw == NO_SPELLING {
                continue;
            }
            let f = s.form as usize;
            best[f].1 += 1;
            // Latest lines first; with none, every capture's lines.
            let r = if s.latest_lines > 0 {
                (true, s.latest_lines, 0)
            } else {
                (false, 0, s.lines)
            };
            let better = match (ranks[f], best[f].0) {
                (None, _) | (_, None) => true,
                (Some(old), Some(old_raw)) => {
                    r > old || (r == old && self.names.get(*raw) < self.names.get(old_raw))
                }
            };
            if better {
                ranks[f] = Some(r);
                best[f].0 = Some(*raw);
            }
        }
        best
    }

    fn forms_part(&self, out: &OutDir, crawl: &str) -> Result<(crate::parts::PartOutcome, u64)> {
        let spellings = self.spellings_of_forms();
        let mut rows: Vec<usize> = (0..self.forms.len()).collect();
        let of = |f: usize| {
            let (key, form, sep) = self.forms[f].0;
            (self.text(key), self.text(form), self.text(sep))
        };
        rows.sort_unstable_by_key(|&f| of(f));
        let mut builder = SummaryRobotsKeyFormsBuilder::default();
        for &f in &rows {
            let ((key, form, sep), u) = &self.forms[f];
            let (raw, n) = spellings[f];
            builder.append(&SummaryRobotsKeyFormRow {
                key: self.text(*key),
                key_form: self.text(*form),
                separator: self.text(*sep),
                key_raw: raw.map(|r| self.names.get(r)),
                spellings: raw.map(|_| n),
                lines: Some(u.lines),
                hosts: Some(u.hosts),
                captures: Some(u.captures),
            });
        }
        summary_part(out, crawl, builder)
    }

    /// The names most hosts write, [`AGENT_NAMES_KEPT`] per line kind: by hosts, then
    /// captures, then name.
    fn agents_part(&self, out: &OutDir, crawl: &str) -> Result<(crate::parts::PartOutcome, u64)> {
        let name = |id: u32| self.names.get(id);
        let mut rows: Vec<(&(u32, u32), &Use)> = self.agents.iter().collect();
        rows.sort_unstable_by(|(a, ua), (b, ub)| {
            (name(a.0), -ua.hosts, -ua.captures, name(a.1)).cmp(&(
                name(b.0),
                -ub.hosts,
                -ub.captures,
                name(b.1),
            ))
        });
        let mut builder = SummaryRobotsAgentsBuilder::default();
        let (mut kind, mut kept) = (None, 0);
        for ((k, agent), u) in rows {
            if kind != Some(*k) {
                (kind, kept) = (Some(*k), 0);
            }
            if kept == AGENT_NAMES_KEPT {
                continue;
            }
            kept += 1;
            builder.append(&SummaryRobotsAgentRow {
                line_kind: Some(name(*k)),
                agent: Some(name(*agent)),
                lines: Some(u.lines),
                hosts: Some(u.hosts),
                captures: Some(u.captures),
            });
        }
        summary_part(out, crawl, builder)
    }
}

/// The columns of a batch of `robots_agents` or `robots_rules` every line is counted by.
struct LineColumns<'b> {
    /// The dictionary keys of the last row whose spelling was looked up, and its spelling.
    last: Option<([i32; 4], Option<u32>)>,
    file: Dict<'b>,
    offset: &'b Int64Array,
    /// `line_kind` or `key`.
    key: Dict<'b>,
    raw: Dict<'b>,
    form: Dict<'b>,
    separator: Dict<'b>,
}

impl<'b> LineColumns<'b> {
    fn of(batch: &'b RecordBatch, part: &PartRef, key: &str) -> Result<Self> {
        Ok(LineColumns {
            last: None,
            file: Dict::of(batch, "warc_file", part)?,
            offset: batch
                .column_by_name("warc_offset")
                .and_then(|a| a.as_primitive_opt::<Int64Type>())
                .with_context(|| missing(part, "warc_offset"))?,
            key: Dict::of(batch, key, part)?,
            raw: Dict::of(batch, "key_raw", part)?,
            form: Dict::of(batch, "key_form", part)?,
            separator: Dict::of(batch, "separator", part)?,
        })
    }
}
