//! From a parsed robots.txt to rows: the summary columns of `robots_files` and the rows of
//! `robots_agents`, `robots_rules` and `app_directives`.

use crate::agents::Registry;
use crate::robots::acap;
use crate::robots::ext::{leading_number, parse_app_directives, parse_pairs, split_path};
use crate::robots::lex::flag;
use crate::robots::parse::{agent_name, is_wildcard_agent, product_token, NO_GROUP};
use crate::robots::{Key, Line, RobotsTxt};
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::{
    AcapFieldRow, AcapFieldsBuilder, AppDirectiveRow, AppDirectivesBuilder, AppendRow,
    RobotsAgentRow, RobotsAgentsArrow, RobotsAgentsBuilder, RobotsFileRow, RobotsRuleRow,
    RobotsRulesArrow, RobotsRulesBuilder, Table, TableSelection,
};
use std::borrow::Cow;

/// The row builders a parsed file feeds: the scan's (written from runs) by default, or the
/// Arrow builders of the same tables (`explain`, and the tests of the run writer).
#[derive(Default)]
pub struct RobotsLineTables<A = RobotsAgentsBuilder, R = RobotsRulesBuilder> {
    pub agents: A,
    pub rules: R,
    pub app_directives: AppDirectivesBuilder,
    pub acap: AcapFieldsBuilder,
}

/// Where the rows come from.
pub struct Provenance<'a> {
    pub warc_file: &'a str,
    pub warc_offset: i64,
    pub host: Option<&'a str>,
}

/// Reused text buffers (rows borrow their strings; these avoid an allocation per line).
#[derive(Default)]
pub struct Scratch {
    a: String,
    b: String,
}

/// Which line tables to fill: a table not selected costs nothing per line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineTables {
    /// `robots_agents`.
    pub agents: bool,
    /// `robots_rules`.
    pub rules: bool,
    /// `app_directives`.
    pub app_directives: bool,
    /// `acap_fields`.
    pub acap: bool,
}

impl LineTables {
    pub const ALL: LineTables = LineTables {
        agents: true,
        rules: true,
        app_directives: true,
        acap: true,
    };

    pub fn of(selection: TableSelection) -> Self {
        LineTables {
            agents: selection.writes(Table::RobotsAgents),
            rules: selection.writes(Table::RobotsRules),
            app_directives: selection.writes(Table::AppDirectives),
            acap: selection.writes(Table::AcapFields),
        }
    }

    /// Whether a pass over the lines is needed at all (`acap_fields` has its own).
    fn lines(self) -> bool {
        self.agents || self.rules || self.app_directives
    }
}

/// A robots.txt body parsed as a crawler parses it, with its ACAP content: what the summary
/// columns of its `robots_files` row and the rows of its lines are made of. The scan and
/// `repcensus parse` both go through it.
pub struct ParsedBody<'b> {
    pub robots: RobotsTxt<'b>,
    pub acap: Option<acap::Acap>,
}

impl<'b> ParsedBody<'b> {
    pub fn parse(body: &'b [u8]) -> Self {
        let robots = RobotsTxt::parse(body);
        let acap = robots.summary.has_acap.then(|| acap::parse(&robots));
        ParsedBody { robots, acap }
    }

    /// Fill the parse summary and ACAP columns of the file's `robots_files` row.
    pub fn fill<'a>(&'a self, row: &mut RobotsFileRow<'a>) {
        fill_summary(row, &self.robots);
        let a = self.acap.as_ref();
        row.acap_version = a.and_then(|a| a.version.as_deref());
        row.acap_ignore_conventional = Some(a.is_some_and(|a| a.ignore_conventional));
    }

    /// Emit the rows of the line tables `which` names.
    pub fn emit<A, R>(
        &self,
        out: &mut RobotsLineTables<A, R>,
        which: LineTables,
        p: &Provenance<'_>,
        sc: &mut Scratch,
    ) where
        A: for<'x> AppendRow<RobotsAgentRow<'x>>,
        R: for<'x> AppendRow<RobotsRuleRow<'x>>,
    {
        if which.lines() {
            emit_lines(out, which, p, &self.robots, sc);
        }
        if let Some(a) = self.acap.as_ref().filter(|_| which.acap) {
            emit_acap(&mut out.acap, p, &self.robots, a);
        }
    }
}

