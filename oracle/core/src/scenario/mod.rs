//! The scenario: one case of the corpus, a generated case, a shrunk
//! counterexample or a request of the engine protocol. One type for all.
//!
//! A [`Case`] has an immutable id, the CR rules it exercises, a setup (the
//! players and objects of a small game state) and ordered steps; each step
//! does one [`Action`] and may state partial expectations about the state
//! that follows. The types here are the format; they hold no game logic.
//! [`validate`] checks what the types cannot say (references, shapes of
//! effects), and the resolver in [`crate::resolver`] plays it.

mod action;
mod count;
mod expect;
mod ids;
mod object;
mod quantity;
pub(crate) mod tagged;
pub(crate) mod unique;
mod validate;

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use action::{
    Action, Affects, Attach, AttackDeclaration, Cast, CombatAssignment, CopyOf, CopyStep,
    CostPayment, CounterDouble, CounterMove, CounterPut, CounterRemove, CountersFrom, Crew, Damage,
    DamageStep, EffectSpec, Exchange, Exchanged, GainControl, ManaAbility, MoveZone, Prevention,
    Scale, ScaleWhat, Until,
};
pub use expect::{Expect, PtOrNone};
pub use quantity::{CountersOn, Filter, Half, Quantity, QuantityRef, Round};
pub use validate::{
    MAX_EARLY_EFFECTS, MAX_EFFECTS, MAX_OBJECTS, MAX_OBSERVATIONS, MAX_STEPS, MAX_WORK, Size,
    validate,
};

use crate::cost::ManaCost;
use crate::edition::EditionRange;
use crate::number::{PrintedPt, string_serde};
use crate::terms::{CardType, Color, CounterKind, Keyword, Mana, Zone};
pub use count::{Count, ManaPool, Timestamp};
pub use ids::{CaseId, Handle, RuleRef};
pub use object::{
    BackFace, CardField, Cda, Chapter, CounterScale, CounterTrigger, CountersPutBy, EntryChoice,
    LevelBand, ObjectSpec,
};

/// One case: a small game state, steps, and what must hold after them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Immutable id, never reused: `<rule>/<slug>`, e.g. `107.1b/three-four-gets-minus-five`.
    pub id: CaseId,
    /// One line saying what the case shows, in our own words.
    pub title: String,
    /// A longer explanation: the reasoning a judge would give.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The CR rules it exercises, e.g. ["613.4b", "613.4c"].
    pub rules: Vec<RuleRef>,
    /// The editions of the rules it holds in (default: every edition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub editions: Option<EditionRange>,
    /// For a ruling written by `ptoracle explore`: how it was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    /// The state before the first step.
    pub setup: Setup,
    /// What happens, in order; each step may check the state after it. At
    /// most 10000 steps, one of the limits on a case's size.
    #[schemars(length(max = MAX_STEPS))]
    pub steps: Vec<Step>,
}

impl Case {
    /// Everything the case can do: each step's action, then the actions of
    /// the objects' triggered abilities (Saga chapters, Nth-counter
    /// triggers) and spells (`on_resolve`), which happen inside whichever
    /// step triggers or resolves them.
    pub fn actions(&self) -> impl Iterator<Item = &Action> {
        let triggered = self.setup.objects.iter().flat_map(|o| {
            o.chapters
                .iter()
                .map(|c| &c.action)
                .chain(o.counter_triggers.iter().map(|t| &t.action))
                .chain(&o.on_resolve)
        });
        self.steps.iter().map(|s| &s.action).chain(triggered)
    }
}

/// How `ptoracle explore` found a ruling: enough to find it again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Origin {
    /// The invariant it violated (`agrees-with-reference` for a
    /// disagreement the gate found with an engine).
    pub invariant: String,
    /// The campaign's seed.
    pub seed: u64,
    /// The index of the case in the campaign's stream.
    pub index: u64,
    /// The edition the campaign ran under.
    pub edition: String,
    /// The deliberately broken resolver the campaign ran against, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutant: Option<String>,
    /// The engine, name and version, the gate found it in, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

/// The state before the first step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The players (default: `you` and `opponent`, 20 life each). The first is the active player.
    #[serde(
        default = "default_players",
        skip_serializing_if = "is_default_players"
    )]
    pub players: Vec<PlayerSpec>,
    /// The objects: cards and permanents, in any zone. At most 10000, one
    /// of the limits on a case's size.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = MAX_OBJECTS))]
    pub objects: Vec<ObjectSpec>,
}

