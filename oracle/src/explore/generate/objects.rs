//! The objects of a case: kinds, printed values, keywords, states, what they enter with and what they do.

use super::*;

impl Gen<'_, '_> {
    pub(super) fn case(&mut self) -> Result<Case> {
        self.kinds = self.kinds();
        self.actions = self.actions();
        let players = self.players()?;
        let n = 1 + self.index(5)?;
        let mut objects = Vec::new();
        for i in 0..n {
            let o = self.object(i, &objects)?;
            self.zones.push(o.zone);
            self.theirs.push(o.controller.is_some());
            self.costs.push(o.mana_cost.clone());
            self.choices
                .push(o.enters_as.iter().map(|c| c.pt).collect());
            objects.push(o);
        }
        for (i, o) in objects.iter_mut().enumerate() {
            self.acting(i, o)?;
        }
        self.copyable = objects
            .iter()
            .map(|o| o.copy_unmodelled().is_none())
            .collect();
        let steps_n = 1 + self.index(8)?;
        let mut steps = Vec::new();
        for _ in 0..steps_n {
            self.next_ts = next_timestamp(&objects, &steps);
            let step = self.step()?;
            // Before a creature set up face down is turned face up, often
            // an effect that sets its P/T: its own static ability applies
            // after it only through the new timestamp (613.7f).
            if let Action::TurnFaceUp(h) | Action::Transform(h) = &step.action {
                let up = self
                    .face_down
                    .iter()
                    .chain(&self.double_faced)
                    .any(|&i| object_handle(i) == *h);
                if up && self.on(Switches::SET) && self.one_in(2)? {
                    let e = self.set_until_end_of_turn(h.clone(), 5, None)?;
                    steps.push(effect_step(e));
                }
            }
            // A declared combat plays out: a damage step, sometimes after
            // another step, and a second one where first or double strike
            // may make two (510.4).
            if let Action::Attack(decl) = &step.action {
                let decl = decl.clone();
                steps.push(step);
                let strikers = decl.iter().any(|a| {
                    std::iter::once(&a.attacker).chain(&a.blockers).any(|h| {
                        objects.iter().any(|o| {
                            o.id == *h
                                && (o.keywords.contains(&Keyword::FirstStrike)
                                    || o.keywords.contains(&Keyword::DoubleStrike))
                        })
                    })
                });
                for _ in 0..if strikers { 2 } else { 1 } {
                    if self.one_in(3)? {
                        steps.push(self.step()?);
                    }
                    steps.extend(self.removal_steps(&decl)?);
                    steps.push(checked_step(self.divided_damage_step(&decl)?));
                }
                continue;
            }
            let plain = matches!(&step.action, Action::Effect(e) if e.modify.is_some() && e.x.is_none() && !e.has_early_parts());
            let numbered = matches!(&step.action, Action::RemoveCounters(_) | Action::Move(_));
            steps.push(step);
            // After a step whose share of the numbering is in question
            // (docs/protocol.md, "Timestamps"), sometimes two setting
            // effects on one creature: the first numbered automatically,
            // the second given the timestamp the first took if that step
            // took none. They tie, and the second applies last (613.7,
            // D3); had the step taken one, the first would apply last.
            if numbered
                && self.on(Switches::TIMESTAMPS)
                && self.on(Switches::SET)
                && self.one_in(2)?
            {
                let target = object_handle(self.any_object()?);
                for explicit in [false, true] {
                    let timestamp = explicit.then(|| {
                        Timestamp(Count(
                            next_timestamp(&objects, &steps).saturating_sub(1).max(1),
                        ))
                    });
                    let e = self.set_until_end_of_turn(target.clone(), 4, timestamp)?;
                    steps.push(effect_step(e));
                }
            }
            // A spell just cast often resolves soon, sometimes after one
            // more step (which may change what its X reads, 107.3c).
            while let Some(i) = self.resolve_next.take() {
                if self.one_in(2)? {
                    self.next_ts = next_timestamp(&objects, &steps);
                    steps.push(self.step()?);
                }
                // The step between may have resolved or moved it.
                if self.zones[i] != Zone::Stack {
                    continue;
                }
                let action = self.resolve(i);
                steps.push(Step {
                    action,
                    sba: true,
                    expect: BTreeMap::new(),
                    expect_in: BTreeMap::new(),
                    expect_error: None,
                    note: None,
                });
            }
            // Two modifications with no check between them: the pattern
            // whose order must not matter (613.4c).
            if plain && self.on(Switches::SPLIT_SBA) && self.one_in(3)? {
                if let Some(last) = steps.last_mut() {
                    last.sba = false;
                }
                self.next_ts = next_timestamp(&objects, &steps);
                let mut e = self.effect()?;
                e.x = None;
                e.set = None;
                e.switch = false;
                e.add_types.clear();
                e.remove_types.clear();
                e.add_keywords.clear();
                e.remove_keywords.clear();
                e.remove_all_abilities = false;
                e.modify = Some(ModPt {
                    power: self.change()?,
                    toughness: self.change()?,
                });
                steps.push(effect_step(e));
            }
        }
        Ok(Case {
            id: CaseId("explore/generated".into()),
            // The features are in the first bytes; a ruling written from
            // this case gets its own title.
            title: String::from("a generated case"),
            description: None,
            rules: "613".parse::<RuleRef>().into_iter().collect(),
            editions: None,
            origin: None,
            setup: Setup { players, objects },
            steps,
        })
    }