/// Emit the `acap_fields` rows of a file.
fn emit_acap(out: &mut AcapFieldsBuilder, p: &Provenance<'_>, r: &RobotsTxt<'_>, a: &acap::Acap) {
    let empty: Vec<String> = Vec::new();
    for f in &a.fields {
        let l = &r.lines[f.line_index];
        let crawlers: Vec<&str> = f
            .record
            .and_then(|i| a.record_crawlers.get(i as usize))
            .unwrap_or(&empty)
            .iter()
            .map(String::as_str)
            .collect();
        let purposes: Vec<&str> = match (f.record, f.sub_record) {
            (Some(rec), Some(sub)) => a
                .sub_record_purposes
                .get(rec as usize)
                .and_then(|s| s.get(sub as usize))
                .unwrap_or(&empty)
                .iter()
                .map(String::as_str)
                .collect(),
            _ => Vec::new(),
        };
        let qualifiers: Vec<&str> = f.qualifiers.iter().map(String::as_str).collect();
        let key_raw = if f.field == "version" || l.key != Key::Acap {
            None
        } else {
            Some(r.text_of(l.key_raw(r.body)))
        };
        let value_raw = if l.key == Key::Acap {
            r.text_of(l.value(r.body))
        } else {
            r.text_of(l.text(r.body).trim_ascii())
        };
        out.append(&AcapFieldRow {
            warc_file: Some(p.warc_file),
            warc_offset: Some(p.warc_offset),
            host: p.host,
            line_no: Some(l.number as i32),
            record_index: f.record.map(|v| v as i32),
            sub_record_index: f.sub_record.map(|v| v as i32),
            crawlers: f.record.is_some().then_some(&crawlers[..]),
            usage_purposes: f.sub_record.is_some().then_some(&purposes[..]),
            field: Some(f.field),
            key_raw: key_raw.as_deref(),
            usage: f.usage.as_deref(),
            resource_type: f.resource_type.as_deref(),
            local_usage: f.local_usage.as_deref(),
            resource: f.resource.as_deref(),
            resource_kind: f.resource_kind,
            qualifiers: Some(&qualifiers[..]),
            problems: Some(&f.problems[..]),
            value_raw: Some(&value_raw),
        });
    }
}

/// Fill the parse summary columns of a `robots_files` row.
fn fill_summary(row: &mut RobotsFileRow<'_>, r: &RobotsTxt<'_>) {
    let s = &r.summary;
    let n = |v: u32| Some(v.min(i32::MAX as u32) as i32);
    row.parsed = Some(true);
    row.n_lines = n(r.lines.len() as u32);
    row.n_groups = n(r.groups.len() as u32);
    row.n_agents = n(s.n_agents);
    row.n_rules = n(s.n_rules);
    row.n_orphan_rules = n(s.n_orphan_rules);
    row.n_sitemaps = n(s.n_sitemaps);
    row.n_unknown = n(s.n_unknown);
    row.n_invalid = n(s.n_invalid);
    row.n_typos = n(s.n_typos);
    row.n_missing_colon = n(s.n_missing_colon);
    row.n_too_long = n(s.n_too_long);
    row.partial_bom = Some(matches!(s.bom_bytes, 1 | 2));
    row.has_purpose = Some(s.has_purpose);
    row.has_app_directives = Some(s.has_app_directives);
    row.has_acap = Some(s.has_acap);
    row.has_content_usage = Some(s.has_content_usage);
    row.has_content_signal = Some(s.has_content_signal);
    row.group_split = s.group_split.map(|g| g.as_str());
    row.wildcard_split = Some(s.wildcard_split);
    let managed = crate::robots::cloudflare::managed_block(r, &mut crate::robots::Matcher::new());
    row.cloudflare_managed = Some(managed.is_some());
    row.cloudflare_contradicted = managed.map(|m| m.contradicted);
}

fn separator(l: &Line) -> &'static str {
    if l.has(flag::MISSING_COLON) {
        "whitespace"
    } else {
        "colon"
    }
}

