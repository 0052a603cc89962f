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

use ptoracle_core::cost::ManaCost;
use ptoracle_core::number::{Amount, Change, ModPt, Printed, PrintedPt, Pt, SetPt};
use ptoracle_core::scenario::{
    Action, Affects, Attach, AttackDeclaration, BackFace, Case, CaseId, Cast, Cda, Chapter,
    CombatAssignment, CostPayment, Count, CounterDouble, CounterMove, CounterPut, CounterRemove,
    CounterScale, CounterTrigger, CountersFrom, CountersOn, CountersPutBy, Crew, Damage,
    DamageStep, EffectSpec, EntryChoice, Exchange, Exchanged, Filter, GainControl, Handle,
    LevelBand, ManaAbility, ManaPool, MoveZone, ObjectSpec, PlayerSpec, Prevention, Quantity,
    QuantityRef, RuleRef, Scale, ScaleWhat, Setup, Step, Timestamp, Until,
};
use ptoracle_core::terms::{CardType, CounterKind, Keyword, Mana, Zone};

mod combat;
mod effects;
mod objects;
mod steps;
mod switches;

pub use switches::Switches;

/// A case drawn from the scenario space.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated(pub Case);

impl<'a> Arbitrary<'a> for Generated {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        generate(u).map(Generated)
    }
}

/// Draws a case from the stream. Every case it returns passes
/// [`ptoracle_core::scenario::validate`]; a step may still act on an object that has
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
    pub fn within(supported: &std::collections::BTreeSet<ptoracle_protocol::Feature>) -> Scope {
        use ptoracle_protocol::Feature as P;
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
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_inert_keywords_are_inert_keywords() {
        for name in super::INERT {
            let k = ptoracle_core::terms::Keyword::parse(name);
            assert!(k.is_some_and(|k| k.is_inert()), "{name}");
        }
    }
}
