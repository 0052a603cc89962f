//! The cleanup step and zone changes (514.2, 400.7).

use super::*;

pub(super) fn cleanup_clears(s: &Subject<'_>) -> Option<Found> {
    for (k, step) in s.steps() {
        if !matches!(step.action, Action::Cleanup) {
            continue;
        }
        let after = s.after(k)?;
        for (h, o) in &after.objects {
            if on_bf(o) && (o.damage != 0 || o.regeneration_shields != 0) {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} has {} damage and {} regeneration shields after cleanup",
                            o.damage, o.regeneration_shields
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            damage: Some(0),
                            regeneration_shields: Some(0),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
        for (h, p) in &after.players {
            if !p.mana.is_empty() {
                return Some(
                    found(k, format!("{h}'s mana pool is {} after cleanup", p.mana)).expect(
                        h,
                        Expect {
                            mana: Some(ManaPool::default()),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

pub(super) fn cleanup_ends_effects(s: &Subject<'_>) -> Option<Found> {
    let cleanup = s
        .steps()
        .find(|(_, st)| matches!(st.action, Action::Cleanup))
        .map(|(k, _)| k)?;
    let reads_pt = |st: &Step| match &st.action {
        Action::Effect(e) => e.x.is_some() || e.timestamp.is_some(),
        Action::Damage(d) => matches!(d.amount, Quantity::Ref(_)),
        Action::AddMana(_)
        | Action::CombatDamage(_)
        | Action::Double(_)
        | Action::Triple(_)
        | Action::Crew(_) => true,
        _ => false,
    };
    let explicit_ts = s.case.setup.objects.iter().any(|o| o.timestamp.is_some());
    // A creature that dies and returns is a new object, and which effects
    // outlive it depends on when that happens: keep to runs where nothing
    // changes zones before the cleanup.
    let returns = s.case.setup.objects.iter().any(|o| o.keywords.iter().any(|k| matches!(k, Keyword::Undying | Keyword::Persist)))
        || s.case.steps.iter().any(|st| matches!(&st.action, Action::Effect(e) if e.add_keywords.iter().any(|k| matches!(k, Keyword::Undying | Keyword::Persist))));
    let moves = s.case.steps[..cleanup]
        .iter()
        .any(|st| matches!(st.action, Action::Move(_)));
    if explicit_ts || returns || moves || s.case.steps[..cleanup].iter().any(reads_pt) {
        return None;
    }
    let zones_hold = |run: &Run, upto: usize| {
        run.steps.iter().take(upto).all(|o| {
            s.case.setup.objects.iter().all(|spec| {
                o.observation
                    .objects
                    .get(&spec.id)
                    .is_some_and(|st| st.zone == spec.zone)
            })
        })
    };
    if !zones_hold(s.run, cleanup) {
        return None;
    }
    let is_eot =
        |st: &Step| matches!(&st.action, Action::Effect(e) if e.until == Some(Until::EndOfTurn));
    let removed: Vec<usize> = (0..cleanup).filter(|&k| is_eot(&s.case.steps[k])).collect();
    let &first = removed.first()?;
    // 611.2c: a later effect with a filter locks in the objects that match
    // as it resolves, and what matches may depend on an "until end of turn"
    // effect; that locked set outlives the cleanup.
    let locks_after = s.case.steps[first..cleanup].iter().any(|st| {
        matches!(&st.action, Action::Effect(e) if !is_eot(st) && matches!(e.affects, Affects::Filter(_)))
    });
    if locks_after {
        return None;
    }
    let mut variant = s.case.clone();
    variant.steps = s
        .case
        .steps
        .iter()
        .enumerate()
        .filter(|(k, _)| !removed.contains(k))
        .map(|(_, st)| st.clone())
        .collect();
    let run = s.resolve(&variant);
    let vk = cleanup - removed.len();
    if !zones_hold(&run, vk) {
        return None;
    }
    let (mine_before, theirs_before) = (
        s.before(cleanup)?,
        if vk == 0 {
            run.initial.as_ref()?
        } else {
            &run.steps.get(vk - 1)?.observation
        },
    );
    // Only P/T-related values may differ before cleanup; anything else
    // (a death, counters, life) would carry past the cleanup.
    let strip = |o: &Observation| {
        let mut o = o.clone();
        for st in o.objects.values_mut() {
            st.pt = None;
            st.base_pt = None;
            st.total = None;
            st.combat_damage = None;
            st.types.clear();
            st.keywords.clear();
            st.colors.clear();
        }
        o
    };
    if strip(mine_before) != strip(theirs_before) {
        return None;
    }
    let (mine, theirs) = (s.after(cleanup)?, &run.steps.get(vk)?.observation);
    if mine != theirs {
        return Some(found(cleanup, "after cleanup the state differs from the same case without its \"until end of turn\" effects").expect_all(diff(mine, theirs)));
    }
    None
}

pub(super) fn zone_change(s: &Subject<'_>) -> Option<Found> {
    // 122.6: entering with counters is putting them on it, so what changes
    // how many counters are put changes what it enters with.
    if s.counter_rules() {
        return None;
    }
    for (k, step) in s.steps() {
        let Action::Move(m) = &step.action else {
            continue;
        };
        if step.sba {
            continue;
        }
        let a = s.after(k)?.objects.get(&m.object)?;
        let spec = s.spec(&m.object)?;
        let mut want = BTreeMap::new();
        if m.to == Zone::Battlefield {
            for (kind, n) in &m.counters {
                want.insert(kind.clone(), n.0);
            }
            if let (Some(l), true) = (spec.loyalty, spec.types.contains(&CardType::Planeswalker)) {
                *want.entry(CounterKind::named("loyalty")).or_insert(0) += l.0;
            }
            // 310.4b: a battle enters with its printed defense.
            if let (Some(d), true) = (spec.defense, spec.types.contains(&CardType::Battle)) {
                *want.entry(CounterKind::named("defense")).or_insert(0) += d.0;
            }
            want.retain(|_, n| *n > 0);
        }
        if a.counters != want || a.damage != 0 || a.tapped || a.regeneration_shields != 0 {
            return Some(
                found(
                    k,
                    format!(
                        "{} moved to the {} and has counters {:?}, {} damage, tapped {}",
                        m.object, m.to, a.counters, a.damage, a.tapped
                    ),
                )
                .expect(
                    &m.object,
                    Expect {
                        counters: Some(want),
                        damage: Some(0),
                        tapped: Some(false),
                        regeneration_shields: Some(0),
                        ..Expect::default()
                    },
                ),
            );
        }
    }
    None
}
