//! The robots.txt capture source: each `response`, `resource` or `revisit` record of an
//! `http(s)://host/robots.txt` URL becomes one `robots_files` row, the rows of its lines
//! (`robots_agents`, `robots_rules`, `app_directives`, `acap_fields`), one `agent_verdicts`
//! row per tracked agent and the capture's `agent_verdict_runs` rows.

use super::body_facts::BodyFacts;
use crate::archive::framing::sink::{Need, Record};
use crate::archive::heads::http::{self, BodyDecoder, HttpHead};
use crate::archive::heads::record::{self, strip_angle, trim, unfold};
use crate::archive::problem::ErrorKind;
use crate::robots::RobotsTxt;
use crate::rows::from_robots::robots_txt::{LineTables, ParsedBody, Provenance};
use crate::rows::from_robots::verdicts::VerdictTables;
use crate::rows::source::{
    is_robots_url, registered_domain, Address, Context, RecordType, RowSource, Seen,
};
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::host_of;
use crate::tables::{RobotsFileRow, Table, TableSelection};

/// The robots.txt capture source, producing the rows of the tables it feeds that are selected.
pub struct RobotsCaptures {
    files: bool,
    lines: LineTables,
    /// `agent_verdicts` and `agent_verdict_runs` are selected.
    verdicts: (bool, bool),
}

impl RobotsCaptures {
    pub fn new(selection: TableSelection) -> Self {
        RobotsCaptures {
            files: selection.writes(Table::RobotsFiles),
            lines: LineTables::of(selection),
            verdicts: (
                selection.writes(Table::AgentVerdicts),
                selection.writes(Table::AgentVerdictRuns),
            ),
        }
    }
}

impl RowSource for RobotsCaptures {
    fn tables(&self) -> &'static [Table] {
        &[
            Table::RobotsFiles,
            Table::RobotsAgents,
            Table::RobotsRules,
            Table::AppDirectives,
            Table::AcapFields,
            Table::AgentVerdicts,
            Table::AgentVerdictRuns,
        ]
    }

    fn wants(&self, ty: RecordType, address: Address) -> bool {
        address == Address::Robots
            && matches!(
                ty,
                RecordType::Response | RecordType::Resource | RecordType::Revisit
            )
    }

    /// All of it: a robots.txt is read whole (up to the parse limit).
    fn need(&mut self, _: &mut Context<'_>, _: &record::Head<'_>, _: &[u8]) -> Need {
        Need::All
    }

    fn record(&mut self, cx: &mut Context<'_>, rec: &Record<'_>, seen: &Seen<'_>) {
        if let Some(url) = seen.url.filter(|u| is_robots_url(u)) {
            self.capture(cx, rec, seen.ty, seen.uri, url);
            cx.body_reported = true;
        }
    }
}

