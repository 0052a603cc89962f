//! A generated failure shrunk against the engine to a small ruling, its
//! file named and written, and the engine's reproduction of it.

use super::*;

impl Worker<'_> {
    /// Shrinks a generated failure against the engine and writes it.
    pub(super) fn shrink_failure(
        &self,
        case: &Case,
        seed: u64,
        index: u64,
        scope: &Scope,
        engine: &mut dyn Engine,
        record: &mut Record,
    ) {
        let plan = self.plan;
        let Some(caps) = &self.caps else {
            return;
        };
        if self.shrunk_kept.load(Ordering::Relaxed) >= plan.keep_shrunk {
            return;
        }
        // One engine bug can fail hundreds of generated cases; shrinking
        // each costs up to `shrink_budget` engine requests and mostly ends
        // in a shape already written (found against phase.rs: 500 cases
        // took 10 minutes). A few of each kind are enough.
        if let Some(kind) = failure_kind(case, record) {
            let mut kinds = self.kinds.lock().unwrap_or_else(|p| p.into_inner());
            let n = kinds.entry(kind.clone()).or_default();
            if *n >= SHRINK_PER_KIND {
                record.notes.push(format!(
                    "not shrunk: {SHRINK_PER_KIND} failures that first differ in {kind} were shrunk already"
                ));
                return;
            }
            *n += 1;
        }
        let original = (case.steps.len(), case.setup.objects.len());
        let start = Start::Stream { seed, index, scope };
        let (ruling, reference, got) = match shrink_to_ruling(
            case,
            start,
            plan.edition,
            engine,
            caps,
            plan.shrink_budget,
            self.stop,
        ) {
            Ok(shrunk) => shrunk,
            Err(note) => {
                record.notes.extend(note.map(String::from));
                return;
            }
        };
        let kind = shape(&ruling);
        let fresh = self.shapes.lock().is_ok_and(|mut s| s.insert(kind.clone()));
        if !fresh {
            record.shrunk = Some(report::Shrunk {
                from: original,
                to: (ruling.steps.len(), ruling.setup.objects.len()),
                ruling: None,
                duplicate_of_shape: true,
            });
            return;
        }
        // Reserved only now, so that racing workers never write more.
        if self.shrunk_kept.fetch_add(1, Ordering::Relaxed) >= plan.keep_shrunk {
            return;
        }
        let name = ruling_file_name(&caps.info.name, &kind);
        if self.reproduces() {
            let stem = name.trim_end_matches(".yaml").to_string();
            self.reproduction(&ruling, (&reference, &got), &stem, engine, record);
        }
        let file = plan.out.as_ref().and_then(|dir| {
            crate::output::write_in(dir, &name, &crate::corpus::to_yaml(&ruling))
                .map(|p| p.display().to_string())
                .map_err(|e| {
                    // A full disk: said once, and no more failures are
                    // shrunk for rulings that cannot be written.
                    self.shrunk_kept.store(plan.keep_shrunk, Ordering::Relaxed);
                    if !self.unwritable.swap(true, Ordering::Relaxed) {
                        record.notes.push(format!(
                            "could not write {}: {e} (no more generated failures are shrunk)",
                            dir.join(&name).display()
                        ));
                    }
                })
                .ok()
        });
        record.shrunk = Some(report::Shrunk {
            from: original,
            to: (ruling.steps.len(), ruling.setup.objects.len()),
            ruling: file,
            duplicate_of_shape: false,
        });
        record.ruling_text = Some(crate::corpus::to_yaml(&ruling));
    }

    /// Whether the engine writes reproductions (it declared `reproduce`,
    /// offered by `gate --reproduce`) and there is a directory to write
    /// them in.
    pub(super) fn reproduces(&self) -> bool {
        self.plan.out.is_some() && self.caps.as_ref().is_some_and(|c| c.reproduce.is_some())
    }

    /// Asks the engine for a reproduction of `case` (which it failed: its
    /// run and the reference's) and writes it as `STEM.EXT` in the plan's
    /// directory, the record saying where, or in a note why not.
    pub(super) fn reproduction(
        &self,
        case: &Case,
        (reference, got): (&Run, &Run),
        stem: &str,
        engine: &mut dyn Engine,
        record: &mut Record,
    ) {
        let (Some(dir), Some(r)) = (
            &self.plan.out,
            self.caps.as_ref().and_then(|c| c.reproduce.as_ref()),
        ) else {
            return;
        };
        let ask = Reproduce {
            case,
            edition: self.plan.edition,
            reference,
            got,
        };
        let name = format!("{stem}.{}", r.extension);
        match engine.reproduce(&ask) {
            Ok(program) => match crate::output::write_in(dir, &name, &program) {
                Ok(path) => record.reproduction = Some(path.display().to_string()),
                Err(e) => record.notes.push(format!(
                    "could not write the reproduction {}: {e}",
                    dir.join(&name).display()
                )),
            },
            Err(why) => record.notes.push(format!("no reproduction: {why}")),
        }
    }
}

/// Where a failure to shrink comes from.
#[derive(Clone, Copy)]
pub(crate) enum Start<'a> {
    /// Case `index` of the generated stream of `seed`, drawn within `scope`:
    /// shrunk through its choice bytes, then structurally.
    Stream {
        /// The stream's seed.
        seed: u64,
        /// The case's index in it.
        index: u64,
        /// What it was drawn within.
        scope: &'a Scope,
    },
    /// A case from elsewhere (a fuzzer's input): shrunk structurally, and
    /// the ruling says `found_by` found it.
    Found {
        /// What found it, for the ruling's description.
        found_by: &'a str,
    },
}

