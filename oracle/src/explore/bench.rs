//! `ptoracle explore --bench`: where the time of a campaign goes.

use std::time::{Duration, Instant};

use super::invariants::{self, Saved, Subject};
use super::{case_at, examine, play};
use ptoracle_core::edition::Edition;
use ptoracle_core::resolver::{self, Options};

/// The time spent per phase over a stream of cases, on one thread.
#[derive(Debug, Default)]
pub struct Split {
    /// Cases played and checked.
    pub cases: u64,
    /// Drawing cases from the stream.
    pub generate: Duration,
    /// One plain resolution of each case: the resolver alone.
    pub resolve: Duration,
    /// Examining each case ([`super::examine`]): its resolution, the
    /// observation of its setup, the saved states, the invariants and the
    /// variants some of them play.
    pub examine: Duration,
    /// Checking time per invariant (a separate pass).
    pub per_invariant: Vec<(&'static str, Duration)>,
}

impl Split {
    /// What checking adds to one resolution: examining minus resolving.
    pub fn check(&self) -> Duration {
        self.examine.saturating_sub(self.resolve)
    }

    /// The whole campaign's time per case over the resolver alone's.
    pub fn ratio(&self) -> f64 {
        (self.generate + self.examine).as_secs_f64() / self.resolve.as_secs_f64().max(1e-12)
    }
}

/// Times generating, resolving and checking cases `0..cases` of `seed`.
pub fn split(seed: u64, cases: u64, edition: Edition) -> Split {
    let mut s = Split {
        per_invariant: invariants::ALL
            .iter()
            .map(|i| (i.name, Duration::ZERO))
            .collect(),
        ..Split::default()
    };
    for index in 0..cases {
        let t = Instant::now();
        let case = case_at(seed, index);
        s.generate += t.elapsed();
        let Some(case) = case else { continue };
        s.cases += 1;
        let t = Instant::now();
        std::hint::black_box(resolver::resolve(&case, edition, Options::default()));
        s.resolve += t.elapsed();
        let t = Instant::now();
        std::hint::black_box(examine(case.clone(), edition, None, index));
        s.examine += t.elapsed();
        // Per invariant, in a pass of its own.
        let Some(played) = play(&case, edition, None, index) else {
            continue;
        };
        let cut;
        let checked = match played.cut {
            Some(k) => {
                let mut c = case.clone();
                c.steps.truncate(k);
                cut = c;
                &cut
            }
            None => &case,
        };
        let subject = Subject::new(checked, &played.run, edition, None, index).with_saved(Saved {
            after: played.after,
            end: played.end,
        });
        for (slot, inv) in s.per_invariant.iter_mut().zip(invariants::ALL) {
            let t = Instant::now();
            std::hint::black_box(inv.check(&subject));
            slot.1 += t.elapsed();
        }
    }
    s
}

/// A family of cases that grows with one number, for measuring how the
/// resolver scales (`ptoracle explore --bench --scaling`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// N vanilla creatures and one step that pumps one of them.
    Objects,
    /// Ten creatures and N steps, each putting a +1/+1 counter on one.
    Steps,
    /// Ten creatures and N steps, each a pump until end of turn: step i
    /// has i effects to apply.
    Effects,
    /// N creatures, each with "other creatures you control get +1/+1",
    /// and one step: every creature gets N - 1 pumps (613.4c).
    Anthems,
    /// N creatures, 16 of which say "creatures are artifacts and not
    /// creatures", and one step: effects that depend on one another in
    /// layer 4 (613.8a), ordered pair by pair.
    Dependent,
}

impl Shape {
    /// Every shape, in the order the benchmark prints them.
    pub const ALL: [Shape; 5] = [
        Shape::Objects,
        Shape::Steps,
        Shape::Effects,
        Shape::Anthems,
        Shape::Dependent,
    ];

    /// The shape's name, as printed.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Objects => "objects",
            Shape::Steps => "steps",
            Shape::Effects => "effects",
            Shape::Anthems => "anthems",
            Shape::Dependent => "dependent",
        }
    }

    /// What N counts, as printed.
    pub fn describe(self) -> &'static str {
        match self {
            Shape::Objects => "N creatures, 1 step",
            Shape::Steps => "10 creatures, N steps putting a counter",
            Shape::Effects => "10 creatures, N steps each adding a pump effect",
            Shape::Anthems => "N creatures each pumping all others, 1 step",
            Shape::Dependent => "N creatures, 16 turning all creatures into artifacts, 1 step",
        }
    }

    /// The case of this shape with size `n`.
    pub fn case(self, n: usize) -> ptoracle_core::Case {
        use serde_json::{Value, json};
        let creature =
            |i: usize| json!({ "id": format!("c{i}"), "types": ["Creature"], "pt": "2/2" });
        let pump = |i: usize| json!({ "do": { "effect": { "affects": [format!("c{i}")], "modify": "+1/+1", "until": "end-of-turn" } } });
        let (objects, steps): (Vec<Value>, Vec<Value>) = match self {
            Shape::Objects => ((0..n).map(creature).collect(), vec![pump(0)]),
            Shape::Steps => (
                (0..10).map(creature).collect(),
                (0..n)
                    .map(|i| json!({ "do": { "put_counters": { "on": format!("c{}", i % 10), "kind": "+1/+1" } } }))
                    .collect(),
            ),
            Shape::Effects => ((0..10).map(creature).collect(), (0..n).map(|i| pump(i % 10)).collect()),
            Shape::Anthems => (
                (0..n)
                    .map(|i| {
                        let mut c = creature(i);
                        c["abilities"] = json!([{ "affects": { "types": ["Creature"], "controller": "you", "other": true }, "modify": "+1/+1" }]);
                        c
                    })
                    .collect(),
                vec![json!({ "do": "state_based_actions" })],
            ),
            Shape::Dependent => (
                (0..n)
                    .map(|i| {
                        let mut c = creature(i);
                        if i < 16 {
                            c["abilities"] = json!([{ "affects": { "types": ["Creature"] }, "remove_types": ["Creature"], "add_types": ["Artifact"] }]);
                        }
                        c
                    })
                    .collect(),
                vec![json!({ "do": "state_based_actions" })],
            ),
        };
        let case = json!({
            "id": format!("bench/{}-{n}", self.name()),
            "title": self.describe(),
            "rules": ["613.4c"],
            "setup": { "objects": objects },
            "steps": steps,
        });
        serde_json::from_value(case).expect("the benchmark's cases are well-formed")
    }
}

/// The largest size of `shape` within the case limits (at most `cap`).
pub fn largest_within_limits(shape: Shape, cap: usize) -> usize {
    let fits = |n: usize| {
        ptoracle_core::scenario::Size::of(&shape.case(n))
            .problems()
            .is_empty()
    };
    let (mut lo, mut hi) = (1usize, cap);
    if fits(hi) {
        return hi;
    }
    // `lo` fits and `hi` does not.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// How long one resolution of `shape` at size `n` takes, and its run (an
/// error if the case is refused, e.g. beyond the limits).
pub fn scaling(
    shape: Shape,
    n: usize,
    edition: Edition,
) -> (Duration, ptoracle_core::resolver::Run) {
    let case = shape.case(n);
    let t = Instant::now();
    let run = resolver::resolve(&case, edition, Options::default());
    (t.elapsed(), run)
}
