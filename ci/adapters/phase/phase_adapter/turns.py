"""The steps that walk the engine through its turn: combat (declared or
from the case's combat damage), the cleanup step and the beginning of a
turn; what the walk changes that is not the case's (tapped status,
summoning sickness, the phase) is put back."""

from .engine import LIBRARY_FORESTS, debug
from .terms import Unsupported, keyword_name


class Turns:
    """`Game`'s steps through the engine's turn: combat, cleanup, a new turn."""

    def do_cleanup(self):
        """The engine's own cleanup step (514.2): the turn is walked from the
        end step through cleanup into the next turn's upkeep; the untap step
        on the way is not the case's, so the permanents get their tapped
        status back, and the first player's main phase is set again."""
        tapped = {oid: self.g.object(oid)["tapped"] for oid in self.ids.values()
                  if self.g.object(oid)["zone"] == "Battlefield"}
        sick = self.sickness()
        self.apply(debug("SetPhase", {"phase": "End", "active_player": 0}))
        for _ in range(10):
            if self.g.state()["state"]["active_player"] != 0:
                break
            if self.g.waiting_for()["type"] == "GameOver" or self.losers:
                raise Unsupported("the cleanup step once a player has lost, or loses as the "
                                  "engine checks state-based actions on the way to it (704.3): "
                                  "phase.rs ends the game or skips the loser's turn, and the "
                                  "adapter's walk to the cleanup step does not get there")
            if self.g.stack() and self.g.waiting_for()["type"] == "Priority":
                # Triggers of the state-based actions the engine checked as
                # it gave priority on the way (704.3): they resolve, and a
                # loop of them (a persist creature that keeps dying) is no
                # fixpoint rather than a cleanup never reached.
                self.resolve_stack()
                continue
            self.pass_once("the cleanup step")
        else:
            raise RuntimeError("the engine did not walk through its cleanup step")
        if self.g.waiting_for()["type"] == "GameOver":
            return
        for oid, was in tapped.items():
            if self.g.object(oid)["zone"] == "Battlefield" and self.g.object(oid)["tapped"] != was:
                self.apply(debug("SetTapped", {"object_id": oid, "tapped": was}))
        self.restore_sickness(sick)
        self.apply(debug("SetPhase", {"phase": "PreCombatMain", "active_player": 0}))

    def do_combat_damage(self, entries):
        """A real combat: the first player's creatures attack, the second
        player's block what they deal damage to, and the engine walks the
        turn to its combat damage step (510)."""
        self.no_mana_through("combat_damage")
        attacks, blocks = self.combat_roles(entries)
        engaged = list(attacks) + list(blocks)
        for oid in engaged:
            strikes = {keyword_name(k) for k in self.g.object(oid)["keywords"]}
            if strikes & {"first strike", "double strike"}:
                raise Unsupported("combat damage from a creature with first strike or double "
                                  "strike (the engine deals it in a step of its own, 510.4)")
        before = {oid: self.g.object(oid)["tapped"] for oid in engaged}
        sick = self.sickness()
        for oid in engaged:
            # The case declares no attack: an attacker or blocker is made
            # ready to fight (untapped, not summoning sick), and gets its
            # tapped status back as soon as the attack is declared (the tap
            # of attacking is not the case's).
            self.apply(debug("SetTapped", {"object_id": oid, "tapped": False}))
            self.apply(debug("SetSummoningSickness", {"object_id": oid, "sick": False}))
        self.apply(debug("SetPhase", {"phase": "BeginCombat", "active_player": 0}))
        self.pass_until("DeclareAttackers")
        defender = {"type": "Player", "data": 1}
        self.offer("DeclareAttackers", {"attacks": [[a, defender] for a in attacks], "bands": []},
                   "attack")
        for oid, tapped in before.items():
            self.apply(debug("SetTapped", {"object_id": oid, "tapped": tapped}))
        self.restore_sickness(sick)
        if blocks:
            self.pass_until("DeclareBlockers")
            self.offer("DeclareBlockers",
                       {"assignments": [[b, a] for b, a in blocks.items()]}, "block", player=1)
        while self.g.state()["state"]["phase"] != "CombatDamage" \
                or self.g.waiting_for()["type"] == "AssignCombatDamage":
            if self.g.waiting_for()["type"] == "AssignCombatDamage":
                self.assign_as_given(self.g.waiting_for()["data"], entries)
                continue
            if self.g.waiting_for()["type"] == "DeclareBlockers" and not blocks:
                self.apply({"type": "DeclareBlockers", "data": {"assignments": []}}, 1)
                continue
            self.pass_once("the combat damage step")
        if self.g.waiting_for()["type"] != "GameOver":
            self.apply(debug("SetPhase", {"phase": "PreCombatMain", "active_player": 0}))

    def combat_roles(self, entries):
        """Attackers (to the defending player) and blockers (blocker -> attacker)."""
        attacks, blocks = {}, {}
        first, second = sorted(self.player_ids, key=self.player_ids.get)
        for e in entries:
            source = self.on_battlefield(e["from"])
            src = next(o for o in self.objects if o["id"] == e["from"])
            if self.controller(src) == 0:
                if source in attacks:
                    raise Unsupported(f"{e['from']} deals combat damage to several things "
                                      "(a damage assignment among blockers is not mapped)")
                attacks[source] = e["to"]
            elif e["to"] in self.player_ids:
                raise Unsupported(f"{e['from']} of {second} deals combat damage to a player "
                                  f"(only {first}, the active player, attacks)")
            else:
                if source in blocks:
                    raise Unsupported(f"{e['from']} deals combat damage to several things "
                                      "(a blocker's division is not mapped)")
                blocks[source] = self.on_battlefield(e["to"])
        for attacker, to in attacks.items():
            if to == second:
                continue
            if to in self.player_ids:
                raise Unsupported(f"combat damage to {to}, the attacking player")
            blocker = self.on_battlefield(to)
            owner = next(o for o in self.objects if o["id"] == to)
            if self.controller(owner) != 1:
                raise Unsupported(f"combat damage to {to}, a creature of the attacking player")
            if blocks.setdefault(blocker, attacker) != attacker:
                raise Unsupported(f"{to} deals its combat damage to another creature than the "
                                  "one that deals it combat damage")
        for blocker, attacker in blocks.items():
            if attacker not in attacks:
                back = {v: k for k, v in self.ids.items()}
                if self.controller(next(o for o in self.objects
                                        if o["id"] == back[attacker])) != 0:
                    raise Unsupported("combat damage between two creatures of the second player")
                power = self.g.object(attacker).get("power") or 0
                if power > 0:
                    # Blocked, it would deal its own damage in the engine's combat.
                    raise Unsupported(f"{back[attacker]} is dealt combat damage by a blocker but "
                                      "deals none in the case")
                attacks[attacker] = second
        return list(attacks), blocks

    def do_begin_turn(self, player):
        """The engine's own next turn of that player (its start clears the
        summoning sickness of what they control, 302.6): the turn is walked
        from the end step, through cleanup and the untap step, to that
        player's upkeep. Nothing else of the turn is the case's: the tapped
        status is put back, and what the cleanup would remove is refused."""
        who = self.player_ids[player]
        s = self.g.state()["state"]
        if any(s["objects"][str(oid)]["damage_marked"] for oid in self.ids.values()) \
                or any(e.get("duration") == "UntilEndOfTurn"
                       for e in s["transient_continuous_effects"]) \
                or any(r.get("expiry") == {"type": "EndOfTurn"} and not r.get("is_consumed")
                       for oid in self.ids.values()
                       for r in s["objects"][str(oid)].get("replacement_definitions", [])) \
                or s.get("pending_damage_replacements"):
            raise Unsupported("begin_turn with damage marked, an until-end-of-turn effect or a "
                              "shield for this turn (the adapter walks the engine through the "
                              "end of the turn, whose cleanup would remove them)")
        if any(p["mana_pool"]["mana"] for p in s["players"]):
            # D27: the case's turn begins with nothing else of a turn played.
            raise Unsupported("begin_turn with mana in a pool (the adapter walks the engine "
                              "through the end of the turn, whose steps empty it, 500.4)")
        if any(all(v["zone"] != "Library" or v["owner"] != i for v in s["objects"].values())
               for i in range(len(s["players"]))):
            raise Unsupported("begin_turn with an empty library (the adapter's libraries hold "
                              f"{LIBRARY_FORESTS} Forests; the engine's draw step on the way "
                              "would lose the game, 704.5b)")
        tapped = {oid: self.g.object(oid)["tapped"] for oid in self.ids.values()
                  if self.g.object(oid)["zone"] == "Battlefield"}
        sick = self.sickness()
        self.apply(debug("SetPhase", {"phase": "End", "active_player": s["active_player"]}))
        for _ in range(30):
            s = self.g.state()["state"]
            if s["active_player"] == who and s["phase"] not in ("Untap", "End", "Cleanup"):
                break
            if self.g.waiting_for()["type"] == "GameOver":
                return
            self.pass_once(f"{player}'s turn")
        else:
            raise RuntimeError(f"the engine never began {player}'s turn")
        for oid, was in tapped.items():
            if self.g.object(oid)["zone"] == "Battlefield" and self.g.object(oid)["tapped"] != was:
                self.apply(debug("SetTapped", {"object_id": oid, "tapped": was}))
        self.restore_sickness(sick, keep={oid for oid in sick
                                          if self.g.object(oid)["controller"] == who})
        self.apply(debug("SetPhase", {"phase": "PreCombatMain", "active_player": who}))

    def do_attack(self, declarations):
        """Declared attackers and blockers (508.1, 509.1), through the engine's
        own declare attackers and declare blockers steps; the game stays in
        the declare blockers step, the active player with priority, until a
        `combat_damage_step`."""
        self.no_mana_through("attack")
        defender = {"type": "Player", "data": 1}
        attacks, blocks = [], []
        for d in declarations:
            attacker = self.on_battlefield(d["attacker"])
            src = next(o for o in self.objects if o["id"] == d["attacker"])
            if self.controller(src) != 0:
                raise Unsupported(f"{d['attacker']} of the second player attacks (the adapter's "
                                  "game has the first player active)")
            if d.get("defender") not in (None, *[h for h, i in self.player_ids.items() if i == 1]):
                raise Unsupported(f"{d['attacker']} attacks {d['defender']}, the attacking player")
            attacks.append([attacker, defender])
            blocks += [[self.on_battlefield(b), attacker] for b in d.get("blockers") or []]
        self.blockers = {a: [b for b, x in blocks if x == a] for a, _ in attacks}
        self.apply(debug("SetPhase", {"phase": "BeginCombat", "active_player": 0}))
        self.pass_until("DeclareAttackers")
        self.offer("DeclareAttackers", {"attacks": attacks, "bands": []}, "attack")
        for _ in range(20):
            # The engine skips the blockers' declaration when no creature can block.
            if self.g.waiting_for()["type"] == "DeclareBlockers" \
                    or self.g.state()["state"]["phase"] == "DeclareBlockers":
                break
            self.pass_once("the declare blockers step")
        if blocks or self.g.waiting_for()["type"] == "DeclareBlockers":
            self.offer("DeclareBlockers", {"assignments": blocks}, "block", player=1)
        if self.g.waiting_for()["type"] != "Priority" or self.g.state()["state"]["phase"] != "DeclareBlockers":
            raise Unsupported(f"the engine waits for {self.g.waiting_for()['type']} in its "
                              f"{self.g.state()['state']['phase']} step after the blocks")

    def do_combat_damage_step(self, spec):
        """The engine's next combat damage step (510): priority is passed until
        combat damage has been dealt and a player gets priority again. The
        attacking player's division among blockers (`divide`) is given when the
        engine asks for it, with the lethal damage the engine computes for each
        blocker (510.1c, 702.19b)."""
        self.no_mana_through("combat_damage_step")
        combat = self.g.state()["state"].get("combat")
        if combat is None:
            raise Unsupported("a combat damage step with no combat under way in the engine")
        done = (combat["first_strike_done"], combat["regular_damage_done"])
        if done[1]:
            # phase.rs deals first-strike and regular combat damage in one go
            # when no trigger waits between them (no priority in between, unlike
            # 510.3 and 510.4): its combat has no further damage step.
            return
        for _ in range(20):
            waiting = self.g.waiting_for()
            if waiting["type"] == "GameOver":
                return
            combat = self.g.state()["state"].get("combat")
            now = (combat["first_strike_done"], combat["regular_damage_done"]) if combat else (True, True)
            if waiting["type"] == "Priority" and now != done:
                return
            if waiting["type"] == "AssignCombatDamage":
                self.assign_combat_damage(waiting["data"], spec.get("divide") or {})
                continue
            if waiting["type"] == "OrderTriggers":
                self.order_triggers(waiting["data"])
                continue
            if waiting["type"] == "Priority" and self.g.stack():
                raise Unsupported("the engine has something on the stack in its combat damage step")
            self.pass_once("the combat damage step")
        raise RuntimeError("the engine never dealt its combat damage")

    def assign_as_given(self, data, entries):
        """An attacker blocked by several creatures deals all its damage to the
        one the case names (the division is its controller's, 510.1c)."""
        back = {v: k for k, v in self.ids.items()}
        attacker = data["attacker_id"]
        to = next(e["to"] for e in entries if e["from"] == back.get(attacker))
        slots = [s["blocker_id"] for s in data["blockers"]]
        if self.ids.get(to) not in slots:
            raise Unsupported(f"{back.get(attacker)}, blocked by several creatures, deals its "
                              f"combat damage to {to}, not one of them")
        amounts = [[b, data["total_damage"] if b == self.ids[to] else 0] for b in slots]
        try:
            self.apply({"type": "AssignCombatDamage",
                        "data": {"mode": "Normal", "assignments": amounts, "trample_damage": 0,
                                 "controller_damage": 0}}, data["player"])
        except ValueError as e:
            raise Unsupported(f"the engine refuses {back.get(attacker)}'s combat damage all to "
                              f"{to}: {e}")

    def assign_combat_damage(self, data, divide):
        """The attacker's damage, divided as the case orders its blockers: lethal
        damage (the engine's `lethal_minimum`) to each in turn, the rest to the
        last one named, or with trample to what it attacks (702.19b)."""
        back = {v: k for k, v in self.ids.items()}
        attacker = data["attacker_id"]
        slots = {s["blocker_id"]: s["lethal_minimum"] for s in data["blockers"]}
        declared = [b for b in self.blockers.get(attacker, []) if b in slots]
        declared += [b for b in slots if b not in declared]
        named = divide.get(back.get(attacker), [])
        if any(h in self.player_ids for h in named[:-1]):
            raise Unsupported(f"a `divide` of {back.get(attacker)} with what it attacks before "
                              "a blocker")
        order = [self.ids[h] for h in named if h in self.ids and self.ids[h] in slots]
        order += [b for b in declared if b not in order]
        trample = data.get("trample") is not None
        to_player = trample and (not named or named[-1] in self.player_ids)
        left = data["total_damage"]
        amounts = {b: 0 for b in order}
        for b in order:
            give = min(left, slots[b])
            amounts[b] += give
            left -= give
        trample_damage = 0
        if left:
            if to_player:
                trample_damage = left
            else:
                last = self.ids[named[-1]] if named and named[-1] in self.ids \
                    and self.ids[named[-1]] in slots else order[-1]
                amounts[last] += left
        try:
            self.apply({"type": "AssignCombatDamage",
                        "data": {"mode": "Normal", "assignments": [[b, n] for b, n in amounts.items()],
                                 "trample_damage": trample_damage, "controller_damage": 0}},
                       data["player"])
        except ValueError as e:
            raise Unsupported(f"the engine refuses the division of {back.get(attacker)}'s combat "
                              f"damage {amounts} (+{trample_damage} trampling over): {e}")

    def offer(self, kind, data, what, player=0):
        """Declare attackers or blockers, as one of the choices the engine offers."""
        waiting = self.g.waiting_for()["data"]
        valid = waiting.get("valid_attacker_ids" if kind == "DeclareAttackers"
                            else "valid_blocker_ids", [])
        chosen = [x[0] for x in data["attacks" if kind == "DeclareAttackers" else "assignments"]]
        refused = [x for x in chosen if x not in valid]
        if kind == "DeclareBlockers":
            targets = waiting.get("valid_block_targets", {})
            refused += [b for b, a in data["assignments"] if a not in targets.get(str(b), [])]
        if refused:
            back = {v: k for k, v in self.ids.items()}
            raise Unsupported(f"the engine does not let {', '.join(back[x] for x in refused)} "
                              f"{what} as the case's combat damage needs")
        self.apply({"type": kind, "data": data}, player)
