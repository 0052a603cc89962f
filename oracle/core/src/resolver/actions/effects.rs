//! Creating continuous effects, exchanges and scalings (611, 613).

use super::invalid;
use crate::error::NodePath;
use crate::number::{Amount, Change, ModPt, checked};
use crate::resolver::{Bugs, Effect, Eval, Game, Log, Mutant, ObjRef, Res};
use crate::scenario::{
    Affects, EffectSpec, Exchange, Exchanged, Quantity, Scale, ScaleWhat, Until,
};

impl<'c, B: Bugs> Game<'c, B> {
    /// Reads an amount as an ability resolves (608.2h); 107.1b: a negative
    /// result is 0.
    pub(super) fn amount_at_resolution(
        &self,
        eval: &Eval<'_, 'c, B>,
        q: &Quantity,
        what: &str,
        log: &mut Log,
    ) -> Res<i64> {
        let raw = eval.locked_quantity(q)?;
        if let Quantity::Ref(_) = q {
            log.line(1, || {
                format!(
                    "{what} is {} as it resolves: {raw} [608.2h]",
                    self.describe(q)
                )
            });
        }
        if raw < 0 {
            log.line(1, || {
                format!("{what} would be {raw}, a negative result, so 0 is used [107.1b]")
            });
        }
        Ok(raw.max(0))
    }

    pub(super) fn create_effect(
        &mut self,
        e: &EffectSpec,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let eval = Eval::new(self, false);
        let source = e.source.as_ref().map(|h| self.card_index(h));
        let affected: Vec<ObjRef> = match &e.affects {
            Affects::Objects(hs) => {
                let mut v = Vec::new();
                for (i, h) in hs.iter().enumerate() {
                    let c = self.card_index(h);
                    self.require_battlefield(
                        c,
                        &path.key("affects").index(i),
                        "be affected by an effect",
                    )?;
                    v.push(self.obj_ref(c));
                }
                v
            }
            Affects::Filter(f) => {
                let mut v = Vec::new();
                for c in 0..self.cards.len() {
                    if !eval.matches(f, c, &eval.early[c], source) {
                        continue;
                    }
                    if f.tests_pt()
                        && !crate::resolver::eval::pt_matches(f, eval.pt(c)?.map(|i| i.pt))
                    {
                        continue;
                    }
                    v.push(self.obj_ref(c));
                }
                v
            }
            Affects::This | Affects::Attached => Vec::new(),
        };
        let label = e.name.clone().unwrap_or_else(|| "an effect".into());
        let (mut x_set, mut x_modify) = (0, 0);
        if let Some(q) = &e.x {
            let raw = eval.locked_quantity(q)?;
            x_set = raw;
            x_modify = raw;
            log.line(1, || {
                format!(
                    "X = {} = {raw}, read once as {label} resolves [608.2h]",
                    self.describe(q)
                )
            });
            if raw < 0
                && e.modify.is_some_and(|m| m.uses_x())
                && self.rules.clamp_negative_modification
                && !self.bug(Mutant::UnclampedX)
            {
                x_modify = 0;
                log.line(1, || {
                    "X is negative in a +X/+Y change, so 0 is used; only setting, doubling and tripling P/T may use a negative result [107.1b]".into()
                });
            }
        }
        drop(eval);
        let until = e.until.unwrap_or(Until::Forever);
        let source_ref = source.map(|c| self.obj_ref(c));
        if until == Until::SourceLeaves && source.is_some_and(|c| !self.cards[c].on_battlefield()) {
            log.line(1, || {
                format!(
                    "{label} does nothing: its source has already left the battlefield [611.2b]"
                )
            });
            return Ok(());
        }
        let ts = match e.timestamp {
            Some(t) => self.take_explicit_ts(t.0.0),
            None => self.take_ts(),
        };
        let seq = self.take_seq();
        if log.on() {
            let names: Vec<String> = affected
                .iter()
                .map(|r| self.cards[r.card].name().to_string())
                .collect();
            let who = if names.is_empty() {
                "nothing".to_string()
            } else {
                names.join(", ")
            };
            let locked = if matches!(e.affects, Affects::Filter(_)) {
                ", the affected set locked as it resolves [611.2c]"
            } else {
                ""
            };
            log.line(1, || {
                format!("{label} (t={ts}): {who} {} {until}{locked}", e.summary())
            });
        }
        self.effects.push(Effect {
            spec: e.clone(),
            label,
            source: source_ref,
            ts,
            seq,
            until,
            affected,
            x_set,
            x_modify,
        });
        Ok(())
    }

