//! The fuzz targets, as library functions.
//!
//! Every libFuzzer target in `fuzz/` is one call to [`Target::run`]; the
//! replay test (`tests/fuzz_replay.rs`) runs the committed seeds and crash
//! artifacts through the same function under `cargo test`, and
//! `ptoracle fuzz replay` runs an artifact alone and explains it. A target
//! returns a [`Finding`] for a property that does not hold; a panic is a
//! finding too (libFuzzer catches it, the replay test reports it).
//!
//! The three targets that take a scenario read their input with
//! [`scenario`]: `Y` followed by a ruling document (the form of the seeds
//! made from `rulings/`), or else choice bytes for the generator of
//! `ptoracle explore`. So a campaign explores both the generator's space
//! and the neighbourhood of every ruling.

pub mod seeds;

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Mutex;

use arbitrary::Unstructured;

use crate::corpus;
use crate::engine::{Engine, ProcessConfig, ProcessEngine, Reference, Served, split_command};
use crate::explore::{self, Exam};
use ptoracle_core::edition::Edition;
use ptoracle_core::resolver::Mutant;
use ptoracle_core::scenario::Case;
use ptoracle_core::verdict::{Problem, Verdict};
use ptoracle_protocol::{self as protocol, Capabilities, Observable, Request};

/// A fuzz target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// A scenario through the resolver: every invariant of `explore` holds.
    Resolve,
    /// Bytes into the corpus loader: errors are located, valid cases
    /// round-trip.
    RulingYaml,
    /// Bytes into the protocol's decoders (the gate's side and `serve`'s).
    Protocol,
    /// A scenario through YAML, JSON and a protocol request and back.
    Roundtrip,
    /// A scenario through the reference and an engine: same observations.
    Differential,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 5] = [
        Target::Resolve,
        Target::RulingYaml,
        Target::Protocol,
        Target::Roundtrip,
        Target::Differential,
    ];

    /// Its name, as `cargo fuzz run` knows it.
    pub fn name(self) -> &'static str {
        match self {
            Target::Resolve => "resolve",
            Target::RulingYaml => "ruling_yaml",
            Target::Protocol => "protocol",
            Target::Roundtrip => "roundtrip",
            Target::Differential => "differential",
        }
    }

    /// The target named `name`.
    pub fn parse(name: &str) -> Result<Target, String> {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
                format!(
                    "unknown fuzz target `{name}`; the targets are {}",
                    names.join(", ")
                )
            })
    }

    /// The directory of `fuzz/seeds/` its seeds are in (the scenario
    /// targets share theirs).
    pub fn seed_dir(self) -> &'static str {
        match self {
            Target::Resolve | Target::Roundtrip | Target::Differential => "scenario",
            Target::RulingYaml => "ruling_yaml",
            Target::Protocol => "protocol",
        }
    }

    /// Whether its inputs stand for a scenario (see [`scenario`]).
    pub fn takes_scenario(self) -> bool {
        self.seed_dir() == "scenario"
    }

    /// Runs the target on one input. `Differential` uses the engine
    /// [`install_engine`] set, or else the one [`ENGINE_VAR`] names.
    ///
    /// ```
    /// use ptoracle::fuzzing::Target;
    /// for t in [Target::Resolve, Target::RulingYaml, Target::Protocol, Target::Roundtrip] {
    ///     assert!(t.run(b"").is_ok());
    ///     assert!(t.run(b"Yid: x/y\ntitle: t\nrules: ['613']\nsetup: {objects: [{id: c, types: [Creature], pt: 2/2}]}\nsteps: [{do: state_based_actions}]\n").is_ok());
    /// }
    /// ```
    pub fn run(self, data: &[u8]) -> Result<(), Finding> {
        let found = match self {
            Target::Resolve => resolve(data),
            Target::RulingYaml => ruling_yaml(data),
            Target::Protocol => protocol(data),
            Target::Roundtrip => roundtrip(data),
            Target::Differential => with_engine(|engine| differential(data, engine)),
        };
        found.map_err(|(message, case)| Finding {
            target: self,
            message,
            case,
        })
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A property that does not hold on an input.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The target that found it.
    pub target: Target,
    /// What does not hold.
    pub message: String,
    /// The scenario the input stands for, when it stands for one.
    pub case: Option<Box<Case>>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.target, self.message)
    }
}

impl std::error::Error for Finding {}

type Found = Result<(), (String, Option<Box<Case>>)>;

