//! A card in the game and what its face, copy effects and level bands
//! make of its characteristics.

use std::collections::BTreeMap;

use super::{ObjRef, Stack};
use crate::number::Pt;
use crate::scenario::{Affects, EffectSpec, ObjectSpec, Until};
use crate::terms::{CounterKind, Zone};

/// An "as this enters" choice in words: `2/2 with flying`.
pub(crate) fn entry_label(c: &crate::scenario::EntryChoice) -> String {
    if c.keywords.is_empty() {
        c.pt.to_string()
    } else {
        let k: Vec<String> = c.keywords.iter().map(|k| k.to_string()).collect();
        format!("{} with {}", c.pt, k.join(", "))
    }
}

/// 107.8a, 107.8b: each level band as static abilities of the creature,
/// applying while its level counters are in the band: its base P/T (7b)
/// and keywords (layer 6), then the abilities it lists.
pub(super) fn level_abilities(o: &ObjectSpec) -> Vec<LevelAbility> {
    let mut v = Vec::new();
    for (band, b) in o.level_up.iter().enumerate() {
        let label = band_label(b);
        v.push(LevelAbility {
            band,
            spec: EffectSpec {
                name: Some(format!("level up {label}")),
                affects: Affects::This,
                set: Some(crate::number::SetPt {
                    power: crate::number::Amount::Fixed(b.pt.power),
                    toughness: crate::number::Amount::Fixed(b.pt.toughness),
                }),
                add_keywords: b.keywords.clone(),
                ..EffectSpec::default()
            },
        });
        let several = b.abilities.len() > 1;
        for (i, ab) in b.abilities.iter().enumerate() {
            let name = ab.name.clone().unwrap_or_else(|| {
                if several {
                    format!("level up {label} ability #{}", i + 1)
                } else {
                    format!("level up {label} ability")
                }
            });
            v.push(LevelAbility {
                band,
                spec: EffectSpec {
                    name: Some(name),
                    ..ab.clone()
                },
            });
        }
    }
    v
}

pub(super) fn band_label(band: &crate::scenario::LevelBand) -> String {
    match band.max {
        Some(m) => format!("{}-{}", band.min.0, m.0),
        None => format!("{}+", band.min.0),
    }
}

#[derive(Clone)]
pub(crate) struct Card<'c> {
    pub spec: &'c ObjectSpec,
    pub object: u64,
    pub zone: Zone,
    pub controller: usize,
    /// Its owner: whoever controls it off the battlefield, and as it enters.
    pub owner: usize,
    /// Whether it has been under its controller's control continuously
    /// since their most recent turn began (302.6).
    pub continuous: bool,
    /// On the battlefield: which of `spec.enters_as` was chosen as it
    /// entered (208.2b).
    pub choice: Option<usize>,
    /// While it is a spell on the stack: the value announced for X
    /// (107.3a). A new object has none (400.7).
    pub x: Option<i64>,
    /// Only while its own "enters with" replacement effect is read as the
    /// permanent spell enters: the spell's X, which that effect uses though
    /// the permanent's own X is 0 (107.3m).
    pub etb_x: Option<i64>,
    pub ts: i64,
    pub seq: u64,
    pub counters: BTreeMap<CounterKind, Stack>,
    pub damage: i64,
    pub deathtouch: bool,
    pub shields: i64,
    pub tapped: bool,
    /// Whether it is a face-down permanent (708): its copiable values are
    /// those of 708.2a, not its printed ones.
    pub face_down: bool,
    /// Whether its back face is up (a transformed permanent, 701.27g).
    pub transformed: bool,
    pub attached_to: Option<ObjRef>,
    pub lki: Option<Box<crate::observation::ObjectState>>,
    /// The level-up bands as static abilities (107.8), built once: each
    /// band's P/T and keywords, then the abilities it lists.
    pub levels: Vec<LevelAbility>,
    /// The copy effects on it (707.2), in timestamp order: in layer 1 the
    /// last one's values are its copiable values (613.2a). A new object
    /// has none (400.7).
    pub copies: Vec<CopyEffect<'c>>,
}

/// The copiable values a copy effect gives an object (707.2), fixed as
/// the effect begins: another object's printed values, as modified by the
/// copy effects on it, its face-down status and the values its "as this
/// enters" choices set; never its counters, damage or other effects.
#[derive(Clone)]
pub(crate) struct Copiable<'c> {
    /// Whose printed values.
    pub spec: &'c ObjectSpec,
    /// The options of `spec.enters_as` chosen as the objects along the
    /// chain of copies entered, oldest first: the original's, then that of
    /// each copy that entered as a copy and made its own choice (707.5,
    /// 707.6). Each sets P/T, the latest winning, and adds its keywords
    /// (208.2b, 707.2).
    pub choices: Vec<usize>,
    /// The original was face down: the values of 708.2a (a 2/2 creature
    /// with no name, text, subtypes or mana cost).
    pub face_down: bool,
    /// The original was transformed: its back face's values (712.8e).
    pub back: bool,
    /// An exception that set P/T, of this copy effect or of one the
    /// original copied (707.9b).
    pub except_pt: Option<Pt>,
    /// `spec`'s level bands as static abilities (107.8).
    pub levels: std::sync::Arc<Vec<LevelAbility>>,
}

