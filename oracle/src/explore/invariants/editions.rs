//! Relations between runs: across editions, again, and through YAML.

use super::*;

/// What a case uses that some edition reads differently.
#[derive(Default)]
pub(super) struct EditionSensitive {
    double: bool,
    triple: bool,
    keyword_counters: bool,
    hone_counters: bool,
    /// -1/-1 counters, or what makes them (wither, infect, persist).
    minus_counters: bool,
    /// Setting effects, including level up.
    set: bool,
    /// Effects whose affected set depends on power or toughness: which
    /// objects they affect is decided in the sublayer they apply in (613.6),
    /// so moving counters to another sublayer can change it.
    pt_conditions: bool,
    /// Lifelink, a triggered ability before Magic 2010 (2007-05 CR
    /// 502.68a; D37) and static since (702.15b).
    lifelink: bool,
    /// Deathtouch, a triggered ability before Magic 2010 too (2007-05 CR
    /// 502.63a; D37, D71) and a state-based action since (704.5h).
    deathtouch: bool,
    /// A combat damage step with the attacking player's order of
    /// blockers, which the damage assignment order overrides from 2009-07
    /// to 2024-06-07 (509.2, D45).
    divided_combat: bool,
}

impl EditionSensitive {
    fn of(case: &Case) -> EditionSensitive {
        let mut u = EditionSensitive::default();
        let kind = |u: &mut EditionSensitive, k: &CounterKind| match k {
            CounterKind::Keyword(k) => {
                u.keyword_counters = true;
                u.lifelink |= *k == Keyword::Lifelink;
                u.deathtouch |= *k == Keyword::Deathtouch;
            }
            CounterKind::Named(n) if n == "hone" => u.hone_counters = true,
            CounterKind::Pt { power, toughness } if *power < 0 || *toughness < 0 => {
                u.minus_counters = true
            }
            _ => {}
        };
        let keywords = |u: &mut EditionSensitive, ks: &[Keyword]| {
            u.lifelink |= ks.contains(&Keyword::Lifelink);
            u.deathtouch |= ks.contains(&Keyword::Deathtouch);
            if ks
                .iter()
                .any(|k| matches!(k, Keyword::Wither | Keyword::Infect | Keyword::Persist))
            {
                u.minus_counters = true;
            }
        };
        let effect = |u: &mut EditionSensitive, e: &EffectSpec| {
            u.set |= e.sets_pt();
            u.pt_conditions |= matches!(&e.affects, Affects::Filter(f) if f.tests_pt());
            keywords(u, &e.add_keywords);
        };
        for o in &case.setup.objects {
            for k in o.counters.keys().chain(o.enters_with.keys()) {
                kind(&mut u, k);
            }
            keywords(&mut u, &o.keywords);
            for a in o.static_abilities() {
                effect(&mut u, a);
            }
            u.set |= !o.level_up.is_empty();
            for band in &o.level_up {
                keywords(&mut u, &band.keywords);
            }
        }
        for action in case.actions() {
            match action {
                Action::PutCounters(c) => kind(&mut u, &c.kind),
                Action::DoubleCounters(c) => kind(&mut u, &c.kind),
                Action::MoveCounters(c) => kind(&mut u, &c.kind),
                Action::PutCountersFrom(c) => c.kinds.iter().for_each(|k| kind(&mut u, k)),
                Action::Move(m) => m.counters.keys().for_each(|k| kind(&mut u, k)),
                Action::Effect(e) => effect(&mut u, e),
                Action::Double(_) => u.double = true,
                Action::Triple(_) => u.triple = true,
                // 701.12g: an exchange leaves setting effects.
                Action::Exchange(_) => u.set = true,
                // 510.1c: an order or amounts the attacker's controller
                // writes bind only where the damage assignment order does.
                Action::CombatDamageStep(d) => {
                    u.divided_combat |= !d.divide.is_empty() || !d.assign.is_empty()
                }
                _ => {}
            }
        }
        u
    }
}

/// Whether a case is in the domain where two editions agree.
pub(super) type Domain = fn(&EditionSensitive) -> bool;

