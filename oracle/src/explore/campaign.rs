//! The parallel campaign behind `ptoracle explore`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::invariants::{self, Invariant, Violation};
use super::stream::{case_at, shape, shrink};
use super::{Exam, examine};
use crate::ruling::{self, expectations_where, fnv};
use ptoracle_core::edition::Edition;
use ptoracle_core::resolver::Mutant;
use ptoracle_core::scenario::{Case, CaseId, ErrorCode, Origin};

/// A slice of the case stream: case indices `i`, `i + n`, `i + 2n`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u64,
    /// How many shards there are.
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard { index: 0, count: 1 }
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("invalid shard `{s}`: write I/N with 0 <= I < N, e.g. 2/8");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) =
            (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The index in the whole stream of this shard's `j`-th case.
    ///
    /// ```
    /// use ptoracle::explore::Shard;
    /// let s: Shard = "1/3".parse().unwrap();
    /// assert_eq!((0..4).map(|j| s.nth(j)).collect::<Vec<_>>(), [1, 4, 7, 10]);
    /// ```
    pub fn nth(&self, j: u64) -> u64 {
        self.index + j * self.count
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a campaign does.
#[derive(Clone, Debug)]
pub struct Config {
    /// How many cases of this shard to check (none: until `time` or a stop).
    pub cases: Option<u64>,
    /// The seed the whole stream derives from.
    pub seed: u64,
    /// Worker threads.
    pub jobs: usize,
    /// Stop starting new cases after this long.
    pub time: Option<Duration>,
    /// The slice of the stream to check.
    pub shard: Shard,
    /// Where to write shrunk rulings (none: don't write).
    pub out: Option<PathBuf>,
    /// The edition of the rules.
    pub edition: Edition,
    /// A deliberately broken resolver to run against.
    pub mutant: Option<Mutant>,
    /// Only these invariants (none: all).
    pub only: Option<Vec<&'static Invariant>>,
    /// Shrinking attempts per failure.
    pub shrink_budget: usize,
    /// Shrunk rulings kept per invariant (further violations are counted).
    pub keep_per_invariant: usize,
}

impl Config {
    /// A campaign of `cases` cases with the defaults: all cores, all
    /// invariants, the current edition, nothing written.
    pub fn new(seed: u64, cases: u64) -> Config {
        Config {
            cases: Some(cases),
            seed,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            time: None,
            shard: Shard::default(),
            out: None,
            edition: Edition::current(),
            mutant: None,
            only: None,
            shrink_budget: 400,
            keep_per_invariant: 3,
        }
    }
}

/// Counters a campaign updates as it runs, for a progress display.
#[derive(Debug, Default)]
pub struct Live {
    /// Cases checked so far.
    pub checked: AtomicU64,
    /// Cases that could not be played.
    pub discarded: AtomicU64,
    /// Violations found so far (before deduplication).
    pub violations: AtomicU64,
}

/// One failure, shrunk.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The invariant, or `panic`.
    pub invariant: &'static str,
    /// The index of the case in the stream.
    pub index: u64,
    /// What was wrong, for the shrunk case.
    pub message: String,
    /// The shrunk case as a ruling.
    pub ruling: Case,
    /// Where it was written.
    pub file: Option<PathBuf>,
    /// Steps and objects before and after shrinking.
    pub shrunk: ((usize, usize), (usize, usize)),
}

/// What a campaign did.
#[derive(Debug)]
pub struct CampaignReport {
    /// Cases checked.
    pub checked: u64,
    /// Cases that could not be played.
    pub discarded: u64,
    /// Violations by invariant name (every one found, before shrinking).
    pub violations: BTreeMap<&'static str, u64>,
    /// The shrunk failures, one per invariant and shape, by invariant.
    pub failures: Vec<Failure>,
    /// Wall time.
    pub elapsed: Duration,
    /// Whether it was stopped before its end.
    pub interrupted: bool,
    /// Problems writing rulings: the first one (after it, no more
    /// rulings are written).
    pub write_errors: Vec<String>,
    /// Rulings not written after that first problem.
    pub unwritten: u64,
}

impl CampaignReport {
    /// Cases checked per second.
    pub fn rate(&self) -> f64 {
        self.checked as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

const CHUNK: u64 = 32;

/// A worker's counts for its current chunk, added to [`Live`] at once so
/// the workers don't contend for its counters on every case.
#[derive(Default)]
struct Tally {
    checked: u64,
    discarded: u64,
    violations: u64,
}

impl Tally {
    fn publish(&mut self, live: &Live) {
        live.checked.fetch_add(self.checked, Ordering::Relaxed);
        live.discarded.fetch_add(self.discarded, Ordering::Relaxed);
        live.violations
            .fetch_add(self.violations, Ordering::Relaxed);
        *self = Tally::default();
    }
}

/// Runs a campaign. `stop` ends it early (Ctrl-C); what was found so far is
/// shrunk, written and reported. `live` is updated as it goes.
///
/// Which failures are shrunk and written depends only on the seed and the
/// cases checked, not on the threads: the violating case indices are
/// recorded during the run, and the smallest of them are shrunk after it.
/// The first violation of each invariant is also written at once, unshrunk,
/// so that even a killed run leaves it behind.
pub fn run(config: &Config, stop: &AtomicBool, live: &Live) -> CampaignReport {
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let found: Mutex<Found> = Mutex::new(Found::default());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs.max(1))
        .build();
    let work = || {
        let worker = || {
            loop {
                let first = next.fetch_add(CHUNK, Ordering::Relaxed);
                let mut tally = Tally::default();
                for j in first..first + CHUNK {
                    if config.cases.is_some_and(|n| j >= n)
                        || stop.load(Ordering::Relaxed)
                        || config.time.is_some_and(|t| start.elapsed() >= t)
                    {
                        tally.publish(live);
                        return;
                    }
                    one_case(config, config.shard.nth(j), &mut tally, &found);
                }
                tally.publish(live);
            }
        };
        rayon::scope(|s| {
            for _ in 0..config.jobs.max(1) {
                s.spawn(|_| worker());
            }
        });
    };
    match &pool {
        Ok(p) => p.install(work),
        Err(_) => work(),
    }
    let mut found = found.into_inner().unwrap_or_else(|p| p.into_inner());
    let todo: Vec<(&'static str, u64)> = found
        .hits
        .iter()
        .flat_map(|(name, set)| set.iter().map(move |i| (*name, *i)))
        .collect();
    let shrink_all = || -> Vec<Failure> {
        use rayon::prelude::*;
        todo.par_iter()
            .filter_map(|(name, index)| shrink_one(config, name, *index, stop))
            .collect()
    };
    let mut shrunk = match &pool {
        Ok(p) => p.install(shrink_all),
        Err(_) => shrink_all(),
    };
    shrunk.sort_by(|a, b| (a.invariant, a.index).cmp(&(b.invariant, b.index)));
    let failures = keep(config, shrunk, &mut found);
    CampaignReport {
        checked: live.checked.load(Ordering::Relaxed),
        discarded: live.discarded.load(Ordering::Relaxed),
        violations: found.counts,
        failures,
        elapsed: start.elapsed(),
        interrupted: stop.load(Ordering::Relaxed),
        write_errors: found.write_errors,
        unwritten: found.unwritten,
    }
}

#[derive(Default)]
struct Found {
    /// Every violation, by invariant.
    counts: BTreeMap<&'static str, u64>,
    /// By invariant, the smallest case indices that violate it.
    hits: BTreeMap<&'static str, BTreeSet<u64>>,
    /// The unshrunk ruling written for the first violation of each
    /// invariant (`None`: tried, not written).
    early: BTreeMap<&'static str, Option<PathBuf>>,
    write_errors: Vec<String>,
    unwritten: u64,
}

impl Found {
    /// Writes `ruling` as `name` in `dir`, unless a write failed already:
    /// after a first failure (a full disk, a directory that can't be
    /// written) rulings are only counted, so that one problem is reported
    /// once.
    fn write(&mut self, dir: &Path, name: &str, ruling: &Case) -> Option<PathBuf> {
        if !self.write_errors.is_empty() {
            self.unwritten += 1;
            return None;
        }
        crate::output::write_in(dir, name, &ruling_text(ruling))
            .map_err(|e| {
                self.write_errors
                    .push(format!("{}: {e}", dir.join(name).display()))
            })
            .ok()
    }
}

fn selected(config: &Config, inv: &Invariant) -> bool {
    config
        .only
        .as_ref()
        .is_none_or(|v| v.iter().any(|i| i.name == inv.name))
}

/// Examines `case` and the violations worth recording (a panic counts as
/// the violation `panic`).
fn violations_of(
    config: &Config,
    case: Case,
    index: u64,
) -> Result<Option<(Case, Vec<Violation>)>, ()> {
    match catch_unwind(AssertUnwindSafe(|| {
        examine(case, config.edition, config.mutant, index)
    })) {
        Ok(Exam::Discarded) => Ok(None),
        Ok(Exam::Checked {
            case, violations, ..
        }) => Ok(Some((
            case,
            violations
                .into_iter()
                .filter(|v| selected(config, v.invariant))
                .collect(),
        ))),
        Err(_) => Err(()),
    }
}

/// A violation as recorded: the invariant's name, what it found, its rules.
type Hit = (&'static str, invariants::Found, &'static [&'static str]);

/// Examines one case and records what fails.
fn one_case(config: &Config, index: u64, tally: &mut Tally, found: &Mutex<Found>) {
    let Some(case) = case_at(config.seed, index) else {
        tally.discarded += 1;
        return;
    };
    let (checked, hits): (Case, Vec<Hit>) = match violations_of(config, case.clone(), index) {
        Ok(None) => {
            tally.discarded += 1;
            return;
        }
        Ok(Some((checked, v))) => (
            checked,
            v.into_iter()
                .map(|v| (v.invariant.name, v.found, v.invariant.rules))
                .collect(),
        ),
        Err(()) => (case, vec![("panic", panic_found(), &["107.1"][..])]),
    };
    tally.checked += 1;
    if hits.is_empty() {
        return;
    }
    tally.violations += hits.len() as u64;
    let cap = config.keep_per_invariant.max(1) * 4;
    let mut f = found.lock().unwrap_or_else(|p| p.into_inner());
    for (name, what, rules) in hits {
        *f.counts.entry(name).or_default() += 1;
        let set = f.hits.entry(name).or_default();
        set.insert(index);
        while set.len() > cap {
            set.pop_last();
        }
        if !f.early.contains_key(name) {
            if let Some(dir) = &config.out {
                let ruling = to_ruling(config, index, name, rules, &checked, &what);
                let path = f.write(dir, &format!("{name}-unshrunk.yaml"), &ruling);
                // Tried once, written or not: a full disk is reported once.
                f.early.insert(name, path);
            }
        }
    }
}

fn panic_found() -> invariants::Found {
    invariants::Found {
        step: 0,
        message: "the resolver panicked".into(),
        case: None,
        expect: BTreeMap::new(),
        expect_error: None,
    }
}

/// Shrinks case `index` while it keeps violating invariant `name`.
fn shrink_one(
    config: &Config,
    name: &'static str,
    index: u64,
    stop: &AtomicBool,
) -> Option<Failure> {
    let original = case_at(config.seed, index)?;
    let before = (original.steps.len(), original.setup.objects.len());
    if name == "panic" {
        let f = panic_found();
        let ruling = to_ruling(config, index, name, &["107.1"], &original, &f);
        return Some(Failure {
            invariant: name,
            index,
            message: f.message,
            ruling,
            file: None,
            shrunk: (before, before),
        });
    }
    let inv = invariants::named(name)?;
    let mut last: Option<invariants::Found> = None;
    let mut fails = |c: &Case| -> Option<Case> {
        let (case, v) = violations_of(config, c.clone(), index).ok()??;
        let hit = v.into_iter().find(|w| w.invariant.name == name)?;
        last = Some(hit.found);
        Some(case)
    };
    let shrunk = shrink(
        config.seed,
        index,
        &super::generate::Scope::ALL,
        config.shrink_budget,
        stop,
        &mut fails,
    );
    // Examine the final case once more: its violation is the one written.
    let case = shrunk.and_then(|c| fails(&c))?;
    let found = last?;
    let after = (case.steps.len(), case.setup.objects.len());
    let ruling = to_ruling(config, index, name, inv.rules, &case, &found);
    Some(Failure {
        invariant: name,
        index,
        message: found.message,
        ruling,
        file: None,
        shrunk: (before, after),
    })
}

/// Turns a failing case into a ruling: the steps up to the violation, with
/// what the invariant expects after its step.
fn to_ruling(
    config: &Config,
    index: u64,
    name: &str,
    rules: &[&str],
    checked: &Case,
    f: &invariants::Found,
) -> Case {
    let mut c = f.case.clone().unwrap_or_else(|| checked.clone());
    c.steps.truncate(f.step + 1);
    let (mut expect, mut expect_error) = (f.expect.clone(), f.expect_error);
    if let Some(m) = config.mutant {
        // Against a mutant, the ruling states what the reference resolver
        // does where the mutant differs, so it passes on the reference and
        // fails on the mutant (unless they agree: then the reference is
        // suspect too, and the invariant's own expectations stay).
        if let Some((step, e, err)) = reference_expectations(config.edition, m, &c) {
            c.steps.truncate(step + 1);
            expect = e;
            expect_error = err;
        }
    }
    ruling::expect_last(&mut c, expect, expect_error);
    let hash = fnv(&format!("{name}|{}", crate::corpus::to_yaml(&c)));
    c.id = CaseId(format!("explore/{name}/{hash:08x}"));
    c.title = format!("{name}: {}", f.message);
    c.description = Some(format!(
        "Found by `ptoracle explore --seed {} ` (case index {index}, edition {}{}). Invariant {name}: {}",
        config.seed,
        config.edition,
        config.mutant.map_or(String::new(), |m| format!(
            ", against the deliberately broken resolver `{m}`"
        )),
        invariants::named(name).map_or("the resolver must not panic", |i| i.statement),
    ));
    c.rules = rules.iter().filter_map(|r| r.parse().ok()).collect();
    c.origin = Some(Origin {
        invariant: name.to_string(),
        seed: config.seed,
        index,
        edition: config.edition.id().to_string(),
        mutant: config.mutant.map(|m| m.name().to_string()),
        engine: None,
    });
    ruling::loadable(&mut c);
    c
}

/// Where and how the reference resolver's run of `case` differs from the
/// mutant's: the step, the reference's values there, or its error.
fn reference_expectations(
    edition: Edition,
    mutant: Mutant,
    case: &Case,
) -> Option<(
    usize,
    BTreeMap<ptoracle_core::scenario::Handle, ptoracle_core::scenario::Expect>,
    Option<ErrorCode>,
)> {
    use ptoracle_core::resolver::{Options, resolve};
    let opts = |m| Options {
        mutant: m,
        ..Options::default()
    };
    let (reference, broken) = (
        resolve(case, edition, opts(None)),
        resolve(case, edition, opts(Some(mutant))),
    );
    expectations_where(&reference, &broken)
}

/// Keeps, per invariant, the shrunk failures of distinct shapes, smallest
/// case index first, at most `keep_per_invariant` of them; writes them and
/// removes the unshrunk ruling they replace.
fn keep(config: &Config, shrunk: Vec<Failure>, found: &mut Found) -> Vec<Failure> {
    let mut kept: Vec<Failure> = Vec::new();
    let mut shapes: BTreeSet<(&'static str, String)> = BTreeSet::new();
    for mut f in shrunk {
        let shape = shape(&f.ruling);
        let per = kept.iter().filter(|k| k.invariant == f.invariant).count();
        if per >= config.keep_per_invariant || !shapes.insert((f.invariant, shape.clone())) {
            continue;
        }
        if let Some(dir) = &config.out {
            let name = format!("{}-{:08x}.yaml", f.invariant, fnv(&shape));
            f.file = found.write(dir, &name, &f.ruling);
        }
        if f.file.is_some() {
            if let Some(Some(early)) = found.early.remove(f.invariant) {
                let _ = std::fs::remove_file(early);
            }
        }
        kept.push(f);
    }
    kept
}

fn ruling_text(c: &Case) -> String {
    crate::corpus::to_yaml(c)
}
