//! A step's expectations of an object.

use super::*;

impl<'a> Validator<'a> {
    pub(super) fn expect(&mut self, h: &Handle, e: &Expect, path: &NodePath, in_lki: bool) {
        match self.kind_of(h, None, path) {
            Some(Kind::Object) => {
                if let Some(f) = e.player_fields().first() {
                    self.err(
                        path.key(*f),
                        format!("`{f}` is about a player; `{h}` is an object"),
                    );
                }
            }
            Some(Kind::Player) => {
                if e.has_object_fields() {
                    self.err(
                        path.clone(),
                        format!("`{h}` is a player: only life, poison, mana, lost, snow_mana, payments and can_pay apply"),
                    );
                }
            }
            None => return,
        }
        if let Some(lki) = &e.lki {
            if in_lki {
                self.err(
                    path.key("lki"),
                    "last known information has no last known information of its own",
                );
            } else {
                if lki.zone.is_some_and(|z| z != Zone::Battlefield) {
                    self.err(
                        path.key("lki").key("zone"),
                        "last known information is of the object on the battlefield",
                    );
                }
                self.expect(h, lki, &path.key("lki"), true);
            }
        }
        if let Some(c) = &e.counters {
            if c.keys().any(|k: &CounterKind| k.is_named("poison")) {
                self.err(
                    path.key("counters"),
                    "poison counters are on players: expect `poison:`",
                );
            }
        }
    }
}
