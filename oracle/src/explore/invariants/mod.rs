//! Invariants: properties every run of every scenario must have, each
//! stated independently of how the resolver computes it — a closed form
//! over the observations, a conservation law, or a metamorphic relation
//! between the run of a case and the run of a variant of it.
//!
//! A violation says what the invariant expects to observe instead, so it
//! can be written as a ruling with real expectations; for a metamorphic
//! relation the expected values are those of the other side of the
//! relation (equal under correct rules).

use std::collections::BTreeMap;

use ptoracle_core::edition::{Edition, PtClass, Rules};
use ptoracle_core::number::{Amount, Printed, PrintedPt, Pt};
use ptoracle_core::observation::{ObjectState, Observation, PlayerState};
use ptoracle_core::verdict::diff;
use std::borrow::Cow;
use std::cell::OnceCell;

use ptoracle_core::resolver::{self, Mutant, Options, Run, Session};
use ptoracle_core::scenario::{
    Action, Affects, AttackDeclaration, Case, CombatAssignment, Count, Damage, DamageStep,
    EffectSpec, ErrorCode, Exchanged, Expect, GainControl, Handle, ManaPool, ObjectSpec,
    Prevention, PtOrNone, Quantity, QuantityRef, ScaleWhat, Step, Until,
};
use ptoracle_core::terms::{CardType, CounterKind, Keyword, Zone};

mod cleanup;
mod combat;
mod copies;
mod counters;
mod editions;
mod exchange;
mod faces;
mod layers;
mod sba;
mod shields;
mod subject;

use cleanup::*;
use combat::*;
use copies::*;
use counters::*;
use editions::*;
use exchange::*;
use faces::*;
use layers::*;
use sba::*;
use shields::*;
pub(crate) use subject::Saved;
pub use subject::Subject;

/// One invariant.
pub struct Invariant {
    /// Its name, e.g. `no-lethal-damage`.
    pub name: &'static str,
    /// The CR rules it checks.
    pub rules: &'static [&'static str],
    /// What it asserts, in words.
    pub statement: &'static str,
    /// The deliberate bug its own test breaks the resolver with.
    pub caught_by: Mutant,
    /// It runs on the cases whose index is `remainder` modulo `modulus`
    /// (the costly relations are sampled; most invariants run on every case).
    pub sampling: (u64, u64),
    /// Whether it reads what a step did as a closed form of the step's own
    /// action (and state-based actions, undying and persist). Such an
    /// invariant does not run on a case whose objects act inside a step:
    /// other triggered abilities (Saga chapters, 714.2; "when the Nth
    /// counter is put on", 122.7), spells that resolve (608.2) and "enters
    /// with counters" replacement effects (614.1c); about one generated
    /// case in nine.
    pub closed_form: bool,
    /// Whether it holds under an edition's rules: most invariants state
    /// what every edition agrees on; a few state the current layer order
    /// (613.4) or 107.1b and are not checked under the editions that
    /// differ there.
    pub holds_in: fn(&Rules) -> bool,
    check: fn(&Subject<'_>) -> Option<Found>,
}

impl Invariant {
    /// Checks a run of a case (nothing, for a case its sampling skips).
    pub fn check(&'static self, s: &Subject<'_>) -> Option<Violation> {
        if !self.runs_on(s.index)
            || (self.closed_form && s.objects_act())
            || !(self.holds_in)(s.edition.rules())
        {
            return None;
        }
        (self.check)(s).map(|f| Violation {
            invariant: self,
            found: f,
        })
    }

    /// Whether it runs on case `index`.
    pub fn runs_on(&self, index: u64) -> bool {
        index % self.sampling.0.max(1) == self.sampling.1
    }
}

/// Which saved states examining case `index` should keep: after a step
/// (for the [`RECHECK`] relation) and at the end (for the [`TAIL`] ones).
pub(crate) fn keeps(index: u64) -> (bool, bool) {
    let runs = |(m, r): (u64, u64)| index % m == r;
    (runs(RECHECK), runs(TAIL))
}