/// Emit the rows of `robots_agents`, `robots_rules` and `app_directives` of a parsed file, for
/// the tables `which` names.
fn emit_lines<A, R>(
    out: &mut RobotsLineTables<A, R>,
    which: LineTables,
    p: &Provenance<'_>,
    r: &RobotsTxt<'_>,
    sc: &mut Scratch,
) where
    A: for<'x> AppendRow<RobotsAgentRow<'x>>,
    R: for<'x> AppendRow<RobotsRuleRow<'x>>,
{
    // The agents of the group of the last App-Directives line, for the next one of that group.
    let mut group_agents: Option<(u32, Vec<String>)> = None;
    for (i, l) in r.lines.iter().enumerate() {
        let wanted = match l.key {
            Key::Blank => false,
            Key::UserAgent | Key::Purpose => which.agents,
            Key::AppDirectives => which.rules || which.app_directives,
            _ => which.rules,
        };
        if !wanted {
            continue;
        }
        let g = r.line_group[i];
        let value = l.value(r.body);
        let lc = LineCols {
            p,
            group_index: (g != NO_GROUP).then_some(g as i32),
            line_no: Some(l.number as i32),
            key_raw: r.text_of(l.key_raw(r.body)),
            value_raw: r.text_of(value),
        };
        if l.key.is_agent() {
            out.agents.append_row(&agent_row(&lc, r, l, value, sc));
            continue;
        }
        if which.rules {
            rule_row(&mut out.rules, &lc, r, i);
        }
        if l.key == Key::AppDirectives && which.app_directives {
            let agents = match &group_agents {
                Some((gi, a)) if *gi == g => a,
                _ => &group_agents.insert((g, agents_of(r, g))).1,
            };
            let agents: Vec<&str> = agents.iter().map(String::as_str).collect();
            let agents = (g != NO_GROUP).then_some(&agents[..]);
            app_directive_rows(&mut out.app_directives, r, &lc, l, value, agents);
        }
    }
}

/// The columns every row of a line has.
struct LineCols<'a> {
    p: &'a Provenance<'a>,
    group_index: Option<i32>,
    line_no: Option<i32>,
    key_raw: Cow<'a, str>,
    value_raw: Cow<'a, str>,
}

/// The `robots_agents` row of a `User-agent` or `User-Agent-Purpose` line.
fn agent_row<'a>(
    lc: &'a LineCols<'a>,
    r: &RobotsTxt<'_>,
    l: &Line,
    value: &[u8],
    sc: &'a mut Scratch,
) -> RobotsAgentRow<'a> {
    let wildcard = l.key == Key::UserAgent && is_wildcard_agent(value);
    sc.a.clear();
    if wildcard {
        sc.a.push('*');
    } else {
        sc.a.push_str(&r.text_of(agent_name(value)));
    }
    sc.a.make_ascii_lowercase();
    sc.b.clear();
    let token = l.key == Key::UserAgent && !wildcard;
    if token {
        sc.b.push_str(&r.text_of(product_token(value)));
        sc.b.make_ascii_lowercase();
    }
    RobotsAgentRow {
        warc_file: Some(lc.p.warc_file),
        warc_offset: Some(lc.p.warc_offset),
        host: lc.p.host,
        group_index: lc.group_index,
        line_no: lc.line_no,
        line_kind: Some(if l.key == Key::Purpose {
            "purpose"
        } else {
            "user_agent"
        }),
        key_raw: Some(&lc.key_raw),
        key_form: Some(l.form.as_str()),
        separator: Some(separator(l)),
        agent_raw: Some(&lc.value_raw),
        agent: Some(&sc.a),
        product_token: token.then_some(sc.b.as_str()),
        is_wildcard: Some(wildcard),
    }
}

