//! The TDM Reservation Protocol's site-wide file, `/.well-known/tdmrep.json`
//! (`../shared/specs/tdmrep-cg-final.md`, "TDM File on the Origin Server"): a JSON array of
//! rules, each with a `location` pattern (`*` and `$` as in robots.txt), a `tdm-reservation` of
//! 0 or 1, and an optional `tdm-policy` URL. A URL takes the first rule whose location matches
//! its path ("the most specific match is the first in sequence"); none: the reservation is
//! unset.
//!
//! The JSON is read strictly (RFC 8259, as `serde_json` reads it): comments and trailing
//! commas, which sites write, make the file invalid, and the reason is kept. A UTF-8 byte
//! order mark is skipped (RFC 8259 lets a parser ignore it). A rule with a problem (no
//! location, a reservation other than the numbers 0 and 1: "other values are protocol
//! errors ... `tdm-reservation` is unset") is kept with the problem and never matches.

use crate::robots::Matcher;
use serde_json::Value;

str_enum! {
    /// Why a body served at `/.well-known/tdmrep.json` is not a TDM file.
    pub enum FileProblem {
        /// No body, or only white space.
        Empty = "empty",
        /// An HTML or XML page (a soft 404, a page served for every path).
        Html = "html",
        /// Not JSON: a syntax error (a comment, a trailing comma, a cut file).
        NotJson = "not_json",
        /// JSON, but not an array of rules.
        NotAnArray = "not_an_array",
    }
}

str_enum! {
    /// Why a rule of a TDM file is not used.
    pub enum RuleProblem {
        NotAnObject = "not_an_object",
        /// No `location`, or one that is not a string.
        NoLocation = "no_location",
        /// No `tdm-reservation`.
        NoReservation = "no_reservation",
        /// A `tdm-reservation` other than the numbers 0 and 1 (`"1"`, `true`, 2): unset.
        BadReservation = "bad_reservation",
    }
}

/// One rule of a TDM file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rule {
    pub location: Option<String>,
    /// 0 or 1; none when missing or not one of them.
    pub reservation: Option<u8>,
    /// `tdm-reservation` as written in JSON (`1`, `"1"`, `true`), when present.
    pub reservation_raw: Option<String>,
    /// `tdm-policy`, when a string.
    pub policy: Option<String>,
    pub problem: Option<RuleProblem>,
}

/// What a body served at `/.well-known/tdmrep.json` holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TdmFile {
    pub problem: Option<FileProblem>,
    /// The parser's message for `not_json` (`trailing comma at line 5 column 1`).
    pub detail: Option<String>,
    pub rules: Vec<Rule>,
}

impl TdmFile {
    /// The first usable rule whose location matches `path` (a URL's path and query, as a
    /// robots.txt matcher takes it), by its place in the file.
    pub fn rule_for(&self, path: &[u8], matcher: &mut Matcher) -> Option<usize> {
        self.rules.iter().position(|r| {
            r.problem.is_none()
                && (r.location.as_deref()).is_some_and(|l| matcher.matches(path, l.as_bytes()))
        })
    }
}

/// Read a body served at `/.well-known/tdmrep.json`.
pub fn parse(body: &[u8]) -> TdmFile {
    let body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    let start = body.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else {
        return TdmFile::problem(FileProblem::Empty, None);
    };
    if body[start] == b'<' {
        return TdmFile::problem(FileProblem::Html, None);
    }
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return TdmFile::problem(FileProblem::NotJson, Some(e.to_string())),
    };
    let Value::Array(items) = value else {
        return TdmFile::problem(FileProblem::NotAnArray, None);
    };
    TdmFile {
        problem: None,
        detail: None,
        rules: items.iter().map(rule).collect(),
    }
}

impl TdmFile {
    fn problem(problem: FileProblem, detail: Option<String>) -> Self {
        TdmFile {
            problem: Some(problem),
            detail,
            rules: Vec::new(),
        }
    }
}

fn rule(item: &Value) -> Rule {
    let Value::Object(o) = item else {
        return Rule {
            problem: Some(RuleProblem::NotAnObject),
            ..Rule::default()
        };
    };
    let location = o
        .get("location")
        .and_then(Value::as_str)
        .map(str::to_string);
    let raw = o.get("tdm-reservation");
    let reservation = raw
        .and_then(Value::as_u64)
        .filter(|&n| n <= 1)
        .map(|n| n as u8);
    let problem = if location.is_none() {
        Some(RuleProblem::NoLocation)
    } else if raw.is_none() {
        Some(RuleProblem::NoReservation)
    } else if reservation.is_none() {
        Some(RuleProblem::BadReservation)
    } else {
        None
    };
    Rule {
        location,
        reservation,
        reservation_raw: raw.map(Value::to_string),
        policy: o
            .get("tdm-policy")
            .and_then(Value::as_str)
            .map(str::to_string),
        problem,
    }
}

