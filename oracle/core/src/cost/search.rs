//! The search for the distinct payments of a cost: classes of
//! interchangeable symbols and a small max flow per candidate.

use super::mana_cost::ManaCost;
use super::pool::{KINDS, ManaKind, Paid, Payment, Payments, Pool};
use super::symbol::{Symbol, mana_of};
use crate::terms::Mana;

// The search. Every symbol that is not generic falls in a class of
// interchangeable symbols; a class accepts some kinds of mana, and the
// classes of Phyrexian and monocolored hybrid symbols also accept a
// "token": 2 life, or the choice to pay two generic mana instead. Whether
// given amounts of each kind (and of each token) pay the cost is then a
// transportation problem, decided by a max flow; generic mana takes
// whatever is left.

/// What a class of symbols accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ClassKind {
    Colored(Mana),
    Colorless,
    Hybrid(Mana, Mana),
    TwoOr(Mana),
    Phyrexian(Mana),
    Snow,
}

impl ClassKind {
    fn of(s: Symbol) -> Option<ClassKind> {
        Some(match s {
            Symbol::Generic(_) | Symbol::X => return None,
            Symbol::Colored(c) => ClassKind::Colored(mana_of(c)),
            Symbol::Colorless => ClassKind::Colorless,
            Symbol::Hybrid(a, b) => {
                let (a, b) = (mana_of(a), mana_of(b));
                ClassKind::Hybrid(a.min(b), a.max(b))
            }
            Symbol::TwoOr(c) => ClassKind::TwoOr(mana_of(c)),
            Symbol::Phyrexian(c) => ClassKind::Phyrexian(mana_of(c)),
            Symbol::Snow => ClassKind::Snow,
        })
    }

    fn accepts(self, k: ManaKind) -> bool {
        match self {
            // 107.4a: colored mana in a cost only with that color.
            ClassKind::Colored(m) | ClassKind::TwoOr(m) | ClassKind::Phyrexian(m) => k.mana == m,
            // 107.4c: {C} only with colorless mana.
            ClassKind::Colorless => k.mana == Mana::C,
            // 107.4e: either half of a hybrid symbol.
            ClassKind::Hybrid(a, b) => k.mana == a || k.mana == b,
            // 107.4h: any type, from a snow source.
            ClassKind::Snow => k.snow,
        }
    }
}

pub(super) struct Class {
    kind: ClassKind,
    /// The symbols of the cost in it, by index.
    symbols: Vec<usize>,
}

/// A tiny flow network: source, 12 kinds of mana, the life token, the
/// generic token, the classes, sink.
pub(super) struct Net {
    n: usize,
    /// Capacities of the edges that do not change: kind/token → class → sink.
    base: Vec<i128>,
    classes: usize,
}

pub(super) const SOURCE: usize = 0;
pub(super) const KIND0: usize = 1;
pub(super) const LIFE: usize = 13;
pub(super) const TWO: usize = 14;
pub(super) const CLASS0: usize = 15;

impl Net {
    fn new(classes: &[Class]) -> Net {
        let n = CLASS0 + classes.len() + 1;
        let sink = n - 1;
        let mut base = vec![0i128; n * n];
        for (i, c) in classes.iter().enumerate() {
            let node = CLASS0 + i;
            let demand = c.symbols.len() as i128;
            base[node * n + sink] = demand;
            for (k, kind) in KINDS.iter().enumerate() {
                if c.kind.accepts(*kind) {
                    base[(KIND0 + k) * n + node] = demand;
                }
            }
            match c.kind {
                // 107.4f: 2 life instead of the colored mana.
                ClassKind::Phyrexian(_) => base[LIFE * n + node] = demand,
                // 107.4e: two generic mana instead of the colored mana.
                ClassKind::TwoOr(_) => base[TWO * n + node] = demand,
                _ => {}
            }
        }
        Net {
            n,
            base,
            classes: classes.len(),
        }
    }

    /// The max flow with these capacities out of the source (12 kinds,
    /// then life tokens, then generic tokens), and the flow on each edge.
    /// The tokens are routed first: augmenting paths never take flow back
    /// from the source's edges, so every token that fits is used, as a
    /// payment that chose them must.
    fn max_flow(&self, supply: &[i128; 14]) -> (i128, Vec<i128>) {
        let n = self.n;
        let mut cap = self.base.clone();
        let mut flow = vec![0i128; n * n];
        cap[SOURCE * n + LIFE] = supply[12];
        cap[SOURCE * n + TWO] = supply[13];
        let tokens = self.augment(&cap, &mut flow);
        for (i, s) in supply.iter().take(12).enumerate() {
            cap[SOURCE * n + KIND0 + i] = *s;
        }
        let rest = self.augment(&cap, &mut flow);
        (tokens + rest, flow)
    }