    /// 701.10 / 701.11: doubling adds X, tripling adds 2X, where X is the
    /// value as it resolves; a negative value lowers it where the edition
    /// says so, and otherwise counts as 0 (107.1b).
    /// Exchanges two numerical values (701.12a, 701.12g): each becomes the
    /// other's value as the exchange happens. A power or toughness takes
    /// the other value through an effect that sets it in 7b (613.4b), so
    /// modifications and counters still apply on top; a life total takes it
    /// by gaining or losing the difference (119.3). If either value is not
    /// there, nothing is exchanged (701.12a).
    pub(super) fn exchange(&mut self, x: &Exchange, path: &NodePath, log: &mut Log) -> Res<()> {
        let label = x.name.clone().unwrap_or_else(|| "the exchange".into());
        let mut values = Vec::with_capacity(2);
        {
            let eval = Eval::new(self, false);
            for v in &x.values {
                let value = match v {
                    Exchanged::Life(h) => Some(self.players[self.player_index(h)].life),
                    Exchanged::Power(h) | Exchanged::Toughness(h) => {
                        let c = self.card_index(h);
                        let pt = if self.cards[c].on_battlefield() {
                            eval.pt(c)?.map(|i| i.pt)
                        } else {
                            None
                        };
                        pt.map(|pt| match v {
                            Exchanged::Power(_) => pt.power,
                            _ => pt.toughness,
                        })
                    }
                };
                values.push(value);
            }
        }
        let (Some(Some(va)), Some(Some(vb)), [a, b]) =
            (values.first(), values.get(1), x.values.as_slice())
        else {
            let missing = x
                .values
                .iter()
                .zip(&values)
                .find(|(_, v)| v.is_none())
                .map(|(e, _)| e.to_string())
                .unwrap_or_default();
            log.line(1, || {
                format!("{label} does nothing: {missing} is not there (not a creature on the battlefield), and an exchange happens whole or not at all [701.12a]")
            });
            return Ok(());
        };
        let (va, vb) = (*va, *vb);
        log.line(1, || {
            let show = |e: &Exchanged| match e {
                Exchanged::Power(h) => {
                    format!("the power of {}", self.cards[self.card_index(h)].name())
                }
                Exchanged::Toughness(h) => {
                    format!("the toughness of {}", self.cards[self.card_index(h)].name())
                }
                Exchanged::Life(h) => format!("the life total of {h}"),
            };
            format!(
                "{label} exchanges {} ({va}) and {} ({vb}): each becomes the other's value [701.12g]",
                show(a),
                show(b)
            )
        });
        for (side, from, to) in [(a, va, vb), (b, vb, va)] {
            match side {
                Exchanged::Life(h) => {
                    let p = self.player_index(h);
                    let player = &mut self.players[p];
                    let was = player.life;
                    player.life = to;
                    let diff = checked(to.checked_sub(was), || format!("the life total of {h}"))?;
                    log.line(1, || {
                        let (verb, n) = if diff < 0 {
                            ("loses", -diff)
                        } else {
                            ("gains", diff)
                        };
                        format!("player {h} {verb} {n} life: {was} becomes {to} [701.12g, 119.3]")
                    });
                }
                Exchanged::Power(h) | Exchanged::Toughness(h) => {
                    let power = matches!(side, Exchanged::Power(_));
                    // 701.12g: a continuous effect sets the value in 7b (613.4b).
                    let mut spec = EffectSpec {
                        name: Some(label.clone()),
                        affects: Affects::Objects(vec![h.clone()]),
                        until: Some(x.until.unwrap_or(Until::Forever)),
                        set_power: power.then_some(to),
                        set_toughness: (!power).then_some(to),
                        ..EffectSpec::default()
                    };
                    if self.bug(Mutant::ExchangeModifies) {
                        let d = checked(to.checked_sub(from), || format!("the exchange on {h}"))?;
                        let change = Change {
                            minus: d < 0,
                            amount: Amount::Fixed(checked(d.checked_abs(), || {
                                format!("the exchange on {h}")
                            })?),
                        };
                        let none = Change {
                            minus: false,
                            amount: Amount::Fixed(0),
                        };
                        spec.set_power = None;
                        spec.set_toughness = None;
                        spec.modify = Some(if power {
                            ModPt {
                                power: change,
                                toughness: none,
                            }
                        } else {
                            ModPt {
                                power: none,
                                toughness: change,
                            }
                        });
                    }
                    self.create_effect(&spec, path, log)?;
                }
            }
        }
        Ok(())
    }

