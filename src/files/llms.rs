//! The `/llms.txt` proposal (`../shared/specs/llms-txt-proposal.md`): what a body served at
//! `/llms.txt` or `/llms-full.txt` is, and, when it is the proposal's Markdown, its parts.
//!
//! The proposal's file is Markdown in a fixed order: an H1 with the site's name (the one
//! required part), an optional blockquote summary, free sections without headings, then H2
//! sections of "file lists" whose items start with a link `[name](url)`; an H2 named
//! `Optional` marks links that may be skipped. What sites serve at the path is often something
//! else: an HTML page (a soft 404 or the home page), an empty body, plain text. The form is
//! decided from the first lines only, as a reader deciding "is this an llms.txt" would; the
//! counts are of the whole body.

str_enum! {
    /// What a body served at an llms.txt path is.
    pub enum LlmsForm {
        /// The proposal's Markdown: the first line that is not blank is an H1.
        Markdown = "markdown",
        /// An HTML page (`<!doctype`, `<html`, `<head` or `<body` first): a soft 404 or a
        /// page served for every path.
        Html = "html",
        /// No body, or only white space.
        Empty = "empty",
        /// Text whose first line is not an H1 (a robots.txt, a list of links, prose).
        Text = "text",
        /// Bytes that are not text (a NUL byte, or invalid UTF-8, in the first KiB).
        Binary = "binary",
    }
}

/// What a body served at an llms.txt path says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LlmsTxt {
    pub form: Option<LlmsForm>,
    /// The H1's text, for the Markdown form.
    pub title: Option<String>,
    /// Whether a blockquote (`>`) is the first thing after the H1.
    pub has_summary: bool,
    /// H2 headings (outside code fences).
    pub sections: u32,
    /// List items of the H2 sections that start with a Markdown link `[name](url)`.
    pub links: u32,
    /// Whether an H2 is named `Optional` (any case).
    pub optional_section: bool,
    /// Lines of the body.
    pub lines: u32,
}

/// How much of the body decides its form.
const SNIFF: usize = 1024;

/// Read a body served at an llms.txt path (a UTF-8 byte order mark is skipped).
pub fn parse(body: &[u8]) -> LlmsTxt {
    let body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    let text = String::from_utf8_lossy(body);
    let lines = text.lines().count() as u32;
    let form = form_of(body, &text);
    let mut out = LlmsTxt {
        form: Some(form),
        lines,
        ..LlmsTxt::default()
    };
    if form == LlmsForm::Markdown {
        markdown(&text, &mut out);
    }
    out
}

fn form_of(body: &[u8], text: &str) -> LlmsForm {
    let head = &body[..body.len().min(SNIFF)];
    if head.contains(&0) || invalid_utf8(head) {
        return LlmsForm::Binary;
    }
    let start = text.trim_start();
    if start.is_empty() {
        return LlmsForm::Empty;
    }
    if is_html(start) {
        return LlmsForm::Html;
    }
    // The first line that is not blank, with its indent (four spaces make it code).
    let mut lines = text.lines().skip_while(|l| l.trim().is_empty());
    let first = lines.next().unwrap_or_default();
    let second = lines.next().unwrap_or_default();
    if h1(first).is_some() || setext_h1(first, second) {
        LlmsForm::Markdown
    } else {
        LlmsForm::Text
    }
}

/// Invalid UTF-8 in `head`, but for a character cut by the end of the sniffed bytes.
fn invalid_utf8(head: &[u8]) -> bool {
    match std::str::from_utf8(head) {
        Ok(_) => false,
        Err(e) => e.error_len().is_some(),
    }
}

fn is_html(start: &str) -> bool {
    let lead: String = start
        .chars()
        .take(64)
        .collect::<String>()
        .to_ascii_lowercase();
    ["<!doctype", "<html", "<head", "<body", "<?xml", "<!--"]
        .iter()
        .any(|t| lead.starts_with(t))
}

/// The text of an ATX H1 (`# Title`, up to three spaces before, closing `#`s dropped).
fn h1(line: &str) -> Option<&str> {
    let l = strip_indent(line)?;
    let rest = l.strip_prefix('#')?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let title = rest.trim().trim_end_matches('#').trim_end();
    (!title.is_empty()).then_some(title)
}

/// The text of an ATX H2 (`## Name`).
fn h2(line: &str) -> Option<&str> {
    let rest = strip_indent(line)?.strip_prefix("##")?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some(rest.trim().trim_end_matches('#').trim_end())
}

/// A Setext H1: a line of text under which a line of `=` stands.
fn setext_h1(first: &str, second: &str) -> bool {
    let s = second.trim();
    !first.trim().is_empty() && !s.is_empty() && s.bytes().all(|b| b == b'=')
}

/// The line without up to three spaces of indent (four make a code block: none).
fn strip_indent(line: &str) -> Option<&str> {
    let l = line.trim_start_matches(' ');
    (line.len() - l.len() < 4).then_some(l)
}

/// Whether a line is a list item that starts with a Markdown link.
fn is_link_item(line: &str) -> bool {
    let Some(l) = strip_indent(line.trim_start_matches([' ', '\t'])) else {
        return false;
    };
    let item = if let Some(r) = l.strip_prefix(['-', '*', '+']) {
        r
    } else {
        let digits = l.bytes().take_while(u8::is_ascii_digit).count();
        match l[digits..].strip_prefix(['.', ')']) {
            Some(r) if digits > 0 => r,
            _ => return false,
        }
    };
    let Some(item) = item.strip_prefix([' ', '\t']) else {
        return false;
    };
    let item = item.trim_start();
    item.starts_with('[')
        && item
            .find("](")
            .is_some_and(|at| item[at + 2..].contains(')'))
}

