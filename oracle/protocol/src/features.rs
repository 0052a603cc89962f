//! Features: the parts of the scenario format an engine may implement one
//! at a time. An engine declares its features in the handshake; the gate
//! sends it only the cases whose [`required_features`] it declares, and
//! skips the others with the names of what is missing.
//!
//! The core, which every engine implements, is: objects on the battlefield
//! with card types, colors, printed numeric power and toughness, keywords
//! other than those named below, damage already marked, tapped; two players
//! with life totals; the `state_based_actions` step; and full observations.
//! Any object may also carry fields the case never reads (below): a printed
//! mana cost most of all, since real cards keep theirs. An engine may hold
//! them or ignore them; no case it is sent depends on them.
//!
//! # A case asks only for what it reads
//!
//! A case **reads** a field when the reference's run of the case can
//! depend on the field's value: through the action of a step, or of an
//! ability or spell that a step makes happen (a chapter, an Nth-counter
//! trigger, a spell resolving); through a static ability, a replacement
//! effect or a state-based action that applies to what the case does; or
//! through an observation. Observations are full: every step reports every
//! field of the observation table of docs/protocol.md for every object and
//! player, so a field that shows in one (counters, keywords, colors, types,
//! zone, damage, P/T, what it is attached to) is read in every case that
//! has it, whether or not a step touches it. A field no step, ability,
//! expectation or observation can depend on is **unread**, and a feature
//! is required only by what is read. `oracle/tests/features.rs` holds the
//! derivation to this: adding or removing an unread field never changes a
//! case's features, nor the reference's run.
//!
//! Field by field, what reads it (the rest of the derivation is the
//! straightforward one: a step needs the feature of its kind, a field of
//! the observation needs the feature that gives it meaning):
//!
//! - `mana_cost` and `mana_value` (202.1, 202.3): read only by casting (a
//!   `cast` announces X from the cost, 601.2b), by `pay_cost` with
//!   `cost_of` (107.3h) and by the `x_of` and `mana_value_of` quantities;
//!   no observation shows them. Each of those needs `spells` itself, so a
//!   printed mana cost asks for nothing: an engine without a stack holds a
//!   card with a mana cost as it holds one without.
//! - `x`, `x_is` and `on_resolve`: X is read only by `x_of` and
//!   `mana_value_of` (107.3a, 107.3c; 0 off the stack, 107.3g), what a
//!   spell does as it resolves only by a `resolve` step (608.2). They and
//!   what they contain count only in a case that plays spells: one that
//!   needs `spells` for a step or a quantity.
//! - the stack as a zone: an object set up on the stack, or moved there,
//!   that no step casts or resolves (a Shock on the stack as the source of
//!   a `damage` step) is an object in a zone (400.1), `zones`; the stack as
//!   a mechanism (casting, resolving, X) is `spells`.
//! - `crew` and the subtype Vehicle: read only by the `crew` step
//!   (702.122a). A noncreature Vehicle has no P/T like any noncreature
//!   permanent (208.3, 301.7a), which is the core; `vehicles` is for
//!   crewing.
//! - `back_face`: its presence is read by a `transform` step (701.27c:
//!   nothing happens to a permanent without one) and by a
//!   `turn_face_down` step (712.16: a double-faced permanent can't be
//!   turned face down); what it holds only once a `transform` step turns
//!   it up (712.8d, 712.8e, 202.3b). It needs `transform` in a case with
//!   one of those steps, and its keywords and abilities count only in a
//!   case that transforms something.
//! - `by` on the steps that put counters: who puts counters changes how
//!   many only through a `counters_put_by` ability (122.6a, 614.1a); with
//!   no object that has one, `by` is unread and needs nothing.
//! - names and handles: never numbers, whatever digits they hold, so they
//!   never make a case need `huge-values`; neither does a number in a
//!   field the case does not read.
//!
//! And what is read even where no step seems to touch it (kept, with why):
//!
//! - counters of every kind, keywords (inert ones too), colors, card types,
//!   marked damage, deathtouch damage, regeneration shields, `attached_to`:
//!   observed, so an engine must hold them to report them; a planeswalker
//!   or a battle is also put into its graveyard with no loyalty or defense
//!   (704.5i, 704.5v).
//! - a keyword that changes what damage or destruction does (deathtouch,
//!   wither, infect, lifelink, indestructible, undying, persist): whether
//!   its object ever deals damage, is destroyed or dies depends on the run
//!   (a copy, a granted keyword, combat, counters), so it counts wherever
//!   it is; so do poison counters (`infect`).
//! - `abilities`, `level_up`, `enters_with`, `enters_as`, `chapters`,
//!   `counter_triggers`, `max_counters`, `cant_have_counters_put`,
//!   `counters_put_by`, `copy`, `face_down`, `cda`, `loyalty`, `defense`:
//!   each applies as the object is on the battlefield, enters it, or has
//!   counters put on it, or gives a value that is observed; whether that
//!   happens depends on the run, so each counts wherever it is. A `*` P/T
//!   and its CDA give the P/T observed in every zone (604.3).
//! - the subtype Saga: read as a Saga enters the battlefield (714.3a) and
//!   by 704.5s, so it counts wherever it is.
//! - explicit timestamps: they order effects and static abilities, and a
//!   timestamp given to one object moves the default ones after it; they
//!   count wherever they are.
//! - `sick`: read by attacks and by the `summoning_sick` observation.
//! - `sba: false`: whether a deferred check would have done anything
//!   depends on the run; it counts on every step that has it.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use crate::scenario::{
    Action, Affects, Case, EffectSpec, ObjectSpec, Quantity, QuantityRef, Step, Until,
};
use crate::terms::{CardType, CounterKind, Keyword, Zone};
use ptoracle_core::text::plural;

