//! The tests of mana costs and their payments.

use super::pool::{KINDS, TYPES, kind_index};
use super::symbol::mana_of;
use super::*;
use crate::terms::{Color, Mana};

fn pool(items: &[(Mana, bool, i64)]) -> Pool {
    let mut p = Pool::default();
    for (m, snow, n) in items {
        p.set(
            ManaKind {
                mana: *m,
                snow: *snow,
            },
            *n,
        );
    }
    p
}

fn count(cost: &str, p: &Pool, life: i64, x: i64) -> usize {
    cost.parse::<ManaCost>()
        .unwrap()
        .payments(p, life, x, 1000)
        .list
        .len()
}

#[test]
fn hostile_texts_are_errors_naming_the_symbol() {
    for (text, symbol) in [
        ("", ""),
        ("{999999999999999999999}", "{999999999999999999999}"),
        ("{2}{G", "{G"),
        ("{", "{"),
        ("}", "}"),
        ("G", "G"),
        ("{}", "{}"),
        ("{G/G}", "{G/G}"),
        ("{W/U/P}", "{W/U/P}"),
        ("{2/P}", "{2/P}"),
        ("{02}", "{02}"),
        ("{-1}", "{-1}"),
        ("{g}", "{g}"),
        ("{G}{{G}}", "{{G}"),
        ("{G} {G}", " "),
    ] {
        let e = text.parse::<ManaCost>().unwrap_err();
        assert_eq!(e.symbol, symbol, "{text}");
    }
    let long = "{1}".repeat(MAX_SYMBOLS + 1);
    assert!(long.parse::<ManaCost>().is_err());
    assert!("{1}".repeat(MAX_SYMBOLS).parse::<ManaCost>().is_ok());
    let e = "{é".repeat(1000).parse::<ManaCost>().unwrap_err();
    assert!(e.symbol.chars().count() <= 41);
}

#[test]
fn huge_amounts_are_quick_and_exact() {
    let big = i64::MAX;
    let every: Vec<(Mana, bool, i64)> = TYPES
        .iter()
        .flat_map(|m| [(*m, true, big), (*m, false, big)])
        .collect();
    let p = pool(&every);
    let cost: ManaCost = "{9223372036854775807}{X}{G}{2/B}{W/P}{S}{C}{W/U}"
        .parse()
        .unwrap();
    let found = cost.payments(&p, i64::MAX, big, 50);
    assert_eq!(found.list.len(), 50);
    assert!(found.capped);
    // The first payment spends as little snow mana as it can: one, for {S}.
    let first = &found.list[0];
    let snow: i64 = first
        .mana
        .iter()
        .filter(|(k, _)| k.snow)
        .map(|(_, n)| n)
        .sum();
    assert_eq!(snow, 1);
    assert_eq!(first.life, 0);
    // Not enough mana by one.
    let short = "{9223372036854775807}{9223372036854775807}{1}"
        .parse::<ManaCost>()
        .unwrap();
    let two = pool(&[(Mana::G, false, big), (Mana::W, false, big)]);
    assert!(short.payments(&two, 20, 0, 10).list.is_empty());
    let exact = "{9223372036854775807}{9223372036854775807}"
        .parse::<ManaCost>()
        .unwrap();
    assert_eq!(exact.payments(&two, 20, 0, 10).list.len(), 1);
}

#[test]
fn distinct_payments_are_counted() {
    let g4 = pool(&[(Mana::G, false, 4)]);
    assert_eq!(count("{2}{G}{G}", &g4, 20, 0), 1);
    // 107.4e's example: {G/W}{G/W} by GG, GW or WW.
    let gw = pool(&[(Mana::G, false, 2), (Mana::W, false, 2)]);
    assert_eq!(count("{G/W}{G/W}", &gw, 20, 0), 3);
    // 107.4f's example: {W/P}{W/P} by WW, W and 2 life, or 4 life.
    let w2 = pool(&[(Mana::W, false, 2)]);
    assert_eq!(count("{W/P}{W/P}", &w2, 20, 0), 3);
    assert_eq!(count("{W/P}{W/P}", &w2, 3, 0), 2);
    // {2/B}: one B, or two of anything (B B, B C, C C).
    let bc = pool(&[(Mana::B, false, 2), (Mana::C, false, 2)]);
    assert_eq!(count("{2/B}", &bc, 20, 0), 4);
    // {S} only from snow sources.
    let plain = pool(&[(Mana::G, false, 3)]);
    assert_eq!(count("{S}", &plain, 20, 0), 0);
    let snowy = pool(&[(Mana::G, true, 1), (Mana::G, false, 1)]);
    assert_eq!(count("{S}", &snowy, 20, 0), 1);
    assert_eq!(count("{1}", &snowy, 20, 0), 2);
    // {C} only colorless; generic anything.
    assert_eq!(count("{C}", &plain, 20, 0), 0);
    assert_eq!(count("{0}", &Pool::default(), 20, 0), 1);
    assert_eq!(count("{X}", &plain, 20, 3), 1);
    assert_eq!(count("{X}", &plain, 20, 4), 0);
    assert_eq!(count("{X}{X}", &plain, 20, -1), 0);
}

