//! An object of the setup: its card, counters, abilities, faces, level
//! bands, chapters and entry choices.

use super::*;

/// An object: a card or permanent with its printed characteristics and its
/// state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectSpec {
    /// Its handle in this case; it follows the card from zone to zone.
    pub id: Handle,
    /// Its name (default: the handle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Printed card types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<CardType>,
    /// Printed subtypes, e.g. Vehicle, Equipment, Aura.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<String>,
    /// Printed colors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colors: Vec<Color>,
    /// Printed power/toughness: `2/2`, `*/*`, `*/1+*` (208.1, 208.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pt: Option<PrintedPt>,
    /// The characteristic-defining ability that gives each `*` its value (208.2a, 604.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cda: Option<Cda>,
    /// Printed loyalty of a planeswalker (306.5b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<Count>,
    /// Printed defense of a battle (310.4a): it enters with that many
    /// defense counters (310.4b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<Count>,
    /// Mana value (202.3), for an object without a `mana_cost`.
    #[serde(default, skip_serializing_if = "Count::is_zero")]
    pub mana_value: Count,
    /// Printed mana cost (202.1), e.g. `{X}{G/U}{G/U}`. Its mana value
    /// (202.3) counts each {X} as the object's X: the value announced or
    /// defined for it while it is a spell on the stack, 0 anywhere else
    /// (107.3g, 202.3e).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mana_cost: Option<ManaCost>,
    /// For a spell set up on the stack: the value announced for X as it
    /// was cast (107.3a, 601.2b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<Count>,
    /// X defined by the card's text, e.g. "where X is its power" (107.3c):
    /// while it is on the stack, X is this quantity, read whenever it is
    /// needed, so it can change before the spell resolves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_is: Option<Quantity>,
    /// What an instant or sorcery spell does as it resolves (608.2); it is
    /// then put into its owner's graveyard.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "tagged::option::serialize",
        deserialize_with = "tagged::option::deserialize"
    )]
    pub on_resolve: Option<Action>,
    /// "Enters with N counters": its own replacement effect (614.1c,
    /// 122.6), applied whenever it enters the battlefield. Each number is
    /// read as it enters; an X in it is the X of the spell it was (107.3m),
    /// and 0 if it was not cast (107.3g). A negative number gives none
    /// (107.1b).
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::deserialize"
    )]
    pub enters_with: BTreeMap<CounterKind, Quantity>,
    /// Its zone (default: battlefield).
    #[serde(default = "battlefield", skip_serializing_if = "is_battlefield")]
    pub zone: Zone,
    /// Its controller, and owner (default: the first player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<Handle>,
    /// Its timestamp (613.7d; default: its place in the list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<Timestamp>,
    /// Counters on it, by kind (122.1).
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::deserialize"
    )]
    pub counters: BTreeMap<CounterKind, Count>,
    /// Damage marked on it (120.3e).
    #[serde(default, skip_serializing_if = "Count::is_zero")]
    pub damage: Count,
    /// Whether it was dealt damage by a deathtouch source since the last state-based-action check (704.5h).
    #[serde(default, skip_serializing_if = "is_false")]
    pub deathtouch_damage: bool,
    /// Regeneration shields on it (701.19).
    #[serde(default, skip_serializing_if = "Count::is_zero")]
    pub regeneration_shields: Count,
    /// Whether it is tapped.
    #[serde(default, skip_serializing_if = "is_false")]
    pub tapped: bool,
    /// Printed keyword abilities.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<Keyword>,
    /// Printed static abilities: each is a continuous effect with a live affected set (611.3, 613.7a).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<EffectSpec>,
    /// Level up bands: base P/T by number of level counters (107.8, 702.87).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub level_up: Vec<LevelBand>,
    /// Crew N: a Vehicle's crew ability (702.122).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crew: Option<Count>,
    /// The permanent it is attached to (an Aura or Equipment, 301.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_to: Option<Handle>,
    /// "Can't have more than N counters of a kind" (122.4, 704.5r).
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::deserialize"
    )]
    pub max_counters: BTreeMap<CounterKind, Count>,
    /// "As this enters, choose …": the P/T values (and keywords) its
    /// controller chooses among as it enters the battlefield (208.2b).
    /// Off the battlefield such a card's power and toughness are 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enters_as: Vec<EntryChoice>,
    /// Which of `enters_as` is chosen, by its P/T: at setup on the
    /// battlefield, and whenever it enters without its step saying
    /// otherwise (default: the first). For an object set up as a `copy`,
    /// the option it chose among those of the copied text as it entered
    /// (707.5, 707.6), required when that text has such an ability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choose: Option<crate::number::Pt>,
    /// Whether it came under its controller's control after their most
    /// recent turn began (it entered or changed control this turn): while
    /// it is a creature without haste it can't attack or use {T} abilities
    /// (302.6, 702.10). A permanent set up without it has been controlled
    /// continuously since that turn began.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sick: bool,
    /// A permanent set up face down (a morph, manifest or disguise
    /// creature, 708): until it is turned face up it is a 2/2 creature with
    /// no name, text, subtypes or mana cost, whatever is printed (708.2a),
    /// and "as this enters" abilities had no effect on it (708.3, 708.8).
    #[serde(default, skip_serializing_if = "is_false")]
    pub face_down: bool,
    /// A permanent set up as a copy of an object listed before it (Clone
    /// that entered as a copy, 707.2): its copiable values are that
    /// object's as the setup is made, in layer 1 (613.2a), with its own
    /// `choose` if the copied text has an "as this enters" choice (707.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy: Option<CopyOf>,
    /// The back face of a transforming double-faced card (712.2): the
    /// characteristics it has while transformed (712.8e), after a
    /// `transform` step. Its mana value stays the front face's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_face: Option<Box<BackFace>>,
    /// A Saga's chapter abilities (714.2, 107.15): each triggers when lore
    /// counters put on it reach one of its chapter numbers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chapters: Vec<Chapter>,
    /// "When the Nth KIND counter is put on this" abilities (122.7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counter_triggers: Vec<CounterTrigger>,
    /// "This can't have counters put on it" (Melira's Keepers): a static
    /// ability. While the permanent has it, no counter is put on it, also
    /// as it enters (122.6) or as one is moved onto it (122.5).
    #[serde(default, skip_serializing_if = "is_false")]
    pub cant_have_counters_put: bool,
    /// A static ability that changes how many counters a player puts on a
    /// permanent or player, by who puts them (Vorinclex, Monstrous Raider:
    /// `{ you: twice, opponents: half-down }`; 614.1a, 122.6a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counters_put_by: Option<CountersPutBy>,
    /// The printed values in which this object deliberately differs from
    /// the real card it is named after (the card-data check of
    /// rulings/README.md, "Card names"); the resolver ignores it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differs_from_card: Vec<CardField>,
}

