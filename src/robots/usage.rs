//! Which `Content-Usage` lines apply to an agent (draft-ietf-aipref-attach-05, "Robots
//! Exclusion Protocol Content-Usage Rule").
//!
//! attach-05 adds `Content-Usage` to RFC 9309's `rule`, so by RFC 9309's group grammar
//! (`group = startgroupline *(startgroupline / emptyline) *(rule / emptyline)`) a
//! `Content-Usage` line ends its group's user-agent lines, as `Allow` and `Disallow` do: in
//!
//! ```text
//! User-agent: *
//! Content-Usage: train-ai=n
//! User-agent: GPTBot
//! Disallow: /
//! ```
//!
//! the preference is the `*` group's, and GPTBot's group has none. Google's library does not
//! know the line and reads the four lines as one group of `*` and GPTBot (its verdicts,
//! [`super::matcher`], keep that reading; only the preferences follow attach-05).
//!
//! An agent's lines are those of the groups naming its product token (case-insensitively,
//! merged), else those of the `*` groups (RFC 9309 §2.2.1), in file order.

use super::key::Key;
use super::parse::{is_wildcard_agent, product_token, RobotsTxt};

/// Put into `out` (emptied first) the indexes into [`RobotsTxt::lines`] of the `Content-Usage`
/// lines that apply to the agent whose product token is `token`.
pub fn usage_lines(robots: &RobotsTxt<'_>, token: &str, out: &mut Vec<usize>) {
    out.clear();
    if !robots.summary.has_content_usage {
        return;
    }
    let (mut named, mut wildcard) = (Vec::new(), Vec::new());
    // The open group: whether its agent lines name the token or `*`, and whether a rule has
    // closed its agent lines.
    let (mut names, mut star, mut closed, mut any) = (false, false, true, false);
    for (i, line) in robots.lines.iter().enumerate() {
        let k = line.key;
        if k.is_agent() {
            if closed {
                (names, star, closed, any) = (false, false, false, true);
            }
            let value = line.value(robots.body);
            if k == Key::UserAgent {
                star |= is_wildcard_agent(value);
                names |= product_token(value).eq_ignore_ascii_case(token.as_bytes());
            }
        } else if k.is_rule() || k == Key::ContentUsage {
            closed = true;
            if k == Key::ContentUsage && any {
                if names {
                    named.push(i);
                }
                if star {
                    wildcard.push(i);
                }
            }
        }
    }
    // Groups naming the agent decide even without a `Content-Usage` line of their own.
    let agent_named = robots.agent_lines.iter().any(|&i| {
        let line = &robots.lines[i as usize];
        line.key == Key::UserAgent
            && product_token(line.value(robots.body)).eq_ignore_ascii_case(token.as_bytes())
    });
    out.extend(if agent_named { named } else { wildcard });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of the `Content-Usage` lines that apply to `token` in `body`.
    fn usage(body: &str, token: &str) -> Vec<String> {
        let r = RobotsTxt::parse(body.as_bytes());
        let mut out = Vec::new();
        usage_lines(&r, token, &mut out);
        out.iter()
            .map(|&i| String::from_utf8_lossy(r.lines[i].value(r.body)).into_owned())
            .collect()
    }

    #[test]
    fn a_star_groups_preference_does_not_reach_the_agent_named_after_it() {
        let body = "User-agent: *\nContent-Usage: train-ai=n\nUser-agent: GPTBot\nDisallow: /\n";
        assert_eq!(usage(body, "GPTBot"), Vec::<String>::new());
        assert_eq!(usage(body, "OtherBot"), ["train-ai=n"]);
    }

    #[test]
    fn one_agents_preference_does_not_reach_the_next_agents_group() {
        let body = "User-agent: GPTBot\nContent-Usage: train-ai=n\nUser-agent: CCBot\nAllow: /\n";
        assert_eq!(usage(body, "GPTBot"), ["train-ai=n"]);
        assert_eq!(usage(body, "CCBot"), Vec::<String>::new());
        // Neither group is `*`'s: another agent has none.
        assert_eq!(usage(body, "OtherBot"), Vec::<String>::new());
    }

    #[test]
    fn agents_written_together_share_their_groups_preferences() {
        let body = "User-agent: GPTBot\nUser-agent: CCBot\n# both\nContent-Usage: train-ai=n\n\
                    Disallow: /x\nContent-Usage: /y search=n\n";
        assert_eq!(usage(body, "ccbot"), ["train-ai=n", "/y search=n"]);
        assert_eq!(usage(body, "GPTBot"), ["train-ai=n", "/y search=n"]);
    }

    #[test]
    fn attach_05s_example_gives_each_crawler_its_groups_lines() {
        let body = "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\n\
                    Content-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\n\
                    Content-Usage: train-ai=y\n";
        assert_eq!(usage(body, "ExampleBot"), ["train-ai=y"]);
        assert_eq!(
            usage(body, "OtherBot"),
            ["train-ai=n", "/ai-ok/ train-ai=y"]
        );
    }

    #[test]
    fn groups_naming_the_agent_merge_and_a_named_group_without_a_preference_has_none() {
        let body = "User-agent: a\nContent-Usage: train-ai=n\n\nUser-agent: *\n\
                    Content-Usage: search=n\n\nUser-agent: a\nContent-Usage: /p search=y\n";
        assert_eq!(usage(body, "a"), ["train-ai=n", "/p search=y"]);
        let named_without = "User-agent: *\nContent-Usage: train-ai=n\n\nUser-agent: a\nAllow: /\n";
        assert_eq!(usage(named_without, "a"), Vec::<String>::new());
    }

    #[test]
    fn a_preference_before_any_group_applies_to_no_one() {
        let body = "Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n";
        assert_eq!(usage(body, "a"), Vec::<String>::new());
    }
}
