//! A memory-mapped input that survives being truncated while it is read.
//!
//! Reading a mapped page that no longer has a file byte behind it (another process truncated the
//! file, or the disk failed) raises SIGBUS, which kills the process: every later input is lost and
//! no `errors` row says why. memmap2 leaves this to the caller, as every mapping reader must.
//!
//! Here each map is registered in a fixed table of address ranges, and one SIGBUS handler serves
//! them all: a fault inside a registered range maps a page of zeros over the faulting page (the
//! faulting read then resumes and reads zeros) and records the lowest faulting offset. After a
//! chunk is read, the scan asks [`Mapped::fault`]; after a fault it reads the chunk again as if
//! the file ended at its size now (so no zero byte reaches a table, and the rows are those of a
//! file that short), and one chunk writes a `read_error` row. A fault outside every registered range restores the handler that was
//! there before and returns, so the fault repeats under it (the default: the process dies, as it
//! would have without us).
//!
//! The handler only reads atomics and calls `mmap` and `sigaction`, both plain system calls (the
//! same recovery is what databases that map their files do); it allocates and locks nothing.

use std::fs::File;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How many maps may be registered at once; a map that finds no free slot is read through
/// `read` calls instead ([`Mapped::open`] returns `None`).
const SLOTS: usize = 256;
const NO_FAULT: usize = usize::MAX;

struct Slot {
    used: AtomicBool,
    start: AtomicUsize,
    end: AtomicUsize,
    /// Lowest faulting address inside the range, or [`NO_FAULT`].
    fault: AtomicUsize,
}

#[allow(clippy::declare_interior_mutable_const)]
const FREE: Slot = Slot {
    used: AtomicBool::new(false),
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
    fault: AtomicUsize::new(NO_FAULT),
};
static TABLE: [Slot; SLOTS] = [FREE; SLOTS];

/// An input file mapped read-only, registered with the SIGBUS handler while it lives.
pub struct Mapped {
    map: memmap2::Mmap,
    file: File,
    slot: usize,
    reported: AtomicBool,
}

/// What [`Mapped::fault`] reports: the first offset that could not be read, and the file's
/// size now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub offset: u64,
    pub size_now: Option<u64>,
}

impl Fault {
    /// How many bytes from the start can still be trusted: the file's size now, or the faulting
    /// offset when the file did not shrink (an I/O error).
    pub fn readable(&self) -> u64 {
        self.size_now
            .map_or(self.offset, |now| now.min(self.offset))
    }

    pub fn detail(&self, mapped_len: usize) -> String {
        match self.size_now {
            Some(now) if now < mapped_len as u64 => format!(
                "the input was truncated from {mapped_len} to {now} bytes while it was read; \
                 read as if it had ended there"
            ),
            _ => format!(
                "reading the mapped input failed at offset {} (I/O error); read as if it had ended there",
                self.offset
            ),
        }
    }
}

impl Mapped {
    /// Map `file` and register the map. `Ok(None)`: every slot is taken (or the platform has no
    /// handler); read the file another way.
    pub fn open(file: &File) -> std::io::Result<Option<Mapped>> {
        if !handler::install() {
            return Ok(None);
        }
        // SAFETY: the map is read-only and private; a truncation under it is what the registered
        // handler turns into zero pages instead of a fatal SIGBUS.
        let map = unsafe { memmap2::Mmap::map(file)? };
        let file = file.try_clone()?;
        let Some(slot) = claim(&map) else {
            return Ok(None);
        };
        Ok(Some(Mapped {
            map,
            file,
            slot,
            reported: AtomicBool::new(false),
        }))
    }

    pub fn map(&self) -> &memmap2::Mmap {
        &self.map
    }

    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// The first fault in this map so far, if any.
    pub fn fault(&self) -> Option<Fault> {
        let at = TABLE[self.slot].fault.load(Ordering::Acquire);
        if at == NO_FAULT {
            return None;
        }
        let offset = (at - self.map.as_ptr() as usize) as u64;
        let size_now = self.file.metadata().ok().map(|m| m.len());
        Some(Fault { offset, size_now })
    }

    /// True for the first caller only: one `errors` row per input, whichever chunk sees the
    /// fault first.
    pub fn claim_report(&self) -> bool {
        !self.reported.swap(true, Ordering::AcqRel)
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // Unregistered before `map` is unmapped (fields drop after this body).
        release_slot(self.slot);
    }
}

fn claim(map: &memmap2::Mmap) -> Option<usize> {
    let start = map.as_ptr() as usize;
    for (i, slot) in TABLE.iter().enumerate() {
        if slot
            .used
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
        {
            slot.fault.store(NO_FAULT, Ordering::Release);
            slot.start.store(start, Ordering::Release);
            slot.end.store(start + map.len(), Ordering::Release);
            return Some(i);
        }
    }
    None
}

