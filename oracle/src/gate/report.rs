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
use crate::protocol::{Capabilities, EngineInfo, WireError, WireObservation};
use crate::resolver::Run;
use crate::scenario::Case;
use crate::verdict::{Mismatch, Problem, Verdict};

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
    pub reach: Option<crate::protocol::Reach>,
}

/// The generated part of a run.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct GeneratedRun {
    /// Stream indices drawn.
    pub cases: u64,
    /// The seed.
    pub seed: u64,
}

/// The counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed.
    pub failed: usize,
    /// Cases the engine answered differently when asked again.
    #[serde(default)]
    pub flaky: usize,
    /// Cases that ended in an error.
    pub errored: usize,
    /// Cases skipped.
    pub skipped: usize,
    /// Generated indices that gave no playable case.
    pub discarded: usize,
    /// Cases not played because the run was interrupted or stopped early.
    pub not_run: usize,
    /// Failures and errors the expectations file lists.
    pub known: usize,
    /// Failures and errors it does not list.
    pub unexpected: usize,
    /// Listed cases that now pass.
    pub fixed: usize,
    /// Listed cases whose verdict changed to another than pass.
    pub changed: usize,
    /// Failures and errors that registered findings explain whole
    /// (`--findings`), listed or not.
    #[serde(default)]
    pub explained: usize,
    /// Of the explained ones, those an adapter limitation explains part or
    /// all of (D100).
    #[serde(default)]
    pub limited: usize,
    /// Failures and errors with something no registered finding explains
    /// (`--findings`): new, even when a known bug fails them too.
    #[serde(default)]
    pub new: usize,
    /// Failures and errors not listed that findings explain whole.
    #[serde(default)]
    pub explained_unlisted: usize,
    /// Listed cases, known by findings when listed, that now have a
    /// mismatch none explains (they fail the gate).
    #[serde(default)]
    pub newly_unexplained: usize,
    /// Of the changed ones, those that now fail, flake or err (what fails
    /// the gate without `--strict`).
    #[serde(skip)]
    pub changed_bad: usize,
}

impl Summary {
    /// Counts `c`.
    pub fn add(&mut self, c: &Record) {
        let count = |n: &mut usize| *n = n.saturating_add(1);
        match c.outcome.kind() {
            Kind::Pass => count(&mut self.passed),
            Kind::Fail => count(&mut self.failed),
            Kind::Flaky => count(&mut self.flaky),
            Kind::Error => count(&mut self.errored),
            Kind::Skip => count(&mut self.skipped),
        }
        match &c.attribution {
            Some(a) if a.known => {
                count(&mut self.explained);
                if !a.limitations.is_empty() {
                    count(&mut self.limited);
                }
            }
            Some(_) => count(&mut self.new),
            None => {}
        }
        match c.expectation {
            Some(Expectation::Explained) => count(&mut self.explained_unlisted),
            Some(Expectation::Unexplained) => count(&mut self.newly_unexplained),
            Some(Expectation::Known) => count(&mut self.known),
            Some(Expectation::Unexpected) => count(&mut self.unexpected),
            Some(Expectation::Fixed) => count(&mut self.fixed),
            Some(Expectation::Changed) => {
                count(&mut self.changed);
                if c.outcome.kind().bad() {
                    count(&mut self.changed_bad);
                }
            }
            None if c.outcome.kind().bad() => count(&mut self.unexpected),
            None => {}
        }
    }

    /// The counts of `records`, with the indices `discarded` and the cases
    /// `not_run` that have no record.
    pub fn of(records: &[Record], discarded: usize, not_run: usize) -> Summary {
        let mut s = Summary {
            discarded,
            not_run,
            ..Summary::default()
        };
        for c in records {
            s.add(c);
        }
        s
    }

    /// Cases played: sent to the engine and answered, or ended in an error
    /// (every record but the skips). A run that plays none checked nothing.
    pub fn played(&self) -> usize {
        self.passed + self.failed + self.flaky + self.errored
    }

    /// Cases played or skipped: one record each.
    pub fn records(&self) -> usize {
        self.passed + self.failed + self.flaky + self.errored + self.skipped
    }
}

