#!/usr/bin/env python3
"""ptoracle's engine protocol (version 1) in front of phase.rs, through its
Python binding `phase-python` (import name `phase`). See README.md here.

For every case the adapter builds a card database from the scenario
itself (no MTGJSON): one card face per object, written as Oracle text and
parsed by phase.rs's own parser. It starts a two-player game, switches on
the engine's debug mode (the only way in this binding to put a known state
on the battlefield), and then plays each step with the engine's own
mechanisms wherever that is practical:

- damage: the source gets an activated ability "{0}: NAME deals N damage
  to any target." in its Oracle text; the adapter activates it, picks the
  target the engine offers, and lets it resolve. Deathtouch, wither,
  infect and lifelink are the source's keywords, parsed by the engine, so
  the damage results (120.3) are the engine's own;
- state-based actions: the engine's `RunStateBasedActions`;
- counters: the engine's `ModifyCounters` (debug action);
- effects (P/T, keywords, types, colors): written into the engine's list
  of continuous effects with their timestamps, exactly as its resolved
  spells write them (its layer system orders and applies them);
- static abilities: Oracle text on the card, parsed by the engine;
- combat damage: a real combat (attackers, blockers, the engine's combat
  damage step); cleanup: the engine's own turn walked through its cleanup;
- zones: the engine's zone changes (its debug action).

Anything else is answered `unsupported` with the reason; the adapter never
computes a rules result itself. Only protocol messages go to stdout.
"""

import json
import re
import sys
import traceback
from collections import OrderedDict

try:
    from importlib.metadata import version as _dist_version
except ImportError:  # pragma: no cover
    _dist_version = None

import phase

PROTOCOL = 1
EDITIONS = ["2026-09-25"]
FEATURES = [
    "counters",
    "set",
    "modify",
    "switch",
    "timestamps",
    "damage",
    "deathtouch",
    "wither",
    "infect",
    "lifelink",
    "indestructible",
    "deferred-sba",
    "spells",
    "zones",
    "combat-damage",
    "static-abilities",
    "ability-changes",
    "type-changes",
    "color-changes",
    "keyword-counters",
    "cleanup",
]
# Observation fields phase.rs does not expose (704.8 last known
# information, regeneration shields).
UNOBSERVED = ["lki", "regeneration_shields"]

# phase.rs stores P/T, counters and life as 32-bit integers.
LIMIT = 2**31 - 1

PT_COUNTER = re.compile(r"^([+-])(\d+)/([+-])(\d+)$")
COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
COLOR_NAMES = {"White": "white", "Blue": "blue", "Black": "black", "Red": "red", "Green": "green"}
MANA_LETTERS = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G", "Colorless": "C"}
# The zones a case may put an object in, by the engine's name.
ENGINE_ZONES = {
    "battlefield": "Battlefield",
    "graveyard": "Graveyard",
    "exile": "Exile",
    "hand": "Hand",
    "library": "Library",
}
ZONES = {
    "Battlefield": "battlefield",
    "Graveyard": "graveyard",
    "Exile": "exile",
    "Hand": "hand",
    "Library": "library",
    "Stack": "stack",
    "Command": "command",
}
# Keywords whose presence the adapter passes to the engine as Oracle text.
KEYWORDS = {
    "flying", "reach", "trample", "vigilance", "haste", "deathtouch", "lifelink",
    "wither", "infect", "indestructible", "first strike", "double strike", "menace",
    "defender", "hexproof", "shroud", "flash",
}


class Unsupported(Exception):
    """Something in the case the adapter cannot map onto phase.rs."""


class Invalid(Exception):
    """A step that is impossible in the engine's game."""


def engine_version():
    try:
        return _dist_version("phase-python") if _dist_version else "unknown"
    except Exception:  # noqa: BLE001 - metadata missing: say so
        return "unknown"


