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

mod derivation;
mod reach;

pub use derivation::required_features;
pub use reach::{Reach, Unlock};

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
