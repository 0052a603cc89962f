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
mod expect;
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

/// An object: a card or permanent with its printed characteristics and its
/// state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectSpec {
    /// Its handle in this case; it follows the card from zone to zone.
    pub id: Handle,
    /// Its name (default: the handle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Printed card types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<CardType>,
    /// Printed subtypes, e.g. Vehicle, Equipment, Aura.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<String>,
    /// Printed colors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colors: Vec<Color>,
    /// Printed power/toughness: `2/2`, `*/*`, `*/1+*` (208.1, 208.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pt: Option<PrintedPt>,
    /// The characteristic-defining ability that gives each `*` its value (208.2a, 604.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cda: Option<Cda>,
    /// Printed loyalty of a planeswalker (306.5b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<Count>,
    /// Printed defense of a battle (310.4a): it enters with that many
    /// defense counters (310.4b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<Count>,
    /// Mana value (202.3), for an object without a `mana_cost`.
    #[serde(default, skip_serializing_if = "Count::is_zero")]
    pub mana_value: Count,
    /// Printed mana cost (202.1), e.g. `{X}{G/U}{G/U}`. Its mana value
    /// (202.3) counts each {X} as the object's X: the value announced or
    /// defined for it while it is a spell on the stack, 0 anywhere else
    /// (107.3g, 202.3e).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mana_cost: Option<ManaCost>,
    /// For a spell set up on the stack: the value announced for X as it
    /// was cast (107.3a, 601.2b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<Count>,
    /// X defined by the card's text, e.g. "where X is its power" (107.3c):
    /// while it is on the stack, X is this quantity, read whenever it is
    /// needed, so it can change before the spell resolves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_is: Option<Quantity>,
    /// What an instant or sorcery spell does as it resolves (608.2); it is
    /// then put into its owner's graveyard.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "tagged::option::serialize",
        deserialize_with = "tagged::option::deserialize"
    )]
    pub on_resolve: Option<Action>,
    /// "Enters with N counters": its own replacement effect (614.1c,
    /// 122.6), applied whenever it enters the battlefield. Each number is
    /// read as it enters; an X in it is the X of the spell it was (107.3m),
    /// and 0 if it was not cast (107.3g). A negative number gives none
    /// (107.1b).
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::deserialize"
    )]
    pub enters_with: BTreeMap<CounterKind, Quantity>,
    /// Its zone (default: battlefield).
    #[serde(default = "battlefield", skip_serializing_if = "is_battlefield")]
    pub zone: Zone,
    /// Its controller, and owner (default: the first player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<Handle>,
    /// Its timestamp (613.7d; default: its place in the list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<Timestamp>,
    /// Counters on it, by kind (122.1).
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::deserialize"
    )]
    pub counters: BTreeMap<CounterKind, Count>,
    /// Damage marked on it (120.3e).
    #[serde(default, skip_serializing_if = "Count::is_zero")]
    pub damage: Count,
    /// Whether it was dealt damage by a deathtouch source since the last state-based-action check (704.5h).
    #[serde(default, skip_serializing_if = "is_false")]
    pub deathtouch_damage: bool,
    /// Regeneration shields on it (701.19).
    #[serde(default, skip_serializing_if = "Count::is_zero")]
    pub regeneration_shields: Count,
    /// Whether it is tapped.
    #[serde(default, skip_serializing_if = "is_false")]
    pub tapped: bool,
    /// Printed keyword abilities.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<Keyword>,
    /// Printed static abilities: each is a continuous effect with a live affected set (611.3, 613.7a).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<EffectSpec>,
    /// Level up bands: base P/T by number of level counters (107.8, 702.87).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub level_up: Vec<LevelBand>,
    /// Crew N: a Vehicle's crew ability (702.122).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crew: Option<Count>,
    /// The permanent it is attached to (an Aura or Equipment, 301.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_to: Option<Handle>,
    /// "Can't have more than N counters of a kind" (122.4, 704.5r).
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::deserialize"
    )]
    pub max_counters: BTreeMap<CounterKind, Count>,
    /// "As this enters, choose …": the P/T values (and keywords) its
    /// controller chooses among as it enters the battlefield (208.2b).
    /// Off the battlefield such a card's power and toughness are 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enters_as: Vec<EntryChoice>,
    /// Which of `enters_as` is chosen, by its P/T: at setup on the
    /// battlefield, and whenever it enters without its step saying
    /// otherwise (default: the first). For an object set up as a `copy`,
    /// the option it chose among those of the copied text as it entered
    /// (707.5, 707.6), required when that text has such an ability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choose: Option<crate::number::Pt>,
    /// Whether it came under its controller's control after their most
    /// recent turn began (it entered or changed control this turn): while
    /// it is a creature without haste it can't attack or use {T} abilities
    /// (302.6, 702.10). A permanent set up without it has been controlled
    /// continuously since that turn began.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sick: bool,
    /// A permanent set up face down (a morph, manifest or disguise
    /// creature, 708): until it is turned face up it is a 2/2 creature with
    /// no name, text, subtypes or mana cost, whatever is printed (708.2a),
    /// and "as this enters" abilities had no effect on it (708.3, 708.8).
    #[serde(default, skip_serializing_if = "is_false")]
    pub face_down: bool,
    /// A permanent set up as a copy of an object listed before it (Clone
    /// that entered as a copy, 707.2): its copiable values are that
    /// object's as the setup is made, in layer 1 (613.2a), with its own
    /// `choose` if the copied text has an "as this enters" choice (707.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy: Option<CopyOf>,
    /// The back face of a transforming double-faced card (712.2): the
    /// characteristics it has while transformed (712.8e), after a
    /// `transform` step. Its mana value stays the front face's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_face: Option<Box<BackFace>>,
    /// A Saga's chapter abilities (714.2, 107.15): each triggers when lore
    /// counters put on it reach one of its chapter numbers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chapters: Vec<Chapter>,
    /// "When the Nth KIND counter is put on this" abilities (122.7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counter_triggers: Vec<CounterTrigger>,
    /// "This can't have counters put on it" (Melira's Keepers): a static
    /// ability. While the permanent has it, no counter is put on it, also
    /// as it enters (122.6) or as one is moved onto it (122.5).
    #[serde(default, skip_serializing_if = "is_false")]
    pub cant_have_counters_put: bool,
    /// A static ability that changes how many counters a player puts on a
    /// permanent or player, by who puts them (Vorinclex, Monstrous Raider:
    /// `{ you: twice, opponents: half-down }`; 614.1a, 122.6a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counters_put_by: Option<CountersPutBy>,
    /// The printed values in which this object deliberately differs from
    /// the real card it is named after (the card-data check of
    /// rulings/README.md, "Card names"); the resolver ignores it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differs_from_card: Vec<CardField>,
}

