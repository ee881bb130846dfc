//! The catalogue: every table a scan writes ([`Table`]), the tables derived from them
//! ([`Table::DERIVED`]), and the set of them a scan is asked for ([`TableSelection`]). Writers, `--resume`, the run summary and the tests iterate [`Table`];
//! adding a table is one variant here, one `table!` declaration and one row source.

use super::*;
use crate::parts::TableDesc;

/// Every table: those a scan writes per input ([`Table::ALL`]), then those derived from them
/// per crawl ([`Table::DERIVED`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Table {
    RobotsFiles,
    RobotsAgents,
    RobotsRules,
    AppDirectives,
    AcapFields,
    AgentVerdicts,
    /// The verdict columns of `agent_verdicts` as runs of agents (what the summaries read).
    AgentVerdictRuns,
    Errors,
    PageSignals,
    HostCounts,
    /// One row per page response (URL, host, status, bytes).
    Pages,
    /// One row per input, written last: its presence says the input's other parts are complete.
    Inputs,
    /// One row per host of a crawl: its latest robots.txt capture and the capture its chain of
    /// redirects ends at, derived from all of the crawl's `robots_files` (`repcensus hosts`).
    RobotsHosts,
    /// Hosts per crawl and agent, by the verdicts of the capture that governs each host,
    /// derived from `robots_hosts` and `agent_verdict_runs`.
    SummaryAgents,
    /// Hosts per crawl and group of agents (category, operator, AI, all): blocking or naming
    /// at least one of them. Derived with `summary_agents`.
    SummaryAgentGroups,
    /// Hosts per crawl and pair of agents, by both agents' verdicts.
    SummaryAgentPairs,
    /// Registered domains per crawl and agent, blocking it on all or some hosts.
    SummaryAgentDomains,
    /// Hosts per crawl and agent whose governing capture gives `/` a Content-Usage rule for it,
    /// by the rule's value.
    SummaryAgentContentUsage,
    /// The distinct sets of agents governing captures fully block, with their hosts.
    SummaryBlockSets,
    /// How the blocking of each agent changed from the crawl before, among hosts in both.
    SummaryAgentChanges,
    /// Hosts per crawl by fetch outcome and redirects, derived with `robots_hosts`.
    SummaryRobotsHosts,
    /// Captures and hosts per crawl and fetch outcome of every capture.
    SummaryRobotsOutcomes,
    /// Hosts, captures and lines per crawl and robots.txt key.
    SummaryRobotsKeys,
    /// ... and key form, separator, with the most frequent spelling.
    SummaryRobotsKeyForms,
    /// ... per agent name (or purpose) written.
    SummaryRobotsAgents,
    /// ... per Content-Signal / Content-Usage pair.
    SummaryContentSignals,
    /// ... per application directive.
    SummaryAppDirectives,
    /// ... per kind of ACAP field.
    SummaryAcapFields,
    /// ... per ACAP field and problem.
    SummaryAcapProblems,
    /// Responses and hosts per page signal directive, from `page_signals`.
    SummaryPageDirectives,
    /// ... per robots header syntax.
    SummaryPageHeaders,
    /// ... per media type of responses with robots headers.
    SummaryPageHeaderTypes,
    /// ... per pair of opposite header and meta directives.
    SummaryPageConflicts,
    /// One row per 2xx HTML page of a crawl and chosen agent: whether the page's URL may be
    /// fetched, by the robots.txt capture that governs its host.
    PageVerdicts,
}

impl Table {
    /// Every table a scan writes per input, `inputs` last.
    pub const ALL: [Table; 12] = [
        Table::RobotsFiles,
        Table::RobotsAgents,
        Table::RobotsRules,
        Table::AppDirectives,
        Table::AcapFields,
        Table::AgentVerdicts,
        Table::AgentVerdictRuns,
        Table::Errors,
        Table::PageSignals,
        Table::HostCounts,
        Table::Pages,
        Table::Inputs,
    ];

    /// The tables a scan writes only when `--tables` names them. `agent_verdicts` (a row per
    /// capture and registry agent, 215 per capture) holds nothing `agent_verdict_runs` does
    /// not: `queries/views/agent_verdicts.sql` makes its rows from the runs.
    pub const ON_REQUEST: [Table; 1] = [Table::AgentVerdicts];

    /// The tables derived from a crawl's tables once they are written: one part per crawl,
    /// not per input, and not in `--tables`.
    pub const DERIVED: [Table; 22] = [
        Table::RobotsHosts,
        Table::SummaryAgents,
        Table::SummaryAgentGroups,
        Table::SummaryAgentPairs,
        Table::SummaryAgentDomains,
        Table::SummaryAgentContentUsage,
        Table::SummaryBlockSets,
        Table::SummaryAgentChanges,
        Table::SummaryRobotsHosts,
        Table::SummaryRobotsOutcomes,
        Table::SummaryRobotsKeys,
        Table::SummaryRobotsKeyForms,
        Table::SummaryRobotsAgents,
        Table::SummaryContentSignals,
        Table::SummaryAppDirectives,
        Table::SummaryAcapFields,
        Table::SummaryAcapProblems,
        Table::SummaryPageDirectives,
        Table::SummaryPageHeaders,
        Table::SummaryPageHeaderTypes,
        Table::SummaryPageConflicts,
        Table::PageVerdicts,
    ];

