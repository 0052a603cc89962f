//! Prevention shields and shield counters (615.7, 122.1c).

use super::*;

pub(super) fn prevention_shields(s: &Subject<'_>) -> Option<Found> {
    if s.objects_act() {
        return None;
    }
    let source = s.case.setup.objects.first()?.id.clone();
    let creature = last_creature(s);
    let to = match &creature {
        Some((h, o)) if s.index % 32 == 0 => {
            // 122.1c: a shield counter would prevent all of either.
            if count(o, &CounterKind::named("shield")) > 0 {
                return None;
            }
            h.clone()
        }
        _ => s.case.setup.players.first()?.id.clone(),
    };
    let n = 1 + (s.index / 16 % 3) as i64;
    let d = 1 + (s.index / 16 % 5) as i64;
    let damage = |amount: i64| Step {
        sba: true,
        ..quiet(Action::Damage(Damage {
            from: source.clone(),
            to: to.clone(),
            amount: Quantity::Fixed(amount),
        }))
    };
    let shield = quiet(Action::Prevent(Prevention {
        to: to.clone(),
        amount: Count(n),
        name: None,
    }));
    let shielded = vec![shield, damage(d)];
    let mine = s.extend(&shielded)?.pop()?;
    let theirs = s.extend(&[damage((d - n).max(0))])?.pop()?;
    if mine != theirs {
        return Some(
            found(
                s.case.steps.len(),
                format!("a shield for the next {n} damage to {to}, then {d} damage from {source}, should leave the state that {} damage leaves (615.7)", (d - n).max(0)),
            )
            .on(extended(s.case, shielded))
            .expect_all(diff(&theirs, &mine)),
        );
    }
    None
}

pub(super) fn shield_counters(s: &Subject<'_>) -> Option<Found> {
    let shield = CounterKind::named("shield");
    for (k, step) in s.steps() {
        let mut targets: Vec<&Handle> = match &step.action {
            Action::Damage(d) => vec![&d.to],
            Action::CombatDamage(v) => v.iter().map(|a| &a.to).collect(),
            _ => continue,
        };
        targets.sort();
        targets.dedup();
        let (before, after) = (s.before(k)?, s.after(k)?);
        for h in targets {
            if !shielded(before, h) {
                continue;
            }
            let (Some(b), Some(a)) = (before.objects.get(h), after.objects.get(h)) else {
                continue;
            };
            // Undying and persist may return it as a new object, without
            // its counters (400.7).
            let returns = [Keyword::Undying, Keyword::Persist]
                .iter()
                .any(|kw| b.keywords.contains(kw) || a.keywords.contains(kw));
            if returns {
                continue;
            }
            if !on_bf(a) {
                // Nothing but the damage it was spared could take a creature
                // that was alive and undamaged enough, while nothing else
                // changes its P/T or who is in the game.
                let stable = !s.global_pt_sources()
                    && !s.case.actions().any(
                        |x| matches!(x, Action::Effect(e) if e.until == Some(Until::SourceLeaves)),
                    )
                    && !after.players.values().any(|p| p.lost);
                let alive =
                    b.pt.is_some_and(|p| p.toughness > 0 && b.damage < p.toughness)
                        && !b.deathtouch_damage
                        && on_bf(b);
                if stable && alive {
                    return Some(
                        found(
                            k,
                            format!("{h} had {} shield counter(s), yet it left the battlefield in a damage step", count(b, &shield)),
                        )
                        .expect(
                            h,
                            Expect {
                                zone: Some(Zone::Battlefield),
                                ..Expect::default()
                            },
                        ),
                    );
                }
                continue;
            }
            let lost = count(b, &shield) - count(a, &shield);
            if a.damage > b.damage {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} had {} shield counter(s), yet its marked damage went from {} to {}",
                            count(b, &shield),
                            b.damage,
                            a.damage
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            damage: Some(b.damage),
                            ..Expect::default()
                        },
                    ),
                );
            }
            if lost > 1 {
                return Some(found(
                    k,
                    format!(
                        "{h} lost {lost} shield counters to one damage step; one prevents all of it"
                    ),
                ));
            }
        }
    }
    None
}
