//! Features: the parts of the scenario format an engine may implement one
//! at a time. An engine declares its features in the handshake; the gate
//! sends it only the cases whose [`required_features`] it declares, and
//! skips the others with the names of what is missing.
//!
//! The core, which every engine implements, is: objects on the battlefield
//! with card types, colors, printed numeric power and toughness, keywords
//! other than those named below, damage already marked, tapped; two players
//! with life totals; the `state_based_actions` step; and full observations.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use crate::scenario::{
    Action, Affects, Case, EffectSpec, ObjectSpec, Quantity, QuantityRef, Step, Until,
};
use crate::terms::{CardType, CounterKind, Keyword, Zone};

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
    Vehicles => "vehicles", "Vehicles and the crew step (301.7, 702.122)";
    Undying => "undying", "undying (702.93)";
    Persist => "persist", "persist (702.79)";
    Planeswalkers => "planeswalkers", "planeswalkers, loyalty and damage to them (306, 704.5i)";
    ShieldCounters => "shield-counters", "shield counters: the damage they prevent and the destruction they replace (122.1c, 615.6)";
    Battles => "battles", "battles: printed `defense`, defense counters, damage to them, the Siege ability and the state-based action of 704.5v (310, 120.3h)";
    Costs => "costs", "the pay_cost step, snow mana and the payments of a cost (107.4, 119.4)";
    ChoosePt => "choose-pt", "cards whose power and toughness are chosen as they enter the battlefield, `enters_as` (208.2b)";
    SummoningSickness => "summoning-sickness", "permanents that came under their controller's control this turn (`sick`), the begin_turn step, and the `summoning_sick` observation (302.6, 702.10)";
    ControlChanges => "control-changes", "the gain_control step (613.1b)";
    Spells => "spells", "spells on the stack and X: `mana_cost`, `x`, `x_is` and `on_resolve` on objects, the cast and resolve steps, pay_cost with `cost_of`, and the `x_of` and `mana_value_of` quantities (107.3, 202.3, 601.2, 608.2)";
    EntersWith => "enters-with", "objects that enter the battlefield with counters by their own replacement effect, `enters_with` (614.1c, 122.6)";
    HugeValues => "huge-values", "numbers beyond 32 bits, and overflow reported as an error (107.1)";
    Sagas => "sagas", "Sagas: lore counters, chapter abilities and the sacrifice of 704.5s (714, 107.15)";
    CounterTriggers => "counter-triggers", "abilities that trigger when the Nth counter of a kind is put on an object (122.7)";
    CountersFrom => "counters-from", "the put_counters_from step: one object's counters put on another, from its last known information once it has left (122.8)";
    LevelAbilities => "level-abilities", "static abilities a creature has while its level counters are in a band, `abilities` of a level band (107.8a, 107.8b)";
    CantHaveCounters => "cant-have-counters", "objects that can't have counters put on them, `cant_have_counters_put` (122.5, 122.6)";
    CountersPutBy => "counters-put-by", "who puts counters: `by` on put_counters, move_counters, put_counters_from and move, and `counters_put_by` abilities that change how many counters a player puts (122.6a, 614.1a)";
    FaceDown => "face-down", "face-down permanents: objects set up `face_down` (a 2/2 with no name, text, subtypes or mana cost) and the turn_face_up and turn_face_down steps, with the new timestamp of 613.7f (708, 613.7f)";
    Transform => "transform", "double-faced permanents: `back_face` on objects and the transform step, with the new timestamp of 613.7g (701.27, 712.8)";
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

