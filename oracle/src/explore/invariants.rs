//! Invariants: properties every run of every scenario must have, each
//! stated independently of how the resolver computes it — a closed form
//! over the observations, a conservation law, or a metamorphic relation
//! between the run of a case and the run of a variant of it.
//!
//! A violation says what the invariant expects to observe instead, so it
//! can be written as a ruling with real expectations; for a metamorphic
//! relation the expected values are those of the other side of the
//! relation (equal under correct rules).

use std::collections::BTreeMap;

use crate::edition::{Edition, PtClass, Rules};
use crate::number::{Amount, Printed, PrintedPt, Pt};
use crate::observation::{ObjectState, Observation, PlayerState};
use crate::verdict::diff;
use std::borrow::Cow;
use std::cell::OnceCell;

use crate::resolver::{self, Mutant, Options, Run, Session};
use crate::scenario::{
    Action, Affects, AttackDeclaration, Case, CombatAssignment, Count, Damage, DamageStep,
    EffectSpec, ErrorCode, Exchanged, Expect, GainControl, Handle, ManaPool, ObjectSpec,
    Prevention, PtOrNone, Quantity, QuantityRef, ScaleWhat, Step, Until,
};
use crate::terms::{CardType, CounterKind, Keyword, Zone};

/// One invariant.
pub struct Invariant {
    /// Its name, e.g. `no-lethal-damage`.
    pub name: &'static str,
    /// The CR rules it checks.
    pub rules: &'static [&'static str],
    /// What it asserts, in words.
    pub statement: &'static str,
    /// The deliberate bug its own test breaks the resolver with.
    pub caught_by: Mutant,
    /// It runs on the cases whose index is `remainder` modulo `modulus`
    /// (the costly relations are sampled; most invariants run on every case).
    pub sampling: (u64, u64),
    /// Whether it reads what a step did as a closed form of the step's own
    /// action (and state-based actions, undying and persist). Such an
    /// invariant does not run on a case whose objects act inside a step:
    /// other triggered abilities (Saga chapters, 714.2; "when the Nth
    /// counter is put on", 122.7), spells that resolve (608.2) and "enters
    /// with counters" replacement effects (614.1c); about one generated
    /// case in nine.
    pub closed_form: bool,
    /// Whether it holds under an edition's rules: most invariants state
    /// what every edition agrees on; a few state the current layer order
    /// (613.4) or 107.1b and are not checked under the editions that
    /// differ there.
    pub holds_in: fn(&Rules) -> bool,
    check: fn(&Subject<'_>) -> Option<Found>,
}

impl Invariant {
    /// Checks a run of a case (nothing, for a case its sampling skips).
    pub fn check(&'static self, s: &Subject<'_>) -> Option<Violation> {
        if !self.runs_on(s.index)
            || (self.closed_form && s.objects_act())
            || !(self.holds_in)(s.edition.rules())
        {
            return None;
        }
        (self.check)(s).map(|f| Violation {
            invariant: self,
            found: f,
        })
    }

    /// Whether it runs on case `index`.
    pub fn runs_on(&self, index: u64) -> bool {
        index % self.sampling.0.max(1) == self.sampling.1
    }
}

/// Which saved states examining case `index` should keep: after a step
/// (for the [`RECHECK`] relation) and at the end (for the [`TAIL`] ones).
pub(crate) fn keeps(index: u64) -> (bool, bool) {
    let runs = |(m, r): (u64, u64)| index % m == r;
    (runs(RECHECK), runs(TAIL))
}

/// On every case.
const EVERY: (u64, u64) = (1, 0);

/// Under every edition.
const EVERY_EDITION: fn(&Rules) -> bool = |_| true;

/// Where setting effects apply before every modification, whatever the
/// timestamps (613.4b since 2009-07; not K.10.Ruling.1 nor 6b of 2007).
const SETS_FIRST: fn(&Rules) -> bool = |r| r.alone(PtClass::Set);

/// Where switching applies after everything else (613.4d; not K.10.Ruling.1).
const SWITCH_LAST: fn(&Rules) -> bool = |r| r.alone(PtClass::Switch);
/// The relations that continue a run past its end: one case in four.
const TAIL: (u64, u64) = (4, 0);
/// A quarter of the [`TAIL`] cases (they keep the end state too): one
/// case in sixteen, for a relation that finds its bug often (the explore
/// budget of 2× the resolver is tight).
const QUARTER_OF_TAIL: (u64, u64) = (16, 0);
/// Another quarter of the [`TAIL`] cases, which [`QUARTER_OF_TAIL`]
/// leaves out: its relations don't pile onto the same cases.
const OTHER_QUARTER_OF_TAIL: (u64, u64) = (16, 4);
/// The relation that checks again after a step: another case in four.
const RECHECK: (u64, u64) = (4, 2);
/// One case in four, neither a [`TAIL`] nor a [`RECHECK`] one: for a
/// relation that replays the whole case, to spread its cost.
const FOURTH: (u64, u64) = (4, 1);

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
struct Tail {
    creature: Handle,
    before: ObjectState,
    set: Pt,
    steps: Vec<Step>,
    after: Vec<Observation>,
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

/// What an invariant found wrong.
#[derive(Clone, Debug)]
pub struct Found {
    /// The step (from 0) after which it does not hold.
    pub step: usize,
    /// What is wrong, in a sentence.
    pub message: String,
    /// The case the ruling should replay, when it is a variant of the one checked.
    pub case: Option<Case>,
    /// What the invariant says must hold after `step`.
    pub expect: BTreeMap<Handle, Expect>,
    /// Or the error `step` must end with.
    pub expect_error: Option<ErrorCode>,
}

/// An invariant that does not hold.
#[derive(Clone, Debug)]
pub struct Violation {
    /// The invariant.
    pub invariant: &'static Invariant,
    /// What it found.
    pub found: Found,
}

impl std::fmt::Debug for Invariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

fn found(step: usize, message: impl Into<String>) -> Found {
    Found {
        step,
        message: message.into(),
        case: None,
        expect: BTreeMap::new(),
        expect_error: None,
    }
}

impl Found {
    fn expect(mut self, h: &Handle, e: Expect) -> Found {
        self.expect.insert(h.clone(), e);
        self
    }