/// Append the `robots_rules` row of line `i` (any line but a blank or agent line).
fn rule_row<R>(out: &mut R, lc: &LineCols<'_>, r: &RobotsTxt<'_>, i: usize)
where
    R: for<'x> AppendRow<RobotsRuleRow<'x>>,
{
    let l = &r.lines[i];
    let invalid = l.key == Key::Invalid;
    let line_text;
    let mut row = RobotsRuleRow {
        warc_file: Some(lc.p.warc_file),
        warc_offset: Some(lc.p.warc_offset),
        host: lc.p.host,
        group_index: lc.group_index,
        line_no: lc.line_no,
        key: Some(l.key.as_str()),
        key_raw: (!invalid).then_some(&*lc.key_raw),
        key_form: (!invalid).then_some(l.form.as_str()),
        separator: (!invalid).then_some(separator(l)),
        value_raw: Some(&lc.value_raw),
        too_long: Some(l.has(flag::TOO_LONG)),
        has_nul: Some(l.has(flag::NUL)),
        valid_utf8: Some(!l.has(flag::NON_UTF8)),
        ..RobotsRuleRow::default()
    };
    if invalid {
        // The whole text (comment removed): there is no key.
        let t = l.text(r.body);
        let t = &t[..memchr::memchr2(0, b'#', t).unwrap_or(t.len())];
        line_text = r.text_of(t.trim_ascii());
        row.value_raw = Some(&line_text);
    }
    let norm;
    let pairs;
    let path;
    match l.key {
        Key::Allow | Key::Disallow => {
            let v = r.norm_value(i);
            norm = r.text_of(v);
            row.value = Some(&norm);
            row.has_wildcard = Some(v.contains(&b'*'));
            row.has_end_anchor = Some(v.last() == Some(&b'$'));
        }
        Key::ContentUsage => {
            // A Structured Field: case and quotes are meaning (vocab-08 reads `Train-AI=n` and
            // `train-ai="n"` as unknown), so the members stay as written.
            let (pp, rest) = split_path(l.value(r.body));
            let text = String::from_utf8_lossy(rest);
            let members = crate::signals::ai_prefs::member_texts(text.trim());
            pairs = (members.into_iter().filter(|m| !m.is_empty()))
                .collect::<Vec<_>>()
                .join(",");
            path = pp.map(|p| r.text_of(p));
            row.value = Some(&pairs);
            row.path_pattern = path.as_deref();
        }
        Key::ContentSignal => {
            let (pp, kv) = parse_pairs(l.value(r.body));
            pairs = kv;
            path = pp.map(|p| r.text_of(p));
            row.value = Some(&pairs);
            row.path_pattern = path.as_deref();
        }
        Key::AppDirectives => {
            let (pp, _) = split_path(r.norm_value(i));
            path = pp.map(|p| r.text_of(p));
            row.path_pattern = path.as_deref();
            row.value = Some(&lc.value_raw);
        }
        Key::CrawlDelay | Key::RequestRate => {
            row.value = Some(&lc.value_raw);
            row.value_number = leading_number(&lc.value_raw);
        }
        Key::Invalid => {}
        _ => row.value = Some(&lc.value_raw),
    }
    out.append_row(&row);
}

/// The `app_directives` rows of an `App-Directives` line: one per directive.
fn app_directive_rows(
    out: &mut AppDirectivesBuilder,
    r: &RobotsTxt<'_>,
    lc: &LineCols<'_>,
    l: &Line,
    value: &[u8],
    agents: Option<&[&str]>,
) {
    let parsed = parse_app_directives(value);
    let path = parsed.path.map(|p| r.text_of(p));
    for d in &parsed.directives {
        out.append(&AppDirectiveRow {
            warc_file: Some(lc.p.warc_file),
            warc_offset: Some(lc.p.warc_offset),
            host: lc.p.host,
            group_index: lc.group_index,
            line_no: lc.line_no,
            agents,
            path_pattern: path.as_deref(),
            app_id: d.app.as_deref(),
            directive: d.directive.as_deref(),
            value: d.value.as_deref(),
            value_type: d.value_type,
            key_raw: Some(&lc.key_raw),
            key_form: Some(l.form.as_str()),
            syntax_valid: Some(parsed.valid),
            problem: d.problem,
            value_raw: Some(&lc.value_raw),
        });
    }
}

/// The agents of group `g`: lowercase product tokens, `*`, and `purpose:<token>`.
fn agents_of(r: &RobotsTxt<'_>, g: u32) -> Vec<String> {
    if g == NO_GROUP {
        return Vec::new();
    }
    r.group_lines(g as usize)
        .filter_map(|i| {
            let l = &r.lines[i];
            let v = l.value(r.body);
            match l.key {
                Key::UserAgent if is_wildcard_agent(v) => Some("*".to_string()),
                Key::UserAgent => Some(r.text_of(product_token(v)).to_ascii_lowercase()),
                Key::Purpose => Some(format!("purpose:{}", r.text_of(v).to_ascii_lowercase())),
                _ => None,
            }
        })
        .collect()
}

