//! A name that resolves to no single edition, and why.

use super::*;

/// A name that resolves to no single edition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEdition {
    /// The name as given.
    pub name: String,
    /// Why it names no edition.
    pub kind: Unknown,
}

/// Why a name resolves to no single edition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// No edition, alias, set code or date.
    Unknown,
    /// A date before the oldest edition of the catalog.
    TooEarly,
    /// A prefix, year or month that spans several editions.
    Ambiguous(Vec<Edition>),
}

impl fmt::Display for UnknownEdition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        match &self.kind {
            Unknown::Ambiguous(editions) => {
                let ids: Vec<&str> = editions.iter().map(|e| e.id()).collect();
                return write!(f, "edition `{name}` is ambiguous: {}", ids.join(", "));
            }
            Unknown::TooEarly => write!(
                f,
                "edition `{name}` predates the oldest edition of the catalog ({}); known editions:",
                EDITIONS[0].since
            )?,
            Unknown::Unknown => write!(
                f,
                "unknown edition `{name}` (not an edition, alias, set code or date); known editions:"
            )?,
        }
        for (i, e) in Edition::all().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep} {}", e.describe())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownEdition {}
