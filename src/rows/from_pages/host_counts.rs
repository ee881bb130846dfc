//! Per-host counts for the `host_counts` table: responses by host, status class and HTML or
//! not, with how many carried a robots meta tag, a signal header or both. A chunk's counts are
//! merged into its input's; an input with very many hosts spills sorted runs to scratch files and
//! merges them back when it ends, so memory stays bounded and the rows are the same.

use crate::rows::from_pages::page_signals::Carried;
use crate::tables::{AppendRow, HostCountRow, TableBuilder};
use hashbrown::HashTable;

/// Counts of one (host, status class, html) cell.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub responses: u64,
    pub with_meta: u64,
    pub with_header: u64,
    pub with_both: u64,
    pub with_robots_tag: u64,
    pub with_tdm: u64,
}

impl Cell {
    /// The six counts, in column order (the scratch runs store them so).
    fn counts(&self) -> [u64; 6] {
        [
            self.responses,
            self.with_meta,
            self.with_header,
            self.with_both,
            self.with_robots_tag,
            self.with_tdm,
        ]
    }

    fn from_counts(c: [u64; 6]) -> Cell {
        let [responses, with_meta, with_header, with_both, with_robots_tag, with_tdm] = c;
        Cell {
            responses,
            with_meta,
            with_header,
            with_both,
            with_robots_tag,
            with_tdm,
        }
    }
}

/// Add a host's cells to another's.
fn add_cells(mine: &mut [[Cell; 2]; 5], other: &[[Cell; 2]; 5]) {
    for (m, o) in mine.as_flattened_mut().iter_mut().zip(other.as_flattened()) {
        let (a, b) = (m.counts(), o.counts());
        *m = Cell::from_counts(std::array::from_fn(|i| a[i] + b[i]));
    }
}

const STATUS_CLASSES: [&str; 5] = ["2xx", "3xx", "4xx", "5xx", "other"];

fn status_class(status: Option<i32>) -> usize {
    match status {
        Some(200..=299) => 0,
        Some(300..=399) => 1,
        Some(400..=499) => 2,
        Some(500..=599) => 3,
        _ => 4,
    }
}

/// Per-host counts of one chunk or input.
#[derive(Debug, Default)]
pub struct HostCounts {
    /// Index of each host's entry by the hash of its name. The entries (and the names, stored
    /// once) live in a vector beside it: the table's entries stay small, so growing it (one
    /// entry per host: every capture of a robots.txt archive is a new host) moves little.
    index: HashTable<u32>,
    hosts: Vec<HostEntry>,
}

#[derive(Debug)]
struct HostEntry {
    host: Box<str>,
    /// Found when a chunk first sees the host (in the workers, not when the input ends).
    registered_domain: Option<Box<str>>,
    cells: [[Cell; 2]; 5],
}

fn host_hash(host: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(host)
}

/// The registered domain of a host key (none for an IP address or no host).
fn registered_domain(host: &str) -> Option<Box<str>> {
    if host.is_empty() || host.parse::<std::net::IpAddr>().is_ok() {
        return None;
    }
    psl::domain_str(host).map(|d| d.to_ascii_lowercase().into())
}

