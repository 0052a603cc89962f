//! Deliberately broken resolvers: each mutant is one rules bug of a kind
//! real engines have had. They exist to prove that the invariants of
//! `ptoracle explore` and the corpus can fail; nothing uses them unless
//! asked to by name (`--mutant NAME`).
//!
//! Each bug stands next to the rule it breaks, as `if self.bug(Mutant::X)`,
//! so a reader sees the rule and the way engines get it wrong together. The
//! resolver is generic over [`Bugs`]: the reference plays with
//! [`Reference`], whose answer is the constant `false`, so in the
//! reference's instance of the resolver every such branch is compiled
//! away and its hot paths test nothing; only the [`Mutated`] instance
//! (one bug, chosen at run time) keeps the tests.

use std::fmt;

macro_rules! mutants {
    ($($variant:ident => $name:literal, $bug:literal;)*) => {
        /// A deliberate rules bug, switched on in [`super::Options::mutant`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Mutant {
            $(
                #[doc = $bug]
                $variant,
            )*
        }

        impl Mutant {
            /// Every mutant.
            pub const ALL: &'static [Mutant] = &[$(Mutant::$variant),*];

            /// Its name on the command line.
            pub fn name(self) -> &'static str {
                match self {
                    $(Mutant::$variant => $name,)*
                }
            }

            /// The bug it has.
            pub fn bug(self) -> &'static str {
                match self {
                    $(Mutant::$variant => $bug,)*
                }
            }
        }
    };
}

