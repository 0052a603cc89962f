"""The observation after a step (docs/protocol.md, "Observations"): every
object of the case and every player, as the engine has them."""

from .terms import COLOR_NAMES, MANA_LETTERS, ZONES, keyword_name


class Observation:
    """`Game`'s observation of the case's objects and players."""

    def observe_object(self, handle):
        o = self.g.object(self.ids[handle])
        types = list(o["card_types"]["core_types"])
        # The engine's P/T, as it gives it: a creature without P/T in the
        # engine (a land made a creature, say) is reported with none.
        # A card off the battlefield has the P/T printed on it, a Vehicle's
        # too (208.3: only a noncreature permanent has none).
        creature = ("Creature" in types or o["zone"] != "Battlefield") \
            and o.get("power") is not None and o.get("toughness") is not None
        p, t = (o["power"], o["toughness"]) if creature else (None, None)
        bp, bt = (o.get("layer_base_power"), o.get("layer_base_toughness")) if creature \
            else (None, None)
        counters = {}
        for kind, n in o["counters"].items():
            if n:
                counters[{"P1P1": "+1/+1", "M1M1": "-1/-1"}.get(kind, kind)] = n
        attached = o.get("attached_to")
        if isinstance(attached, dict):  # AttachTarget: {"type": "Object", "data": id}
            attached = attached.get("data") if attached.get("type") == "Object" else None
        back = {v: k for k, v in self.ids.items()}
        return {
            "zone": ZONES.get(o["zone"], o["zone"].lower()),
            "types": types,
            "colors": [COLOR_NAMES.get(c, c.lower()) for c in o["color"]],
            "power": p,
            "toughness": t,
            "base_power": bp,
            "base_toughness": bt,
            "total": p + t if creature else None,
            "combat_damage": max(0, p) if creature else None,
            "counters": counters,
            "damage": o["damage_marked"],
            "deathtouch_damage": o["dealt_deathtouch_damage"],
            # Crew N is the case's `crew`, not one of its keywords.
            "keywords": [keyword_name(k) for k in o["keywords"] if keyword_name(k) != "crew"],
            "tapped": o["tapped"],
            "attached_to": back.get(attached) if attached is not None else None,
            "summoning_sick": self.sick_now.get(self.ids[handle], False),
            "regeneration_shields": self.shields_now.get(self.ids[handle], 0),
        }

    def shields(self):
        """Regeneration shields: the engine's unused replacement effects of the
        kind `Regeneration` on each object. Only the adapter's own regenerate
        abilities make them, so a case without any has none to read."""
        if not self.regenerating:
            return {}
        objs = self.g.state()["state"]["objects"]
        return {oid: sum(1 for r in objs[str(oid)].get("replacement_definitions", [])
                         if r.get("shield_kind") == "Regeneration" and not r.get("is_consumed"))
                for oid in self.ids.values()}

    def derived_sickness(self):
        """The engine's own 302.6 predicate (its flag, haste, creatures only),
        `has_summoning_sickness`, of the permanents on the battlefield (302.6
        is about permanents: anything else is not sick)."""
        return {o["id"]: bool(o.get("has_summoning_sickness", False))
                for o in self.g.battlefield()}

    def observe(self):
        self.sick_now = self.derived_sickness()
        self.shields_now = self.shields()
        players = {}
        for h, i in self.player_ids.items():
            p = self.g.player(i)
            mana, snow = {}, {}
            for m in p["mana_pool"]["mana"]:
                letter = MANA_LETTERS.get(m.get("color"), m.get("color"))
                mana[letter] = mana.get(letter, 0) + 1
                if m.get("snow"):
                    snow[letter] = snow.get(letter, 0) + 1
            players[h] = {
                "life": p["life"] - self.life_offset.get(i, 0),
                "poison": p["poison_counters"] + self.poison_offset.get(i, 0),
                "mana": mana,
                "snow_mana": snow,
                "lost": bool(p["is_eliminated"]) or p["status"].get("type") != "Active"
                or i in self.losers,
            }
        return {"objects": {h: self.observe_object(h) for h in self.handles}, "players": players}