/// Append to `files` the `robots_files` row of `body` (whose parse is `parsed`) read as a 2xx
/// capture of no URL at `offset` of `name`: `warc_type` `file`, host and times null. Returns the
/// row's fetch outcome.
pub fn append_file_row<B>(
    files: &mut B,
    body: &[u8],
    bytes: u64,
    parsed: &ParsedBody<'_>,
    name: &str,
    offset: i64,
) -> FetchOutcome
where
    B: for<'r> crate::tables::AppendRow<RobotsFileRow<'r>>,
{
    use crate::rows::from_robots::body_facts::BodyFacts;
    let facts = BodyFacts::of(body, bytes, bytes > body.len() as u64);
    let outcome = facts.outcome_2xx();
    let mut row = RobotsFileRow {
        warc_file: Some(name),
        warc_offset: Some(offset),
        warc_type: Some("file"),
        fetch_outcome: Some(outcome.as_str()),
        ..RobotsFileRow::default()
    };
    let digest = facts.apply(&mut row, Some(&parsed.robots));
    row.body_digest = Some(&digest);
    parsed.fill(&mut row);
    files.append_row(&row);
    outcome
}

/// Everything the tables would hold for one robots.txt file, as JSON: the `robots_files` row
/// (body facts and parse summary), the rows of `robots_agents`, `robots_rules`,
/// `app_directives` and `acap_fields`, and, given a registry, the verdict columns of each
/// agent's `agent_verdicts` row. The file is read as a 2xx capture of no URL: provenance
/// columns hold `name`, offset 0 and `warc_type` `file`; host and times are null.
pub fn file_json(body: &[u8], name: &str, registry: Option<&Registry>) -> serde_json::Value {
    file_json_of(body, body.len() as u64, name, registry)
}

/// As [`file_json`], for a file of `bytes` bytes of which `body` is the start (what is read of
/// a file longer than [`crate::PARSE_LIMIT`]): `body_bytes` and `truncated` say so.
pub fn file_json_of(
    body: &[u8],
    bytes: u64,
    name: &str,
    registry: Option<&Registry>,
) -> serde_json::Value {
    use crate::tables::{batch_to_json, RobotsFilesArrow};
    let parsed = ParsedBody::parse(body);
    let mut files = RobotsFilesArrow::default();
    let outcome = append_file_row(&mut files, body, bytes, &parsed, name, 0);
    let mut t = RobotsLineTables::<RobotsAgentsArrow, RobotsRulesArrow>::default();
    let p = Provenance {
        warc_file: name,
        warc_offset: 0,
        host: None,
    };
    parsed.emit(&mut t, LineTables::ALL, &p, &mut Scratch::default());
    let rows = |b: arrow_array::RecordBatch| {
        serde_json::Value::from(
            batch_to_json(&b)
                .into_iter()
                .map(|mut r| {
                    // The crawl column is the writer's; a file has none.
                    r.remove(crate::tables::CRAWL_COLUMN);
                    serde_json::Value::Object(r)
                })
                .collect::<Vec<_>>(),
        )
    };
    let file = rows(files.finish(""))
        .as_array()
        .and_then(|a| a.first().cloned());
    let mut json = serde_json::json!({
        (Table::RobotsFiles.name()): file,
        (Table::RobotsAgents.name()): rows(t.agents.finish("")),
        (Table::RobotsRules.name()): rows(t.rules.finish("")),
        (Table::AppDirectives.name()): rows(t.app_directives.finish("")),
        (Table::AcapFields.name()): rows(t.acap.finish("")),
    });
    if let Some(registry) = registry {
        let ai = crate::rows::from_robots::verdicts::Verdicts::default()
            .wildcard_with_ai(registry, &parsed.robots);
        json[Table::RobotsFiles.name()]["wildcard_with_ai"] = ai.into();
        json[Table::AgentVerdicts.name()] = verdicts_json(registry, outcome, &parsed.robots);
    }
    json
}