/// One case's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// Its place in the plan.
    #[serde(skip)]
    pub order: usize,
    /// The case id.
    pub id: String,
    /// Where it came from: `FILE#ID` (what `ptoracle explain` reads), or
    /// the generated stream.
    pub source: String,
    /// For a generated case: its seed and index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<(u64, u64)>,
    /// The rules it cites (for a generated case: those the reference cites
    /// at the step that differs).
    pub rules: Vec<String>,
    /// The verdict and its details.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// What the expectations file says of it, when one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expectation: Option<Expectation>,
    /// Time spent on it, engine and reference together.
    pub ms: u64,
    /// The scenario (for a failure or an error), once; what differs is in
    /// `mismatches`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<Scenario>,
    /// For a flaky case only: the reference resolver's observations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Observed>,
    /// For a flaky case only: the engine's first observations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub got: Option<Observed>,
    /// For a flaky case only: the engine's observations when asked again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub again: Option<Observed>,
    /// The end of the engine's stderr during the case (on an error).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    /// For a generated failure: how it was shrunk and where it was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shrunk: Option<Shrunk>,
    /// Anything else worth saying.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The shrunk ruling's text, for the reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruling_text: Option<String>,
    /// Which registered findings explain its mismatches (or its error),
    /// when the gate was given the register (`--findings`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribution: Option<super::findings::Attribution>,
    /// Where the engine's reproduction of this failure was written
    /// (`gate --reproduce`): for a generated case, its shrunk ruling's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduction: Option<String>,
}

/// A verdict with its details.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Outcome {
    /// Everything agrees.
    Pass,
    /// Something differs.
    Fail {
        /// At the first step that differs: the expectations' mismatches
        /// first, then every other field that differs from the reference.
        mismatches: Vec<Mismatch>,
    },
    /// Asked twice, the engine answered differently: it is
    /// nondeterministic, and either answer may be its next.
    Flaky {
        /// At the first step where the answers differ: what the first
        /// answer had (`expected`) and what the second had (`got`).
        mismatches: Vec<Mismatch>,
    },
    /// The engine (or the case) failed.
    Error {
        /// `crash`, `timeout`, `garbage`, `non-integer`, `protocol`,
        /// `too-long`, `handshake`, `version`, `spawn`, `engine-error`,
        /// `unusable`, or `case` for an impossible case.
        kind: String,
        /// What happened.
        message: String,
        /// Whether the case never reached the engine (see
        /// [`EngineFault::not_sent`](crate::fault::EngineFault::not_sent)).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        not_sent: bool,
    },
    /// Not played.
    Skip {
        /// Why.
        reason: String,
    },
}

/// The verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Pass.
    Pass,
    /// Fail.
    Fail,
    /// Flaky.
    Flaky,
    /// Error.
    Error,
    /// Skip.
    Skip,
}

impl Kind {
    /// Whether it fails the gate (unless the expectations list it).
    pub fn bad(self) -> bool {
        matches!(self, Kind::Fail | Kind::Flaky | Kind::Error)
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Pass => "pass",
            Kind::Fail => "fail",
            Kind::Flaky => "flaky",
            Kind::Error => "error",
            Kind::Skip => "skip",
        }
    }
}

impl Outcome {
    /// Which verdict.
    pub fn kind(&self) -> Kind {
        match self {
            Outcome::Pass => Kind::Pass,
            Outcome::Fail { .. } => Kind::Fail,
            Outcome::Flaky { .. } => Kind::Flaky,
            Outcome::Error { .. } => Kind::Error,
            Outcome::Skip { .. } => Kind::Skip,
        }
    }

    /// One line saying what happened.
    pub fn summary(&self) -> String {
        match self {
            Outcome::Pass => "pass".into(),
            Outcome::Fail { mismatches } => {
                let first = mismatches.first().map_or(String::new(), |m| m.to_string());
                if mismatches.len() > 1 {
                    format!("{first} (and {} more)", mismatches.len() - 1)
                } else {
                    first
                }
            }
            Outcome::Flaky { mismatches } => {
                let shown: Vec<String> = mismatches
                    .iter()
                    .map(|m| format!("{}: first {}, then {}", m.field, m.expected, m.got))
                    .collect();
                let step = mismatches.first().map_or(0, |m| m.step) + 1;
                format!(
                    "asked again, the engine answered differently: step {step}: {}",
                    shown.join("; ")
                )
            }
            Outcome::Error { kind, message, .. } => format!("{kind}: {message}"),
            Outcome::Skip { reason } => reason.clone(),
        }
    }
}

/// A scenario, kept as compact JSON text: a gate may hold tens of
/// thousands of failing generated cases, and this is a tenth of the memory
/// of a [`Case`]. Written in the JSON report as the case itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario(String);

impl Scenario {
    /// The scenario of `case`.
    pub fn of(case: &Case) -> Scenario {
        Scenario(serde_json::to_string(case).unwrap_or_default())
    }

    /// The case back.
    pub fn case(&self) -> Option<Case> {
        serde_json::from_str(&self.0).ok()
    }
}

impl Serialize for Scenario {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match serde_json::from_str::<serde_json::Value>(&self.0) {
            Ok(v) => v.serialize(s),
            Err(_) => s.serialize_none(),
        }
    }
}

/// Observations of a run, as the protocol writes them: kept for a flaky
/// case only (both of the engine's answers, and the reference's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observed {
    /// One per completed step.
    pub steps: Vec<WireObservation>,
    /// The error the run stopped with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<WireError>,
}

