//! Characteristics through the layer system (613), read from a game state.
//!
//! Layers 4–6 (types, colors, abilities) are computed for every permanent
//! at once, effect by effect, because an effect's existence and affected set
//! can depend on what earlier effects did to other objects (613.6, 613.8).
//! Layer 7 (P/T) is computed per object, lazily: a characteristic-defining
//! ability or a static "X" may read another object's power, which is then
//! computed in full. A loop of such reads can't be determined and counts as
//! 0 (208.2a, 107.2).

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

use super::bits::Bits;
use super::{Bugs, Card, Game, Line, Log, Mutant, ObjRef, Res, Stack, add, order};
use crate::edition::PtClass;
use crate::number::{Change, Overflow, Pt, checked};
use crate::observation::ObjectState;
use crate::scenario::{Affects, EffectSpec, Filter, Quantity, QuantityRef};
use crate::terms::{CardType, Color, CounterKind, Keyword, Zone};

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

    /// `(creature, equipment)` for every Equipment on the battlefield
    /// with hone counters, attached to an object, sorted (122.1j).
    fn honed(&self) -> Vec<(usize, usize)> {
        let g = self.g;
        let mut v: Vec<(usize, usize)> = g
            .cards
            .iter()
            .enumerate()
            .filter(|(_, eq)| {
                eq.on_battlefield()
                    && eq.subtypes().iter().any(|s| s == "Equipment")
                    && eq.counters.contains_key(&CounterKind::named("hone"))
            })
            .filter_map(|(ei, eq)| Some((eq.attached_to.and_then(|r| g.live(r))?, ei)))
            .collect();
        v.sort_unstable();
        v
    }

    fn candidates(&self) -> &Candidates {
        self.candidates.get_or_init(|| {
            let g = self.g;
            let n = g.cards.len();
            let mut filters = Vec::new();
            // Each fixed-set effect with the objects of its set, once each:
            // a locked set may name an object twice.
            let mut sets: Vec<(usize, Vec<usize>)> = Vec::new();
            for a in 0..self.actives.len() {
                if !self.exists(a, &self.early) {
                    continue;
                }
                let mut set = match (&self.determined[a], &self.actives[a].target) {
                    (Some(d), _) => d.clone(),
                    (None, Target::Filter(_)) => {
                        filters.push(a);
                        continue;
                    }
                    (None, _) => self.affected_now(a, &self.early),
                };
                if set.len() > 1 {
                    set.sort_unstable();
                    set.dedup();
                }
                sets.push((a, set));
            }
            // Bucketed by object, each bucket in increasing effect order.
            let mut start = vec![0usize; n + 1];
            for c in sets.iter().flat_map(|(_, set)| set) {
                start[c + 1] += 1;
            }
            for i in 0..n {
                start[i + 1] += start[i];
            }
            let mut fill = start.clone();
            let mut list = vec![0usize; start[n]];
            for (a, set) in &sets {
                for &c in set {
                    list[fill[c]] = *a;
                    fill[c] += 1;
                }
            }
            Candidates {
                start,
                list,
                filters,
            }
        })
    }

    /// The active effects that may apply to `c` in layer 7 (before any P/T
    /// test), in increasing order.
    fn may_affect(&self, c: usize) -> Vec<usize> {
        let cand = self.candidates();
        let fixed = cand
            .start
            .get(c)
            .zip(cand.start.get(c + 1))
            .and_then(|(&from, &to)| cand.list.get(from..to))
            .unwrap_or_default();
        let mut filtered =
            cand.filters
                .iter()
                .copied()
                .filter(|&a| match &self.actives[a].target {
                    Target::Filter(f) => self.matches(f, c, &self.early[c], self.actives[a].source),
                    _ => false,
                });
        // Merge the two increasing lists.
        let mut out = Vec::with_capacity(fixed.len());
        let mut next = filtered.next();
        for &a in fixed {
            while let Some(b) = next.filter(|&b| b < a) {
                out.push(b);
                next = filtered.next();
            }
            out.push(a);
        }
        out.extend(next);
        out.extend(filtered);
        out
    }

    fn collect_actives(&mut self) {
        let g = self.g;
        for (i, eff) in g.effects.iter().enumerate() {
            self.actives.push(Active {
                spec: &eff.spec,
                origin: Origin::Resolved(i),
                source: eff.source.and_then(|s| g.live(s)),
                ts: eff.ts,
                seq: eff.seq,
                x: match (&eff.spec.x, g.bug(Mutant::XReread)) {
                    (Some(q), true) => XVal::Live(q),
                    _ => XVal::Locked {
                        set: eff.x_set,
                        modify: eff.x_modify,
                    },
                },
                target: Target::Locked(&eff.affected),
            });
        }
        for (ci, card) in g.cards.iter().enumerate() {
            if !card.on_battlefield() {
                continue;
            }
            // 613.7a: a static ability's effect has its object's
            // timestamp, or that of the copy effect that gave it the
            // ability if later; 611.3a: its affected set is looked up all
            // the time.
            let (ts, seq) = if !g.rules.copied_ability_takes_copy_timestamp
                || g.bug(Mutant::CopiedAbilityKeepsObjectTimestamp)
            {
                (card.ts, card.seq)
            } else {
                card.ability_stamp()
            };
            let active = |spec: &'g EffectSpec, origin: Origin| Active {
                spec,
                origin,
                source: Some(ci),
                ts,
                seq,
                x: spec.x.as_ref().map_or(XVal::None, XVal::Live),
                target: match &spec.affects {
                    Affects::This => Target::Card(Some(ci)),
                    Affects::Attached => Target::Card(card.attached_to.and_then(|r| g.live(r))),
                    Affects::Filter(f) => Target::Filter(f),
                    Affects::Objects(_) => Target::Card(None),
                },
            };
            for (ai, ab) in card.abilities().iter().enumerate() {
                let origin = Origin::Static {
                    card: ci,
                    ability: ai,
                };
                self.actives.push(active(ab, origin));
            }
            // 107.8a, 107.8b: what a level band gives (base P/T, keywords,
            // abilities) exists while its level counters are in the band.
            // 707.2: a copy has the original's bands, and its own counters.
            let levels = card.count(&CounterKind::named("level"));
            for la in card.level_abilities() {
                if card.back().is_none() && card.face().level_up[la.band].contains(levels) {
                    self.actives
                        .push(active(&la.spec, Origin::Level { card: ci }));
                }
            }
        }
    }

    fn label(&self, a: usize) -> String {
        let act = &self.actives[a];
        let g = self.g;
        match act.origin {
            Origin::Resolved(i) => g.effects[i].label.clone(),
            Origin::Static { card, ability } => {
                let c = &g.cards[card];
                match &act.spec.name {
                    Some(n) => format!("{n} of {}", c.name()),
                    None if c.abilities().len() > 1 => {
                        format!("{}'s ability #{}", c.name(), ability + 1)
                    }
                    None => format!("{}'s ability", c.name()),
                }
            }
            Origin::Level { card, .. } => {
                format!(
                    "{} ({})",
                    act.spec.name.as_deref().unwrap_or("level up"),
                    g.cards[card].name()
                )
            }
        }
    }

    /// Whether a static ability's effect exists: its source still has the
    /// ability, or the effect already started applying (613.6).
    fn exists(&self, a: usize, early: &[Early]) -> bool {
        let act = &self.actives[a];
        match act.origin {
            // 611.2a: a resolved effect does not depend on its source.
            Origin::Resolved(_) => {
                !(self.g.bug(Mutant::PumpsFollowSource)
                    && act.source.is_some_and(|s| !early[s].abilities))
            }
            Origin::Static { card, .. } | Origin::Level { card, .. } => {
                self.determined[a].is_some() || early[card].abilities
            }
        }
    }

    /// The battlefield cards an effect applies to, in the state `early`.
    fn affected_now(&self, a: usize, early: &[Early]) -> Vec<usize> {
        let act = &self.actives[a];
        match &act.target {
            Target::Locked(refs) => refs
                .iter()
                .filter_map(|r| self.g.live(*r))
                .filter(|c| self.g.cards[*c].on_battlefield())
                .collect(),
            Target::Card(c) => c
                .filter(|c| self.g.cards[*c].on_battlefield())
                .into_iter()
                .collect(),
            Target::Filter(f) => (0..self.g.cards.len())
                .filter(|c| self.matches(f, *c, &early[*c], act.source) && !f.tests_pt())
                .collect(),
        }
    }

    /// Whether card `c`, with characteristics `e`, matches `f` on everything
    /// but power and toughness (see [`pt_matches`]).
    pub fn matches(&self, f: &Filter, c: usize, e: &Early, source: Option<usize>) -> bool {
        let card = &self.g.cards[c];
        if card.zone != f.zone() {
            return false;
        }
        if !e.types.contains_all(&f.types) || e.types.contains_any(&f.not_types) {
            return false;
        }
        // 708.2a: a face-down permanent has no subtypes and no name;
        // 712.8e: a transformed one those of its back face.
        if !f.subtypes.iter().all(|s| card.subtypes().contains(s)) {
            return false;
        }
        if !e.colors.contains_all(&f.colors) {
            return false;
        }
        if let Some(ctl) = &f.controller {
            if self.g.players[card.controller].handle != *ctl {
                return false;
            }
        }
        if f.name
            .as_ref()
            .is_some_and(|n| card.face_name() != Some(n.as_str()))
        {
            return false;
        }
        if f.with_counter.as_ref().is_some_and(|k| card.count(k) == 0) {
            return false;
        }
        !(f.other && source == Some(c))
    }

    // ---- layers 4–6 ----------------------------------------------------

    /// The layers whose parts of `spec` apply in `layer`: its own part,
    /// or, where the edition applies an effect that changes types whole
    /// (the 1999 rules: 418.5e of 2003-03-15, 418.5b of 2003-12-01 to
    /// 2005-08-01), every part of such an effect in layer 4 and none later.
    fn parts_in(&self, layer: u8, spec: &EffectSpec) -> &'static [u8] {
        if self.g.rules.type_changes_whole() && spec.changes_types() {
            return if layer == 4 { &[4, 5, 6] } else { &[] };
        }
        match layer {
            4 if has_part_in(spec, 4) => &[4],
            5 if has_part_in(spec, 5) => &[5],
            6 if has_part_in(spec, 6) => &[6],
            _ => &[],
        }
    }

    fn early_layers(&mut self) {
        for layer in [4u8, 5, 6] {
            let mut pending: Vec<EarlyEntry> = Vec::new();
            for (a, act) in self.actives.iter().enumerate() {
                if !self.parts_in(layer, act.spec).is_empty() {
                    pending.push(EarlyEntry::Effect(a));
                }
            }
            if layer == 6 {
                for (ci, card) in self.g.cards.iter().enumerate() {
                    if !card.on_battlefield() {
                        continue;
                    }
                    for (kind, stack) in &card.counters {
                        if let CounterKind::Keyword(k) = kind {
                            if stack.count > 0 && self.g.rules.keyword_counters.contains(k) {
                                pending.push(EarlyEntry::KeywordCounter {
                                    card: ci,
                                    keyword: *k,
                                    stack: *stack,
                                });
                            }
                        }
                    }
                }
            }
            self.apply_early_layer(layer, pending);
        }
    }

    fn apply_early_layer(&mut self, layer: u8, mut pending: Vec<EarlyEntry>) {
        // Once no entry left can depend on another, none ever will: the
        // rest apply in timestamp order, sorted once.
        let mut sorted = false;
        while !pending.is_empty() {
            if !sorted && !self.early_may_depend(layer, &pending) {
                sorted = true;
                by_time_last_first(&mut pending, |p| p.key(self));
            }
            let (pick, jumped) = if sorted {
                (pending.len() - 1, false)
            } else {
                let positions: Vec<usize> = (0..pending.len()).collect();
                order::next(
                    &positions,
                    true,
                    |p| pending[p].key(self),
                    |a, b| self.early_depends(layer, &pending[a], &pending[b]),
                )
            };
            let entry = pending.remove(pick);
            self.apply_early(layer, &entry, jumped);
        }
    }

    /// Whether an entry of `pending` may depend on another in this layer
    /// (see [`Eval::may_depend_on`]). When this says no,
    /// [`Eval::early_depends`] says no for every pair; the state changes
    /// only by entries leaving `pending` and sets being determined, so the
    /// answer stays no.
    fn early_may_depend(&self, layer: u8, pending: &[EarlyEntry]) -> bool {
        let effects: Vec<usize> = pending
            .iter()
            .filter_map(|p| match p {
                EarlyEntry::Effect(a) => Some(*a),
                EarlyEntry::KeywordCounter { .. } => None,
            })
            .collect();
        effects.len() > 1
            && effects.iter().enumerate().any(|(i, &a)| {
                effects
                    .iter()
                    .enumerate()
                    .any(|(j, &b)| i != j && self.may_depend_on(layer, a, b))
            })
    }

    /// Whether active `a` may depend on active `b` in this layer (613.8a),
    /// from what `a` reads and `b` changes, whatever the state: in layers 4
    /// and 5 only an affected set looked up by a filter on the types or
    /// colors `b` changes can change, and in layer 6 only whether a static
    /// ability exists, by an effect that removes all abilities (see
    /// [`Eval::exists`]).
    fn may_depend_on(&self, layer: u8, a: usize, b: usize) -> bool {
        let by = self.actives[b].spec;
        self.parts_in(layer, by)
            .iter()
            .any(|&part| self.may_depend_on_part(part, a, b))
    }

    /// [`Eval::may_depend_on`] for the part of `b` in layer `part`.
    fn may_depend_on_part(&self, part: u8, a: usize, b: usize) -> bool {
        let (act, by) = (&self.actives[a], self.actives[b].spec);
        let open = self.determined[a].is_none();
        match part {
            4 => {
                open && matches!(act.target, Target::Filter(f) if by.add_types.iter().chain(&by.remove_types).any(|t| f.types.contains(t) || f.not_types.contains(t)))
            }
            5 => open && matches!(act.target, Target::Filter(f) if !f.colors.is_empty()),
            _ if !by.remove_all_abilities => false,
            _ if act.is_static() => open,
            _ => self.g.bug(Mutant::PumpsFollowSource),
        }
    }

    /// 613.8a: `a` depends on `b` if applying `b` would change whether `a`
    /// exists or what it applies to.
    fn early_depends(&self, layer: u8, a: &EarlyEntry, b: &EarlyEntry) -> bool {
        let (EarlyEntry::Effect(ai), EarlyEntry::Effect(bi)) = (*a, *b) else {
            // A keyword counter only adds a keyword to its own object.
            return false;
        };
        if !self.may_depend_on(layer, ai, bi) {
            return false;
        }
        let mut trial = self.early.clone();
        self.apply_early_to(layer, b, &mut trial);
        if self.exists(ai, &self.early) != self.exists(ai, &trial) {
            return true;
        }
        self.determined[ai].is_none()
            && matches!(self.actives[ai].target, Target::Filter(_))
            && self.affected_now(ai, &self.early) != self.affected_now(ai, &trial)
    }

    /// Applies an entry's layer part to a copy of the characteristics (for
    /// dependency trials): the affected set as it would be determined now.
    fn apply_early_to(&self, layer: u8, entry: &EarlyEntry, early: &mut [Early]) {
        match *entry {
            EarlyEntry::Effect(a) => {
                if !self.exists(a, early) {
                    return;
                }
                let targets = match &self.determined[a] {
                    Some(d) => d.clone(),
                    None => self.affected_now(a, early),
                };
                let spec = self.actives[a].spec;
                for c in targets {
                    for &part in self.parts_in(layer, spec) {
                        apply_part(part, spec, &mut early[c]);
                    }
                }
            }
            EarlyEntry::KeywordCounter { card, keyword, .. } => {
                early[card].keywords.insert(keyword)
            }
        }
    }

    fn apply_early(&mut self, layer: u8, entry: &EarlyEntry, jumped: bool) {
        match *entry {
            EarlyEntry::Effect(a) => {
                if !self.exists(a, &self.early) {
                    if self.tracing {
                        if let Some(src) = self.actives[a].source {
                            let text = format!(
                                "layer {layer}: {} does not apply: {} lost that ability [604.2]",
                                self.label(a),
                                self.g.cards[src].name()
                            );
                            self.early_lines[src].push(Line { depth: 0, text });
                        }
                    }
                    return;
                }
                let targets = match self.determined[a].take() {
                    Some(d) => d,
                    None => self.affected_now(a, &self.early),
                };
                let spec = self.actives[a].spec;
                let parts = self.parts_in(layer, spec);
                for &c in &targets {
                    for &part in parts.iter().filter(|&&p| has_part_in(spec, p)) {
                        apply_part(part, spec, &mut self.early[c]);
                        if self.tracing {
                            let act = &self.actives[a];
                            let mut text = format!(
                                "layer {layer}: {} by {} (t={}) [{}]",
                                part_summary(part, act.spec),
                                self.label(a),
                                act.ts,
                                layer_rule(part)
                            );
                            if part != layer {
                                text.push_str(", with its types: this edition applies an effect that changes types whole [418.5b of 2003]");
                            }
                            if jumped {
                                text.push_str(
                                    ", ahead of earlier effects that depend on it [613.8]",
                                );
                            }
                            self.early_lines[c].push(Line { depth: 0, text });
                        }
                    }
                }
                if parts.contains(&6) {
                    // 613.1f, 613.7: abilities are gained and lost in the
                    // order of layer 6; an ability granted before an
                    // object loses all abilities is gone, one granted
                    // after stays. The effect's own removal ("loses all
                    // other abilities") spares what it grants.
                    self.clock = self.clock.saturating_add(1);
                    let spec = self.actives[a].spec;
                    if spec.remove_all_abilities {
                        for &c in &targets {
                            self.early[c].lost_at = self.clock;
                            if self.tracing {
                                self.trace_lost_grants(a, c);
                            }
                        }
                    }
                    if spec.grant_pt_ability.is_some() {
                        self.granted_at[a] = self.clock;
                    }
                }
                self.determined[a] = Some(targets);
            }
            EarlyEntry::KeywordCounter {
                card,
                keyword,
                stack,
            } => {
                self.early[card].keywords.insert(keyword);
                if self.tracing {
                    let text = format!(
                        "layer 6: gains {keyword} from {} {keyword} counter(s) (t={}) [122.1b, 613.7c]",
                        stack.count, stack.ts
                    );
                    self.early_lines[card].push(Line { depth: 0, text });
                }
            }
        }
    }

    // ---- layer 7 -------------------------------------------------------

    /// The P/T of card `c`, if it has any (208.3).
    pub fn pt(&self, c: usize) -> Result<Option<PtInfo>, Overflow> {
        match &self.pt.borrow()[c] {
            Slot::Done(r) => return r.clone(),
            // A loop of reads (208.2a): the caller treats it as undeterminable.
            Slot::Busy => return Ok(None),
            Slot::Todo => {}
        }
        self.pt.borrow_mut()[c] = Slot::Busy;
        self.computing.borrow_mut().push(c);
        let r = self.compute_pt(c);
        self.computing.borrow_mut().pop();
        self.pt.borrow_mut()[c] = Slot::Done(r.clone());
        r
    }

    /// Records that the object being computed reads `c`, which is itself
    /// being computed: every object from `c` up to the reader forms a loop
    /// of reads, merged with any loop they already belong to.
    fn close_loop(&self, c: usize) {
        let computing = self.computing.borrow();
        let from = computing.iter().position(|&x| x == c).unwrap_or(0);
        let mut loops = self.loop_of.borrow_mut();
        let members: Vec<usize> = computing[from..].to_vec();
        let old: Vec<usize> = members.iter().filter_map(|&m| loops[m]).collect();
        let label = c;
        for slot in loops.iter_mut() {
            if slot.is_some_and(|l| old.contains(&l)) {
                *slot = Some(label);
            }
        }
        for m in members {
            loops[m] = Some(label);
        }
    }

    /// Whether `a` and `b` read each other's P/T through a loop.
    fn in_one_loop(&self, a: usize, b: usize) -> bool {
        let loops = self.loop_of.borrow();
        loops[a].is_some() && loops[a] == loops[b]
    }

    fn is_busy(&self, c: usize) -> bool {
        matches!(self.pt.borrow()[c], Slot::Busy)
    }

    fn line(&self, c: usize, depth: u8, text: impl FnOnce() -> String) {
        if self.tracing {
            self.pt_lines.borrow_mut()[c].push(Line {
                depth,
                text: text(),
            });
        }
    }

    fn compute_pt(&self, c: usize) -> Result<Option<PtInfo>, Overflow> {
        let g = self.g;
        let card = &g.cards[c];
        let on_bf = card.on_battlefield();
        let creature = self.early[c].types.has(CardType::Creature);
        // 208.3: a noncreature permanent has no P/T; off the battlefield, a
        // noncreature object has P/T only if it is printed.
        if !creature && (on_bf || card.spec.pt.is_none()) {
            if let (true, true, Some(p)) = (g.bug(Mutant::NoncreatureHasPt), on_bf, card.spec.pt) {
                let pt = Pt::new(
                    p.power.value(0).unwrap_or(0),
                    p.toughness.value(0).unwrap_or(0),
                );
                return Ok(Some(PtInfo { pt, base: pt }));
            }
            return Ok(None);
        }
        let who = || format!("{} ({})", card.name(), card.spec.id);
        let start = self.starting_pt(c);
        let entries = self.layer7_entries(c, creature);
        let (mut pt, mut base) = self.apply_layer7(c, &entries, start, &who)?;
        if g.bug(Mutant::BaseIncludesModifications) {
            base = pt;
        }
        if on_bf && g.bug(Mutant::DamageLowersToughness) {
            pt.toughness -= i128::from(card.damage);
        }
        let (pt, base) = (pt.narrow(&who)?, base.narrow(&who)?);
        self.line(c, 0, || format!("= {pt}, base {base} [208.4b]"));
        Ok(Some(PtInfo { pt, base }))
    }

    /// Where layer 7 starts for creature `c`: its copiable P/T (208.2b,
    /// 208.5), explained.
    fn starting_pt(&self, c: usize) -> Wide {
        let card = &self.g.cards[c];
        // 708.2a: a face-down permanent is a 2/2 whatever is printed; those
        // are its copiable values, under every effect and counter.
        if card.face_down && !self.g.bug(Mutant::FaceDownKeepsPrinted) {
            self.line(c, 0, || {
                "face down: 2/2, its copiable P/T [708.2a, 613.2a]".into()
            });
            return Wide::of(Pt::new(2, 2));
        }
        if let Some(cp) = card.copy() {
            // 707.9b: an exception of the copy effect that sets P/T is its
            // copiable P/T.
            if let Some(pt) = cp.except_pt {
                self.line(c, 0, || {
                    format!("a copy \"except it's {pt}\": {pt}, its copiable P/T [707.9b, 613.2a]")
                });
                if cp.spec.cda.is_some() && !self.exception_drops_cda() {
                    self.line(c, 0, || {
                        "the ability that defines the original's P/T is copied with the rest: 706.8d (707.9d now) leaves it out only from the text of 2011-02-04 [604.3a, 613.4a]".into()
                    });
                }
                return Wide::of(pt);
            }
            // 707.2: a copy of a face-down permanent copies 708.2a's values.
            if cp.face_down {
                self.line(c, 0, || {
                    "a copy of a face-down permanent: 2/2, its copiable P/T [707.2, 708.2a]".into()
                });
                return Wide::of(Pt::new(2, 2));
            }
            self.line(c, 0, || {
                format!(
                    "a copy of {}: its copiable values are that card's, not its counters or effects [707.2, 613.2a]",
                    cp.spec.display_name()
                )
            });
        }
        // 712.8e: transformed, its back face's P/T (none: 0/0, 208.5).
        if let Some(b) = card.back() {
            let pt = b.pt.unwrap_or(Pt::new(0, 0));
            self.line(c, 0, || format!("back face up: printed {pt} [712.8e]"));
            return Wide::of(pt);
        }
        let face = card.face();
        let printed = face.pt;
        let chosen = card.chosen();
        let start = Wide::of(match (chosen, printed) {
            // 208.2b: the values chosen as it entered are its copiable P/T.
            (Some(ch), _) => ch.pt,
            // 208.2b: off the battlefield, a card whose P/T is chosen as it
            // enters has power and toughness 0.
            (None, _) if !face.enters_as.is_empty() => Pt::new(0, 0),
            (None, Some(p)) => Pt::new(
                p.power.value(0).unwrap_or(0),
                p.toughness.value(0).unwrap_or(0),
            ),
            // 208.5: a creature with no value for P/T has 0.
            (None, None) => Pt::new(0, 0),
        });
        match printed {
            _ if card.choices().nth(1).is_some() => self.line(c, 0, || {
                let all: Vec<String> = card.choices().map(super::entry_label).collect();
                format!(
                    "chosen as the original and the copies after it entered: {}; the last sets its copiable P/T, each adds its keywords [208.2b, 707.2, 707.6, 613.2a]",
                    all.join(", then ")
                )
            }),
            _ if chosen.is_some() => self.line(c, 0, || {
                format!(
                    "chosen as it entered: {}, its copiable P/T [208.2b, 613.2a]",
                    chosen.map(super::entry_label).unwrap_or_default()
                )
            }),
            _ if !face.enters_as.is_empty() => self.line(c, 0, || {
                "its P/T is chosen only as it enters the battlefield: 0/0 here [208.2b]".into()
            }),
            Some(p) => self.line(c, 0, || {
                if p.has_star() {
                    format!("printed {p}, each * counting 0 until defined [208.2a, 208.5]")
                } else {
                    format!("printed {p} [208.1, 302.4c]")
                }
            }),
            None => self.line(c, 0, || "no printed P/T: 0/0 [208.5]".into()),
        }
        start
    }

    /// Whether a copy effect whose exception sets P/T leaves out the
    /// original's ability that defines P/T: 707.9d (706.8d of 2011-02-04).
    /// Before that text the ability was copied like any other, and applied
    /// in 7a over the exception (612.3a of 2009-07-11, DECISIONS.md D70).
    fn exception_drops_cda(&self) -> bool {
        self.g.rules.copy_exception_drops_cda && !self.g.bug(Mutant::CopyKeepsCda)
    }

    /// Everything that may change creature `c`'s P/T in layer 7, each with
    /// its class (which sublayer holds it) and its timestamp: its CDA,
    /// the effects that may affect it, hone counters on its Equipment and
    /// its P/T counters (613.4).
    fn layer7_entries(&self, c: usize, creature: bool) -> Vec<Layer7Entry> {
        let g = self.g;
        let rules = g.rules;
        let card = &g.cards[c];
        let on_bf = card.on_battlefield();
        let mut entries: Vec<Layer7Entry> = Vec::new();
        // 707.9d: a copy whose exception sets P/T does not copy an ability
        // that defines them; a copy of a face-down one has none (707.2).
        let cda_here = card.face().cda.is_some()
            && card.copy().is_none_or(|cp| {
                (cp.except_pt.is_none() || !self.exception_drops_cda()) && !cp.face_down
            })
            && card.back().is_none()
            && self.early[c].abilities
            && (on_bf || rules.cda_in_every_zone && !g.bug(Mutant::CdaOnlyOnBattlefield));
        if cda_here {
            entries.push((PtClass::Cda, PtEntry::Cda, card.ts, card.seq));
        }
        if on_bf {
            for a in self.may_affect(c) {
                let act = &self.actives[a];
                // The 1999 rules apply an effect that changes types whole,
                // with its types: its P/T parts in a step of their own
                // (418.5e of 2003-03-15, 418.5b of 2003-12-01; D72).
                let whole = rules.type_changes_whole() && act.spec.changes_types();
                let modify_class = if whole {
                    PtClass::WithTypes
                } else if act.is_static() {
                    PtClass::ModifyStatic
                } else {
                    PtClass::ModifyResolved
                };
                if act.spec.sets_numbers() {
                    let class = if whole {
                        PtClass::WithTypes
                    } else if g.bug(Mutant::SetSharesTimestamps) {
                        modify_class
                    } else {
                        PtClass::Set
                    };
                    // 613.4b, 613.6: since 2005-10-01 the setting part of an
                    // effect that also changes types applies in 7b in
                    // timestamp order like any other.
                    let ts = if g.bug(Mutant::SetsWithItsTypes) && act.spec.changes_types() {
                        i64::MIN
                    } else {
                        act.ts
                    };
                    entries.push((class, PtEntry::Set(a), ts, act.seq));
                }
                if act.spec.modify.is_some() {
                    entries.push((modify_class, PtEntry::Modify(a), act.ts, act.seq));
                }
                if act.spec.grant_pt_ability.is_some() && self.granted_on(a, c) {
                    // 604.3a: an ability an effect grants is not a
                    // characteristic-defining ability, so it sets P/T in
                    // 7b (613.4b) among the other setting effects, with the
                    // later of the object's timestamp and the granting
                    // effect's (613.7a).
                    let class = if g.bug(Mutant::GrantedPtAsCda) {
                        PtClass::Cda
                    } else {
                        PtClass::Set
                    };
                    let (ts, seq) = (card.ts, card.seq).max((act.ts, act.seq));
                    entries.push((class, PtEntry::Granted(a), ts, seq));
                }
                if act.spec.switch {
                    let class = if whole {
                        PtClass::WithTypes
                    } else {
                        PtClass::Switch
                    };
                    entries.push((class, PtEntry::Switch(a), act.ts, act.seq));
                }
            }
            if rules.hone_counters {
                let from = self.hone.partition_point(|&(t, _)| t < c);
                let here = self.hone[from..].iter().take_while(|&&(t, _)| t == c);
                for &(_, ei) in here {
                    if let Some(s) = g.cards[ei].counters.get(&CounterKind::named("hone")) {
                        entries.push((
                            PtClass::Counters,
                            PtEntry::Hone {
                                equipment: ei,
                                count: s.count,
                                ts: s.ts,
                            },
                            s.ts,
                            s.seq,
                        ));
                    }
                }
            }
        }
        // 122.1a: +X/+Y counters count on a creature, and on a creature card
        // in another zone.
        if on_bf || creature && rules.pt_counters_off_battlefield {
            for (kind, Stack { count, ts, seq }) in &card.counters {
                if let CounterKind::Pt { power, toughness } = kind {
                    if *count > 0 {
                        entries.push((
                            PtClass::Counters,
                            PtEntry::Counter {
                                power: *power,
                                toughness: *toughness,
                                count: *count,
                                ts: *ts,
                            },
                            *ts,
                            *seq,
                        ));
                    }
                }
            }
        }
        entries
    }

    /// Explains that effect `a`, removing all abilities of `c`, removes the
    /// P/T-defining abilities older effects granted it (613.1f).
    fn trace_lost_grants(&mut self, a: usize, c: usize) {
        for b in 0..self.actives.len() {
            let at = self.granted_at[b];
            if b == a || at == 0 || at >= self.clock {
                continue;
            }
            if !self.determined[b].as_ref().is_some_and(|d| d.contains(&c)) {
                continue;
            }
            let text = format!(
                "layer 6: the P/T ability {} granted is lost with the others by {}, which is later: it no longer sets P/T in 7b [613.1f, 613.7]",
                self.label(b),
                self.label(a)
            );
            self.early_lines[c].push(Line { depth: 0, text });
        }
    }

    /// Whether effect `a` granted object `c` an ability that defines P/T
    /// and `c` still has it after layer 6: it did not lose all abilities
    /// afterwards (613.1f).
    fn granted_on(&self, a: usize, c: usize) -> bool {
        let at = self.granted_at.get(a).copied().unwrap_or(0);
        at > 0 && (at >= self.early[c].lost_at || self.g.bug(Mutant::GrantedPtOutlivesLoss))
    }

    /// Applies `entries` to `start` sublayer by sublayer, in timestamp
    /// and dependency order inside each (613.7, 613.8): the P/T and the
    /// base P/T (208.4b), before they are narrowed to 64 bits.
    fn apply_layer7(
        &self,
        c: usize,
        entries: &[Layer7Entry],
        start: Wide,
        who: &dyn Fn() -> String,
    ) -> Result<(Wide, Wide), Overflow> {
        let g = self.g;
        let rules = g.rules;
        let card = &g.cards[c];
        let mut pt = start;
        let mut base = start;
        // Per active effect: whether it applies to this object, once decided
        // (613.6: the same answer in every sublayer).
        let mut decided: Vec<Option<bool>> = vec![None; self.actives.len()];
        let late_counters = g.bug(Mutant::CountersAfterSwitch);
        let mut switched = false;
        let mut set_applied = false;
        let fourth = g.bug(Mutant::CountersInFourthSublayer) && rules.layer7.len() >= 4;
        for (si, sub) in rules.layer7.iter().enumerate() {
            let mut pending: Vec<usize> = (0..entries.len())
                .filter(|&i| match entries[i].0 {
                    PtClass::Counters if fourth => si == 3,
                    class => sub.holds.contains(&class),
                })
                .filter(|&i| !(late_counters && entries[i].0 == PtClass::Counters))
                .collect();
            // Once no entry left can depend on another (613.8a: only one
            // whose filter tests P/T, not yet decided), none ever will:
            // the rest apply in timestamp order, sorted once.
            let mut sorted = false;
            while !pending.is_empty() {
                let may_depend = !sorted
                    && pending.len() > 1
                    && pending.iter().any(|&i| {
                        effect_of(entries[i].1)
                            .is_some_and(|a| decided[a].is_none() && self.filter_tests_pt(a))
                    });
                if !may_depend && !sorted {
                    sorted = true;
                    let key = |i: &usize| self.order_key(entries[*i].2, entries[*i].3);
                    by_time_last_first(&mut pending, key);
                }
                let (pick, jumped) = if sorted {
                    (pending.len() - 1, false)
                } else {
                    order::next(
                        &pending,
                        true,
                        |i| self.order_key(entries[i].2, entries[i].3),
                        |x, y| self.pt_depends(c, &entries[x].1, &entries[y].1, pt, &decided),
                    )
                };
                let i = pending.remove(pick);
                let entry = entries[i].1;
                if let Some(a) = effect_of(entry) {
                    let applies = match decided[a] {
                        Some(d) => d,
                        None => {
                            let d = self.applies_in_7(a, pt);
                            decided[a] = Some(d);
                            d
                        }
                    };
                    if !applies {
                        continue;
                    }
                }
                if let PtEntry::Set(_) | PtEntry::Granted(_) = entry {
                    set_applied = true;
                }
                if set_applied
                    && g.bug(Mutant::SetWipesCounters)
                    && matches!(entry, PtEntry::Counter { .. } | PtEntry::Hone { .. })
                {
                    continue;
                }
                if let PtEntry::Switch(_) = entry {
                    if switched && g.bug(Mutant::SwitchIsFlag) {
                        continue;
                    }
                    switched = true;
                }
                pt = self.apply_pt(c, entry, pt, sub, jumped, who)?;
                // 208.4b: base P/T is what CDAs and setting effects make of
                // the printed values, whichever sublayers the edition puts
                // them in (a setting effect's result does not depend on
                // what came before it; a CDA's only on the value it leaves).
                match entry {
                    PtEntry::Set(_) => base = pt,
                    PtEntry::Granted(a) => {
                        if let Some(gr) = &self.actives[a].spec.grant_pt_ability {
                            if gr.power.is_some() {
                                base.power = pt.power;
                            }
                            if gr.toughness.is_some() {
                                base.toughness = pt.toughness;
                            }
                        }
                    }
                    PtEntry::Cda => {
                        if let Some(cda) = &card.face().cda {
                            if cda.power.is_some() {
                                base.power = pt.power;
                            }
                            if cda.toughness.is_some() {
                                base.toughness = pt.toughness;
                            }
                        }
                    }
                    _ => {}
                }
                if g.bug(Mutant::ClampIntermediate)
                    && matches!(
                        entry,
                        PtEntry::Modify(_) | PtEntry::Counter { .. } | PtEntry::Hone { .. }
                    )
                {
                    pt = Wide {
                        power: pt.power.max(0),
                        toughness: pt.toughness.max(0),
                    };
                }
            }
        }
        if late_counters {
            let mut late: Vec<&Layer7Entry> = entries
                .iter()
                .filter(|e| e.0 == PtClass::Counters)
                .collect();
            late.sort_by_key(|e| (e.2, e.3));
            for e in late {
                pt = self.pt_step(c, e.1, pt, who, false)?.0;
            }
        }
        Ok((pt, base))
    }

    /// The order of two things with timestamps: timestamp, then creation (D3).
    fn order_key(&self, ts: i64, seq: u64) -> (i64, u64) {
        if self.g.bug(Mutant::Nondeterministic) {
            return (ts, seq ^ self.noise);
        }
        (ts, seq)
    }

    fn filter_tests_pt(&self, a: usize) -> bool {
        self.determined[a].is_none()
            && matches!(&self.actives[a].target, Target::Filter(f) if f.tests_pt())
    }

    /// Whether effect `a`, one of those that may affect the object being
    /// computed (see [`Eval::may_affect`]), applies to it given its P/T so
    /// far: decided the first time `a` is reached in layer 7.
    fn applies_in_7(&self, a: usize, pt: Wide) -> bool {
        // Being a candidate, `a` has the object in its fixed or determined
        // set (613.6), or its filter matches it on all but P/T.
        if self.determined[a].is_some() {
            return true;
        }
        match &self.actives[a].target {
            Target::Filter(f) => pt_in(f, pt.power, pt.toughness),
            _ => true,
        }
    }

    /// 613.8a inside layer 7: `x` depends on `y` if applying `y` would
    /// change whether `x` applies to this object.
    fn pt_depends(
        &self,
        c: usize,
        x: &PtEntry,
        y: &PtEntry,
        pt: Wide,
        decided: &[Option<bool>],
    ) -> bool {
        let Some(a) = effect_of(*x) else { return false };
        if decided[a].is_some() || !self.filter_tests_pt(a) {
            return false;
        }
        if let Some(b) = effect_of(*y) {
            if decided[b] == Some(false) || decided[b].is_none() && !self.applies_in_7(b, pt) {
                return false;
            }
        }
        let after = match self.pt_step(c, *y, pt, &String::new, false) {
            Ok((p, _)) => p,
            Err(_) => return false,
        };
        self.applies_in_7(a, pt) != self.applies_in_7(a, after)
    }

    fn apply_pt(
        &self,
        c: usize,
        entry: PtEntry,
        pt: Wide,
        sub: &crate::edition::Sublayer,
        jumped: bool,
        who: &dyn Fn() -> String,
    ) -> Result<Wide, Overflow> {
        let (next, text) = self.pt_step(c, entry, pt, who, self.tracing)?;
        if self.tracing {
            let mut line = format!("{}: {text} → {next} [{}", sub.label, sub.rule);
            match entry {
                PtEntry::Counter { .. } => line.push_str(", 122.1a"),
                PtEntry::Hone { .. } => line.push_str(", 122.1j"),
                PtEntry::Cda => line.push_str(", 604.3"),
                PtEntry::Granted(_) => line.push_str(", 604.3a, 613.7a"),
                PtEntry::Set(a) | PtEntry::Modify(a) | PtEntry::Switch(a)
                    if matches!(self.actives[a].origin, Origin::Level { .. }) =>
                {
                    line.push_str(", 107.8")
                }
                _ => {}
            }
            line.push(']');
            if jumped {
                line.push_str(", ahead of an earlier effect that depends on it [613.8]");
            }
            self.line(c, 0, || line);
        }
        Ok(next)
    }

    /// A setting effect that sets the power or the toughness only (7b,
    /// 613.4b): what an exchange of values leaves (701.12g).
    fn set_one_step(&self, a: usize, pt: Wide, describe: bool) -> (Wide, String) {
        let spec = &self.actives[a].spec;
        let mut next = pt;
        let mut said = Vec::new();
        if let Some(p) = spec.set_power {
            next.power = p.into();
            said.push(format!("power {p}"));
        }
        if let Some(t) = spec.set_toughness {
            next.toughness = t.into();
            said.push(format!("toughness {t}"));
        }
        let text = if describe && !said.is_empty() {
            self.effect_text(a, &format!("set {}", said.join(", ")))
        } else {
            String::new()
        };
        (next, text)
    }

    /// Applies one layer-7 entry; returns the new P/T and, when `describe`
    /// is set, what it did.
    fn pt_step(
        &self,
        c: usize,
        entry: PtEntry,
        pt: Wide,
        who: &dyn Fn() -> String,
        describe: bool,
    ) -> Result<(Wide, String), Overflow> {
        match entry {
            PtEntry::Cda => self.cda_step(c, pt, who, describe),
            PtEntry::Set(a) => {
                let act = &self.actives[a];
                let Some(set) = act.spec.set else {
                    return Ok(self.set_one_step(a, pt, describe));
                };
                let x = match act.x {
                    XVal::Locked { set, .. } => set,
                    XVal::Live(q) if set.uses_x() => self.live_quantity(q, c)?,
                    _ => 0,
                };
                let next = Wide::of(set.resolve(x));
                let text = if describe {
                    self.effect_text(a, &format!("set {}", show_set(set, x)))
                } else {
                    String::new()
                };
                Ok((next, text))
            }
            PtEntry::Modify(a) => self.modify_step(c, a, pt, who, describe),
            PtEntry::Granted(a) => self.granted_step(c, a, pt, describe),
            PtEntry::Switch(a) => {
                let text = if describe {
                    self.effect_text(a, "switch")
                } else {
                    String::new()
                };
                Ok((
                    Wide {
                        power: pt.toughness,
                        toughness: pt.power,
                    },
                    text,
                ))
            }
            PtEntry::Counter {
                power,
                toughness,
                count,
                ts,
                ..
            } => self.counter_step((power, toughness), count, ts, pt, who, describe),
            PtEntry::Hone {
                equipment,
                count,
                ts,
                ..
            } => {
                let next = pt.add(count.into(), 0, who)?;
                if !describe {
                    return Ok((next, String::new()));
                }
                let eq = self.g.cards[equipment].name();
                Ok((
                    next,
                    format!(
                        "+{count}/+0 from {count} hone counter{} on {eq} (t={ts})",
                        plural(count)
                    ),
                ))
            }
        }
    }

    /// 604.3, 613.4a: the characteristic-defining ability's values for `*`.
    fn cda_step(
        &self,
        c: usize,
        pt: Wide,
        who: &dyn Fn() -> String,
        describe: bool,
    ) -> Result<(Wide, String), Overflow> {
        let face = self.g.cards[c].face();
        let Some(cda) = &face.cda else {
            return Ok((pt, String::new()));
        };
        let Some(printed) = face.pt else {
            return Ok((pt, String::new()));
        };
        let mut next = pt;
        let mut said = Vec::new();
        if let Some(q) = &cda.power {
            let star = self.live_quantity(q, c)?;
            next.power = checked(printed.power.value(star), || {
                format!("the power of {}", who())
            })?
            .into();
            if describe {
                said.push(format!("power * = {} = {star}", self.g.describe(q)));
            }
        }
        if let Some(q) = &cda.toughness {
            let star = self.live_quantity(q, c)?;
            next.toughness = checked(printed.toughness.value(star), || {
                format!("the toughness of {}", who())
            })?
            .into();
            if describe {
                said.push(format!("toughness * = {} = {star}", self.g.describe(q)));
            }
        }
        Ok((
            next,
            format!("characteristic-defining ability: {}", said.join(", ")),
        ))
    }

    /// 604.3a, 613.4b: the ability effect `a` granted, which defines the
    /// power and/or toughness of `c` as a value read all the time; not a
    /// characteristic-defining ability, so it sets them in 7b.
    fn granted_step(
        &self,
        c: usize,
        a: usize,
        pt: Wide,
        describe: bool,
    ) -> Result<(Wide, String), Overflow> {
        let Some(gr) = &self.actives[a].spec.grant_pt_ability else {
            return Ok((pt, String::new()));
        };
        let mut next = pt;
        let mut said = Vec::new();
        let power = match &gr.power {
            Some(q) => Some(self.live_quantity(q, c)?),
            None => None,
        };
        let toughness = match &gr.toughness {
            Some(q) => Some(self.live_quantity(q, c)?),
            None => None,
        };
        if let Some(v) = power {
            next.power = v.into();
        }
        if let Some(v) = toughness {
            next.toughness = v.into();
        }
        if !describe {
            return Ok((next, String::new()));
        }
        match (&gr.power, &gr.toughness, power, toughness) {
            (Some(p), Some(t), Some(vp), Some(vt)) if p == t => said.push(format!(
                "power and toughness each {} = {vp}/{vt}",
                self.g.describe(p)
            )),
            _ => {
                for (side, q, v) in [
                    ("power", &gr.power, power),
                    ("toughness", &gr.toughness, toughness),
                ] {
                    if let (Some(q), Some(v)) = (q, v) {
                        said.push(format!("{side} {} = {v}", self.g.describe(q)));
                    }
                }
            }
        }
        let card = &self.g.cards[c];
        let act = &self.actives[a];
        Ok((
            next,
            format!(
                "{} by the ability {} granted (t={}): granted by an effect, so no characteristic-defining ability, and set in timestamp order with the other setting effects",
                said.join(", "),
                self.label(a),
                card.ts.max(act.ts)
            ),
        ))
    }

    /// 613.4c: an effect that raises or lowers P/T, X read as the effect
    /// says.
    fn modify_step(
        &self,
        c: usize,
        a: usize,
        pt: Wide,
        who: &dyn Fn() -> String,
        describe: bool,
    ) -> Result<(Wide, String), Overflow> {
        let act = &self.actives[a];
        let Some(m) = act.spec.modify else {
            return Ok((pt, String::new()));
        };
        let x = match act.x {
            XVal::Locked { modify, .. } => modify,
            XVal::Live(q) if m.uses_x() => {
                let raw = self.live_quantity(q, c)?;
                if self.g.rules.clamp_negative_modification {
                    raw.max(0)
                } else {
                    raw
                }
            }
            _ => 0,
        };
        let dp = checked(m.power.value(x), || {
            format!("the power change of {}", self.label(a))
        })?;
        let dt = checked(m.toughness.value(x), || {
            format!("the toughness change of {}", self.label(a))
        })?;
        let next = pt.add(dp.into(), dt.into(), who)?;
        let text = if describe {
            self.effect_text(a, &show_change(m, x))
        } else {
            String::new()
        };
        Ok((next, text))
    }

    /// 613.4c, 122.1a: P/T counters of one kind change P/T by their count times
    /// their values.
    fn counter_step(
        &self,
        (power, toughness): (i64, i64),
        count: i64,
        ts: i64,
        pt: Wide,
        who: &dyn Fn() -> String,
        describe: bool,
    ) -> Result<(Wide, String), Overflow> {
        if self.g.bug(Mutant::WrappingCounters) {
            let wrap = |v: i128, d: i64| i128::from((v as i64).wrapping_add(d.wrapping_mul(count)));
            let next = Wide {
                power: wrap(pt.power, power),
                toughness: wrap(pt.toughness, toughness),
            };
            return Ok((next, String::new()));
        }
        // Both factors fit in 64 bits, so the product fits in 128.
        let dp = i128::from(power) * i128::from(count);
        let dt = i128::from(toughness) * i128::from(count);
        let next = pt.add(dp, dt, who)?;
        if !describe {
            return Ok((next, String::new()));
        }
        let kind = CounterKind::Pt { power, toughness };
        Ok((
            next,
            format!(
                "{} from {count} {kind} counter{} (t={ts})",
                fmt_change(dp, dt),
                plural(count)
            ),
        ))
    }

    fn effect_text(&self, a: usize, what: &str) -> String {
        format!("{what} by {} (t={})", self.label(a), self.actives[a].ts)
    }

    /// A quantity read continuously (a characteristic-defining ability, a
    /// static ability's X), while computing `reader`'s characteristics.
    fn live_quantity(&self, q: &Quantity, reader: usize) -> Result<i64, Overflow> {
        self.quantity(q, false, Some(reader))
    }

    /// A quantity read once, as an ability resolves (608.2h): an object that
    /// has left the battlefield is read from its last known information.
    pub fn locked_quantity(&self, q: &Quantity) -> Result<i64, Overflow> {
        self.quantity(q, true, None)
    }

    fn quantity(&self, q: &Quantity, locked: bool, reader: Option<usize>) -> Result<i64, Overflow> {
        let r = match q {
            Quantity::Fixed(n) => return Ok(*n),
            Quantity::Ref(r) => r,
        };
        let g = self.g;
        Ok(match r.as_ref() {
            QuantityRef::PowerOf(h) | QuantityRef::ToughnessOf(h) => {
                let power = matches!(r.as_ref(), QuantityRef::PowerOf(_));
                let c = g.card_index(h);
                let card = &g.cards[c];
                if locked && !card.on_battlefield() {
                    if let Some(lki) = &card.lki {
                        return Ok(lki
                            .pt
                            .map_or(0, |p| if power { p.power } else { p.toughness }));
                    }
                }
                // 208.2a: a number that can't be determined is 0. A read
                // that loops back to an object still being computed can't
                // be determined, and neither can any read between two
                // objects of that loop (see DECISIONS.md).
                if self.is_busy(c) {
                    self.close_loop(c);
                } else {
                    let v = self.pt(c)?;
                    if !reader.is_some_and(|rd| self.in_one_loop(rd, c)) {
                        return Ok(v.map_or(0, |i| if power { i.pt.power } else { i.pt.toughness }));
                    }
                }
                if let Some(rd) = reader {
                    self.line(rd, 1, || {
                        format!(
                            "{} can't be determined (a loop of reads): 0 [208.2a, 107.2]",
                            g.describe(q)
                        )
                    });
                }
                0
            }
            QuantityRef::Counters(on) => g.cards[g.card_index(&on.on)].count(&on.kind),
            QuantityRef::Count(f) => {
                if let Some(n) = self.counts.borrow().get(f) {
                    return Ok(*n);
                }
                let n = (0..g.cards.len())
                    .filter(|c| self.matches(f, *c, &self.early[*c], None))
                    .count();
                let n = i64::try_from(n).unwrap_or(i64::MAX);
                self.counts.borrow_mut().insert(f.clone(), n);
                n
            }
            QuantityRef::Life(p) => g.players[g.player_index(p)].life,
            QuantityRef::HandSize(p) => {
                let pi = g.player_index(p);
                let in_hand = self.in_hand.get_or_init(|| {
                    let mut v = vec![0i64; g.players.len()];
                    for c in g.cards.iter().filter(|c| c.zone == Zone::Hand) {
                        if let Some(n) = v.get_mut(c.controller) {
                            *n = n.saturating_add(1);
                        }
                    }
                    v
                });
                add(
                    g.players[pi].hand,
                    in_hand.get(pi).copied().unwrap_or(0),
                    || format!("the hand size of {p}"),
                )?
            }
            QuantityRef::XOf(h) => {
                let c = g.card_index(h);
                match g.cards[c].etb_x {
                    // 107.3m: in its own "enters with" effect.
                    Some(x) => x,
                    None => self.x_of(c, locked, reader)?,
                }
            }
            QuantityRef::ManaValueOf(h) => {
                let c = g.card_index(h);
                // 707.2: a copy's mana cost is the original's.
                let spec = g.cards[c].face();
                match &spec.mana_cost {
                    // 708.2a: a face-down permanent has no mana cost.
                    _ if g.cards[c].blank() => 0,
                    // 202.3e: X counts as its value on the stack, 0 elsewhere;
                    // 107.1b: a negative X counts as 0 in the sum.
                    Some(cost) => {
                        let x = self.x_of(c, locked, reader)?.max(0);
                        cost.mana_value(x).ok_or_else(|| Overflow {
                            what: format!("the mana value of {}", g.cards[c].name()),
                        })?
                    }
                    None => spec.mana_value.0,
                }
            }
            QuantityRef::Half(h) => h.apply(self.quantity(&h.of, locked, reader)?),
            QuantityRef::Sum(v) => {
                let mut total = 0i64;
                for q in v {
                    let n = self.quantity(q, locked, reader)?;
                    total = add(total, n, || "a sum".into())?;
                }
                total
            }
        })
    }

    /// The value of X for card `c` (107.3): while it is a spell on the
    /// stack, the value defined by its text (107.3c, read now) or
    /// announced as it was cast (107.3a); 0 anywhere else (107.3g).
    pub fn x_of(&self, c: usize, locked: bool, reader: Option<usize>) -> Result<i64, Overflow> {
        let card = &self.g.cards[c];
        if self.g.bug(Mutant::PermanentKeepsX) || self.g.bug(Mutant::XFixedAtCast) {
            if let Some(x) = card.x {
                return Ok(x);
            }
        }
        if card.zone != Zone::Stack {
            return Ok(0);
        }
        match &card.spec.x_is {
            // Validation keeps X and mana values out of `x_is`: no loop.
            Some(q) => self.quantity(q, locked, reader),
            None => Ok(card.x.unwrap_or(0)),
        }
    }

    // ---- reading results ---------------------------------------------------

    /// Whether card `c` has keyword `k` now.
    pub fn has_keyword(&self, c: usize, k: Keyword) -> bool {
        self.early[c].keywords.has(k)
    }

    /// Whether card `c` has card type `t` now.
    pub fn has_type(&self, c: usize, t: CardType) -> bool {
        self.early[c].types.has(t)
    }

    /// The observable state of card `c` (without its last known information).
    pub fn object_state(&self, c: usize) -> Res<ObjectState> {
        let g = self.g;
        let card = &g.cards[c];
        let e = &self.early[c];
        let info = self.pt(c)?;
        let pt = info.map(|i| i.pt);
        let total = match pt {
            Some(p) if g.bug(Mutant::TotalClampsNegative) => {
                p.power.max(0).checked_add(p.toughness)
            }
            // K.10.3 (1999): a negative value counts as 0 but to change P/T.
            Some(p) if g.rules.negative_counts_as_zero => {
                Some(add(p.power.max(0), p.toughness.max(0), || {
                    format!("the total power and toughness of {}", card.spec.id)
                })?)
            }
            Some(p) => Some(add(p.power, p.toughness, || {
                format!("the total power and toughness of {}", card.spec.id)
            })?),
            None => None,
        };
        Ok(ObjectState {
            zone: card.zone,
            types: e.types.to_vec(),
            colors: e.colors.to_vec(),
            pt,
            base_pt: info.map(|i| i.base),
            total,
            // 510.1a: a creature whose power is 0 or less assigns no combat damage.
            combat_damage: pt.map(|p| p.power.max(0)),
            counters: card
                .counters
                .iter()
                .filter(|(_, s)| s.count > 0)
                .map(|(k, s)| (k.clone(), s.count))
                .collect(),
            damage: card.damage,
            deathtouch_damage: card.deathtouch,
            keywords: e.keywords.to_vec(),
            tapped: card.tapped,
            regeneration_shields: card.shields,
            attached_to: card
                .attached_to
                .and_then(|r| g.live(r))
                .map(|t| g.cards[t].spec.id.clone()),
            summoning_sick: self.summoning_sick(c),
            lki: None,
        })
    }

    /// 302.6: a creature can't attack or use {T} and {Q} abilities unless
    /// it has been under its controller's control continuously since their
    /// most recent turn began; haste lifts that (702.10b). Whether it is a
    /// creature and has haste is read now, whenever it became one or got
    /// or lost haste; how long it has been controlled does not depend on
    /// when it became a creature.
    pub fn summoning_sick(&self, c: usize) -> bool {
        let card = &self.g.cards[c];
        card.on_battlefield()
            && !card.continuous
            && self.has_type(c, CardType::Creature)
            && !self.has_keyword(c, Keyword::Haste)
    }

    /// Writes, for every permanent, how its characteristics came about.
    pub fn explain_battlefield(&self, log: &mut Log) -> Res<()> {
        for (c, card) in self.g.cards.iter().enumerate() {
            if !card.on_battlefield() {
                continue;
            }
            let info = self.pt(c)?;
            let head = match info {
                Some(i) => format!("{} ({}) is {}", card.name(), card.spec.id, i.pt),
                None => format!(
                    "{} ({}) is not a creature: no power or toughness [208.3]",
                    card.name(),
                    card.spec.id
                ),
            };
            log.line(1, || head);
            for l in &self.early_lines[c] {
                log.line(2 + l.depth, || l.text.clone());
            }
            if !card.continuous && self.has_type(c, CardType::Creature) {
                log.line(2, || {
                    if self.has_keyword(c, Keyword::Haste) {
                        "not under its controller's control continuously since their most recent turn began, but it has haste: it can attack and use {T} abilities [302.6, 702.10b]".into()
                    } else {
                        "summoning sick: not under its controller's control continuously since their most recent turn began, so it can't attack or use {T} abilities [302.6]".into()
                    }
                });
            }
            if info.is_some() {
                for l in &self.pt_lines.borrow()[c] {
                    log.line(2 + l.depth, || l.text.clone());
                }
            }
        }
        Ok(())
    }
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

