//! The findings register (`ci/findings.yaml`): confirmed engine bugs, each
//! with the *signature* of what it explains, so that the gate can tell a
//! failing case that known bugs explain from one that hides a new bug
//! (`gate --findings FILE`).
//!
//! A signature is a list of clauses; a mismatch is explained by a finding
//! when one of its clauses holds of it. A clause names the observation
//! fields it explains (`fields`) and, optionally, conditions that must all
//! hold as well: where the object is in the reference's observation of the
//! step (`zone`), what the step does (`step`), the values (`expected`,
//! `got`), what the case needs (`needs`, protocol features), keywords the
//! case gives (`keywords`), how the object is set up (`object`), its
//! counters (`counters`), the counters it had just before that step
//! (`had_counters`). A clause with `error` instead explains a case
//! that ends in an engine error whose message contains that text.
//!
//! ```yaml
//! findings:
//!   - engine: phase.rs
//!     ruling: ci/adapters/phase/findings/dead-creature-keeps-its-damage.yaml
//!     title: A creature that died of damage still has that damage marked on it
//!     versions: "0.103.0"
//!     status: not filed
//!     signature:
//!       - fields: [damage, deathtouch_damage]
//!         zone: [graveyard, exile, hand, library]
//! ```
//!
//! Some mismatches follow from others without a clause of their own: an
//! object's `total` and `combat_damage` are explained by what explains its
//! `pt` at that step, a player's `lost` by what explains their `life` or
//! `poison`, every field of an object by what explains its
//! `zone` there (an object in another zone differs in everything), and an
//! object's characteristics (`pt`, `base_pt`, `keywords`, `types`,
//! `colors`) by what explains there the `zone` of an object set up with
//! static abilities (a lord the engine kept or lost pumps or not).
//!
//! The register's `limitations:` section lists what an *adapter* cannot
//! map or observe (not bugs of its engine), each with its own `id`, the
//! `adapter` directory it belongs to, its `reason` and a signature of the
//! same clauses (rulings/DECISIONS.md D100). A mismatch no finding explains
//! is credited to a limitation whose clause holds of it; the case is then
//! reported with that limitation, never as a finding.
//!
//! ```yaml
//! limitations:
//!   - id: setup-damage-stays-off-the-battlefield
//!     engine: python-mtg
//!     adapter: ci/adapters/python-mtg
//!     reason: the engine keeps no marked damage; the adapter's own record of it stays
//!     signature:
//!       - fields: [damage]
//!         zone: [graveyard, exile, hand, library]
//!         expected: [0]
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::report::Outcome;
use ptoracle_core::error::LoadError;
use ptoracle_core::resolver::Run;
use ptoracle_core::scenario::{Action, Case, ObjectSpec};
use ptoracle_core::terms::{CounterKind, Keyword, Zone};
use ptoracle_core::verdict::{FIELDS, Mismatch};
use ptoracle_protocol::{Feature, required_features};

/// The largest register read, in bytes.
pub const MAX_BYTES: u64 = 4 << 20;

/// One confirmed engine bug.
#[derive(Clone, Debug, Deserialize)]
pub struct Finding {
    /// The engine: the name its adapter's hello gives, or that name
    /// without a parenthesized qualifier (`phase.rs` for `phase.rs
    /// (phase-python)`).
    pub engine: String,
    /// The versions affected.
    pub versions: String,
    /// The minimal ruling (a path from the repository root).
    pub ruling: String,
    /// What is wrong, in one line.
    pub title: String,
    /// The CR rules it breaks.
    #[serde(default)]
    pub rules: Vec<String>,
    /// The upstream issue, once filed.
    #[serde(default)]
    pub upstream: Option<String>,
    /// `not filed`, `filed` or `fixed in VERSION`.
    pub status: String,
    /// The standalone program in the engine's own language that reproduces
    /// it (a path from the repository root), run by CI against every
    /// pinned version.
    #[serde(default)]
    pub reproduction: Option<String>,
    /// What it breaks in games: `changes the outcome of ordinary games`,
    /// `rare interaction` or `state nothing reads`.
    #[serde(default)]
    pub severity: Option<String>,
    /// What it explains: a mismatch is the finding's when one clause holds.
    #[serde(default)]
    pub signature: Vec<Clause>,
}