/// The search agrees with brute force on small pools.
#[test]
fn agrees_with_brute_force() {
    use std::collections::BTreeSet;
    let costs = [
        "{1}{G}",
        "{G/W}{W}",
        "{2/B}{B}",
        "{W/P}{1}",
        "{S}{S}{1}",
        "{C}{2/G}",
        "{X}{R/G}{G/P}",
        "{U/B}{B/R}{S}",
    ];
    let kinds: Vec<ManaKind> = KINDS.to_vec();
    let mut rng = 12345u64;
    let mut next = |m: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % m
    };
    for cost in costs {
        let c: ManaCost = cost.parse().unwrap();
        for _ in 0..150 {
            let mut p = Pool::default();
            for _ in 0..3 {
                let k = kinds[next(12) as usize];
                p.set(k, p.get(k) + next(3) as i64);
            }
            let life = next(6) as i64;
            let got: BTreeSet<_> = c
                .payments(&p, life, 1, 10_000)
                .list
                .into_iter()
                .map(|p| (p.mana, p.life))
                .collect();
            let want = brute(&c, &p, life, 1);
            assert_eq!(got, want, "{cost} with {p:?}, life {life}");
        }
    }
}

type Found = std::collections::BTreeSet<(Vec<(ManaKind, i64)>, i64)>;

/// Every way to pay each symbol in turn, by recursion.
fn brute(c: &ManaCost, p: &Pool, life: i64, x: i64) -> Found {
    struct Ctx {
        pool: [i64; 12],
        life: i64,
        x: i64,
    }
    fn unit(s: Symbol, k: ManaKind) -> bool {
        match s {
            Symbol::Generic(_) | Symbol::X => true,
            Symbol::Colored(c) | Symbol::TwoOr(c) | Symbol::Phyrexian(c) => k.mana == mana_of(c),
            Symbol::Colorless => k.mana == Mana::C,
            Symbol::Hybrid(a, b) => k.mana == mana_of(a) || k.mana == mana_of(b),
            Symbol::Snow => k.snow,
        }
    }
    fn go(symbols: &[Symbol], left: &mut [i64; 12], paid: i64, ctx: &Ctx, out: &mut Found) {
        let Some((first, rest)) = symbols.split_first() else {
            if paid == 0 || paid <= ctx.life {
                let spent = (0..12)
                    .filter(|i| ctx.pool[*i] > left[*i])
                    .map(|i| (KINDS[i], ctx.pool[i] - left[i]))
                    .collect();
                out.insert((spent, paid));
            }
            return;
        };
        let then = |head: Vec<Symbol>| -> Vec<Symbol> {
            let mut v = head;
            v.extend_from_slice(rest);
            v
        };
        match *first {
            Symbol::Generic(0) => return go(rest, left, paid, ctx, out),
            Symbol::X => return go(&then(vec![Symbol::Generic(ctx.x)]), left, paid, ctx, out),
            Symbol::TwoOr(_) => go(&then(vec![Symbol::Generic(2)]), left, paid, ctx, out),
            Symbol::Phyrexian(_) => go(rest, left, paid + 2, ctx, out),
            _ => {}
        }
        let next = match *first {
            Symbol::Generic(n) => then(vec![Symbol::Generic(n - 1)]),
            _ => rest.to_vec(),
        };
        for i in 0..12 {
            if left[i] > 0 && unit(*first, KINDS[i]) {
                left[i] -= 1;
                go(&next, left, paid, ctx, out);
                left[i] += 1;
            }
        }
    }
    let mut left = [0i64; 12];
    for (i, k) in KINDS.iter().enumerate() {
        left[i] = p.get(*k);
    }
    let ctx = Ctx {
        pool: left,
        life,
        x,
    };
    let mut out = Found::new();
    go(c.symbols(), &mut left, 0, &ctx, &mut out);
    out
}

#[test]
fn payments_say_which_mana_pays_each_symbol() {
    let cost: ManaCost = "{2/B}{W/P}{S}{1}".parse().unwrap();
    let p = pool(&[(Mana::G, true, 1), (Mana::C, false, 3)]);
    let found = cost.payments(&p, 20, 0, 10);
    assert_eq!(found.list.len(), 1);
    assert_eq!(
        found.list[0].to_string(),
        "{2/B} with 2 {C}, {W/P} with 2 life, {S} with 1 snow {G}, {1} with 1 {C}"
    );
    let why = cost.payments(&p, 1, 0, 10).why_not.unwrap();
    assert!(why.contains("{W/P}") && why.contains("119.4"), "{why}");
}

