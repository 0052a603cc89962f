//! The swarm switches: the parts of the scenario space a case may use.

/// The generator's switches: the parts of the scenario space a case may
/// use (not to be confused with the protocol's features, what an engine
/// implements); swarm testing draws a subset per case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switches(pub u64);

macro_rules! switches {
    ($($name:ident = $bit:literal, $label:literal;)*) => {
        impl Switches {
            $(
                #[doc = $label]
                pub const $name: u64 = 1 << $bit;
            )*
            /// Every switch, with its name.
            pub const NAMES: &'static [(u64, &'static str)] = &[$((1 << $bit, $label)),*];
        }
    };
}

switches! {
    COUNTERS = 0, "P/T counters";
    KEYWORD_COUNTERS = 1, "keyword counters";
    HUGE = 2, "huge values";
    NEGATIVE = 3, "negative values";
    SET = 4, "setting effects";
    MODIFY = 5, "modifying effects";
    SWITCH = 6, "switching effects";
    CDA = 7, "characteristic-defining abilities";
    STATICS = 8, "static abilities";
    TYPES = 9, "type-changing effects";
    DAMAGE = 10, "noncombat damage";
    DEATHTOUCH = 11, "deathtouch";
    WITHER = 12, "wither";
    INFECT = 13, "infect";
    LIFELINK = 14, "lifelink";
    INDESTRUCTIBLE = 15, "indestructible";
    REGENERATION = 16, "regeneration";
    ZONES = 17, "zone changes";
    CLEANUP = 18, "cleanup";
    LOCKED_X = 19, "amounts read as they resolve";
    MANA = 20, "mana abilities";
    SCALE = 21, "double and triple";
    TIMESTAMPS = 22, "explicit timestamps";
    SPLIT_SBA = 23, "steps without state-based actions";
    COMBAT = 24, "combat damage";
    LEVELS = 25, "level up";
    ATTACH = 26, "Equipment and hone counters";
    CREW = 27, "Vehicles";
    UNDYING = 28, "undying and persist";
    PLANESWALKERS = 29, "planeswalkers";
    CAPS = 30, "counter limits";
    ABILITIES = 31, "losing and gaining abilities";
    SPELLS = 32, "spells with X, cast and resolved";
    ENTERS_WITH = 33, "entering with counters";
    SAGAS = 34, "Sagas";
    COUNTER_TRIGGERS = 35, "Nth-counter triggers";
    COUNTERS_FROM = 36, "counters put from another object";
    PUT_BY = 37, "who puts counters";
    CANT_HAVE_COUNTERS = 38, "can't have counters put on it";
    SICKNESS = 39, "summoning sickness";
    CONTROL = 40, "control changes";
    CHOOSE_PT = 41, "P/T chosen as it enters";
    LEVEL_ABILITIES = 42, "abilities of level bands";
    COSTS = 43, "paying costs";
    INERT_KEYWORDS = 44, "inert keywords";
    DOUBLE_COUNTERS = 45, "doubling counters";
    SHIELDS = 46, "shield counters";
    // 47 is the last bit the `later` draw gives: the switches after it
    // are derived from the bits already drawn (`derived_switches`), so
    // that no case drawn without them changes.
    BATTLES = 47, "battles";
    GRANTED_PT = 48, "granted abilities that define P/T";
    FACE_DOWN = 49, "face-down and double-faced permanents";
    COMBAT_STEPS = 50, "declared combats and their damage steps";
    COPY = 51, "copy effects";
    EXCHANGE = 52, "exchanges of powers, toughnesses and life totals";
    PREVENTION = 53, "prevention shields";
}

impl Switches {
    /// Every switch.
    pub const ALL: u64 = u64::MAX;

