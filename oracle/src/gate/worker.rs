//! A worker: one engine, the cases it draws from the plan, each played,
//! asked again when it must be, and settled.

use super::*;

pub(super) struct Worker<'a> {
    pub(super) plan: &'a Plan,
    /// What the engine declared, once a handshake succeeded.
    pub(super) caps: Option<Capabilities>,
    pub(super) stop: &'a AtomicBool,
    pub(super) shrunk_kept: &'a AtomicUsize,
    /// Set by the first ruling that could not be written (a full disk),
    /// which alone says so: workers racing past the limit stay quiet.
    pub(super) unwritable: &'a AtomicBool,
    pub(super) shapes: &'a Mutex<BTreeSet<String>>,
    /// Failures shrunk so far, by kind (see
    /// [`failure_kind`](super::shrink::failure_kind)).
    pub(super) kinds: &'a Mutex<BTreeMap<String, usize>>,
}

/// A case of the plan drawn and ready to play.
pub(super) struct Prepared {
    pub(super) case: Case,
    /// Where it comes from, for the report.
    pub(super) source: String,
    /// The seed and index of a generated case.
    pub(super) generated: Option<(u64, u64)>,
    /// The reference's run, when drawing the case needed it.
    pub(super) reference: Option<Run>,
}

impl Worker<'_> {
    /// What the engine may be asked: everything until it shook hands.
    pub(super) fn scope(&self) -> Scope {
        self.caps
            .as_ref()
            .map_or(Scope::ALL, |c| Scope::within(&c.features))
    }

    /// Draws item `i` of the plan: a corpus case, then generated ones.
    /// `None` for a generated index that gives no playable case.
    pub(super) fn prepare(&self, i: usize) -> Option<Prepared> {
        let plan = self.plan;
        let scope = self.scope();
        let mut reference = None;
        let (case, source, generated) = match plan.corpus.get(i) {
            Some(l) => (l.case.clone(), format!("{}#{}", l.file, l.case.id), None),
            None => {
                let (_, seed) = plan.generated?;
                let index = (i - plan.corpus.len()) as u64;
                let case = case_within(seed, index, &scope)?;
                let (mut case, run) = playable(case, plan.edition)?;
                case.id = CaseId(format!("generated/{seed}/{index}"));
                reference = Some(run);
                (
                    case,
                    format!("generated: --seed {seed}, case {index}"),
                    Some((seed, index)),
                )
            }
        };
        Some(Prepared {
            case,
            source,
            generated,
            reference,
        })
    }

    /// Plays item `i` of the plan, drawn.
    pub(super) fn play(&self, i: usize, p: Prepared, engine: &mut dyn Engine) -> Record {
        let plan = self.plan;
        let scope = self.scope();
        let Prepared {
            case,
            source,
            generated,
            reference,
        } = p;
        let t = Instant::now();
        let checked = match &self.caps {
            // No handshake has succeeded: ask again, so that the fault (or
            // the engine given up on) is this case's verdict.
            None => {
                let fault = match engine.capabilities() {
                    Err(f) => f,
                    Ok(_) => EngineFault::new(
                        FaultKind::Handshake,
                        "the handshake succeeded only on a later attempt; this case was not sent",
                    ),
                };
                EngineCheck {
                    verdict: Verdict::Error(Problem::Engine(fault)),
                    reference: None,
                    got: None,
                }
            }
            Some(caps) => catch_unwind(AssertUnwindSafe(|| {
                check_engine(&case, plan.edition, engine, caps, reference)
            }))
            .unwrap_or_else(|_| EngineCheck {
                verdict: Verdict::Error(Problem::Engine(EngineFault::new(
                    FaultKind::Protocol,
                    "ptoracle panicked on this case: a bug in ptoracle, please report it",
                ))),
                reference: None,
                got: None,
            }),
        };
        // A nondeterministic engine fails some runs and passes others:
        // asked again, every failing case and a sample of passing ones must
        // get the same answer.
        let again = match &self.caps {
            Some(caps)
                if replayed(&case, &checked, generated.is_some())
                    && !self.stop.load(Ordering::Relaxed) =>
            {
                let known = checked.reference.clone();
                catch_unwind(AssertUnwindSafe(|| {
                    check_engine(&case, plan.edition, engine, caps, known)
                }))
                .ok()
            }
            _ => None,
        };
        let flaky = again.and_then(|again| {
            let mismatches = disagreement(&checked, &again)?;
            let observed = |c: &EngineCheck| c.got.as_ref().map(report::Observed::of);
            Some((mismatches, observed(&checked), observed(&again)))
        });
        let expected = checked.reference.as_ref().map(report::Observed::of);
        // A corpus case the engine fails: its reproduction, when the
        // engine writes them (a generated one's is its shrunk ruling's).
        let corpus_failure = match (&checked.verdict, &checked.reference, &checked.got) {
            (Verdict::Fail(_), Some(r), Some(g)) if generated.is_none() && flaky.is_none() => {
                self.reproduces().then(|| (r.clone(), g.clone()))
            }
            _ => None,
        };
        let ms = t.elapsed().as_millis() as u64;
        let reference_run = checked.reference.clone();
        let mut record = Record::new(i, &case, source, generated, checked, ms);
        if let Some((reference, got)) = corpus_failure {
            let stem = slug(&case.id.0);
            self.reproduction(&case, (&reference, &got), &stem, engine, &mut record);
        }
        if let Some((mismatches, got, again)) = flaky {
            record.outcome = Outcome::Flaky { mismatches };
            record.scenario = Some(report::Scenario::of(&case));
            (record.expected, record.got, record.again) = (expected, got, again);
        }
        if let (Some(register), Some(caps)) = (&plan.findings, &self.caps) {
            register.attribute_record(&caps.info.name, &case, reference_run.as_ref(), &mut record);
        }
        if let (Some((seed, index)), Kind::Fail) = (generated, record.outcome.kind()) {
            if !self.stop.load(Ordering::Relaxed) {
                self.shrink_failure(&case, seed, index, &scope, engine, &mut record);
            }
        }
        if generated.is_some() && matches!(record.outcome.kind(), Kind::Fail | Kind::Flaky) {
            // A generated case cites no rules of its own: name those the
            // reference applies at the step that differs.
            record.rules = rules_at(&case, plan.edition, record.first_step());
        }
        record
    }
}

