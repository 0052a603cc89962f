//! Characteristics through the layer system (613), read from a game state.
//!
//! Layers 4–6 (types, colors, abilities) are computed for every permanent
//! at once, effect by effect, because an effect's existence and affected set
//! can depend on what earlier effects did to other objects (613.6, 613.8).
//! Layer 7 (P/T) is computed per object, lazily: a characteristic-defining
//! ability or a static "X" may read another object's power, which is then
//! computed in full. A loop of such reads can't be determined and counts as
//! 0 (208.2a, 107.2).
//!
//! This module holds the evaluation's state ([`Eval`]) and its types; each
//! part of the work has its module: the effects that exist (`actives`),
//! filters, layers 1–6 (`early`), P/T per object (`pt`), layer 7's order
//! (`layer7`) and its sublayers, quantities, and the observable state.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

use super::bits::Bits;
use super::{Bugs, Card, Game, Line, Mutant, ObjRef, Stack};
use crate::edition::PtClass;
use crate::number::{Overflow, Pt};
use crate::scenario::{EffectSpec, Filter, Quantity};
use crate::terms::{CardType, Color, Keyword};

mod actives;
mod early;
mod filters;
mod layer7;
mod pt;
mod quantities;
mod state;
mod sublayers;

pub(crate) use filters::pt_matches;

/// Types, colors and abilities of one object after layers 1–6.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Early {
    pub types: Bits<CardType>,
    pub colors: Bits<Color>,
    pub keywords: Bits<Keyword>,
    /// Whether it still has its printed non-keyword abilities: static
    /// abilities, its characteristic-defining ability, level up, crew.
    pub abilities: bool,
    /// When, in the order of layer 6, it last lost all abilities (0:
    /// never): an ability an effect granted it before then is gone
    /// (613.1f, 613.7).
    pub lost_at: u32,
}

impl Early {
    /// Its copiable values (layer 1): the printed ones, with the keywords
    /// of the option chosen as it entered (208.2b, 613.2a).
    fn printed(card: &Card<'_>) -> Early {
        // 708.2a: a face-down permanent's copiable values are a creature
        // with no text (no abilities, no keywords), no color, no subtypes;
        // so are a copy's of a face-down permanent (707.2).
        if card.blank() {
            return Early {
                types: Bits::of(&[CardType::Creature]),
                colors: Bits::empty(),
                keywords: Bits::empty(),
                abilities: false,
                lost_at: 0,
            };
        }
        // 712.8e: a transformed permanent has only its back face's
        // characteristics.
        if let Some(b) = card.back() {
            return Early {
                types: Bits::of(&b.types),
                colors: Bits::of(&b.colors),
                keywords: Bits::of(&b.keywords),
                abilities: true,
                lost_at: 0,
            };
        }
        // 707.2: a copy's printed values are the original's.
        let face = card.face();
        let mut keywords = Bits::of(&face.keywords);
        // 208.2b, 707.2: each "as this enters" choice along a chain of
        // copies adds its keywords; a later one does not remove them.
        for ch in card.choices() {
            for k in &ch.keywords {
                keywords.insert(*k);
            }
        }
        Early {
            types: Bits::of(&face.types),
            colors: Bits::of(&face.colors),
            keywords,
            abilities: true,
            lost_at: 0,
        }
    }
}

/// P/T while layer 7 is being computed: wide enough that no sum of 64-bit
/// modifications and counters overflows before the result is known. Only
/// the result must fit in 64 bits (107.1, DECISIONS.md D15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wide {
    power: i128,
    toughness: i128,
}

impl Wide {
    fn of(p: Pt) -> Wide {
        Wide {
            power: p.power.into(),
            toughness: p.toughness.into(),
        }
    }

