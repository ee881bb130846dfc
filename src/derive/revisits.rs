//! Revisits: a `revisit` record says that a capture's content is the same as an earlier
//! capture's, and leaves the body out. Web archives write them for unchanged content (and
//! deduplicating crawls for identical content anywhere), so a host whose latest robots.txt
//! capture is a revisit is governed by the file of the capture it revisits.
//!
//! The capture a revisit stands for is found among the crawl's captures that are not revisits,
//! in this order ([`Revisit`] says which way it was found):
//!
//! 1. `WARC-Refers-To-Target-URI` (WARC 1.1): a capture of that URL, at `WARC-Refers-To-Date`
//!    when the revisit gives one, else the latest not after the revisit with the revisit's
//!    payload digest (any, when it gives none);
//! 2. the latest capture of the revisit's own URL not after it with the same
//!    `WARC-Payload-Digest` (the WARC 1.0 `identical-payload-digest` profile, which names no
//!    URL);
//! 3. the latest capture of any URL not after it with the same payload digest.
//!
//! "Not after" compares `capture_time` when both captures have one. A revisit is never read
//! through another revisit; one that none of these finds is [`Revisit::Unresolved`].
//!
//! Only a revisit of a 2xx response comes here (the scan gives a revisit of another status that
//! status's outcome: its response decides without a body, RFC 9309 section 2.3.1), and the
//! capture it stands for must have answered with the same status: a digest is the body's, and
//! an empty body's digest is shared by every empty 200, 301 and 404 of the crawl. Where the
//! revisit names a URL (1 and 2) a capture of unknown status still matches; by digest alone
//! (3) both statuses must be known and equal.

use rustc_hash::FxHashMap;

str_enum! {
    /// How the capture a revisit stands for was found.
    pub enum Revisit {
        /// Through `WARC-Refers-To-Target-URI` (and `WARC-Refers-To-Date`).
        RefersTo = "refers_to",
        /// The same URL with the same payload digest.
        SameUrl = "same_url",
        /// Another URL with the same payload digest.
        SameDigest = "same_digest",
        /// No capture of the crawl matches.
        Unresolved = "unresolved",
    }
}

/// What a revisit says of the capture it revisits, its URLs as [`super::redirects::url_key`]
/// keys.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reference {
    pub url: Option<Box<str>>,
    pub refers_to: Option<Box<str>>,
    pub refers_to_date: Option<i64>,
    pub digest: Option<Box<str>>,
    pub time: Option<i64>,
    /// The revisit's own HTTP status.
    pub status: Option<u16>,
}

/// A capture that some revisit may stand for: its payload digest and time (its URL is
/// where [`Originals::by_url`] lists it).
struct Candidate<T> {
    digest: Option<u32>,
    time: Option<i64>,
    status: Option<u16>,
    capture: T,
}

/// What the revisits of a crawl refer to, gathered in a first pass over its captures, and the
/// captures they may stand for, gathered in a second: only those, so that memory grows with
/// the revisits, not with the crawl.
pub struct Originals<T> {
    /// The URL keys and payload digests revisits refer to, numbered.
    urls: FxHashMap<Box<str>, u32>,
    digests: FxHashMap<Box<str>, u32>,
    /// The hosts of `urls`: only a capture on one of these can match by URL, so only their
    /// URLs need parsing.
    hosts: rustc_hash::FxHashSet<Box<str>>,
    candidates: Vec<Candidate<T>>,
    by_url: FxHashMap<u32, Vec<u32>>,
    by_digest: FxHashMap<u32, Vec<u32>>,
}

impl<T> Default for Originals<T> {
    fn default() -> Self {
        Originals {
            urls: FxHashMap::default(),
            digests: FxHashMap::default(),
            hosts: Default::default(),
            candidates: Vec::new(),
            by_url: FxHashMap::default(),
            by_digest: FxHashMap::default(),
        }
    }
}

impl<T> Originals<T> {
    /// First pass: note what a revisit refers to (its own URL and host, `WARC-Refers-To-Target-URI`
    /// and its host, its payload digest).
    pub fn refer(
        &mut self,
        url: Option<(String, String)>,
        refers_to: Option<(String, String)>,
        digest: Option<&str>,
    ) {
        for (host, key) in [url, refers_to].into_iter().flatten() {
            let n = self.urls.len() as u32;
            self.urls.entry(key.into()).or_insert(n);
            self.hosts.insert(host.into());
        }
        if let Some(d) = digest {
            let n = self.digests.len() as u32;
            self.digests.entry(d.into()).or_insert(n);
        }
    }

    /// The crawl has revisits (the second pass reads the columns they need).
    pub fn any(&self) -> bool {
        !self.urls.is_empty() || !self.digests.is_empty()
    }

