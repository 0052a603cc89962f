//! Observations: the complete observable state after a step.
//!
//! The reference resolver produces them; an external engine reports them
//! over the protocol; [`crate::verdict`] compares them with a case's
//! expectations. They are plain data.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::number::Pt;
use crate::scenario::{Handle, ManaPool};
use crate::terms::{CardType, Color, CounterKind, Keyword, Zone};

/// The state after one step.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Observation {
    /// Every object of the case, by handle.
    pub objects: BTreeMap<Handle, ObjectState>,
    /// Every player, by handle.
    pub players: BTreeMap<Handle, PlayerState>,
}

/// What can be observed of one object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectState {
    /// Its zone.
    pub zone: Zone,
    /// Its card types.
    pub types: Vec<CardType>,
    /// Its colors.
    pub colors: Vec<Color>,
    /// Its power and toughness; absent when it has none (208.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pt: Option<Pt>,
    /// Its base power and toughness: after 7a and 7b (208.4b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_pt: Option<Pt>,
    /// Power plus toughness, negatives included (107.1b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// The combat damage it would assign: max(0, power) (510.1a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat_damage: Option<i64>,
    /// Its counters, by kind (no zero entries).
    pub counters: BTreeMap<CounterKind, i64>,
    /// Damage marked on it.
    pub damage: i64,
    /// Dealt deathtouch damage since the last state-based-action check.
    pub deathtouch_damage: bool,
    /// Its keywords.
    pub keywords: Vec<Keyword>,
    /// Whether it is tapped.
    pub tapped: bool,
    /// Its regeneration shields.
    pub regeneration_shields: i64,
    /// What it is attached to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_to: Option<Handle>,
    /// Whether 302.6 keeps it from attacking and from using {T} and {Q}
    /// abilities: a creature on the battlefield, not under its
    /// controller's control continuously since their most recent turn
    /// began, without haste (702.10b).
    #[serde(default, skip_serializing_if = "is_false")]
    pub summoning_sick: bool,
    /// While it is off the battlefield: how it last existed there (608.2h, 704.8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lki: Option<Box<ObjectState>>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What can be observed of one player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerState {
    /// Life total.
    pub life: i64,
    /// Poison counters.
    pub poison: i64,
    /// Mana pool (no zero entries).
    pub mana: ManaPool,
    /// Whether the player has lost the game.
    pub lost: bool,
    /// The part of `mana` that snow sources made (107.4h); empty when none.
    #[serde(default, skip_serializing_if = "ManaPool::is_empty")]
    pub snow_mana: ManaPool,
    /// How many distinct ways there were to pay the cost of the player's
    /// last `pay_cost` step, counted up to [`crate::cost::PAYMENT_LIMIT`]
    /// (0: it could not be paid); none before any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payments: Option<i64>,
}
