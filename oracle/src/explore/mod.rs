//! Property campaigns: generated scenarios checked against invariants, in
//! parallel, with every violation shrunk to a small ruling.
//!
//! - [`generate`]: the scenario space (one definition for proptest and for
//!   `arbitrary`, with swarm testing);
//! - [`invariants`]: what every run must satisfy;
//! - [`examine`]: the one entry point that checks a case against them;
//! - [`campaign`]: the case stream, shrinking, and the parallel runner
//!   behind `ptoracle explore`.

pub mod bench;
pub mod campaign;
pub mod generate;
pub mod invariants;
mod stream;

use ptoracle_core::edition::Edition;
use ptoracle_core::error::ResolveError;
use ptoracle_core::resolver::{Mutant, Options, Run, Session};
use ptoracle_core::scenario::Case;

pub use campaign::{CampaignReport, Config, Failure, Live, Shard, run};
pub use invariants::{Invariant, Violation};
pub(crate) use stream::case_bytes;
pub(crate) use stream::shape;
pub use stream::{case_at, case_within, shrink, shrink_case};

/// What examining a case found.
#[derive(Debug)]
// Returned once per case and matched at once: boxing the large variant
// would only add an allocation per case.
#[allow(clippy::large_enum_variant)]
pub enum Exam {
    /// The case could not be played at all (its first step already acts on
    /// an object that is not there); nothing was checked.
    Discarded,
    /// The case was played and checked.
    Checked {
        /// The case as checked: cut before its first step that acts on an
        /// object that has left the battlefield.
        case: Case,
        /// Its run.
        run: Run,
        /// The invariants it violates, at most one violation each.
        violations: Vec<Violation>,
    },
}

/// Plays `case` (against `mutant` if given) and checks every invariant.
///
/// A generated step may act on an object that died earlier in the run,
/// which the format calls an error; the case is then cut before that step
/// (its run is the same up to there, since a run never looks ahead).
/// `index` is the case's place in its campaign; a few costly relations are
/// only checked on some indices.
pub fn examine(case: Case, edition: Edition, mutant: Option<Mutant>, index: u64) -> Exam {
    let Some(played) = play(&case, edition, mutant, index) else {
        return Exam::Discarded;
    };
    let Played {
        run,
        cut,
        after,
        end,
    } = played;
    let checked = match cut {
        Some(k) => {
            let mut c = case.clone();
            c.steps.truncate(k);
            c
        }
        None => case.clone(),
    };
    let violations = {
        let subject = invariants::Subject::new(&checked, &run, edition, mutant, index)
            .with_saved(invariants::Saved { after, end });
        invariants::ALL
            .iter()
            .filter_map(|inv| inv.check(&subject))
            .collect()
    };
    Exam::Checked {
        case: checked,
        run,
        violations,
    }
}

/// A case played for examination, with the states the invariants resume from.
pub(crate) struct Played<'c> {
    pub run: Run,
    /// The step the case was cut before, if any.
    pub cut: Option<usize>,
    pub after: Option<(usize, Session<'c>)>,
    pub end: Option<Session<'c>>,
}

/// Plays a case step by step; `None` if not even its first step can be played.
pub(crate) fn play<'c>(
    case: &'c Case,
    edition: Edition,
    mutant: Option<Mutant>,
    index: u64,
) -> Option<Played<'c>> {
    let options = Options {
        mutant,
        ..Options::default()
    };
    let mut session = Session::start(case, edition, options).ok()?;
    let mut run = Run {
        setup: Vec::new(),
        initial: session.observe(),
        steps: Vec::new(),
        error: None,
    };
    // The relations that resume a run alternate: some cases check again after
    // one step (sba-fixpoint), the others continue past the end.
    let (keep_after, keep_end) = invariants::keeps(index);
    let recheck_at = keep_after.then(|| index as usize % case.steps.len().max(1));
    let mut after = None;
    let mut cut = None;
    for (k, step) in case.steps.iter().enumerate() {
        match session.play(step) {
            Ok(outcome) => {
                run.steps.push(outcome);
                if recheck_at == Some(k) {
                    after = Some((k, session.clone()));
                }
            }
            Err(ResolveError::Invalid(_)) if k == 0 => return None,
            Err(ResolveError::Invalid(_)) => {
                cut = Some(k);
                break;
            }
            Err(e) => {
                run.error = Some(e);
                break;
            }
        }
    }
    let end = (cut.is_none() && run.error.is_none() && keep_end).then_some(session);
    Some(Played {
        run,
        cut,
        after,
        end,
    })
}

/// A generated case as far as it can be played: cut before its first step
/// that acts on an object no longer there (a generated step may name one
/// that died earlier), with the reference resolver's run of it. `None` if
/// not even its first step can be played.
///
/// ```
/// let case = ptoracle::explore::case_at(1, 2).unwrap();
/// let edition = ptoracle::Edition::current();
/// if let Some((c, run)) = ptoracle::explore::playable(case.clone(), edition) {
///     assert!(c.steps.len() <= case.steps.len());
///     assert!(run.steps.len() <= c.steps.len());
/// }
/// ```
pub fn playable(mut case: Case, edition: Edition) -> Option<(Case, Run)> {
    let mut run = ptoracle_core::resolver::resolve(&case, edition, Options::default());
    match run.error {
        Some(ResolveError::Invalid(_)) if run.steps.is_empty() => None,
        Some(ResolveError::Invalid(_)) => {
            case.steps.truncate(run.steps.len());
            run.error = None;
            Some((case, run))
        }
        _ => Some((case, run)),
    }
}
