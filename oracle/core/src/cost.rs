//! Mana costs (107.4) and the ways a player can pay one.
//!
//! A [`ManaCost`] is read from and written as card text: `{2}{G}{G}`,
//! `{C}`, `{0}`, `{W/U}`, `{2/B}`, `{W/P}`, `{S}`, `{X}`. Given the mana a
//! player has ([`Pool`]: by type, and how much of each type a snow source
//! made), the player's life total and the value announced for X,
//! [`ManaCost::payments`] lists the distinct [`Payment`]s: which mana pays
//! each symbol, and how much life.
//!
//! Two payments are the same when they spend the same amounts of each
//! [`ManaKind`] (a type of mana, from a snow source or not) and the same
//! life; which symbol got which mana does not make a payment different.
//! The list is in a fixed order (see [`ManaCost::payments`]) and stops at a
//! limit the caller gives, saying so. Finding each payment takes a bounded
//! number of small max-flow computations, whatever the amounts: a pool of
//! 2^62 mana is as quick as a pool of 3.

use std::fmt;
use std::str::FromStr;

use crate::number::string_serde;
use crate::terms::{Color, Mana};

/// The most payments a `pay_cost` step counts: its `payments`
/// observation is at most this, which stands for "this many or more".
pub const PAYMENT_LIMIT: usize = 100;

/// The most symbols a cost may have. Printed costs have a handful; the
/// limit keeps the search over life and monocolored hybrid choices small.
pub const MAX_SYMBOLS: usize = 64;

const EMPTY: &str = "a cost has at least one symbol; a cost of nothing is {0}";
const TOO_MANY: &str = "a cost has at most 64 symbols; this one has more";

/// One symbol of a mana cost (107.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// `{N}`: N generic mana, paid with any type (107.4b). `{0}` costs
    /// nothing (107.4d).
    Generic(i64),
    /// `{X}`: generic mana, as much as the value announced for X (107.3a, 107.4b).
    X,
    /// `{W}`, `{U}`, `{B}`, `{R}`, `{G}`: one mana of that color (107.4a).
    Colored(Color),
    /// `{C}`: one colorless mana, and nothing else pays it (107.4c).
    Colorless,
    /// `{W/U}`: one mana of either color (107.4e).
    Hybrid(Color, Color),
    /// `{2/B}`: one mana of the color, or two of any type (107.4e).
    TwoOr(Color),
    /// `{W/P}`: one mana of the color, or 2 life (107.4f).
    Phyrexian(Color),
    /// `{S}`: one mana of any type made by a snow source (107.4h).
    Snow,
}

/// The letter of a color in mana symbols.
fn letter(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Blue => 'U',
        Color::Black => 'B',
        Color::Red => 'R',
        Color::Green => 'G',
    }
}

fn color_of_letter(s: &str) -> Option<Color> {
    Color::ALL
        .into_iter()
        .find(|c| s.len() == 1 && s.starts_with(letter(*c)))
}

/// The type of mana of a color.
fn mana_of(c: Color) -> Mana {
    match c {
        Color::White => Mana::W,
        Color::Blue => Mana::U,
        Color::Black => Mana::B,
        Color::Red => Mana::R,
        Color::Green => Mana::G,
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Symbol::Generic(n) => write!(f, "{{{n}}}"),
            Symbol::X => f.write_str("{X}"),
            Symbol::Colored(c) => write!(f, "{{{}}}", letter(*c)),
            Symbol::Colorless => f.write_str("{C}"),
            Symbol::Hybrid(a, b) => write!(f, "{{{}/{}}}", letter(*a), letter(*b)),
            Symbol::TwoOr(c) => write!(f, "{{2/{}}}", letter(*c)),
            Symbol::Phyrexian(c) => write!(f, "{{{}/P}}", letter(*c)),
            Symbol::Snow => f.write_str("{S}"),
        }
    }
}

impl FromStr for Symbol {
    type Err = CostError;