/// The features a case uses.
///
/// ```
/// use ptoracle_protocol::{Feature, required_features};
/// let case: ptoracle_core::Case = serde_json::from_str(r#"{
///   "id": "demo/bears", "title": "t", "rules": ["613.4c"],
///   "setup": { "objects": [ { "id": "c", "types": ["Creature"], "pt": "2/2", "counters": { "+1/+1": 1 } } ] },
///   "steps": [ { "do": { "effect": { "affects": ["c"], "modify": "+3/+3", "until": "end-of-turn" } } }, { "do": "cleanup" } ]
/// }"#).unwrap();
/// let needs: Vec<Feature> = required_features(&case).into_iter().collect();
/// assert_eq!(needs, [Feature::Counters, Feature::Modify, Feature::Cleanup]);
/// ```
pub fn required_features(case: &Case) -> BTreeSet<Feature> {
    let mut f = BTreeSet::new();
    for p in &case.setup.players {
        if p.poison.0 != 0 {
            f.insert(Feature::Infect);
        }
        if !p.mana.is_empty() {
            f.insert(Feature::Mana);
        }
        if !p.snow_mana.is_empty() {
            f.insert(Feature::Costs);
        }
    }
    for o in &case.setup.objects {
        object(o, &mut f);
    }
    for s in &case.steps {
        step(s, &mut f);
    }
    if huge(case) {
        f.insert(Feature::HugeValues);
    }
    f
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

fn object(o: &ObjectSpec, f: &mut BTreeSet<Feature>) {
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
    if o.crew.is_some() || o.subtypes.iter().any(|s| s == "Vehicle") {
        f.insert(Feature::Vehicles);
    }
    if o.attached_to.is_some() {
        f.insert(Feature::Attachments);
    }
    if !o.max_counters.is_empty() {
        f.insert(Feature::CounterLimits);
    }
    if !o.chapters.is_empty() || o.subtypes.iter().any(|s| s == "Saga") {
        f.insert(Feature::Sagas);
    }
    for c in &o.chapters {
        action(&c.action, f);
    }
    if !o.counter_triggers.is_empty() {
        f.insert(Feature::CounterTriggers);
    }
    for t in &o.counter_triggers {
        counter_kind(&t.kind, f);
        action(&t.action, f);
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
    if let Some(b) = &o.back_face {
        f.insert(Feature::Transform);
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
    if o.mana_cost.is_some() || o.x.is_some() || o.x_is.is_some() || o.on_resolve.is_some() {
        f.insert(Feature::Spells);
    }
    if let Some(q) = &o.x_is {
        quantity(q, f);
    }
    if let Some(a) = &o.on_resolve {
        action(a, f);
    }
    if !o.enters_with.is_empty() {
        f.insert(Feature::EntersWith);
        for (k, q) in &o.enters_with {
            counter_kind(k, f);
            quantity(q, f);
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

fn step(s: &Step, f: &mut BTreeSet<Feature>) {
    if !s.sba {
        f.insert(Feature::DeferredSba);
    }
    // A case about summoning sickness may show it only in what it expects.
    let expects = s
        .expect
        .values()
        .chain(s.expect_in.values().flat_map(|e| e.values()));
    if expects.into_iter().any(|e| {
        e.summoning_sick.is_some() || e.lki.as_ref().is_some_and(|l| l.summoning_sick.is_some())
    }) {
        f.insert(Feature::SummoningSickness);
    }
    action(&s.action, f);
}

fn action(a: &Action, f: &mut BTreeSet<Feature>) {
    let by = match a {
        Action::PutCounters(p) => p.by.is_some(),
        Action::DoubleCounters(d) => d.by.is_some(),
        Action::MoveCounters(m) => m.by.is_some(),
        Action::PutCountersFrom(p) => p.by.is_some(),
        Action::Move(m) => m.by.is_some(),
        _ => false,
    };
    if by {
        f.insert(Feature::CountersPutBy);
    }
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
        Action::Attack(_) | Action::CombatDamageStep(_) => {
            f.insert(Feature::Combat);
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

/// Whether any number the case states lies beyond 32 bits, in a field or
/// inside a text such as a P/T (`+3000000000/+0`).
fn huge(case: &Case) -> bool {
    const LIMIT: u64 = i32::MAX as u64;
    fn digits_huge(s: &str) -> bool {
        s.split(|c: char| !c.is_ascii_digit())
            .filter(|run| !run.is_empty())
            .any(|run| run.len() > 10 || run.parse::<u64>().ok().is_none_or(|n| n > LIMIT))
    }
    fn walk(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::Number(n) => n.as_i64().is_none_or(|i| i.unsigned_abs() > LIMIT),
            serde_json::Value::String(s) => digits_huge(s),
            serde_json::Value::Array(items) => items.iter().any(walk),
            serde_json::Value::Object(map) => map.iter().any(|(k, v)| digits_huge(k) || walk(v)),
            _ => false,
        }
    }
    serde_json::to_value(&case.setup).is_ok_and(|v| walk(&v))
        || case
            .steps
            .iter()
            .any(|s| serde_json::to_value(&s.action).is_ok_and(|v| walk(&v)))
}
