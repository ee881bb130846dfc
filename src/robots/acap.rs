//! ACAP (Automated Content Access Protocol) fields: the 2007 strawman extension of robots.txt
//! ("Strawman proposals for extension of the Robots Exclusion Protocol, Part 1", version 2).
//!
//! Every `ACAP-` line becomes one [`AcapField`], placed in its record (started by
//! `ACAP-crawler` lines) and sub-record (started by `ACAP-usage-purpose` lines), with its usage
//! verb, used resource type, local usage, resource specification and qualifiers, and with every
//! problem found against the strawman's vocabulary and ordering rules. ACAP fields never affect
//! conventional groups (for the group structure they are unknown lines, as for Google).

use super::key::Key;
use super::lex::{is_ignore_directive, is_version_comment, Line};
use super::parse::RobotsTxt;

/// Standard ACAP usage verbs (the table of §4.5.3.1: crawl, follow, index, preserve, present,
/// other).
pub const USAGES: &[&str] = &["crawl", "follow", "index", "preserve", "present", "other"];
/// Used resource types, valid only after `present-` (§4.5.2.5.1).
pub const RESOURCE_TYPES: &[&str] = &[
    "original",
    "currentcopy",
    "oldcopy",
    "snippet",
    "extract",
    "thumbnail",
    "oldsnippet",
    "oldextract",
    "oldthumbnail",
    "link",
];
/// Usage qualifier types (§4.5.3.1 table, and `used-resource` of §4.5.3.1.1).
pub const QUALIFIERS: &[&str] = &[
    "must-use-resource",
    "time-limit",
    "max-length",
    "prohibited-modification",
    "must-include-resource",
    "prohibited-context",
    "required-context",
    "used-resource",
];
/// Actions of `ACAP-request-<action>` (§4.5.2.3).
pub const ACTIONS: &[&str] = &["take-down", "re-crawl"];

/// One ACAP field (one line).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AcapField {
    /// Index into [`RobotsTxt::lines`].
    pub line_index: usize,
    /// `crawler`, `usage_purpose`, `allow`, `disallow`, `request`, `permissions_reference`,
    /// `qualified_usage`, `composite_usage`, `resource_set`, `ignore_conventional_records`,
    /// `version`, `unknown`.
    pub field: &'static str,
    /// Record (0-based), if the field is inside one.
    pub record: Option<u32>,
    /// Sub-record within the record (0-based), if inside one.
    pub sub_record: Option<u32>,
    /// Standard usage verb (allow, disallow, qualified usage), or the request's action.
    pub usage: Option<String>,
    /// Used resource type (`present-snippet` -> `snippet`).
    pub resource_type: Option<String>,
    /// Locally-defined usage referred to as `(name)`, or the name a definition defines.
    pub local_usage: Option<String>,
    /// Resource path pattern, resource set name, URI, crawler name or purpose pattern.
    pub resource: Option<String>,
    /// `path`, `resource_set`, `uri` (what `resource` is, for permission-like fields).
    pub resource_kind: Option<&'static str>,
    /// `type=value` qualifiers, and the members of composite usages and resource sets.
    pub qualifiers: Vec<String>,
    pub problems: Vec<&'static str>,
}

/// The ACAP content of a file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Acap {
    pub fields: Vec<AcapField>,
    /// Crawler names of each record (lowercase; `*` for any crawler).
    pub record_crawlers: Vec<Vec<String>>,
    /// Usage purpose patterns of each (record, sub-record).
    pub sub_record_purposes: Vec<Vec<Vec<String>>>,
    /// `##ACAP version=` value.
    pub version: Option<String>,
    /// `ACAP-ignore-conventional-records` is present.
    pub ignore_conventional: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Local {
    Qualified,
    Composite,
    ResourceSet,
}

fn lower(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_ascii_lowercase()
}

fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|c| c.is_ascii_alphabetic())
        && c.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Split `usage[-resource-type]`: (usage, resource type, problem).
