//! The edition diff: every case replayed under two editions of the rules,
//! and exactly what changes — the regression report of a rules update.
//!
//! A case is compared when it holds in both editions (its `editions:`
//! range). Each change names the step, the object (or player), the field,
//! the old and new values and the rules involved: those the explanations of
//! that step cite under one edition and not the other (the rules whose
//! reading changed), or else the case's own `rules:`. A change is *pinned*
//! when the ruling's expectations for the two editions differ (its
//! `expect_in`); a change no ruling pins is a ruling that needs per-edition
//! expectations.

use std::fmt::Write;

use serde::Serialize;

use crate::corpus::Loaded;
use crate::explain::rules_cited;
use ptoracle_core::edition::Edition;
use ptoracle_core::resolver::{self, Options, Run};
use ptoracle_core::scenario::Case;
use ptoracle_core::verdict::differences;

/// What changes between two editions over a set of cases.
#[derive(Clone, Debug, Serialize)]
pub struct EditionDiff {
    /// The older edition (any order is allowed; "from" is the baseline).
    pub from: EditionInfo,
    /// The edition compared with it.
    pub to: EditionInfo,
    /// The rules on which the two editions differ.
    pub rules_changed: Vec<String>,
    /// How many cases were given.
    pub cases: usize,
    /// How many hold in both editions and were compared.
    pub compared: usize,
    /// The compared cases whose outcome changes, in the order given.
    pub changed: Vec<CaseDiff>,
    /// Cases that hold in `from` only (their range ends before `to`).
    pub only_from: Vec<String>,
    /// Cases that hold in `to` only.
    pub only_to: Vec<String>,
    /// Cases that hold in neither.
    pub in_neither: usize,
}

/// An edition, as the report shows it.
#[derive(Clone, Debug, Serialize)]
pub struct EditionInfo {
    /// Its id (effective date).
    pub id: String,
    /// What changed in it.
    pub name: String,
}

/// One case whose outcome changes.
#[derive(Clone, Debug, Serialize)]
pub struct CaseDiff {
    /// The case id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Where it is: `file:line:col`.
    pub position: String,
    /// Whether the ruling's expectations differ between the two editions.
    pub pinned: bool,
    /// Every field that changes, step by step.
    pub changes: Vec<Change>,
}

/// One field that changes.
#[derive(Clone, Debug, Serialize)]
pub struct Change {
    /// The step, from 1.
    pub step: usize,
    /// The object or player handle (empty for the run's error).
    pub object: String,
    /// The field: `pt`, `counters`, `lki.pt`, … or `error`.
    pub field: String,
    /// Its value under `from`.
    pub old: String,
    /// Its value under `to`.
    pub new: String,
    /// The rules involved.
    pub rules: Vec<String>,
}

/// Replays `cases` under both editions and reports what changes.
///
/// ```
/// use ptoracle::{Edition, corpus, diff};
/// let case = corpus::parse_str("x.yaml", r#"
/// id: 613.4b/x
/// title: a pump, then a setting effect
/// rules: ["613.4b"]
/// setup: { objects: [ { id: c, types: [Creature], pt: 2/2 } ] }
/// steps:
///   - do: { effect: { affects: [c], modify: +3/+3, until: forever } }
///   - do: { effect: { affects: [c], set: 0/1, until: forever } }
/// "#).unwrap();
/// let r = diff::diff(&case, Edition::parse("2007-05").unwrap(), Edition::parse("2009-07").unwrap());
/// assert_eq!(r.changed.len(), 1);
/// let change = &r.changed[0].changes[0];
/// assert_eq!((change.step, change.object.as_str(), change.field.as_str()), (2, "c", "pt"));
/// assert_eq!((change.old.as_str(), change.new.as_str()), ("0/1", "3/4"));
/// // The layer-7 plan is what changed between the two editions.
/// assert_eq!(change.rules, ["613.4"]);
/// assert!(!r.changed[0].pinned, "the case has no per-edition expectations");
/// ```
pub fn diff(cases: &[Loaded], from: Edition, to: Edition) -> EditionDiff {
    let info = |e: Edition| EditionInfo {
        id: e.id().to_string(),
        name: e.name().to_string(),
    };
    let mut report = EditionDiff {
        from: info(from),
        to: info(to),
        rules_changed: switched(from, to),
        cases: cases.len(),
        compared: 0,
        changed: Vec::new(),
        only_from: Vec::new(),
        only_to: Vec::new(),
        in_neither: 0,
    };
    for loaded in cases {
        let case = &loaded.case;
        let holds = |e: Edition| case.editions.as_ref().is_none_or(|r| r.contains(e));
        match (holds(from), holds(to)) {
            (true, true) => {}
            (true, false) => {
                report.only_from.push(case.id.to_string());
                continue;
            }
            (false, true) => {
                report.only_to.push(case.id.to_string());
                continue;
            }
            (false, false) => {
                report.in_neither += 1;
                continue;
            }
        }
        report.compared += 1;
        if let Some(changes) = case_changes(case, from, to, &report.rules_changed) {
            report.changed.push(CaseDiff {
                id: case.id.to_string(),
                title: case.title.clone(),
                position: loaded.position(),
                pinned: pinned(case, from, to),
                changes,
            });
        }
    }
    report
}

