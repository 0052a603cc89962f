#!/usr/bin/env python3
"""ptoracle's engine protocol (version 1) in front of python-mtg (PyPI
`python-mtg`, import name `mtg`). See README.md here.

python-mtg keeps a game as a dict of relations (Datalog facts) and derives
its rules from them in a compiled Souffle program; its Python driver
(`mtg.driver`) casts spells, resolves the stack and applies what the
program derives. The adapter builds the engine's first game once (about
two seconds) and, for every case, a position from it:

- setup (facts, as the engine's own game setup writes them): one card per
  object with its printed types, colors, P/T and keywords
  (`card_*`/`printed_*`), on the battlefield under its controller, with its
  counters (`counter`), marked damage (`marked`) and tapped status; life
  totals;
- every step that changes a creature is a spell the engine casts and
  resolves with its own driver (`_cast_spell`: mana, the stack, priority,
  resolution, the target forced through the engine's choice seam
  `_forced`): `put_counters` is "put N +1/+1 (-1/-1) counters on target
  creature", an `effect` is "target creature gets +a/+b", "... becomes a/b"
  or "switch target creature's P/T", `damage` is "deals N damage to target
  creature/player";
- state-based actions are what the engine derives for a step
  (`driver.OUTPUTS`), applied by its driver (`_apply_outputs`), as it does
  between two steps of a turn.

Anything else is answered `unsupported` with the reason; the adapter never
computes a rules result itself. Only protocol messages go to stdout.
"""

import contextlib
import io
import json
import os
import sys
from pathlib import Path

# The protocol loop the Python adapters share, ci/adapters/ptoracle_adapter.py.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from ptoracle_adapter import (Unsupported, answer, distribution_version,  # noqa: E402
                              hello_reply, reproducer, serve)

EDITIONS = ["2026-09-25"]
FEATURES = [
    "counters",
    "set",
    "modify",
    "switch",
    "damage",
    "indestructible",
    "destroy",
    "regeneration",
    "deferred-sba",
    "zones",
    "cleanup",
]
# Not exposed by the engine: base P/T (no output relation), deathtouch
# damage and last known information are not derived outputs of its
# program.
UNOBSERVED = ["base_power", "deathtouch_damage", "lki"]

# The keywords the engine knows (its `engine_keyword`), by ptoracle's name.
KEYWORDS = {
    "flying": "flying", "reach": "reach", "trample": "trample", "vigilance": "vigilance",
    "haste": "haste", "first strike": "first_strike", "double strike": "double_strike",
    "menace": "menace", "defender": "defender", "hexproof": "hexproof",
    "indestructible": "indestructible",
}
KEYWORD_NAMES = {v: k for k, v in KEYWORDS.items()}
COUNTERS = {"+1/+1": "p1p1", "-1/-1": "m1m1"}
COUNTER_NAMES = {v: k for k, v in COUNTERS.items()}
TYPES = {"Creature", "Artifact", "Enchantment", "Land"}
COLORS = {"white", "blue", "black", "red", "green"}
SEATS = ("alice", "bob")  # the engine's two players
# The engine's relations that describe cards and their instances: emptied
# in the position every case starts from (the demo game's cards go).
CARD_RELATIONS = [
    "on_battlefield", "in_hand", "in_library", "graveyard", "exile", "instance_of",
    "printed_type", "printed_subtype", "printed_color", "printed_control", "printed_power",
    "printed_toughness", "printed_keyword", "has_supertype", "land_produces", "mana_cost",
    "mana_generic", "mana_pip", "spell_type", "mana_pool", "mana_available", "counter",
    "tapped", "_sick", "card_type", "card_power", "card_toughness", "card_keyword",
    "card_color", "card_subtype", "card_ability", "card_effect", "ability_trigger",
    "_land_played", "marked", "spell_target", "poison", "_regen_shield",
]
ZONES = [("on_battlefield", "battlefield"), ("graveyard", "graveyard"), ("exile", "exile"),
         ("in_hand", "hand"), ("in_library", "library")]
# The zones a setup object may be in: the engine's own relations for them.
SETUP_ZONES = {"battlefield", "graveyard", "exile", "hand", "library"}
# Moves the engine's spells make: "exile target creature" and "return target
# creature to its owner's hand" (its `exile` and `return_to_hand` verbs).
MOVES = {"exile": "exile", "hand": "return_to_hand"}