    /// One symbol with its braces: `{G}`, `{2/B}`.
    fn from_str(s: &str) -> Result<Symbol, CostError> {
        let inner = s
            .strip_prefix('{')
            .and_then(|r| r.strip_suffix('}'))
            .filter(|i| !i.contains(['{', '}']))
            .ok_or_else(|| CostError::new(s, "a symbol is written in braces, like {G}"))?;
        let bad = |why: &str| CostError::new(s, why);
        if !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_digit()) {
            if inner.len() > 1 && inner.starts_with('0') {
                return Err(bad("a number has no leading zeros"));
            }
            return inner
                .parse::<i64>()
                .map(Symbol::Generic)
                .map_err(|_| bad("the number is too large (at most 9223372036854775807)"));
        }
        match inner {
            "X" => return Ok(Symbol::X),
            "C" => return Ok(Symbol::Colorless),
            "S" => return Ok(Symbol::Snow),
            _ => {}
        }
        if let Some(c) = color_of_letter(inner) {
            return Ok(Symbol::Colored(c));
        }
        if let Some((a, b)) = inner.split_once('/') {
            match (a, color_of_letter(a), color_of_letter(b)) {
                (_, Some(c), None) if b == "P" => return Ok(Symbol::Phyrexian(c)),
                ("2", None, Some(c)) => return Ok(Symbol::TwoOr(c)),
                (_, Some(x), Some(y)) if x != y => return Ok(Symbol::Hybrid(x, y)),
                (_, Some(_), Some(_)) => {
                    return Err(bad("a hybrid symbol has two different colors"));
                }
                _ => {}
            }
        }
        Err(bad(
            "expected {N}, {X}, {W} {U} {B} {R} {G}, {C}, {S}, a hybrid {W/U}, {2/B} or a Phyrexian {W/P}",
        ))
    }
}

/// A cost that can't be read: the symbol at fault and why.
///
/// ```
/// use ptoracle_core::cost::ManaCost;
/// let e = "{2}{Q}".parse::<ManaCost>().unwrap_err();
/// assert_eq!(e.symbol, "{Q}");
/// assert!(e.to_string().starts_with("invalid mana symbol `{Q}`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostError {
    /// The symbol (or the text) that is wrong.
    pub symbol: String,
    /// Why.
    pub reason: String,
}

impl CostError {
    fn new(symbol: &str, reason: &str) -> CostError {
        // A hostile text is shown in part only.
        let shown: String = symbol.chars().take(40).collect();
        let more = if shown.len() < symbol.len() {
            "…"
        } else {
            ""
        };
        CostError {
            symbol: format!("{shown}{more}"),
            reason: reason.to_string(),
        }
    }
}

impl fmt::Display for CostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid mana symbol `{}`: {}", self.symbol, self.reason)
    }
}

impl std::error::Error for CostError {}

/// A mana cost: symbols in the order written (107.4).
///
/// ```
/// use ptoracle_core::cost::{ManaCost, Symbol};
/// use ptoracle_core::terms::Color;
/// let cost: ManaCost = "{2}{G}{G}".parse().unwrap();
/// assert_eq!(cost.symbols(), [Symbol::Generic(2), Symbol::Colored(Color::Green), Symbol::Colored(Color::Green)]);
/// assert_eq!(cost.to_string(), "{2}{G}{G}");
/// assert_eq!("{W/P}{2/B}{U/R}{S}{X}{C}{0}".parse::<ManaCost>().unwrap().to_string(), "{W/P}{2/B}{U/R}{S}{X}{C}{0}");
/// assert!("".parse::<ManaCost>().is_err());
/// assert!("{G".parse::<ManaCost>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ManaCost {
    symbols: Vec<Symbol>,
}

impl ManaCost {
    /// Its symbols, in the order written.
    pub fn symbols(&self) -> &[Symbol] {
        &self.symbols
    }

    /// The cost with these symbols.
    ///
    /// ```
    /// use ptoracle_core::cost::{ManaCost, Symbol};
    /// let cost = ManaCost::from_symbols(vec![Symbol::Generic(1), Symbol::Colorless]).unwrap();
    /// assert_eq!(cost.to_string(), "{1}{C}");
    /// assert!(ManaCost::from_symbols(Vec::new()).is_err());
    /// ```
    pub fn from_symbols(symbols: Vec<Symbol>) -> Result<ManaCost, CostError> {
        if symbols.is_empty() {
            return Err(CostError::new("", EMPTY));
        }
        if symbols.len() > MAX_SYMBOLS {
            return Err(CostError::new(&symbols[MAX_SYMBOLS].to_string(), TOO_MANY));
        }
        Ok(ManaCost { symbols })
    }

