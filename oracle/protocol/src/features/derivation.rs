//! The features a case requires, derived from what it reads (see the
//! module `features`).

use super::*;

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
