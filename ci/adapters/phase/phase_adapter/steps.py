"""The steps that act on objects, mana and costs: counters, effects,
zones, damage, spells cast and resolved, destruction, regeneration,
prevention, control changes and exchanges, each played with the engine's
own mechanism (`Actions` applies them)."""

import json
import re

from .engine import debug
from .oracle_text import DESTROY, PREVENT
from .refusals import entering_with_counters, exchanged, paid_cost, really_put, sealed_put
from .terms import (ENGINE_ZONES, MANA_LETTERS, SPELL_TYPES, ZONES, Invalid, Unsupported,
                    cost_mana, counter_name, engine_keyword, keyword_name, parse_pt)


class Steps:
    """`Game`'s steps on objects, mana and costs."""

    def do_put_counters(self, a):
        objects = {o["id"]: o for o in self.objects}
        if really_put(self.objects) or sealed_put(a, objects):
            # Who puts them matters (122.6a, 614.1a), what they trigger
            # (122.7), or whether they can be put (122.6): a real spell.
            oid = self.known(a["on"])
            kind = counter_name(a["kind"])
            have = self.g.object(oid)["counters"].get(kind, 0)
            before = self.effect_ids()
            zone = objects.get(a["on"], {}).get("zone", "battlefield")
            self.cast_at(a["on"], None, effect=False, zone=ENGINE_ZONES.get(zone, zone))
            if self.g.object(oid)["counters"].get(kind, 0) > have:
                self.timestamp()  # the kind gets a new timestamp (613.7c)
            self.triggered_effects(before)
            return
        if a["on"] in self.player_ids:
            # Poison counters (the only kind a player gets here): the
            # binding has no action for them, so they are written.
            state = self.g.state()
            state["state"]["players"][self.player_ids[a["on"]]]["poison_counters"] += a.get("count", 1)
            self.g = self.engine.load_game(state)
            return
        if a["kind"] == "lore":
            return self.put_lore(a)
        if a.get("count", 1) > 0:
            self.timestamp()  # the kind gets a new timestamp (613.7c)
        self.counters(self.known(a["on"]), a["kind"], a.get("count", 1))

    def do_remove_counters(self, a):
        oid = self.known(a["from"])
        have = self.g.object(oid)["counters"].get(counter_name(a["kind"]), 0)
        n = min(have, a.get("count", 1))
        if n:
            self.counters(oid, a["kind"], -n)

    def do_move(self, a):
        if really_put(self.objects) and any((a.get("counters") or {}).values()):
            return self.do_return_spell(a)
        oid = self.known(a["object"])
        obj = self.g.object(oid)
        if obj["zone"] == "Battlefield" and a["to"] == "graveyard" \
                and {keyword_name(k) for k in obj["keywords"]} & {"undying", "persist"}:
            raise Unsupported(f"{a['object']} with undying or persist dies by a `move` (the "
                              "engine's debug zone change fires no triggers)")
        o = next(o for o in self.objects if o["id"] == a["object"])
        if o.get("enters_as") and a["to"] == "battlefield" \
                and self.g.object(oid)["zone"] != "Battlefield":
            self.enter_choosing(a, o, oid)
        elif entering_with_counters(o, a) and self.g.object(oid)["zone"] != "Battlefield":
            copy = a.get("copy") or {}
            self.copy_target = self.on_battlefield(copy["of"]) if copy else None
            self.enter(a["object"], oid)
            self.copy_target = None
        else:
            self.move(oid, ENGINE_ZONES[a["to"]])
        if self.g.object(oid)["zone"] != "Battlefield":
            return  # it did not enter (the engine kept it where it was, 304.4)
        # Counters it enters with share its timestamp (613.7d, docs/protocol.md):
        # the engine's debug action puts them, before anything is checked.
        counting, self.counting = self.counting, False
        for kind, n in (a.get("counters") or {}).items():
            if n:
                self.counters(oid, kind, n)
        self.counting = counting

    def do_effect(self, spec):
        if isinstance(spec["affects"], dict):
            return self.do_locked_effect(spec)
        if isinstance(spec.get("x"), dict):
            return self.do_pump_spell(spec)
        oids = [self.on_battlefield(h) for h in spec["affects"]]
        x = spec.get("x")
        mods = []
        if "set" in spec:
            p, t = parse_pt(spec["set"], "effect", x)
            mods += [{"type": "SetPower", "value": p}, {"type": "SetToughness", "value": t}]
        if "modify" in spec:
            p, t = parse_pt(spec["modify"], "effect", x, signed=True)
            mods += [{"type": "AddPower", "value": p}, {"type": "AddToughness", "value": t}]
        if spec.get("switch"):
            mods.append({"type": "SwitchPowerToughness"})
        mods += [{"type": "AddType", "core_type": t} for t in spec.get("add_types", [])]
        mods += [{"type": "RemoveType", "core_type": t} for t in spec.get("remove_types", [])]
        if "set_colors" in spec:
            mods.append({"type": "SetColor",
                         "colors": [c.capitalize() for c in spec["set_colors"]]})
        if spec.get("remove_all_abilities"):
            mods.append({"type": "RemoveAllAbilities"})
        mods += [{"type": "AddKeyword", "keyword": engine_keyword(k)}
                 for k in spec.get("add_keywords", [])]
        mods += [{"type": "RemoveKeyword", "keyword": engine_keyword(k)}
                 for k in spec.get("remove_keywords", [])]
        ts = self.timestamp(spec.get("timestamp"))
        state = self.g.state()
        s = state["state"]
        s["next_timestamp"] = max(s["next_timestamp"], ts + 1)
        source = self.ids.get(spec.get("source"), oids[0] if oids else 0)
        duration = "UntilEndOfTurn" if spec["until"] == "end-of-turn" else "Permanent"
        for oid in oids:
            eid = s["next_continuous_effect_id"]
            s["next_continuous_effect_id"] = eid + 1
            s["transient_continuous_effects"].append({
                "id": eid, "source_id": source, "controller": 0, "timestamp": ts,
                "duration": duration, "affected": {"type": "SpecificObject", "id": oid},
                "modifications": mods,
            })
        s["layers_dirty"] = True
        self.g = self.engine.load_game(state)

    def do_add_mana(self, a):
        """Mana in the amount of an object's power: the object's own mana
        ability (`{0}: Add an amount of {G} equal to NAME's power.`), which
        the engine resolves at once (605.3a) and which reads the power then
        (608.2h), a negative one adding nothing (107.1b). A fixed amount is
        put in the pool (the engine's `AddMana` debug action)."""
        amount = a["amount"]
        if not isinstance(amount, dict):
            if amount > 0:
                self.add_mana(0, a["mana"], amount, amount if a.get("snow") else 0)
            elif amount < 0:
                raise Unsupported("a negative amount of mana (107.1b): the adapter would have "
                                  "to decide")
            return
        handle = amount["power_of"]
        if self.g.object(self.known(handle))["zone"] != "Battlefield":
            raise Unsupported(f"mana in the amount of the power of {handle}, which has left the "
                              "battlefield (the adapter activates its own mana ability)")
        source = self.on_battlefield(handle)
        # A mana ability gives no priority (605.3a), but the engine's
        # activation performs state-based actions all the same (generated
        # cases with `sba: false` showed it): `apply` checks first.
        index = len(self.amounts.get(handle, [])) + self.mana_letters[handle].index(a["mana"])
        self.activate(source, index, lambda e: f"{handle} no longer has the mana ability the "
                      f"adapter adds its mana with (it lost its abilities?): the engine says {e}")
        if self.g.waiting_for()["type"] != "Priority":
            raise Unsupported(f"the engine waits for {self.g.waiting_for()['type']} as "
                              f"{handle}'s mana ability is activated")

    def do_pay_cost(self, a):
        """The cost is the mana cost of an instant of the adapter's, cast by
        the first player from their hand: the engine pays it from the pool
        (and life for Phyrexian symbols, asking for the least life, 107.4f)
        or refuses the cast (118.3, 601.2h); the spell then resolves (it
        does nothing). Casting it takes no timestamp of the case's."""
        cost, x = paid_cost(a, self.case, "pay_cost")
        name, _ = self.payers.pop(0)
        pool = self.g.player(0)["mana_pool"]["mana"]
        mixed = {MANA_LETTERS[m["color"]] for m in pool if m["snow"]} \
            & {MANA_LETTERS[m["color"]] for m in pool if not m["snow"]}
        for sym in re.findall(r"\{([^}]*)\}", cost):
            if sym != "S" and mixed & ({"W", "U", "B", "R", "G", "C"} if sym.isdigit() or sym == "X"
                                       or sym.startswith("2/") else set(sym.split("/"))):
                # 107.4h: the case's payment spends the least snow mana; the
                # engine spends the pool in its order and can't be asked.
                raise Unsupported(f"{cost} paid from a pool with snow and other mana of a type "
                                  f"that pays {{{sym}}} (the engine's payment takes the pool in "
                                  "order: which it spends is not the case's choice)")
        oid = next(int(k) for k, v in self.g.state()["state"]["objects"].items()
                   if v["name"] == name)
        counting, self.counting = self.counting, False
        try:
            self.move(oid, "Hand")
            cast = next((c for c in self.g.actions()
                         if c.kind == "CastSpell" and c.data.get("object_id") == oid), None)
            if cast is None or not self.pay(cast, x):
                return  # nothing is paid (118.3)
            for _ in range(50):
                if not self.g.stack() or self.g.waiting_for()["type"] == "GameOver":
                    break
                self.apply({"type": "PassPriority"}, self.g.priority_player())
        finally:
            self.counting = counting

    def pay(self, cast, x):
        """Cast, answering the engine's questions: X, and Phyrexian symbols
        with as little life as it allows. False when the engine says the
        cost can't be paid."""
        try:
            self.apply(cast)
        except ValueError as e:
            if "pay" in str(e).lower():
                return False
            raise
        for _ in range(10):
            waiting = self.g.waiting_for()
            actions = self.g.actions()
            if waiting["type"] in ("Priority", "GameOver"):
                return True
            if waiting["type"] == "ChooseXValue":
                pick = next((c for c in actions
                             if c.kind == "ChooseX" and c.data.get("value") == x), None)
            elif waiting["type"] == "PhyrexianPayment":
                options = [c for c in actions if c.kind == "SubmitPhyrexianChoices"]
                pick = min(options, default=None, key=lambda c: sum(
                    ch.get("type") == "PayLife" for ch in c.data["choices"]))
            else:
                raise Unsupported(f"the engine waits for {waiting['type']} as the cost is paid")
            if pick is None:
                # The engine does not offer this X: it can't be paid from
                # this pool (it offers what can be).
                self.apply(next(c for c in actions if c.kind == "CancelCast"))
                return False
            self.apply(pick, waiting["data"].get("player", 0))
        raise RuntimeError("the engine kept asking questions as the cost was paid")

    def do_pump_spell(self, spec):
        """An effect whose X is read from the game: the adapter's instant,
        cast by the first player for {0} targeting the creature, resolved by
        the engine, which reads X then (608.2h). The effect it creates gets
        the step's timestamp (613.7b); the cast itself takes none."""
        self.cast_at(spec["affects"][0], spec.get("timestamp"))

    def do_double(self, spec):
        """Doubling (701.10a): the adapter's instant `Double target
        creature's power until end of turn.`, resolved by the engine."""
        self.cast_at(spec["affects"], spec.get("timestamp"))

    def do_triple(self, spec):
        self.cast_at(spec["affects"], spec.get("timestamp"))

    def do_double_counters(self, a):
        """701.10e: the adapter's instant `Double the number of +1/+1
        counters on target creature.`; the counters it puts give their kind
        a timestamp (613.7c), the cast none."""
        oid = self.known(a["on"])
        kind = counter_name(a["kind"])
        have = self.g.object(oid)["counters"].get(kind, 0)
        before = self.effect_ids()
        self.cast_at(a["on"], None, effect=False)
        if self.g.object(oid)["counters"].get(kind, 0) > have:
            self.timestamp()
        self.triggered_effects(before)

    def do_move_counters(self, a):
        """122.5: the adapter's instant `Move a +1/+1 counter from target
        creature onto another target creature.`, cast by the moving player
        (`by`) at `from` and `to` and resolved by the engine, which removes
        and puts them. The counters it puts give their kind a timestamp
        (613.7c, docs/protocol.md); the removal and the cast take none."""
        self.nothing_to_check(f"moving counters from {a['from']} to {a['to']}")
        mover = self.player_ids[a.get("by") or next(iter(self.player_ids))]
        for h in (a["from"], a["to"]):
            o = self.g.object(self.known(h))
            words = {keyword_name(k) for k in o["keywords"]}
            if "shroud" in words or ("hexproof" in words and o["controller"] != mover):
                # The case's move targets nothing; the adapter's spell does.
                raise Unsupported(f"moving counters from or onto {h}, which the mover's spell "
                                  "could not target (shroud, hexproof)")
        oid = self.known(a["to"])
        kind = counter_name(a["kind"])
        have = self.g.object(oid)["counters"].get(kind, 0)
        before = self.effect_ids()
        self.cast_at(a["from"], None, effect=False, also=a["to"])
        if self.g.object(oid)["counters"].get(kind, 0) > have:
            self.timestamp()
        self.triggered_effects(before)

    def do_return_spell(self, a):
        """A creature card returned from a graveyard with counters by the
        player who puts them: the adapter's instant, cast by that player and
        resolved by the engine, whose replacement effects change how many
        counters it enters with (614.1c, 122.6a). The new object takes a
        timestamp (400.7), its counters share it."""
        oid = self.known(a["object"])
        o = next(o for o in self.objects if o["id"] == a["object"])
        zone = "Hand" if o.get("zone") == "hand" else "Graveyard"
        owner = self.g.object(oid)["owner"]
        if self.g.object(oid)["zone"] != zone or (zone == "Hand" and owner != 0):
            raise Unsupported(f"a move of {a['object']} from the "
                              f"{ZONES.get(self.g.object(oid)['zone'])} with counters beside an "
                              "ability that changes how many a player puts or triggers on "
                              "them (the adapter casts a spell that returns a creature card "
                              "from a graveyard, or puts one from the first player's hand, "
                              "where it was in the setup)")
        before = self.effect_ids()
        self.cast_at(a["object"], None, effect=False, zone=zone)
        if self.g.object(oid)["zone"] == "Battlefield":
            if self.g.object(oid)["controller"] != owner:
                raise Unsupported(f"the engine returns {a['object']} under the control of the "
                                  "player who cast the adapter's spell, not its owner's")
            self.timestamp()
            self.triggered_effects(before)

    def cast_at(self, handle, timestamp, effect=True, zone="Battlefield", also=None):
        """Cast the step's instant (the next of the adapter's) for {0} at one
        creature (and a second one, `also`, for a spell with two targets) and
        let the engine resolve it; the continuous effect it makes, if
        `effect`, gets the step's timestamp. The second player casts theirs
        once the first has passed priority."""
        aims = []
        for h in [handle] + ([also] if also is not None else []):
            if h in self.ids and self.g.object(self.ids[h])["zone"] != zone:
                raise Unsupported(f"the step acts on {h} off the {zone.lower()} (the adapter "
                                  f"casts a spell that targets a creature on the {zone.lower()})")
            target = self.on_battlefield(h) if zone == "Battlefield" else self.known(h)
            if "Creature" not in self.g.object(target)["card_types"]["core_types"]:
                raise Unsupported(f"the step acts on {h}, which is not a creature (the adapter "
                                  "casts a spell that targets a creature)")
            aims.append((h, target))
        name, _, caster = self.pumps.pop(0)
        player = self.player_ids[caster]
        oid = next(int(k) for k, v in self.g.state()["state"]["objects"].items()
                   if v["name"] == name)
        before = self.effect_ids()
        counting, self.counting = self.counting, False
        try:
            self.move(oid, "Hand")
            if player != self.g.priority_player():
                self.apply({"type": "PassPriority"}, self.g.priority_player())
            if self.g.waiting_for()["type"] == "GameOver":
                raise Unsupported(
                    "the game is over in phase.rs as the adapter's spell is about to be cast (a "
                    "player lost as state-based actions were checked: "
                    f"{json.dumps(self.g.waiting_for().get('data'))})")
            if player != self.g.priority_player() or self.g.waiting_for()["type"] != "Priority":
                raise RuntimeError(f"the engine gives {caster} no priority to cast {name}")
            cast = next((c for c in self.g.actions()
                         if c.kind == "CastSpell" and c.data.get("object_id") == oid), None)
            if cast is None:
                obj = self.g.object(target)
                guarded = {keyword_name(k) for k in obj["keywords"]} \
                    & ({"shroud"} if obj["controller"] == player else {"shroud", "hexproof"})
                if guarded:
                    # A spell is cast only with legal targets (601.2c): the
                    # step's object can't be the target of the adapter's spell
                    # (702.18a, 702.11b), the one way the adapter maps it.
                    raise Unsupported(
                        f"the step acts on {handle}, which has {' and '.join(sorted(guarded))}: "
                        "the engine does not let the spell the adapter casts for the step "
                        "target it")
                raise RuntimeError(f"the engine does not let {caster} cast {name}")
            self.apply(cast, player)
            for k in range(10):
                waiting = self.g.waiting_for()
                if waiting["type"] == "Priority":
                    break
                handle, target = aims[min(k, len(aims) - 1)]
                choices = [c for c in self.g.actions() if c.kind == "ChooseTarget"]
                pick = next((c for c in choices
                             if (c.data or {}).get("target") == {"Object": target}), None)
                if pick is None:
                    raise Unsupported(
                        f"the engine does not offer {handle} as the target of the "
                        f"spell the adapter casts for the step (it waits for {waiting['type']}, "
                        f"offering {[c.data for c in self.g.actions()]})")
                self.apply(pick, waiting["data"].get("player", 0))
            for _ in range(50):
                waiting = self.g.waiting_for()
                if waiting["type"] == "GameOver" or not self.g.stack() \
                        and waiting["type"] == "Priority":
                    break
                if waiting["type"] == "EffectZoneChoice" and zone == "Hand":
                    # The card the adapter's spell puts from the hand.
                    if aims[0][1] not in waiting["data"].get("cards", []):
                        raise Unsupported(f"the engine does not offer {aims[0][0]} to the "
                                          "spell the adapter casts for the step")
                    self.apply({"type": "SelectCards", "data": {"cards": [aims[0][1]]}},
                               waiting["data"].get("player", 0))
                    continue
                if waiting["type"] == "ReplacementChoice":
                    # The order of several replacement effects is the
                    # affected player's choice (616.1), which a case does not
                    # make: the engine's first order is taken.
                    self.apply(next(c for c in self.g.actions() if c.kind == "ChooseReplacement"),
                               waiting["data"].get("player", 0))
                    continue
                self.apply({"type": "PassPriority"}, self.g.priority_player())
        finally:
            self.counting = counting
        if not effect:
            return
        self.stamp(before, self.timestamp(timestamp))

    def do_gain_control(self, a):
        """613.1b: the adapter's instant `Gain control of target creature.`,
        cast for {0} by the player who gains control and resolved by the
        engine; it takes no timestamp of the case's. Who controls the object
        then is read from the engine."""
        self.cast_at(a["object"], None, effect=False)
        oid = self.known(a["object"])
        self.controlled[a["object"]] = self.g.object(oid)["controller"]

    def do_exchange(self, a):
        """Tree of Redemption: the creature's own ability `{0}: Exchange your
        life total with NAME's toughness.`, activated and resolved by the
        engine (701.12g, 701.12a). The effect that sets the toughness gets
        the step's timestamp (613.7b); the life total takes none."""
        handle, stat = exchanged(a, self.case, next(iter(self.player_ids)), "exchange")
        if self.g.object(self.known(handle))["zone"] != "Battlefield":
            raise Unsupported(f"an exchange with {handle}, which has left the battlefield (the "
                              "adapter activates its ability)")
        source = self.on_battlefield(handle)
        index = len(self.amounts.get(handle, [])) + len(self.mana_letters.get(handle, [])) \
            + self.exchanges[handle].index(stat)
        before = self.effect_ids()
        self.activate(source, index, lambda e: f"{handle} no longer has the ability the adapter "
                      f"exchanges with (it lost its abilities?): the engine says {e}")
        for _ in range(50):
            if not self.g.stack() or self.g.waiting_for()["type"] != "Priority":
                break
            self.apply({"type": "PassPriority"}, self.g.priority_player())
        if self.g.waiting_for()["type"] not in ("Priority", "GameOver"):
            raise Unsupported(f"the engine waits for {self.g.waiting_for()['type']} as the "
                              "exchange resolves")
        self.stamp(before)

    def do_cast(self, a):
        """The first player casts the spell from their hand (601.2): the
        adapter adds the mana its cost takes to their (empty) pool, the
        engine pays it, and the adapter chooses the target the spell's effect
        names. Its move to the stack takes a timestamp (400.7)."""
        oid = self.known(a["object"])
        o = next(o for o in self.objects if o["id"] == a["object"])
        if self.g.object(oid)["zone"] != "Hand":
            raise Unsupported(f"casting {a['object']} from the {self.g.object(oid)['zone']}")
        if self.g.player(0)["mana_pool"]["mana"]:
            raise Unsupported(f"casting {a['object']} with mana in the pool (the adapter adds "
                              "the mana its cost takes, and the engine could spend other mana)")
        handle = o["on_resolve"]["effect"]["affects"][0]
        target = self.on_battlefield(handle)
        mana = cost_mana(o.get("mana_cost") or "", a["object"])
        if mana:
            self.g.apply(0, debug("AddMana", {"player_id": 0, "mana": mana}))
        cast = next((c for c in self.g.actions()
                     if c.kind == "CastSpell" and c.data.get("object_id") == oid), None)
        if cast is None:
            raise Unsupported(f"the engine does not let the first player cast {a['object']}")
        self.apply(cast)
        for _ in range(10):
            waiting = self.g.waiting_for()
            if waiting["type"] == "Priority":
                break
            pick = next((c for c in self.g.actions() if c.kind == "ChooseTarget"
                         and (c.data or {}).get("target") == {"Object": target}), None)
            if pick is None:
                raise Unsupported(f"the engine does not offer {handle} as the target of "
                                  f"{a['object']} (it waits for {waiting['type']})")
            self.apply(pick, waiting["data"].get("player", 0))
        if self.g.object(oid)["zone"] != "Stack":
            raise RuntimeError(f"{a['object']} did not go on the stack")

    def do_resolve(self, handle):
        """Priority is passed until the spell has resolved (608.2): the
        engine follows its text and puts it into the graveyard. The effect
        it makes gets the timestamp the case gives it, before the spell's
        move to the graveyard takes one (608.2n, 400.7)."""
        oid = self.known(handle)
        stack = self.g.stack()
        if not stack or self.g.object(oid)["zone"] != "Stack":
            raise Invalid(f"{handle} is not on the stack")
        before = self.effect_ids()
        ts = self.timestamp()
        for _ in range(50):
            if self.g.object(oid)["zone"] != "Stack" \
                    or self.g.waiting_for()["type"] != "Priority":
                break
            self.apply({"type": "PassPriority"}, self.g.priority_player())
        if self.g.object(oid)["zone"] == "Stack":
            raise Unsupported(f"the engine does not resolve {handle} (it waits for "
                              f"{self.g.waiting_for()['type']})")
        self.stamp(before, ts)

    def do_damage(self, a):
        src = next((o for o in self.objects if o["id"] == a["from"]), {})
        if set(src.get("types", [])) & SPELL_TYPES:
            self.cast_damage(a, src)
            return
        if a["from"] in self.ids and self.g.object(self.ids[a["from"]])["zone"] != "Battlefield":
            raise Unsupported("damage from an object that has left the battlefield "
                              "(the adapter deals damage through its activated ability)")
        source = self.on_battlefield(a["from"])
        src = next(o for o in self.objects if o["id"] == a["from"])
        player = self.controller(src)
        if player != 0:
            # Its controller activates it: the first player passes priority
            # to them, which checks state-based actions (704.3).
            self.nothing_to_check("damage from an object of the second player")
            self.with_priority(player)
        if a["to"] in self.player_ids:
            target = {"Player": self.player_ids[a["to"]]}
        else:
            target = {"Object": self.on_battlefield(a["to"])}
        index = self.amounts[a["from"]].index(a["amount"])
        before = len(self.g.stack())
        self.activate(source, index, lambda e: f"{a['from']} no longer has the activated ability "
                      "the adapter deals its damage with (it lost its abilities?): the engine "
                      f"says {e}", player)
        for _ in range(50):
            waiting = self.g.waiting_for()
            if waiting["type"] == "Priority":
                break
            if waiting["type"] == "GameOver":
                raise Unsupported(
                    "the game is over in phase.rs once the damage ability is activated "
                    f"(a player lost as state-based actions were checked: {json.dumps(waiting.get('data'))})")
            choices = [c for c in self.g.actions() if c.kind == "ChooseTarget"]
            pick = next((c for c in choices if (c.data or {}).get("target") == target), None)
            if pick is None:
                offered = [c.data.get("target") for c in choices]
                raise Unsupported(f"the engine does not offer {a['to']} as a target of "
                                  f"{a['from']}'s damage ability (it waits for "
                                  f"{waiting['type']}, offering {offered or 'no target'})")
            self.apply(pick, waiting["data"].get("player", 0))
        if len(self.g.stack()) <= before:
            raise RuntimeError(f"the damage ability of {a['from']} did not go on the stack")
        for _ in range(50):
            if not self.g.stack():
                break
            self.apply({"type": "PassPriority"}, self.g.priority_player())
        self.decline_siege_cast()

    def cast_damage(self, a, src):
        """An instant or sorcery deals damage (120.3) as it resolves: a card
        of its face (its name, colors, keywords, mana cost, and the Oracle
        text `NAME deals N damage to any target.`) is cast by its controller
        at the step's target, paid with the mana of its cost, which the
        adapter adds to their pool, and resolved through the engine's stack.
        The case's own object stays where the case has it."""
        player = self.controller(src)
        what = f"{a['from']}'s damage"
        self.nothing_to_check(what)
        if player != self.g.priority_player():
            self.with_priority(player)
        spell = self.casts[a["from"]].pop(0)
        if a["to"] in self.player_ids:
            target = {"Player": self.player_ids[a["to"]]}
        else:
            target = {"Object": self.on_battlefield(a["to"])}

        def pool():
            return sorted(json.dumps(m, sort_keys=True)
                          for m in self.g.player(player)["mana_pool"]["mana"])

        before = pool()
        self.quietly(debug("MoveToZone", {"object_id": spell, "to_zone": "Hand",
                                          "simulate": False}), 0, own={spell})
        mana = cost_mana(src.get("mana_cost") or "", a["from"])
        if mana:
            self.apply(debug("AddMana", {"player_id": player, "mana": mana}))
        self.cast_card(spell, player, target, a["to"], what, floor=len(self.g.stack()))
        if pool() != before:
            raise Unsupported(f"the engine paid for {what} with other mana than the adapter "
                              "added for its cost (a case's mana pool stays as the case has it)")

    def decline_siege_cast(self):
        """A Siege's ability exiles it, then its controller may cast it
        transformed (310.11b); the corpus does not model the back face, and
        its cases expect the battle to stay in exile: the cast is declined."""
        waiting = self.g.waiting_for()
        if waiting["type"] == "OptionalEffectChoice" \
                and "Siege" in (waiting["data"].get("description") or ""):
            self.apply({"type": "DecideOptionalEffect", "data": {"accept": False}},
                       waiting["data"]["player"])

    def do_destroy(self, handle):
        """A real "Destroy target permanent." instant (701.8), cast by the first
        player for {0} and resolved through the engine's stack: its
        regeneration shields, indestructible, and the triggers of the death
        are the engine's."""
        self.cast_tool(DESTROY, {"Object": self.on_battlefield(handle)}, handle, "a destroy spell")

    def do_prevent(self, a):
        """A real "Prevent the next N damage that would be dealt to any target
        this turn." instant (615.7), cast by the first player for {0} at the
        permanent or player: the shield is the engine's."""
        if a["to"] in self.player_ids:
            target = {"Player": self.player_ids[a["to"]]}
        else:
            target = {"Object": self.on_battlefield(a["to"])}
        self.cast_tool(f"{PREVENT} {a['amount']}", target, a["to"], "a prevention spell")

    def cast_tool(self, name, target, handle, what):
        """Cast one of the adapter's instants from the first player's hand at
        `target` and resolve it."""
        self.nothing_to_check(what)
        spell = next((oid for oid in self.tools if self.g.object(oid)["zone"] == "Hand"
                      and self.g.object(oid)["name"] == name), None)
        self.cast_card(spell, 0, target, handle, what)

    def cast_card(self, spell, player, target, handle, what, floor=0):
        """`player` casts the card `spell` from their hand at `target` and
        the engine resolves it, down to `floor` entries on its stack."""
        cast = next((a for a in self.g.actions() if a.kind == "CastSpell"
                     and a.data.get("object_id") == spell), None)
        if cast is None:
            who = next(h for h, i in self.player_ids.items() if i == player)
            if spell is not None and player != 0 \
                    and "Sorcery" in self.g.object(spell)["card_types"]["core_types"]:
                raise Unsupported(f"the engine does not let {who} cast {what}, a sorcery, in the "
                                  "first player's turn (307.1: only in its controller's main "
                                  "phase; the adapter plays the case in the first player's)")
            raise Unsupported(f"the engine does not let {who} cast {what} now "
                              f"(it waits for {self.g.waiting_for()['type']})")
        events = self.quietly(cast, player, own={spell}).events
        chosen = False
        for _ in range(10):
            waiting = self.g.waiting_for()
            if waiting["type"] == "Priority":
                break
            pick = next((c for c in self.g.actions() if c.kind == "ChooseTarget"
                         and (c.data or {}).get("target") == target), None)
            if pick is None:
                raise Unsupported(f"the engine does not offer {handle} as a target of {what} "
                                  f"(it waits for {waiting['type']})")
            self.quietly(pick, waiting["data"].get("player", 0), own={spell})
            chosen = True
        targeted = [(e.get("data") or {}).get("target") for e in events
                    if e.get("type") == "BecomesTarget"]
        if not chosen and targeted and targeted != [target]:
            # The engine chooses the target itself when it allows only one.
            # (A prevention spell whose "any target" it loses has none: that
            # is the engine's reading of the text, played as it is.)
            raise Unsupported(f"the engine does not offer {handle} as a target of {what} (it "
                              f"targets {targeted})")
        self.resolve_stack(own={spell}, floor=floor)

    def do_regenerate(self, handle):
        """The object's own "{0}: Regenerate NAME." ability (701.19), activated
        by its controller and resolved through the engine's stack: the shield
        is the engine's replacement effect."""
        oid = self.on_battlefield(handle)
        src = next(o for o in self.objects if o["id"] == handle)
        player = self.g.object(oid)["controller"]
        if player != self.controller(src):
            raise Unsupported(f"{handle} is controlled by another player than in the setup")
        self.nothing_to_check("a regenerate ability")
        self.with_priority(player)
        try:
            self.apply({"type": "ActivateAbility",
                        "data": {"source_id": oid,
                                 "ability_index": len(self.amounts.get(handle, []))
                                 + len(self.mana_letters.get(handle, []))
                                 + len(self.exchanges.get(handle, []))}}, player)
        except ValueError as e:
            raise Unsupported(f"{handle} no longer has the regenerate ability the adapter gives "
                              f"it (it lost its abilities?): the engine says {e}")
        self.resolve_stack()
