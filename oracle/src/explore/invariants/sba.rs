//! State-based actions and damage (704, 120).

use super::*;

pub(super) fn no_zero_toughness(s: &Subject<'_>) -> Option<Found> {
    for (k, _) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        for (h, o) in &s.after(k)?.objects {
            if on_bf(o) && o.pt.is_some_and(|p| p.toughness <= 0) {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} is on the battlefield with toughness {} after state-based actions",
                            o.pt?.toughness
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            zone: Some(Zone::Graveyard),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

pub(super) fn defeated_battles(s: &Subject<'_>) -> Option<Found> {
    let defense = CounterKind::named("defense");
    // 613.1f, 613.1d: without its abilities or its battle type a Siege has
    // no ability to trigger, and 704.5v puts it into the graveyard.
    let silenced = s.case.actions().any(|a| {
        matches!(a, Action::Effect(e) if e.remove_all_abilities || e.remove_types.contains(&CardType::Battle))
    }) || s.case.setup.objects.iter().flat_map(|o| o.static_abilities()).any(|a| {
        a.remove_all_abilities || a.remove_types.contains(&CardType::Battle)
    });
    for (k, step) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        for (h, a) in &after.objects {
            if !a.types.contains(&CardType::Battle) {
                continue;
            }
            if on_bf(a) && count(a, &defense) == 0 {
                return Some(found(
                    k,
                    format!(
                        "{h} is a battle on the battlefield with defense 0 after state-based actions"
                    ),
                ));
            }
            let removes = match &step.action {
                Action::Damage(d) => d.to == *h,
                Action::CombatDamage(v) => v.iter().any(|d| d.to == *h),
                Action::RemoveCounters(r) => r.from == *h,
                Action::MoveCounters(m) => m.from == *h,
                _ => false,
            };
            let Some(b) = before.objects.get(h) else {
                continue;
            };
            if removes
                && !silenced
                && s.spec(h).is_some_and(is_siege)
                && on_bf(b)
                && !is_creature(b)
                && b.types.contains(&CardType::Battle)
                && count(b, &defense) > 0
                && a.zone == Zone::Graveyard
            {
                return Some(
                    found(
                        k,
                        format!("{h}, a Siege, lost its last defense counter and was put into the graveyard instead of being exiled by its own ability"),
                    )
                    .expect(
                        h,
                        Expect {
                            zone: Some(Zone::Exile),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

pub(super) fn no_lethal_damage(s: &Subject<'_>) -> Option<Found> {
    for (k, _) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        for (h, o) in &s.after(k)?.objects {
            let Some(p) = o.pt else { continue };
            if on_bf(o)
                && p.toughness > 0
                && o.damage >= p.toughness
                && !o.keywords.contains(&Keyword::Indestructible)
            {
                let e = if o.regeneration_shields > 0 {
                    Expect {
                        damage: Some(0),
                        tapped: Some(true),
                        ..Expect::default()
                    }
                } else {
                    Expect {
                        zone: Some(Zone::Graveyard),
                        ..Expect::default()
                    }
                };
                return Some(
                    found(
                        k,
                        format!(
                            "{h} has {} damage and toughness {} after state-based actions",
                            o.damage, p.toughness
                        ),
                    )
                    .expect(h, e),
                );
            }
        }
    }
    None
}

/// The amount a step deals from `from` to `to` as it resolves (none for
/// amounts it can't tell without the resolver).
pub(super) fn dealt(before: &Observation, from: &Handle, amount: &Quantity) -> Option<i64> {
    match amount {
        Quantity::Fixed(n) => Some((*n).max(0)),
        Quantity::Ref(r) => match r.as_ref() {
            QuantityRef::PowerOf(h) => {
                let o = before.objects.get(h)?;
                let pt = if on_bf(o) {
                    o.pt
                } else {
                    o.lki.as_ref().map_or(o.pt, |l| l.pt)
                };
                let _ = from;
                Some(pt.map_or(0, |p| p.power).max(0))
            }
            _ => None,
        },
    }
}

pub(super) fn deathtouch_destroys(s: &Subject<'_>) -> Option<Found> {
    // Before Magic 2010 deathtouch is a trigger of a permanent on the
    // battlefield (502.63a, 402.8 of 2007; D71): a mark left by an earlier
    // step says nothing of whether a trigger waits, a source off the
    // battlefield triggers nothing, and a trigger whose controller lost
    // does nothing (800.4a).
    let triggered = !s.edition.rules().deathtouch_static;
    for (k, step) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        let mut touched: Vec<Handle> = before
            .objects
            .iter()
            .filter(|(_, o)| !triggered && on_bf(o) && o.deathtouch_damage)
            .map(|(h, _)| h.clone())
            .collect();
        let hits: Vec<(Handle, Handle, Option<i64>)> = match &step.action {
            Action::Damage(d) => vec![(
                d.from.clone(),
                d.to.clone(),
                dealt(before, &d.from, &d.amount),
            )],
            Action::CombatDamage(v) => v
                .iter()
                .map(|a| {
                    let p = before
                        .objects
                        .get(&a.from)
                        .and_then(|o| o.pt)
                        .map(|p| p.power.max(0));
                    (a.from.clone(), a.to.clone(), a.amount.map(|c| c.0).or(p))
                })
                .collect(),
            _ => Vec::new(),
        };
        for (from, to, amount) in hits {
            if amount.is_some_and(|a| a > 0)
                && source_keywords(before, &from).contains(&Keyword::Deathtouch)
                && !shielded(before, &to)
                && !s.prevented(k, &to)
                && (!triggered || before.objects.get(&from).is_some_and(on_bf))
            {
                touched.push(to);
            }
        }
        for h in touched {
            let (Some(b), Some(a)) = (before.objects.get(&h), after.objects.get(&h)) else {
                continue;
            };
            let spared = b.keywords.contains(&Keyword::Indestructible)
                || a.keywords.contains(&Keyword::Indestructible)
                || b.regeneration_shields > 0
                || matches!(&step.action, Action::Regenerate(r) if *r == h)
                // 702.79a, 702.93a: the ability may be back by the check
                // (a cleanup ends "loses all abilities"), so look at both sides.
                || [Keyword::Undying, Keyword::Persist]
                    .iter()
                    .any(|kw| b.keywords.contains(kw) || a.keywords.contains(kw))
                || !is_creature(b)
                || !is_creature(a)
                || b.pt.is_some_and(|p| p.toughness <= 0)
                || triggered && after.players.values().any(|p| p.lost);
            if on_bf(b) && on_bf(a) && !spared {
                return Some(found(k, format!("{h} was dealt deathtouch damage and is still on the battlefield after state-based actions")).expect(&h, Expect { zone: Some(Zone::Graveyard), ..Expect::default() }));
            }
        }
    }
    None
}

pub(super) fn damage_keeps_toughness(s: &Subject<'_>) -> Option<Found> {
    for (k, step) in s.steps() {
        let Action::Damage(d) = &step.action else {
            continue;
        };
        if step.sba {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        let kws = source_keywords(before, &d.from);
        if kws.contains(&Keyword::Wither) || kws.contains(&Keyword::Infect) {
            continue;
        }
        for (h, b) in &before.objects {
            let a = after.objects.get(h)?;
            if on_bf(b) && a.pt != b.pt {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} was {} and is {} after being dealt damage",
                            PtOrNone::from_option(b.pt),
                            PtOrNone::from_option(a.pt)
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            pt: Some(PtOrNone::from_option(b.pt)),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

pub(super) fn sba_fixpoint(s: &Subject<'_>) -> Option<Found> {
    let done = s.run.steps.len();
    if done == 0 {
        return None;
    }
    // The same step the examiner keeps a saved state for, on odd indices
    // (even ones continue past the end instead).
    let k = s.index as usize % s.case.steps.len().max(1);
    if k >= done || !s.checked(k) {
        return None;
    }
    let (mine, theirs) = (s.after(k)?, &s.recheck(k)?);
    if mine != theirs {
        return Some(
            found(
                k,
                format!(
                    "checking state-based actions again after step {} changes the state",
                    k + 1
                ),
            )
            .expect_all(diff(mine, theirs)),
        );
    }
    None
}

pub(super) fn lki_before_event(s: &Subject<'_>) -> Option<Found> {
    for (k, step) in s.steps() {
        if !matches!(step.action, Action::StateBasedActions) {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        for (h, b) in &before.objects {
            let a = after.objects.get(h)?;
            if !on_bf(b)
                || on_bf(a)
                || [Keyword::Undying, Keyword::Persist]
                    .iter()
                    .any(|kw| b.keywords.contains(kw))
            {
                continue;
            }
            let indestructible = b.keywords.contains(&Keyword::Indestructible);
            // Before Magic 2010 deathtouch destroys by a trigger, after the
            // first event (502.63a of 2007; D71).
            let deathtouch = b.deathtouch_damage && s.edition.rules().deathtouch_static;
            let first_batch = match b.pt {
                Some(p) if p.toughness <= 0 => true,
                Some(p) => {
                    !indestructible
                        && b.regeneration_shields == 0
                        && (b.damage >= p.toughness || deathtouch)
                }
                None => {
                    b.types.contains(&CardType::Planeswalker)
                        && count(b, &CounterKind::named("loyalty")) == 0
                }
            };
            if !first_batch {
                continue;
            }
            let lki = a.lki.as_deref()?;
            if lki.counters != b.counters || lki.pt != b.pt || lki.damage != b.damage {
                return Some(found(k, format!("{h} died in the first state-based-action event; its last known information should be its state before it")).expect(h, Expect { lki: Some(Box::new(Expect { counters: Some(b.counters.clone()), pt: Some(PtOrNone::from_option(b.pt)), damage: Some(b.damage), ..Expect::default() })), ..Expect::default() }));
            }
        }
    }
    None
}

pub(super) fn players_lose(s: &Subject<'_>) -> Option<Found> {
    for (k, _) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        for (h, p) in &s.after(k)?.players {
            if !p.lost && (p.life <= 0 || p.poison >= 10) {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} has {} life and {} poison counters and has not lost",
                            p.life, p.poison
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            lost: Some(true),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}
