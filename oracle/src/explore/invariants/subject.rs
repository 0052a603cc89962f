//! A case and its run as the invariants see them, and the variants of the run the relations play.

use super::*;

/// A case and its run, as the invariants see them.
pub struct Subject<'a> {
    /// The case.
    pub case: &'a Case,
    /// Its run, with the setup observed ([`Options::observe_setup`]).
    pub run: &'a Run,
    /// The edition it ran under.
    pub edition: Edition,
    /// The resolver it ran on.
    pub mutant: Option<Mutant>,
    /// Its index in the campaign (some expensive relations are sampled).
    pub index: u64,
    saved: Saved<'a>,
    tail: OnceCell<Option<Tail>>,
    initial: OnceCell<Option<Observation>>,
}

/// States of the run kept by the caller, so variants that add steps
/// continue from them instead of replaying the case.
#[derive(Default)]
pub(crate) struct Saved<'a> {
    /// The state right after step `k`, for checking again there.
    pub after: Option<(usize, Session<'a>)>,
    /// The state at the end of the run.
    pub end: Option<Session<'a>>,
}

/// The run continued on one creature: one switch, a second switch, then a
/// new setting effect (shared by the relations that add steps).
pub(super) struct Tail {
    pub(super) creature: Handle,
    pub(super) before: ObjectState,
    pub(super) set: Pt,
    pub(super) steps: Vec<Step>,
    pub(super) after: Vec<Observation>,
}

impl<'a> Subject<'a> {
    /// The subject of a case and its run.
    pub fn new(
        case: &'a Case,
        run: &'a Run,
        edition: Edition,
        mutant: Option<Mutant>,
        index: u64,
    ) -> Subject<'a> {
        Subject {
            case,
            run,
            edition,
            mutant,
            index,
            saved: Saved::default(),
            tail: OnceCell::new(),
            initial: OnceCell::new(),
        }
    }

    pub(crate) fn with_saved(mut self, saved: Saved<'a>) -> Subject<'a> {
        self.saved = saved;
        self
    }
}