/// The parts of a Markdown body: the H1, the summary, the H2 sections and their links.
fn markdown(text: &str, out: &mut LlmsTxt) {
    let mut lines = text.lines().skip_while(|l| l.trim().is_empty()).peekable();
    let first = lines.next().unwrap_or_default();
    out.title = match h1(first) {
        Some(t) => Some(t.to_string()),
        None => {
            lines.next(); // the Setext underline
            Some(first.trim().to_string())
        }
    };
    while lines.peek().is_some_and(|l| l.trim().is_empty()) {
        lines.next();
    }
    out.has_summary = lines
        .peek()
        .and_then(|l| strip_indent(l))
        .is_some_and(|l| l.starts_with('>'));
    let mut fence: Option<&str> = None;
    let mut in_section = false;
    for line in lines {
        let t = line.trim_start();
        if let Some(open) = fence {
            if t.starts_with(open) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = Some(&t[..3]);
            continue;
        }
        if let Some(name) = h2(line) {
            out.sections += 1;
            in_section = true;
            out.optional_section |= name.eq_ignore_ascii_case("optional");
        } else if in_section && is_link_item(line) {
            out.links += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The proposal's own example (the cut-down FastHTML file) is Markdown with its title,
    /// summary, four sections of five links, one of them `Optional`.
    #[test]
    fn the_proposals_fasthtml_example_is_read_whole() {
        let body = "# FastHTML\n\n> FastHTML is a python library which brings together Starlette, Uvicorn, HTMX, and fastcore's `FT` \"FastTags\" into a library for creating server-rendered hypermedia applications.\n\nImportant notes:\n\n- Although parts of its API are inspired by FastAPI, it is *not* compatible with FastAPI syntax and is not targeted at creating API services\n- FastHTML is compatible with JS-native web components and any vanilla JS library, but not with React, Vue, or Svelte.\n\n## Docs\n\n- [FastHTML quick start](https://fastht.ml/docs/tutorials/quickstart_for_web_devs.html.md): A brief overview of many FastHTML features\n- [HTMX reference](https://github.com/bigskysoftware/htmx/blob/master/www/content/reference.md): Brief description of all HTMX attributes\n\n## Examples\n\n- [Todo list application](https://github.com/AnswerDotAI/fasthtml/blob/main/examples/adv_app.py): Detailed walk-thru\n\n## Optional\n\n- [Starlette full documentation](https://gist.githubusercontent.com/jph00/809e/starlette-sml.md): A subset of the Starlette documentation useful for FastHTML development. \n";
        let got = parse(body.as_bytes());
        assert_eq!(got.form, Some(LlmsForm::Markdown));
        assert_eq!(got.title.as_deref(), Some("FastHTML"));
        assert!(got.has_summary && got.optional_section);
        // The two notes before the first H2 are not file lists.
        assert_eq!((got.sections, got.links), (3, 4));
    }

    /// The proposal's mock example, written with a BOM and CRLF line ends as Windows editors
    /// save it.
    #[test]
    fn a_bom_and_crlf_change_nothing() {
        let lf = "# Title\n\n> Optional description goes here\n\nOptional details go here\n\n## Section name\n\n- [Link title](https://link_url): Optional link details\n\n## Optional\n\n- [Link title](https://link_url)\n";
        let crlf = format!("\u{feff}{}", lf.replace('\n', "\r\n"));
        let (a, b) = (parse(lf.as_bytes()), parse(crlf.as_bytes()));
        assert_eq!(a, b);
        assert_eq!(a.title.as_deref(), Some("Title"));
        assert_eq!((a.sections, a.links, a.lines), (2, 2, 13));
    }

    /// What sites serve instead: soft 404 pages, empty bodies, plain text, binary.
    #[test]
    fn html_soft_404s_empty_text_and_binary_bodies_are_told_apart() {
        let form = |b: &[u8]| parse(b).form.unwrap();
        assert_eq!(
            form(b"\n  <!DOCTYPE html><html><head><title>Page not found</title>"),
            LlmsForm::Html
        );
        assert_eq!(form(b"<HTML><BODY>404</BODY></HTML>"), LlmsForm::Html);
        assert_eq!(form(b""), LlmsForm::Empty);
        assert_eq!(form(b" \r\n\t\n"), LlmsForm::Empty);
        assert_eq!(form(b"User-agent: *\nDisallow:\n"), LlmsForm::Text);
        assert_eq!(form(b"## Docs\n- [a](b)\n"), LlmsForm::Text);
        assert_eq!(form(b"#Title without a space\n"), LlmsForm::Text);
        assert_eq!(form(b"    # indented four: code\n"), LlmsForm::Text);
        assert_eq!(form(b"\x1f\x8b\x08\x00\x00"), LlmsForm::Binary);
        assert_eq!(form(b"# T\n\xff\xfe\n"), LlmsForm::Binary);
        assert!(parse(b"<html>").title.is_none());
    }

    /// A Setext H1 is an H1; headings in code fences, H3s and links outside H2 sections are
    /// not counted; numbered and `*` lists are lists.
    #[test]
    fn headings_and_links_are_counted_as_markdown_reads_them() {
        let body = "Site\n====\n\n- [not in a section](/x)\n\n```\n## not a heading\n```\n\n## Docs ##\n1. [one](/1)\n* [two](/2): notes\n  + [three](/3)\n- plain item\n- see [four](/4)\n### Deeper\n- [five](/5)\n";
        let got = parse(body.as_bytes());
        assert_eq!(got.form, Some(LlmsForm::Markdown));
        assert_eq!(got.title.as_deref(), Some("Site"));
        assert!(!got.has_summary && !got.optional_section);
        assert_eq!((got.sections, got.links), (1, 4));
    }
}
