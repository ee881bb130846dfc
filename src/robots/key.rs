//! Keys of robots.txt lines: what a key means ([`Key`]) and how it was written ([`KeyForm`]).
//!
//! The four keys Google's parser knows (user-agent, allow, disallow, sitemap) are matched as it
//! matches them: case-insensitively, by prefix, with its list of accepted typos, in its order.
//! `User-Agent-Purpose` is tested first (by Google's prefix rule it would read as a user-agent
//! line; it does start or join a group like one). The other keys are matched exactly
//! (case-insensitively), with a few spelling variants each.

/// What a line's key means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    UserAgent,
    /// `User-Agent-Purpose` (draft-illyes-rep-purpose).
    Purpose,
    Allow,
    Disallow,
    Sitemap,
    CrawlDelay,
    Host,
    CleanParam,
    Noindex,
    RequestRate,
    VisitTime,
    ContentUsage,
    ContentSignal,
    /// `App-Directives` / `App-Directive` (draft-nottingham-plan-b).
    AppDirectives,
    /// Any `ACAP-` field (2007 ACAP strawman).
    Acap,
    /// `License:` (RSL 1.0, Really Simple Licensing): the URL of the site's licence terms, for
    /// every crawler.
    License,
    /// A key this tool does not know.
    Unknown,
    /// Text that is not a key-value line.
    Invalid,
    /// Empty, or only a comment.
    Blank,
}

impl Key {
    pub fn as_str(self) -> &'static str {
        match self {
            Key::UserAgent => "user_agent",
            Key::Purpose => "purpose",
            Key::Allow => "allow",
            Key::Disallow => "disallow",
            Key::Sitemap => "sitemap",
            Key::CrawlDelay => "crawl_delay",
            Key::Host => "host",
            Key::CleanParam => "clean_param",
            Key::Noindex => "noindex",
            Key::RequestRate => "request_rate",
            Key::VisitTime => "visit_time",
            Key::ContentUsage => "content_usage",
            Key::ContentSignal => "content_signal",
            Key::AppDirectives => "app_directives",
            Key::Acap => "acap",
            Key::License => "license",
            Key::Unknown => "unknown",
            Key::Invalid => "invalid",
            Key::Blank => "blank",
        }
    }

    /// A line that starts or joins a group.
    pub fn is_agent(self) -> bool {
        matches!(self, Key::UserAgent | Key::Purpose)
    }

    /// A line that closes the group's agent list (RFC 9309 rules as Google reads them).
    pub fn is_rule(self) -> bool {
        matches!(self, Key::Allow | Key::Disallow)
    }

    /// Values that are path patterns, %-normalised as Google does.
    pub fn is_pattern(self) -> bool {
        matches!(self, Key::Allow | Key::Disallow)
    }
}

/// How a key was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyForm {
    /// The standard spelling, in lowercase, `Title-Case` or `Sentence-case` (`User-agent`).
    Canonical,
    /// The standard spelling in another case (`DISALLOW`, `uSeR-aGeNt`).
    Case,
    /// A misspelling that parsers accept (Google's list: `useragent`, `user agent`, `disalow`,
    /// `dissallow`, `dissalow`, `diasllow`, `disallaw`).
    Typo,
    /// A documented alternative spelling (`site-map`, `App-Directive`, `crawldelay`, ...).
    Variant,
    /// A known key followed by more characters, accepted by prefix (`Disallowed`, `User-agents`).
    Prefix,
}

impl KeyForm {
    pub fn as_str(self) -> &'static str {
        match self {
            KeyForm::Canonical => "canonical",
            KeyForm::Case => "case",
            KeyForm::Typo => "typo",
            KeyForm::Variant => "variant",
            KeyForm::Prefix => "prefix",
        }
    }
}

