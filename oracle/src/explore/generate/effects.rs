//! Effects and static abilities, faces and copies.

use super::*;

impl Gen<'_, '_> {
    /// "Other creatures you control get +a/+b" (and sometimes a keyword).
    pub(super) fn lord(&mut self) -> Result<EffectSpec> {
        let mut e = EffectSpec {
            name: Some("lord".into()),
            affects: Affects::Filter(Box::new(Filter {
                types: vec![CardType::Creature],
                other: true,
                controller: Some(handle("you")),
                ..Filter::default()
            })),
            modify: Some(ModPt {
                power: self.change()?,
                toughness: self.change()?,
            }),
            ..EffectSpec::default()
        };
        if self.on(Switches::ABILITIES) && self.one_in(2)? {
            e.add_keywords = vec![Keyword::Flying];
        }
        Ok(e)
    }

    /// The static ability "this has base P/T a/b" (7b).
    pub(super) fn own_base_pt(&mut self) -> Result<EffectSpec> {
        Ok(EffectSpec {
            name: Some("its own base P/T".into()),
            affects: Affects::This,
            set: Some(SetPt {
                power: Amount::Fixed(self.int(0, 5)?),
                toughness: Amount::Fixed(self.int(1, 5)?),
            }),
            ..EffectSpec::default()
        })
    }

    /// "`target` has base P/T a/b until end of turn" (7b), with a and b up
    /// to `max` (b at least 1).
    pub(super) fn set_until_end_of_turn(
        &mut self,
        target: Handle,
        max: i64,
        timestamp: Option<Timestamp>,
    ) -> Result<EffectSpec> {
        Ok(EffectSpec {
            affects: Affects::Objects(vec![target]),
            set: Some(SetPt {
                power: Amount::Fixed(self.int(0, max)?),
                toughness: Amount::Fixed(self.int(1, max)?),
            }),
            until: Some(Until::EndOfTurn),
            timestamp,
            ..EffectSpec::default()
        })
    }

    /// A creature set up face down (708.2a), often with a static ability
    /// that sets its own base P/T: it has none while face down, and once
    /// turned face up it applies after the effects created before, in the
    /// editions where turning it up gives it a new timestamp (613.7f).
    pub(super) fn face_down(&mut self, o: &mut ObjectSpec, i: usize) -> Result<()> {
        o.face_down = true;
        o.choose = None;
        if self.one_in(2)? {
            let own = self.own_base_pt()?;
            o.abilities.push(own);
        }
        self.face_down.push(i);
        Ok(())
    }

    /// A back face (712.2): a creature, often with a static ability that
    /// sets its own base P/T, which applies after the effects created
    /// before it transforms where transforming takes a timestamp (613.7g).
    pub(super) fn back_face(&mut self, o: &mut ObjectSpec, i: usize) -> Result<()> {
        let mut back = BackFace {
            name: None,
            types: vec![CardType::Creature],
            subtypes: Vec::new(),
            colors: Vec::new(),
            pt: Some(Pt::new(self.value()?, self.value()?)),
            keywords: Vec::new(),
            abilities: Vec::new(),
        };
        if self.one_in(2)? {
            back.keywords.push(self.pick(&GRANTED)?);
        }
        if self.one_in(2)? {
            back.abilities.push(self.own_base_pt()?);
        }
        o.back_face = Some(Box::new(back));
        self.double_faced.push(i);
        Ok(())
    }

    /// Turning a permanent over (708): mostly one set up face down turned
    /// face up, else a creature on the battlefield turned either way
    /// (turning what is already so does nothing, 708.2b); or transforming
    /// a double-faced one (701.27).
    pub(super) fn turn_over_step(&mut self) -> Result<Action> {
        if !self.double_faced.is_empty() && self.one_in(3)? {
            let i = self.pick(&self.double_faced.clone())?;
            return Ok(Action::Transform(object_handle(i)));
        }
        if !self.face_down.is_empty() && !self.one_in(4)? {
            let i = self.pick(&self.face_down.clone())?;
            return Ok(Action::TurnFaceUp(object_handle(i)));
        }
        let i = self
            .object_where(|g, i| g.objects[i] == Kind::Creature && g.zones[i] == Zone::Battlefield)?
            .unwrap_or(0);
        Ok(if self.one_in(2)? {
            Action::TurnFaceDown(object_handle(i))
        } else {
            Action::TurnFaceUp(object_handle(i))
        })
    }

