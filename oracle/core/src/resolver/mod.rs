//! The reference resolver: plays a [`Case`] step by step under an
//! [`Edition`] and reports the observable state after each step.
//!
//! Pure: no I/O, no global state, no randomness, no panics on any input the
//! format accepts. Game values are `i64` and every operation on them is
//! checked; an overflow ends the run with [`ResolveError::Overflow`].
//!
//! - `eval` computes characteristics through the layers (613), reading
//!   the game state; it never changes it.
//! - `actions` performs a step's action, changing the state.
//! - `sba` performs state-based actions to a fixpoint (704.3) and the
//!   death triggers they cause.
//! - `order` orders effects inside a layer by timestamp and dependency (613.7, 613.8).
//! - `setup` builds the game from a case's setup, `card` reads a card's
//!   characteristics, `copiable` its copiable values (707.2), `describe`
//!   explains the setup and `observe` says what an engine would observe.

mod actions;
mod bits;
mod card;
mod combat;
mod copiable;
mod counters;
mod describe;
mod eval;
mod mutant;
mod observe;
mod order;
mod sba;
mod setup;

use std::collections::BTreeMap;

use crate::edition::{Edition, Rules};
use crate::error::{NodePath, ResolveError, ScenarioError};
use crate::number::Overflow;
use crate::observation::Observation;
use crate::scenario::{Case, EffectSpec, Handle, Until, validate};
use crate::terms::{CounterKind, Mana};

pub(crate) use card::{Card, Copiable, CopyEffect, entry_label};
pub(crate) use eval::Eval;
pub(crate) use mutant::Bugs;
pub use mutant::Mutant;
use mutant::{Mutated, Reference};

/// How to run the resolver.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Record an explanation of every step (slower; for `ptoracle explain`).
    pub explain: bool,
    /// Also observe the setup, before the first step ([`Run::initial`]).
    pub observe_setup: bool,
    /// Play with a deliberate rules bug (to prove that checks can fail).
    pub mutant: Option<Mutant>,
}

/// The result of playing a case.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// A description of the setup (with [`Options::explain`]).
    pub setup: Vec<Line>,
    /// The state of the setup (with [`Options::observe_setup`]; none if it
    /// can't be observed, e.g. a value overflows).
    pub initial: Option<Observation>,
    /// One outcome per step that completed, in order.
    pub steps: Vec<StepOutcome>,
    /// Why the run stopped early, if it did. The step it names has no outcome.
    pub error: Option<ResolveError>,
}

/// The state after one step, and (with [`Options::explain`]) how it came about.
#[derive(Clone, Debug, PartialEq)]
pub struct StepOutcome {
    /// The complete observable state.
    pub observation: Observation,
    /// The explanation, as indented lines; empty unless asked for.
    pub explanation: Vec<Line>,
}

/// One line of an explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Indentation level, from 0.
    pub depth: u8,
    /// The text, with rule citations in brackets.
    pub text: String,
}

/// The game of a session: the reference's, or a mutant's (each its own
/// instance of the generic resolver).
#[derive(Clone)]
enum Played<'c> {
    Reference(Game<'c, Reference>),
    Mutated(Game<'c, Mutated>),
}

/// Runs `$body` with `$g` bound to the session's game, whichever it is.
macro_rules! with_game {
    ($played:expr, $g:ident => $body:expr) => {
        match $played {
            Played::Reference($g) => $body,
            Played::Mutated($g) => $body,
        }
    };
}

/// Plays `case` under `edition`.
///
/// ```
/// use ptoracle_core::{Case, Edition, resolver};
/// let case: Case = serde_json::from_str(r#"{
///   "id": "demo/minus-five", "title": "a 3/4 gets -5/-0", "rules": ["107.1b"],
///   "setup": { "objects": [ { "id": "c", "types": ["Creature"], "pt": "3/4" } ] },
///   "steps": [ { "do": { "effect": { "affects": ["c"], "modify": "-5/-0", "until": "end-of-turn" } } } ]
/// }"#).unwrap();
/// let run = resolver::resolve(&case, Edition::current(), resolver::Options::default());
/// let c = &run.steps[0].observation.objects[&"c".parse().unwrap()];
/// assert_eq!(c.pt.unwrap().to_string(), "-2/4");
/// assert_eq!(c.combat_damage, Some(0));
/// assert_eq!(c.total, Some(2));
/// ```
pub fn resolve(case: &Case, edition: Edition, options: Options) -> Run {
    let mut run = Run {
        setup: Vec::new(),
        initial: None,
        steps: Vec::new(),
        error: None,
    };
    let mut session = match Session::start(case, edition, options) {
        Ok(s) => s,
        Err(e) => {
            run.error = Some(e);
            return run;
        }
    };
    if options.observe_setup {
        run.initial = session.observe();
    }
    if options.explain {
        let mut log = Log::new(true);
        with_game!(&session.game, g => g.describe_setup(&mut log));
        run.setup = log.lines;
    }
    for step in &case.steps {
        match session.play(step) {
            Ok(outcome) => run.steps.push(outcome),
            Err(e) => {
                run.error = Some(e);
                break;
            }
        }
    }
    run
}

/// A run in progress: the game after the steps played so far. Cloning it
/// saves that state, so a variant that only adds steps (or checks again
/// after a step) continues from it instead of replaying the case; a run
/// never looks ahead, so that gives the same observations.
#[derive(Clone)]
pub struct Session<'c> {
    game: Played<'c>,
    played: usize,
    explain: bool,
}

