//! Copiable values (707.2) and the choice an entering copy makes (707.5).

use super::{Bugs, Copiable, Eval, Game, Mutant};
use crate::error::{NodePath, ScenarioError};
use crate::number::Pt;
use crate::scenario::ObjectSpec;

impl<'c, B: Bugs> Game<'c, B> {
    /// The copiable values of card `c` now (707.2), for a copy effect with
    /// the exception `except_pt` (707.9b): its printed values as the copy
    /// effects on it, its face-down status and its entry choice modify
    /// them. Counters, damage and the other effects on it are not copied.
    pub(crate) fn copiable(&self, c: usize, except_pt: Option<Pt>) -> Copiable<'c> {
        let card = &self.cards[c];
        let mut values = match card.copy() {
            // 707.2: as modified by other copy effects (an exception of
            // theirs included, 707.9b).
            Some(v) => v.clone(),
            None => Copiable {
                spec: card.spec,
                choices: card.choice.into_iter().collect(),
                face_down: false,
                back: card.transformed,
                except_pt: None,
                levels: std::sync::Arc::new(card.levels.clone()),
            },
        };
        // 707.2, 708.2a: a face-down permanent's copiable values are those
        // of 708.2a, whatever it copies (613.2b applies after 613.2a).
        if card.face_down {
            values.face_down = true;
            values.except_pt = None;
        }
        if self.bug(Mutant::CopyKeepsCountersAndPumps) {
            let now = Eval::new(self, false).pt(c).ok().flatten();
            values.except_pt = now.map(|i| i.pt).or(values.except_pt);
        }
        // 707.2: before the text of 2005-10-01, the P/T chosen as it
        // entered was not copied: only its printed values (D46).
        if !self.rules.entry_choice_copiable {
            values.choices.clear();
        }
        // 707.9b: the exception's values become part of the copiable values.
        if except_pt.is_some() {
            values.except_pt = except_pt;
        }
        values
    }

    /// 707.5, 707.6: an object entering the battlefield as a copy makes the
    /// "as this enters" choice of the text it copies itself, `choose`; the
    /// original's choice is not copied as a choice, though the values it
    /// set stay in `values` (707.2, DECISIONS.md D62). The option chosen is
    /// added to `values`. `copy` names the entering object and `of` what it
    /// copies, and `at` is where the entering object's `copy` and `choose`
    /// are written, for the errors: a choice to make and none given, one
    /// given and none to make, one the text does not offer.
    pub(crate) fn entering_copy_choice(
        &self,
        values: &mut Copiable<'c>,
        choose: Option<Pt>,
        (copy, of): (&str, &str),
        at: &NodePath,
    ) -> Result<Option<usize>, ScenarioError> {
        // 708.2a, 712.8e: copied face-down values, or a back face, have no
        // "as this enters" ability.
        let spec: &'c ObjectSpec = values.spec;
        let options: &'c [crate::scenario::EntryChoice] = if values.face_down || values.back {
            &[]
        } else {
            &spec.enters_as
        };
        let listed = || {
            options
                .iter()
                .map(|o| o.pt.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if options.is_empty() {
            return match choose {
                None => Ok(None),
                Some(_) => Err(ScenarioError::new(
                    at.key("choose"),
                    format!(
                        "`{copy}` enters as a copy of `{of}`, whose copiable values have no \"as this enters\" choice: leave out `choose`"
                    ),
                )),
            };
        }
        if values.except_pt.is_some() {
            return Err(ScenarioError::new(
                at.key("copy"),
                format!(
                    "`{copy}` would enter as a copy of `{of}` with an exception that sets P/T and also choose its P/T as it enters; which of the two sets its copiable P/T is not modelled (707.5, 707.9b)"
                ),
            ));
        }
        let Some(pt) = choose else {
            return Err(ScenarioError::new(
                at.key("copy"),
                format!(
                    "`{copy}` enters as a copy of `{of}`, whose \"as this enters\" ability applies again and its controller makes the choice anew (707.5, 707.6): say which with `choose` ({})",
                    listed()
                ),
            ));
        };
        let Some(i) = options.iter().position(|o| o.pt == pt) else {
            return Err(ScenarioError::new(
                at.key("choose"),
                format!(
                    "{pt} is not one of the choices `{copy}` makes as it enters as a copy of `{of}`: {}",
                    listed()
                ),
            ));
        };
        if !self.bug(Mutant::CopyTakesTheOriginalChoice) {
            values.choices.push(i);
        }
        Ok(Some(i))
    }
}
