//! Combat damage (510): assignment, who deals it and who is dealt it.

use super::*;

/// The combat the `combat-assignment` and `removed-from-combat` relations
/// declare at the end of a case: who attacks, who blocks, what the
/// attacking player asks for, and the steps that prepare it.
pub(super) struct Declared {
    n: usize,
    you: Handle,
    opponent: Handle,
    bits: u64,
    prelude: Vec<Step>,
    decl: Vec<AttackDeclaration>,
    divide: BTreeMap<Handle, Vec<Handle>>,
}

/// Each step checks state-based actions, as a real combat would.
fn checked(action: Action) -> Step {
    Step {
        sba: true,
        ..quiet(action)
    }
}

/// Steps played in the declared combat before one of its damage steps
/// (`at`: 0 before the first, 1 before the second), meant to remove
/// `of` from combat (506.4).
pub(super) struct Removal {
    at: usize,
    steps: Vec<Step>,
    of: Handle,
}

pub(super) fn declared(s: &Subject<'_>) -> Option<Declared> {
    if s.objects_act() {
        return None;
    }
    let n = s.case.steps.len();
    let end = s.after(n.checked_sub(1)?)?;
    let you = s.case.setup.players.first()?.id.clone();
    let opponent = s.case.setup.players.get(1)?.id.clone();
    let mut attackers = Vec::new();
    let mut blockers = Vec::new();
    for (h, o) in &end.objects {
        if !on_bf(o) || !is_creature(o) || o.tapped || s.control_may_change(h, n) {
            continue;
        }
        let controller = s.spec(h)?.controller.clone().unwrap_or_else(|| you.clone());
        if controller == you && !o.summoning_sick {
            attackers.push(h.clone());
        } else if controller == opponent {
            blockers.push(h.clone());
        }
    }
    attackers.truncate(2);
    // 702.93a, 702.79a: a creature that dies and returns is a new object,
    // out of combat, which observations can't tell from the old one.
    let returns = end
        .objects
        .values()
        .any(|o| o.keywords.contains(&Keyword::Undying) || o.keywords.contains(&Keyword::Persist));
    if attackers.is_empty() || returns {
        return None;
    }
    // Without a creature of the other player, the second attacker changes
    // sides to block (layer 2, 613.1b).
    let mut prelude = Vec::new();
    if blockers.is_empty() && attackers.len() == 2 {
        let b = attackers.pop()?;
        prelude.push(checked(Action::GainControl(GainControl {
            object: b.clone(),
            player: opponent.clone(),
        })));
        blockers.push(b);
    }
    // Who blocks whom, and whether the attacking player asks for the
    // blockers in reverse: from the case's index, mixed so that every bit
    // varies among the sampled indices.
    let bits = super::super::generate::mix64(s.index);
    let mut decl: Vec<AttackDeclaration> = attackers
        .iter()
        .map(|a| AttackDeclaration {
            attacker: a.clone(),
            defender: None,
            blockers: Vec::new(),
        })
        .collect();
    for (i, b) in blockers.iter().enumerate().take(8) {
        match (bits >> (2 * i)) % 4 {
            0 => {}
            3 => decl.last_mut()?.blockers.push(b.clone()),
            _ => decl[0].blockers.push(b.clone()),
        }
    }
    // Often the first attacker gets trample and its first blocker some
    // damage first, so that lethal damage is not its toughness (702.19b).
    let first = &decl[0];
    let given_trample = bits >> 21 & 3 != 0;
    if given_trample {
        prelude.push(checked(effect_on(
            &first.attacker,
            EffectSpec {
                add_keywords: vec![Keyword::Trample],
                modify: "+3/+0".parse().ok(),
                ..EffectSpec::default()
            },
        )));
    }
    if let (false, Some(b)) = (bits >> 23 & 3 == 0, first.blockers.first()) {
        prelude.push(checked(Action::Damage(Damage {
            from: first.attacker.clone(),
            to: b.clone(),
            amount: Quantity::Fixed(1),
        })));
    }
    let divide: BTreeMap<Handle, Vec<Handle>> = if bits >> 20 & 1 == 1 {
        decl.iter()
            .filter(|a| a.blockers.len() > 1)
            .map(|a| {
                let mut order: Vec<Handle> = a.blockers.iter().rev().cloned().collect();
                // 702.19b: with trample, the rest goes to the player.
                let tramples = end
                    .objects
                    .get(&a.attacker)
                    .is_some_and(|o| o.keywords.contains(&Keyword::Trample));
                if tramples || given_trample && a.attacker == decl[0].attacker {
                    order.push(opponent.clone());
                }
                (a.attacker.clone(), order)
            })
            .collect()
    } else {
        BTreeMap::new()
    };
    Some(Declared {
        n,
        you,
        opponent,
        bits,
        prelude,
        decl,
        divide,
    })
}

