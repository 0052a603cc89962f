//! Verdicts: whether a case holds, comparing the expectations of its steps
//! with the observations of a run, and an engine's run with the reference
//! resolver's.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::edition::Edition;
use crate::engine::{Answer, Engine, EngineFault};
use crate::error::ResolveError;
use crate::observation::{ObjectState, Observation, PlayerState};
use crate::protocol::{Capabilities, Observable};
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

/// An engine's run of a case, checked.
#[derive(Clone, Debug)]
pub struct EngineCheck {
    /// The verdict.
    pub verdict: Verdict,
    /// The reference resolver's run (absent when the case was skipped
    /// before it was played).
    pub reference: Option<Run>,
    /// The engine's run, as it reported it.
    pub got: Option<Run>,
}

/// Checks `engine` on `case`: its run must agree with the reference
/// resolver's on every observation the engine reports (`caps.unobserved`
/// are left out), and meet the case's expectations.
///
/// The one entry point of the gate, `serve`'s tests and the differential
/// fuzz target. A case that needs a feature the engine does not declare is
/// skipped without being sent.
///
/// ```
/// use ptoracle::engine::{Engine, Reference};
/// use ptoracle::resolver::Mutant;
/// use ptoracle::verdict::{check_engine, Verdict};
/// let text = r#"
/// id: demo/switch
/// title: counters apply before the switch
/// rules: ["613.4c", "613.4d"]
/// setup:
///   objects:
///     - { id: c, types: [Creature], pt: 1/4, counters: { +1/+0: 1 } }
/// steps:
///   - do: { effect: { affects: [c], switch: true, until: end-of-turn } }
///     expect: { c: { pt: 4/2 } }
/// "#;
/// let case = &ptoracle::corpus::parse_str("demo.yaml", text).unwrap()[0].case;
/// let edition = ptoracle::Edition::current();
/// let mut good = Reference::new(None);
/// let caps = good.capabilities().unwrap();
/// assert_eq!(check_engine(case, edition, &mut good, &caps).verdict, Verdict::Pass);
/// let mut bad = Reference::new(Some(Mutant::CountersAfterSwitch));
/// let Verdict::Fail(m) = check_engine(case, edition, &mut bad, &caps).verdict else { panic!() };
/// assert_eq!(m[0].to_string(), "step 1: c.pt: expected 4/2, got 5/1");
/// ```
pub fn check_engine(
    case: &Case,
    edition: Edition,
    engine: &mut dyn Engine,
    caps: &Capabilities,
) -> EngineCheck {
    check_engine_given(case, edition, engine, caps, None)
}

