//! Small helpers for the explanations' English, shared by the core and the
//! tool so that each is written once.

/// The plural ending of a count: `""` for exactly one, `"s"` for any other
/// number (zero, many, negative): `format!("{n} counter{}", plural(n))`.
///
/// ```
/// use ptoracle_core::text::plural;
/// assert_eq!(plural(1_i64), "");
/// assert_eq!(plural(0_usize), "s");
/// assert_eq!(plural(3_u64), "s");
/// ```
pub fn plural<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) { "" } else { "s" }
}
