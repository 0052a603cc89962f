//! What a gate run found, case by case, and its four renderings: the
//! human summary, JSON (`--json`, also what `baseline` compares), JUnit XML
//! (`--junit`) and Markdown (`--markdown`, for a pull-request comment).

use std::fmt::Write as _;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::Plan;
use super::spill::Spill;
use crate::engine::EngineCheck;
use crate::engine::FaultKind;
use crate::printable::{escape_html, markdown_code, markdown_text, printable, printable_lines};
use ptoracle_core::resolver::Run;
use ptoracle_core::scenario::Case;
use ptoracle_core::verdict::{Mismatch, Problem, Verdict};
use ptoracle_protocol::{Capabilities, EngineInfo, WireError, WireObservation};

mod json;
mod junit;
mod markdown;
mod record;
mod summary;
mod text;

pub use record::{Expectation, Kind, Observed, Outcome, Record, Scenario, Shrunk};
pub use summary::Summary;
pub(crate) use summary::{Reasons, reason_lines};

/// The version of the JSON report's layout (2: steps count from 1,
/// sources read `FILE#ID`).
pub const REPORT_VERSION: u32 = 2;

/// A whole gate run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// The layout version ([`REPORT_VERSION`]).
    pub report_version: u32,
    /// The ptoracle that made it.
    pub ptoracle: String,
    /// The protocol version spoken.
    pub protocol: u32,
    /// The engine, as its handshake said (none if no handshake succeeded).
    #[serde(default)]
    pub engine: Option<EngineInfo>,
    /// The features it declared.
    #[serde(default)]
    pub features: Vec<String>,
    /// The observation fields it does not report.
    #[serde(default)]
    pub unobserved: Vec<String>,
    /// The edition it was tested under.
    pub edition: String,
    /// Generated cases: how many stream indices, and the seed.
    #[serde(default)]
    pub generated: Option<GeneratedRun>,
    /// Worker threads (engine processes at once).
    pub jobs: usize,
    /// How long the run took.
    pub elapsed_ms: u64,
    /// Whether it was stopped (Ctrl-C) before the end.
    pub interrupted: bool,
    /// Why the run stopped before the end when nothing interrupted it: its
    /// first cases all ended in the same kind of error (see
    /// [`Plan::stop_after_same_errors`](super::Plan::stop_after_same_errors)).
    /// Such a run fails the gate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// The counts.
    pub summary: Summary,
    /// Every case played, in plan order (for a gate run: in `spill`, and
    /// this is empty; read them with [`Report::for_each`]).
    pub cases: Vec<Record>,
    /// Where a gate run's records are.
    #[serde(skip)]
    pub(crate) spill: Option<Arc<Spill>>,
    /// The ids the expectations file lists that the run did not play.
    #[serde(skip)]
    pub unplayed_expectations: Vec<String>,
    /// Whether a run that played no case passes (`gate
    /// --allow-none-played`); by default it fails: see [`Summary::played`].
    #[serde(skip)]
    pub none_played_allowed: bool,
    /// What the engine's features play of the corpus cases that hold in
    /// the edition, and what each other feature would add: the summary
    /// names the one that unlocks the most.
    #[serde(skip)]
    pub reach: Option<ptoracle_protocol::Reach>,
}

/// The generated part of a run.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct GeneratedRun {
    /// Stream indices drawn.
    pub cases: u64,
    /// The seed.
    pub seed: u64,
}

impl Report {
    /// A report of `records`.
    pub(crate) fn new(
        caps: Option<Capabilities>,
        plan: &Plan,
        records: Vec<Record>,
        discarded: usize,
        not_run: usize,
        interrupted: bool,
        elapsed: Duration,
    ) -> Report {
        let (engine, features, unobserved) = match caps {
            Some(c) => (
                Some(c.info),
                c.features.iter().map(|f| f.name().to_string()).collect(),
                c.unobserved.iter().map(|o| o.name().to_string()).collect(),
            ),
            None => (None, Vec::new(), Vec::new()),
        };
        let mut r = Report {
            report_version: REPORT_VERSION,
            ptoracle: env!("CARGO_PKG_VERSION").into(),
            protocol: ptoracle_protocol::VERSION,
            engine,
            features,
            unobserved,
            edition: plan.edition.id().into(),
            generated: plan
                .generated
                .map(|(cases, seed)| GeneratedRun { cases, seed }),
            jobs: plan.jobs,
            elapsed_ms: elapsed.as_millis() as u64,
            interrupted,
            stopped: None,
            summary: Summary::default(),
            cases: records,
            spill: None,
            unplayed_expectations: Vec::new(),
            none_played_allowed: false,
            reach: None,
        };
        r.summary.discarded = discarded;
        r.summary.not_run = not_run;
        r.recount();
        r
    }

    /// The report of a gate run whose records are in `spill`, counted in
    /// `summary`.
    pub(crate) fn spilled(mut self, spill: Spill, summary: Summary) -> Report {
        self.cases = Vec::new();
        self.spill = Some(Arc::new(spill));
        self.summary = summary;
        self
    }

    /// Calls `f` with every record, in plan order, wherever they are kept.
    pub fn for_each(&self, f: &mut dyn FnMut(&Record) -> io::Result<()>) -> io::Result<()> {
        match &self.spill {
            None => self.cases.iter().try_for_each(f),
            Some(spill) => {
                spill.lines(&mut |json| f(&serde_json::from_str(json).map_err(io::Error::other)?))
            }
        }
    }

    /// Recomputes the counts from the records held in memory.
    pub fn recount(&mut self) {
        self.summary = Summary::of(&self.cases, self.summary.discarded, self.summary.not_run);
    }

    /// Whether the gate fails: a failure or error the expectations do not
    /// list (or a listed case whose verdict changed to fail or error);
    /// under `strict`, also a listed case that passes or changed; a run
    /// stopped early ([`Report::stopped`]); a run that played no case,
    /// unless that was allowed.
    pub fn gate_fails(&self, strict: bool) -> bool {
        let s = &self.summary;
        s.unexpected > 0
            || s.changed_bad > 0
            || s.newly_unexplained > 0
            || (strict && s.fixed + s.changed + s.explained_unlisted > 0)
            || self.stopped.is_some()
            || self.none_played()
    }

    /// What fails the run as a whole, whatever its cases: stopped early,
    /// or nothing played; a line each, for every report a person reads.
    fn run_notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(why) = &self.stopped {
            notes.push(format!(
                "stopped: {why}; {} cases not played (--stop-after-same-errors 0 plays every case)",
                self.summary.not_run
            ));
        }
        if self.none_played() {
            notes.push(NONE_PLAYED.to_string());
        }
        notes
    }

    /// Whether the run played no case (every one skipped) and that fails
    /// it: a broken adapter (one that declares no feature a case needs, or
    /// answers every case `unsupported`) must not pass.
    pub fn none_played(&self) -> bool {
        self.summary.played() == 0 && !self.none_played_allowed && !self.interrupted
    }
}

/// What the reports say of a run that played no case.
const NONE_PLAYED: &str = "nothing played: every case was skipped, so the engine was checked on nothing and the gate fails (check the features its hello declares; `gate --allow-none-played` accepts such a run)";

/// A list that may be long, for one line: the first `n` items, then how
/// many more (`a, b, c and 926 more`).
pub fn first_few(items: &[String], n: usize) -> String {
    let shown = items[..items.len().min(n)].join(", ");
    match items.len().saturating_sub(n) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}