/// A printed value of a real card that an object may declare it does not
/// share (`differs_from_card`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardField {
    /// Its printed power and toughness.
    Pt,
    /// Its card types.
    Types,
    /// Its subtypes.
    Subtypes,
    /// Its mana cost.
    ManaCost,
    /// Its keywords.
    Keywords,
}

/// How many counters a player puts instead, by whether that player controls
/// the object with the ability (`you`) or is an opponent (`opponents`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountersPutBy {
    /// When its controller would put counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<CounterScale>,
    /// When an opponent of its controller would put counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponents: Option<CounterScale>,
}

/// How a number of counters about to be put is changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CounterScale {
    /// Twice that many.
    Twice,
    /// Half that many, rounded down (107.1a).
    HalfDown,
}

impl fmt::Display for CounterScale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CounterScale::Twice => "twice that many of each kind",
            CounterScale::HalfDown => "half that many of each kind (rounded down)",
        })
    }
}

/// A chapter ability: `{rN}` or `{rN1}, {rN2}` — EFFECT (107.15a, 107.15b).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Chapter {
    /// Its chapter numbers (1 for I, 2 for II, …).
    pub at: Vec<Count>,
    /// What it does when it resolves.
    #[serde(
        rename = "do",
        serialize_with = "tagged::serialize",
        deserialize_with = "tagged::deserialize"
    )]
    pub action: Action,
    /// Its name, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// "When the Nth KIND counter is put on this, EFFECT" (122.7): it
/// triggers when counters of that kind are put on it and it had fewer than
/// N before and N or more after.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterTrigger {
    /// The kind of counter.
    pub kind: CounterKind,
    /// N.
    pub nth: Count,
    /// What it does when it resolves.
    #[serde(
        rename = "do",
        serialize_with = "tagged::serialize",
        deserialize_with = "tagged::deserialize"
    )]
    pub action: Action,
    /// Its name, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
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

