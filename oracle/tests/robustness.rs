//! Nothing a ruling can say makes ptoracle panic: every ruling of the
//! corpus, mangled in many ways (a fixed seed, so failures reproduce), goes
//! through the loader, the resolver and the explainer. Each must answer
//! with a value or an error; a panic fails the test and prints the input.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// xorshift64*: a tiny deterministic generator, enough for mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const REPLACEMENTS: &[&str] = &[
    "9223372036854775807",
    "-9223372036854775808",
    "4611686018427387904",
    "18446744073709551616",
    "0",
    "-1",
    "2.5",
    "~",
    "\"\"",
    "[]",
    "{}",
    "*/*",
    "+X/+X",
    "X/X",
    "-0/-0",
    "self",
    "attached",
    "graveyard",
    "&a",
    "*a",
    "!effect",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(2) {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len());
        match rng.below(12) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            3..=9 => {
                // Replace a number or a word of the line.
                let words: Vec<(usize, &str)> = lines[i]
                    .match_indices(|c: char| c.is_ascii_alphanumeric() || "/+-*".contains(c))
                    .collect();
                if let Some(&(at, _)) = words.get(rng.below(words.len().max(1))) {
                    let end = lines[i][at..]
                        .find(|c: char| !(c.is_ascii_alphanumeric() || "/+-*_".contains(c)))
                        .map_or(lines[i].len(), |e| at + e);
                    let with = REPLACEMENTS[rng.below(REPLACEMENTS.len())];
                    lines[i].replace_range(at..end, with);
                }
            }
            10 => {
                let at = rng.below(lines[i].len() + 1);
                let c = ["{", "}", "[", "]", ":", ",", "\t", "'", "#", "---"][rng.below(10)];
                if lines[i].is_char_boundary(at) {
                    lines[i].insert_str(at, c);
                }
            }
            _ => {
                let keep = rng.below(lines.len() + 1);
                lines.truncate(keep);
            }
        }
    }
    lines.join("\n")
}

fn rulings(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rulings(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml") {
            out.push(p);
        }
    }
}

#[test]
fn mangled_rulings_never_panic() {
    let mut files = Vec::new();
    rulings(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulings"),
        &mut files,
    );
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let per_file = 120;
    let mut panics = Vec::new();
    let (mut played, mut total) = (0usize, 0usize);
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        for _ in 0..per_file {
            let input = mutate(&text, &mut rng);
            total += 1;
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                if let Ok(cases) = ptoracle::corpus::parse_str("mutant.yaml", &input) {
                    played += 1;
                    for c in cases {
                        let _ = ptoracle::check(&c.case, ptoracle::Edition::current());
                        let _ = ptoracle::explain::explain(&c.case, ptoracle::Edition::current());
                        let yaml = ptoracle::corpus::to_yaml(&c.case);
                        let back =
                            ptoracle::corpus::from_yaml(&yaml).expect("a written case reads back");
                        assert_eq!(back, c.case, "YAML round trip");
                    }
                }
            }));
            if outcome.is_err() {
                panics.push(format!("{}:\n{input}", f.display()));
            }
        }
    }
    assert!(
        panics.is_empty(),
        "{} inputs panicked; the first:\n{}",
        panics.len(),
        panics[0]
    );
    // The mutations must mostly stay loadable, or the resolver goes untested.
    assert!(
        played * 5 >= total,
        "only {played} of {total} mutants loaded"
    );
    eprintln!("{played} of {total} mangled rulings loaded and were played");
}
