//! The JUnit XML report (`--junit`).

use super::*;

impl Report {
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
