//! The reports, counted: one [`Column`] per report (an engine, or one
//! version of it), rows per CR section and per rule.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::gate::{Kind, Record, Report};

/// One report: an engine at one version.
pub struct Column {
    /// The engine's name (the label given, else its handshake's name,
    /// else the file's stem).
    pub engine: String,
    /// Its version, as its handshake said (empty if unknown).
    pub version: String,
    /// The report.
    pub report: Report,
}

impl Column {
    /// A column for `report`, read from `path`, named `label` if given.
    pub fn new(label: Option<String>, path: &Path, report: Report) -> Column {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (name, version) = match &report.engine {
            Some(e) => (e.name.clone(), e.version.clone()),
            None => (stem, String::new()),
        };
        Column {
            engine: label.unwrap_or(name),
            version,
            report,
        }
    }

    /// `engine version`, or the engine alone.
    pub fn title(&self) -> String {
        if self.version.is_empty() {
            self.engine.clone()
        } else {
            format!("{} {}", self.engine, self.version)
        }
    }

    /// The title as a file name part: ASCII letters, digits, `.`, `-`.
    pub fn slug(&self) -> String {
        self.title()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                    c
                } else {
                    '-'
                }
            })
            .collect()
    }

    /// Its record of case `id`.
    pub fn record(&self, id: &str) -> Option<&Record> {
        self.report.cases.iter().find(|r| r.id == id)
    }

    /// Passed, failed (and flaky), errored, skipped: the report's counts.
    pub fn counts(&self) -> [usize; 4] {
        let s = &self.report.summary;
        [
            s.passed,
            s.failed.saturating_add(s.flaky),
            s.errored,
            s.skipped,
        ]
    }

    /// Passed, and every case of the run (played, skipped, or not run
    /// because the run was interrupted): a badge that said "11/11" for an
    /// engine that skipped 211 cases would let "0 failed" hide "never
    /// tested".
    pub fn score(&self) -> (usize, usize) {
        let s = &self.report.summary;
        let all = s
            .passed
            .saturating_add(s.failed)
            .saturating_add(s.flaky)
            .saturating_add(s.errored)
            .saturating_add(s.skipped)
            .saturating_add(s.not_run);
        (s.passed, all)
    }
}

/// Counts of verdicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Passed.
    pub pass: usize,
    /// Failed (or flaky).
    pub fail: usize,
    /// Errored.
    pub error: usize,
    /// Skipped.
    pub skip: usize,
}

impl Counts {
    /// Counts one verdict.
    pub fn add(&mut self, k: Kind) {
        let slot = match k {
            Kind::Pass => &mut self.pass,
            Kind::Fail | Kind::Flaky => &mut self.fail,
            Kind::Error => &mut self.error,
            _ => &mut self.skip,
        };
        *slot = slot.saturating_add(1);
    }

    /// All counted.
    pub fn total(&self) -> usize {
        self.pass
            .saturating_add(self.fail)
            .saturating_add(self.error)
            .saturating_add(self.skip)
    }

    /// Played (not skipped).
    pub fn tested(&self) -> usize {
        self.total().saturating_sub(self.skip)
    }
}

/// A rule's verdict for one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleVerdict {
    /// A case citing it fails (or errs): the smallest such case.
    Violated(String),
    /// N cases citing it pass (and none fails).
    Consistent(usize),
    /// Every case citing it was skipped.
    Untested,
}

impl RuleVerdict {
    /// The verdict's word.
    pub fn word(&self) -> &'static str {
        match self {
            RuleVerdict::Violated(_) => "violated",
            RuleVerdict::Consistent(_) => "consistent",
            RuleVerdict::Untested => "untested",
        }
    }
}

/// All the reports.
pub struct Matrix {
    /// One per engine's report, in the order given.
    pub columns: Vec<Column>,
    /// One per calibration report (a mutant of the reference, the
    /// template engine): drawn in a table apart, and in none of the
    /// verdicts, since their bugs are deliberate.
    pub calibration: Vec<Column>,
    /// The findings register (empty if none was read).
    pub findings: Vec<super::Finding>,
    /// Where the register's paths start from.
    pub root: std::path::PathBuf,
}

/// The CR section of a rule: `613` for `613.4c`.
pub fn section(rule: &str) -> String {
    rule.split('.').next().unwrap_or(rule).to_string()
}