impl Observed {
    /// The observations of `run`.
    pub(crate) fn of(run: &Run) -> Observed {
        Observed {
            steps: run
                .steps
                .iter()
                .map(|s| crate::protocol::to_wire(&s.observation))
                .collect(),
            error: run.error.as_ref().and_then(crate::engine::wire_error),
        }
    }
}

impl<'de> Deserialize<'de> for Scenario {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Scenario, D::Error> {
        serde_json::Value::deserialize(d).map(|v| Scenario(v.to_string()))
    }
}

/// How a generated failure was shrunk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shrunk {
    /// (steps, objects) before.
    pub from: (usize, usize),
    /// (steps, objects) after.
    pub to: (usize, usize),
    /// The ruling written, if it was.
    #[serde(default)]
    pub ruling: Option<String>,
    /// Another failure of the same shape was written instead.
    #[serde(default)]
    pub duplicate_of_shape: bool,
}

/// What the expectations file says of a case, compared with its verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expectation {
    /// Listed with this verdict, and it has it.
    Known,
    /// Listed as failing or skipped, and it passes: remove the entry.
    Fixed,
    /// Listed with another verdict than the one it has (not pass).
    Changed,
    /// Not listed, and it fails or errs.
    Unexpected,
    /// Not listed, and registered findings explain all of it (`--findings`):
    /// it fails the gate only under `--strict`.
    Explained,
    /// Listed with the findings that explained it, and it now has a
    /// mismatch none explains: a new bug beside the known ones.
    Unexplained,
}

impl Record {
    /// A record of a checked case.
    pub fn new(
        order: usize,
        case: &Case,
        source: String,
        generated: Option<(u64, u64)>,
        checked: EngineCheck,
        ms: u64,
    ) -> Record {
        let (outcome, stderr) = match checked.verdict {
            Verdict::Pass => (Outcome::Pass, String::new()),
            Verdict::Fail(mismatches) => (Outcome::Fail { mismatches }, String::new()),
            Verdict::Skip(reason) => (Outcome::Skip { reason }, String::new()),
            Verdict::Error(Problem::Case(e)) => (
                Outcome::Error {
                    kind: "case".into(),
                    message: e.to_string(),
                    not_sent: false,
                },
                String::new(),
            ),
            Verdict::Error(Problem::Engine(f)) => (
                Outcome::Error {
                    kind: f.kind.name().into(),
                    message: f.message,
                    not_sent: f.not_sent,
                },
                f.stderr,
            ),
        };
        let keep = !matches!(outcome, Outcome::Pass | Outcome::Skip { .. });
        // The observations themselves are not kept: what differs is in the
        // mismatches, and a report holds one record per case.
        Record {
            order,
            id: case.id.0.clone(),
            source,
            generated,
            rules: case.rules.iter().map(|r| r.as_str().to_string()).collect(),
            outcome,
            expectation: None,
            ms,
            scenario: keep.then(|| Scenario::of(case)),
            expected: None,
            got: None,
            again: None,
            stderr,
            shrunk: None,
            notes: Vec::new(),
            ruling_text: None,
            attribution: None,
            reproduction: None,
        }
    }

