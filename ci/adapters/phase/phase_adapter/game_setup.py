"""A case's setup in the engine: the card database and the decks, a new
game started from them, each object moved to its zone in setup order with
its counters, damage, tapped status and timestamp, the mana pools, and the
adapter's tools in the first player's hand."""

from .engine import LIBRARY_FORESTS, debug, start
from .oracle_text import DESTROY, EFFECT_SOURCE, PREVENT
from .refusals import exchanged
from .terms import ENGINE_ZONES, MANA_COLORS, SPELL_TYPES, Unsupported, fixed


class Setup:
    """`Game`'s setup: the game started and the case's objects in place."""

    def __init__(self, case):
        self.read_case(case)
        faces = self.card_faces(case)
        decks, dealt, spells = self.decks(case)
        self.engine, self.g, cards = start(faces, decks)
        self.place(cards, dealt, spells)

    def read_case(self, case):
        """What the case's steps need of the cards and the game: names, the
        abilities the adapter adds to objects, its own instants."""
        setup = case.get("setup", {})
        players = setup.get("players") or [{"id": "you"}, {"id": "opponent"}]
        self.player_ids = {p["id"]: i for i, p in enumerate(players)}
        self.controlled = {}  # who controls an object after a control change, by the engine
        self.player_specs = players
        self.objects = setup.get("objects", [])
        self.handles = [o["id"] for o in self.objects]
        self.case = case
        self.mana_letters = self.mana_abilities(case)
        self.exchanges = {}
        for i, step in enumerate(case.get("steps", [])):
            if isinstance(step["do"], dict) and "exchange" in step["do"]:
                handle, stat = exchanged(step["do"]["exchange"], case,
                                         next(iter(self.player_ids)), f"step {i + 1}")
                if stat not in self.exchanges.setdefault(handle, []):
                    self.exchanges[handle].append(stat)
        self.names = self.card_names()
        self.amounts = self.damage_amounts(case)
        self.chapters = {}  # Saga -> chapter number -> the handle it targets
        self.labels = {}  # object with P/T chosen as it enters -> P/T -> the engine's label
        self.copy_target = None  # what the object entering now copies
        self.choosing = None  # the engine's label of the P/T it chooses as it enters
        # Objects the case has enter as a copy: Clone's ability (707.2).
        self.clones = {step["do"]["move"]["object"] for step in case.get("steps", [])
                       if isinstance(step["do"], dict) and "move" in step["do"]
                       and step["do"]["move"].get("copy")}
        # Equipment the case attaches: its own equip ability (702.6a).
        self.equips = {step["do"]["attach"]["object"] for step in case.get("steps", [])
                       if isinstance(step["do"], dict) and "attach" in step["do"]}
        self.payers = self.payer_faces(case)
        self.pumps = self.pump_faces(case)
        self.regenerating = {o["id"] for o in self.objects if o.get("regeneration_shields")} | {
            s["do"]["regenerate"] for s in case.get("steps", [])
            if isinstance(s["do"], dict) and "regenerate" in s["do"]}

    def decks(self, case):
        """The libraries: each player's objects, the adapter's instants and
        effect source, a card of a spell's face per damage it deals, and
        `LIBRARY_FORESTS` Forests. Also the spell dealing each damage step
        a spell deals (handles, in step order), and the case's instants and
        sorceries by handle."""
        decks = [[], []]
        decks[0] += [DESTROY] * self.destroys
        decks[0] += [f"{PREVENT} {n}" for n in self.preventions]
        for o in self.objects:
            decks[self.controller(o)].append(self.names[o["id"]])
        if self.locked:
            decks[0].append(EFFECT_SOURCE)
        decks[0] += [name for name, _ in self.payers]
        for name, _, caster in self.pumps:
            decks[self.player_ids[caster]].append(name)
        # One card of an instant's or sorcery's face per damage it deals.
        spells = {o["id"]: o for o in self.objects if set(o.get("types", [])) & SPELL_TYPES}
        dealt = [s["do"]["damage"]["from"] for s in case.get("steps", [])
                 if isinstance(s["do"], dict) and "damage" in s["do"]
                 and s["do"]["damage"]["from"] in spells]
        for handle in dealt:
            decks[self.controller(spells[handle])].append(self.names[handle])
        decks = [d + ["Forest"] * LIBRARY_FORESTS for d in decks]
        return decks, dealt, spells

    def place(self, cards, dealt, spells):
        """Each object moved to its zone in setup order (its timestamp, 613.7d),
        with its counters, tapped status, attachments; then what is state, not
        actions (life, poison, damage), the mana pools and the tools."""
        # ptoracle numbers timestamps with one counter from 1 (docs/protocol.md,
        # "Timestamps"): the adapter keeps the same count, so that an effect
        # without an explicit timestamp gets the number the case means.
        self.next_ts = 1
        self.counting = False  # not while the setup is being put in place
        self.timestamps = {}
        self.ids = {}
        self.losers, self.taken_out = set(), set()
        self.life_offset, self.poison_offset = {}, {}
        taken = set()
        self.inert = set()  # the setup's spells on the stack: never resolved
        self.unchecked = None  # the step whose check before priority is due
        for o in self.objects:  # timestamps follow the setup's order (613.7)
            name = self.names[o["id"]]
            oid = min(k for k, card, owner in cards
                      if card == name and k not in taken and owner == self.controller(o))
            taken.add(oid)
            self.ids[o["id"]] = oid
            self.timestamps[o["id"]] = self.timestamp(o.get("timestamp"))
            if o.get("zone") == "stack":
                self.move(oid, "Stack")
                self.inert.add(oid)
                continue
            zone = ENGINE_ZONES[o.get("zone", "battlefield")]
            if zone != "Battlefield":
                self.move(oid, zone)
                for kind, n in o.get("counters", {}).items():
                    if n:
                        self.counters(oid, kind, n)
                continue
            if o.get("face_down"):
                # The engine's own way to a face-down permanent (708.2a): the
                # card is played face down from its owner's hand.
                self.move(oid, "Hand")
                self.apply({"type": "PlayFaceDown",
                            "data": {"object_id": oid, "card_id": self.g.object(oid)["card_id"]}})
            self.move(oid, "Battlefield")
            self.apply(debug("SetSummoningSickness", {"object_id": oid, "sick": bool(o.get("sick"))}))
            if o.get("tapped"):
                self.apply(debug("SetTapped", {"object_id": oid, "tapped": True}))
            for kind, n in o.get("counters", {}).items():
                if n:
                    self.counters(oid, kind, n)
        self.casts = {}  # spell -> the cards of its face that deal its damage
        for handle in dealt:
            card = min(k for k, name, owner in cards if name == self.names[handle]
                       and k not in taken and owner == self.controller(spells[handle]))
            taken.add(card)
            self.casts.setdefault(handle, []).append(card)
        for o in self.objects:
            if o.get("attached_to"):
                host = {"type": "Object", "data": self.ids[o["attached_to"]]}
                self.apply(debug("Attach", {"object_id": self.ids[o["id"]], "target": host}))
        if self.locked:
            self.effect_source = next(k for k, card, _ in cards if card == EFFECT_SOURCE)
            self.move(self.effect_source, "Battlefield")
        self.write_setup_state()
        self.setup_mana()
        self.setup_tools()
        self.counting = True

    def controller(self, o):
        if o["id"] in self.controlled:
            return self.controlled[o["id"]]
        return self.player_ids.get(o.get("controller"), 0)

    def setup_mana(self):
        """The setup's mana pools: the engine's `AddMana` debug action; the
        part snow sources made is marked as the engine marks it (107.4h)."""
        for p in self.player_specs:
            pool = p.get("mana") or {}
            snow = dict(p.get("snow_mana") or {})
            for letter, n in pool.items():
                if n > 0:
                    self.add_mana(self.player_ids[p["id"]], letter, n,
                                  min(n, snow.pop(letter, 0)))
            if any(snow.values()):
                raise Unsupported(f"player {p['id']}: snow mana beyond the mana in the pool")

    def add_mana(self, player, letter, n, snow=0):
        self.apply(debug("AddMana", {"player_id": player, "mana": [MANA_COLORS[letter]] * n}))
        if snow:
            state = self.g.state()
            pool = state["state"]["players"][player]["mana_pool"]["mana"]
            for m in pool[len(pool) - snow:]:
                m["snow"] = True
            self.g = self.engine.load_game(state)

    def write_setup_state(self):
        """Setup values that are state, not actions: life, poison, damage."""
        state = self.g.state()
        s = state["state"]
        for p in self.player_specs:
            player = s["players"][self.player_ids[p["id"]]]
            player["life"] = p.get("life", 20)
            player["poison_counters"] = p.get("poison", 0)
        for o in self.objects:
            obj = s["objects"][str(self.ids[o["id"]])]
            obj["damage_marked"] = o.get("damage", 0)
            obj["dealt_deathtouch_damage"] = bool(o.get("deathtouch_damage", False))
            obj["timestamp"] = self.timestamps[o["id"]]  # 613.7d
            if o.get("enters_as") and o.get("zone", "battlefield") == "battlefield" \
                    and not o.get("face_down"):
                # The choice made as it entered (208.2b), where the engine's
                # replacement records it (face down, it made none, 708.3).
                label = self.labels[o["id"]][o.get("choose") or o["enters_as"][0]["pt"]]
                obj["chosen_attributes"] = [{"type": "Label", "value": label}]
        s["layers_dirty"] = True
        self.g = self.engine.load_game(state)

    def setup_tools(self):
        """The destroy spells go to the first player's hand; setup regeneration
        shields are written on their objects, in the shape the engine's
        resolved regenerate ability gives them (activating it would give a
        player priority, which checks state-based actions before any step)."""
        objs = self.g.state()["state"]["objects"]
        self.tools = sorted(int(k) for k, v in objs.items()
                            if v["name"] == DESTROY or v["name"].startswith(PREVENT + " "))
        for oid in self.tools:
            self.move(oid, "Hand")
        if not any(o.get("regeneration_shields") for o in self.objects):
            return
        state = self.g.state()
        for o in self.objects:
            for _ in range(fixed(o.get("regeneration_shields") or 0, o["id"])):
                state["state"]["objects"][str(self.ids[o["id"]])]["replacement_definitions"].append({
                    "condition": None, "description": "Regenerate", "event": "Destroy",
                    "execute": None, "expiry": {"type": "EndOfTurn"},
                    "mode": {"type": "Mandatory"}, "origin": "Resolution",
                    "shield_kind": "Regeneration", "valid_card": {"type": "SelfRef"}})
        self.g = self.engine.load_game(state)