impl ObjectSpec {
    /// An object with handle `id` and nothing else: no name, no types, no
    /// P/T, on the battlefield, nothing on it; the generators fill in the
    /// rest.
    pub fn new(id: Handle) -> ObjectSpec {
        ObjectSpec {
            id,
            name: None,
            types: Vec::new(),
            subtypes: Vec::new(),
            colors: Vec::new(),
            pt: None,
            cda: None,
            loyalty: None,
            defense: None,
            mana_value: Count(0),
            zone: Zone::Battlefield,
            controller: None,
            timestamp: None,
            counters: BTreeMap::new(),
            damage: Count(0),
            deathtouch_damage: false,
            regeneration_shields: Count(0),
            tapped: false,
            keywords: Vec::new(),
            abilities: Vec::new(),
            level_up: Vec::new(),
            crew: None,
            attached_to: None,
            max_counters: BTreeMap::new(),
            chapters: Vec::new(),
            counter_triggers: Vec::new(),
            enters_as: Vec::new(),
            mana_cost: None,
            x: None,
            x_is: None,
            on_resolve: None,
            enters_with: BTreeMap::new(),
            choose: None,
            sick: false,
            face_down: false,
            copy: None,
            back_face: None,
            cant_have_counters_put: false,
            counters_put_by: None,
            differs_from_card: Vec::new(),
        }
    }

    /// Its name: the given one, or its handle.
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.id.0)
    }

    /// The first of its fields that a copy effect would have to copy and
    /// the model does not (707.2): the abilities it models outside
    /// `abilities`, `keywords`, `cda`, `level_up` and `enters_as`. A case
    /// may not copy such an object, nor make one a copy.
    pub fn copy_unmodelled(&self) -> Option<&'static str> {
        [
            (self.crew.is_some(), "crew"),
            (!self.chapters.is_empty(), "chapters"),
            (!self.counter_triggers.is_empty(), "counter_triggers"),
            (!self.enters_with.is_empty(), "enters_with"),
            (!self.max_counters.is_empty(), "max_counters"),
            (self.cant_have_counters_put, "cant_have_counters_put"),
            (self.counters_put_by.is_some(), "counters_put_by"),
            (self.loyalty.is_some(), "loyalty"),
            (self.defense.is_some(), "defense"),
            (self.on_resolve.is_some(), "on_resolve"),
            (self.x_is.is_some(), "x_is"),
        ]
        .into_iter()
        .find(|(has, _)| *has)
        .map(|(_, f)| f)
    }

    /// Every static ability it can have: its `abilities`, then those of
    /// its level bands (107.8a), whether or not a band applies now.
    pub fn static_abilities(&self) -> impl Iterator<Item = &EffectSpec> {
        self.abilities
            .iter()
            .chain(self.level_up.iter().flat_map(|b| &b.abilities))
            .chain(self.back_face.iter().flat_map(|b| &b.abilities))
    }
}

/// The back face of a transforming double-faced card (712.2, 712.8e):
/// everything it prints that the model reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BackFace {
    /// Its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its card types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<CardType>,
    /// Its subtypes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<String>,
    /// Its colors (a color indicator, 204).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colors: Vec<Color>,
    /// Its printed power and toughness: numbers only (no `*`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pt: Option<crate::number::Pt>,
    /// Its keyword abilities.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<Keyword>,
    /// Its static abilities (as an object's `abilities`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<EffectSpec>,
}

/// A characteristic-defining ability that says what each `*` is (208.2a).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cda {
    /// The value of `*` in its power.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<Quantity>,
    /// The value of `*` in its toughness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toughness: Option<Quantity>,
}

impl Cda {
    /// The ability in words, as an effect grants it: `its power is X and
    /// its toughness is Y`.
    pub fn granted_text(&self) -> String {
        match (&self.power, &self.toughness) {
            (Some(p), Some(t)) if p == t => {
                format!("this creature's power and toughness are each equal to {p}")
            }
            (Some(p), Some(t)) => {
                format!("this creature's power is equal to {p} and its toughness to {t}")
            }
            (Some(p), None) => format!("this creature's power is equal to {p}"),
            (None, Some(t)) => format!("this creature's toughness is equal to {t}"),
            (None, None) => "nothing".into(),
        }
    }
}

