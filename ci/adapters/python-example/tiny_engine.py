"""A tiny rules engine for power and toughness: the engine the example
adapter wraps. It stands for *your* engine: replace it, keep the adapter.

It knows creatures and other permanents on the battlefield with printed
power and toughness, P/T counters (+1/+1, -1/-1, +1/+0, ...), effects that
set, modify or switch P/T until end of turn or indefinitely, noncombat
damage (deathtouch included), indestructible, the cleanup step and
state-based actions 704.5a/f/g/h/q. Nothing else: the adapter declares
exactly this, and refuses the rest.
"""

import re

PT_COUNTER = re.compile(r"^([+-])(\d+)/([+-])(\d+)$")


class Invalid(Exception):
    """A step this engine's game cannot play (it names an object that is
    no longer on the battlefield, say)."""


class Card:
    """One object. A creature that dies becomes a new object in the
    graveyard (400.7) and keeps its last known information (704.8)."""

    def __init__(self, spec):
        self.handle = spec["id"]
        self.types = list(spec.get("types", []))
        self.colors = list(spec.get("colors", []))
        self.keywords = list(spec.get("keywords", []))
        power, toughness = spec.get("pt", "0/0").split("/") if "pt" in spec else (None, None)
        self.printed = None if power is None else (int(power), int(toughness))
        self.zone = "battlefield"
        self.counters = {k: v for k, v in spec.get("counters", {}).items() if v}
        self.damage = spec.get("damage", 0)
        self.deathtouch_damage = spec.get("deathtouch_damage", False)
        self.tapped = spec.get("tapped", False)
        self.generation = 0
        self.lki = None

    def is_creature(self):
        return "Creature" in self.types


class Effect:
    """A resolved effect: the objects it affects are fixed as it resolves
    (611.2c), and it stops applying to one that leaves the battlefield."""

    def __init__(self, spec, affected, order):
        self.affected = affected  # [(card, generation)]
        self.until = spec["until"]
        self.order = order
        x = spec.get("x", 0)
        self.set = parse_set(spec["set"], x) if "set" in spec else None
        self.modify = parse_modify(spec["modify"], x) if "modify" in spec else None
        self.switch = spec.get("switch", False)

    def applies_to(self, card):
        return (card, card.generation) in self.affected


def parse_set(text, x):
    """`3/4` or `X/X`; a set value may be negative (107.1b)."""
    p, t = text.split("/")
    return (x if p == "X" else int(p), x if t == "X" else int(t))


def parse_modify(text, x):
    """`+3/-1` or `+X/+0`; a negative X in +X becomes 0 (107.1b)."""
    out = []
    for part in text.split("/"):
        sign = -1 if part[0] == "-" else 1
        body = part[1:]
        out.append(sign * (max(0, x) if body == "X" else int(body)))
    return tuple(out)


def counter_pt(kind):
    """The P/T change of a +X/+Y or -X/-Y counter, or None."""
    m = PT_COUNTER.match(kind)
    if not m:
        return None
    p = int(m.group(2)) * (1 if m.group(1) == "+" else -1)
    t = int(m.group(4)) * (1 if m.group(3) == "+" else -1)
    return (p, t)