    fn add(self, dp: i128, dt: i128, who: &dyn Fn() -> String) -> Result<Wide, Overflow> {
        let over = |what: &str| Overflow {
            what: format!("the {what} of {}", who()),
        };
        Ok(Wide {
            power: self.power.checked_add(dp).ok_or_else(|| over("power"))?,
            toughness: self
                .toughness
                .checked_add(dt)
                .ok_or_else(|| over("toughness"))?,
        })
    }

    fn narrow(self, who: &dyn Fn() -> String) -> Result<Pt, Overflow> {
        let over = |what: &str| Overflow {
            what: format!("the {what} of {}", who()),
        };
        Ok(Pt::new(
            i64::try_from(self.power).map_err(|_| over("power"))?,
            i64::try_from(self.toughness).map_err(|_| over("toughness"))?,
        ))
    }
}

impl std::fmt::Display for Wide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.power, self.toughness)
    }
}

/// P/T of a creature: its value and its base value (208.4b).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PtInfo {
    pub pt: Pt,
    pub base: Pt,
}

#[derive(Clone, Copy)]
enum Origin {
    /// `Game::effects[i]`.
    Resolved(usize),
    /// Static ability `ability` of card `card`.
    Static { card: usize, ability: usize },
    /// Level-up band `band` of card `card`.
    Level { card: usize },
}

enum XVal<'g> {
    None,
    Locked { set: i64, modify: i64 },
    Live(&'g Quantity),
}

enum Target<'g> {
    Locked(&'g [ObjRef]),
    Card(Option<usize>),
    Filter(&'g Filter),
}

/// A continuous effect that exists in this state.
struct Active<'g> {
    spec: &'g EffectSpec,
    origin: Origin,
    /// The card whose ability this is, or the resolved effect's source.
    source: Option<usize>,
    ts: i64,
    seq: u64,
    x: XVal<'g>,
    target: Target<'g>,
}

impl Active<'_> {
    fn is_static(&self) -> bool {
        !matches!(self.origin, Origin::Resolved(_))
    }
}

enum Slot {
    Todo,
    Busy,
    Done(Result<Option<PtInfo>, Overflow>),
}

/// Characteristics of every object in one game state.
pub(crate) struct Eval<'g, 'c, B: Bugs> {
    pub g: &'g Game<'c, B>,
    pub early: Vec<Early>,
    actives: Vec<Active<'g>>,
    /// The affected set of each active effect that started applying in
    /// layers 4–6, kept for the later layers (613.6).
    determined: Vec<Option<Vec<usize>>>,
    pt: RefCell<Vec<Slot>>,
    /// The objects whose P/T is being computed, innermost last.
    computing: RefCell<Vec<usize>>,
    /// For each object, the loop of reads it belongs to, if any (208.2a).
    loop_of: RefCell<Vec<Option<usize>>>,
    tracing: bool,
    /// Only under [`Mutant::Nondeterministic`]: scrambles ties between equal timestamps.
    noise: u64,
    early_lines: Vec<Vec<Line>>,
    pt_lines: RefCell<Vec<Vec<Line>>>,
    /// Which active effects may apply to each object in layer 7, built on
    /// the first P/T computed.
    candidates: OnceCell<Candidates>,
    /// Under editions with hone counters: `(creature, equipment)` for each
    /// Equipment on the battlefield with hone counters, attached to a
    /// creature, sorted.
    hone: Vec<(usize, usize)>,
    /// How many objects match a filter (it reads no P/T, so the answer is
    /// the same all through this state), per filter already counted.
    counts: RefCell<HashMap<Filter, i64>>,
    /// How many cards each player has in hand, counted once.
    in_hand: OnceCell<Vec<i64>>,
    /// Per active effect that grants an ability defining P/T: when, in the
    /// order of layer 6, it granted it (0: it did not).
    granted_at: Vec<u32>,
    /// How many effects layer 6 has applied so far.
    clock: u32,
}