/// The rules the two editions read differently.
fn switched(from: Edition, to: Edition) -> Vec<String> {
    let rules = from.rules().changed_rules(to.rules());
    rules.into_iter().map(String::from).collect()
}

/// The changes of one case, if any.
fn case_changes(
    case: &Case,
    from: Edition,
    to: Edition,
    switched: &[String],
) -> Option<Vec<Change>> {
    let options = Options {
        explain: true,
        ..Options::default()
    };
    let old = resolver::resolve(case, from, options);
    let new = resolver::resolve(case, to, options);
    let found = differences(&old, &new);
    if found.is_empty() {
        return None;
    }
    let case_rules: Vec<String> = case.rules.iter().map(|r| r.as_str().to_string()).collect();
    // The changed rules this case has to do with: those it cites, or that
    // either run's explanation cites (`613.4` stands for `613.4c` too).
    let everywhere: Vec<String> = [&old, &new]
        .iter()
        .flat_map(|r| rules_cited(r.steps.iter().flat_map(|s| &s.explanation)))
        .chain(case_rules.iter().cloned())
        .collect();
    let involved: Vec<&String> = switched
        .iter()
        .filter(|s| everywhere.iter().any(|r| under(r, s)))
        .collect();
    let changes = found
        .into_iter()
        .map(|m| {
            let (object, field) = match m.field.split_once('.') {
                Some((o, f)) => (o.to_string(), f.to_string()),
                None if m.field == "error" => (String::new(), m.field),
                None => (m.field, String::new()),
            };
            let mut rules = changed_rules(&old, &new, m.step);
            for r in &involved {
                if !rules.iter().any(|x| under(x, r)) {
                    rules.push((*r).clone());
                }
            }
            if rules.is_empty() {
                rules = case_rules.clone();
            }
            Change {
                step: m.step + 1,
                object,
                field,
                old: m.expected,
                new: m.got,
                rules,
            }
        })
        .collect();
    Some(changes)
}

/// The rules cited in a step's explanation under one edition and not the
/// other: the readings that changed.
fn changed_rules(old: &Run, new: &Run, step: usize) -> Vec<String> {
    let cited = |run: &Run| {
        rules_cited(
            run.steps
                .get(step)
                .map(|s| s.explanation.as_slice())
                .unwrap_or_default(),
        )
    };
    let (a, b) = (cited(old), cited(new));
    let mut out: Vec<String> = a.iter().filter(|r| !b.contains(r)).cloned().collect();
    out.extend(b.iter().filter(|r| !a.contains(r)).cloned());
    out
}

/// Whether `rule` is `parent` or a rule under it (`613.4c` under `613.4`,
/// not `613.40`).
fn under(rule: &str, parent: &str) -> bool {
    rule.strip_prefix(parent)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_lowercase()))
}

