//! Moving objects between zones: destruction, regeneration, leaving and
//! entering the battlefield, and what an object brings or triggers as it moves.

use std::collections::BTreeMap;

use super::invalid;
use crate::error::NodePath;
use crate::observation::ObjectState;
use crate::resolver::{Bugs, Eval, Fault, Game, Log, Mutant, Res, Trigger, add};
use crate::scenario::{Count, Until};
use crate::terms::{CardType, CounterKind, Keyword, Zone};
use crate::text::plural;

/// What an object that enters the battlefield comes with.
#[derive(Clone, Copy, Default)]
pub(in crate::resolver) struct Arrival<'a> {
    /// The counters it enters with (122.6).
    pub counters: Option<&'a BTreeMap<CounterKind, Count>>,
    /// The P/T its controller chooses as it enters (208.2b).
    pub choose: Option<crate::number::Pt>,
    /// It enters as a copy (707.5): its own "as this enters" abilities are
    /// not its text any more, so it makes none of their choices.
    pub entering_copy: bool,
    /// The player the effect names to put those counters on it (122.6a).
    pub by: Option<usize>,
}

impl<'c, B: Bugs> Game<'c, B> {
    /// A permanent gets a regeneration shield (701.19a).
    pub(super) fn regenerate(
        &mut self,
        h: &crate::scenario::Handle,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(h);
        self.require_battlefield(c, path, "get a regeneration shield")?;
        let card = &mut self.cards[c];
        card.shields = add(card.shields, 1, || "regeneration shields".into())?;
        let name = card.name().to_string();
        log.line(1, || format!("{name} gets a regeneration shield [701.19a]"));
        Ok(())
    }

    /// A permanent is destroyed (701.8), unless indestructible or regenerated.
    pub(super) fn destroy_action(
        &mut self,
        h: &crate::scenario::Handle,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(h);
        self.require_battlefield(c, path, "be destroyed")?;
        self.destroy_by_effect(c, "is destroyed [701.8]", log)
    }

    /// An object moves to another zone and becomes a new object (400.7); an instant or sorcery can't enter the battlefield (304.4, 307.4).
    pub(super) fn move_action(
        &mut self,
        m: &crate::scenario::MoveZone,
        by: Option<usize>,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(&m.object);
        if self.cards[c].zone == m.to {
            return Err(invalid(
                path.key("to"),
                format!("`{}` is already in the {}", m.object, m.to),
            ));
        }
        // 304.4, 307.4: an instant or sorcery that would enter the
        // battlefield stays where it is (still the same object).
        let types = &self.cards[c].spec.types;
        if m.to == Zone::Battlefield
            && (types.contains(&CardType::Instant) || types.contains(&CardType::Sorcery))
        {
            let (name, from) = (self.cards[c].name().to_string(), self.cards[c].zone);
            log.line(1, || {
                    format!("{name} is an instant or sorcery: it can't enter the battlefield and stays in the {from} [304.4, 307.4]")
                });
            return Ok(());
        }
        // 707.2, 707.5: what it enters as a copy of, and the choice it makes
        // as it enters if the copied text asks one (707.6), known before it
        // moves.
        let copy = match &m.copy {
            Some(copy) => {
                let mut values = self.copiable(self.card_index(&copy.of), copy.except_pt);
                let names = (m.object.as_str(), copy.of.as_str());
                let choice = self
                    .entering_copy_choice(&mut values, m.choose, names, path)
                    .map_err(Fault::Invalid)?;
                Some((copy, values, choice))
            }
            None => None,
        };
        let lki = self.lki_if_leaving(c)?;
        let from = self.cards[c].zone;
        let name = self.cards[c].name().to_string();
        log.line(1, || {
            format!(
                "{name} moves from the {from} to the {}: it becomes a new object [400.7, 122.2]",
                m.to
            )
        });
        let arrival = Arrival {
            counters: Some(&m.counters),
            // A copy's `choose` is the copied text's choice, above.
            choose: if copy.is_some() { None } else { m.choose },
            entering_copy: copy.is_some(),
            by,
        };
        self.move_card(c, m.to, arrival, lki, log)?;
        if let Some((copy, values, choice)) = copy {
            // 707.2: it enters as a copy, a new object; counters and
            // effects on the original are not copied.
            self.become_copy(c, copy, values, Until::Forever, log);
            if let Some(i) = choice {
                let (name, spec) = (self.cards[c].name().to_string(), self.cards[c].face());
                let what = spec
                    .enters_as
                    .get(i)
                    .map(crate::resolver::entry_label)
                    .unwrap_or_default();
                log.line(2, || {
                    format!("as {name} enters as a copy, the \"as this enters\" ability it copied applies, and its controller chooses {what}: its copiable P/T, on top of the copied values [707.5, 707.6, 208.2b]")
                });
            }
        }
        Ok(())
    }

