//! Verdicts: whether a case holds, comparing the expectations of its steps
//! with the observations of a run, and an engine's run with the reference
//! resolver's (engines are run by the `ptoracle` crate; here they are runs).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::edition::Edition;
use crate::error::ResolveError;
use crate::fault::EngineFault;
use crate::observation::{ObjectState, Observation, PlayerState};
use crate::resolver::{self, Mutant, Options, Run};
use crate::scenario::{Case, Expect, Handle, PtOrNone};

/// The outcome of checking one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every expectation holds (and, for an engine, every observation
    /// agrees with the reference resolver's).
    Pass,
    /// Something differs; the mismatches of the first step that differs
    /// come first.
    Fail(Vec<Mismatch>),
    /// The case could not be played: it asks for something impossible, or
    /// the engine crashed, timed out or broke the protocol.
    Error(Problem),
    /// The case does not apply (it holds in other editions only, or the
    /// engine does not implement what it needs).
    Skip(String),
}

/// Why a case ended in an error.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The case itself is impossible (bad input).
    Case(ResolveError),
    /// The engine failed.
    Engine(EngineFault),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Case(e) => e.fmt(f),
            Problem::Engine(e) => e.fmt(f),
        }
    }
}

/// One expectation that does not hold.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Mismatch {
    /// The step, from 0 (written from 1, as a person counts and as
    /// `explain` and the text reports show it, in JSON).
    #[serde(with = "from_one")]
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

/// A step index, from 0 in memory and from 1 in JSON.
mod from_one {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(step: &usize, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(*step as u64 + 1)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
        let n = u64::deserialize(d)?;
        n.checked_sub(1)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| D::Error::custom("steps count from 1"))
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
    compare(case, edition, &run)
}

/// Compares a case's expectations in `edition` with a run of it (from the
/// reference resolver or from an engine).
pub fn compare(case: &Case, edition: Edition, run: &Run) -> Verdict {
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
                compare_step(i, step.expect_for(edition), &outcome.observation, &mut out);
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
                    return Verdict::Error(Problem::Case(err.clone()));
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

/// Compares an engine's run with the reference's and with the case's
/// expectations: the expectations' mismatches first, then the other
/// fields that differ at the first step that differs.
pub fn compare_with_reference(
    case: &Case,
    edition: Edition,
    reference: &Run,
    got: &Run,
) -> Verdict {
    // The expectations count where the reference meets them: a generated
    // case has none, and its silence on errors is no expectation.
    let stated = compare(case, edition, reference) == Verdict::Pass;
    let mut out = match compare(case, edition, got) {
        Verdict::Fail(m) if stated => m,
        _ => Vec::new(),
    };
    let first_step = out.first().map(|m| m.step);
    for m in first_difference(reference, got) {
        let same_step = first_step.is_none_or(|s| s == m.step);
        if same_step && !out.iter().any(|o| o.step == m.step && o.field == m.field) {
            out.push(m);
        }
    }
    out.sort_by_key(|m| m.step);
    if out.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Fail(out)
    }
}

/// The mismatches at the first step where two runs differ.
pub fn first_difference(reference: &Run, got: &Run) -> Vec<Mismatch> {
    let all = differences(reference, got);
    let first = all.first().map(|m| m.step);
    all.into_iter().filter(|m| Some(m.step) == first).collect()
}

/// Every field that differs between two runs of one case, step by step:
/// `expected` is `reference`'s value, `got` the other's. A run that stopped
/// with an error differs in `error` at the step it could not complete.
///
/// ```
/// use ptoracle_core::{Case, Edition, resolver, verdict};
/// let case: Case = serde_json::from_str(r#"{
///   "id": "x/y", "title": "a pump, then a setting effect", "rules": ["613.4b"],
///   "setup": { "objects": [ { "id": "c", "types": ["Creature"], "pt": "2/2" } ] },
///   "steps": [
///     { "do": { "effect": { "affects": ["c"], "modify": "+3/+3", "until": "forever" } } },
///     { "do": { "effect": { "affects": ["c"], "set": "0/1", "until": "forever" } } }
///   ]
/// }"#).unwrap();
/// let run = |e| resolver::resolve(&case, Edition::parse(e).unwrap(), Default::default());
/// let d = verdict::differences(&run("2007-05"), &run("2009-07"));
/// // Its P/T, and what follows from it: the total and the combat damage.
/// let fields: Vec<&str> = d.iter().map(|m| m.field.as_str()).collect();
/// assert_eq!(fields, ["c.pt", "c.total", "c.combat_damage"]);
/// assert!(d.iter().all(|m| m.step == 1));
/// assert_eq!((d[0].expected.as_str(), d[0].got.as_str()), ("0/1", "3/4"));
/// ```
pub fn differences(reference: &Run, got: &Run) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let n = reference.steps.len().max(got.steps.len());
    for k in 0..=n {
        match (reference.steps.get(k), got.steps.get(k)) {
            (Some(r), Some(g)) if r.observation == g.observation => {}
            (Some(r), Some(g)) => {
                let mut step = Vec::new();
                observation_mismatches(k, &r.observation, &g.observation, &mut step);
                out.append(&mut step);
            }
            (Some(_), None) => out.push(Mismatch {
                step: k,
                field: "error".into(),
                expected: "no error".into(),
                got: got
                    .error
                    .as_ref()
                    .map_or("no state".into(), |e| e.to_string()),
            }),
            (None, Some(_)) => out.push(Mismatch {
                step: k,
                field: "error".into(),
                expected: reference
                    .error
                    .as_ref()
                    .map_or("no state".into(), |e| e.code().to_string()),
                got: "a state".into(),
            }),
            (None, None) => {
                let code = |r: &Run| r.error.as_ref().map(|e| e.code());
                if code(reference) != code(got) {
                    out.push(Mismatch {
                        step: k,
                        field: "error".into(),
                        expected: code(reference).unwrap_or("no error").into(),
                        got: got
                            .error
                            .as_ref()
                            .map_or("no error".into(), |e| e.to_string()),
                    });
                }
                break;
            }
        }
    }
    out
}