impl HostCounts {
    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty()
    }

    fn find(&self, host: &str, hash: u64) -> Option<u32> {
        let hosts = &self.hosts;
        let i = self.index.find(hash, |&i| &*hosts[i as usize].host == host);
        i.copied()
    }

    fn cells_of(&mut self, host: &str) -> &mut [[Cell; 2]; 5] {
        let h = host_hash(host);
        let i = match self.find(host, h) {
            Some(i) => i,
            None => self.insert(host.into(), registered_domain(host), h),
        };
        &mut self.hosts[i as usize].cells
    }

    fn insert(&mut self, host: Box<str>, registered_domain: Option<Box<str>>, hash: u64) -> u32 {
        let i = self.hosts.len() as u32;
        self.hosts.push(HostEntry {
            host,
            registered_domain,
            cells: Default::default(),
        });
        let hosts = &self.hosts;
        self.index
            .insert_unique(hash, i, |&j| host_hash(&hosts[j as usize].host));
        i
    }

    pub fn add(&mut self, host: &str, status: Option<i32>, html: bool, c: Carried) {
        let cells = self.cells_of(host);
        let cell = &mut cells[status_class(status)][usize::from(html)];
        cell.responses += 1;
        cell.with_meta += u64::from(c.meta);
        cell.with_header += u64::from(c.header);
        cell.with_both += u64::from(c.meta && c.header);
        cell.with_robots_tag += u64::from(c.robots_tag);
        cell.with_tdm += u64::from(c.tdm);
    }

    pub fn merge(&mut self, other: HostCounts) {
        for e in other.hosts {
            let h = host_hash(&e.host);
            let i = match self.find(&e.host, h) {
                Some(i) => i,
                None => self.insert(e.host, e.registered_domain, h),
            };
            add_cells(&mut self.hosts[i as usize].cells, &e.cells);
        }
    }

    pub fn len(&self) -> usize {
        self.hosts.len()
    }

    /// The entries' indexes, hosts sorted (by their bytes).
    fn sorted(&self) -> Vec<u32> {
        // Sort by the first 16 bytes (kept in the sort key) before comparing whole names:
        // comparing the scattered strings themselves was most of the sort's time.
        let prefix = |h: &str| {
            let mut k = [0u8; 16];
            let n = h.len().min(16);
            k[..n].copy_from_slice(&h.as_bytes()[..n]);
            u128::from_be_bytes(k)
        };
        let mut order: Vec<(u128, u32)> = self
            .hosts
            .iter()
            .enumerate()
            .map(|(i, e)| (prefix(&e.host), i as u32))
            .collect();
        order.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| {
                self.hosts[a.1 as usize]
                    .host
                    .cmp(&self.hosts[b.1 as usize].host)
            })
        });
        order.into_iter().map(|(_, i)| i).collect()
    }

    /// The hosts' rows, hosts sorted, handed to `out` in batches of up to 2^20 rows (`flush`
    /// takes each full batch; the caller writes the last).
    pub fn emit<B, E>(
        &self,
        out: &mut B,
        warc_file: &str,
        mut flush: impl FnMut(&mut B) -> Result<(), E>,
    ) -> Result<(), E>
    where
        B: TableBuilder + for<'x> AppendRow<HostCountRow<'x>>,
    {
        for i in self.sorted() {
            let e = &self.hosts[i as usize];
            append_host_rows(
                out,
                warc_file,
                &e.host,
                e.registered_domain.as_deref(),
                &e.cells,
                &mut flush,
            )?;
        }
        Ok(())
    }

    /// Write the entries, hosts sorted, as a run ([`HostTotals`]) and forget them.
    fn spill(&mut self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        for i in self.sorted() {
            let e = &self.hosts[i as usize];
            write_run_entry(w, &e.host, e.registered_domain.as_deref(), &e.cells)?;
        }
        *self = HostCounts::default();
        Ok(())
    }
}

/// Append the rows of one host (one per cell with responses), flushing full batches first.
fn append_host_rows<B, E>(
    out: &mut B,
    warc_file: &str,
    host: &str,
    rd: Option<&str>,
    cells: &[[Cell; 2]; 5],
    flush: &mut impl FnMut(&mut B) -> Result<(), E>,
) -> Result<(), E>
where
    B: TableBuilder + for<'x> AppendRow<HostCountRow<'x>>,
{
    if out.len() >= 1 << 20 {
        flush(out)?;
    }
    for (class, pair) in cells.iter().enumerate() {
        for (html, cell) in pair.iter().enumerate() {
            if cell.responses == 0 {
                continue;
            }
            let n = |v: u64| Some(v as i64);
            out.append_row(&HostCountRow {
                warc_file: Some(warc_file),
                host: (!host.is_empty()).then_some(host),
                registered_domain: rd,
                status_class: Some(STATUS_CLASSES[class]),
                html: Some(html == 1),
                responses: n(cell.responses),
                with_meta: n(cell.with_meta),
                with_header: n(cell.with_header),
                with_both: n(cell.with_both),
                with_robots_tag: n(cell.with_robots_tag),
                with_tdm: n(cell.with_tdm),
            });
        }
    }
    Ok(())
}

/// Hosts held in memory per input before they are spilled to a run on disk. An entry takes
/// about 600 bytes, so this keeps an input's counts near 80 MB however many hosts it has (every
/// capture of a robots.txt archive is a new host: 820k in a 1 GiB one).
pub const HOST_SPILL_DEFAULT: usize = 1 << 17;

/// The per-host counts of one input: merged from its chunks in memory, and once they hold more
/// than `spill_at` hosts, written out as sorted runs (scratch files) and merged back when the
/// input ends. The rows are the same, in the same order, with or without runs.
pub struct HostTotals {
    mem: HostCounts,
    runs: Vec<std::path::PathBuf>,
    spill_at: usize,
}

