//! The fast path of decoding: straight from bytes into typed values, for
//! the replies and requests that follow the protocol (all but a few). It
//! gives up on anything unusual, and the exact path (through a JSON value,
//! naming where the problem is) decides; so both always agree on what is
//! accepted, and only the slow path writes error messages.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Deserializer};

use super::json::Unique;
use super::{Observable, Reply, Request, WireError, WireObject, WireObservation, WirePlayer};
use crate::scenario::{Case, Handle};
use crate::terms::{CardType, Color, CounterKind, Keyword, Mana, Zone};

/// A field that may be missing, `null`, or have a value.
#[derive(Default)]
enum Present<T> {
    #[default]
    Missing,
    Null,
    Value(T),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Present<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Present<T>, D::Error> {
        Ok(Option::<T>::deserialize(d)?.map_or(Present::Null, Present::Value))
    }
}

impl<T> Present<T> {
    /// The value, if the field is there as it must be.
    fn take(self, field: Observable, unobserved: &BTreeSet<Observable>) -> Result<Option<T>, ()> {
        match self {
            Present::Missing if !unobserved.contains(&field) => Err(()),
            Present::Null if !field.nullable() && !unobserved.contains(&field) => Err(()),
            Present::Missing | Present::Null => Ok(None),
            Present::Value(v) => Ok(Some(v)),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Body {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    steps: Option<Vec<Obs>>,
    #[serde(default)]
    error: Option<WireError>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Obs {
    objects: Unique<Handle, Obj>,
    players: Unique<Handle, Player>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Obj {
    #[serde(default)]
    zone: Present<Zone>,
    #[serde(default)]
    types: Present<Vec<CardType>>,
    #[serde(default)]
    colors: Present<Vec<Color>>,
    #[serde(default)]
    power: Present<i64>,
    #[serde(default)]
    toughness: Present<i64>,
    #[serde(default)]
    base_power: Present<i64>,
    #[serde(default)]
    base_toughness: Present<i64>,
    #[serde(default)]
    total: Present<i64>,
    #[serde(default)]
    combat_damage: Present<i64>,
    #[serde(default)]
    counters: Present<Unique<CounterKind, i64>>,
    #[serde(default)]
    damage: Present<i64>,
    #[serde(default)]
    deathtouch_damage: Present<bool>,
    #[serde(default)]
    keywords: Present<Vec<Keyword>>,
    #[serde(default)]
    tapped: Present<bool>,
    #[serde(default)]
    regeneration_shields: Present<i64>,
    #[serde(default)]
    attached_to: Present<Handle>,
    #[serde(default)]
    summoning_sick: Present<bool>,
    #[serde(default)]
    lki: Present<Box<Obj>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Player {
    #[serde(default)]
    life: Present<i64>,
    #[serde(default)]
    poison: Present<i64>,
    #[serde(default)]
    mana: Present<Unique<Mana, i64>>,
    #[serde(default)]
    lost: Present<bool>,
    #[serde(default)]
    snow_mana: Option<Unique<Mana, i64>>,
    #[serde(default)]
    payments: Option<i64>,
}

fn object(o: Obj, u: &BTreeSet<Observable>) -> Result<WireObject, ()> {
    use Observable as F;
    Ok(WireObject {
        zone: o.zone.take(F::Zone, u)?,
        types: o.types.take(F::Types, u)?,
        colors: o.colors.take(F::Colors, u)?,
        power: o.power.take(F::Power, u)?,
        toughness: o.toughness.take(F::Power, u)?,
        base_power: o.base_power.take(F::BasePower, u)?,
        base_toughness: o.base_toughness.take(F::BasePower, u)?,
        total: o.total.take(F::Total, u)?,
        combat_damage: o.combat_damage.take(F::CombatDamage, u)?,
        counters: o.counters.take(F::Counters, u)?.map(|c| c.0),
        damage: o.damage.take(F::Damage, u)?,
        deathtouch_damage: o.deathtouch_damage.take(F::DeathtouchDamage, u)?,
        keywords: o.keywords.take(F::Keywords, u)?,
        tapped: o.tapped.take(F::Tapped, u)?,
        regeneration_shields: o.regeneration_shields.take(F::RegenerationShields, u)?,
        attached_to: o.attached_to.take(F::AttachedTo, u)?,
        summoning_sick: o.summoning_sick.take(F::SummoningSick, u)?,
        lki: match o.lki.take(F::Lki, u)? {
            Some(l) => Some(Box::new(object(*l, u)?)),
            None => None,
        },
    })
}

fn player(p: Player, u: &BTreeSet<Observable>) -> Result<WirePlayer, ()> {
    use Observable as F;
    Ok(WirePlayer {
        life: p.life.take(F::Life, u)?,
        poison: p.poison.take(F::Poison, u)?,
        mana: p.mana.take(F::Mana, u)?.map(|m| m.0),
        lost: p.lost.take(F::Lost, u)?,
        snow_mana: p.snow_mana.map(|m| m.0),
        payments: p.payments,
    })
}

/// A reply, if it follows the protocol; `None` sends the caller to the
/// exact path.
pub fn reply(line: &[u8], unobserved: &BTreeSet<Observable>) -> Option<Reply> {
    let b: Body = serde_json::from_slice(line).ok()?;
    // Every number is a signed 64-bit integer (107.1a), these included.
    let signed = |n: u64| i64::try_from(n).is_ok();
    if !b.seq.is_none_or(signed) || !b.error.as_ref().is_none_or(|e| signed(e.step as u64)) {
        return None;
    }
    match (
        b.kind.as_str(),
        b.seq,
        b.steps,
        b.error,
        b.reason,
        b.message,
    ) {
        ("result", Some(seq), Some(steps), error, None, None) => {
            let mut out = Vec::with_capacity(steps.len());
            for s in steps {
                let mut objects = BTreeMap::new();
                for (h, o) in s.objects.0 {
                    objects.insert(h, object(o, unobserved).ok()?);
                }
                let mut players = BTreeMap::new();
                for (h, p) in s.players.0 {
                    players.insert(h, player(p, unobserved).ok()?);
                }
                out.push(WireObservation { objects, players });
            }
            Some(Reply::Result {
                seq,
                steps: out,
                error,
            })
        }
        ("unsupported", Some(seq), None, None, Some(reason), None) => {
            Some(Reply::Unsupported { seq, reason })
        }
        ("error", seq, None, None, None, Some(message)) => Some(Reply::Error { seq, message }),
        _ => None,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RequestBody {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    edition: Option<String>,
    #[serde(default)]
    case: Option<Box<Case>>,
}

/// A request, if it follows the protocol; `None` sends the caller to the
/// exact path.
pub fn request(line: &[u8]) -> Option<Request> {
    let b: RequestBody = serde_json::from_slice(line).ok()?;
    match (b.kind.as_str(), b.seq, b.edition, b.case) {
        ("run", Some(seq), Some(edition), Some(case)) => Some(Request::Run { seq, edition, case }),
        ("bye", None, None, None) => Some(Request::Bye),
        _ => None,
    }
}
