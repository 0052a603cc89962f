//! Editions of the Comprehensive Rules, and the rule switches that tell them
//! apart.
//!
//! The resolver never hard-codes a rule that has changed over the years: it
//! reads it from [`Rules`], which each [`Edition`] carries as data. The layer-7
//! plan (which sublayer holds which kind of effect, in which order) is data
//! too, so an older edition's 6a–6e or 7a–7e is a different table, not a
//! different resolver.

use std::fmt;

use crate::terms::Keyword;

mod catalog;
mod range;
mod rules;
mod unknown;

use catalog::{EDITIONS, SETS};
pub use range::EditionRange;
pub use rules::{PtClass, Rules, Sublayer};
pub use unknown::{Unknown, UnknownEdition};

/// An edition of the rules, identified by its effective date.
///
/// ```
/// use ptoracle_core::Edition;
/// let e = Edition::parse("2026-09-25").unwrap();
/// assert_eq!(e, Edition::current());
/// assert!(Edition::parse("1066-10-14").unwrap_err().to_string().contains("2026-09-25"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edition(u8);

impl Edition {
    /// The newest edition: the default everywhere.
    pub fn current() -> Edition {
        Edition((EDITIONS.len() - 1) as u8)
    }

    /// Every known edition, oldest first.
    pub fn all() -> impl Iterator<Item = Edition> {
        (0..EDITIONS.len()).map(|i| Edition(i as u8))
    }

    /// The edition named by `name`: its id (e.g. `2026-09-25`), its alias
    /// (e.g. `m10`), a prefix of one id only (`2020-01`), a set code
    /// (`SHM`, `fdn`: the edition in force the day the set came out), or any
    /// date (`2008-05-01`, `2008-05`, `2008`: the edition in force that day).
    ///
    /// ```
    /// use ptoracle_core::Edition;
    /// assert_eq!(Edition::parse("m10").unwrap().id(), "2009-07");
    /// assert_eq!(Edition::parse("2020-01").unwrap().id(), "2020-01-22");
    /// assert_eq!(Edition::parse("2008-05-01").unwrap().id(), "2007-05");
    /// assert_eq!(Edition::parse("SHM").unwrap().id(), "2007-05");
    /// // `2025` is the prefix of two editions: an error that lists them.
    /// let e = Edition::parse("2025").unwrap_err().to_string();
    /// assert!(e.contains("ambiguous: 2025-04-04, 2025-06-06"), "{e}");
    /// ```
    pub fn parse(name: &str) -> Result<Edition, UnknownEdition> {
        Edition::resolve(name).map(|(e, _)| e)
    }

    /// Like [`Edition::parse`], and when `name` is not an edition's id or
    /// alias, a sentence that says which edition it resolved to and why.
    ///
    /// ```
    /// use ptoracle_core::Edition;
    /// let (e, note) = Edition::resolve("2008-05-01").unwrap();
    /// assert_eq!(e.id(), "2007-05");
    /// assert!(note.unwrap().contains("in force on 2008-05-01"));
    /// assert_eq!(Edition::resolve("m10").unwrap().1, None);
    /// ```
    pub fn resolve(name: &str) -> Result<(Edition, Option<String>), UnknownEdition> {
        let err = |kind| UnknownEdition {
            name: name.to_string(),
            kind,
        };
        let lower = name.to_ascii_lowercase();
        if let Some(e) = Edition::all().find(|e| e.id() == name || e.alias() == lower) {
            return Ok((e, None));
        }
        let prefixed: Vec<Edition> = Edition::all()
            .filter(|e| !name.is_empty() && e.id().starts_with(name))
            .collect();
        match prefixed.as_slice() {
            [e] => return Ok((*e, Some(format!("`{name}` is edition {}", e.describe())))),
            [] => {}
            many => return Err(err(Unknown::Ambiguous(many.to_vec()))),
        }
        if let Some((code, released)) = SETS.iter().find(|(c, _)| c.eq_ignore_ascii_case(name)) {
            return match Edition::in_force(released) {
                Some(e) => Ok((
                    e,
                    Some(format!(
                        "set {code} (released {released}) is edition {}, in force that day",
                        e.describe()
                    )),
                )),
                None => Err(err(Unknown::TooEarly)),
            };
        }
        let (first, last) = date_span(name).ok_or_else(|| err(Unknown::Unknown))?;
        let a = Edition::in_force(&first).ok_or_else(|| err(Unknown::TooEarly))?;
        let b = Edition::in_force(&last).ok_or_else(|| err(Unknown::TooEarly))?;
        if a != b {
            let all = Edition::all().filter(|e| a <= *e && *e <= b).collect();
            return Err(err(Unknown::Ambiguous(all)));
        }
        Ok((
            a,
            Some(format!(
                "`{name}` is edition {}, in force on {first}",
                a.describe()
            )),
        ))
    }