    /// Put each table's file with no rows in `out` ([`crate::parts::OutDir::write_schemas`]),
    /// but for a table written only on request ([`Table::ON_REQUEST`]) that `written` leaves
    /// out and `out` holds no part of: a query of `agent_verdicts` in a folder without it then
    /// fails ("No files found") instead of answering that no capture has a verdict.
    pub fn write_schemas(
        out: &crate::parts::OutDir,
        written: TableSelection,
    ) -> anyhow::Result<()> {
        let mut tables = Vec::new();
        for t in Table::ALL.iter().chain(&Table::DERIVED) {
            let on_request = Table::ON_REQUEST.contains(t) && !written.writes(*t);
            if !on_request || !out.table_parts(t.name())?.is_empty() {
                tables.push(t.desc());
            }
        }
        out.write_schemas(&tables)?;
        // The study queries read `ranks` whether a list was given or not.
        out.write_keyed_schema(&super::ranks::ranks_desc(), super::ranks::RANKS_KEY)
    }

    /// The tables an input writes parts of besides `inputs`, in the order its parts are written:
    /// [`Table::ALL`] without its last.
    pub const OF_INPUT: [Table; 11] = {
        let mut tables = [Table::Inputs; 11];
        let mut i = 0;
        while i < tables.len() {
            tables[i] = Table::ALL[i];
            i += 1;
        }
        tables
    };

