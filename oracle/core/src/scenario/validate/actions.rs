//! The steps' actions: attacks, counters, costs, casts, zone moves.

use super::*;

impl<'a> Validator<'a> {
    pub(super) fn action(&mut self, a: &Action, path: &NodePath) {
        match a {
            Action::PutCounters(p) => self.put_counters(&p.on, &p.kind, &p.by, path),
            Action::DoubleCounters(d) => self.put_counters(&d.on, &d.kind, &d.by, path),
            Action::RemoveCounters(r) => self.object_ref(&r.from, &path.key("from")),
            Action::MoveCounters(m) => {
                self.object_ref(&m.from, &path.key("from"));
                self.object_ref(&m.to, &path.key("to"));
                self.putter(&m.by, path);
            }
            Action::PutCountersFrom(p) => {
                self.object_ref(&p.from, &path.key("from"));
                self.object_ref(&p.to, &path.key("to"));
                self.putter(&p.by, path);
            }
            Action::Effect(e) => self.resolved_effect(e, path),
            Action::Damage(d) => {
                self.object_ref(&d.from, &path.key("from"));
                self.kind_of(&d.to, None, &path.key("to"));
                self.non_negative(&d.amount, &path.key("amount"), "damage");
            }
            Action::Prevent(p) => {
                self.kind_of(&p.to, None, &path.key("to"));
                if p.amount.0 < 1 {
                    self.err(
                        path.key("amount"),
                        "a prevention shield prevents 1 damage or more (615.7)",
                    );
                }
            }
            Action::CombatDamage(v) => {
                if v.is_empty() {
                    self.err(path.clone(), "give at least one assignment");
                }
                for (i, c) in v.iter().enumerate() {
                    self.object_ref(&c.from, &path.index(i).key("from"));
                    self.kind_of(&c.to, None, &path.index(i).key("to"));
                }
            }
            Action::Attack(v) => self.attack(v, path),
            Action::CombatDamageStep(s) => {
                for (attacker, order) in &s.divide {
                    let at = path.key("divide").key(attacker.as_str().to_string());
                    self.object_ref(attacker, &at);
                    let mut seen = std::collections::BTreeSet::new();
                    for (i, h) in order.iter().enumerate() {
                        self.kind_of(h, None, &at.index(i));
                        if !seen.insert(h) {
                            self.err(at.index(i), format!("`{h}` is named twice"));
                        }
                    }
                }
                for (attacker, split) in &s.assign {
                    let at = path.key("assign").key(attacker.as_str().to_string());
                    self.object_ref(attacker, &at);
                    // One way to write an attacker's choice: an order or amounts.
                    if s.divide.contains_key(attacker) {
                        self.err(
                            at.clone(),
                            format!("`{attacker}` has both `divide` and `assign`: give its order or its amounts, not both"),
                        );
                    }
                    for (h, n) in split {
                        let to = at.key(h.as_str().to_string());
                        self.kind_of(h, None, &to);
                        if n.0 < 0 {
                            self.err(to, "combat damage can't be negative (510.1a)");
                        }
                    }
                }
            }
            Action::AddMana(m) => {
                if let Some(p) = &m.player {
                    self.player_ref(p, &path.key("player"));
                }
                self.non_negative(&m.amount, &path.key("amount"), "an amount of mana");
            }
            Action::PayCost(c) => self.pay_cost(c, path),
            Action::Cast(c) => self.cast(c, path),
            Action::Resolve(h) => self.object_ref(h, path),
            Action::Double(s) | Action::Triple(s) => {
                self.object_ref(&s.affects, &path.key("affects"))
            }
            Action::Exchange(x) => self.exchange(x, path),
            Action::Copy(c) => {
                self.copy_of(&c.object, &c.copy_of(), path);
                if c.until == Some(crate::scenario::Until::SourceLeaves) {
                    self.err(
                        path.key("until"),
                        "a copy step lasts indefinitely or until end of turn, not while a source remains",
                    );
                }
            }
            Action::Regenerate(h)
            | Action::Destroy(h)
            | Action::TurnFaceUp(h)
            | Action::TurnFaceDown(h)
            | Action::Transform(h) => self.object_ref(h, path),
            Action::Move(m) => self.move_object(m, path),
            Action::GainControl(g) => {
                self.object_ref(&g.object, &path.key("object"));
                self.player_ref(&g.player, &path.key("player"));
            }
            Action::BeginTurn(p) => self.player_ref(p, path),
            Action::Attach(a) => {
                self.object_ref(&a.object, &path.key("object"));
                self.object_ref(&a.to, &path.key("to"));
                if a.object == a.to {
                    self.err(
                        path.key("to"),
                        "an object can't be attached to itself (301.5c, 303.4d)",
                    );
                }
            }
            Action::Crew(c) => {
                self.object_ref(&c.vehicle, &path.key("vehicle"));
                for (i, h) in c.with.iter().enumerate() {
                    self.object_ref(h, &path.key("with").index(i));
                    if h == &c.vehicle {
                        self.err(
                            path.key("with").index(i),
                            "a Vehicle can't crew itself (702.122a: other creatures)",
                        );
                    }
                }
            }
            Action::Cleanup | Action::StateBasedActions => {}
        }
    }

