//! A mana cost as card text: its symbols in the order written.

use std::fmt;
use std::str::FromStr;

use super::MAX_SYMBOLS;
use super::symbol::{CostError, EMPTY, Symbol, TOO_MANY};
use crate::number::string_serde;

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
    pub(super) symbols: Vec<Symbol>,
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