    /// Bad input: the object must be on the battlefield for this.
    pub(in crate::resolver) fn require_battlefield(
        &self,
        c: usize,
        path: &NodePath,
        what: &str,
    ) -> Res<()> {
        let card = &self.cards[c];
        if card.on_battlefield() {
            return Ok(());
        }
        let why = if card.lki.is_some() {
            " (it has left the battlefield and is a new object, 400.7)"
        } else {
            ""
        };
        Err(invalid(
            path.clone(),
            format!(
                "`{}` is in the {}, not on the battlefield, so it can't {what}{why}",
                card.spec.id, card.zone
            ),
        ))
    }

    pub(in crate::resolver) fn lki_if_leaving(&self, c: usize) -> Res<Option<ObjectState>> {
        if !self.cards[c].on_battlefield() {
            return Ok(None);
        }
        let eval = Eval::new(self, false);
        Ok(Some(eval.object_state(c)?))
    }

    /// Destroys a permanent as the result of an effect (701.8): a shield
    /// counter is removed instead (122.1c), else as [`Game::destroy`].
    pub(in crate::resolver) fn destroy_by_effect(
        &mut self,
        c: usize,
        why: &str,
        log: &mut Log,
    ) -> Res<()> {
        let eval = Eval::new(self, false);
        let indestructible = eval.has_keyword(c, Keyword::Indestructible);
        let lki = eval.object_state(c)?;
        drop(eval);
        // 122.1c: "if this permanent would be destroyed as the result of
        // an effect, instead remove a shield counter from it". Not by a
        // state-based action (704.5g, 704.5h). An indestructible permanent
        // would not be destroyed, so its counter stays; before a
        // regeneration shield, its controller uses the counter (D39).
        let shield = CounterKind::named("shield");
        if !indestructible && self.cards[c].count(&shield) > 0 {
            self.take_counters(c, &shield, 1);
            let name = self.cards[c].name().to_string();
            log.line(1, || format!("{name} would be destroyed [701.8]; instead a shield counter is removed from it [122.1c, 614.1a]"));
            return Ok(());
        }
        self.destroy(c, indestructible, lki, why, log)
    }

    /// Destroys a permanent: indestructible ignores it (702.12b); a
    /// regeneration shield replaces it (701.19a).
    pub(in crate::resolver) fn destroy(
        &mut self,
        c: usize,
        indestructible: bool,
        lki: ObjectState,
        why: &str,
        log: &mut Log,
    ) -> Res<()> {
        let name = self.cards[c].name().to_string();
        if indestructible {
            log.line(2, || {
                format!("{name} {why}, but it is indestructible: nothing happens [702.12b]")
            });
            return Ok(());
        }
        if self.cards[c].shields > 0 {
            let card = &mut self.cards[c];
            card.shields -= 1;
            card.tapped = true;
            card.damage = 0;
            // 701.19a: "If it's an attacking or blocking creature, remove
            // it from combat" (419.6b of 2003-03-15 on, in every text).
            if self.remove_from_combat(c, true) {
                log.line(2, || format!("{name} {why}, but it regenerates instead: tapped, all damage removed, and removed from combat: it no longer attacks or blocks and deals and is dealt no combat damage [701.19a, 506.4]"));
            } else {
                log.line(2, || format!("{name} {why}, but it regenerates instead: tapped, all damage removed [701.19a]"));
            }
            return Ok(());
        }
        log.line(2, || {
            format!("{name} {why}: put into its owner's graveyard")
        });
        self.move_card(c, Zone::Graveyard, Arrival::default(), Some(lki), log)
    }

