//! What the types of the format cannot say: every handle names something
//! of the right kind, effects have the right shape for where they stand,
//! and so on. Each problem is reported with the path of its node.

use std::collections::BTreeMap;

use super::{
    Action, Affects, Case, EffectSpec, Expect, Filter, Handle, ObjectSpec, Quantity, QuantityRef,
};
use crate::edition::EditionRange;
use crate::error::{NodePath, ScenarioError};
use crate::number::Printed;
use crate::terms::{CardType, CounterKind, Zone};

/// The most objects a case may have in its setup.
pub const MAX_OBJECTS: usize = 10_000;

/// The most steps a case may have.
pub const MAX_STEPS: usize = 10_000;

/// The most continuous effects a case may write: static abilities
/// (including level bands and their abilities) and `effect` actions,
/// wherever they stand (steps, chapters, counter triggers, spells).
pub const MAX_EFFECTS: usize = 10_000;

/// The most of those effects that may change types, colors or abilities
/// (layers 4–6): their order may depend on one another (613.8), which is
/// checked pair by pair as each applies.
pub const MAX_EARLY_EFFECTS: usize = 64;

/// The most objects × steps a case may have: every step observes every
/// object.
pub const MAX_OBSERVATIONS: u64 = 1_000_000;

/// The most resolution work a case may ask for, counted as steps ×
/// objects × (1 + effects + early effects³ / 16): each step applies every
/// effect to every object it may affect (613), and orders the effects of
/// layers 4–6 by their dependencies, pair by pair (613.8).
pub const MAX_WORK: u64 = 5_000_000;

/// How big a case is, in the terms of its limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Objects in the setup.
    pub objects: usize,
    /// Steps.
    pub steps: usize,
    /// Continuous effects written (see [`MAX_EFFECTS`]).
    pub effects: usize,
    /// Those of them with a part in layers 4–6 (see [`MAX_EARLY_EFFECTS`]).
    pub early_effects: usize,
    /// Where the first effect beyond [`MAX_EFFECTS`] is written.
    first_effect_over: Option<NodePath>,
    /// Where the first early effect beyond [`MAX_EARLY_EFFECTS`] is written.
    first_early_over: Option<NodePath>,
}

impl Size {
    /// Measures `case`.
    pub fn of(case: &Case) -> Size {
        let mut size = Size {
            objects: case.setup.objects.len(),
            steps: case.steps.len(),
            ..Size::default()
        };
        let objects = NodePath::root().key("setup").key("objects");
        for (i, o) in case.setup.objects.iter().enumerate() {
            let at = objects.index(i);
            for (j, band) in o.level_up.iter().enumerate() {
                // A band is a static ability: its P/T, and its keywords in layer 6.
                let band_at = at.key("level_up").index(j);
                size.count(!band.keywords.is_empty(), &band_at);
                for (k, ab) in band.abilities.iter().enumerate() {
                    size.count(ab.has_early_parts(), &band_at.key("abilities").index(k));
                }
            }
            for (j, ab) in o.abilities.iter().enumerate() {
                size.count(ab.has_early_parts(), &at.key("abilities").index(j));
            }
            for (j, ch) in o.chapters.iter().enumerate() {
                size.action(&ch.action, &at.key("chapters").index(j));
            }
            for (j, t) in o.counter_triggers.iter().enumerate() {
                size.action(&t.action, &at.key("counter_triggers").index(j));
            }
            if let Some(a) = &o.on_resolve {
                size.action(a, &at.key("on_resolve").key(a.key()));
            }
        }
        for (i, step) in case.steps.iter().enumerate() {
            let at = NodePath::root().key("steps").index(i);
            size.action(&step.action, &at.key("do").key(step.action.key()));
        }
        size
    }

    fn action(&mut self, a: &Action, path: &NodePath) {
        if let Action::Effect(e) = a {
            self.count(e.has_early_parts(), path);
        }
    }

    fn count(&mut self, early: bool, path: &NodePath) {
        self.effects += 1;
        if self.effects == MAX_EFFECTS + 1 {
            self.first_effect_over = Some(path.clone());
        }
        if early {
            self.early_effects += 1;
            if self.early_effects == MAX_EARLY_EFFECTS + 1 {
                self.first_early_over = Some(path.clone());
            }
        }
    }

    /// Objects × steps (see [`MAX_OBSERVATIONS`]).
    pub fn observations(&self) -> u64 {
        (self.objects as u64).saturating_mul(self.steps as u64)
    }

    /// The resolution work (see [`MAX_WORK`]).
    pub fn work(&self) -> u64 {
        let early = self.early_effects as u64;
        let per = 1u64
            .saturating_add(self.effects as u64)
            .saturating_add(early.saturating_mul(early).saturating_mul(early) / 16);
        self.observations().saturating_mul(per)
    }

