//! The well-known files' source: captures of `/llms.txt` and `/llms-full.txt` (the llms.txt
//! proposal) become rows of `llms_txt`, one per capture, with what the body is
//! ([`crate::files::llms`]); captures of `/.well-known/tdmrep.json` (TDMRep) become rows of
//! `tdmrep_rules`, one per rule, or one for a file without a usable rule
//! ([`crate::files::tdmrep`]). Such a capture is also a page (`pages`, `host_counts`): the page
//! source reads it too, as any response.

use crate::archive::framing::sink::{Need, Record};
use crate::archive::heads::http::{self, BodyDecoder};
use crate::archive::heads::record::{self, strip_angle, unfold};
use crate::archive::problem::Scope;
use crate::files::{llms, tdmrep};
use crate::robots::Matcher;
use crate::rows::output::ChunkOutput;
use crate::rows::source::{Address, Context, RecordType, RowSource, Seen};
use crate::tables::host_of;
use crate::tables::{LlmsTxtRow, Table, TableSelection, TdmrepRuleRow};

/// The well-known files' source.
pub struct WellKnownFiles {
    llms_txt: bool,
    tdmrep: bool,
    matcher: Matcher,
}

impl WellKnownFiles {
    pub fn new(selection: TableSelection) -> Self {
        WellKnownFiles {
            llms_txt: selection.writes(Table::LlmsTxt),
            tdmrep: selection.writes(Table::TdmrepRules),
            matcher: Matcher::default(),
        }
    }
}

impl RowSource for WellKnownFiles {
    fn tables(&self) -> &'static [Table] {
        &[Table::LlmsTxt, Table::TdmrepRules]
    }

    /// Captures of a well-known file's path: responses, resources, and revisits (kept with
    /// their status; their body is elsewhere).
    fn wants(&self, ty: RecordType, address: Address) -> bool {
        let file = match address {
            Address::LlmsTxt | Address::LlmsFullTxt => self.llms_txt,
            Address::TdmRep => self.tdmrep,
            Address::Robots | Address::Other => false,
        };
        file && matches!(
            ty,
            RecordType::Response | RecordType::Resource | RecordType::Revisit
        )
    }

    /// All of it: the body is read whole (up to the decoder's limit).
    fn need(&mut self, _: &mut Context<'_>, _: &record::Head<'_>, _: &[u8]) -> Need {
        Need::All
    }

    fn record(&mut self, cx: &mut Context<'_>, rec: &Record<'_>, seen: &Seen<'_>) {
        let Some(url) = seen.url else { return };
        let address = Address::of(url);
        if !matches!(
            address,
            Address::LlmsTxt | Address::LlmsFullTxt | Address::TdmRep
        ) {
            return;
        }
        let f = Fetched::of(
            &mut cx.bufs.body,
            &mut cx.out,
            cx.warc_file,
            cx.body_reported,
            rec,
            seen,
        );
        let host = host_of(url);
        let at = Capture {
            warc_file: cx.warc_file,
            rec,
            seen,
            host: host.as_deref(),
            record_id: f.record_id.as_deref(),
        };
        match address {
            Address::TdmRep => tdmrep_rows(&mut cx.out, &at, &f, &mut self.matcher),
            _ => llms_row(&mut cx.out, &at, &f, address),
        }
        cx.body_reported = true;
    }
}

/// Where a capture is, for its rows.
struct Capture<'a> {
    warc_file: &'a str,
    rec: &'a Record<'a>,
    seen: &'a Seen<'a>,
    host: Option<&'a str>,
    record_id: Option<&'a str>,
}

/// What a capture's HTTP head (none for a resource record) and body say.
struct Fetched<'b> {
    record_id: Option<String>,
    status: Option<i32>,
    content_type: Option<String>,
    location: Option<String>,
    /// The decoded body and whether it was cut; none for a revisit or a record that is not
    /// an HTTP response.
    body: Option<(&'b [u8], bool)>,
}

impl<'b> Fetched<'b> {
    /// Read the capture; a decoding problem is an `errors` row unless an earlier source read
    /// the body.
    fn of(
        decoder: &'b mut BodyDecoder,
        out: &mut ChunkOutput,
        warc_file: &str,
        body_reported: bool,
        rec: &'b Record<'_>,
        seen: &Seen<'_>,
    ) -> Self {
        let id = unfold(rec.head.record_id);
        let record_id = String::from_utf8_lossy(strip_angle(&id));
        let mut f = Fetched {
            record_id: (!record_id.is_empty()).then(|| record_id.into_owned()),
            status: None,
            content_type: None,
            location: None,
            body: None,
        };
        if seen.ty == RecordType::Resource {
            f.content_type = Some(media_type(rec.head.content_type));
            f.body = Some((rec.block, rec.block_truncated));
            return f;
        }
        let Some(h) = http::parse_response(rec.block) else {
            return f;
        };
        f.status = h.status.map(i32::from);
        f.content_type = h.header("content-type").map(media_type);
        if (300..400).contains(&h.status.unwrap_or(0)) {
            f.location =
                (h.header("location")).map(|v| String::from_utf8_lossy(&unfold(v)).into_owned());
        }
        if seen.ty == RecordType::Revisit {
            return f;
        }
        let (body, info) = decoder.decode(&h, rec.block);
        if let Some((kind, detail)) = info.problem.filter(|_| !body_reported) {
            let at = Some(rec.offset);
            out.push_error(
                warc_file,
                Scope::Body,
                kind,
                &detail,
                at,
                None,
                Some(seen.uri),
            );
        }
        f.body = Some((body, rec.block_truncated || info.capped));
        f
    }