    /// Whether it has an `{X}`.
    pub fn has_x(&self) -> bool {
        self.symbols.contains(&Symbol::X)
    }

    /// Its mana value with X = `x` (202.3): the generic numbers and X, 1
    /// for each colored, colorless, snow, hybrid or Phyrexian symbol, 2 for
    /// a monocolored hybrid `{2/B}` (202.3f: the larger half). `None` when
    /// it does not fit in 64 bits.
    ///
    /// ```
    /// use ptoracle_core::cost::ManaCost;
    /// let cost: ManaCost = "{X}{X}{2/B}{W/U}{G/P}{S}{C}{1}".parse().unwrap();
    /// assert_eq!(cost.mana_value(3), Some(13));
    /// assert_eq!(cost.mana_value(0), Some(7));
    /// let huge: ManaCost = "{9223372036854775807}{G}".parse().unwrap();
    /// assert_eq!(huge.mana_value(0), None);
    /// ```
    pub fn mana_value(&self, x: i64) -> Option<i64> {
        let total: i128 = self
            .symbols
            .iter()
            .map(|s| match s {
                Symbol::Generic(n) => i128::from(*n),
                Symbol::X => i128::from(x),
                Symbol::TwoOr(_) => 2,
                Symbol::Colored(_)
                | Symbol::Colorless
                | Symbol::Hybrid(..)
                | Symbol::Phyrexian(_)
                | Symbol::Snow => 1,
            })
            .sum();
        i64::try_from(total).ok()
    }
}

impl fmt::Display for ManaCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.symbols {
            s.fmt(f)?;
        }
        Ok(())
    }
}

impl FromStr for ManaCost {
    type Err = CostError;

    fn from_str(s: &str) -> Result<ManaCost, CostError> {
        if s.is_empty() {
            return Err(CostError::new(s, EMPTY));
        }
        let mut symbols = Vec::new();
        let mut rest = s;
        while !rest.is_empty() {
            if symbols.len() == MAX_SYMBOLS {
                return Err(CostError::new(rest, TOO_MANY));
            }
            if !rest.starts_with('{') {
                let end = rest.find('{').unwrap_or(rest.len());
                return Err(CostError::new(
                    &rest[..end],
                    "text outside braces; each symbol is written in braces, like {G}",
                ));
            }
            let Some(close) = rest.find('}') else {
                return Err(CostError::new(rest, "the brace is never closed"));
            };
            let (symbol, after) = rest.split_at(close + 1);
            symbols.push(symbol.parse()?);
            rest = after;
        }
        Ok(ManaCost { symbols })
    }
}

string_serde!(
    ManaCost,
    "ManaCost",
    "^(\\{[^{}]+\\})+$",
    "a mana cost such as {2}{G}{G}: {N}, {X}, {W} {U} {B} {R} {G}, {C}, {S}, hybrid {W/U}, monocolored hybrid {2/B}, Phyrexian {W/P}"
);

/// A kind of mana in a pool: its type, and whether a snow source made it
/// (107.4h). Snow is not a type of mana; it only matters to `{S}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ManaKind {
    /// The type of mana.
    pub mana: Mana,
    /// Whether a snow permanent produced it.
    pub snow: bool,
}

impl fmt::Display for ManaKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.snow {
            write!(f, "snow {{{}}}", self.mana)
        } else {
            write!(f, "{{{}}}", self.mana)
        }
    }
}

const TYPES: [Mana; 6] = [Mana::W, Mana::U, Mana::B, Mana::R, Mana::G, Mana::C];

/// The kinds of mana in the order payments are listed in: snow mana first,
/// then the rest, each in WUBRG order then colorless.
const KINDS: [ManaKind; 12] = {
    let mut k = [ManaKind {
        mana: Mana::W,
        snow: true,
    }; 12];
    let mut i = 0;
    while i < 12 {
        k[i] = ManaKind {
            mana: TYPES[i % 6],
            snow: i < 6,
        };
        i += 1;
    }
    k
};