/// Whether `pt` passes the power and toughness tests of `f` (none: no P/T).
pub(crate) fn pt_matches(f: &Filter, pt: Option<Pt>) -> bool {
    match pt {
        Some(pt) => pt_in(f, pt.power.into(), pt.toughness.into()),
        None => !f.tests_pt(),
    }
}

fn pt_in(f: &Filter, power: i128, toughness: i128) -> bool {
    let at = |v: Option<i64>| v.map(i128::from);
    at(f.power_at_most).is_none_or(|v| power <= v)
        && at(f.power_at_least).is_none_or(|v| power >= v)
        && at(f.toughness_at_most).is_none_or(|v| toughness <= v)
        && at(f.toughness_at_least).is_none_or(|v| toughness >= v)
}

/// Sorts `pending` so that popping from its end gives timestamp order,
/// equal keys in the order they were listed (as [`order::next`] picks):
/// the reverse of a stable sort.
fn by_time_last_first<T, K: Ord>(pending: &mut [T], key: impl Fn(&T) -> K) {
    pending.sort_by_key(key);
    pending.reverse();
}

fn effect_of(e: PtEntry) -> Option<usize> {
    match e {
        PtEntry::Set(a) | PtEntry::Modify(a) | PtEntry::Switch(a) | PtEntry::Granted(a) => Some(a),
        _ => None,
    }
}

