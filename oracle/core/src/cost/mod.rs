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

mod mana_cost;
mod pool;
mod search;
mod symbol;

pub use mana_cost::ManaCost;
pub use pool::{ManaKind, Paid, Payment, Payments, Pool};
pub use symbol::{CostError, Symbol};

/// The most payments a `pay_cost` step counts: its `payments`
/// observation is at most this, which stands for "this many or more".
pub const PAYMENT_LIMIT: usize = 100;

/// The most symbols a cost may have. Printed costs have a handful; the
/// limit keeps the search over life and monocolored hybrid choices small.
pub const MAX_SYMBOLS: usize = 64;

#[cfg(test)]
mod tests;