impl Finding {
    /// Its id: the ruling file's stem.
    pub fn id(&self) -> String {
        Path::new(&self.ruling)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Its paths (`ruling`, `reproduction`) are relative and stay inside
    /// the repository (no root, no drive, no `..`): they are read and
    /// shown as given; its `upstream`, when given, is an `http://` or
    /// `https://` URL (it becomes a link: a `javascript:` one would run).
    fn check_links(&self) -> Result<(), String> {
        let paths = std::iter::once(("ruling", &self.ruling))
            .chain(self.reproduction.iter().map(|r| ("reproduction", r)));
        for (key, p) in paths {
            if !relative_inside(p) {
                return Err(format!(
                    "`{key}: {}` is not a path inside the repository (relative, without `..`)",
                    crate::printable::printable(p)
                ));
            }
        }
        if let Some(u) = &self.upstream {
            let lower = u.to_ascii_lowercase();
            let web = ["http://", "https://"]
                .iter()
                .any(|s| lower.strip_prefix(s).is_some_and(|rest| !rest.is_empty()));
            if !web || u.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(format!(
                    "`upstream: {}` is not an http:// or https:// URL (or null)",
                    crate::printable::printable(u)
                ));
            }
        }
        Ok(())
    }

    /// Whether it is still to be filed upstream.
    pub fn unfiled(&self) -> bool {
        self.status == "not filed"
    }

    /// Whether it is a finding of the engine whose hello names it `name`.
    pub fn of_engine(&self, name: &str) -> bool {
        names_engine(&self.engine, name)
    }
}

/// Whether a register entry for `engine` is about the engine whose hello
/// names it `name`: the same name, or `name` is it with a parenthesized
/// qualifier (`phase.rs (phase-python)`).
fn names_engine(engine: &str, name: &str) -> bool {
    name == engine
        || name
            .strip_prefix(engine)
            .is_some_and(|rest| rest.starts_with(" ("))
}

/// A known limit of an adapter: what it cannot map to its engine or read
/// back from it, which makes cases differ without an engine bug (D100).
/// Mismatches it explains are reported as the limitation's, never as a
/// finding's.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limitation {
    /// Its id, unique among the engine's findings and limitations.
    pub id: String,
    /// The engine its adapter drives, as for a [`Finding`].
    pub engine: String,
    /// The adapter's directory (a path from the repository root).
    pub adapter: String,
    /// Why the adapter cannot do better, in a sentence or two.
    pub reason: String,
    /// The CR rules whose outcome it changes.
    #[serde(default)]
    pub rules: Vec<String>,
    /// What it explains, as a finding's signature.
    pub signature: Vec<Clause>,
}

impl Limitation {
    /// Whether it is a limitation of the adapter of the engine named `name`.
    pub fn of_engine(&self, name: &str) -> bool {
        names_engine(&self.engine, name)
    }

    /// Why its fields cannot be read, if they cannot.
    fn check(&self) -> Result<(), String> {
        let id_ok = !self.id.is_empty()
            && self
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !id_ok {
            return Err(format!(
                "`id: {}` is not a slug (lowercase letters, digits and `-`)",
                crate::printable::printable(&self.id)
            ));
        }
        if !relative_inside(&self.adapter) {
            return Err(format!(
                "`adapter: {}` is not a path inside the repository (relative, without `..`)",
                crate::printable::printable(&self.adapter)
            ));
        }
        if self.reason.trim().is_empty() {
            return Err("`reason` is empty: say why the adapter cannot do better".into());
        }
        if self.signature.is_empty() {
            return Err("it has no `signature`: give the clauses of what it explains".into());
        }
        Ok(())
    }
}

/// Whether `p` is relative and stays inside the repository (no root, no
/// drive, no `..`).
fn relative_inside(p: &str) -> bool {
    use std::path::Component;
    !p.is_empty()
        && Path::new(p)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// A value as a mismatch writes it (`0`, `true`, `2/2`, `[flying]`):
/// written in the register as a string, a number or a boolean.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// Text.
    Text(String),
    /// A number.
    Number(i64),
    /// A boolean.
    Bool(bool),
}

impl Value {
    fn text(&self) -> String {
        match self {
            Value::Text(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
        }
    }
}

/// One clause of a signature: what it explains, and when. Every condition
/// given must hold; a list holds when any of its items does (`needs`:
/// all of them).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clause {
    /// The fields of a mismatch it explains, as they follow the object's
    /// handle: `damage`, `pt`, `lki.pt`, `life`; `error` for a run that
    /// stopped with an error where the other did not.
    #[serde(default)]
    pub fields: Vec<String>,
    /// Instead of `fields`: a case that ends in an engine error whose
    /// message contains this text.
    #[serde(default)]
    pub error: Option<String>,
    /// The object's zone in the reference's observation of that step.
    #[serde(default)]
    pub zone: Vec<Zone>,
    /// What the step that differs does: its action's key (`damage`,
    /// `combat_damage_step`, `crew`).
    #[serde(default)]
    pub step: Vec<String>,
    /// The reference's value.
    #[serde(default)]
    pub expected: Vec<Value>,
    /// The engine's value.
    #[serde(default)]
    pub got: Vec<Value>,
    /// Protocol features the case needs, all of them (`prevention`).
    #[serde(default)]
    pub needs: Vec<String>,
    /// Keywords the case gives: an object's printed ones or an effect's
    /// `add_keywords`.
    #[serde(default)]
    pub keywords: Vec<Keyword>,
    /// The object is set up with each of these (fields of a ruling's
    /// setup object, such as `cda` or `enters_as`).
    #[serde(default)]
    pub object: Vec<String>,
    /// The object has a counter of one of these kinds in the reference's
    /// observation of that step.
    #[serde(default)]
    pub counters: Vec<CounterKind>,
    /// The object had a counter of one of these kinds just before that
    /// step: in the reference's observation of the step before, or its
    /// setup for the first step (a creature those counters should have
    /// killed or saved has none left once it is in the graveyard).
    #[serde(default)]
    pub had_counters: Vec<CounterKind>,
}