fn has_part_in(spec: &EffectSpec, layer: u8) -> bool {
    match layer {
        4 => spec.changes_types(),
        5 => spec.set_colors.is_some(),
        6 => {
            spec.remove_all_abilities
                || spec.grant_pt_ability.is_some()
                || !spec.add_keywords.is_empty()
                || !spec.remove_keywords.is_empty()
        }
        _ => false,
    }
}

fn apply_part(layer: u8, spec: &EffectSpec, e: &mut Early) {
    match layer {
        4 => {
            for t in &spec.add_types {
                e.types.insert(*t);
            }
            for t in &spec.remove_types {
                e.types.remove(*t);
            }
        }
        5 => {
            if let Some(c) = &spec.set_colors {
                e.colors = Bits::of(c);
            }
        }
        6 => {
            if spec.remove_all_abilities {
                e.keywords = Bits::empty();
                e.abilities = false;
            }
            for k in &spec.remove_keywords {
                e.keywords.remove(*k);
            }
            for k in &spec.add_keywords {
                e.keywords.insert(*k);
            }
        }
        _ => {}
    }
}

fn part_summary(layer: u8, spec: &EffectSpec) -> String {
    let only = EffectSpec {
        add_types: if layer == 4 {
            spec.add_types.clone()
        } else {
            Vec::new()
        },
        remove_types: if layer == 4 {
            spec.remove_types.clone()
        } else {
            Vec::new()
        },
        add_all_creature_types: layer == 4 && spec.add_all_creature_types,
        set_colors: if layer == 5 {
            spec.set_colors.clone()
        } else {
            None
        },
        add_keywords: if layer == 6 {
            spec.add_keywords.clone()
        } else {
            Vec::new()
        },
        remove_keywords: if layer == 6 {
            spec.remove_keywords.clone()
        } else {
            Vec::new()
        },
        remove_all_abilities: layer == 6 && spec.remove_all_abilities,
        grant_pt_ability: if layer == 6 {
            spec.grant_pt_ability.clone()
        } else {
            None
        },
        ..EffectSpec::default()
    };
    only.summary()
}

fn layer_rule(layer: u8) -> &'static str {
    match layer {
        4 => "613.1d",
        5 => "613.1e",
        _ => "613.1f",
    }
}

fn show_set(set: crate::number::SetPt, x: i64) -> String {
    if set.uses_x() {
        format!("{set} with X = {x}, i.e. {}", set.resolve(x))
    } else {
        set.to_string()
    }
}

fn show_change(m: crate::number::ModPt, x: i64) -> String {
    if m.uses_x() {
        let v = |c: Change| c.value(x).map_or("?".to_string(), |v| v.to_string());
        format!(
            "{m} with X = {x}, i.e. {}/{}",
            sign(v(m.power)),
            sign(v(m.toughness))
        )
    } else {
        m.to_string()
    }
}

fn sign(s: String) -> String {
    if s.starts_with('-') {
        s
    } else {
        format!("+{s}")
    }
}

fn fmt_change(dp: i128, dt: i128) -> String {
    format!("{}/{}", sign(dp.to_string()), sign(dt.to_string()))
}

fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