/// Every field that differs between two observations of one step.
fn observation_mismatches(
    step: usize,
    reference: &Observation,
    got: &Observation,
    out: &mut Vec<Mismatch>,
) {
    let mut push = |field: String, expected: String, got: String| {
        out.push(Mismatch {
            step,
            field,
            expected,
            got,
        });
    };
    let objects = (reference.objects.keys(), got.objects.keys());
    let players = (reference.players.keys(), got.players.keys());
    for (what, (want, have)) in [
        (
            "object",
            (
                objects.0.collect::<BTreeSet<_>>(),
                objects.1.collect::<BTreeSet<_>>(),
            ),
        ),
        ("player", (players.0.collect(), players.1.collect())),
    ] {
        for h in want.difference(&have) {
            push(h.to_string(), format!("a {what}"), "nothing".into());
        }
        for h in have.difference(&want) {
            push(
                h.to_string(),
                "nothing".into(),
                format!("a {what} the case does not have"),
            );
        }
    }
    let expect = diff(got, reference);
    for (h, e) in &expect {
        if let Some(o) = got.objects.get(h) {
            compare_object(h.as_str(), e, o, &mut push);
        } else if let Some(p) = got.players.get(h) {
            compare_player(h.as_str(), e, p, &mut push);
        }
    }
    for (h, r) in &reference.objects {
        let Some(g) = got.objects.get(h) else {
            continue;
        };
        let show = |a: &Option<Handle>| a.as_ref().map_or("nothing".to_string(), |h| h.to_string());
        if r.attached_to != g.attached_to {
            push(
                format!("{h}.attached_to"),
                show(&r.attached_to),
                show(&g.attached_to),
            );
        }
        if r.lki.is_none() && g.lki.is_some() {
            push(
                format!("{h}.lki"),
                "none (the object has not left the battlefield)".into(),
                "last known information".into(),
            );
        }
    }
    out.sort_by_key(|m| field_rank(&m.field));
}

/// The observation fields a mismatch names after its object or player
/// (`ogre.pt`: `pt`; `ogre.lki.pt` names `pt` of the last known
/// information), in the order mismatches are listed: the most telling
/// first, P/T before what follows from it. `""` is a mismatch of the
/// object or player itself (one run has it, the other not).
pub const FIELDS: &[&str] = &[
    "",
    "zone",
    "pt",
    "base_pt",
    "counters",
    "damage",
    "deathtouch_damage",
    "types",
    "keywords",
    "colors",
    "lki",
    "total",
    "combat_damage",
    "tapped",
    "summoning_sick",
    "regeneration_shields",
    "attached_to",
    "life",
    "poison",
    "mana",
    "lost",
    "snow_mana",
    "payments",
    "can_pay",
];