def hello(offer):
    """The handshake's reply; the engine's first game takes seconds, so it is
    built now, before the first case (pipelining is not accepted)."""
    engine()
    from reproduce import RUN
    return hello_reply({"name": "python-mtg", "version": distribution_version("python-mtg"),
                        "issues": "https://github.com/yevbar/witchcraft/issues"},
                       FEATURES, EDITIONS, UNOBSERVED, offer=offer,
                       reproducer=reproducer("python", "py", RUN))


# ---- what the adapter can map -----------------------------------------------


def fixed(value, where):
    """An amount that is a number; amounts read from the game are not mapped."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unsupported(f"{where}: an amount read from the game ({json.dumps(value)})")
    return value


def parse_pt(text, where, x=None, signed=False):
    out = []
    for part in text.split("/"):
        sign, body = 1, part
        if signed:
            sign = -1 if part[0] == "-" else 1
            body = part[1:]
        if body == "X":
            if x is None:
                raise Unsupported(f"{where}: X without a value")
            if signed and x < 0:
                raise Unsupported(f"{where}: +X with a negative X (107.1b)")
            value = x
        elif body.lstrip("-").isdigit():
            value = int(body)
        else:
            raise Unsupported(f"{where}: the value {text!r} (characteristic-defining or `*`)")
        out.append(sign * value)
    return out


def refuse(case):
    """Raises Unsupported, naming the first thing of the case the adapter does
    not map onto python-mtg."""
    setup = case.get("setup", {})
    handles = refuse_players(setup.get("players") or [])
    for o in setup.get("objects", []):
        refuse_object(o)
    refuse_steps(case, handles)


def refuse_players(players):
    """Refuses what the engine's two players cannot start with; returns the
    players' handles."""
    if len(players) > 2:
        raise Unsupported("more than two players")
    for p in players:
        if p.get("poison"):
            raise Unsupported(f"player {p['id']}: poison counters in the setup")
        if p.get("mana") or p.get("snow_mana"):
            raise Unsupported(f"player {p['id']}: a mana pool in the setup")
        if p.get("hand"):
            raise Unsupported(f"player {p['id']}: a hand size")
        fixed(p.get("life", 20), f"player {p['id']}: life")
    return {p["id"] for p in players} or {"you", "opponent"}


def refuse_object(o):
    """Refuses a setup object the engine's cards cannot be."""
    where = f"setup object {o['id']}"
    if o.get("zone") == "stack":
        raise Unsupported(f"{where}: a card on the stack that no step casts (the engine's stack "
                          "holds the spells its driver casts)")
    if o.get("zone", "battlefield") not in SETUP_ZONES:
        raise Unsupported(f"{where}: a card in the {o['zone']} zone")
    for key in ("cda", "abilities", "level_up", "crew", "attached_to", "max_counters",
                "loyalty", "timestamp", "sick", "enters_with",
                "chapters", "counter_triggers", "x", "x_is", "on_resolve",
                "choose", "enters_as", "cant_have_counters_put", "counters_put_by", "snow"):
        if o.get(key) not in (None, False, [], {}):
            raise Unsupported(f"{where}: `{key}`")
    for t in o.get("types", []):
        if t not in TYPES:
            raise Unsupported(f"{where}: the card type {t}")
    if "pt" in o:
        parse_pt(o["pt"], where)
    for kind, n in o.get("counters", {}).items():
        if kind not in COUNTERS:
            raise Unsupported(f"{where}: {kind} counters (the engine counts +1/+1 and -1/-1)")
        fixed(n, where)
    for k in o.get("keywords", []):
        if k not in KEYWORDS:
            raise Unsupported(f"{where}: the keyword {k}")
    fixed(o.get("damage", 0), where)
    if fixed(o.get("regeneration_shields", 0), where) > 1:
        raise Unsupported(f"{where}: more than one regeneration shield (the engine keeps "
                          "one per creature at most: a set of creatures)")
    if o.get("deathtouch_damage"):
        raise Unsupported(f"{where}: deathtouch damage in the setup")


