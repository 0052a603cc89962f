//! Observations as they travel: power and toughness as integers, every
//! field present or declared unobserved, and the conversion from and to the
//! core's observation.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{ErrorKind, ProtocolError};
use crate::json;
use crate::number::Pt;
use crate::observation::{ObjectState, Observation, PlayerState};
use crate::scenario::{Handle, ManaPool};
use crate::terms::{CardType, Color, CounterKind, Keyword, Mana, Zone};

/// The state after one step, as an engine reports it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WireObservation {
    /// Every object of the case, by handle.
    #[serde(deserialize_with = "json::unique_map")]
    pub objects: BTreeMap<Handle, WireObject>,
    /// Every player, by handle.
    #[serde(deserialize_with = "json::unique_map")]
    pub players: BTreeMap<Handle, WirePlayer>,
}

/// One object, as an engine reports it. Every field is required unless
/// the engine declared it unobserved; `null` says "has none".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WireObject {
    /// Its zone.
    pub zone: Option<Zone>,
    /// Its card types.
    pub types: Option<Vec<CardType>>,
    /// Its colors.
    pub colors: Option<Vec<Color>>,
    /// Its power; `null` when it has none (208.3).
    pub power: Option<i64>,
    /// Its toughness; `null` when it has none.
    pub toughness: Option<i64>,
    /// Its base power, after 7a and 7b (208.4b).
    pub base_power: Option<i64>,
    /// Its base toughness.
    pub base_toughness: Option<i64>,
    /// Power plus toughness, negatives included (107.1b).
    pub total: Option<i64>,
    /// The combat damage it would assign: max(0, power) (510.1a).
    pub combat_damage: Option<i64>,
    /// Its counters by kind (`+1/+1`, `-1/-1`, `flying`, `loyalty`...); no zero entries.
    #[serde(default, deserialize_with = "json::unique_map_opt")]
    pub counters: Option<BTreeMap<CounterKind, i64>>,
    /// Damage marked on it.
    pub damage: Option<i64>,
    /// Whether it was dealt damage by a deathtouch source since the last
    /// state-based-action check.
    pub deathtouch_damage: Option<bool>,
    /// Its keywords.
    pub keywords: Option<Vec<Keyword>>,
    /// Whether it is tapped.
    pub tapped: Option<bool>,
    /// Its regeneration shields.
    pub regeneration_shields: Option<i64>,
    /// What it is attached to.
    pub attached_to: Option<Handle>,
    /// Whether 302.6 keeps it from attacking and using {T} abilities (a
    /// creature not controlled continuously since its controller's most
    /// recent turn began, without haste). Required only from an engine
    /// that declares the `summoning-sickness` feature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summoning_sick: Option<bool>,
    /// Off the battlefield: how it last existed there (704.8), or `null`.
    pub lki: Option<Box<WireObject>>,
}

/// One player, as an engine reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WirePlayer {
    /// Life total.
    pub life: Option<i64>,
    /// Poison counters.
    pub poison: Option<i64>,
    /// Mana pool by type (`W U B R G C`); no zero entries. (A negative
    /// amount is a rules violation to report, not a decoding error.)
    #[serde(default, deserialize_with = "json::unique_map_opt")]
    pub mana: Option<BTreeMap<Mana, i64>>,
    /// Whether the player has lost the game.
    pub lost: Option<bool>,
    /// The part of `mana` that snow sources made, by type (107.4h).
    /// Optional: omitted, it is none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "json::unique_map_opt"
    )]
    pub snow_mana: Option<BTreeMap<Mana, i64>>,
    /// How many distinct payments the cost of the player's last `pay_cost`
    /// step had, up to 100. Optional: omitted, no cost was paid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payments: Option<i64>,
}

macro_rules! observables {
    ($($variant:ident => $name:literal, $what:literal;)*) => {
        /// A field of an observation, by its wire name: what an engine may
        /// declare it cannot report.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Observable {
            $(
                #[doc = $what]
                $variant,
            )*
        }

        impl Observable {
            /// Every field.
            pub const ALL: &'static [Observable] = &[$(Observable::$variant),*];

            /// Its wire name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Observable::$variant => $name,)*
                }
            }
        }
    };
}