    /// The limits `case` goes beyond, each with the path of what goes
    /// beyond it; none for a case within them.
    pub fn problems(&self) -> Vec<ScenarioError> {
        let mut v = Vec::new();
        let root = NodePath::root();
        if self.objects > MAX_OBJECTS {
            v.push(ScenarioError::new(
                root.key("setup").key("objects").index(MAX_OBJECTS),
                format!(
                    "a case may have at most {MAX_OBJECTS} objects (it has {})",
                    self.objects
                ),
            ));
        }
        if self.steps > MAX_STEPS {
            v.push(ScenarioError::new(
                root.key("steps").index(MAX_STEPS),
                format!(
                    "a case may have at most {MAX_STEPS} steps (it has {})",
                    self.steps
                ),
            ));
        }
        if let Some(at) = &self.first_effect_over {
            v.push(ScenarioError::new(
                at.clone(),
                format!(
                    "a case may have at most {MAX_EFFECTS} static abilities and effects (it has {})",
                    self.effects
                ),
            ));
        }
        if let Some(at) = &self.first_early_over {
            v.push(ScenarioError::new(
                at.clone(),
                format!(
                    "a case may have at most {MAX_EARLY_EFFECTS} static abilities and effects that change types, colors or abilities, layers 4–6 (it has {})",
                    self.early_effects
                ),
            ));
        }
        if !v.is_empty() {
            return v;
        }
        if self.observations() > MAX_OBSERVATIONS {
            v.push(ScenarioError::new(
                root.key("steps"),
                format!(
                    "a case may have at most {MAX_OBSERVATIONS} objects × steps, as every step observes every object (it has {} × {} = {})",
                    self.objects,
                    self.steps,
                    self.observations()
                ),
            ));
        } else if self.work() > MAX_WORK {
            v.push(ScenarioError::new(
                root.key("steps"),
                format!(
                    "a case may ask for at most {MAX_WORK} units of resolution work, steps × objects × (1 + effects + effects in layers 4–6 cubed / 16) (it has {} × {} × (1 + {} + {}³ / 16) = {})",
                    self.steps,
                    self.objects,
                    self.effects,
                    self.early_effects,
                    self.work()
                ),
            ));
        }
        v
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Object,
    Player,
}

struct Validator<'a> {
    names: BTreeMap<&'a str, Kind>,
    objects: BTreeMap<&'a str, &'a ObjectSpec>,
    errors: Vec<ScenarioError>,
    /// The first filter that names subtypes, and the first effect that
    /// gives all creature types: the model can't have both (D73).
    subtype_filter: Option<NodePath>,
    all_creature_types: Option<NodePath>,
}

/// Checks a case for everything its types cannot say. Returns every problem
/// found, each with the path of the node it is about. A case beyond the
/// size limits (see [`Size`] and [`MAX_WORK`]) gets only those problems:
/// it is refused before it is looked at further.
///
/// ```
/// let case: ptoracle_core::Case = serde_json::from_str(r#"{
///   "id": "x/y", "title": "t", "rules": ["613.4c"],
///   "setup": { "objects": [ { "id": "c", "types": ["Creature"], "pt": "2/2" } ] },
///   "steps": [ { "do": { "put_counters": { "on": "nobody", "kind": "+1/+1" } } } ]
/// }"#).unwrap();
/// let errors = ptoracle_core::scenario::validate(&case);
/// assert_eq!(errors[0].path.to_string(), "steps[0].do.put_counters.on");
/// assert!(errors[0].message.contains("no object or player `nobody`"));
/// ```
pub fn validate(case: &Case) -> Vec<ScenarioError> {
    let mut v = Validator {
        names: BTreeMap::new(),
        objects: BTreeMap::new(),
        errors: Vec::new(),
        subtype_filter: None,
        all_creature_types: None,
    };
    // An oversized case is refused before anything else is looked at, with
    // the same located error on every way in (files, `serve`, the gate).
    let oversized = Size::of(case).problems();
    if !oversized.is_empty() {
        return oversized;
    }
    v.case(case);
    if let (Some(at), Some(filter)) = (v.all_creature_types.take(), &v.subtype_filter) {
        let message = format!(
            "the model does not track the subtypes effects give, so a case that gives all creature types can't also look objects up by subtype (`subtypes` at {filter}); DECISIONS.md D73"
        );
        v.err(at, message);
    }
    v.errors
}

impl<'a> Validator<'a> {
    fn err(&mut self, path: NodePath, message: impl Into<String>) {
        self.errors.push(ScenarioError::new(path, message));
    }

    fn case(&mut self, case: &'a Case) {
        let root = NodePath::root();
        if case.rules.is_empty() {
            self.err(root.key("rules"), "cite at least one CR rule");
        }
        if case.steps.is_empty() {
            self.err(root.key("steps"), "a case needs at least one step");
        }
        let setup = root.key("setup");
        if case.setup.players.is_empty() {
            self.err(setup.key("players"), "a game needs at least one player");
        }
        for (i, p) in case.setup.players.iter().enumerate() {
            let path = setup.key("players").index(i);
            self.declare(&p.id, Kind::Player, path.key("id"));
            for (m, n) in &p.snow_mana.0 {
                let all = p.mana.0.get(m).map_or(0, |c| c.0);
                if n.0 > all {
                    self.err(
                        path.key("snow_mana").key(m.to_string()),
                        format!(
                            "{} {{{m}}} from snow sources, but the pool holds {all} {{{m}}}: `snow_mana` is the part of `mana` that snow sources made",
                            n.0
                        ),
                    );
                }
            }
        }
        for (i, o) in case.setup.objects.iter().enumerate() {
            self.declare(&o.id, Kind::Object, setup.key("objects").index(i).key("id"));
            self.objects.insert(o.id.as_str(), o);
        }
        for (i, o) in case.setup.objects.iter().enumerate() {
            self.object(o, &setup.key("objects").index(i));
        }
        for (i, o) in case.setup.objects.iter().enumerate() {
            self.setup_copy(case, i, o, &setup.key("objects").index(i).key("copy"));
        }
        let last = case.steps.len().saturating_sub(1);
        for (i, step) in case.steps.iter().enumerate() {
            let path = root.key("steps").index(i);
            self.action(&step.action, &path.key("do").key(step.action.key()));
            for (handle, expect) in &step.expect {
                self.expect(
                    handle,
                    expect,
                    &path.key("expect").key(handle.0.to_string()),
                    false,
                );
            }
            let ranges: Vec<&EditionRange> = step.expect_in.keys().collect();
            for (r, expects) in &step.expect_in {
                let at = path.key("expect_in").key(r.to_string());
                for (handle, expect) in expects {
                    self.expect(handle, expect, &at.key(handle.0.to_string()), false);
                }
                if let Some(other) = ranges.iter().find(|o| **o < r && o.overlaps(r)) {
                    self.err(
                        at.clone(),
                        format!("editions {r} overlap editions {other}: each edition takes its expectations from one entry"),
                    );
                }
                if let Some(whole) = &case.editions {
                    if !whole.overlaps(r) {
                        self.err(
                            at,
                            format!("the case holds in editions {whole} only, so expectations for {r} are never used"),
                        );
                    }
                }
            }
            if step.expect_error.is_some() {
                if !step.expect_in.is_empty() {
                    self.err(
                        path.key("expect_in"),
                        "a step that expects an error has no state to check",
                    );
                }
                if i != last {
                    self.err(
                        path.key("expect_error"),
                        "only the last step can expect an error: nothing follows an error",
                    );
                }
                if !step.expect.is_empty() {
                    self.err(
                        path.key("expect"),
                        "a step that expects an error has no state to check",
                    );
                }
            }
        }
    }

