//! Verdicts: whether a case holds, comparing the expectations of its steps
//! with the observations of a run.

use std::collections::BTreeMap;
use std::fmt;

use crate::edition::Edition;
use crate::error::ResolveError;
use crate::observation::{ObjectState, Observation, PlayerState};
use crate::resolver::{self, Mutant, Options, Run};
use crate::scenario::{Case, Expect, Handle, PtOrNone};

/// The outcome of checking one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every expectation holds.
    Pass,
    /// Some expectation does not hold; the first mismatch comes first.
    Fail(Vec<Mismatch>),
    /// The case could not be played: it asks for something impossible.
    Error(ResolveError),
    /// The case does not apply (e.g. it holds in other editions only).
    Skip(String),
}

/// One expectation that does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The step, from 0.
    pub step: usize,
    /// What is compared: `ogre.pt`, `ogre.lki.counters`, `you.life`, or `error`.
    pub field: String,
    /// The expected value, as written in rulings.
    pub expected: String,
    /// The value observed.
    pub got: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "step {}: {}: expected {}, got {}",
            self.step + 1,
            self.field,
            self.expected,
            self.got
        )
    }
}

/// Checks a case against the reference resolver under `edition`.
///
/// The entry point shared by the corpus runner, the tests and the CLI.
pub fn check(case: &Case, edition: Edition) -> Verdict {
    check_with(case, edition, None)
}

/// [`check`], against a deliberately broken resolver when `mutant` is set.
pub fn check_with(case: &Case, edition: Edition, mutant: Option<Mutant>) -> Verdict {
    if let Some(range) = &case.editions {
        if !range.contains(edition) {
            return Verdict::Skip(format!("holds in editions {range}, not {edition}"));
        }
    }
    let options = Options {
        mutant,
        ..Options::default()
    };
    let run = resolver::resolve(case, edition, options);
    compare(case, &run)
}

/// Compares a case's expectations with a run of it (from the reference
/// resolver or from an engine).
pub fn compare(case: &Case, run: &Run) -> Verdict {
    let mut out = Vec::new();
    for (i, step) in case.steps.iter().enumerate() {
        match run.steps.get(i) {
            Some(outcome) => {
                if let Some(code) = step.expect_error {
                    out.push(Mismatch {
                        step: i,
                        field: "error".into(),
                        expected: code.name().into(),
                        got: "no error".into(),
                    });
                }
                compare_step(i, &step.expect, &outcome.observation, &mut out);
            }
            None => {
                let Some(err) = &run.error else {
                    out.push(Mismatch {
                        step: i,
                        field: "step".into(),
                        expected: "a state".into(),
                        got: "nothing".into(),
                    });
                    break;
                };
                if let ResolveError::Invalid(_) = err {
                    return Verdict::Error(err.clone());
                }
                if step.expect_error.map(|c| c.name()) != Some(err.code()) {
                    out.push(Mismatch {
                        step: i,
                        field: "error".into(),
                        expected: step
                            .expect_error
                            .map_or("no error".into(), |c| c.name().to_string()),
                        got: err.to_string(),
                    });
                }
                break;
            }
        }
    }
    if out.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Fail(out)
    }
}

fn compare_step(
    step: usize,
    expect: &BTreeMap<Handle, Expect>,
    obs: &Observation,
    out: &mut Vec<Mismatch>,
) {
    for (h, e) in expect {
        let mut push = |field: String, expected: String, got: String| {
            out.push(Mismatch {
                step,
                field,
                expected,
                got,
            });
        };
        if let Some(o) = obs.objects.get(h) {
            compare_object(h.as_str(), e, o, &mut push);
        } else if let Some(p) = obs.players.get(h) {
            compare_player(h.as_str(), e, p, &mut push);
        } else {
            push(
                h.to_string(),
                "an object or player".into(),
                "nothing".into(),
            );
        }
    }
}

/// Compares one field when the expectation gives it.
fn field<T: PartialEq + fmt::Display>(
    push: &mut impl FnMut(String, String, String),
    at: &str,
    name: &str,
    expected: Option<T>,
    got: T,
) {
    if let Some(e) = expected {
        if e != got {
            push(format!("{at}.{name}"), e.to_string(), got.to_string());
        }
    }
}

fn compare_object(
    at: &str,
    e: &Expect,
    o: &ObjectState,
    push: &mut impl FnMut(String, String, String),
) {
    field(push, at, "zone", e.zone, o.zone);
    field(push, at, "pt", e.pt, PtOrNone::from_option(o.pt));
    field(
        push,
        at,
        "base_pt",
        e.base_pt,
        PtOrNone::from_option(o.base_pt),
    );
    field(
        push,
        at,
        "total",
        e.total.map(Shown::Some),
        Shown::from(o.total),
    );
    field(
        push,
        at,
        "combat_damage",
        e.combat_damage.map(Shown::Some),
        Shown::from(o.combat_damage),
    );
    field(
        push,
        at,
        "counters",
        e.counters
            .as_ref()
            .map(|c| list(c.iter().filter(|(_, n)| **n != 0))),
        list(o.counters.iter()),
    );
    field(push, at, "damage", e.damage, o.damage);
    field(
        push,
        at,
        "deathtouch_damage",
        e.deathtouch_damage,
        o.deathtouch_damage,
    );
    field(
        push,
        at,
        "keywords",
        e.keywords.as_ref().map(|k| set(k)),
        set(&o.keywords),
    );
    field(
        push,
        at,
        "types",
        e.types.as_ref().map(|k| set(k)),
        set(&o.types),
    );
    field(
        push,
        at,
        "colors",
        e.colors.as_ref().map(|k| set(k)),
        set(&o.colors),
    );
    field(push, at, "tapped", e.tapped, o.tapped);
    field(
        push,
        at,
        "regeneration_shields",
        e.regeneration_shields,
        o.regeneration_shields,
    );
    if let Some(le) = &e.lki {
        match &o.lki {
            Some(lo) => compare_object(&format!("{at}.lki"), le, lo, push),
            None => push(
                format!("{at}.lki"),
                "last known information".into(),
                "none (the object has not left the battlefield)".into(),
            ),
        }
    }
}

fn compare_player(
    at: &str,
    e: &Expect,
    p: &PlayerState,
    push: &mut impl FnMut(String, String, String),
) {
    field(push, at, "life", e.life, p.life);
    field(push, at, "poison", e.poison, p.poison);
    field(
        push,
        at,
        "mana",
        e.mana.as_ref().map(|m| m.normalized().to_string()),
        p.mana.normalized().to_string(),
    );
    field(push, at, "lost", e.lost, p.lost);
}

/// An optional number, shown as `none` when absent.
#[derive(PartialEq)]
enum Shown {
    Some(i64),
    None,
}

impl From<Option<i64>> for Shown {
    fn from(v: Option<i64>) -> Shown {
        v.map_or(Shown::None, Shown::Some)
    }
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shown::Some(n) => write!(f, "{n}"),
            Shown::None => f.write_str("none"),
        }
    }
}

fn list<'a, K: fmt::Display + 'a>(items: impl Iterator<Item = (&'a K, &'a i64)>) -> String {
    let parts: Vec<String> = items.map(|(k, n)| format!("{k}: {n}")).collect();
    format!("{{{}}}", parts.join(", "))
}

fn set<T: fmt::Display + Ord + Clone>(items: &[T]) -> String {
    let mut v = items.to_vec();
    v.sort();
    v.dedup();
    let parts: Vec<String> = v.iter().map(|t| t.to_string()).collect();
    format!("[{}]", parts.join(", "))
}