impl RobotsCaptures {
    fn capture(
        &self,
        cx: &mut Context<'_>,
        rec: &Record<'_>,
        ty: RecordType,
        uri: &str,
        url: &url::Url,
    ) {
        let who = Capture::of(rec, url);
        let head = http::parse_response(rec.block);
        let fetch = Fetch::of(&mut cx.bufs.body, rec, ty, head.as_ref());
        let mut row = who.row(cx.warc_file, rec, ty, uri);
        // Parse what a crawler would parse: the body of a 2xx response (or of a resource record).
        let body = fetch.facts.as_ref().map(BodyFacts::body);
        let parsed = body
            .filter(|_| fetch.outcome.is_success())
            .map(ParsedBody::parse);
        // The body columns (UTF-8 check, line endings, SHA-256 digest) go to `robots_files` and
        // `agent_verdicts` (whose verdicts are kept by digest); the line tables take only the
        // capture's provenance.
        let verdicts = self.verdicts.0 || self.verdicts.1;
        let digest = (self.files || verdicts)
            .then(|| fetch.fill(&mut row, parsed.as_ref().map(|p| &p.robots)))
            .flatten();
        let mut undetermined = false;
        if let Some(p) = &parsed {
            // The parse's summary columns are `robots_files`' alone.
            if self.files {
                p.fill(&mut row);
                let ai = cx.bufs.verdicts.wildcard_with_ai(cx.registry, &p.robots);
                row.wildcard_with_ai = Some(ai);
            }
            let prov = Provenance {
                warc_file: cx.warc_file,
                warc_offset: rec.offset as i64,
                host: row.host,
            };
            p.emit(
                &mut cx.out.robots_lines,
                self.lines,
                &prov,
                &mut cx.bufs.scratch,
            );
        }
        row.body_digest = digest.as_deref();
        if verdicts {
            let out = &mut cx.out;
            let tables = VerdictTables {
                rows: self.verdicts.0.then_some(&mut out.agent_verdicts),
                runs: self.verdicts.1.then_some(&mut out.agent_verdict_runs),
            };
            undetermined = cx.bufs.verdicts.emit(
                tables,
                cx.registry,
                &row,
                fetch.outcome,
                parsed.as_ref().map(|p| &p.robots),
            );
        }
        if self.files {
            cx.out.robots_files.append(&row);
        }
        let problem = fetch.problem;
        let id = who.record_id.as_deref();
        if undetermined {
            cx.push_error(
                ErrorKind::VerdictUndetermined,
                "probing the rules spent its budget (robots::classify::PROBE_BUDGET): some agent_verdicts \
                 rows of this capture are `undetermined`",
                rec.offset,
                id,
                Some(uri),
            );
        }
        if let Some((kind, detail)) = problem {
            cx.push_error(kind, &detail, rec.offset, id, Some(uri));
        }
    }
}

/// The provenance of a capture: the text its `robots_files` row borrows from the WARC head
/// and the URL.
struct Capture {
    record_id: Option<String>,
    host: Option<String>,
    scheme: &'static str,
    port: Option<i32>,
    registered_domain: Option<String>,
    warc_truncated: Option<String>,
    payload_digest: Option<String>,
    refers_to_url: Option<String>,
    refers_to_date: Option<i64>,
}

impl Capture {
    fn of(rec: &Record<'_>, url: &url::Url) -> Self {
        let record_id =
            String::from_utf8_lossy(strip_angle(unfold(rec.head.record_id).as_ref())).into_owned();
        let warc_truncated = String::from_utf8_lossy(trim(rec.head.truncated)).into_owned();
        // Fields only robots.txt captures keep: looked up here rather than by every record's
        // header parse.
        let field = |name: &str| {
            let v = rec.head.field(name).map(|v| unfold(v))?;
            let v = String::from_utf8_lossy(strip_angle(trim(v.as_ref()))).into_owned();
            (!v.is_empty()).then_some(v)
        };
        Capture {
            record_id: (!record_id.is_empty()).then_some(record_id),
            host: host_of(url).map(std::borrow::Cow::into_owned),
            // A robots.txt URL is http or https (`is_robots_url`).
            scheme: if url.scheme() == "https" {
                "https"
            } else {
                "http"
            },
            port: url.port_or_known_default().map(i32::from),
            registered_domain: registered_domain(url),
            warc_truncated: (!warc_truncated.is_empty()).then_some(warc_truncated),
            payload_digest: field("WARC-Payload-Digest"),
            refers_to_url: field("WARC-Refers-To-Target-URI"),
            refers_to_date: rec
                .head
                .field("WARC-Refers-To-Date")
                .and_then(|d| record::parse_date_micros(&unfold(d))),
        }
    }

