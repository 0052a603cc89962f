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

/// Put `count` counters of a kind on an object or a player (poison only).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterPut {
    /// The object or player.
    pub on: Handle,
    /// The kind of counter.
    pub kind: CounterKind,
    /// How many (default 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: Count,
    /// The player who puts them (default: the first player; in a
    /// triggered ability, its controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Handle>,
}

/// Double the number of counters of a kind on an object, or of poison
/// counters on a player (701.10e): as many more are put on it as it has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterDouble {
    /// The object or player.
    pub on: Handle,
    /// The kind of counter.
    pub kind: CounterKind,
    /// The player who puts them (default: the first player; in a
    /// triggered ability, its controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Handle>,
}

/// Remove up to `count` counters of a kind from an object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterRemove {
    /// The object.
    pub from: Handle,
    /// The kind of counter.
    pub kind: CounterKind,
    /// How many at most (default 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: Count,
}

/// Move counters of a kind from one permanent to another (122.5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterMove {
    /// Where the counters are.
    pub from: Handle,
    /// Where they go.
    pub to: Handle,
    /// The kind of counter.
    pub kind: CounterKind,
    /// How many (default 1); each counter moves only if it can.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: Count,
    /// The player who moves them, and so puts them on `to` (default: the
    /// first player; in a triggered ability, its controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Handle>,
}

/// "Put its counters on …": every kind, or the kinds listed (122.8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountersFrom {
    /// The object whose counters they are (it may have left the battlefield).
    pub from: Handle,
    /// The permanent that gets them.
    pub to: Handle,
    /// Only these kinds (default: every kind it had).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<CounterKind>,
    /// The player who puts them (default: the first player; in a
    /// triggered ability, its controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Handle>,
}

fn one() -> Count {
    Count(1)
}

fn is_one(c: &Count) -> bool {
    c.0 == 1
}

