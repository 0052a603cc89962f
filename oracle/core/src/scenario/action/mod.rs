//! The actions a step can do, and the effect specification shared by
//! resolved effects and static abilities.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::{Deserialize, Serialize};

use super::{Cda, Count, Filter, Handle, Quantity, Timestamp};
use crate::cost::ManaCost;
use crate::number::{ModPt, SetPt};
use crate::terms::{CardType, Color, CounterKind, Keyword, Mana, Zone};

mod combat;
mod costs;
mod counters;
mod effect;
mod objects;

pub use combat::{AttackDeclaration, CombatAssignment, Damage, DamageStep, Prevention};
pub use costs::{Cast, CostPayment, ManaAbility};
pub use counters::{
    CounterDouble, CounterMove, CounterPut, CounterRemove, CountersFrom, Scale, ScaleWhat,
};
pub use effect::{Affects, EffectSpec, Exchange, Exchanged, Until};
pub use objects::{Attach, CopyOf, CopyStep, Crew, GainControl, MoveZone};

/// What a step does. Each is one event after which state-based actions are
/// checked (704.3), unless the step says `sba: false`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Put counters on an object or player (122.1, 122.6).
    PutCounters(CounterPut),
    /// Remove counters from an object (as many as it has, up to `count`).
    RemoveCounters(CounterRemove),
    /// Double the number of counters of a kind on an object or a player:
    /// put on it as many as it has (701.10e).
    DoubleCounters(CounterDouble),
    /// Move counters from one object to another (122.5).
    MoveCounters(CounterMove),
    /// Put one object's counters on another: moved while it is on the
    /// battlefield, the same number of each kind (from its last known
    /// information) once it has left (122.8).
    PutCountersFrom(CountersFrom),
    /// A resolved spell or ability creates a continuous effect (611.2).
    Effect(Box<EffectSpec>),
    /// A source deals noncombat damage (120.3).
    Damage(Damage),
    /// A resolved spell or ability creates a prevention shield: "prevent
    /// the next N damage that would be dealt to it this turn" (615.7).
    Prevent(Prevention),
    /// Combat damage, all assignments dealt at once (510.1a, 510.2).
    CombatDamage(Vec<CombatAssignment>),
    /// Declare attackers and blockers (508.1, 509.1): the combat that the
    /// `combat_damage_step` steps play out. Each attacker without vigilance
    /// taps (508.1f). A new `attack` starts a new combat.
    Attack(Vec<AttackDeclaration>),
    /// The next combat damage step of the declared combat (510): the
    /// first-strike step if a creature in combat has first strike or double
    /// strike as it begins, else the regular one (510.4, 702.4b, 702.7b).
    /// Each creature assigns damage by the rules: lethal damage to each
    /// blocker in turn, the rest to the last, or to the player or
    /// planeswalker attacked with trample (510.1, 702.19b, 702.2c). After
    /// the last damage step, combat is over (511.3).
    CombatDamageStep(DamageStep),
    /// A mana ability adds mana; its amount is read as it resolves (608.2h, 107.1b).
    AddMana(ManaAbility),
    /// A player pays a mana cost with mana from their pool and, for
    /// Phyrexian symbols, life (107.4, 118.3, 119.4).
    PayCost(CostPayment),
    /// A player casts a spell: the card moves to the stack as a new object
    /// (601.2a, 400.7) and its controller announces X (601.2b, 107.3a).
    /// Nothing is paid (a `pay_cost` step with `cost_of` pays).
    Cast(Cast),
    /// The spell on the stack resolves (608.2): an instant or sorcery does
    /// what its `on_resolve` says and is put into its owner's graveyard; a
    /// permanent spell becomes a permanent on the battlefield under its
    /// controller's control (608.3).
    Resolve(Handle),
    /// Double a creature's power and/or toughness (701.10).
    Double(Scale),
    /// Triple a creature's power and/or toughness (701.11).
    Triple(Scale),
    /// Exchange two numerical values (701.12a, 701.12g): powers,
    /// toughnesses and life totals. Each becomes the other's value before
    /// the exchange; a power or toughness through an effect that sets it
    /// in 7b (613.4b), a life total by gaining or losing life. If either
    /// value is not there (an object that is not a creature on the
    /// battlefield), nothing is exchanged.
    Exchange(Exchange),
    /// A permanent becomes a copy of another object (707.2; Cytoshape):
    /// its copiable values become the other's, in layer 1 (613.2a). It is
    /// the same object: its counters, damage and the effects on it stay.
    Copy(CopyStep),
    /// Give a permanent a regeneration shield (701.19).
    Regenerate(Handle),
    /// Destroy a permanent (701.8): regeneration and indestructible apply.
    Destroy(Handle),
    /// Move an object to another zone: it becomes a new object (400.7).
    Move(MoveZone),
    /// Attach an Aura or Equipment to a permanent (701.3); it gets a new timestamp (613.7e), unless it is already attached to that permanent: then nothing happens (701.3b).
    Attach(Attach),
    /// Crew a Vehicle by tapping creatures with total power N or more (702.122).
    Crew(Crew),
    /// A player gains control of a permanent, indefinitely (layer 2, 613.1b).
    GainControl(GainControl),
    /// Turn a face-down permanent face up (708.8): its copiable values
    /// become its printed ones, the effects and counters on it stay, and it
    /// gets a new timestamp where the edition says so (613.7f). A face-up
    /// permanent stays as it is (609.3), and so does a face-down instant or
    /// sorcery card, which is revealed and left face down (701.40g,
    /// 701.58g).
    TurnFaceUp(Handle),
    /// Turn a face-up permanent face down (708.2a): it becomes a 2/2
    /// creature with no name, text, subtypes or mana cost, and gets a new
    /// timestamp where the edition says so (613.7f). A face-down permanent
    /// stays as it is (708.2b).
    TurnFaceDown(Handle),
    /// Transform a double-faced permanent (701.27): its other face is up,
    /// with that face's characteristics (712.8d, 712.8e); it is the same
    /// object, and gets a new timestamp where the edition says so (613.7g).
    /// Nothing happens to a permanent with no back face (701.27c) or a
    /// face-down one (712.15a).
    Transform(Handle),
    /// A player's turn begins: the permanents they control have now been
    /// under their control continuously since it began (302.6). Nothing
    /// else of the turn is played (no untap step).
    BeginTurn(Handle),
    /// The cleanup step: remove all damage, end "until end of turn" effects (514.2).
    Cleanup,
    /// Check state-based actions, and nothing else (704.3).
    StateBasedActions,
}

