//! The names the format gives things: handles, case ids, rule citations.

use super::*;

/// The handle of an object or a player within one case: a letter or `_`,
/// then letters, digits, `_` or `-`. Shared, so observations copy it cheaply.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Handle(pub std::sync::Arc<str>);

impl Handle {
    /// The handle as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Handle {
    type Err = String;
    fn from_str(s: &str) -> Result<Handle, String> {
        let ok = !s.is_empty()
            && s.len() <= 64
            && s.bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !ok {
            return Err(format!(
                "invalid handle `{s}`: a handle is a letter or `_`, then letters, digits, `_` or `-` (at most 64)"
            ));
        }
        if s == "self" || s == "attached" {
            return Err(format!("`{s}` is reserved and can't be a handle"));
        }
        Ok(Handle(s.into()))
    }
}

string_serde!(
    Handle,
    "Handle",
    "^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
    "the handle of an object or player in this case"
);

/// A case id: lowercase letters, digits and `.`, `/`, `_`, `-`, `+`; e.g.
/// `613.5/gray-ogre`. Ids are immutable and never reused.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CaseId(pub String);

impl fmt::Display for CaseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for CaseId {
    type Err = String;
    fn from_str(s: &str) -> Result<CaseId, String> {
        let ok = !s.is_empty()
            && s.len() <= 120
            && s.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b".-_/+".contains(&b));
        if ok {
            Ok(CaseId(s.to_string()))
        } else {
            Err(format!(
                "invalid case id `{s}`: use lowercase letters, digits, `.`, `/`, `_`, `-`, `+` (e.g. 613.5/gray-ogre)"
            ))
        }
    }
}

string_serde!(
    CaseId,
    "CaseId",
    "^[a-z0-9][a-z0-9._/+-]{0,119}$",
    "an immutable case id such as 613.5/gray-ogre"
);

/// A Comprehensive Rules citation: `613`, `613.4`, `613.4c`, `704.5aa`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleRef {
    text: String,
    key: (u16, u32, String),
}

impl RuleRef {
    /// The citation as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl PartialOrd for RuleRef {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RuleRef {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.key.0, self.key.1, self.key.2.len(), &self.key.2).cmp(&(
            other.key.0,
            other.key.1,
            other.key.2.len(),
            &other.key.2,
        ))
    }
}

impl fmt::Display for RuleRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for RuleRef {
    type Err = String;
    fn from_str(s: &str) -> Result<RuleRef, String> {
        let bad = || {
            format!(
                "invalid rule citation `{s}`: expected a CR rule number such as 613, 613.4 or 613.4c"
            )
        };
        let (section, rest) = match s.split_once('.') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        };
        if section.len() != 3 || !section.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let section: u16 = section.parse().map_err(|_| bad())?;
        let (number, letters) = match rest {
            None => (0, String::new()),
            Some(r) => {
                let digits: String = r.chars().take_while(|c| c.is_ascii_digit()).collect();
                let letters = &r[digits.len()..];
                if digits.is_empty()
                    || digits.len() > 4
                    || letters.len() > 2
                    || !letters.bytes().all(|b| b.is_ascii_lowercase())
                {
                    return Err(bad());
                }
                (digits.parse().map_err(|_| bad())?, letters.to_string())
            }
        };
        Ok(RuleRef {
            text: s.to_string(),
            key: (section, number, letters),
        })
    }
}

string_serde!(
    RuleRef,
    "RuleRef",
    "^[0-9]{3}(\\.[0-9]{1,4}[a-z]{0,2})?$",
    "a Comprehensive Rules citation such as 613.4c"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_sort_by_number_not_text() {
        let mut v: Vec<RuleRef> = ["704.5q", "704.5aa", "613.10", "613.4c", "613.4", "107.1b"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        v.sort();
        let s: Vec<_> = v.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            s,
            ["107.1b", "613.4", "613.4c", "613.10", "704.5q", "704.5aa"]
        );
    }

    #[test]
    fn handles() {
        assert!("ogre".parse::<Handle>().is_ok());
        assert!("self".parse::<Handle>().is_err());
        assert!("1ogre".parse::<Handle>().is_err());
    }
}