fn usage_and_type(s: &str) -> (String, Option<String>, Option<&'static str>) {
    if USAGES.contains(&s) {
        return (s.to_string(), None, None);
    }
    if let Some((u, t)) = s.split_once('-') {
        if USAGES.contains(&u) {
            let problem =
                (u != "present" || !RESOURCE_TYPES.contains(&t)).then_some("invalid_resource_type");
            return (u.to_string(), Some(t.to_string()), problem);
        }
    }
    (s.to_string(), None, Some("unknown_usage"))
}

/// Check `type=value` qualifiers.
fn qualifiers(words: &[&str], f: &mut AcapField) {
    for q in words {
        match q.split_once('=') {
            Some((t, v)) if !v.is_empty() => {
                if !QUALIFIERS.contains(&t.to_ascii_lowercase().as_str()) {
                    f.problems.push("unknown_qualifier");
                }
            }
            _ => f.problems.push("bad_qualifier"),
        }
        f.qualifiers.push(q.to_string());
    }
}

/// Find and check the ACAP fields of a parsed file.
pub fn parse(r: &RobotsTxt<'_>) -> Acap {
    let mut p = Parser::default();
    for (i, l) in r.lines.iter().enumerate() {
        p.line(r, i, l);
    }
    p.acap
}

/// How far the current record (or, before the first `ACAP-crawler` line, the preamble) has come.
/// The strawman orders a record as crawler lines, then either permissions (in sub-records that
/// usage-purpose lines open) or one permissions reference.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Stage {
    /// Nothing but `ACAP-crawler` lines yet.
    #[default]
    Crawlers,
    /// Some other field.
    Fields,
    /// An `ACAP-permissions-reference`: nothing may follow it.
    Referenced,
}

/// The current sub-record of a record.
#[derive(Clone, Copy, Debug)]
struct Sub {
    index: u32,
    /// It has a permission: the next usage-purpose line opens a new sub-record.
    has_permissions: bool,
}

/// The ACAP state machine: one transition per line, in the manner of csv-core's parser (the
/// state is the fields below, each transition a method named after the field it reads).
#[derive(Default)]
struct Parser {
    acap: Acap,
    /// Local usages and resource sets defined so far.
    locals: Vec<(String, Local)>,
    /// The current record, once an `ACAP-crawler` line opened one.
    record: Option<u32>,
    stage: Stage,
    sub: Option<Sub>,
    wildcard_records: u32,
    /// A line other than a blank one or the version comment was seen.
    seen_content: bool,
}

impl Parser {
    fn line(&mut self, r: &RobotsTxt<'_>, i: usize, l: &Line) {
        if is_version_comment(l, r.body) {
            return self.version(i, l.text(r.body).trim_ascii());
        }
        if l.key != Key::Blank {
            self.seen_content = true;
        }
        if is_ignore_directive(l, r.body) {
            return self.ignore_conventional(i);
        }
        if l.key != Key::Acap {
            return;
        }
        let name = lower(&l.key_raw(r.body)[5..]);
        let value = String::from_utf8_lossy(l.value(r.body)).into_owned();
        let words: Vec<&str> = value.split_ascii_whitespace().collect();
        let mut f = AcapField {
            line_index: i,
            ..AcapField::default()
        };
        match name.as_str() {
            "crawler" => self.crawler(&mut f, value.trim()),
            "usage-purpose" => self.usage_purpose(&mut f, value.trim()),
            "permissions-reference" => self.permissions_reference(&mut f, value.trim()),
            "qualified-usage" => self.definition(&mut f, Local::Qualified, &words),
            "composite-usage" => self.definition(&mut f, Local::Composite, &words),
            "resource-set" => self.definition(&mut f, Local::ResourceSet, &words),
            n => {
                if let Some(usage) = n.strip_prefix("allow-") {
                    self.permission(&mut f, true, usage, &words);
                } else if let Some(usage) = n.strip_prefix("disallow-") {
                    self.permission(&mut f, false, usage, &words);
                } else if let Some(action) = n.strip_prefix("request-") {
                    self.request(&mut f, action, &words);
                } else {
                    f.field = "unknown";
                    f.record = self.record;
                    f.sub_record = self.sub_index();
                    f.problems.push("unknown_field");
                }
            }
        }
        self.acap.fields.push(f);
    }

