//! The explanation's account of the setup: each player, each card and its
//! abilities, entry choices and the stack.

use super::card::entry_label;
use super::observe::pool;
use super::{Bugs, Card, Game, Log, Player};
use crate::scenario::{Affects, EffectSpec};

/// A player's line of the setup: life, poison and mana.
pub(super) fn describe_player(p: &Player) -> String {
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
    /// The setup in words: each player, then each card and its abilities.
    pub(super) fn describe_setup(&self, log: &mut Log) {
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
    pub(super) fn card_summary(&self, c: &Card<'c>) -> String {
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
    pub(super) fn describe_card_abilities(&self, c: &Card<'c>, log: &mut Log) {
        self.describe_printed_abilities(c, log);
        self.describe_entry_and_stack(c, log);
    }

    /// Its characteristic-defining ability, static abilities and level up
    /// bands (604.3, 611.3, 107.8).
    pub(super) fn describe_printed_abilities(&self, c: &Card<'c>, log: &mut Log) {
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
    pub(super) fn describe_entry_and_stack(&self, c: &Card<'c>, log: &mut Log) {
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
    pub(super) fn ability_text(&self, ab: &EffectSpec) -> String {
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
}
