//! Bot-protection challenge pages: the HTML interstitial a service such as Cloudflare sends
//! (with 403 or 503) to a client it wants to test before it lets it through. Answered to a
//! robots.txt fetch, such a page is neither the site's robots.txt nor a decision about it, so
//! its fetch outcome is `challenge` rather than `forbidden` or `server_error`.
//!
//! A page is recognised by what the services themselves put in it (docs/schema.md lists them),
//! never by being an HTML error page: a site's own "403 Forbidden" page is its answer.

use crate::archive::heads::http::HttpHead;

/// The statuses a challenge comes with.
const STATUSES: [u16; 2] = [403, 503];

/// Text that only a service's challenge page holds, each with the service that sends it.
/// Sought in the first [`SEARCHED`] bytes of the body, as written (the services do not vary
/// their case).
pub const MARKERS: [(&str, &str); 10] = [
    // The "Just a moment..." interstitial, and the scripts of its managed and JS challenges.
    ("Cloudflare", "<title>Just a moment...</title>"),
    ("Cloudflare", "window._cf_chl_opt"),
    ("Cloudflare", "/cdn-cgi/challenge-platform/"),
    ("DataDome", "captcha-delivery.com"),
    ("Imperva", "_Incapsula_Resource"),
    ("Akamai", "/_sec/cp_challenge/"),
    ("AWS WAF", "AwsWafIntegration"),
    ("HUMAN (PerimeterX)", "px-captcha"),
    ("Sucuri", "sucuri_cloudproxy_js"),
    ("Vercel", "Vercel Security Checkpoint"),
];

/// How much of a body is searched: every marker above sits in the page's first 32 KiB (the
/// Cloudflare page sets `_cf_chl_opt` after about 13 KB of inline style).
const SEARCHED: usize = 64 * 1024;

/// Whether a response with head `head` and (decoded) body `body` is a challenge page: a 403
/// or 503 with Cloudflare's `cf-mitigated: challenge` header, or whose body holds a marker.
pub(crate) fn is_challenge(head: &HttpHead<'_>, body: &[u8]) -> bool {
    if !head.status.is_some_and(|s| STATUSES.contains(&s)) {
        return false;
    }
    let flagged = head
        .header("cf-mitigated")
        .is_some_and(|v| v.trim_ascii().eq_ignore_ascii_case(b"challenge"));
    flagged || body_has_marker(body)
}

fn body_has_marker(body: &[u8]) -> bool {
    let searched = &body[..body.len().min(SEARCHED)];
    MARKERS
        .iter()
        .any(|(_, m)| memchr::memmem::find(searched, m.as_bytes()).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start and the script of a real Cloudflare challenge (openzim/warc2zim's
    /// `main-entry-403.warc.gz`, 2024), cut short.
    const CLOUDFLARE: &[u8] = b"<!DOCTYPE html><html lang=\"en-US\"><head><title>Just a moment...\
        </title><meta name=\"robots\" content=\"noindex,nofollow\"></head><body class=\"no-js\">\
        <script>(function(){window._cf_chl_opt={cvId: '3',cZone: \"wikizilla.org\",cType: \
        'managed'};var cpo = document.createElement('script');cpo.src = \
        '/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=899546ac4ba31c7a';\
        }());</script></body></html>";

    fn head(text: &[u8]) -> HttpHead<'_> {
        crate::archive::heads::http::parse_response(text).expect("an HTTP head")
    }

    #[test]
    fn cloudflare_interstitial_with_403_or_503_is_a_challenge() {
        for status in ["403 Forbidden", "503 Service Unavailable"] {
            let text = format!("HTTP/1.1 {status}\r\nServer: cloudflare\r\n\r\n");
            assert!(is_challenge(&head(text.as_bytes()), CLOUDFLARE), "{status}");
        }
    }

    #[test]
    fn cf_mitigated_header_alone_marks_a_challenge() {
        let h = head(b"HTTP/1.1 403 Forbidden\r\ncf-mitigated: Challenge \r\n\r\n");
        assert!(is_challenge(&h, b""));
    }

    #[test]
    fn a_sites_own_error_page_is_not_a_challenge() {
        let h = head(b"HTTP/1.1 403 Forbidden\r\nServer: nginx\r\n\r\n");
        let page = b"<html><head><title>403 Forbidden</title></head><body>nginx</body></html>";
        assert!(!is_challenge(&h, page));
        // Cloudflare's own block page (a decision, not a test) names no challenge script.
        let block = b"<title>Attention Required! | Cloudflare</title>Sorry, you have been blocked";
        assert!(!is_challenge(&h, block));
    }

    #[test]
    fn a_challenge_marker_under_another_status_is_not_a_challenge() {
        for status in ["200 OK", "429 Too Many Requests", "404 Not Found"] {
            let text = format!("HTTP/1.1 {status}\r\n\r\n");
            assert!(
                !is_challenge(&head(text.as_bytes()), CLOUDFLARE),
                "{status}"
            );
        }
    }

    #[test]
    fn every_service_marker_is_found() {
        let h = head(b"HTTP/1.1 503 Service Unavailable\r\n\r\n");
        for (service, marker) in MARKERS {
            let page = format!("<html><body><script src=\"x\">{marker}</script></body></html>");
            assert!(is_challenge(&h, page.as_bytes()), "{service}");
        }
    }
}