    fn declare(&mut self, h: &'a Handle, kind: Kind, path: NodePath) {
        if self.names.insert(h.as_str(), kind).is_some() {
            self.err(
                path,
                format!("handle `{h}` is used twice; each object and player needs its own"),
            );
        }
    }

    fn kind_of(&mut self, h: &Handle, want: Option<Kind>, path: &NodePath) -> Option<Kind> {
        match (self.names.get(h.as_str()).copied(), want) {
            (None, Some(Kind::Player)) => {
                self.err(path.clone(), format!("there is no player `{h}`"));
                None
            }
            (None, Some(Kind::Object)) => {
                self.err(
                    path.clone(),
                    format!("there is no object `{h}` in the setup"),
                );
                None
            }
            (None, None) => {
                self.err(path.clone(), format!("there is no object or player `{h}`"));
                None
            }
            (Some(k), Some(w)) if k != w => {
                let (is, wanted) = match k {
                    Kind::Object => ("an object", "a player"),
                    Kind::Player => ("a player", "an object"),
                };
                self.err(
                    path.clone(),
                    format!("`{h}` is {is}; {wanted} is needed here"),
                );
                None
            }
            (Some(k), _) => Some(k),
        }
    }

    /// 701.12g: two numerical values, each a creature's power or toughness
    /// or a player's life total.
    fn exchange(&mut self, x: &super::Exchange, path: &NodePath) {
        use super::Exchanged;
        let at = path.key("values");
        if x.values.len() != 2 {
            self.err(
                at.clone(),
                format!(
                    "an exchange has two values, not {} (701.12g)",
                    x.values.len()
                ),
            );
        }
        for (i, v) in x.values.iter().enumerate() {
            let want = match v {
                Exchanged::Life(_) => Kind::Player,
                Exchanged::Power(_) | Exchanged::Toughness(_) => Kind::Object,
            };
            self.kind_of(v.of(), Some(want), &at.index(i));
        }
        if let [a, b] = x.values.as_slice() {
            if a == b {
                self.err(at.index(1), format!("{a} can't be exchanged with itself"));
            } else if a.of() == b.of() && !matches!(a, Exchanged::Life(_)) {
                self.err(
                    at.index(1),
                    format!(
                        "exchanging a creature's power and toughness is switching them (701.12g, 613.4d): write an effect with `switch: true` on `{}`",
                        a.of()
                    ),
                );
            }
        }
    }

    /// 707.2: `object` copies `c.of`; both must be objects whose every
    /// copiable value the model copies.
    fn copy_of(&mut self, object: &Handle, c: &super::CopyOf, path: &NodePath) {
        self.object_ref(&c.of, &path.key("of"));
        if *object == c.of {
            self.err(path.key("of"), format!("`{object}` can't copy itself"));
            return;
        }
        for (h, at) in [(object, path.clone()), (&c.of, path.key("of"))] {
            let Some(o) = self.objects.get(h.as_str()).copied() else {
                continue;
            };
            if let Some(field) = o.copy_unmodelled() {
                self.err(
                    at,
                    format!(
                        "`{h}` has `{field}`, which copy effects don't copy in this model (707.2): leave it out of copies"
                    ),
                );
            }
        }
    }

    /// A setup object that entered as a copy: of an object listed before
    /// it, whose copiable values are known by then.
    fn setup_copy(&mut self, case: &'a Case, i: usize, o: &ObjectSpec, path: &NodePath) {
        let Some(c) = &o.copy else { return };
        self.copy_of(&o.id, c, path);
        if o.zone != Zone::Battlefield {
            self.err(
                path.clone(),
                format!(
                    "only a permanent entered as a copy; this object is in the {}",
                    o.zone
                ),
            );
        }
        if !case.setup.objects[..i].iter().any(|e| e.id == c.of) && c.of != o.id {
            self.err(
                path.key("of"),
                format!(
                    "`{}` must be listed before `{}`, which copies it",
                    c.of, o.id
                ),
            );
        }
    }

    fn object_ref(&mut self, h: &Handle, path: &NodePath) {
        self.kind_of(h, Some(Kind::Object), path);
    }

    fn player_ref(&mut self, h: &Handle, path: &NodePath) {
        self.kind_of(h, Some(Kind::Player), path);
    }

    /// 310.4a: a printed defense belongs to a battle, and is a count.
    fn defense(&mut self, o: &ObjectSpec, path: &NodePath) {
        let Some(d) = o.defense else { return };
        if !o.types.contains(&CardType::Battle) {
            self.err(
                path.key("defense"),
                "only a battle has a printed defense (310.4a): add `Battle` to `types:` or remove `defense:`",
            );
        }
        if d.0 < 0 {
            self.err(
                path.key("defense"),
                format!("a printed defense is 0 or more, not {}", d.0),
            );
        }
    }