/// The register.
#[derive(Clone, Debug, Default)]
pub struct Register {
    /// Its findings, in the register's order (the first that explains a
    /// mismatch is credited with it).
    pub findings: Vec<Finding>,
    /// The adapters' limitations, credited with what no finding explains.
    pub limitations: Vec<Limitation>,
}

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    findings: Vec<Finding>,
    #[serde(default)]
    limitations: Vec<Limitation>,
}

impl Register {
    /// Reads and checks the register at `path` (a regular file of at most
    /// [`MAX_BYTES`]): every signature is validated.
    pub fn load(path: &Path) -> Result<Register, LoadError> {
        let file = path.display().to_string();
        let unreadable = |message: String| LoadError {
            file: file.clone(),
            line: 0,
            column: 0,
            message: format!("cannot read the findings register: {message}"),
        };
        let bytes =
            crate::corpus::read_file(path, MAX_BYTES, "findings register").map_err(unreadable)?;
        let text =
            String::from_utf8(bytes).map_err(|_| unreadable("it is not UTF-8 text".to_string()))?;
        Register::parse(&file, &text)
    }

    /// Reads a register's text, `file` naming it in errors.
    ///
    /// ```
    /// use ptoracle::gate::findings::Register;
    /// let ok = "findings:\n  - { engine: e, versions: '1', ruling: f/a.yaml, title: t, status: filed,\n      signature: [ { fields: [damage], zone: [graveyard] } ] }\n";
    /// assert_eq!(Register::parse("r.yaml", ok).unwrap().findings.len(), 1);
    /// let bad = ok.replace("[damage]", "[dammage]");
    /// let err = Register::parse("r.yaml", &bad).unwrap_err().to_string();
    /// assert!(err.contains("unknown field `dammage`"), "{err}");
    /// ```
    pub fn parse(file: &str, text: &str) -> Result<Register, LoadError> {
        let max = usize::try_from(MAX_BYTES).unwrap_or(usize::MAX);
        let parsed: Option<File> = crate::yaml::from_str(text, max).map_err(|e| LoadError {
            file: file.to_string(),
            line: e.line,
            column: e.column,
            message: format!("not a findings register: {}", e.message),
        })?;
        let (findings, limitations) =
            parsed.map_or_else(Default::default, |f| (f.findings, f.limitations));
        let mut ids = BTreeSet::new();
        for f in &findings {
            let at = |message: String| {
                let line = text
                    .lines()
                    .position(|l| l.contains(f.ruling.as_str()))
                    .map_or(1, |i| i + 1);
                LoadError {
                    file: file.to_string(),
                    line,
                    column: 1,
                    message,
                }
            };
            let id = f.id();
            if !ids.insert((f.engine.clone(), id.clone())) {
                return Err(at(format!(
                    "finding `{id}` of {} is listed twice",
                    f.engine
                )));
            }
            f.check_links()
                .map_err(|why| at(format!("finding `{id}`: {why}")))?;
            for (n, clause) in f.signature.iter().enumerate() {
                clause.validate().map_err(|why| {
                    at(format!("finding `{id}`: signature clause {}: {why}", n + 1))
                })?;
            }
        }
        for l in &limitations {
            let at = |message: String| {
                let needle = format!("id: {}", l.id);
                let line = text
                    .lines()
                    .position(|t| t.contains(needle.as_str()))
                    .map_or(1, |i| i + 1);
                LoadError {
                    file: file.to_string(),
                    line,
                    column: 1,
                    message: format!("limitation `{}`: {message}", l.id),
                }
            };
            l.check().map_err(at)?;
            // One name space per engine: an attribution names either.
            if !ids.insert((l.engine.clone(), l.id.clone())) {
                return Err(at(format!(
                    "the id is used twice among the findings and limitations of {}",
                    l.engine
                )));
            }
            for (n, clause) in l.signature.iter().enumerate() {
                clause
                    .validate()
                    .map_err(|why| at(format!("signature clause {}: {why}", n + 1)))?;
            }
        }
        Ok(Register {
            findings,
            limitations,
        })
    }