/// Orders mismatches so that the most telling comes first: by object, then
/// by [`FIELDS`].
fn field_rank(field: &str) -> (String, usize, String) {
    let (who, rest) = field.split_once('.').unwrap_or((field, ""));
    let name = rest.split('.').next().unwrap_or("");
    let rank = FIELDS
        .iter()
        .position(|o| *o == name)
        .unwrap_or(FIELDS.len());
    (who.to_string(), rank, rest.to_string())
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
        "summoning_sick",
        e.summoning_sick,
        o.summoning_sick,
    );
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
    let pool = |m: &crate::scenario::ManaPool| m.normalized().to_string();
    field(push, at, "mana", e.mana.as_ref().map(pool), pool(&p.mana));
    field(push, at, "lost", e.lost, p.lost);
    field(
        push,
        at,
        "snow_mana",
        e.snow_mana.as_ref().map(pool),
        pool(&p.snow_mana),
    );
    field(
        push,
        at,
        "payments",
        e.payments.map(Shown::Some),
        Shown::from(p.payments),
    );
    let can_pay = |v: Option<bool>| v.map_or("none (no cost paid)".to_string(), |b| b.to_string());
    field(
        push,
        at,
        "can_pay",
        e.can_pay.map(|b| can_pay(Some(b))),
        can_pay(p.payments.map(|n| n > 0)),
    );
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

/// Expectations of every field of `o`, as a ruling would state them all.
pub fn whole(o: &ObjectState) -> Expect {
    Expect {
        zone: Some(o.zone),
        pt: Some(PtOrNone::from_option(o.pt)),
        base_pt: Some(PtOrNone::from_option(o.base_pt)),
        total: o.total,
        combat_damage: o.combat_damage,
        counters: Some(o.counters.clone()),
        damage: Some(o.damage),
        deathtouch_damage: Some(o.deathtouch_damage),
        keywords: Some(o.keywords.clone()),
        types: Some(o.types.clone()),
        colors: Some(o.colors.clone()),
        tapped: Some(o.tapped),
        regeneration_shields: Some(o.regeneration_shields),
        lki: o.lki.as_ref().map(|l| Box::new(whole(l))),
        ..Expect::default()
    }
}

/// Expectations that turn `actual` into `target`: the fields that differ.
pub fn diff(actual: &Observation, target: &Observation) -> BTreeMap<Handle, Expect> {
    let mut out = BTreeMap::new();
    for (h, t) in &target.objects {
        let Some(a) = actual.objects.get(h) else {
            continue;
        };
        let mut e = Expect::default();
        macro_rules! field {
            ($name:ident, $value:expr) => {
                if a.$name != t.$name {
                    e.$name = Some($value);
                }
            };
        }
        field!(zone, t.zone);
        field!(pt, PtOrNone::from_option(t.pt));
        field!(base_pt, PtOrNone::from_option(t.base_pt));
        field!(counters, t.counters.clone());
        field!(damage, t.damage);
        field!(deathtouch_damage, t.deathtouch_damage);
        // Lists compared as sets, as the verdict compares them: an order
        // alone is no difference to expect.
        macro_rules! set_field {
            ($name:ident) => {
                if set(&a.$name) != set(&t.$name) {
                    e.$name = Some(t.$name.clone());
                }
            };
        }
        set_field!(keywords);
        set_field!(types);
        set_field!(colors);
        field!(tapped, t.tapped);
        field!(regeneration_shields, t.regeneration_shields);
        field!(summoning_sick, t.summoning_sick);
        if a.total != t.total {
            e.total = t.total;
            if t.total.is_none() {
                e.pt = Some(PtOrNone::from_option(t.pt));
            }
        }
        if a.combat_damage != t.combat_damage {
            e.combat_damage = t.combat_damage;
            if t.combat_damage.is_none() {
                e.pt = Some(PtOrNone::from_option(t.pt));
            }
        }
        match (&a.lki, &t.lki) {
            (Some(al), Some(tl)) if al != tl => {
                let inner = diff(
                    &Observation {
                        objects: BTreeMap::from([(h.clone(), (**al).clone())]),
                        players: BTreeMap::new(),
                    },
                    &Observation {
                        objects: BTreeMap::from([(h.clone(), (**tl).clone())]),
                        players: BTreeMap::new(),
                    },
                );
                e.lki = inner.into_values().next().map(Box::new);
            }
            (None, Some(tl)) => e.lki = Some(Box::new(whole(tl))),
            _ => {}
        }
        if e != Expect::default() {
            out.insert(h.clone(), e);
        }
    }
    for (h, t) in &target.players {
        let Some(a) = actual.players.get(h) else {
            continue;
        };
        let mut e = Expect::default();
        if a.life != t.life {
            e.life = Some(t.life);
        }
        if a.poison != t.poison {
            e.poison = Some(t.poison);
        }
        if a.mana.normalized() != t.mana.normalized() {
            e.mana = Some(t.mana.normalized());
        }
        if a.lost != t.lost {
            e.lost = Some(t.lost);
        }
        if a.snow_mana.normalized() != t.snow_mana.normalized() {
            e.snow_mana = Some(t.snow_mana.normalized());
        }
        if a.payments != t.payments {
            e.payments = t.payments;
        }
        if e != Expect::default() {
            out.insert(h.clone(), e);
        }
    }
    out
}