/// Pairs of editions the digest says agree on a domain, and the domain.
pub(super) const NEUTRAL: &[(&str, &str, Domain)] = &[
    // 613.4 (2020-04-17): counters join 7c, switch becomes 7d; 122.1b
    // keyword counters arrive in the same edition.
    ("2020-01-22", "2020-04-17", |u| {
        !(u.keyword_counters || u.pt_conditions)
    }),
    // 701.10c, 701.11c, 122.1b, 122.1j, 510.1c: what changed after 2017-07-07.
    ("2017-07-07", "2026-09-25", |u| {
        !(u.double
            || u.triple
            || u.keyword_counters
            || u.hone_counters
            || u.pt_conditions
            || u.divided_combat)
    }),
    // 122.1j: hone counters (2026-09-25).
    ("2025-06-06", "2026-09-25", |u| !u.hone_counters),
    // No rule of P/T changed between these two.
    ("2018-04-27", "2020-01-22", |_| true),
    // 613.4 (2009-07): 6b set and pumps in one order (both annihilate
    // counters since 2006-10-01; -1/-1 counters are kept out all the same);
    // 702.15b (2009-07): lifelink became static, a trigger before (D37);
    // 704.5h (2009-07): so did deathtouch (502.63a of 2007-05, D71);
    // 509.2 (2009-07): the damage assignment order binds.
    ("2007-05", "2009-07", |u| {
        !(u.set
            || u.minus_counters
            || u.pt_conditions
            || u.lifelink
            || u.deathtouch
            || u.divided_combat)
    }),
];