    /// The generator switches that use only protocol features in
    /// `supported`: what to draw cases from for an engine that declares
    /// just those. (A case can still use a feature outside them, e.g. a
    /// planeswalker among the objects; the gate skips such cases.)
    pub fn within(supported: &std::collections::BTreeSet<ptoracle_protocol::Feature>) -> u64 {
        use ptoracle_protocol::Feature as P;
        let needs: &[(u64, &[P])] = &[
            (Switches::COUNTERS, &[P::Counters]),
            (Switches::KEYWORD_COUNTERS, &[P::KeywordCounters]),
            (Switches::HUGE, &[P::HugeValues]),
            (Switches::SET, &[P::Set]),
            (Switches::MODIFY, &[P::Modify]),
            (Switches::SWITCH, &[P::Switch]),
            (Switches::CDA, &[P::Cda]),
            (Switches::STATICS, &[P::StaticAbilities]),
            (Switches::TYPES, &[P::TypeChanges]),
            (Switches::DAMAGE, &[P::Damage]),
            (Switches::DEATHTOUCH, &[P::Deathtouch]),
            (Switches::WITHER, &[P::Wither]),
            (Switches::INFECT, &[P::Infect]),
            (Switches::LIFELINK, &[P::Lifelink]),
            (Switches::INDESTRUCTIBLE, &[P::Indestructible]),
            (Switches::REGENERATION, &[P::Regeneration]),
            (Switches::ZONES, &[P::Zones]),
            (Switches::CLEANUP, &[P::Cleanup]),
            (Switches::LOCKED_X, &[P::Quantities]),
            (Switches::MANA, &[P::Mana]),
            (Switches::SCALE, &[P::Double, P::Triple]),
            (Switches::TIMESTAMPS, &[P::Timestamps]),
            (Switches::SPLIT_SBA, &[P::DeferredSba]),
            (Switches::COMBAT, &[P::CombatDamage]),
            (Switches::LEVELS, &[P::LevelUp]),
            (Switches::ATTACH, &[P::Attachments]),
            (Switches::CREW, &[P::Vehicles]),
            (Switches::UNDYING, &[P::Undying, P::Persist]),
            (Switches::PLANESWALKERS, &[P::Planeswalkers]),
            (Switches::CAPS, &[P::CounterLimits]),
            (Switches::ABILITIES, &[P::AbilityChanges]),
            (
                Switches::SPELLS,
                &[
                    P::Spells,
                    P::Zones,
                    P::Quantities,
                    P::Set,
                    P::Modify,
                    P::LockedSets,
                ],
            ),
            (Switches::ENTERS_WITH, &[P::EntersWith, P::Counters]),
            (Switches::SAGAS, &[P::Sagas, P::Counters, P::Modify]),
            (
                Switches::COUNTER_TRIGGERS,
                &[P::CounterTriggers, P::Counters, P::Modify],
            ),
            (Switches::COUNTERS_FROM, &[P::CountersFrom, P::Counters]),
            (Switches::PUT_BY, &[P::CountersPutBy]),
            (Switches::CANT_HAVE_COUNTERS, &[P::CantHaveCounters]),
            (Switches::SICKNESS, &[P::SummoningSickness]),
            (Switches::CONTROL, &[P::ControlChanges]),
            (Switches::CHOOSE_PT, &[P::ChoosePt, P::Cda]),
            (
                Switches::LEVEL_ABILITIES,
                &[P::LevelAbilities, P::StaticAbilities, P::Modify],
            ),
            (Switches::COSTS, &[P::Costs, P::Mana]),
            (Switches::INERT_KEYWORDS, &[P::InertKeywords]),
            (Switches::DOUBLE_COUNTERS, &[P::DoubleCounters, P::Counters]),
            (Switches::SHIELDS, &[P::ShieldCounters]),
            (Switches::BATTLES, &[P::Battles]),
            (Switches::GRANTED_PT, &[P::GrantedPt, P::Quantities]),
            (Switches::FACE_DOWN, &[P::FaceDown, P::Transform]),
            (Switches::EXCHANGE, &[P::Exchange]),
            (Switches::PREVENTION, &[P::Prevention]),
            (Switches::COMBAT_STEPS, &[P::Combat]),
            (Switches::COPY, &[P::Copy]),
        ];
        needs
            .iter()
            .filter(|(_, ps)| ps.iter().all(|p| supported.contains(p)))
            .fold(Switches::NEGATIVE, |m, (bit, _)| m | bit)
    }

    /// Whether switch `f` is on.
    pub fn has(self, f: u64) -> bool {
        self.0 & f != 0
    }

    /// The names of the switches that are on.
    pub fn names(self) -> Vec<&'static str> {
        Switches::NAMES
            .iter()
            .filter(|(b, _)| self.has(*b))
            .map(|(_, n)| *n)
            .collect()
    }
}
