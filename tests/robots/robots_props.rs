//! Property tests of the robots.txt parser and matcher: no panic on any bytes, one descriptor per
//! physical line, and the position-set matcher equal to a naive backtracking matcher.

use crate::common;

use common::corpus::physical_lines;
use proptest::prelude::*;
use repcensus::internals::{parse_app_directives, parse_pairs};
use repcensus::{Matcher, RobotsTxt};

/// Robots-like text: keys, separators, values, wildcards, line endings, odd bytes.
fn robotsish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"User-agent".to_vec()),
        Just(b"Disallow".to_vec()),
        Just(b"allow".to_vec()),
        Just(b"App-Directives".to_vec()),
        Just(b"User-Agent-Purpose".to_vec()),
        Just(b":".to_vec()),
        Just(b" ".to_vec()),
        Just(b"\t".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"#".to_vec()),
        Just(b"*".to_vec()),
        Just(b"$".to_vec()),
        Just(b"/".to_vec()),
        Just(b"%a".to_vec()),
        Just(b"\0".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        Just(b";x=?1, y".to_vec()),
        "[a-z]{1,6}".prop_map(String::into_bytes),
        prop::collection::vec(any::<u8>(), 1..4),
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

/// Naive reference: `*` any run, `$` anchor only at the end, everything else literal.
fn naive(path: &[u8], pat: &[u8]) -> bool {
    fn go(path: &[u8], pat: &[u8], whole: usize) -> bool {
        match pat.split_first() {
            None => true,
            Some((b'$', rest)) if rest.is_empty() && whole > 0 => path.is_empty(),
            Some((b'*', rest)) => (0..=path.len()).any(|i| go(&path[i..], rest, whole)),
            Some((c, rest)) => path.first() == Some(c) && go(&path[1..], rest, whole),
        }
    }
    go(path, pat, pat.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_bytes_parse_with_one_descriptor_per_line(body in prop_oneof![robotsish(), prop::collection::vec(any::<u8>(), 0..400)]) {
        let r = RobotsTxt::parse(&body);
        prop_assert_eq!(r.lines.len(), physical_lines(&body));
        for (i, l) in r.lines.iter().enumerate() {
            prop_assert_eq!(l.number as usize, i + 1);
            prop_assert!(l.start <= l.end && l.key_start <= l.key_end && l.value_start <= l.value_end);
            prop_assert_eq!(
                l.has(repcensus::internals::flag::NON_UTF8),
                std::str::from_utf8(l.text(r.body)).is_err()
            );
            let _ = parse_app_directives(l.value(r.body));
            let _ = parse_pairs(l.value(r.body));
        }
        let mut m = Matcher::new();
        for path in [&b"/"[..], b"/a/b", b"/x$"] {
            let v = m.verdict(&r, &["a", "User-agent"], Some("x"), path);
            prop_assert!(v.line.is_none() || v.line_index.is_some());
        }
    }

    #[test]
    fn matcher_equals_naive_backtracking(path in "/[ab*$/]{0,10}", pat in "[ab*$/]{0,8}") {
        let mut m = Matcher::new();
        prop_assert_eq!(m.matches(path.as_bytes(), pat.as_bytes()), naive(path.as_bytes(), pat.as_bytes()), "path {} pattern {}", path, pat);
    }
}