fn kind_index(k: ManaKind) -> usize {
    let t = TYPES.iter().position(|m| *m == k.mana).unwrap_or(0);
    if k.snow { t } else { t + 6 }
}

/// The mana a player can spend: an amount of each [`ManaKind`].
///
/// ```
/// use ptoracle_core::cost::{ManaKind, Pool};
/// use ptoracle_core::terms::Mana;
/// let mut pool = Pool::default();
/// pool.set(ManaKind { mana: Mana::G, snow: true }, 2);
/// pool.set(ManaKind { mana: Mana::G, snow: false }, 1);
/// assert_eq!(pool.get(ManaKind { mana: Mana::G, snow: true }), 2);
/// assert_eq!(pool.total(), 3);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pool {
    amounts: [i64; 12],
}

impl Pool {
    /// Sets the amount of one kind; a negative amount is none (a pool
    /// never holds less than nothing).
    pub fn set(&mut self, kind: ManaKind, amount: i64) {
        self.amounts[kind_index(kind)] = amount.max(0);
    }

    /// The amount of one kind.
    pub fn get(&self, kind: ManaKind) -> i64 {
        self.amounts[kind_index(kind)]
    }

    /// All the mana in it (wide enough never to overflow).
    pub fn total(&self) -> i128 {
        self.amounts.iter().map(|a| i128::from(*a)).sum()
    }
}

/// How one symbol of a cost is paid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Paid {
    /// With this mana (several kinds for generic mana).
    Mana(Vec<(ManaKind, i64)>),
    /// With this much life (a Phyrexian symbol, 107.4f).
    Life(i64),
}

impl fmt::Display for Paid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Paid::Life(n) => write!(f, "{n} life"),
            Paid::Mana(v) if v.is_empty() => f.write_str("nothing"),
            Paid::Mana(v) => joined(f, v, " + ", |f, (k, n)| write!(f, "{n} {k}")),
        }
    }
}

/// Writes `items` with `sep` between them.
fn joined<T>(
    f: &mut fmt::Formatter<'_>,
    items: &[T],
    sep: &str,
    each: impl Fn(&mut fmt::Formatter<'_>, &T) -> fmt::Result,
) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        each(f, item)?;
    }
    Ok(())
}

/// One way to pay a cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Payment {
    /// The mana spent, by kind in listing order, without zero amounts.
    pub mana: Vec<(ManaKind, i64)>,
    /// The life paid (119.4).
    pub life: i64,
    /// How each symbol is paid, in the cost's order.
    pub symbols: Vec<(Symbol, Paid)>,
}

impl fmt::Display for Payment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        joined(f, &self.symbols, ", ", |f, (s, p)| {
            write!(f, "{s} with {p}")
        })
    }
}

/// The payments of a cost, as far as they were listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Payments {
    /// The payments, in listing order.
    pub list: Vec<Payment>,
    /// Whether there are more than the limit allowed to list.
    pub capped: bool,
    /// When there is none: why the cost can't be paid.
    pub why_not: Option<String>,
}

// The search. Every symbol that is not generic falls in a class of
// interchangeable symbols; a class accepts some kinds of mana, and the
// classes of Phyrexian and monocolored hybrid symbols also accept a
// "token": 2 life, or the choice to pay two generic mana instead. Whether
// given amounts of each kind (and of each token) pay the cost is then a
// transportation problem, decided by a max flow; generic mana takes
// whatever is left.

/// What a class of symbols accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClassKind {
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

struct Class {
    kind: ClassKind,
    /// The symbols of the cost in it, by index.
    symbols: Vec<usize>,
}

/// A tiny flow network: source, 12 kinds of mana, the life token, the
/// generic token, the classes, sink.
struct Net {
    n: usize,
    /// Capacities of the edges that do not change: kind/token → class → sink.
    base: Vec<i128>,
    classes: usize,
}

const SOURCE: usize = 0;
const KIND0: usize = 1;
const LIFE: usize = 13;
const TWO: usize = 14;
const CLASS0: usize = 15;

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
struct Search<'a> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
                Symbol::Colored(c) | Symbol::TwoOr(c) | Symbol::Phyrexian(c) => {
                    k.mana == mana_of(c)
                }
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
}