def hello():
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "engine": {
            "name": "phase.rs (phase-python)",
            "version": engine_version(),
            "issues": "https://github.com/phase-rs/phase/issues",
        },
        "features": FEATURES,
        "editions": EDITIONS,
        "unobserved": UNOBSERVED,
    }


# ---- what the adapter can map -----------------------------------------------


def counter_name(kind):
    """The engine's name of a P/T counter kind, or None."""
    if kind == "+1/+1":
        return "P1P1"
    if kind == "-1/-1":
        return "M1M1"
    if PT_COUNTER.match(kind) or kind in KEYWORDS:
        return kind  # keyword counters by their name (122.1b): "first strike"
    return None


def engine_keyword(k):
    """`first strike` -> `FirstStrike`, the engine's name of a keyword."""
    return "".join(w.capitalize() for w in k.split())


def fixed(value, where):
    """An amount that is a number; amounts read from the game are not mapped."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unsupported(f"{where}: an amount read from the game ({json.dumps(value)})")
    if abs(value) > LIMIT:
        raise Unsupported(f"{where}: {value} does not fit in phase.rs's 32-bit numbers")
    return value


def parse_pt(text, where, x=None, signed=False):
    parts = text.split("/")
    out = []
    for part in parts:
        sign = 1
        body = part
        if signed:
            sign = -1 if part[0] == "-" else 1
            body = part[1:]
        if body == "X":
            if x is None:
                raise Unsupported(f"{where}: X without a value")
            if signed and x < 0:
                # "+X" with a negative X is a rules question (107.1b) the
                # engine would answer with its own X; the adapter can't.
                raise Unsupported(f"{where}: +X with a negative X")
            value = x
        elif body.lstrip("-").isdigit():
            value = int(body)
        else:
            raise Unsupported(f"{where}: the value {text!r} (characteristic-defining or `*`)")
        out.append(fixed(sign * value, where))
    return out


def check(case):
    setup = case.get("setup", {})
    players = {p["id"] for p in setup.get("players", [])} or {"you", "opponent"}
    for p in setup.get("players", []):
        if p.get("mana"):
            raise Unsupported(f"player {p['id']}: a mana pool in the setup")
        if p.get("hand"):
            raise Unsupported(f"player {p['id']}: a hand size")
        fixed(p.get("life", 20), f"player {p['id']}: life")
    for o in setup.get("objects", []):
        where = f"setup object {o['id']}"
        if o.get("zone", "battlefield") not in ENGINE_ZONES:
            raise Unsupported(f"{where}: an object on the {o['zone']} in the setup "
                              "(spells are not put on the engine's stack)")
        for ability in o.get("abilities") or []:
            static_text(o.get("name") or o["id"], ability, players, o.get("controller"), where)
        for key in ("cda", "level_up", "crew", "attached_to", "max_counters",
                    "loyalty", "regeneration_shields", "x", "x_is", "on_resolve"):
            if o.get(key):
                raise Unsupported(f"{where}: `{key}`")
        if "timestamp" in o:
            fixed(o["timestamp"], where)
        if "pt" in o:
            parse_pt(o["pt"], where)
        for kind, n in o.get("counters", {}).items():
            if counter_name(kind) is None:
                raise Unsupported(f"{where}: {kind} counters")
            fixed(n, where)
        for k in o.get("keywords", []):
            if k not in KEYWORDS:
                raise Unsupported(f"{where}: the keyword {k}")
        fixed(o.get("damage", 0), where)
    for i, step in enumerate(case.get("steps", [])):
        action = step["do"]
        where = f"step {i + 1}"
        if action == "state_based_actions":
            continue
        if action == "cleanup":
            if not step.get("sba", True):
                raise Unsupported(f"{where}: the cleanup step with state-based actions deferred "
                                  "(the engine checks them as the next turn's upkeep gives "
                                  "priority, 704.3)")
            continue
        (name, body), = action.items()
        if name == "put_counters":
            if body["kind"] == "poison" and body["on"] in players:
                fixed(body.get("count", 1), where)
                continue
            if counter_name(body["kind"]) is None:
                raise Unsupported(f"{where}: {body['kind']} counters")
            fixed(body.get("count", 1), where)
        elif name == "remove_counters":
            if counter_name(body["kind"]) is None:
                raise Unsupported(f"{where}: {body['kind']} counters")
            fixed(body.get("count", 1), where)
        elif name == "effect":
            if not isinstance(body.get("affects"), list):
                raise Unsupported(f"{where}: an effect whose affected set is a filter")
            extra = set(body) - {"name", "source", "affects", "until", "x", "set", "modify",
                                 "switch", "timestamp", "add_keywords", "remove_keywords",
                                 "remove_all_abilities", "add_types", "remove_types",
                                 "set_colors"}
            if extra:
                raise Unsupported(f"{where}: effect parts {sorted(extra)}")
            for k in body.get("add_keywords", []) + body.get("remove_keywords", []):
                if k not in KEYWORDS:
                    raise Unsupported(f"{where}: the keyword {k}")
            if body.get("until") not in ("end-of-turn", "forever"):
                raise Unsupported(f"{where}: the duration {body.get('until')}")
            x = body.get("x")
            if x is not None:
                fixed(x, where)
            if "set" in body:
                parse_pt(body["set"], where, x)
            if "modify" in body:
                parse_pt(body["modify"], where, x, signed=True)
            if "timestamp" in body:
                fixed(body["timestamp"], where)
        elif name == "move":
            if body["to"] not in ENGINE_ZONES:
                raise Unsupported(f"{where}: a move to the {body['to']}")
            for kind, n in (body.get("counters") or {}).items():
                if counter_name(kind) is None:
                    raise Unsupported(f"{where}: entering with {kind} counters")
                fixed(n, where)
        elif name == "combat_damage":
            if not step.get("sba", True):
                raise Unsupported(f"{where}: combat damage with state-based actions deferred "
                                  "(the engine checks them before a player gets priority, 704.3)")
            for entry in body:
                if "amount" in entry:
                    raise Unsupported(f"{where}: combat damage with an amount of its own (the "
                                      "adapter lets the engine assign each creature's damage)")
        elif name in ("cast", "resolve", "pay_cost"):
            raise Unsupported(f"{where}: the step `{name}` (casting spells and resolving them "
                              "on the engine's stack is not mapped)")
        elif name == "damage":
            fixed(body["amount"], where)
            if not step.get("sba", True):
                raise Unsupported(
                    f"{where}: damage with state-based actions deferred (the ability resolves "
                    "through priority, which checks them, 704.3)")
        else:
            raise Unsupported(f"{where}: the step `{name}`")


def static_text(name, ability, players, controller, where):
    """A static ability of the case as Oracle text (611.3a), for the engine's
    parser, and the kinds of modification the parsed ability must have; the
    engine then applies it through its layer system."""
    extra = set(ability) - {"name", "affects", "modify", "set", "add_keywords",
                            "remove_keywords", "remove_all_abilities", "add_types"}
    if extra:
        raise Unsupported(f"{where}: a static ability with {sorted(extra)}")
    for k in ability.get("add_keywords", []) + ability.get("remove_keywords", []):
        if k not in KEYWORDS:
            raise Unsupported(f"{where}: the keyword {k}")
    affects = ability.get("affects")
    if affects == "self":
        subject, one = name, True
    elif isinstance(affects, dict):
        subject, one = filter_text(affects, players, controller, where), False
    else:
        raise Unsupported(f"{where}: a static ability that affects {json.dumps(affects)}")
    has, gets = ("has", "gets") if one else ("have", "get")
    parts, kinds = [], set()
    if ability.get("add_types"):
        if one or "set" in ability:
            raise Unsupported(f"{where}: a static ability that adds types "
                              + ("to its own object" if one else "and sets P/T"))
        nouns = [t.lower() + "s" for t in ability["add_types"]]
        parts.append(f"are {' '.join(nouns)} in addition to their other types")
        kinds.add("AddType")
    if ability.get("remove_all_abilities"):
        parts.append("loses all abilities" if one else "lose all abilities")
        kinds.add("RemoveAllAbilities")
    if ability.get("remove_keywords"):
        lose = "loses" if one else "lose"
        parts.append(f"{lose} " + " and ".join(ability["remove_keywords"]))
        kinds.add("RemoveKeyword")
    if "set" in ability:
        p, t = parse_pt(ability["set"], where)
        parts.append(f"{has} base power and toughness {p}/{t}")
        kinds |= {"SetPower", "SetToughness"}
    if "modify" in ability:
        p, t = parse_pt(ability["modify"], where, signed=True)
        parts.append(f"{gets} {p:+d}/{t:+d}")
        kinds |= {"AddPower", "AddToughness"}
    if ability.get("add_keywords"):
        parts.append(f"{has} " + " and ".join(ability["add_keywords"]))
        kinds.add("AddKeyword")
    if not parts:
        raise Unsupported(f"{where}: a static ability that changes nothing the adapter maps")
    return f"{subject} {' and '.join(parts)}.", kinds


TYPE_NOUNS = {"Creature": "creatures", "Artifact": "artifacts", "Enchantment": "enchantments",
              "Land": "lands", "Planeswalker": "planeswalkers"}


def filter_text(f, players, controller, where):
    """`{types: [Creature], controller: you, other: true}` -> `Other creatures you control`."""
    extra = set(f) - {"types", "not_types", "controller", "other", "colors", "subtypes",
                      "power_at_most", "power_at_least", "toughness_at_most",
                      "toughness_at_least"}
    types = f.get("types", [])
    if extra or len(types) != 1 or types[0] not in TYPE_NOUNS or len(f.get("not_types", [])) > 1:
        raise Unsupported(f"{where}: a static ability whose filter is {json.dumps(f)}")
    words = ["Other"] if f.get("other") else []
    words += [c for c in f.get("colors", [])]
    words += ["non" + t.lower() for t in f.get("not_types", [])]
    words += f.get("subtypes", [])
    words.append(TYPE_NOUNS[types[0]])
    if "controller" in f:
        if f["controller"] not in players:
            raise Unsupported(f"{where}: a filter on the controller {f['controller']}")
        words.append("you control" if f["controller"] == controller else "your opponents control")
    bounds = [(k, v) for k, v in f.items() if k.endswith(("_at_most", "_at_least"))]
    if len(bounds) > 1:
        raise Unsupported(f"{where}: a filter with several bounds on P/T")
    for key, value in bounds:
        stat = key.split("_")[0]
        words.append(f"with {stat} {fixed(value, where)} or "
                     + ("less" if key.endswith("most") else "greater"))
    if len(words) == 1:
        words.insert(0, "all")
    text = " ".join(words)
    return text[0].upper() + text[1:]


# ---- the game ---------------------------------------------------------------


# ---- what is reused between cases -------------------------------------------
#
# Building the engine and a game costs more than playing most cases, almost
# all of it in the binding's state round trips (Game.state, Engine.load_game),
# so the adapter keeps, between cases, what a case cannot change: the card
# faces built from their Oracle text, the engines (an Engine is only a card
# database: games are made from it, it is never modified), and the state of
# a new game once it is ready for the setup (debug mode on, both hands kept,
# the first player's main phase), from which every case's game is loaded
# afresh. The game itself is never shared.

FOREST = {"name": "Forest", "manaCost": "", "colors": [], "colorIdentity": [],
          "type": "Basic Land — Forest", "types": ["Land"], "subtypes": ["Forest"],
          "supertypes": ["Basic"], "text": "({T}: Add {G}.)", "layout": "normal",
          "manaValue": 0, "identifiers": {}}


class Lru:
    def __init__(self, size):
        self.size = size
        self.items = OrderedDict()

    def get(self, key, make):
        if key in self.items:
            self.items.move_to_end(key)
            return self.items[key]
        value = make()
        self.items[key] = value
        if len(self.items) > self.size:
            self.items.popitem(last=False)
        return value


FACES = Lru(4096)   # face spec (JSON) -> the face phase.rs built from it
ENGINES = Lru(64)   # the card database (JSON) -> Engine
STARTS = Lru(256)   # (card database, decks) -> a ready game's state and its cards


def oracle_face(spec):
    key = json.dumps(spec, sort_keys=True)
    return json.loads(FACES.get(key, lambda: json.dumps(phase.build_oracle_face(spec, None))))


class Engine:
    """A phase.Engine that is given states as JSON text: the binding reads
    that faster than a Python dict."""

    def __init__(self, engine):
        self.engine = engine

    def load_game(self, state):
        return self.engine.load_game(state if isinstance(state, str) else json.dumps(state))


def start(faces, decks):
    """An engine for these faces and the state of a new game with these
    decks, ready for the setup, with its cards (id, name, owner)."""
    database = json.dumps(faces, sort_keys=True)
    engine = ENGINES.get(database, lambda: Engine(phase.Engine.from_json(database)))

    def make():
        g = engine.engine.new_game(player=decks[0], opponent=decks[1], seed=1, first_player=0)
        state = g.state()
        state["state"]["debug_mode"] = True
        g = engine.load_game(state)
        while g.waiting_for()["type"] == "MulliganDecision":
            who = g.waiting_for()["data"]["pending"][0]["player"]
            g.apply(who, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
        g.apply(0, debug("SetPhase", {"phase": "PreCombatMain", "active_player": 0}))
        state = g.state()
        cards = sorted((int(k), v["name"], v["owner"]) for k, v in state["state"]["objects"].items())
        return json.dumps(state), cards

    saved, cards = STARTS.get((database, tuple(map(tuple, decks))), make)
    return engine, engine.load_game(saved), cards


def debug(kind, data=None):
    inner = {"type": kind, "data": data} if data is not None else {"type": kind}
    return {"type": "Debug", "data": inner}


def type_line(types, subtypes):
    line = " ".join(types) if types else ""
    return line + (" — " + " ".join(subtypes) if subtypes else "")


class Game:
    def __init__(self, case):
        setup = case.get("setup", {})
        players = setup.get("players") or [{"id": "you"}, {"id": "opponent"}]
        self.player_ids = {p["id"]: i for i, p in enumerate(players)}
        self.player_specs = players
        self.objects = setup.get("objects", [])
        self.handles = [o["id"] for o in self.objects]
        self.names = self.card_names()
        self.amounts = self.damage_amounts(case)
        faces = {}
        for o in self.objects:
            faces[self.names[o["id"]].lower()] = self.face(o)
        faces["forest"] = oracle_face(FOREST)
        decks = [[], []]
        for o in self.objects:
            decks[self.controller(o)].append(self.names[o["id"]])
        decks = [d + ["Forest"] * (40 - len(d)) for d in decks]
        self.engine, self.g, cards = start(faces, decks)
        # ptoracle numbers timestamps with one counter from 1 (docs/protocol.md,
        # "Timestamps"): the adapter keeps the same count, so that an effect
        # without an explicit timestamp gets the number the case means.
        self.next_ts = 1
        self.counting = False  # not while the setup is being put in place
        self.timestamps = {}
        self.ids = {}
        taken = set()
        for o in self.objects:  # timestamps follow the setup's order (613.7)
            name = self.names[o["id"]]
            oid = min(k for k, card, owner in cards
                      if card == name and k not in taken and owner == self.controller(o))
            taken.add(oid)
            self.ids[o["id"]] = oid
            self.timestamps[o["id"]] = self.timestamp(o.get("timestamp"))
            zone = ENGINE_ZONES[o.get("zone", "battlefield")]
            if zone != "Battlefield":
                self.move(oid, zone)
                for kind, n in o.get("counters", {}).items():
                    if n:
                        self.counters(oid, kind, n)
                continue
            self.move(oid, "Battlefield")
            self.apply(debug("SetSummoningSickness", {"object_id": oid, "sick": False}))
            if o.get("tapped"):
                self.apply(debug("SetTapped", {"object_id": oid, "tapped": True}))
            for kind, n in o.get("counters", {}).items():
                if n:
                    self.counters(oid, kind, n)
        self.write_setup_state()
        self.counting = True

    def controller(self, o):
        return self.player_ids.get(o.get("controller"), 0)

    def card_names(self):
        """A card name per object: its own when that is unambiguous."""
        by_name = {}
        for o in self.objects:
            by_name.setdefault(o.get("name") or "", []).append(o)
        names = {}
        for o in self.objects:
            name = o.get("name") or ""
            shared = by_name[name]
            same = all(self.face_key(s) == self.face_key(o) for s in shared)
            if name and same and name.lower() != "forest":
                names[o["id"]] = name
            else:
                base = name or "Object"
                names[o["id"]] = f"{base} {o['id'].replace('_', ' ').title()}"
        return names

    @staticmethod
    def face_key(o):
        return json.dumps({k: o.get(k) for k in ("types", "subtypes", "colors", "pt", "keywords", "mana_cost",
                                              "abilities")},
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

    def face(self, o):
        name = self.names[o["id"]]
        lines = [k.capitalize() for k in o.get("keywords", [])]
        first = next(iter(self.player_ids))
        statics = [static_text(name, a, self.player_ids, o.get("controller", first), o["id"])
                   for a in o.get("abilities") or []]
        lines += [text for text, _ in statics]
        for n in self.amounts.get(o["id"], []):
            lines.append(f"{{0}}: {name} deals {n} damage to any target.")
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
        if "pt" in o:
            p, t = parse_pt(o["pt"], o["id"])
            spec["power"], spec["toughness"] = str(p), str(t)
        face = oracle_face(spec)
        parsed = [a for a in face["static_abilities"] if a.get("mode") == "Continuous"]
        read = [{m["type"] for m in a["modifications"]} for a in parsed]
        if len(parsed) != len(statics) or any(kinds - r for (_, kinds), r in zip(statics, read)):
            raise Unsupported(f"{o['id']}: phase.rs's parser does not read all of the static "
                              f"abilities {[text for text, _ in statics]} (it reads {read})")
        return face

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
        s["layers_dirty"] = True
        self.g = self.engine.load_game(state)

    def timestamp(self, explicit=None):
        """The next timestamp, or an explicit one (later ones follow it)."""
        if explicit is None:
            explicit = self.next_ts
        self.next_ts = max(self.next_ts, explicit + 1)
        return explicit

    def apply(self, action, player=0):
        result = self.g.apply(player, action)
        for event in result.events if self.counting else []:
            kind = event.get("type", "")
            # A zone change makes a new object with a new timestamp (400.7,
            # 613.7d); counters put by the engine give their kind one (613.7c).
            if kind == "ZoneChanged" or ("Counter" in kind and "Add" in kind):
                self.timestamp()
        return result

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

    # ---- steps --------------------------------------------------------------

    def play(self, step):
        action = step["do"]
        if action == "state_based_actions":
            self.apply(debug("RunStateBasedActions"))
            return
        if action == "cleanup":
            self.do_cleanup()
        else:
            (name, body), = action.items()
            getattr(self, "do_" + name)(body)
        if step.get("sba", True):
            self.apply(debug("RunStateBasedActions"))

    def do_put_counters(self, a):
        if a["on"] in self.player_ids:
            # Poison counters (the only kind a player gets here): the
            # binding has no action for them, so they are written.
            state = self.g.state()
            state["state"]["players"][self.player_ids[a["on"]]]["poison_counters"] += a.get("count", 1)
            self.g = self.engine.load_game(state)
            return
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
        oid = self.known(a["object"])
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

    def do_damage(self, a):
        if a["from"] in self.ids and self.g.object(self.ids[a["from"]])["zone"] != "Battlefield":
            raise Unsupported("damage from an object that has left the battlefield "
                              "(the adapter deals damage through its activated ability)")
        source = self.on_battlefield(a["from"])
        src = next(o for o in self.objects if o["id"] == a["from"])
        if self.controller(src) != 0:
            raise Unsupported("damage from an object the second player controls "
                              "(the adapter activates abilities as the first player)")
        if a["to"] in self.player_ids:
            target = {"Player": self.player_ids[a["to"]]}
        else:
            target = {"Object": self.on_battlefield(a["to"])}
        index = self.amounts[a["from"]].index(a["amount"])
        before = len(self.g.stack())
        try:
            self.apply({"type": "ActivateAbility",
                        "data": {"source_id": source, "ability_index": index}})
        except ValueError as e:
            raise Unsupported(f"{a['from']} no longer has the activated ability the adapter deals "
                              f"its damage with (it lost its abilities?): the engine says {e}")
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

    def do_cleanup(self):
        """The engine's own cleanup step (514.2): the turn is walked from the
        end step through cleanup into the next turn's upkeep; the untap step
        on the way is not the case's, so the permanents get their tapped
        status back, and the first player's main phase is set again."""
        tapped = {oid: self.g.object(oid)["tapped"] for oid in self.ids.values()
                  if self.g.object(oid)["zone"] == "Battlefield"}
        self.apply(debug("SetPhase", {"phase": "End", "active_player": 0}))
        for _ in range(10):
            if self.g.state()["state"]["active_player"] != 0:
                break
            self.pass_once("the cleanup step")
        else:
            raise RuntimeError("the engine did not walk through its cleanup step")
        if self.g.waiting_for()["type"] == "GameOver":
            return
        for oid, was in tapped.items():
            if self.g.object(oid)["zone"] == "Battlefield" and self.g.object(oid)["tapped"] != was:
                self.apply(debug("SetTapped", {"object_id": oid, "tapped": was}))
        self.apply(debug("SetPhase", {"phase": "PreCombatMain", "active_player": 0}))

    def do_combat_damage(self, entries):
        """A real combat: the first player's creatures attack, the second
        player's block what they deal damage to, and the engine walks the
        turn to its combat damage step (510)."""
        attacks, blocks = self.combat_roles(entries)
        engaged = list(attacks) + list(blocks)
        for oid in engaged:
            strikes = {keyword_name(k) for k in self.g.object(oid)["keywords"]}
            if strikes & {"first strike", "double strike"}:
                raise Unsupported("combat damage from a creature with first strike or double "
                                  "strike (the engine deals it in a step of its own, 510.4)")
        before = {oid: self.g.object(oid)["tapped"] for oid in engaged}
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
        if blocks:
            self.pass_until("DeclareBlockers")
            self.offer("DeclareBlockers",
                       {"assignments": [[b, a] for b, a in blocks.items()]}, "block", player=1)
        while self.g.state()["state"]["phase"] != "CombatDamage":
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
                attacks[attacker] = second
        return list(attacks), blocks

    def pass_once(self, goal):
        waiting = self.g.waiting_for()
        if waiting["type"] != "Priority":
            raise Unsupported(f"the engine waits for {waiting['type']} on the way to {goal}")
        self.apply({"type": "PassPriority"}, self.g.priority_player())

    def pass_until(self, kind):
        for _ in range(20):
            if self.g.waiting_for()["type"] == kind:
                return
            self.pass_once(kind)
        raise RuntimeError(f"the engine never asked for {kind}")

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

    # ---- observations -------------------------------------------------------

    def observe_object(self, handle):
        o = self.g.object(self.ids[handle])
        types = list(o["card_types"]["core_types"])
        # The engine's P/T, as it gives it: a creature without P/T in the
        # engine (a land made a creature, say) is reported with none.
        creature = "Creature" in types and o.get("power") is not None \
            and o.get("toughness") is not None
        p, t = (o["power"], o["toughness"]) if creature else (None, None)
        bp, bt = (o.get("layer_base_power"), o.get("layer_base_toughness")) if creature \
            else (None, None)
        counters = {}
        for kind, n in o["counters"].items():
            if n:
                counters[{"P1P1": "+1/+1", "M1M1": "-1/-1"}.get(kind, kind)] = n
        attached = o.get("attached_to")
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
            "keywords": [keyword_name(k) for k in o["keywords"]],
            "tapped": o["tapped"],
            "attached_to": back.get(attached) if attached is not None else None,
        }

    def observe(self):
        players = {}
        for h, i in self.player_ids.items():
            p = self.g.player(i)
            mana = {}
            for m in p["mana_pool"]["mana"]:
                letter = MANA_LETTERS.get(m.get("color"), m.get("color"))
                mana[letter] = mana.get(letter, 0) + 1
            players[h] = {
                "life": p["life"],
                "poison": p["poison_counters"],
                "mana": mana,
                "lost": bool(p["is_eliminated"]) or p["status"].get("type") != "Active",
            }
        return {"objects": {h: self.observe_object(h) for h in self.handles}, "players": players}