/// A continuous effect: from a resolved spell or ability (a step's
/// `effect:`), or from a static ability (an object's `abilities:`).
///
/// Each part applies in its own layer (613.6): `add_types`/`remove_types` in
/// 4, `set_colors` in 5, keywords and `remove_all_abilities` in 6, `set` in
/// 7b, `modify` in 7c, `switch` in 7d.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EffectSpec {
    /// The name of the spell or ability, for explanations (e.g. Giant Growth).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The object that is its source (resolved effects only; needed for `until: source-leaves`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Handle>,
    /// What it affects: a list of objects or a filter (locked as it resolves, 611.2c),
    /// or, for a static ability, `self`, `attached` or a filter (live, 611.3a).
    pub affects: Affects,
    /// How long it lasts (resolved effects only; required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Until>,
    /// Its timestamp (resolved effects only; default: the next timestamp, 613.7b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<Timestamp>,
    /// The value of X in `set` or `modify`: read once as it resolves (608.2h), continuously for a static ability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<Quantity>,
    /// Layer 4: card types it adds ("becomes an artifact creature").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add_types: Vec<CardType>,
    /// Layer 4: card types it removes ("is no longer a creature").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove_types: Vec<CardType>,
    /// Layer 4: it gives every creature type (205.3m; Mirror Entity's
    /// "gain all creature types", Mutavault's "with all creature types"):
    /// a type-changing effect (613.1d), which the 1999 rules apply whole
    /// with its types. The model tracks no subtypes an effect gives, so a
    /// case with it can't look objects up by subtype (DECISIONS.md D73).
    #[serde(default, skip_serializing_if = "is_false")]
    pub add_all_creature_types: bool,
    /// Layer 5: the colors it becomes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_colors: Option<Vec<Color>>,
    /// Layer 6: keywords it grants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add_keywords: Vec<Keyword>,
    /// Layer 6: keywords it removes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove_keywords: Vec<Keyword>,
    /// Layer 6: it loses all abilities.
    #[serde(default, skip_serializing_if = "is_false")]
    pub remove_all_abilities: bool,
    /// Layer 7b: sets power and toughness (or base P/T), e.g. 0/1 or X/X.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<SetPt>,
    /// Layers 6 and 7b: grants an ability that defines power and/or
    /// toughness ("becomes a creature with 'this creature's power and
    /// toughness are each equal to …'", Svogthos, the Restless Tomb). An
    /// ability an effect grants is not a characteristic-defining ability
    /// (604.3a): it is gained in layer 6 (so losing all abilities later
    /// removes it) and sets P/T in 7b, in timestamp order with the other
    /// setting effects (613.4b), its value read all the time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant_pt_ability: Option<Cda>,
    /// Layer 7b: sets the power only, to this number (what an exchange of
    /// values leaves, 701.12g; "has base power N"). Not with `set`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_power: Option<i64>,
    /// Layer 7b: sets the toughness only, to this number (701.12g). Not
    /// with `set`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_toughness: Option<i64>,
    /// Layer 7c: modifies power and toughness, e.g. +3/+3 or -X/-0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modify: Option<ModPt>,
    /// Layer 7d: switches power and toughness.
    #[serde(default, skip_serializing_if = "is_false")]
    pub switch: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl EffectSpec {
    /// Whether it changes card types or subtypes (layer 4, 613.1d).
    pub fn changes_types(&self) -> bool {
        !self.add_types.is_empty() || !self.remove_types.is_empty() || self.add_all_creature_types
    }

    /// Whether it has a part in a layer before 7.
    pub fn has_early_parts(&self) -> bool {
        self.changes_types()
            || self.set_colors.is_some()
            || !self.add_keywords.is_empty()
            || !self.remove_keywords.is_empty()
            || self.remove_all_abilities
            || self.grant_pt_ability.is_some()
    }

    /// Whether it sets P/T in 7b: a setting effect, or an ability it grants
    /// that defines P/T (604.3a, 613.4b).
    pub fn sets_pt(&self) -> bool {
        self.sets_numbers() || self.grant_pt_ability.is_some()
    }

    /// Whether it sets P/T, or one of them, to numbers in 7b: `set`,
    /// `set_power`, `set_toughness`.
    pub fn sets_numbers(&self) -> bool {
        self.set.is_some() || self.set_power.is_some() || self.set_toughness.is_some()
    }

    /// Whether it has any part at all.
    pub fn has_parts(&self) -> bool {
        self.has_early_parts() || self.sets_numbers() || self.modify.is_some() || self.switch
    }

    /// Whether its P/T text uses X.
    pub fn uses_x(&self) -> bool {
        self.set.is_some_and(|s| s.uses_x()) || self.modify.is_some_and(|m| m.uses_x())
    }

    /// A short description of what it does, for explanations: `+3/+3`, `becomes 0/1`.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if !self.add_types.is_empty() {
            parts.push(format!("becomes {}", join(&self.add_types, " ")));
        }
        if !self.remove_types.is_empty() {
            parts.push(format!("stops being {}", join(&self.remove_types, " ")));
        }
        if self.add_all_creature_types {
            parts.push("gains all creature types".into());
        }
        if let Some(c) = &self.set_colors {
            parts.push(if c.is_empty() {
                "becomes colorless".into()
            } else {
                format!("becomes {}", join(c, " and "))
            });
        }
        if self.remove_all_abilities {
            parts.push("loses all abilities".into());
        }
        if !self.add_keywords.is_empty() {
            parts.push(format!("gains {}", join(&self.add_keywords, ", ")));
        }
        if !self.remove_keywords.is_empty() {
            parts.push(format!("loses {}", join(&self.remove_keywords, ", ")));
        }
        if let Some(g) = &self.grant_pt_ability {
            parts.push(format!("gains \"{}\"", g.granted_text()));
        }
        if let Some(s) = self.set {
            parts.push(format!("becomes {s}"));
        }
        if let Some(p) = self.set_power {
            parts.push(format!("has base power {p}"));
        }
        if let Some(t) = self.set_toughness {
            parts.push(format!("has base toughness {t}"));
        }
        if let Some(m) = self.modify {
            parts.push(format!("gets {m}"));
        }
        if self.switch {
            parts.push("switches power and toughness".into());
        }
        parts.join(", ")
    }
}