    pub(super) fn players(&mut self) -> Result<Vec<PlayerSpec>> {
        let mut out = Vec::new();
        for id in ["you", "opponent"] {
            // 119.4: a player can pay as much life as they have, so a
            // Phyrexian symbol's 2 life is at stake at low totals.
            let life = if self.on(Switches::COSTS) && self.one_in(3)? {
                self.int(1, 4)?
            } else if self.one_in(4)? {
                self.int(-2, 4)?
            } else {
                20
            };
            let poison = if self.on(Switches::INFECT) && self.one_in(2)? {
                self.int(0, 10)?
            } else {
                0
            };
            let mut mana = ManaPool::default();
            let mut snow_mana = ManaPool::default();
            if self.on(Switches::COSTS) {
                for _ in 0..self.index(4)? {
                    let m = self.pick(&[Mana::W, Mana::U, Mana::B, Mana::R, Mana::G, Mana::C])?;
                    if mana.0.contains_key(&m) {
                        continue;
                    }
                    let n = self.int(1, 3)?;
                    mana.0.insert(m, Count(n));
                    if self.one_in(3)? {
                        snow_mana.0.insert(m, Count(self.int(1, n)?));
                    }
                }
            }
            out.push(PlayerSpec {
                id: handle(id),
                life,
                poison: Count(poison),
                hand: Count(0),
                mana,
                snow_mana,
            });
        }
        Ok(out)
    }

    pub(super) fn kinds(&self) -> Vec<Kind> {
        let mut k = vec![Kind::Creature, Kind::Creature, Kind::Creature];
        if self.on(Switches::TYPES) {
            k.extend([Kind::Artifact, Kind::Land]);
        }
        if self.on(Switches::CREW) {
            k.push(Kind::Vehicle);
        }
        if self.on(Switches::PLANESWALKERS) {
            k.push(Kind::Planeswalker);
        }
        if self.on(Switches::BATTLES) {
            k.push(Kind::Battle);
        }
        if self.on(Switches::ATTACH) {
            k.push(Kind::Equipment);
        }
        if self.on(Switches::STATICS) {
            k.push(Kind::Enchantment);
        }
        if self.on(Switches::SAGAS) {
            k.push(Kind::Saga);
        }
        if self.on(Switches::SPELLS) {
            k.push(Kind::Instant);
        }
        k
    }