    /// The findings of the engine named `name` (see [`Finding::of_engine`]).
    pub fn of_engine<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Finding> + 'a {
        self.findings.iter().filter(move |f| f.of_engine(name))
    }

    /// Which finding of the engine `engine` explains each mismatch of a
    /// failure, or the error of an errored case, and failing a finding, which
    /// limitation of its adapter: `None` for other verdicts (a pass, a skip,
    /// a flaky case: its mismatches are between two answers of the engine,
    /// not with the rules). The gate and `compare` both attribute through
    /// [`Register::attribute_record`].
    pub fn attribute(
        &self,
        engine: &str,
        case: &Case,
        reference: Option<&Run>,
        outcome: &Outcome,
    ) -> Option<Attribution> {
        // Findings first: a mismatch an engine bug explains is the bug's,
        // whatever limit the adapter also has (D100).
        let explainers: Vec<(String, &[Clause])> = self
            .of_engine(engine)
            .map(|f| (f.id(), f.signature.as_slice()))
            .chain(
                self.limitations
                    .iter()
                    .filter(|l| l.of_engine(engine))
                    .map(|l| (l.id.clone(), l.signature.as_slice())),
            )
            .collect();
        let limitation_ids: BTreeSet<&str> = self
            .limitations
            .iter()
            .filter(|l| l.of_engine(engine))
            .map(|l| l.id.as_str())
            .collect();
        let context = Context::of(case, reference);
        let by = match outcome {
            Outcome::Fail { mismatches } => {
                let direct = mismatches.iter().map(|m| {
                    explainers
                        .iter()
                        .find(|(_, sig)| sig.iter().any(|c| c.explains(m, &context)))
                        .map(|(id, _)| id.clone())
                });
                let mut by = direct.collect::<Vec<_>>();
                let sources = case
                    .setup
                    .objects
                    .iter()
                    .filter(|o| !o.abilities.is_empty())
                    .map(|o| o.id.as_str())
                    .collect();
                follow(mismatches, &mut by, &sources);
                by
            }
            Outcome::Error {
                kind,
                message,
                not_sent: false,
            } if kind != crate::engine::FaultKind::Interrupted.name() => {
                let id = explainers
                    .iter()
                    .find(|(_, sig)| sig.iter().any(|c| c.explains_error(message, &context)))
                    .map(|(id, _)| id.clone());
                let mut a = Attribution::of(vec![id], &limitation_ids);
                // An error has no mismatches to list.
                a.mismatches.clear();
                return Some(a);
            }
            _ => return None,
        };
        Some(Attribution::of(by, &limitation_ids))
    }

    /// Sets `record`'s attribution: what [`Register::attribute`] says of its
    /// outcome, for the engine named `engine`. The one place where the gate
    /// and `compare` attribute a record.
    pub fn attribute_record(
        &self,
        engine: &str,
        case: &Case,
        reference: Option<&Run>,
        record: &mut super::Record,
    ) {
        record.attribution = self.attribute(engine, case, reference, &record.outcome);
    }
}

/// Credits the mismatches no clause explains with what explains the ones
/// they follow from, at the same step: `total` and `combat_damage` an
/// object's `pt`, a player's `lost` their `life` or `poison`, any field
/// of an object its `zone`, and the
/// characteristics of an object what explains the `zone` of an object of
/// `sources` (one with static abilities: where the engine keeps or loses
/// that object, its abilities apply or not, 611.3a, 613.1).
fn follow(mismatches: &[Mismatch], by: &mut [Option<String>], sources: &BTreeSet<&str>) {
    let mut of: BTreeMap<(usize, &str, &str), String> = BTreeMap::new();
    for (m, f) in mismatches.iter().zip(by.iter()) {
        if let (Some((h, name)), Some(f)) = (m.field.split_once('.'), f) {
            of.insert((m.step, h, name), f.clone());
        }
    }
    for (m, f) in mismatches.iter().zip(by.iter_mut()) {
        if f.is_some() {
            continue;
        }
        let (h, name) = m.field.split_once('.').unwrap_or((m.field.as_str(), ""));
        let from_pt = match name {
            "total" | "combat_damage" => of.get(&(m.step, h, "pt")),
            "lki.total" | "lki.combat_damage" => of.get(&(m.step, h, "lki.pt")),
            // 704.5a, 704.5c: a player loses for their life or poison.
            "lost" => of
                .get(&(m.step, h, "life"))
                .or_else(|| of.get(&(m.step, h, "poison"))),
            _ => None,
        };
        let from_source = || {
            if !CHARACTERISTICS.contains(&name) {
                return None;
            }
            mismatches
                .iter()
                .filter_map(|o| Some((o.step, o.field.strip_suffix(".zone")?)))
                .filter(|&(step, s)| step == m.step && s != h && sources.contains(s))
                .find_map(|(step, s)| of.get(&(step, s, "zone")))
        };
        *f = from_pt
            .or_else(|| of.get(&(m.step, h, "zone")))
            .or_else(from_source)
            .cloned();
    }
}

