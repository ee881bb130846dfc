//! RFC 9309's encoding of paths before they are compared (§2.2.2): "The octets in the URI and
//! robots.txt paths outside the range of the ASCII coded character set, and those in the
//! reserved range defined by RFC 3986, MUST be percent-encoded ... prior to comparison. If a
//! percent-encoded ASCII octet is encountered in the URI, it MUST be unencoded prior to
//! comparison, unless it is a reserved character in the URI ... or the character is outside
//! the unreserved character range."
//!
//! Google's library encodes only the patterns (bytes >= 0x80 to `%XX`, `%xx` to uppercase:
//! [`super::parse::escape_pattern`]) and compares the URL's path as its caller gives it, so a
//! page whose URL was archived unencoded (`/café/1`, `/a b`) escapes a rule written encoded or
//! not. The RFC 9309 reading encodes both sides here first:
//!
//! * bytes >= 0x80, controls, space and the ASCII bytes RFC 3986 allows nowhere in a URI
//!   (`"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`) become `%XX`;
//! * `%XX` of an unreserved character (`A-Z a-z 0-9 - . _ ~`) becomes the character, any other
//!   `%XX` keeps its encoding with uppercase hex (`%2f` is `%2F`, not `/`);
//! * reserved characters written as themselves stay (`/`, `?`, `=`, `*`, `$`: encoding them
//!   would change what the path means, and RFC 9309's own example keeps them).

/// Whether `b` may stand for itself in a path of the RFC 9309 reading.
fn is_kept(b: u8) -> bool {
    b > 0x20
        && b < 0x7f
        && !matches!(
            b,
            b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
        )
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// `path` (a URL's path, or a rule's pattern) as RFC 9309 compares it, into `out` (emptied
/// first).
pub fn rfc9309_path(path: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut i = 0;
    while i < path.len() {
        let b = path[i];
        let escaped = (b == b'%')
            .then(|| Some(hex_value(*path.get(i + 1)?)? << 4 | hex_value(*path.get(i + 2)?)?))
            .flatten();
        match escaped {
            Some(v) if is_unreserved(v) => out.push(v),
            Some(v) => {
                out.extend_from_slice(&[b'%', HEX[usize::from(v >> 4)], HEX[usize::from(v & 15)]])
            }
            None if b == b'%' || is_kept(b) => out.push(b),
            None => {
                out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]])
            }
        }
        i += if escaped.is_some() { 3 } else { 1 };
    }
}

/// Whether [`rfc9309_path`] would change `path`.
pub fn changes(path: &[u8]) -> bool {
    path.iter().any(|&b| b == b'%' || !is_kept(b))
}

/// Whether some rule of `robots` has a pattern [`rfc9309_path`] would change (as Google's
/// parser normalised it).
pub fn patterns_change(robots: &super::RobotsTxt<'_>) -> bool {
    (0..robots.lines.len())
        .filter(|&i| robots.lines[i].key.is_rule())
        .any(|i| changes(robots.norm_value(i)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(path: &str) -> String {
        let mut out = Vec::new();
        rfc9309_path(path.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rfc_9309s_own_examples_encode_as_its_table_says() {
        // §2.2.2's table, but for the query whose `:` and `/` only a reader of the query can
        // know to be data.
        assert_eq!(enc("/foo/bar?baz=quz"), "/foo/bar?baz=quz");
        assert_eq!(enc("/foo/bar/\u{30c4}"), "/foo/bar/%E3%83%84");
        assert_eq!(enc("/foo/bar/%E3%83%84"), "/foo/bar/%E3%83%84");
        assert_eq!(enc("/foo/bar/%62%61%7A"), "/foo/bar/baz");
    }

    #[test]
    fn unencoded_bytes_are_encoded_and_encoded_reserved_ones_stay_encoded() {
        assert_eq!(enc("/café/1"), "/caf%C3%A9/1");
        assert_eq!(enc("/a b"), "/a%20b");
        assert_eq!(enc("/a%20b"), "/a%20b");
        assert_eq!(enc("/a%2fb%2A"), "/a%2Fb%2A");
        assert_eq!(enc("/x{y}|z"), "/x%7By%7D%7Cz");
        // `*` and `$` keep their meaning in a pattern; a lone `%` stays.
        assert_eq!(enc("/*.php$"), "/*.php$");
        assert_eq!(enc("/100%"), "/100%");
        assert_eq!(enc("/%4"), "/%4");
    }

    #[test]
    fn only_paths_with_a_percent_or_a_byte_to_encode_change() {
        for p in ["/", "/a/b?c=d&e", "/*.php$"] {
            assert!(!changes(p.as_bytes()), "{p}");
            assert_eq!(enc(p), p);
        }
        for p in ["/a b", "/%41", "/é"] {
            assert!(changes(p.as_bytes()), "{p}");
        }
    }
}