    fn sub_index(&self) -> Option<u32> {
        self.sub.map(|s| s.index)
    }

    /// Place a field in the current record and sub-record.
    fn place(&self, f: &mut AcapField) {
        f.record = self.record;
        f.sub_record = self.sub_index();
        if self.record.is_none() {
            f.problems.push("outside_record");
        }
    }

    /// A field of a record's body (not a crawler line); `after` is the problem of one that
    /// follows a permissions reference.
    fn body_field(&mut self, f: &mut AcapField, after_reference: Option<&'static str>) {
        if self.stage == Stage::Referenced {
            f.problems.extend(after_reference);
        } else {
            self.stage = Stage::Fields;
        }
    }

    /// `##ACAP version=...`.
    fn version(&mut self, i: usize, line: &[u8]) {
        let rest = String::from_utf8_lossy(&line[6..]).into_owned();
        let version = rest
            .split_whitespace()
            .find_map(|w| w.strip_prefix("version=").or(w.strip_prefix("VERSION=")))
            .map(|v| v.trim_end_matches('#').to_string());
        let mut f = AcapField {
            line_index: i,
            field: "version",
            resource: version.clone(),
            ..AcapField::default()
        };
        if version.is_none() {
            f.problems.push("missing_version");
        }
        if self.seen_content {
            f.problems.push("version_not_first");
        }
        if self.acap.version.is_none() {
            self.acap.version = version;
        }
        self.acap.fields.push(f);
    }

    /// `ACAP-ignore-conventional-records`, which must come before records and definitions.
    fn ignore_conventional(&mut self, i: usize) {
        let mut f = AcapField {
            line_index: i,
            field: "ignore_conventional_records",
            ..AcapField::default()
        };
        if self.record.is_some() || !self.locals.is_empty() {
            f.problems.push("bad_order");
        }
        self.acap.ignore_conventional = true;
        self.acap.fields.push(f);
    }

    /// `ACAP-crawler`: opens a record unless it follows the crawler lines of the current one.
    fn crawler(&mut self, f: &mut AcapField, value: &str) {
        f.field = "crawler";
        if self.record.is_none() || self.stage != Stage::Crawlers {
            self.record = Some(self.record.map_or(0, |r| r + 1));
            self.acap.record_crawlers.push(Vec::new());
            self.acap.sub_record_purposes.push(Vec::new());
            self.stage = Stage::Crawlers;
            self.sub = None;
        }
        let crawlers = self.acap.record_crawlers.last_mut().expect("record open");
        let c = value.to_ascii_lowercase();
        if c.is_empty() {
            f.problems.push("missing_crawler");
        } else if c == "*" {
            if !crawlers.is_empty() {
                f.problems.push("wildcard_with_named_crawlers");
            }
            self.wildcard_records += 1;
            if self.wildcard_records > 1 {
                f.problems.push("duplicate_wildcard_record");
            }
        } else if crawlers.iter().any(|c| c == "*") {
            f.problems.push("wildcard_with_named_crawlers");
        }
        f.resource = Some(c.clone());
        crawlers.push(c);
        f.record = self.record;
    }

    /// `ACAP-usage-purpose`: opens a sub-record unless it follows the purposes of the current one.
    fn usage_purpose(&mut self, f: &mut AcapField, value: &str) {
        f.field = "usage_purpose";
        if self.record.is_some() {
            self.body_field(f, Some("after_permissions_reference"));
            // The purposes of the record's sub-records.
            let subs = self
                .acap
                .sub_record_purposes
                .last_mut()
                .expect("record open");
            if self.sub.is_none_or(|s| s.has_permissions) {
                self.sub = Some(Sub {
                    index: self.sub.map_or(0, |s| s.index + 1),
                    has_permissions: false,
                });
                subs.push(vec![value.to_string()]);
            } else if let Some(p) = subs.last_mut() {
                p.push(value.to_string());
            }
        }
        self.place(f);
        f.resource = Some(value.to_string());
        if value.is_empty() {
            f.problems.push("missing_purpose");
        }
    }

