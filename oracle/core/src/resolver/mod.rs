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

mod actions;
mod bits;
mod combat;
mod counters;
mod eval;
mod mutant;
mod order;
mod sba;

use std::collections::BTreeMap;

use crate::edition::{Edition, Rules};
use crate::error::{NodePath, ResolveError, ScenarioError};
use crate::number::{Overflow, Pt};
use crate::observation::{Observation, PlayerState};
use crate::scenario::{Affects, Case, EffectSpec, Handle, ObjectSpec, Until, validate};
use crate::terms::{CounterKind, Mana, Zone};

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

#[derive(Clone)]
pub(crate) struct Card<'c> {
    pub spec: &'c ObjectSpec,
    pub object: u64,
    pub zone: Zone,
    pub controller: usize,
    /// Its owner: whoever controls it off the battlefield, and as it enters.
    pub owner: usize,
    /// Whether it has been under its controller's control continuously
    /// since their most recent turn began (302.6).
    pub continuous: bool,
    /// On the battlefield: which of `spec.enters_as` was chosen as it
    /// entered (208.2b).
    pub choice: Option<usize>,
    /// While it is a spell on the stack: the value announced for X
    /// (107.3a). A new object has none (400.7).
    pub x: Option<i64>,
    /// Only while its own "enters with" replacement effect is read as the
    /// permanent spell enters: the spell's X, which that effect uses though
    /// the permanent's own X is 0 (107.3m).
    pub etb_x: Option<i64>,
    pub ts: i64,
    pub seq: u64,
    pub counters: BTreeMap<CounterKind, Stack>,
    pub damage: i64,
    pub deathtouch: bool,
    pub shields: i64,
    pub tapped: bool,
    /// Whether it is a face-down permanent (708): its copiable values are
    /// those of 708.2a, not its printed ones.
    pub face_down: bool,
    /// Whether its back face is up (a transformed permanent, 701.27g).
    pub transformed: bool,
    pub attached_to: Option<ObjRef>,
    pub lki: Option<Box<crate::observation::ObjectState>>,
    /// The level-up bands as static abilities (107.8), built once: each
    /// band's P/T and keywords, then the abilities it lists.
    pub levels: Vec<LevelAbility>,
    /// The copy effects on it (707.2), in timestamp order: in layer 1 the
    /// last one's values are its copiable values (613.2a). A new object
    /// has none (400.7).
    pub copies: Vec<CopyEffect<'c>>,
}

/// The copiable values a copy effect gives an object (707.2), fixed as
/// the effect begins: another object's printed values, as modified by the
/// copy effects on it, its face-down status and the values its "as this
/// enters" choices set; never its counters, damage or other effects.
#[derive(Clone)]
pub(crate) struct Copiable<'c> {
    /// Whose printed values.
    pub spec: &'c ObjectSpec,
    /// The options of `spec.enters_as` chosen as the objects along the
    /// chain of copies entered, oldest first: the original's, then that of
    /// each copy that entered as a copy and made its own choice (707.5,
    /// 707.6). Each sets P/T, the latest winning, and adds its keywords
    /// (208.2b, 707.2).
    pub choices: Vec<usize>,
    /// The original was face down: the values of 708.2a (a 2/2 creature
    /// with no name, text, subtypes or mana cost).
    pub face_down: bool,
    /// The original was transformed: its back face's values (712.8e).
    pub back: bool,
    /// An exception that set P/T, of this copy effect or of one the
    /// original copied (707.9b).
    pub except_pt: Option<Pt>,
    /// `spec`'s level bands as static abilities (107.8).
    pub levels: std::sync::Arc<Vec<LevelAbility>>,
}

/// A copy effect on an object (707.2), in layer 1 (613.2a).
#[derive(Clone)]
pub(crate) struct CopyEffect<'c> {
    pub values: Copiable<'c>,
    pub ts: i64,
    pub seq: u64,
    pub until: Until,
}