def refuse_steps(case, handles):
    """Refuses a step the adapter does not map onto the engine's spells."""
    setup = case.get("setup", {})
    cleanup = any(step["do"] == "cleanup" for step in case.get("steps", []))
    for i, step in enumerate(case.get("steps", [])):
        action = step["do"]
        where = f"step {i + 1}"
        if action == "state_based_actions":
            continue
        if action == "cleanup":
            # The engine keeps no marked damage of its own outside combat
            # (bug 3); the setup's is an input its cleanup never removes.
            for o in setup.get("objects", []):
                if o.get("damage"):
                    raise Unsupported(f"{where}: cleanup with damage marked in the setup (the "
                                      "engine marks no noncombat damage of its own to remove)")
            continue
        if isinstance(action, str):
            raise Unsupported(f"{where}: the step `{action}`")
        (name, body), = action.items()
        if name == "put_counters":
            if body["on"] in handles:
                raise Unsupported(f"{where}: counters on a player")
            if body["kind"] not in COUNTERS:
                raise Unsupported(f"{where}: {body['kind']} counters")
            if fixed(body.get("count", 1), where) < 1:
                raise Unsupported(f"{where}: putting no counters (the engine's spell puts 1 or more)")
            if body.get("by"):
                raise Unsupported(f"{where}: `by`")
        elif name == "effect":
            if not isinstance(body.get("affects"), list):
                raise Unsupported(f"{where}: an effect whose affected set is a filter")
            extra = set(body) - {"name", "source", "affects", "until", "x", "set", "modify", "switch"}
            if extra:
                raise Unsupported(f"{where}: effect parts {sorted(extra)}")
            if body.get("until") not in ("end-of-turn", "forever"):
                raise Unsupported(f"{where}: the duration {body.get('until')}")
            if body.get("until") == "forever" and cleanup and ("modify" in body or body.get("switch")):
                raise Unsupported(f"{where}: a lasting pump or switch before a cleanup (the engine's "
                                  "spells that pump or switch last until end of turn)")
            x = body.get("x")
            if x is not None:
                fixed(x, where)
            if "set" in body:
                parse_pt(body["set"], where, x)
            if "modify" in body:
                parse_pt(body["modify"], where, x, signed=True)
            if not any(k in body for k in ("set", "modify", "switch")):
                raise Unsupported(f"{where}: an effect that changes no P/T")
        elif name in ("destroy", "regenerate"):
            if body in handles:
                raise Unsupported(f"{where}: `{name}` on a player")
        elif name == "move":
            if body["to"] not in MOVES:
                raise Unsupported(
                    f"{where}: a move to the {body['to']} (the engine's spells move a creature from "
                    "the battlefield to exile or to its owner's hand; it puts one into a graveyard "
                    "only by destroying or sacrificing it, and onto the battlefield only by "
                    "reanimation that picks the card itself)")
            for key in set(body) - {"object", "to"}:
                raise Unsupported(f"{where}: a move with `{key}`")
        elif name == "damage":
            if fixed(body["amount"], where) < 0:
                raise Unsupported(f"{where}: negative damage")
            if not step.get("sba", True) and body["to"] not in handles:
                raise Unsupported(
                    f"{where}: damage with state-based actions deferred (the engine destroys a "
                    "creature dealt lethal damage as the spell resolves)")
            for key in set(body) - {"from", "to", "amount"}:
                raise Unsupported(f"{where}: damage with `{key}`")
        else:
            raise Unsupported(f"{where}: the step `{name}`")


# ---- the engine -------------------------------------------------------------


class Engine:
    """One long-lived engine: the first game is built once, each case starts
    from a copy of its position with the cards taken out."""

    def __init__(self):
        # The engine's in-process backend loads each set of facts as a
        # difference from the one it evaluated before (its "delta" path),
        # and that gives results the same facts loaded whole do not (a
        # creature with lethal damage marked was not derived to die after a
        # spell had resolved; docs/engines/python-mtg.md). MTG_NO_DELTA=1,
        # the engine's own switch, loads every set whole: its rules, not its
        # cache, are what the gate compares. Read as the engine is imported.
        os.environ["MTG_NO_DELTA"] = "1"
        quiet = io.StringIO()
        with contextlib.redirect_stdout(quiet):
            import mtg
            from mtg import bridge_to_engine, driver
            self.driver = driver
            self.bridge = bridge_to_engine
            self.base = mtg.Game(seed=0).state
        for rel in CARD_RELATIONS:
            self.base[rel] = set()
        self.base.pop("_policy", None)

    def quietly(self, fn, *args):
        with contextlib.redirect_stdout(io.StringIO()):
            return fn(*args)

    def run(self, state, outputs):
        return self.quietly(self.driver.run, state, outputs)


ENGINE = None


