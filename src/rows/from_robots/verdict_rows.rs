//! A capture's verdict for one agent ([`AgentVerdict`]), the verdicts of a capture whose body
//! was not parsed ([`unparsed`]), and how verdicts become `agent_verdicts` and
//! `agent_verdict_runs` rows ([`VerdictTables`], [`RunRows`]). [`super::verdicts`] makes them.

use crate::agents::Registry;
use crate::robots::classify::Verdict;
use crate::robots::Source;
use crate::tables::fetch_outcome::FetchOutcome;
use crate::tables::{
    AgentVerdictRow, AgentVerdictRunRow, AgentVerdictRunsBuilder, AgentVerdictsBuilder,
};

str_enum! {
    /// Which groups decided the documented reading (`verdict_documented_source`): Google's
    /// [`Source`] values, and `not_honored` for a crawler that does not honour robots.txt.
    pub enum DocumentedSource {
        Specific = "specific",
        Purpose = "purpose",
        Wildcard = "wildcard",
        /// A group naming a token its operator documents the crawler follows when no group
        /// names its own (Googlebot's for Applebot).
        Fallback = "fallback",
        None = "none",
        /// The registry says the crawler does not honour robots.txt (`robots_txt`
        /// `not_honored`): no group decides what it fetches.
        NotHonored = "not_honored",
    }
}

impl From<Source> for DocumentedSource {
    fn from(s: Source) -> Self {
        match s {
            Source::Specific => DocumentedSource::Specific,
            Source::Purpose => DocumentedSource::Purpose,
            Source::Wildcard => DocumentedSource::Wildcard,
            Source::Fallback => DocumentedSource::Fallback,
            Source::None => DocumentedSource::None,
        }
    }
}

/// The verdict of one capture for one agent.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentVerdict {
    pub named: Option<bool>,
    pub named_exact: Option<bool>,
    pub source: Option<Source>,
    pub root_allowed: Option<bool>,
    pub verdict: Verdict,
    pub verdict_rfc9309: Verdict,
    /// As `verdict`, with the groups chosen as the crawler documents ([`Agent::group_rules`]);
    /// `not_honored` for a crawler that does not honour robots.txt.
    pub verdict_documented: Verdict,
    /// Which groups decided `verdict_documented`.
    pub documented_source: Option<DocumentedSource>,
    pub n_rules: Option<i32>,
    pub crawl_delay: Option<f64>,
    /// `directive=value` of the agent's application, when it has one.
    pub app_directives: Option<Vec<String>>,
    /// The deciding groups' `Content-Usage` preferences for `/` ([`content_usage_at_root`]).
    pub content_usage: Option<String>,
}

/// The verdict for a capture whose body was not parsed (or was empty), from its fetch outcome.
pub fn unparsed(fetch_outcome: FetchOutcome) -> AgentVerdict {
    let none = AgentVerdict {
        named: None,
        named_exact: None,
        source: None,
        root_allowed: None,
        verdict: Verdict::Unknown,
        verdict_rfc9309: Verdict::Unknown,
        verdict_documented: Verdict::Unknown,
        documented_source: None,
        n_rules: None,
        crawl_delay: None,
        app_directives: None,
        content_usage: None,
    };
    let no_robots = AgentVerdict {
        named: Some(false),
        named_exact: Some(false),
        source: Some(Source::None),
        root_allowed: Some(true),
        verdict: Verdict::NoRobots,
        verdict_rfc9309: Verdict::NoRobots,
        verdict_documented: Verdict::NoRobots,
        documented_source: Some(DocumentedSource::None),
        n_rules: Some(0),
        ..none.clone()
    };
    match fetch_outcome {
        FetchOutcome::OkEmpty
        | FetchOutcome::NotFound
        | FetchOutcome::Unauthorized
        | FetchOutcome::PaymentRequired
        | FetchOutcome::Forbidden
        | FetchOutcome::ClientError => no_robots,
        FetchOutcome::ServerError => AgentVerdict {
            verdict: Verdict::Unreachable,
            verdict_rfc9309: Verdict::FullBlock,
            verdict_documented: Verdict::Unreachable,
            ..none
        },
        FetchOutcome::TooManyRequests => AgentVerdict {
            verdict: Verdict::Unreachable,
            verdict_rfc9309: Verdict::NoRobots,
            verdict_documented: Verdict::Unreachable,
            ..none
        },
        FetchOutcome::Redirect => AgentVerdict {
            verdict: Verdict::Redirect,
            verdict_rfc9309: Verdict::Redirect,
            verdict_documented: Verdict::Redirect,
            ..none
        },
        // A challenge page says nothing about the site's robots.txt, and its status is the
        // protection service's, not the site's answer to a robots.txt fetch.
        FetchOutcome::Challenge => none,
        _ => none,
    }
}