    /// The row with its provenance columns filled.
    fn row<'a>(
        &'a self,
        warc_file: &'a str,
        rec: &Record<'_>,
        ty: RecordType,
        uri: &'a str,
    ) -> RobotsFileRow<'a> {
        RobotsFileRow {
            warc_file: Some(warc_file),
            warc_offset: Some(rec.offset as i64),
            warc_record_id: self.record_id.as_deref(),
            warc_type: Some(ty.as_str()),
            url: Some(uri),
            host: self.host.as_deref(),
            scheme: Some(self.scheme),
            port: self.port,
            registered_domain: self.registered_domain.as_deref(),
            capture_time: record::parse_date_micros(&unfold(rec.head.date)),
            warc_truncated: self.warc_truncated.as_deref(),
            payload_digest: self.payload_digest.as_deref(),
            refers_to_url: self.refers_to_url.as_deref(),
            refers_to_date: self.refers_to_date,
            ..RobotsFileRow::default()
        }
    }
}

/// What a capture says of the fetch: its HTTP head's columns, the outcome, and the body.
struct Fetch<'b> {
    outcome: FetchOutcome,
    http_status: Option<i32>,
    content_type: Option<String>,
    content_encoding: Option<String>,
    transfer_encoding: Option<String>,
    redirect_location: Option<String>,
    /// The body (decoded), unless the capture has none (a revisit, no HTTP response).
    facts: Option<BodyFacts<'b>>,
    /// What went wrong decoding the body.
    problem: Option<(ErrorKind, String)>,
}

impl<'b> Fetch<'b> {
    fn with_outcome(outcome: FetchOutcome) -> Self {
        Fetch {
            outcome,
            http_status: None,
            content_type: None,
            content_encoding: None,
            transfer_encoding: None,
            redirect_location: None,
            facts: None,
            problem: None,
        }
    }

    fn of(
        decoder: &'b mut BodyDecoder,
        rec: &'b Record<'_>,
        ty: RecordType,
        head: Option<&HttpHead<'_>>,
    ) -> Self {
        match (head, ty) {
            (None, RecordType::Resource) => {
                let facts = BodyFacts::of(rec.block, rec.block_len, rec.block_truncated);
                Fetch {
                    content_type: media_type(rec.head.content_type),
                    ..Fetch::with_outcome(facts.outcome_2xx())
                }
                .with_body(facts)
            }
            (None, _) => Fetch::with_outcome(FetchOutcome::NoHttpResponse),
            (Some(h), _) => Fetch::of_response(decoder, rec, ty, h),
        }
    }

    fn of_response(
        decoder: &'b mut BodyDecoder,
        rec: &'b Record<'_>,
        ty: RecordType,
        h: &HttpHead<'_>,
    ) -> Self {
        let lower = |v: &[u8]| String::from_utf8_lossy(trim(v)).to_ascii_lowercase();
        let mut f = Fetch {
            http_status: h.status.map(i32::from),
            content_type: h.header("content-type").and_then(media_type),
            content_encoding: h
                .header("content-encoding")
                .or_else(|| h.header("x-crawler-content-encoding"))
                .map(lower),
            transfer_encoding: h
                .header("transfer-encoding")
                .or_else(|| h.header("x-crawler-transfer-encoding"))
                .map(lower),
            ..Fetch::with_outcome(FetchOutcome::of_status(h.status))
        };
        if (300..400).contains(&h.status.unwrap_or(0)) {
            f.redirect_location = h
                .header("location")
                .map(|v| String::from_utf8_lossy(&unfold(v)).into_owned());
        }
        if ty == RecordType::Revisit {
            // A revisit leaves out only the body: a status that makes the body irrelevant (a
            // 4xx, 5xx or 3xx, whose Location is in the head) is its outcome, as for any
            // capture. Only a 2xx (or a head without a status) needs the capture it revisits.
            // A 2xx whose head or digest says its body is empty is an empty file, as RFC 9309
            // reads one: nothing to look up.
            f.outcome = match f.outcome {
                FetchOutcome::Ok if revisits_empty_body(h, rec) => FetchOutcome::OkEmpty,
                FetchOutcome::Ok | FetchOutcome::BadStatusLine => FetchOutcome::Revisit,
                _ if super::challenge::is_challenge(h, &[]) => FetchOutcome::Challenge,
                other => other,
            };
            return f;
        }
        if let Some(why) = head_too_long(h, rec) {
            // Its body lies past what the reader keeps: not an empty file, an unread one.
            f.outcome = FetchOutcome::HeadTooLong;
            f.problem = Some((ErrorKind::HttpHeadTooLong, why));
            return f;
        }
        let (body, info) = decoder.decode(h, rec.block);
        f.problem = info.problem.clone();
        // The declared size of an undecoded body whose record was cut by the reader.
        let declared = if info.decoded.is_none() && !info.dechunked && rec.block_truncated {
            rec.block_len.saturating_sub(h.body_offset as u64)
        } else {
            body.len() as u64
        };
        let facts = BodyFacts::of(body, declared, rec.block_truncated || info.capped);
        if f.outcome == FetchOutcome::Ok {
            f.outcome = facts.outcome_2xx();
        } else if super::challenge::is_challenge(h, body) {
            f.outcome = FetchOutcome::Challenge;
        }
        f.with_body(facts)
    }

