//! The setup's objects: their characteristics, spells, defense, entry
//! choices and copies.

use super::*;

impl<'a> Validator<'a> {
    /// 707.2: `object` copies `c.of`; both must be objects whose every
    /// copiable value the model copies.
    pub(super) fn copy_of(
        &mut self,
        object: &Handle,
        c: &crate::scenario::CopyOf,
        path: &NodePath,
    ) {
        self.object_ref(&c.of, &path.key("of"));
        if *object == c.of {
            self.err(path.key("of"), format!("`{object}` can't copy itself"));
            return;
        }
        for (h, at) in [(object, path.clone()), (&c.of, path.key("of"))] {
            let Some(o) = self.objects.get(h.as_str()).copied() else {
                continue;
            };
            if let Some(field) = o.copy_unmodelled() {
                self.err(
                    at,
                    format!(
                        "`{h}` has `{field}`, which copy effects don't copy in this model (707.2): leave it out of copies"
                    ),
                );
            }
        }
    }

    /// A setup object that entered as a copy: of an object listed before
    /// it, whose copiable values are known by then.
    pub(super) fn setup_copy(&mut self, case: &'a Case, i: usize, o: &ObjectSpec, path: &NodePath) {
        let Some(c) = &o.copy else { return };
        self.copy_of(&o.id, c, path);
        if o.zone != Zone::Battlefield {
            self.err(
                path.clone(),
                format!(
                    "only a permanent entered as a copy; this object is in the {}",
                    o.zone
                ),
            );
        }
        if !case.setup.objects[..i].iter().any(|e| e.id == c.of) && c.of != o.id {
            self.err(
                path.key("of"),
                format!(
                    "`{}` must be listed before `{}`, which copies it",
                    c.of, o.id
                ),
            );
        }
    }

    /// 310.4a: a printed defense belongs to a battle, and is a count.
    pub(super) fn defense(&mut self, o: &ObjectSpec, path: &NodePath) {
        let Some(d) = o.defense else { return };
        if !o.types.contains(&CardType::Battle) {
            self.err(
                path.key("defense"),
                "only a battle has a printed defense (310.4a): add `Battle` to `types:` or remove `defense:`",
            );
        }
        if d.0 < 0 {
            self.err(
                path.key("defense"),
                format!("a printed defense is 0 or more, not {}", d.0),
            );
        }
    }