/// A printed value of a real card that an object may declare it does not
/// share (`differs_from_card`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardField {
    /// Its printed power and toughness.
    Pt,
    /// Its card types.
    Types,
    /// Its subtypes.
    Subtypes,
    /// Its mana cost.
    ManaCost,
    /// Its keywords.
    Keywords,
}

/// How many counters a player puts instead, by whether that player controls
/// the object with the ability (`you`) or is an opponent (`opponents`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountersPutBy {
    /// When its controller would put counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<CounterScale>,
    /// When an opponent of its controller would put counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponents: Option<CounterScale>,
}

/// How a number of counters about to be put is changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CounterScale {
    /// Twice that many.
    Twice,
    /// Half that many, rounded down (107.1a).
    HalfDown,
}

impl fmt::Display for CounterScale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CounterScale::Twice => "twice that many of each kind",
            CounterScale::HalfDown => "half that many of each kind (rounded down)",
        })
    }
}

/// A chapter ability: `{rN}` or `{rN1}, {rN2}` — EFFECT (107.15a, 107.15b).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Chapter {
    /// Its chapter numbers (1 for I, 2 for II, …).
    pub at: Vec<Count>,
    /// What it does when it resolves.
    #[serde(
        rename = "do",
        serialize_with = "tagged::serialize",
        deserialize_with = "tagged::deserialize"
    )]
    pub action: Action,
    /// Its name, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// "When the Nth KIND counter is put on this, EFFECT" (122.7): it
