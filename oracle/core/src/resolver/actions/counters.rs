//! Putting, doubling, removing and moving counters (122).

use crate::resolver::{Bugs, Eval, Game, Log, Mutant, Pending, Res, Resolution, Stack, Who, add};
use crate::scenario::{CounterMove, CounterPut, CounterRemove, CountersFrom};
use crate::terms::{CardType, CounterKind};
use crate::text::plural;

/// A chapter number as printed: I, II, III, IV, …
pub(super) fn roman(n: i64) -> String {
    const DIGITS: [(i64, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    if !(1..=3999).contains(&n) {
        return n.to_string();
    }
    let (mut n, mut out) = (n, String::new());
    for (v, s) in DIGITS {
        while n >= v {
            out.push_str(s);
            n -= v;
        }
    }
    out
}

/// 1st, 2nd, 3rd, 4th, 11th, 21st, …
pub(super) fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl<'c, B: Bugs> Game<'c, B> {
    /// 701.10e: doubling the counters of a kind gives the object or player
    /// as many of them as it already has; they are put (122.6), so what
    /// changes putting counters applies (122.1c, 614.1a, 122.7).
    pub(super) fn double_counters(
        &mut self,
        d: &crate::scenario::CounterDouble,
        by: usize,
        log: &mut Log,
    ) -> Res<()> {
        let (have, name) = match self.who(&d.on) {
            Who::Player(i) => (self.players[i].poison, d.on.to_string()),
            Who::Card(c) => (
                self.cards[c].count(&d.kind),
                self.cards[c].name().to_string(),
            ),
        };
        log.line(1, || {
            format!(
                "the {} counters on {name} are doubled: it has {have}, so {have} more [701.10e]",
                d.kind
            )
        });
        if have <= 0 {
            return Ok(());
        }
        if let (true, Who::Card(c)) = (self.bug(Mutant::DoubleCountersSetsCount), self.who(&d.on)) {
            let stack = self.cards[c].counters.get_mut(&d.kind);
            if let Some(stack) = stack {
                stack.count = add(stack.count, have, || "the doubled counters".into())?;
            }
            return Ok(());
        }
        let put = CounterPut {
            on: d.on.clone(),
            kind: d.kind.clone(),
            count: crate::scenario::Count(have),
            by: None,
        };
        self.put_counters_action(&put, by, log)
    }

    pub(super) fn put_counters_action(
        &mut self,
        p: &CounterPut,
        by: usize,
        log: &mut Log,
    ) -> Res<()> {
        let who = self.players[by].handle.clone();
        match self.who(&p.on) {
            Who::Player(i) => {
                let n = self.give_poison(i, p.count.0, by, log)?;
                log.line(1, || {
                    format!(
                        "{who} gives {} {n} poison counter{} [122.1f]",
                        p.on,
                        plural(n)
                    )
                });
                Ok(())
            }
            Who::Card(c) => {
                let n = self.put_counters(c, &p.kind, p.count.0, by, None, log)?;
                let name = self.cards[c].name().to_string();
                let ts = self.cards[c].counters.get(&p.kind).map_or(0, |s| s.ts);
                log.line(1, || {
                    format!(
                        "{who} puts {n} {} counter{} on {name} (t={ts}) [122.1, 613.7c]",
                        p.kind,
                        plural(n)
                    )
                });
                Ok(())
            }
        }
    }

    /// Player `by` gives player `p` poison counters (122.1f, 120.3b);
    /// returns how many.
    pub(in crate::resolver) fn give_poison(
        &mut self,
        p: usize,
        n: i64,
        by: usize,
        log: &mut Log,
    ) -> Res<i64> {
        let n = self.counters_to_put(
            Who::Player(p),
            &CounterKind::named("poison"),
            n,
            by,
            false,
            log,
        )?;
        let pl = &mut self.players[p];
        let who = pl.handle.clone();
        pl.poison = add(pl.poison, n, || format!("the poison counters of {who}"))?;
        Ok(n)
    }

    /// Player `by` puts `n` counters of `kind` on card `c` (122.6a), as many
    /// as [`Game::counters_to_put`] leaves. The whole kind gets a new
    /// timestamp (613.7c), or, as the card enters with them, the card's own
    /// (`at`). Returns how many were put.
    pub(in crate::resolver) fn put_counters(
        &mut self,
        c: usize,
        kind: &CounterKind,
        n: i64,
        by: usize,
        at: Option<(i64, u64)>,
        log: &mut Log,
    ) -> Res<i64> {
        let n = self.counters_to_put(Who::Card(c), kind, n, by, at.is_some(), log)?;
        if n == 0 {
            return Ok(0);
        }
        let (ts, seq) = match at {
            Some(t) if !self.bug(Mutant::EnteringCountersTakeTimestamp) => t,
            _ => (self.take_ts(), self.take_seq()),
        };
        let id = self.cards[c].spec.id.clone();
        let before = self.cards[c].count(kind);
        let stack =
            self.cards[c]
                .counters
                .entry(kind.clone())
                .or_insert(Stack { count: 0, ts, seq });
        stack.count = add(stack.count, n, || {
            format!("the number of {kind} counters on {id}")
        })?;
        stack.ts = ts;
        stack.seq = seq;
        // 122.6: entering with counters is putting them on it too.
        self.counters_put(c, kind, before);
        Ok(n)
    }

    /// 122.6, 122.7, 107.15a: what triggers when counters of `kind` are put
    /// on `c` (on the battlefield, or as it enters), which had `before`.
    pub(super) fn counters_put(&mut self, c: usize, kind: &CounterKind, before: i64) {
        let card = &self.cards[c];
        if !card.on_battlefield()
            || (card.spec.chapters.is_empty() && card.spec.counter_triggers.is_empty())
        {
            return;
        }
        // 613.1f: a permanent that lost all abilities has no triggered
        // abilities left to trigger.
        if !Eval::new(self, false).early[c].abilities {
            return;
        }
        let after = card.count(kind);
        let crossed = |n: i64| before < n && n <= after;
        let spec = card.spec;
        let object = card.object;
        let name = card.name().to_string();
        let path = self.spec_path(c);
        let mut new = Vec::new();
        if kind.is_named("lore") {
            for (ci, ch) in spec.chapters.iter().enumerate() {
                for n in ch.at.iter().filter(|n| crossed(n.0)) {
                    let label = ch
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("chapter {} of {name}", roman(n.0)));
                    new.push((
                        n.0,
                        Pending {
                            card: c,
                            object,
                            label: format!("{label} (lore counters {before} → {after})"),
                            rule: "107.15a",
                            controller: card.controller,
                            chapter: true,
                            effect: Resolution::Perform(&ch.action),
                            path: path.key("chapters").index(ci).key("do"),
                        },
                    ));
                }
            }
        }
        for (ti, t) in spec.counter_triggers.iter().enumerate() {
            if &t.kind == kind && crossed(t.nth.0) {
                let label = t.name.clone().unwrap_or_else(|| {
                    format!(
                        "{name}'s \"when the {} {kind} counter is put on it\" ability",
                        ordinal(t.nth.0)
                    )
                });
                new.push((
                    t.nth.0,
                    Pending {
                        card: c,
                        object,
                        label: format!("{label} ({before} → {after})"),
                        rule: "122.7",
                        controller: card.controller,
                        chapter: false,
                        effect: Resolution::Perform(&t.action),
                        path: path.key("counter_triggers").index(ti).key("do"),
                    },
                ));
            }
        }
        new.sort_by_key(|(n, _)| *n);
        self.pending.extend(new.into_iter().map(|(_, p)| p));
    }

    /// Removes up to `n` counters; returns how many it removed.
    pub(in crate::resolver) fn take_counters(
        &mut self,
        c: usize,
        kind: &CounterKind,
        n: i64,
    ) -> i64 {
        let card = &mut self.cards[c];
        let Some(stack) = card.counters.get_mut(kind) else {
            return 0;
        };
        let taken = n.min(stack.count);
        stack.count -= taken;
        if stack.count == 0 {
            card.counters.remove(kind);
            if taken > 0 && kind.is_named("defense") {
                self.last_defense_counter_removed(c);
            }
        }
        taken
    }

    /// 310.11b: a Siege's intrinsic ability triggers when its last defense
    /// counter is removed (by damage, 120.3h, or any other way).
    pub(super) fn last_defense_counter_removed(&mut self, c: usize) {
        let card = &self.cards[c];
        if !card.on_battlefield() || !card.spec.subtypes.iter().any(|t| t == "Siege") {
            return;
        }
        let eval = Eval::new(self, false);
        // 613.1f: a battle that lost all abilities has no such ability; a
        // permanent that is no longer a battle is no Siege.
        if !eval.early[c].abilities || !eval.has_type(c, CardType::Battle) {
            return;
        }
        drop(eval);
        let card = &self.cards[c];
        self.pending.push(Pending {
            card: c,
            object: card.object,
            label: format!(
                "{}'s Siege ability (its last defense counter was removed)",
                card.name()
            ),
            rule: "310.11b",
            controller: card.controller,
            chapter: false,
            effect: Resolution::ExileSiege,
            path: self.spec_path(c),
        });
    }

    pub(super) fn remove_counters(&mut self, r: &CounterRemove, log: &mut Log) -> Res<()> {
        let c = self.card_index(&r.from);
        let taken = self.take_counters(c, &r.kind, r.count.0);
        // Removing counters creates nothing that needs a timestamp: the
        // counters left keep theirs (613.7c).
        if self.bug(Mutant::RemovalTakesTimestamp) {
            self.take_ts();
        }
        let name = self.cards[c].name().to_string();
        log.line(1, || {
            format!(
                "remove {taken} {} counter{} from {name} [122.1]",
                r.kind,
                plural(taken)
            )
        });
        Ok(())
    }

    /// 122.5: a counter moves only if it can be removed from the first
    /// object and put on the second; otherwise nothing happens.
    pub(super) fn move_counters(&mut self, m: &CounterMove, by: usize, log: &mut Log) -> Res<()> {
        let (from, to) = (self.card_index(&m.from), self.card_index(&m.to));
        let why_not = if from == to {
            Some("the two objects are the same")
        } else if !self.cards[from].on_battlefield() || !self.cards[to].on_battlefield() {
            Some("both objects must be on the battlefield")
        } else if self.cards[from].count(&m.kind) == 0 {
            Some("the first object has no such counter")
        } else if self.refuses_counters(to) {
            Some("the second object can't have counters put onto it")
        } else {
            None
        };
        if let Some(why) = why_not {
            log.line(1, || format!("no {} counter moves: {why} [122.5]", m.kind));
            return Ok(());
        }
        let moved = self.take_counters(from, &m.kind, m.count.0);
        let put = self.put_counters(to, &m.kind, moved, by, None, log)?;
        log.line(1, || self.move_text(from, to, &m.kind, (moved, put), by));
        Ok(())
    }

    /// 122.5: a move removes counters from one object and puts them on the
    /// other; what changes how many are put (614.1a) changes only the second
    /// half.
    pub(super) fn move_text(
        &self,
        from: usize,
        to: usize,
        kind: &CounterKind,
        (moved, put): (i64, i64),
        by: usize,
    ) -> String {
        let (a, b, who) = (
            self.cards[from].name(),
            self.cards[to].name(),
            &self.players[by].handle,
        );
        if put == moved {
            format!(
                "{who} moves {moved} {kind} counter{} from {a} to {b} [122.5]",
                plural(moved)
            )
        } else {
            format!(
                "{who} moves {moved} {kind} counter{} from {a} to {b}: {moved} removed from {a}, {put} put on {b} [122.5, 614.1a]",
                plural(moved)
            )
        }
    }

    /// "Put its counters on …": while the first object is on the
    /// battlefield the counters move (122.5); once it has left, the same
    /// number of each kind it had as it last existed is put on the second
    /// object (122.8), nothing being removed from anything.
    pub(super) fn put_counters_from(
        &mut self,
        p: &CountersFrom,
        by: usize,
        log: &mut Log,
    ) -> Res<()> {
        let (from, to) = (self.card_index(&p.from), self.card_index(&p.to));
        let wanted = |k: &CounterKind| p.kinds.is_empty() || p.kinds.contains(k);
        let (a, b) = (
            self.cards[from].name().to_string(),
            self.cards[to].name().to_string(),
        );
        if !self.cards[to].on_battlefield() {
            log.line(1, || {
                format!("{b} is not on the battlefield: no counters are put on it [122.5, 122.8]")
            });
            return Ok(());
        }
        if self.cards[from].on_battlefield() {
            let kinds: Vec<(CounterKind, i64)> = self.cards[from]
                .counters
                .iter()
                .filter(|(k, _)| wanted(k))
                .map(|(k, s)| (k.clone(), s.count))
                .collect();
            if from == to {
                log.line(1, || {
                    format!("{a} would move its counters onto itself: nothing moves [122.5]")
                });
                return Ok(());
            }
            if self.refuses_counters(to) {
                log.line(1, || {
                    format!("{b} can't have counters put onto it: no counter moves, {a} keeps them [122.5]")
                });
                return Ok(());
            }
            for (kind, n) in kinds {
                let moved = self.take_counters(from, &kind, n);
                let put = self.put_counters(to, &kind, moved, by, None, log)?;
                log.line(1, || self.move_text(from, to, &kind, (moved, put), by));
            }
            return Ok(());
        }
        let Some(lki) = self.cards[from].lki.as_deref() else {
            log.line(1, || {
                format!(
                    "{a} has never been on the battlefield here: it has no counters to give [122.8]"
                )
            });
            return Ok(());
        };
        let kinds: Vec<(CounterKind, i64)> = lki
            .counters
            .iter()
            .filter(|(k, _)| wanted(k))
            .map(|(k, n)| (k.clone(), *n))
            .collect();
        if kinds.is_empty() {
            log.line(1, || format!("{a} had no such counters as it last existed on the battlefield: none are put on {b} [122.8, 608.2h]"));
        }
        let who = self.players[by].handle.clone();
        for (kind, n) in kinds {
            let put = self.put_counters(to, &kind, n, by, None, log)?;
            log.line(1, || format!("{a} has left the battlefield: {who} puts {put} {kind} counter{} on {b} for the {n} it had as it last existed; nothing is moved [122.8, 608.2h, 122.6a]", plural(put)));
        }
        Ok(())
    }
}
