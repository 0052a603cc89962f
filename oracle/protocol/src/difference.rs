//! Where an engine's observation differs from the reference's.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::scenario::Handle;
use crate::wire::Observable;
use crate::wire::WireObservation;

/// One field where the engine's observation differs from the reference's,
/// sent with a `reproduce` request: what the program checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Difference {
    /// The step after which it is observed, from 0.
    pub step: usize,
    /// The object or player, by handle.
    pub of: Handle,
    /// The observation field, as in a `result` reply (`power`, `zone`,
    /// `counters`, `life`).
    pub field: String,
    /// The reference's value, as in a `result` reply.
    pub reference: serde_json::Value,
    /// The engine's value, as its reply gave it.
    pub engine: serde_json::Value,
}

/// Every field where `got` differs from `reference`, at the first step
/// where they differ, as a `reproduce` request carries them: by object
/// or player and observation field, each value as a reply writes it.
/// Fields the engine does not report (`unobserved`) are left out.
pub fn differences(
    reference: &[WireObservation],
    got: &[WireObservation],
    unobserved: &BTreeSet<Observable>,
) -> Vec<Difference> {
    for (step, (r, g)) in reference.iter().zip(got).enumerate() {
        let (r, g) = (
            serde_json::to_value(r).unwrap_or_default(),
            serde_json::to_value(g).unwrap_or_default(),
        );
        let mut out = Vec::new();
        for part in ["objects", "players"] {
            let (Some(rs), Some(gs)) = (r[part].as_object(), g[part].as_object()) else {
                continue;
            };
            for (h, ro) in rs {
                let (Some(ro), Some(go)) = (ro.as_object(), gs.get(h).and_then(|g| g.as_object()))
                else {
                    continue;
                };
                for (field, rv) in ro {
                    let reported =
                        Observable::parse(field).is_none_or(|o| !unobserved.contains(&o));
                    let Some(gv) = go.get(field).filter(|_| reported) else {
                        continue;
                    };
                    if !same_value(rv, gv) {
                        out.push(Difference {
                            step,
                            of: Handle(h.as_str().into()),
                            field: field.clone(),
                            reference: rv.clone(),
                            engine: gv.clone(),
                        });
                    }
                }
            }
        }
        if !out.is_empty() {
            return out;
        }
    }
    Vec::new()
}

/// Whether two values of an observation field are the same: lists of
/// names (types, colors, keywords) in any order.
pub(crate) fn same_value(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    match (a.as_array(), b.as_array()) {
        (Some(x), Some(y)) => {
            let key = |v: &serde_json::Value| v.to_string();
            let mut x: Vec<String> = x.iter().map(key).collect();
            let mut y: Vec<String> = y.iter().map(key).collect();
            x.sort();
            y.sort();
            x == y
        }
        _ => a == b,
    }
}
