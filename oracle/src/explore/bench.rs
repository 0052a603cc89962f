//! `ptoracle explore --bench`: where the time of a campaign goes.

use std::time::{Duration, Instant};

use super::invariants::{self, Saved, Subject};
use super::{case_at, examine, play};
use crate::edition::Edition;
use crate::resolver::{self, Options};

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
