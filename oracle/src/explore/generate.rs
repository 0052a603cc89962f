//! The scenario space of property campaigns and fuzz targets.
//!
//! There is one definition of it: [`generate`], which reads its choices
//! from an [`arbitrary::Unstructured`] byte stream. The fuzz targets hand
//! it libFuzzer's bytes through [`Generated`]'s `Arbitrary` impl; the
//! campaigns of [`super`] hand it bytes drawn by a proptest strategy, so
//! proptest's shrinking of those bytes shrinks the scenario. Every choice
//! reads from the front of the stream and an exhausted stream answers the
//! first option, so fewer or smaller bytes mean a simpler scenario.
//!
//! **Swarm testing**: the first nine bytes set each switch (counters,
//! setting effects, damage, deathtouch, zone changes, spells, Sagas, ...)
//! on or off for the whole case, so rare combinations of a few features
//! come up often instead of being drowned in cases that mix everything.

use std::collections::BTreeMap;

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::cost::ManaCost;
use crate::number::{Amount, Change, ModPt, Printed, PrintedPt, Pt, SetPt};
use crate::scenario::{
    Action, Affects, Attach, AttackDeclaration, BackFace, Case, CaseId, Cast, Cda, Chapter,
    CombatAssignment, CostPayment, Count, CounterDouble, CounterMove, CounterPut, CounterRemove,
    CounterScale, CounterTrigger, CountersFrom, CountersOn, CountersPutBy, Crew, Damage,
    DamageStep, EffectSpec, EntryChoice, Exchange, Exchanged, Filter, GainControl, Handle,
    LevelBand, ManaAbility, ManaPool, MoveZone, ObjectSpec, PlayerSpec, Prevention, Quantity,
    QuantityRef, RuleRef, Scale, ScaleWhat, Setup, Step, Timestamp, Until,
};
use crate::terms::{CardType, CounterKind, Keyword, Mana, Zone};

/// A case drawn from the scenario space.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated(pub Case);

impl<'a> Arbitrary<'a> for Generated {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        generate(u).map(Generated)
    }
}

/// The generator's switches: the parts of the scenario space a case may
/// use (not to be confused with the protocol's features, what an engine
/// implements); swarm testing draws a subset per case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switches(pub u64);

macro_rules! switches {
    ($($name:ident = $bit:literal, $label:literal;)*) => {
        impl Switches {
            $(
                #[doc = $label]
                pub const $name: u64 = 1 << $bit;
            )*
            /// Every switch, with its name.
            pub const NAMES: &'static [(u64, &'static str)] = &[$((1 << $bit, $label)),*];
        }
    };
}

switches! {
    COUNTERS = 0, "P/T counters";
    KEYWORD_COUNTERS = 1, "keyword counters";
    HUGE = 2, "huge values";
    NEGATIVE = 3, "negative values";
    SET = 4, "setting effects";
    MODIFY = 5, "modifying effects";
    SWITCH = 6, "switching effects";
    CDA = 7, "characteristic-defining abilities";
    STATICS = 8, "static abilities";
    TYPES = 9, "type-changing effects";
    DAMAGE = 10, "noncombat damage";
    DEATHTOUCH = 11, "deathtouch";
    WITHER = 12, "wither";
    INFECT = 13, "infect";
    LIFELINK = 14, "lifelink";
    INDESTRUCTIBLE = 15, "indestructible";
    REGENERATION = 16, "regeneration";
    ZONES = 17, "zone changes";
    CLEANUP = 18, "cleanup";
    LOCKED_X = 19, "amounts read as they resolve";
    MANA = 20, "mana abilities";
    SCALE = 21, "double and triple";
    TIMESTAMPS = 22, "explicit timestamps";
    SPLIT_SBA = 23, "steps without state-based actions";
    COMBAT = 24, "combat damage";
    LEVELS = 25, "level up";
    ATTACH = 26, "Equipment and hone counters";
    CREW = 27, "Vehicles";
    UNDYING = 28, "undying and persist";
    PLANESWALKERS = 29, "planeswalkers";
    CAPS = 30, "counter limits";
    ABILITIES = 31, "losing and gaining abilities";
    SPELLS = 32, "spells with X, cast and resolved";
    ENTERS_WITH = 33, "entering with counters";
    SAGAS = 34, "Sagas";
    COUNTER_TRIGGERS = 35, "Nth-counter triggers";
    COUNTERS_FROM = 36, "counters put from another object";
    PUT_BY = 37, "who puts counters";
    CANT_HAVE_COUNTERS = 38, "can't have counters put on it";
    SICKNESS = 39, "summoning sickness";
    CONTROL = 40, "control changes";
    CHOOSE_PT = 41, "P/T chosen as it enters";
    LEVEL_ABILITIES = 42, "abilities of level bands";
    COSTS = 43, "paying costs";
    INERT_KEYWORDS = 44, "inert keywords";
    DOUBLE_COUNTERS = 45, "doubling counters";
    SHIELDS = 46, "shield counters";
    // 47 is the last bit the `later` draw gives: the switches after it
    // are derived from the bits already drawn (`derived_switches`), so
    // that no case drawn without them changes.
    BATTLES = 47, "battles";
    GRANTED_PT = 48, "granted abilities that define P/T";
    FACE_DOWN = 49, "face-down and double-faced permanents";
    COMBAT_STEPS = 50, "declared combats and their damage steps";
    COPY = 51, "copy effects";
    EXCHANGE = 52, "exchanges of powers, toughnesses and life totals";
    PREVENTION = 53, "prevention shields";
}

impl Switches {
    /// Every switch.
    pub const ALL: u64 = u64::MAX;

    /// The generator switches that use only protocol features in
    /// `supported`: what to draw cases from for an engine that declares
    /// just those. (A case can still use a feature outside them, e.g. a
    /// planeswalker among the objects; the gate skips such cases.)
    pub fn within(supported: &std::collections::BTreeSet<crate::protocol::Feature>) -> u64 {
        use crate::protocol::Feature as P;
        let needs: &[(u64, &[P])] = &[
            (Switches::COUNTERS, &[P::Counters]),
            (Switches::KEYWORD_COUNTERS, &[P::KeywordCounters]),
            (Switches::HUGE, &[P::HugeValues]),
            (Switches::SET, &[P::Set]),
            (Switches::MODIFY, &[P::Modify]),
            (Switches::SWITCH, &[P::Switch]),
            (Switches::CDA, &[P::Cda]),
            (Switches::STATICS, &[P::StaticAbilities]),
            (Switches::TYPES, &[P::TypeChanges]),
            (Switches::DAMAGE, &[P::Damage]),
            (Switches::DEATHTOUCH, &[P::Deathtouch]),
            (Switches::WITHER, &[P::Wither]),
            (Switches::INFECT, &[P::Infect]),
            (Switches::LIFELINK, &[P::Lifelink]),
            (Switches::INDESTRUCTIBLE, &[P::Indestructible]),
            (Switches::REGENERATION, &[P::Regeneration]),
            (Switches::ZONES, &[P::Zones]),
            (Switches::CLEANUP, &[P::Cleanup]),
            (Switches::LOCKED_X, &[P::Quantities]),
            (Switches::MANA, &[P::Mana]),
            (Switches::SCALE, &[P::Double, P::Triple]),
            (Switches::TIMESTAMPS, &[P::Timestamps]),
            (Switches::SPLIT_SBA, &[P::DeferredSba]),
            (Switches::COMBAT, &[P::CombatDamage]),
            (Switches::LEVELS, &[P::LevelUp]),
            (Switches::ATTACH, &[P::Attachments]),
            (Switches::CREW, &[P::Vehicles]),
            (Switches::UNDYING, &[P::Undying, P::Persist]),
            (Switches::PLANESWALKERS, &[P::Planeswalkers]),
            (Switches::CAPS, &[P::CounterLimits]),
            (Switches::ABILITIES, &[P::AbilityChanges]),
            (
                Switches::SPELLS,
                &[
                    P::Spells,
                    P::Zones,
                    P::Quantities,
                    P::Set,
                    P::Modify,
                    P::LockedSets,
                ],
            ),
            (Switches::ENTERS_WITH, &[P::EntersWith, P::Counters]),
            (Switches::SAGAS, &[P::Sagas, P::Counters, P::Modify]),
            (
                Switches::COUNTER_TRIGGERS,
                &[P::CounterTriggers, P::Counters, P::Modify],
            ),
            (Switches::COUNTERS_FROM, &[P::CountersFrom, P::Counters]),
            (Switches::PUT_BY, &[P::CountersPutBy]),
            (Switches::CANT_HAVE_COUNTERS, &[P::CantHaveCounters]),
            (Switches::SICKNESS, &[P::SummoningSickness]),
            (Switches::CONTROL, &[P::ControlChanges]),
            (Switches::CHOOSE_PT, &[P::ChoosePt, P::Cda]),
            (
                Switches::LEVEL_ABILITIES,
                &[P::LevelAbilities, P::StaticAbilities, P::Modify],
            ),
            (Switches::COSTS, &[P::Costs, P::Mana]),
            (Switches::INERT_KEYWORDS, &[P::InertKeywords]),
            (Switches::DOUBLE_COUNTERS, &[P::DoubleCounters, P::Counters]),
            (Switches::SHIELDS, &[P::ShieldCounters]),
            (Switches::BATTLES, &[P::Battles]),
            (Switches::GRANTED_PT, &[P::GrantedPt, P::Quantities]),
            (Switches::FACE_DOWN, &[P::FaceDown, P::Transform]),
            (Switches::EXCHANGE, &[P::Exchange]),
            (Switches::PREVENTION, &[P::Prevention]),
            (Switches::COMBAT_STEPS, &[P::Combat]),
            (Switches::COPY, &[P::Copy]),
        ];
        needs
            .iter()
            .filter(|(_, ps)| ps.iter().all(|p| supported.contains(p)))
            .fold(Switches::NEGATIVE, |m, (bit, _)| m | bit)
    }

    /// Whether switch `f` is on.
    pub fn has(self, f: u64) -> bool {
        self.0 & f != 0
    }

