//! Damage, its prevention, and combat: attacks, blocks, damage steps.

use super::*;

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