macro_rules! features {
    ($($variant:ident => $name:literal, $what:literal;)*) => {
        /// A part of the scenario format beyond the core.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Feature {
            $(
                #[doc = $what]
                $variant,
            )*
        }

        impl Feature {
            /// Every feature, in a stable order.
            pub const ALL: &'static [Feature] = &[$(Feature::$variant),*];

            /// Its name in the handshake.
            pub fn name(self) -> &'static str {
                match self {
                    $(Feature::$variant => $name,)*
                }
            }

            /// What a case using it contains.
            pub fn what(self) -> &'static str {
                match self {
                    $(Feature::$variant => $what,)*
                }
            }
        }
    };
}

features! {
    Counters => "counters", "+X/+Y and -X/-Y counters on objects, put and removed (122.1a, 704.5q)";
    KeywordCounters => "keyword-counters", "keyword counters such as flying or deathtouch counters (122.1b)";
    OtherCounters => "other-counters", "named counters other than P/T, keyword, loyalty, level and hone counters (e.g. charge)";
    MoveCounters => "move-counters", "the move_counters step (122.5)";
    CounterLimits => "counter-limits", "objects that can't have more than N counters of a kind (704.5r)";
    Set => "set", "effects that set power and toughness or base P/T (613.4b)";
    Modify => "modify", "effects that modify power and toughness (613.4c)";
    Switch => "switch", "effects that switch power and toughness (613.4d)";
    TypeChanges => "type-changes", "effects that add or remove card types (613.1d)";
    ColorChanges => "color-changes", "effects that set colors (613.1e)";
    GrantedPt => "granted-pt", "effects that grant an ability defining power and/or toughness, `grant_pt_ability` (604.3a): not a characteristic-defining ability, so it sets P/T in 7b in timestamp order, and losing all abilities later removes it";
    AbilityChanges => "ability-changes", "effects that add or remove keywords or all abilities (613.1f)";
    StaticAbilities => "static-abilities", "static abilities of objects, affecting themselves, what they are attached to or a live filter (611.3a)";
    LockedSets => "locked-sets", "resolved effects whose affected set is a filter, locked as they resolve (611.2c)";
    Timestamps => "timestamps", "explicit timestamps on objects or effects (613.7)";
    SourceDurations => "source-durations", "effects that last while their source stays on the battlefield (611.2b)";
    Cda => "cda", "printed `*` power or toughness and characteristic-defining abilities (604.3, 208.2a)";
    Quantities => "quantities", "amounts read from the game: another object's power, counters, a count of objects, life, hand size (608.2h)";
    Damage => "damage", "the noncombat damage step (120.3)";
    CombatDamage => "combat-damage", "the combat_damage step (510.1a)";
    Combat => "combat", "the attack and combat_damage_step steps: attackers and blockers declared, and combat damage assigned by the rules: lethal damage to each blocker in turn, trample, deathtouch, first strike and double strike (508.1, 509.1, 510.1, 510.4, 702.19b, 702.2c)";
    CombatDivision => "combat-division", "the `assign` amounts of a combat_damage_step: the attacking player divides an attacker's combat damage among its blockers and, with trample, what it attacks, as written (510.1c, 702.19b)";
    Deathtouch => "deathtouch", "damage from deathtouch sources and the deathtouch-damage state (702.2b, 704.5h)";
    Wither => "wither", "damage from wither sources (702.80)";
    Infect => "infect", "damage from infect sources and poison counters (702.90, 704.5c)";
    Lifelink => "lifelink", "damage from lifelink sources (702.15)";
    Indestructible => "indestructible", "indestructible permanents (702.12)";
    Regeneration => "regeneration", "regeneration shields and the regenerate step (701.19)";
    Destroy => "destroy", "the destroy step (701.8)";
    Zones => "zones", "objects in other zones than the battlefield and the move step (400.7)";
    Cleanup => "cleanup", "the cleanup step (514.2)";
    DeferredSba => "deferred-sba", "steps after which state-based actions are not checked (`sba: false`)";
    Mana => "mana", "mana pools and the add_mana step (106.4, 107.1b)";
    DoubleCounters => "double-counters", "the double_counters step: as many more counters of a kind as an object or player has (701.10e)";
    Double => "double", "the double step (701.10)";
    Triple => "triple", "the triple step (701.11)";
    Prevention => "prevention", "the prevent step: shields that prevent the next N damage to a permanent or player this turn, 1 for 1 across events and sources (615.7)";
    Copy => "copy", "copy effects and copiable values: the copy step, objects set up as a copy and entering as one, with exceptions that set P/T (707.2, 707.9b, 613.2a)";
    Exchange => "exchange", "the exchange step: two powers, toughnesses or life totals each become the other (701.12g), and effects that set the power or the toughness only, `set_power` and `set_toughness` (613.4b)";
    LevelUp => "level-up", "level up bands and level counters (107.8, 711)";
    Attachments => "attachments", "Equipment attached to creatures, the attach step and hone counters (301.5, 122.1j)";
    Vehicles => "vehicles", "the crew step: Vehicles crewed by tapping creatures (`crew`); a Vehicle no step crews is an artifact with a printed P/T, as in the core (301.7, 702.122, 208.3)";
    Undying => "undying", "undying (702.93)";
    Persist => "persist", "persist (702.79)";
    Planeswalkers => "planeswalkers", "planeswalkers, loyalty and damage to them (306, 704.5i)";
    ShieldCounters => "shield-counters", "shield counters: the damage they prevent and the destruction they replace (122.1c, 615.6)";
    Battles => "battles", "battles: printed `defense`, defense counters, damage to them, the Siege ability and the state-based action of 704.5v (310, 120.3h)";
    Costs => "costs", "the pay_cost step, snow mana and the payments of a cost (107.4, 119.4)";
    ChoosePt => "choose-pt", "cards whose power and toughness are chosen as they enter the battlefield, `enters_as` (208.2b)";
    SummoningSickness => "summoning-sickness", "permanents that came under their controller's control this turn (`sick`), the begin_turn step, and the `summoning_sick` observation (302.6, 702.10)";
    ControlChanges => "control-changes", "the gain_control step (613.1b)";
    Spells => "spells", "spells cast and resolved, and X: the cast and resolve steps, pay_cost with `cost_of`, and the `x_of` and `mana_value_of` quantities, which read `mana_cost`, `mana_value`, `x`, `x_is` and `on_resolve`; a printed `mana_cost` alone asks for nothing, nor does an object that only sits on the stack (107.3, 202.1, 202.3, 601.2, 608.2)";
    EntersWith => "enters-with", "objects that enter the battlefield with counters by their own replacement effect, `enters_with` (614.1c, 122.6)";
    HugeValues => "huge-values", "numbers beyond 32 bits, and overflow reported as an error (107.1)";
    Sagas => "sagas", "Sagas: lore counters, chapter abilities and the sacrifice of 704.5s (714, 107.15)";
    CounterTriggers => "counter-triggers", "abilities that trigger when the Nth counter of a kind is put on an object (122.7)";
    CountersFrom => "counters-from", "the put_counters_from step: one object's counters put on another, from its last known information once it has left (122.8)";
    LevelAbilities => "level-abilities", "static abilities a creature has while its level counters are in a band, `abilities` of a level band (107.8a, 107.8b)";
    CantHaveCounters => "cant-have-counters", "objects that can't have counters put on them, `cant_have_counters_put` (122.5, 122.6)";
    CountersPutBy => "counters-put-by", "who puts counters: `counters_put_by` abilities that change how many counters a player puts, and `by` on put_counters, double_counters, move_counters, put_counters_from and move where such an ability is in the case (122.6a, 614.1a)";
    FaceDown => "face-down", "face-down permanents: objects set up `face_down` (a 2/2 with no name, text, subtypes or mana cost) and the turn_face_up and turn_face_down steps, with the new timestamp of 613.7f (708, 613.7f)";
    Transform => "transform", "double-faced permanents: the transform step and the `back_face` it turns up, with the new timestamp of 613.7g, and a `back_face` in a case that turns a permanent face down, which a double-faced one can't be (701.27, 712.8, 712.16)";
    InertKeywords => "inert-keywords", "keywords other than those ptoracle models (flanking, shroud, changeling…), carried, gained, lost and observed without effect (702)";
    AllCreatureTypes => "all-creature-types", "effects that give every creature type, `add_all_creature_types` (Mirror Entity, Mutavault; 205.3m, 613.1d): type-changing effects, which the 1999 rules apply whole with their types";
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A feature name this ptoracle does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFeature(pub String);

impl fmt::Display for UnknownFeature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
        write!(
            f,
            "unknown feature `{}`; known features: {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownFeature {}

impl FromStr for Feature {
    type Err = UnknownFeature;

    fn from_str(s: &str) -> Result<Feature, UnknownFeature> {
        Feature::ALL
            .iter()
            .copied()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFeature(s.to_string()))
    }
}

/// How much of a set of cases an engine that declares some features
/// plays, and what each feature it does not declare would add: what
/// `ptoracle check --features` lists, and what the gate's summary says of
/// the cases it skipped for features.
///
/// ```
/// use std::collections::BTreeSet;
/// use ptoracle_protocol::{Feature, Reach};
/// let needs = [
///     BTreeSet::from([Feature::Counters]),
///     BTreeSet::from([Feature::Spells]),
///     BTreeSet::from([Feature::Spells, Feature::Zones]),
///     BTreeSet::from([Feature::Zones, Feature::Copy]),
/// ];
/// let reach = Reach::of(needs, &BTreeSet::from([Feature::Counters, Feature::Zones]));
/// assert_eq!((reach.cases, reach.playable), (4, 1));
/// let best = reach.best().unwrap();
/// assert_eq!((best.feature, best.alone, best.needed_by), (Feature::Spells, 2, 2));
/// assert_eq!(best.more_cases(), "2 more cases");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// The cases counted.
    pub cases: usize,
    /// Those whose every feature is declared.
    pub playable: usize,
    /// Each feature not declared that some case needs, the one that
    /// unlocks the most cases first (then the most needed, then by name).
    pub unlocks: Vec<Unlock>,
}

