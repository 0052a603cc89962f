//! An object's power and toughness, computed lazily per object, with loops
//! of reads counted as 0 (208.2a, 107.2), and the value layer 7 starts from.

use super::{Eval, PtInfo, Slot, Wide};
use crate::number::{Overflow, Pt};
use crate::resolver::{Bugs, Line, Mutant};
use crate::terms::CardType;

impl<'g, 'c, B: Bugs> Eval<'g, 'c, B> {
    /// The P/T of card `c`, if it has any (208.3).
    pub fn pt(&self, c: usize) -> Result<Option<PtInfo>, Overflow> {
        match &self.pt.borrow()[c] {
            Slot::Done(r) => return r.clone(),
            // A loop of reads (208.2a): the caller treats it as undeterminable.
            Slot::Busy => return Ok(None),
            Slot::Todo => {}
        }
        self.pt.borrow_mut()[c] = Slot::Busy;
        self.computing.borrow_mut().push(c);
        let r = self.compute_pt(c);
        self.computing.borrow_mut().pop();
        self.pt.borrow_mut()[c] = Slot::Done(r.clone());
        r
    }

    /// Records that the object being computed reads `c`, which is itself
    /// being computed: every object from `c` up to the reader forms a loop
    /// of reads, merged with any loop they already belong to.
    pub(super) fn close_loop(&self, c: usize) {
        let computing = self.computing.borrow();
        let from = computing.iter().position(|&x| x == c).unwrap_or(0);
        let mut loops = self.loop_of.borrow_mut();
        let members: Vec<usize> = computing[from..].to_vec();
        let old: Vec<usize> = members.iter().filter_map(|&m| loops[m]).collect();
        let label = c;
        for slot in loops.iter_mut() {
            if slot.is_some_and(|l| old.contains(&l)) {
                *slot = Some(label);
            }
        }
        for m in members {
            loops[m] = Some(label);
        }
    }

    /// Whether `a` and `b` read each other's P/T through a loop.
    pub(super) fn in_one_loop(&self, a: usize, b: usize) -> bool {
        let loops = self.loop_of.borrow();
        loops[a].is_some() && loops[a] == loops[b]
    }

    pub(super) fn is_busy(&self, c: usize) -> bool {
        matches!(self.pt.borrow()[c], Slot::Busy)
    }

    pub(super) fn line(&self, c: usize, depth: u8, text: impl FnOnce() -> String) {
        if self.tracing {
            self.pt_lines.borrow_mut()[c].push(Line {
                depth,
                text: text(),
            });
        }
    }

    pub(super) fn compute_pt(&self, c: usize) -> Result<Option<PtInfo>, Overflow> {
        let g = self.g;
        let card = &g.cards[c];
        let on_bf = card.on_battlefield();
        let creature = self.early[c].types.has(CardType::Creature);
        // 208.3: a noncreature permanent has no P/T; off the battlefield, a
        // noncreature object has P/T only if it is printed.
        if !creature && (on_bf || card.spec.pt.is_none()) {
            if let (true, true, Some(p)) = (g.bug(Mutant::NoncreatureHasPt), on_bf, card.spec.pt) {
                let pt = Pt::new(
                    p.power.value(0).unwrap_or(0),
                    p.toughness.value(0).unwrap_or(0),
                );
                return Ok(Some(PtInfo { pt, base: pt }));
            }
            return Ok(None);
        }
        let who = || format!("{} ({})", card.name(), card.spec.id);
        let start = self.starting_pt(c);
        let entries = self.layer7_entries(c, creature);
        let (mut pt, mut base) = self.apply_layer7(c, &entries, start, &who)?;
        if g.bug(Mutant::BaseIncludesModifications) {
            base = pt;
        }
        if on_bf && g.bug(Mutant::DamageLowersToughness) {
            pt.toughness -= i128::from(card.damage);
        }
        let (pt, base) = (pt.narrow(&who)?, base.narrow(&who)?);
        self.line(c, 0, || format!("= {pt}, base {base} [208.4b]"));
        Ok(Some(PtInfo { pt, base }))
    }

