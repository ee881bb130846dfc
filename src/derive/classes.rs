//! The verdict columns of a run of agents (`agent_verdict_runs`), interned per crawl as
//! classes, with what the summaries ask of each.

use crate::parts::runs::Names;
use rustc_hash::FxHashMap;

/// The verdict columns of a run, each string as an id in [`Classes::names`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Class {
    pub named: Option<bool>,
    pub named_exact: Option<bool>,
    pub source: Option<u32>,
    pub root_allowed: Option<bool>,
    pub verdict: Option<u32>,
    pub verdict_rfc9309: Option<u32>,
    pub verdict_documented: Option<u32>,
    pub documented_source: Option<u32>,
}

/// A run of agents: the first's registry position, how many, and their class.
pub type Run = (u16, u16, u32);

/// The classes of the crawl's runs, interned, with what `singled_out` needs of each.
#[derive(Default)]
pub struct Classes {
    pub names: Names,
    classes: Vec<Class>,
    ids: FxHashMap<Class, u32>,
    /// Per class: how strict its `verdict` is, whether `*` or no group decides it (the `*`
    /// reading), whether a group naming the agent does.
    traits: Vec<Traits>,
}

#[derive(Clone, Copy)]
pub struct Traits {
    pub strictness: u8,
    pub star: bool,
    pub specific: bool,
    pub named: bool,
    pub named_exact: bool,
}

impl Classes {
    pub fn id(&mut self, c: Class) -> u32 {
        if let Some(&id) = self.ids.get(&c) {
            return id;
        }
        let text = |id: Option<u32>| id.map(|i| self.names.get(i));
        // The order `agents_singled_out.sql` states: full_block 2, partial_block 1, else 0.
        let strictness = match text(c.verdict) {
            Some("full_block") => 2,
            Some("partial_block") => 1,
            _ => 0,
        };
        let source = text(c.source);
        self.traits.push(Traits {
            strictness,
            star: matches!(source, Some("wildcard" | "none")),
            specific: source == Some("specific"),
            named: c.named == Some(true),
            named_exact: c.named_exact == Some(true),
        });
        self.classes.push(c);
        let id = (self.classes.len() - 1) as u32;
        self.ids.insert(c, id);
        id
    }

    /// Classes interned so far (ids are `0..len`).
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    pub fn get(&self, class: u32) -> &Class {
        &self.classes[class as usize]
    }

    pub fn traits(&self, class: u32) -> Traits {
        self.traits[class as usize]
    }

    /// Each class interned so far, and the same class read by a crawler that does not honour
    /// robots.txt (`verdict_documented` and its source `not_honored`; `agent_verdict_runs`
    /// keep the file's reading for such agents, `agent_verdicts` and the summaries say this).
    pub fn not_honored(&mut self) -> Vec<u32> {
        let not_honored = Some(self.names.id("not_honored"));
        (0..self.len() as u32)
            .map(|k| {
                self.id(Class {
                    verdict_documented: not_honored,
                    documented_source: not_honored,
                    ..*self.get(k)
                })
            })
            .collect()
    }

    /// The `*` reading of a capture with these runs: the class of the strictest of the agents
    /// that no group names (those decided by `*` or by no group), the first such run of the
    /// strictest; none when every agent is named. Agents left to `*` share its rules, so they
    /// share one verdict (or `allowed`, decided by no group, where there is no `*` group).
    pub fn star_class(&self, runs: &[Run]) -> Option<u32> {
        let mut best: Option<(u8, u32)> = None;
        for &(_, _, class) in runs {
            let t = self.traits(class);
            if t.star && best.is_none_or(|(s, _)| t.strictness > s) {
                best = Some((t.strictness, class));
            }
        }
        best.map(|(_, class)| class)
    }

    pub fn text(&self, id: Option<u32>) -> Option<&str> {
        id.map(|i| self.names.get(i))
    }
}