def engine():
    global ENGINE
    if ENGINE is None:
        ENGINE = Engine()
    return ENGINE


class Game:
    def __init__(self, case):
        self.e = engine()
        d = self.e.driver
        # `clear_cache` is the engine's documented seam between independent
        # scenarios: it forgets the results it memoized (by set of facts)
        # and the facts its backend holds, so memory stays bounded.
        self.e.quietly(d.clear_cache)
        s = d.clone_state(self.e.base)
        setup = case.get("setup", {})
        players = setup.get("players") or [{"id": "you"}, {"id": "opponent"}]
        self.seat = {p["id"]: SEATS[i] for i, p in enumerate(players)}
        self.player_ids = [p["id"] for p in players]
        s["life"] = {(SEATS[i], p.get("life", 20)) for i, p in enumerate(players)}
        self.objects = setup.get("objects", [])
        self.handles = [o["id"] for o in self.objects]
        self.spells = 0
        self.s = s
        for o in self.objects:
            self.put_card(o)

    def controller(self, o):
        return self.seat.get(o.get("controller"), SEATS[0])

    def put_card(self, o):
        s, h = self.s, o["id"]
        slug = f"pt_card_{h}"
        s["instance_of"].add((h, slug))
        s["printed_control"].add((self.controller(o), h))
        for t in o.get("types", []):
            s["card_type"].add((slug, t.lower()))
            s["printed_type"].add((h, t.lower()))
            s["spell_type"].add((h, t.lower()))
        for c in o.get("colors", []):
            s["card_color"].add((slug, c))
            s["printed_color"].add((h, c))
        for k in o.get("keywords", []):
            s["card_keyword"].add((slug, KEYWORDS[k]))
            s["printed_keyword"].add((h, KEYWORDS[k]))
        if "pt" in o:
            p, t = parse_pt(o["pt"], h)
            s["card_power"].add((slug, p))
            s["card_toughness"].add((slug, t))
            s["printed_power"].add((h, p))
            s["printed_toughness"].add((h, t))
        # The printed mana cost, as the engine's game setup writes a card's
        # (`load` in bridge_to_engine): its mana value, generic part and
        # colored pips, by the engine's own parsers. No case the adapter
        # is sent reads it (202.1: a characteristic; casting, paying and
        # mana values are the `spells` feature it does not declare).
        cost = o.get("mana_cost")
        s["mana_cost"].add((h, self.e.bridge._mana_value(cost)))
        generic, pips = self.e.bridge._parse_cost(cost)
        s["mana_generic"].add((h, generic))
        for color, n in pips.items():
            s["mana_pip"].add((h, color, n))
        zone = o.get("zone", "battlefield")
        if zone == "battlefield":
            s["on_battlefield"].add((h,))
        elif zone == "hand":
            s["in_hand"].add((self.controller(o), h))
        elif zone == "library":
            s["in_library"].add((self.controller(o), h))
        else:
            s[zone].add((h,))
        for kind, n in o.get("counters", {}).items():
            if n:
                s["counter"].add((h, COUNTERS[kind], n))
        if o.get("damage"):
            s["marked"].add((h, o["damage"]))
        if o.get("tapped"):
            s["tapped"].add((h,))
        if o.get("regeneration_shields"):
            s["_regen_shield"].add((h,))

    # ---- steps --------------------------------------------------------------

    def cast(self, ctrl, target, effect=None, row=None):
        """Casts a new zero-cost instant through the engine's driver, its
        target forced through the engine's choice seam. The spell's meaning
        is a card effect (`effect`: verb, amount, target, extra) or the row
        the engine's card loader derives for a single-target creature spell
        (`row`: verb, payload, target class, as `spell_target` holds it)."""
        s = self.s
        self.spells += 1
        h = f"pt_spell_{self.spells}"
        slug = f"pt_card_{h}"
        s["card_type"].add((slug, "instant"))
        s["card_ability"].add((slug, "a0", "spell"))
        if effect is not None:
            verb, amount, tgt, extra = effect
            s["card_effect"].add((slug, "a0", 0, verb, amount, tgt, extra, "-"))
        if row is not None:
            # The engine's card parser writes "target creature gets +a/+b"
            # only for the amounts printed on real cards (its `pt_value`
            # table); its loader (bridge_to_engine) writes any other as this
            # row, which the resolution reads (`_run_spell_targets`).
            s["spell_target"].add((h,) + row)
        s["instance_of"].add((h, slug))
        s["printed_type"].add((h, "instant"))
        s["spell_type"].add((h, "instant"))
        s["printed_control"].add((ctrl, h))
        s["in_hand"].add((ctrl, h))
        s["mana_cost"].add((h, 0))
        s["mana_generic"].add((h, 0))
        castable = {sp for (p, sp) in self.e.run({**s, "has_priority": {(ctrl,)}}, ["can_cast"])["can_cast"]
                    if p == ctrl}
        if h not in castable:
            raise RuntimeError(f"the engine does not let {ctrl} cast {h}")
        s["has_priority"] = {(ctrl,)}
        s["_forced"] = {"target": target} if target is not None else {}
        players = sorted(p for (p,) in s["is_player"])
        self.e.quietly(self.e.driver._cast_spell, s, ctrl, h, players)
        s["_forced"] = {}
        return h

    def creature_target(self, handle, where):
        if handle not in self.handles:
            raise Unsupported(f"{where}: {handle} is not an object")
        if (handle,) not in self.s["on_battlefield"]:
            raise Unsupported(f"{where}: {handle} is not on the battlefield (the engine's spells "
                              "target creatures on the battlefield)")
        creatures = {c for (c,) in self.e.run(self.s, ["creature"])["creature"]}
        if handle not in creatures:
            raise Unsupported(f"{where}: {handle} is not a creature (the engine's spells target creatures)")
        return handle

    def cleanup(self):
        """The cleanup step as the engine's turn loop plays it (514.2): its
        driver ends the until-end-of-turn effects and the turn's shields
        (`_end_of_turn`); the state-based actions after it are the step's.
        The case's next steps happen in the same step of the turn as before
        (ptoracle's scenarios do not walk a turn)."""
        d = self.e.driver
        step = self.s.get("current_step")
        self.s["current_step"] = {("cleanup",)}
        self.e.quietly(d._end_of_turn, self.s)
        self.s["current_step"] = step

    def sba(self):
        d = self.e.driver
        out = self.e.run(self.s, d.OUTPUTS)
        loser = self.e.quietly(d._apply_outputs, self.s, out, SEATS[0])
        if loser:
            # As the engine's step does (env._advance_one): the game is over.
            self.s["_loser"] = loser

    def play(self, step, where):
        action = step["do"]
        if action == "state_based_actions":
            self.sba()
            return
        if action == "cleanup":
            self.cleanup()
            if step.get("sba", True):
                self.sba()
            return
        (name, body), = action.items()
        if name == "put_counters":
            tgt = self.creature_target(body["on"], where)
            kind = COUNTERS[body["kind"]]
            n = body.get("count", 1)
            self.cast(SEATS[0], tgt, row=("counter", f"{kind}:{n}", "any"))
        elif name == "effect":
            x = body.get("x")
            eot = body.get("until") == "end-of-turn"
            for h in body["affects"]:
                tgt = self.creature_target(h, where)
                if "set" in body:
                    p, t = parse_pt(body["set"], where, x)
                    self.cast(SEATS[0], tgt, row=("setpt_eot" if eot else "setpt", f"{p}/{t}", "any"))
                if "modify" in body:
                    p, t = parse_pt(body["modify"], where, x, signed=True)
                    self.cast(SEATS[0], tgt, row=("modify_pt", f"{p}/{t}", "any"))
                if body.get("switch"):
                    self.cast(SEATS[0], tgt, row=("switchpt", "-", "any"))
        elif name == "destroy":
            # "Destroy target creature": a spell of the engine's (its driver's
            # `destroy` verb honours indestructible and regeneration).
            tgt = self.creature_target(body, where)
            self.cast(SEATS[0], tgt, row=("destroy", "-", "any"))
        elif name == "regenerate":
            # "Regenerate target creature": a spell of the engine's.
            tgt = self.creature_target(body, where)
            self.cast(SEATS[0], tgt, row=("regenerate", "-", "any"))
        elif name == "damage":
            self.damage(body, where)
        elif name == "move":
            # "Exile target creature" / "return target creature to its
            # owner's hand": spells of the engine's (its driver's verbs).
            tgt = self.creature_target(body["object"], where)
            self.cast(SEATS[0], tgt, row=(MOVES[body["to"]], "-", "any"))
        if step.get("sba", True):
            self.sba()

    def damage(self, body, where):
        to, n = body["to"], body["amount"]
        if to in self.seat:
            # "deals N damage to target player" goes to an opponent of the
            # spell's controller: the spell is cast by the other player.
            victim = self.seat[to]
            ctrl = SEATS[1] if victim == SEATS[0] else SEATS[0]
            self.cast(ctrl, None, effect=("deal_damage", str(n), "target_player", "-"))
            return
        tgt = self.creature_target(to, where)
        # The engine's driver aims a damage spell at a creature of an
        # opponent of its controller, whatever target is chosen (it picks
        # one itself): the spell is cast by the other player.
        owner = next(p for (p, c) in self.s["printed_control"] if c == tgt)
        ctrl = SEATS[1] if owner == SEATS[0] else SEATS[0]
        # The target is chosen through the engine's seam as for any spell;
        # its damage spells do not read it (they pick a creature of their
        # own, findings/damage-spell-ignores-its-target.yaml): what the
        # engine did is what is observed.
        self.cast(ctrl, tgt, effect=("deal_damage", str(n), "target_creature", "-"))

    # ---- observations -------------------------------------------------------

    def observe_object(self, h, out):
        s = self.s
        zone = next((label for rel, label in ZONES if any(r[-1] == h for r in s.get(rel, ()))), None)
        if zone is None:
            raise RuntimeError(f"{h} is in no zone the engine knows")
        types = sorted(t.capitalize() for (c, t) in out["printed_type"] if c == h)
        creature = (h,) in out["creature"] or "Creature" in types
        power = one(out["power"], h, "power")
        tough = one(out["eff_toughness"], h, "toughness")
        if not creature or power is None or tough is None:
            power = tough = None
        counters = {}
        for (c, kind, n) in s.get("counter", ()):
            if c == h and n:
                counters[COUNTER_NAMES.get(kind, kind)] = n
        return {
            "zone": zone,
            "types": types,
            "colors": sorted(c for (o, c) in out["printed_color"] if o == h),
            "power": power,
            "toughness": tough,
            "total": power + tough if power is not None else None,
            "combat_damage": max(0, power) if power is not None else None,
            "counters": counters,
            "damage": sum(n for (c, n) in s.get("marked", ()) if c == h),
            "keywords": sorted(KEYWORD_NAMES.get(k, k.replace("_", " "))
                               for (c, k) in out["has_keyword"] if c == h),
            "tapped": (h,) in s.get("tapped", ()),
            "regeneration_shields": 1 if (h,) in s.get("_regen_shield", ()) else 0,
            "attached_to": None,
        }

    def observe(self):
        out = self.e.run(self.s, ["power", "eff_toughness", "creature", "printed_type",
                                  "printed_color", "has_keyword"])
        lost = {self.s["_loser"]} if self.s.get("_loser") else set()
        life = dict(self.s["life"])
        poison = dict(self.s.get("poison", ()))
        players = {}
        for h in self.player_ids:
            seat = self.seat[h]
            players[h] = {"life": life.get(seat, 0), "poison": poison.get(seat, 0), "mana": {},
                          "lost": seat in lost}
        return {"objects": {h: self.observe_object(h, out) for h in self.handles},
                "players": players}


