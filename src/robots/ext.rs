//! Extension lines: `App-Directives` (draft-nottingham-plan-b) and the `key=value` lines of AI
//! preferences (`Content-Usage`, `Content-Signal`).

use super::key::Key;
use super::matcher::Matcher;
use super::parse::RobotsTxt;

/// One application directive of an `App-Directives` line (or, with `directive` `None`, an
/// application named without directives; or, with `app` `None`, a line that did not parse).
#[derive(Clone, Debug, PartialEq)]
pub struct AppDirective {
    pub app: Option<String>,
    pub directive: Option<String>,
    /// The value as text: booleans `true`/`false`, numbers in decimal, strings and tokens as is,
    /// byte sequences in base64, dates in Unix seconds.
    pub value: Option<String>,
    /// Structured Fields type of the value: boolean, integer, decimal, string, token,
    /// byte_sequence, date, display_string.
    pub value_type: Option<&'static str>,
    /// What is wrong, if anything: `invalid_structured_field`, `member_not_token`, `inner_list`,
    /// `no_directives`.
    pub problem: Option<&'static str>,
}

/// A parsed `App-Directives` value.
#[derive(Clone, Debug, PartialEq)]
pub struct AppDirectivesValue<'a> {
    /// The path pattern before the list, if any.
    pub path: Option<&'a [u8]>,
    /// The list text (after the path).
    pub list: &'a [u8],
    /// The list is a valid Structured Fields List.
    pub valid: bool,
    pub directives: Vec<AppDirective>,
}

pub(crate) fn bare_item(b: &sfv::BareItem) -> (String, &'static str) {
    use sfv::BareItem as B;
    match b {
        B::Boolean(v) => (v.to_string(), "boolean"),
        B::Integer(v) => (v.to_string(), "integer"),
        B::Decimal(v) => (v.to_string(), "decimal"),
        B::String(v) => (v.as_str().to_string(), "string"),
        B::Token(v) => (v.as_str().to_string(), "token"),
        B::ByteSequence(v) => (base64(v), "byte_sequence"),
        B::Date(v) => (v.unix_seconds().to_string(), "date"),
        B::DisplayString(v) => (v.to_string(), "display_string"),
    }
}

