//! Turning a permanent face down or up and transforming it, with the
//! timestamp each gets (613.7f, 613.7g).

use crate::error::NodePath;
use crate::resolver::{Bugs, Game, Log, Mutant, Res};
use crate::terms::CardType;

/// Explains the timestamp a permanent turned over or transformed got, or
/// kept, under `rule` (613.7f or 613.7g).
pub(super) fn say_stamp(log: &mut Log, stamp: Option<i64>, rule: &'static str) {
    log.line(2, || match stamp {
        Some(ts) => format!("it gets a new timestamp t={ts} [{rule}]"),
        None => format!("it keeps its timestamp: in this edition an object's timestamp is the time it entered its zone [613.7d; {rule} from 2015-07-17]"),
    });
}

impl<'c, B: Bugs> Game<'c, B> {
    /// Turns a permanent face down (`down`) or face up (708.2a, 708.8).
    /// Nothing else of it changes: the object, its counters, damage and the
    /// effects that apply to it stay (708.8); its copiable values become
    /// the face-down ones or its printed ones (eval's `Early::printed`,
    /// `starting_pt`). It gets a new timestamp where the edition gives one
    /// (613.7f; DECISIONS.md D42).
    pub(super) fn turn_over(
        &mut self,
        h: &crate::scenario::Handle,
        down: bool,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(h);
        let what = if down {
            "be turned face down"
        } else {
            "be turned face up"
        };
        self.require_battlefield(c, path, what)?;
        let name = self.cards[c].name().to_string();
        if down && self.cards[c].spec.back_face.is_some() {
            log.line(1, || {
                format!("{name} is a double-faced permanent, which can't be turned face down: nothing happens [712.16]")
            });
            return Ok(());
        }
        if self.cards[c].face_down == down {
            log.line(1, || {
                if down {
                    format!("{name} is already face down: nothing happens [708.2b]")
                } else {
                    format!("{name} is already face up: there is nothing to turn, and nothing happens [609.3]")
                }
            });
            return Ok(());
        }
        // 701.40g, 701.58g: a manifested or cloaked permanent that is an
        // instant or sorcery card is revealed and stays face down; it does
        // not turn face up, so it gets no timestamp either (613.7f). Any
        // face-down instant or sorcery of the model is one of those: morph
        // and disguise cards are permanent cards (D60).
        let types = &self.cards[c].spec.types;
        let spell = types.contains(&CardType::Instant) || types.contains(&CardType::Sorcery);
        if !down && spell && !self.bug(Mutant::FaceDownInstantTurnsUp) {
            log.line(1, || {
                format!("{name} would turn face up, but the card is an instant or sorcery: its controller reveals it and leaves it face down, a 2/2 creature [701.40g, 701.58g]")
            });
            return Ok(());
        }
        // 613.7f: a new timestamp each time it turns over (from 2015-07-17).
        let stamp = self.restamp(c, down || !self.bug(Mutant::FaceUpKeepsTimestamp));
        let card = &mut self.cards[c];
        card.face_down = down;
        // 613.2b: face-down status applied after the copy effects on it;
        // face up, those give its copiable values (707.2).
        let copy = card.copy().map(|v| v.spec.display_name().to_string());
        // 712.15a: a double-faced permanent turned face up has its front
        // face up.
        card.transformed = false;
        log.line(1, || {
            if down {
                format!("{name} is turned face down: a 2/2 creature with no name, text, subtypes or mana cost; its counters and the effects on it stay [708.2a]")
            } else {
                match &copy {
                    Some(of) => format!("{name} is turned face up: its copiable values are those of {of}, which it copies [613.2a, 613.2b, 707.2]; its counters and the effects on it stay, and its \"as it enters\" abilities do nothing [708.8]"),
                    None => format!("{name} is turned face up: its copiable values are its printed ones again; its counters and the effects on it stay, and its \"as it enters\" abilities do nothing [708.8]"),
                }
            }
        });
        say_stamp(log, stamp, "613.7f");
        Ok(())
    }

    /// 613.7f, 613.7g: the new timestamp card `c` gets as it turns over or
    /// transforms, in the editions that give one (from 2015-07-17) and
    /// unless `take` is false; before, it keeps the one it entered with.
    pub(super) fn restamp(&mut self, c: usize, take: bool) -> Option<i64> {
        if !(take && self.rules.turning_over_takes_timestamp) {
            return None;
        }
        let (ts, seq) = (self.take_ts(), self.take_seq());
        let card = &mut self.cards[c];
        card.ts = ts;
        card.seq = seq;
        Some(ts)
    }

    /// Transforms a double-faced permanent (701.27a): its other face is up.
    /// The same object: counters, damage and effects stay; a new timestamp
    /// where the edition gives one (613.7g; DECISIONS.md D43).
    pub(super) fn transform(
        &mut self,
        h: &crate::scenario::Handle,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(h);
        self.require_battlefield(c, path, "transform")?;
        let name = self.cards[c].name().to_string();
        if self.cards[c].spec.back_face.is_none() {
            log.line(1, || {
                format!("{name} is not a double-faced permanent: nothing happens [701.27c]")
            });
            return Ok(());
        }
        if self.cards[c].face_down {
            log.line(1, || {
                format!("{name} is face down, and a face-down permanent can't transform: nothing happens [712.15a]")
            });
            return Ok(());
        }
        let stamp = self.restamp(c, true);
        let card = &mut self.cards[c];
        card.transformed = !card.transformed;
        let (up, back) = (card.transformed, card.back().and_then(|b| b.name.clone()));
        log.line(1, || {
            if up {
                format!(
                    "{name} transforms: its back face{} is up, with only its characteristics; its counters and the effects on it stay [701.27a, 712.8e]",
                    back.map(|n| format!(", {n},")).unwrap_or_default()
                )
            } else {
                format!("{name} transforms: its front face is up again [701.27a, 712.8d]")
            }
        });
        say_stamp(log, stamp, "613.7g");
        Ok(())
    }
}