    /// A 2xx, or a resource record (a file as it was archived).
    fn ok(&self, seen: &Seen<'_>) -> bool {
        seen.ty == RecordType::Resource || (200..300).contains(&self.status.unwrap_or(0))
    }
}

/// The `llms_txt` row of a capture.
fn llms_row(out: &mut ChunkOutput, at: &Capture<'_>, f: &Fetched<'_>, file: Address) {
    let mut row = LlmsTxtRow {
        warc_file: Some(at.warc_file),
        warc_offset: Some(at.rec.offset as i64),
        warc_record_id: at.record_id,
        warc_type: Some(at.seen.ty.as_str()),
        url: Some(at.seen.uri),
        host: at.host,
        capture_time: record::parse_date_micros(&unfold(at.rec.head.date)),
        file: Some(file.as_str()),
        http_status: f.status,
        content_type: f.content_type.as_deref(),
        redirect_location: f.location.as_deref(),
        ..LlmsTxtRow::default()
    };
    let parsed;
    if let Some((body, cut)) = f.body {
        parsed = llms::parse(body);
        row.bytes = Some(body.len() as i64);
        row.truncated = Some(cut);
        row.form = parsed.form.map(llms::LlmsForm::as_str);
        row.lines = Some(parsed.lines as i32);
        let markdown = parsed.form == Some(llms::LlmsForm::Markdown);
        if markdown {
            row.title = parsed.title.as_deref();
            row.has_summary = Some(parsed.has_summary);
            row.sections = Some(parsed.sections as i32);
            row.links = Some(parsed.links as i32);
            row.optional_section = Some(parsed.optional_section);
        }
        row.valid = Some(f.ok(at.seen) && markdown);
    }
    out.llms_txt.append(&row);
}

/// The `tdmrep_rules` rows of a capture: one per rule of a 2xx TDM file; one with no rule for
/// any other capture (not a 2xx, no body, not a TDM file, an empty array).
fn tdmrep_rows(out: &mut ChunkOutput, at: &Capture<'_>, f: &Fetched<'_>, matcher: &mut Matcher) {
    let base = TdmrepRuleRow {
        warc_file: Some(at.warc_file),
        warc_offset: Some(at.rec.offset as i64),
        warc_record_id: at.record_id,
        warc_type: Some(at.seen.ty.as_str()),
        url: Some(at.seen.uri),
        host: at.host,
        capture_time: record::parse_date_micros(&unfold(at.rec.head.date)),
        http_status: f.status,
        content_type: f.content_type.as_deref(),
        redirect_location: f.location.as_deref(),
        ..TdmrepRuleRow::default()
    };
    let Some((body, cut)) = f.body.filter(|_| f.ok(at.seen)) else {
        out.tdmrep_rules.append(&TdmrepRuleRow {
            bytes: f.body.map(|(b, _)| b.len() as i64),
            ..base
        });
        return;
    };
    let file = tdmrep::parse(body);
    let with_file = TdmrepRuleRow {
        bytes: Some(body.len() as i64),
        truncated: Some(cut),
        file_problem: file.problem.map(tdmrep::FileProblem::as_str),
        file_detail: file.detail.as_deref(),
        rules: Some(file.rules.len() as i32),
        ..base
    };
    if file.rules.is_empty() {
        out.tdmrep_rules.append(&with_file);
        return;
    }
    let root = file.rule_for(b"/", matcher);
    for (i, r) in file.rules.iter().enumerate() {
        out.tdmrep_rules.append(&TdmrepRuleRow {
            decides_root: Some(root == Some(i)),
            rule_index: Some(i as i32),
            location: r.location.as_deref(),
            tdm_reservation: r.reservation.map(i32::from),
            reservation_raw: r.reservation_raw.as_deref(),
            tdm_policy: r.policy.as_deref(),
            rule_problem: r.problem.map(tdmrep::RuleProblem::as_str),
            ..with_file
        });
    }
}

fn media_type(v: &[u8]) -> String {
    String::from_utf8_lossy(http::media_type_bytes(v)).to_ascii_lowercase()
}
