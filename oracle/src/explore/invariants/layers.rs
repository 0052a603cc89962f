//! The layer system for P/T (613.4) and the values read from it.

use super::*;

pub(super) fn plus_x(s: &Subject<'_>) -> Option<Found> {
    if s.thresholds() || s.switches() {
        return None;
    }
    for (k, step) in s.steps() {
        let Action::Effect(e) = &step.action else {
            continue;
        };
        let (Affects::Objects(v), Some(m), Some(Quantity::Ref(r))) = (&e.affects, e.modify, &e.x)
        else {
            continue;
        };
        let [t] = v.as_slice() else { continue };
        let QuantityRef::PowerOf(of) = r.as_ref() else {
            continue;
        };
        if of != t || step.sba || e.has_early_parts() || e.sets_pt() || e.switch || !m.uses_x() {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        let (b, a) = (before.objects.get(t)?, after.objects.get(t)?);
        if !on_bf(b) || !is_creature(b) {
            continue;
        }
        // 611.2b: an effect lasting while its source is on the battlefield
        // does nothing if the source has already left.
        if let (Some(Until::SourceLeaves), Some(src)) = (e.until, &e.source) {
            if !before.objects.get(src).is_some_and(on_bf) {
                continue;
            }
        }
        let bp = b.pt?;
        let x = if s.edition.rules().clamp_negative_modification {
            bp.power.max(0)
        } else {
            bp.power
        };
        let dp = m.power.value(x)?;
        let dt = m.toughness.value(x)?;
        let want = Pt::new(bp.power.checked_add(dp)?, bp.toughness.checked_add(dt)?);
        if a.pt != Some(want) {
            return Some(
                found(
                    k,
                    format!(
                        "{t} was {bp}; {m} with X = its power ({}) gives {want}, but it is {}",
                        bp.power,
                        PtOrNone::from_option(a.pt)
                    ),
                )
                .expect(t, pt_expect(want)),
            );
        }
    }
    None
}

pub(super) fn mana(s: &Subject<'_>) -> Option<Found> {
    for (k, step) in s.steps() {
        let Action::AddMana(m) = &step.action else {
            continue;
        };
        let (before, after) = (s.before(k)?, s.after(k)?);
        let player = m
            .player
            .clone()
            .unwrap_or_else(|| s.case.setup.players[0].id.clone());
        let amount = dealt(before, &player, &m.amount)?;
        let have = |o: &PlayerState| o.mana.0.get(&m.mana).map_or(0, |c| c.0) as i128;
        let (pb, pa) = (before.players.get(&player)?, after.players.get(&player)?);
        let want = have(pb) + amount as i128;
        if have(pa) != want {
            let mut pool = pb.mana.normalized();
            pool.0.insert(m.mana, Count(i64::try_from(want).ok()?));
            return Some(found(k, format!("{player} had {} {{{}}} and the ability should add {amount}, but the pool holds {}", have(pb), m.mana, have(pa))).expect(&player, Expect { mana: Some(pool.normalized()), ..Expect::default() }));
        }
    }
    None
}

/// A case with more steps at its end.
pub(super) fn extended(case: &Case, steps: impl IntoIterator<Item = Step>) -> Case {
    let mut c = case.clone();
    c.steps.extend(steps);
    c
}

pub(super) fn quiet(action: Action) -> Step {
    Step {
        action,
        sba: false,
        expect: BTreeMap::new(),
        expect_in: BTreeMap::new(),
        expect_error: None,
        note: None,
    }
}

/// A creature on the battlefield at the end of the run, for appended steps.
pub(super) fn last_creature(s: &Subject<'_>) -> Option<(Handle, ObjectState)> {
    if s.run.error.is_some() || s.run.steps.len() != s.case.steps.len() {
        return None;
    }
    let last = s.run.steps.last()?;
    let pick = (s.index as usize) % last.observation.objects.len().max(1);
    let mut creatures = last
        .observation
        .objects
        .iter()
        .filter(|(_, o)| on_bf(o) && is_creature(o));
    let first = creatures.clone().next();
    creatures
        .nth(pick)
        .or(first)
        .map(|(h, o)| (h.clone(), o.clone()))
}

pub(super) fn effect_on(h: &Handle, spec: EffectSpec) -> Action {
    Action::Effect(Box::new(EffectSpec {
        affects: Affects::Objects(vec![h.clone()]),
        until: Some(Until::Forever),
        ..spec
    }))
}

pub(super) fn setting_keeps_modifications(s: &Subject<'_>) -> Option<Found> {
    if s.thresholds() || s.switches() {
        return None;
    }
    let t = s.tail()?;
    // After the two switches (which cancel), the setting effect: 7b under
    // everything in 7c, so base becomes the set value and the rest stays.
    let before = t.after[1].objects.get(&t.creature)?;
    let a = t.after[2].objects.get(&t.creature)?;
    let (bp, bb, set) = (before.pt?, before.base_pt?, t.set);
    let want = Pt::new(
        set.power.checked_add(bp.power.checked_sub(bb.power)?)?,
        set.toughness
            .checked_add(bp.toughness.checked_sub(bb.toughness)?)?,
    );
    if a.pt != Some(want) || a.base_pt != Some(set) {
        let c = &t.creature;
        return Some(found(s.case.steps.len() + 2, format!("{c} was {bp} on base {bb}; becoming {set} should give {want} with base {set}, but it is {} with base {}", PtOrNone::from_option(a.pt), PtOrNone::from_option(a.base_pt))).on(extended(s.case, t.steps.iter().cloned())).expect(c, Expect { pt: Some(PtOrNone::Pt(want)), base_pt: Some(PtOrNone::Pt(set)), ..Expect::default() }));
    }
    None
}

/// Whether an effect step only modifies P/T, by fixed amounts.
pub(super) fn plain_modification(step: &Step) -> bool {
    matches!(&step.action, Action::Effect(e) if e.modify.is_some() && e.x.is_none() && !e.sets_pt() && !e.switch && !e.has_early_parts() && e.timestamp.is_none() && matches!(e.affects, Affects::Objects(_)))
}

/// 604.3a, 613.4b, 613.1f: see the `granted-pt-ability` invariant. Played
/// after the run, without state-based actions, on one creature: either an
/// ability granted with a value that does not change (fixed, or the
/// creature's own +1/+1 counters) against setting that value, or the
/// grant followed by losing all abilities against losing them alone.
pub(super) fn granted_pt_ability(s: &Subject<'_>) -> Option<Found> {
    let (h, before) = last_creature(s)?;
    let turn = s.index / 16;
    let grant = |q: Quantity| {
        quiet(effect_on(
            &h,
            EffectSpec {
                name: Some("Test Granted Rampart".into()),
                grant_pt_ability: Some(ptoracle_core::scenario::Cda {
                    power: Some(q.clone()),
                    toughness: Some(q),
                }),
                ..EffectSpec::default()
            },
        ))
    };
    if turn % 2 == 0 {
        let (q, n) = if turn % 4 == 0 {
            let n = (turn / 4 % 5) as i64;
            (Quantity::Fixed(n), n)
        } else {
            let kind = CounterKind::PLUS_ONE;
            let n = count(&before, &kind);
            let on = ptoracle_core::scenario::CountersOn {
                on: h.clone(),
                kind,
            };
            (Quantity::Ref(Box::new(QuantityRef::Counters(on))), n)
        };
        let setting = quiet(effect_on(
            &h,
            EffectSpec {
                name: Some("becomes a fixed P/T".into()),
                set: Some(ptoracle_core::number::SetPt {
                    power: ptoracle_core::number::Amount::Fixed(n),
                    toughness: ptoracle_core::number::Amount::Fixed(n),
                }),
                ..EffectSpec::default()
            },
        ));
        let granted = grant(q);
        let want = s.extend(std::slice::from_ref(&setting))?;
        let got = s.extend(std::slice::from_ref(&granted))?;
        let (want, got) = (want.first()?, got.first()?);
        if want != got {
            return Some(found(s.case.steps.len() + 1, format!("granting {h} an ability that makes its power and toughness each {n} should change it as setting it to {n}/{n} does (7b, the newest setting effect; 604.3a, 613.4b): {} instead of {}", show_pt(got, &h), show_pt(want, &h))).on(extended(s.case, [granted])).expect_all(diff(want, got)));
        }
        return None;
    }
    let silence = quiet(effect_on(
        &h,
        EffectSpec {
            name: Some("loses all abilities".into()),
            remove_all_abilities: true,
            ..EffectSpec::default()
        },
    ));
    let granted = grant(Quantity::Fixed((turn / 2 % 5) as i64));
    let want = s.extend(std::slice::from_ref(&silence))?;
    let got = s.extend(&[granted.clone(), silence.clone()])?;
    let (want, got) = (want.first()?, got.get(1)?);
    if want != got {
        return Some(found(s.case.steps.len() + 2, format!("{h} lost all abilities after an effect granted it an ability that defines its P/T: that ability is gone too (613.1f), so it should be as if it never had it: {} instead of {}", show_pt(got, &h), show_pt(want, &h))).on(extended(s.case, [granted, silence])).expect_all(diff(want, got)));
    }
    None
}

/// The P/T of `h` in an observation, for messages.
pub(super) fn show_pt(o: &Observation, h: &Handle) -> String {
    PtOrNone::from_option(o.objects.get(h).and_then(|x| x.pt)).to_string()
}

pub(super) fn modifications_commute(s: &Subject<'_>) -> Option<Found> {
    if s.thresholds() {
        return None;
    }
    let k = (0..s.run.steps.len().saturating_sub(1)).find(|&k| {
        let (a, b) = (&s.case.steps[k], &s.case.steps[k + 1]);
        plain_modification(a) && plain_modification(b) && !a.sba && b.expect.is_empty()
    })?;
    let mut variant = s.case.clone();
    variant.steps.swap(k, k + 1);
    variant.steps[k].sba = false;
    variant.steps[k + 1].sba = s.case.steps[k + 1].sba;
    let run = s.resolve(&variant);
    let (mine, theirs) = (s.after(k + 1)?, &run.steps.get(k + 1)?.observation);
    if mine != theirs {
        return Some(found(k + 1, format!("swapping steps {} and {} (two modifications in 7c) changes the state after them", k + 1, k + 2)).on(variant).expect_all(diff(theirs, mine)));
    }
    None
}

pub(super) fn two_switches(s: &Subject<'_>) -> Option<Found> {
    let t = s.tail()?;
    let start = &s.run.steps.last()?.observation;
    let end = &t.after[1];
    if start != end {
        return Some(
            found(
                s.case.steps.len() + 1,
                format!("two switches of {} do not cancel out", t.creature),
            )
            .on(extended(s.case, t.steps[..2].iter().cloned()))
            .expect_all(diff(end, start)),
        );
    }
    None
}

pub(super) fn switch_swaps(s: &Subject<'_>) -> Option<Found> {
    let t = s.tail()?;
    let (c, before) = (&t.creature, &t.before);
    let a = t.after[0].objects.get(c)?;
    let bp = before.pt?;
    let want = Pt::new(bp.toughness, bp.power);
    if a.pt != Some(want) || a.base_pt != before.base_pt || a.counters != before.counters {
        return Some(
            found(
                s.case.steps.len(),
                format!(
                    "{c} was {bp}; one switch should make it {want}, but it is {}",
                    PtOrNone::from_option(a.pt)
                ),
            )
            .on(extended(s.case, t.steps[..1].iter().cloned()))
            .expect(
                c,
                Expect {
                    pt: Some(PtOrNone::Pt(want)),
                    base_pt: before.base_pt.map(PtOrNone::Pt),
                    counters: Some(before.counters.clone()),
                    ..Expect::default()
                },
            ),
        );
    }
    None
}

pub(super) fn base_pt(s: &Subject<'_>) -> Option<Found> {
    let sets_listed = |h: &Handle| {
        s.case.steps.iter().any(|st| match &st.action {
            Action::Effect(e) => {
                e.sets_pt() && matches!(&e.affects, Affects::Objects(v) if v.contains(h))
            }
            Action::Exchange(x) => x.values.iter().any(|v| v.of() == h),
            _ => false,
        }) || becomes_copy(s.case, h)
    };
    let static_sets = s.case.setup.objects.iter().flat_map(|o| o.static_abilities()).any(|a| a.sets_pt())
        || s.case.steps.iter().any(|st| matches!(&st.action, Action::Effect(e) if e.sets_pt() && matches!(e.affects, Affects::Filter(_))));
    if static_sets {
        return None;
    }
    for (k, _) in s.steps() {
        for o in &s.case.setup.objects {
            let Some(printed) = o.pt else { continue };
            // A P/T chosen as it enters (208.2b) is its base P/T, not the printed one.
            // 708.2a: a face-down permanent's base P/T is 2/2.
            if o.cda.is_some()
                || !o.level_up.is_empty()
                || !o.enters_as.is_empty()
                || sets_listed(&o.id)
                || s.turned_over(&o.id)
            {
                continue;
            }
            let st = s.after(k)?.objects.get(&o.id)?;
            if !on_bf(st) || !is_creature(st) {
                continue;
            }
            let want = Pt::new(printed.power.value(0)?, printed.toughness.value(0)?);
            if st.base_pt != Some(want) {
                return Some(
                    found(
                        k,
                        format!(
                            "{} has base P/T {} but nothing sets it: its printed {printed}",
                            o.id,
                            PtOrNone::from_option(st.base_pt)
                        ),
                    )
                    .expect(
                        &o.id,
                        Expect {
                            base_pt: Some(PtOrNone::Pt(want)),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

pub(super) fn noncreature_pt(s: &Subject<'_>) -> Option<Found> {
    for (k, _) in s.steps() {
        for (h, o) in &s.after(k)?.objects {
            if on_bf(o)
                && !is_creature(o)
                && (o.pt.is_some() || o.total.is_some() || o.combat_damage.is_some())
            {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} is not a creature but has P/T {}",
                            PtOrNone::from_option(o.pt)
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            pt: Some(PtOrNone::None),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

pub(super) fn totals(s: &Subject<'_>) -> Option<Found> {
    for (k, _) in s.steps() {
        for (h, o) in &s.after(k)?.objects {
            let want_total = o.pt.map(|p| p.power as i128 + p.toughness as i128);
            let want_damage = o.pt.map(|p| p.power.max(0));
            if o.total.map(|t| t as i128) != want_total || o.combat_damage != want_damage {
                let e = Expect {
                    total: want_total.and_then(|t| i64::try_from(t).ok()),
                    combat_damage: want_damage,
                    ..Expect::default()
                };
                return Some(
                    found(
                        k,
                        format!(
                            "{h} is {} with total {:?} and combat damage {:?}",
                            PtOrNone::from_option(o.pt),
                            o.total,
                            o.combat_damage
                        ),
                    )
                    .expect(h, e),
                );
            }
        }
    }
    None
}

pub(super) fn scaling(s: &Subject<'_>) -> Option<Found> {
    if s.thresholds() || s.switches() {
        return None;
    }
    for (k, step) in s.steps() {
        let (sc, factor, lowers) = match &step.action {
            Action::Double(sc) => (sc, 1i64, s.edition.rules().double_negative_lowers),
            Action::Triple(sc) => (sc, 2, s.edition.rules().triple_negative_lowers),
            _ => continue,
        };
        if step.sba {
            continue;
        }
        let (b, a) = (
            s.before(k)?.objects.get(&sc.affects)?,
            s.after(k)?.objects.get(&sc.affects)?,
        );
        let bp = b.pt?;
        let add = |v: i64| -> Option<i64> {
            if v < 0 && !lowers {
                Some(v)
            } else {
                v.checked_add(v.checked_mul(factor)?)
            }
        };
        let want = match sc.what {
            ScaleWhat::Power => Pt::new(add(bp.power)?, bp.toughness),
            ScaleWhat::Toughness => Pt::new(bp.power, add(bp.toughness)?),
            ScaleWhat::Both => Pt::new(add(bp.power)?, add(bp.toughness)?),
        };
        if a.pt != Some(want) {
            return Some(
                found(
                    k,
                    format!(
                        "{} was {bp}; scaling it by {} should give {want}, but it is {}",
                        sc.affects,
                        factor + 1,
                        PtOrNone::from_option(a.pt)
                    ),
                )
                .expect(&sc.affects, pt_expect(want)),
            );
        }
    }
    None
}