    /// The names of the switches that are on.
    pub fn names(self) -> Vec<&'static str> {
        Switches::NAMES
            .iter()
            .filter(|(b, _)| self.has(*b))
            .map(|(_, n)| *n)
            .collect()
    }
}

/// Draws a case from the stream. Every case it returns passes
/// [`crate::scenario::validate`]; a step may still act on an object that has
/// died by then, which the campaign handles by cutting the case there.
pub fn generate(u: &mut Unstructured<'_>) -> Result<Case> {
    generate_within(u, &Scope::ALL)
}

/// What part of the scenario space to draw from: for an engine that
/// implements only some features. [`Scope::ALL`] draws exactly what
/// [`generate`] draws; a narrower scope reads the same bytes and leaves out
/// what it must.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scope {
    /// The swarm switches that may be switched on.
    pub mask: u64,
    /// No `move_counters` step.
    pub no_move_counters: bool,
    /// No `destroy` step.
    pub no_destroy: bool,
    /// No effect that lasts while its source remains.
    pub no_source_durations: bool,
}

impl Scope {
    /// The whole space.
    pub const ALL: Scope = Scope {
        mask: Switches::ALL,
        no_move_counters: false,
        no_destroy: false,
        no_source_durations: false,
    };

    /// The part of the space an engine with the protocol features
    /// `supported` can play (see [`Switches::within`]).
    pub fn within(supported: &std::collections::BTreeSet<crate::protocol::Feature>) -> Scope {
        use crate::protocol::Feature as P;
        Scope {
            mask: Switches::within(supported),
            no_move_counters: !supported.contains(&P::MoveCounters),
            no_destroy: !supported.contains(&P::Destroy),
            no_source_durations: !supported.contains(&P::SourceDurations),
        }
    }
}

/// [`generate`] within `scope`.
pub fn generate_within(u: &mut Unstructured<'_>, scope: &Scope) -> Result<Case> {
    let base = u64::from(u32::from_le_bytes(u.arbitrary()?));
    // The later switches are rarer (each in a quarter of the cases), and
    // enters-with counters, Sagas and Nth-counter triggers rarer still (an
    // eighth): they make objects act inside a step whenever a permanent
    // enters or counters are put, and the closed-form invariants skip such
    // cases (a spell acts only when a step resolves it).
    let mut later = u16::from_le_bytes(u.arbitrary()?) & u16::from_le_bytes(u.arbitrary()?);
    later &= 0xFFF1 | u16::from(u.arbitrary::<u8>()?);
    let drawn = base | u64::from(later) << 32;
    let switches = Switches((drawn | derived_switches(drawn)) & scope.mask);
    let mut g = Gen {
        u,
        f: switches,
        scope: *scope,
        kinds: Vec::new(),
        actions: Vec::new(),
        objects: Vec::new(),
        zones: Vec::new(),
        costs: Vec::new(),
        choices: Vec::new(),
        resolve_next: None,
        shielded: Vec::new(),
        theirs: Vec::new(),
        face_down: Vec::new(),
        double_faced: Vec::new(),
        sealed: Vec::new(),
        copyable: Vec::new(),
        steps_made: 0,
        next_ts: 1,
    };
    g.case()
}

/// The switches past the 48 bits the draws give (48 on), each on in about a
/// quarter of the cases: derived from the switches drawn, by a hash of its
/// own, instead of read from the stream. Drawing a byte for one would shift
/// every later draw and change every case, including those of engines that
/// do not declare the feature; derived, a switch an engine does not declare
/// is masked off and its cases stay byte for byte what they were (the test
/// `explore/derived-switches-leave-the-other-cases-alone`). Each switch
/// takes its own hash so that it is independent of the others.
fn derived_switches(drawn: u64) -> u64 {
    // 48: the top two bits of SplitMix64's finalizer are 0.
    let granted = mix64(drawn) >> 62 == 0;
    // 49: two bits of a multiplicative hash (Fibonacci-style mixing, then
    // the top bits) are 0.
    let face_down = (drawn ^ drawn >> 29).wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 62 == 0;
    // 52: two bits of another multiplicative hash are 0.
    let exchange =
        (drawn.rotate_left(23) ^ 0x9E37_79B9_7F4A_7C15).wrapping_mul(0xA24B_AED4_963E_E407) >> 62
            == 0;
    // 53: two bits of a third multiplicative hash are 0.
    let prevention =
        (drawn.rotate_left(41) ^ 0x2545_F491_4F6C_DD1D).wrapping_mul(0xD1B5_4A32_D192_ED03) >> 62
            == 0;
    // 50: two bits of a fourth multiplicative hash are 0.
    let combat = (drawn.rotate_left(7) ^ 0xBB67_AE85_84CA_A73B).wrapping_mul(0xE703_7ED1_A0B4_28DB)
        >> 62
        == 0;
    // 51: two bits of a fifth multiplicative hash are 0.
    let copy = (drawn.rotate_left(13) ^ 0x6A09_E667_F3BC_C909).wrapping_mul(0x9FB2_1C65_1E98_DF25)
        >> 62
        == 0;
    let mut derived = 0;
    if combat {
        derived |= Switches::COMBAT_STEPS;
    }
    if copy {
        derived |= Switches::COPY;
    }
    if prevention {
        derived |= Switches::PREVENTION;
    }
    if granted {
        derived |= Switches::GRANTED_PT;
    }
    if face_down {
        derived |= Switches::FACE_DOWN;
    }
    if exchange {
        derived |= Switches::EXCHANGE;
    }
    derived
}

/// SplitMix64's finalizer: a well-mixed function of `x`.
pub(crate) fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The kind of object, as generated (its types may change at run time).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Creature,
    Artifact,
    Land,
    Vehicle,
    Planeswalker,
    Battle,
    Equipment,
    Enchantment,
    Saga,
    Instant,
}

struct Gen<'u, 'a> {
    scope: Scope,
    u: &'u mut Unstructured<'a>,
    f: Switches,
    /// The kinds of object and action the switches allow (drawn once).
    kinds: Vec<Kind>,
    actions: Vec<u8>,
    objects: Vec<Kind>,
    /// Each object's zone as far as the steps so far say (deaths aside).
    zones: Vec<Zone>,
    /// Each object's mana cost, if it has one (a card that can be cast).
    costs: Vec<Option<ManaCost>>,
    /// The P/T each object may be chosen to enter as (208.2b).
    choices: Vec<Vec<Pt>>,
    /// A spell cast by the last step, to resolve next.
    resolve_next: Option<usize>,
    /// The objects set up with shield counters (122.1c).
    shielded: Vec<usize>,
    /// The objects set up under the second player's control.
    theirs: Vec<bool>,
    /// The objects set up face down (708).
    face_down: Vec<usize>,
    /// The double-faced objects (712).
    double_faced: Vec<usize>,
    /// The objects set up with counters that can't have more put on them,
    /// with a kind of counter each has.
    sealed: Vec<(usize, CounterKind)>,
    /// Whether each object may copy or be copied: none of the abilities a
    /// copy effect does not copy in the model (`ObjectSpec::copy_unmodelled`).
    copyable: Vec<bool>,
    /// How many steps have been drawn so far.
    steps_made: i64,
    /// About where the automatic timestamps have got ([`next_timestamp`]).
    next_ts: i64,
}

/// A step whose action is this effect, checked as usual.
fn effect_step(e: EffectSpec) -> Step {
    checked_step(Action::Effect(Box::new(e)))
}

/// A step with this action, checked as usual.
fn checked_step(action: Action) -> Step {
    Step {
        action,
        sba: true,
        expect: BTreeMap::new(),
        expect_in: BTreeMap::new(),
        expect_error: None,
        note: None,
    }
}

/// Where the reference's automatic timestamps have got after these objects
/// and steps (docs/protocol.md, "Timestamps"), near enough to aim explicit
/// timestamps at: a step that may do nothing (a crew that fails, counters
/// that can't be put, a move to the same zone) counts as if it took one.
fn next_timestamp(objects: &[ObjectSpec], steps: &[Step]) -> i64 {
    let mut next: i64 = 1;
    let mut take = |t: Option<Timestamp>| {
        next = match t {
            Some(t) => next.max(t.0.0.saturating_add(1)),
            None => next.saturating_add(1),
        }
    };
    for o in objects {
        take(o.timestamp);
    }
    for s in steps {
        match &s.action {
            Action::Effect(e) => take(e.timestamp),
            Action::PutCounters(_)
            | Action::DoubleCounters(_)
            | Action::MoveCounters(_)
            | Action::Copy(_)
            | Action::Attach(_)
            | Action::Crew(_)
            | Action::Double(_)
            | Action::Triple(_)
            | Action::TurnFaceUp(_)
            | Action::TurnFaceDown(_)
            | Action::Transform(_) => take(None),
            // 613.7: a new object, then the copy effect it enters with.
            Action::Move(m) => {
                take(None);
                if m.copy.is_some() {
                    take(None);
                }
            }
            _ => {}
        }
    }
    next
}

/// The keywords effects and keyword counters grant or remove.
const GRANTED: [Keyword; 4] = [
    Keyword::Flying,
    Keyword::Deathtouch,
    Keyword::Indestructible,
    Keyword::Lifelink,
];

/// Inert keywords the generator gives and takes away.
const INERT: [&str; 4] = ["flanking", "shroud", "changeling", "outlast"];

const HUGE_VALUES: [i64; 6] = [
    4_611_686_018_427_387_904,
    2_305_843_009_213_693_952,
    4_611_686_018_427_387_903,
    i64::MAX / 3,
    i64::MAX - 1,
    1 << 40,
];

fn handle(s: &str) -> Handle {
    Handle(s.into())
}

fn object_handle(i: usize) -> Handle {
    Handle(format!("o{i}").into())
}

impl Gen<'_, '_> {
    fn on(&self, switch: u64) -> bool {
        self.f.has(switch)
    }

    fn int(&mut self, lo: i64, hi: i64) -> Result<i64> {
        self.u.int_in_range(lo..=hi)
    }

    fn index(&mut self, n: usize) -> Result<usize> {
        if n <= 1 {
            return Ok(0);
        }
        self.u.int_in_range(0..=n - 1)
    }