    /// Augments `flow` to a max flow within `cap`; returns what it added.
    fn augment(&self, cap: &[i128], flow: &mut [i128]) -> i128 {
        let n = self.n;
        let sink = n - 1;
        let mut total = 0i128;
        // Edmonds–Karp: at most O(V·E) augmentations whatever the
        // capacities, and V is at most 44.
        loop {
            let mut prev = vec![usize::MAX; n];
            prev[SOURCE] = SOURCE;
            let mut queue = std::collections::VecDeque::from([SOURCE]);
            while let Some(u) = queue.pop_front() {
                for v in 0..n {
                    if prev[v] == usize::MAX && cap[u * n + v] - flow[u * n + v] > 0 {
                        prev[v] = u;
                        queue.push_back(v);
                    }
                }
            }
            if prev[sink] == usize::MAX {
                return total;
            }
            let mut push = i128::MAX;
            let mut v = sink;
            while v != SOURCE {
                let u = prev[v];
                push = push.min(cap[u * n + v] - flow[u * n + v]);
                v = u;
            }
            let mut v = sink;
            while v != SOURCE {
                let u = prev[v];
                flow[u * n + v] += push;
                flow[v * n + u] -= push;
                v = u;
            }
            total += push;
        }
    }
}

/// The search for one choice of how many Phyrexian symbols are paid with
/// life (`tokens[0]`) and how many monocolored hybrid symbols with two
/// generic mana (`tokens[1]`).
pub(super) struct Search<'a> {
    net: &'a Net,
    pool: [i128; 12],
    tokens: [i128; 2],
    /// Mana the non-generic classes need, tokens included.
    demand: i128,
    /// All the mana to spend.
    total: i128,
    limit: usize,
    found: Vec<[i128; 12]>,
}

impl Search<'_> {
    fn supply(&self, spent: &[i128], rest: &[i128]) -> [i128; 14] {
        let mut s = [0i128; 14];
        for (i, v) in spent.iter().chain(rest).enumerate().take(12) {
            s[i] = *v;
        }
        s[12] = self.tokens[0];
        s[13] = self.tokens[1];
        s
    }

    fn flow(&self, spent: &[i128], rest: &[i128]) -> i128 {
        self.net.max_flow(&self.supply(spent, rest)).0
    }

    /// The smallest `t` in `lo..=hi` where `ok` holds, `ok` being false
    /// then true as `t` grows.
    fn first(mut lo: i128, mut hi: i128, ok: impl Fn(i128) -> bool) -> Option<i128> {
        if lo > hi || !ok(hi) {
            return None;
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if ok(mid) { hi = mid } else { lo = mid + 1 }
        }
        Some(lo)
    }

    /// Lists, in increasing order of the next kind's amount, every way to
    /// complete `spent` (the amounts of the first kinds).
    fn extend(&mut self, spent: &mut Vec<i128>) {
        let i = spent.len();
        if self.found.len() > self.limit {
            return;
        }
        if i == 12 {
            let mut v = [0i128; 12];
            v.copy_from_slice(spent);
            self.found.push(v);
            return;
        }
        let so_far: i128 = spent.iter().sum();
        let later: i128 = self.pool[i + 1..].iter().sum();
        let left = self.total - so_far;
        let max = self.pool[i].min(left);
        // What the later kinds can't make up must come from this one.
        let min = (left - later).max(0);
        let with = |t: i128| {
            let mut s = spent.clone();
            s.push(t);
            s
        };
        // Enough mana of the right kinds for every non-generic symbol.
        let Some(lo) = Self::first(min, max, |t| {
            self.flow(&with(t), &self.pool[i + 1..]) == self.demand
        }) else {
            return;
        };
        // Not so much of this kind that what the non-generic symbols
        // still need from the later kinds goes over the total.
        let over = |t: i128| {
            let covered = self.flow(&with(t), &[]);
            self.demand - covered > left - t
        };
        let hi = match Self::first(lo, max, over) {
            Some(t) => t - 1,
            None => max,
        };
        let mut t = lo;
        while t <= hi && self.found.len() <= self.limit {
            spent.push(t);
            self.extend(spent);
            spent.pop();
            t += 1;
        }
    }
}