    /// Where layer 7 starts for creature `c`: its copiable P/T (208.2b,
    /// 208.5), explained.
    pub(super) fn starting_pt(&self, c: usize) -> Wide {
        let card = &self.g.cards[c];
        // 708.2a: a face-down permanent is a 2/2 whatever is printed; those
        // are its copiable values, under every effect and counter.
        if card.face_down && !self.g.bug(Mutant::FaceDownKeepsPrinted) {
            self.line(c, 0, || {
                "face down: 2/2, its copiable P/T [708.2a, 613.2a]".into()
            });
            return Wide::of(Pt::new(2, 2));
        }
        if let Some(cp) = card.copy() {
            // 707.9b: an exception of the copy effect that sets P/T is its
            // copiable P/T.
            if let Some(pt) = cp.except_pt {
                self.line(c, 0, || {
                    format!("a copy \"except it's {pt}\": {pt}, its copiable P/T [707.9b, 613.2a]")
                });
                if cp.spec.cda.is_some() && !self.exception_drops_cda() {
                    self.line(c, 0, || {
                        "the ability that defines the original's P/T is copied with the rest: 706.8d (707.9d now) leaves it out only from the text of 2011-02-04 [604.3a, 613.4a]".into()
                    });
                }
                return Wide::of(pt);
            }
            // 707.2: a copy of a face-down permanent copies 708.2a's values.
            if cp.face_down {
                self.line(c, 0, || {
                    "a copy of a face-down permanent: 2/2, its copiable P/T [707.2, 708.2a]".into()
                });
                return Wide::of(Pt::new(2, 2));
            }
            self.line(c, 0, || {
                format!(
                    "a copy of {}: its copiable values are that card's, not its counters or effects [707.2, 613.2a]",
                    cp.spec.display_name()
                )
            });
        }
        // 712.8e: transformed, its back face's P/T (none: 0/0, 208.5).
        if let Some(b) = card.back() {
            let pt = b.pt.unwrap_or(Pt::new(0, 0));
            self.line(c, 0, || format!("back face up: printed {pt} [712.8e]"));
            return Wide::of(pt);
        }
        let face = card.face();
        let printed = face.pt;
        let chosen = card.chosen();
        let start = Wide::of(match (chosen, printed) {
            // 208.2b: the values chosen as it entered are its copiable P/T.
            (Some(ch), _) => ch.pt,
            // 208.2b: off the battlefield, a card whose P/T is chosen as it
            // enters has power and toughness 0.
            (None, _) if !face.enters_as.is_empty() => Pt::new(0, 0),
            (None, Some(p)) => Pt::new(
                p.power.value(0).unwrap_or(0),
                p.toughness.value(0).unwrap_or(0),
            ),
            // 208.5: a creature with no value for P/T has 0.
            (None, None) => Pt::new(0, 0),
        });
        match printed {
            _ if card.choices().nth(1).is_some() => self.line(c, 0, || {
                let all: Vec<String> = card.choices().map(crate::resolver::entry_label).collect();
                format!(
                    "chosen as the original and the copies after it entered: {}; the last sets its copiable P/T, each adds its keywords [208.2b, 707.2, 707.6, 613.2a]",
                    all.join(", then ")
                )
            }),
            _ if chosen.is_some() => self.line(c, 0, || {
                format!(
                    "chosen as it entered: {}, its copiable P/T [208.2b, 613.2a]",
                    chosen.map(crate::resolver::entry_label).unwrap_or_default()
                )
            }),
            _ if !face.enters_as.is_empty() => self.line(c, 0, || {
                "its P/T is chosen only as it enters the battlefield: 0/0 here [208.2b]".into()
            }),
            Some(p) => self.line(c, 0, || {
                if p.has_star() {
                    format!("printed {p}, each * counting 0 until defined [208.2a, 208.5]")
                } else {
                    format!("printed {p} [208.1, 302.4c]")
                }
            }),
            None => self.line(c, 0, || "no printed P/T: 0/0 [208.5]".into()),
        }
        start
    }

    /// Whether a copy effect whose exception sets P/T leaves out the
    /// original's ability that defines P/T: 707.9d (706.8d of 2011-02-04).
    /// Before that text the ability was copied like any other, and applied
    /// in 7a over the exception (612.3a of 2009-07-11, DECISIONS.md D70).
    pub(super) fn exception_drops_cda(&self) -> bool {
        self.g.rules.copy_exception_drops_cda && !self.g.bug(Mutant::CopyKeepsCda)
    }
}