/// Keys matched by prefix, in Google's order (purpose first). The first spelling of each key is its
/// canonical one.
const PREFIXED: &[(&str, Key, KeyForm)] = &[
    ("user-agent-purpose", Key::Purpose, KeyForm::Canonical),
    ("useragent-purpose", Key::Purpose, KeyForm::Typo),
    ("user agent purpose", Key::Purpose, KeyForm::Typo),
    ("user-agent", Key::UserAgent, KeyForm::Canonical),
    ("useragent", Key::UserAgent, KeyForm::Typo),
    ("user agent", Key::UserAgent, KeyForm::Typo),
    ("allow", Key::Allow, KeyForm::Canonical),
    ("disallow", Key::Disallow, KeyForm::Canonical),
    ("dissallow", Key::Disallow, KeyForm::Typo),
    ("dissalow", Key::Disallow, KeyForm::Typo),
    ("disalow", Key::Disallow, KeyForm::Typo),
    ("diasllow", Key::Disallow, KeyForm::Typo),
    ("disallaw", Key::Disallow, KeyForm::Typo),
    ("sitemap", Key::Sitemap, KeyForm::Canonical),
    ("site-map", Key::Sitemap, KeyForm::Variant),
];

/// Keys matched whole.
const EXACT: &[(&str, Key, KeyForm)] = &[
    ("crawl-delay", Key::CrawlDelay, KeyForm::Canonical),
    ("crawldelay", Key::CrawlDelay, KeyForm::Variant),
    ("crawl_delay", Key::CrawlDelay, KeyForm::Variant),
    ("crawl delay", Key::CrawlDelay, KeyForm::Variant),
    ("host", Key::Host, KeyForm::Canonical),
    ("clean-param", Key::CleanParam, KeyForm::Canonical),
    ("clean_param", Key::CleanParam, KeyForm::Variant),
    ("cleanparam", Key::CleanParam, KeyForm::Variant),
    ("noindex", Key::Noindex, KeyForm::Canonical),
    ("request-rate", Key::RequestRate, KeyForm::Canonical),
    ("request_rate", Key::RequestRate, KeyForm::Variant),
    ("visit-time", Key::VisitTime, KeyForm::Canonical),
    ("visit_time", Key::VisitTime, KeyForm::Variant),
    ("content-usage", Key::ContentUsage, KeyForm::Canonical),
    ("content-signal", Key::ContentSignal, KeyForm::Canonical),
    ("content-signals", Key::ContentSignal, KeyForm::Variant),
    ("app-directives", Key::AppDirectives, KeyForm::Canonical),
    ("app-directive", Key::AppDirectives, KeyForm::Variant),
    ("app_directives", Key::AppDirectives, KeyForm::Variant),
    ("app_directive", Key::AppDirectives, KeyForm::Variant),
    ("license", Key::License, KeyForm::Canonical),
    ("licence", Key::License, KeyForm::Variant),
];

fn starts_with_ignore_case(s: &[u8], prefix: &str) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// Lowercase, `Title-Case` (each word capitalised) or `Sentence-case` (first letter only).
fn conventional_case(s: &[u8]) -> bool {
    if s.iter().all(|c| !c.is_ascii_uppercase()) {
        return true;
    }
    let sentence = s[0].is_ascii_uppercase() && s[1..].iter().all(|c| !c.is_ascii_uppercase());
    let title = s.iter().enumerate().all(|(i, &c)| {
        let word_start = i == 0 || matches!(s[i - 1], b'-' | b'_' | b' ');
        if word_start {
            !c.is_ascii_lowercase()
        } else {
            !c.is_ascii_uppercase()
        }
    });
    sentence || title
}

/// Classify a (non-empty, trimmed) key.
pub fn classify(key: &[u8]) -> (Key, KeyForm) {
    // Most lines of real files are written with one of these (a test checks each gives what
    // the general rules give).
    let common = match key {
        b"User-agent" | b"User-Agent" | b"user-agent" => Some(Key::UserAgent),
        b"Disallow" | b"disallow" => Some(Key::Disallow),
        b"Allow" | b"allow" => Some(Key::Allow),
        b"Sitemap" | b"sitemap" => Some(Key::Sitemap),
        _ => None,
    };
    match common {
        Some(k) => (k, KeyForm::Canonical),
        None => classify_by_rules(key),
    }
}

