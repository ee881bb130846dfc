//! Local inputs by kind: a regular file is mapped, a pipe (`-` for standard input, a FIFO,
//! `<(...)`, `/dev/stdin`) is read as a stream, anything else is refused with a reason.
//!
//! Two waits are bounded by the stall timeout: a FIFO that no writer opens (opening it would block
//! forever), and a pipe whose writer stops writing without closing it
//! ([`StallReader`], which polls before each read).

use crate::archive::source::limits::{Clock, Limits};
use std::fs::File;
use std::path::Path;
use std::time::Duration;

/// The argument that names standard input.
pub const STDIN: &str = "-";

/// What a local input turned out to be.
pub enum Local {
    /// A regular file: mapped and cut into chunks.
    File(File),
    /// A pipe, FIFO or socket: read front to back as it arrives.
    Stream(File),
    /// Not something an archive can be read from; the reason, for the `errors` row.
    Refused(String),
}

/// Open a local input. `Err`: it could not be opened (missing, no permission, no writer came).
pub fn open(path: &Path, stall: Duration) -> std::io::Result<Local> {
    if path.as_os_str() == STDIN {
        return open_stdin();
    }
    let meta = std::fs::metadata(path)?;
    let ty = meta.file_type();
    if ty.is_file() {
        return File::open(path).map(Local::File);
    }
    if ty.is_dir() {
        return Ok(Local::Refused("a folder that was not searched".into()));
    }
    kinds::open_special(path, &ty, stall)
}

fn open_stdin() -> std::io::Result<Local> {
    #[cfg(unix)]
    {
        use std::io::IsTerminal;
        use std::os::fd::AsFd;
        let stdin = std::io::stdin();
        if stdin.is_terminal() {
            return Ok(Local::Refused(
                "standard input (`-`) is a terminal, not an archive; pipe one in or give a file"
                    .into(),
            ));
        }
        let file = File::from(stdin.as_fd().try_clone_to_owned()?);
        let ty = file.metadata()?.file_type();
        Ok(if ty.is_file() {
            Local::File(file)
        } else {
            kinds::classify_open(file, &ty)
        })
    }
    #[cfg(not(unix))]
    Ok(Local::Refused(
        "standard input is read on Unix-like systems only".into(),
    ))
}

#[cfg(unix)]
mod kinds {
    use super::{Local, StallReader};
    use std::fs::{File, FileType};
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    use std::path::Path;
    use std::time::Duration;

