//! Face-down and turned-over permanents (708, 712): printed values hidden, new timestamps.

use super::*;

/// 708.2a: the variant of the case where face-down object `h` has other
/// printed values, none of which a face-down permanent has.
pub(super) fn reprinted(case: &Case, h: &Handle) -> Option<Case> {
    let mut variant = case.clone();
    let o = variant.setup.objects.iter_mut().find(|o| o.id == *h)?;
    let (p, t) = match o.pt {
        Some(PrintedPt {
            power: Printed::Fixed(p),
            toughness: Printed::Fixed(t),
        }) => (p, t),
        _ => (0, 0),
    };
    // Far from the printed value and from 2/2, small enough to fit.
    let other = |v: i64| {
        if (-100..=100).contains(&v) {
            7 + (v.abs() % 5)
        } else {
            3
        }
    };
    o.pt = Some(PrintedPt {
        power: Printed::Fixed(other(p)),
        toughness: Printed::Fixed(other(t).saturating_add(2)),
    });
    o.cda = None;
    o.enters_as.clear();
    o.keywords = vec![Keyword::Flying, Keyword::Deathtouch];
    o.colors.clear();
    o.subtypes = vec!["Test".into()];
    o.abilities.clear();
    o.level_up.clear();
    Some(variant)
}

pub(super) fn face_down_hides_printed_values(s: &Subject<'_>) -> Option<Found> {
    let h = &s.case.setup.objects.iter().find(|o| o.face_down)?.id;
    // The steps while it is surely face down and on the battlefield: up to
    // the first that turns it, moves, casts or resolves it (a new object is
    // face up, 708.9), or after which it is elsewhere.
    let mut upto = 0;
    for (k, step) in s.steps() {
        if turns_or_moves(&step.action, h) || !s.after(k)?.objects.get(h).is_some_and(on_bf) {
            break;
        }
        upto = k + 1;
    }
    // Abilities that act inside a step may name it too (a chapter moving it).
    if upto == 0 || s.objects_act() {
        return None;
    }
    let mut variant = reprinted(s.case, h)?;
    variant.steps.truncate(upto);
    let run = s.resolve(&variant);
    for k in 0..upto {
        let (mine, theirs) = (s.after(k)?, &run.steps.get(k)?.observation);
        if mine != theirs {
            return Some(
                found(
                    k,
                    format!("{h} is face down, yet printing other values on it changes the state after step {} (708.2a: a face-down permanent is a 2/2 with no name or text)", k + 1),
                )
                .on(variant)
                .expect_all(diff(theirs, mine)),
            );
        }
    }
    None
}

/// Whether `a` turns `h` over, transforms it, or makes it a new object by
/// moving, casting or resolving it (708.9, 400.7).
pub(super) fn turns_or_moves(a: &Action, h: &Handle) -> bool {
    match a {
        Action::TurnFaceUp(x)
        | Action::TurnFaceDown(x)
        | Action::Transform(x)
        | Action::Resolve(x) => x == h,
        Action::Move(m) => m.object == *h,
        Action::Cast(c) => c.object == *h,
        _ => false,
    }
}

pub(super) fn face_up_timestamp(s: &Subject<'_>) -> Option<Found> {
    // 613.1f: an effect that removes all abilities may remove its static
    // ability; explicit timestamps can come after the new one (613.7).
    let explicit = s
        .case
        .actions()
        .any(|a| matches!(a, Action::Effect(e) if e.timestamp.is_some()));
    if explicit || s.abilities_removed() {
        return None;
    }
    for (k, step) in s.steps() {
        // Turned face up (613.7f) or transformed (613.7g) for the first time.
        let (h, transform) = match &step.action {
            Action::TurnFaceUp(h) => (h, false),
            Action::Transform(h) => (h, true),
            _ => continue,
        };
        let Some(spec) = s.spec(h) else { continue };
        // 707.2: a copy's abilities are the original's, not its own.
        if becomes_copy(s.case, h) {
            continue;
        }
        // Face down or front face up until now: never turned or moved.
        let earlier = s.case.steps[..k]
            .iter()
            .any(|st| turns_or_moves(&st.action, h));
        let returns = [Keyword::Undying, Keyword::Persist]
            .iter()
            .any(|kw| spec.keywords.contains(kw));
        let turned = if transform {
            spec.back_face
                .as_deref()
                .filter(|_| !spec.face_down)
                .map(|b| &b.abilities)
        } else {
            spec.face_down.then_some(&spec.abilities)
        };
        let Some(abilities) = turned else { continue };
        if earlier || returns || !spec.level_up.is_empty() || s.objects_act() {
            continue;
        }
        let own: Vec<&EffectSpec> = abilities
            .iter()
            .filter(|a| a.set.is_some() && matches!(a.affects, Affects::This))
            .collect();
        let [ability] = own.as_slice() else { continue };
        let (Some(set), None) = (ability.set, &ability.x) else {
            continue;
        };
        let (Amount::Fixed(p), Amount::Fixed(t)) = (set.power, set.toughness) else {
            continue;
        };
        let want = Pt::new(p, t);
        let (Some(b), Some(a)) = (s.before(k)?.objects.get(h), s.after(k)?.objects.get(h)) else {
            continue;
        };
        if !on_bf(b) || !on_bf(a) || a.base_pt.is_none() {
            continue;
        }
        if a.base_pt != Some(want) {
            return Some(
                found(
                    k,
                    format!(
                        "{h} was {}: its new timestamp ({}) puts its own \"base P/T {want}\" after every effect created before, yet its base P/T is {}",
                        if transform { "transformed" } else { "turned face up" },
                        if transform { "613.7g" } else { "613.7f" },
                        PtOrNone::from_option(a.base_pt)
                    ),
                )
                .expect(
                    h,
                    Expect {
                        base_pt: Some(PtOrNone::Pt(want)),
                        ..Expect::default()
                    },
                ),
            );
        }
    }
    None
}
