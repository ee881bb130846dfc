//! A robots.txt capture as the index of `robots_hosts` keeps it ([`Seen`]: a crawl keeps one
//! per host, so it is small) and the latest of a host's or a URL's captures ([`Latest`]), with
//! what makes them small: a registered domain kept as the end of its host name, the host's own
//! robots.txt URL not stored, flags packed in bits, and names compared by a 16-byte prefix.

use super::site::Site;
use crate::parts::runs::Names;
use crate::robots::parse::Split;

/// A capture's registered domain. It is nearly always the end of its host name, and then is not
/// stored again.
#[derive(Clone, Copy)]
pub(super) enum Domain {
    None,
    /// The last this many bytes of the host name.
    EndOfHost(u16),
    /// In [`CrawlIndex::domains`].
    Other(u32),
}

/// A capture, as much of it as `robots_hosts` needs: a whole crawl keeps one per host, so it
/// is kept small (80 bytes; a test holds it there).
pub(super) struct Seen {
    pub(super) file: u32,
    pub(super) offset: i64,
    /// `capture_time`, when `has_time`.
    pub(super) time: i64,
    pub(super) has_time: bool,
    /// In [`CrawlIndex::hosts`].
    pub(super) host: u32,
    pub(super) domain: Domain,
    pub(super) outcome: Option<u32>,
    /// The URL, unless it is the robots.txt URL of the host (`http://{host}/robots.txt`, or
    /// `https://` when `https`), as nearly every one is.
    pub(super) url: Option<Box<str>>,
    pub(super) https: bool,
    /// `fetch_outcome` is `redirect`.
    pub(super) redirect: bool,
    pub(super) location: Option<Box<str>>,
    /// `robots_files.wildcard_split` and `wildcard_with_ai`, as bits.
    pub(super) mistakes: u8,
}

/// [`Seen::mistakes`] bits.
pub(super) const MISTAKE_SPLIT: u8 = 1;
pub(super) const MISTAKE_AI: u8 = 2;
/// The three bits above these hold `group_split` ([`Columns::mistakes`]).
pub(super) const SPLIT_SHIFT: u8 = 2;
/// `robots_files.cloudflare_managed` and `cloudflare_contradicted`, above `group_split`.
pub(super) const CLOUDFLARE_MANAGED: u8 = 1 << 5;
pub(super) const CLOUDFLARE_CONTRADICTED: u8 = 1 << 6;

/// The `group_split` of [`Seen::mistakes`].
pub(super) fn group_split(mistakes: u8) -> Option<Split> {
    let k = (mistakes >> SPLIT_SHIFT) & 7;
    (k > 0).then(|| Split::ALL[usize::from(k) - 1])
}

/// Whether `url` is `http://{host}/robots.txt` (`Some(false)`) or `https://{host}/robots.txt`
/// (`Some(true)`).
pub(super) fn robots_url_of(url: &str, host: &str) -> Option<bool> {
    let (https, rest) = match url.strip_prefix("https://") {
        Some(rest) => (true, rest),
        None => (false, url.strip_prefix("http://")?),
    };
    (rest.strip_prefix(host)? == "/robots.txt").then_some(https)
}

/// Append the robots.txt URL of `host` to `buf` (the inverse of [`robots_url_of`]).
fn push_robots_url(buf: &mut String, https: bool, host: &str) {
    buf.push_str(if https { "https://" } else { "http://" });
    buf.push_str(host);
    buf.push_str("/robots.txt");
}

/// The latest of the captures seen for a host or a URL, and how many there were.
pub(super) struct Latest {
    pub(super) seen: Seen,
    pub(super) captures: u32,
    /// The fetch outcomes of the host's captures, a bit per outcome id below 32 (a host's
    /// entry only; a redirect target's is 0).
    pub(super) outcomes: u32,
}

impl Seen {
    pub(super) fn copy(&self) -> Seen {
        Seen {
            url: self.url.clone(),
            location: self.location.clone(),
            ..*self
        }
    }

    /// The URL of this capture of `host`, made in `buf` when it is the robots.txt URL of it.
    pub(super) fn url<'a>(&'a self, host: &str, buf: &'a mut String) -> &'a str {
        match &self.url {
            Some(url) => url,
            None => {
                buf.clear();
                push_robots_url(buf, self.https, host);
                buf
            }
        }
    }