    /// True with probability about 1/n (false when the stream is exhausted).
    fn one_in(&mut self, n: u8) -> Result<bool> {
        Ok(self.u.int_in_range(0..=n - 1)? == n - 1)
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Result<T> {
        let i = self.index(items.len())?;
        Ok(items[i])
    }

    /// A printed or effect value: small, sometimes negative, sometimes huge.
    fn value(&mut self) -> Result<i64> {
        if self.on(Switches::HUGE) && self.one_in(6)? {
            let v = self.pick(&HUGE_VALUES)?;
            return Ok(if self.on(Switches::NEGATIVE) && self.one_in(3)? {
                -v
            } else {
                v
            });
        }
        let lo = if self.on(Switches::NEGATIVE) { -3 } else { 0 };
        self.int(lo, 6)
    }

    /// A count of counters or damage: at least 1, sometimes huge.
    fn count(&mut self) -> Result<i64> {
        if self.on(Switches::HUGE) && self.one_in(6)? {
            return self.pick(&HUGE_VALUES);
        }
        self.int(1, 4)
    }

    fn change(&mut self) -> Result<Change> {
        let v = self.value()?;
        Ok(Change {
            minus: v < 0 || (self.on(Switches::NEGATIVE) && self.one_in(2)?),
            amount: Amount::Fixed(v.saturating_abs()),
        })
    }

    fn case(&mut self) -> Result<Case> {
        self.kinds = self.kinds();
        self.actions = self.actions();
        let players = self.players()?;
        let n = 1 + self.index(5)?;
        let mut objects = Vec::new();
        for i in 0..n {
            let o = self.object(i, &objects)?;
            self.zones.push(o.zone);
            self.theirs.push(o.controller.is_some());
            self.costs.push(o.mana_cost.clone());
            self.choices
                .push(o.enters_as.iter().map(|c| c.pt).collect());
            objects.push(o);
        }
        for (i, o) in objects.iter_mut().enumerate() {
            self.acting(i, o)?;
        }
        self.copyable = objects
            .iter()
            .map(|o| o.copy_unmodelled().is_none())
            .collect();
        let steps_n = 1 + self.index(8)?;
        let mut steps = Vec::new();
        for _ in 0..steps_n {
            self.next_ts = next_timestamp(&objects, &steps);
            let step = self.step()?;
            // Before a creature set up face down is turned face up, often
            // an effect that sets its P/T: its own static ability applies
            // after it only through the new timestamp (613.7f).
            if let Action::TurnFaceUp(h) | Action::Transform(h) = &step.action {
                let up = self
                    .face_down
                    .iter()
                    .chain(&self.double_faced)
                    .any(|&i| object_handle(i) == *h);
                if up && self.on(Switches::SET) && self.one_in(2)? {
                    let e = self.set_until_end_of_turn(h.clone(), 5, None)?;
                    steps.push(effect_step(e));
                }
            }
            // A declared combat plays out: a damage step, sometimes after
            // another step, and a second one where first or double strike
            // may make two (510.4).
            if let Action::Attack(decl) = &step.action {
                let decl = decl.clone();
                steps.push(step);
                let strikers = decl.iter().any(|a| {
                    std::iter::once(&a.attacker).chain(&a.blockers).any(|h| {
                        objects.iter().any(|o| {
                            o.id == *h
                                && (o.keywords.contains(&Keyword::FirstStrike)
                                    || o.keywords.contains(&Keyword::DoubleStrike))
                        })
                    })
                });
                for _ in 0..if strikers { 2 } else { 1 } {
                    if self.one_in(3)? {
                        steps.push(self.step()?);
                    }
                    steps.push(checked_step(self.divided_damage_step(&decl)?));
                }
                continue;
            }
            let plain = matches!(&step.action, Action::Effect(e) if e.modify.is_some() && e.x.is_none() && !e.has_early_parts());
            let numbered = matches!(&step.action, Action::RemoveCounters(_) | Action::Move(_));
            steps.push(step);
            // After a step whose share of the numbering is in question
            // (docs/protocol.md, "Timestamps"), sometimes two setting
            // effects on one creature: the first numbered automatically,
            // the second given the timestamp the first took if that step
            // took none. They tie, and the second applies last (613.7,
            // D3); had the step taken one, the first would apply last.
            if numbered
                && self.on(Switches::TIMESTAMPS)
                && self.on(Switches::SET)
                && self.one_in(2)?
            {
                let target = object_handle(self.any_object()?);
                for explicit in [false, true] {
                    let timestamp = explicit.then(|| {
                        Timestamp(Count(
                            next_timestamp(&objects, &steps).saturating_sub(1).max(1),
                        ))
                    });
                    let e = self.set_until_end_of_turn(target.clone(), 4, timestamp)?;
                    steps.push(effect_step(e));
                }
            }
            // A spell just cast often resolves soon, sometimes after one
            // more step (which may change what its X reads, 107.3c).
            while let Some(i) = self.resolve_next.take() {
                if self.one_in(2)? {
                    self.next_ts = next_timestamp(&objects, &steps);
                    steps.push(self.step()?);
                }
                // The step between may have resolved or moved it.
                if self.zones[i] != Zone::Stack {
                    continue;
                }
                let action = self.resolve(i);
                steps.push(Step {
                    action,
                    sba: true,
                    expect: BTreeMap::new(),
                    expect_in: BTreeMap::new(),
                    expect_error: None,
                    note: None,
                });
            }
            // Two modifications with no check between them: the pattern
            // whose order must not matter (613.4c).
            if plain && self.on(Switches::SPLIT_SBA) && self.one_in(3)? {
                if let Some(last) = steps.last_mut() {
                    last.sba = false;
                }
                self.next_ts = next_timestamp(&objects, &steps);
                let mut e = self.effect()?;
                e.x = None;
                e.set = None;
                e.switch = false;
                e.add_types.clear();
                e.remove_types.clear();
                e.add_keywords.clear();
                e.remove_keywords.clear();
                e.remove_all_abilities = false;
                e.modify = Some(ModPt {
                    power: self.change()?,
                    toughness: self.change()?,
                });
                steps.push(effect_step(e));
            }
        }
        Ok(Case {
            id: CaseId("explore/generated".into()),
            // The features are in the first bytes; a ruling written from
            // this case gets its own title.
            title: String::from("a generated case"),
            description: None,
            rules: "613".parse::<RuleRef>().into_iter().collect(),
            editions: None,
            origin: None,
            setup: Setup { players, objects },
            steps,
        })
    }

    fn players(&mut self) -> Result<Vec<PlayerSpec>> {
        let mut out = Vec::new();
        for id in ["you", "opponent"] {
            // 119.4: a player can pay as much life as they have, so a
            // Phyrexian symbol's 2 life is at stake at low totals.
            let life = if self.on(Switches::COSTS) && self.one_in(3)? {
                self.int(1, 4)?
            } else if self.one_in(4)? {
                self.int(-2, 4)?
            } else {
                20
            };
            let poison = if self.on(Switches::INFECT) && self.one_in(2)? {
                self.int(0, 10)?
            } else {
                0
            };
            let mut mana = ManaPool::default();
            let mut snow_mana = ManaPool::default();
            if self.on(Switches::COSTS) {
                for _ in 0..self.index(4)? {
                    let m = self.pick(&[Mana::W, Mana::U, Mana::B, Mana::R, Mana::G, Mana::C])?;
                    if mana.0.contains_key(&m) {
                        continue;
                    }
                    let n = self.int(1, 3)?;
                    mana.0.insert(m, Count(n));
                    if self.one_in(3)? {
                        snow_mana.0.insert(m, Count(self.int(1, n)?));
                    }
                }
            }
            out.push(PlayerSpec {
                id: handle(id),
                life,
                poison: Count(poison),
                hand: Count(0),
                mana,
                snow_mana,
            });
        }
        Ok(out)
    }

    fn kinds(&self) -> Vec<Kind> {
        let mut k = vec![Kind::Creature, Kind::Creature, Kind::Creature];
        if self.on(Switches::TYPES) {
            k.extend([Kind::Artifact, Kind::Land]);
        }
        if self.on(Switches::CREW) {
            k.push(Kind::Vehicle);
        }
        if self.on(Switches::PLANESWALKERS) {
            k.push(Kind::Planeswalker);
        }
        if self.on(Switches::BATTLES) {
            k.push(Kind::Battle);
        }
        if self.on(Switches::ATTACH) {
            k.push(Kind::Equipment);
        }
        if self.on(Switches::STATICS) {
            k.push(Kind::Enchantment);
        }
        if self.on(Switches::SAGAS) {
            k.push(Kind::Saga);
        }
        if self.on(Switches::SPELLS) {
            k.push(Kind::Instant);
        }
        k
    }

    fn object(&mut self, i: usize, earlier: &[ObjectSpec]) -> Result<ObjectSpec> {
        let pick = self.index(self.kinds.len())?;
        let kind = self.kinds[pick];
        self.objects.push(kind);
        let mut o = ObjectSpec::new(object_handle(i));
        if self.one_in(4)? {
            o.controller = Some(handle("opponent"));
        }
        if self.on(Switches::TIMESTAMPS) {
            o.timestamp = Some(Timestamp(Count(self.int(1, 5)?)));
        }
        match kind {
            Kind::Creature => {
                o.types = vec![CardType::Creature];
                self.printed_pt(&mut o, i, earlier.len())?;
                self.keywords(&mut o)?;
                if self.on(Switches::LEVELS) && self.one_in(3)? {
                    self.level_bands(&mut o)?;
                }
                if self.on(Switches::STATICS) && self.one_in(4)? {
                    o.abilities.push(self.lord()?);
                }
            }
            Kind::Artifact => o.types = vec![CardType::Artifact],
            Kind::Land => o.types = vec![CardType::Land],
            Kind::Vehicle => {
                o.types = vec![CardType::Artifact];
                o.subtypes = vec!["Vehicle".into()];
                o.pt = Some(PrintedPt {
                    power: Printed::Fixed(self.int(1, 5)?),
                    toughness: Printed::Fixed(self.int(1, 5)?),
                });
                o.crew = Some(Count(self.int(0, 4)?));
            }
            Kind::Planeswalker => {
                o.types = vec![CardType::Planeswalker];
                let l = self.int(1, 5)?;
                o.loyalty = Some(Count(l));
                o.counters.insert(CounterKind::named("loyalty"), Count(l));
            }
            Kind::Battle => {
                // Under the opponent's control, so that the first player's
                // creatures are the ones that damage it (protectors are not
                // modelled, DECISIONS.md D38).
                o.types = vec![CardType::Battle];
                o.controller = Some(handle("opponent"));
                if !self.one_in(3)? {
                    o.subtypes = vec!["Siege".into()];
                }
                let d = self.int(0, 5)?;
                o.defense = Some(Count(d));
                if d > 0 {
                    o.counters.insert(CounterKind::named("defense"), Count(d));
                }
            }
            Kind::Equipment => self.equipment(&mut o, earlier)?,
            Kind::Enchantment => {
                o.types = vec![CardType::Enchantment];
                o.abilities.push(self.static_ability()?);
            }
            Kind::Saga => {
                // Its chapters name other objects: drawn in `acting`.
                o.types = vec![CardType::Enchantment];
                o.subtypes = vec!["Saga".into()];
                let lore = self.int(0, 2)?;
                if lore > 0 {
                    o.counters.insert(CounterKind::named("lore"), Count(lore));
                }
            }
            Kind::Instant => {
                o.types = vec![CardType::Instant];
                o.mana_cost = Some(self.mana_cost()?);
                o.zone = Zone::Hand;
            }
        }
        self.state(&mut o, kind)?;
        if kind == Kind::Creature
            && o.zone == Zone::Battlefield
            && self.on(Switches::FACE_DOWN)
            && self.one_in(2)?
        {
            self.face_down(&mut o, i)?;
        }
        if kind == Kind::Creature && self.on(Switches::FACE_DOWN) && self.one_in(4)? {
            self.back_face(&mut o, i)?;
        }
        if o.counters.contains_key(&CounterKind::named("shield")) {
            self.shielded.push(i);
        }
        if let (true, Some(kind)) = (o.cant_have_counters_put, o.counters.keys().next()) {
            self.sealed.push((i, kind.clone()));
        }
        Ok(o)
    }

    /// A creature's level bands (711): two, the second with first strike,
    /// and its level counters.
    fn level_bands(&mut self, o: &mut ObjectSpec) -> Result<()> {
        let a = self.int(1, 2)?;
        let b = self.int(a, a + 2)?;
        o.level_up = vec![
            LevelBand {
                min: Count(a),
                max: Some(Count(b)),
                pt: crate::number::Pt::new(self.value()?, self.value()?),
                keywords: Vec::new(),
                abilities: Vec::new(),
            },
            LevelBand {
                min: Count(b + 1),
                max: None,
                pt: crate::number::Pt::new(self.value()?, self.value()?),
                keywords: vec![Keyword::FirstStrike],
                abilities: if self.on(Switches::LEVEL_ABILITIES) && self.one_in(2)? {
                    vec![self.lord()?]
                } else {
                    Vec::new()
                },
            },
        ];
        o.counters
            .insert(CounterKind::named("level"), Count(self.int(0, 4)?));
        Ok(())
    }

    /// An Equipment: attached to a creature on the battlefield drawn
    /// before it, if any, with a P/T bonus and maybe hone counters.
    fn equipment(&mut self, o: &mut ObjectSpec, earlier: &[ObjectSpec]) -> Result<()> {
        o.types = vec![CardType::Artifact];
        o.subtypes = vec!["Equipment".into()];
        let creatures: Vec<usize> = (0..earlier.len())
            .filter(|&j| self.objects[j] == Kind::Creature && earlier[j].zone == Zone::Battlefield)
            .collect();
        if !creatures.is_empty() {
            let j = self.pick(&creatures)?;
            o.attached_to = Some(object_handle(j));
        }
        o.abilities.push(EffectSpec {
            affects: Affects::Attached,
            modify: Some(ModPt {
                power: self.change()?,
                toughness: self.change()?,
            }),
            ..EffectSpec::default()
        });
        if self.one_in(2)? {
            o.counters
                .insert(CounterKind::named("hone"), Count(self.int(1, 3)?));
        }
        Ok(())
    }

    /// What any object may have besides its kind: counters, caps, a zone,
    /// how it entered, X on the stack, rules for counters put on it,
    /// damage and regeneration shields.
    fn state(&mut self, o: &mut ObjectSpec, kind: Kind) -> Result<()> {
        if self.on(Switches::COUNTERS) && self.one_in(2)? {
            for _ in 0..1 + self.index(2)? {
                let kind = self.pt_counter_kind()?;
                let n = self.count()?;
                o.counters.insert(kind, Count(n));
            }
        }
        if self.on(Switches::KEYWORD_COUNTERS) && self.one_in(3)? {
            let k = self.pick(&GRANTED)?;
            o.counters.insert(CounterKind::Keyword(k), Count(1));
        }
        if self.on(Switches::SHIELDS) && self.one_in(2)? {
            o.counters
                .insert(CounterKind::named("shield"), Count(self.int(1, 2)?));
        }
        if self.on(Switches::CAPS) && self.one_in(3)? {
            o.max_counters
                .insert(CounterKind::PLUS_ONE, Count(self.int(0, 3)?));
        }
        if self.on(Switches::ZONES)
            && o.attached_to.is_none()
            && o.zone == Zone::Battlefield
            && self.one_in(4)?
        {
            o.zone = self.pick(&[Zone::Graveyard, Zone::Hand, Zone::Exile])?;
        }
        if kind == Kind::Creature {
            self.entering(o)?;
        }
        if kind == Kind::Instant && self.one_in(3)? {
            o.zone = Zone::Stack;
        }
        if o.zone == Zone::Stack && o.mana_cost.as_ref().is_some_and(|c| c.has_x()) {
            o.x = Some(Count(self.int(0, 5)?));
        }
        if self.on(Switches::CANT_HAVE_COUNTERS) && self.one_in(5)? {
            o.cant_have_counters_put = true;
        }
        if self.on(Switches::PUT_BY) && self.one_in(5)? {
            let (twice, half) = (Some(CounterScale::Twice), Some(CounterScale::HalfDown));
            let (you, opponents) = self.pick(&[
                (twice, half),
                (twice, None),
                (None, half),
                (half, twice),
                (twice, twice),
            ])?;
            o.counters_put_by = Some(CountersPutBy { you, opponents });
        }
        if o.zone == Zone::Battlefield {
            if self.on(Switches::DAMAGE) && self.one_in(4)? {
                o.damage = Count(self.int(1, 3)?);
            }
            if self.on(Switches::REGENERATION) && self.one_in(3)? {
                o.regeneration_shields = Count(self.int(1, 2)?);
            }
        }
        Ok(())
    }

    /// How a creature comes onto the battlefield: as a spell with a mana
    /// cost (maybe {X}), with counters, with a P/T chosen as it enters,
    /// and whether it is summoning sick where it is.
    fn entering(&mut self, o: &mut ObjectSpec) -> Result<()> {
        if self.on(Switches::SPELLS) && o.zone == Zone::Battlefield && self.one_in(3)? {
            o.mana_cost = Some(self.mana_cost()?);
            o.zone = self.pick(&[Zone::Hand, Zone::Stack])?;
        }
        if self.on(Switches::ENTERS_WITH)
            && (self.on(Switches::ZONES) || self.on(Switches::SPELLS))
            && self.one_in(3)?
        {
            let n = if o.mana_cost.as_ref().is_some_and(|c| c.has_x()) && self.one_in(2)? {
                Quantity::Ref(Box::new(QuantityRef::XOf(o.id.clone())))
            } else {
                Quantity::Fixed(self.int(0, 3)?)
            };
            o.enters_with.insert(self.pt_counter_kind()?, n);
        }
        if self.on(Switches::CHOOSE_PT) && self.one_in(3)? {
            o.pt = Some(PrintedPt {
                power: Printed::Star(0),
                toughness: Printed::Star(0),
            });
            o.cda = None;
            let first = Pt::new(self.value()?, self.value()?);
            let mut second = Pt::new(self.value()?, self.value()?);
            if second == first {
                second = Pt::new(first.power.saturating_add(1), first.toughness);
            }
            o.enters_as = vec![
                EntryChoice {
                    pt: first,
                    keywords: Vec::new(),
                },
                EntryChoice {
                    pt: second,
                    keywords: vec![Keyword::Flying],
                },
            ];
            if self.one_in(2)? {
                o.choose = Some(second);
            }
        }
        if self.on(Switches::SICKNESS) && o.zone == Zone::Battlefield && self.one_in(2)? {
            o.sick = true;
        }
        Ok(())
    }

    /// The abilities that make objects act inside a step, which name other
    /// objects: a Saga's chapters (714.2), "when the Nth counter is put on
    /// this" (122.7), what an instant does as it resolves (608.2).
    fn acting(&mut self, i: usize, o: &mut ObjectSpec) -> Result<()> {
        let kind = self.objects[i];
        match kind {
            Kind::Saga => {
                for n in 1..=self.int(2, 3)? {
                    o.chapters.push(Chapter {
                        at: vec![Count(n)],
                        action: self.triggered_action()?,
                        name: Some(format!("chapter {n}")),
                    });
                }
            }
            Kind::Creature if self.on(Switches::COUNTER_TRIGGERS) && self.one_in(3)? => {
                o.counter_triggers.push(CounterTrigger {
                    kind: if self.one_in(3)? {
                        CounterKind::MINUS_ONE
                    } else {
                        CounterKind::PLUS_ONE
                    },
                    nth: Count(self.int(1, 4)?),
                    action: self.triggered_action()?,
                    name: Some("Nth-counter trigger".into()),
                });
            }
            Kind::Instant => {
                let announced = o.mana_cost.as_ref().is_some_and(|c| c.has_x());
                let creature = self.object_of(&[Kind::Creature])?;
                if let Some(c) = creature.filter(|_| !announced) {
                    if self.one_in(2)? {
                        // 107.3c: "where X is that creature's power", read
                        // whenever needed while it is on the stack.
                        o.x_is = Some(Quantity::Ref(Box::new(QuantityRef::PowerOf(
                            object_handle(c),
                        ))));
                    }
                }
                // "Target creature gets +X/+X" (Giant Growth-like), or
                // "creatures you control have base P/T X/X" (Biomass
                // Mutation).
                let x = announced || o.x_is.is_some();
                let amount = |fixed: i64| if x { Amount::X } else { Amount::Fixed(fixed) };
                let mut e = EffectSpec {
                    until: Some(Until::EndOfTurn),
                    x: x.then(|| Quantity::Ref(Box::new(QuantityRef::XOf(o.id.clone())))),
                    ..EffectSpec::default()
                };
                match creature {
                    Some(c) if self.one_in(2)? => {
                        e.affects = Affects::Objects(vec![object_handle(c)]);
                        let change = Change {
                            minus: false,
                            amount: amount(3),
                        };
                        e.modify = Some(ModPt {
                            power: change,
                            toughness: change,
                        });
                    }
                    _ => {
                        e.affects = Affects::Filter(Box::new(Filter {
                            types: vec![CardType::Creature],
                            controller: Some(handle("you")),
                            ..Filter::default()
                        }));
                        e.set = Some(SetPt {
                            power: amount(2),
                            toughness: amount(2),
                        });
                    }
                }
                o.on_resolve = Some(Action::Effect(Box::new(e)));
            }
            _ => {}
        }
        Ok(())
    }

    /// What a triggered ability does: counters on a creature or a pump.
    fn triggered_action(&mut self) -> Result<Action> {
        let c = object_handle(self.creature()?);
        Ok(if self.one_in(2)? {
            Action::PutCounters(CounterPut {
                on: c,
                kind: self.pt_counter_kind()?,
                count: Count(self.int(1, 2)?),
                by: None,
            })
        } else {
            Action::Effect(Box::new(EffectSpec {
                affects: Affects::Objects(vec![c]),
                modify: Some(ModPt {
                    power: self.change()?,
                    toughness: self.change()?,
                }),
                until: Some(Until::EndOfTurn),
                ..EffectSpec::default()
            }))
        })
    }

    /// A mana cost with or without {X}, for a spell.
    fn mana_cost(&mut self) -> Result<ManaCost> {
        let text = self.pick(&["{X}{G}", "{X}", "{X}{G/U}{G/U}", "{1}{G}", "{G}"])?;
        Ok(text.parse().expect("a valid mana cost"))
    }

    /// A cost to pay, with every kind of symbol (107.4).
    fn cost(&mut self) -> Result<ManaCost> {
        let text = self.pick(&[
            "{2}{G}{G}",
            "{W/U}",
            "{2/B}",
            "{G/P}",
            "{S}",
            "{C}",
            "{0}",
            "{X}{R}",
            "{1}{G}{G/P}",
            "{S}{S}{U}",
        ])?;
        Ok(text.parse().expect("a valid mana cost"))
    }

    fn player(&mut self) -> Result<Handle> {
        Ok(handle(self.pick(&["you", "opponent"])?))
    }

    /// Who puts counters, when the case says.
    fn by(&mut self) -> Result<Option<Handle>> {
        if self.on(Switches::PUT_BY) && self.one_in(2)? {
            return Ok(Some(self.player()?));
        }
        Ok(None)
    }

    fn printed_pt(&mut self, o: &mut ObjectSpec, i: usize, before: usize) -> Result<()> {
        if self.on(Switches::CDA) && self.one_in(3)? {
            let q = self.cda_quantity(i, before)?;
            let toughness_fixed = self.int(0, 2)?;
            o.pt = Some(PrintedPt {
                power: Printed::Star(0),
                toughness: Printed::Star(toughness_fixed),
            });
            o.cda = Some(Cda {
                power: Some(q.clone()),
                toughness: Some(q),
            });
            return Ok(());
        }
        o.pt = Some(PrintedPt {
            power: Printed::Fixed(self.value()?),
            toughness: Printed::Fixed(self.value()?),
        });
        Ok(())
    }

    fn cda_quantity(&mut self, i: usize, before: usize) -> Result<Quantity> {
        Ok(match self.index(3)? {
            0 => Quantity::Ref(Box::new(QuantityRef::Count(Filter {
                types: vec![CardType::Creature],
                ..Filter::default()
            }))),
            1 if before > 0 => {
                let j = self.index(before)?;
                Quantity::Ref(Box::new(QuantityRef::PowerOf(object_handle(j))))
            }
            _ => Quantity::Ref(Box::new(QuantityRef::Counters(CountersOn {
                on: object_handle(i),
                kind: CounterKind::PLUS_ONE,
            }))),
        })
    }

    fn keywords(&mut self, o: &mut ObjectSpec) -> Result<()> {
        for (feature, k) in [
            (Switches::DEATHTOUCH, Keyword::Deathtouch),
            (Switches::WITHER, Keyword::Wither),
            (Switches::INFECT, Keyword::Infect),
            (Switches::LIFELINK, Keyword::Lifelink),
            (Switches::INDESTRUCTIBLE, Keyword::Indestructible),
            (Switches::UNDYING, Keyword::Undying),
            (Switches::UNDYING, Keyword::Persist),
            (Switches::ABILITIES, Keyword::Flying),
        ] {
            if self.on(feature) && self.one_in(3)? && !o.keywords.contains(&k) {
                o.keywords.push(k);
            }
        }
        if self.on(Switches::COMBAT_STEPS) {
            for (k, one_in) in [
                (Keyword::FirstStrike, 4),
                (Keyword::DoubleStrike, 6),
                (Keyword::Trample, 3),
                (Keyword::Vigilance, 6),
            ] {
                if self.one_in(one_in)? && !o.keywords.contains(&k) {
                    o.keywords.push(k);
                }
            }
        }
        if self.on(Switches::INERT_KEYWORDS) && self.one_in(3)? {
            let k = self.inert_keyword()?;
            if !o.keywords.contains(&k) {
                o.keywords.push(k);
            }
        }
        Ok(())
    }

    /// A keyword ptoracle does not model (flanking, shroud…).
    fn inert_keyword(&mut self) -> Result<Keyword> {
        let name = self.pick(&INERT)?;
        // Every name of INERT is one of terms::INERT_KEYWORDS (a unit test
        // checks it); flying only stands in for the impossible.
        Ok(Keyword::parse(name).unwrap_or(Keyword::Flying))
    }

    fn pt_counter_kind(&mut self) -> Result<CounterKind> {
        let kinds = [
            (1, 1),
            (-1, -1),
            (1, 0),
            (0, 1),
            (0, -1),
            (-1, 0),
            (2, 2),
            (-2, -2),
        ];
        let (power, toughness) = self.pick(&kinds)?;
        Ok(CounterKind::Pt { power, toughness })
    }

    /// "Other creatures you control get +a/+b" (and sometimes a keyword).
    fn lord(&mut self) -> Result<EffectSpec> {
        let mut e = EffectSpec {
            name: Some("lord".into()),
            affects: Affects::Filter(Box::new(Filter {
                types: vec![CardType::Creature],
                other: true,
                controller: Some(handle("you")),
                ..Filter::default()
            })),
            modify: Some(ModPt {
                power: self.change()?,
                toughness: self.change()?,
            }),
            ..EffectSpec::default()
        };
        if self.on(Switches::ABILITIES) && self.one_in(2)? {
            e.add_keywords = vec![Keyword::Flying];
        }
        Ok(e)
    }

    /// The static ability "this has base P/T a/b" (7b).
    fn own_base_pt(&mut self) -> Result<EffectSpec> {
        Ok(EffectSpec {
            name: Some("its own base P/T".into()),
            affects: Affects::This,
            set: Some(SetPt {
                power: Amount::Fixed(self.int(0, 5)?),
                toughness: Amount::Fixed(self.int(1, 5)?),
            }),
            ..EffectSpec::default()
        })
    }

    /// "`target` has base P/T a/b until end of turn" (7b), with a and b up
    /// to `max` (b at least 1).
    fn set_until_end_of_turn(
        &mut self,
        target: Handle,
        max: i64,
        timestamp: Option<Timestamp>,
    ) -> Result<EffectSpec> {
        Ok(EffectSpec {
            affects: Affects::Objects(vec![target]),
            set: Some(SetPt {
                power: Amount::Fixed(self.int(0, max)?),
                toughness: Amount::Fixed(self.int(1, max)?),
            }),
            until: Some(Until::EndOfTurn),
            timestamp,
            ..EffectSpec::default()
        })
    }

    /// A creature set up face down (708.2a), often with a static ability
    /// that sets its own base P/T: it has none while face down, and once
    /// turned face up it applies after the effects created before, in the
    /// editions where turning it up gives it a new timestamp (613.7f).
    fn face_down(&mut self, o: &mut ObjectSpec, i: usize) -> Result<()> {
        o.face_down = true;
        o.choose = None;
        if self.one_in(2)? {
            let own = self.own_base_pt()?;
            o.abilities.push(own);
        }
        self.face_down.push(i);
        Ok(())
    }

    /// A back face (712.2): a creature, often with a static ability that
    /// sets its own base P/T, which applies after the effects created
    /// before it transforms where transforming takes a timestamp (613.7g).
    fn back_face(&mut self, o: &mut ObjectSpec, i: usize) -> Result<()> {
        let mut back = BackFace {
            name: None,
            types: vec![CardType::Creature],
            subtypes: Vec::new(),
            colors: Vec::new(),
            pt: Some(Pt::new(self.value()?, self.value()?)),
            keywords: Vec::new(),
            abilities: Vec::new(),
        };
        if self.one_in(2)? {
            back.keywords.push(self.pick(&GRANTED)?);
        }
        if self.one_in(2)? {
            back.abilities.push(self.own_base_pt()?);
        }
        o.back_face = Some(Box::new(back));
        self.double_faced.push(i);
        Ok(())
    }

    /// Turning a permanent over (708): mostly one set up face down turned
    /// face up, else a creature on the battlefield turned either way
    /// (turning what is already so does nothing, 708.2b); or transforming
    /// a double-faced one (701.27).
    fn turn_over_step(&mut self) -> Result<Action> {
        if !self.double_faced.is_empty() && self.one_in(3)? {
            let i = self.pick(&self.double_faced.clone())?;
            return Ok(Action::Transform(object_handle(i)));
        }
        if !self.face_down.is_empty() && !self.one_in(4)? {
            let i = self.pick(&self.face_down.clone())?;
            return Ok(Action::TurnFaceUp(object_handle(i)));
        }
        let i = self
            .object_where(|g, i| g.objects[i] == Kind::Creature && g.zones[i] == Zone::Battlefield)?
            .unwrap_or(0);
        Ok(if self.one_in(2)? {
            Action::TurnFaceDown(object_handle(i))
        } else {
            Action::TurnFaceUp(object_handle(i))
        })
    }

    /// A static ability of an enchantment: an anthem, a Humility-style
    /// setting, an animation, or a P/T-threshold bonus.
    fn static_ability(&mut self) -> Result<EffectSpec> {
        let creatures = || Filter {
            types: vec![CardType::Creature],
            ..Filter::default()
        };
        Ok(match self.index(5)? {
            0 => EffectSpec {
                affects: Affects::Filter(Box::new(creatures())),
                modify: Some(ModPt {
                    power: self.change()?,
                    toughness: self.change()?,
                }),
                ..EffectSpec::default()
            },
            1 if self.on(Switches::SET) => EffectSpec {
                affects: Affects::Filter(Box::new(creatures())),
                set: Some(SetPt {
                    power: Amount::Fixed(self.value()?),
                    toughness: Amount::Fixed(self.value()?),
                }),
                remove_all_abilities: self.on(Switches::ABILITIES) && self.one_in(2)?,
                ..EffectSpec::default()
            },
            2 if self.on(Switches::TYPES) => EffectSpec {
                affects: Affects::Filter(Box::new(Filter {
                    types: vec![CardType::Artifact],
                    not_types: vec![CardType::Creature],
                    ..Filter::default()
                })),
                add_types: vec![CardType::Creature],
                set: Some(SetPt {
                    power: Amount::Fixed(self.int(0, 4)?),
                    toughness: Amount::Fixed(self.int(0, 4)?),
                }),
                ..EffectSpec::default()
            },
            3 => EffectSpec {
                affects: Affects::Filter(Box::new(Filter {
                    types: vec![CardType::Creature],
                    power_at_least: Some(self.int(0, 4)?),
                    ..Filter::default()
                })),
                modify: Some(ModPt {
                    power: self.change()?,
                    toughness: self.change()?,
                }),
                ..EffectSpec::default()
            },
            _ => EffectSpec {
                affects: Affects::Filter(Box::new(creatures())),
                switch: self.on(Switches::SWITCH),
                modify: Some(ModPt {
                    power: self.change()?,
                    toughness: self.change()?,
                }),
                ..EffectSpec::default()
            },
        })
    }

    /// An exchange of two values (701.12g): two powers most often, else a
    /// power and another creature's toughness, or a life total and a
    /// toughness. Either creature may have gone by then (701.12a).
    fn exchange_step(&mut self) -> Result<Action> {
        let (a, b) = (self.creature()?, self.any_object()?);
        let (ha, hb) = (object_handle(a), object_handle(b));
        let values = match self.index(4)? {
            0 => vec![
                Exchanged::Life(handle(self.pick(&["you", "opponent"])?)),
                Exchanged::Toughness(ha),
            ],
            1 if a != b => vec![Exchanged::Power(ha), Exchanged::Toughness(hb)],
            _ if a != b => vec![Exchanged::Power(ha), Exchanged::Power(hb)],
            _ => vec![
                Exchanged::Toughness(ha),
                Exchanged::Life(handle(self.pick(&["you", "opponent"])?)),
            ],
        };
        Ok(Action::Exchange(Exchange {
            values,
            until: Some(self.until()?),
            name: None,
        }))
    }

    /// A permanent becomes a copy of another object (707.2), which may
    /// have counters and effects on it: indefinitely or until end of turn,
    /// sometimes with an exception that sets P/T (707.9b).
    fn copy_step(&mut self) -> Result<Action> {
        let Some(i) = self.object_where(|g, i| g.zones[i] == Zone::Battlefield && g.copyable[i])?
        else {
            return Ok(Action::StateBasedActions);
        };
        let Some((_, copy)) = self.copy_of(i)? else {
            return Ok(Action::StateBasedActions);
        };
        let until = if self.one_in(2)? {
            Some(Until::EndOfTurn)
        } else {
            None
        };
        Ok(Action::Copy(crate::scenario::CopyStep {
            object: object_handle(i),
            of: copy.of,
            except_pt: copy.except_pt,
            until,
            name: None,
        }))
    }

    /// What object `i` may copy: another object that may be copied,
    /// anywhere, with an exception that sets P/T one time in four.
    fn copy_of(&mut self, i: usize) -> Result<Option<(usize, crate::scenario::CopyOf)>> {
        if !self.copyable[i] {
            return Ok(None);
        }
        let Some(j) = self.object_where(|g, j| j != i && g.copyable[j])? else {
            return Ok(None);
        };
        let except_pt = if self.one_in(4)? {
            Some(Pt::new(self.int(0, 7)?, self.int(1, 7)?))
        } else {
            None
        };
        Ok(Some((
            j,
            crate::scenario::CopyOf {
                of: object_handle(j),
                except_pt,
            },
        )))
    }

    fn any_object(&mut self) -> Result<usize> {
        self.index(self.objects.len())
    }

    fn object_of(&mut self, kinds: &[Kind]) -> Result<Option<usize>> {
        self.object_where(|g, i| kinds.contains(&g.objects[i]))
    }

    /// One of the objects for which `fit` holds.
    fn object_where(&mut self, fit: impl Fn(&Self, usize) -> bool) -> Result<Option<usize>> {
        let fit: Vec<usize> = (0..self.objects.len()).filter(|&i| fit(self, i)).collect();
        if fit.is_empty() {
            return Ok(None);
        }
        let i = self.pick(&fit)?;
        Ok(Some(i))
    }

    fn creature(&mut self) -> Result<usize> {
        Ok(self.object_of(&[Kind::Creature])?.unwrap_or(0))
    }

    fn target(&mut self) -> Result<Handle> {
        if self.one_in(4)? {
            return Ok(handle(self.pick(&["you", "opponent"])?));
        }
        let i = self.any_object()?;
        Ok(object_handle(i))
    }

    fn until(&mut self) -> Result<Until> {
        self.pick(&[Until::EndOfTurn, Until::Forever, Until::EndOfTurn])
    }

    fn timestamp(&mut self) -> Result<Option<Timestamp>> {
        if self.on(Switches::TIMESTAMPS) && self.one_in(2)? {
            // Often the one the last automatic timestamp took or the next:
            // an effect then applies before or after one an earlier step
            // created by which actions took a timestamp (removing counters,
            // entering with counters, docs/protocol.md); else anywhere up
            // to about there.
            let t = if self.one_in(2)? {
                self.next_ts.saturating_sub(self.int(0, 1)?)
            } else {
                let objects = i64::try_from(self.objects.len()).unwrap_or(0);
                let high = 5.max(objects.saturating_add(self.steps_made).saturating_add(2));
                self.int(1, high)?
            };
            return Ok(Some(Timestamp(Count(t.max(1)))));
        }
        Ok(None)
    }

    fn actions(&self) -> Vec<u8> {
        let mut a = vec![0u8]; // state_based_actions
        let add = |a: &mut Vec<u8>, on: bool, code: u8| {
            if on {
                a.push(code);
            }
        };
        add(
            &mut a,
            self.on(Switches::COUNTERS) || self.on(Switches::KEYWORD_COUNTERS),
            1,
        );
        add(&mut a, self.on(Switches::COUNTERS), 2);
        add(
            &mut a,
            self.on(Switches::COUNTERS) && !self.scope.no_move_counters,
            3,
        );
        add(
            &mut a,
            self.on(Switches::MODIFY)
                || self.on(Switches::SET)
                || self.on(Switches::SWITCH)
                || self.on(Switches::TYPES)
                || self.on(Switches::ABILITIES),
            4,
        );
        add(
            &mut a,
            self.on(Switches::MODIFY) || self.on(Switches::SET) || self.on(Switches::SWITCH),
            4,
        );
        add(&mut a, self.on(Switches::DAMAGE), 5);
        add(&mut a, self.on(Switches::COMBAT), 6);
        add(&mut a, self.on(Switches::MANA), 7);
        add(&mut a, self.on(Switches::SCALE), 8);
        add(&mut a, self.on(Switches::REGENERATION), 9);
        add(
            &mut a,
            (self.on(Switches::REGENERATION) || self.on(Switches::INDESTRUCTIBLE))
                && !self.scope.no_destroy,
            10,
        );
        add(
            &mut a,
            self.on(Switches::ZONES) || self.on(Switches::UNDYING),
            11,
        );
        add(&mut a, self.on(Switches::ATTACH), 12);
        add(&mut a, self.on(Switches::CREW), 13);
        add(&mut a, self.on(Switches::CLEANUP), 14);
        add(&mut a, self.on(Switches::INFECT), 15);
        for _ in 0..3 {
            add(&mut a, self.on(Switches::SPELLS), 16);
            add(&mut a, self.on(Switches::SPELLS), 17);
        }
        add(&mut a, self.on(Switches::COUNTERS_FROM), 18);
        add(&mut a, self.on(Switches::SICKNESS), 19);
        add(&mut a, self.on(Switches::CONTROL), 20);
        add(&mut a, self.on(Switches::COSTS), 21);
        add(&mut a, self.on(Switches::DOUBLE_COUNTERS), 22);
        add(&mut a, self.on(Switches::DOUBLE_COUNTERS), 22);
        add(&mut a, self.on(Switches::FACE_DOWN), 23);
        add(&mut a, self.on(Switches::FACE_DOWN), 23);
        add(&mut a, self.on(Switches::EXCHANGE), 24);
        add(&mut a, self.on(Switches::EXCHANGE), 24);
        add(&mut a, self.on(Switches::PREVENTION), 25);
        add(&mut a, self.on(Switches::PREVENTION), 25);
        add(&mut a, self.on(Switches::COMBAT_STEPS), 26);
        add(&mut a, self.on(Switches::COMBAT_STEPS), 26);
        add(&mut a, self.on(Switches::COPY), 27);
        add(&mut a, self.on(Switches::COPY), 27);
        a
    }

    /// The spell `i` resolves: an instant goes to the graveyard, a
    /// permanent spell onto the battlefield (608.2n, 608.3).
    fn resolve(&mut self, i: usize) -> Action {
        self.zones[i] = if self.objects[i] == Kind::Instant {
            Zone::Graveyard
        } else {
            Zone::Battlefield
        };
        Action::Resolve(object_handle(i))
    }

    fn step(&mut self) -> Result<Step> {
        self.steps_made = self.steps_made.saturating_add(1);
        let pick = self.index(self.actions.len())?;
        let code = self.actions[pick];
        let action = match code {
            1 => self.put_counters_step()?,
            2 => {
                let i = self.any_object()?;
                Action::RemoveCounters(CounterRemove {
                    from: object_handle(i),
                    kind: self.pt_counter_kind()?,
                    count: Count(self.int(1, 3)?),
                })
            }
            3 => {
                let a = self.any_object()?;
                let b = self.any_object()?;
                Action::MoveCounters(CounterMove {
                    from: object_handle(a),
                    to: object_handle(b),
                    kind: self.pt_counter_kind()?,
                    count: Count(self.int(1, 3)?),
                    by: self.by()?,
                })
            }
            4 => Action::Effect(Box::new(self.effect()?)),
            5 => self.damage_step()?,
            6 => self.combat_damage_step()?,
            7 => {
                let i = self.any_object()?;
                Action::AddMana(ManaAbility {
                    player: None,
                    mana: Mana::G,
                    amount: Quantity::Ref(Box::new(QuantityRef::PowerOf(object_handle(i)))),
                    name: None,
                    snow: false,
                })
            }
            8 => self.scale_step()?,
            9 => Action::Regenerate(object_handle(self.any_object()?)),
            10 => Action::Destroy(object_handle(self.any_object()?)),
            11 => self.move_step()?,
            12 => match self.object_of(&[Kind::Equipment])? {
                Some(e) => {
                    let c = self.creature()?;
                    if c == e {
                        Action::StateBasedActions
                    } else {
                        Action::Attach(Attach {
                            object: object_handle(e),
                            to: object_handle(c),
                        })
                    }
                }
                None => Action::StateBasedActions,
            },
            13 => match self.object_of(&[Kind::Vehicle])? {
                Some(v) => {
                    let mut with = Vec::new();
                    for _ in 0..1 + self.index(2)? {
                        let c = self.creature()?;
                        if c != v && !with.contains(&object_handle(c)) {
                            with.push(object_handle(c));
                        }
                    }
                    Action::Crew(Crew {
                        vehicle: object_handle(v),
                        with,
                    })
                }
                None => Action::StateBasedActions,
            },
            14 => Action::Cleanup,
            15 => {
                let p = self.pick(&["you", "opponent"])?;
                Action::PutCounters(CounterPut {
                    on: handle(p),
                    kind: CounterKind::named("poison"),
                    count: Count(self.int(1, 4)?),
                    by: None,
                })
            }
            16 => self.cast_step()?,
            17 => match self.object_where(|g, i| g.zones[i] == Zone::Stack)? {
                Some(i) => self.resolve(i),
                None => Action::StateBasedActions,
            },
            18 => self.counters_from_step()?,
            19 => Action::BeginTurn(self.player()?),
            20 => Action::GainControl(GainControl {
                object: object_handle(self.any_object()?),
                player: self.player()?,
            }),
            21 => self.pay_cost_step()?,
            22 => self.double_counters_step()?,
            23 => self.turn_over_step()?,
            24 => self.exchange_step()?,
            // 615.7: "prevent the next N damage … this turn".
            25 => Action::Prevent(Prevention {
                to: self.target()?,
                amount: Count(self.int(1, 4)?),
                name: None,
            }),
            26 => self.attack_step()?,
            27 => self.copy_step()?,
            _ => Action::StateBasedActions,
        };
        let sba = !(self.on(Switches::SPLIT_SBA) && self.one_in(2)?);
        Ok(Step {
            action,
            sba,
            expect: BTreeMap::new(),
            expect_in: BTreeMap::new(),
            expect_error: None,
            note: None,
        })
    }

    /// Counters put on an object: P/T, keyword, level, hone, loyalty, lore, defense or shield counters.
    fn put_counters_step(&mut self) -> Result<Action> {
        let i = self.any_object()?;
        let kind = if self.on(Switches::KEYWORD_COUNTERS)
            && (!self.on(Switches::COUNTERS) || self.one_in(3)?)
        {
            CounterKind::Keyword(self.pick(&GRANTED)?)
        } else if self.on(Switches::LEVELS) && self.one_in(4)? {
            CounterKind::named("level")
        } else if self.on(Switches::ATTACH) && self.one_in(5)? {
            CounterKind::named("hone")
        } else if self.on(Switches::PLANESWALKERS) && self.one_in(5)? {
            CounterKind::named("loyalty")
        } else if self.on(Switches::SAGAS) && self.one_in(3)? {
            CounterKind::named("lore")
        } else if self.on(Switches::BATTLES) && self.one_in(4)? {
            CounterKind::named("defense")
        } else if self.on(Switches::SHIELDS) && self.one_in(4)? {
            CounterKind::named("shield")
        } else {
            self.pt_counter_kind()?
        };
        Ok(Action::PutCounters(CounterPut {
            on: object_handle(i),
            kind,
            count: Count(self.count()?),
            by: self.by()?,
        }))
    }

    /// Doubling the counters of a kind on an object (701.10e): mostly P/T
    /// counters, sometimes the kinds other switches put.
    fn double_counters_step(&mut self) -> Result<Action> {
        // Often a permanent with counters that can't have more put on it:
        // doubling is putting (701.10e, 122.1).
        if !self.sealed.is_empty() && self.one_in(2)? {
            let j = self.index(self.sealed.len())?;
            let (i, kind) = self.sealed[j].clone();
            return Ok(Action::DoubleCounters(CounterDouble {
                on: object_handle(i),
                kind,
                by: self.by()?,
            }));
        }
        let i = self.any_object()?;
        let kind = if self.on(Switches::KEYWORD_COUNTERS) && self.one_in(4)? {
            CounterKind::Keyword(self.pick(&GRANTED)?)
        } else if self.on(Switches::SAGAS) && self.one_in(4)? {
            CounterKind::named("lore")
        } else if self.on(Switches::SHIELDS) && self.one_in(4)? {
            CounterKind::named("shield")
        } else {
            self.pt_counter_kind()?
        };
        Ok(Action::DoubleCounters(CounterDouble {
            on: object_handle(i),
            kind,
            by: self.by()?,
        }))
    }

    /// Noncombat damage, of a fixed amount or of a source's power.
    fn damage_step(&mut self) -> Result<Action> {
        let from = self.any_object()?;
        let to = self.target()?;
        let amount = if self.on(Switches::LOCKED_X) && self.one_in(3)? {
            Quantity::Ref(Box::new(QuantityRef::PowerOf(object_handle(from))))
        } else {
            Quantity::Fixed(if self.on(Switches::HUGE) && self.one_in(8)? {
                self.pick(&HUGE_VALUES)?
            } else {
                self.int(0, 5)?
            })
        };
        Ok(Action::Damage(Damage {
            from: object_handle(from),
            to,
            amount,
        }))
    }

    /// A declared combat (508.1, 509.1): one or two of the first player's
    /// creatures attack, and each of the other player's may block one.
    fn attack_step(&mut self) -> Result<Action> {
        let creatures = |theirs: bool| -> Vec<usize> {
            (0..self.objects.len())
                .filter(|&i| {
                    self.objects[i] == Kind::Creature
                        && self.zones[i] == Zone::Battlefield
                        && self.theirs.get(i) == Some(&theirs)
                })
                .collect()
        };
        let (mine, theirs) = (creatures(false), creatures(true));
        if mine.is_empty() {
            return self.combat_damage_step();
        }
        let mut decl: Vec<AttackDeclaration> = Vec::new();
        for _ in 0..1 + self.index(2)? {
            let i = self.pick(&mine)?;
            if decl.iter().all(|a| a.attacker != object_handle(i)) {
                decl.push(AttackDeclaration {
                    attacker: object_handle(i),
                    defender: None,
                    blockers: Vec::new(),
                });
            }
        }
        for b in theirs {
            if self.one_in(3)? {
                continue;
            }
            let k = self.index(decl.len())?;
            decl[k].blockers.push(object_handle(b));
        }
        Ok(Action::Attack(decl))
    }

    /// The attacking player's choice in a combat damage step: sometimes
    /// the blockers of an attacker in reverse, then what it attacks.
    fn divided_damage_step(&mut self, attack: &[AttackDeclaration]) -> Result<Action> {
        let mut divide = BTreeMap::new();
        for a in attack {
            if a.blockers.len() > 1 && self.one_in(2)? {
                let mut order: Vec<Handle> = a.blockers.iter().rev().cloned().collect();
                if self.one_in(2)? {
                    order.pop();
                }
                divide.insert(a.attacker.clone(), order);
            }
        }
        Ok(Action::CombatDamageStep(DamageStep {
            divide,
            ..DamageStep::default()
        }))
    }

    /// Combat damage from one or two creatures.
    fn combat_damage_step(&mut self) -> Result<Action> {
        let mut v: Vec<CombatAssignment> = Vec::new();
        // Two blockers on one attacker: what a shield counter's single
        // prevention effect is about (122.1c).
        if self.on(Switches::SHIELDS) && self.one_in(2)? {
            let to = if self.shielded.is_empty() {
                object_handle(self.creature()?)
            } else {
                object_handle(self.pick(&self.shielded.clone())?)
            };
            for _ in 0..2 {
                let from = self.creature()?;
                v.push(CombatAssignment {
                    from: object_handle(from),
                    to: to.clone(),
                    amount: None,
                });
            }
            return Ok(Action::CombatDamage(v));
        }
        for _ in 0..1 + self.index(2)? {
            let from = self.creature()?;
            let to = self.target()?;
            v.push(CombatAssignment {
                from: object_handle(from),
                to,
                amount: None,
            });
        }
        Ok(Action::CombatDamage(v))
    }

    /// Doubling or tripling a creature's power, toughness or both.
    fn scale_step(&mut self) -> Result<Action> {
        let i = self.creature()?;
        let s = Scale {
            affects: object_handle(i),
            what: self.pick(&[ScaleWhat::Power, ScaleWhat::Toughness, ScaleWhat::Both])?,
            until: self.until()?,
            name: None,
            timestamp: self.timestamp()?,
        };
        Ok(if self.one_in(2)? {
            Action::Triple(s)
        } else {
            Action::Double(s)
        })
    }

    /// A zone change, with counters and a chosen P/T for what enters the battlefield.
    fn move_step(&mut self) -> Result<Action> {
        let i = self.any_object()?;
        let here = self.zones[i];
        // 304.4: an instant put onto the battlefield stays where it
        // is (a ruling pins that; generated cases need not).
        let instant = self.objects[i] == Kind::Instant;
        let choices: Vec<Zone> = [Zone::Battlefield, Zone::Graveyard, Zone::Exile, Zone::Hand]
            .into_iter()
            .filter(|z| *z != here && !(instant && *z == Zone::Battlefield))
            .collect();
        let to = self.pick(&choices)?;
        self.zones[i] = to;
        // 707.2: sometimes it enters as a copy (Clone).
        let copied = if to == Zone::Battlefield && self.on(Switches::COPY) && self.one_in(3)? {
            self.copy_of(i)?
        } else {
            None
        };
        let (copied, mut copy) = match copied {
            Some((j, c)) => (Some(j), Some(c)),
            None => (None, None),
        };
        let mut counters = BTreeMap::new();
        let mut choose = None;
        if to == Zone::Battlefield {
            if self.on(Switches::COUNTERS) && self.one_in(2)? {
                counters.insert(self.pt_counter_kind()?, Count(self.int(1, 3)?));
            }
            // 707.5, 707.6: a copy chooses among the copied text's options,
            // and must; the copied object's own ones stand for them (a copy
            // or face-down state of it at that time cuts the case there).
            match copied {
                Some(j) if !self.choices[j].is_empty() => {
                    let options = self.choices[j].clone();
                    choose = Some(self.pick(&options)?);
                    // With a copied choice, an exception that sets P/T is
                    // not modelled (DECISIONS.md D62).
                    if let Some(c) = copy.as_mut() {
                        c.except_pt = None;
                    }
                }
                Some(_) => {}
                None if !self.choices[i].is_empty() && self.one_in(2)? => {
                    let options = self.choices[i].clone();
                    choose = Some(self.pick(&options)?);
                }
                None => {}
            }
        }
        // 122.6a: `by` says who puts the counters it enters with.
        let by = if counters.is_empty() {
            None
        } else {
            self.by()?
        };
        Ok(Action::Move(MoveZone {
            object: object_handle(i),
            to,
            counters,
            choose,
            by,
            copy,
        }))
    }

    /// A spell cast from the hand, with its X; sometimes resolved next.
    fn cast_step(&mut self) -> Result<Action> {
        let Some(i) = self.object_where(|g, i| g.zones[i] == Zone::Hand && g.costs[i].is_some())?
        else {
            return Ok(Action::StateBasedActions);
        };
        self.zones[i] = Zone::Stack;
        let x = match &self.costs[i] {
            Some(c) if c.has_x() => Some(Count(self.int(0, 5)?)),
            _ => None,
        };
        let by = if self.one_in(4)? {
            Some(handle("opponent"))
        } else {
            None
        };
        if self.one_in(2)? {
            self.resolve_next = Some(i);
        }
        Ok(Action::Cast(Cast {
            object: object_handle(i),
            x,
            by,
        }))
    }

    /// Counters put on a creature for those an object has or had.
    fn counters_from_step(&mut self) -> Result<Action> {
        let from = self.any_object()?;
        let to = self.creature()?;
        let kinds = if self.one_in(3)? {
            vec![self.pt_counter_kind()?]
        } else {
            Vec::new()
        };
        Ok(Action::PutCountersFrom(CountersFrom {
            from: object_handle(from),
            to: object_handle(to),
            kinds,
            by: self.by()?,
        }))
    }

    /// A cost paid: card text, or an object's mana cost.
    fn pay_cost_step(&mut self) -> Result<Action> {
        let spell = if self.on(Switches::SPELLS) && self.one_in(2)? {
            self.object_where(|g, i| g.costs[i].is_some())?
        } else {
            None
        };
        let (cost, cost_of, x) = match spell {
            Some(i) => (None, Some(object_handle(i)), Count(0)),
            None => {
                let c = self.cost()?;
                let x = if c.has_x() { self.int(0, 3)? } else { 0 };
                (Some(c), None, Count(x))
            }
        };
        Ok(Action::PayCost(CostPayment {
            player: if self.one_in(3)? {
                Some(handle("opponent"))
            } else {
                None
            },
            cost,
            cost_of,
            x,
            // A payment that does not exist is an error: rarely.
            payment: Count(if self.one_in(4)? { 1 } else { 0 }),
            name: None,
        }))
    }

    fn effect(&mut self) -> Result<EffectSpec> {
        let mut parts: Vec<u8> = Vec::new();
        for (f, p) in [
            (Switches::MODIFY, 0u8),
            (Switches::MODIFY, 0),
            (Switches::SET, 1),
            (Switches::SWITCH, 2),
            (Switches::TYPES, 3),
            (Switches::ABILITIES, 4),
            (Switches::GRANTED_PT, 5),
            (Switches::GRANTED_PT, 5),
        ] {
            if self.on(f) {
                parts.push(p);
            }
        }
        if parts.is_empty() {
            parts.push(0);
        }
        let part = self.pick(&parts)?;
        let mut e = EffectSpec {
            until: Some(self.until()?),
            timestamp: self.timestamp()?,
            ..EffectSpec::default()
        };
        let first = self.any_object()?;
        e.affects = if self.on(Switches::STATICS) && self.one_in(4)? {
            Affects::Filter(Box::new(Filter {
                types: vec![CardType::Creature],
                controller: if self.one_in(2)? {
                    Some(handle("you"))
                } else {
                    None
                },
                ..Filter::default()
            }))
        } else {
            let mut v = vec![object_handle(first)];
            if self.one_in(4)? {
                let second = self.any_object()?;
                if second != first {
                    v.push(object_handle(second));
                }
            }
            Affects::Objects(v)
        };
        if self.one_in(4)? {
            let s = self.any_object()?;
            e.source = Some(object_handle(s));
            if self.one_in(2)? && !self.scope.no_source_durations {
                e.until = Some(Until::SourceLeaves);
            }
        }
        let mut x_of_target = Quantity::Ref(Box::new(QuantityRef::PowerOf(object_handle(first))));
        if self.on(Switches::SPELLS) && self.one_in(3)? {
            // 107.3g, 202.3e: a card's X, and so its mana value, counts
            // only while it is a spell on the stack.
            if let Some(i) = self.object_where(|g, i| g.costs[i].is_some())? {
                let h = object_handle(i);
                x_of_target = Quantity::Ref(Box::new(if self.one_in(2)? {
                    QuantityRef::XOf(h)
                } else {
                    QuantityRef::ManaValueOf(h)
                }));
            }
        }
        match part {
            1 => {
                if self.on(Switches::LOCKED_X) && self.one_in(3)? {
                    e.set = Some(SetPt {
                        power: Amount::X,
                        toughness: Amount::Fixed(self.int(1, 4)?),
                    });
                    e.x = Some(x_of_target);
                } else {
                    e.set = Some(SetPt {
                        power: Amount::Fixed(self.value()?),
                        toughness: Amount::Fixed(self.value()?),
                    });
                }
            }
            2 => e.switch = true,
            5 => {
                // 604.3a: "becomes a creature with 'its power and toughness
                // are each equal to …'" (Svogthos), a value read all the
                // time; the land or artifact becomes a creature.
                let q = self.cda_quantity(first, self.objects.len())?;
                let toughness = if self.one_in(4)? {
                    Quantity::Fixed(self.int(0, 3)?)
                } else {
                    q.clone()
                };
                e.grant_pt_ability = Some(Cda {
                    power: Some(q),
                    toughness: Some(toughness),
                });
                if self.on(Switches::TYPES) && self.one_in(2)? {
                    e.add_types = vec![CardType::Creature];
                }
            }
            3 => {
                if self.one_in(3)? {
                    e.remove_types = vec![CardType::Creature];
                } else {
                    e.add_types = vec![CardType::Creature];
                    if self.one_in(2)? {
                        e.set = Some(SetPt {
                            power: Amount::Fixed(self.int(0, 4)?),
                            toughness: Amount::Fixed(self.int(0, 4)?),
                        });
                    }
                }
            }
            4 => {
                if self.one_in(2)? {
                    e.remove_all_abilities = true;
                } else {
                    let k = if self.on(Switches::INERT_KEYWORDS) && self.one_in(2)? {
                        self.inert_keyword()?
                    } else {
                        self.pick(&GRANTED)?
                    };
                    if self.one_in(2)? {
                        e.add_keywords = vec![k]
                    } else {
                        e.remove_keywords = vec![k]
                    }
                }
            }
            _ => {
                if self.on(Switches::LOCKED_X) && self.one_in(3)? {
                    let minus = self.on(Switches::NEGATIVE) && self.one_in(3)?;
                    let x = Change {
                        minus,
                        amount: Amount::X,
                    };
                    e.modify = Some(ModPt {
                        power: x,
                        toughness: x,
                    });
                    e.x = Some(x_of_target);
                } else {
                    e.modify = Some(ModPt {
                        power: self.change()?,
                        toughness: self.change()?,
                    });
                }
            }
        }
        Ok(e)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_inert_keywords_are_inert_keywords() {
        for name in super::INERT {
            let k = crate::terms::Keyword::parse(name);
            assert!(k.is_some_and(|k| k.is_inert()), "{name}");
        }
    }
}