    /// The edition in force on `date` (`YYYY-MM-DD`), if the catalog
    /// reaches back that far.
    fn in_force(date: &str) -> Option<Edition> {
        Edition::all()
            .filter(|e| EDITIONS[e.0 as usize].since <= date)
            .last()
    }

    /// Its id and alias, e.g. `2009-07 (m10)`.
    fn describe(self) -> String {
        format!("{} ({})", self.id(), self.alias())
    }

    /// Its id: the effective date.
    pub fn id(self) -> &'static str {
        EDITIONS[self.0 as usize].id
    }

    /// A short alias, e.g. `m10` for 2009-07.
    pub fn alias(self) -> &'static str {
        EDITIONS[self.0 as usize].alias
    }

    /// A readable name: what changed in it.
    pub fn name(self) -> &'static str {
        EDITIONS[self.0 as usize].name
    }

    /// The rules in force in it.
    pub fn rules(self) -> &'static Rules {
        &EDITIONS[self.0 as usize].rules
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The first and last day (`YYYY-MM-DD`) of a date written `YYYY`,
/// `YYYY-MM` or `YYYY-MM-DD`, if it is one.
fn date_span(s: &str) -> Option<(String, String)> {
    let parts: Vec<&str> = s.split('-').collect();
    let num = |p: &str, len: usize| -> Option<u32> {
        (p.len() == len && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse().ok())
            .flatten()
    };
    let days = |y: u32, m: u32| match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    let y = num(parts.first()?, 4)?;
    let (m0, m1) = match parts.get(1) {
        Some(p) => {
            let m = num(p, 2).filter(|m| (1..=12).contains(m))?;
            (m, m)
        }
        None => (1, 12),
    };
    let (d0, d1) = match parts.get(2) {
        Some(p) => {
            let d = num(p, 2).filter(|d| (1..=days(y, m0)).contains(d))?;
            (d, d)
        }
        None => (1, days(y, m1)),
    };
    if parts.len() > 3 {
        return None;
    }
    Some((
        format!("{y:04}-{m0:02}-{d0:02}"),
        format!("{y:04}-{m1:02}-{d1:02}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let r: EditionRange = "2026-09-25..".parse().unwrap();
        assert!(r.contains(Edition::current()));
        assert_eq!(r.to_string(), "2026-09-25..");
        assert!(
            "..".parse::<EditionRange>()
                .unwrap()
                .contains(Edition::current())
        );
        assert!("1994-04..".parse::<EditionRange>().is_err());
        // An empty range names no edition, as `--edition ''` does not.
        assert_eq!(
            "".parse::<EditionRange>().unwrap_err(),
            Edition::parse("").unwrap_err().to_string()
        );
    }

    #[test]
    fn a_date_resolves_to_the_edition_in_force_that_day() {
        let id = |s: &str| Edition::parse(s).map(|e| e.id()).map_err(|e| e.to_string());
        assert_eq!(id("2008-05-01"), Ok("2007-05"));
        assert_eq!(id("2009-07-10"), Ok("2007-05"));
        assert_eq!(id("2009-07-11"), Ok("2009-07"));
        assert_eq!(id("2017-07-14"), Ok("2017-07-07"));
        assert_eq!(id("2026-01-16"), Ok("2025-06-06"));
        assert_eq!(id("2031-01-01"), Ok("2026-09-25"));
        // A month or year inside one edition is that edition.
        assert_eq!(id("2008"), Ok("2007-05"));
        assert_eq!(id("2012-03"), Ok("2011-06-17"));
        assert!(id("2026-02-30").unwrap_err().contains("unknown edition"));
        assert!(id("1994-04").unwrap_err().contains("predates"));
        let r: EditionRange = "2008-05..2010".parse().unwrap();
        assert_eq!(r.to_string(), "2007-05..2010-07-16");
    }

    #[test]
    fn an_ambiguous_prefix_lists_the_editions_it_could_be() {
        let e = Edition::parse("2009").unwrap_err().to_string();
        assert_eq!(e, "edition `2009` is ambiguous: 2009-07, 2009-09-04");
        let e = Edition::parse("2025").unwrap_err().to_string();
        assert_eq!(e, "edition `2025` is ambiguous: 2025-04-04, 2025-06-06");
        // The prefix of one id names that edition, as it always did.
        assert_eq!(Edition::parse("2006").unwrap().id(), "2006-10-01");
    }

    #[test]
    fn set_codes_resolve_case_insensitively() {
        let id = |s: &str| Edition::parse(s).unwrap().id();
        assert_eq!(id("M10"), "2009-07");
        assert_eq!(id("m10"), "2009-07");
        assert_eq!(id("SHM"), "2007-05");
        assert_eq!(id("fdn"), "2024-11-08");
        assert_eq!(id("Hou"), "2017-07-07");
        assert_eq!(id("TSP"), "2006-10-01");
        let (_, note) = Edition::resolve("shm").unwrap();
        assert_eq!(
            note.as_deref(),
            Some(
                "set SHM (released 2008-05-02) is edition 2007-05 (future-sight), in force that day"
            )
        );
    }

    #[test]
    fn every_plan_places_each_class_once() {
        use PtClass::*;
        for e in Edition::all() {
            let rules = e.rules();
            let places = |class| {
                rules
                    .layer7
                    .iter()
                    .filter(|s| s.holds.contains(&class))
                    .count()
            };
            for class in [Cda, Set, ModifyResolved, ModifyStatic, Counters, Switch] {
                assert_eq!(places(class), 1, "{e}: {class:?}");
            }
            // The step for effects that also change types, only where they
            // apply whole (the 1999 plan).
            let whole = usize::from(rules.type_changes_whole());
            assert_eq!(places(WithTypes), whole, "{e}");
        }
    }

    #[test]
    fn each_switch_of_2009_to_2011_is_dated_by_its_text() {
        let id = |s: &str| Edition::parse(s).unwrap().id();
        // 706.8d is in the text of 2011-02-04, not in that of 2010-10-01.
        assert_eq!(id("2011-02-03"), "2010-07-16");
        assert_eq!(id("2011-02-04"), "2011-02-04");
        assert_eq!(id("MBS"), "2011-02-04");
        let rules = |s: &str| Edition::parse(s).unwrap().rules();
        assert!(!rules("2010-07-16").copy_exception_drops_cda);
        assert!(rules("2011-02-04").copy_exception_drops_cda);
        assert!(!rules("2011-02-04").pt_counters_off_battlefield);
        assert_eq!(
            rules("2010-07-16").changed_rules(rules("2011-02-04")),
            ["707.9d"]
        );
        // Deathtouch and lifelink became static together (2009-07-11).
        assert!(!rules("2007-05").deathtouch_static && !rules("2007-05").lifelink_static);
        assert!(rules("2009-07").deathtouch_static && rules("2009-07").lifelink_static);
    }

    #[test]
    fn ids_are_chronological_and_names_unique() {
        let all: Vec<Edition> = Edition::all().collect();
        for w in all.windows(2) {
            assert!(w[0].id() < w[1].id(), "{} {}", w[0], w[1]);
        }
        for a in &all {
            assert_eq!(Edition::parse(a.id()), Ok(*a));
            assert_eq!(Edition::parse(a.alias()), Ok(*a));
            // Its own date resolves to it: `since` is chronological too.
            assert_eq!(Edition::in_force(EDITIONS[a.0 as usize].since), Some(*a));
        }
        for w in SETS.windows(2) {
            assert!(w[0].1 < w[1].1, "{} {}", w[0].0, w[1].0);
        }
    }
}