/// What declaring one more feature would do (see [`Reach`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unlock {
    /// The feature.
    pub feature: Feature,
    /// The cases it alone stands between the engine and: declaring it
    /// makes them playable.
    pub alone: usize,
    /// The cases that need it (and maybe more).
    pub needed_by: usize,
}

impl Unlock {
    /// What declaring it adds, in words: `3 more cases`.
    pub fn more_cases(&self) -> String {
        format!("{} more case{}", self.alone, plural(self.alone))
    }
}

impl Reach {
    /// The feature that unlocks the most cases, if one unlocks any.
    pub fn best(&self) -> Option<&Unlock> {
        self.unlocks.first().filter(|u| u.alone > 0)
    }

    /// The reach of an engine that declares `declared` over cases needing
    /// `needs` (each case's [`required_features`]).
    pub fn of(
        needs: impl IntoIterator<Item = BTreeSet<Feature>>,
        declared: &BTreeSet<Feature>,
    ) -> Reach {
        let mut reach = Reach::default();
        let mut alone: std::collections::BTreeMap<Feature, usize> = Default::default();
        let mut needed: std::collections::BTreeMap<Feature, usize> = Default::default();
        for need in needs {
            reach.cases += 1;
            let missing: Vec<Feature> = need.difference(declared).copied().collect();
            if let [only] = missing[..] {
                *alone.entry(only).or_default() += 1;
            }
            for m in &missing {
                *needed.entry(*m).or_default() += 1;
            }
            if missing.is_empty() {
                reach.playable += 1;
            }
        }
        reach.unlocks = needed
            .into_iter()
            .map(|(feature, needed_by)| Unlock {
                feature,
                alone: alone.get(&feature).copied().unwrap_or(0),
                needed_by,
            })
            .collect();
        reach.unlocks.sort_by(|a, b| {
            (b.alone, b.needed_by)
                .cmp(&(a.alone, a.needed_by))
                .then(a.feature.name().cmp(b.feature.name()))
        });
        reach
    }
}