    pub(super) fn object(&mut self, o: &ObjectSpec, path: &NodePath) {
        if let Some(c) = &o.controller {
            self.player_ref(c, &path.key("controller"));
        }
        for (i, ch) in o.chapters.iter().enumerate() {
            let at = path.key("chapters").index(i);
            if ch.at.is_empty() {
                self.err(
                    at.key("at"),
                    "a chapter ability needs at least one chapter number (107.15a)",
                );
            }
            for (j, n) in ch.at.iter().enumerate() {
                if n.0 < 1 {
                    self.err(at.key("at").index(j), "chapter numbers start at 1 (714.2b)");
                }
            }
            self.action(&ch.action, &at.key("do").key(ch.action.key()));
        }
        for (i, t) in o.counter_triggers.iter().enumerate() {
            let at = path.key("counter_triggers").index(i);
            if t.nth.0 < 1 {
                self.err(at.key("nth"), "the Nth counter: N is at least 1 (122.7)");
            }
            self.action(&t.action, &at.key("do").key(t.action.key()));
        }
        self.defense(o, path);
        if let Some(a) = &o.attached_to {
            self.object_ref(a, &path.key("attached_to"));
            if a == &o.id {
                self.err(
                    path.key("attached_to"),
                    "an object can't be attached to itself (301.5c, 303.4d)",
                );
            }
        }
        let stars = o.pt.map(|pt| {
            (
                matches!(pt.power, Printed::Star(_)),
                matches!(pt.toughness, Printed::Star(_)),
            )
        });
        match (&o.cda, stars) {
            // 208.2b: the stars of a card whose P/T is chosen as it enters.
            (None, Some(_)) if !o.enters_as.is_empty() => {}
            (None, Some((p, t))) if p || t => self.err(
                path.key("pt"),
                "a `*` needs a characteristic-defining ability that says its value: add `cda:` (208.2a), or the choices of an \"as this enters\" ability: add `enters_as:` (208.2b)",
            ),
            (Some(_), None) => self.err(path.key("cda"), "a characteristic-defining ability for P/T needs a printed `*` in `pt:`"),
            (Some(cda), Some((p, t))) => {
                for (q, star, side) in [(&cda.power, p, "power"), (&cda.toughness, t, "toughness")] {
                    match q {
                        Some(q) if !star => self.err(
                            path.key("cda").key(side),
                            format!("the printed {side} has no `*` for this ability to define"),
                        ),
                        None if star => self.err(path.key("cda"), format!("the `*` in the printed {side} needs a value: add `{side}:`")),
                        Some(q) => self.quantity(q, &path.key("cda").key(side)),
                        None => {}
                    }
                }
            }
            _ => {}
        }
        if o.zone != Zone::Battlefield {
            for (bad, what) in [
                (!o.damage.is_zero(), "damage"),
                (o.deathtouch_damage, "deathtouch_damage"),
                (!o.regeneration_shields.is_zero(), "regeneration_shields"),
                (o.tapped, "tapped"),
                (o.attached_to.is_some(), "attached_to"),
                (o.sick, "sick"),
                (o.face_down, "face_down"),
            ] {
                if bad {
                    self.err(
                        path.key(what),
                        format!(
                            "only a permanent can have `{what}`; this object is in the {}",
                            o.zone
                        ),
                    );
                }
            }
        }
        for kind in o.counters.keys() {
            if kind.is_named("poison") {
                self.err(
                    path.key("counters"),
                    "poison counters go on players (122.1f): give the player `poison:`",
                );
            }
        }
        for (i, band) in o.level_up.iter().enumerate() {
            if band.max.is_some_and(|m| m < band.min) {
                self.err(
                    path.key("level_up").index(i).key("max"),
                    "a level band's max is below its min",
                );
            }
            for (j, other) in o.level_up.iter().enumerate().skip(i + 1) {
                let lo = band.min.0.max(other.min.0);
                let hi = match (band.max, other.max) {
                    (Some(a), Some(b)) => a.0.min(b.0),
                    (Some(a), None) | (None, Some(a)) => a.0,
                    (None, None) => i64::MAX,
                };
                if lo <= hi {
                    self.err(
                        path.key("level_up").index(j),
                        format!("this level band overlaps band {i}"),
                    );
                }
            }
            // 107.8a: a band's abilities are static abilities of the creature.
            for (j, ab) in band.abilities.iter().enumerate() {
                self.static_ability(ab, &path.key("level_up").index(i).key("abilities").index(j));
            }
        }
        if o.counters_put_by
            .is_some_and(|b| b.you.is_none() && b.opponents.is_none())
        {
            self.err(
                path.key("counters_put_by"),
                "this ability changes nothing: say what happens when `you` (its controller) or `opponents` put counters (twice or half-down)",
            );
        }
        for (i, ab) in o.abilities.iter().enumerate() {
            self.static_ability(ab, &path.key("abilities").index(i));
        }
        if let Some(back) = &o.back_face {
            for (i, ab) in back.abilities.iter().enumerate() {
                self.static_ability(ab, &path.key("back_face").key("abilities").index(i));
            }
        }
        self.spell(o, path);
        if o.face_down && o.choose.is_some() {
            // 708.3: a permanent that enters face down makes no choice of
            // its "as this enters" abilities.
            self.err(
                path.key("choose"),
                "a permanent set up face down entered with no choice made as it entered (708.3): leave out `choose`",
            );
        }
        self.entry_choices(o, path);
        // 707.6: an object set up as a copy chose among the options of the
        // text it copies, known as the setup is made (the resolver checks).
        if let (Some(pt), None) = (o.choose, &o.copy) {
            self.chosen(o, pt, &path.key("choose"));
        }
    }