mutants! {
    WrappingCounters => "wrapping-counters", "counters add to P/T with wrapping arithmetic instead of reporting an overflow (107.1)";
    NoAnnihilation => "no-annihilation", "+1/+1 and -1/-1 counters never annihilate (704.5q)";
    LopsidedAnnihilation => "lopsided-annihilation", "annihilation removes every -1/-1 counter instead of as many as the +1/+1 counters (704.5q)";
    ZeroToughnessIsDestruction => "zero-toughness-is-destruction", "toughness 0 or less destroys, so indestructible and regeneration save the creature (704.5f)";
    LethalIsGreater => "lethal-is-greater", "lethal damage means more damage than toughness, not as much (704.5g)";
    DeathtouchIgnored => "deathtouch-ignored", "damage from a deathtouch source does not destroy (704.5h)";
    AbsolutePowerInCombat => "absolute-power-in-combat", "a creature with negative power deals combat damage equal to its absolute value (510.1a)";
    UnclampedX => "unclamped-x", "a negative X in +X/+X is used as is instead of 0 (107.1b)";
    UnclampedMana => "unclamped-mana", "mana equal to a negative power subtracts from the pool instead of adding none (107.1b)";
    SetSharesTimestamps => "set-shares-timestamps", "setting effects share one timestamp order with modifying effects instead of applying first (613.4b)";
    ClampIntermediate => "clamp-intermediate", "power and toughness are clamped at 0 after every modification (107.1b)";
    SwitchIsFlag => "switch-is-flag", "any number of switches switch once (613.4d)";
    CountersAfterSwitch => "counters-after-switch", "P/T counters are added after the switch instead of before it (613.4c)";
    CountersInFourthSublayer => "counters-in-fourth-sublayer", "P/T counters apply in the fourth sublayer of layer 7 whatever it holds, as in the 2009–2020 plan (7d), so since 2020-04-17 they share the switch's timestamp order (613.4c, 613.4d)";
    DamageLowersToughness => "damage-lowers-toughness", "marked damage is subtracted from toughness (120.3e)";
    CleanupKeepsDamage => "cleanup-keeps-damage", "cleanup does not remove marked damage (514.2)";
    CleanupKeepsEffects => "cleanup-keeps-effects", "\"until end of turn\" effects outlive the cleanup step (514.2)";
    CountersSurviveZoneChange => "counters-survive-zone-change", "counters stay on a card that changes zones (122.2)";
    SingleSbaPass => "single-sba-pass", "state-based actions are checked once instead of until none applies (704.3)";
    Nondeterministic => "nondeterministic", "effects with equal timestamps apply in an order that changes from run to run (613.7)";
    LossyWriter => "lossy-writer", "a written ruling loses its `sba: false` flags";
    LkiAfterAnnihilation => "lki-after-annihilation", "last known information is taken after counters annihilate (704.8)";
    BaseIncludesModifications => "base-includes-modifications", "base P/T includes 7c modifications and counters (208.4b)";
    NoncreatureHasPt => "noncreature-has-pt", "a noncreature permanent has its printed P/T (208.3)";
    TotalClampsNegative => "total-clamps-negative", "total power and toughness counts a negative power as 0 (107.1b)";
    DoubleClampsNegative => "double-clamps-negative", "doubling or tripling a negative value adds 0 instead of lowering it (701.10c)";
    PoisonAtEleven => "poison-at-eleven", "a player loses to poison only with more than 10 counters (704.5c)";
    SetWipesCounters => "set-wipes-counters", "a 7b setting effect also discards the P/T counters on the creature (613.4b, 613.4c)";
    WitherMarksDamage => "wither-marks-damage", "damage from a source with wither or infect is marked on a creature instead of becoming -1/-1 counters (120.3d)";
    PumpsFollowSource => "pumps-follow-source", "a resolved effect stops applying when its source loses its abilities, as a static ability would (611.2a, 113.7a)";
    CdaOnlyOnBattlefield => "cda-only-on-battlefield", "a characteristic-defining ability works only on the battlefield, so `*` is 0 in other zones (604.3)";
    ColorlessAsGeneric => "colorless-as-generic", "{C} in a cost is paid with mana of any type, as {1} is (107.4c)";
    LifeAbovePayment => "life-above-payment", "a player pays life only with more life than the payment, not as much (119.4)";
    SnowIgnored => "snow-ignored", "any mana pays {S}, not only mana from snow sources (107.4h)";
    XFixedAtCast => "x-fixed-at-cast", "an X the card's text defines is read once as the spell is cast instead of whenever it is needed while the spell is on the stack (107.3c)";
    PermanentKeepsX => "permanent-keeps-x", "a permanent spell keeps its X on the battlefield, so its mana value counts it (107.3g, 202.3e)";
    EntersWithXZero => "enters-with-x-zero", "\"enters with X counters\" reads the permanent's own X, 0, instead of the spell's (107.3m)";
    XReread => "x-reread", "an X read as an effect resolves is read again whenever the effect applies instead of staying locked in (608.2h)";
    RemovalTakesTimestamp => "removal-takes-timestamp", "removing counters takes a timestamp, so every effect created later is numbered one higher (613.7)";
    EnteringCountersTakeTimestamp => "entering-counters-take-timestamp", "the counters an object enters the battlefield with take a timestamp of their own instead of sharing the object's (613.7, 122.6)";
    DoubleCountersSetsCount => "double-counters-sets-count", "doubling counters sets the number to twice as many instead of putting that many more, so nothing that changes putting counters applies: can't-have-counters, Vorinclex-style doubling, Nth-counter triggers (701.10e)";
    GrantedPtAsCda => "granted-pt-as-cda", "an ability that an effect grants and that defines P/T (Svogthos's \"becomes a creature with 'its power and toughness are each equal to …'\") applies in 7a like a characteristic-defining ability, under every setting effect, instead of in 7b in timestamp order (604.3a, 613.4b)";
    ExchangeModifies => "exchange-modifies", "an exchange of powers or toughnesses gives each creature the difference as a +N/+0 or +0/+N modification in 7c instead of setting the value in 7b, so later setting effects don't override it and the effects already there are counted twice or not at all (701.12g, 613.4b)";
    TrampleIgnoresMarkedDamage => "trample-ignores-marked-damage", "lethal damage for assigning combat damage (to the next blocker, or past the blockers with trample) is read from toughness alone, ignoring the damage already marked on the blocker (510.1c, 702.19b)";
    FirstStrikeStrikesTwice => "first-strike-strikes-twice", "a creature that dealt combat damage in the first-strike step assigns combat damage again in the second step, as if it had double strike (510.4, 702.7b)";
    PreventionShieldWholeEvent => "prevention-shield-whole-event", "a \"prevent the next N damage\" shield prevents all the damage of an event, however much more than N it is, as a shield counter does, instead of N in all (615.7)";
    GrantedPtOutlivesLoss => "granted-pt-outlives-loss", "an ability that an effect grants and that defines P/T survives a later effect that removes all abilities, as if it were a setting effect rather than an ability (613.1f, 604.3a)";
    ShieldPerSource => "shield-per-source", "each source's damage to a permanent with shield counters uses one shield counter, so damage from several sources at once removes several or gets through, instead of all of it being prevented for one counter (122.1c)";
    CopyKeepsCountersAndPumps => "copy-keeps-counters-and-pumps", "a copy takes the original's power and toughness as they are, with its counters and the effects on it, instead of its copiable values: its printed P/T as modified by copy effects, face-down status and the choice made as it entered (707.2)";
    FaceDownKeepsPrinted => "face-down-keeps-printed", "a face-down permanent keeps its printed power and toughness instead of being a 2/2 (708.2a)";
    FaceUpKeepsTimestamp => "face-up-keeps-timestamp", "a permanent turned face up keeps the timestamp it entered with, so its static abilities apply before the effects created while it was face down (613.7f)";
    FaceDownInstantTurnsUp => "face-down-instant-turns-up", "a manifested or cloaked instant or sorcery card turns face up when told to, an instant or sorcery on the battlefield with no power or toughness, instead of being revealed and staying a face-down 2/2 creature (701.40g, 701.58g)";
    CopiedAbilityKeepsObjectTimestamp => "copied-ability-keeps-object-timestamp", "the static abilities a permanent has through a copy effect apply with the permanent's own timestamp even when the copy effect's is later, so effects created between the two override them (613.7a)";
    CopyTakesTheOriginalChoice => "copy-takes-the-original-choice", "a permanent entering as a copy of one whose power and toughness were chosen as it entered keeps the original's choice instead of making its own (707.5, 707.6)";
    CopyKeepsCda => "copy-keeps-cda", "a copy effect whose exception sets P/T (\"except it's 7/7\") copies the original's characteristic-defining ability too, which then overrides the exception in 7a, as before the text of 2011-02-04 (707.9d)";
    DamageKeywordsFromCard => "damage-keywords-from-card", "a source that left the battlefield before dealing damage has the keywords of the card where it is now, not those it last had on the battlefield, so its deathtouch and lifelink are lost (702.2e, 702.15c)";
    StateBasedDestroysSeparately => "state-based-destroys-separately", "lethal damage and deathtouch damage destroy a creature as two events, so one regeneration shield does not save it from both, as when deathtouch was a trigger (704.7, 704.5g, 704.5h)";
    SetsWithItsTypes => "sets-with-its-types", "an effect that also changes types (\"becomes a 3/3 creature\") sets P/T with its types, before every setting effect that changes none whatever their timestamps, as the rules of 2003 to 2005 did (613.6, 613.4b)";
    RemovedFromCombatStillFights => "removed-from-combat-still-fights", "a creature that regenerates or changes controller, or a planeswalker or battle whose controller changes, stays in combat: it still deals and is dealt combat damage in the next damage step, or is still attacked (506.4, 701.19a)";
    TrampleExcessLostWithoutDefender => "trample-excess-lost-without-defender", "a trampler whose planeswalker or battle has left combat assigns its blockers only lethal damage and loses the rest, instead of assigning all its damage among them (510.1a, 702.19b)";
    FreeDivisionFollowsOrder => "free-division-follows-order", "a blocked creature's damage is assigned as if the damage assignment order bound it even where its controller divides it freely: lethal damage to each blocker in the order they were declared, the rest to the last, whatever division the attacking player chose (510.1c)";
    SiegeToGraveyard => "siege-to-graveyard", "a battle with defense 0 is put into its owner's graveyard even while the Siege ability that its last defense counter triggered waits to resolve, instead of being exiled by it (704.5v, 310.11b)";
}