impl Default for HostTotals {
    fn default() -> Self {
        HostTotals::new(HOST_SPILL_DEFAULT)
    }
}

impl HostTotals {
    pub fn new(spill_at: usize) -> Self {
        HostTotals {
            mem: HostCounts::default(),
            runs: Vec::new(),
            spill_at: spill_at.max(1),
        }
    }

    /// Runs written so far.
    #[cfg(test)]
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Add a chunk's counts; past the limit, spill to a new run at `scratch(n)` (n: the run's
    /// number).
    pub fn merge(
        &mut self,
        chunk: HostCounts,
        scratch: impl FnOnce(usize) -> std::path::PathBuf,
    ) -> std::io::Result<()> {
        self.mem.merge(chunk);
        if self.mem.len() > self.spill_at {
            self.spill(scratch(self.runs.len()))?;
        }
        Ok(())
    }

    fn spill(&mut self, path: std::path::PathBuf) -> std::io::Result<()> {
        let file = std::fs::File::create(&path)?;
        // Recorded before writing, so a failed run is still removed.
        self.runs.push(path);
        let mut w = std::io::BufWriter::with_capacity(1 << 16, file);
        self.mem.spill(&mut w)?;
        std::io::Write::flush(&mut w)
    }

    /// The rows of every host, hosts sorted, as [`HostCounts::emit`] gives them; the runs are
    /// merged (equal hosts summed) and removed.
    pub fn emit<B, E>(
        mut self,
        out: &mut B,
        warc_file: &str,
        scratch: impl FnOnce(usize) -> std::path::PathBuf,
        mut flush: impl FnMut(&mut B) -> Result<(), E>,
    ) -> Result<(), E>
    where
        B: TableBuilder + for<'x> AppendRow<HostCountRow<'x>>,
        E: From<std::io::Error>,
    {
        if self.runs.is_empty() {
            return self.mem.emit(out, warc_file, flush);
        }
        if !self.mem.is_empty() {
            self.spill(scratch(self.runs.len()))?;
        }
        let mut readers = Vec::with_capacity(self.runs.len());
        for path in &self.runs {
            let mut r = RunReader {
                r: std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(path)?),
                entry: RunEntry::default(),
            };
            if r.next()? {
                readers.push(r);
            }
        }
        // Min-heap of the runs by their current host (then run number: equal hosts are summed).
        // The host moves into the heap and back out into the entry: no copy per host.
        let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<(String, usize)>> = readers
            .iter_mut()
            .enumerate()
            .map(|(i, r)| std::cmp::Reverse((std::mem::take(&mut r.entry.host), i)))
            .collect();
        let mut put = |e: &RunEntry| {
            append_host_rows(
                out,
                warc_file,
                &e.host,
                e.rd.as_deref(),
                &e.cells,
                &mut flush,
            )
        };
        let mut cur: Option<RunEntry> = None;
        while let Some(std::cmp::Reverse((host, i))) = heap.pop() {
            let r = &mut readers[i];
            match &mut cur {
                Some(c) if c.host == host => add_cells(&mut c.cells, &r.entry.cells),
                _ => {
                    if let Some(done) = cur.take() {
                        put(&done)?;
                    }
                    cur = Some(RunEntry {
                        host,
                        ..std::mem::take(&mut r.entry)
                    });
                }
            }
            if r.next()? {
                heap.push(std::cmp::Reverse((std::mem::take(&mut r.entry.host), i)));
            }
        }
        if let Some(done) = cur {
            put(&done)?;
        }
        Ok(())
    }
}

