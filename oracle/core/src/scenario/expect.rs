//! Expectations: what a step says must hold about an object or a player.
//! Partial: only the fields given are compared, and each is compared whole.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::ManaPool;
use crate::number::Pt;
use crate::terms::{CardType, Color, CounterKind, Keyword, Zone};

/// What must hold about one object or player after a step.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Object: its zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<Zone>,
    /// Object: its power/toughness, or `none` when it has none (208.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pt: Option<PtOrNone>,
    /// Object: its base power/toughness, after 7a and 7b only (208.4b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_pt: Option<PtOrNone>,
    /// Object: its total power and toughness, negatives included (107.1b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// Object: the combat damage it would assign: its power, or 0 when that is 0 or less (510.1a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat_damage: Option<i64>,
    /// Object: all its counters, by kind (kinds not listed: none).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::unique::option::deserialize"
    )]
    pub counters: Option<BTreeMap<CounterKind, i64>>,
    /// Object: damage marked on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<i64>,
    /// Object: whether it was dealt deathtouch damage since the last state-based-action check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deathtouch_damage: Option<bool>,
    /// Object: all its keywords.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keywords: Option<Vec<Keyword>>,
    /// Object: all its card types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub types: Option<Vec<CardType>>,
    /// Object: all its colors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colors: Option<Vec<Color>>,
    /// Object: whether it is tapped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tapped: Option<bool>,
    /// Object: its regeneration shields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regeneration_shields: Option<i64>,
    /// Object: whether 302.6 keeps it from attacking and from activating
    /// its {T} and {Q} abilities: a creature, not under its controller's
    /// control continuously since their most recent turn began, without
    /// haste (702.10b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summoning_sick: Option<bool>,
    /// Object: the last known information of it as it last existed on the battlefield (608.2h, 704.8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lki: Option<Box<Expect>>,
    /// Player: life total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub life: Option<i64>,
    /// Player: poison counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poison: Option<i64>,
    /// Player: the whole mana pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mana: Option<ManaPool>,
    /// Player: whether the player has lost the game (704.5a, 704.5c).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost: Option<bool>,
    /// Player: the part of the mana pool that snow sources made (107.4h).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snow_mana: Option<ManaPool>,
    /// Player: how many distinct payments the cost of their last `pay_cost` step had (up to 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payments: Option<i64>,
    /// Player: whether the cost of their last `pay_cost` step could be paid (118.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_pay: Option<bool>,
}

impl Expect {
    /// The player fields it uses.
    pub fn player_fields(&self) -> Vec<&'static str> {
        [
            ("life", self.life.is_some()),
            ("poison", self.poison.is_some()),
            ("mana", self.mana.is_some()),
            ("lost", self.lost.is_some()),
            ("snow_mana", self.snow_mana.is_some()),
            ("payments", self.payments.is_some()),
            ("can_pay", self.can_pay.is_some()),
        ]
        .into_iter()
        .filter(|(_, given)| *given)
        .map(|(name, _)| name)
        .collect()
    }

    /// Whether it uses any object field.
    pub fn has_object_fields(&self) -> bool {
        let Expect {
            life,
            poison,
            mana,
            lost,
            snow_mana,
            payments,
            can_pay,
            ..
        } = self;
        let player_only = Expect {
            life: *life,
            poison: *poison,
            mana: mana.clone(),
            lost: *lost,
            snow_mana: snow_mana.clone(),
            payments: *payments,
            can_pay: *can_pay,
            ..Expect::default()
        };
        *self != player_only
    }
}

/// A power/toughness expectation: `P/T`, or `none` for an object that has
/// no power or toughness (208.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtOrNone {
    /// It has this P/T.
    Pt(Pt),
    /// It has none.
    None,
}

impl PtOrNone {
    /// From an observed optional P/T.
    pub fn from_option(p: Option<Pt>) -> PtOrNone {
        p.map_or(PtOrNone::None, PtOrNone::Pt)
    }
}

impl fmt::Display for PtOrNone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PtOrNone::Pt(p) => p.fmt(f),
            PtOrNone::None => f.write_str("none"),
        }
    }
}

impl std::str::FromStr for PtOrNone {
    type Err = String;
    fn from_str(s: &str) -> Result<PtOrNone, String> {
        if s == "none" {
            Ok(PtOrNone::None)
        } else {
            s.parse().map(PtOrNone::Pt)
        }
    }
}

crate::number::string_serde!(
    PtOrNone,
    "PtOrNone",
    "^(-?[0-9]+/-?[0-9]+|none)$",
    "power/toughness as P/T (e.g. -2/4), or none for an object without P/T"
);