    /// The table's name: its folder under the out folder, and the name `--tables` takes.
    pub const fn name(self) -> &'static str {
        match self {
            Table::RobotsFiles => "robots_files",
            Table::RobotsAgents => "robots_agents",
            Table::RobotsRules => "robots_rules",
            Table::AppDirectives => "app_directives",
            Table::AcapFields => "acap_fields",
            Table::AgentVerdicts => "agent_verdicts",
            Table::AgentVerdictRuns => "agent_verdict_runs",
            Table::Errors => "errors",
            Table::PageSignals => "page_signals",
            Table::HostCounts => "host_counts",
            Table::Pages => "pages",
            Table::Inputs => "inputs",
            Table::RobotsHosts => "robots_hosts",
            Table::SummaryAgents => "summary_agents",
            Table::SummaryAgentGroups => "summary_agent_groups",
            Table::SummaryAgentPairs => "summary_agent_pairs",
            Table::SummaryAgentDomains => "summary_agent_domains",
            Table::SummaryAgentContentUsage => "summary_agent_content_usage",
            Table::SummaryBlockSets => "summary_block_sets",
            Table::SummaryAgentChanges => "summary_agent_changes",
            Table::SummaryRobotsHosts => "summary_robots_hosts",
            Table::SummaryRobotsOutcomes => "summary_robots_outcomes",
            Table::SummaryRobotsKeys => "summary_robots_keys",
            Table::SummaryRobotsKeyForms => "summary_robots_key_forms",
            Table::SummaryRobotsAgents => "summary_robots_agents",
            Table::SummaryContentSignals => "summary_content_signals",
            Table::SummaryAppDirectives => "summary_app_directives",
            Table::SummaryAcapFields => "summary_acap_fields",
            Table::SummaryAcapProblems => "summary_acap_problems",
            Table::SummaryPageDirectives => "summary_page_directives",
            Table::SummaryPageHeaders => "summary_page_headers",
            Table::SummaryPageHeaderTypes => "summary_page_header_types",
            Table::SummaryPageConflicts => "summary_page_conflicts",
            Table::PageVerdicts => "page_verdicts",
        }
    }

    /// The table of a name.
    pub fn from_name(name: &str) -> Option<Table> {
        Table::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The column of `inputs` that counts the table's rows for an input (none for `inputs`).
    pub const fn count_column(self) -> Option<&'static str> {
        Some(match self {
            Table::RobotsFiles => "rows_robots_files",
            Table::RobotsAgents => "rows_robots_agents",
            Table::RobotsRules => "rows_robots_rules",
            Table::AppDirectives => "rows_app_directives",
            Table::AcapFields => "rows_acap_fields",
            Table::AgentVerdicts => "rows_agent_verdicts",
            Table::AgentVerdictRuns => "rows_agent_verdict_runs",
            Table::Errors => "errors",
            Table::PageSignals => "rows_page_signals",
            Table::HostCounts => "rows_host_counts",
            Table::Pages => "rows_pages",
            Table::Inputs
            | Table::RobotsHosts
            | Table::SummaryAgents
            | Table::SummaryAgentGroups
            | Table::SummaryAgentPairs
            | Table::SummaryAgentDomains
            | Table::SummaryAgentContentUsage
            | Table::SummaryBlockSets
            | Table::SummaryAgentChanges
            | Table::SummaryRobotsHosts
            | Table::SummaryRobotsOutcomes
            | Table::SummaryRobotsKeys
            | Table::SummaryRobotsKeyForms
            | Table::SummaryRobotsAgents
            | Table::SummaryContentSignals
            | Table::SummaryAppDirectives
            | Table::SummaryAcapFields
            | Table::SummaryAcapProblems
            | Table::SummaryPageDirectives
            | Table::SummaryPageHeaders
            | Table::SummaryPageHeaderTypes
            | Table::SummaryPageConflicts
            | Table::PageVerdicts => return None,
        })
    }

    /// What the part writer needs to know of the table.
    pub fn desc(self) -> TableDesc {
        match self {
            Table::RobotsFiles => RobotsFilesBuilder::desc(),
            Table::RobotsAgents => RobotsAgentsBuilder::desc(),
            Table::RobotsRules => RobotsRulesBuilder::desc(),
            Table::AppDirectives => AppDirectivesBuilder::desc(),
            Table::AcapFields => AcapFieldsBuilder::desc(),
            Table::AgentVerdicts => AgentVerdictsBuilder::desc(),
            Table::AgentVerdictRuns => AgentVerdictRunsBuilder::desc(),
            Table::Errors => ErrorsBuilder::desc(),
            Table::PageSignals => PageSignalsBuilder::desc(),
            Table::HostCounts => HostCountsBuilder::desc(),
            Table::Pages => PagesBuilder::desc(),
            Table::Inputs => InputsBuilder::desc(),
            Table::RobotsHosts => RobotsHostsBuilder::desc(),
            Table::SummaryAgents => SummaryAgentsBuilder::desc(),
            Table::SummaryAgentGroups => SummaryAgentGroupsBuilder::desc(),
            Table::SummaryAgentPairs => SummaryAgentPairsBuilder::desc(),
            Table::SummaryAgentDomains => SummaryAgentDomainsBuilder::desc(),
            Table::SummaryAgentContentUsage => SummaryAgentContentUsageBuilder::desc(),
            Table::SummaryBlockSets => SummaryBlockSetsBuilder::desc(),
            Table::SummaryAgentChanges => SummaryAgentChangesBuilder::desc(),
            Table::SummaryRobotsHosts => SummaryRobotsHostsBuilder::desc(),
            Table::SummaryRobotsOutcomes => SummaryRobotsOutcomesBuilder::desc(),
            Table::SummaryRobotsKeys => SummaryRobotsKeysBuilder::desc(),
            Table::SummaryRobotsKeyForms => SummaryRobotsKeyFormsBuilder::desc(),
            Table::SummaryRobotsAgents => SummaryRobotsAgentsBuilder::desc(),
            Table::SummaryContentSignals => SummaryContentSignalsBuilder::desc(),
            Table::SummaryAppDirectives => SummaryAppDirectivesBuilder::desc(),
            Table::SummaryAcapFields => SummaryAcapFieldsBuilder::desc(),
            Table::SummaryAcapProblems => SummaryAcapProblemsBuilder::desc(),
            Table::SummaryPageDirectives => SummaryPageDirectivesBuilder::desc(),
            Table::SummaryPageHeaders => SummaryPageHeadersBuilder::desc(),
            Table::SummaryPageHeaderTypes => SummaryPageHeaderTypesBuilder::desc(),
            Table::SummaryPageConflicts => SummaryPageConflictsBuilder::desc(),
            Table::PageVerdicts => PageVerdictsBuilder::desc(),
        }
    }

    /// The table's place in [`Table::ALL`] (and, but for `inputs`, in [`Table::OF_INPUT`]);
    /// derived tables come after.
    pub const fn index(self) -> usize {
        self as usize
    }

    const fn bit(self) -> u32 {
        1 << self as u32
    }

    const fn bits(tables: &[Table]) -> u32 {
        let mut bits = 0;
        let mut i = 0;
        while i < tables.len() {
            bits |= tables[i].bit();
            i += 1;
        }
        bits
    }
}

impl std::fmt::Display for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The tables a scan writes (`scan --tables`): a set of [`Table`]s. `errors` and `inputs` are
/// always written: they say what happened to each input. Work that only unselected tables need
/// is not done (the row sources of `rows/` ask: no head scan without `page_signals` and
/// `host_counts`, no verdicts without `agent_verdicts`, no robots.txt parsing without any
/// robots table), so errors that only that work finds are not reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableSelection(u32);