/// [`classify`] by the tables of spellings.
fn classify_by_rules(key: &[u8]) -> (Key, KeyForm) {
    // Only spellings with the key's first letter can match it (the tables are lowercase): one
    // byte comparison passes over the others.
    let first = key.first().map_or(0, u8::to_ascii_lowercase);
    let starts = |spelling: &str| spelling.as_bytes()[0] == first;
    for &(spelling, k, form) in PREFIXED.iter().filter(|e| starts(e.0)) {
        if starts_with_ignore_case(key, spelling) {
            let form = if key.len() > spelling.len() {
                KeyForm::Prefix
            } else if form == KeyForm::Canonical && !conventional_case(key) {
                KeyForm::Case
            } else {
                form
            };
            return (k, form);
        }
    }
    for &(spelling, k, form) in EXACT.iter().filter(|e| starts(e.0)) {
        if key.eq_ignore_ascii_case(spelling.as_bytes()) {
            let form = if form == KeyForm::Canonical && !conventional_case(key) {
                KeyForm::Case
            } else {
                form
            };
            return (k, form);
        }
    }
    if starts_with_ignore_case(key, "acap-") {
        let form = if key[..4] == *b"ACAP" || key[..4] == *b"acap" {
            KeyForm::Canonical
        } else {
            KeyForm::Case
        };
        return (Key::Acap, form);
    }
    (Key::Unknown, KeyForm::Canonical)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_spellings_classify_as_the_rules_do() {
        for k in [
            "User-agent",
            "User-Agent",
            "user-agent",
            "Disallow",
            "disallow",
            "Allow",
            "allow",
            "Sitemap",
            "sitemap",
        ] {
            assert_eq!(
                classify(k.as_bytes()),
                classify_by_rules(k.as_bytes()),
                "{k}"
            );
        }
    }

    #[test]
    fn forms() {
        let c = |k: &str| classify(k.as_bytes());
        assert_eq!(c("User-agent"), (Key::UserAgent, KeyForm::Canonical));
        assert_eq!(c("User-Agent"), (Key::UserAgent, KeyForm::Canonical));
        assert_eq!(c("user-agent"), (Key::UserAgent, KeyForm::Canonical));
        assert_eq!(c("USER-AGENT"), (Key::UserAgent, KeyForm::Case));
        assert_eq!(c("uSeR-aGeNt"), (Key::UserAgent, KeyForm::Case));
        assert_eq!(c("useragent"), (Key::UserAgent, KeyForm::Typo));
        assert_eq!(c("User agent"), (Key::UserAgent, KeyForm::Typo));
        assert_eq!(c("User-agents"), (Key::UserAgent, KeyForm::Prefix));
        assert_eq!(c("User-Agent-Purpose"), (Key::Purpose, KeyForm::Canonical));
        assert_eq!(c("Disalow"), (Key::Disallow, KeyForm::Typo));
        assert_eq!(c("Disallowed"), (Key::Disallow, KeyForm::Prefix));
        assert_eq!(c("Allow"), (Key::Allow, KeyForm::Canonical));
        assert_eq!(c("Site-map"), (Key::Sitemap, KeyForm::Variant));
        assert_eq!(c("Crawl-Delay"), (Key::CrawlDelay, KeyForm::Canonical));
        assert_eq!(
            c("App-Directives"),
            (Key::AppDirectives, KeyForm::Canonical)
        );
        assert_eq!(c("app-directive"), (Key::AppDirectives, KeyForm::Variant));
        assert_eq!(c("ACAP-crawler"), (Key::Acap, KeyForm::Canonical));
        assert_eq!(c("Acap-crawler"), (Key::Acap, KeyForm::Case));
        assert_eq!(c("Crawl-delayy"), (Key::Unknown, KeyForm::Canonical));
        assert_eq!(c("License"), (Key::License, KeyForm::Canonical));
        assert_eq!(c("LICENSE"), (Key::License, KeyForm::Case));
        assert_eq!(c("Licence"), (Key::License, KeyForm::Variant));
        assert_eq!(c("Licensed"), (Key::Unknown, KeyForm::Canonical));
    }
}
