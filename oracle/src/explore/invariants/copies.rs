//! Copies (707.2).

use super::*;

/// Whether a value of the case is read all the time from other objects
/// (a characteristic-defining ability, a static ability's X, an ability
/// that an effect grants and that defines P/T): such a value may read the
/// counters or P/T of an original that a relation changes.
pub(super) fn reads_live(case: &Case) -> bool {
    let live = |e: &EffectSpec| e.x.is_some() || e.grant_pt_ability.is_some();
    case.setup
        .objects
        .iter()
        .any(|o| o.cda.is_some() || o.static_abilities().any(live) || o.x_is.is_some())
        || case
            .actions()
            .any(|a| matches!(a, Action::Effect(e) if e.grant_pt_ability.is_some()))
}

pub(super) fn copy_ignores_counters_and_effects(s: &Subject<'_>) -> Option<Found> {
    if s.objects_act() || reads_live(s.case) {
        return None;
    }
    let end = &s.run.steps.last()?.observation;
    let copyable = |h: &Handle| s.spec(h).is_some_and(|o| o.copy_unmodelled().is_none());
    let creatures: Vec<&Handle> = end
        .objects
        .iter()
        .filter(|(h, o)| on_bf(o) && is_creature(o) && copyable(h))
        .map(|(h, _)| h)
        .collect();
    if creatures.len() < 2 {
        return None;
    }
    let pick = (s.index / 16) as usize % creatures.len();
    let (copy, of) = (
        creatures[pick].clone(),
        creatures[(pick + 1) % creatures.len()].clone(),
    );
    let copy_step = Step {
        sba: true,
        ..quiet(Action::Copy(ptoracle_core::scenario::CopyStep {
            object: copy.clone(),
            of: of.clone(),
            except_pt: None,
            until: None,
            name: None,
        }))
    };
    let grown = vec![
        quiet(Action::PutCounters(ptoracle_core::scenario::CounterPut {
            on: of.clone(),
            kind: CounterKind::Pt {
                power: 1,
                toughness: 1,
            },
            count: Count(1),
            by: None,
        })),
        quiet(effect_on(
            &of,
            EffectSpec {
                modify: "+2/+1".parse().ok(),
                ..EffectSpec::default()
            },
        )),
        copy_step.clone(),
    ];
    let plain = s.extend(std::slice::from_ref(&copy_step))?.pop()?;
    let mine = s.extend(&grown)?.pop()?;
    // 704: the counter may have saved the original (a lord, say) from
    // dying; compare only while it is there in both.
    if !(plain.objects.get(&of).is_some_and(on_bf) && mine.objects.get(&of).is_some_and(on_bf)) {
        return None;
    }
    let (want, got) = (plain.objects.get(&copy)?, mine.objects.get(&copy)?);
    if (want.zone, want.pt, want.base_pt) != (got.zone, got.pt, got.base_pt) {
        let show = |p: Option<Pt>| p.map_or("none".into(), |p| p.to_string());
        return Some(
            found(
                s.case.steps.len(),
                format!(
                    "{copy} becomes a copy of {of}: {}, base {}, with a +1/+1 counter and +2/+1 put on {of} first; {}, base {} without (707.2: counters and effects are not copied)",
                    show(got.pt),
                    show(got.base_pt),
                    show(want.pt),
                    show(want.base_pt)
                ),
            )
            .on(extended(s.case, grown))
            .expect(
                &copy,
                Expect {
                    zone: Some(want.zone),
                    pt: Some(PtOrNone::from_option(want.pt)),
                    base_pt: Some(PtOrNone::from_option(want.base_pt)),
                    ..Expect::default()
                },
            ),
        );
    }
    None
}

/// Whether `h` is or becomes a copy of another object at some point
/// (707.2): its copiable values are then not its printed ones.
pub(super) fn becomes_copy(case: &Case, h: &Handle) -> bool {
    case.setup
        .objects
        .iter()
        .any(|o| o.id == *h && o.copy.is_some())
        || case.actions().any(|a| match a {
            Action::Copy(c) => c.object == *h,
            Action::Move(m) => m.object == *h && m.copy.is_some(),
            _ => false,
        })
}