/// Many life and two-generic choices, a huge pool and no way to pay:
/// every choice is tried, each in a bounded number of flows.
#[test]
fn no_payment_among_many_choices_is_found_quickly() {
    let text = format!("{}{}{{C}}", "{W/P}".repeat(32), "{2/B}".repeat(31));
    let cost: ManaCost = text.parse().unwrap();
    let mut pool = Pool::default();
    for k in KINDS {
        if k.mana != Mana::C {
            pool.set(k, i64::MAX);
        }
    }
    let found = cost.payments(&pool, i64::MAX, 0, PAYMENT_LIMIT);
    assert!(found.list.is_empty());
    assert!(found.why_not.unwrap().contains("{C}"));
}

/// Whether `paid` is a way the rules allow to pay `symbol` (107.4).
fn allowed(symbol: Symbol, paid: &Paid, x: i64) -> bool {
    let amount: i64 = match paid {
        Paid::Mana(v) => v.iter().map(|(_, n)| n).sum(),
        Paid::Life(_) => 0,
    };
    let one_of = |ok: &dyn Fn(ManaKind) -> bool| matches!(paid, Paid::Mana(v) if v.len() == 1 && v[0].1 == 1 && ok(v[0].0));
    match symbol {
        Symbol::Generic(n) => matches!(paid, Paid::Mana(_)) && amount == n,
        Symbol::X => matches!(paid, Paid::Mana(_)) && amount == x,
        Symbol::Colored(c) => one_of(&|k| k.mana == mana_of(c)),
        Symbol::Colorless => one_of(&|k| k.mana == Mana::C),
        Symbol::Hybrid(a, b) => one_of(&|k| k.mana == mana_of(a) || k.mana == mana_of(b)),
        Symbol::TwoOr(c) => {
            one_of(&|k| k.mana == mana_of(c)) || (matches!(paid, Paid::Mana(_)) && amount == 2)
        }
        Symbol::Phyrexian(c) => *paid == Paid::Life(2) || one_of(&|k| k.mana == mana_of(c)),
        Symbol::Snow => one_of(&|k| k.snow),
    }
}

use proptest::prelude::{Just, prop_assert, prop_assert_eq};

proptest::proptest! {
    /// Whatever the cost, pool, life and X: no panic, at most the
    /// limit, every payment distinct, within the pool and the life
    /// total, and each symbol paid as the rules allow.
    #[test]
    fn every_payment_listed_is_legal(
        picks in proptest::collection::vec(0usize..16, 1..8),
        amounts in proptest::collection::vec(proptest::prop_oneof![0i64..4, Just(i64::MAX), Just(i64::MAX - 1)], 12),
        life in proptest::prop_oneof![-3i64..7, Just(i64::MAX), Just(i64::MIN)],
        x in proptest::prop_oneof![0i64..4, Just(i64::MAX)],
    ) {
        const MENU: [Symbol; 16] = [
            Symbol::Generic(0), Symbol::Generic(1), Symbol::Generic(i64::MAX), Symbol::X,
            Symbol::Colored(Color::Green), Symbol::Colored(Color::White), Symbol::Colorless,
            Symbol::Hybrid(Color::Green, Color::White), Symbol::Hybrid(Color::Blue, Color::Black),
            Symbol::TwoOr(Color::Black), Symbol::TwoOr(Color::Green),
            Symbol::Phyrexian(Color::White), Symbol::Phyrexian(Color::Red),
            Symbol::Snow, Symbol::Snow, Symbol::Colored(Color::Red),
        ];
        let cost = ManaCost::from_symbols(picks.iter().map(|i| MENU[*i]).collect()).unwrap();
        prop_assert_eq!(cost.to_string().parse::<ManaCost>().unwrap(), cost.clone());
        let mut pool = Pool::default();
        for (k, a) in KINDS.iter().zip(&amounts) {
            pool.set(*k, *a);
        }
        let found = cost.payments(&pool, life, x, 20);
        prop_assert!(found.list.len() <= 20);
        prop_assert_eq!(found.list.is_empty() && !found.capped, found.why_not.is_some());
        let mut seen = std::collections::BTreeSet::new();
        for p in &found.list {
            prop_assert!(seen.insert((p.mana.clone(), p.life)), "listed twice: {}", p);
            prop_assert!(p.life == 0 || p.life <= life, "{} life with {}", p.life, life);
            let mut spent = [0i128; 12];
            for (s, paid) in &p.symbols {
                prop_assert!(allowed(*s, paid, x), "{} with {}", s, paid);
                if let Paid::Mana(v) = paid {
                    for (k, n) in v {
                        spent[kind_index(*k)] += i128::from(*n);
                    }
                }
            }
            let life_paid: i64 = p.symbols.iter().map(|(_, paid)| match paid {
                Paid::Life(n) => *n,
                Paid::Mana(_) => 0,
            }).sum();
            prop_assert_eq!(life_paid, p.life);
            for (k, n) in &p.mana {
                prop_assert_eq!(spent[kind_index(*k)], i128::from(*n));
                prop_assert!(*n <= pool.get(*k));
            }
            prop_assert_eq!(spent.iter().sum::<i128>(), p.mana.iter().map(|(_, n)| i128::from(*n)).sum::<i128>());
        }
    }
}
