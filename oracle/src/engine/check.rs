//! Checking an engine: its run of a case against the reference resolver's
//! and the case's expectations.

use std::collections::BTreeSet;
use std::io;

use crate::engine::{Answer, Engine, FaultKind};
use ptoracle_core::edition::Edition;
use ptoracle_core::error::ResolveError;
use ptoracle_core::observation::ObjectState;
use ptoracle_core::resolver::{self, Options, Run};
use ptoracle_core::scenario::Case;
use ptoracle_core::verdict::{Problem, Verdict, compare_with_reference};
use ptoracle_protocol::{Capabilities, Observable};

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
/// are left out), and meet the case's expectations. `known` is the
/// reference's run of `case` when the caller has it already (a replay, a
/// shrink); `None` computes it while the engine plays.
///
/// The one entry point of the gate (its replays and shrinking too),
/// `ptoracle compare`, the in-process harness, `serve`'s tests and the
/// differential fuzz target. A case that needs a feature the engine does not declare is
/// skipped without being sent.
///
/// ```
/// use ptoracle::engine::{Engine, Reference};
/// use ptoracle::resolver::Mutant;
/// use ptoracle::engine::check_engine;
/// use ptoracle::verdict::Verdict;
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
/// assert_eq!(check_engine(case, edition, &mut good, &caps, None).verdict, Verdict::Pass);
/// let mut bad = Reference::new(Some(Mutant::CountersAfterSwitch));
/// let Verdict::Fail(m) = check_engine(case, edition, &mut bad, &caps, None).verdict else { panic!() };
/// assert_eq!(m[0].to_string(), "step 1: c.pt: expected 4/2, got 5/1");
/// ```
pub fn check_engine(
    case: &Case,
    edition: Edition,
    engine: &mut dyn Engine,
    caps: &Capabilities,
    known: Option<Run>,
) -> EngineCheck {
    if let Some(why) = skipped(case, edition, caps) {
        return EngineCheck {
            verdict: Verdict::Skip(why),
            reference: None,
            got: None,
        };
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
        Answer::Fault(f) => match (f.kind, engine.line_limit()) {
            (FaultKind::TooLong, Some(limit)) if reply_longer_than(&reference, limit) => (
                Verdict::Skip(format!(
                    "{TOO_LONG_TO_JUDGE}the reference's reply to it is longer than {limit} bytes too; raise --max-line to play it"
                )),
                None,
            ),
            _ => (Verdict::Error(Problem::Engine(f)), None),
        },
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

/// Why [`check_engine`] skips `case` without sending it, if it does: it
/// holds in other editions, or needs a feature the engine does not declare.
pub fn skipped(case: &Case, edition: Edition, caps: &Capabilities) -> Option<String> {
    if let Some(range) = &case.editions {
        if !range.contains(edition) {
            return Some(format!("holds in editions {range}, not {edition}"));
        }
    }
    let missing = caps.missing(case);
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(|f| f.name()).collect();
        return Some(format!("{MISSING_FEATURES}{}", names.join(", ")));
    }
    None
}

/// How the reason of a case starts that the engine's reply line limit
/// cannot carry (D90).
pub(crate) const TOO_LONG_TO_JUDGE: &str = "a correct reply exceeds the line limit: ";

/// Whether the reply `serve` would write for the reference's `run` is
/// longer than `limit` bytes with its newline (the line the gate reads),
/// counted without building it: 10 000 objects × 100 steps make a reply of
/// hundreds of MiB.
fn reply_longer_than(run: &Run, limit: usize) -> bool {
    struct Count {
        n: usize,
        limit: usize,
    }
    impl io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.n = self.n.saturating_add(buf.len());
            if self.n > self.limit {
                return Err(io::Error::other("over the limit"));
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    // The newline counts against the limit as the gate reads it; sequence
    // number 0 is the shortest, so the reply to any request is as long.
    let mut count = Count { n: 1, limit };
    serde_json::to_writer(&mut count, &crate::serve::ran_reply(0, run)).is_err()
}

/// How the reason of a case skipped for the features it needs starts; the
/// features' names follow, separated by `, `.
pub(crate) const MISSING_FEATURES: &str = "the engine does not implement ";

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

#[cfg(test)]
mod tests {
    use super::*;
    use ptoracle_core::scenario::Handle;
    use ptoracle_core::verdict::diff;

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
        assert_eq!(crate::ruling::expectations_where(&reference, &got), None);
        let c = got.steps[1]
            .observation
            .objects
            .values_mut()
            .next()
            .unwrap();
        c.pt = c.pt.map(|p| ptoracle_core::number::Pt::new(p.power, 0));
        let Verdict::Fail(m) = compare_with_reference(case, Edition::current(), &reference, &got)
        else {
            panic!("a P/T that differs fails");
        };
        let (step, expect, _) = crate::ruling::expectations_where(&reference, &got).unwrap();
        assert_eq!((step, m[0].step), (1, 1));
        let e = &expect[&"c".parse::<Handle>().unwrap()];
        assert!(
            e.pt.is_some() && e.keywords.is_none() && e.types.is_none(),
            "{e:?}"
        );
    }
}