    pub(super) fn time(&self) -> Option<i64> {
        self.has_time.then_some(self.time)
    }

    /// The site of this capture's URL.
    pub(super) fn site(&self) -> Site {
        match &self.url {
            None => Site::default_of(self.https),
            // Every `robots_files` URL is an `http` or `https` one.
            Some(url) => Site::of_url(url).unwrap_or(Site::default_of(false)),
        }
    }

    /// Capture order: `capture_time` (none first), then `warc_file`, then `warc_offset`, as the
    /// queries order them.
    pub(super) fn is_after(&self, other: &Seen, files: &Names) -> bool {
        (self.time(), files.get(self.file), self.offset)
            > (other.time(), files.get(other.file), other.offset)
    }
}

impl Latest {
    /// Count `seen`, and keep it when it is the latest.
    pub(super) fn keep(&mut self, seen: Seen, files: &Names) {
        self.captures += 1;
        if seen.is_after(&self.seen, files) {
            self.seen = seen;
        }
    }
}

/// The first 16 bytes of `s`, zero-padded, as a big-endian number: two strings that differ in
/// them compare as these numbers do (a string that ends first pads with zeros, which sort
/// before every other byte; a NUL byte in a name only makes two keys equal, and the names are
/// then compared whole).
pub(super) fn prefix_key(s: &str) -> u128 {
    let mut b = [0u8; 16];
    let n = s.len().min(16);
    b[..n].copy_from_slice(&s.as_bytes()[..n]);
    u128::from_be_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Names sorted by their prefix key, then whole, are sorted as strings.
        #[test]
        fn prefix_keys_sort_names_as_their_bytes(mut names in proptest::collection::vec(
            "\\PC{0,20}|[a-z0-9.\\-]{0,24}|www\\.[a-z]{0,3}\\.example\\.[a-z]{2,3}", 0..64,
        )) {
            let mut by_key = names.clone();
            by_key.sort_by(|a, b| prefix_key(a).cmp(&prefix_key(b)).then_with(|| a.cmp(b)));
            names.sort();
            prop_assert_eq!(by_key, names);
        }
    }

    /// A URL kept as "the robots.txt URL of its host" is made again exactly, and no other URL
    /// is taken for one.
    fn round_trips(url: &str, host: &str) -> Result<(), TestCaseError> {
        if let Some(https) = robots_url_of(url, host) {
            let mut made = String::new();
            push_robots_url(&mut made, https, host);
            prop_assert_eq!(made, url);
        }
        Ok(())
    }

    /// A crawl keeps one of these per host (tens of millions): 139 bytes per host measured in
    /// all (BENCHMARKS.md), of which this is the most.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_hosts_latest_capture_takes_88_bytes() {
        assert_eq!(std::mem::size_of::<Seen>(), 80);
        assert_eq!(std::mem::size_of::<Latest>(), 88);
    }

    #[test]
    fn robots_urls_of_their_host_are_made_again_exactly() {
        assert_eq!(
            robots_url_of("http://a.example/robots.txt", "a.example"),
            Some(false)
        );
        assert_eq!(
            robots_url_of("https://a.example/robots.txt", "a.example"),
            Some(true)
        );
        for (url, host) in [
            ("https://A.example/robots.txt", "a.example"),
            ("https://a.example:8443/robots.txt", "a.example"),
            ("https://a.example/robots.txt?x", "a.example"),
            ("https://www.a.example/robots.txt", "a.example"),
            ("ftp://a.example/robots.txt", "a.example"),
        ] {
            assert_eq!(robots_url_of(url, host), None, "{url}");
        }
        proptest!(|(scheme in "(https?|ftp)://", host in "[a-zA-Z0-9.:-]{0,12}",
                    other in "[a-zA-Z0-9.:-]{0,12}", path in "/robots\\.txt|/[a-z./]{0,12}")| {
            round_trips(&format!("{scheme}{host}{path}"), &host)?;
            round_trips(&format!("{scheme}{host}{path}"), &other)?;
        });
    }
}
