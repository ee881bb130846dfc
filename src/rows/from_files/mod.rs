//! The well-known files' source: captures of `/llms.txt` and `/llms-full.txt` (the llms.txt
//! proposal) become rows of `llms_txt`, one per capture, with what the body is
//! ([`crate::files::llms`]). Such a capture is also a page (`pages`, `host_counts`): the page
//! source reads it too, as any response.

use crate::archive::http;
use crate::archive::record::{self, strip_angle, unfold};
use crate::archive::sink::{Need, Record};
use crate::files::llms;
use crate::rows::source::{Address, Context, RecordType, RowSource, Seen};
use crate::tables::host_of;
use crate::tables::{LlmsTxtRow, Table, TableSelection};

/// The well-known files' source.
pub struct WellKnownFiles {
    llms_txt: bool,
}

impl WellKnownFiles {
    pub fn new(selection: TableSelection) -> Self {
        WellKnownFiles {
            llms_txt: selection.writes(Table::LlmsTxt),
        }
    }
}

impl RowSource for WellKnownFiles {
    fn tables(&self) -> &'static [Table] {
        &[Table::LlmsTxt]
    }

    /// Captures of an llms.txt path: responses, resources, and revisits (kept with their
    /// status; their body is elsewhere).
    fn wants(&self, ty: RecordType, address: Address) -> bool {
        self.llms_txt
            && matches!(address, Address::LlmsTxt | Address::LlmsFullTxt)
            && matches!(
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
        let file = Address::of(url);
        if !matches!(file, Address::LlmsTxt | Address::LlmsFullTxt) {
            return;
        }
        let head = match seen.ty {
            RecordType::Resource => None,
            _ => http::parse_response(rec.block),
        };
        let host = host_of(url);
        let record_id =
            String::from_utf8_lossy(strip_angle(&unfold(rec.head.record_id))).into_owned();
        let mut row = LlmsTxtRow {
            warc_file: Some(cx.warc_file),
            warc_offset: Some(rec.offset as i64),
            warc_record_id: (!record_id.is_empty()).then_some(record_id.as_str()),
            warc_type: Some(seen.ty.as_str()),
            url: Some(seen.uri),
            host: host.as_deref(),
            capture_time: record::parse_date_micros(&unfold(rec.head.date)),
            file: Some(file.as_str()),
            ..LlmsTxtRow::default()
        };
        let location;
        let content_type;
        let parsed;
        let body = match (&head, seen.ty) {
            (_, RecordType::Revisit) => None,
            (Some(h), _) => {
                row.http_status = h.status.map(i32::from);
                content_type = h.header("content-type").map(media_type);
                row.content_type = content_type.as_deref();
                if (300..400).contains(&h.status.unwrap_or(0)) {
                    location = h
                        .header("location")
                        .map(|v| String::from_utf8_lossy(&unfold(v)).into_owned());
                    row.redirect_location = location.as_deref();
                }
                let (body, info) = cx.bufs.body.decode(h, rec.block);
                if let Some((kind, detail)) = info.problem.filter(|_| !cx.body_reported) {
                    let scope = crate::archive::problem::Scope::Body;
                    let at = Some(rec.offset);
                    let out = &mut cx.out;
                    out.push_error(cx.warc_file, scope, kind, &detail, at, None, Some(seen.uri));
                }
                Some((body, rec.block_truncated || info.capped))
            }
            (None, RecordType::Resource) => {
                content_type = Some(media_type(rec.head.content_type));
                row.content_type = content_type.as_deref();
                Some((rec.block, rec.block_truncated))
            }
            (None, _) => None,
        };
        if let Some((body, cut)) = body {
            parsed = llms::parse(body);
            row.bytes = Some(body.len() as i64);
            row.truncated = Some(cut);
            row.form = parsed.form.map(llms::LlmsForm::as_str);
            row.lines = Some(parsed.lines as i32);
            if parsed.form == Some(llms::LlmsForm::Markdown) {
                row.title = parsed.title.as_deref();
                row.has_summary = Some(parsed.has_summary);
                row.sections = Some(parsed.sections as i32);
                row.links = Some(parsed.links as i32);
                row.optional_section = Some(parsed.optional_section);
            }
            let ok = seen.ty == RecordType::Resource
                || (200..300).contains(&row.http_status.unwrap_or(0));
            row.valid = Some(ok && parsed.form == Some(llms::LlmsForm::Markdown));
        }
        cx.out.llms_txt.append(&row);
    }
}

fn media_type(v: &[u8]) -> String {
    String::from_utf8_lossy(http::media_type_bytes(v)).to_ascii_lowercase()
}
