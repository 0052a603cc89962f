//! Kinds of mana, a player's pool and the payments found for a cost.

use std::fmt;

use super::symbol::Symbol;
use crate::terms::Mana;

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

pub(super) const TYPES: [Mana; 6] = [Mana::W, Mana::U, Mana::B, Mana::R, Mana::G, Mana::C];

/// The kinds of mana in the order payments are listed in: snow mana first,
/// then the rest, each in WUBRG order then colorless.
pub(super) const KINDS: [ManaKind; 12] = {
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

pub(super) fn kind_index(k: ManaKind) -> usize {
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
pub(super) fn joined<T>(
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