pub(super) fn edition_neutral(s: &Subject<'_>) -> Option<Found> {
    let sensitive = EditionSensitive::of(s.case);
    let options = Options {
        mutant: s.mutant,
        ..Options::default()
    };
    // An edition in two pairs is played once, and the campaign's own run
    // is the case played under its edition (a cut case is cut before the
    // step that could not be played, so the two runs have the same steps).
    let mut runs: Vec<(Edition, Cow<'_, Run>)> = vec![(s.edition, Cow::Borrowed(s.run))];
    let mut run_under = |e: Edition| -> usize {
        runs.iter().position(|(x, _)| *x == e).unwrap_or_else(|| {
            runs.push((e, Cow::Owned(resolver::resolve(s.case, e, options))));
            runs.len() - 1
        })
    };
    let mut pairs = Vec::new();
    for (a, b, neutral_on) in NEUTRAL {
        if neutral_on(&sensitive) {
            let (ea, eb) = (Edition::parse(a).ok()?, Edition::parse(b).ok()?);
            pairs.push((a, b, run_under(ea), run_under(eb)));
        }
    }
    for (a, b, ia, ib) in pairs {
        let (ra, rb) = (runs[ia].1.as_ref(), runs[ib].1.as_ref());
        if let Some(m) = ptoracle_core::verdict::differences(ra, rb).first() {
            let mut f = found(
                m.step.min(s.case.steps.len().saturating_sub(1)),
                format!(
                    "editions {a} and {b} should agree here, but after step {} {} is {} under {a} and {} under {b} (check the ruling with --edition {a})",
                    m.step + 1,
                    m.field,
                    m.expected,
                    m.got
                ),
            );
            if let (Some(x), Some(y)) = (ra.steps.get(m.step), rb.steps.get(m.step)) {
                f = f.expect_all(diff(&x.observation, &y.observation));
            }
            return Some(f);
        }
    }
    None
}

pub(super) fn deterministic(s: &Subject<'_>) -> Option<Found> {
    // Resolved again on another thread every 256th case (spawning one
    // costs more than a resolution), on this one otherwise.
    let (case, edition, mutant) = (s.case, s.edition, s.mutant);
    let options = Options {
        observe_setup: true,
        mutant,
        ..Options::default()
    };
    let again = if s.index % 256 == 0 {
        std::thread::scope(|scope| {
            scope
                .spawn(move || resolver::resolve(case, edition, options))
                .join()
        })
        .ok()?
    } else {
        resolver::resolve(case, edition, options)
    };
    for (k, (a, b)) in s.run.steps.iter().zip(&again.steps).enumerate() {
        if a.observation != b.observation {
            return Some(
                found(
                    k,
                    format!(
                        "resolving the case again gives another state after step {}",
                        k + 1
                    ),
                )
                .expect_all(diff(&b.observation, &a.observation)),
            );
        }
    }
    if s.run.steps.len() != again.steps.len() || s.run.error != again.error {
        let k = s.run.steps.len().min(again.steps.len());
        return Some(found(k, "resolving the case again ends differently"));
    }
    None
}

/// What `explore` writes for a case: YAML, as read back by the loader.
pub(crate) fn write_and_read(case: &Case, mutant: Option<Mutant>) -> Result<Case, String> {
    let mut written = case.clone();
    if mutant == Some(Mutant::LossyWriter) {
        for st in &mut written.steps {
            st.sba = true;
        }
    }
    let text = crate::corpus::to_yaml(&written);
    crate::corpus::from_yaml(&text).map_err(|e| e.to_string())
}

pub(super) fn yaml_round_trip(s: &Subject<'_>) -> Option<Found> {
    match write_and_read(s.case, s.mutant) {
        Ok(back) if back == *s.case => None,
        Ok(_) => Some(found(0, "the case written as YAML reads back different")),
        Err(e) => Some(found(
            0,
            format!("the case written as YAML does not read back: {e}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::explore::{Exam, examine};
    use ptoracle_core::Edition;

    /// Found by the `resolve` fuzz target in CI (crash-58c694269f…): a
    /// free division (`assign`) of a blocked attacker's damage is legal
    /// under the current rules and refused where the damage assignment
    /// order binds (510.1c of 2009-07 to 2024-11-08), so the case is not in
    /// the domain where 2017-07-07 and the current rules agree.
    #[test]
    fn free_division_keeps_a_case_out_of_the_2017_edition_neutral_pair() {
        let text = r#"
id: x/free-division-on-the-second-blocker
title: all of an attacker's damage on its second blocker
rules: ["510.1c"]
setup:
  objects:
    - { id: a, types: [Creature], pt: 5/6 }
    - { id: b1, types: [Creature], pt: 1/1, controller: opponent }
    - { id: b2, types: [Creature], pt: 6/3, controller: opponent }
steps:
  - do: { attack: [ { attacker: a, blockers: [b1, b2] } ] }
  - do: { combat_damage_step: { assign: { a: { b2: 5 } } } }
"#;
        let case = crate::corpus::parse_str("x.yaml", text)
            .unwrap()
            .remove(0)
            .case;
        // Index 1 is in edition-neutral's sample.
        let Exam::Checked { violations, .. } = examine(case, Edition::current(), None, 1) else {
            panic!("the case is played");
        };
        let names: Vec<&str> = violations.iter().map(|v| v.invariant.name).collect();
        assert!(!names.contains(&"edition-neutral"), "{names:?}");
    }

    /// Found by `explore --seed 1` (case 12129): deathtouch is a trigger
    /// before Magic 2010 (D71), so 2007-05 marks no deathtouch damage where
    /// 2009-07 does (704.5h).
    #[test]
    fn deathtouch_keeps_a_case_out_of_the_magic_2010_edition_neutral_pair() {
        let text = r#"
id: x/deathtouch-self-damage
title: a creature with deathtouch damages itself
rules: ["704.5h"]
setup:
  objects:
    - { id: o1, types: [Creature], pt: 5/1, keywords: [deathtouch] }
steps:
  - do: { damage: { from: o1, to: o1, amount: 4 } }
"#;
        let case = crate::corpus::parse_str("x.yaml", text)
            .unwrap()
            .remove(0)
            .case;
        let Exam::Checked { violations, .. } = examine(case, Edition::current(), None, 1) else {
            panic!("the case is played");
        };
        let names: Vec<&str> = violations.iter().map(|v| v.invariant.name).collect();
        assert!(!names.contains(&"edition-neutral"), "{names:?}");
    }

    /// Found by `explore --seed 20261121` once lifelink became a trigger
    /// before Magic 2010 (D37): 2007-05 and 2009-07 disagree on a creature
    /// with lifelink that damages itself, and rightly so (702.15b).
    #[test]
    fn lifelink_keeps_a_case_out_of_the_magic_2010_edition_neutral_pair() {
        let text = r#"
id: x/lifelink-self-damage
title: a creature with lifelink damages itself
rules: ["702.15b"]
setup:
  players: [ { id: you, life: 3 }, { id: opponent } ]
  objects:
    - { id: o0, types: [Creature], pt: 2/2, keywords: [lifelink] }
steps:
  - do: { damage: { from: o0, to: o0, amount: 2 } }
    sba: false
"#;
        let case = crate::corpus::parse_str("x.yaml", text)
            .unwrap()
            .remove(0)
            .case;
        let Exam::Checked { violations, .. } = examine(case, Edition::current(), None, 1) else {
            panic!("the case is played");
        };
        let names: Vec<&str> = violations.iter().map(|v| v.invariant.name).collect();
        assert!(!names.contains(&"edition-neutral"), "{names:?}");
    }
}
