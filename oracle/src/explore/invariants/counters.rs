//! Counters: exact arithmetic, annihilation, doubling (107.1, 704.5q, 701.10e).

use super::*;

pub(super) fn exact_arithmetic(s: &Subject<'_>) -> Option<Found> {
    let effects_list = |h: &Handle| {
        s.case.steps.iter().any(|st| match &st.action {
            Action::Effect(e) => matches!(&e.affects, Affects::Objects(v) if v.contains(h)),
            Action::Double(sc) | Action::Triple(sc) => sc.affects == *h,
            Action::Exchange(x) => x.values.iter().any(|v| v.of() == h),
            _ => false,
        }) || becomes_copy(s.case, h)
    };
    if s.global_pt_sources() {
        return None;
    }
    let check = |k: usize, obs: &Observation| -> Option<Found> {
        for o in &s.case.setup.objects {
            let Some(st) = obs.objects.get(&o.id) else {
                continue;
            };
            let Some(printed) = o.pt else { continue };
            // A P/T chosen as it enters (208.2b) is not a printed value;
            // 122.1a: counters count off the battlefield only since 2011-06-17.
            if effects_list(&o.id)
                || !(on_bf(st) || s.edition.rules().pt_counters_off_battlefield)
                || !is_creature(st)
                || !o.types.contains(&CardType::Creature)
                || !o.enters_as.is_empty()
            {
                continue;
            }
            let (mut p, mut t) = (
                printed.power.value(0)? as i128,
                printed.toughness.value(0)? as i128,
            );
            for (kind, n) in &st.counters {
                if let CounterKind::Pt { power, toughness } = kind {
                    p += *power as i128 * *n as i128;
                    t += *toughness as i128 * *n as i128;
                }
            }
            let fits = |v: i128| i64::try_from(v).is_ok();
            // K.10.3: the total counts a negative value as 0.
            let total = if s.edition.rules().negative_counts_as_zero {
                p.max(0) + t.max(0)
            } else {
                p + t
            };
            if !fits(p) || !fits(t) || !fits(total) {
                return Some(Found {
                    expect_error: Some(ErrorCode::Overflow),
                    ..found(
                        k,
                        format!(
                            "{} would be {p}/{t}, which does not fit in 64 bits, yet the step reported {}",
                            o.id,
                            st.pt.map_or("no P/T".into(), |x| x.to_string())
                        ),
                    )
                });
            }
            let want = Pt::new(p as i64, t as i64);
            if st.pt != Some(want) {
                return Some(
                    found(
                        k,
                        format!(
                            "{} is {} but printed {printed} plus its counters make {want}",
                            o.id,
                            PtOrNone::from_option(st.pt)
                        ),
                    )
                    .expect(&o.id, pt_expect(want)),
                );
            }
        }
        None
    };
    for (k, _) in s.steps() {
        if let Some(f) = check(k, s.after(k)?) {
            return Some(f);
        }
    }
    None
}

/// The counters left once +1/+1 and -1/-1 counters annihilate (122.3).
pub(super) fn annihilated(o: &ObjectState) -> BTreeMap<CounterKind, i64> {
    let (p, m) = (
        count(o, &CounterKind::PLUS_ONE),
        count(o, &CounterKind::MINUS_ONE),
    );
    let n = p.min(m);
    let mut counters = o.counters.clone();
    counters.insert(CounterKind::PLUS_ONE, p - n);
    counters.insert(CounterKind::MINUS_ONE, m - n);
    counters.retain(|_, n| *n > 0);
    counters
}

pub(super) fn counters_expect(counters: BTreeMap<CounterKind, i64>) -> Expect {
    Expect {
        counters: Some(counters),
        ..Expect::default()
    }
}

pub(super) fn annihilation(s: &Subject<'_>) -> Option<Found> {
    if !s.edition.rules().counter_annihilation {
        return None;
    }
    for (k, _) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        for (h, o) in &s.after(k)?.objects {
            let (p, m) = (
                count(o, &CounterKind::PLUS_ONE),
                count(o, &CounterKind::MINUS_ONE),
            );
            if on_bf(o) && p > 0 && m > 0 {
                let message =
                    format!("{h} has {p} +1/+1 and {m} -1/-1 counters after state-based actions");
                return Some(found(k, message).expect(h, counters_expect(annihilated(o))));
            }
        }
    }
    None
}

pub(super) fn annihilation_net(s: &Subject<'_>) -> Option<Found> {
    for (k, step) in s.steps() {
        if !matches!(step.action, Action::StateBasedActions) {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        for (h, b) in &before.objects {
            let Some(a) = after.objects.get(h) else {
                continue;
            };
            let spec = s.spec(h)?;
            if !on_bf(b) || !on_bf(a) || !spec.max_counters.is_empty() {
                continue;
            }
            if [Keyword::Undying, Keyword::Persist]
                .iter()
                .any(|k| b.keywords.contains(k))
            {
                continue;
            }
            let net = |o: &ObjectState| {
                count(o, &CounterKind::PLUS_ONE) as i128 - count(o, &CounterKind::MINUS_ONE) as i128
            };
            if net(a) != net(b) {
                let message = format!(
                    "{h} had a net of {} +1/+1 counters before the check and {} after",
                    net(b),
                    net(a)
                );
                return Some(found(k, message).expect(h, counters_expect(annihilated(b))));
            }
        }
    }
    None
}

pub(super) fn double_counters(s: &Subject<'_>) -> Option<Found> {
    // Abilities that change how many counters a player puts (614.1a).
    if s.case
        .setup
        .objects
        .iter()
        .any(|o| o.counters_put_by.is_some())
    {
        return None;
    }
    for (k, step) in s.steps() {
        let Action::DoubleCounters(d) = &step.action else {
            continue;
        };
        let (before, after) = (s.before(k)?, s.after(k)?);
        let (Some(b), Some(a), Some(spec)) = (
            before.objects.get(&d.on),
            after.objects.get(&d.on),
            s.spec(&d.on),
        ) else {
            continue;
        };
        let partner = match &d.kind {
            k if *k == CounterKind::PLUS_ONE => Some(CounterKind::MINUS_ONE),
            k if *k == CounterKind::MINUS_ONE => Some(CounterKind::PLUS_ONE),
            _ => None,
        };
        // 704.5q: the doubled counters could annihilate with the other kind.
        let annihilates = partner.is_some_and(|p| count(b, &p) > 0);
        let returns = [Keyword::Undying, Keyword::Persist]
            .iter()
            .any(|kw| b.keywords.contains(kw) || a.keywords.contains(kw));
        if !on_bf(b) || !on_bf(a) || returns || annihilates || !spec.max_counters.is_empty() {
            continue;
        }
        // 613.1f: "can't have counters put on it" is an ability, gone with
        // the others; 708.2a: face down, it has none either.
        if spec.cant_have_counters_put && (s.abilities_removed() || s.turned_over(&d.on)) {
            continue;
        }
        let had = count(b, &d.kind);
        let want = if spec.cant_have_counters_put {
            had
        } else {
            had.checked_mul(2)?
        };
        if count(a, &d.kind) != want {
            let mut counters = a.counters.clone();
            counters.insert(d.kind.clone(), want);
            counters.retain(|_, n| *n != 0);
            return Some(
                found(
                    k,
                    format!(
                        "{} had {had} {} counter(s); doubling them left {}, not {want}",
                        d.on,
                        d.kind,
                        count(a, &d.kind)
                    ),
                )
                .expect(
                    &d.on,
                    Expect {
                        counters: Some(counters),
                        ..Expect::default()
                    },
                ),
            );
        }
    }
    None
}
