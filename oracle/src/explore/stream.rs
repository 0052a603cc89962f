//! The stream of cases of a campaign, and shrinking.
//!
//! Case `index` of seed `seed` is drawn by a proptest strategy (a vector of
//! bytes) from a random generator seeded with `(seed, index)` alone, then
//! turned into a scenario by [`generate`]. So any case of any campaign can
//! be drawn again on its own, on any machine, and a failing case can be
//! shrunk by proptest's value tree for those bytes.

use std::sync::atomic::{AtomicBool, Ordering};

use arbitrary::Unstructured;
use proptest::collection::vec;
use proptest::prelude::any;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use super::generate::{Scope, generate_within};
use ptoracle_core::scenario::{Action, Case};

/// At most this many bytes of choices per case: more than a case of five
/// objects and eight steps consumes.
const MAX_BYTES: usize = 256;

fn bytes_strategy() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 16..=MAX_BYTES)
}

/// The 16-byte generator seed of case `index` of a campaign.
fn case_seed(seed: u64, index: u64) -> [u8; 16] {
    // splitmix64 steps: distinct, well-mixed seeds for neighbouring indices.
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let a = mix(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let b = mix(a ^ 0xD1B5_4A32_D192_ED03);
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&a.to_le_bytes());
    out[8..].copy_from_slice(&b.to_le_bytes());
    out
}

thread_local! {
    /// One runner per thread, reseeded for every case: building a runner
    /// (and cloning its configuration) costs more than drawing a case.
    static RUNNER: std::cell::RefCell<Option<TestRunner>> = const { std::cell::RefCell::new(None) };
}

fn tree(seed: u64, index: u64) -> Option<impl ValueTree<Value = Vec<u8>>> {
    let rng = TestRng::from_seed(RngAlgorithm::XorShift, &case_seed(seed, index));
    RUNNER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let runner =
            slot.get_or_insert_with(|| TestRunner::new_with_rng(Config::default(), rng.clone()));
        *runner.rng() = rng;
        bytes_strategy().new_tree(runner).ok()
    })
}

fn from_bytes(bytes: &[u8], scope: &Scope) -> Option<Case> {
    generate_within(&mut Unstructured::new(bytes), scope).ok()
}

/// The choice bytes case `index` of seed `seed` is generated from: what
/// the fuzz targets' seeds start from.
pub(crate) fn case_bytes(seed: u64, index: u64) -> Option<Vec<u8>> {
    Some(tree(seed, index)?.current())
}

/// Case `index` of the campaign with seed `seed`.
///
/// ```
/// let a = ptoracle::explore::case_at(7, 42).unwrap();
/// let b = ptoracle::explore::case_at(7, 42).unwrap();
/// assert_eq!(a, b);
/// assert!(ptoracle::scenario::validate(&a).is_empty());
/// ```
pub fn case_at(seed: u64, index: u64) -> Option<Case> {
    case_within(seed, index, &Scope::ALL)
}

/// Case `index` of seed `seed`, drawn within `scope`: for an engine that
/// implements only some features.
pub fn case_within(seed: u64, index: u64, scope: &Scope) -> Option<Case> {
    from_bytes(&tree(seed, index)?.current(), scope)
}

/// Shrinks case `index` of campaign `seed` (drawn within `scope`, see
/// [`case_within`]) while `fails` holds, for at most
/// `budget` attempts (or until `stop` is set), and returns the smallest
/// failing case found (as `fails` returned it).
///
/// First proptest's shrinking of the choice bytes; then a pass over the
/// case itself that drops steps and unused objects one at a time.
pub fn shrink(
    seed: u64,
    index: u64,
    scope: &Scope,
    budget: usize,
    stop: &AtomicBool,
    fails: &mut dyn FnMut(&Case) -> Option<Case>,
) -> Option<Case> {
    let mut tree = tree(seed, index)?;
    let mut best = fails(&from_bytes(&tree.current(), scope)?)?;
    let mut tries = 0;
    if tree.simplify() {
        while tries < budget && !stop.load(Ordering::Relaxed) {
            tries += 1;
            let failed = from_bytes(&tree.current(), scope).and_then(|c| fails(&c));
            let more = match failed {
                Some(c) => {
                    if size(&c) <= size(&best) {
                        best = c;
                    }
                    tree.simplify()
                }
                None => tree.complicate(),
            };
            if !more {
                break;
            }
        }
    }
    Some(structural(best, tries, budget, stop, fails))
}

/// Shrinks a failing `case` that comes from no stream (a fuzzer's input)
/// while `fails` holds, for at most `budget` attempts (or until `stop` is
/// set), by the structural pass of [`shrink`]: dropping steps and unused
/// objects one at a time. `None` if `case` itself does not fail.
pub fn shrink_case(
    case: &Case,
    budget: usize,
    stop: &AtomicBool,
    fails: &mut dyn FnMut(&Case) -> Option<Case>,
) -> Option<Case> {
    let best = fails(case)?;
    Some(structural(best, budget, budget, stop, fails))
}

/// The structural pass of shrinking: drops one step or one unused object
/// at a time from `best` while `fails` holds, until `tries` reaches twice
/// the `budget`.
fn structural(
    mut best: Case,
    mut tries: usize,
    budget: usize,
    stop: &AtomicBool,
    fails: &mut dyn FnMut(&Case) -> Option<Case>,
) -> Case {
    loop {
        let mut improved = false;
        for k in (0..best.steps.len()).rev() {
            if best.steps.len() == 1 || tries >= budget * 2 || stop.load(Ordering::Relaxed) {
                break;
            }
            tries += 1;
            let mut c = best.clone();
            c.steps.remove(k);
            if let Some(f) = fails(&c) {
                best = f;
                improved = true;
            }
        }
        for i in (0..best.setup.objects.len()).rev() {
            if tries >= budget * 2 || stop.load(Ordering::Relaxed) {
                break;
            }
            tries += 1;
            let mut c = best.clone();
            c.setup.objects.remove(i);
            if ptoracle_core::scenario::validate(&c).is_empty() {
                if let Some(f) = fails(&c) {
                    best = f;
                    improved = true;
                }
            }
        }
        if !improved {
            return best;
        }
    }
}

/// How big a case is, for keeping the smaller of two failing ones.
fn size(c: &Case) -> (usize, usize) {
    (c.steps.len(), c.setup.objects.len())
}

/// A short description of a case's shape: its action kinds in order, for
/// telling failures apart.
pub(crate) fn shape(c: &Case) -> String {
    let kinds: Vec<&str> = c
        .steps
        .iter()
        .map(|s| match s.action {
            Action::Effect(_) => "effect",
            ref a => a.key(),
        })
        .collect();
    format!("{}:{}", c.setup.objects.len(), kinds.join(","))
}