/// The scenario an input of a scenario target stands for, if any: `Y` and
/// a ruling document (its first case, when it is valid), or else the
/// generator's scenario for those choice bytes.
///
/// ```
/// let c = ptoracle::fuzzing::scenario(b"Yid: a/b\ntitle: t\nrules: ['613']\nsetup: {objects: [{id: c, types: [Creature], pt: 2/2}]}\nsteps: [{do: state_based_actions}]\n").unwrap();
/// assert_eq!(c.id.to_string(), "a/b");
/// assert!(ptoracle::fuzzing::scenario(&[7; 64]).is_some());
/// ```
pub fn scenario(data: &[u8]) -> Option<Case> {
    match data.split_first() {
        Some((b'Y', text)) => corpus::parse_bytes("input.yaml", text)
            .ok()?
            .into_iter()
            .next()
            .map(|l| l.case),
        _ => explore::generate::generate(&mut Unstructured::new(data)).ok(),
    }
}

/// A case index for an input: which sampled invariants run on it (see
/// `ptoracle explore --list-invariants`) follows from the input alone.
fn index_of(data: &[u8]) -> u64 {
    data.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// `resolve`: every invariant holds on the scenario's run (see
/// [`explore::examine`]).
fn resolve(data: &[u8]) -> Found {
    let Some(case) = scenario(data) else {
        return Ok(());
    };
    let edition = Edition::current();
    if case.editions.as_ref().is_some_and(|r| !r.contains(edition)) {
        return Ok(());
    }
    match explore::examine(case, edition, None, index_of(data)) {
        Exam::Discarded => Ok(()),
        Exam::Checked {
            case, violations, ..
        } => match violations.into_iter().next() {
            None => Ok(()),
            Some(v) => Err((
                format!(
                    "invariant {} ({}) fails after step {}: {}",
                    v.invariant.name,
                    v.invariant.rules.join(", "),
                    v.found.step + 1,
                    v.found.message
                ),
                Some(Box::new(v.found.case.unwrap_or(case))),
            )),
        },
    }
}

/// `ruling_yaml`: the loader never panics; every error it reports has a
/// line and column inside the input; every valid case written back as YAML
/// reads back the same.
fn ruling_yaml(data: &[u8]) -> Found {
    let lines = data.split(|&b| b == b'\n').count();
    match corpus::parse_bytes("input.yaml", data) {
        Err(errors) => {
            if errors.is_empty() {
                return Err(("the loader failed without saying why".into(), None));
            }
            for e in errors {
                if e.line == 0 || e.column == 0 || e.line > lines {
                    return Err((
                        format!("an error located outside the input ({} lines): {e}", lines),
                        None,
                    ));
                }
                if e.message.trim().is_empty() {
                    return Err((format!("an error without a message at {e}"), None));
                }
            }
            Ok(())
        }
        Ok(cases) => {
            for l in cases {
                yaml_back(&l.case)?;
            }
            Ok(())
        }
    }
}

/// The case written as a ruling file reads back as the same single case.
fn yaml_back(case: &Case) -> Found {
    let text = corpus::to_yaml(case);
    match corpus::parse_str("written.yaml", &text) {
        Ok(back) if back.len() == 1 && back[0].case == *case => Ok(()),
        Ok(back) => Err((
            format!(
                "the case written as YAML reads back as {} case(s), not the same one:\n{text}",
                back.len()
            ),
            Some(Box::new(case.clone())),
        )),
        Err(errors) => Err((
            format!(
                "the case written as YAML does not load ({}):\n{text}",
                errors[0]
            ),
            Some(Box::new(case.clone())),
        )),
    }
}

/// `protocol`: each line of the input through every decoder of both sides,
/// and the whole input through `serve`.
///
/// - the fast decoders agree with the general ones wherever they answer;
/// - a decoded message encodes and decodes to itself;
/// - `serve` ends normally, answers at most once per line, and every line
///   it writes is one the gate can read.
fn protocol(data: &[u8]) -> Found {
    let everything: BTreeSet<Observable> = Observable::ALL.iter().copied().collect();
    for line in data.split(|&b| b == b'\n') {
        // The gate's side.
        let _ = protocol::decode_engine_hello(line);
        for unobserved in [&BTreeSet::new(), &everything] {
            let slow = protocol::decode_reply_slow(line, unobserved);
            agree("reply", protocol::fast::reply(line, unobserved), &slow)?;
            if let Ok(reply) = slow {
                let again = protocol::encode(&reply);
                match protocol::decode_reply(&again, unobserved) {
                    Ok(back) if back == reply => {}
                    other => {
                        return Err((
                            format!(
                                "a reply encoded again does not decode to itself: {reply:?} -> {} -> {other:?}",
                                String::from_utf8_lossy(&again).trim_end()
                            ),
                            None,
                        ));
                    }
                }
            }
        }
        // serve's side.
        let _ = protocol::decode_hello(line);
        let _ = protocol::request_seq(line);
        let slow = protocol::decode_request_slow(line);
        agree("request", protocol::fast::request(line), &slow)?;
        if let Ok(request) = slow {
            request_back(&request)?;
        }
    }
    let mut out = Vec::new();
    if let Err(e) = crate::serve::serve(data, &mut out, None) {
        return Err((format!("serve failed on its input: {e}"), None));
    }
    let asked = data
        .split(|&b| b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .count();
    let answers: Vec<&[u8]> = out
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    if answers.len() > asked {
        return Err((
            format!(
                "serve wrote {} lines for {asked} request lines",
                answers.len()
            ),
            None,
        ));
    }
    for a in answers {
        let readable = protocol::decode_engine_hello(a).is_ok()
            || protocol::decode_reply(a, &BTreeSet::new()).is_ok();
        if !readable {
            return Err((
                format!(
                    "serve wrote a line the gate cannot read: {}",
                    String::from_utf8_lossy(a)
                ),
                None,
            ));
        }
    }
    Ok(())
}

/// A fast decoder's answer, where it gives one, is the general decoder's.
fn agree<T: PartialEq + fmt::Debug>(
    what: &str,
    fast: Option<T>,
    slow: &Result<T, protocol::ProtocolError>,
) -> Found {
    match fast {
        Some(f) if slow.as_ref().ok() != Some(&f) => Err((
            format!("the fast {what} decoder reads {f:?} where the general one reads {slow:?}"),
            None,
        )),
        _ => Ok(()),
    }
}

/// A request encodes and decodes (by both decoders) to itself.
fn request_back(request: &Request) -> Found {
    let line = protocol::encode(request);
    let back = protocol::decode_request(&line);
    let slow = protocol::decode_request_slow(&line);
    match (&back, &slow) {
        (Ok(a), Ok(b)) if a == request && b == request => Ok(()),
        _ => Err((
            format!(
                "a request encoded as {} decodes to {back:?} (general decoder: {slow:?})",
                String::from_utf8_lossy(&line).trim_end()
            ),
            match request {
                Request::Run { case, .. } | Request::Reproduce { case, .. } => Some(case.clone()),
                Request::Bye => None,
            },
        )),
    }
}

/// `roundtrip`: the scenario written as YAML, as JSON, and as the case of
/// a protocol request reads back as itself.
fn roundtrip(data: &[u8]) -> Found {
    let Some(case) = scenario(data) else {
        return Ok(());
    };
    yaml_back(&case)?;
    let json = serde_json::to_vec(&case).unwrap_or_default();
    match serde_json::from_slice::<Case>(&json) {
        Ok(back) if back == case => {}
        other => {
            return Err((
                format!(
                    "the case written as JSON reads back as {other:?}: {}",
                    String::from_utf8_lossy(&json)
                ),
                Some(Box::new(case)),
            ));
        }
    }
    request_back(&Request::Run {
        seq: index_of(data),
        edition: Edition::current().id().to_string(),
        case: Box::new(protocol::without_expectations(&case)),
    })
}

/// `differential`: the engine's observations are the reference's at every
/// step, and it meets the scenario's expectations wherever the reference
/// does (see [`crate::engine::check_engine`]). A case the engine skips or calls
/// unsupported is no finding; an engine fault is one.
pub fn differential(data: &[u8], engine: &mut dyn Engine) -> Result<(), Finding> {
    differential_found(data, engine).map_err(|(message, case)| Finding {
        target: Target::Differential,
        message,
        case,
    })
}

fn differential_found(data: &[u8], engine: &mut dyn Engine) -> Found {
    let Some(case) = scenario(data) else {
        return Ok(());
    };
    let edition = Edition::current();
    let Some((case, reference)) = explore::playable(case, edition) else {
        return Ok(());
    };
    let caps: Capabilities = engine
        .capabilities()
        .map_err(|f| (format!("the engine cannot start: {f}"), None))?;
    let checked = crate::engine::check_engine(&case, edition, engine, &caps, Some(reference));
    match checked.verdict {
        Verdict::Pass | Verdict::Skip(_) | Verdict::Error(Problem::Case(_)) => Ok(()),
        Verdict::Fail(mismatches) => {
            let lines: Vec<String> = mismatches.iter().map(|m| m.to_string()).collect();
            Err((
                format!(
                    "{} differs from the reference:\n  {}",
                    caps.info.name,
                    lines.join("\n  ")
                ),
                Some(Box::new(case)),
            ))
        }
        Verdict::Error(Problem::Engine(f)) => Err((
            format!("{} failed on the case: {f}", caps.info.name),
            Some(Box::new(case)),
        )),
    }
}

/// The environment variable that names the differential target's engine:
///
/// - `reference`: the resolver itself, in this process;
/// - `serve` or `serve --mutant NAME`: `ptoracle serve` (with a deliberate
///   bug) in this process, through the protocol's encoders and decoders;
/// - anything else: the command line of an engine speaking the protocol
///   (an adapter), started once and kept for the whole campaign.
pub const ENGINE_VAR: &str = "PTORACLE_FUZZ_ENGINE";

/// The differential target's engine when [`ENGINE_VAR`] is not set: a
/// deliberately broken reference, so that a first campaign shows what a
/// finding looks like (the mutant loses a creature's counters when its
/// base P/T is set, against 613.4b and 613.4c). Set the variable to test a real engine.
pub const DEFAULT_ENGINE: &str = "serve --mutant set-wipes-counters";

/// The engine an [`ENGINE_VAR`] value names; see there.
///
/// ```
/// use ptoracle::fuzzing::engine_named;
/// assert!(engine_named("serve --mutant x-reread").is_ok());
/// let err = engine_named("serve --mutant nope").err().unwrap();
/// assert!(err.starts_with("PTORACLE_FUZZ_ENGINE=serve --mutant nope: unknown mutant"));
/// ```
pub fn engine_named(spec: &str) -> Result<Box<dyn Engine + Send>, String> {
    let words = split_command(spec).map_err(|e| format!("{ENGINE_VAR}={spec}: {e}"))?;
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let bad = |why: String| format!("{ENGINE_VAR}={spec}: {why}");
    match words.as_slice() {
        [] => Err(bad("no engine named".into())),
        ["reference"] => Ok(Box::new(Reference::new(None))),
        ["serve"] => Ok(Box::new(Served::new(None))),
        ["serve", "--mutant", name] => {
            let m = Mutant::parse(name).map_err(bad)?;
            Ok(Box::new(Served::new(Some(m))))
        }
        ["serve", ..] => Err(bad(
            "expected `serve` or `serve --mutant NAME` (for a ptoracle binary, give its path)"
                .into(),
        )),
        _ => {
            let words = words.iter().map(|w| w.to_string()).collect();
            Ok(Box::new(ProcessEngine::new(ProcessConfig::new(words))))
        }
    }
}

static ENGINE: Mutex<Option<Box<dyn Engine + Send>>> = Mutex::new(None);

/// Sets the engine of [`Target::Differential`] for this process (the
/// replay test and `ptoracle fuzz replay` use it).
pub fn install_engine(engine: Box<dyn Engine + Send>) {
    let mut slot = ENGINE.lock().unwrap_or_else(|p| p.into_inner());
    *slot = Some(engine);
}

/// The engine [`ENGINE_VAR`] (or [`DEFAULT_ENGINE`]) names, with the
/// value used: what the differential fuzz target installs at start.
pub fn engine_from_env() -> Result<(String, Box<dyn Engine + Send>), String> {
    let spec = std::env::var(ENGINE_VAR).unwrap_or_else(|_| DEFAULT_ENGINE.to_string());
    engine_named(&spec).map(|e| (spec, e))
}

fn with_engine(f: impl FnOnce(&mut dyn Engine) -> Result<(), Finding>) -> Found {
    let mut slot = ENGINE.lock().unwrap_or_else(|p| p.into_inner());
    let engine = match slot.as_mut() {
        Some(engine) => engine,
        None => slot.insert(engine_from_env().map_err(|e| (e, None))?.1),
    };
    f(engine.as_mut()).map_err(|f| (f.message, f.case))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differential_finds_the_default_mutant_and_not_the_reference() {
        let mut bad = engine_named(DEFAULT_ENGINE).unwrap();
        let mut good = engine_named("serve").unwrap();
        let mut found = 0;
        for i in 0..2000u64 {
            let Some(bytes) = explore::case_bytes(5, i) else {
                continue;
            };
            assert!(differential(&bytes, good.as_mut()).is_ok());
            found += usize::from(differential(&bytes, bad.as_mut()).is_err());
        }
        assert!(found > 0, "the default mutant was never found");
    }

    #[test]
    fn target_names_parse_back() {
        for t in Target::ALL {
            assert_eq!(Target::parse(t.name()), Ok(t));
        }
        assert!(
            Target::parse("nope")
                .unwrap_err()
                .contains("resolve, ruling_yaml")
        );
    }
}
