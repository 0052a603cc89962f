//! Combat: attacks, blocks and the damage steps (506 to 511).

use super::*;

impl Gen<'_, '_> {
    /// A declared combat (508.1, 509.1): one or two of the first player's
    /// creatures attack, and each of the other player's may block one.
    pub(super) fn attack_step(&mut self) -> Result<Action> {
        let creatures = |theirs: bool| -> Vec<usize> {
            (0..self.objects.len())
                .filter(|&i| {
                    self.objects[i] == Kind::Creature
                        && self.zones[i] == Zone::Battlefield
                        && self.theirs.get(i) == Some(&theirs)
                })
                .collect()
        };
        let (mine, theirs) = (creatures(false), creatures(true));
        if mine.is_empty() {
            return self.combat_damage_step();
        }
        let mut decl: Vec<AttackDeclaration> = Vec::new();
        for _ in 0..1 + self.index(2)? {
            let i = self.pick(&mine)?;
            if decl.iter().all(|a| a.attacker != object_handle(i)) {
                decl.push(AttackDeclaration {
                    attacker: object_handle(i),
                    defender: None,
                    blockers: Vec::new(),
                });
            }
        }
        for b in theirs {
            if self.one_in(3)? {
                continue;
            }
            let k = self.index(decl.len())?;
            decl[k].blockers.push(object_handle(b));
        }
        // 508.1b: sometimes a planeswalker of the other player is attacked.
        let walkers: Vec<usize> = (0..self.objects.len())
            .filter(|&i| {
                self.objects[i] == Kind::Planeswalker
                    && self.zones[i] == Zone::Battlefield
                    && self.theirs.get(i) == Some(&true)
            })
            .collect();
        if !walkers.is_empty() {
            for a in &mut decl {
                if self.one_in(2)? {
                    a.defender = Some(object_handle(self.pick(&walkers)?));
                }
            }
        }
        Ok(Action::Attack(decl))
    }

    /// Between the steps of a declared combat, sometimes what removes one
    /// of its permanents from combat (506.4): a change of control of an
    /// attacker, a blocker or an attacked planeswalker, or a creature's
    /// regeneration (701.19a: a shield, then a destruction it replaces).
    pub(super) fn removal_steps(&mut self, attack: &[AttackDeclaration]) -> Result<Vec<Step>> {
        let control = self.on(Switches::CONTROL);
        let regenerate = self.on(Switches::REGENERATION) && !self.scope.no_destroy;
        if !(control || regenerate) || !self.one_in(2)? {
            return Ok(Vec::new());
        }
        let fighters: Vec<(Handle, bool)> = attack
            .iter()
            .flat_map(|a| {
                std::iter::once((a.attacker.clone(), true))
                    .chain(a.blockers.iter().map(|b| (b.clone(), false)))
            })
            .collect();
        let walkers: Vec<Handle> = attack.iter().filter_map(|a| a.defender.clone()).collect();
        if fighters.is_empty() {
            return Ok(Vec::new());
        }
        let (of, attacks) = self.pick_of(&fighters)?;
        if regenerate && (!control || self.one_in(2)?) {
            return Ok(vec![
                checked_step(Action::Regenerate(of.clone())),
                checked_step(Action::Destroy(of)),
            ]);
        }
        // An attacker goes to the defending player, a blocker to the
        // attacking one; an attacked planeswalker to the attacking one.
        let (object, player) = if !walkers.is_empty() && self.one_in(3)? {
            (self.pick_of(&walkers)?, "you")
        } else if attacks {
            (of, "opponent")
        } else {
            (of, "you")
        };
        Ok(vec![checked_step(Action::GainControl(GainControl {
            object,
            player: handle(player),
        }))])
    }

    /// One of `items`, cloned.
    fn pick_of<T: Clone>(&mut self, items: &[T]) -> Result<T> {
        let i = self.index(items.len())?;
        Ok(items[i].clone())
    }

    /// The attacking player's choice in a combat damage step: sometimes
    /// the blockers of an attacker in reverse, then what it attacks.
    pub(super) fn divided_damage_step(&mut self, attack: &[AttackDeclaration]) -> Result<Action> {
        let mut divide = BTreeMap::new();
        for a in attack {
            if a.blockers.len() > 1 && self.one_in(2)? {
                let mut order: Vec<Handle> = a.blockers.iter().rev().cloned().collect();
                if self.one_in(2)? {
                    order.pop();
                }
                divide.insert(a.attacker.clone(), order);
            }
        }
        Ok(Action::CombatDamageStep(DamageStep {
            divide,
            ..DamageStep::default()
        }))
    }

    /// Combat damage from one or two creatures.
    pub(super) fn combat_damage_step(&mut self) -> Result<Action> {
        let mut v: Vec<CombatAssignment> = Vec::new();
        // Two blockers on one attacker: what a shield counter's single
        // prevention effect is about (122.1c).
        if self.on(Switches::SHIELDS) && self.one_in(2)? {
            let to = if self.shielded.is_empty() {
                object_handle(self.creature()?)
            } else {
                object_handle(self.pick(&self.shielded.clone())?)
            };
            for _ in 0..2 {
                let from = self.creature()?;
                v.push(CombatAssignment {
                    from: object_handle(from),
                    to: to.clone(),
                    amount: None,
                });
            }
            return Ok(Action::CombatDamage(v));
        }
        for _ in 0..1 + self.index(2)? {
            let from = self.creature()?;
            let to = self.target()?;
            v.push(CombatAssignment {
                from: object_handle(from),
                to,
                amount: None,
            });
        }
        Ok(Action::CombatDamage(v))
    }
}
