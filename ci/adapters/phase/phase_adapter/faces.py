"""The case's card database: one card face per object (its Oracle text,
written by `oracle_text.py`), the adapter's own instants and its effect
source, each parsed by phase.rs's parser and checked part by part against
what the adapter wrote; a case whose text the parser reads otherwise is
refused."""

import json
from types import SimpleNamespace

from . import engine
from .engine import FOREST, inert_keyword_text, oracle_face
from .oracle_text import (CHOOSING, CONTROL, COPYING, DESTROY, EFFECT_SOURCE, ENTERING,
                          FACE_DOWN, PREVENT, SEALED,
                          SEALED_PARSE, cda_text, chapter_lines, choice_text,
                          counter_trigger_text, counters_spell, holder, level_text,
                          locked_effect_text, lore_text, move_spell, put_by_text,
                          instant, resolve_text, return_spell, spell_text, static_text)
from .refusals import entering_with_counters, paid_cost, really_put, sealed_put
from .terms import COLORS, KEYWORDS, SPELL_TYPES, Unsupported, fixed, parse_pt, shaped


def unique(name, taken):
    """`name`, or with " Again" as often as it takes to be none of the names
    `taken` (lowercase), which it joins."""
    while name.lower() in taken:
        name += " Again"
    taken.add(name.lower())
    return name


def type_line(types, subtypes):
    line = " ".join(types) if types else ""
    return line + (" — " + " ".join(subtypes) if subtypes else "")