def one(rows, h, what):
    """The value the engine derives for `h`, or None; two values are the
    engine's answer too, and the adapter does not pick one."""
    values = sorted({int(n) for (c, n) in rows if c == h})
    if len(values) > 1:
        raise RuntimeError(f"the engine derives {len(values)} values of {what} for {h}: "
                           f"{', '.join(map(str, values))}")
    return values[0] if values else None


def run(case):
    refuse(case)
    game = Game(case)
    observations = []
    for k, step in enumerate(case["steps"]):
        if game.s.get("_loser"):
            # The engine's game is over once a player has lost (104.2a):
            # it offers no more moves, while ptoracle's scenarios play on.
            raise Unsupported(f"step {k + 1}: a player has lost the game, which python-mtg ends there")
        game.play(step, f"step {k + 1}")
        observations.append(game.observe())
    return observations, None


def reproduce(message):
    """The reproduction a `reproduce` request asks for (reproduce.py beside
    this file), once the case is one the adapter plays."""
    import reproduce as write
    refuse(message["case"])
    return write.reproduce(message, sys.modules[__name__])


def main():
    serve(lambda message: answer(message, hello, run, EDITIONS,
                                 f"python-mtg implements today's rules, {EDITIONS[0]}",
                                 reproduce))


if __name__ == "__main__":
    main()