str_enum! {
    /// Where a page's TDM reservation or policy was stated, in the protocol's processing
    /// order ("Processing priority"): each one supersedes the ones before it.
    pub enum Technique {
        /// The rule of the site's `/.well-known/tdmrep.json` whose location matches the page.
        File = "file",
        /// A `tdm-reservation` / `tdm-policy` HTTP header of the page's response.
        Header = "header",
        /// A `tdm-reservation` / `tdm-policy` meta tag of the page.
        Meta = "meta",
    }
}

/// What one technique states for a page: a reservation (0 or 1; another value is a protocol
/// error and states nothing) and a policy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stated {
    pub reservation: Option<u8>,
    pub policy: Option<String>,
}

impl Stated {
    /// Add a `tdm-reservation` value as written (a header's or a meta tag's). A technique that
    /// states several reserves when one of them is `1` (the reading that loses no opt-out).
    pub fn reservation_value(&mut self, value: &str) {
        let v = match value.trim() {
            "1" => 1,
            "0" => 0,
            _ => return,
        };
        self.reservation = Some(self.reservation.map_or(v, |r| r.max(v)));
    }

    /// Add a `tdm-policy` value as written; the first one stated is kept.
    pub fn policy_value(&mut self, value: &str) {
        let v = value.trim();
        if self.policy.is_none() && !v.is_empty() {
            self.policy = Some(v.to_string());
        }
    }

    fn is_empty(&self) -> bool {
        self.reservation.is_none() && self.policy.is_none()
    }
}

/// A page's effective TDM reservation and policy, and the technique that set each.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effective {
    pub reservation: Option<(u8, Technique)>,
    pub policy: Option<(String, Technique)>,
    /// A later technique stated a reservation other than an earlier one's.
    pub overridden: bool,
}

impl Effective {
    /// The page's values from what each technique states, in processing order: the file's
    /// matching rule, then the headers, then the meta tags. Each value a technique states
    /// supersedes the one before; a technique that states nothing (or a reservation that is
    /// a protocol error) leaves the earlier value as it was: absence never resets it.
    pub fn of(file: &Stated, header: &Stated, meta: &Stated) -> Self {
        let mut e = Effective::default();
        let order = [
            (file, Technique::File),
            (header, Technique::Header),
            (meta, Technique::Meta),
        ];
        for (stated, technique) in order {
            if stated.is_empty() {
                continue;
            }
            if let Some(r) = stated.reservation {
                e.overridden |= e.reservation.is_some_and(|(was, _)| was != r);
                e.reservation = Some((r, technique));
            }
            if let Some(p) = &stated.policy {
                e.policy = Some((p.clone(), technique));
            }
        }
        e
    }

