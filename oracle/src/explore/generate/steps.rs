//! The steps of a case: which actions a case may take, and each action but combat.

use super::*;

impl Gen<'_, '_> {
    pub(super) fn any_object(&mut self) -> Result<usize> {
        self.index(self.objects.len())
    }

    pub(super) fn object_of(&mut self, kinds: &[Kind]) -> Result<Option<usize>> {
        self.object_where(|g, i| kinds.contains(&g.objects[i]))
    }

    /// One of the objects for which `fit` holds.
    pub(super) fn object_where(
        &mut self,
        fit: impl Fn(&Self, usize) -> bool,
    ) -> Result<Option<usize>> {
        let fit: Vec<usize> = (0..self.objects.len()).filter(|&i| fit(self, i)).collect();
        if fit.is_empty() {
            return Ok(None);
        }
        let i = self.pick(&fit)?;
        Ok(Some(i))
    }

    pub(super) fn creature(&mut self) -> Result<usize> {
        Ok(self.object_of(&[Kind::Creature])?.unwrap_or(0))
    }

    pub(super) fn target(&mut self) -> Result<Handle> {
        if self.one_in(4)? {
            return Ok(handle(self.pick(&["you", "opponent"])?));
        }
        let i = self.any_object()?;
        Ok(object_handle(i))
    }

    pub(super) fn until(&mut self) -> Result<Until> {
        self.pick(&[Until::EndOfTurn, Until::Forever, Until::EndOfTurn])
    }

    pub(super) fn timestamp(&mut self) -> Result<Option<Timestamp>> {
        if self.on(Switches::TIMESTAMPS) && self.one_in(2)? {
            // Often the one the last automatic timestamp took or the next:
            // an effect then applies before or after one an earlier step
            // created by which actions took a timestamp (removing counters,
            // entering with counters, docs/protocol.md); else anywhere up
            // to about there.
            let t = if self.one_in(2)? {
                self.next_ts.saturating_sub(self.int(0, 1)?)
            } else {
                let objects = i64::try_from(self.objects.len()).unwrap_or(0);
                let high = 5.max(objects.saturating_add(self.steps_made).saturating_add(2));
                self.int(1, high)?
            };
            return Ok(Some(Timestamp(Count(t.max(1)))));
        }
        Ok(None)
    }

    pub(super) fn actions(&self) -> Vec<u8> {
        let mut a = vec![0u8]; // state_based_actions
        let add = |a: &mut Vec<u8>, on: bool, code: u8| {
            if on {
                a.push(code);
            }
        };
        add(
            &mut a,
            self.on(Switches::COUNTERS) || self.on(Switches::KEYWORD_COUNTERS),
            1,
        );
        add(&mut a, self.on(Switches::COUNTERS), 2);
        add(
            &mut a,
            self.on(Switches::COUNTERS) && !self.scope.no_move_counters,
            3,
        );
        add(
            &mut a,
            self.on(Switches::MODIFY)
                || self.on(Switches::SET)
                || self.on(Switches::SWITCH)
                || self.on(Switches::TYPES)
                || self.on(Switches::ABILITIES),
            4,
        );
        add(
            &mut a,
            self.on(Switches::MODIFY) || self.on(Switches::SET) || self.on(Switches::SWITCH),
            4,
        );
        add(&mut a, self.on(Switches::DAMAGE), 5);
        add(&mut a, self.on(Switches::COMBAT), 6);
        add(&mut a, self.on(Switches::MANA), 7);
        add(&mut a, self.on(Switches::SCALE), 8);
        add(&mut a, self.on(Switches::REGENERATION), 9);
        add(
            &mut a,
            (self.on(Switches::REGENERATION) || self.on(Switches::INDESTRUCTIBLE))
                && !self.scope.no_destroy,
            10,
        );
        add(
            &mut a,
            self.on(Switches::ZONES) || self.on(Switches::UNDYING),
            11,
        );
        add(&mut a, self.on(Switches::ATTACH), 12);
        add(&mut a, self.on(Switches::CREW), 13);
        add(&mut a, self.on(Switches::CLEANUP), 14);
        add(&mut a, self.on(Switches::INFECT), 15);
        for _ in 0..3 {
            add(&mut a, self.on(Switches::SPELLS), 16);
            add(&mut a, self.on(Switches::SPELLS), 17);
        }
        add(&mut a, self.on(Switches::COUNTERS_FROM), 18);
        add(&mut a, self.on(Switches::SICKNESS), 19);
        add(&mut a, self.on(Switches::CONTROL), 20);
        add(&mut a, self.on(Switches::COSTS), 21);
        add(&mut a, self.on(Switches::DOUBLE_COUNTERS), 22);
        add(&mut a, self.on(Switches::DOUBLE_COUNTERS), 22);
        add(&mut a, self.on(Switches::FACE_DOWN), 23);
        add(&mut a, self.on(Switches::FACE_DOWN), 23);
        add(&mut a, self.on(Switches::EXCHANGE), 24);
        add(&mut a, self.on(Switches::EXCHANGE), 24);
        add(&mut a, self.on(Switches::PREVENTION), 25);
        add(&mut a, self.on(Switches::PREVENTION), 25);
        add(&mut a, self.on(Switches::COMBAT_STEPS), 26);
        add(&mut a, self.on(Switches::COMBAT_STEPS), 26);
        add(&mut a, self.on(Switches::COPY), 27);
        add(&mut a, self.on(Switches::COPY), 27);
        a
    }