/// The features a case uses: those of what it reads (see the module's
/// documentation), never of a field it only carries.
///
/// ```
/// use ptoracle_protocol::{Feature, required_features};
/// let case: ptoracle_core::Case = serde_json::from_str(r#"{
///   "id": "demo/bears", "title": "t", "rules": ["613.4c"],
///   "setup": { "objects": [ { "id": "c", "name": "Grizzly Bears", "types": ["Creature"],
///                             "mana_cost": "{1}{G}", "pt": "2/2", "counters": { "+1/+1": 1 } } ] },
///   "steps": [ { "do": { "effect": { "affects": ["c"], "modify": "+3/+3", "until": "end-of-turn" } } }, { "do": "cleanup" } ]
/// }"#).unwrap();
/// let needs: Vec<Feature> = required_features(&case).into_iter().collect();
/// // Its printed mana cost asks for nothing: nothing casts it or reads its mana value.
/// assert_eq!(needs, [Feature::Counters, Feature::Modify, Feature::Cleanup]);
/// ```
pub fn required_features(case: &Case) -> BTreeSet<Feature> {
    let actions = || case.actions();
    let mut d = Derive {
        f: BTreeSet::new(),
        // 712.8d, 712.8e: a back face is read once something transforms.
        transform: actions().any(|a| matches!(a, Action::Transform(_))),
        // 712.16: whether a permanent has one is read by turning it face
        // down.
        turn_down: actions().any(|a| matches!(a, Action::TurnFaceDown(_))),
        // 122.6a, 614.1a: who puts counters matters only to such abilities.
        put_by: case
            .setup
            .objects
            .iter()
            .any(|o| o.counters_put_by.is_some()),
    };
    for p in &case.setup.players {
        if p.poison.0 != 0 {
            d.f.insert(Feature::Infect);
        }
        if !p.mana.is_empty() {
            d.f.insert(Feature::Mana);
        }
        if !p.snow_mana.is_empty() {
            d.f.insert(Feature::Costs);
        }
    }
    for o in &case.setup.objects {
        d.object(o);
    }
    for s in &case.steps {
        d.step(s);
    }
    // 107.3g, 608.2: what only a spell reads counts once the case plays
    // spells.
    let spells = d.f.contains(&Feature::Spells);
    if spells {
        for o in &case.setup.objects {
            d.spell_text(o);
        }
    }
    let unread = Unread {
        spells,
        crew: actions().any(|a| matches!(a, Action::Crew(_))),
        transform: d.transform,
    };
    if huge(case, &unread) {
        d.f.insert(Feature::HugeValues);
    }
    d.f
}