/// A static ability a creature has while its level counters are in a band
/// (107.8a, 107.8b).
#[derive(Clone)]
pub(crate) struct LevelAbility {
    /// The band, in `spec.level_up`.
    pub band: usize,
    pub spec: EffectSpec,
}

impl<'c> Card<'c> {
    pub fn name(&self) -> &str {
        self.spec.display_name()
    }

    /// The copiable values a copy effect gave it, if any: the latest
    /// (613.2a, 613.7).
    pub fn copy(&self) -> Option<&Copiable<'c>> {
        self.copies.last().map(|e| &e.values)
    }

    /// Whose printed values its copiable values start from: the object it
    /// copies, else its own (707.2).
    pub fn face(&self) -> &'c ObjectSpec {
        self.copy().map_or(self.spec, |c| c.spec)
    }

    /// Whether its characteristics are those of 708.2a: it is face down,
    /// or it copies a face-down permanent (707.2).
    pub fn blank(&self) -> bool {
        self.face_down || self.copy().is_some_and(|c| c.face_down)
    }

    /// Its level bands as static abilities: those of what it copies (707.2).
    pub fn level_abilities(&self) -> &[LevelAbility] {
        match self.copy() {
            Some(c) => &c.levels,
            None => &self.levels,
        }
    }

    /// Its back face, while that is the face up (712.8e).
    pub fn back(&self) -> Option<&'c crate::scenario::BackFace> {
        // 707.2: a copy of a transformed permanent has its back face's
        // values; its own face up does not matter while it copies.
        if let Some(c) = self.copy() {
            return if c.back {
                c.spec.back_face.as_deref()
            } else {
                None
            };
        }
        if self.transformed {
            self.spec.back_face.as_deref()
        } else {
            None
        }
    }

    /// The subtypes of the face up: none face down (708.2a).
    pub fn subtypes(&self) -> &'c [String] {
        match self.back() {
            _ if self.blank() => &[],
            Some(b) => &b.subtypes,
            None => &self.face().subtypes,
        }
    }

    /// The static abilities of the face up (712.8d, 712.8e).
    pub fn abilities(&self) -> &'c [EffectSpec] {
        match self.back() {
            Some(b) => &b.abilities,
            None => &self.face().abilities,
        }
    }

    /// The name a filter sees: none face down (708.2a), the back face's
    /// while transformed.
    pub fn face_name(&self) -> Option<&'c str> {
        match self.back() {
            _ if self.blank() => None,
            Some(b) => Some(b.name.as_deref().unwrap_or(self.face().display_name())),
            None => Some(self.face().display_name()),
        }
    }

    pub fn count(&self, kind: &CounterKind) -> i64 {
        self.counters.get(kind).map_or(0, |s| s.count)
    }

    pub fn on_battlefield(&self) -> bool {
        self.zone == Zone::Battlefield
    }

    /// A Saga's final chapter: its greatest chapter number (714.2c).
    pub fn final_chapter(&self) -> Option<i64> {
        // 708.2a: a face-down permanent has no subtypes and no chapters.
        if !self.subtypes().iter().any(|s| s == "Saga") {
            return None;
        }
        self.spec
            .chapters
            .iter()
            .flat_map(|c| &c.at)
            .map(|n| n.0)
            .max()
    }

    /// The "as this enters" options whose values are part of its copiable
    /// values (208.2b), oldest first, while it is on the battlefield: its
    /// own choice, or those a copy effect gave it (707.2), the choice it
    /// made as it entered as a copy last (707.6).
    pub fn choices(&self) -> impl Iterator<Item = &'c crate::scenario::EntryChoice> + '_ {
        let (spec, picked): (&'c ObjectSpec, &[usize]) = match self.copy() {
            Some(c) => (c.spec, &c.choices),
            None => (self.spec, self.choice.as_slice()),
        };
        picked.iter().filter_map(move |&i| spec.enters_as.get(i))
    }

    /// The latest of [`Card::choices`]: the one that sets its copiable P/T.
    pub fn chosen(&self) -> Option<&'c crate::scenario::EntryChoice> {
        self.choices().last()
    }

    /// The timestamp and order of the effects of its static abilities
    /// (613.7a): its own, or that of the copy effect that gave it those
    /// abilities, whichever is later.
    pub fn ability_stamp(&self) -> (i64, u64) {
        match self.copies.last() {
            Some(e) => (self.ts, self.seq).max((e.ts, e.seq)),
            None => (self.ts, self.seq),
        }
    }
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
    fn new(case: &'c Case, rules: &'static Rules, bugs: B) -> Result<Game<'c, B>, ResolveError> {
        let mut g = Game {
            rules,
            bugs,
            players: Vec::new(),
            cards: Vec::new(),
            effects: Vec::new(),
            handles: BTreeMap::new(),
            triggers: Vec::new(),
            pending: Vec::new(),
            damage_triggers: Vec::new(),
            prevention: Vec::new(),
            combat: None,
            counter_rules: case
                .setup
                .objects
                .iter()
                .any(|o| o.cant_have_counters_put || o.counters_put_by.is_some()),
            next_ts: 1,
            next_object: 1,
            next_seq: 1,
        };
        for (i, p) in case.setup.players.iter().enumerate() {
            g.handles.insert(p.id.as_str(), Who::Player(i));
            g.players.push(Player {
                handle: p.id.clone(),
                life: p.life,
                poison: p.poison.0,
                hand: p.hand.0,
                mana: p.mana.0.iter().map(|(m, c)| (*m, c.0)).collect(),
                snow: p.snow_mana.0.iter().map(|(m, c)| (*m, c.0)).collect(),
                payments: None,
                lost: false,
            });
        }
        for (i, o) in case.setup.objects.iter().enumerate() {
            g.handles.insert(o.id.as_str(), Who::Card(i));
        }
        for o in &case.setup.objects {
            let controller = match &o.controller {
                Some(h) => g.player_index(h),
                None => 0,
            };
            let ts = match o.timestamp {
                Some(t) => g.take_explicit_ts(t.0.0),
                None => g.take_ts(),
            };
            let seq = g.take_seq();
            let object = g.take_object();
            let counters = o
                .counters
                .iter()
                .filter(|(_, c)| c.0 > 0)
                .map(|(k, c)| {
                    (
                        k.clone(),
                        Stack {
                            count: c.0,
                            ts,
                            seq,
                        },
                    )
                })
                .collect();
            let levels = level_abilities(o);
            g.cards.push(Card {
                spec: o,
                object,
                zone: o.zone,
                controller,
                owner: controller,
                continuous: !o.sick,
                // 708.3: a permanent that entered face down made no choice
                // as it entered.
                // A copy's `choose` is the choice of the text it copies
                // (707.6), made below.
                choice: if o.zone == Zone::Battlefield && !o.face_down && o.copy.is_none() {
                    o.entry_choice(None)
                } else {
                    None
                },
                x: o.x.filter(|_| o.zone == Zone::Stack).map(|x| x.0),
                etb_x: None,
                ts,
                seq,
                counters,
                damage: o.damage.0,
                deathtouch: o.deathtouch_damage,
                shields: o.regeneration_shields.0,
                tapped: o.tapped,
                face_down: o.face_down && o.zone == Zone::Battlefield,
                transformed: false,
                attached_to: None,
                lki: None,
                levels,
                copies: Vec::new(),
            });
        }
        for (i, o) in case.setup.objects.iter().enumerate() {
            if let Some(h) = &o.attached_to {
                let target = g.card_index(h);
                if !g.cards[target].on_battlefield() {
                    return Err(ResolveError::Invalid(ScenarioError::new(
                        NodePath::root()
                            .key("setup")
                            .key("objects")
                            .index(i)
                            .key("attached_to"),
                        format!(
                            "`{h}` is not on the battlefield, so nothing can be attached to it"
                        ),
                    )));
                }
                g.cards[i].attached_to = Some(g.obj_ref(target));
            }
        }
        // 707.2, 613.2a: a permanent set up as a copy entered as one, of an
        // object listed before it (validated), with its values then.
        for (i, o) in case.setup.objects.iter().enumerate() {
            if let Some(c) = &o.copy {
                let mut values = g.copiable(g.card_index(&c.of), c.except_pt);
                // 707.5, 707.6: it made its own "as this enters" choice.
                let names = (o.id.as_str(), c.of.as_str());
                g.entering_copy_choice(&mut values, o.choose, names, &g.spec_path(i))
                    .map_err(ResolveError::Invalid)?;
                let (ts, seq, until) = (g.cards[i].ts, g.cards[i].seq, Until::Forever);
                g.cards[i].copies.push(CopyEffect {
                    values,
                    ts,
                    seq,
                    until,
                });
            }
        }
        Ok(g)
    }

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

    /// The setup in words: each player, then each card and its abilities.
    fn describe_setup(&self, log: &mut Log) {
        for p in &self.players {
            log.line(0, || describe_player(p));
        }
        for c in &self.cards {
            log.line(0, || self.card_summary(c));
            self.describe_card_abilities(c, log);
        }
    }

    /// One card's line of the setup: name, types, costs, printed and
    /// chosen values, zone, timestamp, counters, damage and attachment.
    fn card_summary(&self, c: &Card<'c>) -> String {
        let spec = c.spec;
        let mut text = format!("{} ({}):", c.name(), spec.id);
        let types: Vec<String> = spec.types.iter().map(|t| t.to_string()).collect();
        if !types.is_empty() {
            text.push_str(&format!(" {}", types.join(" ")));
        }
        if !spec.subtypes.is_empty() {
            text.push_str(&format!(" — {}", spec.subtypes.join(" ")));
        }
        if let Some(cost) = &spec.mana_cost {
            text.push_str(&format!(", mana cost {cost}"));
        }
        if let Some(pt) = spec.pt {
            text.push_str(&format!(", printed {pt}"));
        }
        if let Some(d) = spec.defense {
            text.push_str(&format!(", printed defense {}", d.0));
        }
        if let Some(ch) = c.chosen() {
            text.push_str(&format!(", entered as {}", entry_label(ch)));
        }
        if c.face_down {
            text.push_str(
                ", face down: a 2/2 creature with no name, text, subtypes or mana cost [708.2a]",
            );
        }
        if let Some(e) = c.copies.last() {
            text.push_str(&format!(
                ", entered as a copy of {} (t={}): its copiable values are that card's [707.2, 613.2a]",
                e.values.spec.display_name(),
                e.ts
            ));
        }
        text.push_str(&format!(
            ", {}, t={}",
            crate::terms::zone_phrase(c.zone),
            c.ts
        ));
        if !c.counters.is_empty() {
            let list: Vec<String> = c
                .counters
                .iter()
                .map(|(k, s)| format!("{} {k}", s.count))
                .collect();
            text.push_str(&format!(", counters: {}", list.join(", ")));
        }
        if c.damage > 0 {
            text.push_str(&format!(", {} damage", c.damage));
        }
        if !spec.keywords.is_empty() {
            let list: Vec<String> = spec.keywords.iter().map(|k| k.to_string()).collect();
            text.push_str(&format!(", {}", list.join(", ")));
        }
        if let Some(a) = c.attached_to {
            text.push_str(&format!(", attached to {}", self.cards[a.card].name()));
        }
        text
    }

    /// The abilities and entry rules of one card, a line each, under its
    /// summary line.
    fn describe_card_abilities(&self, c: &Card<'c>, log: &mut Log) {
        self.describe_printed_abilities(c, log);
        self.describe_entry_and_stack(c, log);
    }

    /// Its characteristic-defining ability, static abilities and level up
    /// bands (604.3, 611.3, 107.8).
    fn describe_printed_abilities(&self, c: &Card<'c>, log: &mut Log) {
        let spec = c.spec;
        if let Some(cda) = &spec.cda {
            for (side, q) in [("power", &cda.power), ("toughness", &cda.toughness)] {
                if let Some(q) = q {
                    log.line(1, || {
                        format!(
                            "characteristic-defining ability: * in its {side} is {} [604.3]",
                            self.describe(q)
                        )
                    });
                }
            }
        }
        for ab in &spec.abilities {
            log.line(1, || {
                format!("static ability: {} [611.3, 613.7a]", self.ability_text(ab))
            });
        }
        for band in &spec.level_up {
            let max = band.max.map_or("+".to_string(), |m| format!("-{}", m.0));
            let rule = if band.max.is_some() {
                "107.8a"
            } else {
                "107.8b"
            };
            let keywords: String = band.keywords.iter().map(|k| format!(", {k}")).collect();
            log.line(1, || {
                format!(
                    "level up {{LEVEL {}{max}}}: base P/T {}{keywords} [{rule}]",
                    band.min.0, band.pt
                )
            });
            for ab in &band.abilities {
                log.line(2, || {
                    format!(
                        "and, while in the band, the static ability {} [{rule}, 611.3a, 613.7a]",
                        self.ability_text(ab)
                    )
                });
            }
        }
    }

    /// How it gets counters, crews, enters and sits on the stack (122.5,
    /// 614.1a, 702.122, 208.2b, 302.6, 107.3, 608.2, 614.1c).
    fn describe_entry_and_stack(&self, c: &Card<'c>, log: &mut Log) {
        let spec = c.spec;
        if spec.cant_have_counters_put {
            log.line(1, || {
                "static ability: it can't have counters put on it, also as it enters or by a move [122.5, 122.6]".into()
            });
        }
        if let Some(by) = &spec.counters_put_by {
            for (who, scale) in [("its controller", by.you), ("an opponent", by.opponents)] {
                if let Some(scale) = scale {
                    log.line(1, || {
                        format!("static ability: if {who} would put counters on a permanent or player, they put {scale} instead [614.1a, 107.1a]")
                    });
                }
            }
        }
        if let Some(n) = spec.crew {
            log.line(1, || format!("crew {} [702.122]", n.0));
        }
        if !spec.enters_as.is_empty() {
            let list: Vec<String> = spec.enters_as.iter().map(entry_label).collect();
            log.line(1, || {
                format!(
                    "as it enters, its controller chooses {} [208.2b]",
                    list.join(" or ")
                )
            });
        }
        if c.on_battlefield() && !c.continuous {
            log.line(1, || {
                "came under its controller's control this turn: not controlled continuously since their most recent turn began [302.6]".into()
            });
        }
        if let Some(x) = c.x {
            log.line(1, || {
                format!("a spell on the stack; X was announced as {x} [107.3a]")
            });
        }
        if let Some(q) = &spec.x_is {
            log.line(1, || {
                format!(
                    "X is defined by its text: {}, while it is on the stack [107.3c]",
                    self.describe(q)
                )
            });
        }
        if let Some(a) = &spec.on_resolve {
            log.line(1, || {
                format!("as it resolves: {} [608.2]", a.key().replace('_', " "))
            });
        }
        for (kind, q) in &spec.enters_with {
            log.line(1, || {
                format!(
                    "enters the battlefield with {} {kind} counters [614.1c, 122.6]",
                    self.describe(q)
                )
            });
        }
    }

    /// A static ability in words: `Name: other Merfolk creatures you
    /// control — gets +1/+1`.
    fn ability_text(&self, ab: &EffectSpec) -> String {
        let whom = match &ab.affects {
            Affects::This => "itself".to_string(),
            Affects::Attached => "the permanent it is attached to".to_string(),
            Affects::Filter(f) => f.describe(&|h| self.name_of(h)),
            Affects::Objects(v) => v
                .iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        };
        let name = ab
            .name
            .as_deref()
            .map(|n| format!("{n}: "))
            .unwrap_or_default();
        let x =
            ab.x.as_ref()
                .map(|q| format!(", where X is {}", self.describe(q)))
                .unwrap_or_default();
        format!("{name}{whom} — {}{x}", ab.summary())
    }

    fn observe(&self, eval: &Eval<'_, 'c, B>) -> Res<Observation> {
        let mut obs = Observation::default();
        for (i, c) in self.cards.iter().enumerate() {
            let mut state = eval.object_state(i)?;
            state.lki = if c.on_battlefield() {
                None
            } else {
                c.lki.clone()
            };
            obs.objects.insert(c.spec.id.clone(), state);
        }
        for p in &self.players {
            obs.players.insert(
                p.handle.clone(),
                PlayerState {
                    life: p.life,
                    poison: p.poison,
                    mana: pool(&p.mana),
                    lost: p.lost,
                    snow_mana: pool(&p.snow),
                    payments: p.payments,
                },
            );
        }
        Ok(obs)
    }
}