    /// The spell `i` resolves: an instant goes to the graveyard, a
    /// permanent spell onto the battlefield (608.2n, 608.3).
    pub(super) fn resolve(&mut self, i: usize) -> Action {
        self.zones[i] = if self.objects[i] == Kind::Instant {
            Zone::Graveyard
        } else {
            Zone::Battlefield
        };
        Action::Resolve(object_handle(i))
    }

    pub(super) fn step(&mut self) -> Result<Step> {
        self.steps_made = self.steps_made.saturating_add(1);
        let pick = self.index(self.actions.len())?;
        let code = self.actions[pick];
        let action = match code {
            1 => self.put_counters_step()?,
            2 => {
                let i = self.any_object()?;
                Action::RemoveCounters(CounterRemove {
                    from: object_handle(i),
                    kind: self.pt_counter_kind()?,
                    count: Count(self.int(1, 3)?),
                })
            }
            3 => {
                let a = self.any_object()?;
                let b = self.any_object()?;
                Action::MoveCounters(CounterMove {
                    from: object_handle(a),
                    to: object_handle(b),
                    kind: self.pt_counter_kind()?,
                    count: Count(self.int(1, 3)?),
                    by: self.by()?,
                })
            }
            4 => Action::Effect(Box::new(self.effect()?)),
            5 => self.damage_step()?,
            6 => self.combat_damage_step()?,
            7 => {
                let i = self.any_object()?;
                Action::AddMana(ManaAbility {
                    player: None,
                    mana: Mana::G,
                    amount: Quantity::Ref(Box::new(QuantityRef::PowerOf(object_handle(i)))),
                    name: None,
                    snow: false,
                })
            }
            8 => self.scale_step()?,
            9 => Action::Regenerate(object_handle(self.any_object()?)),
            10 => Action::Destroy(object_handle(self.any_object()?)),
            11 => self.move_step()?,
            12 => match self.object_of(&[Kind::Equipment])? {
                Some(e) => {
                    let c = self.creature()?;
                    if c == e {
                        Action::StateBasedActions
                    } else {
                        Action::Attach(Attach {
                            object: object_handle(e),
                            to: object_handle(c),
                        })
                    }
                }
                None => Action::StateBasedActions,
            },
            13 => match self.object_of(&[Kind::Vehicle])? {
                Some(v) => {
                    let mut with = Vec::new();
                    for _ in 0..1 + self.index(2)? {
                        let c = self.creature()?;
                        if c != v && !with.contains(&object_handle(c)) {
                            with.push(object_handle(c));
                        }
                    }
                    Action::Crew(Crew {
                        vehicle: object_handle(v),
                        with,
                    })
                }
                None => Action::StateBasedActions,
            },
            14 => Action::Cleanup,
            15 => {
                let p = self.pick(&["you", "opponent"])?;
                Action::PutCounters(CounterPut {
                    on: handle(p),
                    kind: CounterKind::named("poison"),
                    count: Count(self.int(1, 4)?),
                    by: None,
                })
            }
            16 => self.cast_step()?,
            17 => match self.object_where(|g, i| g.zones[i] == Zone::Stack)? {
                Some(i) => self.resolve(i),
                None => Action::StateBasedActions,
            },
            18 => self.counters_from_step()?,
            19 => Action::BeginTurn(self.player()?),
            20 => Action::GainControl(GainControl {
                object: object_handle(self.any_object()?),
                player: self.player()?,
            }),
            21 => self.pay_cost_step()?,
            22 => self.double_counters_step()?,
            23 => self.turn_over_step()?,
            24 => self.exchange_step()?,
            // 615.7: "prevent the next N damage … this turn".
            25 => Action::Prevent(Prevention {
                to: self.target()?,
                amount: Count(self.int(1, 4)?),
                name: None,
            }),
            26 => self.attack_step()?,
            27 => self.copy_step()?,
            _ => Action::StateBasedActions,
        };
        let sba = !(self.on(Switches::SPLIT_SBA) && self.one_in(2)?);
        Ok(Step {
            action,
            sba,
            expect: BTreeMap::new(),
            expect_in: BTreeMap::new(),
            expect_error: None,
            note: None,
        })
    }