fn join<T: fmt::Display>(items: &[T], sep: &str) -> String {
    items
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// What an effect affects.
#[derive(Clone, Debug, PartialEq)]
pub enum Affects {
    /// These objects, locked as the effect is created (611.2c).
    Objects(Vec<Handle>),
    /// Every object that matches, looked up once as a resolved effect is
    /// created (611.2c) or all the time for a static ability (611.3a).
    Filter(Box<Filter>),
    /// The object with the static ability itself.
    This,
    /// The permanent the object with the static ability is attached to.
    Attached,
}

impl Default for Affects {
    fn default() -> Affects {
        Affects::Objects(Vec::new())
    }
}

impl Serialize for Affects {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Affects::Objects(v) => v.serialize(s),
            Affects::Filter(f) => f.serialize(s),
            Affects::This => s.serialize_str("self"),
            Affects::Attached => s.serialize_str("attached"),
        }
    }
}

impl<'de> Deserialize<'de> for Affects {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Affects, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Affects;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of object handles, `self`, `attached`, or a filter")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Affects, E> {
                match v {
                    "self" => Ok(Affects::This),
                    "attached" => Ok(Affects::Attached),
                    _ => Err(E::custom(format!(
                        "`{v}` is not `self` or `attached`; to name objects write a list, e.g. [{v}]"
                    ))),
                }
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, a: A) -> Result<Affects, A::Error> {
                Vec::<Handle>::deserialize(SeqAccessDeserializer::new(a)).map(Affects::Objects)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, a: A) -> Result<Affects, A::Error> {
                Filter::deserialize(MapAccessDeserializer::new(a))
                    .map(|f| Affects::Filter(Box::new(f)))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for Affects {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Affects".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let handles = g.subschema_for::<Vec<Handle>>();
        let filter = g.subschema_for::<Filter>();
        schemars::json_schema!({
            "description": "a list of object handles, `self`, `attached`, or a filter",
            "anyOf": [
                handles,
                { "type": "string", "enum": ["self", "attached"] },
                filter,
            ]
        })
    }
}

/// How long a resolved effect lasts (611.2a, 611.2b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Until {
    /// Until the cleanup step (514.2).
    EndOfTurn,
    /// For as long as its source remains on the battlefield (611.2b).
    SourceLeaves,
    /// Indefinitely.
    Forever,
}

impl fmt::Display for Until {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Until::EndOfTurn => "until end of turn",
            Until::SourceLeaves => "while its source remains on the battlefield",
            Until::Forever => "indefinitely",
        })
    }
}

/// Noncombat damage from a source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Damage {
    /// The source: its deathtouch, wither, infect and lifelink decide the results (120.3).
    pub from: Handle,
    /// A creature, planeswalker or player.
    pub to: Handle,
    /// How much: a number or an amount read as it resolves (608.2h; a negative amount is 0, 107.1b).
    pub amount: Quantity,
}

/// A prevention shield (615.7): the next `amount` damage that would be
/// dealt to a permanent or player this turn is prevented, 1 for 1, whatever
/// the events or sources.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Prevention {
    /// The permanent or player it protects.
    pub to: Handle,
    /// How much damage it prevents in all.
    pub amount: Count,
    /// The spell or ability's name, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// One combat damage assignment (510.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatAssignment {
    /// The attacking or blocking creature.
    pub from: Handle,
    /// What it deals its damage to: a creature, planeswalker or player.
    pub to: Handle,
    /// How much of its damage goes there (default: all of it, i.e. its power; 0 or less assigns none, 510.1a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<Count>,
}

/// One attacking creature, declared with what it attacks and the
/// creatures that block it (508.1, 509.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackDeclaration {
    /// The attacking creature: untapped, and under its controller's control
    /// since their turn began unless it has haste (508.1a, 302.6).
    pub attacker: Handle,
    /// The player, planeswalker or battle it attacks (default: the first
    /// player who does not control it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defender: Option<Handle>,
    /// The untapped creatures that block it, each controlled by a player
    /// other than the attacker's controller (509.1a); each blocks this
    /// attacker only. Listed in the damage assignment order that the
    /// editions from 2009-07 to 2024-11-08 have the attacker's controller
    /// announce (509.2 of those texts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<Handle>,
}

