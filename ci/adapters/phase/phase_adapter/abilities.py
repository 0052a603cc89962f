"""The steps played with an activated ability: the adapter's effect
source's (a card put onto the battlefield, a copy effect, turning face
down, lore counters, an effect on a filter), an Equipment's equip ability,
a Vehicle's crew ability, and turning face up; each resolved by the
engine, with what it triggers."""

import json
import re

from .engine import debug
from .oracle_text import CHOOSING, COPYING, FACE_DOWN, locked_effect_text, lore_text
from .terms import ZONES, Invalid, Unsupported, mana_of


class Abilities:
    """`Game`'s steps played with an activated ability."""

    def enter(self, handle, oid):
        """A card of the first player put onto the battlefield by the effect
        source's ability, which the engine resolves (its replacement puts the
        counters it enters with, 614.1c); a zone change, one timestamp."""
        text = CHOOSING[ZONES[self.g.object(oid)["zone"]]]
        self.from_next_timestamp()  # the new object's (613.7d)
        self.use_source(text, handle, oid)
        if self.g.object(oid)["zone"] != "Battlefield":
            raise RuntimeError(f"{text!r} did not put {handle} onto the battlefield")

    def enter_choosing(self, a, o, oid):
        """A card whose P/T is chosen as it enters (208.2b): put onto the
        battlefield by the effect source's ability, which the engine
        resolves; its replacement asks the choice, answered with the case's
        (`choose` of the move, else of the object, else the first)."""
        zone = ZONES.get(self.g.object(oid)["zone"])
        if zone not in CHOOSING or self.g.object(oid)["owner"] != 0:
            raise Unsupported(f"{a['object']} enters the battlefield from the {zone} of its "
                              "owner, choosing its P/T (the adapter's ability that puts it "
                              "there, so that the engine asks the choice, puts the first "
                              "player's cards from a hand, a graveyard or exile)")
        choose = a.get("choose") or o.get("choose") or o["enters_as"][0]["pt"]
        if choose not in self.labels[a["object"]]:
            raise Invalid(f"the choice {choose} is none of {a['object']}'s `enters_as`")
        self.choosing = self.labels[a["object"]][choose]
        try:
            self.enter(a["object"], oid)
        finally:
            self.choosing = None

    def do_attach(self, a):
        """The Equipment's own equip ability (702.6a), activated by the first
        player and resolved by the engine."""
        oid, target = self.on_battlefield(a["object"]), self.on_battlefield(a["to"])
        index = next((i for i, ab in enumerate(self.g.object(oid)["abilities"])
                      if ab["effect"]["type"] == "Attach"), None)
        if index is None:
            raise Unsupported(f"{a['object']} has no equip ability in the engine (it lost it?)")
        # The engine numbers the new timestamp of the attached Equipment
        # (613.7e) from its counter: the case's next one.
        self.from_next_timestamp()
        before = self.g.object(oid)["timestamp"]
        # Equip targets a creature its controller controls (702.6a); the
        # case's attach (701.3a) may name a permanent that is none, or one
        # that can't be targeted: the ability has no legal target.
        self.activate(oid, index, lambda e: f"the engine does not let {a['object']}'s equip "
                      f"ability be activated with {a['to']} as its target: it says {e}")
        for _ in range(50):
            waiting = self.g.waiting_for()
            if waiting["type"] == "TargetSelection":
                choices = [c for c in self.g.actions() if c.kind == "ChooseTarget"]
                pick = next((c for c in choices
                             if (c.data or {}).get("target") == {"Object": target}), None)
                if pick is None:
                    raise Unsupported(f"the engine does not offer {a['to']} as a target of "
                                      f"{a['object']}'s equip ability")
                self.apply(pick, waiting["data"].get("player", 0))
            elif self.g.stack():
                self.pass_once(f"the resolution of {a['object']}'s equip ability")
            else:
                break
        if self.g.object(oid)["timestamp"] != before:
            self.timestamp()
        self.next_ts = max(self.next_ts, self.g.state()["state"]["next_timestamp"])

    def do_crew(self, a):
        """The Vehicle's crew ability (702.122a), activated by the first player
        with the case's creatures as its cost, resolved by the engine. A cost
        the engine does not let be paid leaves everything as it was."""
        vehicle = self.on_battlefield(a["vehicle"])
        crew = [self.on_battlefield(h) for h in a["with"]]
        state = self.g.state()
        known = {e["id"] for e in state["state"]["transient_continuous_effects"]}
        state["state"]["next_timestamp"] = self.next_ts
        self.g = self.engine.load_game(state)
        counting, self.counting = self.counting, False
        action = {"type": "CrewVehicle", "data": {"vehicle_id": vehicle, "creature_ids": crew}}
        try:
            self.apply(action)
            if self.g.waiting_for()["type"] == "CrewVehicle":  # the engine asks for the crew
                self.apply(action)
        except ValueError:
            if self.g.waiting_for()["type"] == "CrewVehicle":
                self.apply({"type": "CancelCast"})
            self.counting = counting
            return  # the engine does not let the cost be paid (702.122a): nothing happens
        for _ in range(50):
            if not self.g.stack():
                break
            self.pass_once(f"the resolution of {a['vehicle']}'s crew ability")
        self.counting = counting
        self.stamp(known)  # the Vehicle's effect (613.7b)

    def do_copy(self, a):
        """The effect source's ability that makes `object` a copy of `of`
        (707.2, 613.2a), targets in that order, resolved by the engine; the
        copy effect is numbered from the case's counter."""
        targets = [self.on_battlefield(a["object"]), self.on_battlefield(a["of"])]
        text = COPYING[a.get("until", "forever")]
        self.from_next_timestamp()
        counting, self.counting = self.counting, False
        self.apply({"type": "ActivateAbility", "data": {
            "source_id": self.effect_source, "ability_index": list(self.locked).index(text)}})
        for handle, oid in zip((a["object"], a["of"]), targets):
            waiting = self.g.waiting_for()
            offered = [c for c in self.g.actions() if c.kind == "ChooseTarget"]
            pick = next((c for c in offered if c.data.get("target") == {"Object": oid}), None)
            if waiting["type"] != "TargetSelection" or pick is None:
                raise Unsupported(f"the engine does not offer {handle} as a target of {text!r}")
            self.apply(pick, waiting["data"].get("player", 0))
        self.settle(a["object"], targets[0], text)
        self.counting = counting

    def do_turn_face_up(self, handle):
        """The engine's special action (702.37e, 701.40b): its cost, the
        card's morph or mana cost, paid from mana put in its controller's
        pool for it. A face-up permanent stays as it is (708.2b)."""
        oid = self.on_battlefield(handle)
        if not self.g.object(oid)["face_down"]:
            return
        o = next(o for o in self.objects if o["id"] == handle)
        if self.g.player(0)["mana_pool"]["mana"]:
            raise Unsupported(f"turning {handle} face up with mana in the pool (the adapter puts "
                              "the mana its cost takes there, and the engine could spend other)")
        # A morph card's cost is its morph cost, written {0} (the case gives none).
        if "morph" not in o.get("keywords", []):
            self.apply(debug("AddMana", {"player_id": 0,
                                         "mana": mana_of(o.get("mana_cost", ""), handle)}))
        self.from_next_timestamp()
        try:
            self.apply({"type": "TurnFaceUp", "data": {"object_id": oid}})
        except ValueError as e:
            raise Unsupported(f"the engine does not turn {handle} face up: {e}")
        if self.g.player(0)["mana_pool"]["mana"]:
            raise RuntimeError(f"mana left in the pool once {handle} was turned face up")
        self.timestamp()  # 613.7f
        self.next_ts = max(self.next_ts, self.g.state()["state"]["next_timestamp"])

    def do_turn_face_down(self, handle):
        """The effect source's ability, targeting `handle`, resolved by the
        engine (708.2a); a permanent turned face down gets a timestamp (613.7f)."""
        oid = self.on_battlefield(handle)
        was = self.g.object(oid)["face_down"]
        self.from_next_timestamp()
        self.use_source(FACE_DOWN, handle, oid)
        if self.g.object(oid)["face_down"] and not was:
            self.timestamp()
        self.next_ts = max(self.next_ts, self.g.state()["state"]["next_timestamp"])

    def put_lore(self, a):
        """Lore counters put by the effect source's ability, which the engine
        resolves: the chapter abilities they reach trigger (714.2b)."""
        oid = self.on_battlefield(a["on"])
        text = lore_text(a.get("count", 1))
        self.from_next_timestamp()  # what triggers is numbered from it
        self.use_source(text, a["on"], oid)

    def from_next_timestamp(self):
        """The engine numbers what it makes next from the case's counter
        (613.7): its own `next_timestamp` set to the case's next one."""
        state = self.g.state()
        state["state"]["next_timestamp"] = self.next_ts
        self.g = self.engine.load_game(state)

    def use_source(self, text, handle, oid):
        """The effect source's ability `text`, activated by the first player
        and resolved by the engine with what it triggers (`settle`, its target
        or card `handle`); its own actions count no timestamp of the case's."""
        counting, self.counting = self.counting, False
        self.apply({"type": "ActivateAbility", "data": {
            "source_id": self.effect_source, "ability_index": list(self.locked).index(text)}})
        self.settle(handle, oid, text)
        self.counting = counting

    def settle(self, handle, oid, text):
        """Let the engine resolve `text` and what triggers from it: its target
        or card is `handle`; a chapter ability's target is its chapter's
        (714.2b); everything else passes priority until the stack is empty."""
        back = {v: k for k, v in self.ids.items()}
        for _ in range(100):
            waiting = self.g.waiting_for()
            data = waiting.get("data") or {}
            if waiting["type"] == "TargetSelection":
                if not any(c.data.get("target") == {"Object": oid} for c in self.g.actions()
                           if c.kind == "ChooseTarget"):
                    raise Unsupported(f"the engine does not offer {handle} as a target of "
                                      f"{text!r}")
                self.apply({"type": "ChooseTarget", "data": {"target": {"Object": oid}}})
            elif waiting["type"] == "TriggerTargetSelection":
                saga = back.get(data.get("source_id"))
                chapter = re.fullmatch(r"Chapter (\d+)", data.get("description") or "")
                target = self.chapters.get(saga, {}).get(int(chapter[1])) if chapter else None
                want = {"Object": self.ids[target]} if target in self.ids else None
                if want not in data["selection"]["current_legal_targets"]:
                    raise Unsupported(f"the engine does not offer the target the case means "
                                      f"({target}) to {data.get('description')} of {saga}")
                self.apply({"type": "ChooseTarget", "data": {"target": want}}, data["player"])
            elif waiting["type"] == "OrderTriggers" and all(
                    re.fullmatch(r"Chapter \d+", t.get("description") or "")
                    for t in data["triggers"]):
                # Chapter abilities the adapter writes only add (+1/+1
                # counters, pumps: 613.4c), so their order changes nothing:
                # the order the engine offers first.
                self.apply(next(c for c in self.g.actions() if c.kind == "OrderTriggers"),
                           data["player"])
            elif waiting["type"] == "ReplacementChoice" and self.copy_target is not None:
                # The Clone's "you may have it enter as a copy" (707.2), taken.
                index = next((i for i, c in enumerate(data["candidates"])
                              if "enter as a copy" in c.get("description", "")), None)
                if index is None:
                    raise Unsupported(f"the engine offers no copy as {handle} enters "
                                      f"({json.dumps(data)[:200]})")
                self.apply({"type": "ChooseReplacement", "data": {"index": index}},
                           data["player"])
            elif waiting["type"] == "CopyTargetChoice" and self.copy_target is not None:
                if self.copy_target not in data["valid_targets"]:
                    raise Unsupported(f"the engine does not let {handle} enter as a copy of "
                                      "the object the case names")
                self.apply({"type": "ChooseTarget",
                            "data": {"target": {"Object": self.copy_target}}}, data["player"])
            elif waiting["type"] == "NamedChoice":
                self.answer_choice(data, self.choosing)
            elif waiting["type"] == "EffectZoneChoice":
                if oid not in data["cards"]:
                    raise Unsupported(f"the engine does not offer {handle} to {text!r}")
                self.apply({"type": "SelectCards", "data": {"cards": [oid]}}, data["player"])
            elif waiting["type"] == "OptionalEffectChoice":
                self.decline_siege_cast()
                if self.g.waiting_for()["type"] == "OptionalEffectChoice":
                    raise Unsupported(f"the engine asks {json.dumps(data)[:200]}")
            elif self.g.stack():
                self.pass_once(f"the resolution of {text!r}")
            elif waiting["type"] not in ("Priority", "GameOver"):
                raise Unsupported(f"the engine waits for {waiting['type']} once {text!r} "
                                  f"resolves ({json.dumps(data)[:200]})")
            else:
                break
        state = self.g.state()
        self.next_ts = max(self.next_ts, state["state"]["next_timestamp"])

    def do_locked_effect(self, spec):
        """The effect source's ability for this effect, activated by the first
        player and resolved by the engine, which locks the affected set as it
        resolves (611.2c); the effect gets the case's timestamp."""
        text, _ = locked_effect_text(spec, self.player_ids, next(iter(self.player_ids)), "effect")
        index = list(self.locked).index(text)
        ts = self.timestamp(spec.get("timestamp"))
        state = self.g.state()
        s = state["state"]
        known = {e["id"] for e in s["transient_continuous_effects"]}
        s["next_timestamp"] = ts
        self.g = self.engine.load_game(state)
        counting, self.counting = self.counting, False
        self.apply({"type": "ActivateAbility",
                    "data": {"source_id": self.effect_source, "ability_index": index}})
        for _ in range(50):
            if not self.g.stack():
                break
            self.pass_once(f"the resolution of {text!r}")
        self.counting = counting
        # The engine numbers its per-object entries ts, ts+1, ... (no later
        # effect comes between them in its game); they are one effect with
        # one timestamp (613.7a), and the case numbers the next one ts+1.
        state = self.g.state()
        s = state["state"]
        for e in s["transient_continuous_effects"]:
            if e["id"] not in known:
                e["timestamp"] = ts
        s["next_timestamp"] = max(s["next_timestamp"], self.next_ts)
        s["layers_dirty"] = True
        self.g = self.engine.load_game(state)