    /// The label of its line in the human summary, if it has one: `FAIL`
    /// and `ERROR` unless the expectations file lists it so, `FIXED` and
    /// `CHANGED` for a listed case that passes or skips now.
    fn label(&self) -> Option<&'static str> {
        match (self.outcome.kind(), &self.expectation) {
            (Kind::Pass, Some(Expectation::Fixed)) => Some("FIXED"),
            (
                Kind::Fail | Kind::Flaky | Kind::Error,
                Some(Expectation::Known | Expectation::Explained),
            ) => None,
            (Kind::Fail, _) => Some("FAIL"),
            (Kind::Flaky, _) => Some("FLAKY"),
            (Kind::Error, _) => Some("ERROR"),
            (Kind::Skip, Some(Expectation::Fixed | Expectation::Changed)) => Some("CHANGED"),
            _ => None,
        }
    }

    /// The rules its verdict is about: those it cites when the engine's
    /// observations disagree (a failure, a flaky case); none for an error,
    /// which is the engine's or the protocol's, or for a pass or a skip.
    pub fn verdict_rules(&self) -> &[String] {
        match self.outcome.kind() {
            Kind::Fail | Kind::Flaky => &self.rules,
            _ => &[],
        }
    }

    /// Its lines in the human summary, under `label`.
    fn human(&self, label: &str, out: &mut String) {
        let c = self;
        let rules = match c.verdict_rules() {
            [] => String::new(),
            rules => format!(" [{}]", rules.join(", ")),
        };
        let what = match c.expectation {
            Some(Expectation::Fixed) if c.outcome.kind() == Kind::Pass => {
                "listed in the expectations file, now passes: remove it".to_string()
            }
            Some(Expectation::Changed) => format!(
                "its verdict differs from the expectations file's: {}",
                c.outcome.summary()
            ),
            _ => c.outcome.summary(),
        };
        let (id, what) = (printable(&c.id), printable(&what));
        let _ = writeln!(out, "{label} {id}: {what}{rules}");
        if let Some(a) = &c.attribution {
            c.attribution_lines(a, out);
        }
        if !c.stderr.trim().is_empty() && c.outcome.kind() == Kind::Error {
            for line in last_lines(&c.stderr, 5) {
                let _ = writeln!(out, "    stderr: {}", printable(line));
            }
        }
        if let Some(s) = &c.shrunk {
            match &s.ruling {
                Some(path) => {
                    let _ = writeln!(
                        out,
                        "    shrunk from {} steps and {} objects to {} and {}: {path}",
                        s.from.0, s.from.1, s.to.0, s.to.1
                    );
                }
                None if s.duplicate_of_shape => {
                    let _ = writeln!(
                        out,
                        "    (shrinks to the shape of a failure already written)"
                    );
                }
                None => {}
            }
        }
        if let Some(path) = &c.reproduction {
            let _ = writeln!(out, "    reproduction: {}", printable(path));
        }
        for n in &c.notes {
            let _ = writeln!(out, "    note: {}", printable(n));
        }
    }

    /// What the findings register says of it, under its line: the findings
    /// that explain part of it, and every mismatch none explains.
    fn attribution_lines(&self, a: &super::findings::Attribution, out: &mut String) {
        let by = a.explainers(", ");
        let known = if by.is_empty() {
            String::new()
        } else {
            format!(" (known: {by})")
        };
        match &self.outcome {
            _ if a.known => {
                let _ = writeln!(out, "    known: {by}");
            }
            Outcome::Fail { mismatches } => {
                let unexplained = a.unexplained(mismatches);
                let _ = writeln!(
                    out,
                    "    new: {} of {} mismatches no registered finding explains{known}:",
                    unexplained.len(),
                    mismatches.len()
                );
                for m in unexplained {
                    let _ = writeln!(out, "      {}", printable(&m.to_string()));
                }
            }
            _ => {
                let _ = writeln!(out, "    new: no registered finding explains this error");
            }
        }
    }

    /// Whether the case was cut short by Ctrl-C (and is not a result).
    pub fn interrupted(&self) -> bool {
        matches!(&self.outcome, Outcome::Error { kind, .. } if kind == FaultKind::Interrupted.name())
    }

    /// The step of the first mismatch, if it failed or was flaky.
    pub fn first_step(&self) -> Option<usize> {
        match &self.outcome {
            Outcome::Fail { mismatches } | Outcome::Flaky { mismatches } => {
                mismatches.first().map(|m| m.step)
            }
            _ => None,
        }
    }
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
            protocol: crate::protocol::VERSION,
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

    /// Calls `f` with every record as compact JSON, in plan order.
    fn for_each_json(&self, f: &mut dyn FnMut(&str) -> io::Result<()>) -> io::Result<()> {
        match &self.spill {
            None => self
                .cases
                .iter()
                .try_for_each(|c| f(&serde_json::to_string(c).map_err(io::Error::other)?)),
            Some(spill) => spill.lines(f),
        }
    }

    /// Writes the JSON report: its header fields indented, then `cases`,
    /// one record a line (compact: a report may hold tens of thousands),
    /// written one after the other rather than made whole first.
    pub fn write_json(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut head = serde_json::to_value(self.clone_head()).map_err(std::io::Error::other)?;
        if let Some(m) = head.as_object_mut() {
            m.remove("cases");
        }
        let head = serde_json::to_string_pretty(&head).map_err(std::io::Error::other)?;
        // The header object without its closing brace, then the cases.
        let open = head.trim_end().strip_suffix('}').unwrap_or("{").trim_end();
        let comma = if open.ends_with('{') { "" } else { "," };
        write!(w, "{open}{comma}\n  \"cases\": [")?;
        let mut first = true;
        self.for_each_json(&mut |json| {
            w.write_all(if first { b"\n    " } else { b",\n    " })?;
            first = false;
            w.write_all(json.as_bytes())
        })?;
        w.write_all(if first { b"]\n}\n" } else { b"\n  ]\n}\n" })
    }

    /// The report without its cases.
    fn clone_head(&self) -> Report {
        Report {
            report_version: self.report_version,
            ptoracle: self.ptoracle.clone(),
            protocol: self.protocol,
            engine: self.engine.clone(),
            features: self.features.clone(),
            unobserved: self.unobserved.clone(),
            edition: self.edition.clone(),
            generated: self.generated,
            jobs: self.jobs,
            elapsed_ms: self.elapsed_ms,
            interrupted: self.interrupted,
            stopped: self.stopped.clone(),
            summary: self.summary,
            cases: Vec::new(),
            spill: None,
            unplayed_expectations: Vec::new(),
            none_played_allowed: self.none_played_allowed,
            reach: None,
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

    /// The final line: `N passed, N failed, N errored, N skipped`, with
    /// `N flaky` after the failures when there are any.
    pub fn counts_line(&self) -> String {
        let s = &self.summary;
        let flaky = if s.flaky > 0 {
            format!(" {} flaky,", s.flaky)
        } else {
            String::new()
        };
        format!(
            "{} passed, {} failed,{flaky} {} errored, {} skipped",
            s.passed, s.failed, s.errored, s.skipped
        )
    }

    /// The human summary: one line per failure or error the expectations
    /// do not list (with the rules; new ones first, and at most 20 of the
    /// generated cases), then the expectations' news (fixed, changed), the
    /// skips by reason, why `--strict` fails the gate when it does
    /// (`strict`), and the counts line last.
    pub fn human(&self, strict: bool) -> String {
        let mut out = String::new();
        // What changed of the listed cases comes after the failures.
        let mut changes = String::new();
        // Generated failures can be many: the first ones, then a count.
        const GENERATED_SHOWN: usize = 20;
        let mut generated_shown = 0;
        let mut generated_hidden = 0usize;
        // Cases never sent to an engine given up on: one line for all.
        let mut unsent = 0usize;
        let mut first_unsent = None;
        let mut reasons = Reasons::default();
        // Cases findings explain whole, by their findings.
        let mut by_findings: std::collections::BTreeMap<String, (usize, String)> =
            std::collections::BTreeMap::new();
        // Known failures are counted on the expectations line, not listed
        // (nor do they use up the budget of generated lines).
        let read = self.for_each(&mut |c| {
            reasons.add_skip(c);
            if let Some(a) = c.attribution.as_ref().filter(|a| a.known) {
                let e = by_findings
                    .entry(a.explainers(" + "))
                    .or_insert_with(|| (0, c.id.clone()));
                e.0 += 1;
            }
            if matches!(&c.outcome, Outcome::Error { not_sent: true, .. }) {
                unsent += 1;
                first_unsent.get_or_insert_with(|| c.outcome.summary());
                return Ok(());
            }
            let Some(label) = c.label() else {
                return Ok(());
            };
            let failure = matches!(label, "FAIL" | "FLAKY" | "ERROR");
            if failure && c.generated.is_some() {
                if generated_shown == GENERATED_SHOWN {
                    generated_hidden += 1;
                    return Ok(());
                }
                generated_shown += 1;
            }
            c.human(label, if failure { &mut out } else { &mut changes });
            Ok(())
        });
        out.push_str(&changes);
        if let Err(e) = read {
            let _ = writeln!(out, "error: could not read the records back: {e}");
        }
        if unsent > 0 {
            let _ = writeln!(
                out,
                "ERROR {unsent} cases were not sent: {}",
                printable(&first_unsent.unwrap_or_default())
            );
        }
        if generated_hidden > 0 {
            let _ = writeln!(
                out,
                "... and {generated_hidden} more generated failures and errors (see --json)"
            );
        }
        let by_count = reasons.by_count();
        if !by_count.is_empty() {
            let _ = writeln!(out, "skipped {}:", self.summary.skipped);
            out.push_str(&reason_lines(&by_count, "", " (see --json)"));
            if let Some(best) = self.reach.as_ref().and_then(|r| r.best()) {
                let _ = writeln!(
                    out,
                    "  declaring `{}` would unlock {} of the corpus (`ptoracle check --features --declared ...` lists every feature)",
                    best.feature,
                    best.more_cases(),
                );
            }
        }
        let s = &self.summary;
        if s.explained + s.new > 0 {
            let _ = writeln!(
                out,
                "findings: {} of {} failures and errors fully explained by registered findings{}, {} new (with a mismatch no finding explains)",
                s.explained,
                s.explained + s.new,
                if s.limited > 0 {
                    format!(" ({} of them with an adapter limitation)", s.limited)
                } else {
                    String::new()
                },
                s.new
            );
            let mut rows: Vec<(String, (usize, String))> = by_findings.into_iter().collect();
            rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(&b.0)));
            for (f, (n, example)) in rows {
                let _ = writeln!(
                    out,
                    "  {n:>5}  {} (e.g. {})",
                    printable(&f),
                    printable(&example)
                );
            }
        }
        if s.known + s.fixed + s.changed + s.newly_unexplained > 0 {
            let _ = writeln!(
                out,
                "expectations: {} known, {} fixed, {} changed, {} unexpected",
                s.known, s.fixed, s.changed, s.unexpected
            );
        }
        if s.newly_unexplained > 0 {
            let _ = writeln!(
                out,
                "the gate fails: {} listed case(s) known by findings now have a mismatch no finding explains (see `new:` above)",
                s.newly_unexplained
            );
        }
        if strict && s.explained_unlisted > 0 {
            let _ = writeln!(
                out,
                "the gate fails under --strict: {} failure(s) that findings explain are not listed in the expectations file",
                s.explained_unlisted
            );
        }
        if s.discarded > 0 {
            let _ = writeln!(
                out,
                "{} generated indices gave no playable case (their first step names an object that is not there)",
                s.discarded
            );
        }
        if self.interrupted {
            let _ = writeln!(out, "interrupted: {} cases not run", s.not_run);
        }
        for note in self.run_notes() {
            let _ = writeln!(out, "{}", printable(&note));
        }
        if strict && s.fixed + s.changed > 0 {
            let _ = writeln!(
                out,
                "the gate fails under --strict: {} listed case(s) now pass and {} changed verdict; update the expectations file (--write-expectations writes the current one)",
                s.fixed, s.changed
            );
        }
        let played = s.played();
        let secs = self.elapsed_ms as f64 / 1000.0;
        let _ = writeln!(
            out,
            "played {played} cases in {secs:.2}s ({:.0} cases/s, {} job{})",
            played as f64 / secs.max(1e-3),
            self.jobs,
            if self.jobs == 1 { "" } else { "s" }
        );
        let _ = writeln!(out, "{}", self.counts_line());
        out
    }

    /// A Markdown report for a pull-request comment.
    pub fn markdown(&self) -> String {
        let mut out = Vec::new();
        let _ = self.write_markdown(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Writes the Markdown report (see [`Report::markdown`]).
    pub fn write_markdown(&self, w: &mut dyn io::Write) -> io::Result<()> {
        // The first failures, their shrunk rulings and the fixed cases
        // (no more than the expectations file lists): read in one pass.
        const ROWS: usize = 50;
        const RULINGS: usize = 10;
        let (mut bad, mut rows, mut rulings, mut fixed) =
            (0usize, String::new(), String::new(), String::new());
        self.for_each(&mut |c| {
            if c.outcome.kind().bad() && c.expectation != Some(Expectation::Known) {
                if bad < ROWS {
                    let _ = writeln!(
                        rows,
                        "| `{}` | {} | {} | {} |",
                        markdown_code(&c.id),
                        c.outcome.kind().name(),
                        markdown_text(&c.outcome.summary()),
                        markdown_text(&c.verdict_rules().join(", "))
                    );
                }
                if let (true, Some(text)) = (bad < RULINGS, &c.ruling_text) {
                    let _ = writeln!(
                        rulings,
                        "<details><summary>Shrunk ruling for <code>{}</code></summary>\n\n```yaml\n{}```\n</details>\n",
                        escape_html(&c.id),
                        text
                    );
                }
                bad += 1;
            }
            if c.expectation == Some(Expectation::Fixed) {
                let _ = writeln!(fixed, "- `{}`", markdown_code(&c.id));
            }
            Ok(())
        })?;
        let mut out = String::new();
        let s = &self.summary;
        let engine = self.engine.as_ref().map_or(
            "an engine that never completed a handshake".to_string(),
            |e| markdown_text(&format!("{} {}", e.name, e.version)),
        );
        let icon = if self.gate_fails(false) { "❌" } else { "✅" };
        let _ = writeln!(out, "## {icon} ptoracle gate: {engine}\n");
        let _ = writeln!(
            out,
            "Edition {} · protocol {} · ptoracle {}{}\n",
            self.edition,
            self.protocol,
            self.ptoracle,
            self.generated.map_or(String::new(), |g| format!(
                " · {} generated cases (seed {})",
                g.cases, g.seed
            ))
        );
        let _ = writeln!(out, "| passed | failed | flaky | errored | skipped |");
        let _ = writeln!(out, "|---:|---:|---:|---:|---:|");
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |\n",
            s.passed, s.failed, s.flaky, s.errored, s.skipped
        );
        if s.known + s.fixed + s.changed > 0 {
            let _ = writeln!(
                out,
                "Expectations: {} known, **{} fixed**, {} changed, **{} unexpected**.\n",
                s.known, s.fixed, s.changed, s.unexpected
            );
        }
        for note in self.run_notes() {
            let _ = writeln!(out, "**{}**\n", markdown_text(&note));
        }
        if bad > 0 {
            let _ = writeln!(out, "### Failures and errors\n");
            let _ = writeln!(out, "| case | verdict | first difference | rules |");
            let _ = writeln!(out, "|---|---|---|---|");
            out.push_str(&rows);
            if bad > ROWS {
                let _ = writeln!(out, "\n… and {} more (see the JSON report).", bad - ROWS);
            }
            let _ = writeln!(out);
            out.push_str(&rulings);
        }
        if !fixed.is_empty() {
            let _ = writeln!(out, "### Fixed (remove from the expectations file)\n");
            out.push_str(&fixed);
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "`{}`", self.counts_line());
        w.write_all(out.as_bytes())
    }

    /// The JUnit XML report: one test suite for the corpus, one for the
    /// generated cases; failures as `failure`, errors as `error`.
    pub fn junit(&self) -> String {
        let mut out = Vec::new();
        if let Err(e) = self.write_junit(&mut out) {
            return format!("<!-- could not write the JUnit report: {e} -->\n");
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Writes the JUnit XML report (see [`Report::junit`]) one test case
    /// after the other: the counts its header needs are taken in a first
    /// pass over the records, the test cases written in a second.
    pub fn write_junit(&self, w: &mut dyn io::Write) -> io::Result<()> {
        use quick_junit::{TestCase, TestCaseStatus, TestSuite};
        // Stands for a suite's test cases in the report made without them.
        const PLACEHOLDER: &str = "ptoracle-test-cases-go-here";
        let name = self
            .engine
            .as_ref()
            .map_or("engine".to_string(), |e| printable(&e.name).into_owned());
        let mut suites = [TestSuite::new("corpus"), TestSuite::new("generated")];
        self.for_each(&mut |c| {
            // Counted by quick-junit itself, then dropped.
            let suite = &mut suites[usize::from(c.generated.is_some())];
            suite.add_test_case(junit_case(c));
            suite.test_cases.clear();
            Ok(())
        })?;
        let mut report = quick_junit::Report::new(format!("ptoracle gate: {name}"));
        report.set_time(Duration::from_millis(self.elapsed_ms));
        let mut filled = [false, false];
        for (k, mut suite) in suites.into_iter().enumerate() {
            if k == 1 && self.generated.is_none() {
                continue;
            }
            if suite.tests > 0 {
                suite
                    .test_cases
                    .push(TestCase::new(PLACEHOLDER, TestCaseStatus::success()));
                filled[k] = true;
            }
            report.add_test_suite(suite);
        }
        let skeleton = report.to_string().map_err(io::Error::other)?;
        let mark = format!("\n        <testcase name=\"{PLACEHOLDER}\"/>");
        let mut pieces = skeleton.split(mark.as_str());
        w.write_all(pieces.next().unwrap_or_default().as_bytes())?;
        for (k, generated) in [(0, false), (1, true)] {
            if !filled[k] {
                continue;
            }
            self.for_each(&mut |c| {
                if c.generated.is_some() != generated {
                    return Ok(());
                }
                w.write_all(junit_case_xml(junit_case(c))?.as_bytes())
            })?;
            w.write_all(pieces.next().unwrap_or_default().as_bytes())?;
        }
        Ok(())
    }
}

/// Skip reasons and how many cases gave each: at most [`Reasons::KEPT`]
/// different ones (an engine could give every case its own), the others
/// counted as one.
#[derive(Default)]
pub(crate) struct Reasons {
    counts: std::collections::BTreeMap<String, usize>,
}

impl Reasons {
    /// Different reasons kept.
    const KEPT: usize = 1000;

    /// Counts the reason of `c`, if it is a skip: one reason whatever step
    /// it names (`step N`), and for a generated case whatever object
    /// (`oN`).
    pub(crate) fn add_skip(&mut self, c: &Record) {
        if let Outcome::Skip { reason } = &c.outcome {
            let reason = step_free(reason);
            self.add(match c.generated {
                Some(_) => handle_free(&reason),
                None => reason,
            });
        }
    }

    /// Counts `c`, if it is a skip, under each feature it needs that the
    /// engine lacks (`needs spells`), or else under its reason as
    /// [`Reasons::add_skip`] does.
    pub(crate) fn add_skip_by_feature(&mut self, c: &Record) {
        let Outcome::Skip { reason } = &c.outcome else {
            return;
        };
        match reason.strip_prefix(crate::engine::MISSING_FEATURES) {
            Some(names) => {
                for name in names.split(", ") {
                    self.add(format!("needs {name}"));
                }
            }
            None => self.add_skip(c),
        }
    }

    /// The reasons, the most frequent first, each with its count.
    pub(crate) fn by_count(self) -> Vec<(String, usize)> {
        let mut by_count: Vec<(String, usize)> = self.counts.into_iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        by_count
    }

    fn add(&mut self, reason: String) {
        let key = if self.counts.len() < Self::KEPT || self.counts.contains_key(&reason) {
            reason
        } else {
            "(other reasons)".to_string()
        };
        *self.counts.entry(key).or_default() += 1;
    }
}

/// Skip reasons as [`Reasons::by_count`] gives them, one line each (the
/// ten most frequent), every line starting with `prefix`; `more` follows
/// the count of the reasons left out.
pub(crate) fn reason_lines(by_count: &[(String, usize)], prefix: &str, more: &str) -> String {
    let mut out = String::new();
    for (reason, n) in by_count.iter().take(10) {
        let _ = writeln!(out, "{prefix}  {n:>5}  {}", printable(reason));
    }
    if by_count.len() > 10 {
        let _ = writeln!(
            out,
            "{prefix}  ... and {} other reasons{more}",
            by_count.len() - 10
        );
    }
    out
}

/// A record as a JUnit test case.
fn junit_case(c: &Record) -> quick_junit::TestCase {
    use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus};
    let mut status = match &c.outcome {
        Outcome::Pass => TestCaseStatus::success(),
        Outcome::Skip { reason } => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(printable(reason));
            s
        }
        Outcome::Fail { mismatches } | Outcome::Flaky { mismatches } => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_message(printable(&c.outcome.summary()));
            s.set_type(if c.outcome.kind() == Kind::Flaky {
                "flaky"
            } else {
                "mismatch"
            });
            let detail: Vec<String> = mismatches.iter().map(|m| m.to_string()).collect();
            s.set_description(printable_lines(&format!(
                "{}\nrules: {}\nsource: {}",
                detail.join("\n"),
                c.rules.join(", "),
                c.source
            )));
            s
        }
        Outcome::Error { kind, message, .. } => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_message(printable(message));
            s.set_type(kind.as_str());
            s
        }
    };
    if c.expectation == Some(Expectation::Known) {
        if let TestCaseStatus::NonSuccess { .. } = status {
            let mut s = TestCaseStatus::skipped();
            s.set_message(printable(&format!("known: {}", c.outcome.summary())));
            status = s;
        }
    }
    let mut t = TestCase::new(printable(&c.id), status);
    t.set_classname(c.id.split('/').next().unwrap_or("ptoracle"));
    t.set_time(Duration::from_millis(c.ms));
    if !c.stderr.is_empty() {
        t.set_system_err(printable_lines(&c.stderr));
    }
    t
}

