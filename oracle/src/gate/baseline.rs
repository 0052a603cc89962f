//! Baseline mode: what changed between two JSON reports of the gate (an
//! engine's last release and its pull request, say): what got fixed, what
//! broke, and new crashes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::report::{Kind, Outcome, REPORT_VERSION, Record, Report, Summary};
use crate::printable::printable;

/// The differences between two reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Failed or erred before, pass now.
    pub fixed: Vec<String>,
    /// Passed (or was skipped) before, fails (or is flaky) now: (id, what
    /// differs).
    pub broke: Vec<(String, String)>,
    /// Did not err before, errs now: (id, kind and message).
    pub new_errors: Vec<(String, String)>,
    /// Failed or erred before and still does.
    pub still_failing: usize,
    /// Ran before, skipped now: (id, why).
    pub newly_skipped: Vec<(String, String)>,
    /// Only in the new report.
    pub added: Vec<String>,
    /// Only in the old report.
    pub removed: Vec<String>,
}

impl Changes {
    /// Whether anything got worse.
    pub fn worse(&self) -> bool {
        !self.broke.is_empty() || !self.new_errors.is_empty()
    }
}

/// The largest JSON report read, in bytes: a failing record takes about
/// 1.4 KB (5 KB at most) in a `gate --generated` run, so a run of 100 000
/// generated cases that all fail stays well within it; what goes beyond is
/// not a report (a device, a runaway writer).
pub const MAX_REPORT_BYTES: u64 = 1 << 30;

/// Reads a JSON report (of this ptoracle's layout version) and checks that
/// it agrees with itself ([`verify`]). Only a regular file of at most
/// [`MAX_REPORT_BYTES`] is read, with the corpus loader's checks
/// ([`crate::corpus::read_file`]): a FIFO or a device is an error, never a
/// read that blocks or does not end.
pub fn load(path: &Path) -> Result<Report, String> {
    let unreadable = |e: String| format!("{}: {e}", path.display());
    let bytes =
        crate::corpus::read_file(path, MAX_REPORT_BYTES, "gate JSON report").map_err(unreadable)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| unreadable("not a ptoracle gate JSON report: it is not UTF-8 text".into()))?;
    #[derive(serde::Deserialize)]
    struct Version {
        report_version: u32,
    }
    if let Ok(Version { report_version: v }) = serde_json::from_str::<Version>(&text) {
        if v != REPORT_VERSION {
            return Err(format!(
                "{}: a report of layout version {v}; this ptoracle reads version {REPORT_VERSION}: make both reports with the same ptoracle",
                path.display()
            ));
        }
    }
    let report: Report = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}:{}: not a ptoracle gate JSON report: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    verify(&report).map_err(|why| format!("{}: {why}", path.display()))?;
    Ok(report)
}

/// Whether a report read from a file says of itself what its records say:
/// one record per case id, its `summary` is the count of its `cases` (a gate writes nothing else),
/// and cases it did not play are accounted for. What `matrix` draws and
/// `baseline` compares is then the records' word, never a summary edited
/// by hand or damaged on the way: a report that disagrees with itself is
/// refused, not drawn.
pub fn verify(report: &Report) -> Result<(), String> {
    // One record per case: a second would be dropped, unseen, by whatever
    // reads the report by id.
    let mut seen: std::collections::HashMap<&str, usize> =
        std::collections::HashMap::with_capacity(report.cases.len());
    for (n, c) in report.cases.iter().enumerate() {
        if let Some(first) = seen.insert(c.id.as_str(), n) {
            return Err(format!(
                "case `{}` is recorded twice (records {} and {}): a report has one record per case",
                printable(&c.id),
                first + 1,
                n + 1
            ));
        }
    }
    let claimed = report.summary;
    let counted = Summary::of(&report.cases, claimed.discarded, claimed.not_run);
    let (claimed_v, counted_v) = (
        serde_json::to_value(claimed).unwrap_or_default(),
        serde_json::to_value(counted).unwrap_or_default(),
    );
    if let (Some(a), Some(b)) = (claimed_v.as_object(), counted_v.as_object()) {
        for (field, said) in a {
            let records = b.get(field).cloned().unwrap_or_default();
            if *said != records {
                return Err(format!(
                    "its summary does not match its records: `summary.{field}` says {said}, its {} records count {records}; a report's summary is the count of its cases (was the report edited?)",
                    report.cases.len()
                ));
            }
        }
    }
    if claimed.not_run > 0 && !report.interrupted && report.stopped.is_none() {
        return Err(format!(
            "`summary.not_run` says {} cases were not played, but the run was neither interrupted nor stopped (was the report edited?)",
            claimed.not_run
        ));
    }
    let drawn = report.generated.map_or(0, |g| g.cases);
    if claimed.discarded as u64 > drawn {
        return Err(format!(
            "`summary.discarded` says {} generated indices gave no case, but the run drew {drawn} (was the report edited?)",
            claimed.discarded
        ));
    }
    Ok(())
}