/// One of the values an "as this enters, choose" ability lists (208.2b):
/// a P/T, and the keywords that come with it (Primal Clay's `2/2` with
/// flying). Both become part of the permanent's copiable values (613.2a).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EntryChoice {
    /// The power and toughness it enters as.
    pub pt: crate::number::Pt,
    /// Keywords it has with that choice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<Keyword>,
}

impl ObjectSpec {
    /// The option of `enters_as` that is chosen when `choose` (a step's
    /// choice, else the object's own) names it by P/T; the first option
    /// otherwise. `None` when the card has no such ability.
    pub fn entry_choice(&self, choose: Option<crate::number::Pt>) -> Option<usize> {
        if self.enters_as.is_empty() {
            return None;
        }
        let wanted = choose.or(self.choose);
        Some(
            wanted
                .and_then(|pt| self.enters_as.iter().position(|o| o.pt == pt))
                .unwrap_or(0),
        )
    }
}

/// One level-up band: `{LEVEL min-max} P/T` or, without max, `{LEVEL min+} P/T` (107.8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LevelBand {
    /// The fewest level counters of the band.
    pub min: Count,
    /// The most level counters of the band (none: open-ended, `N+`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<Count>,
    /// Its base P/T, set in layer 7b.
    pub pt: crate::number::Pt,
    /// Keywords it has while in the band (layer 6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<Keyword>,
    /// Static abilities it has while in the band (107.8a), written as an
    /// object's `abilities`: the creature's timestamp (613.7a), a live
    /// affected set (611.3a).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<EffectSpec>,
}

impl LevelBand {
    /// Whether `levels` level counters fall in the band.
    pub fn contains(&self, levels: i64) -> bool {
        levels >= self.min.0 && self.max.is_none_or(|m| levels <= m.0)
    }
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

/// The mana in a pool, by type (106.4).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct ManaPool(pub BTreeMap<Mana, Count>);

// Read without its zero entries: `{G: 0}` is the empty pool, and written
// as such (found by the protocol fuzz target, where it did not read back).
impl<'de> Deserialize<'de> for ManaPool {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ManaPool, D::Error> {
        unique::deserialize(d).map(|m| ManaPool(m).normalized())
    }
}

impl ManaPool {
    /// Whether it holds no mana.
    pub fn is_empty(&self) -> bool {
        self.0.values().all(|c| c.0 == 0)
    }

    /// The pool without zero entries, for comparing.
    pub fn normalized(&self) -> ManaPool {
        ManaPool(
            self.0
                .iter()
                .filter(|(_, c)| c.0 != 0)
                .map(|(m, c)| (*m, *c))
                .collect(),
        )
    }
}

impl fmt::Display for ManaPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.normalized();
        if n.0.is_empty() {
            return f.write_str("empty");
        }
        for (i, (m, c)) in n.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}{{{m}}}", c.0)?;
        }
        Ok(())
    }
}

/// A number of things: an integer from 0 to 2^63-1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Count(pub i64);