    /// `ACAP-permissions-reference`: the record's permissions are elsewhere; it must be the
    /// record's only field besides its crawlers.
    fn permissions_reference(&mut self, f: &mut AcapField, value: &str) {
        f.field = "permissions_reference";
        self.place(f);
        if self.stage != Stage::Crawlers {
            f.problems.push("bad_order");
        }
        self.stage = Stage::Referenced;
        f.resource = Some(value.to_string());
        f.resource_kind = Some(if value.contains("://") { "uri" } else { "path" });
    }

    /// `ACAP-qualified-usage`, `ACAP-composite-usage`, `ACAP-resource-set`: a named definition,
    /// which must come before the records.
    fn definition(&mut self, f: &mut AcapField, kind: Local, words: &[&str]) {
        f.field = match kind {
            Local::Qualified => "qualified_usage",
            Local::Composite => "composite_usage",
            Local::ResourceSet => "resource_set",
        };
        if self.record.is_some() {
            f.problems.push("bad_order");
        }
        let def = words.first().map(|w| w.to_ascii_lowercase());
        match &def {
            Some(d) if is_name(d) => {
                if self.locals.iter().any(|(n, _)| n == d) {
                    f.problems.push("duplicate_name");
                }
            }
            Some(_) => f.problems.push("bad_name"),
            None => f.problems.push("missing_name"),
        }
        let rest = words.get(1..).unwrap_or_default();
        match kind {
            Local::Qualified => qualified_usage(f, rest),
            Local::Composite => self.composite_members(f, rest),
            Local::ResourceSet => {
                if rest.is_empty() {
                    f.problems.push("missing_resource");
                }
                f.qualifiers.extend(rest.iter().map(|s| s.to_string()));
            }
        }
        if let Some(d) = def {
            f.local_usage = Some(d.clone());
            self.locals.push((d, kind));
        }
    }

    /// The members of a composite usage: standard usages, or qualified usages as `(name)`.
    fn composite_members(&self, f: &mut AcapField, members: &[&str]) {
        if members.is_empty() {
            f.problems.push("missing_usage");
        }
        for m in members {
            let m = m.to_ascii_lowercase();
            if let Some(local) = m.strip_prefix('(').and_then(|m| m.strip_suffix(')')) {
                match self.local(local) {
                    Some(Local::Qualified) => {}
                    Some(_) => f.problems.push("bad_composite_member"),
                    None => f.problems.push("undefined_local_usage"),
                }
            } else {
                f.problems.extend(usage_and_type(&m).2);
            }
            f.qualifiers.push(m);
        }
    }

    fn local(&self, name: &str) -> Option<Local> {
        self.locals.iter().find(|(n, _)| n == name).map(|&(_, k)| k)
    }

    /// `ACAP-allow-<usage>` and `ACAP-disallow-<usage>`: a usage (standard, or local as
    /// `(name)`), then a resource (a path or `acap:resource-set:<name>`) and, for an allow,
    /// qualifiers.
    fn permission(&mut self, f: &mut AcapField, allow: bool, usage: &str, words: &[&str]) {
        f.field = if allow { "allow" } else { "disallow" };
        self.place(f);
        self.body_field(f, Some("after_permissions_reference"));
        if let Some(s) = &mut self.sub {
            s.has_permissions = true;
        }
        if let Some(local) = usage.strip_prefix('(').and_then(|u| u.strip_suffix(')')) {
            f.local_usage = Some(local.to_string());
            match self.local(local) {
                Some(Local::Composite) if !allow => f.problems.push("prohibition_composite_usage"),
                Some(Local::Qualified) if !allow => f.problems.push("prohibition_qualified_usage"),
                Some(Local::ResourceSet) => f.problems.push("not_a_usage"),
                Some(_) => {}
                None => f.problems.push("undefined_local_usage"),
            }
        } else {
            let (u, t, p) = usage_and_type(usage);
            f.usage = Some(u);
            f.resource_type = t;
            f.problems.extend(p);
        }
        let Some((spec, qs)) = words.split_first() else {
            return f.problems.push("missing_resource");
        };
        let spec_l = spec.to_ascii_lowercase();
        if let Some(set) = spec_l.strip_prefix("acap:resource-set:") {
            f.resource = Some(set.to_string());
            f.resource_kind = Some("resource_set");
            let defined = |(n, k): &(String, Local)| n == set && *k == Local::ResourceSet;
            if !self.locals.iter().any(defined) {
                f.problems.push("undefined_resource_set");
            }
        } else {
            f.resource = Some(spec.to_string());
            f.resource_kind = Some("path");
        }
        if !allow && !qs.is_empty() {
            f.problems.push("prohibition_qualifiers");
        }
        qualifiers(qs, f);
    }

