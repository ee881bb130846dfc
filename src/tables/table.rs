//! The catalogue: every table a scan writes ([`Table`]), the tables derived from them
//! ([`Table::DERIVED`]), and the set of them a scan is asked for ([`TableSelection`]), all from
//! one list (`catalogue!`). Writers, `--resume`, the run summary, the CLI's help and the tests
//! iterate [`Table`]. Adding a table a scan writes is one line here, one `table!` declaration
//! and one row source; adding a derived table is one line of the list in `derived.rs` and its
//! `table!` declaration there, and its `derive::plan::Derivation`.

use super::*;
use crate::parts::TableDesc;

/// Declare every table once: the [`Table`] enum, [`Table::ALL`] (written per input) and
/// [`Table::DERIVED`] (per crawl), each table's name, builder and `inputs` count column. The
/// variants' order is that of the lists, which [`Table::index`] and the bit sets rely on.
macro_rules! catalogue {
    (
        $(#[$idoc:meta])*
        input { $( $(#[$ivdoc:meta])* $iv:ident = $iname:literal, $ib:ident, $icount:expr; )* }
        $(#[$ddoc:meta])*
        derived { $( $(#[$dvdoc:meta])* $dv:ident = $dname:literal, $db:ident; )* }
    ) => {
        /// Every table: those a scan writes per input ([`Table::ALL`]), then those derived
        /// from them per crawl ([`Table::DERIVED`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Table {
            $( $(#[$ivdoc])* $iv, )*
            $( $(#[$dvdoc])* $dv, )*
        }

        impl Table {
            $(#[$idoc])*
            pub const ALL: [Table; 0 $(+ catalogue!(@one $iv))*] = [$(Table::$iv),*];

            $(#[$ddoc])*
            pub const DERIVED: [Table; 0 $(+ catalogue!(@one $dv))*] = [$(Table::$dv),*];

            /// The table's name: its folder under the out folder, and the name `--tables`
            /// takes.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Table::$iv => $iname,)*
                    $(Table::$dv => $dname,)*
                }
            }

            /// The column of `inputs` that counts the table's rows for an input (none for
            /// `inputs` and the derived tables).
            pub const fn count_column(self) -> Option<&'static str> {
                match self {
                    $(Table::$iv => $icount,)*
                    $(Table::$dv => None,)*
                }
            }

            /// What the part writer needs to know of the table.
            pub fn desc(self) -> TableDesc {
                match self {
                    $(Table::$iv => $ib::desc(),)*
                    $(Table::$dv => $db::desc(),)*
                }
            }
        }
    };
    (@one $v:ident) => { 1 };
}

// The derived tables' list is in `derived.rs`, beside their columns: `with_derived_tables!`
// hands it to `catalogue!` after the tables a scan writes.
super::derived::with_derived_tables! {
catalogue {
    /// Every table a scan writes per input, `inputs` last: variant, name, builder, the column
    /// of `inputs` that counts its rows.
    input {
        RobotsFiles = "robots_files", RobotsFilesBuilder, Some("rows_robots_files");
        RobotsAgents = "robots_agents", RobotsAgentsBuilder, Some("rows_robots_agents");
        RobotsRules = "robots_rules", RobotsRulesBuilder, Some("rows_robots_rules");
        AppDirectives = "app_directives", AppDirectivesBuilder, Some("rows_app_directives");
        AcapFields = "acap_fields", AcapFieldsBuilder, Some("rows_acap_fields");
        AgentVerdicts = "agent_verdicts", AgentVerdictsBuilder, Some("rows_agent_verdicts");
        /// The verdict columns of `agent_verdicts` as runs of agents (what the summaries read).
        AgentVerdictRuns = "agent_verdict_runs", AgentVerdictRunsBuilder, Some("rows_agent_verdict_runs");
        Errors = "errors", ErrorsBuilder, Some("errors");
        PageSignals = "page_signals", PageSignalsBuilder, Some("rows_page_signals");
        HostCounts = "host_counts", HostCountsBuilder, Some("rows_host_counts");
        /// One row per page response (URL, host, status, bytes).
        Pages = "pages", PagesBuilder, Some("rows_pages");
        /// One row per capture of `/llms.txt` or `/llms-full.txt`.
        LlmsTxt = "llms_txt", LlmsTxtBuilder, Some("rows_llms_txt");
        /// One row per rule of a capture of `/.well-known/tdmrep.json`.
        TdmrepRules = "tdmrep_rules", TdmrepRulesBuilder, Some("rows_tdmrep_rules");
        /// One row per input, written last: its presence says the input's other parts are complete.
        Inputs = "inputs", InputsBuilder, None;
    }
}
}

impl Table {
    /// The tables a scan writes only when `--tables` names them. `agent_verdicts` (a row per
    /// capture and registry agent, 215 per capture) holds nothing `agent_verdict_runs` does
    /// not: `queries/views/agent_verdicts.sql` makes its rows from the runs.
    pub const ON_REQUEST: [Table; 1] = [Table::AgentVerdicts];

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
        out.write_keyed_schema(
            &super::ranked_lists::ranks_desc(),
            super::ranked_lists::RANKS_KEY,
        )
    }

    /// The tables an input writes parts of besides `inputs`, in the order its parts are written:
    /// [`Table::ALL`] without its last.
    pub const OF_INPUT: [Table; Table::ALL.len() - 1] = {
        let mut tables = [Table::Inputs; Table::ALL.len() - 1];
        let mut i = 0;
        while i < tables.len() {
            tables[i] = Table::ALL[i];
            i += 1;
        }
        tables
    };

    /// The table of a name.
    pub fn from_name(name: &str) -> Option<Table> {
        Table::ALL.into_iter().find(|t| t.name() == name)
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
            e.contains("unknown table `robots_file`")
                && e.contains("host_counts, pages, llms_txt, tdmrep_rules, inputs")
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