/// On every case.
const EVERY: (u64, u64) = (1, 0);

/// Under every edition.
const EVERY_EDITION: fn(&Rules) -> bool = |_| true;

/// Where setting effects apply before every modification, whatever the
/// timestamps (613.4b since 2009-07; not K.10.Ruling.1 nor 6b of 2007).
const SETS_FIRST: fn(&Rules) -> bool = |r| r.alone(PtClass::Set);

/// Where switching applies after everything else (613.4d; not K.10.Ruling.1).
const SWITCH_LAST: fn(&Rules) -> bool = |r| r.alone(PtClass::Switch);
/// The relations that continue a run past its end: one case in four.
const TAIL: (u64, u64) = (4, 0);
/// A quarter of the [`TAIL`] cases (they keep the end state too): one
/// case in sixteen, for a relation that finds its bug often (the explore
/// budget of 2× the resolver is tight).
const QUARTER_OF_TAIL: (u64, u64) = (16, 0);
/// Another quarter of the [`TAIL`] cases, which [`QUARTER_OF_TAIL`]
/// leaves out: its relations don't pile onto the same cases.
const OTHER_QUARTER_OF_TAIL: (u64, u64) = (16, 4);
/// A third quarter of the [`TAIL`] cases, apart from the other two.
const THIRD_QUARTER_OF_TAIL: (u64, u64) = (16, 8);
/// The relation that checks again after a step: another case in four.
const RECHECK: (u64, u64) = (4, 2);
/// One case in four, neither a [`TAIL`] nor a [`RECHECK`] one: for a
/// relation that replays the whole case, to spread its cost.
const FOURTH: (u64, u64) = (4, 1);

/// What an invariant found wrong.
#[derive(Clone, Debug)]
pub struct Found {
    /// The step (from 0) after which it does not hold.
    pub step: usize,
    /// What is wrong, in a sentence.
    pub message: String,
    /// The case the ruling should replay, when it is a variant of the one checked.
    pub case: Option<Case>,
    /// What the invariant says must hold after `step`.
    pub expect: BTreeMap<Handle, Expect>,
    /// Or the error `step` must end with.
    pub expect_error: Option<ErrorCode>,
}

/// An invariant that does not hold.
#[derive(Clone, Debug)]
pub struct Violation {
    /// The invariant.
    pub invariant: &'static Invariant,
    /// What it found.
    pub found: Found,
}

impl std::fmt::Debug for Invariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

fn found(step: usize, message: impl Into<String>) -> Found {
    Found {
        step,
        message: message.into(),
        case: None,
        expect: BTreeMap::new(),
        expect_error: None,
    }
}

impl Found {
    fn expect(mut self, h: &Handle, e: Expect) -> Found {
        self.expect.insert(h.clone(), e);
        self
    }

    fn on(mut self, case: Case) -> Found {
        self.case = Some(case);
        self
    }
}

impl Found {
    fn expect_all(mut self, e: BTreeMap<Handle, Expect>) -> Found {
        self.expect = e;
        self
    }
}

/// The keywords a source has as it deals damage, read from the state before
/// the step (702.2e: last known information if it has left).
fn source_keywords(before: &Observation, h: &Handle) -> Vec<Keyword> {
    match before.objects.get(h) {
        Some(o) if o.zone != Zone::Battlefield => o
            .lki
            .as_ref()
            .map_or(o.keywords.clone(), |l| l.keywords.clone()),
        Some(o) => o.keywords.clone(),
        None => Vec::new(),
    }
}

/// A Siege: a battle with the intrinsic ability of 310.11b.
fn is_siege(o: &ObjectSpec) -> bool {
    o.types.contains(&CardType::Battle) && o.subtypes.iter().any(|t| t == "Siege")
}

/// Whether damage to `h` in the step after `before` is prevented by a
/// shield counter (122.1c): then it is not dealt and has no results.
fn shielded(before: &Observation, h: &Handle) -> bool {
    before
        .objects
        .get(h)
        .is_some_and(|o| on_bf(o) && count(o, &CounterKind::named("shield")) > 0)
}

