//! Game numbers (107.1): integers only, arithmetic checked, and the
//! power/toughness texts of the ruling format (`3/4`, `*/1+*`, `+X/-0`).
//!
//! Every game value is an `i64`. Arithmetic on game values goes through
//! [`checked`], so an overflow becomes a reported [`Overflow`] instead of a
//! wrap or a panic.

use std::fmt;
use std::str::FromStr;

/// An arithmetic overflow while computing a game value.
///
/// The resolver reports it as an error of the step that caused it; it never
/// wraps or panics (107.1: the game uses integers, and this oracle refuses to
/// invent a value it cannot represent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overflow {
    /// What was being computed, e.g. `power of ogre in 7c`.
    pub what: String,
}

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "arithmetic overflow computing {}", self.what)
    }
}

/// Turns a checked operation's `None` into an [`Overflow`] naming `what`.
///
/// ```
/// use ptoracle_core::number::checked;
/// assert_eq!(checked(2i64.checked_add(3), || "a sum".into()), Ok(5));
/// assert!(checked(i64::MAX.checked_add(1), || "a sum".into()).is_err());
/// ```
pub fn checked(value: Option<i64>, what: impl FnOnce() -> String) -> Result<i64, Overflow> {
    value.ok_or_else(|| Overflow { what: what() })
}

/// A power/toughness pair of actual values, written `P/T` (`-2/4`).
///
/// ```
/// use ptoracle_core::number::Pt;
/// let pt: Pt = "-2/4".parse().unwrap();
/// assert_eq!((pt.power, pt.toughness), (-2, 4));
/// assert_eq!(pt.to_string(), "-2/4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pt {
    /// Power.
    pub power: i64,
    /// Toughness.
    pub toughness: i64,
}

impl Pt {
    /// A pair from its two values.
    pub const fn new(power: i64, toughness: i64) -> Pt {
        Pt { power, toughness }
    }
}

impl fmt::Display for Pt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.power, self.toughness)
    }
}

impl FromStr for Pt {
    type Err = String;
    fn from_str(s: &str) -> Result<Pt, String> {
        let (p, t) = split_pt(s)?;
        Ok(Pt {
            power: parse_int(p, "power", s)?,
            toughness: parse_int(t, "toughness", s)?,
        })
    }
}

/// One printed number of a card: a fixed number, `*` or `N+*` (Tarmogoyf's
/// `1+*`). The value of `*` comes from a characteristic-defining ability
/// (208.2a); without one it is 0 (208.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Printed {
    /// A printed number, e.g. `3`.
    Fixed(i64),
    /// `*`, or `N+*` with the fixed part `N` (0 for a bare `*`).
    Star(i64),
}

impl Printed {
    /// The value, given the value of `*`.
    pub fn value(self, star: i64) -> Option<i64> {
        match self {
            Printed::Fixed(n) => Some(n),
            Printed::Star(n) => n.checked_add(star),
        }
    }
}

impl fmt::Display for Printed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Printed::Fixed(n) => write!(f, "{n}"),
            Printed::Star(0) => f.write_str("*"),
            Printed::Star(n) => write!(f, "{n}+*"),
        }
    }
}

/// Printed power/toughness: `3/4`, `*/*`, `*/1+*`, `-1/3` (Char-Rumbler).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PrintedPt {
    /// Printed power.
    pub power: Printed,
    /// Printed toughness.
    pub toughness: Printed,
}

impl PrintedPt {
    /// Whether either number has a `*`.
    pub fn has_star(&self) -> bool {
        matches!(self.power, Printed::Star(_)) || matches!(self.toughness, Printed::Star(_))
    }
}

impl fmt::Display for PrintedPt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.power, self.toughness)
    }
}