impl Mutant {
    /// Whether it is a rules bug of the resolver (every mutant but
    /// `lossy-writer`, which breaks the ruling writer of `explore`): the
    /// mutants `ptoracle serve` offers.
    pub fn is_rules_bug(self) -> bool {
        self != Mutant::LossyWriter
    }

    /// The mutant with this name.
    pub fn parse(name: &str) -> Result<Mutant, String> {
        Mutant::ALL
            .iter()
            .copied()
            .find(|m| m.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Mutant::ALL.iter().map(|m| m.name()).collect();
                format!(
                    "unknown mutant `{name}`; known mutants: {}",
                    names.join(", ")
                )
            })
    }
}

impl fmt::Display for Mutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which deliberate bugs a game plays with (see the module's docs).
pub(crate) trait Bugs: Copy + fmt::Debug {
    /// Whether the game plays with bug `m`.
    fn has(self, m: Mutant) -> bool;
}

/// The reference resolver: no bug, a constant answer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reference;

impl Bugs for Reference {
    #[inline(always)]
    fn has(self, _: Mutant) -> bool {
        false
    }
}

/// A resolver with one bug, chosen at run time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mutated(pub Mutant);

impl Bugs for Mutated {
    #[inline]
    fn has(self, m: Mutant) -> bool {
        self.0 == m
    }
}