impl ManaCost {
    /// The distinct ways to pay the cost from `pool` and `life`, with X
    /// announced as `x` (107.3a), listing at most `limit`.
    ///
    /// Payments are listed with less life first, then less mana (a
    /// monocolored hybrid symbol paid with its color before with two
    /// generic mana), then by the amounts of each kind of mana, snow
    /// mana first, in WUBRG order then colorless, smallest first: the
    /// first payment spends as little snow mana as it can.
    ///
    /// ```
    /// use ptoracle_core::cost::{ManaCost, ManaKind, Pool};
    /// use ptoracle_core::terms::Mana;
    /// let cost: ManaCost = "{1}{G}".parse().unwrap();
    /// let mut pool = Pool::default();
    /// pool.set(ManaKind { mana: Mana::G, snow: false }, 2);
    /// pool.set(ManaKind { mana: Mana::W, snow: false }, 1);
    /// let p = cost.payments(&pool, 20, 0, 10);
    /// // {G}{G}, or {W}{G}: two payments.
    /// assert_eq!(p.list.len(), 2);
    /// assert_eq!(p.list[0].to_string(), "{1} with 1 {G}, {G} with 1 {G}");
    /// assert!(!p.capped);
    ///
    /// // Phyrexian mana: 2 life only with at least 2 life (119.4).
    /// let phyrexian: ManaCost = "{W/P}".parse().unwrap();
    /// assert_eq!(phyrexian.payments(&Pool::default(), 2, 0, 10).list[0].life, 2);
    /// assert!(phyrexian.payments(&Pool::default(), 1, 0, 10).list.is_empty());
    /// ```
    ///
    /// A negative `x` can't be announced (107.1b): nothing pays the cost.
    pub fn payments(&self, pool: &Pool, life: i64, x: i64, limit: usize) -> Payments {
        let none = |why: String| Payments {
            list: Vec::new(),
            capped: false,
            why_not: Some(why),
        };
        if x < 0 && self.has_x() {
            return none(format!(
                "X can't be {x}: a player can't choose a negative number [107.1b]"
            ));
        }
        let mut classes: Vec<Class> = Vec::new();
        // 107.4b: numbers and X are generic mana.
        let mut generic: i128 = 0;
        for (i, s) in self.symbols.iter().enumerate() {
            match ClassKind::of(*s) {
                Some(kind) => match classes.iter_mut().find(|c| c.kind == kind) {
                    Some(c) => c.symbols.push(i),
                    None => classes.push(Class {
                        kind,
                        symbols: vec![i],
                    }),
                },
                None => {
                    generic += match s {
                        Symbol::Generic(n) => i128::from(*n),
                        _ => i128::from(x),
                    }
                }
            }
        }
        let count = |f: fn(ClassKind) -> bool| -> i128 {
            classes
                .iter()
                .filter(|c| f(c.kind))
                .map(|c| c.symbols.len() as i128)
                .sum()
        };
        let demand = count(|_| true);
        let phyrexian = count(|k| matches!(k, ClassKind::Phyrexian(_)));
        let two_or = count(|k| matches!(k, ClassKind::TwoOr(_)));
        // 119.4: a player pays life only up to their life total; paying 0
        // life is always possible.
        let most_life = phyrexian.min(i128::from(life.max(0)) / 2);
        let net = Net::new(&classes);
        let mut pool_kinds = [0i128; 12];
        for (i, k) in KINDS.iter().enumerate() {
            pool_kinds[i] = i128::from(pool.get(*k));
        }
        let mut list = Vec::new();
        let mut capped = false;
        'outer: for lives in 0..=most_life {
            for twos in 0..=two_or {
                let mut search = Search {
                    net: &net,
                    pool: pool_kinds,
                    tokens: [lives, twos],
                    demand,
                    // Each life token pays a symbol without mana; each
                    // generic token makes a symbol cost two instead of one.
                    total: demand + generic - lives + twos,
                    limit: limit - list.len(),
                    found: Vec::new(),
                };
                search.extend(&mut Vec::with_capacity(12));
                for spent in search.found {
                    if list.len() == limit {
                        capped = true;
                        break 'outer;
                    }
                    list.push(self.payment(&net, &classes, spent, [lives, twos], x));
                }
            }
        }
        if list.is_empty() && !capped {
            return none(self.why_not(pool, life, x, &classes, generic));
        }
        Payments {
            list,
            capped,
            why_not: None,
        }
    }

    /// How each symbol is paid, given the amounts spent.
    fn payment(
        &self,
        net: &Net,
        classes: &[Class],
        spent: [i128; 12],
        tokens: [i128; 2],
        x: i64,
    ) -> Payment {
        let mut supply = [0i128; 14];
        supply[..12].copy_from_slice(&spent);
        supply[12] = tokens[0];
        supply[13] = tokens[1];
        let (_, flow) = net.max_flow(&supply);
        let n = net.n;
        let narrow = |v: i128| i64::try_from(v).unwrap_or(i64::MAX);
        let mut paid: Vec<Option<Paid>> = vec![None; self.symbols.len()];
        let mut left = spent;
        let mut generic_owed: Vec<(usize, i128)> = Vec::new();
        for (ci, c) in classes.iter().enumerate().take(net.classes) {
            let node = CLASS0 + ci;
            let mut symbols = c.symbols.iter();
            for (k, kind) in KINDS.iter().enumerate() {
                let f = flow[(KIND0 + k) * n + node];
                left[k] -= f;
                for _ in 0..f {
                    if let Some(s) = symbols.next() {
                        paid[*s] = Some(Paid::Mana(vec![(*kind, 1)]));
                    }
                }
            }
            for _ in 0..flow[LIFE * n + node] {
                if let Some(s) = symbols.next() {
                    // 107.4f: 2 life for a Phyrexian symbol.
                    paid[*s] = Some(Paid::Life(2));
                }
            }
            for _ in 0..flow[TWO * n + node] {
                if let Some(s) = symbols.next() {
                    generic_owed.push((*s, 2));
                }
            }
        }
        for (i, s) in self.symbols.iter().enumerate() {
            match s {
                Symbol::Generic(v) => generic_owed.push((i, i128::from(*v))),
                Symbol::X => generic_owed.push((i, i128::from(x))),
                _ => {}
            }
        }
        generic_owed.sort_unstable();
        // Generic mana takes what the other symbols left (107.4b).
        let mut k = 0;
        for (s, mut owed) in generic_owed {
            let mut with = Vec::new();
            while owed > 0 && k < 12 {
                let take = owed.min(left[k]);
                if take > 0 {
                    with.push((KINDS[k], narrow(take)));
                    left[k] -= take;
                    owed -= take;
                }
                if left[k] == 0 {
                    k += 1;
                }
            }
            paid[s] = Some(Paid::Mana(with));
        }
        Payment {
            mana: KINDS
                .iter()
                .zip(spent)
                .filter(|(_, v)| *v > 0)
                .map(|(k, v)| (*k, narrow(v)))
                .collect(),
            life: narrow(tokens[0] * 2),
            symbols: self
                .symbols
                .iter()
                .zip(paid)
                .map(|(s, p)| (*s, p.unwrap_or(Paid::Mana(Vec::new()))))
                .collect(),
        }
    }

    /// Why nothing pays the cost, as precisely as one reason can say.
    fn why_not(&self, pool: &Pool, life: i64, x: i64, classes: &[Class], generic: i128) -> String {
        // Each class alone: the mana it accepts, plus life or generic
        // mana where those can stand in.
        for c in classes {
            let need = c.symbols.len() as i128;
            let have: i128 = KINDS
                .iter()
                .filter(|k| c.kind.accepts(**k))
                .map(|k| i128::from(pool.get(*k)))
                .sum();
            let stand_in = match c.kind {
                ClassKind::Phyrexian(_) => i128::from(life.max(0)) / 2,
                ClassKind::TwoOr(_) => pool.total() / 2,
                _ => 0,
            };
            if have + stand_in < need {
                let symbol = self.symbols[c.symbols[0]];
                let (what, rule) = match c.kind {
                    ClassKind::Colored(m) => (format!("{{{m}}} mana"), "107.4a"),
                    ClassKind::Colorless => ("colorless mana".to_string(), "107.4c"),
                    ClassKind::Hybrid(a, b) => (format!("{{{a}}} or {{{b}}} mana"), "107.4e"),
                    ClassKind::TwoOr(m) => (format!("{{{m}}} mana or two mana"), "107.4e"),
                    ClassKind::Phyrexian(m) => (
                        format!("{{{m}}} mana or 2 life each (with {life} life)"),
                        "107.4f, 119.4",
                    ),
                    ClassKind::Snow => ("mana from snow sources".to_string(), "107.4h"),
                };
                return format!(
                    "{need} × {symbol} needs {what}, and there is only enough for {} [{rule}]",
                    have + stand_in
                );
            }
        }
        let least: i128 = classes
            .iter()
            .filter(|c| !matches!(c.kind, ClassKind::Phyrexian(_)))
            .map(|c| c.symbols.len() as i128)
            .sum::<i128>()
            + generic;
        if least > pool.total() {
            let x_note = if self.has_x() {
                format!(" with X = {x}")
            } else {
                String::new()
            };
            return format!(
                "the cost{x_note} needs at least {least} mana besides Phyrexian symbols, and the pool holds {} [107.4b, 118.3]",
                pool.total()
            );
        }
        "no way to give every symbol mana it accepts from this pool [107.4, 118.3]".to_string()
    }
}