    /// Whether any technique stated anything for the page.
    pub fn is_set(&self) -> bool {
        self.reservation.is_some() || self.policy.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The report's two examples: one rule for the whole site, and three groups of files where
    /// the first matching rule decides.
    #[test]
    fn the_reports_examples_are_read_and_matched_first_rule_first() {
        let all = parse(b"[\n  {\n  \"location\": \"/\",\n  \"tdm-reservation\": 1\n  }\n]");
        assert_eq!(all.problem, None);
        assert_eq!(all.rules.len(), 1);
        let mut m = Matcher::default();
        assert_eq!(all.rule_for(b"/any/page.html", &mut m), Some(0));
        let groups = br#"[
            { "location": "/directory-a/", "tdm-reservation": 1 },
            { "location": "/directory-b/html/", "tdm-reservation": 1,
              "tdm-policy":"https://provider.com/policies/policy.json" },
            { "location": "/directory-b/images/*.jpg", "tdm-reservation": 0 }
        ]"#;
        let f = parse(groups);
        assert_eq!(
            f.rules[1].policy.as_deref(),
            Some("https://provider.com/policies/policy.json")
        );
        assert_eq!(f.rule_for(b"/directory-a/x.pdf", &mut m), Some(0));
        assert_eq!(f.rule_for(b"/directory-b/html/p.html", &mut m), Some(1));
        assert_eq!(f.rule_for(b"/directory-b/images/cat.jpg", &mut m), Some(2));
        assert_eq!(f.rule_for(b"/directory-b/images/cat.png", &mut m), None);
        // `$` ends the pattern.
        let exact = parse(br#"[{"location": "/this/path/exactly$", "tdm-reservation": 1}]"#);
        assert_eq!(exact.rule_for(b"/this/path/exactly", &mut m), Some(0));
        assert_eq!(exact.rule_for(b"/this/path/exactly/more", &mut m), None);
    }

    /// What sites write: a BOM and CRLF are fine; comments, trailing commas and HTML pages
    /// are not TDM files, each with its reason.
    #[test]
    fn comments_trailing_commas_and_html_are_invalid_a_bom_and_crlf_are_not() {
        let crlf = b"\xef\xbb\xbf[\r\n {\"location\": \"/\", \"tdm-reservation\": 1}\r\n]\r\n";
        assert_eq!(parse(crlf).problem, None);
        let comma = parse(b"[{\"location\": \"/\", \"tdm-reservation\": 1},]");
        assert_eq!(comma.problem, Some(FileProblem::NotJson));
        assert!(comma.detail.unwrap().contains("trailing comma"));
        let comment = parse(b"// TDMRep\n[{\"location\": \"/\", \"tdm-reservation\": 1}]");
        assert_eq!(comment.problem, Some(FileProblem::NotJson));
        let html = parse(b"\n<!DOCTYPE html><html><title>404</title></html>");
        assert_eq!(html.problem, Some(FileProblem::Html));
        assert_eq!(parse(b" \n").problem, Some(FileProblem::Empty));
        let object = parse(br#"{"location": "/", "tdm-reservation": 1}"#);
        assert_eq!(object.problem, Some(FileProblem::NotAnArray));
    }

    /// Rules with problems are kept, say why, and never match.
    #[test]
    fn rules_without_a_location_or_a_reservation_of_0_or_1_are_kept_and_not_used() {
        let f = parse(
            br#"[{"tdm-reservation": 1}, {"location": "/a"}, {"location": "/", "tdm-reservation": "1"},
                 {"location": "/", "tdm-reservation": 2}, 7, {"location": "/", "tdm-reservation": 0}]"#,
        );
        let problems: Vec<_> = f.rules.iter().map(|r| r.problem).collect();
        assert_eq!(
            problems,
            [
                Some(RuleProblem::NoLocation),
                Some(RuleProblem::NoReservation),
                Some(RuleProblem::BadReservation),
                Some(RuleProblem::BadReservation),
                Some(RuleProblem::NotAnObject),
                None
            ]
        );
        assert_eq!(f.rules[2].reservation_raw.as_deref(), Some("\"1\""));
        assert_eq!(f.rule_for(b"/a", &mut Matcher::default()), Some(5));
    }

    fn stated(reservation: Option<u8>, policy: Option<&str>) -> Stated {
        Stated {
            reservation,
            policy: policy.map(str::to_string),
        }
    }

    /// "Processing priority": the header supersedes the file, the meta tag supersedes both,
    /// and a technique that says nothing leaves the value before it.
    #[test]
    fn later_techniques_supersede_earlier_ones_and_absence_never_resets() {
        let none = Stated::default();
        let file = stated(Some(1), Some("https://p.example/policy.json"));
        let e = Effective::of(&file, &none, &none);
        assert_eq!(e.reservation, Some((1, Technique::File)));
        assert_eq!(e.policy.as_ref().map(|p| p.1), Some(Technique::File));
        assert!(!e.overridden);
        let header = stated(Some(0), None);
        let e = Effective::of(&file, &header, &none);
        assert_eq!(e.reservation, Some((0, Technique::Header)));
        // The header states no policy: the file's stays.
        assert_eq!(e.policy.as_ref().map(|p| p.1), Some(Technique::File));
        assert!(e.overridden);
        let meta = stated(Some(1), Some("https://p.example/other.json"));
        let e = Effective::of(&file, &header, &meta);
        assert_eq!(e.reservation, Some((1, Technique::Meta)));
        assert_eq!(
            e.policy,
            Some(("https://p.example/other.json".into(), Technique::Meta))
        );
        assert!(e.overridden, "the header overrode the file on the way");
        let e = Effective::of(&none, &none, &stated(Some(0), None));
        assert_eq!(e.reservation, Some((0, Technique::Meta)));
        assert!(!e.overridden && e.is_set());
        assert!(!Effective::of(&none, &none, &none).is_set());
    }

    /// Values other than 0 and 1 are protocol errors: they state nothing, so the value before
    /// stands; of two values a technique states, a 1 wins.
    #[test]
    fn a_reservation_other_than_0_or_1_states_nothing_and_of_two_a_1_wins() {
        let mut header = Stated::default();
        header.reservation_value("yes");
        header.reservation_value(" true ");
        assert_eq!(header.reservation, None);
        let e = Effective::of(&stated(Some(1), None), &header, &Stated::default());
        assert_eq!(e.reservation, Some((1, Technique::File)));
        let mut two = Stated::default();
        two.reservation_value("0");
        two.reservation_value(" 1");
        two.reservation_value("0");
        assert_eq!(two.reservation, Some(1));
        two.policy_value(" ");
        two.policy_value("https://a.example/p");
        two.policy_value("https://a.example/q");
        assert_eq!(two.policy.as_deref(), Some("https://a.example/p"));
    }
}
