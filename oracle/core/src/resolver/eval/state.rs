//! An object's observable state and the questions the resolver asks of it.

use super::Eval;
use crate::observation::ObjectState;
use crate::resolver::{Bugs, Log, Mutant, Res, add};
use crate::terms::{CardType, Keyword};

impl<'g, 'c, B: Bugs> Eval<'g, 'c, B> {
    /// Whether card `c` has keyword `k` now.
    pub fn has_keyword(&self, c: usize, k: Keyword) -> bool {
        self.early[c].keywords.has(k)
    }

    /// Whether card `c` has card type `t` now.
    pub fn has_type(&self, c: usize, t: CardType) -> bool {
        self.early[c].types.has(t)
    }

    /// The observable state of card `c` (without its last known information).
    pub fn object_state(&self, c: usize) -> Res<ObjectState> {
        let g = self.g;
        let card = &g.cards[c];
        let e = &self.early[c];
        let info = self.pt(c)?;
        let pt = info.map(|i| i.pt);
        let total = match pt {
            Some(p) if g.bug(Mutant::TotalClampsNegative) => {
                p.power.max(0).checked_add(p.toughness)
            }
            // K.10.3 (1999): a negative value counts as 0 but to change P/T.
            Some(p) if g.rules.negative_counts_as_zero => {
                Some(add(p.power.max(0), p.toughness.max(0), || {
                    format!("the total power and toughness of {}", card.spec.id)
                })?)
            }
            Some(p) => Some(add(p.power, p.toughness, || {
                format!("the total power and toughness of {}", card.spec.id)
            })?),
            None => None,
        };
        Ok(ObjectState {
            zone: card.zone,
            types: e.types.to_vec(),
            colors: e.colors.to_vec(),
            pt,
            base_pt: info.map(|i| i.base),
            total,
            // 510.1a: a creature whose power is 0 or less assigns no combat damage.
            combat_damage: pt.map(|p| p.power.max(0)),
            counters: card
                .counters
                .iter()
                .filter(|(_, s)| s.count > 0)
                .map(|(k, s)| (k.clone(), s.count))
                .collect(),
            damage: card.damage,
            deathtouch_damage: card.deathtouch,
            keywords: e.keywords.to_vec(),
            tapped: card.tapped,
            regeneration_shields: card.shields,
            attached_to: card
                .attached_to
                .and_then(|r| g.live(r))
                .map(|t| g.cards[t].spec.id.clone()),
            summoning_sick: self.summoning_sick(c),
            lki: None,
        })
    }

    /// 302.6: a creature can't attack or use {T} and {Q} abilities unless
    /// it has been under its controller's control continuously since their
    /// most recent turn began; haste lifts that (702.10b). Whether it is a
    /// creature and has haste is read now, whenever it became one or got
    /// or lost haste; how long it has been controlled does not depend on
    /// when it became a creature.
    pub fn summoning_sick(&self, c: usize) -> bool {
        let card = &self.g.cards[c];
        card.on_battlefield()
            && !card.continuous
            && self.has_type(c, CardType::Creature)
            && !self.has_keyword(c, Keyword::Haste)
    }

    /// Writes, for every permanent, how its characteristics came about.
    pub fn explain_battlefield(&self, log: &mut Log) -> Res<()> {
        for (c, card) in self.g.cards.iter().enumerate() {
            if !card.on_battlefield() {
                continue;
            }
            let info = self.pt(c)?;
            let head = match info {
                Some(i) => format!("{} ({}) is {}", card.name(), card.spec.id, i.pt),
                None => format!(
                    "{} ({}) is not a creature: no power or toughness [208.3]",
                    card.name(),
                    card.spec.id
                ),
            };
            log.line(1, || head);
            for l in &self.early_lines[c] {
                log.line(2 + l.depth, || l.text.clone());
            }
            if !card.continuous && self.has_type(c, CardType::Creature) {
                log.line(2, || {
                    if self.has_keyword(c, Keyword::Haste) {
                        "not under its controller's control continuously since their most recent turn began, but it has haste: it can attack and use {T} abilities [302.6, 702.10b]".into()
                    } else {
                        "summoning sick: not under its controller's control continuously since their most recent turn began, so it can't attack or use {T} abilities [302.6]".into()
                    }
                });
            }
            if info.is_some() {
                for l in &self.pt_lines.borrow()[c] {
                    log.line(2 + l.depth, || l.text.clone());
                }
            }
        }
        Ok(())
    }
}