/// A combat damage step, and the attacking player's choices in it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DamageStep {
    /// For a blocked attacker: the order in which its controller assigns
    /// lethal damage to its blockers, the rest going to the last one named;
    /// with trample, the player, planeswalker or battle it attacks may come
    /// last, and gets the rest once every blocker has lethal damage
    /// (702.19b). Default: the blockers as declared, then, with trample,
    /// what it attacks. Blockers it leaves out come after the ones it
    /// names. Where the damage assignment order binds (2009-07 to
    /// 2024-11-08, 510.1c of those texts), the blockers go in their
    /// declared order whatever this says.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub divide: BTreeMap<Handle, Vec<Handle>>,
    /// For an attacker: the amounts its controller assigns, by recipient
    /// (its blockers, and with trample what it attacks), as
    /// `{ attacker: { recipient: amount } }`. Checked against the
    /// edition's rules: the amounts add up to the damage it assigns in
    /// this step (its power, 510.1a; none if it assigns none); only its
    /// blockers still in combat get any, what it attacks only with
    /// trample and once every blocker is assigned lethal damage (510.1c,
    /// 702.19b; 1 from deathtouch, 702.2c); where the damage assignment
    /// order binds (2009-07 to 2024-11-08), a blocker gets damage only
    /// once each blocker declared before it has lethal damage (510.1c of
    /// those texts). An attacker has `divide` or `assign`, not both.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assign: BTreeMap<Handle, BTreeMap<Handle, Count>>,
}

/// A mana ability such as Viridian Joiner's "add {G} equal to its power".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManaAbility {
    /// The player who gets the mana (default: the first player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Handle>,
    /// The type of mana.
    pub mana: Mana,
    /// How much: read as it resolves; a negative amount adds none (107.1b).
    pub amount: Quantity,
    /// The ability's name, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Whether its source is a snow permanent: its mana can pay `{S}` (107.4h).
    #[serde(default, skip_serializing_if = "is_false")]
    pub snow: bool,
}

/// A player pays a mana cost (107.4): mana from the pool and, for
/// Phyrexian symbols, life (119.4). When nothing pays it, nothing happens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CostPayment {
    /// The player who pays (default: the first player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Handle>,
    /// The cost, as card text: `{2}{G}{G}`, `{W/U}`, `{2/B}`, `{W/P}`, `{S}`, `{X}{R}`.
    /// Either this or `cost_of`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<ManaCost>,
    /// Or: the mana cost of this object ("pay its mana cost"). Its X is the
    /// value announced or defined for it if it is a spell on the stack,
    /// and 0 otherwise (107.3h).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_of: Option<Handle>,
    /// The value announced for X (107.3a); only with a `cost` that has `{X}` (default 0).
    #[serde(default, skip_serializing_if = "Count::is_zero")]
    pub x: Count,
    /// Which of the distinct payments to make, counting from 0 in the
    /// order of `ptoracle::cost` (default 0: the one that spends the
    /// least life, then the least mana, then the least snow mana).
    #[serde(default, skip_serializing_if = "Count::is_zero")]
    pub payment: Count,
    /// The spell or ability the cost is for, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Cast a spell (601.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cast {
    /// The card: it moves to the stack.
    pub object: Handle,
    /// The value announced for X (601.2b, 107.3a); only for a card with
    /// {X} in its mana cost (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<Count>,
    /// The player who casts it and controls the spell (default: the first player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Handle>,
}

/// Double or triple a creature's power and/or toughness (701.10, 701.11).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scale {
    /// The creature.
    pub affects: Handle,
    /// Which value(s).
    pub what: ScaleWhat,
    /// How long the resulting +X/+Y lasts.
    pub until: Until,
    /// The spell or ability's name, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its timestamp (default: the next timestamp).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<Timestamp>,
}

/// An exchange of two numerical values (701.12g).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Exchange {
    /// The two values exchanged.
    pub values: Vec<Exchanged>,
    /// How long the effects that set a power or toughness last (default:
    /// indefinitely).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Until>,
    /// The spell or ability's name, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// One value of an exchange, written as a map of one key:
/// `{ power: OBJECT }`, `{ toughness: OBJECT }` or `{ life: PLAYER }`.
#[derive(Clone, Debug, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Exchanged {
    /// A creature's power.
    Power(Handle),
    /// A creature's toughness.
    Toughness(Handle),
    /// A player's life total.
    Life(Handle),
}

impl Exchanged {
    /// The object or player whose value it is.
    pub fn of(&self) -> &Handle {
        match self {
            Exchanged::Power(h) | Exchanged::Toughness(h) | Exchanged::Life(h) => h,
        }
    }
}