    fn with_body(self, facts: BodyFacts<'b>) -> Self {
        Fetch {
            facts: Some(facts),
            ..self
        }
    }

    /// Fill the HTTP, outcome and body columns of `row`; returns the body digest. `robots` is
    /// the body's parse, when it was parsed.
    fn fill<'a>(
        &'a self,
        row: &mut RobotsFileRow<'a>,
        robots: Option<&RobotsTxt<'_>>,
    ) -> Option<String> {
        row.http_status = self.http_status;
        row.content_type = self.content_type.as_deref();
        row.content_encoding = self.content_encoding.as_deref();
        row.transfer_encoding = self.transfer_encoding.as_deref();
        row.redirect_location = self.redirect_location.as_deref();
        row.fetch_outcome = Some(self.outcome.as_str());
        self.facts.as_ref().map(|f| f.apply(row, robots))
    }
}

/// The media type of a Content-Type value: lowercase, parameters dropped.
fn media_type(v: &[u8]) -> Option<String> {
    let v = http::media_type_bytes(v);
    (!v.is_empty()).then(|| String::from_utf8_lossy(v).to_ascii_lowercase())
}

/// When the HTTP head does not end within the part of the record that is read (its block was
/// cut at [`crate::archive::framing::sink::KEEP_BLOCK`]), the detail of its `http_head_too_long` errors
/// row.
/// The payload digests of an empty body, as archives write them (SHA-1 in base32, SHA-256 in
/// base32 or hex).
const EMPTY_DIGESTS: [&[u8]; 3] = [
    b"sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ",
    b"sha256:4OYMIQUY7QOBJGX36TEJS35ZEQT24QPEMSNZGTFESWMRW6CSXBKQ",
    b"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
];

/// Whether a revisit records a response with an empty body: `Content-Length: 0` without a
/// transfer coding, or the payload digest of an empty body.
fn revisits_empty_body(h: &HttpHead<'_>, rec: &Record<'_>) -> bool {
    let zero_length = h.header("content-length").is_some_and(|v| trim(v) == b"0")
        && h.header("transfer-encoding").is_none();
    let digest = rec.head.field("WARC-Payload-Digest").map(trim);
    zero_length || digest.is_some_and(|d| EMPTY_DIGESTS.iter().any(|e| d.eq_ignore_ascii_case(e)))
}

pub(crate) fn head_too_long(h: &HttpHead<'_>, rec: &Record<'_>) -> Option<String> {
    (h.incomplete && rec.block_truncated).then(|| {
        format!(
            "the HTTP head does not end within the first {} MiB of the record, all that is read \
             of it: the body and the headers past that are not read",
            rec.block.len() >> 20
        )
    })
}