/// Each agent's verdict columns of `agent_verdicts` (the table's column names), as JSON.
fn verdicts_json(
    registry: &Registry,
    outcome: FetchOutcome,
    robots: &RobotsTxt<'_>,
) -> serde_json::Value {
    let mut rows = Vec::with_capacity(registry.agents.len());
    crate::rows::from_robots::verdicts::Verdicts::default().each(
        registry,
        outcome,
        Some(robots),
        |a, v| {
            rows.push(serde_json::json!({
                "agent": a.name,
                "agent_category": a.category,
                "operator": a.operator,
                "named": v.named,
                "named_exact": v.named_exact,
                "verdict_source": v.source.map(|s| s.as_str()),
                "root_allowed": v.root_allowed,
                "verdict": v.verdict.as_str(),
                "verdict_rfc9309": v.verdict_rfc9309.as_str(),
                "verdict_documented": v.verdict_documented.as_str(),
                "verdict_documented_source": v.documented_source.map(|s| s.as_str()),
                "n_applicable_rules": v.n_rules,
                "crawl_delay": v.crawl_delay,
                "app_directives": v.app_directives,
            }));
        },
    );
    serde_json::Value::from(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::TableBuilder;
    use arrow_array::Array;

    /// A line table selected alone gets exactly the rows it gets beside the others, and the
    /// tables not selected get none.
    #[test]
    fn each_line_table_alone_gets_the_rows_it_gets_with_all() {
        let body = b"Sitemap: /s.xml\nUser-agent: a\nUser-Agent-Purpose: ai-training\nDisallow: /x\nApp-Directives: /n/ search;snippets=?0\nACAP-crawler: *\nACAP-disallow-crawl: /p\njunk\n";
        let parsed = ParsedBody::parse(body);
        let p = Provenance {
            warc_file: "f",
            warc_offset: 0,
            host: Some("h"),
        };
        type Arrow = RobotsLineTables<RobotsAgentsArrow, RobotsRulesArrow>;
        let rows = |which: LineTables| {
            let mut t = Arrow::default();
            parsed.emit(&mut t, which, &p, &mut Scratch::default());
            [
                t.agents.finish("c"),
                t.rules.finish("c"),
                t.app_directives.finish("c"),
                t.acap.finish("c"),
            ]
        };
        let all = rows(LineTables::ALL);
        assert!(all.iter().all(|b| b.num_rows() > 0));
        let none = LineTables {
            agents: false,
            rules: false,
            app_directives: false,
            acap: false,
        };
        let alone = [
            LineTables {
                agents: true,
                ..none
            },
            LineTables {
                rules: true,
                ..none
            },
            LineTables {
                app_directives: true,
                ..none
            },
            LineTables { acap: true, ..none },
        ];
        for (k, which) in alone.into_iter().enumerate() {
            let got = rows(which);
            for (j, b) in got.iter().enumerate() {
                if j == k {
                    assert_eq!(b, &all[k], "table {k} alone");
                } else {
                    assert_eq!(b.num_rows(), 0, "table {j} when only {k} is selected");
                }
            }
        }
    }

    #[test]
    fn rows_of_a_small_file() {
        let body = b"Sitemap: /s.xml\nUser-agent: Googlebot/2.1\nUser-Agent-Purpose: ai-training\nCrawl-delay: 10\nDisalow /x*\nApp-Directive: /n/ search;snippets=?0, other\nContent-Signal: search=yes, ai-train=no\ngarbage\n";
        let r = RobotsTxt::parse(body);
        let mut t = RobotsLineTables::<RobotsAgentsArrow, RobotsRulesArrow>::default();
        let p = Provenance {
            warc_file: "f",
            warc_offset: 0,
            host: Some("h"),
        };
        emit_lines(&mut t, LineTables::ALL, &p, &r, &mut Scratch::default());
        assert_eq!(t.agents.len(), 2);
        assert_eq!(t.rules.len(), 6);
        assert_eq!(t.app_directives.len(), 2);
        let b = t.agents.finish("c");
        let agent = b.column_by_name("agent").unwrap();
        let agent = agent
            .as_any()
            .downcast_ref::<arrow_array::StringArray>()
            .unwrap();
        assert_eq!(agent.value(0), "googlebot");
        assert_eq!(agent.value(1), "ai-training");
        let b = t.rules.finish("c");
        let key = b.column_by_name("key").unwrap();
        let key = key
            .as_any()
            .downcast_ref::<arrow_array::StringArray>()
            .unwrap();
        let keys: Vec<_> = (0..key.len()).map(|i| key.value(i)).collect();
        assert_eq!(
            keys,
            [
                "sitemap",
                "crawl_delay",
                "disallow",
                "app_directives",
                "content_signal",
                "invalid"
            ]
        );
    }
}