    fn on(mut self, case: Case) -> Found {
        self.case = Some(case);
        self
    }
}

impl Subject<'_> {
    /// The state before step `k` (the setup's is observed on demand when
    /// the run does not carry it).
    fn before(&self, k: usize) -> Option<&Observation> {
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
    fn after(&self, k: usize) -> Option<&Observation> {
        self.run.steps.get(k).map(|s| &s.observation)
    }

    /// The steps that completed, with their index.
    fn steps(&self) -> impl Iterator<Item = (usize, &Step)> {
        self.case
            .steps
            .iter()
            .enumerate()
            .take(self.run.steps.len())
    }

    /// Whether state-based actions were performed after step `k`.
    fn checked(&self, k: usize) -> bool {
        let step = &self.case.steps[k];
        step.sba || matches!(step.action, Action::StateBasedActions)
    }

    fn spec(&self, h: &Handle) -> Option<&ObjectSpec> {
        self.case.setup.objects.iter().find(|o| o.id == *h)
    }

    fn resolve(&self, case: &Case) -> Run {
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
    fn extend(&self, extra: &[Step]) -> Option<Vec<Observation>> {
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
    fn recheck(&self, k: usize) -> Option<Observation> {
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
    fn prevented(&self, k: usize, h: &Handle) -> bool {
        self.case.steps[..k.min(self.case.steps.len())]
            .iter()
            .any(|st| matches!(&st.action, Action::Prevent(p) if p.to == *h))
    }

    /// The shared continuation on one creature (see [`Tail`]); played for
    /// even case indices (odd ones check again after a step instead).
    fn tail(&self) -> Option<&Tail> {
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
                        set: Some(crate::number::SetPt {
                            power: crate::number::Amount::Fixed(set.power),
                            toughness: crate::number::Amount::Fixed(set.toughness),
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
    fn objects_act(&self) -> bool {
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
    fn counter_rules(&self) -> bool {
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
    fn control_may_change(&self, h: &Handle, k: usize) -> bool {
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
    fn thresholds(&self) -> bool {
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
    fn switches(&self) -> bool {
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
    fn abilities_removed(&self) -> bool {
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
    fn turned_over(&self, h: &Handle) -> bool {
        self.spec(h)
            .is_some_and(|o| o.face_down || o.back_face.is_some())
            || self
                .case
                .actions()
                .any(|a| matches!(a, Action::TurnFaceUp(x) | Action::TurnFaceDown(x) if x == h))
    }

    /// Whether any P/T comes from something other than printed values,
    /// counters and effects listing their objects.
    fn global_pt_sources(&self) -> bool {
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

/// The keywords a source has as it deals damage, read from the state before
/// the step (702.2e: last known information if it has left).
fn source_keywords(before: &Observation, h: &Handle) -> Vec<Keyword> {
    match before.objects.get(h) {
        Some(o) if o.zone != Zone::Battlefield => o
            .lki
            .as_ref()
            .map_or(o.keywords.clone(), |l| l.keywords.clone()),
        Some(o) => o.keywords.clone(),
        None => Vec::new(),
    }
}

/// A Siege: a battle with the intrinsic ability of 310.11b.
fn is_siege(o: &ObjectSpec) -> bool {
    o.types.contains(&CardType::Battle) && o.subtypes.iter().any(|t| t == "Siege")
}

/// Whether damage to `h` in the step after `before` is prevented by a
/// shield counter (122.1c): then it is not dealt and has no results.
fn shielded(before: &Observation, h: &Handle) -> bool {
    before
        .objects
        .get(h)
        .is_some_and(|o| on_bf(o) && count(o, &CounterKind::named("shield")) > 0)
}

fn is_creature(o: &ObjectState) -> bool {
    o.types.contains(&CardType::Creature)
}

fn on_bf(o: &ObjectState) -> bool {
    o.zone == Zone::Battlefield
}

fn count(o: &ObjectState, k: &CounterKind) -> i64 {
    o.counters.get(k).copied().unwrap_or(0)
}

/// An expectation of every field of an object state.
fn pt_expect(pt: Pt) -> Expect {
    Expect {
        pt: Some(PtOrNone::Pt(pt)),
        ..Expect::default()
    }
}

// ---- the invariants ---------------------------------------------------------

/// Every invariant, in a fixed order.
pub static ALL: &[Invariant] = &[
    Invariant {
        name: "exact-arithmetic",
        rules: &["107.1", "107.1a", "122.1a"],
        statement: "a creature whose P/T comes only from its printed values and counters has exactly printed + the sum of its counters (computed in 128 bits); when that does not fit in 64 bits the step reports an overflow instead of a value",
        caught_by: Mutant::WrappingCounters,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: exact_arithmetic,
    },
    Invariant {
        name: "annihilation",
        rules: &["122.3", "704.5q"],
        statement: "after state-based actions no permanent has both +1/+1 and -1/-1 counters",
        caught_by: Mutant::NoAnnihilation,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: annihilation,
    },
    Invariant {
        name: "annihilation-keeps-the-net",
        rules: &["122.3", "704.5q"],
        statement: "checking state-based actions keeps a permanent's +1/+1 minus -1/-1 counters as it was",
        caught_by: Mutant::LopsidedAnnihilation,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: annihilation_net,
    },
    Invariant {
        name: "no-zero-toughness",
        rules: &["704.5f", "702.12b", "701.19"],
        statement: "after state-based actions no creature on the battlefield has toughness 0 or less, indestructible or not",
        caught_by: Mutant::ZeroToughnessIsDestruction,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: no_zero_toughness,
    },
    Invariant {
        name: "no-lethal-damage",
        rules: &["704.5g", "120.6", "702.12b"],
        statement: "after state-based actions a creature on the battlefield with damage at least its toughness (> 0) is indestructible",
        caught_by: Mutant::LethalIsGreater,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: no_lethal_damage,
    },
    Invariant {
        name: "deathtouch-destroys",
        rules: &["704.5h", "702.2b"],
        statement: "a creature dealt damage by a deathtouch source is gone after the next check, unless indestructible or regenerated",
        caught_by: Mutant::DeathtouchIgnored,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: deathtouch_destroys,
    },
    Invariant {
        name: "combat-damage",
        rules: &["510.1a", "510.2", "107.1b", "120.3a", "120.3b", "120.3f"],
        statement: "a creature assigns combat damage equal to max(0, power): each player's life and poison change by exactly that, plus lifelink",
        caught_by: Mutant::AbsolutePowerInCombat,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: combat_damage,
    },
    Invariant {
        name: "plus-x-clamped",
        rules: &["107.1b", "608.2h"],
        statement: "\"+X/+X where X is its power\" adds max(0, power as it resolved) (without switch effects)",
        caught_by: Mutant::UnclampedX,
        sampling: EVERY,
        closed_form: true,
        holds_in: SETS_FIRST,
        check: plus_x,
    },
    Invariant {
        name: "mana-clamped",
        rules: &["107.1b", "608.2h"],
        statement: "mana \"equal to its power\" adds max(0, power as it resolved)",
        caught_by: Mutant::UnclampedMana,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: mana,
    },
    Invariant {
        name: "setting-keeps-modifications",
        rules: &["613.4b", "613.4c"],
        statement: "a new setting effect replaces base P/T only: every modification and counter stays on top of it, whatever the timestamps (Gray Ogre)",
        caught_by: Mutant::SetSharesTimestamps,
        sampling: TAIL,
        closed_form: false,
        holds_in: SETS_FIRST,
        check: setting_keeps_modifications,
    },
    Invariant {
        name: "modifications-commute",
        rules: &["613.4c", "613.7"],
        statement: "swapping the timestamps of two modifications in 7c changes nothing",
        caught_by: Mutant::ClampIntermediate,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: modifications_commute,
    },
    Invariant {
        name: "two-switches-cancel",
        rules: &["613.4d"],
        statement: "switching a creature's power and toughness twice leaves every observation as it was",
        caught_by: Mutant::SwitchIsFlag,
        sampling: TAIL,
        closed_form: false,
        holds_in: SWITCH_LAST,
        check: two_switches,
    },
    Invariant {
        name: "switch-swaps",
        rules: &["613.4d", "613.4c"],
        statement: "one more switch turns P/T p/t into t/p, counters included, and leaves base P/T alone",
        caught_by: Mutant::CountersAfterSwitch,
        sampling: TAIL,
        closed_form: false,
        holds_in: SWITCH_LAST,
        check: switch_swaps,
    },
    Invariant {
        name: "damage-keeps-toughness",
        rules: &["120.3e", "302.7"],
        statement: "damage from a source without wither or infect changes nobody's P/T (before state-based actions)",
        caught_by: Mutant::DamageLowersToughness,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: damage_keeps_toughness,
    },
    Invariant {
        name: "cleanup-clears",
        rules: &["514.2", "701.19a"],
        statement: "after cleanup no permanent has damage or regeneration shields and mana pools are empty",
        caught_by: Mutant::CleanupKeepsDamage,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: cleanup_clears,
    },
    Invariant {
        name: "cleanup-ends-effects",
        rules: &["514.2", "611.2a"],
        statement: "after cleanup the state is as if no \"until end of turn\" effect had existed",
        caught_by: Mutant::CleanupKeepsEffects,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: cleanup_ends_effects,
    },
    Invariant {
        name: "zone-change-new-object",
        rules: &["400.7", "122.2", "306.5b", "310.4b"],
        statement: "an object that changes zones has no counters, damage, shields or tapped state but what it enters with",
        caught_by: Mutant::CountersSurviveZoneChange,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: zone_change,
    },
    Invariant {
        name: "sba-fixpoint",
        rules: &["704.3"],
        statement: "checking state-based actions again right after a step changes nothing",
        caught_by: Mutant::SingleSbaPass,
        sampling: RECHECK,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: sba_fixpoint,
    },
    Invariant {
        name: "edition-neutral",
        rules: &[
            "613.4c", "613.4d", "107.1b", "701.10c", "701.11c", "122.1b", "122.1j", "704.5q",
            "702.15b",
        ],
        statement: "where the rules digest calls an edition change neutral, both editions give the same run: the counter merge of 2020-04-17 (without keyword counters), 2017-07-07 and the current rules (without doubling, tripling, keyword or hone counters), 2025-06-06 and the current rules (without hone counters), 2018-04-27 and 2020-01-22 (no P/T rule changed), 2007-05 and 2009-07 (without setting effects, -1/-1 counters or lifelink); where the sublayer plan changed, only without effects whose affected set tests P/T",
        caught_by: Mutant::CountersInFourthSublayer,
        sampling: (32, 1),
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: edition_neutral,
    },
    Invariant {
        name: "deterministic",
        rules: &["613.7"],
        statement: "resolving a case again, on the same thread or another, gives the same run",
        caught_by: Mutant::Nondeterministic,
        sampling: (32, 0),
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: deterministic,
    },
    Invariant {
        name: "yaml-round-trip",
        rules: &["107.1"],
        statement: "a case written as a YAML ruling reads back unchanged",
        caught_by: Mutant::LossyWriter,
        sampling: (128, 64),
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: yaml_round_trip,
    },
    Invariant {
        name: "lki-before-the-event",
        rules: &["704.8", "608.2h"],
        statement: "an object put into the graveyard by the first state-based-action event keeps, as last known information, its state before that event",
        caught_by: Mutant::LkiAfterAnnihilation,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: lki_before_event,
    },
    Invariant {
        name: "base-pt",
        rules: &["208.4b", "613.4b"],
        statement: "a creature no setting effect touches has its printed P/T as base P/T, whatever its counters and pumps",
        caught_by: Mutant::BaseIncludesModifications,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: base_pt,
    },
    Invariant {
        name: "noncreature-has-no-pt",
        rules: &["208.3"],
        statement: "a permanent that is not a creature has no power, toughness, total or combat damage",
        caught_by: Mutant::NoncreatureHasPt,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: noncreature_pt,
    },
    Invariant {
        name: "total-and-combat-damage",
        rules: &["107.1b", "510.1a"],
        statement: "total power and toughness is power + toughness with negatives, and the combat damage a creature would assign is max(0, power)",
        caught_by: Mutant::TotalClampsNegative,
        sampling: EVERY,
        closed_form: false,
        holds_in: |r| !r.negative_counts_as_zero,
        check: totals,
    },
    Invariant {
        name: "double-and-triple",
        rules: &["701.10", "701.11", "107.1b"],
        statement: "doubling adds the value and tripling adds twice it, a negative value lowering it where the edition says so (without switch effects, which move the added value to the other side)",
        caught_by: Mutant::DoubleClampsNegative,
        sampling: EVERY,
        closed_form: true,
        holds_in: SETS_FIRST,
        check: scaling,
    },
    Invariant {
        name: "players-lose",
        rules: &["704.5a", "704.5c"],
        statement: "after state-based actions every player at 0 or less life or with 10 or more poison counters has lost",
        caught_by: Mutant::PoisonAtEleven,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: players_lose,
    },
    Invariant {
        name: "granted-pt-ability",
        rules: &["604.3a", "613.4a", "613.4b", "613.1f", "613.7a"],
        statement: "an ability an effect grants that defines P/T is no characteristic-defining ability: granting a creature \"its power and toughness are each N\" changes it exactly as an effect that sets it to N/N at the same time (7b, timestamp order with the other setting effects, not 7a under them); and granting it and then removing all abilities is the same as only removing them (layer 6)",
        caught_by: Mutant::GrantedPtAsCda,
        sampling: QUARTER_OF_TAIL,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: granted_pt_ability,
    },
    Invariant {
        name: "double-counters",
        rules: &["701.10e", "122.6", "122.1"],
        statement: "doubling the counters of a kind on a permanent puts as many more as it has: twice as many afterwards, and none more on a permanent that can't have counters put on it (without counter caps, annihilation partners or Vorinclex-style abilities)",
        caught_by: Mutant::DoubleCountersSetsCount,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: double_counters,
    },
    Invariant {
        name: "shield-counters",
        rules: &["122.1c", "615.6", "120.4b"],
        statement: "a damage step deals no damage to a permanent that had a shield counter, however many sources damage it at once: its marked damage has not grown, it has lost at most one shield counter, and a creature that was alive stays on the battlefield (where nothing else can change its P/T)",
        caught_by: Mutant::ShieldPerSource,
        sampling: EVERY,
        closed_form: true,
        holds_in: EVERY_EDITION,
        check: shield_counters,
    },
    Invariant {
        name: "defeated-battles",
        rules: &["704.5v", "310.7", "310.11b", "120.3h"],
        statement: "after state-based actions no battle on the battlefield has defense 0; a noncreature Siege that loses its last defense counter to damage or to a removal is exiled by its own ability, never put into the graveyard (unless an effect removes its abilities or its battle type)",
        caught_by: Mutant::SiegeToGraveyard,
        sampling: EVERY,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: defeated_battles,
    },
    Invariant {
        name: "face-down-hides-printed-values",
        rules: &["708.2a", "708.2", "613.2a"],
        statement: "while a permanent set up face down stays face down on the battlefield, its printed values (P/T, keywords, colors, subtypes, abilities) change nothing: the same case with other printed values gives the same observations (a 2/2 with no name or text, whatever is printed; counters and effects apply on top)",
        caught_by: Mutant::FaceDownKeepsPrinted,
        sampling: FOURTH,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: face_down_hides_printed_values,
    },
    Invariant {
        name: "face-up-timestamp",
        rules: &["613.7f", "613.7g", "613.7a", "613.4b", "708.8", "712.8e"],
        statement: "a permanent turned face up or transformed gets a new timestamp, the newest, so a static ability of its own face that sets its P/T applies after every effect created before: its base P/T right after is that value (editions from 2015-07-17; without abilities lost, explicit timestamps or level up)",
        caught_by: Mutant::FaceUpKeepsTimestamp,
        sampling: EVERY,
        closed_form: false,
        holds_in: |r| r.turning_over_takes_timestamp,
        check: face_up_timestamp,
    },
    Invariant {
        name: "exchange",
        rules: &["701.12g", "701.12a", "613.4b", "208.4b"],
        statement: "right after an exchange of two values that are both there, each creature's base power or toughness exchanged (208.4b) is the other value as it was just before, and each life total exchanged is too; if either is not there, nothing changes (without explicit timestamps or P/T conditions)",
        caught_by: Mutant::ExchangeModifies,
        sampling: EVERY,
        closed_form: false,
        holds_in: SETS_FIRST,
        check: exchange_values,
    },
    Invariant {
        name: "prevention-shields",
        rules: &["615.7", "120.4b", "120.8"],
        statement: "at the end of a case, a shield that prevents the next N damage to a creature or player, then D damage to it, leaves the same state as dealing it max(0, D - N) damage: prevented damage has no result, the rest is dealt as usual (without shield counters on it)",
        caught_by: Mutant::PreventionShieldWholeEvent,
        sampling: QUARTER_OF_TAIL,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: prevention_shields,
    },
    Invariant {
        name: "combat-assignment",
        rules: &[
            "510.1a", "510.1b", "510.1c", "510.1d", "510.4", "702.19b", "702.19d", "702.2c",
            "702.4b", "702.7b",
        ],
        statement: "at the end of a case, the first player's untapped creatures attack and the other player's block them: each combat damage step leaves the same state as explicit assignments computed from the state as the step begins — lethal damage to each blocker in turn counting the damage marked on it and assigned to it so far (1 from deathtouch where 702.2c says so), the rest to the last blocker or, with trample, to the player; power read again in the second step, which only creatures without first or double strike as the first began, or with double strike now, take part in",
        caught_by: Mutant::TrampleIgnoresMarkedDamage,
        sampling: OTHER_QUARTER_OF_TAIL,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: combat_assignment,
    },
    Invariant {
        name: "copy-ignores-counters-and-effects",
        rules: &["707.2", "613.2a", "122.1a", "613.4c"],
        statement: "at the end of a case, a creature that becomes a copy of another has the same P/T and base P/T whether or not a +1/+1 counter and a +2/+1 effect were put on the original just before: a copy takes copiable values, not counters or effects (without abilities that read values, or objects that act)",
        caught_by: Mutant::CopyKeepsCountersAndPumps,
        sampling: QUARTER_OF_TAIL,
        closed_form: false,
        holds_in: EVERY_EDITION,
        check: copy_ignores_counters_and_effects,
    },
];

/// The invariant with this name.
pub fn named(name: &str) -> Option<&'static Invariant> {
    ALL.iter().find(|i| i.name == name)
}

/// 708.2a: the variant of the case where face-down object `h` has other
/// printed values, none of which a face-down permanent has.
fn reprinted(case: &Case, h: &Handle) -> Option<Case> {
    let mut variant = case.clone();
    let o = variant.setup.objects.iter_mut().find(|o| o.id == *h)?;
    let (p, t) = match o.pt {
        Some(PrintedPt {
            power: Printed::Fixed(p),
            toughness: Printed::Fixed(t),
        }) => (p, t),
        _ => (0, 0),
    };
    // Far from the printed value and from 2/2, small enough to fit.
    let other = |v: i64| {
        if (-100..=100).contains(&v) {
            7 + (v.abs() % 5)
        } else {
            3
        }
    };
    o.pt = Some(PrintedPt {
        power: Printed::Fixed(other(p)),
        toughness: Printed::Fixed(other(t).saturating_add(2)),
    });
    o.cda = None;
    o.enters_as.clear();
    o.keywords = vec![Keyword::Flying, Keyword::Deathtouch];
    o.colors.clear();
    o.subtypes = vec!["Test".into()];
    o.abilities.clear();
    o.level_up.clear();
    Some(variant)
}

fn face_down_hides_printed_values(s: &Subject<'_>) -> Option<Found> {
    let h = &s.case.setup.objects.iter().find(|o| o.face_down)?.id;
    // The steps while it is surely face down and on the battlefield: up to
    // the first that turns it, moves, casts or resolves it (a new object is
    // face up, 708.9), or after which it is elsewhere.
    let mut upto = 0;
    for (k, step) in s.steps() {
        if turns_or_moves(&step.action, h) || !s.after(k)?.objects.get(h).is_some_and(on_bf) {
            break;
        }
        upto = k + 1;
    }
    // Abilities that act inside a step may name it too (a chapter moving it).
    if upto == 0 || s.objects_act() {
        return None;
    }
    let mut variant = reprinted(s.case, h)?;
    variant.steps.truncate(upto);
    let run = s.resolve(&variant);
    for k in 0..upto {
        let (mine, theirs) = (s.after(k)?, &run.steps.get(k)?.observation);
        if mine != theirs {
            return Some(
                found(
                    k,
                    format!("{h} is face down, yet printing other values on it changes the state after step {} (708.2a: a face-down permanent is a 2/2 with no name or text)", k + 1),
                )
                .on(variant)
                .expect_all(diff(theirs, mine)),
            );
        }
    }
    None
}

/// Whether `a` turns `h` over, transforms it, or makes it a new object by
/// moving, casting or resolving it (708.9, 400.7).
fn turns_or_moves(a: &Action, h: &Handle) -> bool {
    match a {
        Action::TurnFaceUp(x)
        | Action::TurnFaceDown(x)
        | Action::Transform(x)
        | Action::Resolve(x) => x == h,
        Action::Move(m) => m.object == *h,
        Action::Cast(c) => c.object == *h,
        _ => false,
    }
}

/// The value `v` has in `obs`: a creature's power or toughness on the
/// battlefield, a player's life total; `None` where it is not there.
fn exchanged_value(obs: &Observation, v: &Exchanged) -> Option<i64> {
    match v {
        Exchanged::Life(h) => obs.players.get(h).map(|p| p.life),
        Exchanged::Power(h) | Exchanged::Toughness(h) => {
            let o = obs.objects.get(h).filter(|o| on_bf(o) && is_creature(o))?;
            let pt = o.pt?;
            Some(if matches!(v, Exchanged::Power(_)) {
                pt.power
            } else {
                pt.toughness
            })
        }
    }
}

fn exchange_values(s: &Subject<'_>) -> Option<Found> {
    // 613.7: an explicit timestamp may be newer than the exchange's
    // effects; 613.8: a P/T condition may make setting effects depend on
    // each other.
    let explicit = s
        .case
        .actions()
        .any(|a| matches!(a, Action::Effect(e) if e.timestamp.is_some()))
        || s.case.setup.objects.iter().any(|o| o.timestamp.is_some());
    let conditions = s.case.actions().any(|a| matches!(a, Action::Effect(e) if matches!(&e.affects, Affects::Filter(f) if f.tests_pt())))
        || s.case.setup.objects.iter().flat_map(|o| o.static_abilities()).any(|a| matches!(&a.affects, Affects::Filter(f) if f.tests_pt()));
    if explicit || conditions || s.objects_act() {
        return None;
    }
    for (k, step) in s.steps() {
        let Action::Exchange(x) = &step.action else {
            continue;
        };
        let [a, b] = x.values.as_slice() else {
            continue;
        };
        let (before, after) = (s.before(k)?, s.after(k)?);
        let (Some(va), Some(vb)) = (exchanged_value(before, a), exchanged_value(before, b)) else {
            // 701.12a: nothing is exchanged; the step itself changes nothing.
            let same = |v: &Exchanged| match v {
                Exchanged::Life(h) => {
                    before.players.get(h).map(|p| p.life) == after.players.get(h).map(|p| p.life)
                }
                _ => true,
            };
            if !(same(a) && same(b)) {
                return Some(found(
                    k,
                    format!(
                        "{a} or {b} is not there, so nothing is exchanged (701.12a), yet a life total changed"
                    ),
                ));
            }
            continue;
        };
        for (side, want) in [(a, vb), (b, va)] {
            let (got, expect) = match side {
                Exchanged::Life(h) => (
                    after.players.get(h).map(|p| p.life),
                    Expect {
                        life: Some(want),
                        ..Expect::default()
                    },
                ),
                Exchanged::Power(h) | Exchanged::Toughness(h) => {
                    // It may have died of the new value (704.5f, 704.5g),
                    // and undying or persist may have returned it, a new
                    // object (400.7).
                    let returns = before.objects.get(h).is_some_and(|o| {
                        o.keywords.contains(&Keyword::Undying)
                            || o.keywords.contains(&Keyword::Persist)
                    });
                    let Some(base) = after
                        .objects
                        .get(h)
                        .filter(|o| on_bf(o) && !returns)
                        .and_then(|o| o.base_pt)
                    else {
                        continue;
                    };
                    let (got, fixed) = if matches!(side, Exchanged::Power(_)) {
                        (base.power, Pt::new(want, base.toughness))
                    } else {
                        (base.toughness, Pt::new(base.power, want))
                    };
                    (
                        Some(got),
                        Expect {
                            base_pt: Some(PtOrNone::Pt(fixed)),
                            ..Expect::default()
                        },
                    )
                }
            };
            if got != Some(want) {
                let what = match side {
                    Exchanged::Life(_) => "is",
                    _ => "should be set to (its base value, 208.4b)",
                };
                return Some(
                    found(
                        k,
                        format!(
                            "after exchanging {a} ({va}) and {b} ({vb}), {side} {what} {want}, not {} (701.12g, 613.4b)",
                            got.map_or("none".into(), |v| v.to_string())
                        ),
                    )
                    .expect(side.of(), expect),
                );
            }
        }
    }
    None
}

fn prevention_shields(s: &Subject<'_>) -> Option<Found> {
    if s.objects_act() {
        return None;
    }
    let source = s.case.setup.objects.first()?.id.clone();
    let creature = last_creature(s);
    let to = match &creature {
        Some((h, o)) if s.index % 32 == 0 => {
            // 122.1c: a shield counter would prevent all of either.
            if count(o, &CounterKind::named("shield")) > 0 {
                return None;
            }
            h.clone()
        }
        _ => s.case.setup.players.first()?.id.clone(),
    };
    let n = 1 + (s.index / 16 % 3) as i64;
    let d = 1 + (s.index / 16 % 5) as i64;
    let damage = |amount: i64| Step {
        sba: true,
        ..quiet(Action::Damage(Damage {
            from: source.clone(),
            to: to.clone(),
            amount: Quantity::Fixed(amount),
        }))
    };
    let shield = quiet(Action::Prevent(Prevention {
        to: to.clone(),
        amount: Count(n),
        name: None,
    }));
    let shielded = vec![shield, damage(d)];
    let mine = s.extend(&shielded)?.pop()?;
    let theirs = s.extend(&[damage((d - n).max(0))])?.pop()?;
    if mine != theirs {
        return Some(
            found(
                s.case.steps.len(),
                format!("a shield for the next {n} damage to {to}, then {d} damage from {source}, should leave the state that {} damage leaves (615.7)", (d - n).max(0)),
            )
            .on(extended(s.case, shielded))
            .expect_all(diff(&theirs, &mine)),
        );
    }
    None
}

fn combat_assignment(s: &Subject<'_>) -> Option<Found> {
    if s.objects_act() {
        return None;
    }
    // Each step checks state-based actions, as a real combat would.
    let checked = |action: Action| Step {
        sba: true,
        ..quiet(action)
    };
    let n = s.case.steps.len();
    let end = s.after(n.checked_sub(1)?)?;
    let you = s.case.setup.players.first()?.id.clone();
    let opponent = s.case.setup.players.get(1)?.id.clone();
    let mut attackers = Vec::new();
    let mut blockers = Vec::new();
    for (h, o) in &end.objects {
        if !on_bf(o) || !is_creature(o) || o.tapped || s.control_may_change(h, n) {
            continue;
        }
        let controller = s.spec(h)?.controller.clone().unwrap_or_else(|| you.clone());
        if controller == you && !o.summoning_sick {
            attackers.push(h.clone());
        } else if controller == opponent {
            blockers.push(h.clone());
        }
    }
    attackers.truncate(2);
    // 702.93a, 702.79a: a creature that dies and returns is a new object,
    // out of combat, which observations can't tell from the old one.
    let returns = end
        .objects
        .values()
        .any(|o| o.keywords.contains(&Keyword::Undying) || o.keywords.contains(&Keyword::Persist));
    if attackers.is_empty() || returns {
        return None;
    }
    // Without a creature of the other player, the second attacker changes
    // sides to block (layer 2, 613.1b).
    let mut prelude = Vec::new();
    if blockers.is_empty() && attackers.len() == 2 {
        let b = attackers.pop()?;
        prelude.push(checked(Action::GainControl(GainControl {
            object: b.clone(),
            player: opponent.clone(),
        })));
        blockers.push(b);
    }
    // Who blocks whom, and whether the attacking player asks for the
    // blockers in reverse: from the case's index, mixed so that every bit
    // varies among the sampled indices.
    let bits = super::generate::mix64(s.index);
    let mut decl: Vec<AttackDeclaration> = attackers
        .iter()
        .map(|a| AttackDeclaration {
            attacker: a.clone(),
            defender: None,
            blockers: Vec::new(),
        })
        .collect();
    for (i, b) in blockers.iter().enumerate().take(8) {
        match (bits >> (2 * i)) % 4 {
            0 => {}
            3 => decl.last_mut()?.blockers.push(b.clone()),
            _ => decl[0].blockers.push(b.clone()),
        }
    }
    // Often the first attacker gets trample and its first blocker some
    // damage first, so that lethal damage is not its toughness (702.19b).
    let first = &decl[0];
    let given_trample = bits >> 21 & 3 != 0;
    if given_trample {
        prelude.push(checked(effect_on(
            &first.attacker,
            EffectSpec {
                add_keywords: vec![Keyword::Trample],
                modify: "+3/+0".parse().ok(),
                ..EffectSpec::default()
            },
        )));
    }
    if let (false, Some(b)) = (bits >> 23 & 3 == 0, first.blockers.first()) {
        prelude.push(checked(Action::Damage(Damage {
            from: first.attacker.clone(),
            to: b.clone(),
            amount: Quantity::Fixed(1),
        })));
    }
    let divide: BTreeMap<Handle, Vec<Handle>> = if bits >> 20 & 1 == 1 {
        decl.iter()
            .filter(|a| a.blockers.len() > 1)
            .map(|a| {
                let mut order: Vec<Handle> = a.blockers.iter().rev().cloned().collect();
                // 702.19b: with trample, the rest goes to the player.
                let tramples = end
                    .objects
                    .get(&a.attacker)
                    .is_some_and(|o| o.keywords.contains(&Keyword::Trample));
                if tramples || given_trample && a.attacker == decl[0].attacker {
                    order.push(opponent.clone());
                }
                (a.attacker.clone(), order)
            })
            .collect()
    } else {
        BTreeMap::new()
    };
    let attack = checked(Action::Attack(decl.clone()));
    let step = checked(Action::CombatDamageStep(DamageStep {
        divide: divide.clone(),
        ..DamageStep::default()
    }));
    let combat = Combat {
        decl: &decl,
        divide: &divide,
        defender: &opponent,
        rules: s.edition.rules(),
    };
    let declared = s.extend(&[prelude.as_slice(), std::slice::from_ref(&attack)].concat())?;
    let (first, strikers) = combat.assignments(declared.last()?, None)?;
    let explicit = |v: Vec<CombatAssignment>| {
        checked(if v.is_empty() {
            Action::StateBasedActions
        } else {
            Action::CombatDamage(v)
        })
    };
    let mut theirs_steps = [prelude.as_slice(), &[attack.clone(), explicit(first)]].concat();
    let mut mine_steps = [prelude.as_slice(), &[attack, step.clone()]].concat();
    if let Some(strikers) = strikers {
        let mid = s.extend(&theirs_steps)?;
        let (second, _) = combat.assignments(mid.last()?, Some(&strikers))?;
        theirs_steps.push(explicit(second));
        mine_steps.push(step);
    }
    let mine = s.extend(&mine_steps)?;
    let theirs = s.extend(&theirs_steps)?;
    for k in prelude.len() + 1..mine.len() {
        if mine[k] != theirs[k] {
            let nth = k - prelude.len();
            return Some(
                found(
                    n + k,
                    format!("combat damage step {nth} should leave the state that assigning lethal damage to each blocker in turn leaves (510.1c, 702.19b, 510.4)"),
                )
                .on(extended(s.case, mine_steps[..=k].iter().cloned()))
                .expect_all(diff(&theirs[k], &mine[k])),
            );
        }
    }
    None
}

/// A declared combat, as the `combat-assignment` relation works it out
/// from observations alone.
struct Combat<'a> {
    decl: &'a [AttackDeclaration],
    divide: &'a BTreeMap<Handle, Vec<Handle>>,
    defender: &'a Handle,
    rules: &'static Rules,
}

impl Combat<'_> {
    /// The assignments of one combat damage step, in the order the
    /// resolver deals them; and, for a first-strike step, the creatures
    /// that had first or double strike (510.4).
    fn assignments(
        &self,
        obs: &Observation,
        first: Option<&[Handle]>,
    ) -> Option<(Vec<CombatAssignment>, Option<Vec<Handle>>)> {
        let in_combat = |h: &Handle| {
            obs.objects
                .get(h)
                .is_some_and(|o| on_bf(o) && is_creature(o))
        };
        let has =
            |h: &Handle, k: Keyword| obs.objects.get(h).is_some_and(|o| o.keywords.contains(&k));
        let strikes_first =
            |h: &Handle| has(h, Keyword::FirstStrike) || has(h, Keyword::DoubleStrike);
        let all: Vec<Handle> = self
            .decl
            .iter()
            .flat_map(|a| std::iter::once(&a.attacker).chain(&a.blockers))
            .filter(|h| in_combat(h))
            .cloned()
            .collect();
        let (assigns, strikers) = match first {
            None if all.iter().any(strikes_first) => {
                let f: Vec<Handle> = all.iter().filter(|h| strikes_first(h)).cloned().collect();
                (f.clone(), Some(f))
            }
            None => (all, None),
            Some(f) => (
                all.into_iter()
                    .filter(|h| !f.contains(h) || has(h, Keyword::DoubleStrike))
                    .collect(),
                None,
            ),
        };
        let power = |h: &Handle| -> Option<i64> { Some(obs.objects.get(h)?.pt?.power.max(0)) };
        let mut v = Vec::new();
        let mut assigned: BTreeMap<Handle, i64> = BTreeMap::new();
        let give = |v: &mut Vec<CombatAssignment>, from: &Handle, to: &Handle, amount: i64| {
            if amount > 0 {
                v.push(CombatAssignment {
                    from: from.clone(),
                    to: to.clone(),
                    amount: Some(Count(amount)),
                });
            }
        };
        for a in self.decl {
            let attacker_in = in_combat(&a.attacker);
            if attacker_in && assigns.contains(&a.attacker) {
                let p = power(&a.attacker)?;
                let trample = has(&a.attacker, Keyword::Trample);
                let deathtouch = has(&a.attacker, Keyword::Deathtouch);
                let mut live: Vec<&Handle> = a.blockers.iter().filter(|h| in_combat(h)).collect();
                let bound = self.rules.order_binds(deathtouch);
                if let (false, Some(order)) = (bound, self.divide.get(&a.attacker)) {
                    live.sort_by_key(|h| order.iter().position(|o| o == *h).unwrap_or(usize::MAX));
                }
                if a.blockers.is_empty() || (live.is_empty() && trample) {
                    give(&mut v, &a.attacker, self.defender, p);
                } else {
                    let mut left = p;
                    for (i, b) in live.iter().enumerate() {
                        let share = if i + 1 == live.len() && !trample {
                            left
                        } else {
                            let o = obs.objects.get(*b)?;
                            let so_far = assigned.get(*b).copied().unwrap_or(0);
                            let lethal = (o.pt?.toughness - o.damage - so_far).max(0);
                            let lethal =
                                if deathtouch && self.rules.deathtouch_assigns_one_as_lethal {
                                    lethal.min(1)
                                } else {
                                    lethal
                                };
                            lethal.min(left)
                        };
                        *assigned.entry((*b).clone()).or_default() += share;
                        left -= share;
                        give(&mut v, &a.attacker, b, share);
                    }
                    if !live.is_empty() {
                        give(&mut v, &a.attacker, self.defender, left);
                    }
                }
            }
            for b in &a.blockers {
                if attacker_in && in_combat(b) && assigns.contains(b) {
                    give(&mut v, b, &a.attacker, power(b)?);
                }
            }
        }
        Some((v, strikers))
    }
}

fn face_up_timestamp(s: &Subject<'_>) -> Option<Found> {
    // 613.1f: an effect that removes all abilities may remove its static
    // ability; explicit timestamps can come after the new one (613.7).
    let explicit = s
        .case
        .actions()
        .any(|a| matches!(a, Action::Effect(e) if e.timestamp.is_some()));
    if explicit || s.abilities_removed() {
        return None;
    }
    for (k, step) in s.steps() {
        // Turned face up (613.7f) or transformed (613.7g) for the first time.
        let (h, transform) = match &step.action {
            Action::TurnFaceUp(h) => (h, false),
            Action::Transform(h) => (h, true),
            _ => continue,
        };
        let Some(spec) = s.spec(h) else { continue };
        // 707.2: a copy's abilities are the original's, not its own.
        if becomes_copy(s.case, h) {
            continue;
        }
        // Face down or front face up until now: never turned or moved.
        let earlier = s.case.steps[..k]
            .iter()
            .any(|st| turns_or_moves(&st.action, h));
        let returns = [Keyword::Undying, Keyword::Persist]
            .iter()
            .any(|kw| spec.keywords.contains(kw));
        let turned = if transform {
            spec.back_face
                .as_deref()
                .filter(|_| !spec.face_down)
                .map(|b| &b.abilities)
        } else {
            spec.face_down.then_some(&spec.abilities)
        };
        let Some(abilities) = turned else { continue };
        if earlier || returns || !spec.level_up.is_empty() || s.objects_act() {
            continue;
        }
        let own: Vec<&EffectSpec> = abilities
            .iter()
            .filter(|a| a.set.is_some() && matches!(a.affects, Affects::This))
            .collect();
        let [ability] = own.as_slice() else { continue };
        let (Some(set), None) = (ability.set, &ability.x) else {
            continue;
        };
        let (Amount::Fixed(p), Amount::Fixed(t)) = (set.power, set.toughness) else {
            continue;
        };
        let want = Pt::new(p, t);
        let (Some(b), Some(a)) = (s.before(k)?.objects.get(h), s.after(k)?.objects.get(h)) else {
            continue;
        };
        if !on_bf(b) || !on_bf(a) || a.base_pt.is_none() {
            continue;
        }
        if a.base_pt != Some(want) {
            return Some(
                found(
                    k,
                    format!(
                        "{h} was {}: its new timestamp ({}) puts its own \"base P/T {want}\" after every effect created before, yet its base P/T is {}",
                        if transform { "transformed" } else { "turned face up" },
                        if transform { "613.7g" } else { "613.7f" },
                        PtOrNone::from_option(a.base_pt)
                    ),
                )
                .expect(
                    h,
                    Expect {
                        base_pt: Some(PtOrNone::Pt(want)),
                        ..Expect::default()
                    },
                ),
            );
        }
    }
    None
}

fn exact_arithmetic(s: &Subject<'_>) -> Option<Found> {
    let effects_list = |h: &Handle| {
        s.case.steps.iter().any(|st| match &st.action {
            Action::Effect(e) => matches!(&e.affects, Affects::Objects(v) if v.contains(h)),
            Action::Double(sc) | Action::Triple(sc) => sc.affects == *h,
            Action::Exchange(x) => x.values.iter().any(|v| v.of() == h),
            _ => false,
        }) || becomes_copy(s.case, h)
    };
    if s.global_pt_sources() {
        return None;
    }
    let check = |k: usize, obs: &Observation| -> Option<Found> {
        for o in &s.case.setup.objects {
            let Some(st) = obs.objects.get(&o.id) else {
                continue;
            };
            let Some(printed) = o.pt else { continue };
            // A P/T chosen as it enters (208.2b) is not a printed value;
            // 122.1a: counters count off the battlefield only since 2011-06-17.
            if effects_list(&o.id)
                || !(on_bf(st) || s.edition.rules().pt_counters_off_battlefield)
                || !is_creature(st)
                || !o.types.contains(&CardType::Creature)
                || !o.enters_as.is_empty()
            {
                continue;
            }
            let (mut p, mut t) = (
                printed.power.value(0)? as i128,
                printed.toughness.value(0)? as i128,
            );
            for (kind, n) in &st.counters {
                if let CounterKind::Pt { power, toughness } = kind {
                    p += *power as i128 * *n as i128;
                    t += *toughness as i128 * *n as i128;
                }
            }
            let fits = |v: i128| i64::try_from(v).is_ok();
            // K.10.3: the total counts a negative value as 0.
            let total = if s.edition.rules().negative_counts_as_zero {
                p.max(0) + t.max(0)
            } else {
                p + t
            };
            if !fits(p) || !fits(t) || !fits(total) {
                return Some(Found {
                    expect_error: Some(ErrorCode::Overflow),
                    ..found(
                        k,
                        format!(
                            "{} would be {p}/{t}, which does not fit in 64 bits, yet the step reported {}",
                            o.id,
                            st.pt.map_or("no P/T".into(), |x| x.to_string())
                        ),
                    )
                });
            }
            let want = Pt::new(p as i64, t as i64);
            if st.pt != Some(want) {
                return Some(
                    found(
                        k,
                        format!(
                            "{} is {} but printed {printed} plus its counters make {want}",
                            o.id,
                            PtOrNone::from_option(st.pt)
                        ),
                    )
                    .expect(&o.id, pt_expect(want)),
                );
            }
        }
        None
    };
    for (k, _) in s.steps() {
        if let Some(f) = check(k, s.after(k)?) {
            return Some(f);
        }
    }
    None
}

/// The counters left once +1/+1 and -1/-1 counters annihilate (122.3).
fn annihilated(o: &ObjectState) -> BTreeMap<CounterKind, i64> {
    let (p, m) = (
        count(o, &CounterKind::PLUS_ONE),
        count(o, &CounterKind::MINUS_ONE),
    );
    let n = p.min(m);
    let mut counters = o.counters.clone();
    counters.insert(CounterKind::PLUS_ONE, p - n);
    counters.insert(CounterKind::MINUS_ONE, m - n);
    counters.retain(|_, n| *n > 0);
    counters
}

fn counters_expect(counters: BTreeMap<CounterKind, i64>) -> Expect {
    Expect {
        counters: Some(counters),
        ..Expect::default()
    }
}

fn annihilation(s: &Subject<'_>) -> Option<Found> {
    if !s.edition.rules().counter_annihilation {
        return None;
    }
    for (k, _) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        for (h, o) in &s.after(k)?.objects {
            let (p, m) = (
                count(o, &CounterKind::PLUS_ONE),
                count(o, &CounterKind::MINUS_ONE),
            );
            if on_bf(o) && p > 0 && m > 0 {
                let message =
                    format!("{h} has {p} +1/+1 and {m} -1/-1 counters after state-based actions");
                return Some(found(k, message).expect(h, counters_expect(annihilated(o))));
            }
        }
    }
    None
}

fn annihilation_net(s: &Subject<'_>) -> Option<Found> {
    for (k, step) in s.steps() {
        if !matches!(step.action, Action::StateBasedActions) {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        for (h, b) in &before.objects {
            let Some(a) = after.objects.get(h) else {
                continue;
            };
            let spec = s.spec(h)?;
            if !on_bf(b) || !on_bf(a) || !spec.max_counters.is_empty() {
                continue;
            }
            if [Keyword::Undying, Keyword::Persist]
                .iter()
                .any(|k| b.keywords.contains(k))
            {
                continue;
            }
            let net = |o: &ObjectState| {
                count(o, &CounterKind::PLUS_ONE) as i128 - count(o, &CounterKind::MINUS_ONE) as i128
            };
            if net(a) != net(b) {
                let message = format!(
                    "{h} had a net of {} +1/+1 counters before the check and {} after",
                    net(b),
                    net(a)
                );
                return Some(found(k, message).expect(h, counters_expect(annihilated(b))));
            }
        }
    }
    None
}

fn no_zero_toughness(s: &Subject<'_>) -> Option<Found> {
    for (k, _) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        for (h, o) in &s.after(k)?.objects {
            if on_bf(o) && o.pt.is_some_and(|p| p.toughness <= 0) {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} is on the battlefield with toughness {} after state-based actions",
                            o.pt?.toughness
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            zone: Some(Zone::Graveyard),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

fn double_counters(s: &Subject<'_>) -> Option<Found> {
    // Abilities that change how many counters a player puts (614.1a).
    if s.case
        .setup
        .objects
        .iter()
        .any(|o| o.counters_put_by.is_some())
    {
        return None;
    }
    for (k, step) in s.steps() {
        let Action::DoubleCounters(d) = &step.action else {
            continue;
        };
        let (before, after) = (s.before(k)?, s.after(k)?);
        let (Some(b), Some(a), Some(spec)) = (
            before.objects.get(&d.on),
            after.objects.get(&d.on),
            s.spec(&d.on),
        ) else {
            continue;
        };
        let partner = match &d.kind {
            k if *k == CounterKind::PLUS_ONE => Some(CounterKind::MINUS_ONE),
            k if *k == CounterKind::MINUS_ONE => Some(CounterKind::PLUS_ONE),
            _ => None,
        };
        // 704.5q: the doubled counters could annihilate with the other kind.
        let annihilates = partner.is_some_and(|p| count(b, &p) > 0);
        let returns = [Keyword::Undying, Keyword::Persist]
            .iter()
            .any(|kw| b.keywords.contains(kw) || a.keywords.contains(kw));
        if !on_bf(b) || !on_bf(a) || returns || annihilates || !spec.max_counters.is_empty() {
            continue;
        }
        // 613.1f: "can't have counters put on it" is an ability, gone with
        // the others; 708.2a: face down, it has none either.
        if spec.cant_have_counters_put && (s.abilities_removed() || s.turned_over(&d.on)) {
            continue;
        }
        let had = count(b, &d.kind);
        let want = if spec.cant_have_counters_put {
            had
        } else {
            had.checked_mul(2)?
        };
        if count(a, &d.kind) != want {
            let mut counters = a.counters.clone();
            counters.insert(d.kind.clone(), want);
            counters.retain(|_, n| *n != 0);
            return Some(
                found(
                    k,
                    format!(
                        "{} had {had} {} counter(s); doubling them left {}, not {want}",
                        d.on,
                        d.kind,
                        count(a, &d.kind)
                    ),
                )
                .expect(
                    &d.on,
                    Expect {
                        counters: Some(counters),
                        ..Expect::default()
                    },
                ),
            );
        }
    }
    None
}

fn shield_counters(s: &Subject<'_>) -> Option<Found> {
    let shield = CounterKind::named("shield");
    for (k, step) in s.steps() {
        let mut targets: Vec<&Handle> = match &step.action {
            Action::Damage(d) => vec![&d.to],
            Action::CombatDamage(v) => v.iter().map(|a| &a.to).collect(),
            _ => continue,
        };
        targets.sort();
        targets.dedup();
        let (before, after) = (s.before(k)?, s.after(k)?);
        for h in targets {
            if !shielded(before, h) {
                continue;
            }
            let (Some(b), Some(a)) = (before.objects.get(h), after.objects.get(h)) else {
                continue;
            };
            // Undying and persist may return it as a new object, without
            // its counters (400.7).
            let returns = [Keyword::Undying, Keyword::Persist]
                .iter()
                .any(|kw| b.keywords.contains(kw) || a.keywords.contains(kw));
            if returns {
                continue;
            }
            if !on_bf(a) {
                // Nothing but the damage it was spared could take a creature
                // that was alive and undamaged enough, while nothing else
                // changes its P/T or who is in the game.
                let stable = !s.global_pt_sources()
                    && !s.case.actions().any(
                        |x| matches!(x, Action::Effect(e) if e.until == Some(Until::SourceLeaves)),
                    )
                    && !after.players.values().any(|p| p.lost);
                let alive =
                    b.pt.is_some_and(|p| p.toughness > 0 && b.damage < p.toughness)
                        && !b.deathtouch_damage
                        && on_bf(b);
                if stable && alive {
                    return Some(
                        found(
                            k,
                            format!("{h} had {} shield counter(s), yet it left the battlefield in a damage step", count(b, &shield)),
                        )
                        .expect(
                            h,
                            Expect {
                                zone: Some(Zone::Battlefield),
                                ..Expect::default()
                            },
                        ),
                    );
                }
                continue;
            }
            let lost = count(b, &shield) - count(a, &shield);
            if a.damage > b.damage {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} had {} shield counter(s), yet its marked damage went from {} to {}",
                            count(b, &shield),
                            b.damage,
                            a.damage
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            damage: Some(b.damage),
                            ..Expect::default()
                        },
                    ),
                );
            }
            if lost > 1 {
                return Some(found(
                    k,
                    format!(
                        "{h} lost {lost} shield counters to one damage step; one prevents all of it"
                    ),
                ));
            }
        }
    }
    None
}

fn defeated_battles(s: &Subject<'_>) -> Option<Found> {
    let defense = CounterKind::named("defense");
    // 613.1f, 613.1d: without its abilities or its battle type a Siege has
    // no ability to trigger, and 704.5v puts it into the graveyard.
    let silenced = s.case.actions().any(|a| {
        matches!(a, Action::Effect(e) if e.remove_all_abilities || e.remove_types.contains(&CardType::Battle))
    }) || s.case.setup.objects.iter().flat_map(|o| o.static_abilities()).any(|a| {
        a.remove_all_abilities || a.remove_types.contains(&CardType::Battle)
    });
    for (k, step) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        for (h, a) in &after.objects {
            if !a.types.contains(&CardType::Battle) {
                continue;
            }
            if on_bf(a) && count(a, &defense) == 0 {
                return Some(found(
                    k,
                    format!(
                        "{h} is a battle on the battlefield with defense 0 after state-based actions"
                    ),
                ));
            }
            let removes = match &step.action {
                Action::Damage(d) => d.to == *h,
                Action::CombatDamage(v) => v.iter().any(|d| d.to == *h),
                Action::RemoveCounters(r) => r.from == *h,
                Action::MoveCounters(m) => m.from == *h,
                _ => false,
            };
            let Some(b) = before.objects.get(h) else {
                continue;
            };
            if removes
                && !silenced
                && s.spec(h).is_some_and(is_siege)
                && on_bf(b)
                && !is_creature(b)
                && b.types.contains(&CardType::Battle)
                && count(b, &defense) > 0
                && a.zone == Zone::Graveyard
            {
                return Some(
                    found(
                        k,
                        format!("{h}, a Siege, lost its last defense counter and was put into the graveyard instead of being exiled by its own ability"),
                    )
                    .expect(
                        h,
                        Expect {
                            zone: Some(Zone::Exile),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

fn no_lethal_damage(s: &Subject<'_>) -> Option<Found> {
    for (k, _) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        for (h, o) in &s.after(k)?.objects {
            let Some(p) = o.pt else { continue };
            if on_bf(o)
                && p.toughness > 0
                && o.damage >= p.toughness
                && !o.keywords.contains(&Keyword::Indestructible)
            {
                let e = if o.regeneration_shields > 0 {
                    Expect {
                        damage: Some(0),
                        tapped: Some(true),
                        ..Expect::default()
                    }
                } else {
                    Expect {
                        zone: Some(Zone::Graveyard),
                        ..Expect::default()
                    }
                };
                return Some(
                    found(
                        k,
                        format!(
                            "{h} has {} damage and toughness {} after state-based actions",
                            o.damage, p.toughness
                        ),
                    )
                    .expect(h, e),
                );
            }
        }
    }
    None
}

/// The amount a step deals from `from` to `to` as it resolves (none for
/// amounts it can't tell without the resolver).
fn dealt(before: &Observation, from: &Handle, amount: &Quantity) -> Option<i64> {
    match amount {
        Quantity::Fixed(n) => Some((*n).max(0)),
        Quantity::Ref(r) => match r.as_ref() {
            QuantityRef::PowerOf(h) => {
                let o = before.objects.get(h)?;
                let pt = if on_bf(o) {
                    o.pt
                } else {
                    o.lki.as_ref().map_or(o.pt, |l| l.pt)
                };
                let _ = from;
                Some(pt.map_or(0, |p| p.power).max(0))
            }
            _ => None,
        },
    }
}

fn deathtouch_destroys(s: &Subject<'_>) -> Option<Found> {
    // Before Magic 2010 deathtouch is a trigger of a permanent on the
    // battlefield (502.63a, 402.8 of 2007; D71): a mark left by an earlier
    // step says nothing of whether a trigger waits, a source off the
    // battlefield triggers nothing, and a trigger whose controller lost
    // does nothing (800.4a).
    let triggered = !s.edition.rules().deathtouch_static;
    for (k, step) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        let mut touched: Vec<Handle> = before
            .objects
            .iter()
            .filter(|(_, o)| !triggered && on_bf(o) && o.deathtouch_damage)
            .map(|(h, _)| h.clone())
            .collect();
        let hits: Vec<(Handle, Handle, Option<i64>)> = match &step.action {
            Action::Damage(d) => vec![(
                d.from.clone(),
                d.to.clone(),
                dealt(before, &d.from, &d.amount),
            )],
            Action::CombatDamage(v) => v
                .iter()
                .map(|a| {
                    let p = before
                        .objects
                        .get(&a.from)
                        .and_then(|o| o.pt)
                        .map(|p| p.power.max(0));
                    (a.from.clone(), a.to.clone(), a.amount.map(|c| c.0).or(p))
                })
                .collect(),
            _ => Vec::new(),
        };
        for (from, to, amount) in hits {
            if amount.is_some_and(|a| a > 0)
                && source_keywords(before, &from).contains(&Keyword::Deathtouch)
                && !shielded(before, &to)
                && !s.prevented(k, &to)
                && (!triggered || before.objects.get(&from).is_some_and(on_bf))
            {
                touched.push(to);
            }
        }
        for h in touched {
            let (Some(b), Some(a)) = (before.objects.get(&h), after.objects.get(&h)) else {
                continue;
            };
            let spared = b.keywords.contains(&Keyword::Indestructible)
                || a.keywords.contains(&Keyword::Indestructible)
                || b.regeneration_shields > 0
                || matches!(&step.action, Action::Regenerate(r) if *r == h)
                // 702.79a, 702.93a: the ability may be back by the check
                // (a cleanup ends "loses all abilities"), so look at both sides.
                || [Keyword::Undying, Keyword::Persist]
                    .iter()
                    .any(|kw| b.keywords.contains(kw) || a.keywords.contains(kw))
                || !is_creature(b)
                || !is_creature(a)
                || b.pt.is_some_and(|p| p.toughness <= 0)
                || triggered && after.players.values().any(|p| p.lost);
            if on_bf(b) && on_bf(a) && !spared {
                return Some(found(k, format!("{h} was dealt deathtouch damage and is still on the battlefield after state-based actions")).expect(&h, Expect { zone: Some(Zone::Graveyard), ..Expect::default() }));
            }
        }
    }
    None
}

fn combat_damage(s: &Subject<'_>) -> Option<Found> {
    // 120.3b: infect damage gives poison counters, and those are counters
    // a player puts, which such abilities change.
    if s.counter_rules() {
        return None;
    }
    for (k, step) in s.steps() {
        let Action::CombatDamage(v) = &step.action else {
            continue;
        };
        // Before Magic 2010 a lifelink trigger of an earlier step with
        // `sba: false` may resolve in this one (D37).
        if !s.edition.rules().lifelink_static && (0..k).any(|j| !s.checked(j)) {
            return None;
        }
        // 615.7: a prevention shield takes some of the damage.
        if v.iter().any(|a| s.prevented(k, &a.to)) {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        let mut life: BTreeMap<Handle, i128> = BTreeMap::new();
        let mut poison: BTreeMap<Handle, i128> = BTreeMap::new();
        for a in v {
            let src = before.objects.get(&a.from)?;
            let power = src.pt?.power;
            let amount = a.amount.map_or(power.max(0), |c| c.0) as i128;
            if amount == 0 {
                continue;
            }
            let kws = source_keywords(before, &a.from);
            let dealt_to_something = if before.players.contains_key(&a.to) {
                if kws.contains(&Keyword::Infect) {
                    *poison.entry(a.to.clone()).or_default() += amount;
                } else {
                    *life.entry(a.to.clone()).or_default() -= amount;
                }
                true
            } else {
                let t = before.objects.get(&a.to)?;
                on_bf(t)
                    && !shielded(before, &a.to)
                    && (is_creature(t)
                        || t.types.contains(&CardType::Planeswalker)
                        || t.types.contains(&CardType::Battle))
            };
            if dealt_to_something && kws.contains(&Keyword::Lifelink) {
                // 702.15b: the life goes to the source's controller, which
                // the observations don't show; known only while nothing
                // changed it.
                if s.control_may_change(&a.from, k) {
                    return None;
                }
                let controller = s
                    .spec(&a.from)?
                    .controller
                    .clone()
                    .unwrap_or_else(|| s.case.setup.players[0].id.clone());
                // Before Magic 2010 the life comes from a trigger, which a
                // player who lost first never sees resolve, and which waits
                // for the state-based actions a step with `sba: false`
                // leaves out (D37).
                if !s.edition.rules().lifelink_static
                    && (after.players.get(&controller)?.lost || !s.checked(k))
                {
                    return None;
                }
                *life.entry(controller).or_default() += amount;
            }
        }
        for (h, p) in &before.players {
            let a = after.players.get(h)?;
            let want_life = p.life as i128 + life.get(h).copied().unwrap_or(0);
            let want_poison = p.poison as i128 + poison.get(h).copied().unwrap_or(0);
            if a.life as i128 != want_life || a.poison as i128 != want_poison {
                let (Ok(l), Ok(q)) = (i64::try_from(want_life), i64::try_from(want_poison)) else {
                    return None;
                };
                return Some(found(k, format!("{h} went from {} life and {} poison to {} and {}; max(0, power) per assignment gives {l} and {q}", p.life, p.poison, a.life, a.poison)).expect(h, Expect { life: Some(l), poison: Some(q), ..Expect::default() }));
            }
        }
    }
    None
}

fn plus_x(s: &Subject<'_>) -> Option<Found> {
    if s.thresholds() || s.switches() {
        return None;
    }
    for (k, step) in s.steps() {
        let Action::Effect(e) = &step.action else {
            continue;
        };
        let (Affects::Objects(v), Some(m), Some(Quantity::Ref(r))) = (&e.affects, e.modify, &e.x)
        else {
            continue;
        };
        let [t] = v.as_slice() else { continue };
        let QuantityRef::PowerOf(of) = r.as_ref() else {
            continue;
        };
        if of != t || step.sba || e.has_early_parts() || e.sets_pt() || e.switch || !m.uses_x() {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        let (b, a) = (before.objects.get(t)?, after.objects.get(t)?);
        if !on_bf(b) || !is_creature(b) {
            continue;
        }
        // 611.2b: an effect lasting while its source is on the battlefield
        // does nothing if the source has already left.
        if let (Some(Until::SourceLeaves), Some(src)) = (e.until, &e.source) {
            if !before.objects.get(src).is_some_and(on_bf) {
                continue;
            }
        }
        let bp = b.pt?;
        let x = if s.edition.rules().clamp_negative_modification {
            bp.power.max(0)
        } else {
            bp.power
        };
        let dp = m.power.value(x)?;
        let dt = m.toughness.value(x)?;
        let want = Pt::new(bp.power.checked_add(dp)?, bp.toughness.checked_add(dt)?);
        if a.pt != Some(want) {
            return Some(
                found(
                    k,
                    format!(
                        "{t} was {bp}; {m} with X = its power ({}) gives {want}, but it is {}",
                        bp.power,
                        PtOrNone::from_option(a.pt)
                    ),
                )
                .expect(t, pt_expect(want)),
            );
        }
    }
    None
}

fn mana(s: &Subject<'_>) -> Option<Found> {
    for (k, step) in s.steps() {
        let Action::AddMana(m) = &step.action else {
            continue;
        };
        let (before, after) = (s.before(k)?, s.after(k)?);
        let player = m
            .player
            .clone()
            .unwrap_or_else(|| s.case.setup.players[0].id.clone());
        let amount = dealt(before, &player, &m.amount)?;
        let have = |o: &PlayerState| o.mana.0.get(&m.mana).map_or(0, |c| c.0) as i128;
        let (pb, pa) = (before.players.get(&player)?, after.players.get(&player)?);
        let want = have(pb) + amount as i128;
        if have(pa) != want {
            let mut pool = pb.mana.normalized();
            pool.0.insert(m.mana, Count(i64::try_from(want).ok()?));
            return Some(found(k, format!("{player} had {} {{{}}} and the ability should add {amount}, but the pool holds {}", have(pb), m.mana, have(pa))).expect(&player, Expect { mana: Some(pool.normalized()), ..Expect::default() }));
        }
    }
    None
}

/// A case with more steps at its end.
fn extended(case: &Case, steps: impl IntoIterator<Item = Step>) -> Case {
    let mut c = case.clone();
    c.steps.extend(steps);
    c
}

fn quiet(action: Action) -> Step {
    Step {
        action,
        sba: false,
        expect: BTreeMap::new(),
        expect_in: BTreeMap::new(),
        expect_error: None,
        note: None,
    }
}

/// A creature on the battlefield at the end of the run, for appended steps.
fn last_creature(s: &Subject<'_>) -> Option<(Handle, ObjectState)> {
    if s.run.error.is_some() || s.run.steps.len() != s.case.steps.len() {
        return None;
    }
    let last = s.run.steps.last()?;
    let pick = (s.index as usize) % last.observation.objects.len().max(1);
    let mut creatures = last
        .observation
        .objects
        .iter()
        .filter(|(_, o)| on_bf(o) && is_creature(o));
    let first = creatures.clone().next();
    creatures
        .nth(pick)
        .or(first)
        .map(|(h, o)| (h.clone(), o.clone()))
}

fn effect_on(h: &Handle, spec: EffectSpec) -> Action {
    Action::Effect(Box::new(EffectSpec {
        affects: Affects::Objects(vec![h.clone()]),
        until: Some(Until::Forever),
        ..spec
    }))
}

fn setting_keeps_modifications(s: &Subject<'_>) -> Option<Found> {
    if s.thresholds() || s.switches() {
        return None;
    }
    let t = s.tail()?;
    // After the two switches (which cancel), the setting effect: 7b under
    // everything in 7c, so base becomes the set value and the rest stays.
    let before = t.after[1].objects.get(&t.creature)?;
    let a = t.after[2].objects.get(&t.creature)?;
    let (bp, bb, set) = (before.pt?, before.base_pt?, t.set);
    let want = Pt::new(
        set.power.checked_add(bp.power.checked_sub(bb.power)?)?,
        set.toughness
            .checked_add(bp.toughness.checked_sub(bb.toughness)?)?,
    );
    if a.pt != Some(want) || a.base_pt != Some(set) {
        let c = &t.creature;
        return Some(found(s.case.steps.len() + 2, format!("{c} was {bp} on base {bb}; becoming {set} should give {want} with base {set}, but it is {} with base {}", PtOrNone::from_option(a.pt), PtOrNone::from_option(a.base_pt))).on(extended(s.case, t.steps.iter().cloned())).expect(c, Expect { pt: Some(PtOrNone::Pt(want)), base_pt: Some(PtOrNone::Pt(set)), ..Expect::default() }));
    }
    None
}

/// Whether an effect step only modifies P/T, by fixed amounts.
fn plain_modification(step: &Step) -> bool {
    matches!(&step.action, Action::Effect(e) if e.modify.is_some() && e.x.is_none() && !e.sets_pt() && !e.switch && !e.has_early_parts() && e.timestamp.is_none() && matches!(e.affects, Affects::Objects(_)))
}

/// 604.3a, 613.4b, 613.1f: see the `granted-pt-ability` invariant. Played
/// after the run, without state-based actions, on one creature: either an
/// ability granted with a value that does not change (fixed, or the
/// creature's own +1/+1 counters) against setting that value, or the
/// grant followed by losing all abilities against losing them alone.
fn granted_pt_ability(s: &Subject<'_>) -> Option<Found> {
    let (h, before) = last_creature(s)?;
    let turn = s.index / 16;
    let grant = |q: Quantity| {
        quiet(effect_on(
            &h,
            EffectSpec {
                name: Some("Test Granted Rampart".into()),
                grant_pt_ability: Some(crate::scenario::Cda {
                    power: Some(q.clone()),
                    toughness: Some(q),
                }),
                ..EffectSpec::default()
            },
        ))
    };
    if turn % 2 == 0 {
        let (q, n) = if turn % 4 == 0 {
            let n = (turn / 4 % 5) as i64;
            (Quantity::Fixed(n), n)
        } else {
            let kind = CounterKind::PLUS_ONE;
            let n = count(&before, &kind);
            let on = crate::scenario::CountersOn {
                on: h.clone(),
                kind,
            };
            (Quantity::Ref(Box::new(QuantityRef::Counters(on))), n)
        };
        let setting = quiet(effect_on(
            &h,
            EffectSpec {
                name: Some("becomes a fixed P/T".into()),
                set: Some(crate::number::SetPt {
                    power: crate::number::Amount::Fixed(n),
                    toughness: crate::number::Amount::Fixed(n),
                }),
                ..EffectSpec::default()
            },
        ));
        let granted = grant(q);
        let want = s.extend(std::slice::from_ref(&setting))?;
        let got = s.extend(std::slice::from_ref(&granted))?;
        let (want, got) = (want.first()?, got.first()?);
        if want != got {
            return Some(found(s.case.steps.len() + 1, format!("granting {h} an ability that makes its power and toughness each {n} should change it as setting it to {n}/{n} does (7b, the newest setting effect; 604.3a, 613.4b): {} instead of {}", show_pt(got, &h), show_pt(want, &h))).on(extended(s.case, [granted])).expect_all(diff(want, got)));
        }
        return None;
    }
    let silence = quiet(effect_on(
        &h,
        EffectSpec {
            name: Some("loses all abilities".into()),
            remove_all_abilities: true,
            ..EffectSpec::default()
        },
    ));
    let granted = grant(Quantity::Fixed((turn / 2 % 5) as i64));
    let want = s.extend(std::slice::from_ref(&silence))?;
    let got = s.extend(&[granted.clone(), silence.clone()])?;
    let (want, got) = (want.first()?, got.get(1)?);
    if want != got {
        return Some(found(s.case.steps.len() + 2, format!("{h} lost all abilities after an effect granted it an ability that defines its P/T: that ability is gone too (613.1f), so it should be as if it never had it: {} instead of {}", show_pt(got, &h), show_pt(want, &h))).on(extended(s.case, [granted, silence])).expect_all(diff(want, got)));
    }
    None
}

/// The P/T of `h` in an observation, for messages.
fn show_pt(o: &Observation, h: &Handle) -> String {
    PtOrNone::from_option(o.objects.get(h).and_then(|x| x.pt)).to_string()
}

fn modifications_commute(s: &Subject<'_>) -> Option<Found> {
    if s.thresholds() {
        return None;
    }
    let k = (0..s.run.steps.len().saturating_sub(1)).find(|&k| {
        let (a, b) = (&s.case.steps[k], &s.case.steps[k + 1]);
        plain_modification(a) && plain_modification(b) && !a.sba && b.expect.is_empty()
    })?;
    let mut variant = s.case.clone();
    variant.steps.swap(k, k + 1);
    variant.steps[k].sba = false;
    variant.steps[k + 1].sba = s.case.steps[k + 1].sba;
    let run = s.resolve(&variant);
    let (mine, theirs) = (s.after(k + 1)?, &run.steps.get(k + 1)?.observation);
    if mine != theirs {
        return Some(found(k + 1, format!("swapping steps {} and {} (two modifications in 7c) changes the state after them", k + 1, k + 2)).on(variant).expect_all(diff(theirs, mine)));
    }
    None
}

impl Found {
    fn expect_all(mut self, e: BTreeMap<Handle, Expect>) -> Found {
        self.expect = e;
        self
    }
}

fn two_switches(s: &Subject<'_>) -> Option<Found> {
    let t = s.tail()?;
    let start = &s.run.steps.last()?.observation;
    let end = &t.after[1];
    if start != end {
        return Some(
            found(
                s.case.steps.len() + 1,
                format!("two switches of {} do not cancel out", t.creature),
            )
            .on(extended(s.case, t.steps[..2].iter().cloned()))
            .expect_all(diff(end, start)),
        );
    }
    None
}

fn switch_swaps(s: &Subject<'_>) -> Option<Found> {
    let t = s.tail()?;
    let (c, before) = (&t.creature, &t.before);
    let a = t.after[0].objects.get(c)?;
    let bp = before.pt?;
    let want = Pt::new(bp.toughness, bp.power);
    if a.pt != Some(want) || a.base_pt != before.base_pt || a.counters != before.counters {
        return Some(
            found(
                s.case.steps.len(),
                format!(
                    "{c} was {bp}; one switch should make it {want}, but it is {}",
                    PtOrNone::from_option(a.pt)
                ),
            )
            .on(extended(s.case, t.steps[..1].iter().cloned()))
            .expect(
                c,
                Expect {
                    pt: Some(PtOrNone::Pt(want)),
                    base_pt: before.base_pt.map(PtOrNone::Pt),
                    counters: Some(before.counters.clone()),
                    ..Expect::default()
                },
            ),
        );
    }
    None
}

fn damage_keeps_toughness(s: &Subject<'_>) -> Option<Found> {
    for (k, step) in s.steps() {
        let Action::Damage(d) = &step.action else {
            continue;
        };
        if step.sba {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        let kws = source_keywords(before, &d.from);
        if kws.contains(&Keyword::Wither) || kws.contains(&Keyword::Infect) {
            continue;
        }
        for (h, b) in &before.objects {
            let a = after.objects.get(h)?;
            if on_bf(b) && a.pt != b.pt {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} was {} and is {} after being dealt damage",
                            PtOrNone::from_option(b.pt),
                            PtOrNone::from_option(a.pt)
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            pt: Some(PtOrNone::from_option(b.pt)),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

fn cleanup_clears(s: &Subject<'_>) -> Option<Found> {
    for (k, step) in s.steps() {
        if !matches!(step.action, Action::Cleanup) {
            continue;
        }
        let after = s.after(k)?;
        for (h, o) in &after.objects {
            if on_bf(o) && (o.damage != 0 || o.regeneration_shields != 0) {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} has {} damage and {} regeneration shields after cleanup",
                            o.damage, o.regeneration_shields
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            damage: Some(0),
                            regeneration_shields: Some(0),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
        for (h, p) in &after.players {
            if !p.mana.is_empty() {
                return Some(
                    found(k, format!("{h}'s mana pool is {} after cleanup", p.mana)).expect(
                        h,
                        Expect {
                            mana: Some(ManaPool::default()),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

fn cleanup_ends_effects(s: &Subject<'_>) -> Option<Found> {
    let cleanup = s
        .steps()
        .find(|(_, st)| matches!(st.action, Action::Cleanup))
        .map(|(k, _)| k)?;
    let reads_pt = |st: &Step| match &st.action {
        Action::Effect(e) => e.x.is_some() || e.timestamp.is_some(),
        Action::Damage(d) => matches!(d.amount, Quantity::Ref(_)),
        Action::AddMana(_)
        | Action::CombatDamage(_)
        | Action::Double(_)
        | Action::Triple(_)
        | Action::Crew(_) => true,
        _ => false,
    };
    let explicit_ts = s.case.setup.objects.iter().any(|o| o.timestamp.is_some());
    // A creature that dies and returns is a new object, and which effects
    // outlive it depends on when that happens: keep to runs where nothing
    // changes zones before the cleanup.
    let returns = s.case.setup.objects.iter().any(|o| o.keywords.iter().any(|k| matches!(k, Keyword::Undying | Keyword::Persist)))
        || s.case.steps.iter().any(|st| matches!(&st.action, Action::Effect(e) if e.add_keywords.iter().any(|k| matches!(k, Keyword::Undying | Keyword::Persist))));
    let moves = s.case.steps[..cleanup]
        .iter()
        .any(|st| matches!(st.action, Action::Move(_)));
    if explicit_ts || returns || moves || s.case.steps[..cleanup].iter().any(reads_pt) {
        return None;
    }
    let zones_hold = |run: &Run, upto: usize| {
        run.steps.iter().take(upto).all(|o| {
            s.case.setup.objects.iter().all(|spec| {
                o.observation
                    .objects
                    .get(&spec.id)
                    .is_some_and(|st| st.zone == spec.zone)
            })
        })
    };
    if !zones_hold(s.run, cleanup) {
        return None;
    }
    let is_eot =
        |st: &Step| matches!(&st.action, Action::Effect(e) if e.until == Some(Until::EndOfTurn));
    let removed: Vec<usize> = (0..cleanup).filter(|&k| is_eot(&s.case.steps[k])).collect();
    let &first = removed.first()?;
    // 611.2c: a later effect with a filter locks in the objects that match
    // as it resolves, and what matches may depend on an "until end of turn"
    // effect; that locked set outlives the cleanup.
    let locks_after = s.case.steps[first..cleanup].iter().any(|st| {
        matches!(&st.action, Action::Effect(e) if !is_eot(st) && matches!(e.affects, Affects::Filter(_)))
    });
    if locks_after {
        return None;
    }
    let mut variant = s.case.clone();
    variant.steps = s
        .case
        .steps
        .iter()
        .enumerate()
        .filter(|(k, _)| !removed.contains(k))
        .map(|(_, st)| st.clone())
        .collect();
    let run = s.resolve(&variant);
    let vk = cleanup - removed.len();
    if !zones_hold(&run, vk) {
        return None;
    }
    let (mine_before, theirs_before) = (
        s.before(cleanup)?,
        if vk == 0 {
            run.initial.as_ref()?
        } else {
            &run.steps.get(vk - 1)?.observation
        },
    );
    // Only P/T-related values may differ before cleanup; anything else
    // (a death, counters, life) would carry past the cleanup.
    let strip = |o: &Observation| {
        let mut o = o.clone();
        for st in o.objects.values_mut() {
            st.pt = None;
            st.base_pt = None;
            st.total = None;
            st.combat_damage = None;
            st.types.clear();
            st.keywords.clear();
            st.colors.clear();
        }
        o
    };
    if strip(mine_before) != strip(theirs_before) {
        return None;
    }
    let (mine, theirs) = (s.after(cleanup)?, &run.steps.get(vk)?.observation);
    if mine != theirs {
        return Some(found(cleanup, "after cleanup the state differs from the same case without its \"until end of turn\" effects").expect_all(diff(mine, theirs)));
    }
    None
}

fn zone_change(s: &Subject<'_>) -> Option<Found> {
    // 122.6: entering with counters is putting them on it, so what changes
    // how many counters are put changes what it enters with.
    if s.counter_rules() {
        return None;
    }
    for (k, step) in s.steps() {
        let Action::Move(m) = &step.action else {
            continue;
        };
        if step.sba {
            continue;
        }
        let a = s.after(k)?.objects.get(&m.object)?;
        let spec = s.spec(&m.object)?;
        let mut want = BTreeMap::new();
        if m.to == Zone::Battlefield {
            for (kind, n) in &m.counters {
                want.insert(kind.clone(), n.0);
            }
            if let (Some(l), true) = (spec.loyalty, spec.types.contains(&CardType::Planeswalker)) {
                *want.entry(CounterKind::named("loyalty")).or_insert(0) += l.0;
            }
            // 310.4b: a battle enters with its printed defense.
            if let (Some(d), true) = (spec.defense, spec.types.contains(&CardType::Battle)) {
                *want.entry(CounterKind::named("defense")).or_insert(0) += d.0;
            }
            want.retain(|_, n| *n > 0);
        }
        if a.counters != want || a.damage != 0 || a.tapped || a.regeneration_shields != 0 {
            return Some(
                found(
                    k,
                    format!(
                        "{} moved to the {} and has counters {:?}, {} damage, tapped {}",
                        m.object, m.to, a.counters, a.damage, a.tapped
                    ),
                )
                .expect(
                    &m.object,
                    Expect {
                        counters: Some(want),
                        damage: Some(0),
                        tapped: Some(false),
                        regeneration_shields: Some(0),
                        ..Expect::default()
                    },
                ),
            );
        }
    }
    None
}

fn sba_fixpoint(s: &Subject<'_>) -> Option<Found> {
    let done = s.run.steps.len();
    if done == 0 {
        return None;
    }
    // The same step the examiner keeps a saved state for, on odd indices
    // (even ones continue past the end instead).
    let k = s.index as usize % s.case.steps.len().max(1);
    if k >= done || !s.checked(k) {
        return None;
    }
    let (mine, theirs) = (s.after(k)?, &s.recheck(k)?);
    if mine != theirs {
        return Some(
            found(
                k,
                format!(
                    "checking state-based actions again after step {} changes the state",
                    k + 1
                ),
            )
            .expect_all(diff(mine, theirs)),
        );
    }
    None
}

/// What a case uses that some edition reads differently.
#[derive(Default)]
struct EditionSensitive {
    double: bool,
    triple: bool,
    keyword_counters: bool,
    hone_counters: bool,
    /// -1/-1 counters, or what makes them (wither, infect, persist).
    minus_counters: bool,
    /// Setting effects, including level up.
    set: bool,
    /// Effects whose affected set depends on power or toughness: which
    /// objects they affect is decided in the sublayer they apply in (613.6),
    /// so moving counters to another sublayer can change it.
    pt_conditions: bool,
    /// Lifelink, a triggered ability before Magic 2010 (2007-05 CR
    /// 502.68a; D37) and static since (702.15b).
    lifelink: bool,
    /// A combat damage step with the attacking player's order of
    /// blockers, which the damage assignment order overrides from 2009-07
    /// to 2024-06-07 (509.2, D45).
    divided_combat: bool,
}

impl EditionSensitive {
    fn of(case: &Case) -> EditionSensitive {
        let mut u = EditionSensitive::default();
        let kind = |u: &mut EditionSensitive, k: &CounterKind| match k {
            CounterKind::Keyword(k) => {
                u.keyword_counters = true;
                u.lifelink |= *k == Keyword::Lifelink;
            }
            CounterKind::Named(n) if n == "hone" => u.hone_counters = true,
            CounterKind::Pt { power, toughness } if *power < 0 || *toughness < 0 => {
                u.minus_counters = true
            }
            _ => {}
        };
        let keywords = |u: &mut EditionSensitive, ks: &[Keyword]| {
            u.lifelink |= ks.contains(&Keyword::Lifelink);
            if ks
                .iter()
                .any(|k| matches!(k, Keyword::Wither | Keyword::Infect | Keyword::Persist))
            {
                u.minus_counters = true;
            }
        };
        let effect = |u: &mut EditionSensitive, e: &EffectSpec| {
            u.set |= e.sets_pt();
            u.pt_conditions |= matches!(&e.affects, Affects::Filter(f) if f.tests_pt());
            keywords(u, &e.add_keywords);
        };
        for o in &case.setup.objects {
            for k in o.counters.keys().chain(o.enters_with.keys()) {
                kind(&mut u, k);
            }
            keywords(&mut u, &o.keywords);
            for a in o.static_abilities() {
                effect(&mut u, a);
            }
            u.set |= !o.level_up.is_empty();
            for band in &o.level_up {
                keywords(&mut u, &band.keywords);
            }
        }
        for action in case.actions() {
            match action {
                Action::PutCounters(c) => kind(&mut u, &c.kind),
                Action::DoubleCounters(c) => kind(&mut u, &c.kind),
                Action::MoveCounters(c) => kind(&mut u, &c.kind),
                Action::PutCountersFrom(c) => c.kinds.iter().for_each(|k| kind(&mut u, k)),
                Action::Move(m) => m.counters.keys().for_each(|k| kind(&mut u, k)),
                Action::Effect(e) => effect(&mut u, e),
                Action::Double(_) => u.double = true,
                Action::Triple(_) => u.triple = true,
                // 701.12g: an exchange leaves setting effects.
                Action::Exchange(_) => u.set = true,
                // 510.1c: an order or amounts the attacker's controller
                // writes bind only where the damage assignment order does.
                Action::CombatDamageStep(d) => {
                    u.divided_combat |= !d.divide.is_empty() || !d.assign.is_empty()
                }
                _ => {}
            }
        }
        u
    }
}

/// Whether a case is in the domain where two editions agree.
type Domain = fn(&EditionSensitive) -> bool;

/// Pairs of editions the digest says agree on a domain, and the domain.
const NEUTRAL: &[(&str, &str, Domain)] = &[
    // 613.4 (2020-04-17): counters join 7c, switch becomes 7d; 122.1b
    // keyword counters arrive in the same edition.
    ("2020-01-22", "2020-04-17", |u| {
        !(u.keyword_counters || u.pt_conditions)
    }),
    // 701.10c, 701.11c, 122.1b, 122.1j, 510.1c: what changed after 2017-07-07.
    ("2017-07-07", "2026-09-25", |u| {
        !(u.double
            || u.triple
            || u.keyword_counters
            || u.hone_counters
            || u.pt_conditions
            || u.divided_combat)
    }),
    // 122.1j: hone counters (2026-09-25).
    ("2025-06-06", "2026-09-25", |u| !u.hone_counters),
    // No rule of P/T changed between these two.
    ("2018-04-27", "2020-01-22", |_| true),
    // 613.4 (2009-07): 6b set and pumps in one order (both annihilate
    // counters since 2006-10-01; -1/-1 counters are kept out all the same);
    // 702.15b (2009-07): lifelink became static, a trigger before (D37);
    // 509.2 (2009-07): the damage assignment order binds.
    ("2007-05", "2009-07", |u| {
        !(u.set || u.minus_counters || u.pt_conditions || u.lifelink || u.divided_combat)
    }),
];

fn edition_neutral(s: &Subject<'_>) -> Option<Found> {
    let sensitive = EditionSensitive::of(s.case);
    let options = Options {
        mutant: s.mutant,
        ..Options::default()
    };
    // An edition in two pairs is played once, and the campaign's own run
    // is the case played under its edition (a cut case is cut before the
    // step that could not be played, so the two runs have the same steps).
    let mut runs: Vec<(Edition, Cow<'_, Run>)> = vec![(s.edition, Cow::Borrowed(s.run))];
    let mut run_under = |e: Edition| -> usize {
        runs.iter().position(|(x, _)| *x == e).unwrap_or_else(|| {
            runs.push((e, Cow::Owned(resolver::resolve(s.case, e, options))));
            runs.len() - 1
        })
    };
    let mut pairs = Vec::new();
    for (a, b, neutral_on) in NEUTRAL {
        if neutral_on(&sensitive) {
            let (ea, eb) = (Edition::parse(a).ok()?, Edition::parse(b).ok()?);
            pairs.push((a, b, run_under(ea), run_under(eb)));
        }
    }
    for (a, b, ia, ib) in pairs {
        let (ra, rb) = (runs[ia].1.as_ref(), runs[ib].1.as_ref());
        if let Some(m) = crate::verdict::differences(ra, rb).first() {
            let mut f = found(
                m.step.min(s.case.steps.len().saturating_sub(1)),
                format!(
                    "editions {a} and {b} should agree here, but after step {} {} is {} under {a} and {} under {b} (check the ruling with --edition {a})",
                    m.step + 1,
                    m.field,
                    m.expected,
                    m.got
                ),
            );
            if let (Some(x), Some(y)) = (ra.steps.get(m.step), rb.steps.get(m.step)) {
                f = f.expect_all(diff(&x.observation, &y.observation));
            }
            return Some(f);
        }
    }
    None
}

fn deterministic(s: &Subject<'_>) -> Option<Found> {
    // Resolved again on another thread every 256th case (spawning one
    // costs more than a resolution), on this one otherwise.
    let (case, edition, mutant) = (s.case, s.edition, s.mutant);
    let options = Options {
        observe_setup: true,
        mutant,
        ..Options::default()
    };
    let again = if s.index % 256 == 0 {
        std::thread::scope(|scope| {
            scope
                .spawn(move || resolver::resolve(case, edition, options))
                .join()
        })
        .ok()?
    } else {
        resolver::resolve(case, edition, options)
    };
    for (k, (a, b)) in s.run.steps.iter().zip(&again.steps).enumerate() {
        if a.observation != b.observation {
            return Some(
                found(
                    k,
                    format!(
                        "resolving the case again gives another state after step {}",
                        k + 1
                    ),
                )
                .expect_all(diff(&b.observation, &a.observation)),
            );
        }
    }
    if s.run.steps.len() != again.steps.len() || s.run.error != again.error {
        let k = s.run.steps.len().min(again.steps.len());
        return Some(found(k, "resolving the case again ends differently"));
    }
    None
}

/// What `explore` writes for a case: YAML, as read back by the loader.
pub(crate) fn write_and_read(case: &Case, mutant: Option<Mutant>) -> Result<Case, String> {
    let mut written = case.clone();
    if mutant == Some(Mutant::LossyWriter) {
        for st in &mut written.steps {
            st.sba = true;
        }
    }
    let text = crate::corpus::to_yaml(&written);
    crate::corpus::from_yaml(&text).map_err(|e| e.to_string())
}

fn yaml_round_trip(s: &Subject<'_>) -> Option<Found> {
    match write_and_read(s.case, s.mutant) {
        Ok(back) if back == *s.case => None,
        Ok(_) => Some(found(0, "the case written as YAML reads back different")),
        Err(e) => Some(found(
            0,
            format!("the case written as YAML does not read back: {e}"),
        )),
    }
}

fn lki_before_event(s: &Subject<'_>) -> Option<Found> {
    for (k, step) in s.steps() {
        if !matches!(step.action, Action::StateBasedActions) {
            continue;
        }
        let (before, after) = (s.before(k)?, s.after(k)?);
        for (h, b) in &before.objects {
            let a = after.objects.get(h)?;
            if !on_bf(b)
                || on_bf(a)
                || [Keyword::Undying, Keyword::Persist]
                    .iter()
                    .any(|kw| b.keywords.contains(kw))
            {
                continue;
            }
            let indestructible = b.keywords.contains(&Keyword::Indestructible);
            // Before Magic 2010 deathtouch destroys by a trigger, after the
            // first event (502.63a of 2007; D71).
            let deathtouch = b.deathtouch_damage && s.edition.rules().deathtouch_static;
            let first_batch = match b.pt {
                Some(p) if p.toughness <= 0 => true,
                Some(p) => {
                    !indestructible
                        && b.regeneration_shields == 0
                        && (b.damage >= p.toughness || deathtouch)
                }
                None => {
                    b.types.contains(&CardType::Planeswalker)
                        && count(b, &CounterKind::named("loyalty")) == 0
                }
            };
            if !first_batch {
                continue;
            }
            let lki = a.lki.as_deref()?;
            if lki.counters != b.counters || lki.pt != b.pt || lki.damage != b.damage {
                return Some(found(k, format!("{h} died in the first state-based-action event; its last known information should be its state before it")).expect(h, Expect { lki: Some(Box::new(Expect { counters: Some(b.counters.clone()), pt: Some(PtOrNone::from_option(b.pt)), damage: Some(b.damage), ..Expect::default() })), ..Expect::default() }));
            }
        }
    }
    None
}

fn base_pt(s: &Subject<'_>) -> Option<Found> {
    let sets_listed = |h: &Handle| {
        s.case.steps.iter().any(|st| match &st.action {
            Action::Effect(e) => {
                e.sets_pt() && matches!(&e.affects, Affects::Objects(v) if v.contains(h))
            }
            Action::Exchange(x) => x.values.iter().any(|v| v.of() == h),
            _ => false,
        }) || becomes_copy(s.case, h)
    };
    let static_sets = s.case.setup.objects.iter().flat_map(|o| o.static_abilities()).any(|a| a.sets_pt())
        || s.case.steps.iter().any(|st| matches!(&st.action, Action::Effect(e) if e.sets_pt() && matches!(e.affects, Affects::Filter(_))));
    if static_sets {
        return None;
    }
    for (k, _) in s.steps() {
        for o in &s.case.setup.objects {
            let Some(printed) = o.pt else { continue };
            // A P/T chosen as it enters (208.2b) is its base P/T, not the printed one.
            // 708.2a: a face-down permanent's base P/T is 2/2.
            if o.cda.is_some()
                || !o.level_up.is_empty()
                || !o.enters_as.is_empty()
                || sets_listed(&o.id)
                || s.turned_over(&o.id)
            {
                continue;
            }
            let st = s.after(k)?.objects.get(&o.id)?;
            if !on_bf(st) || !is_creature(st) {
                continue;
            }
            let want = Pt::new(printed.power.value(0)?, printed.toughness.value(0)?);
            if st.base_pt != Some(want) {
                return Some(
                    found(
                        k,
                        format!(
                            "{} has base P/T {} but nothing sets it: its printed {printed}",
                            o.id,
                            PtOrNone::from_option(st.base_pt)
                        ),
                    )
                    .expect(
                        &o.id,
                        Expect {
                            base_pt: Some(PtOrNone::Pt(want)),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

fn noncreature_pt(s: &Subject<'_>) -> Option<Found> {
    for (k, _) in s.steps() {
        for (h, o) in &s.after(k)?.objects {
            if on_bf(o)
                && !is_creature(o)
                && (o.pt.is_some() || o.total.is_some() || o.combat_damage.is_some())
            {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} is not a creature but has P/T {}",
                            PtOrNone::from_option(o.pt)
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            pt: Some(PtOrNone::None),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

fn totals(s: &Subject<'_>) -> Option<Found> {
    for (k, _) in s.steps() {
        for (h, o) in &s.after(k)?.objects {
            let want_total = o.pt.map(|p| p.power as i128 + p.toughness as i128);
            let want_damage = o.pt.map(|p| p.power.max(0));
            if o.total.map(|t| t as i128) != want_total || o.combat_damage != want_damage {
                let e = Expect {
                    total: want_total.and_then(|t| i64::try_from(t).ok()),
                    combat_damage: want_damage,
                    ..Expect::default()
                };
                return Some(
                    found(
                        k,
                        format!(
                            "{h} is {} with total {:?} and combat damage {:?}",
                            PtOrNone::from_option(o.pt),
                            o.total,
                            o.combat_damage
                        ),
                    )
                    .expect(h, e),
                );
            }
        }
    }
    None
}

fn scaling(s: &Subject<'_>) -> Option<Found> {
    if s.thresholds() || s.switches() {
        return None;
    }
    for (k, step) in s.steps() {
        let (sc, factor, lowers) = match &step.action {
            Action::Double(sc) => (sc, 1i64, s.edition.rules().double_negative_lowers),
            Action::Triple(sc) => (sc, 2, s.edition.rules().triple_negative_lowers),
            _ => continue,
        };
        if step.sba {
            continue;
        }
        let (b, a) = (
            s.before(k)?.objects.get(&sc.affects)?,
            s.after(k)?.objects.get(&sc.affects)?,
        );
        let bp = b.pt?;
        let add = |v: i64| -> Option<i64> {
            if v < 0 && !lowers {
                Some(v)
            } else {
                v.checked_add(v.checked_mul(factor)?)
            }
        };
        let want = match sc.what {
            ScaleWhat::Power => Pt::new(add(bp.power)?, bp.toughness),
            ScaleWhat::Toughness => Pt::new(bp.power, add(bp.toughness)?),
            ScaleWhat::Both => Pt::new(add(bp.power)?, add(bp.toughness)?),
        };
        if a.pt != Some(want) {
            return Some(
                found(
                    k,
                    format!(
                        "{} was {bp}; scaling it by {} should give {want}, but it is {}",
                        sc.affects,
                        factor + 1,
                        PtOrNone::from_option(a.pt)
                    ),
                )
                .expect(&sc.affects, pt_expect(want)),
            );
        }
    }
    None
}

fn players_lose(s: &Subject<'_>) -> Option<Found> {
    for (k, _) in s.steps() {
        if !s.checked(k) {
            continue;
        }
        for (h, p) in &s.after(k)?.players {
            if !p.lost && (p.life <= 0 || p.poison >= 10) {
                return Some(
                    found(
                        k,
                        format!(
                            "{h} has {} life and {} poison counters and has not lost",
                            p.life, p.poison
                        ),
                    )
                    .expect(
                        h,
                        Expect {
                            lost: Some(true),
                            ..Expect::default()
                        },
                    ),
                );
            }
        }
    }
    None
}

/// Whether a value of the case is read all the time from other objects
/// (a characteristic-defining ability, a static ability's X, an ability
/// that an effect grants and that defines P/T): such a value may read the
/// counters or P/T of an original that a relation changes.
fn reads_live(case: &Case) -> bool {
    let live = |e: &EffectSpec| e.x.is_some() || e.grant_pt_ability.is_some();
    case.setup
        .objects
        .iter()
        .any(|o| o.cda.is_some() || o.static_abilities().any(live) || o.x_is.is_some())
        || case
            .actions()
            .any(|a| matches!(a, Action::Effect(e) if e.grant_pt_ability.is_some()))
}

fn copy_ignores_counters_and_effects(s: &Subject<'_>) -> Option<Found> {
    if s.objects_act() || reads_live(s.case) {
        return None;
    }
    let end = &s.run.steps.last()?.observation;
    let copyable = |h: &Handle| s.spec(h).is_some_and(|o| o.copy_unmodelled().is_none());
    let creatures: Vec<&Handle> = end
        .objects
        .iter()
        .filter(|(h, o)| on_bf(o) && is_creature(o) && copyable(h))
        .map(|(h, _)| h)
        .collect();
    if creatures.len() < 2 {
        return None;
    }
    let pick = (s.index / 16) as usize % creatures.len();
    let (copy, of) = (
        creatures[pick].clone(),
        creatures[(pick + 1) % creatures.len()].clone(),
    );
    let copy_step = Step {
        sba: true,
        ..quiet(Action::Copy(crate::scenario::CopyStep {
            object: copy.clone(),
            of: of.clone(),
            except_pt: None,
            until: None,
            name: None,
        }))
    };
    let grown = vec![
        quiet(Action::PutCounters(crate::scenario::CounterPut {
            on: of.clone(),
            kind: CounterKind::Pt {
                power: 1,
                toughness: 1,
            },
            count: Count(1),
            by: None,
        })),
        quiet(effect_on(
            &of,
            EffectSpec {
                modify: "+2/+1".parse().ok(),
                ..EffectSpec::default()
            },
        )),
        copy_step.clone(),
    ];
    let plain = s.extend(std::slice::from_ref(&copy_step))?.pop()?;
    let mine = s.extend(&grown)?.pop()?;
    // 704: the counter may have saved the original (a lord, say) from
    // dying; compare only while it is there in both.
    if !(plain.objects.get(&of).is_some_and(on_bf) && mine.objects.get(&of).is_some_and(on_bf)) {
        return None;
    }
    let (want, got) = (plain.objects.get(&copy)?, mine.objects.get(&copy)?);
    if (want.zone, want.pt, want.base_pt) != (got.zone, got.pt, got.base_pt) {
        let show = |p: Option<Pt>| p.map_or("none".into(), |p| p.to_string());
        return Some(
            found(
                s.case.steps.len(),
                format!(
                    "{copy} becomes a copy of {of}: {}, base {}, with a +1/+1 counter and +2/+1 put on {of} first; {}, base {} without (707.2: counters and effects are not copied)",
                    show(got.pt),
                    show(got.base_pt),
                    show(want.pt),
                    show(want.base_pt)
                ),
            )
            .on(extended(s.case, grown))
            .expect(
                &copy,
                Expect {
                    zone: Some(want.zone),
                    pt: Some(PtOrNone::from_option(want.pt)),
                    base_pt: Some(PtOrNone::from_option(want.base_pt)),
                    ..Expect::default()
                },
            ),
        );
    }
    None
}

/// Whether `h` is or becomes a copy of another object at some point
/// (707.2): its copiable values are then not its printed ones.
fn becomes_copy(case: &Case, h: &Handle) -> bool {
    case.setup
        .objects
        .iter()
        .any(|o| o.id == *h && o.copy.is_some())
        || case.actions().any(|a| match a {
            Action::Copy(c) => c.object == *h,
            Action::Move(m) => m.object == *h && m.copy.is_some(),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use crate::Edition;
    use crate::explore::{Exam, examine};

    /// Found by the `resolve` fuzz target in CI (crash-58c694269f…): a
    /// free division (`assign`) of a blocked attacker's damage is legal
    /// under the current rules and refused where the damage assignment
    /// order binds (510.1c of 2009-07 to 2024-11-08), so the case is not in
    /// the domain where 2017-07-07 and the current rules agree.
    #[test]
    fn free_division_keeps_a_case_out_of_the_2017_edition_neutral_pair() {
        let text = r#"
id: x/free-division-on-the-second-blocker
title: all of an attacker's damage on its second blocker
rules: ["510.1c"]
setup:
  objects:
    - { id: a, types: [Creature], pt: 5/6 }
    - { id: b1, types: [Creature], pt: 1/1, controller: opponent }
    - { id: b2, types: [Creature], pt: 6/3, controller: opponent }
steps:
  - do: { attack: [ { attacker: a, blockers: [b1, b2] } ] }
  - do: { combat_damage_step: { assign: { a: { b2: 5 } } } }
"#;
        let case = crate::corpus::parse_str("x.yaml", text)
            .unwrap()
            .remove(0)
            .case;
        // Index 1 is in edition-neutral's sample.
        let Exam::Checked { violations, .. } = examine(case, Edition::current(), None, 1) else {
            panic!("the case is played");
        };
        let names: Vec<&str> = violations.iter().map(|v| v.invariant.name).collect();
        assert!(!names.contains(&"edition-neutral"), "{names:?}");
    }

    /// Found by `explore --seed 20261121` once lifelink became a trigger
    /// before Magic 2010 (D37): 2007-05 and 2009-07 disagree on a creature
    /// with lifelink that damages itself, and rightly so (702.15b).
    #[test]
    fn lifelink_keeps_a_case_out_of_the_magic_2010_edition_neutral_pair() {
        let text = r#"
id: x/lifelink-self-damage
title: a creature with lifelink damages itself
rules: ["702.15b"]
setup:
  players: [ { id: you, life: 3 }, { id: opponent } ]
  objects:
    - { id: o0, types: [Creature], pt: 2/2, keywords: [lifelink] }
steps:
  - do: { damage: { from: o0, to: o0, amount: 2 } }
    sba: false
"#;
        let case = crate::corpus::parse_str("x.yaml", text)
            .unwrap()
            .remove(0)
            .case;
        let Exam::Checked { violations, .. } = examine(case, Edition::current(), None, 1) else {
            panic!("the case is played");
        };
        let names: Vec<&str> = violations.iter().map(|v| v.invariant.name).collect();
        assert!(!names.contains(&"edition-neutral"), "{names:?}");
    }
}