/// The derivation in progress, with what decides whether a field that is
/// read only by some steps or abilities is read in this case.
struct Derive {
    f: BTreeSet<Feature>,
    /// Some action transforms a permanent.
    transform: bool,
    /// Some action turns a permanent face down.
    turn_down: bool,
    /// Some object has a `counters_put_by` ability.
    put_by: bool,
}

fn counter_kind(k: &CounterKind, f: &mut BTreeSet<Feature>) {
    match k {
        CounterKind::Pt { .. } => {
            f.insert(Feature::Counters);
        }
        CounterKind::Keyword(_) => {
            f.insert(Feature::KeywordCounters);
        }
        CounterKind::Named(n) => {
            f.insert(match n.as_str() {
                "loyalty" => Feature::Planeswalkers,
                "defense" => Feature::Battles,
                "shield" => Feature::ShieldCounters,
                "level" => Feature::LevelUp,
                "hone" => Feature::Attachments,
                "lore" => Feature::Sagas,
                "poison" => Feature::Infect,
                _ => Feature::OtherCounters,
            });
        }
    }
}

fn keyword(k: Keyword, f: &mut BTreeSet<Feature>) {
    let feature = match k {
        Keyword::Deathtouch => Feature::Deathtouch,
        Keyword::Wither => Feature::Wither,
        Keyword::Infect => Feature::Infect,
        Keyword::Lifelink => Feature::Lifelink,
        Keyword::Indestructible => Feature::Indestructible,
        Keyword::Undying => Feature::Undying,
        Keyword::Persist => Feature::Persist,
        Keyword::Inert(_) => Feature::InertKeywords,
        _ => return,
    };
    f.insert(feature);
}

fn card_types(types: &[CardType], f: &mut BTreeSet<Feature>) {
    if types.contains(&CardType::Planeswalker) {
        f.insert(Feature::Planeswalkers);
    }
    if types.contains(&CardType::Battle) {
        f.insert(Feature::Battles);
    }
}