/// Whether the case's expectations differ between the two editions.
fn pinned(case: &Case, from: Edition, to: Edition) -> bool {
    case.steps
        .iter()
        .any(|s| s.expect_for(from) != s.expect_for(to))
}

impl EditionDiff {
    /// The changes no ruling pins.
    pub fn unpinned(&self) -> impl Iterator<Item = &CaseDiff> {
        self.changed.iter().filter(|c| !c.pinned)
    }

    /// The report as text, for a terminal.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "edition diff: {} ({}) → {} ({})",
            self.from.id, self.from.name, self.to.id, self.to.name
        );
        let _ = writeln!(
            out,
            "rules that differ: {}",
            list_or_none(&self.rules_changed)
        );
        let _ = writeln!(out, "{}\n", self.summary());
        for c in &self.changed {
            let pin = if c.pinned {
                ""
            } else {
                "  (no per-edition expectations pin this change)"
            };
            let _ = writeln!(out, "{} — {}{pin}", c.id, c.title);
            let _ = writeln!(out, "  {}", c.position);
            for ch in &c.changes {
                let _ = writeln!(
                    out,
                    "  step {}  {}  {} → {}  [{}]",
                    ch.step,
                    ch.what(),
                    ch.old,
                    ch.new,
                    ch.rules.join(", ")
                );
            }
            out.push('\n');
        }
        self.write_range_lists(&mut out, |id| format!("  {id}\n"));
        out
    }

    /// The report as Markdown: a summary and one table row per change.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# Edition diff: {} → {}\n\n- **from** {}: {}\n- **to** {}: {}\n- **rules that differ**: {}\n\n{}\n",
            self.from.id,
            self.to.id,
            self.from.id,
            self.from.name,
            self.to.id,
            self.to.name,
            list_or_none(&self.rules_changed),
            self.summary()
        );
        if !self.changed.is_empty() {
            out.push_str("| case | step | object | field | old | new | rules |\n");
            out.push_str("|---|---|---|---|---|---|---|\n");
            for c in &self.changed {
                let pin = if c.pinned { "" } else { " ⚠ unpinned" };
                for ch in &c.changes {
                    let _ = writeln!(
                        out,
                        "| `{}`{pin} | {} | {} | {} | {} | {} | {} |",
                        c.id,
                        ch.step,
                        cell(&ch.object),
                        cell(&ch.field),
                        cell(&ch.old),
                        cell(&ch.new),
                        ch.rules.join(", ")
                    );
                }
            }
            out.push('\n');
        }
        self.write_range_lists(&mut out, |id| format!("- `{id}`\n"));
        out
    }

    /// One line: how many cases compared, changed, out of range.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} cases: {} compared, {} changed, {} unchanged",
            self.cases,
            self.compared,
            self.changed.len(),
            self.compared - self.changed.len()
        );
        let unpinned = self.unpinned().count();
        if unpinned > 0 {
            let _ = write!(s, " ({unpinned} changed without per-edition expectations)");
        }
        let _ = write!(
            s,
            "; {} hold only in {}, {} only in {}, {} in neither",
            self.only_from.len(),
            self.from.id,
            self.only_to.len(),
            self.to.id,
            self.in_neither
        );
        s
    }

    fn write_range_lists(&self, out: &mut String, item: impl Fn(&str) -> String) {
        for (ids, e) in [(&self.only_from, &self.from), (&self.only_to, &self.to)] {
            if ids.is_empty() {
                continue;
            }
            let _ = writeln!(out, "Not compared, they hold only in {}:", e.id);
            for id in ids {
                out.push_str(&item(id));
            }
            out.push('\n');
        }
    }
}

impl Change {
    /// `object.field`, or the field alone.
    pub fn what(&self) -> String {
        match (self.object.is_empty(), self.field.is_empty()) {
            (true, _) => self.field.clone(),
            (_, true) => self.object.clone(),
            _ => format!("{}.{}", self.object, self.field),
        }
    }
}

/// A value in a Markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

fn list_or_none(rules: &[String]) -> String {
    if rules.is_empty() {
        "none".into()
    } else {
        rules.join(", ")
    }
}