    fn object(&mut self, o: &ObjectSpec, path: &NodePath) {
        if let Some(c) = &o.controller {
            self.player_ref(c, &path.key("controller"));
        }
        for (i, ch) in o.chapters.iter().enumerate() {
            let at = path.key("chapters").index(i);
            if ch.at.is_empty() {
                self.err(
                    at.key("at"),
                    "a chapter ability needs at least one chapter number (107.15a)",
                );
            }
            for (j, n) in ch.at.iter().enumerate() {
                if n.0 < 1 {
                    self.err(at.key("at").index(j), "chapter numbers start at 1 (714.2b)");
                }
            }
            self.action(&ch.action, &at.key("do").key(ch.action.key()));
        }
        for (i, t) in o.counter_triggers.iter().enumerate() {
            let at = path.key("counter_triggers").index(i);
            if t.nth.0 < 1 {
                self.err(at.key("nth"), "the Nth counter: N is at least 1 (122.7)");
            }
            self.action(&t.action, &at.key("do").key(t.action.key()));
        }
        self.defense(o, path);
        if let Some(a) = &o.attached_to {
            self.object_ref(a, &path.key("attached_to"));
            if a == &o.id {
                self.err(
                    path.key("attached_to"),
                    "an object can't be attached to itself (301.5c, 303.4d)",
                );
            }
        }
        let stars = o.pt.map(|pt| {
            (
                matches!(pt.power, Printed::Star(_)),
                matches!(pt.toughness, Printed::Star(_)),
            )
        });
        match (&o.cda, stars) {
            // 208.2b: the stars of a card whose P/T is chosen as it enters.
            (None, Some(_)) if !o.enters_as.is_empty() => {}
            (None, Some((p, t))) if p || t => self.err(
                path.key("pt"),
                "a `*` needs a characteristic-defining ability that says its value: add `cda:` (208.2a), or the choices of an \"as this enters\" ability: add `enters_as:` (208.2b)",
            ),
            (Some(_), None) => self.err(path.key("cda"), "a characteristic-defining ability for P/T needs a printed `*` in `pt:`"),
            (Some(cda), Some((p, t))) => {
                for (q, star, side) in [(&cda.power, p, "power"), (&cda.toughness, t, "toughness")] {
                    match q {
                        Some(q) if !star => self.err(
                            path.key("cda").key(side),
                            format!("the printed {side} has no `*` for this ability to define"),
                        ),
                        None if star => self.err(path.key("cda"), format!("the `*` in the printed {side} needs a value: add `{side}:`")),
                        Some(q) => self.quantity(q, &path.key("cda").key(side)),
                        None => {}
                    }
                }
            }
            _ => {}
        }
        if o.zone != Zone::Battlefield {
            for (bad, what) in [
                (!o.damage.is_zero(), "damage"),
                (o.deathtouch_damage, "deathtouch_damage"),
                (!o.regeneration_shields.is_zero(), "regeneration_shields"),
                (o.tapped, "tapped"),
                (o.attached_to.is_some(), "attached_to"),
                (o.sick, "sick"),
                (o.face_down, "face_down"),
            ] {
                if bad {
                    self.err(
                        path.key(what),
                        format!(
                            "only a permanent can have `{what}`; this object is in the {}",
                            o.zone
                        ),
                    );
                }
            }
        }
        for kind in o.counters.keys() {
            if kind.is_named("poison") {
                self.err(
                    path.key("counters"),
                    "poison counters go on players (122.1f): give the player `poison:`",
                );
            }
        }
        for (i, band) in o.level_up.iter().enumerate() {
            if band.max.is_some_and(|m| m < band.min) {
                self.err(
                    path.key("level_up").index(i).key("max"),
                    "a level band's max is below its min",
                );
            }
            for (j, other) in o.level_up.iter().enumerate().skip(i + 1) {
                let lo = band.min.0.max(other.min.0);
                let hi = match (band.max, other.max) {
                    (Some(a), Some(b)) => a.0.min(b.0),
                    (Some(a), None) | (None, Some(a)) => a.0,
                    (None, None) => i64::MAX,
                };
                if lo <= hi {
                    self.err(
                        path.key("level_up").index(j),
                        format!("this level band overlaps band {i}"),
                    );
                }
            }
            // 107.8a: a band's abilities are static abilities of the creature.
            for (j, ab) in band.abilities.iter().enumerate() {
                self.static_ability(ab, &path.key("level_up").index(i).key("abilities").index(j));
            }
        }
        if o.counters_put_by
            .is_some_and(|b| b.you.is_none() && b.opponents.is_none())
        {
            self.err(
                path.key("counters_put_by"),
                "this ability changes nothing: say what happens when `you` (its controller) or `opponents` put counters (twice or half-down)",
            );
        }
        for (i, ab) in o.abilities.iter().enumerate() {
            self.static_ability(ab, &path.key("abilities").index(i));
        }
        if let Some(back) = &o.back_face {
            for (i, ab) in back.abilities.iter().enumerate() {
                self.static_ability(ab, &path.key("back_face").key("abilities").index(i));
            }
        }
        self.spell(o, path);
        if o.face_down && o.choose.is_some() {
            // 708.3: a permanent that enters face down makes no choice of
            // its "as this enters" abilities.
            self.err(
                path.key("choose"),
                "a permanent set up face down entered with no choice made as it entered (708.3): leave out `choose`",
            );
        }
        self.entry_choices(o, path);
        // 707.6: an object set up as a copy chose among the options of the
        // text it copies, known as the setup is made (the resolver checks).
        if let (Some(pt), None) = (o.choose, &o.copy) {
            self.chosen(o, pt, &path.key("choose"));
        }
    }