impl Matrix {
    /// The matrix of these columns.
    pub fn new(columns: Vec<Column>) -> Matrix {
        Matrix {
            columns,
            calibration: Vec::new(),
            findings: Vec::new(),
            root: std::path::PathBuf::new(),
        }
    }

    /// Every case id any report has, sorted.
    pub fn case_ids(&self) -> Vec<String> {
        let ids: BTreeSet<&str> = self
            .columns
            .iter()
            .flat_map(|c| c.report.cases.iter().map(|r| r.id.as_str()))
            .collect();
        ids.into_iter().map(String::from).collect()
    }

    /// Every rule cited, sorted.
    pub fn rules(&self) -> Vec<String> {
        let rules: BTreeSet<&str> = self
            .columns
            .iter()
            .flat_map(|c| c.report.cases.iter())
            .flat_map(|r| r.rules.iter().map(String::as_str))
            .collect();
        rules.into_iter().map(String::from).collect()
    }

    /// Per CR section, the counts of each column.
    pub fn sections(&self) -> BTreeMap<String, Vec<Counts>> {
        let mut out: BTreeMap<String, Vec<Counts>> = BTreeMap::new();
        for (i, c) in self.columns.iter().enumerate() {
            for r in &c.report.cases {
                let secs: BTreeSet<String> = r.rules.iter().map(|x| section(x)).collect();
                let secs = if secs.is_empty() {
                    BTreeSet::from(["(none)".to_string()])
                } else {
                    secs
                };
                for s in secs {
                    let row = out
                        .entry(s)
                        .or_insert_with(|| vec![Counts::default(); self.columns.len()]);
                    if let Some(slot) = row.get_mut(i) {
                        slot.add(r.outcome.kind());
                    }
                }
            }
        }
        out
    }

    /// The verdict of column `col` on `rule`.
    pub fn verdict(&self, col: usize, rule: &str) -> RuleVerdict {
        let Some(c) = self.columns.get(col) else {
            return RuleVerdict::Untested;
        };
        let citing = c
            .report
            .cases
            .iter()
            .filter(|r| r.rules.iter().any(|x| x == rule));
        let mut pass = 0usize;
        let mut worst: Option<&Record> = None;
        for r in citing {
            match r.outcome.kind() {
                Kind::Pass => pass = pass.saturating_add(1),
                Kind::Fail | Kind::Flaky | Kind::Error => {
                    let smaller = worst.is_none_or(|w| size(r) < size(w));
                    if smaller {
                        worst = Some(r);
                    }
                }
                _ => {}
            }
        }
        match (worst, pass) {
            (Some(w), _) => RuleVerdict::Violated(w.id.clone()),
            (None, 0) => RuleVerdict::Untested,
            (None, n) => RuleVerdict::Consistent(n),
        }
    }

    /// Whether column `col` fails (or errs on) case `id`.
    pub fn fails(&self, col: usize, id: &str) -> Option<bool> {
        let r = self.columns.get(col)?.record(id)?;
        match r.outcome.kind() {
            Kind::Fail | Kind::Flaky | Kind::Error => Some(true),
            Kind::Pass => Some(false),
            _ => None,
        }
    }

    /// The cases exactly one engine fails (with its column), and the
    /// cases every engine that played them fails (at least two played).
    pub fn lonely_and_shared(&self) -> (Vec<(String, usize)>, Vec<String>) {
        let (mut lonely, mut shared) = (Vec::new(), Vec::new());
        for id in self.case_ids() {
            let played: Vec<(usize, bool)> = (0..self.columns.len())
                .filter_map(|i| self.fails(i, &id).map(|f| (i, f)))
                .collect();
            let failing: Vec<usize> = played.iter().filter(|p| p.1).map(|p| p.0).collect();
            if played.len() >= 2 && failing.len() == played.len() {
                shared.push(id);
            } else if let [only] = failing.as_slice() {
                if played.len() >= 2 {
                    lonely.push((id, *only));
                }
            }
        }
        (lonely, shared)
    }
}

/// How big a case is, to pick the minimal failing one: its scenario's length.
fn size(r: &Record) -> usize {
    r.scenario
        .as_ref()
        .map(|s| format!("{s:?}").len())
        .unwrap_or(usize::MAX)
}
