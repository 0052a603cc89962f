//! An engine's expectations file: the cases it is known to fail or err on
//! (and, in files written by hand or by older versions, to skip), each with
//! a reason and optionally an issue URL, so that it can adopt the gate on
//! day one and only improve. A listed case that starts passing is reported
//! as fixed; one whose verdict changes is reported as changed.
//!
//! The file `--write-expectations` writes lists what an author acts on:
//! every failure, flaky case and error. A skip fails no gate, and one that
//! starts failing or erring is not listed and so fails it: listing skips
//! would add nothing to the ratchet, only lines nobody annotates. They are
//! counted by reason in a comment instead, except those the previous file
//! listed (their reasons are an author's). Ids are in natural order
//! (`1/72` before `1/719`, `613.4d` before `613.10`).
//!
//! ```yaml
//! engine: my-engine
//! cases:
//!   613.4d/counters-before-switch:
//!     verdict: fail
//!     reason: counters are added after the switch
//!     issue: https://example.org/my-engine/issues/12
//! ```

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::report::{Expectation, Kind, Reasons, Record, Report, reason_lines};
use ptoracle_core::error::LoadError;

/// An expectations file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// The engine it is for (informative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The listed cases, by id (written in natural order, see
    /// [`natural_cmp`]).
    #[serde(default, serialize_with = "in_natural_order")]
    pub cases: BTreeMap<String, Entry>,
    /// How many skips of the run it was written from it does not list,
    /// and their reasons, the most frequent first, each with how many cases
    /// gave it (see [`Expectations::from_report`]; a case skipped for
    /// several features it needs counts under each): a comment of the
    /// file, not read back.
    #[serde(skip)]
    pub unlisted_skips: (usize, Vec<(String, usize)>),
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
    /// The registered findings that explained all of it when it was
    /// written (`gate --findings`): the case is known by them, and it fails
    /// the gate if it gains a mismatch no finding explains.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<String>,
    /// The adapter limitations that explained part of it with them (D100):
    /// the ratchet holds for them as for findings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limitations: Vec<String>,
}

const HEADER: &str = "\
# ptoracle gate expectations: the cases this engine is known to fail or err
# on. The gate passes while every failure and error is listed here; a listed
# case that passes is reported as fixed (remove it). Written by
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
    /// lists it. See [`mark`].
    pub fn mark(&self, record: &mut Record) -> bool {
        mark(Some(self), false, record)
    }

    /// The listed ids that are not in `seen`.
    pub fn unplayed(&self, seen: &BTreeSet<String>) -> Vec<String> {
        self.cases
            .keys()
            .filter(|id| !seen.contains(*id))
            .cloned()
            .collect()
    }

    /// The expectations file of `report`: every case that failed, was
    /// flaky or erred, keeping the reasons and issues of `previous` where
    /// the verdict is the same. A skip is listed only where `previous`
    /// lists it as one; the others are counted by reason in
    /// [`Expectations::unlisted_skips`]. One entry per case listed (an id
    /// and a reason of at most 200 characters): the file is no larger than
    /// [`MAX_BYTES`] can read back.
    pub fn from_report(
        report: &Report,
        previous: Option<&Expectations>,
    ) -> std::io::Result<Expectations> {
        let mut cases = BTreeMap::new();
        let mut skips = Reasons::default();
        let mut skipped = 0;
        report.for_each(&mut |c| {
            let verdict = c.outcome.kind();
            if verdict == Kind::Pass {
                return Ok(());
            }
            let old = previous
                .and_then(|p| p.cases.get(&c.id))
                .filter(|e| e.verdict == verdict);
            if verdict == Kind::Skip && old.is_none() {
                skipped += 1;
                skips.add_skip_by_feature(c);
                return Ok(());
            }
            let known = c.attribution.as_ref().filter(|a| a.known);
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
                    findings: known.map(|a| a.findings.clone()).unwrap_or_default(),
                    limitations: known.map(|a| a.limitations.clone()).unwrap_or_default(),
                },
            );
            Ok(())
        })?;
        Ok(Expectations {
            engine: report.engine.as_ref().map(|e| e.name.clone()),
            cases,
            unlisted_skips: (skipped, skips.by_count()),
        })
    }

    /// The file's text: the header, the skips not listed, the entries.
    pub fn to_text(&self) -> String {
        let mut skips = String::new();
        let (n, reasons) = &self.unlisted_skips;
        if *n > 0 {
            skips = format!(
                "#\n# Not listed: {n} skipped case{}. A skip fails no gate; a skipped case\n# that starts failing or erring is not listed, so it does. By the\n# features they need (a case may need several) or the engine's reasons:\n{}",
                if *n == 1 { "" } else { "s" },
                reason_lines(reasons, "#", "")
            );
        }
        format!("{HEADER}{skips}{}", crate::yaml::to_string(self))
    }
}