    pub(super) fn object(&mut self, i: usize, earlier: &[ObjectSpec]) -> Result<ObjectSpec> {
        let pick = self.index(self.kinds.len())?;
        let kind = self.kinds[pick];
        self.objects.push(kind);
        let mut o = ObjectSpec::new(object_handle(i));
        if self.one_in(4)? {
            o.controller = Some(handle("opponent"));
        }
        if self.on(Switches::TIMESTAMPS) {
            o.timestamp = Some(Timestamp(Count(self.int(1, 5)?)));
        }
        match kind {
            Kind::Creature => {
                o.types = vec![CardType::Creature];
                self.printed_pt(&mut o, i, earlier.len())?;
                self.keywords(&mut o)?;
                if self.on(Switches::LEVELS) && self.one_in(3)? {
                    self.level_bands(&mut o)?;
                }
                if self.on(Switches::STATICS) && self.one_in(4)? {
                    o.abilities.push(self.lord()?);
                }
            }
            Kind::Artifact => o.types = vec![CardType::Artifact],
            Kind::Land => o.types = vec![CardType::Land],
            Kind::Vehicle => {
                o.types = vec![CardType::Artifact];
                o.subtypes = vec!["Vehicle".into()];
                o.pt = Some(PrintedPt {
                    power: Printed::Fixed(self.int(1, 5)?),
                    toughness: Printed::Fixed(self.int(1, 5)?),
                });
                o.crew = Some(Count(self.int(0, 4)?));
            }
            Kind::Planeswalker => {
                o.types = vec![CardType::Planeswalker];
                let l = self.int(1, 5)?;
                o.loyalty = Some(Count(l));
                o.counters.insert(CounterKind::named("loyalty"), Count(l));
            }
            Kind::Battle => {
                // Under the opponent's control, so that the first player's
                // creatures are the ones that damage it (protectors are not
                // modelled, DECISIONS.md D38).
                o.types = vec![CardType::Battle];
                o.controller = Some(handle("opponent"));
                if !self.one_in(3)? {
                    o.subtypes = vec!["Siege".into()];
                }
                let d = self.int(0, 5)?;
                o.defense = Some(Count(d));
                if d > 0 {
                    o.counters.insert(CounterKind::named("defense"), Count(d));
                }
            }
            Kind::Equipment => self.equipment(&mut o, earlier)?,
            Kind::Enchantment => {
                o.types = vec![CardType::Enchantment];
                o.abilities.push(self.static_ability()?);
            }
            Kind::Saga => {
                // Its chapters name other objects: drawn in `acting`.
                o.types = vec![CardType::Enchantment];
                o.subtypes = vec!["Saga".into()];
                let lore = self.int(0, 2)?;
                if lore > 0 {
                    o.counters.insert(CounterKind::named("lore"), Count(lore));
                }
            }
            Kind::Instant => {
                o.types = vec![CardType::Instant];
                o.mana_cost = Some(self.mana_cost()?);
                o.zone = Zone::Hand;
            }
        }
        self.state(&mut o, kind)?;
        if kind == Kind::Creature
            && o.zone == Zone::Battlefield
            && self.on(Switches::FACE_DOWN)
            && self.one_in(2)?
        {
            self.face_down(&mut o, i)?;
        }
        if kind == Kind::Creature && self.on(Switches::FACE_DOWN) && self.one_in(4)? {
            self.back_face(&mut o, i)?;
        }
        if o.counters.contains_key(&CounterKind::named("shield")) {
            self.shielded.push(i);
        }
        if let (true, Some(kind)) = (o.cant_have_counters_put, o.counters.keys().next()) {
            self.sealed.push((i, kind.clone()));
        }
        Ok(o)
    }

    /// A creature's level bands (711): two, the second with first strike,
    /// and its level counters.
    pub(super) fn level_bands(&mut self, o: &mut ObjectSpec) -> Result<()> {
        let a = self.int(1, 2)?;
        let b = self.int(a, a + 2)?;
        o.level_up = vec![
            LevelBand {
                min: Count(a),
                max: Some(Count(b)),
                pt: ptoracle_core::number::Pt::new(self.value()?, self.value()?),
                keywords: Vec::new(),
                abilities: Vec::new(),
            },
            LevelBand {
                min: Count(b + 1),
                max: None,
                pt: ptoracle_core::number::Pt::new(self.value()?, self.value()?),
                keywords: vec![Keyword::FirstStrike],
                abilities: if self.on(Switches::LEVEL_ABILITIES) && self.one_in(2)? {
                    vec![self.lord()?]
                } else {
                    Vec::new()
                },
            },
        ];
        o.counters
            .insert(CounterKind::named("level"), Count(self.int(0, 4)?));
        Ok(())
    }

    /// An Equipment: attached to a creature on the battlefield drawn
    /// before it, if any, with a P/T bonus and maybe hone counters.
    pub(super) fn equipment(&mut self, o: &mut ObjectSpec, earlier: &[ObjectSpec]) -> Result<()> {
        o.types = vec![CardType::Artifact];
        o.subtypes = vec!["Equipment".into()];
        let creatures: Vec<usize> = (0..earlier.len())
            .filter(|&j| self.objects[j] == Kind::Creature && earlier[j].zone == Zone::Battlefield)
            .collect();
        if !creatures.is_empty() {
            let j = self.pick(&creatures)?;
            o.attached_to = Some(object_handle(j));
        }
        o.abilities.push(EffectSpec {
            affects: Affects::Attached,
            modify: Some(ModPt {
                power: self.change()?,
                toughness: self.change()?,
            }),
            ..EffectSpec::default()
        });
        if self.one_in(2)? {
            o.counters
                .insert(CounterKind::named("hone"), Count(self.int(1, 3)?));
        }
        Ok(())
    }