/// triggers when counters of that kind are put on it and it had fewer than
/// N before and N or more after.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterTrigger {
    /// The kind of counter.
    pub kind: CounterKind,
    /// N.
    pub nth: Count,
    /// What it does when it resolves.
    #[serde(
        rename = "do",
        serialize_with = "tagged::serialize",
        deserialize_with = "tagged::deserialize"
    )]
    pub action: Action,
    /// Its name, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl ObjectSpec {
    /// An object with handle `id` and nothing else: no name, no types, no
    /// P/T, on the battlefield, nothing on it; the generators fill in the
    /// rest.
    pub fn new(id: Handle) -> ObjectSpec {
        ObjectSpec {
            id,
            name: None,
            types: Vec::new(),
            subtypes: Vec::new(),
            colors: Vec::new(),
            pt: None,
            cda: None,
            loyalty: None,
            defense: None,
            mana_value: Count(0),
            zone: Zone::Battlefield,
            controller: None,
            timestamp: None,
            counters: BTreeMap::new(),
            damage: Count(0),
            deathtouch_damage: false,
            regeneration_shields: Count(0),
            tapped: false,
            keywords: Vec::new(),
            abilities: Vec::new(),
            level_up: Vec::new(),
            crew: None,
            attached_to: None,
            max_counters: BTreeMap::new(),
            chapters: Vec::new(),
            counter_triggers: Vec::new(),
            enters_as: Vec::new(),
            mana_cost: None,
            x: None,
            x_is: None,
            on_resolve: None,
            enters_with: BTreeMap::new(),
            choose: None,
            sick: false,
            face_down: false,
            copy: None,
            back_face: None,
            cant_have_counters_put: false,
            counters_put_by: None,
            differs_from_card: Vec::new(),
        }
    }

    /// Its name: the given one, or its handle.
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.id.0)
    }

    /// The first of its fields that a copy effect would have to copy and
    /// the model does not (707.2): the abilities it models outside
    /// `abilities`, `keywords`, `cda`, `level_up` and `enters_as`. A case
    /// may not copy such an object, nor make one a copy.
    pub fn copy_unmodelled(&self) -> Option<&'static str> {
        [
            (self.crew.is_some(), "crew"),
            (!self.chapters.is_empty(), "chapters"),
            (!self.counter_triggers.is_empty(), "counter_triggers"),
            (!self.enters_with.is_empty(), "enters_with"),
            (!self.max_counters.is_empty(), "max_counters"),
            (self.cant_have_counters_put, "cant_have_counters_put"),
            (self.counters_put_by.is_some(), "counters_put_by"),
            (self.loyalty.is_some(), "loyalty"),
            (self.defense.is_some(), "defense"),
            (self.on_resolve.is_some(), "on_resolve"),
            (self.x_is.is_some(), "x_is"),
        ]
        .into_iter()
        .find(|(has, _)| *has)
        .map(|(_, f)| f)
    }

    /// Every static ability it can have: its `abilities`, then those of
    /// its level bands (107.8a), whether or not a band applies now.
    pub fn static_abilities(&self) -> impl Iterator<Item = &EffectSpec> {
        self.abilities
            .iter()
            .chain(self.level_up.iter().flat_map(|b| &b.abilities))
            .chain(self.back_face.iter().flat_map(|b| &b.abilities))
    }
}

/// The back face of a transforming double-faced card (712.2, 712.8e):
/// everything it prints that the model reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BackFace {
    /// Its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its card types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<CardType>,
    /// Its subtypes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<String>,
    /// Its colors (a color indicator, 204).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colors: Vec<Color>,
    /// Its printed power and toughness: numbers only (no `*`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pt: Option<crate::number::Pt>,
    /// Its keyword abilities.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<Keyword>,
    /// Its static abilities (as an object's `abilities`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<EffectSpec>,
}

/// A characteristic-defining ability that says what each `*` is (208.2a).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cda {
    /// The value of `*` in its power.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<Quantity>,
    /// The value of `*` in its toughness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toughness: Option<Quantity>,
}

impl Cda {
    /// The ability in words, as an effect grants it: `its power is X and
    /// its toughness is Y`.
    pub fn granted_text(&self) -> String {
        match (&self.power, &self.toughness) {
            (Some(p), Some(t)) if p == t => {
                format!("this creature's power and toughness are each equal to {p}")
            }
            (Some(p), Some(t)) => {
                format!("this creature's power is equal to {p} and its toughness to {t}")
            }
            (Some(p), None) => format!("this creature's power is equal to {p}"),
            (None, Some(t)) => format!("this creature's toughness is equal to {t}"),
            (None, None) => "nothing".into(),
        }
    }
}

/// One of the values an "as this enters, choose" ability lists (208.2b):
/// a P/T, and the keywords that come with it (Primal Clay's `2/2` with
/// flying). Both become part of the permanent's copiable values (613.2a).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EntryChoice {
    /// The power and toughness it enters as.
    pub pt: crate::number::Pt,
    /// Keywords it has with that choice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<Keyword>,
}

impl ObjectSpec {
    /// The option of `enters_as` that is chosen when `choose` (a step's
    /// choice, else the object's own) names it by P/T; the first option
    /// otherwise. `None` when the card has no such ability.
    pub fn entry_choice(&self, choose: Option<crate::number::Pt>) -> Option<usize> {
        if self.enters_as.is_empty() {
            return None;
        }
        let wanted = choose.or(self.choose);
        Some(
            wanted
                .and_then(|pt| self.enters_as.iter().position(|o| o.pt == pt))
                .unwrap_or(0),
        )
    }
}

/// One level-up band: `{LEVEL min-max} P/T` or, without max, `{LEVEL min+} P/T` (107.8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LevelBand {
    /// The fewest level counters of the band.
    pub min: Count,
    /// The most level counters of the band (none: open-ended, `N+`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<Count>,
    /// Its base P/T, set in layer 7b.
    pub pt: crate::number::Pt,
    /// Keywords it has while in the band (layer 6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<Keyword>,
    /// Static abilities it has while in the band (107.8a), written as an
    /// object's `abilities`: the creature's timestamp (613.7a), a live
    /// affected set (611.3a).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<EffectSpec>,
}

impl LevelBand {
    /// Whether `levels` level counters fall in the band.
    pub fn contains(&self, levels: i64) -> bool {
        levels >= self.min.0 && self.max.is_none_or(|m| levels <= m.0)
    }
}