    /// Counters put on an object: P/T, keyword, level, hone, loyalty, lore, defense or shield counters.
    pub(super) fn put_counters_step(&mut self) -> Result<Action> {
        let i = self.any_object()?;
        let kind = if self.on(Switches::KEYWORD_COUNTERS)
            && (!self.on(Switches::COUNTERS) || self.one_in(3)?)
        {
            CounterKind::Keyword(self.pick(&GRANTED)?)
        } else if self.on(Switches::LEVELS) && self.one_in(4)? {
            CounterKind::named("level")
        } else if self.on(Switches::ATTACH) && self.one_in(5)? {
            CounterKind::named("hone")
        } else if self.on(Switches::PLANESWALKERS) && self.one_in(5)? {
            CounterKind::named("loyalty")
        } else if self.on(Switches::SAGAS) && self.one_in(3)? {
            CounterKind::named("lore")
        } else if self.on(Switches::BATTLES) && self.one_in(4)? {
            CounterKind::named("defense")
        } else if self.on(Switches::SHIELDS) && self.one_in(4)? {
            CounterKind::named("shield")
        } else {
            self.pt_counter_kind()?
        };
        Ok(Action::PutCounters(CounterPut {
            on: object_handle(i),
            kind,
            count: Count(self.count()?),
            by: self.by()?,
        }))
    }

    /// Doubling the counters of a kind on an object (701.10e): mostly P/T
    /// counters, sometimes the kinds other switches put.
    pub(super) fn double_counters_step(&mut self) -> Result<Action> {
        // Often a permanent with counters that can't have more put on it:
        // doubling is putting (701.10e, 122.1).
        if !self.sealed.is_empty() && self.one_in(2)? {
            let j = self.index(self.sealed.len())?;
            let (i, kind) = self.sealed[j].clone();
            return Ok(Action::DoubleCounters(CounterDouble {
                on: object_handle(i),
                kind,
                by: self.by()?,
            }));
        }
        let i = self.any_object()?;
        let kind = if self.on(Switches::KEYWORD_COUNTERS) && self.one_in(4)? {
            CounterKind::Keyword(self.pick(&GRANTED)?)
        } else if self.on(Switches::SAGAS) && self.one_in(4)? {
            CounterKind::named("lore")
        } else if self.on(Switches::SHIELDS) && self.one_in(4)? {
            CounterKind::named("shield")
        } else {
            self.pt_counter_kind()?
        };
        Ok(Action::DoubleCounters(CounterDouble {
            on: object_handle(i),
            kind,
            by: self.by()?,
        }))
    }

    /// Noncombat damage, of a fixed amount or of a source's power.
    pub(super) fn damage_step(&mut self) -> Result<Action> {
        let from = self.any_object()?;
        let to = self.target()?;
        let amount = if self.on(Switches::LOCKED_X) && self.one_in(3)? {
            Quantity::Ref(Box::new(QuantityRef::PowerOf(object_handle(from))))
        } else {
            Quantity::Fixed(if self.on(Switches::HUGE) && self.one_in(8)? {
                self.pick(&HUGE_VALUES)?
            } else {
                self.int(0, 5)?
            })
        };
        Ok(Action::Damage(Damage {
            from: object_handle(from),
            to,
            amount,
        }))
    }

    /// Doubling or tripling a creature's power, toughness or both.
    pub(super) fn scale_step(&mut self) -> Result<Action> {
        let i = self.creature()?;
        let s = Scale {
            affects: object_handle(i),
            what: self.pick(&[ScaleWhat::Power, ScaleWhat::Toughness, ScaleWhat::Both])?,
            until: self.until()?,
            name: None,
            timestamp: self.timestamp()?,
        };
        Ok(if self.one_in(2)? {
            Action::Triple(s)
        } else {
            Action::Double(s)
        })
    }

