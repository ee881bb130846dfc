//! The registry as `repcensus agents` prints it.

use super::{Agent, Registry};
use anyhow::Result;
use std::io::Write;

/// How `repcensus agents` lists the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListFormat {
    /// Aligned columns (name, token, category, operator, robots_txt) headed by the sources.
    Table,
    /// Plain CSV, every column; a cell that a spreadsheet would read as a formula starts with `'`.
    Csv,
    /// JSON: the version, the sources and every column of every agent.
    Json,
}

impl Registry {
    /// The registry as `repcensus agents` lists it: an aligned table headed by the sources, plain
    /// CSV, or JSON with the version and sources.
    pub fn write_list(&self, format: ListFormat, out: &mut dyn Write) -> Result<()> {
        let r = self;
        match format {
            // Plain CSV: the sources and column meanings are in the human format and the JSON.
            ListFormat::Csv => write!(out, "{}", r.to_csv()?)?,
            ListFormat::Json => {
                let v = serde_json::json!({
                    "registry_version": r.version,
                    "sources": Registry::header(),
                    "agents": r.agents,
                });
                writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
            }
            ListFormat::Table => {
                for l in Registry::header().lines() {
                    writeln!(out, "# {l}")?;
                }
                writeln!(
                    out,
                    "# {} agents, registry {} (`--format csv` or `json` for every column)",
                    r.agents.len(),
                    r.version
                )?;
                let w = |f: fn(&Agent) -> &str, h: &str| {
                    r.agents
                        .iter()
                        .map(|a| f(a).len())
                        .max()
                        .unwrap_or(0)
                        .max(h.len())
                };
                let (wn, wt, wc, wo) = (
                    w(|a| &a.name, "name"),
                    w(|a| &a.token, "token"),
                    w(|a| &a.category, "category"),
                    w(|a| &a.operator, "operator"),
                );
                writeln!(
                    out,
                    "{:wn$}  {:wt$}  {:wc$}  {:wo$}  robots_txt",
                    "name", "token", "category", "operator"
                )?;
                for a in &r.agents {
                    writeln!(
                        out,
                        "{:wn$}  {:wt$}  {:wc$}  {:wo$}  {}",
                        a.name, a.token, a.category, a.operator, a.robots_txt
                    )?;
                }
            }
        }
        Ok(())
    }
}