    /// 107.3, 202.3, 608.2: a mana cost, X, what a spell does as it
    /// resolves, and the counters it enters with.
    fn spell(&mut self, o: &ObjectSpec, path: &NodePath) {
        if o.mana_cost.is_some() && !o.mana_value.is_zero() {
            self.err(
                path.key("mana_value"),
                "give `mana_cost` or `mana_value`, not both: the mana value comes from the cost (202.3)",
            );
        }
        if o.x.is_some() {
            if o.zone != Zone::Stack {
                self.err(
                    path.key("x"),
                    format!("X is announced as a spell is cast (107.3a): `x` is for a spell set up on the stack, and this object is in the {}", o.zone),
                );
            }
            if !o.mana_cost.as_ref().is_some_and(|m| m.has_x()) {
                self.err(
                    path.key("x"),
                    "`x` needs an {X} in `mana_cost`; an X defined by the card's text is `x_is` (107.3c)",
                );
            }
            if o.x_is.is_some() {
                self.err(
                    path.key("x_is"),
                    "X is either announced (`x`, 107.3a) or defined by the text (`x_is`, 107.3c), not both",
                );
            }
        }
        if let Some(q) = &o.x_is {
            self.quantity(q, &path.key("x_is"));
            if q.reads_x() {
                self.err(
                    path.key("x_is"),
                    "an X defined by the text can't read an X or a mana value",
                );
            }
        }
        if let Some(a) = &o.on_resolve {
            if o.types.iter().any(|t| t.is_permanent()) {
                self.err(
                    path.key("on_resolve"),
                    "a permanent spell resolves by entering the battlefield (608.3); `on_resolve` is for instants and sorceries",
                );
            }
            self.action(a, &path.key("on_resolve").key(a.key()));
        }
        for (kind, q) in &o.enters_with {
            let at = path.key("enters_with").key(kind.to_string());
            if kind.is_named("poison") {
                self.err(at.clone(), "poison counters go on players (122.1f)");
            }
            self.quantity(q, &at);
        }
    }

    /// 208.2b: the values an "as this enters, choose" ability lists.
    fn entry_choices(&mut self, o: &ObjectSpec, path: &NodePath) {
        if o.enters_as.is_empty() {
            return;
        }
        if o.cda.is_some() {
            self.err(
                path.key("enters_as"),
                "a card whose P/T is chosen as it enters has no characteristic-defining ability for it (208.2b): remove `cda:`",
            );
        }
        for (i, c) in o.enters_as.iter().enumerate() {
            if o.enters_as[..i].iter().any(|e| e.pt == c.pt) {
                self.err(
                    path.key("enters_as").index(i).key("pt"),
                    format!("{} is listed twice; each choice needs its own P/T", c.pt),
                );
            }
        }
    }

    /// A choice (`choose: P/T`) must name one of the object's `enters_as`.
    fn chosen(&mut self, o: &ObjectSpec, pt: crate::number::Pt, path: &NodePath) {
        if o.enters_as.is_empty() {
            self.err(
                path.clone(),
                format!(
                    "`{}` has no `enters_as`: nothing lets its controller choose its P/T (208.2b)",
                    o.id
                ),
            );
        } else if !o.enters_as.iter().any(|e| e.pt == pt) {
            let listed: Vec<String> = o.enters_as.iter().map(|e| e.pt.to_string()).collect();
            self.err(
                path.clone(),
                format!(
                    "{pt} is not one of the choices of `{}`: {}",
                    o.id,
                    listed.join(", ")
                ),
            );
        }
    }

    fn static_ability(&mut self, e: &EffectSpec, path: &NodePath) {
        if e.source.is_some() {
            self.err(
                path.key("source"),
                "a static ability's source is the object that has it",
            );
        }
        if e.until.is_some() {
            self.err(path.key("until"), "a static ability lasts while its object is on the battlefield (611.3b); remove `until`");
        }
        if e.timestamp.is_some() {
            self.err(
                path.key("timestamp"),
                "a static ability has its object's timestamp (613.7a); remove `timestamp`",
            );
        }
        match &e.affects {
            Affects::Objects(_) => self.err(
                path.key("affects"),
                "a static ability affects `self`, `attached`, or a filter (611.3a)",
            ),
            Affects::Filter(f) => {
                self.filter(f, &path.key("affects"));
                if f.zone() != Zone::Battlefield {
                    self.err(
                        path.key("affects").key("zone"),
                        "effects here only affect permanents on the battlefield",
                    );
                }
                if f.tests_pt() && e.has_early_parts() {
                    self.err(
                        path.key("affects"),
                        "a filter on power or toughness is only allowed for an ability whose parts are all in layer 7 (see DECISIONS.md)",
                    );
                }
            }
            Affects::This | Affects::Attached => {}
        }
        self.effect_parts(e, path);
    }