impl<'c> Session<'c> {
    /// Validates the case and sets up its game.
    pub fn start(
        case: &'c Case,
        edition: Edition,
        options: Options,
    ) -> Result<Session<'c>, ResolveError> {
        if let Some(first) = validate(case).into_iter().next() {
            return Err(ResolveError::Invalid(first));
        }
        let game = match options.mutant {
            None => Played::Reference(Game::new(case, edition.rules(), Reference)?),
            Some(m) => Played::Mutated(Game::new(case, edition.rules(), Mutated(m))?),
        };
        Ok(Session {
            game,
            played: 0,
            explain: options.explain,
        })
    }

    /// The state now, if every value fits.
    pub fn observe(&self) -> Option<Observation> {
        with_game!(&self.game, g => g.observe(&Eval::new(g, false)).ok())
    }

    /// Plays the next step. The step must only name objects and players of
    /// the case (a step of the case, or one built from its handles).
    pub fn play(&mut self, step: &crate::scenario::Step) -> Result<StepOutcome, ResolveError> {
        let i = self.played;
        self.played += 1;
        let path = NodePath::root().key("steps").index(i);
        let mut log = Log::new(self.explain);
        match with_game!(&mut self.game, g => g.play(step, &path, &mut log)) {
            Ok(observation) => Ok(StepOutcome {
                observation,
                explanation: log.lines,
            }),
            Err(Fault::Invalid(e)) => Err(ResolveError::Invalid(e)),
            Err(Fault::Overflow(overflow)) => Err(ResolveError::Overflow { step: i, overflow }),
            Err(Fault::NoFixpoint) => Err(ResolveError::NoFixpoint { step: i }),
        }
    }
}

/// Why a step could not be completed (inside the resolver).
#[derive(Debug)]
pub(crate) enum Fault {
    Invalid(ScenarioError),
    Overflow(Overflow),
    NoFixpoint,
}

impl From<Overflow> for Fault {
    fn from(o: Overflow) -> Fault {
        Fault::Overflow(o)
    }
}

pub(crate) type Res<T> = Result<T, Fault>;

/// Collects explanation lines when asked to; costs nothing otherwise.
pub(crate) struct Log {
    on: bool,
    /// Added to the depth of every line: nests what follows under a heading.
    indent: u8,
    pub lines: Vec<Line>,
}

impl Log {
    fn new(on: bool) -> Log {
        Log {
            on,
            indent: 0,
            lines: Vec::new(),
        }
    }

    pub fn on(&self) -> bool {
        self.on
    }

    /// Adds a line; `text` is only built when explaining.
    pub fn line(&mut self, depth: u8, text: impl FnOnce() -> String) {
        if self.on {
            let depth = depth.saturating_add(self.indent);
            self.lines.push(Line {
                depth,
                text: text(),
            });
        }
    }

    /// Runs `f` with every line nested one level deeper.
    pub fn nested<T>(&mut self, f: impl FnOnce(&mut Log) -> T) -> T {
        self.indent = self.indent.saturating_add(1);
        let r = f(self);
        self.indent = self.indent.saturating_sub(1);
        r
    }
}

