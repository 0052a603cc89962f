//! The limits on a case's size, and its size in their terms.

use super::*;

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
