//! The effective robots.txt of a host: RFC 9309 section 2.3.1.2 has crawlers follow at least five
//! redirects of a robots.txt fetch, so a host whose `/robots.txt` answers 301 to `https://` or to
//! `www.` is governed by the file at the end of the chain, not by "redirect".
//!
//! [`follow`] follows redirects among the captures of one crawl, looked up through an [`Index`]:
//! each capture is found by its URL (scheme, host, port and path+query, normalized by the `url`
//! crate: [`url_key`]), the latest capture of a URL standing for it. A chain ends at the first
//! capture that is not a redirect ([`Resolution::Direct`] when there was no hop,
//! [`Resolution::Resolved`] after one to five), or fails: a location that is not a URL, a target
//! never captured in the crawl, a loop, or more than five hops. Targets on another host are
//! followed (Google follows them too) and flagged.

/// At most this many redirects are followed (RFC 9309 section 2.3.1.2: "at least five").
pub const MAX_HOPS: u8 = 5;

/// A robots.txt capture, as the resolver needs it.
#[derive(Clone, Copy, Debug)]
pub struct Capture<'a> {
    /// The capture's URL (`WARC-Target-URI`).
    pub url: &'a str,
    /// The response was a redirect (`fetch_outcome` `redirect`).
    pub redirect: bool,
    /// Its `Location` header, if any (absolute or relative to `url`).
    pub location: Option<&'a str>,
}

str_enum! {
    /// How a capture's chain of redirects ended.
    pub enum Resolution {
        /// Not a redirect: the capture is its own effective capture.
        Direct = "direct",
        /// One to five redirects led to a capture that is not a redirect.
        Resolved = "resolved",
        /// A redirect without a usable `Location`.
        BadLocation = "bad_location",
        /// The target URL was never captured in the crawl.
        MissingTarget = "missing_target",
        /// The chain came back to a URL it had passed.
        Loop = "loop",
        /// More than five redirects (`MAX_HOPS`).
        TooManyHops = "too_many_hops",
    }
}

/// Where a capture's chain of redirects ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effective<Id> {
    /// The effective capture, when the chain ended at one.
    pub capture: Option<Id>,
    /// Redirects followed.
    pub hops: u8,
    /// Some hop went to another host.
    pub cross_host: bool,
    pub resolution: Resolution,
}

/// The captures of a crawl, as [`follow`] looks them up.
pub trait Index {
    /// How the index names a capture.
    type Id: Copy;
    /// Capture `id` when it is a redirect (`None` when it is not: a chain ends there).
    fn redirect(&self, id: Self::Id) -> Option<Capture<'_>>;
    /// The latest capture of the URL whose [`url_key`] is `key`.
    fn find(&self, key: &str) -> Option<Self::Id>;
}

/// A URL as the resolver compares them: `url`'s normalization (lower-case scheme and host, no
/// default port, `%`-encoding of the path), without the fragment.
fn key(url: &url::Url) -> String {
    let mut u = url.clone();
    u.set_fragment(None);
    u.into()
}

/// The key a capture of `url` is found by; `None` when it is not a URL.
pub fn url_key(url: &str) -> Option<String> {
    url::Url::parse(url).ok().map(|u| key(&u))
}

/// The host of `url` (as `robots_files`' `host` column writes it) and its key; `None` when it
/// is not a URL with a host.
pub fn host_and_key(url: &str) -> Option<(String, String)> {
    let u = url::Url::parse(url).ok()?;
    let host = crate::tables::host_of(&u)?.into_owned();
    Some((host, key(&u)))
}

/// Where a redirect of `c` points: the parsed URL of `c` and of its location.
fn target(c: &Capture<'_>) -> Option<(url::Url, url::Url)> {
    let base = url::Url::parse(c.url).ok()?;
    let to = base.join(c.location?.trim()).ok()?;
    Some((base, to))
}

/// Where a redirect `c` points, parsed (`None` when `c` is not a redirect or has no usable
/// location), and its key.
pub fn target_url(c: &Capture<'_>) -> Option<(url::Url, String)> {
    let (_, to) = c.redirect.then(|| target(c))??;
    let k = key(&to);
    Some((to, k))
}

/// The capture a redirect `c` points to, as its host (as `robots_files`' `host` column writes
/// it) and its key; `None` when `c` is not a redirect or has no usable location.
pub fn target_of(c: &Capture<'_>) -> Option<(String, String)> {
    let (_, to) = c.redirect.then(|| target(c))??;
    let host = crate::tables::host_of(&to)?.into_owned();
    Some((host, key(&to)))
}

