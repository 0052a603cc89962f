//! The human summary: a line per case that needs a look, then the counts.

use super::*;

impl Record {
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
    fn attribution_lines(&self, a: &crate::gate::findings::Attribution, out: &mut String) {
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
}

impl Report {
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
}

fn last_lines(s: &str, n: usize) -> Vec<&str> {
    let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}
