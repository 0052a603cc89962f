//! Actions on an object: zone moves, control, attachment, crewing, copies.

use super::*;

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
        deserialize_with = "crate::scenario::unique::deserialize"
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