/// The fields of an object that other objects' static abilities change
/// (613.1), with what follows from its power and toughness.
const CHARACTERISTICS: [&str; 7] = [
    "pt",
    "base_pt",
    "keywords",
    "types",
    "colors",
    "total",
    "combat_damage",
];

/// What the register says of a failing or errored case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attribution {
    /// Whether registered findings explain all of it: every mismatch, or
    /// the error. A case with a mismatch none explains is new, even when
    /// a known bug fails it too.
    pub known: bool,
    /// The findings that explain some of it, by id, in the order of the
    /// mismatches they explain.
    pub findings: Vec<String>,
    /// The adapter limitations that explain some of it (D100), by id, in
    /// the order of the mismatches they explain: never findings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limitations: Vec<String>,
    /// For each mismatch of the failure, in order, the finding or
    /// limitation that explains it, or `null`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mismatches: Vec<Option<String>>,
}

impl Attribution {
    /// From what explains each mismatch (or the error), the ids in
    /// `limitations` being limitations and the others findings.
    fn of(by: Vec<Option<String>>, limitations: &BTreeSet<&str>) -> Attribution {
        let (mut findings, mut limits): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
        for f in by.iter().flatten() {
            let list = if limitations.contains(f.as_str()) {
                &mut limits
            } else {
                &mut findings
            };
            if !list.contains(f) {
                list.push(f.clone());
            }
        }
        Attribution {
            known: !by.is_empty() && by.iter().all(Option::is_some),
            findings,
            limitations: limits,
            mismatches: by,
        }
    }

    /// What explains it, findings then limitations, as the text report and
    /// the summary's table name it (`F1, F2, limitation L1`).
    pub fn explainers(&self, sep: &str) -> String {
        self.findings
            .iter()
            .cloned()
            .chain(self.limitations.iter().map(|l| format!("limitation {l}")))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// The mismatches of `mismatches` (the record's) that no finding
    /// explains.
    pub fn unexplained<'a>(&self, mismatches: &'a [Mismatch]) -> Vec<&'a Mismatch> {
        mismatches
            .iter()
            .zip(self.mismatches.iter())
            .filter(|(_, f)| f.is_none())
            .map(|(m, _)| m)
            .collect()
    }
}

/// What a case offers the conditions, computed once per case.
struct Context<'a> {
    case: &'a Case,
    reference: Option<&'a Run>,
    needs: BTreeSet<Feature>,
    keywords: BTreeSet<String>,
}

impl<'a> Context<'a> {
    fn of(case: &'a Case, reference: Option<&'a Run>) -> Context<'a> {
        let mut keywords = BTreeSet::new();
        for o in &case.setup.objects {
            keywords.extend(o.keywords.iter().map(|k| k.to_string()));
        }
        for a in case.actions() {
            if let Action::Effect(e) = a {
                keywords.extend(e.add_keywords.iter().map(|k| k.to_string()));
            }
        }
        for o in &case.setup.objects {
            for e in &o.abilities {
                keywords.extend(e.add_keywords.iter().map(|k| k.to_string()));
            }
        }
        Context {
            case,
            reference,
            needs: required_features(case),
            keywords,
        }
    }

    /// Whether the object `handle` had a counter of kind `k` just before
    /// step `step` (from 0): in the reference's observation of the step
    /// before, or as set up for the first step; or whether that step puts
    /// such counters on it (a creature its own step's counters should
    /// have killed has none left once it is in the graveyard, 704.5f).
    fn had(&self, handle: &str, step: usize, k: &CounterKind) -> bool {
        self.had_before(handle, step, k) || self.step_puts(handle, step, k)
    }

    /// Whether step `step` puts counters of kind `k` on `handle`
    /// (`put_counters`, or `move_counters` to it).
    fn step_puts(&self, handle: &str, step: usize, k: &CounterKind) -> bool {
        match self.case.steps.get(step).map(|s| &s.action) {
            Some(Action::PutCounters(p)) => {
                p.on.as_str() == handle && &p.kind == k && p.count.0 > 0
            }
            Some(Action::MoveCounters(m)) => {
                m.to.as_str() == handle && &m.kind == k && m.count.0 > 0
            }
            _ => false,
        }
    }

    /// [`Context::had`] without the step's own counters.
    fn had_before(&self, handle: &str, step: usize, k: &CounterKind) -> bool {
        match step.checked_sub(1) {
            None => self
                .case
                .setup
                .objects
                .iter()
                .find(|o| o.id.as_str() == handle)
                .and_then(|o| o.counters.get(k))
                .is_some_and(|n| n.0 != 0),
            Some(before) => self
                .reference
                .and_then(|r| r.steps.get(before))
                .and_then(|s| {
                    s.observation
                        .objects
                        .iter()
                        .find(|(h, _)| h.as_str() == handle)
                })
                .and_then(|(_, o)| o.counters.get(k))
                .is_some_and(|n| *n != 0),
        }
    }

    /// The case-wide conditions of `c`.
    fn case_holds(&self, c: &Clause) -> bool {
        c.needs
            .iter()
            .all(|n| n.parse::<Feature>().is_ok_and(|f| self.needs.contains(&f)))
            && (c.keywords.is_empty()
                || c.keywords
                    .iter()
                    .any(|k| self.keywords.contains(&k.to_string())))
    }
}