    fn effect_parts(&mut self, e: &EffectSpec, path: &NodePath) {
        if e.add_all_creature_types && self.all_creature_types.is_none() {
            self.all_creature_types = Some(path.key("add_all_creature_types"));
        }
        if let Some(g) = &e.grant_pt_ability {
            let at = path.key("grant_pt_ability");
            if g.power.is_none() && g.toughness.is_none() {
                self.err(
                    at.clone(),
                    "a granted ability that defines P/T says the power, the toughness or both: add `power:` or `toughness:` (604.3a)",
                );
            }
            for (side, q) in [("power", &g.power), ("toughness", &g.toughness)] {
                if let Some(q) = q {
                    self.quantity(q, &at.key(side));
                }
            }
        }
        if !e.has_parts() {
            self.err(
                path.clone(),
                "this effect does nothing: give it a part (add_types, set, modify, switch, …)",
            );
        }
        if e.set.is_some() && (e.set_power.is_some() || e.set_toughness.is_some()) {
            self.err(
                path.key("set"),
                "`set` sets both values: leave out `set_power` and `set_toughness`, or write them without `set`",
            );
        }
        match (&e.x, e.uses_x()) {
            (Some(_), false) => self.err(
                path.key("x"),
                "`x` is given but neither `set` nor `modify` uses X",
            ),
            (None, true) => self.err(
                path.clone(),
                "`set` or `modify` uses X: say what X is with `x:`",
            ),
            (Some(q), true) => self.quantity(q, &path.key("x")),
            (None, false) => {}
        }
    }

    fn filter(&mut self, f: &Filter, path: &NodePath) {
        if let Some(c) = &f.controller {
            self.player_ref(c, &path.key("controller"));
        }
        if !f.subtypes.is_empty() && self.subtype_filter.is_none() {
            self.subtype_filter = Some(path.key("subtypes"));
        }
    }

    fn quantity(&mut self, q: &Quantity, path: &NodePath) {
        let Quantity::Ref(r) = q else { return };
        match r.as_ref() {
            QuantityRef::PowerOf(h) => self.object_ref(h, &path.key("power_of")),
            QuantityRef::ToughnessOf(h) => self.object_ref(h, &path.key("toughness_of")),
            QuantityRef::Counters(c) => self.object_ref(&c.on, &path.key("counters").key("on")),
            QuantityRef::Count(f) => {
                self.filter(f, &path.key("count"));
                if f.tests_pt() {
                    self.err(
                        path.key("count"),
                        "a count can't test power or toughness (see DECISIONS.md)",
                    );
                }
                if f.other {
                    self.err(
                        path.key("count").key("other"),
                        "`other` needs an effect's source; a count has none",
                    );
                }
            }
            QuantityRef::XOf(h) => self.object_ref(h, &path.key("x_of")),
            QuantityRef::ManaValueOf(h) => self.object_ref(h, &path.key("mana_value_of")),
            QuantityRef::Life(h) => self.player_ref(h, &path.key("life")),
            QuantityRef::HandSize(h) => self.player_ref(h, &path.key("hand_size")),
            QuantityRef::Half(h) => self.quantity(&h.of, &path.key("half").key("of")),
            QuantityRef::Sum(v) => {
                if v.is_empty() {
                    self.err(path.key("sum"), "a sum needs at least one term");
                }
                for (i, q) in v.iter().enumerate() {
                    self.quantity(q, &path.key("sum").index(i));
                }
            }
        }
    }

    /// `by:`, the player who puts counters (122.6a).
    fn putter(&mut self, by: &Option<Handle>, path: &NodePath) {
        if let Some(p) = by {
            self.player_ref(p, &path.key("by"));
        }
    }

    fn non_negative(&mut self, q: &Quantity, path: &NodePath, what: &str) {
        match q {
            Quantity::Fixed(n) if *n < 0 => {
                self.err(path.clone(), format!("{what} can't be negative (107.1b)"));
            }
            _ => self.quantity(q, path),
        }
    }

    fn action(&mut self, a: &Action, path: &NodePath) {
        match a {
            Action::PutCounters(p) => self.put_counters(&p.on, &p.kind, &p.by, path),
            Action::DoubleCounters(d) => self.put_counters(&d.on, &d.kind, &d.by, path),
            Action::RemoveCounters(r) => self.object_ref(&r.from, &path.key("from")),
            Action::MoveCounters(m) => {
                self.object_ref(&m.from, &path.key("from"));
                self.object_ref(&m.to, &path.key("to"));
                self.putter(&m.by, path);
            }
            Action::PutCountersFrom(p) => {
                self.object_ref(&p.from, &path.key("from"));
                self.object_ref(&p.to, &path.key("to"));
                self.putter(&p.by, path);
            }
            Action::Effect(e) => self.resolved_effect(e, path),
            Action::Damage(d) => {
                self.object_ref(&d.from, &path.key("from"));
                self.kind_of(&d.to, None, &path.key("to"));
                self.non_negative(&d.amount, &path.key("amount"), "damage");
            }
            Action::Prevent(p) => {
                self.kind_of(&p.to, None, &path.key("to"));
                if p.amount.0 < 1 {
                    self.err(
                        path.key("amount"),
                        "a prevention shield prevents 1 damage or more (615.7)",
                    );
                }
            }
            Action::CombatDamage(v) => {
                if v.is_empty() {
                    self.err(path.clone(), "give at least one assignment");
                }
                for (i, c) in v.iter().enumerate() {
                    self.object_ref(&c.from, &path.index(i).key("from"));
                    self.kind_of(&c.to, None, &path.index(i).key("to"));
                }
            }
            Action::Attack(v) => self.attack(v, path),
            Action::CombatDamageStep(s) => {
                for (attacker, order) in &s.divide {
                    let at = path.key("divide").key(attacker.as_str().to_string());
                    self.object_ref(attacker, &at);
                    let mut seen = std::collections::BTreeSet::new();
                    for (i, h) in order.iter().enumerate() {
                        self.kind_of(h, None, &at.index(i));
                        if !seen.insert(h) {
                            self.err(at.index(i), format!("`{h}` is named twice"));
                        }
                    }
                }
                for (attacker, split) in &s.assign {
                    let at = path.key("assign").key(attacker.as_str().to_string());
                    self.object_ref(attacker, &at);
                    // One way to write an attacker's choice: an order or amounts.
                    if s.divide.contains_key(attacker) {
                        self.err(
                            at.clone(),
                            format!("`{attacker}` has both `divide` and `assign`: give its order or its amounts, not both"),
                        );
                    }
                    for (h, n) in split {
                        let to = at.key(h.as_str().to_string());
                        self.kind_of(h, None, &to);
                        if n.0 < 0 {
                            self.err(to, "combat damage can't be negative (510.1a)");
                        }
                    }
                }
            }
            Action::AddMana(m) => {
                if let Some(p) = &m.player {
                    self.player_ref(p, &path.key("player"));
                }
                self.non_negative(&m.amount, &path.key("amount"), "an amount of mana");
            }
            Action::PayCost(c) => self.pay_cost(c, path),
            Action::Cast(c) => self.cast(c, path),
            Action::Resolve(h) => self.object_ref(h, path),
            Action::Double(s) | Action::Triple(s) => {
                self.object_ref(&s.affects, &path.key("affects"))
            }
            Action::Exchange(x) => self.exchange(x, path),
            Action::Copy(c) => {
                self.copy_of(&c.object, &c.copy_of(), path);
                if c.until == Some(super::Until::SourceLeaves) {
                    self.err(
                        path.key("until"),
                        "a copy step lasts indefinitely or until end of turn, not while a source remains",
                    );
                }
            }
            Action::Regenerate(h)
            | Action::Destroy(h)
            | Action::TurnFaceUp(h)
            | Action::TurnFaceDown(h)
            | Action::Transform(h) => self.object_ref(h, path),
            Action::Move(m) => self.move_object(m, path),
            Action::GainControl(g) => {
                self.object_ref(&g.object, &path.key("object"));
                self.player_ref(&g.player, &path.key("player"));
            }
            Action::BeginTurn(p) => self.player_ref(p, path),
            Action::Attach(a) => {
                self.object_ref(&a.object, &path.key("object"));
                self.object_ref(&a.to, &path.key("to"));
                if a.object == a.to {
                    self.err(
                        path.key("to"),
                        "an object can't be attached to itself (301.5c, 303.4d)",
                    );
                }
            }
            Action::Crew(c) => {
                self.object_ref(&c.vehicle, &path.key("vehicle"));
                for (i, h) in c.with.iter().enumerate() {
                    self.object_ref(h, &path.key("with").index(i));
                    if h == &c.vehicle {
                        self.err(
                            path.key("with").index(i),
                            "a Vehicle can't crew itself (702.122a: other creatures)",
                        );
                    }
                }
            }
            Action::Cleanup | Action::StateBasedActions => {}
        }
    }