impl Count {
    /// Whether it is zero.
    pub fn is_zero(&self) -> bool {
        self.0 == 0
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number from 0 to 9223372036854775807")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Count, E> {
                if v < 0 {
                    Err(E::custom(format!("{v} is negative; a count is 0 or more")))
                } else {
                    Ok(Count(v))
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Count, E> {
                i64::try_from(v).map(Count).map_err(|_| {
                    E::custom(format!(
                        "{v} is too large; a count is at most 9223372036854775807 (2^63-1)"
                    ))
                })
            }
            fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Count, E> {
                Err(E::custom(format!(
                    "{v} is too large; a count is at most 9223372036854775807 (2^63-1)"
                )))
            }
            fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Count, E> {
                Err(E::custom(format!(
                    "{v} is out of range; a count is a whole number from 0 to 9223372036854775807"
                )))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Count, E> {
                Err(E::custom(format!(
                    "{v} is not a whole number; the game uses only integers (107.1a), and a count is from 0 to 9223372036854775807"
                )))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for Count {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Count".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "integer",
            "minimum": 0,
            "maximum": i64::MAX,
        })
    }
    fn inline_schema() -> bool {
        true
    }
}

/// A timestamp (613.7): a positive integer; later is larger.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(transparent)]
pub struct Timestamp(pub Count);

/// The handle of an object or a player within one case: a letter or `_`,
/// then letters, digits, `_` or `-`. Shared, so observations copy it cheaply.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Handle(pub std::sync::Arc<str>);

impl Handle {
    /// The handle as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Handle {
    type Err = String;
    fn from_str(s: &str) -> Result<Handle, String> {
        let ok = !s.is_empty()
            && s.len() <= 64
            && s.bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !ok {
            return Err(format!(
                "invalid handle `{s}`: a handle is a letter or `_`, then letters, digits, `_` or `-` (at most 64)"
            ));
        }
        if s == "self" || s == "attached" {
            return Err(format!("`{s}` is reserved and can't be a handle"));
        }
        Ok(Handle(s.into()))
    }
}

string_serde!(
    Handle,
    "Handle",
    "^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
    "the handle of an object or player in this case"
);

/// A case id: lowercase letters, digits and `.`, `/`, `_`, `-`, `+`; e.g.
/// `613.5/gray-ogre`. Ids are immutable and never reused.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CaseId(pub String);

impl fmt::Display for CaseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for CaseId {
    type Err = String;
    fn from_str(s: &str) -> Result<CaseId, String> {
        let ok = !s.is_empty()
            && s.len() <= 120
            && s.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b".-_/+".contains(&b));
        if ok {
            Ok(CaseId(s.to_string()))
        } else {
            Err(format!(
                "invalid case id `{s}`: use lowercase letters, digits, `.`, `/`, `_`, `-`, `+` (e.g. 613.5/gray-ogre)"
            ))
        }
    }
}

string_serde!(
    CaseId,
    "CaseId",
    "^[a-z0-9][a-z0-9._/+-]{0,119}$",
    "an immutable case id such as 613.5/gray-ogre"
);

/// A Comprehensive Rules citation: `613`, `613.4`, `613.4c`, `704.5aa`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleRef {
    text: String,
    key: (u16, u32, String),
}

impl RuleRef {
    /// The citation as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl PartialOrd for RuleRef {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RuleRef {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.key.0, self.key.1, self.key.2.len(), &self.key.2).cmp(&(
            other.key.0,
            other.key.1,
            other.key.2.len(),
            &other.key.2,
        ))
    }
}

impl fmt::Display for RuleRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for RuleRef {
    type Err = String;
    fn from_str(s: &str) -> Result<RuleRef, String> {
        let bad = || {
            format!(
                "invalid rule citation `{s}`: expected a CR rule number such as 613, 613.4 or 613.4c"
            )
        };
        let (section, rest) = match s.split_once('.') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        };
        if section.len() != 3 || !section.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let section: u16 = section.parse().map_err(|_| bad())?;
        let (number, letters) = match rest {
            None => (0, String::new()),
            Some(r) => {
                let digits: String = r.chars().take_while(|c| c.is_ascii_digit()).collect();
                let letters = &r[digits.len()..];
                if digits.is_empty()
                    || digits.len() > 4
                    || letters.len() > 2
                    || !letters.bytes().all(|b| b.is_ascii_lowercase())
                {
                    return Err(bad());
                }
                (digits.parse().map_err(|_| bad())?, letters.to_string())
            }
        };
        Ok(RuleRef {
            text: s.to_string(),
            key: (section, number, letters),
        })
    }
}

string_serde!(
    RuleRef,
    "RuleRef",
    "^[0-9]{3}(\\.[0-9]{1,4}[a-z]{0,2})?$",
    "a Comprehensive Rules citation such as 613.4c"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_sort_by_number_not_text() {
        let mut v: Vec<RuleRef> = ["704.5q", "704.5aa", "613.10", "613.4c", "613.4", "107.1b"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        v.sort();
        let s: Vec<_> = v.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            s,
            ["107.1b", "613.4", "613.4c", "613.10", "704.5q", "704.5aa"]
        );
    }

    #[test]
    fn handles() {
        assert!("ogre".parse::<Handle>().is_ok());
        assert!("self".parse::<Handle>().is_err());
        assert!("1ogre".parse::<Handle>().is_err());
    }
}
