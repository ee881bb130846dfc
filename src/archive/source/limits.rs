//! How long one streamed input (a pipe, a FIFO, a remote object) may keep the scan waiting: no
//! byte for `stall` (`--stall-timeout`), or in all `deadline` (`--input-deadline`). The pipe
//! reader ([`crate::archive::source::local::StallReader`]) and the remote reader
//! ([`crate::archive::source::remote::RemoteReader`]) share these rules and messages through [`Clock`].

use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub stall: Duration,
    pub deadline: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            stall: Duration::from_secs(120),
            deadline: None,
        }
    }
}

impl Limits {
    /// The limits of an input whose reading starts now.
    pub fn start(self) -> Clock {
        Clock {
            limits: self,
            started: Instant::now(),
        }
    }
}

/// An input's [`Limits`], counted from when its reading started.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    limits: Limits,
    started: Instant,
}

impl Clock {
    /// Time left before the deadline (`Duration::MAX` without one).
    pub fn left(&self) -> Duration {
        self.limits
            .deadline
            .map_or(Duration::MAX, |d| d.saturating_sub(self.started.elapsed()))
    }

    /// How long the next wait may last: the stall timeout, or less when the deadline is nearer.
    pub fn next_wait(&self) -> Duration {
        self.limits.stall.min(self.left())
    }

    /// An error once the deadline has passed.
    pub fn check(&self) -> std::io::Result<()> {
        match self.limits.deadline {
            Some(_) if self.left().is_zero() => Err(self.timed_out(Duration::ZERO)),
            _ => Ok(()),
        }
    }

    /// The error for a wait of `waited` (a [`Clock::next_wait`]) that brought nothing: the
    /// deadline when it cut the wait short, else a stall.
    pub fn timed_out(&self, waited: Duration) -> std::io::Error {
        let why = match self.limits.deadline {
            Some(d) if waited < self.limits.stall => format!(
                "the input deadline ({} s, --input-deadline) passed",
                d.as_secs()
            ),
            _ => format!(
                "no byte arrived for {} s (--stall-timeout)",
                self.limits.stall.as_secs()
            ),
        };
        std::io::Error::new(std::io::ErrorKind::TimedOut, why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_cuts_the_last_wait_short_and_names_itself() {
        let stall = Duration::from_secs(10);
        let clock = Limits {
            stall,
            deadline: Some(Duration::from_secs(3)),
        }
        .start();
        let wait = clock.next_wait();
        assert!(wait <= Duration::from_secs(3) && wait > Duration::from_secs(2));
        assert!(clock.check().is_ok());
        assert!(clock
            .timed_out(wait)
            .to_string()
            .contains("--input-deadline"));
        assert!(clock
            .timed_out(stall)
            .to_string()
            .contains("--stall-timeout"));
        let spent = Limits {
            stall,
            deadline: Some(Duration::ZERO),
        }
        .start();
        assert!(spent
            .check()
            .unwrap_err()
            .to_string()
            .contains("deadline (0 s"));
        let unbounded = Limits::default().start();
        assert_eq!(unbounded.next_wait(), Duration::from_secs(120));
    }
}
