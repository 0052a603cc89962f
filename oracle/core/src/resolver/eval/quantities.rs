//! The numbers an effect reads: live, or locked as it began (608.2h, 611.2b).

use super::Eval;
use crate::number::Overflow;
use crate::resolver::{Bugs, Mutant, add};
use crate::scenario::{Quantity, QuantityRef};
use crate::terms::Zone;

impl<'g, 'c, B: Bugs> Eval<'g, 'c, B> {
    /// A quantity read continuously (a characteristic-defining ability, a
    /// static ability's X), while computing `reader`'s characteristics.
    pub(super) fn live_quantity(&self, q: &Quantity, reader: usize) -> Result<i64, Overflow> {
        self.quantity(q, false, Some(reader))
    }

    /// A quantity read once, as an ability resolves (608.2h): an object that
    /// has left the battlefield is read from its last known information.
    pub fn locked_quantity(&self, q: &Quantity) -> Result<i64, Overflow> {
        self.quantity(q, true, None)
    }

    pub(super) fn quantity(
        &self,
        q: &Quantity,
        locked: bool,
        reader: Option<usize>,
    ) -> Result<i64, Overflow> {
        let r = match q {
            Quantity::Fixed(n) => return Ok(*n),
            Quantity::Ref(r) => r,
        };
        let g = self.g;
        Ok(match r.as_ref() {
            QuantityRef::PowerOf(h) | QuantityRef::ToughnessOf(h) => {
                let power = matches!(r.as_ref(), QuantityRef::PowerOf(_));
                let c = g.card_index(h);
                let card = &g.cards[c];
                if locked && !card.on_battlefield() {
                    if let Some(lki) = &card.lki {
                        return Ok(lki
                            .pt
                            .map_or(0, |p| if power { p.power } else { p.toughness }));
                    }
                }
                // 208.2a: a number that can't be determined is 0. A read
                // that loops back to an object still being computed can't
                // be determined, and neither can any read between two
                // objects of that loop (see DECISIONS.md).
                if self.is_busy(c) {
                    self.close_loop(c);
                } else {
                    let v = self.pt(c)?;
                    if !reader.is_some_and(|rd| self.in_one_loop(rd, c)) {
                        return Ok(v.map_or(0, |i| if power { i.pt.power } else { i.pt.toughness }));
                    }
                }
                if let Some(rd) = reader {
                    self.line(rd, 1, || {
                        format!(
                            "{} can't be determined (a loop of reads): 0 [208.2a, 107.2]",
                            g.describe(q)
                        )
                    });
                }
                0
            }
            QuantityRef::Counters(on) => g.cards[g.card_index(&on.on)].count(&on.kind),
            QuantityRef::Count(f) => {
                if let Some(n) = self.counts.borrow().get(f) {
                    return Ok(*n);
                }
                let n = (0..g.cards.len())
                    .filter(|c| self.matches(f, *c, &self.early[*c], None))
                    .count();
                let n = i64::try_from(n).unwrap_or(i64::MAX);
                self.counts.borrow_mut().insert(f.clone(), n);
                n
            }
            QuantityRef::Life(p) => g.players[g.player_index(p)].life,
            QuantityRef::HandSize(p) => {
                let pi = g.player_index(p);
                let in_hand = self.in_hand.get_or_init(|| {
                    let mut v = vec![0i64; g.players.len()];
                    for c in g.cards.iter().filter(|c| c.zone == Zone::Hand) {
                        if let Some(n) = v.get_mut(c.controller) {
                            *n = n.saturating_add(1);
                        }
                    }
                    v
                });
                add(
                    g.players[pi].hand,
                    in_hand.get(pi).copied().unwrap_or(0),
                    || format!("the hand size of {p}"),
                )?
            }
            QuantityRef::XOf(h) => {
                let c = g.card_index(h);
                match g.cards[c].etb_x {
                    // 107.3m: in its own "enters with" effect.
                    Some(x) => x,
                    None => self.x_of(c, locked, reader)?,
                }
            }
            QuantityRef::ManaValueOf(h) => {
                let c = g.card_index(h);
                // 707.2: a copy's mana cost is the original's.
                let spec = g.cards[c].face();
                match &spec.mana_cost {
                    // 708.2a: a face-down permanent has no mana cost.
                    _ if g.cards[c].blank() => 0,
                    // 202.3e: X counts as its value on the stack, 0 elsewhere;
                    // 107.1b: a negative X counts as 0 in the sum.
                    Some(cost) => {
                        let x = self.x_of(c, locked, reader)?.max(0);
                        cost.mana_value(x).ok_or_else(|| Overflow {
                            what: format!("the mana value of {}", g.cards[c].name()),
                        })?
                    }
                    None => spec.mana_value.0,
                }
            }
            QuantityRef::Half(h) => h.apply(self.quantity(&h.of, locked, reader)?),
            QuantityRef::Sum(v) => {
                let mut total = 0i64;
                for q in v {
                    let n = self.quantity(q, locked, reader)?;
                    total = add(total, n, || "a sum".into())?;
                }
                total
            }
        })
    }

    /// The value of X for card `c` (107.3): while it is a spell on the
    /// stack, the value defined by its text (107.3c, read now) or
    /// announced as it was cast (107.3a); 0 anywhere else (107.3g).
    pub fn x_of(&self, c: usize, locked: bool, reader: Option<usize>) -> Result<i64, Overflow> {
        let card = &self.g.cards[c];
        if self.g.bug(Mutant::PermanentKeepsX) || self.g.bug(Mutant::XFixedAtCast) {
            if let Some(x) = card.x {
                return Ok(x);
            }
        }
        if card.zone != Zone::Stack {
            return Ok(0);
        }
        match &card.spec.x_is {
            // Validation keeps X and mana values out of `x_is`: no loop.
            Some(q) => self.quantity(q, locked, reader),
            None => Ok(card.x.unwrap_or(0)),
        }
    }
}