impl TableSelection {
    const ALWAYS: u32 = Table::bits(&[Table::Errors, Table::Inputs]);

    /// Every table.
    pub fn all() -> Self {
        TableSelection(Table::bits(&Table::ALL))
    }

    /// What a scan writes unless told otherwise: every table but those written only on
    /// request ([`Table::ON_REQUEST`]).
    pub fn default_tables() -> Self {
        TableSelection(Self::all().0 & !Table::bits(&Table::ON_REQUEST))
    }

    /// The named tables, plus `errors` and `inputs`; empty names are ignored, `default` names
    /// [`Self::default_tables`] and `all` every table. An unknown name is an error that lists
    /// the known ones.
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Self, String> {
        let mut bits = Self::ALWAYS;
        for n in names.iter().map(|n| n.as_ref().trim()) {
            if n.is_empty() {
                continue;
            }
            match Table::from_name(n) {
                Some(t) => bits |= t.bit(),
                None if n == "default" => bits |= Self::default_tables().0,
                None if n == "all" => bits |= Self::all().0,
                None => {
                    let known: Vec<_> = Table::ALL.iter().map(|t| t.name()).collect();
                    return Err(format!(
                        "unknown table `{n}` (tables: {}; or default, all)",
                        known.join(", ")
                    ));
                }
            }
        }
        Ok(TableSelection(bits))
    }

    /// Whether `table` is written.
    pub fn writes(self, table: Table) -> bool {
        self.0 & table.bit() != 0
    }

    /// Whether every table of `self` is in `other`.
    pub fn within(self, other: TableSelection) -> bool {
        self.0 & !other.0 == 0
    }

    /// The selected tables, `inputs` last.
    pub fn tables(self) -> impl Iterator<Item = Table> {
        Table::ALL.into_iter().filter(move |&t| self.writes(t))
    }

    /// The selected tables an input writes parts of besides `inputs`.
    pub fn of_input(self) -> impl Iterator<Item = Table> {
        Table::OF_INPUT.into_iter().filter(move |&t| self.writes(t))
    }

    /// The selected tables' names, `inputs` last.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        self.tables().map(Table::name)
    }
}

impl Default for TableSelection {
    fn default() -> Self {
        Self::default_tables()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_adds_errors_and_inputs() {
        let s = TableSelection::parse(&["robots_files", ""]).unwrap();
        assert_eq!(
            s.names().collect::<Vec<_>>(),
            ["robots_files", "errors", "inputs"]
        );
        assert_eq!(
            TableSelection::parse(&["inputs"])
                .unwrap()
                .names()
                .collect::<Vec<_>>(),
            ["errors", "inputs"]
        );
        assert!(s.within(TableSelection::all()));
        assert!(!TableSelection::all().within(s));
        let names: Vec<_> = Table::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(
            TableSelection::parse(&names).unwrap(),
            TableSelection::all()
        );
        assert_eq!(TableSelection::parse(&["all"]), Ok(TableSelection::all()));
        let default = TableSelection::parse(&["default"]).unwrap();
        assert_eq!(default, TableSelection::default());
        assert!(!default.writes(Table::AgentVerdicts) && default.writes(Table::AgentVerdictRuns));
        assert_eq!(
            TableSelection::parse(&["default", "agent_verdicts"]),
            Ok(TableSelection::all())
        );
        let e = TableSelection::parse(&["robots_file"]).unwrap_err();
        assert!(
            e.contains("unknown table `robots_file`") && e.contains("host_counts, pages, inputs")
        );
    }

    /// Each variant's builder, name, description and `inputs` count column agree, and the
    /// variants' order is that of `ALL` and `OF_INPUT`.
    #[test]
    fn each_table_is_one_identity() {
        let inputs = InputsBuilder::schema();
        for (i, t) in Table::ALL.into_iter().enumerate() {
            assert_eq!(t.index(), i);
            assert_eq!(Table::from_name(t.name()), Some(t));
            let d = t.desc();
            assert_eq!(d.name, t.name());
            assert_eq!(d.schema.field(0).name(), CRAWL_COLUMN);
            match t.count_column() {
                Some(c) => assert!(inputs.field_with_name(c).is_ok(), "{t}: {c}"),
                None => assert_eq!(t, Table::Inputs),
            }
        }
        assert_eq!(&Table::ALL[..Table::OF_INPUT.len()], &Table::OF_INPUT);
        for (i, t) in Table::DERIVED.into_iter().enumerate() {
            assert_eq!(t.index(), Table::ALL.len() + i);
            assert_eq!(t.desc().name, t.name());
            assert_eq!(t.count_column(), None);
            assert_eq!(Table::from_name(t.name()), None, "{t} is not for --tables");
        }
        assert_eq!(RobotsAgentsArrow::NAME, RobotsAgentsBuilder::NAME);
    }
}