    /// What any object may have besides its kind: counters, caps, a zone,
    /// how it entered, X on the stack, rules for counters put on it,
    /// damage and regeneration shields.
    pub(super) fn state(&mut self, o: &mut ObjectSpec, kind: Kind) -> Result<()> {
        if self.on(Switches::COUNTERS) && self.one_in(2)? {
            for _ in 0..1 + self.index(2)? {
                let kind = self.pt_counter_kind()?;
                let n = self.count()?;
                o.counters.insert(kind, Count(n));
            }
        }
        if self.on(Switches::KEYWORD_COUNTERS) && self.one_in(3)? {
            let k = self.pick(&GRANTED)?;
            o.counters.insert(CounterKind::Keyword(k), Count(1));
        }
        if self.on(Switches::SHIELDS) && self.one_in(2)? {
            o.counters
                .insert(CounterKind::named("shield"), Count(self.int(1, 2)?));
        }
        if self.on(Switches::CAPS) && self.one_in(3)? {
            o.max_counters
                .insert(CounterKind::PLUS_ONE, Count(self.int(0, 3)?));
        }
        if self.on(Switches::ZONES)
            && o.attached_to.is_none()
            && o.zone == Zone::Battlefield
            && self.one_in(4)?
        {
            o.zone = self.pick(&[Zone::Graveyard, Zone::Hand, Zone::Exile])?;
        }
        if kind == Kind::Creature {
            self.entering(o)?;
        }
        if kind == Kind::Instant && self.one_in(3)? {
            o.zone = Zone::Stack;
        }
        if o.zone == Zone::Stack && o.mana_cost.as_ref().is_some_and(|c| c.has_x()) {
            o.x = Some(Count(self.int(0, 5)?));
        }
        if self.on(Switches::CANT_HAVE_COUNTERS) && self.one_in(5)? {
            o.cant_have_counters_put = true;
        }
        if self.on(Switches::PUT_BY) && self.one_in(5)? {
            let (twice, half) = (Some(CounterScale::Twice), Some(CounterScale::HalfDown));
            let (you, opponents) = self.pick(&[
                (twice, half),
                (twice, None),
                (None, half),
                (half, twice),
                (twice, twice),
            ])?;
            o.counters_put_by = Some(CountersPutBy { you, opponents });
        }
        if o.zone == Zone::Battlefield {
            if self.on(Switches::DAMAGE) && self.one_in(4)? {
                o.damage = Count(self.int(1, 3)?);
            }
            if self.on(Switches::REGENERATION) && self.one_in(3)? {
                o.regeneration_shields = Count(self.int(1, 2)?);
            }
        }
        Ok(())
    }

    /// How a creature comes onto the battlefield: as a spell with a mana
    /// cost (maybe {X}), with counters, with a P/T chosen as it enters,
    /// and whether it is summoning sick where it is.
    pub(super) fn entering(&mut self, o: &mut ObjectSpec) -> Result<()> {
        if self.on(Switches::SPELLS) && o.zone == Zone::Battlefield && self.one_in(3)? {
            o.mana_cost = Some(self.mana_cost()?);
            o.zone = self.pick(&[Zone::Hand, Zone::Stack])?;
        }
        if self.on(Switches::ENTERS_WITH)
            && (self.on(Switches::ZONES) || self.on(Switches::SPELLS))
            && self.one_in(3)?
        {
            let n = if o.mana_cost.as_ref().is_some_and(|c| c.has_x()) && self.one_in(2)? {
                Quantity::Ref(Box::new(QuantityRef::XOf(o.id.clone())))
            } else {
                Quantity::Fixed(self.int(0, 3)?)
            };
            o.enters_with.insert(self.pt_counter_kind()?, n);
        }
        if self.on(Switches::CHOOSE_PT) && self.one_in(3)? {
            o.pt = Some(PrintedPt {
                power: Printed::Star(0),
                toughness: Printed::Star(0),
            });
            o.cda = None;
            let first = Pt::new(self.value()?, self.value()?);
            let mut second = Pt::new(self.value()?, self.value()?);
            if second == first {
                second = Pt::new(first.power.saturating_add(1), first.toughness);
            }
            o.enters_as = vec![
                EntryChoice {
                    pt: first,
                    keywords: Vec::new(),
                },
                EntryChoice {
                    pt: second,
                    keywords: vec![Keyword::Flying],
                },
            ];
            if self.one_in(2)? {
                o.choose = Some(second);
            }
        }
        if self.on(Switches::SICKNESS) && o.zone == Zone::Battlefield && self.one_in(2)? {
            o.sick = true;
        }
        Ok(())
    }

