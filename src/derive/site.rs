//! A site, the unit a robots.txt governs (RFC 9309 section 2.3: "the rules ... apply to the
//! host, protocol and port number"): with its host, a scheme and a port.
//!
//! Read from a URL by hand rather than by the `url` crate: the pages of a crawl are many and a
//! site needs only the scheme and the authority's port; a test holds the two readings equal.

/// A URL's scheme (`http` or `https`) and port (the scheme's default when it names none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Site {
    pub https: bool,
    pub port: u16,
}

impl Site {
    /// The site of a URL `scheme://host/...` without a port.
    pub fn default_of(https: bool) -> Site {
        Site {
            https,
            port: if https { 443 } else { 80 },
        }
    }

    /// The site of an absolute `http` or `https` URL; `None` for another scheme or a port that
    /// is not a number below 65,536 (which the `url` crate refuses too).
    pub fn of_url(url: &str) -> Option<Site> {
        let (scheme, rest) = url.split_once("://")?;
        let https = if scheme.eq_ignore_ascii_case("https") {
            true
        } else if scheme.eq_ignore_ascii_case("http") {
            false
        } else {
            return None;
        };
        let end = rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len());
        let authority = &rest[..end];
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        // An IPv6 literal's colons are inside its brackets.
        let after_host = match host_port.rfind(']') {
            Some(k) => &host_port[k + 1..],
            None => host_port,
        };
        let port = match after_host.rfind(':') {
            Some(k) if k + 1 < after_host.len() => after_host[k + 1..].parse::<u16>().ok()?,
            _ => return Some(Site::default_of(https)),
        };
        Some(Site { https, port })
    }

    pub fn scheme(self) -> &'static str {
        if self.https {
            "https"
        } else {
            "http"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The `url` crate's reading of the same URL.
    fn by_url_crate(url: &str) -> Option<Site> {
        let u = url::Url::parse(url).ok()?;
        let https = match u.scheme() {
            "https" => true,
            "http" => false,
            _ => return None,
        };
        Some(Site {
            https,
            port: u.port_or_known_default()?,
        })
    }

    #[test]
    fn sites_of_urls_name_scheme_and_port() {
        let site = |url| Site::of_url(url).map(|s| (s.scheme(), s.port));
        assert_eq!(site("http://a.example/x"), Some(("http", 80)));
        assert_eq!(site("HTTPS://a.example"), Some(("https", 443)));
        assert_eq!(site("https://a.example:8443/x:1"), Some(("https", 8443)));
        assert_eq!(site("http://a.example:80/"), Some(("http", 80)));
        assert_eq!(site("http://a.example:/"), Some(("http", 80)));
        assert_eq!(site("http://u:p@a.example:81?q"), Some(("http", 81)));
        assert_eq!(site("http://[::1]:8080/"), Some(("http", 8080)));
        assert_eq!(site("http://[::1]/"), Some(("http", 80)));
        assert_eq!(site("ftp://a.example/"), None);
        assert_eq!(site("http://a.example:99999/"), None);
    }

    proptest! {
        /// Wherever the `url` crate reads a site, the reading by hand is the same.
        #[test]
        fn sites_read_by_hand_are_the_url_crates(
            scheme in "(?i)https?|ftp",
            user in "([a-z]{1,3}(:[a-z]{0,2})?@)?",
            host in "[a-z0-9.-]{1,10}|\\[::[0-9]\\]",
            port in "(:[0-9]{0,6})?",
            rest in "[/?#][a-z0-9/:?#@]{0,8}|",
        ) {
            let url = format!("{scheme}://{user}{host}{port}{rest}");
            if let Some(expected) = by_url_crate(&url) {
                prop_assert_eq!(Site::of_url(&url), Some(expected), "{}", url);
            }
        }
    }
}
