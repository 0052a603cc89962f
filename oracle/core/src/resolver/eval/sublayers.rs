//! One P/T effect applied in its sublayer (613.4a–d), with the line of
//! explanation it gives.

use super::{Eval, PtEntry, Wide, XVal};
use crate::number::{Change, Overflow, checked};
use crate::resolver::{Bugs, Mutant};
use crate::terms::CounterKind;
use crate::text::plural;

pub(super) fn show_set(set: crate::number::SetPt, x: i64) -> String {
    if set.uses_x() {
        format!("{set} with X = {x}, i.e. {}", set.resolve(x))
    } else {
        set.to_string()
    }
}

pub(super) fn show_change(m: crate::number::ModPt, x: i64) -> String {
    if m.uses_x() {
        let v = |c: Change| c.value(x).map_or("?".to_string(), |v| v.to_string());
        format!(
            "{m} with X = {x}, i.e. {}/{}",
            sign(v(m.power)),
            sign(v(m.toughness))
        )
    } else {
        m.to_string()
    }
}

pub(super) fn sign(s: String) -> String {
    if s.starts_with('-') {
        s
    } else {
        format!("+{s}")
    }
}

pub(super) fn fmt_change(dp: i128, dt: i128) -> String {
    format!("{}/{}", sign(dp.to_string()), sign(dt.to_string()))
}

impl<'g, 'c, B: Bugs> Eval<'g, 'c, B> {
    /// A setting effect that sets the power or the toughness only (7b,
    /// 613.4b): what an exchange of values leaves (701.12g).
    pub(super) fn set_one_step(&self, a: usize, pt: Wide, describe: bool) -> (Wide, String) {
        let spec = &self.actives[a].spec;
        let mut next = pt;
        let mut said = Vec::new();
        if let Some(p) = spec.set_power {
            next.power = p.into();
            said.push(format!("power {p}"));
        }
        if let Some(t) = spec.set_toughness {
            next.toughness = t.into();
            said.push(format!("toughness {t}"));
        }
        let text = if describe && !said.is_empty() {
            self.effect_text(a, &format!("set {}", said.join(", ")))
        } else {
            String::new()
        };
        (next, text)
    }

    /// Applies one layer-7 entry; returns the new P/T and, when `describe`
    /// is set, what it did.
    pub(super) fn pt_step(
        &self,
        c: usize,
        entry: PtEntry,
        pt: Wide,
        who: &dyn Fn() -> String,
        describe: bool,
    ) -> Result<(Wide, String), Overflow> {
        match entry {
            PtEntry::Cda => self.cda_step(c, pt, who, describe),
            PtEntry::Set(a) => {
                let act = &self.actives[a];
                let Some(set) = act.spec.set else {
                    return Ok(self.set_one_step(a, pt, describe));
                };
                let x = match act.x {
                    XVal::Locked { set, .. } => set,
                    XVal::Live(q) if set.uses_x() => self.live_quantity(q, c)?,
                    _ => 0,
                };
                let next = Wide::of(set.resolve(x));
                let text = if describe {
                    self.effect_text(a, &format!("set {}", show_set(set, x)))
                } else {
                    String::new()
                };
                Ok((next, text))
            }
            PtEntry::Modify(a) => self.modify_step(c, a, pt, who, describe),
            PtEntry::Granted(a) => self.granted_step(c, a, pt, describe),
            PtEntry::Switch(a) => {
                let text = if describe {
                    self.effect_text(a, "switch")
                } else {
                    String::new()
                };
                Ok((
                    Wide {
                        power: pt.toughness,
                        toughness: pt.power,
                    },
                    text,
                ))
            }
            PtEntry::Counter {
                power,
                toughness,
                count,
                ts,
                ..
            } => self.counter_step((power, toughness), count, ts, pt, who, describe),
            PtEntry::Hone {
                equipment,
                count,
                ts,
                ..
            } => {
                let next = pt.add(count.into(), 0, who)?;
                if !describe {
                    return Ok((next, String::new()));
                }
                let eq = self.g.cards[equipment].name();
                Ok((
                    next,
                    format!(
                        "+{count}/+0 from {count} hone counter{} on {eq} (t={ts})",
                        plural(count)
                    ),
                ))
            }
        }
    }

    /// 604.3, 613.4a: the characteristic-defining ability's values for `*`.
    pub(super) fn cda_step(
        &self,
        c: usize,
        pt: Wide,
        who: &dyn Fn() -> String,
        describe: bool,
    ) -> Result<(Wide, String), Overflow> {
        let face = self.g.cards[c].face();
        let Some(cda) = &face.cda else {
            return Ok((pt, String::new()));
        };
        let Some(printed) = face.pt else {
            return Ok((pt, String::new()));
        };
        let mut next = pt;
        let mut said = Vec::new();
        if let Some(q) = &cda.power {
            let star = self.live_quantity(q, c)?;
            next.power = checked(printed.power.value(star), || {
                format!("the power of {}", who())
            })?
            .into();
            if describe {
                said.push(format!("power * = {} = {star}", self.g.describe(q)));
            }
        }
        if let Some(q) = &cda.toughness {
            let star = self.live_quantity(q, c)?;
            next.toughness = checked(printed.toughness.value(star), || {
                format!("the toughness of {}", who())
            })?
            .into();
            if describe {
                said.push(format!("toughness * = {} = {star}", self.g.describe(q)));
            }
        }
        Ok((
            next,
            format!("characteristic-defining ability: {}", said.join(", ")),
        ))
    }