    /// A static ability of an enchantment: an anthem, a Humility-style
    /// setting, an animation, or a P/T-threshold bonus.
    pub(super) fn static_ability(&mut self) -> Result<EffectSpec> {
        let creatures = || Filter {
            types: vec![CardType::Creature],
            ..Filter::default()
        };
        Ok(match self.index(5)? {
            0 => EffectSpec {
                affects: Affects::Filter(Box::new(creatures())),
                modify: Some(ModPt {
                    power: self.change()?,
                    toughness: self.change()?,
                }),
                ..EffectSpec::default()
            },
            1 if self.on(Switches::SET) => EffectSpec {
                affects: Affects::Filter(Box::new(creatures())),
                set: Some(SetPt {
                    power: Amount::Fixed(self.value()?),
                    toughness: Amount::Fixed(self.value()?),
                }),
                remove_all_abilities: self.on(Switches::ABILITIES) && self.one_in(2)?,
                ..EffectSpec::default()
            },
            2 if self.on(Switches::TYPES) => EffectSpec {
                affects: Affects::Filter(Box::new(Filter {
                    types: vec![CardType::Artifact],
                    not_types: vec![CardType::Creature],
                    ..Filter::default()
                })),
                add_types: vec![CardType::Creature],
                set: Some(SetPt {
                    power: Amount::Fixed(self.int(0, 4)?),
                    toughness: Amount::Fixed(self.int(0, 4)?),
                }),
                ..EffectSpec::default()
            },
            3 => EffectSpec {
                affects: Affects::Filter(Box::new(Filter {
                    types: vec![CardType::Creature],
                    power_at_least: Some(self.int(0, 4)?),
                    ..Filter::default()
                })),
                modify: Some(ModPt {
                    power: self.change()?,
                    toughness: self.change()?,
                }),
                ..EffectSpec::default()
            },
            _ => EffectSpec {
                affects: Affects::Filter(Box::new(creatures())),
                switch: self.on(Switches::SWITCH),
                modify: Some(ModPt {
                    power: self.change()?,
                    toughness: self.change()?,
                }),
                ..EffectSpec::default()
            },
        })
    }

    /// An exchange of two values (701.12g): two powers most often, else a
    /// power and another creature's toughness, or a life total and a
    /// toughness. Either creature may have gone by then (701.12a).
    pub(super) fn exchange_step(&mut self) -> Result<Action> {
        let (a, b) = (self.creature()?, self.any_object()?);
        let (ha, hb) = (object_handle(a), object_handle(b));
        let values = match self.index(4)? {
            0 => vec![
                Exchanged::Life(handle(self.pick(&["you", "opponent"])?)),
                Exchanged::Toughness(ha),
            ],
            1 if a != b => vec![Exchanged::Power(ha), Exchanged::Toughness(hb)],
            _ if a != b => vec![Exchanged::Power(ha), Exchanged::Power(hb)],
            _ => vec![
                Exchanged::Toughness(ha),
                Exchanged::Life(handle(self.pick(&["you", "opponent"])?)),
            ],
        };
        Ok(Action::Exchange(Exchange {
            values,
            until: Some(self.until()?),
            name: None,
        }))
    }

    /// A permanent becomes a copy of another object (707.2), which may
    /// have counters and effects on it: indefinitely or until end of turn,
    /// sometimes with an exception that sets P/T (707.9b).
    pub(super) fn copy_step(&mut self) -> Result<Action> {
        let Some(i) = self.object_where(|g, i| g.zones[i] == Zone::Battlefield && g.copyable[i])?
        else {
            return Ok(Action::StateBasedActions);
        };
        let Some((_, copy)) = self.copy_of(i)? else {
            return Ok(Action::StateBasedActions);
        };
        let until = if self.one_in(2)? {
            Some(Until::EndOfTurn)
        } else {
            None
        };
        Ok(Action::Copy(ptoracle_core::scenario::CopyStep {
            object: object_handle(i),
            of: copy.of,
            except_pt: copy.except_pt,
            until,
            name: None,
        }))
    }

    /// What object `i` may copy: another object that may be copied,
    /// anywhere, with an exception that sets P/T one time in four.
    pub(super) fn copy_of(
        &mut self,
        i: usize,
    ) -> Result<Option<(usize, ptoracle_core::scenario::CopyOf)>> {
        if !self.copyable[i] {
            return Ok(None);
        }
        let Some(j) = self.object_where(|g, j| j != i && g.copyable[j])? else {
            return Ok(None);
        };
        let except_pt = if self.one_in(4)? {
            Some(Pt::new(self.int(0, 7)?, self.int(1, 7)?))
        } else {
            None
        };
        Ok(Some((
            j,
            ptoracle_core::scenario::CopyOf {
                of: object_handle(j),
                except_pt,
            },
        )))
    }