impl Serialize for Exchanged {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let key = match self {
            Exchanged::Power(_) => "power",
            Exchanged::Toughness(_) => "toughness",
            Exchanged::Life(_) => "life",
        };
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(key, self.of())?;
        m.end()
    }
}

impl<'de> Deserialize<'de> for Exchanged {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct One {
            power: Option<Handle>,
            toughness: Option<Handle>,
            life: Option<Handle>,
        }
        let one = One::deserialize(d)?;
        match (one.power, one.toughness, one.life) {
            (Some(h), None, None) => Ok(Exchanged::Power(h)),
            (None, Some(h), None) => Ok(Exchanged::Toughness(h)),
            (None, None, Some(h)) => Ok(Exchanged::Life(h)),
            _ => Err(serde::de::Error::custom(
                "an exchanged value is one of `power: OBJECT`, `toughness: OBJECT` or `life: PLAYER`",
            )),
        }
    }
}

impl fmt::Display for Exchanged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exchanged::Power(h) => write!(f, "the power of {h}"),
            Exchanged::Toughness(h) => write!(f, "the toughness of {h}"),
            Exchanged::Life(h) => write!(f, "the life total of {h}"),
        }
    }
}

/// Which values a doubling or tripling changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScaleWhat {
    /// Power only.
    Power,
    /// Toughness only.
    Toughness,
    /// Power and toughness.
    Both,
}

/// Move an object to a zone (400.7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveZone {
    /// The object.
    pub object: Handle,
    /// The zone it goes to.
    pub to: Zone,
    /// Counters it enters the battlefield with (122.6).
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "super::unique::deserialize"
    )]
    pub counters: BTreeMap<CounterKind, Count>,
    /// For a card with `enters_as`: the P/T its controller chooses as it
    /// enters the battlefield (208.2b; default: the object's `choose`).
    /// With `copy`, the option chosen among those of the copied text's "as
    /// this enters" ability (707.5, 707.6), required when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choose: Option<crate::number::Pt>,
    /// The player the effect names as the one who puts `counters` on it
    /// (122.6a; default: its controller as it enters, i.e. its owner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Handle>,
    /// It enters the battlefield as a copy of another object (Clone,
    /// 707.2): its copiable values are that object's as it enters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy: Option<CopyOf>,
}

/// A player gains control of a permanent (a control-changing effect that
/// lasts indefinitely, layer 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GainControl {
    /// The permanent.
    pub object: Handle,
    /// The player who gains control of it.
    pub player: Handle,
}

/// Attach an Aura or Equipment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Attach {
    /// The Aura or Equipment.
    pub object: Handle,
    /// The permanent it becomes attached to.
    pub to: Handle,
}

/// Crew a Vehicle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Crew {
    /// The Vehicle, with `crew: N`.
    pub vehicle: Handle,
    /// The untapped creatures its controller taps; their total power must be N or more.
    pub with: Vec<Handle>,
}

/// What a copy effect copies (707.2): the copiable values of another
/// object, with an exception that sets power and toughness (707.9b).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CopyOf {
    /// The object copied: its printed values, as modified by other copy
    /// effects, its face-down status and the P/T chosen as it entered
    /// (707.2). Counters, damage and other effects on it are not copied.
    pub of: Handle,
    /// "… except it's P/T" (Quicksilver Gargantuan's `7/7`): the copy's
    /// power and toughness are these, part of its copiable values
    /// (707.9b), and no characteristic-defining ability of the original
    /// that defines them is copied (707.9d).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub except_pt: Option<crate::number::Pt>,
}

/// A permanent becomes a copy of another object (707.2): a copy effect
/// in layer 1 (613.2a) on an object already on the battlefield.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CopyStep {
    /// The permanent that becomes a copy; it keeps its counters, damage
    /// and the effects that apply to it.
    pub object: Handle,
    /// The object copied (707.2).
    pub of: Handle,
    /// An exception that sets the copy's power and toughness (707.9b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub except_pt: Option<crate::number::Pt>,
    /// How long it stays a copy (default: indefinitely); not while a
    /// source remains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Until>,
    /// The spell or ability's name, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl CopyStep {
    /// What it copies, as an entering copy writes it.
    pub fn copy_of(&self) -> CopyOf {
        CopyOf {
            of: self.of.clone(),
            except_pt: self.except_pt,
        }
    }
}