/// The active effects that may apply to each object in layer 7 (before
/// any P/T test), so that an object's P/T looks only at those instead of
/// at every effect: an effect with a fixed affected set (locked as it
/// resolved, one object, or determined in layers 4–6, 613.6) is listed
/// under each object of the set; one whose set is looked up from a filter
/// is tried against every object.
struct Candidates {
    /// `list[start[c]..start[c + 1]]`: the fixed-set effects that include
    /// object `c`, in increasing order.
    start: Vec<usize>,
    list: Vec<usize>,
    /// The effects whose set is looked up from a filter, in increasing order.
    filters: Vec<usize>,
}

/// One thing that may change a P/T in layer 7: its class, what it is, its
/// timestamp and its creation order.
type Layer7Entry = (PtClass, PtEntry, i64, u64);

/// One thing that changes an object's P/T in layer 7.
#[derive(Clone, Copy)]
enum PtEntry {
    Cda,
    Set(usize),
    /// An ability an effect granted that defines P/T (604.3a).
    Granted(usize),
    Modify(usize),
    Switch(usize),
    Counter {
        power: i64,
        toughness: i64,
        count: i64,
        ts: i64,
    },
    Hone {
        equipment: usize,
        count: i64,
        ts: i64,
    },
}

impl<'g, 'c, B: Bugs> Eval<'g, 'c, B> {
    /// Evaluates layers 1–6 of every object; layer 7 is computed on demand.
    pub fn new(g: &'g Game<'c, B>, tracing: bool) -> Eval<'g, 'c, B> {
        let n = g.cards.len();
        let mut e = Eval {
            g,
            early: g.cards.iter().map(Early::printed).collect(),
            actives: Vec::new(),
            determined: Vec::new(),
            pt: RefCell::new((0..n).map(|_| Slot::Todo).collect()),
            computing: RefCell::new(Vec::new()),
            loop_of: RefCell::new(vec![None; n]),
            tracing,
            noise: if g.bug(Mutant::Nondeterministic) {
                next_noise()
            } else {
                0
            },
            // Explanations are only kept when asked for.
            early_lines: if tracing {
                vec![Vec::new(); n]
            } else {
                Vec::new()
            },
            pt_lines: RefCell::new(if tracing {
                vec![Vec::new(); n]
            } else {
                Vec::new()
            }),
            candidates: OnceCell::new(),
            hone: Vec::new(),
            counts: RefCell::new(HashMap::new()),
            in_hand: OnceCell::new(),
            granted_at: Vec::new(),
            clock: 0,
        };
        e.collect_actives();
        e.determined = vec![None; e.actives.len()];
        e.granted_at = vec![0; e.actives.len()];
        e.early_layers();
        if g.rules.hone_counters {
            e.hone = e.honed();
        }
        e
    }

    // ---- layers 4–6 ----------------------------------------------------

    // ---- layer 7 -------------------------------------------------------

    // ---- reading results ---------------------------------------------------
}

#[derive(Clone, Copy)]
enum EarlyEntry {
    Effect(usize),
    KeywordCounter {
        card: usize,
        keyword: Keyword,
        stack: Stack,
    },
}

impl EarlyEntry {
    fn key<B: Bugs>(&self, e: &Eval<'_, '_, B>) -> (i64, u64) {
        match self {
            EarlyEntry::Effect(a) => e.order_key(e.actives[*a].ts, e.actives[*a].seq),
            EarlyEntry::KeywordCounter { stack, .. } => e.order_key(stack.ts, stack.seq),
        }
    }
}

/// A different number on every call: only [`Mutant::Nondeterministic`] uses it.
fn next_noise() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NOISE: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);
    NOISE.fetch_add(0x6A09_E667_F3BC_C909, Ordering::Relaxed)
}

/// Sorts `pending` so that popping from its end gives timestamp order,
/// equal keys in the order they were listed (as [`order::next`] picks):
/// the reverse of a stable sort.
fn by_time_last_first<T, K: Ord>(pending: &mut [T], key: impl Fn(&T) -> K) {
    pending.sort_by_key(key);
    pending.reverse();
}