fn release_slot(i: usize) {
    let slot = &TABLE[i];
    slot.end.store(0, Ordering::Release);
    slot.start.store(0, Ordering::Release);
    slot.used.store(false, Ordering::Release);
}

#[cfg(unix)]
mod handler {
    use super::{Ordering, TABLE};
    use std::sync::OnceLock;

    static INSTALLED: OnceLock<bool> = OnceLock::new();
    static PAGE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(4096);
    /// The action that was installed before ours, restored for faults that are not ours.
    static mut PREVIOUS: std::mem::MaybeUninit<libc::sigaction> = std::mem::MaybeUninit::uninit();

    pub fn install() -> bool {
        *INSTALLED.get_or_init(|| {
            // SAFETY: sysconf and sigaction with valid arguments; PREVIOUS is written once, here,
            // before the handler that reads it can run.
            unsafe {
                let page = libc::sysconf(libc::_SC_PAGESIZE);
                if page > 0 {
                    PAGE.store(page as usize, Ordering::Relaxed);
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigbus as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                let previous = &raw mut PREVIOUS;
                libc::sigaction(libc::SIGBUS, &action, (*previous).as_mut_ptr()) == 0
            }
        })
    }

    extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
        let addr = unsafe { (*info).si_addr() } as usize;
        for slot in &TABLE {
            let start = slot.start.load(Ordering::Acquire);
            let end = slot.end.load(Ordering::Acquire);
            if start <= addr && addr < end {
                let page = PAGE.load(Ordering::Relaxed);
                let base = addr & !(page - 1);
                // SAFETY: `base` is a page inside a live read-only map we own; replacing it with a
                // private zero page changes what our reads see there and nothing else.
                let done = unsafe {
                    libc::mmap(
                        base as *mut libc::c_void,
                        page,
                        libc::PROT_READ,
                        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                        -1,
                        0,
                    )
                };
                if done != libc::MAP_FAILED {
                    slot.fault.fetch_min(base.max(start), Ordering::AcqRel);
                    return;
                }
            }
        }
        // Not a fault in one of our maps: put the previous action back; returning re-runs the
        // faulting instruction under it.
        // SAFETY: PREVIOUS was filled by the sigaction call that installed this handler.
        unsafe {
            let previous = &raw const PREVIOUS;
            libc::sigaction(libc::SIGBUS, (*previous).as_ptr(), std::ptr::null_mut());
        }
    }
}

#[cfg(not(unix))]
mod handler {
    pub fn install() -> bool {
        false
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_of(pages: usize) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input");
        let mut f = File::create(&path).unwrap();
        f.write_all(&vec![b'x'; pages * 4096]).unwrap();
        (dir, path)
    }

    #[test]
    fn a_file_truncated_under_the_map_reads_zeros_and_reports_the_first_lost_offset() {
        let (_dir, path) = file_of(4);
        let mapped = Mapped::open(&File::open(&path).unwrap()).unwrap().unwrap();
        assert_eq!(mapped.bytes()[3 * 4096], b'x');
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(4096 + 100)
            .unwrap();
        // Page 0 and 1 are still backed (page 1 partly: the rest of it reads as zeros).
        assert_eq!(mapped.bytes()[0], b'x');
        let tail: Vec<u8> = mapped.bytes()[2 * 4096..].to_vec();
        assert!(tail.iter().all(|&b| b == 0));
        let fault = mapped.fault().expect("a fault was recorded");
        assert_eq!(fault.offset, 2 * 4096);
        assert_eq!(fault.size_now, Some(4096 + 100));
        assert_eq!(fault.readable(), 4096 + 100);
        assert!(fault
            .detail(mapped.bytes().len())
            .contains("truncated from 16384 to 4196"));
        assert!(mapped.claim_report());
        assert!(!mapped.claim_report(), "reported once");
    }

    #[test]
    fn an_intact_map_reports_no_fault_and_frees_its_slot() {
        let (_dir, path) = file_of(2);
        let mapped = Mapped::open(&File::open(&path).unwrap()).unwrap().unwrap();
        assert!(mapped.bytes().iter().all(|&b| b == b'x'));
        assert_eq!(mapped.fault(), None);
        let (slot, start) = (mapped.slot, mapped.bytes().as_ptr() as usize);
        drop(mapped);
        let freed = &TABLE[slot];
        assert!(
            !freed.used.load(Ordering::Acquire) || freed.start.load(Ordering::Acquire) != start,
            "the slot no longer holds the dropped map"
        );
    }
}