/// [`check_engine`] with the reference's run of `case`, when the caller
/// has it already.
pub(crate) fn check_engine_given(
    case: &Case,
    edition: Edition,
    engine: &mut dyn Engine,
    caps: &Capabilities,
    known: Option<Run>,
) -> EngineCheck {
    let skip = |why: String| EngineCheck {
        verdict: Verdict::Skip(why),
        reference: None,
        got: None,
    };
    if let Some(range) = &case.editions {
        if !range.contains(edition) {
            return skip(format!("holds in editions {range}, not {edition}"));
        }
    }
    let missing = caps.missing(case);
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(|f| f.name()).collect();
        return skip(format!(
            "the engine does not implement {}",
            names.join(", ")
        ));
    }
    let mut reference = known;
    let answer = engine.run_alongside(case, edition, &mut || {
        if reference.is_none() {
            reference = Some(resolver::resolve(case, edition, Options::default()));
        }
    });
    let reference =
        reference.unwrap_or_else(|| resolver::resolve(case, edition, Options::default()));
    if let Some(e @ ResolveError::Invalid(_)) = &reference.error {
        return EngineCheck {
            verdict: Verdict::Error(Problem::Case(e.clone())),
            reference: Some(reference),
            got: None,
        };
    }
    let (verdict, got) = match answer {
        Answer::Unsupported(why) => (Verdict::Skip(format!("unsupported: {why}")), None),
        Answer::Fault(f) => (Verdict::Error(Problem::Engine(f)), None),
        Answer::Ran(mut got) => {
            fill_unobserved(&mut got, &reference, &caps.unobserved);
            (
                compare_with_reference(case, edition, &reference, &got),
                Some(got),
            )
        }
    };
    EngineCheck {
        verdict,
        reference: Some(reference),
        got,
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
/// use ptoracle::{Edition, corpus, resolver, verdict};
/// let case = corpus::parse_str("x.yaml", r#"
/// id: x/y
/// title: a pump, then a setting effect
/// rules: ["613.4b"]
/// setup: { objects: [ { id: c, types: [Creature], pt: 2/2 } ] }
/// steps:
///   - do: { effect: { affects: [c], modify: +3/+3, until: forever } }
///   - do: { effect: { affects: [c], set: 0/1, until: forever } }
/// "#).unwrap().remove(0).case;
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

/// Orders mismatches so that the most telling comes first: by object, then
/// P/T before what follows from it.
fn field_rank(field: &str) -> (String, usize, String) {
    const ORDER: &[&str] = &[
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
    let (who, rest) = field.split_once('.').unwrap_or((field, ""));
    let name = rest.split('.').next().unwrap_or("");
    let rank = ORDER.iter().position(|o| *o == name).unwrap_or(ORDER.len());
    (who.to_string(), rank, rest.to_string())
}

/// Gives the fields an engine does not report the reference's values, so
/// that no comparison sees them.
fn fill_unobserved(got: &mut Run, reference: &Run, unobserved: &BTreeSet<Observable>) {
    if unobserved.is_empty() {
        return;
    }
    for (g, r) in got.steps.iter_mut().zip(&reference.steps) {
        for (h, go) in &mut g.observation.objects {
            if let Some(ro) = r.observation.objects.get(h) {
                fill_object(go, ro, unobserved);
            }
        }
        for (h, gp) in &mut g.observation.players {
            let Some(rp) = r.observation.players.get(h) else {
                continue;
            };
            for u in unobserved {
                match u {
                    Observable::Life => gp.life = rp.life,
                    Observable::Poison => gp.poison = rp.poison,
                    Observable::Mana => gp.mana = rp.mana.clone(),
                    Observable::Lost => gp.lost = rp.lost,
                    Observable::SnowMana => gp.snow_mana = rp.snow_mana.clone(),
                    Observable::Payments => gp.payments = rp.payments,
                    _ => {}
                }
            }
        }
    }
}

fn fill_object(g: &mut ObjectState, r: &ObjectState, unobserved: &BTreeSet<Observable>) {
    for u in unobserved {
        match u {
            Observable::Zone => g.zone = r.zone,
            Observable::Types => g.types = r.types.clone(),
            Observable::Colors => g.colors = r.colors.clone(),
            Observable::Power => g.pt = r.pt,
            Observable::BasePower => g.base_pt = r.base_pt,
            Observable::Total => g.total = r.total,
            Observable::CombatDamage => g.combat_damage = r.combat_damage,
            Observable::Counters => g.counters = r.counters.clone(),
            Observable::Damage => g.damage = r.damage,
            Observable::DeathtouchDamage => g.deathtouch_damage = r.deathtouch_damage,
            Observable::Keywords => g.keywords = r.keywords.clone(),
            Observable::Tapped => g.tapped = r.tapped,
            Observable::RegenerationShields => g.regeneration_shields = r.regeneration_shields,
            Observable::AttachedTo => g.attached_to = r.attached_to.clone(),
            Observable::SummoningSick => g.summoning_sick = r.summoning_sick,
            Observable::Lki => g.lki = r.lki.clone(),
            Observable::Life
            | Observable::Poison
            | Observable::Mana
            | Observable::Lost
            | Observable::SnowMana
            | Observable::Payments => {}
        }
    }
    if let (Some(gl), Some(rl)) = (&mut g.lki, &r.lki) {
        fill_object(gl, rl, unobserved);
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

pub(crate) fn whole(o: &ObjectState) -> Expect {
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
pub(crate) fn diff(actual: &Observation, target: &Observation) -> BTreeMap<Handle, Expect> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A shrunk ruling stops where the runs first differ as the verdict
    /// sees it: keywords, types and colors in another order are no
    /// difference, or the ruling would stop there and then pass.
    #[test]
    fn the_shrinker_stops_where_the_verdict_sees_a_difference_not_at_an_order() {
        let case = &crate::corpus::parse_str(
            "x.yaml",
            "id: x/y\ntitle: t\nrules: [\"613.4c\"]\nsetup: { objects: [ { id: c, types: [Artifact, Creature], colors: [white, blue], keywords: [flying, trample], pt: 2/2 } ] }\nsteps:\n  - do: state_based_actions\n  - do: { effect: { affects: [c], modify: +1/+1, until: forever } }\n",
        )
        .unwrap()[0]
            .case;
        let reference = resolver::resolve(case, Edition::current(), Options::default());
        let mut got = reference.clone();
        for s in &mut got.steps {
            let c = s.observation.objects.values_mut().next().unwrap();
            c.keywords.reverse();
            c.types.reverse();
            c.colors.reverse();
        }
        assert!(diff(&got.steps[0].observation, &reference.steps[0].observation).is_empty());
        assert_eq!(
            compare_with_reference(case, Edition::current(), &reference, &got),
            Verdict::Pass
        );
        assert_eq!(
            crate::explore::campaign::expectations_where(&reference, &got),
            None
        );
        let c = got.steps[1]
            .observation
            .objects
            .values_mut()
            .next()
            .unwrap();
        c.pt = c.pt.map(|p| crate::number::Pt::new(p.power, 0));
        let Verdict::Fail(m) = compare_with_reference(case, Edition::current(), &reference, &got)
        else {
            panic!("a P/T that differs fails");
        };
        let (step, expect, _) =
            crate::explore::campaign::expectations_where(&reference, &got).unwrap();
        assert_eq!((step, m[0].step), (1, 1));
        let e = &expect[&"c".parse::<Handle>().unwrap()];
        assert!(
            e.pt.is_some() && e.keywords.is_none() && e.types.is_none(),
            "{e:?}"
        );
    }
}