pub(super) fn combat_assignment(s: &Subject<'_>) -> Option<Found> {
    let d = declared(s)?;
    fight(
        s,
        &d,
        None,
        "assigning lethal damage to each blocker in turn leaves (510.1c, 702.19b, 510.4)",
    )
}

/// 506.4, 701.19a: the declared combat with one of its creatures removed
/// from combat before a damage step, by a change of control or by
/// regeneration; from the case's index, like the rest of the combat.
pub(super) fn removed_from_combat(s: &Subject<'_>) -> Option<Found> {
    let d = declared(s)?;
    let fighters: Vec<&Handle> = d
        .decl
        .iter()
        .flat_map(|a| std::iter::once(&a.attacker).chain(&a.blockers))
        .collect();
    let of = fighters[(d.bits >> 26) as usize % fighters.len()].clone();
    let attacks = d.decl.iter().any(|a| a.attacker == of);
    let steps = if d.bits >> 29 & 1 == 0 {
        // 506.4: a change of control; an attacker goes to the defending
        // player, a blocker to the attacking one.
        let player = if attacks { &d.opponent } else { &d.you };
        vec![checked(Action::GainControl(GainControl {
            object: of.clone(),
            player: player.clone(),
        }))]
    } else {
        // 701.19a: regenerated, it is removed from combat.
        vec![
            checked(Action::Regenerate(of.clone())),
            checked(Action::Destroy(of.clone())),
        ]
    };
    let removal = Removal {
        at: (d.bits >> 30 & 1) as usize,
        steps,
        of,
    };
    fight(
        s,
        &d,
        Some(&removal),
        "assigning lethal damage to each blocker in turn, with nothing from or to a creature removed from combat, leaves (506.4, 701.19a, 509.1h, 510.1c)",
    )
}

/// Plays the declared combat (with `removal` before one of its damage
/// steps) and compares each combat damage step with explicit assignments
/// worked out from the state as the step begins.
fn fight(s: &Subject<'_>, d: &Declared, removal: Option<&Removal>, what: &str) -> Option<Found> {
    let Declared {
        n,
        ref opponent,
        ref prelude,
        ref decl,
        ref divide,
        ..
    } = *d;
    let attack = checked(Action::Attack(decl.clone()));
    let step = checked(Action::CombatDamageStep(DamageStep {
        divide: divide.clone(),
        ..DamageStep::default()
    }));
    let mut combat = Combat {
        decl,
        divide,
        defender: opponent,
        rules: s.edition.rules(),
        removed: Vec::new(),
    };
    let mut theirs_steps = [prelude.as_slice(), std::slice::from_ref(&attack)].concat();
    let mut mine_steps = theirs_steps.clone();
    // Plays the removal before damage step `at`, and marks its creature
    // out of combat if it took: it changed controller, or a shield was
    // used and it is still there (regenerated).
    let remove = |at: usize,
                  theirs_steps: &mut Vec<Step>,
                  mine_steps: &mut Vec<Step>,
                  combat: &mut Combat<'_>|
     -> Option<()> {
        let Some(r) = removal.filter(|r| r.at == at) else {
            return Some(());
        };
        let before = s.extend(theirs_steps)?.last()?.objects.get(&r.of)?.clone();
        theirs_steps.extend(r.steps.iter().cloned());
        mine_steps.extend(r.steps.iter().cloned());
        let states = s.extend(theirs_steps)?;
        let after = states.last()?.objects.get(&r.of)?;
        let shields = |o: &ObjectState| o.regeneration_shields;
        let took = on_bf(after)
            && is_creature(after)
            && match r.steps.len() {
                1 => true,
                _ => {
                    let shielded = states
                        .get(states.len().checked_sub(2)?)?
                        .objects
                        .get(&r.of)?;
                    shields(after) < shields(shielded) && shields(shielded) > shields(&before)
                }
            };
        if took {
            combat.removed.push(r.of.clone());
        }
        Some(())
    };
    remove(0, &mut theirs_steps, &mut mine_steps, &mut combat)?;
    let declared = s.extend(&theirs_steps)?;
    let (first, strikers) = combat.assignments(declared.last()?, None)?;
    let explicit = |v: Vec<CombatAssignment>| {
        checked(if v.is_empty() {
            Action::StateBasedActions
        } else {
            Action::CombatDamage(v)
        })
    };
    theirs_steps.push(explicit(first));
    mine_steps.push(step.clone());
    if removal.is_some_and(|r| r.at == 1) && strikers.is_none() {
        return None;
    }
    if let Some(strikers) = strikers {
        remove(1, &mut theirs_steps, &mut mine_steps, &mut combat)?;
        let mid = s.extend(&theirs_steps)?;
        let (second, _) = combat.assignments(mid.last()?, Some(&strikers))?;
        theirs_steps.push(explicit(second));
        mine_steps.push(step);
    }
    let mine = s.extend(&mine_steps)?;
    let theirs = s.extend(&theirs_steps)?;
    for k in prelude.len() + 1..mine.len() {
        if mine[k] != theirs[k] {
            let nth = mine_steps[prelude.len()..=k]
                .iter()
                .filter(|st| matches!(st.action, Action::CombatDamageStep(_)))
                .count();
            return Some(
                found(
                    n + k,
                    format!("combat damage step {nth} should leave the state that {what}"),
                )
                .on(extended(s.case, mine_steps[..=k].iter().cloned()))
                .expect_all(diff(&theirs[k], &mine[k])),
            );
        }
    }
    None
}

