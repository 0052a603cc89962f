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

mod actions;
mod effects;
mod expect;
mod objects;
mod size;

pub use size::{
    MAX_EARLY_EFFECTS, MAX_EFFECTS, MAX_OBJECTS, MAX_OBSERVATIONS, MAX_STEPS, MAX_WORK, Size,
};

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

    fn object_ref(&mut self, h: &Handle, path: &NodePath) {
        self.kind_of(h, Some(Kind::Object), path);
    }

    fn player_ref(&mut self, h: &Handle, path: &NodePath) {
        self.kind_of(h, Some(Kind::Player), path);
    }
}