impl Clause {
    /// Whether it explains `m`.
    fn explains(&self, m: &Mismatch, cx: &Context<'_>) -> bool {
        let (handle, name) = match m.field.split_once('.') {
            Some((h, rest)) => (Some(h), rest),
            None if m.field == "error" || m.field == "step" => (None, m.field.as_str()),
            None => (Some(m.field.as_str()), ""),
        };
        if !self.fields.iter().any(|f| f == name) || !cx.case_holds(self) {
            return false;
        }
        let any = |list: &[Value], v: &str| list.is_empty() || list.iter().any(|x| x.text() == v);
        if !any(&self.expected, &m.expected) || !any(&self.got, &m.got) {
            return false;
        }
        if !self.step.is_empty() {
            let key = cx.case.steps.get(m.step).map(|s| s.action.key());
            if !key.is_some_and(|k| self.step.iter().any(|s| s == k)) {
                return false;
            }
        }
        let observed = handle.and_then(|h| {
            cx.reference?
                .steps
                .get(m.step)?
                .observation
                .objects
                .iter()
                .find(|(k, _)| k.as_str() == h)
                .map(|(_, o)| o)
        });
        if !self.zone.is_empty() && !observed.is_some_and(|o| self.zone.contains(&o.zone)) {
            return false;
        }
        if !self.counters.is_empty()
            && !observed.is_some_and(|o| {
                self.counters
                    .iter()
                    .any(|k| o.counters.get(k).is_some_and(|n| *n != 0))
            })
        {
            return false;
        }
        if !self.had_counters.is_empty()
            && !handle.is_some_and(|h| self.had_counters.iter().any(|k| cx.had(h, m.step, k)))
        {
            return false;
        }
        if !self.object.is_empty() {
            let setup = handle.and_then(|h| {
                cx.case
                    .setup
                    .objects
                    .iter()
                    .find(|o| o.id.as_str() == h)
                    .and_then(|o| serde_json::to_value(o).ok())
            });
            let set = |name: &String| {
                setup.as_ref().and_then(|v| v.get(name)).is_some_and(|v| {
                    !(v.is_null() || v == &serde_json::Value::Bool(false))
                        && v.as_array().is_none_or(|a| !a.is_empty())
                        && v.as_object().is_none_or(|o| !o.is_empty())
                })
            };
            if !self.object.iter().all(set) {
                return false;
            }
        }
        true
    }

    /// Whether it explains an engine error with `message`.
    fn explains_error(&self, message: &str, cx: &Context<'_>) -> bool {
        self.error
            .as_deref()
            .is_some_and(|text| message.contains(text))
            && cx.case_holds(self)
    }