/// Marks `record` with what `expectations` say of it, and of what its
/// attribution says (`attributed`: the gate was given the findings
/// register); whether the file lists it. A failure or error that findings
/// explain whole is known whether listed or not (`Explained` when not); a
/// listed one whose entry names the findings that explained it and that
/// now has a mismatch none explains is `Unexplained`: the ratchet on known
/// bugs.
pub fn mark(expectations: Option<&Expectations>, attributed: bool, record: &mut Record) -> bool {
    let kind = record.outcome.kind();
    let listed = expectations.and_then(|e| e.cases.get(&record.id));
    let explained = record.attribution.as_ref().is_some_and(|a| a.known);
    record.expectation = match listed {
        None if kind.bad() && explained => Some(Expectation::Explained),
        None if kind.bad() => Some(Expectation::Unexpected),
        None => None,
        Some(e)
            if e.verdict == kind
                && attributed
                && !(e.findings.is_empty() && e.limitations.is_empty())
                && !explained =>
        {
            Some(Expectation::Unexplained)
        }
        Some(e) if e.verdict == kind => Some(Expectation::Known),
        Some(_) if kind == Kind::Pass => Some(Expectation::Fixed),
        Some(_) => Some(Expectation::Changed),
    };
    // Without a file or a register, nothing is said of a record (the
    // summary counts its failures as unexpected all the same).
    if expectations.is_none() && !attributed {
        record.expectation = None;
    }
    listed.is_some()
}

/// Orders case ids as a person reads them: runs of digits by their value
/// (`1/72` before `1/719`, `613.4d` before `613.10`, `generated/3/9` before
/// `generated/3/10`), everything else as text; ids that differ only in
/// leading zeros by their text.
///
/// ```
/// use ptoracle::gate::expectations::natural_cmp;
/// let mut ids = vec!["1/719", "613.10/a", "1/72", "613.4d/b", "1/072"];
/// ids.sort_by(|a, b| natural_cmp(a, b));
/// assert_eq!(ids, ["1/072", "1/72", "1/719", "613.4d/b", "613.10/a"]);
/// ```
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let (m, rest_x) = split_digits(x);
                let (n, rest_y) = split_digits(y);
                // Compared by value without parsing (any length): fewer
                // significant digits is smaller, then digit by digit.
                let (m, n) = (trim_zeros(m), trim_zeros(n));
                let by_value = m.len().cmp(&n.len()).then_with(|| m.cmp(n));
                if by_value != Ordering::Equal {
                    return by_value;
                }
                (x, y) = (rest_x, rest_y);
            }
            (Some(c), Some(d)) if c != d => return c.cmp(d),
            _ => (x, y) = (&x[1..], &y[1..]),
        }
    }
}

/// The leading digits of `s`, and the rest.
fn split_digits(s: &[u8]) -> (&[u8], &[u8]) {
    s.split_at(s.iter().take_while(|b| b.is_ascii_digit()).count())
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|&&b| b == b'0').count();
    &digits[zeros..]
}

/// Serializes the listed cases in [`natural_cmp`] order.
fn in_natural_order<S: serde::Serializer>(
    cases: &BTreeMap<String, Entry>,
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut ids: Vec<&String> = cases.keys().collect();
    ids.sort_by(|a, b| natural_cmp(a, b));
    let mut map = s.serialize_map(Some(ids.len()))?;
    for id in ids {
        map.serialize_entry(id, &cases[id])?;
    }
    map.end()
}
