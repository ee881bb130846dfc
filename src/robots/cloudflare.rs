//! Cloudflare's managed robots.txt: the block Cloudflare writes into a site's robots.txt when
//! the site turns on "managed robots.txt", from `# BEGIN Cloudflare Managed content` to
//! `# END Cloudflare Managed Content`. It is what the site's host *wrote* for it; the site's
//! own lines (after it, as Cloudflare places it) can give the same agents other rules, and
//! since 2026-09-15 Cloudflare also blocks at its edge without writing anything.
//!
//! [`managed_block`] finds the block and whether the site's own lines contradict it: an agent
//! the block names (any product token of its user-agent lines, `*` included) reads another
//! verdict for `/` in the whole file than in the block alone, by Google's rules.

use super::key::Key;
use super::matcher::Matcher;
use super::parse::{product_token, RobotsTxt};

/// The comment lines that open and close the block, as Cloudflare writes them.
const BEGIN: &[u8] = b"# BEGIN Cloudflare Managed";
const END: &[u8] = b"# END Cloudflare Managed";

/// A file's Cloudflare managed block.
#[derive(Debug, PartialEq, Eq)]
pub struct ManagedBlock {
    /// Some agent the block names reads another verdict for `/` in the whole file.
    pub contradicted: bool,
}

/// The managed block of a parsed file, when it has one. Without an `# END` line the block runs
/// to the end of the file.
pub fn managed_block(robots: &RobotsTxt<'_>, matcher: &mut Matcher) -> Option<ManagedBlock> {
    let body = robots.body;
    let begin = memchr::memmem::find(body, BEGIN)?;
    let start = line_end(body, begin);
    let end = memchr::memmem::find(&body[start..], END).map_or(body.len(), |n| start + n);
    let block = RobotsTxt::parse(&body[start..end]);
    let mut tokens: Vec<&[u8]> = (block.lines.iter())
        .filter(|l| l.key == Key::UserAgent)
        .map(|l| product_token(l.value(block.body)))
        .filter(|t| !t.is_empty())
        .collect();
    let star = block
        .lines
        .iter()
        .any(|l| l.key == Key::UserAgent && l.value(block.body).starts_with(b"*"));
    tokens.sort_unstable_by_key(|t| t.to_ascii_lowercase());
    tokens.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    let differs = |agent: &str, m: &mut Matcher| {
        let whole = m.verdict(robots, &[agent], None, b"/").allowed;
        whole != m.verdict(&block, &[agent], None, b"/").allowed
    };
    let mut contradicted = tokens
        .iter()
        .any(|t| differs(&String::from_utf8_lossy(t), matcher));
    // `*` is no product token: a name no group of either file names reads the `*` groups.
    if star {
        contradicted |= differs(UNNAMED, matcher);
    }
    Some(ManagedBlock { contradicted })
}

/// An agent no robots.txt names, to read the `*` groups.
const UNNAMED: &str = "repcensus-unnamed-agent";

/// The index just past the line that holds `at`.
fn line_end(body: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', &body[at..]).map_or(body.len(), |n| at + n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of a real managed file (Research Square's, in ../shared/data/robots), cut short.
    const MANAGED: &str = "# content signals preamble\n\n\
        # BEGIN Cloudflare Managed content\n\n\
        User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\n\
        User-agent: CCBot\nDisallow: /\n\n\
        User-agent: GPTBot\nDisallow: /\n\n\
        # END Cloudflare Managed Content\n\n";

    fn block(site_lines: &str) -> Option<ManagedBlock> {
        let body = format!("{MANAGED}{site_lines}");
        managed_block(&RobotsTxt::parse(body.as_bytes()), &mut Matcher::new())
    }

    #[test]
    fn file_without_the_block_has_none() {
        let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /x\n# Cloudflare\n");
        assert_eq!(managed_block(&robots, &mut Matcher::new()), None);
    }

    #[test]
    fn site_lines_that_agree_or_touch_other_paths_do_not_contradict() {
        let agree = "User-agent: *\nDisallow: /api/\nUser-agent: GPTBot\nDisallow: /\n";
        assert_eq!(
            block(agree),
            Some(ManagedBlock {
                contradicted: false
            })
        );
        assert_eq!(
            block(""),
            Some(ManagedBlock {
                contradicted: false
            })
        );
    }

    #[test]
    fn site_allowing_a_blocked_agent_contradicts_the_block() {
        // Google merges the two GPTBot groups; `Allow: /` wins the tie with `Disallow: /`.
        let allow = "User-agent: GPTBot\nAllow: /\n";
        assert_eq!(block(allow), Some(ManagedBlock { contradicted: true }));
    }

    #[test]
    fn site_disallowing_root_for_star_ties_with_the_blocks_allow_and_loses() {
        // The `*` groups merge; Google lets the `Allow: /` win a tie of equal length, so `/`
        // stays allowed: what the site wrote does not change the reading.
        let all = "User-agent: *\nDisallow: /\n";
        assert_eq!(
            block(all),
            Some(ManagedBlock {
                contradicted: false
            })
        );
    }

    #[test]
    fn site_lines_before_the_block_count_as_the_sites_too() {
        let body = format!("User-agent: CCBot\nAllow: /\n\n{MANAGED}");
        let robots = RobotsTxt::parse(body.as_bytes());
        let found = managed_block(&robots, &mut Matcher::new());
        assert_eq!(found, Some(ManagedBlock { contradicted: true }));
    }

    #[test]
    fn block_without_an_end_line_runs_to_the_end() {
        let body = "# BEGIN Cloudflare Managed content\nUser-agent: CCBot\nDisallow: /\n";
        let robots = RobotsTxt::parse(body.as_bytes());
        let found = managed_block(&robots, &mut Matcher::new());
        assert_eq!(
            found,
            Some(ManagedBlock {
                contradicted: false
            })
        );
    }
}
