//! The counts of a run, and the skip reasons by count.

use super::*;

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