    pub fn open_special(path: &Path, ty: &FileType, stall: Duration) -> std::io::Result<Local> {
        if !ty.is_fifo() {
            return Ok(refused(ty));
        }
        // Opened without waiting for a writer, then polled: a FIFO nobody writes to would
        // otherwise block this worker for ever.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)?;
        if !StallReader::wait_readable(&file, stall)? {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!(
                    "no writer opened the FIFO within {} s (--stall-timeout)",
                    stall.as_secs()
                ),
            ));
        }
        set_blocking(&file)?;
        Ok(Local::Stream(file))
    }

    /// Standard input that is not a regular file or a terminal.
    pub fn classify_open(file: File, ty: &FileType) -> Local {
        if ty.is_fifo() || ty.is_socket() {
            Local::Stream(file)
        } else {
            refused(ty)
        }
    }

    fn refused(ty: &FileType) -> Local {
        let what = if ty.is_char_device() {
            "a character device (like /dev/zero or a terminal)"
        } else if ty.is_block_device() {
            "a block device"
        } else if ty.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        };
        Local::Refused(format!(
            "{what} is not read as an archive; give a file, a folder, a pipe or `-` for standard input"
        ))
    }

    fn set_blocking(file: &File) -> std::io::Result<()> {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor this function's caller owns, with plain integer flags.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) < 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

#[cfg(not(unix))]
mod kinds {
    use super::Local;
    use std::fs::FileType;
    use std::path::Path;
    use std::time::Duration;

    pub fn open_special(_: &Path, _: &FileType, _: Duration) -> std::io::Result<Local> {
        Ok(Local::Refused("not a regular file".into()))
    }
}

/// A pipe read with a bound on how long one read may wait (no byte for `limits.stall`) and on
/// the whole input (`limits.deadline`): either is an error (`TimedOut`), so a writer that hangs
/// or trickles cannot hold the scan.
pub struct StallReader {
    file: File,
    clock: Clock,
}

impl StallReader {
    pub fn new(file: File, limits: Limits) -> Self {
        StallReader {
            file,
            clock: limits.start(),
        }
    }

    /// Wait until `file` has a byte to read, or its end (true), or `stall` passes (false).
    #[cfg(unix)]
    pub fn wait_readable(file: &File, stall: Duration) -> std::io::Result<bool> {
        use std::os::fd::AsRawFd;
        let mut fds = libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let deadline = std::time::Instant::now() + stall;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let ms = left.as_millis().min(i32::MAX as u128) as i32;
            // SAFETY: one valid pollfd, its count, a timeout.
            let n = unsafe { libc::poll(&mut fds, 1, ms) };
            if n > 0 {
                return Ok(true);
            }
            if n == 0 {
                return Ok(false);
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }

    #[cfg(not(unix))]
    pub fn wait_readable(_: &File, _: Duration) -> std::io::Result<bool> {
        Ok(true)
    }
}

impl std::io::Read for StallReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.clock.check()?;
        let wait = self.clock.next_wait();
        if !Self::wait_readable(&self.file, wait)? {
            return Err(self.clock.timed_out(wait));
        }
        self.file.read(buf)
    }
}

/// The first `limit` bytes of a local file, FIFO, pipe, device or `-`, and its size in bytes, as
/// `check` and `parse` read a robots.txt. The stall timeout bounds the waits of a stream (a FIFO
/// that no writer opens, a writer that stops), as for a scan's inputs. A stream's size is counted
/// up to 64 MiB past `limit` (an endless one, like `/dev/zero`, is not read to its
/// end): the size returned is then what was counted.
pub fn read_start(path: &Path, limit: usize, stall: Duration) -> std::io::Result<(Vec<u8>, u64)> {
    use std::io::Read;
    let limits = Limits {
        stall,
        deadline: None,
    };
    let meta = (path.as_os_str() != STDIN)
        .then(|| std::fs::metadata(path))
        .transpose()?;
    let (mut reader, size): (Box<dyn Read>, Option<u64>) = match meta {
        Some(m) if m.is_file() => (Box::new(File::open(path)?), Some(m.len())),
        // A device (`/dev/null`, `/dev/zero`) is read as a stream; a FIFO is opened without
        // waiting for a writer.
        Some(m) if !m.is_dir() && !is_fifo(&m) => {
            (Box::new(StallReader::new(File::open(path)?, limits)), None)
        }
        _ => match open(path, stall)? {
            Local::File(f) => {
                let len = f.metadata()?.len();
                (Box::new(f), Some(len))
            }
            Local::Stream(f) => (Box::new(StallReader::new(f, limits)), None),
            Local::Refused(why) => return Err(std::io::Error::other(why)),
        },
    };
    let mut start = Vec::new();
    (&mut reader).take(limit as u64).read_to_end(&mut start)?;
    let read = start.len() as u64;
    let size = match size {
        Some(len) => len.max(read),
        None => {
            let rest = (&mut reader).take(STREAM_COUNT_MAX);
            read + std::io::copy(&mut { rest }, &mut std::io::sink())?
        }
    };
    Ok((start, size))
}

/// How far past what it keeps [`read_start`] counts a stream's bytes.
pub const STREAM_COUNT_MAX: u64 = 64 << 20;

#[cfg(unix)]
fn is_fifo(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    m.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::Metadata) -> bool {
    false
}
