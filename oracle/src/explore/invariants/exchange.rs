//! Exchanges of values (701.12).

use super::*;

/// The value `v` has in `obs`: a creature's power or toughness on the
/// battlefield, a player's life total; `None` where it is not there.
pub(super) fn exchanged_value(obs: &Observation, v: &Exchanged) -> Option<i64> {
    match v {
        Exchanged::Life(h) => obs.players.get(h).map(|p| p.life),
        Exchanged::Power(h) | Exchanged::Toughness(h) => {
            let o = obs.objects.get(h).filter(|o| on_bf(o) && is_creature(o))?;
            let pt = o.pt?;
            Some(if matches!(v, Exchanged::Power(_)) {
                pt.power
            } else {
                pt.toughness
            })
        }
    }
}

pub(super) fn exchange_values(s: &Subject<'_>) -> Option<Found> {
    // 613.7: an explicit timestamp may be newer than the exchange's
    // effects; 613.8: a P/T condition may make setting effects depend on
    // each other.
    let explicit = s
        .case
        .actions()
        .any(|a| matches!(a, Action::Effect(e) if e.timestamp.is_some()))
        || s.case.setup.objects.iter().any(|o| o.timestamp.is_some());
    let conditions = s.case.actions().any(|a| matches!(a, Action::Effect(e) if matches!(&e.affects, Affects::Filter(f) if f.tests_pt())))
        || s.case.setup.objects.iter().flat_map(|o| o.static_abilities()).any(|a| matches!(&a.affects, Affects::Filter(f) if f.tests_pt()));
    if explicit || conditions || s.objects_act() {
        return None;
    }
    for (k, step) in s.steps() {
        let Action::Exchange(x) = &step.action else {
            continue;
        };
        let [a, b] = x.values.as_slice() else {
            continue;
        };
        let (before, after) = (s.before(k)?, s.after(k)?);
        let (Some(va), Some(vb)) = (exchanged_value(before, a), exchanged_value(before, b)) else {
            // 701.12a: nothing is exchanged; the step itself changes nothing.
            let same = |v: &Exchanged| match v {
                Exchanged::Life(h) => {
                    before.players.get(h).map(|p| p.life) == after.players.get(h).map(|p| p.life)
                }
                _ => true,
            };
            if !(same(a) && same(b)) {
                return Some(found(
                    k,
                    format!(
                        "{a} or {b} is not there, so nothing is exchanged (701.12a), yet a life total changed"
                    ),
                ));
            }
            continue;
        };
        for (side, want) in [(a, vb), (b, va)] {
            let (got, expect) = match side {
                Exchanged::Life(h) => (
                    after.players.get(h).map(|p| p.life),
                    Expect {
                        life: Some(want),
                        ..Expect::default()
                    },
                ),
                Exchanged::Power(h) | Exchanged::Toughness(h) => {
                    // It may have died of the new value (704.5f, 704.5g),
                    // and undying or persist may have returned it, a new
                    // object (400.7).
                    let returns = before.objects.get(h).is_some_and(|o| {
                        o.keywords.contains(&Keyword::Undying)
                            || o.keywords.contains(&Keyword::Persist)
                    });
                    let Some(base) = after
                        .objects
                        .get(h)
                        .filter(|o| on_bf(o) && !returns)
                        .and_then(|o| o.base_pt)
                    else {
                        continue;
                    };
                    let (got, fixed) = if matches!(side, Exchanged::Power(_)) {
                        (base.power, Pt::new(want, base.toughness))
                    } else {
                        (base.toughness, Pt::new(base.power, want))
                    };
                    (
                        Some(got),
                        Expect {
                            base_pt: Some(PtOrNone::Pt(fixed)),
                            ..Expect::default()
                        },
                    )
                }
            };
            if got != Some(want) {
                let what = match side {
                    Exchanged::Life(_) => "is",
                    _ => "should be set to (its base value, 208.4b)",
                };
                return Some(
                    found(
                        k,
                        format!(
                            "after exchanging {a} ({va}) and {b} ({vb}), {side} {what} {want}, not {} (701.12g, 613.4b)",
                            got.map_or("none".into(), |v| v.to_string())
                        ),
                    )
                    .expect(side.of(), expect),
                );
            }
        }
    }
    None
}