impl Action {
    /// Every key an action is written under ([`Action::key`]).
    pub const KEYS: &'static [&'static str] = &[
        "put_counters",
        "remove_counters",
        "double_counters",
        "move_counters",
        "put_counters_from",
        "effect",
        "damage",
        "prevent",
        "combat_damage",
        "attack",
        "combat_damage_step",
        "add_mana",
        "pay_cost",
        "cast",
        "resolve",
        "double",
        "triple",
        "exchange",
        "copy",
        "regenerate",
        "destroy",
        "move",
        "attach",
        "crew",
        "gain_control",
        "turn_face_up",
        "turn_face_down",
        "transform",
        "begin_turn",
        "cleanup",
        "state_based_actions",
    ];

    /// The key this action is written under, e.g. `put_counters`.
    pub fn key(&self) -> &'static str {
        match self {
            Action::PutCounters(_) => "put_counters",
            Action::RemoveCounters(_) => "remove_counters",
            Action::DoubleCounters(_) => "double_counters",
            Action::MoveCounters(_) => "move_counters",
            Action::PutCountersFrom(_) => "put_counters_from",
            Action::Effect(_) => "effect",
            Action::Damage(_) => "damage",
            Action::Prevent(_) => "prevent",
            Action::CombatDamage(_) => "combat_damage",
            Action::Attack(_) => "attack",
            Action::CombatDamageStep(_) => "combat_damage_step",
            Action::AddMana(_) => "add_mana",
            Action::PayCost(_) => "pay_cost",
            Action::Cast(_) => "cast",
            Action::Resolve(_) => "resolve",
            Action::Double(_) => "double",
            Action::Triple(_) => "triple",
            Action::Exchange(_) => "exchange",
            Action::Copy(_) => "copy",
            Action::Regenerate(_) => "regenerate",
            Action::Destroy(_) => "destroy",
            Action::Move(_) => "move",
            Action::Attach(_) => "attach",
            Action::Crew(_) => "crew",
            Action::GainControl(_) => "gain_control",
            Action::TurnFaceUp(_) => "turn_face_up",
            Action::TurnFaceDown(_) => "turn_face_down",
            Action::Transform(_) => "transform",
            Action::BeginTurn(_) => "begin_turn",
            Action::Cleanup => "cleanup",
            Action::StateBasedActions => "state_based_actions",
        }
    }
}

fn one() -> Count {
    Count(1)
}

fn is_one(c: &Count) -> bool {
    c.0 == 1
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn join<T: fmt::Display>(items: &[T], sep: &str) -> String {
    items
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}
