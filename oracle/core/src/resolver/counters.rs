//! How many counters are put: every way counters are put (a step, entering
//! with counters, a move, damage from wither or infect, a returning
//! creature, a Saga's lore counter) goes through [`Game::counters_to_put`],
//! with the player who puts them (122.6a). There "can't have counters put
//! on it" (101.2) and the abilities that make a player put more or fewer
//! counters instead (614.1a) apply.

use super::{Bugs, Eval, Game, Log, Res, Who};
use crate::number::checked;
use crate::scenario::CounterScale;
use crate::terms::CounterKind;
use crate::text::plural;

impl<'c, B: Bugs> Game<'c, B> {
    /// Whether card `c` can't have counters put on it now: it is a
    /// permanent with that static ability, which it still has after layer 6
    /// (an object that lost all its abilities can get counters again).
    pub(super) fn refuses_counters(&self, c: usize) -> bool {
        let card = &self.cards[c];
        card.spec.cant_have_counters_put
            && card.on_battlefield()
            && self.refuses_in(&Eval::new(self, false), c)
    }

    fn refuses_in(&self, eval: &Eval<'_, 'c, B>, c: usize) -> bool {
        let card = &self.cards[c];
        // 113.6: the ability works while its object is on the battlefield;
        // 613.1f: it is gone once layer 6 has removed it.
        card.spec.cant_have_counters_put && card.on_battlefield() && eval.early[c].abilities
    }

    /// How many of the `n` counters of `kind` that player `by` would put
    /// on `on` are put. On a permanent that can't have counters put on it,
    /// none (101.2: the "can't" wins). Otherwise each ability that makes a
    /// player put twice or half as many (Vorinclex, Monstrous Raider)
    /// applies once (614.1a, 614.5), choosing by whether `by` controls its
    /// object or is an opponent, in the timestamp order of their objects
    /// (616.1 leaves the order to a player; see DECISIONS.md, D33). Only
    /// counters put on a permanent or a player are changed, not those put
    /// on a card in another zone. `entering`: the counters are those `on`
    /// enters the battlefield with.
    pub(super) fn counters_to_put(
        &self,
        on: Who,
        kind: &CounterKind,
        n: i64,
        by: usize,
        entering: bool,
        log: &mut Log,
    ) -> Res<i64> {
        if n <= 0 || !self.counter_rules {
            return Ok(n.max(0));
        }
        let what = match on {
            Who::Card(c) if !self.cards[c].on_battlefield() => return Ok(n),
            Who::Card(c) => self.cards[c].name().to_string(),
            Who::Player(p) => self.players[p].handle.to_string(),
        };
        let eval = Eval::new(self, false);
        let who = self.players[by].handle.clone();
        if let Who::Card(c) = on {
            if self.refuses_in(&eval, c) {
                log.line(1, || {
                    format!("{what} can't have counters put on it: the {n} {kind} counter{} {who} would put on it are not put [101.2, 122.6]", plural(n))
                });
                return Ok(0);
            }
        }
        let mut scalers: Vec<(i64, u64, usize, CounterScale)> = self
            .cards
            .iter()
            .enumerate()
            .filter_map(|(v, card)| {
                let rule = card.spec.counters_put_by.as_ref()?;
                if !card.on_battlefield() || !eval.early[v].abilities {
                    return None;
                }
                // 614.12: how a permanent enters is changed by its own
                // replacement effects only if they affect it alone; this
                // one affects every permanent and player, so it does not
                // change the counters its own object enters with.
                if entering && on == Who::Card(v) {
                    return None;
                }
                let scale = if card.controller == by {
                    rule.you
                } else {
                    rule.opponents
                }?;
                Some((card.ts, card.seq, v, scale))
            })
            .collect();
        drop(eval);
        scalers.sort_by_key(|&(ts, seq, ..)| (ts, seq));
        let mut count = n;
        for (_, _, v, scale) in scalers {
            // 614.1a: "if … would put one or more counters": with none
            // left to put there is no such event.
            if count == 0 {
                break;
            }
            let was = count;
            count = match scale {
                CounterScale::Twice => checked(count.checked_mul(2), || {
                    format!("twice {count} {kind} counters on {what}")
                })?,
                // 107.1a: the card says to round down; `count` is positive.
                CounterScale::HalfDown => count / 2,
            };
            let src = self.cards[v].name().to_string();
            let role = if self.cards[v].controller == by {
                "its controller"
            } else {
                "an opponent of its controller"
            };
            log.line(1, || {
                format!("{src}'s ability: {who}, {role}, would put {was} {kind} counter{} on {what}, and instead puts {scale}: {count} [614.1a, 107.1a]", plural(was))
            });
        }
        Ok(count)
    }
}