    /// Whether a capture on `host` may match a revisit by URL (its URL is worth parsing).
    pub fn wants_host(&self, host: &str) -> bool {
        self.hosts.contains(host)
    }

    /// Second pass: keep a capture that is not a revisit when some revisit may stand for it.
    /// `url` is its URL key (when its host is wanted), `make` makes what is kept of it.
    pub fn offer(
        &mut self,
        url: Option<&str>,
        digest: Option<&str>,
        time: Option<i64>,
        status: Option<u16>,
        make: impl FnOnce() -> T,
    ) {
        let url = url.and_then(|u| self.urls.get(u).copied());
        let digest = digest.and_then(|d| self.digests.get(d).copied());
        if url.is_none() && digest.is_none() {
            return;
        }
        let id = self.candidates.len() as u32;
        self.candidates.push(Candidate {
            digest,
            time,
            status,
            capture: make(),
        });
        if let Some(u) = url {
            self.by_url.entry(u).or_default().push(id);
        }
        if let Some(d) = digest {
            self.by_digest.entry(d).or_default().push(id);
        }
    }

    /// The capture revisit `r` stands for, and how it was found. `is_after(a, b)`: capture `a`
    /// comes after `b` in capture order (the latest of several is kept).
    pub fn resolve(
        &self,
        r: &Reference,
        is_after: impl Fn(&T, &T) -> bool,
    ) -> (Revisit, Option<&T>) {
        let id = |map: &FxHashMap<Box<str>, u32>, k: &Option<Box<str>>| {
            k.as_deref().and_then(|k| map.get(k).copied())
        };
        let digest = id(&self.digests, &r.digest);
        let not_after = |c: &Candidate<T>| match (c.time, r.time) {
            (Some(c), Some(t)) => c <= t,
            _ => true,
        };
        // Where the revisit names the URL, a capture of unknown status may still be it.
        let may_agree = |c: &Candidate<T>| match (c.status, r.status) {
            (Some(c), Some(s)) => c == s,
            _ => true,
        };
        let agrees = |c: &Candidate<T>| r.status.is_some() && c.status == r.status;
        let latest = |ids: Option<&Vec<u32>>, fits: &dyn Fn(&Candidate<T>) -> bool| {
            let mut best: Option<&Candidate<T>> = None;
            for c in ids
                .into_iter()
                .flatten()
                .map(|&i| &self.candidates[i as usize])
            {
                if fits(c) && best.is_none_or(|b| is_after(&c.capture, &b.capture)) {
                    best = Some(c);
                }
            }
            best.map(|c| &c.capture)
        };
        if let Some(to) = id(&self.urls, &r.refers_to) {
            let found = match r.refers_to_date {
                Some(date) => latest(self.by_url.get(&to), &|c| {
                    c.time == Some(date) && may_agree(c)
                }),
                None => latest(self.by_url.get(&to), &|c| {
                    not_after(c) && (r.digest.is_none() || c.digest == digest) && may_agree(c)
                }),
            };
            if found.is_some() {
                return (Revisit::RefersTo, found);
            }
        }
        let Some(digest) = digest else {
            return (Revisit::Unresolved, None);
        };
        if let Some(own) = id(&self.urls, &r.url) {
            let found = latest(self.by_url.get(&own), &|c| {
                not_after(c) && c.digest == Some(digest) && may_agree(c)
            });
            if found.is_some() {
                return (Revisit::SameUrl, found);
            }
        }
        match latest(self.by_digest.get(&digest), &|c| not_after(c) && agrees(c)) {
            Some(found) => (Revisit::SameDigest, Some(found)),
            None => (Revisit::Unresolved, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> Option<Box<str>> {
        Some(s.into())
    }

    /// Captures as (name, URL, digest, time, HTTP status); revisits refer to some of them.
    fn originals(
        captures: &[(&'static str, &str, &str, i64, u16)],
        revisits: &[&Reference],
    ) -> Originals<(&'static str, i64)> {
        let mut o = Originals::default();
        for r in revisits {
            let url = r.url.as_deref().map(|u| ("h".to_string(), u.to_string()));
            let to = r
                .refers_to
                .as_deref()
                .map(|u| ("h".to_string(), u.to_string()));
            o.refer(url, to, r.digest.as_deref());
        }
        for &(name, url, digest, time, status) in captures {
            o.offer(Some(url), Some(digest), Some(time), Some(status), || {
                (name, time)
            });
        }
        o
    }

    fn resolve(
        o: &Originals<(&'static str, i64)>,
        r: &Reference,
    ) -> (Revisit, Option<&'static str>) {
        let (how, c) = o.resolve(r, |a, b| a.1 > b.1);
        (how, c.map(|c| c.0))
    }

    #[test]
    fn a_revisit_stands_for_the_latest_earlier_capture_of_its_url_with_its_digest() {
        let r = Reference {
            url: key("u"),
            digest: key("d1"),
            time: Some(30),
            ..Reference::default()
        };
        let o = originals(
            &[
                ("old", "u", "d1", 10, 200),
                ("other body", "u", "d2", 20, 200),
                ("same", "u", "d1", 25, 200),
                ("later", "u", "d1", 40, 200),
            ],
            &[&r],
        );
        assert_eq!(resolve(&o, &r), (Revisit::SameUrl, Some("same")));
    }

    #[test]
    fn refers_to_names_the_url_and_date_and_comes_first() {
        let r = Reference {
            url: key("u"),
            refers_to: key("v"),
            refers_to_date: Some(10),
            digest: key("d"),
            time: Some(30),
            status: Some(200),
        };
        let o = originals(
            &[
                ("v at 10", "v", "d", 10, 200),
                ("v at 20", "v", "d", 20, 200),
                ("u", "u", "d", 25, 200),
            ],
            &[&r],
        );
        assert_eq!(resolve(&o, &r), (Revisit::RefersTo, Some("v at 10")));
        // Without a date: the latest capture of that URL not after the revisit.
        let r = Reference {
            refers_to_date: None,
            ..r
        };
        assert_eq!(resolve(&o, &r), (Revisit::RefersTo, Some("v at 20")));
    }

    #[test]
    fn a_refers_to_that_matches_nothing_falls_back_to_the_digest() {
        let r = Reference {
            url: key("u"),
            refers_to: key("v"),
            refers_to_date: Some(5),
            digest: key("d"),
            time: Some(30),
            status: Some(200),
        };
        let o = originals(
            &[("v at 10", "v", "d", 10, 200), ("u", "u", "d", 25, 200)],
            &[&r],
        );
        assert_eq!(resolve(&o, &r), (Revisit::SameUrl, Some("u")));
    }

    #[test]
    fn another_url_with_the_digest_is_the_last_resort_and_nothing_later_counts() {
        let r = Reference {
            url: key("u"),
            digest: key("d"),
            time: Some(30),
            status: Some(200),
            ..Reference::default()
        };
        let o = originals(
            &[
                ("elsewhere", "w", "d", 20, 200),
                ("u later", "u", "d", 31, 200),
            ],
            &[&r],
        );
        assert_eq!(resolve(&o, &r), (Revisit::SameDigest, Some("elsewhere")));
        let o = originals(
            &[
                ("u later", "u", "d", 31, 200),
                ("w later", "w", "d", 40, 200),
            ],
            &[&r],
        );
        assert_eq!(resolve(&o, &r), (Revisit::Unresolved, None));
        let none = Reference {
            url: key("u"),
            time: Some(30),
            ..Reference::default()
        };
        assert_eq!(resolve(&o, &none), (Revisit::Unresolved, None));
    }

    /// An empty body's digest is every empty response's: a 200 revisit must not take another
    /// host's empty 301 (and follow its redirect) nor its empty 404, only a 200 of that digest.
    #[test]
    fn a_digest_match_across_urls_needs_the_revisits_own_status() {
        let r = Reference {
            url: key("u"),
            digest: key("empty"),
            time: Some(30),
            status: Some(200),
            ..Reference::default()
        };
        let o = originals(
            &[
                ("moved", "w", "empty", 25, 301),
                ("gone", "x", "empty", 26, 404),
                ("empty file", "y", "empty", 10, 200),
            ],
            &[&r],
        );
        assert_eq!(resolve(&o, &r), (Revisit::SameDigest, Some("empty file")));
        let o = originals(&[("moved", "w", "empty", 25, 301)], &[&r]);
        assert_eq!(resolve(&o, &r), (Revisit::Unresolved, None));
        // A revisit without a status matches no other URL by digest alone.
        let unknown = Reference { status: None, ..r };
        let o = originals(&[("empty file", "y", "empty", 10, 200)], &[&unknown]);
        assert_eq!(resolve(&o, &unknown), (Revisit::Unresolved, None));
    }

    /// Where the revisit names the URL, the capture must still have answered with its status.
    #[test]
    fn its_own_url_with_another_status_is_not_the_capture_it_revisits() {
        let r = Reference {
            url: key("u"),
            digest: key("empty"),
            time: Some(30),
            status: Some(200),
            ..Reference::default()
        };
        let o = originals(
            &[
                ("redirect", "u", "empty", 20, 301),
                ("empty", "u", "empty", 10, 200),
            ],
            &[&r],
        );
        assert_eq!(resolve(&o, &r), (Revisit::SameUrl, Some("empty")));
    }
}
