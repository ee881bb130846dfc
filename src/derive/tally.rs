//! What the summaries of lines share: which captures are hosts' files, the capture a row
//! belongs to, counts of lines, hosts and captures, and string columns read as dictionaries.

use super::read::{Governs, Slots};
use crate::parts::runs::Names;
use crate::parts::PartRef;
use anyhow::{Context, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{Array, DictionaryArray, RecordBatch, StringArray};

/// The parts of a crawl the summaries of lines read.
pub struct LineParts<'p> {
    pub agents: &'p [PartRef],
    pub rules: &'p [PartRef],
    pub app_directives: &'p [PartRef],
    pub acap_fields: &'p [PartRef],
}

/// The hosts' files (their latest captures, read through a revisit), by file and offset, each
/// with the number of hosts it is the file of: one, but for a capture that revisits stand for
/// on other hosts too (the same payload digest elsewhere).
pub fn host_files(governs: &[Governs]) -> Slots {
    let mut by_file: Vec<Vec<(i64, u32)>> = Vec::new();
    for g in governs {
        let f = g.own_file as usize;
        if by_file.len() <= f {
            by_file.resize_with(f + 1, Vec::new);
        }
        by_file[f].push((g.own_offset, 1));
    }
    for v in &mut by_file {
        v.sort_unstable();
        v.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            kept.1 += u32::from(same);
            same
        });
    }
    Slots::new(by_file)
}

/// Set in the serial of a capture read as a *guest* (a capture of another partition of the
/// crawl's hosts, read there only because it is the file of some host of this one: see
/// `super::partitions`): its lines count for those hosts, but neither as a capture nor as lines
/// of every capture, which its own partition counts.
pub const GUEST: u64 = 1 << 63;

/// The capture a line belongs to: a serial number (from 1) that changes with the capture, and
/// the hosts it is the file of (0 for none). A capture's lines are written together, in one
/// part.
#[derive(Default)]
pub struct Cursor {
    at: Option<(u32, i64)>,
    part: usize,
    serial: u64,
    hosts: u32,
    /// The parts read now hold guest captures ([`GUEST`]).
    pub guest: bool,
}

impl Cursor {
    pub fn row(&mut self, part: &PartRef, file: u32, offset: i64, slots: &mut Slots) -> (u64, u32) {
        let part = part as *const PartRef as usize;
        if self.at != Some((file, offset)) || self.part != part {
            self.at = Some((file, offset));
            self.part = part;
            self.serial += 1;
            self.hosts = slots.find(file, offset).unwrap_or(0);
        }
        (self.serial | if self.guest { GUEST } else { 0 }, self.hosts)
    }
}

/// Lines, hosts and captures using something.
#[derive(Default, Clone, Copy)]
pub struct Use {
    /// Lines in hosts' files, once per host.
    pub lines: i64,
    pub hosts: i64,
    pub captures: i64,
    /// The serial of the last capture counted.
    last: u64,
}

impl Use {
    /// Count a line of capture `serial`, the file of `hosts` hosts.
    pub fn line(&mut self, serial: u64, hosts: u32) {
        if self.last != serial {
            self.last = serial;
            self.captures += i64::from(serial & GUEST == 0);
            self.hosts += i64::from(hosts);
        }
        self.lines += i64::from(hosts);
    }
}

/// A part lacks a column a derivation reads: most likely it was written by another version of
/// repcensus (tables of schema version 10 have no `verdict_documented_source`).
pub fn missing(part: &PartRef, c: &str) -> String {
    format!(
        "{}: no column {c} of the expected type (a part of another schema version? this \
         repcensus writes version {}: scan its input again)",
        part.name(),
        crate::tables::SCHEMA_VERSION
    )
}

/// A string column of a batch read as a dictionary: each row's value as an id of a crawl's
/// [`Names`], each dictionary value interned when a row first uses it (a dictionary can hold
/// many values no counted row uses, as `key_raw`'s unknown keys).
pub struct Dict<'b> {
    keys: &'b DictionaryArray<Int32Type>,
    values: &'b StringArray,
    ids: Vec<u32>,
}

impl<'b> Dict<'b> {
    pub fn of(batch: &'b RecordBatch, c: &str, part: &PartRef) -> Result<Self> {
        let keys = batch
            .column_by_name(c)
            .and_then(|a| a.as_dictionary_opt::<Int32Type>())
            .with_context(|| missing(part, c))?;
        let values = keys
            .values()
            .as_string_opt::<i32>()
            .with_context(|| missing(part, c))?;
        Ok(Dict {
            keys,
            values,
            ids: vec![u32::MAX; values.len()],
        })
    }

    /// Row `i`'s key into the batch's dictionary (-1 for NULL): equal keys, equal values.
    pub fn raw(&self, i: usize) -> i32 {
        if self.keys.is_null(i) {
            -1
        } else {
            self.keys.keys().value(i)
        }
    }

    pub fn id(&mut self, i: usize, names: &mut Names) -> Option<u32> {
        if self.keys.is_null(i) {
            return None;
        }
        let k = self.keys.keys().value(i) as usize;
        if self.ids[k] == u32::MAX {
            self.ids[k] = names.id(self.values.value(k));
        }
        Some(self.ids[k])
    }
}