    /// The abilities that make objects act inside a step, which name other
    /// objects: a Saga's chapters (714.2), "when the Nth counter is put on
    /// this" (122.7), what an instant does as it resolves (608.2).
    pub(super) fn acting(&mut self, i: usize, o: &mut ObjectSpec) -> Result<()> {
        let kind = self.objects[i];
        match kind {
            Kind::Saga => {
                for n in 1..=self.int(2, 3)? {
                    o.chapters.push(Chapter {
                        at: vec![Count(n)],
                        action: self.triggered_action()?,
                        name: Some(format!("chapter {n}")),
                    });
                }
            }
            Kind::Creature if self.on(Switches::COUNTER_TRIGGERS) && self.one_in(3)? => {
                o.counter_triggers.push(CounterTrigger {
                    kind: if self.one_in(3)? {
                        CounterKind::MINUS_ONE
                    } else {
                        CounterKind::PLUS_ONE
                    },
                    nth: Count(self.int(1, 4)?),
                    action: self.triggered_action()?,
                    name: Some("Nth-counter trigger".into()),
                });
            }
            Kind::Instant => {
                let announced = o.mana_cost.as_ref().is_some_and(|c| c.has_x());
                let creature = self.object_of(&[Kind::Creature])?;
                if let Some(c) = creature.filter(|_| !announced) {
                    if self.one_in(2)? {
                        // 107.3c: "where X is that creature's power", read
                        // whenever needed while it is on the stack.
                        o.x_is = Some(Quantity::Ref(Box::new(QuantityRef::PowerOf(
                            object_handle(c),
                        ))));
                    }
                }
                // "Target creature gets +X/+X" (Giant Growth-like), or
                // "creatures you control have base P/T X/X" (Biomass
                // Mutation).
                let x = announced || o.x_is.is_some();
                let amount = |fixed: i64| if x { Amount::X } else { Amount::Fixed(fixed) };
                let mut e = EffectSpec {
                    until: Some(Until::EndOfTurn),
                    x: x.then(|| Quantity::Ref(Box::new(QuantityRef::XOf(o.id.clone())))),
                    ..EffectSpec::default()
                };
                match creature {
                    Some(c) if self.one_in(2)? => {
                        e.affects = Affects::Objects(vec![object_handle(c)]);
                        let change = Change {
                            minus: false,
                            amount: amount(3),
                        };
                        e.modify = Some(ModPt {
                            power: change,
                            toughness: change,
                        });
                    }
                    _ => {
                        e.affects = Affects::Filter(Box::new(Filter {
                            types: vec![CardType::Creature],
                            controller: Some(handle("you")),
                            ..Filter::default()
                        }));
                        e.set = Some(SetPt {
                            power: amount(2),
                            toughness: amount(2),
                        });
                    }
                }
                o.on_resolve = Some(Action::Effect(Box::new(e)));
            }
            _ => {}
        }
        Ok(())
    }

    /// What a triggered ability does: counters on a creature or a pump.
    pub(super) fn triggered_action(&mut self) -> Result<Action> {
        let c = object_handle(self.creature()?);
        Ok(if self.one_in(2)? {
            Action::PutCounters(CounterPut {
                on: c,
                kind: self.pt_counter_kind()?,
                count: Count(self.int(1, 2)?),
                by: None,
            })
        } else {
            Action::Effect(Box::new(EffectSpec {
                affects: Affects::Objects(vec![c]),
                modify: Some(ModPt {
                    power: self.change()?,
                    toughness: self.change()?,
                }),
                until: Some(Until::EndOfTurn),
                ..EffectSpec::default()
            }))
        })
    }

    /// A mana cost with or without {X}, for a spell.
    pub(super) fn mana_cost(&mut self) -> Result<ManaCost> {
        let text = self.pick(&["{X}{G}", "{X}", "{X}{G/U}{G/U}", "{1}{G}", "{G}"])?;
        Ok(text.parse().expect("a valid mana cost"))
    }