/// Shrinks `case`, which `engine` fails, against the engine, to a ruling
/// that holds on the reference's run and not on the engine's: the
/// expectations of the step where they first differ, with the reference's
/// run and the engine's of the shrunk case. `Err` when there is none, with
/// a note saying why when that is worth telling.
pub(crate) fn shrink_to_ruling(
    case: &Case,
    start: Start<'_>,
    edition: Edition,
    engine: &mut dyn Engine,
    caps: &Capabilities,
    budget: usize,
    stop: &AtomicBool,
) -> Result<(Case, Run, Run), Option<&'static str>> {
    let mut last: Option<(Case, Run, Run)> = None;
    let mut fails = |c: &Case| -> Option<Case> {
        let (c, run) = playable(c.clone(), edition)?;
        let checked = check_engine(&c, edition, &mut *engine, caps, Some(run));
        match (checked.verdict, checked.reference, checked.got) {
            (Verdict::Fail(_), Some(r), Some(g)) => {
                last = Some((c.clone(), r, g));
                Some(c)
            }
            _ => None,
        }
    };
    let best = match start {
        Start::Stream { seed, index, scope } => {
            shrink(seed, index, scope, budget, stop, &mut fails)
        }
        Start::Found { .. } => shrink_case(case, budget, stop, &mut fails),
    };
    // The last failing run seen may belong to a later, rejected
    // candidate: play the chosen one once more.
    fails(&best.ok_or(None)?).ok_or(None)?;
    let (case, reference, got) = last.ok_or(None)?;
    let ruling = to_ruling(&case, &reference, &got, edition, start, caps).ok_or(None)?;
    // Kept only if the verdict reports it: it holds on the reference's
    // run and not on the engine's.
    let holds = |run: &Run| compare(&ruling, edition, run) == Verdict::Pass;
    if !holds(&reference) || holds(&got) {
        return Err(Some(
            "not shrunk: the smallest failing case gives no ruling that the engine fails",
        ));
    }
    Ok((ruling, reference, got))
}

/// How many generated failures of one kind are shrunk (see [`failure_kind`]).
pub(super) const SHRINK_PER_KIND: usize = 5;

/// The kind of a failure, for deciding whether to shrink it: the action of
/// the step that differs and the field that differs first, without the
/// object (`damage -> damage`, `put_counters -> pt`, `effect -> error`).
pub(super) fn failure_kind(case: &Case, record: &Record) -> Option<String> {
    let Outcome::Fail { mismatches } = &record.outcome else {
        return None;
    };
    let m = mismatches.first()?;
    let field = m.field.split_once('.').map_or(m.field.as_str(), |(_, f)| f);
    let action = case.steps.get(m.step).map_or("?", |s| s.action.key());
    Some(format!("`{field}` after a `{action}` step"))
}

/// The file a shrunk ruling of shape `kind` (see [`shape`]) found in the
/// engine `engine` is written to: one per engine and shape.
pub(crate) fn ruling_file_name(engine: &str, kind: &str) -> String {
    format!("{}-{:08x}.yaml", slug(engine), fnv(kind))
}

/// A name for files and ids: lowercase letters and digits, single dashes.
pub(super) fn slug(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-');
    if s.is_empty() {
        "engine".into()
    } else {
        s.into()
    }
}

/// A shrunk disagreement as a ruling: the steps up to the first one that
/// differs, expecting there what the reference resolver observes.
pub(super) fn to_ruling(
    case: &Case,
    reference: &Run,
    got: &Run,
    edition: Edition,
    start: Start<'_>,
    caps: &Capabilities,
) -> Option<Case> {
    let (step, expect, expect_error) = expectations_where(reference, got)?;
    let mut c = case.clone();
    c.steps.truncate(step + 1);
    for s in &mut c.steps {
        s.clear_expectations();
    }
    if c.steps.is_empty() {
        return None;
    }
    crate::ruling::expect_last(&mut c, expect, expect_error);
    let first = ptoracle_core::verdict::first_difference(reference, got);
    let what = first
        .first()
        .map_or("a difference".to_string(), |m| m.to_string());
    let engine = format!("{} {}", caps.info.name, caps.info.version);
    let hash = fnv(&crate::corpus::to_yaml(&c));
    c.id = CaseId(format!("gate/{}/{hash:08x}", slug(&caps.info.name)));
    c.title = format!("{} disagrees with the reference: {what}", caps.info.name);
    c.description = Some(match start {
        Start::Stream { seed, index, .. } => format!(
            "Found by `ptoracle gate --generated N --seed {seed}` against {engine} (case index {index}, edition {edition}) and shrunk against it. The expectations are the reference resolver's."
        ),
        Start::Found { found_by } => format!(
            "Found by {found_by} against {engine} (edition {edition}) and shrunk against it. The expectations are the reference resolver's."
        ),
    });
    c.rules = rules_at(&c, edition, Some(step))
        .iter()
        .filter_map(|r| r.parse::<RuleRef>().ok())
        .collect();
    if c.rules.is_empty() {
        c.rules = vec!["613.1".parse().ok()?];
    }
    // A case from outside the stream has no seed and index to draw it again by.
    c.origin = match start {
        Start::Stream { seed, index, .. } => Some(Origin {
            invariant: "agrees-with-reference".into(),
            seed,
            index,
            edition: edition.id().to_string(),
            mutant: None,
            engine: Some(engine),
        }),
        Start::Found { .. } => None,
    };
    crate::ruling::loadable(&mut c);
    Some(c)
}