    /// Why it cannot be read, if it cannot: a name the register may not use,
    /// or conditions that cannot go together.
    fn validate(&self) -> Result<(), String> {
        match (&self.error, self.fields.is_empty()) {
            (Some(_), false) => return Err("give `fields` or `error`, not both".into()),
            (None, true) => {
                return Err(
                    "it explains nothing: give the `fields` it explains (or `error`)".into(),
                );
            }
            (Some(text), true) => {
                if text.trim().is_empty() {
                    return Err("`error` is empty: give text the error's message contains".into());
                }
                let per_mismatch = [
                    ("zone", self.zone.is_empty()),
                    ("step", self.step.is_empty()),
                    ("expected", self.expected.is_empty()),
                    ("got", self.got.is_empty()),
                    ("object", self.object.is_empty()),
                    ("counters", self.counters.is_empty()),
                    ("had_counters", self.had_counters.is_empty()),
                ];
                if let Some((name, _)) = per_mismatch.iter().find(|(_, empty)| !empty) {
                    return Err(format!(
                        "`{name}` is a condition on a mismatch, and an error has none (only `needs` and `keywords` go with `error`)"
                    ));
                }
            }
            (None, false) => {}
        }
        for f in &self.fields {
            let plain = f.strip_prefix("lki.").unwrap_or(f);
            let known = f == "error"
                || f == "step"
                || (!plain.is_empty() && plain != "lki" && FIELDS.contains(&plain));
            if !known {
                return Err(format!(
                    "unknown field `{f}`: expected one of {}, `lki.FIELD`, `error` or `step`",
                    FIELDS[1..].join(", ")
                ));
            }
        }
        for s in &self.step {
            if !Action::KEYS.contains(&s.as_str()) {
                return Err(format!(
                    "unknown step `{s}`: expected one of {}",
                    Action::KEYS.join(", ")
                ));
            }
        }
        for n in &self.needs {
            n.parse::<Feature>().map_err(|e| format!("`needs`: {e}"))?;
        }
        let names = object_fields();
        for o in &self.object {
            if o == "id" || !names.contains(o) {
                return Err(format!(
                    "`object`: a setup object has no field `{o}` (fields: {})",
                    names
                        .iter()
                        .filter(|n| *n != "id")
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        Ok(())
    }
}

/// The field names of a ruling's setup object, from its schema.
fn object_fields() -> &'static BTreeSet<String> {
    static NAMES: OnceLock<BTreeSet<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let schema = schemars::SchemaGenerator::default().into_root_schema_for::<ObjectSpec>();
        schema
            .get("properties")
            .and_then(|p| p.as_object())
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const REGISTER: &str = "\
limitations:
  - id: test-adapter-keeps-damage
    engine: test-engine
    adapter: ci/adapters/test
    reason: Test adapter that reads back the damage it wrote
    signature:
      - fields: [damage, pt]
findings:
  - engine: test-engine
    versions: '1'
    ruling: f/test-pt-bug.yaml
    title: Test P/T bug
    status: not filed
    signature:
      - fields: [pt]
";

    fn case() -> Case {
        crate::corpus::from_yaml(
            "id: test/limits\ntitle: t\nrules: [\"120.3e\"]\nsetup:\n  objects:\n    - { id: a, types: [Creature], pt: 2/2 }\n    - { id: b, types: [Creature], pt: 2/2 }\nsteps:\n  - do: state_based_actions\n",
        )
        .unwrap()
    }

    fn mismatch(field: &str) -> Mismatch {
        Mismatch {
            step: 0,
            field: field.to_string(),
            expected: "0".to_string(),
            got: "1".to_string(),
        }
    }

    fn attribution(fields: &[&str]) -> Attribution {
        let register = Register::parse("r.yaml", REGISTER).unwrap();
        let outcome = Outcome::Fail {
            mismatches: fields.iter().map(|f| mismatch(f)).collect(),
        };
        register
            .attribute("test-engine", &case(), None, &outcome)
            .unwrap()
    }

    /// D100: a limitation explains its own mismatches only, as a
    /// limitation; a finding that explains a mismatch too is credited
    /// first; another mismatch beside them leaves the case new.
    #[test]
    fn a_limitation_explains_its_own_mismatches_and_hides_no_other() {
        let alone = attribution(&["a.damage"]);
        assert!(alone.known);
        assert!(alone.findings.is_empty());
        assert_eq!(alone.limitations, ["test-adapter-keeps-damage"]);
        let both = attribution(&["a.pt", "a.damage"]);
        assert!(both.known);
        assert_eq!(both.findings, ["test-pt-bug"]);
        assert_eq!(both.limitations, ["test-adapter-keeps-damage"]);
        let mixed = attribution(&["a.damage", "b.tapped"]);
        assert!(!mixed.known, "{mixed:?}");
        assert_eq!(
            mixed.mismatches,
            [Some("test-adapter-keeps-damage".to_string()), None]
        );
        // Another engine's limitation explains nothing.
        let register = Register::parse("r.yaml", REGISTER).unwrap();
        let outcome = Outcome::Fail {
            mismatches: vec![mismatch("a.damage")],
        };
        let other = register
            .attribute("another", &case(), None, &outcome)
            .unwrap();
        assert!(!other.known && other.limitations.is_empty());
    }

    /// `had_counters`: the counters the object had before the step (here,
    /// as set up), though the reference's observation has none left.
    #[test]
    fn had_counters_reads_the_counters_before_the_step() {
        let text = "findings:\n  - { engine: e, versions: '1', ruling: f/a.yaml, title: t, status: filed,\n      signature: [ { fields: [zone], had_counters: [-2/-2] } ] }\n";
        let register = Register::parse("r.yaml", text).unwrap();
        let case = crate::corpus::from_yaml(
            "id: test/had\ntitle: t\nrules: [\"704.5f\"]\nsetup:\n  objects:\n    - { id: a, types: [Creature], pt: 2/1, counters: { -2/-2: 1 } }\n    - { id: b, types: [Creature], pt: 2/1 }\nsteps:\n  - do: state_based_actions\n",
        )
        .unwrap();
        let of = |field: &str| {
            let outcome = Outcome::Fail {
                mismatches: vec![mismatch(field)],
            };
            register
                .attribute("e", &case, None, &outcome)
                .unwrap()
                .known
        };
        assert!(of("a.zone"));
        assert!(!of("b.zone"));
    }

    /// `had_counters` covers the counters the step itself puts: the
    /// creature they should have killed has none left (704.5f).
    #[test]
    fn had_counters_covers_the_counters_the_step_puts() {
        let text = "findings:\n  - { engine: e, versions: '1', ruling: f/a.yaml, title: t, status: filed,\n      signature: [ { fields: [zone], had_counters: [-2/-2] } ] }\n";
        let register = Register::parse("r.yaml", text).unwrap();
        let case = crate::corpus::from_yaml(
            "id: test/puts\ntitle: t\nrules: [\"704.5f\"]\nsetup:\n  objects:\n    - { id: a, types: [Creature], pt: 2/1 }\n    - { id: b, types: [Creature], pt: 2/1 }\nsteps:\n  - do: { put_counters: { on: a, kind: -2/-2 } }\n  - do: { put_counters: { on: b, kind: -1/-1 } }\n",
        )
        .unwrap();
        let of = |step: usize, field: &str| {
            let mut m = mismatch(field);
            m.step = step;
            let outcome = Outcome::Fail {
                mismatches: vec![m],
            };
            register
                .attribute("e", &case, None, &outcome)
                .unwrap()
                .known
        };
        assert!(of(0, "a.zone"));
        assert!(!of(1, "b.zone"), "another kind of counter");
        assert!(!of(0, "b.zone"), "put on another object");
    }

    /// An object's characteristics follow what explains the zone of an
    /// object with static abilities (a lord the engine kept pumps others),
    /// never the other way round, and not another field such as `damage`.
    #[test]
    fn characteristics_follow_the_zone_of_a_static_source() {
        let text = "findings:\n  - { engine: e, versions: '1', ruling: f/a.yaml, title: t, status: filed,\n      signature: [ { fields: [zone] } ] }\n";
        let register = Register::parse("r.yaml", text).unwrap();
        let case = crate::corpus::from_yaml(
            "id: test/lord\ntitle: t\nrules: [\"613.1\"]\nsetup:\n  objects:\n    - { id: lord, types: [Creature], pt: 1/1, abilities: [ { affects: { types: [Creature], other: true }, modify: +1/+1 } ] }\n    - { id: b, types: [Creature], pt: 2/2 }\n    - { id: c, types: [Creature], pt: 2/2 }\nsteps:\n  - do: state_based_actions\n",
        )
        .unwrap();
        let of = |fields: &[&str]| {
            let outcome = Outcome::Fail {
                mismatches: fields.iter().map(|f| mismatch(f)).collect(),
            };
            register.attribute("e", &case, None, &outcome).unwrap()
        };
        let a = of(&["lord.zone", "b.pt", "b.total", "b.keywords"]);
        assert!(a.known, "{a:?}");
        assert!(!of(&["lord.zone", "b.damage"]).known);
        // b has no static abilities: c's P/T does not follow b's zone.
        assert!(!of(&["b.zone", "c.pt"]).known);
    }

    /// A player's `lost` follows what explains their life (704.5a), and
    /// nothing else.
    #[test]
    fn lost_follows_the_life_that_explains_it() {
        let text = "findings:\n  - { engine: e, versions: '1', ruling: f/a.yaml, title: t, status: filed,\n      signature: [ { fields: [life] } ] }\n";
        let register = Register::parse("r.yaml", text).unwrap();
        let of = |fields: &[&str]| {
            let outcome = Outcome::Fail {
                mismatches: fields.iter().map(|f| mismatch(f)).collect(),
            };
            register
                .attribute("e", &case(), None, &outcome)
                .unwrap()
                .known
        };
        assert!(of(&["you.life", "you.lost"]));
        assert!(!of(&["you.lost"]));
        assert!(!of(&["opponent.life", "you.lost"]));
    }
}