    /// Moves a card to a zone: a new object with no memory of the old one
    /// (400.7): counters cease to exist (122.2), damage and effects are gone,
    /// and its owner controls it. A permanent that enters has not been
    /// under its controller's control since their turn began (302.6), and
    /// its P/T is chosen anew if it is chosen as it enters (208.2b; `choose`,
    /// else the card's own choice).
    pub(in crate::resolver) fn move_card(
        &mut self,
        c: usize,
        to: Zone,
        arrival: Arrival<'_>,
        lki: Option<ObjectState>,
        log: &mut Log,
    ) -> Res<()> {
        let Arrival {
            counters,
            choose,
            entering_copy,
            by,
        } = arrival;
        let old = self.obj_ref(c);
        let from = self.cards[c].zone;
        // 107.3m: a permanent spell's own "enters with" effect uses the
        // spell's X, read while it is still a spell.
        let spell_x =
            if from == Zone::Stack && to == Zone::Battlefield && !self.bug(Mutant::EntersWithXZero)
            {
                Some(Eval::new(self, false).x_of(c, true, None)?)
            } else {
                None
            };
        if from == Zone::Battlefield {
            self.effects
                .retain(|e| !(e.until == Until::SourceLeaves && e.source == Some(old)));
            for other in &mut self.cards {
                if other.attached_to == Some(old) {
                    other.attached_to = None;
                }
            }
        }
        let object = self.take_object();
        let ts = self.take_ts();
        let seq = self.take_seq();
        let keep_counters = self.bug(Mutant::CountersSurviveZoneChange);
        let card = &mut self.cards[c];
        card.object = object;
        card.zone = to;
        card.ts = ts;
        card.seq = seq;
        if !keep_counters {
            card.counters.clear();
        }
        card.damage = 0;
        card.deathtouch = false;
        card.shields = 0;
        card.tapped = false;
        card.attached_to = None;
        card.controller = card.owner;
        card.continuous = false;
        // 708.9, 400.7: a face-down permanent that leaves the battlefield is
        // revealed; the new object is face up, its front face up (712.14).
        card.face_down = false;
        card.transformed = false;
        // 400.7: the new object copies nothing.
        card.copies.clear();
        if !(from == Zone::Stack
            && to == Zone::Battlefield
            && self.bugs.has(Mutant::PermanentKeepsX))
        {
            card.x = None;
        }
        card.choice = if to == Zone::Battlefield && !entering_copy {
            card.spec.entry_choice(choose)
        } else {
            None
        };
        if let Some(ch) = card.chosen() {
            let (name, what) = (card.name().to_string(), crate::resolver::entry_label(ch));
            log.line(2, || {
                format!("as {name} enters, its controller chooses {what}: its copiable P/T [208.2b, 613.2a]")
            });
        }
        if from == Zone::Battlefield {
            card.lki = lki.map(Box::new);
        }
        if to == Zone::Battlefield {
            card.lki = None;
            // 614.12: it is read as the permanent would exist on the
            // battlefield, but for the X of 107.3m.
            self.cards[c].etb_x = spell_x;
            let entering = self.enters_with(c, log);
            self.cards[c].etb_x = None;
            let entering = entering?;
            let (controller, name) = (self.cards[c].controller, self.cards[c].name().to_string());
            // 122.6a: the effect may name the player who puts the counters
            // it enters with; otherwise its controller puts them.
            let by = by.unwrap_or(controller);
            let who = self.players[by].handle.clone();
            for (kind, n) in counters.into_iter().flatten() {
                let put = self.put_counters(c, kind, n.0, by, Some((ts, seq)), log)?;
                log.line(1, || {
                    format!("{name} enters with {put} {kind} counter{}, put on it by {who} [122.6, 122.6a]", plural(put))
                });
            }
            // 122.6a: its own "enters with" ability names nobody: its
            // controller puts them.
            for (kind, n) in &entering {
                let put = self.put_counters(c, kind, *n, controller, Some((ts, seq)), log)?;
                log.line(1, || {
                    format!("{name} enters with {put} {kind} counter{}, put on it by its controller [122.6, 122.6a]", plural(put))
                });
            }
            // 714.3a: as a Saga enters, its controller puts a lore counter
            // on it, in addition to any an effect gives it.
            if self.cards[c].final_chapter().is_some() {
                let lore = CounterKind::named("lore");
                let put = self.put_counters(c, &lore, 1, controller, Some((ts, seq)), log)?;
                log.line(1, || {
                    format!("{name} enters with {put} lore counter{}, put on it by its controller [714.3a]", plural(put))
                });
            }
            // 306.5b: a planeswalker enters with its printed loyalty, in
            // addition to any loyalty counters an effect gives it; no
            // player is named, so its controller puts them (122.6a).
            let spec = self.cards[c].spec;
            if let Some(l) = spec.loyalty {
                if spec.types.contains(&CardType::Planeswalker) {
                    let loyalty = CounterKind::named("loyalty");
                    self.put_counters(c, &loyalty, l.0, controller, Some((ts, seq)), log)?;
                }
            }
            // 310.4b: a battle's intrinsic replacement effect gives it
            // its printed defense in defense counters as it enters.
            if let Some(d) = spec.defense {
                if spec.types.contains(&CardType::Battle) {
                    let defense = CounterKind::named("defense");
                    let put =
                        self.put_counters(c, &defense, d.0, controller, Some((ts, seq)), log)?;
                    log.line(1, || {
                        format!(
                            "{name} enters with {put} defense counter{} [310.4b]",
                            plural(put)
                        )
                    });
                }
            }
        }
        if from == Zone::Battlefield && to == Zone::Graveyard {
            self.death_triggers(c, log);
        }
        Ok(())
    }