/// A reference to one incarnation of a card: the card and its object
/// number, which changes with every zone change (400.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct ObjRef {
    pub card: usize,
    pub object: u64,
}

/// Counters of one kind, with the timestamp they share (613.7c).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stack {
    pub count: i64,
    pub ts: i64,
    pub seq: u64,
}

#[derive(Clone)]
pub(crate) struct Player {
    pub handle: Handle,
    pub life: i64,
    pub poison: i64,
    pub hand: i64,
    pub mana: BTreeMap<Mana, i64>,
    /// The part of `mana` that snow sources made (107.4h).
    pub snow: BTreeMap<Mana, i64>,
    /// The number of payments the last cost the player paid had.
    pub payments: Option<i64>,
    pub lost: bool,
}

/// A continuous effect created by a resolved spell or ability.
#[derive(Clone)]
pub(crate) struct Effect {
    pub spec: EffectSpec,
    pub label: String,
    pub source: Option<ObjRef>,
    pub ts: i64,
    pub seq: u64,
    pub until: Until,
    /// The objects it affects, locked as it resolved (611.2c).
    pub affected: Vec<ObjRef>,
    /// X for `set` (used as is: setting P/T is an exception of 107.1b).
    pub x_set: i64,
    /// X for `modify` (a negative X already became 0 where 107.1b says so).
    pub x_modify: i64,
}

/// A death trigger waiting to resolve (undying, persist).
#[derive(Clone)]
pub(crate) struct Trigger {
    pub card: usize,
    /// The object in the graveyard it returns.
    pub object: u64,
    pub kind: CounterKind,
    pub keyword: &'static str,
    pub rule: &'static str,
}

/// The deathtouch or lifelink trigger of a source that dealt damage, in the
/// editions before Magic 2010 (502.63a and 502.68a of 2007-05-01): it
/// waits for the state-based actions (704.3), then resolves (D37, D71).
#[derive(Clone)]
pub(crate) enum DamageTrigger {
    /// "You gain that much life": the source's controller, the amount.
    Lifelink { player: usize, amount: i64 },
    /// "Destroy that creature": the source's name and controller, and the
    /// object it dealt damage to.
    Deathtouch {
        source: String,
        controller: usize,
        card: usize,
        object: u64,
    },
}

/// A triggered ability of an object waiting to resolve: a Saga's chapter
/// ability (714.2, 107.15a) or a "when the Nth counter" ability (122.7).
#[derive(Clone)]
pub(crate) struct Pending<'c> {
    /// The object whose ability it is, and which object it was then.
    pub card: usize,
    pub object: u64,
    /// How explanations name it, e.g. `chapter II of The Eldest Reborn`.
    pub label: String,
    pub rule: &'static str,
    /// Its controller: whoever controlled its source as it triggered
    /// (603.3a); the player who puts counters when its effect says none.
    pub controller: usize,
    /// A chapter ability keeps its Saga on the battlefield until it has
    /// left the stack (704.5s).
    pub chapter: bool,
    pub effect: Resolution<'c>,
    /// Where the ability is written, for locating bad input.
    pub path: NodePath,
}

/// What a waiting triggered ability does as it resolves.
#[derive(Clone, Copy)]
pub(crate) enum Resolution<'c> {
    /// An action the scenario writes.
    Perform(&'c crate::scenario::Action),
    /// 310.11b: a Siege's intrinsic "exile it, then you may cast it
    /// transformed without paying its mana cost" (DECISIONS.md D38).
    ExileSiege,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Who {
    Card(usize),
    Player(usize),
}

/// "Prevent the next N damage that would be dealt to it this turn"
/// (615.7): what it protects and how much it has left.
#[derive(Clone)]
pub(crate) struct PreventionShield {
    /// A player, or a permanent as the object it was when the shield was
    /// made (a new object is not protected, 400.7).
    pub to: Shielded,
    pub left: i64,
    pub label: String,
}

/// What a prevention shield protects.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shielded {
    Player(usize),
    Permanent { card: usize, object: u64 },
}