impl FromStr for PrintedPt {
    type Err = String;
    fn from_str(s: &str) -> Result<PrintedPt, String> {
        let (p, t) = split_pt(s)?;
        let one = |part: &str, which: &str| -> Result<Printed, String> {
            if part == "*" {
                return Ok(Printed::Star(0));
            }
            if let Some(fixed) = part.strip_suffix("+*") {
                return Ok(Printed::Star(parse_int(fixed, which, s)?));
            }
            parse_int(part, which, s).map_err(|_| {
                format!("invalid printed power/toughness `{s}`: {which} must be an integer, `*` or `N+*`")
            }).map(Printed::Fixed)
        };
        Ok(PrintedPt {
            power: one(p, "power")?,
            toughness: one(t, "toughness")?,
        })
    }
}

/// An amount in an effect's P/T text: a number or the effect's `X`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Amount {
    /// A fixed number.
    Fixed(i64),
    /// The effect's `X` (one value for every `X` of the effect, 107.3i).
    X,
}

/// The P/T of a setting effect (layer 7b): `0/1`, `X/X`, `-1/2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SetPt {
    /// The power it sets.
    pub power: Amount,
    /// The toughness it sets.
    pub toughness: Amount,
}

impl SetPt {
    /// Whether it mentions `X`.
    pub fn uses_x(&self) -> bool {
        self.power == Amount::X || self.toughness == Amount::X
    }

    /// The values it sets, given `X`.
    pub fn resolve(&self, x: i64) -> Pt {
        let v = |a: Amount| match a {
            Amount::Fixed(n) => n,
            Amount::X => x,
        };
        Pt::new(v(self.power), v(self.toughness))
    }
}

impl fmt::Display for SetPt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = |a: Amount| match a {
            Amount::Fixed(n) => n.to_string(),
            Amount::X => "X".into(),
        };
        write!(f, "{}/{}", v(self.power), v(self.toughness))
    }
}

impl FromStr for SetPt {
    type Err = String;
    fn from_str(s: &str) -> Result<SetPt, String> {
        let (p, t) = split_pt(s)?;
        let one = |part: &str, which: &str| -> Result<Amount, String> {
            if part == "X" {
                Ok(Amount::X)
            } else if part.starts_with('+') {
                Err(format!(
                    "invalid P/T `{s}`: a setting effect gives values, not changes (write `{}` or use `modify:`)",
                    s.replace('+', "")
                ))
            } else {
                parse_int(part, which, s).map(Amount::Fixed)
            }
        };
        Ok(SetPt {
            power: one(p, "power")?,
            toughness: one(t, "toughness")?,
        })
    }
}

/// One signed change of a modifying effect (layer 7c): `+2`, `-0`, `+X`, `-X`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Change {
    /// `true` for `-`.
    pub minus: bool,
    /// The magnitude, never negative.
    pub amount: Amount,
}

impl Change {
    /// The signed value, given `X`. `None` on overflow.
    pub fn value(&self, x: i64) -> Option<i64> {
        let magnitude = match self.amount {
            Amount::Fixed(n) => n,
            Amount::X => x,
        };
        if self.minus {
            magnitude.checked_neg()
        } else {
            Some(magnitude)
        }
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.minus { "-" } else { "+" })?;
        match self.amount {
            Amount::Fixed(n) => write!(f, "{n}"),
            Amount::X => f.write_str("X"),
        }
    }
}

/// The P/T text of a modifying effect (layer 7c): `+3/+3`, `-5/-0`, `+X/+X`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModPt {
    /// The change to power.
    pub power: Change,
    /// The change to toughness.
    pub toughness: Change,
}

impl ModPt {
    /// Whether it mentions `X`.
    pub fn uses_x(&self) -> bool {
        self.power.amount == Amount::X || self.toughness.amount == Amount::X
    }
}

impl fmt::Display for ModPt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.power, self.toughness)
    }
}

impl FromStr for ModPt {
    type Err = String;
    fn from_str(s: &str) -> Result<ModPt, String> {
        let (p, t) = split_pt(s)?;
        let one = |part: &str, which: &str| -> Result<Change, String> {
            let (minus, rest) = match part.as_bytes().first() {
                Some(b'+') => (false, &part[1..]),
                Some(b'-') => (true, &part[1..]),
                _ => {
                    return Err(format!(
                        "invalid P/T change `{s}`: each part needs a sign, as in `+3/-0`"
                    ));
                }
            };
            let amount = if rest == "X" {
                Amount::X
            } else {
                let n = parse_int(rest, which, s)?;
                if n < 0 {
                    return Err(format!("invalid P/T change `{s}`: one sign per part"));
                }
                Amount::Fixed(n)
            };
            Ok(Change { minus, amount })
        };
        Ok(ModPt {
            power: one(p, "power")?,
            toughness: one(t, "toughness")?,
        })
    }
}