    /// 107.3, 202.3, 608.2: a mana cost, X, what a spell does as it
    /// resolves, and the counters it enters with.
    pub(super) fn spell(&mut self, o: &ObjectSpec, path: &NodePath) {
        if o.mana_cost.is_some() && !o.mana_value.is_zero() {
            self.err(
                path.key("mana_value"),
                "give `mana_cost` or `mana_value`, not both: the mana value comes from the cost (202.3)",
            );
        }
        if o.x.is_some() {
            if o.zone != Zone::Stack {
                self.err(
                    path.key("x"),
                    format!("X is announced as a spell is cast (107.3a): `x` is for a spell set up on the stack, and this object is in the {}", o.zone),
                );
            }
            if !o.mana_cost.as_ref().is_some_and(|m| m.has_x()) {
                self.err(
                    path.key("x"),
                    "`x` needs an {X} in `mana_cost`; an X defined by the card's text is `x_is` (107.3c)",
                );
            }
            if o.x_is.is_some() {
                self.err(
                    path.key("x_is"),
                    "X is either announced (`x`, 107.3a) or defined by the text (`x_is`, 107.3c), not both",
                );
            }
        }
        if let Some(q) = &o.x_is {
            self.quantity(q, &path.key("x_is"));
            if q.reads_x() {
                self.err(
                    path.key("x_is"),
                    "an X defined by the text can't read an X or a mana value",
                );
            }
        }
        if let Some(a) = &o.on_resolve {
            if o.types.iter().any(|t| t.is_permanent()) {
                self.err(
                    path.key("on_resolve"),
                    "a permanent spell resolves by entering the battlefield (608.3); `on_resolve` is for instants and sorceries",
                );
            }
            self.action(a, &path.key("on_resolve").key(a.key()));
        }
        for (kind, q) in &o.enters_with {
            let at = path.key("enters_with").key(kind.to_string());
            if kind.is_named("poison") {
                self.err(at.clone(), "poison counters go on players (122.1f)");
            }
            self.quantity(q, &at);
        }
    }

    /// 208.2b: the values an "as this enters, choose" ability lists.
    pub(super) fn entry_choices(&mut self, o: &ObjectSpec, path: &NodePath) {
        if o.enters_as.is_empty() {
            return;
        }
        if o.cda.is_some() {
            self.err(
                path.key("enters_as"),
                "a card whose P/T is chosen as it enters has no characteristic-defining ability for it (208.2b): remove `cda:`",
            );
        }
        for (i, c) in o.enters_as.iter().enumerate() {
            if o.enters_as[..i].iter().any(|e| e.pt == c.pt) {
                self.err(
                    path.key("enters_as").index(i).key("pt"),
                    format!("{} is listed twice; each choice needs its own P/T", c.pt),
                );
            }
        }
    }

    /// A choice (`choose: P/T`) must name one of the object's `enters_as`.
    pub(super) fn chosen(&mut self, o: &ObjectSpec, pt: crate::number::Pt, path: &NodePath) {
        if o.enters_as.is_empty() {
            self.err(
                path.clone(),
                format!(
                    "`{}` has no `enters_as`: nothing lets its controller choose its P/T (208.2b)",
                    o.id
                ),
            );
        } else if !o.enters_as.iter().any(|e| e.pt == pt) {
            let listed: Vec<String> = o.enters_as.iter().map(|e| e.pt.to_string()).collect();
            self.err(
                path.clone(),
                format!(
                    "{pt} is not one of the choices of `{}`: {}",
                    o.id,
                    listed.join(", ")
                ),
            );
        }
    }
}