    /// Counters put on an object or a player: poison goes on players alone (122.1f).
    /// Counters of `kind` put on `on` (by `by`): poison counters on
    /// players, the others on objects.
    /// 508.1, 509.1: a creature attacks or blocks once per combat.
    fn attack(&mut self, v: &[super::AttackDeclaration], path: &NodePath) {
        if v.is_empty() {
            self.err(path.clone(), "declare at least one attacking creature");
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, a) in v.iter().enumerate() {
            let at = path.index(i);
            self.object_ref(&a.attacker, &at.key("attacker"));
            if let Some(d) = &a.defender {
                self.kind_of(d, None, &at.key("defender"));
            }
            let blockers = a.blockers.iter().enumerate();
            let named = std::iter::once((&a.attacker, at.key("attacker")))
                .chain(blockers.map(|(j, b)| (b, at.key("blockers").index(j))));
            for (k, (h, p)) in named.enumerate() {
                if k > 0 {
                    self.object_ref(h, &p);
                }
                if !seen.insert(h) {
                    self.err(
                        p,
                        format!("`{h}` attacks or blocks twice: each creature attacks or blocks once, and blocks one attacker (508.1, 509.1a)"),
                    );
                }
            }
        }
    }

    fn put_counters(
        &mut self,
        on: &Handle,
        kind: &CounterKind,
        by: &Option<Handle>,
        path: &NodePath,
    ) {
        self.putter(by, path);
        if self.kind_of(on, None, &path.key("on")) == Some(Kind::Player) && !kind.is_named("poison")
        {
            self.err(
                path.key("kind"),
                "only poison counters can be put on a player here (122.1f)",
            );
        }
        if kind.is_named("poison") && self.names.get(on.as_str()) == Some(&Kind::Object) {
            self.err(path.key("kind"), "poison counters go on players (122.1f)");
        }
    }

    /// A resolved effect: what it affects, how long it lasts (611.2), and its parts.
    fn resolved_effect(&mut self, e: &super::EffectSpec, path: &NodePath) {
        if let Some(s) = &e.source {
            self.object_ref(s, &path.key("source"));
        }
        match &e.affects {
                Affects::Objects(v) => {
                    if v.is_empty() {
                        self.err(path.key("affects"), "name at least one object");
                    }
                    for (i, h) in v.iter().enumerate() {
                        self.object_ref(h, &path.key("affects").index(i));
                    }
                }
                Affects::Filter(f) => {
                    self.filter(f, &path.key("affects"));
                    if f.zone() != Zone::Battlefield {
                        self.err(path.key("affects").key("zone"), "effects here only affect permanents on the battlefield");
                    }
                    if f.other && e.source.is_none() {
                        self.err(path.key("affects").key("other"), "`other` needs a `source:`");
                    }
                }
                Affects::This | Affects::Attached => self.err(
                    path.key("affects"),
                    "`self` and `attached` are for static abilities; a resolved effect names its objects or a filter",
                ),
            }
        if e.until.is_none() {
            self.err(
                path.clone(),
                "a resolved effect needs `until:` (end-of-turn, source-leaves or forever)",
            );
        }
        if e.until == Some(super::Until::SourceLeaves) && e.source.is_none() {
            self.err(
                path.key("until"),
                "`until: source-leaves` needs a `source:`",
            );
        }
        self.effect_parts(e, path);
    }