class Faces:
    """`Game`'s card database."""

    def card_names(self):
        """A card name per object: its own when that is unambiguous."""
        by_name = {}
        for o in self.objects:
            by_name.setdefault(o.get("name") or "", []).append(o)
        names = {}
        for o in self.objects:
            name = o.get("name") or ""
            shared = by_name[name]
            same = all(self.face_key(s) == self.face_key(o) for s in shared) \
                and all(self.mana_letters.get(s["id"]) == self.mana_letters.get(o["id"])
                        and self.exchanges.get(s["id"]) == self.exchanges.get(o["id"])
                        for s in shared)
            if name and same and name.lower() != "forest":
                names[o["id"]] = name
            else:
                base = name or "Object"
                names[o["id"]] = f"{base} {o['id'].replace('_', ' ').title()}"
        return names

    @staticmethod
    def face_key(o):
        return json.dumps({k: o.get(k) for k in ("types", "subtypes", "colors", "pt", "keywords", "mana_cost",
                                              "abilities", "cda", "cant_have_counters_put",
                                              "enters_as", "counter_triggers")},
                          sort_keys=True)

    @staticmethod
    def damage_amounts(case):
        """The damage each source deals in the case: one ability per amount."""
        out = {}
        for step in case.get("steps", []):
            action = step["do"]
            if isinstance(action, dict) and "damage" in action:
                body = action["damage"]
                out.setdefault(body["from"], set()).add(body["amount"])
        return {h: sorted(v) for h, v in out.items()}

    def card_faces(self, case):
        """The card database: a face per object, the Forests, the effect
        source, the adapter's instants."""
        faces = {}
        for o in self.objects:
            faces[self.names[o["id"]].lower()] = self.face(o)
        faces["forest"] = oracle_face(FOREST)
        self.locked = self.locked_effects(case)
        self.locked.update(self.entering_moves(case))
        if self.locked:
            faces[EFFECT_SOURCE.lower()] = self.effect_source_face()
        for name, face in self.payers:
            faces[name.lower()] = face
        for name, face, _ in self.pumps:
            faces[name.lower()] = face
        self.destroys = sum(1 for s in case.get("steps", [])
                            if isinstance(s["do"], dict) and "destroy" in s["do"])
        if self.destroys:
            faces[DESTROY.lower()] = engine.build_face(instant(DESTROY, "Destroy target permanent."))
        self.preventions = [s["do"]["prevent"]["amount"] for s in case.get("steps", [])
                            if isinstance(s["do"], dict) and "prevent" in s["do"]]
        for n in set(self.preventions):
            name = f"{PREVENT} {n}"
            faces[name.lower()] = engine.build_face(instant(
                name, f"Prevent the next {n} damage that would be dealt to any target this turn."))
        return faces

    def face(self, o):
        """The card face of a case's object: its Oracle text (`face_text`) as
        phase.rs's parser reads it, each part of the parse checked against
        what the adapter wrote (`check_parse`)."""
        text = self.face_text(o)
        face = oracle_face(self.face_spec(o, text))
        self.check_parse(o, face, text)
        return face

    def face_text(self, o):
        """The Oracle text of a case's object (`lines`), with the parse each
        of its parts must have."""
        name = self.names[o["id"]]
        lines = [k.capitalize() if k in KEYWORDS or k == "changeling" else inert_keyword_text(k)
                 for k in o.get("keywords", [])]
        first = next(iter(self.player_ids))
        statics = [static_text(name, a, self.player_ids, o.get("controller", first), o["id"],
                               holder(o, {"objects": self.objects}))
                   for a in o.get("abilities") or []]
        lines += [text for text, _ in statics]
        if o.get("crew") is not None:
            lines.append(f"Crew {fixed(o['crew'], o['id'])}")
        if o["id"] in self.clones:
            lines.append(f"You may have {name} enter as a copy of any creature on the "
                         "battlefield.")
        chapters = {}
        if o.get("chapters") is not None:
            chapter_text, chapters = chapter_lines(o, {x["id"]: x for x in self.objects}, o["id"])
            lines += chapter_text
            self.chapters[o["id"]] = chapters
        cda = cda_text(name, o, self.player_ids, first, o["id"]) if o.get("cda") else None
        if cda:
            lines.append(cda[0])
        levels = level_text(o["level_up"], o["id"]) if o.get("level_up") else ([], [])
        lines += levels[0]
        put_by = put_by_text(o.get("counters_put_by") or {}, o["id"])
        lines += [text for text, _ in put_by]
        if o.get("cant_have_counters_put"):
            lines.append(f"{name} {SEALED}")
        nth = [counter_trigger_text(name, o, t, o["id"]) for t in o.get("counter_triggers") or []]
        lines += [text for text, _ in nth]
        choice = choice_text(name, o, o["id"]) if o.get("enters_as") else None
        if choice:
            lines.append(choice[0])
        damage_line = None
        spell = bool(set(o.get("types", [])) & SPELL_TYPES)
        amounts = self.amounts.get(o["id"], [])
        if spell and amounts:
            # Its spell ability: one amount, as a real card has (120.3).
            if len(amounts) > 1 or not isinstance(amounts[0], int):
                raise Unsupported(f"{o['id']}: an instant or sorcery that deals {amounts} "
                                  "damage (its Oracle text deals one fixed amount)")
            damage_line = f"{name} deals {amounts[0]} damage to any target."
            lines.append(damage_line)
        for n in [] if spell else amounts:
            lines.append(f"{{0}}: {name} deals {n} damage to any target.")
        for letter in self.mana_letters.get(o["id"], []):
            lines.append(f"{{0}}: Add an amount of {{{letter}}} equal to {name}'s power.")
        for stat in self.exchanges.get(o["id"], []):
            lines.append(f"{{0}}: Exchange your life total with {name}'s {stat}.")
        if o["id"] in self.regenerating:
            # After the damage, mana and exchange abilities: its index is their number.
            lines.append(f"{{0}}: Regenerate {name}.")
        if o["id"] in self.equips:  # after the abilities that go by index
            lines.append("Equip {0}")
        resolves = resolve_text(o, self.player_ids, first, o["id"]) \
            if o.get("on_resolve") else None
        if resolves:
            lines.append(resolves[0])
        return SimpleNamespace(name=name, lines=lines, statics=statics, chapters=chapters,
                               cda=cda, levels=levels, put_by=put_by, nth=nth, choice=choice,
                               spell=spell, amounts=amounts, damage_line=damage_line,
                               resolves=resolves)

    @staticmethod
    def face_spec(o, text):
        """The card of a case's object, as phase.rs's parser takes it."""
        name, lines, cda, choice = text.name, text.lines, text.cda, text.choice
        spec = {
            "name": name,
            "manaCost": o.get("mana_cost", ""),
            "colors": [COLORS[c] for c in o.get("colors", []) if c in COLORS],
            "colorIdentity": [COLORS[c] for c in o.get("colors", []) if c in COLORS],
            "type": type_line(o.get("types", []), o.get("subtypes", [])),
            "types": o.get("types", []),
            "subtypes": o.get("subtypes", []),
            "supertypes": [],
            "text": "\n".join(lines),
            "layout": "normal",
            "manaValue": o.get("mana_value", 0),
            "identifiers": {},
            "keywords": [k.title() for k in o.get("keywords", [])],
        }
        if cda:
            spec["power"], spec["toughness"] = cda[1]
        elif choice:
            spec["power"], spec["toughness"] = "*", "*"
        elif "pt" in o:
            p, t = parse_pt(o["pt"], o["id"])
            spec["power"], spec["toughness"] = str(p), str(t)
        if "loyalty" in o:
            spec["loyalty"] = str(fixed(o["loyalty"], o["id"]))
        if "defense" in o:
            # The engine gives a Siege its ability from the subtype (310.11b).
            spec["defense"] = str(fixed(o["defense"], o["id"]))
        return spec

    def check_parse(self, o, face, text):
        """Refuses the case unless phase.rs's parser read every part of the
        object's Oracle text as the case means; records the engine's labels
        of a P/T chosen as it enters."""
        name, statics, chapters, cda, levels = (text.name, text.statics, text.chapters,
                                                text.cda, text.levels)
        put_by, nth, choice, resolves = text.put_by, text.nth, text.choice, text.resolves
        spell, amounts, damage_line = text.spell, text.amounts, text.damage_line
        if spell and amounts:
            read = [a["effect"] for a in face["abilities"]]
            if read != [{"type": "DealDamage", "amount": {"type": "Fixed", "value": amounts[0]},
                         "target": {"type": "Any"}}]:
                raise Unsupported(f"{o['id']}: phase.rs's parser does not read "
                                  f"{damage_line!r} as the case means (it reads {json.dumps(read)})")
        if resolves:
            read = [a["effect"] for a in face["abilities"] if a.get("kind") == "Spell"]
            shape = [{k: (r.get(k) if k != "static_abilities" else
                          [{"modifications": a.get("modifications")}
                           for a in r.get(k) or []])
                      for k in resolves[1]} for r in read]
            if shape != [resolves[1]]:
                raise Unsupported(f"{o['id']}: phase.rs's parser does not read "
                                  f"{resolves[0]!r} as the case means (it reads "
                                  f"{json.dumps(read)})")
        sealed = [r for r in face.get("replacements") or [] if r.get("event") == "AddCounter"
                  and r.get("quantity_modification") == {"type": "Prevent"}]
        if sealed != ([SEALED_PARSE] if o.get("cant_have_counters_put") else []):
            raise Unsupported(f"{o['id']}: phase.rs's parser does not read {name} {SEALED!r} as "
                              f"the case means (it reads {json.dumps(sealed)})")
        read = [{k: r.get(k) for k in ("quantity_modification", "valid_player")}
                for r in face.get("replacements") or [] if r.get("event") == "AddCounter"
                and r not in sealed]
        if read != [parsed for _, parsed in put_by]:
            raise Unsupported(f"{o['id']}: phase.rs's parser does not read "
                              f"{[text for text, _ in put_by]} as the case means (it reads "
                              f"{json.dumps(read)})")
        start = len(self.amounts.get(o["id"], [])) + len(self.mana_letters.get(o["id"], []))
        for k, stat in enumerate(self.exchanges.get(o["id"], [])):
            read = face["abilities"][start + k]["effect"] if len(face["abilities"]) > start + k \
                else None
            if read != {"type": "ExchangeLifeWithStat", "player": {"type": "Controller"},
                        "stat": stat.capitalize()}:
                raise Unsupported(f"{o['id']}: phase.rs's parser does not read the exchange of "
                                  f"a life total with its {stat} (it reads {json.dumps(read)})")
        if cda:
            read = [a["modifications"] for a in face["static_abilities"]
                    if a.get("characteristic_defining")]
            if read != [cda[2]]:
                raise Unsupported(f"{o['id']}: phase.rs's parser does not read the "
                                  f"characteristic-defining ability {cda[0]!r} as the case "
                                  f"means (it reads {json.dumps(read)})")
        banded = [a for a in face["static_abilities"]
                  if (a.get("condition") or {}).get("type") == "HasCounters"
                  and (a["condition"].get("counters") or {}).get("data") == "level"]
        if [{"modifications": a["modifications"], "condition": a["condition"]}
                for a in banded] != levels[1]:
            raise Unsupported(f"{o['id']}: phase.rs's parser does not read the level up bands "
                              f"{levels[0]} as the case means (it reads {json.dumps(banded)})")
        read = [t for t in face["triggers"] if t.get("mode") == "CounterAdded"
                and not t.get("saga_chapter")]
        if len(read) != len(nth) or any(
                t.get("counter_filter") != want["counter_filter"] or t.get("condition")
                or t.get("valid_card") != {"type": "SelfRef"}
                or not shaped(t["execute"]["effect"], want["effect"])
                for t, (_, want) in zip(read, nth)):
            raise Unsupported(f"{o['id']}: phase.rs's parser does not read "
                              f"{[text for text, _ in nth]} as the case means (it reads "
                              f"{json.dumps(read)[:400]})")
        gated = [a for a in face["static_abilities"]
                 if (a.get("condition") or {}).get("type") == "ChosenLabelIs"]
        if choice:
            self.labels[o["id"]] = self.choice_labels(o["id"], face, choice, gated)
        parsed = [a for a in face["static_abilities"] if a.get("mode") == "Continuous"
                  and not a.get("characteristic_defining") and a not in banded
                  and a not in gated
                  and [m["type"] for m in a["modifications"]] != ["AddAllCreatureTypes"]]
        read = [{m["type"] for m in a["modifications"]} for a in parsed]
        numbers = sorted(t.get("saga_chapter") for t in face["triggers"] if t.get("saga_chapter"))
        if numbers != sorted(chapters) or any(
                t["execute"]["effect"]["type"] not in ("PutCounter", "Pump")
                for t in face["triggers"] if t.get("saga_chapter")):
            raise Unsupported(f"{o['id']}: phase.rs's parser does not read its chapter abilities "
                              f"(it reads chapters {numbers})")
        if len(parsed) != len(statics) or any(kinds - r for (_, kinds), r in zip(statics, read)):
            raise Unsupported(f"{o['id']}: phase.rs's parser does not read all of the static "
                              f"abilities {[text for text, _ in statics]} (it reads {read})")

    @staticmethod
    def choice_labels(handle, face, choice, gated):
        """The engine's label of each choice, by its P/T: phase.rs reads
        Primal Clay's text as a replacement that makes its controller choose
        a label as it enters, and one static ability per label that sets the
        P/T and grants the keyword while that label is chosen. The parse must
        give each choice exactly its P/T and keywords."""
        text, wanted = choice
        labels = {}
        for pt, (p, t, keywords) in wanted.items():
            for a in gated:
                mods = a["modifications"]
                if {"type": "SetPower", "value": p} in mods \
                        and {"type": "SetToughness", "value": t} in mods \
                        and {m.get("keyword") for m in mods if m["type"] == "AddKeyword"} \
                        == keywords:
                    labels[pt] = a["condition"]["label"]
        chooses = [r["execute"]["effect"] for r in face.get("replacements") or []
                   if r.get("event") == "Moved"
                   and r["execute"]["effect"].get("type") == "Choose"]
        options = [c.get("choice_type", {}).get("Labeled", {}).get("options") for c in chooses]
        if len(labels) != len(wanted) or len(gated) != len(wanted) \
                or len(options) != 1 or not options[0] \
                or sorted(options[0]) != sorted(labels.values()):
            raise Unsupported(f"{handle}: phase.rs's parser does not read {text!r} as the case "
                              f"means (it reads {json.dumps(chooses)} and "
                              f"{json.dumps([a['modifications'] for a in gated])})")
        return labels

    def locked_effects(self, case):
        """The Oracle text of each effect on a filter, one activated ability
        of the adapter's effect source each, by text."""
        first = next(iter(self.player_ids))
        texts = {}
        for step in case.get("steps", []):
            action = step["do"]
            if isinstance(action, dict) and "effect" in action \
                    and isinstance(action["effect"].get("affects"), dict):
                text, kinds = locked_effect_text(action["effect"], self.player_ids, first, "effect")
                texts.setdefault(text, kinds)
        return texts

    def entering_moves(self, case):
        """The effect source's abilities that put a card of the first player
        onto the battlefield, for permanents that enter with counters of
        their own (306.5b, 310.4b): the engine's debug zone change skips the
        replacement that puts them, a resolving ability does not."""
        out = {}
        objects = {o["id"]: o for o in self.objects}
        for step in case.get("steps", []):
            action = step["do"]
            if isinstance(action, dict) and "move" in action \
                    and entering_with_counters(objects.get(action["move"]["object"], {}),
                                               action["move"]):
                zone = objects[action["move"]["object"]].get("zone", "battlefield")
                out[ENTERING[zone]] = None
            if isinstance(action, dict) and "move" in action \
                    and action["move"]["to"] == "battlefield" \
                    and objects.get(action["move"]["object"], {}).get("enters_as"):
                for text in CHOOSING.values():  # from wherever it is then
                    out[text] = None
            if isinstance(action, dict) and "copy" in action:
                out[COPYING[action["copy"].get("until", "forever")]] = None
            if isinstance(action, dict) and "turn_face_down" in action:
                out[FACE_DOWN] = None
            if isinstance(action, dict) and "put_counters" in action \
                    and action["put_counters"]["kind"] == "lore":
                out[lore_text(action["put_counters"].get("count", 1))] = None
        return out

    def effect_source_face(self):
        """An artifact of the first player with an activated ability per
        effect on a filter; the adapter activates it and the engine resolves
        it (611.2c). The parsed abilities must have every part written."""
        lines = list(self.locked)
        for o in self.objects:
            for ability in o.get("abilities") or []:
                if isinstance(ability.get("affects"), dict) \
                        and "Artifact" in ability["affects"].get("types", []):
                    raise Unsupported(f"{o['id']}: a static ability on artifacts, which would "
                                      "apply to the adapter's effect source, an artifact")
        face = engine.build_face({
            "name": EFFECT_SOURCE, "manaCost": "", "colors": [], "colorIdentity": [],
            "type": "Artifact", "types": ["Artifact"], "subtypes": [], "supertypes": [],
            "text": "\n".join(lines), "layout": "normal", "manaValue": 0, "identifiers": {}})
        abilities = face["abilities"]
        for text, ability in zip(lines, abilities):
            effect = ability["effect"]
            if self.locked[text] is None and text == FACE_DOWN:
                if effect["type"] != "TurnFaceDown":
                    raise Unsupported(f"phase.rs's parser does not read {text!r} (it reads "
                                      f"{effect['type']})")
                continue
            if self.locked[text] is None and text in COPYING.values():
                duration = "UntilEndOfTurn" if "until end of turn" in text else None
                if effect["type"] != "BecomeCopy" or effect.get("duration") != duration:
                    raise Unsupported(f"phase.rs's parser does not read {text!r} (it reads "
                                      f"{effect['type']}, {effect.get('duration')})")
                continue
            if self.locked[text] is None and "lore counter" in text:
                if effect["type"] != "PutCounter" or effect["counter_type"] != "lore":
                    raise Unsupported(f"phase.rs's parser does not read {text!r} (it reads "
                                      f"{effect['type']})")
                continue
            if self.locked[text] is None:
                if effect["type"] != "ChangeZone" or effect["destination"] != "Battlefield":
                    raise Unsupported(f"phase.rs's parser does not read {text!r} as a move to "
                                      f"the battlefield (it reads {effect['type']})")
                continue
            if effect["type"] == "PumpAll":
                read = {"AddPower", "AddToughness"}
            elif effect["type"] == "GenericEffect":
                read = {m["type"] for a in effect["static_abilities"] for m in a["modifications"]}
            else:
                read = {effect["type"]}
            duration = ability.get("duration") or "Permanent"
            if self.locked[text] - read or duration != (
                    "UntilEndOfTurn" if "until end of turn" in text else "Permanent"):
                raise Unsupported(f"phase.rs's parser does not read all of {text!r} "
                                  f"(it reads {sorted(read)}, {duration})")
        if len(abilities) != len(lines):
            raise Unsupported(f"phase.rs's parser does not read every one of {lines}")
        return face

    @staticmethod
    def mana_abilities(case):
        """The mana each object makes in the amount of its own power
        (Viridian Joiner): one mana ability per type of mana, on its card."""
        out = {}
        for step in case.get("steps", []):
            action = step["do"]
            if isinstance(action, dict) and "add_mana" in action:
                amount = action["add_mana"]["amount"]
                if isinstance(amount, dict):
                    out.setdefault(amount["power_of"], set()).add(action["add_mana"]["mana"])
        return {h: sorted(v) for h, v in out.items()}

    def payer_faces(self, case):
        """One instant per `pay_cost` step, its mana cost the cost paid: the
        adapter casts it so that the engine pays the cost (601.2g-h)."""
        out = []
        taken = {n.lower() for n in self.names.values()}
        for i, step in enumerate(case.get("steps", [])):
            action = step["do"]
            if not (isinstance(action, dict) and "pay_cost" in action):
                continue
            cost, _ = paid_cost(action["pay_cost"], case, f"step {i + 1}")
            name = unique(f"Cost Of Step {i + 1}", taken)
            face = engine.build_face(instant(name, "You gain 0 life.", cost))
            out.append((name, face))
        return out

    def pump_faces(self, case):
        """One instant per step the adapter plays by casting a spell at one
        creature (an effect whose X is read from the game, doubling): the
        engine resolves it, reading X then (608.2h)."""
        out = []
        taken = {n.lower() for n in self.names.values()}
        first = next(iter(self.player_ids))
        for i, step in enumerate(case.get("steps", [])):
            action = step["do"]
            if not isinstance(action, dict):
                continue
            (kind, body), = action.items()
            caster = first
            putters = really_put(self.objects)
            objects = {o["id"]: o for o in self.objects}
            if kind == "put_counters" and (putters or sealed_put(body, objects)):
                text, expected, caster = counters_spell(
                    body, first, f"step {i + 1}",
                    objects.get(body["on"], {}).get("zone", "battlefield"))
                spell = text, expected
            elif kind == "move" and putters and any((body.get("counters") or {}).values()):
                moved = next((o for o in self.objects if o["id"] == body["object"]), {})
                text, expected, caster = return_spell(
                    body, first, f"step {i + 1}",
                    "hand" if moved.get("zone") == "hand" else "graveyard")
                spell = text, expected
            elif kind == "move_counters":
                text, expected, caster = move_spell(body, self.player_ids, first,
                                                    f"step {i + 1}")
                spell = text, expected
            elif kind == "gain_control":
                spell = CONTROL, {"type": "GainControl"}
                caster = body["player"]
            else:
                spell = spell_text(kind, body, self.player_ids, first, f"step {i + 1}")
            if spell is None:
                continue
            text, expected = spell
            name = unique(f"Effect Of Step {i + 1}", taken)
            face = engine.build_face(instant(name, text))
            read = [a["effect"] for a in face["abilities"]]
            if len(read) != 1 or {k: read[0].get(k) for k in expected} != expected \
                    or kind == "gain_control" and face["abilities"][0].get("duration"):
                raise Unsupported(f"step {i + 1}: phase.rs's parser does not read {text!r} as "
                                  f"the case means (it reads {json.dumps(face['abilities'])})")
            out.append((name, face, caster))
        return out
