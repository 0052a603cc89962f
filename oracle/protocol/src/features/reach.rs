//! What an engine declaring some features plays of a set of cases, and
//! what each other feature would add.

use super::*;

/// How much of a set of cases an engine that declares some features
/// plays, and what each feature it does not declare would add: what
/// `ptoracle check --features` lists, and what the gate's summary says of
/// the cases it skipped for features.
///
/// ```
/// use std::collections::BTreeSet;
/// use ptoracle_protocol::{Feature, Reach};
/// let needs = [
///     BTreeSet::from([Feature::Counters]),
///     BTreeSet::from([Feature::Spells]),
///     BTreeSet::from([Feature::Spells, Feature::Zones]),
///     BTreeSet::from([Feature::Zones, Feature::Copy]),
/// ];
/// let reach = Reach::of(needs, &BTreeSet::from([Feature::Counters, Feature::Zones]));
/// assert_eq!((reach.cases, reach.playable), (4, 1));
/// let best = reach.best().unwrap();
/// assert_eq!((best.feature, best.alone, best.needed_by), (Feature::Spells, 2, 2));
/// assert_eq!(best.more_cases(), "2 more cases");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// The cases counted.
    pub cases: usize,
    /// Those whose every feature is declared.
    pub playable: usize,
    /// Each feature not declared that some case needs, the one that
    /// unlocks the most cases first (then the most needed, then by name).
    pub unlocks: Vec<Unlock>,
}

/// What declaring one more feature would do (see [`Reach`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unlock {
    /// The feature.
    pub feature: Feature,
    /// The cases it alone stands between the engine and: declaring it
    /// makes them playable.
    pub alone: usize,
    /// The cases that need it (and maybe more).
    pub needed_by: usize,
}

impl Unlock {
    /// What declaring it adds, in words: `3 more cases`.
    pub fn more_cases(&self) -> String {
        format!("{} more case{}", self.alone, plural(self.alone))
    }
}

impl Reach {
    /// The feature that unlocks the most cases, if one unlocks any.
    pub fn best(&self) -> Option<&Unlock> {
        self.unlocks.first().filter(|u| u.alone > 0)
    }

    /// The reach of an engine that declares `declared` over cases needing
    /// `needs` (each case's [`required_features`]).
    pub fn of(
        needs: impl IntoIterator<Item = BTreeSet<Feature>>,
        declared: &BTreeSet<Feature>,
    ) -> Reach {
        let mut reach = Reach::default();
        let mut alone: std::collections::BTreeMap<Feature, usize> = Default::default();
        let mut needed: std::collections::BTreeMap<Feature, usize> = Default::default();
        for need in needs {
            reach.cases += 1;
            let missing: Vec<Feature> = need.difference(declared).copied().collect();
            if let [only] = missing[..] {
                *alone.entry(only).or_default() += 1;
            }
            for m in &missing {
                *needed.entry(*m).or_default() += 1;
            }
            if missing.is_empty() {
                reach.playable += 1;
            }
        }
        reach.unlocks = needed
            .into_iter()
            .map(|(feature, needed_by)| Unlock {
                feature,
                alone: alone.get(&feature).copied().unwrap_or(0),
                needed_by,
            })
            .collect();
        reach.unlocks.sort_by(|a, b| {
            (b.alone, b.needed_by)
                .cmp(&(a.alone, a.needed_by))
                .then(a.feature.name().cmp(b.feature.name()))
        });
        reach
    }
}
