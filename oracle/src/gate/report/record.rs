//! One case's record: its verdict, its scenario, how it was shrunk and
//! what the expectations file says of it.

use super::*;

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
    pub attribution: Option<crate::gate::findings::Attribution>,
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
        /// [`EngineFault::not_sent`](ptoracle_core::fault::EngineFault::not_sent)).
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
                .map(|s| ptoracle_protocol::to_wire(&s.observation))
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

    /// The rules its verdict is about: those it cites when the engine's
    /// observations disagree (a failure, a flaky case); none for an error,
    /// which is the engine's or the protocol's, or for a pass or a skip.
    pub fn verdict_rules(&self) -> &[String] {
        match self.outcome.kind() {
            Kind::Fail | Kind::Flaky => &self.rules,
            _ => &[],
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