    /// The counters card `c`'s own "enters with" replacement effect gives
    /// it (614.1c, 122.6), read as it enters, as it exists on the
    /// battlefield (614.12); an X is the X of the spell it was (107.3m), or
    /// 0 if it was not cast (107.3g).
    pub(super) fn enters_with(&self, c: usize, log: &mut Log) -> Res<Vec<(CounterKind, i64)>> {
        let card = &self.cards[c];
        if card.spec.enters_with.is_empty() {
            return Ok(Vec::new());
        }
        let eval = Eval::new(self, false);
        let (name, spell) = (card.name(), card.etb_x.is_some());
        let mut out = Vec::new();
        for (kind, q) in &card.spec.enters_with {
            let raw = eval.locked_quantity(q)?;
            log.line(1, || {
                format!(
                    "{name} enters the battlefield with {} {kind} counters: {raw} [614.1c, 122.6]",
                    self.describe(q)
                )
            });
            if q.reads_x() {
                log.line(2, || {
                    if spell {
                        "X is the X of the spell it was, though the permanent's own X is 0 [107.3m]"
                            .into()
                    } else {
                        "it was not cast, and X is 0 for a card that is not on the stack [107.3g]"
                            .into()
                    }
                });
            }
            if raw < 0 {
                log.line(2, || format!("{raw} is negative: it gets none [107.1b]"));
            }
            out.push((kind.clone(), raw.max(0)));
        }
        Ok(out)
    }

    /// Undying and persist look at the creature as it last existed on the
    /// battlefield (603.10a, 704.8).
    pub(super) fn death_triggers(&mut self, c: usize, log: &mut Log) {
        let card = &self.cards[c];
        let Some(lki) = &card.lki else { return };
        let name = card.name().to_string();
        for (keyword, kind, rule) in [
            (Keyword::Undying, CounterKind::PLUS_ONE, "702.93a"),
            (Keyword::Persist, CounterKind::MINUS_ONE, "702.79a"),
        ] {
            if !lki.keywords.contains(&keyword) {
                continue;
            }
            if lki.counters.get(&kind).copied().unwrap_or(0) > 0 {
                log.line(2, || {
                    format!("{keyword} does not return {name}: as it last existed on the battlefield it had a {kind} counter [{rule}, 704.8]")
                });
                continue;
            }
            log.line(2, || {
                format!("{name} had no {kind} counter: its {keyword} ability triggers [{rule}]")
            });
            self.triggers.push(Trigger {
                card: c,
                object: card.object,
                kind,
                keyword: keyword.name(),
                rule,
            });
        }
    }
}