    /// A cost paid: card text or an object's mana cost, never both (107.4, 107.3).
    fn pay_cost(&mut self, c: &super::action::CostPayment, path: &NodePath) {
        if let Some(p) = &c.player {
            self.player_ref(p, &path.key("player"));
        }
        match (&c.cost, &c.cost_of) {
                (Some(_), Some(_)) => self.err(
                    path.key("cost_of"),
                    "give `cost` or `cost_of`, not both",
                ),
                (None, None) => self.err(
                    path.clone(),
                    "give the cost to pay: `cost` (card text such as {2}{G}) or `cost_of` (an object whose mana cost is paid)",
                ),
                (Some(cost), None) => {
                    if c.x.0 != 0 && !cost.has_x() {
                        self.err(
                            path.key("x"),
                            format!("the cost {cost} has no {{X}} to announce a value for"),
                        );
                    }
                }
                (None, Some(h)) => {
                    self.object_ref(h, &path.key("cost_of"));
                    if c.x.0 != 0 {
                        self.err(
                            path.key("x"),
                            "X in an object's mana cost is not announced here: it is the spell's X on the stack, 0 elsewhere (107.3h)",
                        );
                    }
                    if let Some(o) = self.objects.get(h.as_str()) {
                        if o.mana_cost.is_none() {
                            self.err(
                                path.key("cost_of"),
                                format!("`{h}` has no `mana_cost` to pay"),
                            );
                        }
                    }
                }
            }
    }

    /// A spell cast: not a land (305.9), and an X only where the cost has one and the text does not define it (107.3).
    fn cast(&mut self, c: &super::action::Cast, path: &NodePath) {
        self.object_ref(&c.object, &path.key("object"));
        if let Some(p) = &c.by {
            self.player_ref(p, &path.key("by"));
        }
        if let Some(o) = self.objects.get(c.object.as_str()).copied() {
            if o.types.contains(&CardType::Land) {
                self.err(
                    path.key("object"),
                    format!("`{}` is a land: lands are played, not cast (305.9)", o.id),
                );
            }
            if c.x.is_some() && o.x_is.is_some() {
                self.err(
                    path.key("x"),
                    format!(
                        "the text of `{}` defines X (`x_is`), so nobody announces it (107.3c)",
                        o.id
                    ),
                );
            } else if c.x.is_some() && !o.mana_cost.as_ref().is_some_and(|m| m.has_x()) {
                self.err(
                    path.key("x"),
                    format!(
                        "`{}` has no {{X}} in its `mana_cost`, so no X is announced (107.3a)",
                        o.id
                    ),
                );
            }
        }
    }

    /// A zone change, and what the object enters the battlefield with (122.6, 208.2b).
    fn move_object(&mut self, m: &super::action::MoveZone, path: &NodePath) {
        self.object_ref(&m.object, &path.key("object"));
        if let Some(c) = &m.copy {
            self.copy_of(&m.object, c, &path.key("copy"));
            if m.to != Zone::Battlefield {
                self.err(
                    path.key("copy"),
                    "only an object entering the battlefield enters as a copy (707.2)",
                );
            }
        }
        if !m.counters.is_empty() && m.to != Zone::Battlefield {
            self.err(
                path.key("counters"),
                "only an object entering the battlefield enters with counters (122.6)",
            );
        }
        if m.counters.keys().any(|k| k.is_named("poison")) {
            self.err(
                path.key("counters"),
                "poison counters go on players (122.1f)",
            );
        }
        self.putter(&m.by, path);
        if m.by.is_some() && (m.to != Zone::Battlefield || m.counters.values().all(|n| n.is_zero()))
        {
            self.err(
                    path.key("by"),
                    "`by` names the player who puts the counters it enters the battlefield with (122.6a), and this move gives it none",
                );
        }
        if let Some(pt) = m.choose {
            if m.to != Zone::Battlefield {
                self.err(
                    path.key("choose"),
                    "P/T is chosen only as the object enters the battlefield (208.2b)",
                );
            }
            // 707.6: entering as a copy, it chooses among the options of the
            // text it copies, known only as it enters (the resolver checks).
            if let (Some(o), None) = (self.objects.get(m.object.as_str()).copied(), &m.copy) {
                self.chosen(o, pt, &path.key("choose"));
            }
        }
    }

    fn expect(&mut self, h: &Handle, e: &Expect, path: &NodePath, in_lki: bool) {
        match self.kind_of(h, None, path) {
            Some(Kind::Object) => {
                if let Some(f) = e.player_fields().first() {
                    self.err(
                        path.key(*f),
                        format!("`{f}` is about a player; `{h}` is an object"),
                    );
                }
            }
            Some(Kind::Player) => {
                if e.has_object_fields() {
                    self.err(
                        path.clone(),
                        format!("`{h}` is a player: only life, poison, mana, lost, snow_mana, payments and can_pay apply"),
                    );
                }
            }
            None => return,
        }
        if let Some(lki) = &e.lki {
            if in_lki {
                self.err(
                    path.key("lki"),
                    "last known information has no last known information of its own",
                );
            } else {
                if lki.zone.is_some_and(|z| z != Zone::Battlefield) {
                    self.err(
                        path.key("lki").key("zone"),
                        "last known information is of the object on the battlefield",
                    );
                }
                self.expect(h, lki, &path.key("lki"), true);
            }
        }
        if let Some(c) = &e.counters {
            if c.keys().any(|k: &CounterKind| k.is_named("poison")) {
                self.err(
                    path.key("counters"),
                    "poison counters are on players: expect `poison:`",
                );
            }
        }
    }
}
