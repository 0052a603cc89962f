//! A disagreement written as a ruling: what `explore` (an invariant's
//! violation) and the gate (an engine's difference from the reference)
//! both do to turn a failing case into a minimal ruling that loads as
//! written and passes on the reference: where the runs part, what to expect
//! there, a stable id.

use std::collections::BTreeMap;

use ptoracle_core::error::ResolveError;
use ptoracle_core::scenario::{Case, ErrorCode, Expect, Handle};

/// Sets what the last step of `c` expects: `expect`, or the error
/// `expect_error` alone (a step that ends in an error expects no values).
pub(crate) fn expect_last(
    c: &mut Case,
    expect: BTreeMap<Handle, Expect>,
    expect_error: Option<ErrorCode>,
) {
    if let Some(last) = c.steps.last_mut() {
        last.expect = expect;
        last.expect_error = expect_error;
        if last.expect_error.is_some() {
            last.expect.clear();
        }
    }
}

/// Drops the last step's expectations if the format refuses them: a
/// ruling must load as written.
pub(crate) fn loadable(c: &mut Case) {
    if !ptoracle_core::scenario::validate(c).is_empty() {
        if let Some(last) = c.steps.last_mut() {
            last.expect.clear();
        }
    }
}

/// The first step where `other` differs from `reference`, with the
/// reference's values of the fields that differ there (or the error the
/// reference ends with): what a ruling must expect to tell them apart.
pub(crate) fn expectations_where(
    reference: &ptoracle_core::resolver::Run,
    other: &ptoracle_core::resolver::Run,
) -> Option<(usize, BTreeMap<Handle, Expect>, Option<ErrorCode>)> {
    for k in 0..reference.steps.len().max(other.steps.len()) + 1 {
        match (reference.steps.get(k), other.steps.get(k)) {
            (Some(r), Some(b)) if r.observation != b.observation => {
                let e = ptoracle_core::verdict::diff(&b.observation, &r.observation);
                if e.is_empty() {
                    continue;
                }
                return Some((k, e, None));
            }
            (Some(_), Some(_)) => continue,
            (None, Some(_)) => {
                let code = match &reference.error {
                    Some(ResolveError::Overflow { .. }) => ErrorCode::Overflow,
                    Some(ResolveError::NoFixpoint { .. }) => ErrorCode::NoFixpoint,
                    _ => return None,
                };
                return Some((k, BTreeMap::new(), Some(code)));
            }
            (Some(r), None) => {
                // The other run stopped with an error: expect the whole state.
                let e = r
                    .observation
                    .objects
                    .iter()
                    .map(|(h, o)| (h.clone(), ptoracle_core::verdict::whole(o)))
                    .collect();
                return Some((k, e, None));
            }
            (None, None) => return None,
        }
    }
    None
}

/// The 32-bit FNV-1a hash of `s`: the stable part of a written ruling's
/// id and file name (the same text, the same name on every run).
pub(crate) fn fnv(s: &str) -> u32 {
    let mut h: u32 = 0x811C_9DC5;
    for b in s.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}