observables! {
    Zone => "zone", "an object's zone";
    Types => "types", "an object's card types";
    Colors => "colors", "an object's colors";
    Power => "power", "an object's power and toughness";
    BasePower => "base_power", "an object's base power and toughness";
    Total => "total", "an object's total power and toughness";
    CombatDamage => "combat_damage", "the combat damage an object would assign";
    Counters => "counters", "an object's counters";
    Damage => "damage", "an object's marked damage";
    DeathtouchDamage => "deathtouch_damage", "whether an object was dealt deathtouch damage";
    Keywords => "keywords", "an object's keywords";
    Tapped => "tapped", "whether an object is tapped";
    RegenerationShields => "regeneration_shields", "an object's regeneration shields";
    AttachedTo => "attached_to", "what an object is attached to";
    SummoningSick => "summoning_sick", "whether summoning sickness keeps an object from attacking and using {T} abilities (unobserved unless the engine declares `summoning-sickness`)";
    Lki => "lki", "an object's last known information";
    Life => "life", "a player's life total";
    Poison => "poison", "a player's poison counters";
    Mana => "mana", "a player's mana pool";
    Lost => "lost", "whether a player has lost";
    SnowMana => "snow_mana", "the part of a player's mana pool that snow sources made";
    Payments => "payments", "how many ways there were to pay a player's last cost";
}

impl Observable {
    /// The field with this wire name (`power` and `toughness` are one
    /// field, as are the two base values).
    pub fn parse(name: &str) -> Option<Observable> {
        match name {
            "toughness" => Some(Observable::Power),
            "base_toughness" => Some(Observable::BasePower),
            _ => Observable::ALL.iter().copied().find(|o| o.name() == name),
        }
    }

    /// The wire keys it covers.
    pub(crate) fn keys(self) -> &'static [&'static str] {
        match self {
            Observable::Power => &["power", "toughness"],
            Observable::BasePower => &["base_power", "base_toughness"],
            Observable::Zone => &["zone"],
            Observable::Types => &["types"],
            Observable::Colors => &["colors"],
            Observable::Total => &["total"],
            Observable::CombatDamage => &["combat_damage"],
            Observable::Counters => &["counters"],
            Observable::Damage => &["damage"],
            Observable::DeathtouchDamage => &["deathtouch_damage"],
            Observable::Keywords => &["keywords"],
            Observable::Tapped => &["tapped"],
            Observable::RegenerationShields => &["regeneration_shields"],
            Observable::AttachedTo => &["attached_to"],
            Observable::SummoningSick => &["summoning_sick"],
            Observable::Lki => &["lki"],
            Observable::Life => &["life"],
            Observable::Poison => &["poison"],
            Observable::Mana => &["mana"],
            Observable::Lost => &["lost"],
            Observable::SnowMana => &["snow_mana"],
            Observable::Payments => &["payments"],
        }
    }

    /// Whether a reply may leave it out, meaning "none": the fields added
    /// with the `costs` feature, so that replies without them stay valid.
    pub(crate) fn optional(self) -> bool {
        matches!(self, Observable::SnowMana | Observable::Payments)
    }

    /// Whether `null` is a value of it ("has none").
    pub(crate) fn nullable(self) -> bool {
        matches!(
            self,
            Observable::Power
                | Observable::BasePower
                | Observable::Total
                | Observable::CombatDamage
                | Observable::AttachedTo
                | Observable::Lki
        )
    }

    pub(crate) fn of_player(self) -> bool {
        matches!(
            self,
            Observable::Life
                | Observable::Poison
                | Observable::Mana
                | Observable::Lost
                | Observable::SnowMana
                | Observable::Payments
        )
    }
}

/// An observation as an engine reports it.
pub fn to_wire(o: &Observation) -> WireObservation {
    WireObservation {
        objects: o
            .objects
            .iter()
            .map(|(h, s)| (h.clone(), object_to_wire(s)))
            .collect(),
        players: o
            .players
            .iter()
            .map(|(h, p)| {
                (
                    h.clone(),
                    WirePlayer {
                        life: Some(p.life),
                        poison: Some(p.poison),
                        mana: Some(wire_pool(&p.mana)),
                        lost: Some(p.lost),
                        snow_mana: (!p.snow_mana.is_empty()).then(|| wire_pool(&p.snow_mana)),
                        payments: p.payments,
                    },
                )
            })
            .collect(),
    }
}

