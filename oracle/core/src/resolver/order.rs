//! The order of effects inside one layer or sublayer: timestamp order
//! (613.7), overridden by dependency (613.8).

/// The next effect to apply among `pending`, and whether it jumps ahead of
/// an earlier timestamp because of a dependency.
///
/// - `key(e)`: the effect's timestamp and creation sequence (the sequence
///   breaks ties deterministically; see DECISIONS.md);
/// - `depends(a, b)`: whether `a` depends on `b` in the current state
///   (613.8a). Only asked when `check_dependency` is set.
///
/// 613.8b: an effect that depends on others waits until they have applied;
/// effects in a dependency loop apply in timestamp order among themselves.
/// The caller asks again after each application (613.8c re-evaluates).
pub(crate) fn next(
    pending: &[usize],
    check_dependency: bool,
    key: impl Fn(usize) -> (i64, u64),
    depends: impl Fn(usize, usize) -> bool,
) -> (usize, bool) {
    if !check_dependency || pending.len() < 2 {
        let first = (0..pending.len())
            .min_by_key(|&i| key(pending[i]))
            .unwrap_or(0);
        return (first, false);
    }
    let mut by_time: Vec<usize> = (0..pending.len()).collect();
    by_time.sort_by_key(|&i| key(pending[i]));
    let n = pending.len();
    let mut dep = vec![vec![false; n]; n];
    for (a, row) in dep.iter_mut().enumerate() {
        for (b, cell) in row.iter_mut().enumerate() {
            *cell = a != b && depends(pending[a], pending[b]);
        }
    }
    let mut reach = dep.clone();
    for k in 0..n {
        for a in 0..n {
            if reach[a][k] {
                let via = reach[k].clone();
                for (cell, v) in reach[a].iter_mut().zip(via) {
                    *cell |= v;
                }
            }
        }
    }
    // A sink component of the dependency graph always exists, so some effect
    // is never blocked; the fallback only guards against a broken `depends`.
    let blocked = |a: usize| (0..n).any(|b| dep[a][b] && !reach[b][a]);
    match by_time.iter().position(|&a| !blocked(a)) {
        Some(pos) => (by_time[pos], pos > 0),
        None => (by_time[0], false),
    }
}

#[cfg(test)]
mod tests {
    use super::next;

    #[test]
    fn timestamp_order_without_dependency() {
        let (i, jumped) = next(&[10, 11, 12], true, |e| ((30 - e) as i64, 0), |_, _| false);
        assert_eq!(i, 2);
        assert!(!jumped);
    }

    #[test]
    fn a_dependent_effect_waits() {
        // Effect 0 (earliest) depends on effect 1.
        let (i, jumped) = next(&[0, 1], true, |e| (e as i64, 0), |a, b| a == 0 && b == 1);
        assert_eq!(i, 1);
        assert!(jumped);
    }

    #[test]
    fn a_loop_falls_back_to_timestamps() {
        let (i, _) = next(&[0, 1], true, |e| (e as i64, 0), |a, b| a != b);
        assert_eq!(i, 0);
    }

    #[test]
    fn a_loop_still_waits_for_an_outside_effect() {
        // 0 and 1 depend on each other, and 0 also depends on 2.
        let deps = |a: usize, b: usize| matches!((a, b), (0, 1) | (1, 0) | (0, 2));
        let (i, _) = next(&[0, 1, 2], true, |e| (e as i64, 0), deps);
        assert_eq!(
            i, 1,
            "1 is in the loop with 0 and waits for nothing outside it"
        );
    }
}