/// A pool as observed: no zero entries.
fn pool(m: &BTreeMap<Mana, i64>) -> crate::scenario::ManaPool {
    crate::scenario::ManaPool(
        m.iter()
            .filter(|(_, n)| **n != 0)
            .map(|(m, n)| (*m, crate::scenario::Count(*n)))
            .collect(),
    )
}

/// An "as this enters" choice in words: `2/2 with flying`.
pub(crate) fn entry_label(c: &crate::scenario::EntryChoice) -> String {
    if c.keywords.is_empty() {
        c.pt.to_string()
    } else {
        let k: Vec<String> = c.keywords.iter().map(|k| k.to_string()).collect();
        format!("{} with {}", c.pt, k.join(", "))
    }
}

/// 107.8a, 107.8b: each level band as static abilities of the creature,
/// applying while its level counters are in the band: its base P/T (7b)
/// and keywords (layer 6), then the abilities it lists.
fn level_abilities(o: &ObjectSpec) -> Vec<LevelAbility> {
    let mut v = Vec::new();
    for (band, b) in o.level_up.iter().enumerate() {
        let label = band_label(b);
        v.push(LevelAbility {
            band,
            spec: EffectSpec {
                name: Some(format!("level up {label}")),
                affects: Affects::This,
                set: Some(crate::number::SetPt {
                    power: crate::number::Amount::Fixed(b.pt.power),
                    toughness: crate::number::Amount::Fixed(b.pt.toughness),
                }),
                add_keywords: b.keywords.clone(),
                ..EffectSpec::default()
            },
        });
        let several = b.abilities.len() > 1;
        for (i, ab) in b.abilities.iter().enumerate() {
            let name = ab.name.clone().unwrap_or_else(|| {
                if several {
                    format!("level up {label} ability #{}", i + 1)
                } else {
                    format!("level up {label} ability")
                }
            });
            v.push(LevelAbility {
                band,
                spec: EffectSpec {
                    name: Some(name),
                    ..ab.clone()
                },
            });
        }
    }
    v
}