fn base64(b: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in b.chunks(3) {
        let n = c
            .iter()
            .enumerate()
            .fold(0u32, |a, (i, &x)| a | u32::from(x) << (16 - 8 * i));
        for i in 0..4 {
            if i <= c.len() {
                s.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// Split off an optional leading path pattern (`/...` up to the first space or tab).
pub fn split_path(value: &[u8]) -> (Option<&[u8]>, &[u8]) {
    if value.first() != Some(&b'/') {
        return (None, value);
    }
    match value.iter().position(|&c| c == b' ' || c == b'\t') {
        Some(i) => {
            let rest = &value[i..];
            let j = rest
                .iter()
                .position(|&c| c != b' ' && c != b'\t')
                .unwrap_or(rest.len());
            (Some(&value[..i]), &rest[j..])
        }
        None => (Some(value), &value[value.len()..]),
    }
}

/// Parse the value of an `App-Directives` line. Never fails: an invalid list is kept as one
/// directive with `problem = invalid_structured_field`.
pub fn parse_app_directives(value: &[u8]) -> AppDirectivesValue<'_> {
    let (path, list) = split_path(value);
    let mut out = AppDirectivesValue {
        path,
        list,
        valid: false,
        directives: Vec::new(),
    };
    let bad = |problem| AppDirective {
        app: None,
        directive: None,
        value: None,
        value_type: None,
        problem: Some(problem),
    };
    if list.is_empty() {
        out.directives.push(bad("no_directives"));
        return out;
    }
    let parsed: Result<sfv::List, _> = sfv::Parser::new(list).parse();
    let Ok(entries) = parsed else {
        out.directives.push(bad("invalid_structured_field"));
        return out;
    };
    out.valid = true;
    for entry in entries {
        let (app, problem, params) = match entry {
            sfv::ListEntry::Item(item) => {
                let (text, ty) = bare_item(&item.bare_item);
                let problem = (ty != "token").then_some("member_not_token");
                (text, problem, item.params)
            }
            sfv::ListEntry::InnerList(inner) => (String::new(), Some("inner_list"), inner.params),
        };
        if params.is_empty() {
            out.directives.push(AppDirective {
                app: Some(app),
                directive: None,
                value: None,
                value_type: None,
                problem,
            });
            continue;
        }
        for (k, v) in &params {
            let (value, ty) = bare_item(v);
            out.directives.push(AppDirective {
                app: Some(app.clone()),
                directive: Some(k.as_str().to_string()),
                value: Some(value),
                value_type: Some(ty),
                problem,
            });
        }
    }
    out
}

/// The directives that apply to application `app` fetched by the crawler `product` for `path`
/// (see [`app_directives_at`]).
pub fn app_directives_for(
    robots: &RobotsTxt<'_>,
    product: &str,
    app: &str,
    path: &[u8],
) -> Vec<(String, String, &'static str)> {
    app_directives_at(robots, product, path)
        .into_iter()
        .filter(|d| d.0 == app)
        .map(|(_, k, v, t)| (k, v, t))
        .collect()
}

/// The directives every application obtains when fetched by the crawler `product` for `path`,
/// as `(application, directive, value, value type)`: the groups naming `product` (else the `*`
/// groups), then the App-Directives rules with the longest matching path pattern (a rule without
/// a path matches with length 0), combined in file order (a later directive of the same name for
/// the same application overrides).
pub fn app_directives_at(
    robots: &RobotsTxt<'_>,
    product: &str,
    path: &[u8],
) -> Vec<(String, String, String, &'static str)> {
    let mut m = Matcher::new();
    let sel = m.select(robots, &[product], None);
    let selected: Vec<usize> = m
        .selected_lines(robots, sel)
        .filter(|&i| robots.lines[i].key == Key::AppDirectives)
        .collect();
    let mut best: Option<(usize, Vec<u8>)> = None;
    let mut lines = Vec::new();
    for i in selected {
        let (p, _) = split_path(robots.norm_value(i));
        let p = p.unwrap_or(b"");
        if !m.matches(path, p) {
            continue;
        }
        if best.as_ref().is_none_or(|(len, _)| p.len() > *len) {
            best = Some((p.len(), p.to_vec()));
        }
        lines.push((i, p.to_vec()));
    }
    let Some((_, best_path)) = best else {
        return Vec::new();
    };
    let mut out: Vec<(String, String, String, &'static str)> = Vec::new();
    for (i, p) in lines {
        if p != best_path {
            continue;
        }
        for d in parse_app_directives(robots.lines[i].value(robots.body)).directives {
            if d.problem.is_some() {
                continue;
            }
            if let (Some(a), Some(k), Some(v), Some(t)) =
                (d.app, d.directive, d.value, d.value_type)
            {
                out.retain(|(a2, k2, _, _)| !(*a2 == a && *k2 == k));
                out.push((a, k, v, t));
            }
        }
    }
    out
}

/// The `key=value` pairs of an AI-preference line (`Content-Usage`, `Content-Signal`), after an
/// optional path: pairs are separated by `,` or `;`, keys are lowercased and values trimmed.
/// Returns the path and the pairs in canonical text form `k=v,k=v` (a bare key is kept as `k`).
pub fn parse_pairs(value: &[u8]) -> (Option<&[u8]>, String) {
    let (path, rest) = split_path(value);
    let text = String::from_utf8_lossy(rest);
    let mut out = String::new();
    for pair in text.split([',', ';']) {
        let pair = pair.trim();
        if pair.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(',');
        }
        match pair.split_once('=') {
            Some((k, v)) => {
                out.push_str(&k.trim().to_ascii_lowercase());
                out.push('=');
                out.push_str(v.trim().trim_matches('"'));
            }
            None => out.push_str(&pair.to_ascii_lowercase()),
        }
    }
    (path, out)
}

/// The leading number of a value (`10`, `0.5`, `10 # seconds` -> 10).
pub fn leading_number(v: &str) -> Option<f64> {
    let end = v
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.'))
        .map_or(v.len(), |(i, _)| i);
    v[..end].parse().ok().filter(|x: &f64| x.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_number_reads_the_digits_before_any_comment() {
        assert_eq!(leading_number("10 # s"), Some(10.0));
        assert_eq!(leading_number("0.5"), Some(0.5));
        assert_eq!(leading_number("x"), None);
    }

    #[test]
    fn planb_examples() {
        let v = parse_app_directives(b"examplesearch;widgets=?0");
        assert!(v.valid);
        assert_eq!(v.path, None);
        assert_eq!(v.directives.len(), 1);
        let d = &v.directives[0];
        assert_eq!(d.app.as_deref(), Some("examplesearch"));
        assert_eq!(d.directive.as_deref(), Some("widgets"));
        assert_eq!(d.value.as_deref(), Some("false"));
        assert_eq!(d.value_type, Some("boolean"));

        let v = parse_app_directives(b"/news/ a;x=1;y=\"s\", b");
        assert_eq!(v.path, Some(&b"/news/"[..]));
        assert_eq!(v.directives.len(), 3);
        assert_eq!(v.directives[1].value_type, Some("string"));
        assert_eq!(v.directives[2].directive, None);

        let v = parse_app_directives(b"a;x=");
        assert!(!v.valid);
        assert_eq!(v.directives[0].problem, Some("invalid_structured_field"));
        assert_eq!(
            parse_app_directives(b"/only").directives[0].problem,
            Some("no_directives")
        );
        assert_eq!(
            parse_app_directives(b"\"s\";x=1").directives[0].problem,
            Some("member_not_token")
        );
        assert_eq!(
            parse_app_directives(b"a;b=:AQID:").directives[0]
                .value
                .as_deref(),
            Some("AQID")
        );
    }

    #[test]
    fn planb_group_and_path_choice() {
        let body = b"User-Agent: *\nAllow: /\nApp-Directives: examplesearch;widgets=?0\nApp-Directives: someothersearch;foo=bar\nApp-Directive: /news/ examplesearch;widgets=?1;n=2\n\nUser-agent: FooBot\nDisallow: /x\nApp-Directives: examplesearch;widgets=?1\n";
        let r = RobotsTxt::parse(body);
        let d = app_directives_for(&r, "OtherBot", "examplesearch", b"/a");
        assert_eq!(d, vec![("widgets".into(), "false".into(), "boolean")]);
        let d = app_directives_for(&r, "OtherBot", "examplesearch", b"/news/1");
        assert_eq!(
            d,
            vec![
                ("widgets".into(), "true".into(), "boolean"),
                ("n".into(), "2".into(), "integer")
            ]
        );
        let d = app_directives_for(&r, "OtherBot", "someothersearch", b"/a");
        assert_eq!(d, vec![("foo".into(), "bar".into(), "token")]);
        let d = app_directives_for(&r, "foobot", "examplesearch", b"/news/1");
        assert_eq!(d, vec![("widgets".into(), "true".into(), "boolean")]);
    }

    #[test]
    fn pairs() {
        assert_eq!(
            parse_pairs(b"search=yes, ai-train=no"),
            (None, "search=yes,ai-train=no".into())
        );
        assert_eq!(
            parse_pairs(b"/p/ Train-AI=n;x"),
            (Some(&b"/p/"[..]), "train-ai=n,x".into())
        );
    }
}