    /// Counters put on an object or a player: poison goes on players alone (122.1f).
    /// Counters of `kind` put on `on` (by `by`): poison counters on
    /// players, the others on objects.
    /// 508.1, 509.1: a creature attacks or blocks once per combat.
    pub(super) fn attack(&mut self, v: &[crate::scenario::AttackDeclaration], path: &NodePath) {
        if v.is_empty() {
            self.err(path.clone(), "declare at least one attacking creature");
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, a) in v.iter().enumerate() {
            let at = path.index(i);
            self.object_ref(&a.attacker, &at.key("attacker"));
            if let Some(d) = &a.defender {
                self.kind_of(d, None, &at.key("defender"));
            }
            let blockers = a.blockers.iter().enumerate();
            let named = std::iter::once((&a.attacker, at.key("attacker")))
                .chain(blockers.map(|(j, b)| (b, at.key("blockers").index(j))));
            for (k, (h, p)) in named.enumerate() {
                if k > 0 {
                    self.object_ref(h, &p);
                }
                if !seen.insert(h) {
                    self.err(
                        p,
                        format!("`{h}` attacks or blocks twice: each creature attacks or blocks once, and blocks one attacker (508.1, 509.1a)"),
                    );
                }
            }
        }
    }

    pub(super) fn put_counters(
        &mut self,
        on: &Handle,
        kind: &CounterKind,
        by: &Option<Handle>,
        path: &NodePath,
    ) {
        self.putter(by, path);
        if self.kind_of(on, None, &path.key("on")) == Some(Kind::Player) && !kind.is_named("poison")
        {
            self.err(
                path.key("kind"),
                "only poison counters can be put on a player here (122.1f)",
            );
        }
        if kind.is_named("poison") && self.names.get(on.as_str()) == Some(&Kind::Object) {
            self.err(path.key("kind"), "poison counters go on players (122.1f)");
        }
    }

    /// A cost paid: card text or an object's mana cost, never both (107.4, 107.3).
    pub(super) fn pay_cost(&mut self, c: &crate::scenario::action::CostPayment, path: &NodePath) {
        if let Some(p) = &c.player {
            self.player_ref(p, &path.key("player"));
        }
        match (&c.cost, &c.cost_of) {
                (Some(_), Some(_)) => self.err(
                    path.key("cost_of"),
                    "give `cost` or `cost_of`, not both",
                ),
                (None, None) => self.err(
                    path.clone(),
                    "give the cost to pay: `cost` (card text such as {2}{G}) or `cost_of` (an object whose mana cost is paid)",
                ),
                (Some(cost), None) => {
                    if c.x.0 != 0 && !cost.has_x() {
                        self.err(
                            path.key("x"),
                            format!("the cost {cost} has no {{X}} to announce a value for"),
                        );
                    }
                }
                (None, Some(h)) => {
                    self.object_ref(h, &path.key("cost_of"));
                    if c.x.0 != 0 {
                        self.err(
                            path.key("x"),
                            "X in an object's mana cost is not announced here: it is the spell's X on the stack, 0 elsewhere (107.3h)",
                        );
                    }
                    if let Some(o) = self.objects.get(h.as_str()) {
                        if o.mana_cost.is_none() {
                            self.err(
                                path.key("cost_of"),
                                format!("`{h}` has no `mana_cost` to pay"),
                            );
                        }
                    }
                }
            }
    }

    /// A spell cast: not a land (305.9), and an X only where the cost has one and the text does not define it (107.3).
    pub(super) fn cast(&mut self, c: &crate::scenario::action::Cast, path: &NodePath) {
        self.object_ref(&c.object, &path.key("object"));
        if let Some(p) = &c.by {
            self.player_ref(p, &path.key("by"));
        }
        if let Some(o) = self.objects.get(c.object.as_str()).copied() {
            if o.types.contains(&CardType::Land) {
                self.err(
                    path.key("object"),
                    format!("`{}` is a land: lands are played, not cast (305.9)", o.id),
                );
            }
            if c.x.is_some() && o.x_is.is_some() {
                self.err(
                    path.key("x"),
                    format!(
                        "the text of `{}` defines X (`x_is`), so nobody announces it (107.3c)",
                        o.id
                    ),
                );
            } else if c.x.is_some() && !o.mana_cost.as_ref().is_some_and(|m| m.has_x()) {
                self.err(
                    path.key("x"),
                    format!(
                        "`{}` has no {{X}} in its `mana_cost`, so no X is announced (107.3a)",
                        o.id
                    ),
                );
            }
        }
    }

    /// A zone change, and what the object enters the battlefield with (122.6, 208.2b).
    pub(super) fn move_object(&mut self, m: &crate::scenario::action::MoveZone, path: &NodePath) {
        self.object_ref(&m.object, &path.key("object"));
        if let Some(c) = &m.copy {
            self.copy_of(&m.object, c, &path.key("copy"));
            if m.to != Zone::Battlefield {
                self.err(
                    path.key("copy"),
                    "only an object entering the battlefield enters as a copy (707.2)",
                );
            }
        }
        if !m.counters.is_empty() && m.to != Zone::Battlefield {
            self.err(
                path.key("counters"),
                "only an object entering the battlefield enters with counters (122.6)",
            );
        }
        if m.counters.keys().any(|k| k.is_named("poison")) {
            self.err(
                path.key("counters"),
                "poison counters go on players (122.1f)",
            );
        }
        self.putter(&m.by, path);
        if m.by.is_some() && (m.to != Zone::Battlefield || m.counters.values().all(|n| n.is_zero()))
        {
            self.err(
                    path.key("by"),
                    "`by` names the player who puts the counters it enters the battlefield with (122.6a), and this move gives it none",
                );
        }
        if let Some(pt) = m.choose {
            if m.to != Zone::Battlefield {
                self.err(
                    path.key("choose"),
                    "P/T is chosen only as the object enters the battlefield (208.2b)",
                );
            }
            // 707.6: entering as a copy, it chooses among the options of the
            // text it copies, known only as it enters (the resolver checks).
            if let (Some(o), None) = (self.objects.get(m.object.as_str()).copied(), &m.copy) {
                self.chosen(o, pt, &path.key("choose"));
            }
        }
    }
}