/// Compares two reports case by case (by id).
pub fn compare(old: &Report, new: &Report) -> Changes {
    let before: BTreeMap<&str, &Record> = old.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let after: BTreeMap<&str, &Record> = new.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut ch = Changes::default();
    for (id, a) in &after {
        let Some(b) = before.get(id) else {
            ch.added.push(id.to_string());
            continue;
        };
        let (was, now) = (b.outcome.kind(), a.outcome.kind());
        let bad = Kind::bad;
        match (was, now) {
            (w, Kind::Pass) if bad(w) => ch.fixed.push(id.to_string()),
            (w, n) if bad(w) && bad(n) => {
                ch.still_failing += 1;
                if w != Kind::Error && n == Kind::Error {
                    ch.new_errors.push((id.to_string(), a.outcome.summary()));
                }
            }
            (_, Kind::Fail | Kind::Flaky) => ch.broke.push((id.to_string(), a.outcome.summary())),
            (_, Kind::Error) => ch.new_errors.push((id.to_string(), a.outcome.summary())),
            (Kind::Pass | Kind::Fail | Kind::Flaky | Kind::Error, Kind::Skip) => {
                if let Outcome::Skip { reason } = &a.outcome {
                    ch.newly_skipped.push((id.to_string(), reason.clone()));
                }
            }
            _ => {}
        }
    }
    for id in before.keys() {
        if !after.contains_key(id) {
            ch.removed.push(id.to_string());
        }
    }
    ch
}

/// The comparison as text, ending with one summary line.
pub fn render(ch: &Changes) -> String {
    let mut out = String::new();
    for id in &ch.fixed {
        let _ = writeln!(out, "FIXED {id}");
    }
    for (id, what) in &ch.broke {
        let _ = writeln!(out, "BROKE {id}: {}", printable(what));
    }
    for (id, what) in &ch.new_errors {
        let _ = writeln!(out, "NEW ERROR {id}: {}", printable(what));
    }
    for (id, why) in &ch.newly_skipped {
        let _ = writeln!(out, "NOW SKIPPED {id}: {}", printable(why));
    }
    if !ch.added.is_empty() {
        let _ = writeln!(out, "{} cases only in the new report", ch.added.len());
    }
    if !ch.removed.is_empty() {
        let _ = writeln!(out, "{} cases only in the old report", ch.removed.len());
    }
    let _ = writeln!(
        out,
        "{} fixed, {} broke, {} new errors, {} still failing",
        ch.fixed.len(),
        ch.broke.len(),
        ch.new_errors.len(),
        ch.still_failing
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(verdict: &str) -> Report {
        let case = match verdict {
            "flaky" | "fail" => serde_json::json!({"verdict": verdict, "mismatches": [
                {"step": 1, "field": "c.pt", "expected": "1/1", "got": "2/1"}]}),
            _ => serde_json::json!({"verdict": verdict}),
        };
        let mut case = case.as_object().unwrap().clone();
        for (k, v) in [("id", "a/b"), ("source", "a.yaml#a/b")] {
            case.insert(k.into(), v.into());
        }
        case.insert("rules".into(), serde_json::json!([]));
        case.insert("ms".into(), 0.into());
        serde_json::from_value(serde_json::json!({
            "report_version": REPORT_VERSION, "ptoracle": "0", "protocol": 1, "edition": "e",
            "jobs": 1, "elapsed_ms": 0, "interrupted": false,
            "summary": {"passed": 0, "failed": 0, "errored": 0, "skipped": 0,
                "discarded": 0, "not_run": 0, "known": 0, "unexpected": 0,
                "fixed": 0, "changed": 0},
            "cases": [case],
        }))
        .unwrap()
    }

    #[test]
    fn a_case_that_turns_flaky_broke_and_one_that_passes_again_is_fixed() {
        let broke = compare(&report("pass"), &report("flaky"));
        assert_eq!(broke.broke.len(), 1, "{broke:?}");
        assert!(broke.worse());
        let fixed = compare(&report("flaky"), &report("pass"));
        assert_eq!(fixed.fixed, ["a/b"]);
        assert_eq!(compare(&report("flaky"), &report("fail")).still_failing, 1);
    }
}