/// A test case's XML as it stands inside a suite of a whole report (from
/// the newline before it to its end), written by quick-junit itself.
fn junit_case_xml(t: quick_junit::TestCase) -> io::Result<String> {
    let mut suite = quick_junit::TestSuite::new("s");
    suite.test_cases.push(t);
    let mut report = quick_junit::Report::new("r");
    report.add_test_suite(suite);
    let text = report.to_string().map_err(io::Error::other)?;
    // The suite's opening tag is this function's own, on one line.
    let start = text
        .find("<testsuite ")
        .and_then(|i| text[i..].find('\n').map(|j| i + j));
    let end = text.rfind("\n    </testsuite>");
    match (start, end) {
        (Some(s), Some(e)) if s <= e => Ok(text[s..e].to_string()),
        _ => Err(io::Error::other("quick-junit wrote an unexpected layout")),
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

fn last_lines(s: &str, n: usize) -> Vec<&str> {
    let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}

/// A skip reason with the step it names replaced by `step N`, so that one
/// reason counts once in the summary whatever step it was met at (an
/// adapter's "step 3: the step `crew`" and "step 5: ..." are one reason).
fn step_free(reason: &str) -> String {
    let Some(at) = reason.find("step ") else {
        return reason.to_string();
    };
    let digits = reason[at + 5..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    if digits == 0 {
        return reason.to_string();
    }
    format!("{}step N{}", &reason[..at], &reason[at + 5 + digits..])
}

/// A generated case's skip reason with the object handles the generator
/// gives (`o0`, `o1`, …, whole words) replaced by `oN`, so that one reason
/// counts once in the summary whatever object it was met on (an adapter's
/// "setup object o3: -2/-2 counters" and "... o0: ..." are one reason).
fn handle_free(reason: &str) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(reason.len());
    let mut rest = reason;
    let mut after_word = false;
    while let Some(c) = rest.chars().next() {
        if c == 'o' && !after_word {
            let digits = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
            let ends = rest[1 + digits..].chars().next().is_none_or(|n| !word(n));
            if digits > 0 && ends {
                out.push_str("oN");
                rest = &rest[1 + digits..];
                after_word = true;
                continue;
            }
        }
        out.push(c);
        after_word = word(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{handle_free, step_free};

    #[test]
    fn generated_skip_reasons_count_once_whatever_the_object() {
        assert_eq!(
            handle_free("setup object o12: -2/-2 counters (o3 too)"),
            "setup object oN: -2/-2 counters (oN too)"
        );
        assert_eq!(
            handle_free("foo2 and o and oo1 and o1x stay: o1"),
            "foo2 and o and oo1 and o1x stay: oN"
        );
    }

    #[test]
    fn skip_reasons_count_once_whatever_the_step() {
        assert_eq!(
            step_free("unsupported: step 12: the step `crew`"),
            "unsupported: step N: the step `crew`"
        );
        assert_eq!(
            step_free("the engine does not implement zones"),
            "the engine does not implement zones"
        );
        assert_eq!(step_free("a step without number"), "a step without number");
    }
}