/// A declared combat, as the `combat-assignment` relation works it out
/// from observations alone.
pub(super) struct Combat<'a> {
    decl: &'a [AttackDeclaration],
    divide: &'a BTreeMap<Handle, Vec<Handle>>,
    defender: &'a Handle,
    rules: &'static Rules,
    /// The creatures removed from combat (506.4): they deal and are dealt
    /// no combat damage.
    removed: Vec<Handle>,
}

impl Combat<'_> {
    /// The assignments of one combat damage step, in the order the
    /// resolver deals them; and, for a first-strike step, the creatures
    /// that had first or double strike (510.4).
    fn assignments(
        &self,
        obs: &Observation,
        first: Option<&[Handle]>,
    ) -> Option<(Vec<CombatAssignment>, Option<Vec<Handle>>)> {
        let in_combat = |h: &Handle| {
            !self.removed.contains(h)
                && obs
                    .objects
                    .get(h)
                    .is_some_and(|o| on_bf(o) && is_creature(o))
        };
        let has =
            |h: &Handle, k: Keyword| obs.objects.get(h).is_some_and(|o| o.keywords.contains(&k));
        let strikes_first =
            |h: &Handle| has(h, Keyword::FirstStrike) || has(h, Keyword::DoubleStrike);
        let all: Vec<Handle> = self
            .decl
            .iter()
            .flat_map(|a| std::iter::once(&a.attacker).chain(&a.blockers))
            .filter(|h| in_combat(h))
            .cloned()
            .collect();
        let (assigns, strikers) = match first {
            None if all.iter().any(strikes_first) => {
                let f: Vec<Handle> = all.iter().filter(|h| strikes_first(h)).cloned().collect();
                (f.clone(), Some(f))
            }
            None => (all, None),
            Some(f) => (
                all.into_iter()
                    .filter(|h| !f.contains(h) || has(h, Keyword::DoubleStrike))
                    .collect(),
                None,
            ),
        };
        let power = |h: &Handle| -> Option<i64> { Some(obs.objects.get(h)?.pt?.power.max(0)) };
        let mut v = Vec::new();
        let mut assigned: BTreeMap<Handle, i64> = BTreeMap::new();
        let give = |v: &mut Vec<CombatAssignment>, from: &Handle, to: &Handle, amount: i64| {
            if amount > 0 {
                v.push(CombatAssignment {
                    from: from.clone(),
                    to: to.clone(),
                    amount: Some(Count(amount)),
                });
            }
        };
        for a in self.decl {
            let attacker_in = in_combat(&a.attacker);
            if attacker_in && assigns.contains(&a.attacker) {
                let p = power(&a.attacker)?;
                let trample = has(&a.attacker, Keyword::Trample);
                let deathtouch = has(&a.attacker, Keyword::Deathtouch);
                let mut live: Vec<&Handle> = a.blockers.iter().filter(|h| in_combat(h)).collect();
                let bound = self.rules.order_binds(deathtouch);
                if let (false, Some(order)) = (bound, self.divide.get(&a.attacker)) {
                    live.sort_by_key(|h| order.iter().position(|o| o == *h).unwrap_or(usize::MAX));
                }
                if a.blockers.is_empty() || (live.is_empty() && trample) {
                    give(&mut v, &a.attacker, self.defender, p);
                } else {
                    let mut left = p;
                    for (i, b) in live.iter().enumerate() {
                        let share = if i + 1 == live.len() && !trample {
                            left
                        } else {
                            let o = obs.objects.get(*b)?;
                            let so_far = assigned.get(*b).copied().unwrap_or(0);
                            let lethal = (o.pt?.toughness - o.damage - so_far).max(0);
                            let lethal =
                                if deathtouch && self.rules.deathtouch_assigns_one_as_lethal {
                                    lethal.min(1)
                                } else {
                                    lethal
                                };
                            lethal.min(left)
                        };
                        *assigned.entry((*b).clone()).or_default() += share;
                        left -= share;
                        give(&mut v, &a.attacker, b, share);
                    }
                    if !live.is_empty() {
                        give(&mut v, &a.attacker, self.defender, left);
                    }
                }
            }
            for b in &a.blockers {
                if attacker_in && in_combat(b) && assigns.contains(b) {
                    give(&mut v, b, &a.attacker, power(b)?);
                }
            }
        }
        Some((v, strikers))
    }
}