impl Drop for HostTotals {
    fn drop(&mut self) {
        for path in &self.runs {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// One host of a run: the host, its registered domain, then a bit per non-empty cell and those
/// cells' six counts (lengths and counts little-endian; a scratch format, read back only here).
fn write_run_entry(
    w: &mut impl std::io::Write,
    host: &str,
    rd: Option<&str>,
    cells: &[[Cell; 2]; 5],
) -> std::io::Result<()> {
    w.write_all(&(host.len() as u32).to_le_bytes())?;
    w.write_all(host.as_bytes())?;
    match rd {
        Some(rd) => {
            w.write_all(&(rd.len() as u32).to_le_bytes())?;
            w.write_all(rd.as_bytes())?;
        }
        None => w.write_all(&u32::MAX.to_le_bytes())?,
    }
    let cells = cells.as_flattened();
    let mask = cells
        .iter()
        .enumerate()
        .filter(|(_, c)| **c != Cell::default())
        .fold(0u16, |m, (i, _)| m | 1 << i);
    w.write_all(&mask.to_le_bytes())?;
    for c in cells.iter().filter(|c| **c != Cell::default()) {
        for v in c.counts() {
            w.write_all(&v.to_le_bytes())?;
        }
    }
    Ok(())
}

#[derive(Default)]
struct RunEntry {
    host: String,
    rd: Option<String>,
    cells: [[Cell; 2]; 5],
}

struct RunReader {
    r: std::io::BufReader<std::fs::File>,
    entry: RunEntry,
}

impl RunReader {
    /// Read the next entry into `entry`; false at the end of the run.
    fn next(&mut self) -> std::io::Result<bool> {
        use std::io::{Error, ErrorKind, Read};
        let mut len = [0u8; 4];
        match self.r.read_exact(&mut len) {
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Ok(false),
            r => r?,
        }
        let string = |n: u32, r: &mut std::io::BufReader<std::fs::File>| {
            let mut b = vec![0u8; n as usize];
            r.read_exact(&mut b)?;
            String::from_utf8(b).map_err(|e| Error::new(ErrorKind::InvalidData, e))
        };
        self.entry.host = string(u32::from_le_bytes(len), &mut self.r)?;
        self.r.read_exact(&mut len)?;
        let n = u32::from_le_bytes(len);
        self.entry.rd = if n == u32::MAX {
            None
        } else {
            Some(string(n, &mut self.r)?)
        };
        let mut mask = [0u8; 2];
        self.r.read_exact(&mut mask)?;
        let mask = u16::from_le_bytes(mask);
        let mut v = [0u8; 8];
        let mut next = |r: &mut std::io::BufReader<std::fs::File>| -> std::io::Result<u64> {
            r.read_exact(&mut v)?;
            Ok(u64::from_le_bytes(v))
        };
        for (i, c) in self.entry.cells.as_flattened_mut().iter_mut().enumerate() {
            let mut counts = [0u64; 6];
            if mask & 1 << i != 0 {
                for v in &mut counts {
                    *v = next(&mut self.r)?;
                }
            }
            *c = Cell::from_counts(counts);
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::HostCountsArrow;

    /// Chunks of counts with hosts repeated across chunks (and some in none but one).
    fn chunks() -> Vec<HostCounts> {
        let hosts = [
            "example.com",
            "www.example.com",
            "a.example.org",
            "",
            "192.0.2.1",
            "b.example.co.uk",
            "example.com.",
            "z",
            "www.example.com.au",
            "a-very-long-host-name-past-sixteen-bytes.example",
            "a-very-long-host-name-past-sixteen-bytes.example.net",
        ];
        (0..7)
            .map(|c| {
                let mut hc = HostCounts::default();
                for (i, h) in hosts.iter().enumerate() {
                    if (i + c) % 3 == 0 {
                        continue;
                    }
                    let status = [Some(200), Some(404), None, Some(301), Some(503)][(i * c) % 5];
                    let carried = Carried {
                        meta: (i + c) % 2 == 0,
                        header: i % 3 == 1,
                        robots_tag: c == 2,
                        tdm: i == 4,
                        ai_prefs: false,
                        signals: 0,
                    };
                    hc.add(h, status, (i + c) % 4 != 0, carried);
                }
                hc
            })
            .collect()
    }

    fn no_flush(_: &mut HostCountsArrow) -> Result<(), std::io::Error> {
        Ok(())
    }

    #[test]
    fn spilled_runs_give_the_rows_of_memory() {
        let mut all = HostCounts::default();
        for c in chunks() {
            all.merge(c);
        }
        let mut want = HostCountsArrow::default();
        all.emit(&mut want, "f.warc.gz", no_flush).unwrap();
        let want = want.finish("c");
        assert!(want.num_rows() > 20);

        let dir = std::env::temp_dir().join(format!("repcensus-hosts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for spill_at in [1, 2, 5, 100] {
            let mut totals = HostTotals::new(spill_at);
            let path = |n: usize| dir.join(format!("s{spill_at}-{n}.run"));
            for c in chunks() {
                totals.merge(c, path).unwrap();
            }
            let runs = totals.runs();
            assert_eq!(runs > 0, spill_at < 11, "spill_at {spill_at}: {runs} runs");
            let mut got = HostCountsArrow::default();
            totals.emit(&mut got, "f.warc.gz", path, no_flush).unwrap();
            assert_eq!(got.finish("c"), want, "spill_at {spill_at}");
        }
        // The runs are removed once emitted.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir(&dir).unwrap();
    }
}