fn default_players() -> Vec<PlayerSpec> {
    ["you", "opponent"]
        .into_iter()
        .map(|id| PlayerSpec {
            id: Handle(id.into()),
            life: 20,
            poison: Count(0),
            hand: Count(0),
            mana: ManaPool::default(),
            snow_mana: ManaPool::default(),
        })
        .collect()
}

fn is_default_players(p: &[PlayerSpec]) -> bool {
    p == default_players().as_slice()
}

/// A player (102).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    /// Its handle in this case.
    pub id: Handle,
    /// Life total (default 20; may be 0 or negative, 704.5a).
    #[serde(default = "twenty", skip_serializing_if = "is_twenty")]
    pub life: i64,
    /// Poison counters (122.1f).
    #[serde(default, skip_serializing_if = "Count::is_zero")]
    pub poison: Count,
    /// Cards in hand that are not objects of the case (they count for hand size).
    #[serde(default, skip_serializing_if = "Count::is_zero")]
    pub hand: Count,
    /// Mana in the pool.
    #[serde(default, skip_serializing_if = "ManaPool::is_empty")]
    pub mana: ManaPool,
    /// The part of `mana` that snow sources made, by type: it can pay `{S}` (107.4h).
    #[serde(default, skip_serializing_if = "ManaPool::is_empty")]
    pub snow_mana: ManaPool,
}

fn twenty() -> i64 {
    20
}

fn is_twenty(v: &i64) -> bool {
    *v == 20
}

fn battlefield() -> Zone {
    Zone::Battlefield
}

fn is_battlefield(z: &Zone) -> bool {
    *z == Zone::Battlefield
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_true(b: &bool) -> bool {
    *b
}

fn yes() -> bool {
    true
}

/// One step: an action, then (by default) state-based actions, then
/// expectations about the state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// What happens.
    #[serde(
        rename = "do",
        serialize_with = "tagged::serialize",
        deserialize_with = "tagged::deserialize"
    )]
    pub action: Action,
    /// Whether state-based actions (and the triggers they cause) are performed after it (704.3). Default true.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub sba: bool,
    /// What must hold afterwards, by object or player handle. Only the fields given are compared.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::deserialize"
    )]
    pub expect: BTreeMap<Handle, Expect>,
    /// Expectations that replace `expect` in some editions, by edition range
    /// (e.g. `"..2007-05"`): for a ruling whose outcome changed with the rules.
    /// The ranges must not overlap.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::deserialize"
    )]
    pub expect_in: BTreeMap<EditionRange, BTreeMap<Handle, Expect>>,
    /// The error this step must end with, instead of a state (only on the last step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_error: Option<ErrorCode>,
    /// A remark for readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Step {
    /// What must hold after this step under `edition`: the `expect_in` entry
    /// whose range holds `edition`, or else `expect`.
    ///
    /// ```
    /// let case: ptoracle_core::Case = serde_json::from_str(r#"{
    ///   "id": "x/y", "title": "t", "rules": ["107.1b"],
    ///   "setup": { "objects": [ { "id": "c", "types": ["Creature"], "pt": "2/2" } ] },
    ///   "steps": [ { "do": "state_based_actions",
    ///                "expect": { "c": { "pt": "2/2" } },
    ///                "expect_in": { "..2007-05": { "c": { "pt": "2/2", "total": 4 } } } } ]
    /// }"#).unwrap();
    /// let old = ptoracle_core::Edition::parse("1999-04").unwrap();
    /// assert_eq!(case.steps[0].expect_for(old).len(), 1);
    /// let now = case.steps[0].expect_for(ptoracle_core::Edition::current());
    /// assert!(now.values().all(|e| e.total.is_none()));
    /// ```
    pub fn expect_for(&self, edition: crate::Edition) -> &BTreeMap<Handle, Expect> {
        self.expect_in
            .iter()
            .find(|(r, _)| r.contains(edition))
            .map_or(&self.expect, |(_, e)| e)
    }

    /// Whether it expects anything, in any edition.
    pub fn expects_anything(&self) -> bool {
        !self.expect.is_empty() || !self.expect_in.is_empty() || self.expect_error.is_some()
    }

    /// Forgets every expectation (for a scenario sent to an engine, or a
    /// ruling whose expectations are about to be written anew).
    pub fn clear_expectations(&mut self) {
        self.expect.clear();
        self.expect_in.clear();
        self.expect_error = None;
    }
}

/// An error a step may be expected to end with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// A game value does not fit in a 64-bit integer (107.1).
    Overflow,
    /// State-based actions and their triggers never settle (704.3).
    NoFixpoint,
}

impl ErrorCode {
    /// The code as written.
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::Overflow => "overflow",
            ErrorCode::NoFixpoint => "no-fixpoint",
        }
    }
}