impl Derive {
    fn object(&mut self, o: &ObjectSpec) {
        let f = &mut self.f;
        card_types(&o.types, f);
        if o.zone != Zone::Battlefield {
            f.insert(Feature::Zones);
        }
        if o.pt.is_some_and(|p| p.has_star()) || o.cda.is_some() {
            f.insert(Feature::Cda);
        }
        if let Some(cda) = &o.cda {
            for q in [&cda.power, &cda.toughness].into_iter().flatten() {
                quantity(q, f);
            }
        }
        if o.loyalty.is_some() {
            f.insert(Feature::Planeswalkers);
        }
        if o.defense.is_some() {
            f.insert(Feature::Battles);
        }
        if o.timestamp.is_some() {
            f.insert(Feature::Timestamps);
        }
        for (k, n) in &o.counters {
            if n.0 != 0 {
                counter_kind(k, f);
            }
        }
        if o.deathtouch_damage {
            f.insert(Feature::Deathtouch);
        }
        if o.regeneration_shields.0 != 0 {
            f.insert(Feature::Regeneration);
        }
        for k in &o.keywords {
            keyword(*k, f);
        }
        if !o.abilities.is_empty() {
            f.insert(Feature::StaticAbilities);
        }
        for a in &o.abilities {
            effect(a, f);
        }
        if !o.level_up.is_empty() {
            f.insert(Feature::LevelUp);
            for band in &o.level_up {
                for k in &band.keywords {
                    keyword(*k, f);
                }
                if !band.abilities.is_empty() {
                    f.insert(Feature::LevelAbilities);
                    f.insert(Feature::StaticAbilities);
                }
                for a in &band.abilities {
                    effect(a, f);
                }
            }
        }
        if o.cant_have_counters_put {
            f.insert(Feature::CantHaveCounters);
        }
        if o.counters_put_by.is_some() {
            f.insert(Feature::CountersPutBy);
        }
        if o.attached_to.is_some() {
            f.insert(Feature::Attachments);
        }
        if !o.max_counters.is_empty() {
            f.insert(Feature::CounterLimits);
        }
        // 714.3a, 704.5s: the subtype is read as a Saga enters.
        if !o.chapters.is_empty() || o.subtypes.iter().any(|s| s == "Saga") {
            f.insert(Feature::Sagas);
        }
        if !o.counter_triggers.is_empty() {
            f.insert(Feature::CounterTriggers);
        }
        for t in &o.counter_triggers {
            counter_kind(&t.kind, f);
        }
        if !o.enters_as.is_empty() || o.choose.is_some() {
            f.insert(Feature::ChoosePt);
            for c in &o.enters_as {
                for k in &c.keywords {
                    keyword(*k, f);
                }
            }
        }
        if o.face_down {
            f.insert(Feature::FaceDown);
        }
        if o.copy.is_some() {
            f.insert(Feature::Copy);
        }
        // 701.27c, 712.16: having a back face is read by transforming and
        // by turning face down; 712.8e: what it holds, once it is up.
        if o.back_face.is_some() && (self.transform || self.turn_down) {
            f.insert(Feature::Transform);
        }
        if let Some(b) = o.back_face.as_deref().filter(|_| self.transform) {
            for k in &b.keywords {
                keyword(*k, f);
            }
            if !b.abilities.is_empty() {
                f.insert(Feature::StaticAbilities);
            }
            for a in &b.abilities {
                effect(a, f);
            }
        }
        if o.sick {
            f.insert(Feature::SummoningSickness);
        }
        if !o.enters_with.is_empty() {
            f.insert(Feature::EntersWith);
            for (k, q) in &o.enters_with {
                counter_kind(k, f);
                quantity(q, f);
            }
        }
        for c in &o.chapters {
            self.action(&c.action);
        }
        for t in &o.counter_triggers {
            self.action(&t.action);
        }
    }

    /// What an object holds that only a spell reads: the X its text
    /// defines (107.3c, read by `x_of` and `mana_value_of` while it is on
    /// the stack) and what it does as it resolves (608.2). Counted only
    /// in a case that plays spells.
    fn spell_text(&mut self, o: &ObjectSpec) {
        if let Some(q) = &o.x_is {
            quantity(q, &mut self.f);
        }
        if let Some(a) = &o.on_resolve {
            self.action(a);
        }
    }

    fn step(&mut self, s: &Step) {
        if !s.sba {
            self.f.insert(Feature::DeferredSba);
        }
        // A case about summoning sickness may show it only in what it expects.
        let expects = s
            .expect
            .values()
            .chain(s.expect_in.values().flat_map(|e| e.values()));
        if expects.into_iter().any(|e| {
            e.summoning_sick.is_some() || e.lki.as_ref().is_some_and(|l| l.summoning_sick.is_some())
        }) {
            self.f.insert(Feature::SummoningSickness);
        }
        self.action(&s.action);
    }