    /// 604.3a, 613.4b: the ability effect `a` granted, which defines the
    /// power and/or toughness of `c` as a value read all the time; not a
    /// characteristic-defining ability, so it sets them in 7b.
    pub(super) fn granted_step(
        &self,
        c: usize,
        a: usize,
        pt: Wide,
        describe: bool,
    ) -> Result<(Wide, String), Overflow> {
        let Some(gr) = &self.actives[a].spec.grant_pt_ability else {
            return Ok((pt, String::new()));
        };
        let mut next = pt;
        let mut said = Vec::new();
        let power = match &gr.power {
            Some(q) => Some(self.live_quantity(q, c)?),
            None => None,
        };
        let toughness = match &gr.toughness {
            Some(q) => Some(self.live_quantity(q, c)?),
            None => None,
        };
        if let Some(v) = power {
            next.power = v.into();
        }
        if let Some(v) = toughness {
            next.toughness = v.into();
        }
        if !describe {
            return Ok((next, String::new()));
        }
        match (&gr.power, &gr.toughness, power, toughness) {
            (Some(p), Some(t), Some(vp), Some(vt)) if p == t => said.push(format!(
                "power and toughness each {} = {vp}/{vt}",
                self.g.describe(p)
            )),
            _ => {
                for (side, q, v) in [
                    ("power", &gr.power, power),
                    ("toughness", &gr.toughness, toughness),
                ] {
                    if let (Some(q), Some(v)) = (q, v) {
                        said.push(format!("{side} {} = {v}", self.g.describe(q)));
                    }
                }
            }
        }
        let card = &self.g.cards[c];
        let act = &self.actives[a];
        Ok((
            next,
            format!(
                "{} by the ability {} granted (t={}): granted by an effect, so no characteristic-defining ability, and set in timestamp order with the other setting effects",
                said.join(", "),
                self.label(a),
                card.ts.max(act.ts)
            ),
        ))
    }

    /// 613.4c: an effect that raises or lowers P/T, X read as the effect
    /// says.
    pub(super) fn modify_step(
        &self,
        c: usize,
        a: usize,
        pt: Wide,
        who: &dyn Fn() -> String,
        describe: bool,
    ) -> Result<(Wide, String), Overflow> {
        let act = &self.actives[a];
        let Some(m) = act.spec.modify else {
            return Ok((pt, String::new()));
        };
        let x = match act.x {
            XVal::Locked { modify, .. } => modify,
            XVal::Live(q) if m.uses_x() => {
                let raw = self.live_quantity(q, c)?;
                if self.g.rules.clamp_negative_modification {
                    raw.max(0)
                } else {
                    raw
                }
            }
            _ => 0,
        };
        let dp = checked(m.power.value(x), || {
            format!("the power change of {}", self.label(a))
        })?;
        let dt = checked(m.toughness.value(x), || {
            format!("the toughness change of {}", self.label(a))
        })?;
        let next = pt.add(dp.into(), dt.into(), who)?;
        let text = if describe {
            self.effect_text(a, &show_change(m, x))
        } else {
            String::new()
        };
        Ok((next, text))
    }

    /// 613.4c, 122.1a: P/T counters of one kind change P/T by their count times
    /// their values.
    pub(super) fn counter_step(
        &self,
        (power, toughness): (i64, i64),
        count: i64,
        ts: i64,
        pt: Wide,
        who: &dyn Fn() -> String,
        describe: bool,
    ) -> Result<(Wide, String), Overflow> {
        if self.g.bug(Mutant::WrappingCounters) {
            let wrap = |v: i128, d: i64| i128::from((v as i64).wrapping_add(d.wrapping_mul(count)));
            let next = Wide {
                power: wrap(pt.power, power),
                toughness: wrap(pt.toughness, toughness),
            };
            return Ok((next, String::new()));
        }
        // Both factors fit in 64 bits, so the product fits in 128.
        let dp = i128::from(power) * i128::from(count);
        let dt = i128::from(toughness) * i128::from(count);
        let next = pt.add(dp, dt, who)?;
        if !describe {
            return Ok((next, String::new()));
        }
        let kind = CounterKind::Pt { power, toughness };
        Ok((
            next,
            format!(
                "{} from {count} {kind} counter{} (t={ts})",
                fmt_change(dp, dt),
                plural(count)
            ),
        ))
    }

    pub(super) fn effect_text(&self, a: usize, what: &str) -> String {
        format!("{what} by {} (t={})", self.label(a), self.actives[a].ts)
    }
}
