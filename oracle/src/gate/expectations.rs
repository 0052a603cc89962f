//! An engine's expectations file: the cases it is known to fail, err on or
//! skip, each with a reason and optionally an issue URL, so that it can
//! adopt the gate on day one and only improve. A listed case that starts
//! passing is reported as fixed; one whose verdict changes is reported as
//! changed.
//!
//! ```yaml
//! engine: my-engine
//! cases:
//!   613.4d/counters-before-switch:
//!     verdict: fail
//!     reason: counters are added after the switch
//!     issue: https://example.org/my-engine/issues/12
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::report::{Expectation, Kind, Record, Report};
use crate::error::LoadError;

/// An expectations file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// The engine it is for (informative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The listed cases, by id.
    #[serde(default)]
    pub cases: BTreeMap<String, Entry>,
}

/// One listed case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The verdict it is known to have: `fail`, `flaky`, `error` or `skip`.
    pub verdict: Kind,
    /// Why.
    pub reason: String,
    /// Where it is tracked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
}

const HEADER: &str = "\
# ptoracle gate expectations: the cases this engine is known to fail, err on
# or skip. The gate passes while every failure and error is listed here; a
# listed case that passes is reported as fixed (remove it). Written by
# `ptoracle gate --write-expectations`; edit the reasons and issue URLs.
";

/// The largest expectations file read, in bytes (about 100000 cases).
pub const MAX_BYTES: u64 = 16 << 20;

impl Expectations {
    /// Reads an expectations file: a regular file of at most [`MAX_BYTES`],
    /// in UTF-8.
    pub fn load(path: &Path) -> Result<Expectations, LoadError> {
        let file = path.display().to_string();
        let unreadable = |message: String| LoadError {
            file: file.clone(),
            line: 0,
            column: 0,
            message: format!("cannot read the expectations file: {message}"),
        };
        let bytes =
            crate::corpus::read_file(path, MAX_BYTES, "expectations file").map_err(unreadable)?;
        let text =
            String::from_utf8(bytes).map_err(|_| unreadable("it is not UTF-8 text".to_string()))?;
        Expectations::parse(&file, &text)
    }

    /// Reads an expectations file's text.
    ///
    /// ```
    /// use ptoracle::gate::expectations::Expectations;
    /// let e = Expectations::parse("x.yaml", "cases:\n  a/b: { verdict: fail, reason: r }\n").unwrap();
    /// assert_eq!(e.cases.len(), 1);
    /// let err = Expectations::parse("x.yaml", "cases:\n  a/b: { verdict: pass, reason: r }\n").unwrap_err();
    /// assert!(err.to_string().starts_with("x.yaml:2:"), "{err}");
    /// ```
    pub fn parse(file: &str, text: &str) -> Result<Expectations, LoadError> {
        let max = usize::try_from(MAX_BYTES).unwrap_or(usize::MAX);
        let e: Option<Expectations> = crate::yaml::from_str(text, max).map_err(|e| LoadError {
            file: file.to_string(),
            line: e.line,
            column: e.column,
            message: e.message,
        })?;
        let e = e.unwrap_or_default();
        if let Some((id, _)) = e.cases.iter().find(|(_, v)| v.verdict == Kind::Pass) {
            // The id as written may be quoted or escaped: then the error is
            // put at the top of the file rather than nowhere.
            let line = text
                .lines()
                .position(|l| l.contains(id.as_str()))
                .map_or(1, |i| i + 1);
            return Err(LoadError {
                file: file.to_string(),
                line,
                column: 1,
                message: format!(
                    "case `{id}` is listed with verdict pass; list only fail, flaky, error or skip (remove it instead)"
                ),
            });
        }
        Ok(e)
    }

    /// Marks `record` with what this file says of it; whether the file
    /// lists it.
    pub fn mark(&self, record: &mut Record) -> bool {
        let kind = record.outcome.kind();
        let listed = self.cases.get(&record.id);
        record.expectation = match listed {
            None if kind.bad() => Some(Expectation::Unexpected),
            None => None,
            Some(e) if e.verdict == kind => Some(Expectation::Known),
            Some(_) if kind == Kind::Pass => Some(Expectation::Fixed),
            Some(_) => Some(Expectation::Changed),
        };
        listed.is_some()
    }

    /// The listed ids that are not in `seen`.
    pub fn unplayed(&self, seen: &BTreeSet<String>) -> Vec<String> {
        self.cases
            .keys()
            .filter(|id| !seen.contains(*id))
            .cloned()
            .collect()
    }

    /// The expectations file that lists every case of `report` that did not
    /// pass, keeping the reasons and issues of `previous` where the verdict
    /// is the same. It holds one entry per case that did not pass (an id and
    /// a reason of at most 200 characters): the file is sorted by id, and
    /// no larger than [`MAX_BYTES`] can be read back.
    pub fn from_report(
        report: &Report,
        previous: Option<&Expectations>,
    ) -> std::io::Result<Expectations> {
        let mut cases = BTreeMap::new();
        report.for_each(&mut |c| {
            let verdict = c.outcome.kind();
            if verdict == Kind::Pass {
                return Ok(());
            }
            let old = previous
                .and_then(|p| p.cases.get(&c.id))
                .filter(|e| e.verdict == verdict);
            let mut reason = c.outcome.summary();
            if reason.chars().count() > 200 {
                reason = reason.chars().take(199).collect::<String>() + "…";
            }
            cases.insert(
                c.id.clone(),
                Entry {
                    verdict,
                    reason: old.map_or(reason, |e| e.reason.clone()),
                    issue: old.and_then(|e| e.issue.clone()),
                },
            );
            Ok(())
        })?;
        Ok(Expectations {
            engine: report.engine.as_ref().map(|e| e.name.clone()),
            cases,
        })
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        format!("{HEADER}{}", crate::yaml::to_string(self))
    }
}