impl Subject<'_> {
    /// The state before step `k` (the setup's is observed on demand when
    /// the run does not carry it).
    pub(super) fn before(&self, k: usize) -> Option<&Observation> {
        if k > 0 {
            return self.run.steps.get(k - 1).map(|s| &s.observation);
        }
        self.run.initial.as_ref().or_else(|| {
            self.initial
                .get_or_init(|| {
                    let options = Options {
                        mutant: self.mutant,
                        ..Options::default()
                    };
                    Session::start(self.case, self.edition, options)
                        .ok()?
                        .observe()
                })
                .as_ref()
        })
    }

    /// The state after step `k`.
    pub(super) fn after(&self, k: usize) -> Option<&Observation> {
        self.run.steps.get(k).map(|s| &s.observation)
    }

    /// The steps that completed, with their index.
    pub(super) fn steps(&self) -> impl Iterator<Item = (usize, &Step)> {
        self.case
            .steps
            .iter()
            .enumerate()
            .take(self.run.steps.len())
    }

    /// Whether state-based actions were performed after step `k`.
    pub(super) fn checked(&self, k: usize) -> bool {
        let step = &self.case.steps[k];
        step.sba || matches!(step.action, Action::StateBasedActions)
    }

    pub(super) fn spec(&self, h: &Handle) -> Option<&ObjectSpec> {
        self.case.setup.objects.iter().find(|o| o.id == *h)
    }

    pub(super) fn resolve(&self, case: &Case) -> Run {
        resolver::resolve(
            case,
            self.edition,
            Options {
                observe_setup: true,
                mutant: self.mutant,
                ..Options::default()
            },
        )
    }

    /// The observations of `extra` steps played after the whole run.
    pub(super) fn extend(&self, extra: &[Step]) -> Option<Vec<Observation>> {
        if self.run.error.is_some() || self.run.steps.len() != self.case.steps.len() {
            return None;
        }
        if let Some(end) = &self.saved.end {
            let mut session = end.clone();
            return extra
                .iter()
                .map(|st| session.play(st).ok().map(|o| o.observation))
                .collect();
        }
        let run = self.resolve(&extended(self.case, extra.iter().cloned()));
        let n = self.case.steps.len();
        (run.steps.len() == n + extra.len()).then(|| {
            run.steps[n..]
                .iter()
                .map(|o| o.observation.clone())
                .collect()
        })
    }

    /// The state after checking state-based actions once more, right after step `k`.
    pub(super) fn recheck(&self, k: usize) -> Option<Observation> {
        let sba = Step {
            action: Action::StateBasedActions,
            sba: true,
            expect: BTreeMap::new(),
            expect_in: BTreeMap::new(),
            expect_error: None,
            note: None,
        };
        if let Some((j, saved)) = &self.saved.after {
            if *j == k {
                return saved.clone().play(&sba).ok().map(|o| o.observation);
            }
        }
        let mut variant = self.case.clone();
        variant.steps.truncate(k + 1);
        variant.steps.push(sba);
        self.resolve(&variant)
            .steps
            .get(k + 1)
            .map(|o| o.observation.clone())
    }

    /// Whether a prevention shield (615.7) may protect `h` in step `k`: a
    /// `prevent` step for it came before.
    pub(super) fn prevented(&self, k: usize, h: &Handle) -> bool {
        self.case.steps[..k.min(self.case.steps.len())]
            .iter()
            .any(|st| matches!(&st.action, Action::Prevent(p) if p.to == *h))
    }

    /// The shared continuation on one creature (see [`Tail`]); played for
    /// even case indices (odd ones check again after a step instead).
    pub(super) fn tail(&self) -> Option<&Tail> {
        self.tail
            .get_or_init(|| {
                let (creature, before) = last_creature(self)?;
                let set = Pt::new((self.index % 5) as i64, 1 + (self.index % 3) as i64);
                let switch = quiet(effect_on(
                    &creature,
                    EffectSpec {
                        switch: true,
                        ..EffectSpec::default()
                    },
                ));
                let setting = quiet(effect_on(
                    &creature,
                    EffectSpec {
                        name: Some("becomes a fixed P/T".into()),
                        set: Some(ptoracle_core::number::SetPt {
                            power: ptoracle_core::number::Amount::Fixed(set.power),
                            toughness: ptoracle_core::number::Amount::Fixed(set.toughness),
                        }),
                        ..EffectSpec::default()
                    },
                ));
                let steps = vec![switch.clone(), switch, setting];
                let after = self.extend(&steps)?;
                Some(Tail {
                    creature,
                    before,
                    set,
                    steps,
                    after,
                })
            })
            .as_ref()
    }

    /// Whether some object can act inside a step: a triggered ability
    /// other than undying and persist (a Saga's chapters, an Nth-counter
    /// trigger, a Siege's, 310.11b), what a spell does as a step resolves it, or counters it
    /// enters with by its own replacement effect as a step moves it onto
    /// the battlefield or resolves it, or undying or persist returns it.
    pub(super) fn objects_act(&self) -> bool {
        // Whether undying or persist comes up anywhere in the case: printed,
        // granted, from a level band or an entry choice, or as a counter.
        let returning = |k: &Keyword| matches!(k, Keyword::Undying | Keyword::Persist);
        let counter = |k: &CounterKind| matches!(k, CounterKind::Keyword(k) if returning(k));
        let may_return = self.case.setup.objects.iter().any(|o| {
            o.keywords.iter().any(returning)
                || o.static_abilities()
                    .any(|a| a.add_keywords.iter().any(returning))
                || o.level_up.iter().any(|b| b.keywords.iter().any(returning))
                || o.enters_as.iter().any(|c| c.keywords.iter().any(returning))
                || o.counters.keys().chain(o.enters_with.keys()).any(counter)
        }) || self.case.actions().any(|a| match a {
            Action::Effect(e) => e.add_keywords.iter().any(returning),
            Action::PutCounters(c) => counter(&c.kind),
            Action::DoubleCounters(c) => counter(&c.kind),
            Action::MoveCounters(c) => counter(&c.kind),
            Action::Move(m) => m.counters.keys().any(counter),
            _ => false,
        });
        let resolves = |h: &Handle| {
            self.case
                .steps
                .iter()
                .any(|st| matches!(&st.action, Action::Resolve(r) if r == h))
        };
        let enters = |h: &Handle| {
            resolves(h)
                || self.case.steps.iter().any(|st| {
                    matches!(&st.action, Action::Move(m) if m.object == *h && m.to == Zone::Battlefield)
                })
        };
        self.case.setup.objects.iter().any(|o| {
            !o.chapters.is_empty()
                || !o.counter_triggers.is_empty()
                || is_siege(o)
                || (o.on_resolve.is_some() && resolves(&o.id))
                || (!o.enters_with.is_empty() && (enters(&o.id) || may_return))
        })
    }

    /// Whether some object changes whether or how many counters are put
    /// ("can't have counters put on it", or twice or half as many by who
    /// puts them; 101.2, 614.1a): then a step does not put the number of
    /// counters it names.
    pub(super) fn counter_rules(&self) -> bool {
        self.case
            .setup
            .objects
            .iter()
            .any(|o| o.cant_have_counters_put || o.counters_put_by.is_some())
    }

    /// Whether a step before step `k` may have given `h` another
    /// controller than it was set up with: a control change (613.1b), or
    /// casting it (the caster controls the spell and the permanent it
    /// becomes, 601.2a, 608.3a).
    pub(super) fn control_may_change(&self, h: &Handle, k: usize) -> bool {
        self.case.steps[..k.min(self.case.steps.len())]
            .iter()
            .any(|st| match &st.action {
                Action::GainControl(g) => g.object == *h,
                Action::Cast(c) => c.object == *h,
                _ => false,
            })
    }

    /// Whether some static ability looks at P/T to decide what it affects:
    /// then one effect can change what another does (613.8), and
    /// single-effect closed forms don't hold.
    pub(super) fn thresholds(&self) -> bool {
        self.case
            .setup
            .objects
            .iter()
            .flat_map(|o| o.static_abilities())
            .any(|a| matches!(&a.affects, Affects::Filter(f) if f.tests_pt()))
    }

    /// Whether anything switches power and toughness: a switch (7d) moves
    /// a later modification (7c) from one value to the other, so closed
    /// forms of "value before plus change" hold only without one.
    pub(super) fn switches(&self) -> bool {
        self.case
            .setup
            .objects
            .iter()
            .flat_map(|o| o.static_abilities())
            .any(|a| a.switch)
            || self
                .case
                .actions()
                .any(|a| matches!(a, Action::Effect(e) if e.switch))
    }

    /// Whether some effect may remove all abilities (613.1f): a resolved one
    /// or a static ability.
    pub(super) fn abilities_removed(&self) -> bool {
        self.case
            .actions()
            .any(|x| matches!(x, Action::Effect(e) if e.remove_all_abilities))
            || self
                .case
                .setup
                .objects
                .iter()
                .flat_map(|o| o.static_abilities())
                .any(|a| a.remove_all_abilities)
    }

    /// Whether object `h` is ever face down or has another face up: set up
    /// face down or double-faced, or named by a step that turns it over
    /// (708, 712). Its printed values are then not always its copiable
    /// ones (708.2a, 712.8e).
    pub(super) fn turned_over(&self, h: &Handle) -> bool {
        self.spec(h)
            .is_some_and(|o| o.face_down || o.back_face.is_some())
            || self
                .case
                .actions()
                .any(|a| matches!(a, Action::TurnFaceUp(x) | Action::TurnFaceDown(x) if x == h))
    }

    /// Whether any P/T comes from something other than printed values,
    /// counters and effects listing their objects.
    pub(super) fn global_pt_sources(&self) -> bool {
        self.case.setup.objects.iter().any(|o| {
            o.face_down
                || o.back_face.is_some()
                || !o.abilities.is_empty()
                || !o.level_up.is_empty()
                || o.cda.is_some()
                || o.subtypes.iter().any(|s| s == "Equipment")
        }) || self.case.actions().any(|a| {
            // 604.3a: an ability an effect grants reads its value all the time.
            matches!(a, Action::TurnFaceUp(_) | Action::TurnFaceDown(_))
                || matches!(a, Action::Effect(e) if matches!(e.affects, Affects::Filter(_)) || e.grant_pt_ability.is_some())
        })
    }
}