#[derive(Clone)]
pub(crate) struct Game<'c, B: Bugs> {
    pub rules: &'static Rules,
    pub bugs: B,
    pub players: Vec<Player>,
    pub cards: Vec<Card<'c>>,
    pub effects: Vec<Effect>,
    pub handles: BTreeMap<&'c str, Who>,
    pub triggers: Vec<Trigger>,
    pub pending: Vec<Pending<'c>>,
    /// The deathtouch and lifelink triggers waiting to resolve, in the
    /// order of the damage, where those are triggered abilities (before
    /// Magic 2010, DECISIONS.md D37, D71).
    pub damage_triggers: Vec<DamageTrigger>,
    /// The prevention shields of this turn (615.7), in the order they were
    /// made.
    pub prevention: Vec<PreventionShield>,
    /// The combat declared by the last `attack` step, until its last
    /// combat damage step (511.3).
    pub combat: Option<combat::Combat>,
    /// Whether some object can change whether or how many counters are put
    /// (`cant_have_counters_put`, `counters_put_by`): only then is each
    /// placement of counters checked against them.
    pub counter_rules: bool,
    next_ts: i64,
    next_object: u64,
    next_seq: u64,
}

impl<'c, B: Bugs> Game<'c, B> {
    /// Whether this run plays with the deliberate bug `m`: a constant
    /// `false` in the reference resolver, so the compiler removes every
    /// branch that asks (see [`Bugs`]).
    #[inline(always)]
    pub fn bug(&self, m: Mutant) -> bool {
        self.bugs.has(m)
    }

    pub fn player_index(&self, h: &Handle) -> usize {
        match self.handles.get(h.as_str()) {
            Some(Who::Player(i)) => *i,
            // Validation guarantees the kind; fall back to the first player.
            _ => 0,
        }
    }

    /// Where card `c` is written: the setup lists the cards in order.
    pub fn spec_path(&self, c: usize) -> NodePath {
        NodePath::root().key("setup").key("objects").index(c)
    }

    pub fn card_index(&self, h: &Handle) -> usize {
        match self.handles.get(h.as_str()) {
            Some(Who::Card(i)) => *i,
            // Validation guarantees the kind.
            _ => 0,
        }
    }

    pub fn who(&self, h: &Handle) -> Who {
        self.handles
            .get(h.as_str())
            .copied()
            .unwrap_or(Who::Player(0))
    }

    /// How an object or player is called in explanations: a card by its name.
    pub fn name_of(&self, h: &Handle) -> String {
        match self.handles.get(h.as_str()) {
            Some(Who::Card(c)) => self.cards[*c].name().to_string(),
            _ => h.to_string(),
        }
    }

    /// A quantity in words, with card names.
    pub fn describe(&self, q: &crate::scenario::Quantity) -> String {
        q.describe(&|h| self.name_of(h))
    }

    pub fn obj_ref(&self, card: usize) -> ObjRef {
        ObjRef {
            card,
            object: self.cards[card].object,
        }
    }

    /// The card an incarnation is, if that incarnation still exists.
    pub fn live(&self, r: ObjRef) -> Option<usize> {
        (self.cards.get(r.card)?.object == r.object).then_some(r.card)
    }

    pub fn take_ts(&mut self) -> i64 {
        let t = self.next_ts;
        self.next_ts = self.next_ts.saturating_add(1);
        t
    }

    /// Uses a timestamp the case gives, keeping later automatic ones after it.
    pub fn take_explicit_ts(&mut self, t: i64) -> i64 {
        if t >= self.next_ts {
            self.next_ts = t.saturating_add(1);
        }
        t
    }

    pub fn take_seq(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    pub fn take_object(&mut self) -> u64 {
        self.next_object += 1;
        self.next_object
    }

    /// Plays one step: its action, then state-based actions, then observe.
    fn play(
        &mut self,
        step: &crate::scenario::Step,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<Observation> {
        // A step acts for the first player unless it names another (D31).
        self.perform(&step.action, &path.key("do").key(step.action.key()), 0, log)?;
        if log.on() {
            let eval = Eval::new(self, true);
            eval.explain_battlefield(log)?;
        }
        if step.sba || matches!(step.action, crate::scenario::Action::StateBasedActions) {
            self.settle(log)?;
        } else {
            log.line(1, || {
                "state-based actions are not checked after this step (sba: false)".into()
            });
        }
        if self.combat.is_some() {
            self.leave_combat();
        }
        let eval = Eval::new(self, false);
        self.observe(&eval)
    }
}

/// `a + b`, or an overflow naming `what`.
pub(crate) fn add(a: i64, b: i64, what: impl FnOnce() -> String) -> Result<i64, Overflow> {
    crate::number::checked(a.checked_add(b), what)
}