fn is_creature(o: &ObjectState) -> bool {
    o.types.contains(&CardType::Creature)
}

fn on_bf(o: &ObjectState) -> bool {
    o.zone == Zone::Battlefield
}

fn count(o: &ObjectState, k: &CounterKind) -> i64 {
    o.counters.get(k).copied().unwrap_or(0)
}

/// An expectation of every field of an object state.
fn pt_expect(pt: Pt) -> Expect {
    Expect {
        pt: Some(PtOrNone::Pt(pt)),
        ..Expect::default()
    }
}

// ---- the invariants ---------------------------------------------------------

/// Every invariant, in a fixed order.
pub static ALL: &[Invariant] = &[
    Invariant {
        name: "exact-arithmetic",
        rules: &["107.1", "107.1a", "122.1a"],
        statement: "a creature whose P/T comes only from its printed values and counters has exactly printed + the sum of its counters (computed in 128 bits); when that does not fit in 64 bits the step reports an overflow instead of a value",
        caught_by: Mutant::WrappingCounters,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: exact_arithmetic,
    },
    Invariant {
        name: "annihilation",
        rules: &["122.3", "704.5q"],
        statement: "after state-based actions no permanent has both +1/+1 and -1/-1 counters",
        caught_by: Mutant::NoAnnihilation,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: annihilation,
    },
    Invariant {
        name: "annihilation-keeps-the-net",
        rules: &["122.3", "704.5q"],
        statement: "checking state-based actions keeps a permanent's +1/+1 minus -1/-1 counters as it was",
        caught_by: Mutant::LopsidedAnnihilation,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: annihilation_net,
    },
    Invariant {
        name: "no-zero-toughness",
        rules: &["704.5f", "702.12b", "701.19"],
        statement: "after state-based actions no creature on the battlefield has toughness 0 or less, indestructible or not",
        caught_by: Mutant::ZeroToughnessIsDestruction,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: no_zero_toughness,
    },
    Invariant {
        name: "no-lethal-damage",
        rules: &["704.5g", "120.6", "702.12b"],
        statement: "after state-based actions a creature on the battlefield with damage at least its toughness (> 0) is indestructible",
        caught_by: Mutant::LethalIsGreater,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: no_lethal_damage,
    },
    Invariant {
        name: "deathtouch-destroys",
        rules: &["704.5h", "702.2b"],
        statement: "a creature dealt damage by a deathtouch source is gone after the next check, unless indestructible or regenerated",
        caught_by: Mutant::DeathtouchIgnored,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: deathtouch_destroys,
    },
    Invariant {
        name: "combat-damage",
        rules: &["510.1a", "510.2", "107.1b", "120.3a", "120.3b", "120.3f"],
        statement: "a creature assigns combat damage equal to max(0, power): each player's life and poison change by exactly that, plus lifelink",
        caught_by: Mutant::AbsolutePowerInCombat,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: combat_damage,
    },
    Invariant {
        name: "plus-x-clamped",
        rules: &["107.1b", "608.2h"],
        statement: "\"+X/+X where X is its power\" adds max(0, power as it resolved) (without switch effects)",
        caught_by: Mutant::UnclampedX,
        sampling: EVERY,
        closed_form: true,
        holds_in: SETS_FIRST,
        check: plus_x,
    },
    Invariant {
        name: "mana-clamped",
        rules: &["107.1b", "608.2h"],
        statement: "mana \"equal to its power\" adds max(0, power as it resolved)",
        caught_by: Mutant::UnclampedMana,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: mana,
    },
    Invariant {
        name: "setting-keeps-modifications",
        rules: &["613.4b", "613.4c"],
        statement: "a new setting effect replaces base P/T only: every modification and counter stays on top of it, whatever the timestamps (Gray Ogre)",
        caught_by: Mutant::SetSharesTimestamps,
        sampling: TAIL,
        closed_form: false,
        holds_in: SETS_FIRST,
        check: setting_keeps_modifications,
    },
    Invariant {
        name: "modifications-commute",
        rules: &["613.4c", "613.7"],
        statement: "swapping the timestamps of two modifications in 7c changes nothing",
        caught_by: Mutant::ClampIntermediate,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: modifications_commute,
    },
    Invariant {
        name: "two-switches-cancel",
        rules: &["613.4d"],
        statement: "switching a creature's power and toughness twice leaves every observation as it was",
        caught_by: Mutant::SwitchIsFlag,
        sampling: TAIL,
        closed_form: false,
        holds_in: SWITCH_LAST,
        check: two_switches,
    },
    Invariant {
        name: "switch-swaps",
        rules: &["613.4d", "613.4c"],
        statement: "one more switch turns P/T p/t into t/p, counters included, and leaves base P/T alone",
        caught_by: Mutant::CountersAfterSwitch,
        sampling: TAIL,
        closed_form: false,
        holds_in: SWITCH_LAST,
        check: switch_swaps,
    },
    Invariant {
        name: "damage-keeps-toughness",
        rules: &["120.3e", "302.7"],
        statement: "damage from a source without wither or infect changes nobody's P/T (before state-based actions)",
        caught_by: Mutant::DamageLowersToughness,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: damage_keeps_toughness,
    },
    Invariant {
        name: "cleanup-clears",
        rules: &["514.2", "701.19a"],
        statement: "after cleanup no permanent has damage or regeneration shields and mana pools are empty",
        caught_by: Mutant::CleanupKeepsDamage,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: cleanup_clears,
    },
    Invariant {
        name: "cleanup-ends-effects",
        rules: &["514.2", "611.2a"],
        statement: "after cleanup the state is as if no \"until end of turn\" effect had existed",
        caught_by: Mutant::CleanupKeepsEffects,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: cleanup_ends_effects,
    },
    Invariant {
        name: "zone-change-new-object",
        rules: &["400.7", "122.2", "306.5b", "310.4b"],
        statement: "an object that changes zones has no counters, damage, shields or tapped state but what it enters with",
        caught_by: Mutant::CountersSurviveZoneChange,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: zone_change,
    },
    Invariant {
        name: "sba-fixpoint",
        rules: &["704.3"],
        statement: "checking state-based actions again right after a step changes nothing",
        caught_by: Mutant::SingleSbaPass,
        sampling: RECHECK,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: sba_fixpoint,
    },
    Invariant {
        name: "edition-neutral",
        rules: &[
            "613.4c", "613.4d", "107.1b", "701.10c", "701.11c", "122.1b", "122.1j", "704.5q",
            "702.15b",
        ],
        statement: "where the rules digest calls an edition change neutral, both editions give the same run: the counter merge of 2020-04-17 (without keyword counters), 2017-07-07 and the current rules (without doubling, tripling, keyword or hone counters), 2025-06-06 and the current rules (without hone counters), 2018-04-27 and 2020-01-22 (no P/T rule changed), 2007-05 and 2009-07 (without setting effects, -1/-1 counters, lifelink or deathtouch); where the sublayer plan changed, only without effects whose affected set tests P/T",
        caught_by: Mutant::CountersInFourthSublayer,
        sampling: (32, 1),
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: edition_neutral,
    },
    Invariant {
        name: "deterministic",
        rules: &["613.7"],
        statement: "resolving a case again, on the same thread or another, gives the same run",
        caught_by: Mutant::Nondeterministic,
        sampling: (32, 0),
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: deterministic,
    },
    Invariant {
        name: "yaml-round-trip",
        rules: &["107.1"],
        statement: "a case written as a YAML ruling reads back unchanged",
        caught_by: Mutant::LossyWriter,
        sampling: (128, 64),
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: yaml_round_trip,
    },
    Invariant {
        name: "lki-before-the-event",
        rules: &["704.8", "608.2h"],
        statement: "an object put into the graveyard by the first state-based-action event keeps, as last known information, its state before that event",
        caught_by: Mutant::LkiAfterAnnihilation,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: lki_before_event,
    },
    Invariant {
        name: "base-pt",
        rules: &["208.4b", "613.4b"],
        statement: "a creature no setting effect touches has its printed P/T as base P/T, whatever its counters and pumps",
        caught_by: Mutant::BaseIncludesModifications,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: base_pt,
    },
    Invariant {
        name: "noncreature-has-no-pt",
        rules: &["208.3"],
        statement: "a permanent that is not a creature has no power, toughness, total or combat damage",
        caught_by: Mutant::NoncreatureHasPt,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: noncreature_pt,
    },
    Invariant {
        name: "total-and-combat-damage",
        rules: &["107.1b", "510.1a"],
        statement: "total power and toughness is power + toughness with negatives, and the combat damage a creature would assign is max(0, power)",
        caught_by: Mutant::TotalClampsNegative,
        sampling: EVERY,
        closed_form: false,
        holds_in: |r| !r.negative_counts_as_zero,
        check: totals,
    },
    Invariant {
        name: "double-and-triple",
        rules: &["701.10", "701.11", "107.1b"],
        statement: "doubling adds the value and tripling adds twice it, a negative value lowering it where the edition says so (without switch effects, which move the added value to the other side)",
        caught_by: Mutant::DoubleClampsNegative,
        sampling: EVERY,
        closed_form: true,
        holds_in: SETS_FIRST,
        check: scaling,
    },
    Invariant {
        name: "players-lose",
        rules: &["704.5a", "704.5c"],
        statement: "after state-based actions every player at 0 or less life or with 10 or more poison counters has lost",
        caught_by: Mutant::PoisonAtEleven,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: players_lose,
    },
    Invariant {
        name: "granted-pt-ability",
        rules: &["604.3a", "613.4a", "613.4b", "613.1f", "613.7a"],
        statement: "an ability an effect grants that defines P/T is no characteristic-defining ability: granting a creature \"its power and toughness are each N\" changes it exactly as an effect that sets it to N/N at the same time (7b, timestamp order with the other setting effects, not 7a under them); and granting it and then removing all abilities is the same as only removing them (layer 6)",
        caught_by: Mutant::GrantedPtAsCda,
        sampling: QUARTER_OF_TAIL,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: granted_pt_ability,
    },
    Invariant {
        name: "double-counters",
        rules: &["701.10e", "122.6", "122.1"],
        statement: "doubling the counters of a kind on a permanent puts as many more as it has: twice as many afterwards, and none more on a permanent that can't have counters put on it (without counter caps, annihilation partners or Vorinclex-style abilities)",
        caught_by: Mutant::DoubleCountersSetsCount,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: double_counters,
    },
    Invariant {
        name: "shield-counters",
        rules: &["122.1c", "615.6", "120.4b"],
        statement: "a damage step deals no damage to a permanent that had a shield counter, however many sources damage it at once: its marked damage has not grown, it has lost at most one shield counter, and a creature that was alive stays on the battlefield (where nothing else can change its P/T)",
        caught_by: Mutant::ShieldPerSource,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: shield_counters,
    },
    Invariant {
        name: "defeated-battles",
        rules: &["704.5v", "310.7", "310.11b", "120.3h"],
        statement: "after state-based actions no battle on the battlefield has defense 0; a noncreature Siege that loses its last defense counter to damage or to a removal is exiled by its own ability, never put into the graveyard (unless an effect removes its abilities or its battle type)",
        caught_by: Mutant::SiegeToGraveyard,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: defeated_battles,
    },
    Invariant {
        name: "face-down-hides-printed-values",
        rules: &["708.2a", "708.2", "613.2a"],
        statement: "while a permanent set up face down stays face down on the battlefield, its printed values (P/T, keywords, colors, subtypes, abilities) change nothing: the same case with other printed values gives the same observations (a 2/2 with no name or text, whatever is printed; counters and effects apply on top)",
        caught_by: Mutant::FaceDownKeepsPrinted,
        sampling: FOURTH,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: face_down_hides_printed_values,
    },
    Invariant {
        name: "face-up-timestamp",
        rules: &["613.7f", "613.7g", "613.7a", "613.4b", "708.8", "712.8e"],
        statement: "a permanent turned face up or transformed gets a new timestamp, the newest, so a static ability of its own face that sets its P/T applies after every effect created before: its base P/T right after is that value (editions from 2015-07-17; without abilities lost, explicit timestamps or level up)",
        caught_by: Mutant::FaceUpKeepsTimestamp,
        sampling: EVERY,
        closed_form: false,
        holds_in: |r| r.turning_over_takes_timestamp,
        check: face_up_timestamp,
    },
    Invariant {
        name: "exchange",
        rules: &["701.12g", "701.12a", "613.4b", "208.4b"],
        statement: "right after an exchange of two values that are both there, each creature's base power or toughness exchanged (208.4b) is the other value as it was just before, and each life total exchanged is too; if either is not there, nothing changes (without explicit timestamps or P/T conditions)",
        caught_by: Mutant::ExchangeModifies,
        sampling: EVERY,
        closed_form: false,
        holds_in: SETS_FIRST,
        check: exchange_values,
    },
    Invariant {
        name: "prevention-shields",
        rules: &["615.7", "120.4b", "120.8"],
        statement: "at the end of a case, a shield that prevents the next N damage to a creature or player, then D damage to it, leaves the same state as dealing it max(0, D - N) damage: prevented damage has no result, the rest is dealt as usual (without shield counters on it)",
        caught_by: Mutant::PreventionShieldWholeEvent,
        sampling: QUARTER_OF_TAIL,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: prevention_shields,
    },
    Invariant {
        name: "combat-assignment",
        rules: &[
            "510.1a", "510.1b", "510.1c", "510.1d", "510.4", "702.19b", "702.19d", "702.2c",
            "702.4b", "702.7b",
        ],
        statement: "at the end of a case, the first player's untapped creatures attack (the first of them sometimes the other player's planeswalker) and the other player's block them: each combat damage step leaves the same state as explicit assignments computed from the state as the step begins — lethal damage to each blocker in turn counting the damage marked on it and assigned to it so far (1 from deathtouch where 702.2c says so), the rest to the last blocker or, with trample, to the player or planeswalker it attacks; power read again in the second step, which only creatures without first or double strike as the first began, or with double strike now, take part in",
        caught_by: Mutant::TrampleIgnoresMarkedDamage,
        sampling: OTHER_QUARTER_OF_TAIL,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: combat_assignment,
    },
    Invariant {
        name: "removed-from-combat",
        rules: &[
            "506.4", "506.4c", "701.19a", "509.1h", "510.1a", "510.1c", "510.1d", "510.4",
            "702.19b", "702.19e",
        ],
        statement: "at the end of a case, the combat of combat-assignment (its first attacker sometimes attacking the other player's planeswalker) with one of its creatures or that planeswalker removed from combat before the first or the second damage step, by a change of control or by regeneration: each damage step leaves the same state as explicit assignments in which the removed permanent deals and is dealt no combat damage, the attacker it blocked stays blocked (assigning nothing without other blockers, all to what it attacks with trample), an attacker whose planeswalker left assigns nothing unblocked and all its damage among its blockers when blocked, trample or not, and every other attacker still assigns all its power",
        caught_by: Mutant::RemovedFromCombatStillFights,
        sampling: THIRD_QUARTER_OF_TAIL,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: removed_from_combat,
    },
    Invariant {
        name: "copy-ignores-counters-and-effects",
        rules: &["707.2", "613.2a", "122.1a", "613.4c"],
        statement: "at the end of a case, a creature that becomes a copy of another has the same P/T and base P/T whether or not a +1/+1 counter and a +2/+1 effect were put on the original just before: a copy takes copiable values, not counters or effects (without abilities that read values, or objects that act)",
        caught_by: Mutant::CopyKeepsCountersAndPumps,
        sampling: QUARTER_OF_TAIL,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: copy_ignores_counters_and_effects,
    },
];

/// The invariant with this name.
pub fn named(name: &str) -> Option<&'static Invariant> {
    ALL.iter().find(|i| i.name == name)
}
