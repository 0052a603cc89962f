//! A game set up from a case's `setup`: players, cards and their
//! abilities, refused where the rules make the setup impossible.

use super::card::level_abilities;
use super::{Bugs, Card, CopyEffect, Game, Player, Stack, Who};
use std::collections::BTreeMap;

use crate::edition::Rules;
use crate::error::{NodePath, ResolveError, ScenarioError};
use crate::scenario::{Case, Until};
use crate::terms::Zone;

impl<'c, B: Bugs> Game<'c, B> {
    pub(super) fn new(
        case: &'c Case,
        rules: &'static Rules,
        bugs: B,
    ) -> Result<Game<'c, B>, ResolveError> {
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
}