/// Follow the chain of redirects that starts at capture `start`.
pub fn follow<I: Index>(index: &I, start: I::Id) -> Effective<I::Id> {
    let mut at = start;
    let mut seen: Vec<String> = Vec::new();
    let mut cross_host = false;
    let end = |capture, hops, cross_host, resolution| Effective {
        capture,
        hops,
        cross_host,
        resolution,
    };
    for hops in 0..=MAX_HOPS {
        let Some(c) = index.redirect(at) else {
            let resolution = if hops == 0 {
                Resolution::Direct
            } else {
                Resolution::Resolved
            };
            return end(Some(at), hops, cross_host, resolution);
        };
        if hops == MAX_HOPS {
            break;
        }
        let Some((from, to)) = target(&c) else {
            return end(None, hops, cross_host, Resolution::BadLocation);
        };
        cross_host |= from.host_str() != to.host_str();
        if seen.is_empty() {
            seen.push(key(&from));
        }
        let to = key(&to);
        if seen.contains(&to) {
            return end(None, hops + 1, cross_host, Resolution::Loop);
        }
        let Some(next) = index.find(&to) else {
            return end(None, hops + 1, cross_host, Resolution::MissingTarget);
        };
        seen.push(to);
        at = next;
    }
    end(None, MAX_HOPS + 1, cross_host, Resolution::TooManyHops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Captures in capture order, each URL standing for its latest capture.
    struct Slice<'c, 'a>(&'c [Capture<'a>], HashMap<String, usize>);

    impl Index for Slice<'_, '_> {
        type Id = usize;
        fn redirect(&self, id: usize) -> Option<Capture<'_>> {
            Some(self.0[id]).filter(|c| c.redirect)
        }
        fn find(&self, key: &str) -> Option<usize> {
            self.1.get(key).copied()
        }
    }

    fn resolve(captures: &[Capture<'_>]) -> Vec<Effective<usize>> {
        let by_url = captures
            .iter()
            .enumerate()
            .filter_map(|(i, c)| Some((url_key(c.url)?, i)))
            .collect();
        let index = Slice(captures, by_url);
        (0..captures.len()).map(|i| follow(&index, i)).collect()
    }

    fn ok(url: &str) -> Capture<'_> {
        Capture {
            url,
            redirect: false,
            location: None,
        }
    }

    fn to<'a>(url: &'a str, location: &'a str) -> Capture<'a> {
        Capture {
            url,
            redirect: true,
            location: Some(location),
        }
    }

    fn summary(e: &Effective<usize>) -> (Option<usize>, u8, bool, &'static str) {
        (e.capture, e.hops, e.cross_host, e.resolution.as_str())
    }

    /// Chains to https and to www. are followed to the file at their end; loops, targets never
    /// captured, missing locations and chains longer than five hops are told apart.
    #[test]
    fn chains_loops_and_missing_targets() {
        let caps = [
            /* 0 */
            to(
                "http://a.example/robots.txt",
                "https://a.example/robots.txt",
            ),
            /* 1 */ ok("https://a.example/robots.txt"),
            /* 2 */
            to(
                "http://b.example/robots.txt",
                "http://www.b.example/robots.txt",
            ),
            /* 3 */
            to(
                "http://www.b.example/robots.txt",
                "https://www.b.example/robots.txt",
            ),
            /* 4 */ ok("https://WWW.B.example:443/robots.txt"),
            /* 5 */ to("http://c.example/robots.txt", "/robots.txt?x"),
            /* 6 */
            to(
                "http://c.example/robots.txt?x",
                "http://c.example/robots.txt",
            ),
            /* 7 */
            to(
                "http://d.example/robots.txt",
                "https://d.example/robots.txt",
            ),
            /* 8 */ to("http://e.example/robots.txt", "/"),
            /* 9 */
            Capture {
                location: None,
                ..to("http://f.example/robots.txt", "")
            },
        ];
        let got: Vec<_> = resolve(&caps).iter().map(summary).collect();
        assert_eq!(got[0], (Some(1), 1, false, "resolved"));
        assert_eq!(got[1], (Some(1), 0, false, "direct"));
        assert_eq!(got[2], (Some(4), 2, true, "resolved"));
        assert_eq!(got[3], (Some(4), 1, false, "resolved"));
        assert_eq!(got[5], (None, 2, false, "loop"));
        assert_eq!(got[7], (None, 1, false, "missing_target"));
        // A redirect to the home page: no robots.txt capture there.
        assert_eq!(got[8], (None, 1, false, "missing_target"));
        assert_eq!(got[9], (None, 0, false, "bad_location"));
    }

    #[test]
    fn five_hops_are_followed_and_six_are_too_many() {
        let urls: Vec<String> = (0..8)
            .map(|i| format!("http://h{i}.example/robots.txt"))
            .collect();
        let chain = |n: usize| -> Vec<Capture<'_>> {
            (0..=n)
                .map(|i| {
                    if i < n {
                        to(&urls[i], &urls[i + 1])
                    } else {
                        ok(&urls[i])
                    }
                })
                .collect()
        };
        assert_eq!(
            summary(&resolve(&chain(5))[0]),
            (Some(5), 5, true, "resolved")
        );
        assert_eq!(
            summary(&resolve(&chain(6))[0]),
            (None, 6, true, "too_many_hops")
        );
    }

    /// The latest capture of a URL stands for it.
    #[test]
    fn the_latest_capture_of_a_target_decides() {
        let caps = [
            ok("https://a.example/robots.txt"),
            to(
                "http://a.example/robots.txt",
                "https://a.example/robots.txt",
            ),
            ok("https://a.example/robots.txt"),
        ];
        assert_eq!(resolve(&caps)[1].capture, Some(2));
    }
}
