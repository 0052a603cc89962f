"""How the adapter acts on the engine's game: its actions applied (the
case's timestamps counted from what they do, a player's loss noted),
priority passed, the stack resolved with ptoracle's choices (the order of
triggers, D2; which replacement applies first, D39, D49), state-based
actions checked."""

import json

from .engine import debug
from .terms import ZONES, Invalid, NoFixpoint, Unsupported, counter_name

# Rounds of triggers before the adapter says they never settle: the
# reference's bound (rulings/DECISIONS.md, D28).
ROUNDS = 1000


class Actions:
    """`Game`'s actions on the engine, priority, the stack and state-based
    actions."""

    def timestamp(self, explicit=None):
        """The next timestamp, or an explicit one (later ones follow it)."""
        if explicit is None:
            explicit = self.next_ts
        self.next_ts = max(self.next_ts, explicit + 1)
        return explicit

    def apply(self, action, player=0):
        source = (action.get("data") or {}).get("source_id") if isinstance(action, dict) else None
        if source is not None and source in self.taken_out:
            # The adapter's own objects (its effect source) are the first
            # player's: they leave with a loser the game was played on for.
            names = {i: h for h, i in self.player_ids.items()}
            raise Unsupported(
                f"{', '.join(names[i] for i in sorted(self.losers))} loses the game, and phase.rs "
                f"exiles the loser's objects as it ends it ({self.g.object(source)['name']}, "
                "whose ability the adapter activates for the step)")
        kind = action.get("type") if isinstance(action, dict) else action.kind
        if self.unchecked and kind in ("PassPriority", "CastSpell", "ActivateAbility",
                                       "CrewVehicle"):
            self.nothing_to_check(self.unchecked)
        result = self.g.apply(player, action)
        self.note_losses(result.events)
        gone = sorted(h for h, oid in self.ids.items() if oid in self.taken_out)
        if gone:
            names = {i: h for h, i in self.player_ids.items()}
            raise Unsupported(
                f"{', '.join(names[i] for i in sorted(self.losers))} loses the game, and phase.rs "
                f"exiles the loser's objects as it ends it ({', '.join(gone)})")
        for event in result.events if self.counting else []:
            kind = event.get("type", "")
            if kind == "ZoneChanged" and (event.get("data") or {}).get("object_id") in self.taken_out:
                continue  # a loser's card the engine exiled as the game ended
            # A zone change makes a new object with a new timestamp (400.7,
            # 613.7d); counters put by the engine give their kind one (613.7c).
            if kind == "ZoneChanged" or ("Counter" in kind and "Add" in kind):
                self.timestamp()
        return result

    def activate(self, source, index, refusal, player=0):
        """Activate the ability `index` of `source`; the engine's refusal (a
        ValueError: no such ability any more, no legal target) is the case's
        `Unsupported(refusal(error))`."""
        try:
            self.apply({"type": "ActivateAbility",
                        "data": {"source_id": source, "ability_index": index}}, player)
        except ValueError as e:
            raise Unsupported(refusal(e)) from e

    def note_losses(self, events):
        """The engine's own word that a player lost (its PlayerLost event), and
        what it exiled as it took them out of the game."""
        losing = False
        for event in events:
            kind, data = event.get("type", ""), event.get("data") or {}
            if kind == "PlayerLost":
                self.losers.add(data.get("player_id"))
                losing = True
            elif kind == "GameOver":
                losing = False
            elif losing and kind == "ZoneChanged" and data.get("to") == "Exile":
                self.taken_out.add(data.get("object_id"))

    def carry_on(self, k, step):
        """After a step in which a player lost: the engine has ended the game
        there (104.2a, its GameOver), exiled the loser's cards and left the
        rest of that check of state-based actions undone; ptoracle's scenarios
        play on. When none of the case's objects left with the loser, the game
        is reloaded with its end undone (no player eliminated, priority back)
        and the loser's life and poison moved out of losing range by an offset
        the observations take back off (life and poison only ever change by
        amounts, so every later change is the engine's); then the check is
        done again, by the engine. The loss itself is reported from the
        engine's PlayerLost event, and stays."""
        names = {i: h for h, i in self.player_ids.items()}
        action = step["do"] if step["do"] == "cleanup" else next(iter(step["do"]))
        if action in ("cleanup", "begin_turn", "attack") or not step.get("sba", True):
            raise Unsupported(
                f"step {k + 1}: {', '.join(names[i] for i in sorted(self.losers))} loses the game "
                f"during the step ({action}{', sba: false' if not step.get('sba', True) else ''}), "
                "which phase.rs ends there, before the step is over")
        for _ in range(5):
            back = {v: k for k, v in self.ids.items()}
            gone = sorted(back[o] for o in self.taken_out if o in back)
            if gone:
                raise Unsupported(
                    f"step {k + 1}: {', '.join(names[i] for i in sorted(self.losers))} loses the "
                    f"game, and phase.rs exiles the loser's objects as it ends it ({', '.join(gone)})")
            if self.g.waiting_for()["type"] != "GameOver":
                return
            state = self.g.state()
            s = state["state"]
            s["eliminated_players"] = []
            for i, player in enumerate(s["players"]):
                player["is_eliminated"] = False
                if i not in self.losers:
                    continue
                if player["life"] <= 0:
                    self.life_offset[i] = self.life_offset.get(i, 0) + 1_000_000
                    player["life"] += 1_000_000
                if player["poison_counters"] >= 10:
                    self.poison_offset[i] = self.poison_offset.get(i, 0) + player["poison_counters"]
                    player["poison_counters"] = 0
            s["waiting_for"] = {"type": "Priority", "data": {"player": s["priority_player"]}}
            self.g = self.engine.load_game(state)
            self.check_sba()
            self.resolve_triggers()
        raise RuntimeError("the engine keeps ending the game")

    def move(self, oid, zone):
        """The engine's zone change (its debug action); the object keeps its id."""
        if self.g.object(oid)["zone"] != zone:
            self.apply(debug("MoveToZone", {"object_id": oid, "to_zone": zone, "simulate": False}))

    def counters(self, oid, kind, delta):
        self.apply(debug("ModifyCounters", {"object_id": oid,
                                            "counter_type": counter_name(kind), "delta": delta}))

    def known(self, handle):
        if handle not in self.ids:
            raise Invalid(f"{handle} is not an object of the case")
        return self.ids[handle]

    def on_battlefield(self, handle):
        if handle not in self.ids:
            raise Invalid(f"{handle} is not an object of the case")
        oid = self.ids[handle]
        zone = self.g.object(oid)["zone"]
        if zone != "Battlefield":
            raise Invalid(f"{handle} is in the {ZONES.get(zone, zone)}, not on the battlefield")
        return oid

    def play(self, step):
        action = step["do"]
        if action == "state_based_actions":
            self.check_sba()
            self.resolve_triggers()
            return
        # ptoracle checks nothing before a step's action; the engine checks
        # state-based actions whenever a player would get priority (704.3):
        # the step's first action that gives priority checks first that
        # they have nothing to do (`apply`).
        self.unchecked = "the step `cleanup`" if action == "cleanup" \
            else f"the step `{next(iter(action))}`"
        if self.g.waiting_for()["type"] == "GameOver":
            # The setup's own state (life, poison) ended it as it was put in
            # place; a loss during a step is carried on from (`carry_on`).
            raise Unsupported(f"the game is over in phase.rs before {self.unchecked} "
                              f"({json.dumps(self.g.waiting_for().get('data'))})")
        if action == "cleanup":
            self.do_cleanup()
        else:
            (name, body), = action.items()
            getattr(self, "do_" + name)(body)
        self.unchecked = None
        if step.get("sba", True):
            self.check_sba()
            self.resolve_triggers()

    def check_sba(self):
        """The engine's state-based actions until none applies (704.3: the
        check is repeated): its debug action performs one round of them (its
        priority passes repeat them), so it is asked again while a round
        still does something."""
        for _ in range(ROUNDS):
            result = self.apply(debug("RunStateBasedActions"))
            if self.g.waiting_for()["type"] == "GameOver" \
                    or all(e.get("type") == "DebugActionUsed" for e in result.events):
                return
        raise NoFixpoint(f"state-based actions still apply after {ROUNDS} rounds")

    def stamp(self, before, ts=None):
        """The continuous effects the engine made since `before` (their ids)
        take the case's timestamp `ts`, or, when it is None and there are
        some, the case's next one; the engine numbers what comes later
        after it."""
        state = self.g.state()
        s = state["state"]
        made = [e for e in s["transient_continuous_effects"] if e["id"] not in before]
        if ts is None:
            if not made:
                return
            ts = self.timestamp()
        for e in made:
            e["timestamp"] = ts
        s["next_timestamp"] = max(s["next_timestamp"], ts + 1)
        s["layers_dirty"] = True
        self.g = self.engine.load_game(state)

    def effect_ids(self):
        return {e["id"] for e in self.g.state()["state"]["transient_continuous_effects"]}

    def triggered_effects(self, before):
        """The effects of Nth-counter abilities (122.7) that triggered and
        resolved as the adapter's spell resolved: each takes the next
        timestamp of the case's count (613.7a), in the order the engine made
        them."""
        state = self.g.state()
        s = state["state"]
        made = [e for e in s["transient_continuous_effects"] if e["id"] not in before]
        if not made:
            return
        for e in sorted(made, key=lambda e: e["timestamp"]):
            e["timestamp"] = self.timestamp()
        s["next_timestamp"] = max(s["next_timestamp"], self.next_ts)
        s["layers_dirty"] = True
        self.g = self.engine.load_game(state)

    def sickness(self):
        """The engine's summoning-sickness flag of the case's permanents."""
        objs = self.g.state()["state"]["objects"]
        return {oid: bool(objs[str(oid)].get("summoning_sick", False))
                for oid in self.ids.values() if objs[str(oid)]["zone"] == "Battlefield"}

    def restore_sickness(self, before, keep=()):
        """A turn begun on the way is not the case's (302.6): the flags go back,
        except for the permanents of `keep`."""
        now = self.sickness()
        changed = False
        for oid, was in before.items():
            if oid in now and now[oid] != was and oid not in keep:
                self.apply(debug("SetSummoningSickness", {"object_id": oid, "sick": was}))
                changed = True
        if changed:
            # The engine refreshes its derived `has_summoning_sickness` as a
            # state is loaded, not after this debug action.
            self.g = self.engine.load_game(self.g.state())

    def quietly(self, action, player, own=()):
        """Apply an action whose own zone changes (the adapter's spell) take no
        timestamp; the others count as usual (400.7), and counters put on an
        object as it enters share its timestamp (613.7d)."""
        counting, self.counting = self.counting, False
        try:
            result = self.apply(action, player)
        finally:
            self.counting = counting
        entered = set()
        for event in result.events if counting else []:
            kind, data = event.get("type", ""), event.get("data") or {}
            if kind == "ZoneChanged" and data.get("object_id") not in own:
                self.timestamp()
                if data.get("to") == "Battlefield":
                    entered.add(data.get("object_id"))
            elif "Counter" in kind and "Add" in kind and data.get("object_id") not in entered:
                self.timestamp()
        return result

    def resolve_stack(self, own=(), floor=0):
        """Priority passed until the stack is empty (and the triggers its
        resolution causes have resolved too), or down to its `floor` bottom
        entries."""
        seen = {}
        for _ in range(2 * ROUNDS):
            waiting = self.g.waiting_for()
            if waiting["type"] == "Priority" and self.g.stack():
                # The engine is deterministic: the same state of the case's
                # objects, with the same kinds of entries on a stack no
                # shorter than the last time, come back again and again, is
                # a loop (one whose stack grows, too: a creature with
                # undying and persist that can't have counters put on it
                # returns and dies for ever, each death adding a trigger).
                stack = self.g.stack()
                key = json.dumps([[self.g.object(o)[f] for f in ("zone", "counters", "power",
                                                               "toughness", "damage_marked")]
                                  for o in self.ids.values()]
                                 + sorted({json.dumps([e.get("source_id"),
                                                       str(e.get("kind"))[:60]], default=str)
                                           for e in stack}) + [self.g.priority_player()],
                                 sort_keys=True, default=str)
                count, length = seen.get(key, (0, 0))
                seen[key] = (count + 1 if len(stack) >= length else count, len(stack))
                if seen[key][0] > 3:
                    raise NoFixpoint("the engine's triggers keep returning the same objects to "
                                     "the same state")
            if waiting["type"] == "OrderTriggers":
                self.order_triggers(waiting["data"])
                continue
            if waiting["type"] == "ReplacementChoice":
                self.choose_replacement(waiting["data"])
                continue
            if waiting["type"] == "NamedChoice":
                self.answer_choice(waiting["data"])
                continue
            if len(self.g.stack()) <= floor or waiting["type"] == "GameOver":
                return
            if waiting["type"] != "Priority":
                raise Unsupported(f"the engine waits for {waiting['type']} as its stack resolves "
                                  f"({json.dumps(waiting.get('data'))[:200]})")
            self.quietly({"type": "PassPriority"}, self.g.priority_player(), own)
        raise NoFixpoint(f"the engine's stack is not empty after {ROUNDS} resolutions (its "
                         "triggers keep returning)")

    def order_triggers(self, data):
        """Simultaneous triggers, in the order ptoracle has their controller
        choose (rulings/DECISIONS.md, D2; 603.3b): by the setup's order of
        their sources, undying before persist for one creature. The engine
        takes the order they go on the stack in: the last resolves first."""
        setup = {self.ids[o["id"]]: i for i, o in enumerate(self.objects)}
        keys = []
        for trigger in data["triggers"]:
            text = trigger.get("description") or ""
            kind = 0 if "702.93" in text else 1 if "702.79" in text else None
            if kind is None or trigger.get("source_id") not in setup:
                raise Unsupported(f"the engine asks for the order of triggers other than undying "
                                  f"and persist: {text[:80]!r}")
            keys.append((setup[trigger["source_id"]], kind))
        first = sorted(range(len(keys)), key=lambda i: keys[i])
        self.apply({"type": "OrderTriggers", "data": {"order": first[::-1]}}, data["player"])

    def answer_choice(self, data, label=None):
        """The P/T chosen as a card enters (208.2b): the case's `label`, or
        for an object of the case that enters without its step saying (a
        trigger returning it), its `choose`, else its first `enters_as`.
        Any other choice the engine asks is refused."""
        ref = (((data.get("source") or {}).get("prompt") or {}).get("identity") or {}) \
            .get("reference") or {}
        handle = {v: k for k, v in self.ids.items()}.get(ref.get("object_id"))
        o = next((o for o in self.objects if o["id"] == handle), {})
        if label is None and o.get("enters_as") and handle in self.labels:
            label = self.labels[handle].get(o.get("choose") or o["enters_as"][0]["pt"])
        if label is None or label not in (data.get("options") or []):
            raise Unsupported(f"the engine asks a choice for {handle} the case does not make "
                              f"({label!r} among {data.get('options')})")
        self.apply({"type": "ChooseOption", "data": {"choice": label}}, data["player"])

    def choose_replacement(self, data):
        """Two replacement effects for one event (616.1): ptoracle has the
        controller use the shield counter first, before a regeneration
        shield (rulings/DECISIONS.md, D39) or a prevention shield (D49); any
        other choice is refused."""
        texts = [c.get("description") or "" for c in data["candidates"]]
        for first, other in (("Remove a shield counter", "Regenerate"),
                             ("Prevent damage with shield counter", "Prevent damage")):
            if first in texts and all(x in (first, other) for x in texts):
                self.apply({"type": "ChooseReplacement", "data": {"index": texts.index(first)}},
                           data["player"])
                return
        raise Unsupported(f"the engine asks which replacement effect applies first: {texts}")

    def resolve_triggers(self):
        """Triggers that state-based actions cause (undying, persist: 603.3)
        resolve before the step's observation."""
        waiting = self.g.waiting_for()
        # A spell the case cast stays on the stack until its `resolve` step;
        # the triggers are above it.
        held = sum(1 for oid in self.ids.values()
                   if self.g.object(oid)["zone"] == "Stack" and oid not in self.inert)
        if waiting["type"] not in ("Priority", "GameOver") or len(self.g.stack()) > held:
            self.resolve_stack(floor=held)

    def with_priority(self, player):
        """Priority for `player`, with an empty stack: the active player passes."""
        if self.g.priority_player() != player:
            if self.g.stack():
                raise Unsupported("the second player would act with something on the stack")
            self.apply({"type": "PassPriority"}, self.g.priority_player())
        if self.g.waiting_for()["type"] != "Priority" or self.g.priority_player() != player:
            raise Unsupported(f"the engine does not give player {player + 1} priority")

    def no_mana_through(self, what):
        """The engine's walk through the steps of a combat empties the mana
        pools as each step ends (500.4); ptoracle's combat steps play no other
        step, so mana stays. A pool with mana is refused."""
        if any(self.g.player(i)["mana_pool"]["mana"] for i in self.player_ids.values()):
            raise Unsupported(f"`{what}` with mana in a pool (the engine walks through the steps "
                              "of the combat, whose ends empty it, 500.4)")

    def nothing_to_check(self, what):
        """The engine checks state-based actions as it gives priority, before
        a spell or ability resolves (704.3); ptoracle checks nothing before a
        step's action. The engine's check, done now, must find nothing, or
        the case is refused (it is over either way)."""
        self.unchecked = None
        result = self.apply(debug("RunStateBasedActions"))
        if any(e.get("type") != "DebugActionUsed" for e in result.events) \
                or self.g.waiting_for()["type"] not in ("Priority", "GameOver"):
            raise Unsupported(f"{what} with state-based actions to perform first (the engine "
                              "performs them as it gives priority, before it resolves, 704.3)")

    def pass_once(self, goal):
        waiting = self.g.waiting_for()
        if waiting["type"] != "Priority":
            raise Unsupported(f"the engine waits for {waiting['type']} on the way to {goal}")
        self.apply({"type": "PassPriority"}, self.g.priority_player())

    def pass_until(self, kind):
        for _ in range(20):
            if self.g.waiting_for()["type"] == kind:
                return
            if self.g.stack():
                raise Unsupported(f"a trigger on the engine's stack on the way to {kind} (from "
                                  "state-based actions it checked as it gave priority, 704.3)")
            self.pass_once(kind)
        # A step it skips: no creature may do it (a flier unblockable, 509.1b),
        # or state-based actions checked on the way changed the combat.
        raise Unsupported(f"the engine never asked for {kind} (it went on to "
                          f"{self.g.state()['state']['phase']}: it allows none of what the "
                          "case's combat needs, or state-based actions it checked as it gave "
                          "priority on the way changed the combat, 704.3)")