pub(super) fn combat_damage(s: &Subject<'_>) -> Option<Found> {
    // 120.3b: infect damage gives poison counters, and those are counters
    // a player puts, which such abilities change.
    if s.counter_rules() {
        return None;
    }
    for (k, step) in s.steps() {
        let Action::CombatDamage(v) = &step.action else {
            continue;
        };
        // Before Magic 2010 a lifelink trigger of an earlier step with
        // `sba: false` may resolve in this one (D37).
        if !s.edition.rules().lifelink_static && (0..k).any(|j| !s.checked(j)) {
            return None;
        }
        // 615.7: a prevention shield takes some of the damage.
        if v.iter().any(|a| s.prevented(k, &a.to)) {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        let mut life: BTreeMap<Handle, i128> = BTreeMap::new();
        let mut poison: BTreeMap<Handle, i128> = BTreeMap::new();
        for a in v {
            let src = before.objects.get(&a.from)?;
            let power = src.pt?.power;
            let amount = a.amount.map_or(power.max(0), |c| c.0) as i128;
            if amount == 0 {
                continue;
            }
            let kws = source_keywords(before, &a.from);
            let dealt_to_something = if before.players.contains_key(&a.to) {
                if kws.contains(&Keyword::Infect) {
                    *poison.entry(a.to.clone()).or_default() += amount;
                } else {
                    *life.entry(a.to.clone()).or_default() -= amount;
                }
                true
            } else {
                let t = before.objects.get(&a.to)?;
                on_bf(t)
                    && !shielded(before, &a.to)
                    && (is_creature(t)
                        || t.types.contains(&CardType::Planeswalker)
                        || t.types.contains(&CardType::Battle))
            };
            if dealt_to_something && kws.contains(&Keyword::Lifelink) {
                // 702.15b: the life goes to the source's controller, which
                // the observations don't show; known only while nothing
                // changed it.
                if s.control_may_change(&a.from, k) {
                    return None;
                }
                let controller = s
                    .spec(&a.from)?
                    .controller
                    .clone()
                    .unwrap_or_else(|| s.case.setup.players[0].id.clone());
                // Before Magic 2010 the life comes from a trigger, which a
                // player who lost first never sees resolve, and which waits
                // for the state-based actions a step with `sba: false`
                // leaves out (D37).
                if !s.edition.rules().lifelink_static
                    && (after.players.get(&controller)?.lost || !s.checked(k))
                {
                    return None;
                }
                *life.entry(controller).or_default() += amount;
            }
        }
        for (h, p) in &before.players {
            let a = after.players.get(h)?;
            let want_life = p.life as i128 + life.get(h).copied().unwrap_or(0);
            let want_poison = p.poison as i128 + poison.get(h).copied().unwrap_or(0);
            if a.life as i128 != want_life || a.poison as i128 != want_poison {
                let (Ok(l), Ok(q)) = (i64::try_from(want_life), i64::try_from(want_poison)) else {
                    return None;
                };
                return Some(found(k, format!("{h} went from {} life and {} poison to {} and {}; max(0, power) per assignment gives {l} and {q}", p.life, p.poison, a.life, a.poison)).expect(h, Expect { life: Some(l), poison: Some(q), ..Expect::default() }));
            }
        }
    }
    None
}