class Game:
    def __init__(self, setup):
        self.players = {"you": {"life": 20, "lost": False}, "opponent": {"life": 20, "lost": False}}
        for p in setup.get("players", []):
            self.players[p["id"]] = {"life": p.get("life", 20), "lost": False}
        self.cards = [Card(o) for o in setup.get("objects", [])]
        self.by_handle = {c.handle: c for c in self.cards}
        self.effects = []

    # ---- characteristics -------------------------------------------------

    def pt(self, card):
        """Power and toughness through layer 7 (613.4), and base P/T."""
        if not card.is_creature() or card.printed is None:
            return None, None
        power, toughness = card.printed
        mine = [e for e in self.effects if e.applies_to(card)] if card.zone == "battlefield" else []
        # 7b: setting effects, in timestamp order.
        for e in mine:
            if e.set is not None:
                power, toughness = e.set
        base = (power, toughness)
        # 7c: modifications and counters; a sum, so their order is moot.
        # (P/T counters count on a creature card in another zone too, 122.1a.)
        for e in mine:
            if e.modify is not None:
                power += e.modify[0]
                toughness += e.modify[1]
        for kind, n in card.counters.items():
            delta = counter_pt(kind)
            if delta:
                power += delta[0] * n
                toughness += delta[1] * n
        # 7d: each switch swaps.
        for e in mine:
            if e.switch:
                power, toughness = toughness, power
        return (power, toughness), base

    def observe_card(self, card):
        pt, base = self.pt(card)
        return {
            "zone": card.zone,
            "types": card.types,
            "colors": card.colors,
            "power": pt[0] if pt else None,
            "toughness": pt[1] if pt else None,
            "base_power": base[0] if base else None,
            "base_toughness": base[1] if base else None,
            "total": pt[0] + pt[1] if pt else None,
            "combat_damage": max(0, pt[0]) if pt else None,
            "counters": dict(card.counters),
            "damage": card.damage,
            "deathtouch_damage": card.deathtouch_damage,
            "keywords": card.keywords,
            "tapped": card.tapped,
            "regeneration_shields": 0,
            "attached_to": None,
            "lki": card.lki,
        }

    def observe(self):
        return {
            "objects": {c.handle: self.observe_card(c) for c in self.cards},
            "players": {
                h: {"life": p["life"], "poison": 0, "mana": {}, "lost": p["lost"]}
                for h, p in self.players.items()
            },
        }

    # ---- steps -------------------------------------------------------------

    def on_battlefield(self, handle):
        card = self.by_handle[handle]
        if card.zone != "battlefield":
            raise Invalid(f"{handle} is in the {card.zone}, not on the battlefield")
        return card

    def put_counters(self, a):
        card = self.by_handle[a["on"]]
        card.counters[a["kind"]] = card.counters.get(a["kind"], 0) + a.get("count", 1)

    def remove_counters(self, a):
        card = self.by_handle[a["from"]]
        left = card.counters.get(a["kind"], 0) - a.get("count", 1)
        if left > 0:
            card.counters[a["kind"]] = left
        else:
            card.counters.pop(a["kind"], None)

    def effect(self, spec):
        cards = [self.on_battlefield(h) for h in spec["affects"]]
        affected = [(c, c.generation) for c in cards]
        self.effects.append(Effect(spec, affected, len(self.effects)))

    def damage(self, a):
        amount = a["amount"]
        source = self.by_handle[a["from"]]
        if amount <= 0:
            return
        if a["to"] in self.players:
            self.players[a["to"]]["life"] -= amount
            return
        target = self.on_battlefield(a["to"])
        if not target.is_creature():
            return  # 120.1a: only creatures, planeswalkers and battles
        target.damage += amount
        if "deathtouch" in source.keywords:
            target.deathtouch_damage = True

    def cleanup(self):
        # 514.2: damage goes and "until end of turn" effects end together.
        for c in self.cards:
            if c.zone == "battlefield":
                c.damage = 0
        self.effects = [e for e in self.effects if e.until != "end-of-turn"]

    def state_based_actions(self):
        """704.3: every applicable action at once, again until none applies."""
        for _ in range(1000):
            dies, annihilate, lose = [], [], []
            for h, p in self.players.items():
                if p["life"] <= 0 and not p["lost"]:
                    lose.append(h)  # 704.5a
            for c in self.cards:
                if c.zone != "battlefield":
                    continue
                pt, _ = self.pt(c)
                if pt is not None:
                    toughness = pt[1]
                    sturdy = "indestructible" in c.keywords
                    if toughness <= 0:
                        dies.append(c)  # 704.5f, indestructible or not
                    elif not sturdy and (c.damage >= toughness or c.deathtouch_damage):
                        dies.append(c)  # 704.5g, 704.5h
                plus, minus = c.counters.get("+1/+1", 0), c.counters.get("-1/-1", 0)
                if plus and minus:
                    annihilate.append((c, min(plus, minus)))  # 704.5q
            lki = {c.handle: self.observe_card(c) for c in dies}
            for c in self.cards:
                c.deathtouch_damage = False
            if not (dies or annihilate or lose):
                return
            for h in lose:
                self.players[h]["lost"] = True
            for c, n in annihilate:
                if c in dies:
                    continue
                for kind in ("+1/+1", "-1/-1"):
                    c.counters[kind] -= n
                    if not c.counters[kind]:
                        del c.counters[kind]
            for c in dies:
                c.lki = lki[c.handle]
                c.lki["lki"] = None
                c.zone = "graveyard"
                c.generation += 1
                c.counters = {}
                c.damage = 0
                c.tapped = False
        raise Invalid("state-based actions never settle")

    def play(self, step):
        """Plays one step (a `do` of the scenario format)."""
        action = step["do"]
        if action == "cleanup":
            self.cleanup()
        elif action == "state_based_actions":
            self.state_based_actions()
            return
        else:
            (name, body), = action.items()
            getattr(self, name)(body)
        if step.get("sba", True):
            self.state_based_actions()


def run(case):
    """Plays a case: the observation after each step, and the error that
    stopped it, if any, as (steps, error)."""
    game = Game(case.get("setup", {}))
    observations = []
    for k, step in enumerate(case["steps"]):
        try:
            game.play(step)
        except Invalid as e:
            return observations, {"step": k, "code": "invalid", "message": str(e)}
        observations.append(game.observe())
    return observations, None