fn split_pt(s: &str) -> Result<(&str, &str), String> {
    match s.split_once('/') {
        Some((p, t)) if !p.is_empty() && !t.is_empty() && !t.contains('/') => Ok((p, t)),
        _ => Err(format!(
            "invalid power/toughness `{s}`: expected the form P/T"
        )),
    }
}

fn parse_int(part: &str, which: &str, whole: &str) -> Result<i64, String> {
    let digits = part.strip_prefix('-').unwrap_or(part);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "invalid power/toughness `{whole}`: {which} `{part}` is not an integer"
        ));
    }
    part.parse::<i64>().map_err(|_| {
        format!(
            "invalid power/toughness `{whole}`: {which} `{part}` does not fit in a 64-bit integer"
        )
    })
}

/// Implements `Serialize`, `Deserialize` and `JsonSchema` for a type that is
/// written as a string through `Display` and `FromStr`.
macro_rules! string_serde {
    ($ty:ty, $name:literal, $pattern:literal, $desc:literal) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str($desc)
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$ty, E> {
                        v.parse().map_err(E::custom)
                    }
                }
                d.deserialize_str(V)
            }
        }
        impl schemars::JsonSchema for $ty {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                $name.into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "pattern": $pattern,
                    "description": $desc,
                })
            }
        }
    };
}
pub(crate) use string_serde;

string_serde!(
    Pt,
    "Pt",
    "^-?[0-9]+/-?[0-9]+$",
    "power/toughness as P/T, e.g. 3/4 or -2/4"
);
string_serde!(
    PrintedPt,
    "PrintedPt",
    "^(-?[0-9]+|[0-9]*\\+?\\*)/(-?[0-9]+|[0-9]*\\+?\\*)$",
    "printed power/toughness, e.g. 2/2, */*, */1+*"
);
string_serde!(
    SetPt,
    "SetPt",
    "^(-?[0-9]+|X)/(-?[0-9]+|X)$",
    "the P/T a setting effect gives, e.g. 0/1 or X/X"
);
string_serde!(
    ModPt,
    "ModPt",
    "^[+-]([0-9]+|X)/[+-]([0-9]+|X)$",
    "a P/T change with a sign on each part, e.g. +3/+3, -5/-0, +X/+X"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_forms() {
        let p: PrintedPt = "*/1+*".parse().unwrap();
        assert_eq!(p.power, Printed::Star(0));
        assert_eq!(p.toughness, Printed::Star(1));
        assert_eq!(p.to_string(), "*/1+*");
        assert!("3/x".parse::<PrintedPt>().is_err());
        assert!("3".parse::<PrintedPt>().is_err());
        assert!("3/4/5".parse::<PrintedPt>().is_err());
        assert_eq!("-1/3".parse::<PrintedPt>().unwrap().to_string(), "-1/3");
    }

    #[test]
    fn changes_need_signs() {
        assert!("3/0".parse::<ModPt>().is_err());
        assert!("+-3/+0".parse::<ModPt>().is_err());
        let m: ModPt = "-5/-0".parse().unwrap();
        assert_eq!(m.power.value(0), Some(-5));
        assert_eq!(m.toughness.value(0), Some(0));
        assert_eq!(
            "+X/-X".parse::<ModPt>().unwrap().toughness.value(2),
            Some(-2)
        );
    }

    #[test]
    fn huge_numbers_are_errors_not_panics() {
        assert!("99999999999999999999/1".parse::<Pt>().is_err());
        assert!("+9223372036854775808/+0".parse::<ModPt>().is_err());
        let m: ModPt = "-9223372036854775807/+0".parse().unwrap();
        assert_eq!(m.power.value(0), Some(-9223372036854775807));
    }
}