fn band_label(band: &crate::scenario::LevelBand) -> String {
    match band.max {
        Some(m) => format!("{}-{}", band.min.0, m.0),
        None => format!("{}+", band.min.0),
    }
}

/// `a + b`, or an overflow naming `what`.
pub(crate) fn add(a: i64, b: i64, what: impl FnOnce() -> String) -> Result<i64, Overflow> {
    crate::number::checked(a.checked_add(b), what)
}

/// A player's line of the setup: life, poison and mana.
fn describe_player(p: &Player) -> String {
    let mut text = format!("player {}: {} life", p.handle, p.life);
    if p.poison > 0 {
        text.push_str(&format!(", {} poison", p.poison));
    }
    let mana = pool(&p.mana);
    if !mana.is_empty() {
        text.push_str(&format!(", mana {mana}"));
    }
    let snow = pool(&p.snow);
    if !snow.is_empty() {
        text.push_str(&format!(" ({snow} from snow sources) [107.4h]"));
    }
    text
}

impl<'c, B: Bugs> Game<'c, B> {
    /// The copiable values of card `c` now (707.2), for a copy effect with
    /// the exception `except_pt` (707.9b): its printed values as the copy
    /// effects on it, its face-down status and its entry choice modify
    /// them. Counters, damage and the other effects on it are not copied.
    pub(crate) fn copiable(&self, c: usize, except_pt: Option<Pt>) -> Copiable<'c> {
        let card = &self.cards[c];
        let mut values = match card.copy() {
            // 707.2: as modified by other copy effects (an exception of
            // theirs included, 707.9b).
            Some(v) => v.clone(),
            None => Copiable {
                spec: card.spec,
                choices: card.choice.into_iter().collect(),
                face_down: false,
                back: card.transformed,
                except_pt: None,
                levels: std::sync::Arc::new(card.levels.clone()),
            },
        };
        // 707.2, 708.2a: a face-down permanent's copiable values are those
        // of 708.2a, whatever it copies (613.2b applies after 613.2a).
        if card.face_down {
            values.face_down = true;
            values.except_pt = None;
        }
        if self.bug(Mutant::CopyKeepsCountersAndPumps) {
            let now = Eval::new(self, false).pt(c).ok().flatten();
            values.except_pt = now.map(|i| i.pt).or(values.except_pt);
        }
        // 707.2: before the text of 2005-10-01, the P/T chosen as it
        // entered was not copied: only its printed values (D46).
        if !self.rules.entry_choice_copiable {
            values.choices.clear();
        }
        // 707.9b: the exception's values become part of the copiable values.
        if except_pt.is_some() {
            values.except_pt = except_pt;
        }
        values
    }

    /// 707.5, 707.6: an object entering the battlefield as a copy makes the
    /// "as this enters" choice of the text it copies itself, `choose`; the
    /// original's choice is not copied as a choice, though the values it
    /// set stay in `values` (707.2, DECISIONS.md D62). The option chosen is
    /// added to `values`. `copy` names the entering object and `of` what it
    /// copies, and `at` is where the entering object's `copy` and `choose`
    /// are written, for the errors: a choice to make and none given, one
    /// given and none to make, one the text does not offer.
    pub(crate) fn entering_copy_choice(
        &self,
        values: &mut Copiable<'c>,
        choose: Option<Pt>,
        (copy, of): (&str, &str),
        at: &NodePath,
    ) -> Result<Option<usize>, ScenarioError> {
        // 708.2a, 712.8e: copied face-down values, or a back face, have no
        // "as this enters" ability.
        let spec: &'c ObjectSpec = values.spec;
        let options: &'c [crate::scenario::EntryChoice] = if values.face_down || values.back {
            &[]
        } else {
            &spec.enters_as
        };
        let listed = || {
            options
                .iter()
                .map(|o| o.pt.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if options.is_empty() {
            return match choose {
                None => Ok(None),
                Some(_) => Err(ScenarioError::new(
                    at.key("choose"),
                    format!(
                        "`{copy}` enters as a copy of `{of}`, whose copiable values have no \"as this enters\" choice: leave out `choose`"
                    ),
                )),
            };
        }
        if values.except_pt.is_some() {
            return Err(ScenarioError::new(
                at.key("copy"),
                format!(
                    "`{copy}` would enter as a copy of `{of}` with an exception that sets P/T and also choose its P/T as it enters; which of the two sets its copiable P/T is not modelled (707.5, 707.9b)"
                ),
            ));
        }
        let Some(pt) = choose else {
            return Err(ScenarioError::new(
                at.key("copy"),
                format!(
                    "`{copy}` enters as a copy of `{of}`, whose \"as this enters\" ability applies again and its controller makes the choice anew (707.5, 707.6): say which with `choose` ({})",
                    listed()
                ),
            ));
        };
        let Some(i) = options.iter().position(|o| o.pt == pt) else {
            return Err(ScenarioError::new(
                at.key("choose"),
                format!(
                    "{pt} is not one of the choices `{copy}` makes as it enters as a copy of `{of}`: {}",
                    listed()
                ),
            ));
        };
        if !self.bug(Mutant::CopyTakesTheOriginalChoice) {
            values.choices.push(i);
        }
        Ok(Some(i))
    }
}