/// A row of `agent_verdicts` or `agent_verdict_runs` (`$row`, which name the verdict columns
/// alike) with the verdict columns of the [`AgentVerdict`] `$v` (`named` to `content_usage`;
/// `$apps` its application directives as `&[&str]`) and the fields in braces.
macro_rules! verdict_row {
    ($row:ident, $v:expr, $apps:expr, { $($rest:tt)* }) => {
        $row {
            named: $v.named,
            named_exact: $v.named_exact,
            verdict_source: $v.source.map(Source::as_str),
            root_allowed: $v.root_allowed,
            verdict: Some($v.verdict.as_str()),
            verdict_rfc9309: Some($v.verdict_rfc9309.as_str()),
            verdict_documented: Some($v.verdict_documented.as_str()),
            verdict_documented_source: $v.documented_source.map(DocumentedSource::as_str),
            n_applicable_rules: $v.n_rules,
            crawl_delay: $v.crawl_delay,
            app_directives: $apps,
            content_usage: $v.content_usage.as_deref(),
            $($rest)*
        }
    };
}

/// Where a capture's verdicts go: `agent_verdicts` rows, `agent_verdict_runs` rows, or both
/// (the tables selected).
pub struct VerdictTables<'o> {
    pub rows: Option<&'o mut AgentVerdictsBuilder>,
    pub runs: Option<&'o mut AgentVerdictRunsBuilder>,
}

/// A capture's `agent_verdict_runs` rows: the runs of [`Verdicts::runs`] with neighbours that
/// hold the same verdict (every column of [`AgentVerdict`]) joined, appended together by
/// [`RunRows::close`]. A run holds every verdict column of `agent_verdicts`, so that table's rows
/// can be made from the runs (`queries/views/agent_verdicts.sql`).
pub(super) struct RunRows<'o, 'f> {
    pub(super) out: &'o mut AgentVerdictRunsBuilder,
    /// The capture's provenance columns.
    pub(super) file: (Option<&'f str>, Option<i64>),
    pub(super) registry: &'f Registry,
    /// The registry position of the next run's first agent.
    pub(super) next: u32,
    /// The joined runs: verdict, first agent and length.
    pub(super) runs: Vec<(AgentVerdict, u32, u32)>,
}

impl RunRows<'_, '_> {
    pub(super) fn push(&mut self, v: &AgentVerdict, n: u32) {
        match self.runs.last_mut() {
            Some((k, _, len)) if k == v => *len += n,
            _ => self.runs.push((v.clone(), self.next, n)),
        }
        self.next += n;
    }

    /// Append the capture's rows.
    pub(super) fn close(&mut self) {
        self.out
            .capture(self.file.0, self.file.1, self.runs.len() as u32);
        for (v, first, n) in &self.runs {
            let apps: Option<Vec<&str>> =
                (v.app_directives.as_ref()).map(|d| d.iter().map(String::as_str).collect());
            self.out
                .run(&verdict_row!(AgentVerdictRunRow, v, apps.as_deref(), {
                    agent_index: Some(*first as i32),
                    agent: Some(&self.registry.agents[*first as usize].name),
                    agents: Some(*n as i32),
                    ..AgentVerdictRunRow::default()
                }));
        }
    }
}

/// Append the verdict columns of `v` for the next `n` rows.
pub(super) fn push(out: &mut AgentVerdictsBuilder, v: &AgentVerdict, n: u32) {
    let apps: Option<Vec<&str>> =
        (v.app_directives.as_ref()).map(|d| d.iter().map(String::as_str).collect());
    out.verdicts(
        &verdict_row!(AgentVerdictRow, v, apps.as_deref(), {
            ..AgentVerdictRow::default()
        }),
        n,
    );
}
