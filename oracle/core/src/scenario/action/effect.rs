//! The effect specification shared by resolved effects and static
//! abilities: what it affects, how long it lasts, exchanges.

use super::*;

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