pub(crate) fn wire_pool(p: &ManaPool) -> BTreeMap<Mana, i64> {
    p.normalized().0.iter().map(|(m, n)| (*m, n.0)).collect()
}

pub(crate) fn core_pool(p: Option<BTreeMap<Mana, i64>>) -> ManaPool {
    ManaPool(
        p.unwrap_or_default()
            .into_iter()
            .filter(|(_, n)| *n != 0)
            .map(|(m, n)| (m, crate::scenario::Count(n)))
            .collect(),
    )
}

pub(crate) fn object_to_wire(s: &ObjectState) -> WireObject {
    WireObject {
        zone: Some(s.zone),
        types: Some(s.types.clone()),
        colors: Some(s.colors.clone()),
        power: s.pt.map(|p| p.power),
        toughness: s.pt.map(|p| p.toughness),
        base_power: s.base_pt.map(|p| p.power),
        base_toughness: s.base_pt.map(|p| p.toughness),
        total: s.total,
        combat_damage: s.combat_damage,
        counters: Some(s.counters.clone()),
        damage: Some(s.damage),
        deathtouch_damage: Some(s.deathtouch_damage),
        keywords: Some(s.keywords.clone()),
        tapped: Some(s.tapped),
        regeneration_shields: Some(s.regeneration_shields),
        attached_to: s.attached_to.clone(),
        summoning_sick: Some(s.summoning_sick),
        lki: s.lki.as_ref().map(|l| Box::new(object_to_wire(l))),
    }
}

/// An engine's observation as a core one. A field the engine does not
/// report takes its neutral value; the comparison leaves it out.
pub fn from_wire(w: WireObservation) -> Result<Observation, ProtocolError> {
    let mut objects = BTreeMap::new();
    for (h, o) in w.objects {
        let state = object_from_wire(&h, o)?;
        objects.insert(h, state);
    }
    let players = w
        .players
        .into_iter()
        .map(|(h, p)| {
            (
                h,
                PlayerState {
                    life: p.life.unwrap_or(0),
                    poison: p.poison.unwrap_or(0),
                    mana: core_pool(p.mana),
                    lost: p.lost.unwrap_or(false),
                    snow_mana: core_pool(p.snow_mana),
                    payments: p.payments,
                },
            )
        })
        .collect();
    Ok(Observation { objects, players })
}

pub(crate) fn object_from_wire(h: &Handle, o: WireObject) -> Result<ObjectState, ProtocolError> {
    let pair = |p: Option<i64>, t: Option<i64>, what: &str| match (p, t) {
        (Some(p), Some(t)) => Ok(Some(Pt::new(p, t))),
        (None, None) => Ok(None),
        _ => Err(ProtocolError::new(
            ErrorKind::Protocol,
            format!("object `{h}`: {what} is half null; both or neither"),
        )),
    };
    let mut counters = o.counters.unwrap_or_default();
    counters.retain(|_, n| *n != 0);
    Ok(ObjectState {
        zone: o.zone.unwrap_or(Zone::Battlefield),
        types: o.types.unwrap_or_default(),
        colors: o.colors.unwrap_or_default(),
        pt: pair(o.power, o.toughness, "power/toughness")?,
        base_pt: pair(o.base_power, o.base_toughness, "base_power/base_toughness")?,
        total: o.total,
        combat_damage: o.combat_damage,
        counters,
        damage: o.damage.unwrap_or(0),
        deathtouch_damage: o.deathtouch_damage.unwrap_or(false),
        keywords: o.keywords.unwrap_or_default(),
        tapped: o.tapped.unwrap_or(false),
        regeneration_shields: o.regeneration_shields.unwrap_or(0),
        attached_to: o.attached_to,
        summoning_sick: o.summoning_sick.unwrap_or(false),
        lki: match o.lki {
            Some(l) => Some(Box::new(object_from_wire(h, *l)?)),
            None => None,
        },
    })
}