    /// `ACAP-request-<action>`: a request about a resource, outside sub-records.
    fn request(&mut self, f: &mut AcapField, action: &str, words: &[&str]) {
        f.field = "request";
        self.place(f);
        if self.sub.is_some() {
            f.problems.push("request_in_sub_record");
        }
        self.body_field(f, Some("after_permissions_reference"));
        if !ACTIONS.contains(&action) {
            f.problems.push("unknown_action");
        }
        f.usage = Some(action.to_string());
        f.resource = words.first().map(|s| s.to_string());
        f.resource_kind = Some("path");
        if words.is_empty() {
            f.problems.push("missing_resource");
        }
    }
}

/// The usage and qualifiers of a qualified usage definition.
fn qualified_usage(f: &mut AcapField, words: &[&str]) {
    let Some((u, qs)) = words.split_first() else {
        return f.problems.push("missing_usage");
    };
    let (u, t, p) = usage_and_type(&u.to_ascii_lowercase());
    f.usage = Some(u);
    f.resource_type = t;
    f.problems.extend(p);
    if qs.is_empty() {
        f.problems.push("missing_qualifiers");
    }
    qualifiers(qs, f);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(body: &str) -> Acap {
        parse(&RobotsTxt::parse(body.as_bytes()))
    }

    #[test]
    fn acap_spec_outline() {
        // §4.7, with the wrapped definition on one line.
        let a = fields(
            "##ACAP version=0.2 # pilot version\n# comment\nACAP-qualified-usage: short-term-preserve preserve time-limit=30-days\nACAP-qualified-usage: present-original-format present prohibited-modification=format\nACAP-resource-set: foobar /public/foo /public/bar\nACAP-crawler: *\nACAP-usage-purpose: *\nACAP-allow-crawl: /\nACAP-allow-index: /public\nACAP-disallow-index: /\nACAP-allow-preserve: /public\nACAP-allow-(short-term-preserve): /news\nACAP-disallow-preserve: /\nACAP-allow-(present-original-format): *.pdf\nACAP-allow-present: /public\nACAP-disallow-present-thumbnail: /public\nACAP-disallow-present: /\nACAP-disallow-present: acap:resource-set:foobar\nACAP-crawler: xyz\nACAP-permissions-reference: /xyz/robots.txt\n",
        );
        assert_eq!(a.version.as_deref(), Some("0.2"));
        assert_eq!(
            a.record_crawlers,
            vec![vec!["*".to_string()], vec!["xyz".to_string()]]
        );
        assert_eq!(a.sub_record_purposes[0], vec![vec!["*".to_string()]]);
        let problems: Vec<_> = a.fields.iter().flat_map(|f| f.problems.clone()).collect();
        assert!(problems.is_empty(), "{problems:?}");
        let thumb = a
            .fields
            .iter()
            .find(|f| f.resource_type.as_deref() == Some("thumbnail"))
            .unwrap();
        assert_eq!(
            (thumb.field, thumb.usage.as_deref(), thumb.sub_record),
            ("disallow", Some("present"), Some(0))
        );
        let set = a
            .fields
            .iter()
            .find(|f| f.resource_kind == Some("resource_set"))
            .unwrap();
        assert_eq!(set.resource.as_deref(), Some("foobar"));
        let local = a
            .fields
            .iter()
            .find(|f| f.local_usage.as_deref() == Some("short-term-preserve") && f.field == "allow")
            .unwrap();
        assert_eq!(local.resource.as_deref(), Some("/news"));
        let r = a.fields.last().unwrap();
        assert_eq!((r.field, r.record), ("permissions_reference", Some(1)));
    }

    /// `follow` is one of the strawman's standard usage verbs (§4.5.3.1's table).
    #[test]
    fn follow_is_a_standard_usage() {
        let a = fields("ACAP-crawler: *\nACAP-allow-follow: /\nACAP-disallow-follow: /private\n");
        for f in &a.fields[1..] {
            assert_eq!(f.usage.as_deref(), Some("follow"));
            assert!(f.problems.is_empty(), "{:?}", f.problems);
        }
    }

    #[test]
    fn acap_problems() {
        let a = fields(
            "ACAP-allow-crawl: /early\nACAP-crawler: a\nACAP-crawler: *\nACAP-allow-fly: /\nACAP-allow-present-poster: /\nACAP-allow-(nothing): /\nACAP-composite-usage: both crawl index\nACAP-disallow-(both): /\nACAP-disallow-index: / time-limit=1-days\nACAP-allow-index: acap:resource-set:none\nACAP-request-delete: /x\nACAP-usage-purpose: search\nACAP-request-re-crawl: /y\nACAP-frobnicate: 1\nACAP-ignore-conventional-records\n",
        );
        let p = |i: usize| a.fields[i].problems.clone();
        assert_eq!(p(0), vec!["outside_record"]);
        assert_eq!(p(2), vec!["wildcard_with_named_crawlers"]);
        assert_eq!(p(3), vec!["unknown_usage"]);
        assert_eq!(p(4), vec!["invalid_resource_type"]);
        assert_eq!(p(5), vec!["undefined_local_usage"]);
        assert_eq!(p(6), vec!["bad_order"]);
        assert_eq!(p(7), vec!["prohibition_composite_usage"]);
        assert_eq!(p(8), vec!["prohibition_qualifiers"]);
        assert_eq!(p(9), vec!["undefined_resource_set"]);
        assert_eq!(p(10), vec!["unknown_action"]);
        assert_eq!(p(12), vec!["request_in_sub_record"]);
        assert_eq!(
            (a.fields[13].field, p(13)),
            ("unknown", vec!["unknown_field"])
        );
        assert_eq!(
            (a.fields[14].field, p(14)),
            ("ignore_conventional_records", vec!["bad_order"])
        );
        assert!(a.ignore_conventional);
    }

    #[test]
    fn acap_comment_or_directive_alone_counts_as_acap() {
        let r = RobotsTxt::parse(b"##Acap version=1.1\nUser-agent: *\n");
        assert!(r.summary.has_acap);
        assert_eq!(parse(&r).version.as_deref(), Some("1.1"));
        let r = RobotsTxt::parse(b"acap-ignore-conventional-records # all ACAP\n");
        assert!(r.summary.has_acap);
        assert!(parse(&r).ignore_conventional);
        assert!(
            !RobotsTxt::parse(b"# no ACAP here\nUser-agent: *\n")
                .summary
                .has_acap
        );
    }

    #[test]
    fn acap_does_not_touch_conventional_groups() {
        let body =
            "User-agent: a\nACAP-crawler: *\nACAP-disallow-crawl: /\nUser-agent: b\nDisallow: /x\n";
        let r = RobotsTxt::parse(body.as_bytes());
        assert_eq!(r.groups.len(), 1);
        assert!(crate::robots::allowed_by_robots(
            body.as_bytes(),
            "a",
            "http://e.com/y"
        ));
        assert!(!crate::robots::allowed_by_robots(
            body.as_bytes(),
            "a",
            "http://e.com/x"
        ));
    }
}
