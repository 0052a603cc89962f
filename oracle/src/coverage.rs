//! Rule coverage: which CR rules the corpus cites, and which of the rules
//! ptoracle claims to cover have no case yet.

use std::collections::BTreeMap;

use ptoracle_core::scenario::{Case, RuleRef};

/// The rules ptoracle claims to cover: each needs at least one case that
/// cites it, and a case a wrong engine would fail.
pub const REQUIRED: &[&str] = &[
    "107.1a", "107.1b", "107.3a", "107.3c", "107.3g", "107.3h", "107.3m", "107.4a", "107.4b",
    "107.4c", "107.4d", "107.4e", "107.4f", "107.4h", "107.8", "107.8a", "107.8b", "107.15a",
    "107.15b", "118.3", "119.4", "120.3c", "120.3d", "120.3e", "120.3f", "120.3h", "120.4b",
    "120.6", "122.1a", "122.1b", "122.1c", "122.1e", "122.1f", "122.2", "122.3", "122.4", "122.5",
    "122.6", "122.6a", "122.7", "122.8", "208.1", "208.2a", "208.2b", "208.3", "208.3a", "208.4b",
    "208.5", "301.7b", "302.6", "302.7", "310.4b", "310.11b", "400.7", "506.4", "508.1f", "509.2",
    "510.1a", "510.1b", "510.1c", "510.1d", "510.4", "514.2", "604.3", "604.3a", "608.2h",
    "611.2c", "613.1f", "613.2", "613.2a", "613.2b", "613.4a", "613.4b", "613.4c", "613.4d",
    "613.6", "613.7", "613.7a", "613.7d", "613.7e", "613.7f", "613.7g", "613.8", "614.1a", "615.6",
    "615.7", "616.1", "701.10", "701.10e", "701.11", "701.12a", "701.12g", "701.19", "701.27a",
    "701.27c", "701.40g", "701.58g", "702.2", "702.2c", "702.4b", "702.4d", "702.7b", "702.7c",
    "702.10b", "702.12", "702.19b", "702.19d", "702.80", "702.90", "704.3", "704.5a", "704.5c",
    "704.5f", "704.5g", "704.5h", "704.5i", "704.5q", "704.5r", "704.5s", "704.5v", "704.8",
    "707.2", "707.5", "707.6", "707.9", "707.9b", "707.9d", "708.2", "708.2a", "708.2b", "708.3",
    "708.8", "712.8e", "712.15a", "712.16", "714.3a",
];

/// Each cited rule with the number of cases that cite it, and the required
/// rules no case cites.
#[derive(Debug, Default)]
pub struct Coverage {
    /// Cases per cited rule, in rule order.
    pub cited: BTreeMap<RuleRef, usize>,
    /// Required rules without a case.
    pub missing: Vec<RuleRef>,
}

/// The coverage of a set of cases.
///
/// ```
/// let cov = ptoracle::coverage::coverage(std::iter::empty());
/// assert_eq!(cov.missing.len(), ptoracle::coverage::REQUIRED.len());
/// ```
pub fn coverage<'a>(cases: impl Iterator<Item = &'a Case>) -> Coverage {
    let mut cited: BTreeMap<RuleRef, usize> = BTreeMap::new();
    for case in cases {
        let mut rules = case.rules.clone();
        rules.sort();
        rules.dedup();
        for r in rules {
            *cited.entry(r).or_default() += 1;
        }
    }
    let missing = REQUIRED
        .iter()
        .filter_map(|r| r.parse::<RuleRef>().ok())
        .filter(|r| !cited.contains_key(r))
        .collect();
    Coverage { cited, missing }
}

#[cfg(test)]
mod tests {
    #[test]
    fn required_rules_parse() {
        for r in super::REQUIRED {
            assert!(r.parse::<ptoracle_core::scenario::RuleRef>().is_ok(), "{r}");
        }
    }
}