    /// A zone change, with counters and a chosen P/T for what enters the battlefield.
    pub(super) fn move_step(&mut self) -> Result<Action> {
        let i = self.any_object()?;
        let here = self.zones[i];
        // 304.4: an instant put onto the battlefield stays where it
        // is (a ruling pins that; generated cases need not).
        let instant = self.objects[i] == Kind::Instant;
        let choices: Vec<Zone> = [Zone::Battlefield, Zone::Graveyard, Zone::Exile, Zone::Hand]
            .into_iter()
            .filter(|z| *z != here && !(instant && *z == Zone::Battlefield))
            .collect();
        let to = self.pick(&choices)?;
        self.zones[i] = to;
        // 707.2: sometimes it enters as a copy (Clone).
        let copied = if to == Zone::Battlefield && self.on(Switches::COPY) && self.one_in(3)? {
            self.copy_of(i)?
        } else {
            None
        };
        let (copied, mut copy) = match copied {
            Some((j, c)) => (Some(j), Some(c)),
            None => (None, None),
        };
        let mut counters = BTreeMap::new();
        let mut choose = None;
        if to == Zone::Battlefield {
            if self.on(Switches::COUNTERS) && self.one_in(2)? {
                counters.insert(self.pt_counter_kind()?, Count(self.int(1, 3)?));
            }
            // 707.5, 707.6: a copy chooses among the copied text's options,
            // and must; the copied object's own ones stand for them (a copy
            // or face-down state of it at that time cuts the case there).
            match copied {
                Some(j) if !self.choices[j].is_empty() => {
                    let options = self.choices[j].clone();
                    choose = Some(self.pick(&options)?);
                    // With a copied choice, an exception that sets P/T is
                    // not modelled (DECISIONS.md D62).
                    if let Some(c) = copy.as_mut() {
                        c.except_pt = None;
                    }
                }
                Some(_) => {}
                None if !self.choices[i].is_empty() && self.one_in(2)? => {
                    let options = self.choices[i].clone();
                    choose = Some(self.pick(&options)?);
                }
                None => {}
            }
        }
        // 122.6a: `by` says who puts the counters it enters with.
        let by = if counters.is_empty() {
            None
        } else {
            self.by()?
        };
        Ok(Action::Move(MoveZone {
            object: object_handle(i),
            to,
            counters,
            choose,
            by,
            copy,
        }))
    }

    /// A spell cast from the hand, with its X; sometimes resolved next.
    pub(super) fn cast_step(&mut self) -> Result<Action> {
        let Some(i) = self.object_where(|g, i| g.zones[i] == Zone::Hand && g.costs[i].is_some())?
        else {
            return Ok(Action::StateBasedActions);
        };
        self.zones[i] = Zone::Stack;
        let x = match &self.costs[i] {
            Some(c) if c.has_x() => Some(Count(self.int(0, 5)?)),
            _ => None,
        };
        let by = if self.one_in(4)? {
            Some(handle("opponent"))
        } else {
            None
        };
        if self.one_in(2)? {
            self.resolve_next = Some(i);
        }
        Ok(Action::Cast(Cast {
            object: object_handle(i),
            x,
            by,
        }))
    }

    /// Counters put on a creature for those an object has or had.
    pub(super) fn counters_from_step(&mut self) -> Result<Action> {
        let from = self.any_object()?;
        let to = self.creature()?;
        let kinds = if self.one_in(3)? {
            vec![self.pt_counter_kind()?]
        } else {
            Vec::new()
        };
        Ok(Action::PutCountersFrom(CountersFrom {
            from: object_handle(from),
            to: object_handle(to),
            kinds,
            by: self.by()?,
        }))
    }

    /// A cost paid: card text, or an object's mana cost.
    pub(super) fn pay_cost_step(&mut self) -> Result<Action> {
        let spell = if self.on(Switches::SPELLS) && self.one_in(2)? {
            self.object_where(|g, i| g.costs[i].is_some())?
        } else {
            None
        };
        let (cost, cost_of, x) = match spell {
            Some(i) => (None, Some(object_handle(i)), Count(0)),
            None => {
                let c = self.cost()?;
                let x = if c.has_x() { self.int(0, 3)? } else { 0 };
                (Some(c), None, Count(x))
            }
        };
        Ok(Action::PayCost(CostPayment {
            player: if self.one_in(3)? {
                Some(handle("opponent"))
            } else {
                None
            },
            cost,
            cost_of,
            x,
            // A payment that does not exist is an error: rarely.
            payment: Count(if self.one_in(4)? { 1 } else { 0 }),
            name: None,
        }))
    }
}