/// Gives the answers found wrong after they were given (see
/// [`Engine::strays`]) to the case whose request they answered, `done` or
/// the one `pending`, then finishes `done`.
pub(super) fn settle(
    engine: &mut dyn Engine,
    done: Option<(Record, RangeInclusive<u64>)>,
    pending: &mut Option<(Record, RangeInclusive<u64>)>,
    finish: &mut dyn FnMut(Record),
) {
    let mut done = done;
    for (seq, fault) in engine.strays() {
        let guilty = match (&mut done, pending.as_mut()) {
            (Some(d), _) if seq <= *d.1.end() => d,
            (_, Some(p)) => p,
            (Some(d), None) => d,
            (None, None) => continue,
        };
        let record = &mut guilty.0;
        // The first fault found stands.
        if record.outcome.kind() != Kind::Error {
            record.outcome = report::Outcome::Error {
                kind: fault.kind.name().into(),
                message: fault.message,
                not_sent: fault.not_sent,
            };
            record.stderr = fault.stderr;
        }
    }
    if let Some((record, _)) = done {
        finish(record);
    }
}

/// One passing generated case in this many is asked again (see
/// [`replayed`]).
pub(super) const REPLAY_GENERATED_ONE_IN: u32 = 16;

/// Whether a case is asked again, to see the engine answer the same: when
/// it failed, and when it passed, every corpus case (a few hundred, where
/// the rules engines get wrong are) and a sample of generated ones chosen
/// by their ids (so by the seed): the same sample in every run.
pub(super) fn replayed(case: &Case, checked: &EngineCheck, generated: bool) -> bool {
    match checked.verdict {
        Verdict::Fail(_) => true,
        Verdict::Pass => !generated || fnv(&case.id.0) % REPLAY_GENERATED_ONE_IN == 0,
        Verdict::Error(_) | Verdict::Skip(_) => false,
    }
}

/// How two answers of the engine to one case differ, if they do: their
/// observations at the first step where they differ, or what each answer
/// was (observations, a skip, an error of some kind).
pub(super) fn disagreement(first: &EngineCheck, again: &EngineCheck) -> Option<Vec<Mismatch>> {
    let answer = |c: &EngineCheck| match (&c.got, &c.verdict) {
        (Some(_), _) => "observations".to_string(),
        (None, Verdict::Skip(why)) => format!("a skip ({why})"),
        (None, Verdict::Error(Problem::Engine(f))) => format!("an error ({})", f.kind.name()),
        (None, v) => format!("{v:?}"),
    };
    if let Verdict::Error(Problem::Engine(f)) = &again.verdict {
        if f.kind == FaultKind::Interrupted {
            return None;
        }
    }
    let found = match (&first.got, &again.got) {
        (Some(a), Some(b)) => ptoracle_core::verdict::first_difference(a, b),
        _ if answer(first) == answer(again) => Vec::new(),
        _ => vec![Mismatch {
            step: 0,
            field: "answer".into(),
            expected: answer(first),
            got: answer(again),
        }],
    };
    (!found.is_empty()).then_some(found)
}