    pub(super) fn scale(
        &mut self,
        sc: &Scale,
        factor: i64,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(&sc.affects);
        let (verb, rule, lowers) = if factor == 1 {
            ("doubles", "701.10", self.rules.double_negative_lowers)
        } else {
            ("triples", "701.11", self.rules.triple_negative_lowers)
        };
        let lowers = lowers && !self.bug(Mutant::DoubleClampsNegative);
        self.require_battlefield(
            c,
            &path.key("affects"),
            "have its power or toughness changed",
        )?;
        let eval = Eval::new(self, false);
        let Some(info) = eval.pt(c)? else {
            return Err(invalid(
                path.key("affects"),
                format!(
                    "`{}` is not a creature: it has no power or toughness to change (208.3)",
                    sc.affects
                ),
            ));
        };
        drop(eval);
        let id = &sc.affects;
        let extra = |v: i64| -> Res<i64> {
            let x = checked(v.checked_mul(factor), || {
                format!("{verb} the value {v} of {id}")
            })?;
            Ok(if v < 0 && !lowers { 0 } else { x })
        };
        let (dp, dt) = match sc.what {
            ScaleWhat::Power => (extra(info.pt.power)?, 0),
            ScaleWhat::Toughness => (0, extra(info.pt.toughness)?),
            ScaleWhat::Both => (extra(info.pt.power)?, extra(info.pt.toughness)?),
        };
        let change = |v: i64| -> Res<Change> {
            Ok(Change {
                minus: v < 0,
                amount: Amount::Fixed(checked(v.checked_abs(), || format!("{verb} {id}"))?),
            })
        };
        let spec = EffectSpec {
            name: sc.name.clone(),
            affects: Affects::Objects(vec![id.clone()]),
            until: Some(sc.until),
            modify: Some(ModPt {
                power: change(dp)?,
                toughness: change(dt)?,
            }),
            ..EffectSpec::default()
        };
        let label = sc
            .name
            .clone()
            .unwrap_or_else(|| format!("{verb} ({rule})"));
        let name = self.cards[c].name().to_string();
        log.line(1, || {
            format!(
                "{label} {verb} {} of {name} ({}): a modification of {} locked in as it resolves [{rule}a, 608.2h]",
                match sc.what {
                    ScaleWhat::Power => "the power",
                    ScaleWhat::Toughness => "the toughness",
                    ScaleWhat::Both => "the power and toughness",
                },
                info.pt,
                spec.modify.map(|m| m.to_string()).unwrap_or_default()
            )
        });
        let negative = match sc.what {
            ScaleWhat::Power => info.pt.power < 0,
            ScaleWhat::Toughness => info.pt.toughness < 0,
            ScaleWhat::Both => info.pt.power < 0 || info.pt.toughness < 0,
        };
        if negative {
            if lowers {
                log.line(1, || format!("a negative value {verb} downward: it gets -X where X is 0 minus the value [{rule}c]"));
            } else {
                log.line(1, || {
                    "a negative value counts as 0 in this edition [107.1b]".into()
                });
            }
        }
        let ts = match sc.timestamp {
            Some(t) => self.take_explicit_ts(t.0.0),
            None => self.take_ts(),
        };
        let seq = self.take_seq();
        let target = self.obj_ref(c);
        self.effects.push(Effect {
            spec,
            label,
            source: None,
            ts,
            seq,
            until: sc.until,
            affected: vec![target],
            x_set: 0,
            x_modify: 0,
        });
        Ok(())
    }
}
