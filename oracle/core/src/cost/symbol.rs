//! The symbols of a mana cost (107.4) as card text, and what a bad text
//! is refused with.

use std::fmt;
use std::str::FromStr;

use crate::terms::{Color, Mana};

pub(super) const EMPTY: &str = "a cost has at least one symbol; a cost of nothing is {0}";
pub(super) const TOO_MANY: &str = "a cost has at most 64 symbols; this one has more";

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
pub(super) fn letter(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Blue => 'U',
        Color::Black => 'B',
        Color::Red => 'R',
        Color::Green => 'G',
    }
}

pub(super) fn color_of_letter(s: &str) -> Option<Color> {
    Color::ALL
        .into_iter()
        .find(|c| s.len() == 1 && s.starts_with(letter(*c)))
}

/// The type of mana of a color.
pub(super) fn mana_of(c: Color) -> Mana {
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
    pub(crate) fn new(symbol: &str, reason: &str) -> CostError {
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