    fn action(&mut self, a: &Action) {
        let by = match a {
            Action::PutCounters(p) => p.by.is_some(),
            Action::DoubleCounters(d) => d.by.is_some(),
            Action::MoveCounters(m) => m.by.is_some(),
            Action::PutCountersFrom(p) => p.by.is_some(),
            Action::Move(m) => m.by.is_some(),
            _ => false,
        };
        // 122.6a, 614.1a: who puts counters is read only by an ability
        // that changes how many they put.
        if by && self.put_by {
            self.f.insert(Feature::CountersPutBy);
        }
        let f = &mut self.f;
        match a {
            Action::PutCounters(p) => counter_kind(&p.kind, f),
            Action::RemoveCounters(r) => counter_kind(&r.kind, f),
            Action::DoubleCounters(d) => {
                f.insert(Feature::DoubleCounters);
                counter_kind(&d.kind, f);
            }
            Action::MoveCounters(m) => {
                f.insert(Feature::MoveCounters);
                counter_kind(&m.kind, f);
            }
            Action::PutCountersFrom(p) => {
                f.insert(Feature::CountersFrom);
                for k in &p.kinds {
                    counter_kind(k, f);
                }
            }
            Action::Effect(e) => effect(e, f),
            Action::Damage(d) => {
                f.insert(Feature::Damage);
                quantity(&d.amount, f);
            }
            Action::CombatDamage(_) => {
                f.insert(Feature::CombatDamage);
            }
            Action::Attack(_) => {
                f.insert(Feature::Combat);
            }
            Action::CombatDamageStep(d) => {
                f.insert(Feature::Combat);
                if !d.assign.is_empty() {
                    f.insert(Feature::CombatDivision);
                }
            }
            Action::AddMana(m) => {
                f.insert(Feature::Mana);
                if m.snow {
                    f.insert(Feature::Costs);
                }
                quantity(&m.amount, f);
            }
            Action::PayCost(p) => {
                f.insert(Feature::Mana);
                f.insert(Feature::Costs);
                if p.cost_of.is_some() {
                    f.insert(Feature::Spells);
                }
            }
            Action::Double(_) => {
                f.insert(Feature::Double);
            }
            Action::Triple(_) => {
                f.insert(Feature::Triple);
            }
            Action::Exchange(_) => {
                f.insert(Feature::Exchange);
            }
            Action::Prevent(_) => {
                f.insert(Feature::Prevention);
            }
            Action::Regenerate(_) => {
                f.insert(Feature::Regeneration);
            }
            Action::Destroy(_) => {
                f.insert(Feature::Destroy);
            }
            Action::Move(m) => {
                f.insert(Feature::Zones);
                if m.copy.is_some() {
                    f.insert(Feature::Copy);
                }
                if m.choose.is_some() {
                    f.insert(Feature::ChoosePt);
                }
                for (k, n) in &m.counters {
                    if n.0 != 0 {
                        counter_kind(k, f);
                    }
                }
            }
            Action::Attach(_) => {
                f.insert(Feature::Attachments);
            }
            Action::Crew(_) => {
                f.insert(Feature::Vehicles);
            }
            Action::Cleanup => {
                f.insert(Feature::Cleanup);
            }
            Action::GainControl(_) => {
                f.insert(Feature::ControlChanges);
            }
            Action::Cast(_) | Action::Resolve(_) => {
                f.insert(Feature::Spells);
            }
            Action::BeginTurn(_) => {
                f.insert(Feature::SummoningSickness);
            }
            Action::TurnFaceUp(_) | Action::TurnFaceDown(_) => {
                f.insert(Feature::FaceDown);
            }
            Action::Transform(_) => {
                f.insert(Feature::Transform);
            }
            Action::Copy(_) => {
                f.insert(Feature::Copy);
            }
            Action::StateBasedActions => {}
        }
    }
}

fn effect(e: &EffectSpec, f: &mut BTreeSet<Feature>) {
    if e.set.is_some() {
        f.insert(Feature::Set);
    }
    if e.set_power.is_some() || e.set_toughness.is_some() {
        f.insert(Feature::Exchange);
    }
    if e.modify.is_some() {
        f.insert(Feature::Modify);
    }
    if e.switch {
        f.insert(Feature::Switch);
    }
    if !e.add_types.is_empty() || !e.remove_types.is_empty() {
        f.insert(Feature::TypeChanges);
        card_types(&e.add_types, f);
    }
    if e.add_all_creature_types {
        f.insert(Feature::AllCreatureTypes);
    }
    if e.set_colors.is_some() {
        f.insert(Feature::ColorChanges);
    }
    if !e.add_keywords.is_empty() || !e.remove_keywords.is_empty() || e.remove_all_abilities {
        f.insert(Feature::AbilityChanges);
        for k in &e.add_keywords {
            keyword(*k, f);
        }
    }
    if let Some(g) = &e.grant_pt_ability {
        f.insert(Feature::GrantedPt);
        for q in g.power.iter().chain(&g.toughness) {
            quantity(q, f);
        }
    }
    if let Some(x) = &e.x {
        quantity(x, f);
    }
    if e.timestamp.is_some() {
        f.insert(Feature::Timestamps);
    }
    if e.until == Some(Until::SourceLeaves) {
        f.insert(Feature::SourceDurations);
    }
    if let Affects::Filter(filter) = &e.affects {
        if e.until.is_some() {
            f.insert(Feature::LockedSets);
        }
        if let Some(k) = &filter.with_counter {
            counter_kind(k, f);
        }
    }
    if matches!(e.affects, Affects::Attached) {
        f.insert(Feature::Attachments);
    }
}