def keyword_name(k):
    """`FirstStrike` -> `first strike`; parameterised keywords by their name."""
    if isinstance(k, dict):
        k = next(iter(k))
    return re.sub(r"(?<!^)(?=[A-Z])", " ", str(k)).lower()


def run(case):
    game = Game(case)
    observations = []
    for k, step in enumerate(case["steps"]):
        try:
            game.play(step)
        except Invalid as e:
            return observations, {"step": k, "code": "invalid", "message": str(e)}
        observation = game.observe()
        lost = [h for h, p in observation["players"].items() if p["lost"]]
        waiting = game.g.waiting_for()
        if waiting["type"] == "GameOver" and not lost:
            raise Unsupported(
                f"step {k + 1}: the game is over in phase.rs ({json.dumps(waiting.get('data'))})")
        if lost:
            # The engine ends the game there (104.2a) and takes the loser's
            # objects out of it (800.4a); ptoracle's scenarios play on.
            raise Unsupported(
                f"step {k + 1}: {', '.join(lost)} loses the game, which phase.rs ends there")
        observations.append(observation)
    return observations, None


# ---- the protocol -----------------------------------------------------------


def answer(message):
    kind = message.get("type")
    seq = message.get("seq")
    if kind == "hello":
        return hello()
    if kind != "run":
        return {"type": "error", "seq": seq, "message": f"unknown message type {kind!r}"}
    if message.get("edition") not in EDITIONS:
        return {"type": "unsupported", "seq": seq,
                "reason": f"edition {message.get('edition')} (phase.rs implements today's rules, {EDITIONS[0]})"}
    case = message["case"]
    try:
        check(case)
        steps, error = run(case)
    except Unsupported as e:
        return {"type": "unsupported", "seq": seq, "reason": str(e)}
    reply = {"type": "result", "seq": seq, "steps": steps}
    if error is not None:
        reply["error"] = error
    return reply


def serve(stdin, stdout):
    for line in stdin:
        if not line.strip():
            continue
        seq = None
        try:
            message = json.loads(line)
            seq = message.get("seq")
            if message.get("type") == "bye":
                return
            reply = answer(message)
        except Exception as e:  # noqa: BLE001 - the engine failed: say so, stay up
            traceback.print_exc(file=sys.stderr)
            reply = {"type": "error", "seq": seq, "message": f"{type(e).__name__}: {e}"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