    /// A cost to pay, with every kind of symbol (107.4).
    pub(super) fn cost(&mut self) -> Result<ManaCost> {
        let text = self.pick(&[
            "{2}{G}{G}",
            "{W/U}",
            "{2/B}",
            "{G/P}",
            "{S}",
            "{C}",
            "{0}",
            "{X}{R}",
            "{1}{G}{G/P}",
            "{S}{S}{U}",
        ])?;
        Ok(text.parse().expect("a valid mana cost"))
    }

    pub(super) fn player(&mut self) -> Result<Handle> {
        Ok(handle(self.pick(&["you", "opponent"])?))
    }

    /// Who puts counters, when the case says.
    pub(super) fn by(&mut self) -> Result<Option<Handle>> {
        if self.on(Switches::PUT_BY) && self.one_in(2)? {
            return Ok(Some(self.player()?));
        }
        Ok(None)
    }

    pub(super) fn printed_pt(&mut self, o: &mut ObjectSpec, i: usize, before: usize) -> Result<()> {
        if self.on(Switches::CDA) && self.one_in(3)? {
            let q = self.cda_quantity(i, before)?;
            let toughness_fixed = self.int(0, 2)?;
            o.pt = Some(PrintedPt {
                power: Printed::Star(0),
                toughness: Printed::Star(toughness_fixed),
            });
            o.cda = Some(Cda {
                power: Some(q.clone()),
                toughness: Some(q),
            });
            return Ok(());
        }
        o.pt = Some(PrintedPt {
            power: Printed::Fixed(self.value()?),
            toughness: Printed::Fixed(self.value()?),
        });
        Ok(())
    }

    pub(super) fn cda_quantity(&mut self, i: usize, before: usize) -> Result<Quantity> {
        Ok(match self.index(3)? {
            0 => Quantity::Ref(Box::new(QuantityRef::Count(Filter {
                types: vec![CardType::Creature],
                ..Filter::default()
            }))),
            1 if before > 0 => {
                let j = self.index(before)?;
                Quantity::Ref(Box::new(QuantityRef::PowerOf(object_handle(j))))
            }
            _ => Quantity::Ref(Box::new(QuantityRef::Counters(CountersOn {
                on: object_handle(i),
                kind: CounterKind::PLUS_ONE,
            }))),
        })
    }

    pub(super) fn keywords(&mut self, o: &mut ObjectSpec) -> Result<()> {
        for (feature, k) in [
            (Switches::DEATHTOUCH, Keyword::Deathtouch),
            (Switches::WITHER, Keyword::Wither),
            (Switches::INFECT, Keyword::Infect),
            (Switches::LIFELINK, Keyword::Lifelink),
            (Switches::INDESTRUCTIBLE, Keyword::Indestructible),
            (Switches::UNDYING, Keyword::Undying),
            (Switches::UNDYING, Keyword::Persist),
            (Switches::ABILITIES, Keyword::Flying),
        ] {
            if self.on(feature) && self.one_in(3)? && !o.keywords.contains(&k) {
                o.keywords.push(k);
            }
        }
        if self.on(Switches::COMBAT_STEPS) {
            for (k, one_in) in [
                (Keyword::FirstStrike, 4),
                (Keyword::DoubleStrike, 6),
                (Keyword::Trample, 3),
                (Keyword::Vigilance, 6),
            ] {
                if self.one_in(one_in)? && !o.keywords.contains(&k) {
                    o.keywords.push(k);
                }
            }
        }
        if self.on(Switches::INERT_KEYWORDS) && self.one_in(3)? {
            let k = self.inert_keyword()?;
            if !o.keywords.contains(&k) {
                o.keywords.push(k);
            }
        }
        Ok(())
    }

    /// A keyword ptoracle does not model (flanking, shroud…).
    pub(super) fn inert_keyword(&mut self) -> Result<Keyword> {
        let name = self.pick(&INERT)?;
        // Every name of INERT is one of terms::INERT_KEYWORDS (a unit test
        // checks it); flying only stands in for the impossible.
        Ok(Keyword::parse(name).unwrap_or(Keyword::Flying))
    }

    pub(super) fn pt_counter_kind(&mut self) -> Result<CounterKind> {
        let kinds = [
            (1, 1),
            (-1, -1),
            (1, 0),
            (0, 1),
            (0, -1),
            (-1, 0),
            (2, 2),
            (-2, -2),
        ];
        let (power, toughness) = self.pick(&kinds)?;
        Ok(CounterKind::Pt { power, toughness })
    }
}