/// A copy effect on an object (707.2), in layer 1 (613.2a).
#[derive(Clone)]
pub(crate) struct CopyEffect<'c> {
    pub values: Copiable<'c>,
    pub ts: i64,
    pub seq: u64,
    pub until: Until,
}

/// A static ability a creature has while its level counters are in a band
/// (107.8a, 107.8b).
#[derive(Clone)]
pub(crate) struct LevelAbility {
    /// The band, in `spec.level_up`.
    pub band: usize,
    pub spec: EffectSpec,
}

impl<'c> Card<'c> {
    pub fn name(&self) -> &str {
        self.spec.display_name()
    }

    /// The copiable values a copy effect gave it, if any: the latest
    /// (613.2a, 613.7).
    pub fn copy(&self) -> Option<&Copiable<'c>> {
        self.copies.last().map(|e| &e.values)
    }

    /// Whose printed values its copiable values start from: the object it
    /// copies, else its own (707.2).
    pub fn face(&self) -> &'c ObjectSpec {
        self.copy().map_or(self.spec, |c| c.spec)
    }

    /// Whether its characteristics are those of 708.2a: it is face down,
    /// or it copies a face-down permanent (707.2).
    pub fn blank(&self) -> bool {
        self.face_down || self.copy().is_some_and(|c| c.face_down)
    }

    /// Its level bands as static abilities: those of what it copies (707.2).
    pub fn level_abilities(&self) -> &[LevelAbility] {
        match self.copy() {
            Some(c) => &c.levels,
            None => &self.levels,
        }
    }

    /// Its back face, while that is the face up (712.8e).
    pub fn back(&self) -> Option<&'c crate::scenario::BackFace> {
        // 707.2: a copy of a transformed permanent has its back face's
        // values; its own face up does not matter while it copies.
        if let Some(c) = self.copy() {
            return if c.back {
                c.spec.back_face.as_deref()
            } else {
                None
            };
        }
        if self.transformed {
            self.spec.back_face.as_deref()
        } else {
            None
        }
    }

    /// The subtypes of the face up: none face down (708.2a).
    pub fn subtypes(&self) -> &'c [String] {
        match self.back() {
            _ if self.blank() => &[],
            Some(b) => &b.subtypes,
            None => &self.face().subtypes,
        }
    }

    /// The static abilities of the face up (712.8d, 712.8e).
    pub fn abilities(&self) -> &'c [EffectSpec] {
        match self.back() {
            Some(b) => &b.abilities,
            None => &self.face().abilities,
        }
    }

    /// The name a filter sees: none face down (708.2a), the back face's
    /// while transformed.
    pub fn face_name(&self) -> Option<&'c str> {
        match self.back() {
            _ if self.blank() => None,
            Some(b) => Some(b.name.as_deref().unwrap_or(self.face().display_name())),
            None => Some(self.face().display_name()),
        }
    }

    pub fn count(&self, kind: &CounterKind) -> i64 {
        self.counters.get(kind).map_or(0, |s| s.count)
    }

    pub fn on_battlefield(&self) -> bool {
        self.zone == Zone::Battlefield
    }

    /// A Saga's final chapter: its greatest chapter number (714.2c).
    pub fn final_chapter(&self) -> Option<i64> {
        // 708.2a: a face-down permanent has no subtypes and no chapters.
        if !self.subtypes().iter().any(|s| s == "Saga") {
            return None;
        }
        self.spec
            .chapters
            .iter()
            .flat_map(|c| &c.at)
            .map(|n| n.0)
            .max()
    }

    /// The "as this enters" options whose values are part of its copiable
    /// values (208.2b), oldest first, while it is on the battlefield: its
    /// own choice, or those a copy effect gave it (707.2), the choice it
    /// made as it entered as a copy last (707.6).
    pub fn choices(&self) -> impl Iterator<Item = &'c crate::scenario::EntryChoice> + '_ {
        let (spec, picked): (&'c ObjectSpec, &[usize]) = match self.copy() {
            Some(c) => (c.spec, &c.choices),
            None => (self.spec, self.choice.as_slice()),
        };
        picked.iter().filter_map(move |&i| spec.enters_as.get(i))
    }

    /// The latest of [`Card::choices`]: the one that sets its copiable P/T.
    pub fn chosen(&self) -> Option<&'c crate::scenario::EntryChoice> {
        self.choices().last()
    }

    /// The timestamp and order of the effects of its static abilities
    /// (613.7a): its own, or that of the copy effect that gave it those
    /// abilities, whichever is later.
    pub fn ability_stamp(&self) -> (i64, u64) {
        match self.copies.last() {
            Some(e) => (self.ts, self.seq).max((e.ts, e.seq)),
            None => (self.ts, self.seq),
        }
    }
}
