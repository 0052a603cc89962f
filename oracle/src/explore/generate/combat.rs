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
        Ok(Action::Attack(decl))
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