    pub(super) fn effect(&mut self) -> Result<EffectSpec> {
        let mut parts: Vec<u8> = Vec::new();
        for (f, p) in [
            (Switches::MODIFY, 0u8),
            (Switches::MODIFY, 0),
            (Switches::SET, 1),
            (Switches::SWITCH, 2),
            (Switches::TYPES, 3),
            (Switches::ABILITIES, 4),
            (Switches::GRANTED_PT, 5),
            (Switches::GRANTED_PT, 5),
        ] {
            if self.on(f) {
                parts.push(p);
            }
        }
        if parts.is_empty() {
            parts.push(0);
        }
        let part = self.pick(&parts)?;
        let mut e = EffectSpec {
            until: Some(self.until()?),
            timestamp: self.timestamp()?,
            ..EffectSpec::default()
        };
        let first = self.any_object()?;
        e.affects = if self.on(Switches::STATICS) && self.one_in(4)? {
            Affects::Filter(Box::new(Filter {
                types: vec![CardType::Creature],
                controller: if self.one_in(2)? {
                    Some(handle("you"))
                } else {
                    None
                },
                ..Filter::default()
            }))
        } else {
            let mut v = vec![object_handle(first)];
            if self.one_in(4)? {
                let second = self.any_object()?;
                if second != first {
                    v.push(object_handle(second));
                }
            }
            Affects::Objects(v)
        };
        if self.one_in(4)? {
            let s = self.any_object()?;
            e.source = Some(object_handle(s));
            if self.one_in(2)? && !self.scope.no_source_durations {
                e.until = Some(Until::SourceLeaves);
            }
        }
        let mut x_of_target = Quantity::Ref(Box::new(QuantityRef::PowerOf(object_handle(first))));
        if self.on(Switches::SPELLS) && self.one_in(3)? {
            // 107.3g, 202.3e: a card's X, and so its mana value, counts
            // only while it is a spell on the stack.
            if let Some(i) = self.object_where(|g, i| g.costs[i].is_some())? {
                let h = object_handle(i);
                x_of_target = Quantity::Ref(Box::new(if self.one_in(2)? {
                    QuantityRef::XOf(h)
                } else {
                    QuantityRef::ManaValueOf(h)
                }));
            }
        }
        match part {
            1 => {
                if self.on(Switches::LOCKED_X) && self.one_in(3)? {
                    e.set = Some(SetPt {
                        power: Amount::X,
                        toughness: Amount::Fixed(self.int(1, 4)?),
                    });
                    e.x = Some(x_of_target);
                } else {
                    e.set = Some(SetPt {
                        power: Amount::Fixed(self.value()?),
                        toughness: Amount::Fixed(self.value()?),
                    });
                }
            }
            2 => e.switch = true,
            5 => {
                // 604.3a: "becomes a creature with 'its power and toughness
                // are each equal to …'" (Svogthos), a value read all the
                // time; the land or artifact becomes a creature.
                let q = self.cda_quantity(first, self.objects.len())?;
                let toughness = if self.one_in(4)? {
                    Quantity::Fixed(self.int(0, 3)?)
                } else {
                    q.clone()
                };
                e.grant_pt_ability = Some(Cda {
                    power: Some(q),
                    toughness: Some(toughness),
                });
                if self.on(Switches::TYPES) && self.one_in(2)? {
                    e.add_types = vec![CardType::Creature];
                }
            }
            3 => {
                if self.one_in(3)? {
                    e.remove_types = vec![CardType::Creature];
                } else {
                    e.add_types = vec![CardType::Creature];
                    if self.one_in(2)? {
                        e.set = Some(SetPt {
                            power: Amount::Fixed(self.int(0, 4)?),
                            toughness: Amount::Fixed(self.int(0, 4)?),
                        });
                    }
                }
            }
            4 => {
                if self.one_in(2)? {
                    e.remove_all_abilities = true;
                } else {
                    let k = if self.on(Switches::INERT_KEYWORDS) && self.one_in(2)? {
                        self.inert_keyword()?
                    } else {
                        self.pick(&GRANTED)?
                    };
                    if self.one_in(2)? {
                        e.add_keywords = vec![k]
                    } else {
                        e.remove_keywords = vec![k]
                    }
                }
            }
            _ => {
                if self.on(Switches::LOCKED_X) && self.one_in(3)? {
                    let minus = self.on(Switches::NEGATIVE) && self.one_in(3)?;
                    let x = Change {
                        minus,
                        amount: Amount::X,
                    };
                    e.modify = Some(ModPt {
                        power: x,
                        toughness: x,
                    });
                    e.x = Some(x_of_target);
                } else {
                    e.modify = Some(ModPt {
                        power: self.change()?,
                        toughness: self.change()?,
                    });
                }
            }
        }
        Ok(e)
    }
}
