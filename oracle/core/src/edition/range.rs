//! A range of editions a ruling holds in.

use super::*;

/// A range of editions a ruling holds in: `2017-07-14..` (from), `..2020-01-22`
/// (up to and including), `2009-07..2020-01-22`, or one edition id.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct EditionRange {
    /// The first edition it holds in, if bounded.
    pub from: Option<Edition>,
    /// The last edition it holds in, if bounded.
    pub to: Option<Edition>,
}

impl EditionRange {
    /// Whether the two ranges share an edition.
    pub fn overlaps(&self, other: &EditionRange) -> bool {
        Edition::all().any(|e| self.contains(e) && other.contains(e))
    }

    /// Whether `e` is in the range.
    pub fn contains(&self, e: Edition) -> bool {
        self.from.is_none_or(|f| f <= e) && self.to.is_none_or(|t| e <= t)
    }
}

impl fmt::Display for EditionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from, self.to) {
            (Some(a), Some(b)) if a == b => write!(f, "{a}"),
            (a, b) => {
                if let Some(a) = a {
                    write!(f, "{a}")?;
                }
                f.write_str("..")?;
                if let Some(b) = b {
                    write!(f, "{b}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::str::FromStr for EditionRange {
    type Err = String;
    fn from_str(s: &str) -> Result<EditionRange, String> {
        let bound = |part: &str| -> Result<Option<Edition>, String> {
            if part.is_empty() {
                Ok(None)
            } else {
                Edition::parse(part).map(Some).map_err(|e| e.to_string())
            }
        };
        let range = match s.split_once("..") {
            Some((a, b)) => EditionRange {
                from: bound(a)?,
                to: bound(b)?,
            },
            // One edition: an empty name is none, as `--edition ''` is,
            // not every edition (that is no `editions:` at all, or `..`).
            None => {
                let e = Edition::parse(s).map_err(|e| e.to_string())?;
                EditionRange {
                    from: Some(e),
                    to: Some(e),
                }
            }
        };
        if let (Some(a), Some(b)) = (range.from, range.to) {
            if a > b {
                return Err(format!("edition range `{s}` is empty: {a} comes after {b}"));
            }
        }
        Ok(range)
    }
}

crate::number::string_serde!(
    EditionRange,
    "EditionRange",
    "^([A-Za-z0-9-]+|[A-Za-z0-9-]*\\.\\.[A-Za-z0-9-]*)$",
    "the editions a ruling holds in: 2017-07-14.., ..2020-01-22, 2009-07..2020-01-22, or one edition; each bound an edition, alias, set code or date (the edition in force that day)"
);