fn quantity(q: &Quantity, f: &mut BTreeSet<Feature>) {
    let Quantity::Ref(r) = q else {
        return;
    };
    f.insert(Feature::Quantities);
    match &**r {
        QuantityRef::Counters(c) => counter_kind(&c.kind, f),
        QuantityRef::Count(filter) => {
            if filter.zone.is_some_and(|z| z != Zone::Battlefield) {
                f.insert(Feature::Zones);
            }
        }
        QuantityRef::Sum(items) => {
            for i in items {
                quantity(i, f);
            }
        }
        QuantityRef::Half(h) => quantity(&h.of, f),
        QuantityRef::XOf(_) | QuantityRef::ManaValueOf(_) => {
            f.insert(Feature::Spells);
        }
        QuantityRef::PowerOf(_)
        | QuantityRef::ToughnessOf(_)
        | QuantityRef::Life(_)
        | QuantityRef::HandSize(_) => {}
    }
}

/// Which of the fields read only by some steps or abilities this case
/// reads (see the module's documentation): the numbers in the others never
/// make it need `huge-values`.
struct Unread {
    /// It plays spells: mana costs and values, X and what spells do are read.
    spells: bool,
    /// A step crews: `crew` is read.
    crew: bool,
    /// A step transforms: `back_face` is read.
    transform: bool,
}

impl Unread {
    /// Whether the object field `key` holds nothing this case reads.
    fn skips(&self, key: &str) -> bool {
        match key {
            "mana_cost" | "mana_value" | "x" | "x_is" | "on_resolve" => !self.spells,
            "crew" => !self.crew,
            "back_face" => !self.transform,
            _ => false,
        }
    }
}

/// Whether any number the case reads lies beyond 32 bits, in a field or
/// inside a text such as a P/T (`+3000000000/+0`). Handles and names hold
/// digits but no numbers.
fn huge(case: &Case, unread: &Unread) -> bool {
    const LIMIT: u64 = i32::MAX as u64;
    let handles: BTreeSet<&str> = case
        .setup
        .objects
        .iter()
        .map(|o| o.id.as_str())
        .chain(case.setup.players.iter().map(|p| p.id.as_str()))
        .collect();
    let digits_huge = |s: &str| {
        !handles.contains(s)
            && s.split(|c: char| !c.is_ascii_digit())
                .filter(|run| !run.is_empty())
                .any(|run| run.len() > 10 || run.parse::<u64>().ok().is_none_or(|n| n > LIMIT))
    };
    fn walk(v: &serde_json::Value, digits_huge: &dyn Fn(&str) -> bool) -> bool {
        match v {
            serde_json::Value::Number(n) => n.as_i64().is_none_or(|i| i.unsigned_abs() > LIMIT),
            serde_json::Value::String(s) => digits_huge(s),
            serde_json::Value::Array(items) => items.iter().any(|v| walk(v, digits_huge)),
            // Names are words, whatever digits they hold.
            serde_json::Value::Object(map) => map
                .iter()
                .any(|(k, v)| k != "name" && (digits_huge(k) || walk(v, digits_huge))),
            _ => false,
        }
    }
    let object = |o: &ObjectSpec| match serde_json::to_value(o) {
        Ok(serde_json::Value::Object(map)) => map
            .iter()
            .any(|(k, v)| k != "name" && !unread.skips(k) && walk(v, &digits_huge)),
        _ => false,
    };
    case.setup
        .players
        .iter()
        .any(|p| serde_json::to_value(p).is_ok_and(|v| walk(&v, &digits_huge)))
        || case.setup.objects.iter().any(object)
        || case
            .steps
            .iter()
            .any(|s| serde_json::to_value(&s.action).is_ok_and(|v| walk(&v, &digits_huge)))
}
