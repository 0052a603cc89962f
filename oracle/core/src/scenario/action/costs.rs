//! Mana abilities, paying costs, casting spells.

use super::*;

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
