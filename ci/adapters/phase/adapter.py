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
- counters: the engine's `ModifyCounters` (debug action); on an object
  that can't have counters put on it, a real spell that puts them, which
  the engine's replacement stops (122.6);
- effects (P/T, keywords, types, colors): written into the engine's list
  of continuous effects with their timestamps, exactly as its resolved
  spells write them (its layer system orders and applies them);
- static abilities: Oracle text on the card, parsed by the engine;
- combat damage: a real combat (attackers, blockers, the engine's combat
  damage step); declared combats (`attack`, `combat_damage_step`) through
  the engine's declare and damage steps; cleanup and `begin_turn`: the
  engine's own turn walked through;
- destroy and prevent: real instants cast at the object; regenerate: a
  real "{0}: Regenerate" ability; undying and persist: real keywords whose
  triggers resolve after state-based actions;
- zones: the engine's zone changes (its debug action).
- control changes: a real "Gain control of target creature." spell cast by
  the player who gains control and resolved by the engine.
- mana, costs, amounts read from the game, doubling, exchanges, who puts
  counters, moved counters, P/T chosen as a card enters, Nth-counter
  abilities, spells: Oracle text the engine parses (mana abilities, CDAs,
  level up bands, replacement effects, instants of the adapter's), the
  parse checked, activated or cast and resolved through the engine's
  stack, which pays the costs and reads the amounts.

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
    "locked-sets",
    "battles",
    "planeswalkers",
    "attachments",
    "vehicles",
    "sagas",
    "copy",
    "face-down",
    "inert-keywords",
    "mana",
    "costs",
    "quantities",
    "cda",
    "double",
    "triple",
    "double-counters",
    "level-up",
    "exchange",
    "counters-put-by",
    "combat",
    "summoning-sickness",
    "destroy",
    "regeneration",
    "undying",
    "persist",
    "prevention",
    "shield-counters",
    "cant-have-counters",
    "control-changes",
    "other-counters",
    "move-counters",
    "choose-pt",
    "counter-triggers",
]
# Observation fields phase.rs does not expose (704.8 last known
# information; how many distinct payments a cost has: the engine pays a
# cost, it does not count the ways to).
UNOBSERVED = ["lki", "payments"]
# Rounds of triggers before the adapter says they never settle: the
# reference's bound (rulings/DECISIONS.md, D28).
ROUNDS = 1000
# The instant the player who gains control casts for a `gain_control` step:
# the control change lasts indefinitely (613.1b), so no duration.
CONTROL = "Gain control of target creature."
# The steps the adapter plays after a control change: their mapping reads
# who controls what from the engine (the others from the case's setup).
AFTER_CONTROL = {"damage", "begin_turn", "cleanup", "state_based_actions", "put_counters",
                 "remove_counters", "effect", "destroy", "gain_control", "regenerate",
                 "prevent", "combat_damage"}
# The instant the adapter casts for a `destroy` step.
DESTROY = "Ptoracle Destroy"
# The instants it casts for a `prevent` step ("Ptoracle Prevent 3").
PREVENT = "Ptoracle Prevent"

# phase.rs stores P/T, counters and life as 32-bit integers.
LIMIT = 2**31 - 1

PT_COUNTER = re.compile(r"^([+-])(\d+)/([+-])(\d+)$")
COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
COLOR_NAMES = {"White": "white", "Blue": "blue", "Black": "black", "Red": "red", "Green": "green"}
MANA_LETTERS = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G", "Colorless": "C"}
MANA_COLORS = {v: k for k, v in MANA_LETTERS.items()}
SPELL_TYPES = {"Instant", "Sorcery"}
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
    "defender", "hexproof", "shroud", "flash", "undying", "persist",
}


# Counters the engine knows by these names (CounterType::Defense, ...).
ENGINE_COUNTERS = {"defense", "loyalty", "lore"}
# Named counters the engine keeps by their name and gives no rules of its
# own (others it does: stun and time counters, 122.1d, 702.62a).
OTHER_COUNTERS = {"charge"}


_INERT = {}


def inert_keyword_text(k):
    """Oracle text for a keyword outside the adapter's list that phase.rs
    reads as that keyword and nothing else (no trigger, static or other
    ability of its own): `Banding`, or with a cost the case does not give and
    nothing observes, `Morph {0}`. None if there is none."""
    if k not in _INERT:
        _INERT[k] = None
        for text in (k.capitalize(), k.capitalize() + " {0}"):
            face = phase.build_oracle_face({
                "name": "Ptoracle Keyword Probe", "manaCost": "", "colors": [],
                "colorIdentity": [], "type": "Creature", "types": ["Creature"], "subtypes": [],
                "supertypes": [], "text": text, "layout": "normal", "manaValue": 0,
                "identifiers": {}, "power": "1", "toughness": "1", "keywords": [k.title()]},
                None)
            names = [keyword_name(x) for x in face["keywords"]]
            costed = all(isinstance(x, dict) and next(iter(x.values())).get("type") == "Cost"
                         for x in face["keywords"])
            # Phasing acts in the untap step the adapter's cleanup walks through.
            if names == [k] and k != "phasing" and (text == k.capitalize() or costed) \
                    and not (face["abilities"] or face["triggers"]
                             or face["static_abilities"] or face["replacements"]):
                _INERT[k] = text
                break
    return _INERT[k]


def subtype_filters(case):
    """Whether a filter of the case names a subtype: the engine gives a
    changeling every creature type (702.73a), which the corpus's inert
    keyword does not; elsewhere nothing reads it (subtypes are not observed)."""
    found = []

    def walk(x):
        if isinstance(x, dict):
            if isinstance(x.get("affects"), dict) and x["affects"].get("subtypes"):
                found.append(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(case)
    return bool(found)


class Unsupported(Exception):
    """Something in the case the adapter cannot map onto phase.rs."""


class Invalid(Exception):
    """A step that is impossible in the engine's game."""


class NoFixpoint(Exception):
    """The engine's triggers keep coming back (a creature that dies and
    returns forever): stopped after as many rounds as the reference allows."""


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
    if kind == "level":
        return "level"  # level up (107.8, 711): the engine's level counters
    if PT_COUNTER.match(kind) or kind in KEYWORDS:
        return kind  # keyword counters by their name (122.1b): "first strike"
    if kind in ENGINE_COUNTERS:
        return kind
    if kind == "shield":
        return kind  # the engine's own shield counters (122.1c)
    if kind in OTHER_COUNTERS:
        return kind
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
            if isinstance(x, dict):
                raise Unsupported(f"{where}: an X read from the game ({json.dumps(x)}) where the "
                                  "adapter writes a number")
            x = fixed(x, where)
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


# What check() says of a step it refuses with state-based actions deferred
# (`sba: false`): the adapter plays such a step through priority or an
# action that checks them (704.3), so it can't hold them back. By step kind
# (`{name}`: the step's own name, `{object}`: the object that moves).
DEFERRED = {
    "cleanup": "the cleanup step with state-based actions deferred (the engine checks them as "
               "the next turn's upkeep gives priority, 704.3)",
    "lore": "lore counters with state-based actions deferred (the ability that puts them "
            "resolves through priority, 704.3)",
    "locked effect": "an effect on a filter with state-based actions deferred (its ability "
                     "resolves through priority, 704.3)",
    "pump effect": "an effect with an amount read from the game and state-based actions "
                   "deferred (the adapter casts a spell for it, which resolves through "
                   "priority, 704.3)",
    "move": "{object} enters with counters of its own or as a copy with state-based actions "
            "deferred (the ability that moves it resolves through priority, 704.3)",
    "combat_damage": "combat damage with state-based actions deferred (the engine checks them "
                     "before a player gets priority, 704.3)",
    "copy": "a copy effect with state-based actions deferred (its ability resolves through "
            "priority, 704.3)",
    "turn_face_up": "turning face up with state-based actions deferred (the engine's special "
                    "action checks them, 704.3)",
    "turn_face_down": "turning face down with state-based actions deferred (the ability "
                      "resolves through priority, 704.3)",
    "crew": "crewing with state-based actions deferred (the crew ability resolves through "
            "priority, 704.3)",
    "attach": "attaching with state-based actions deferred (the equip ability resolves "
              "through priority, 704.3)",
    "cast": "a cast with state-based actions deferred (the engine checks them as a player gets "
            "priority, 704.3)",
    "resolve": "a spell resolving with state-based actions deferred (the engine checks them as "
               "a player gets priority, 704.3)",
    "double": "`{name}` with state-based actions deferred (the adapter casts a spell for it, "
              "which resolves through priority, 704.3)",
    "pay_cost": "a cost paid with state-based actions deferred (the adapter pays it by casting "
                "a spell, which resolves through priority, 704.3)",
    "attack": "an attack with state-based actions deferred (the engine checks them as it gives "
              "priority in its combat steps, 704.3)",
    "combat_damage_step": "a combat damage step with state-based actions deferred (the engine "
                          "checks them before a player gets priority, 704.3)",
    "prevent": "`prevent` with state-based actions deferred (the spell resolves through "
               "priority, which checks them, 704.3)",
    "destroy": "`{name}` with state-based actions deferred (the spell or ability resolves "
               "through priority, which checks them, 704.3)",
    "damage": "damage with state-based actions deferred (the ability resolves through "
              "priority, which checks them, 704.3)",
}


def deferred(step, kind, where, **names):
    """Refuse a step of this kind whose state-based actions are deferred."""
    if not step.get("sba", True):
        raise Unsupported(f"{where}: " + DEFERRED[kind].format(**names))


def check(case):
    setup = case.get("setup", {})
    players = {p["id"] for p in setup.get("players", [])} or {"you", "opponent"}
    if len(setup.get("players") or []) > 2:
        raise Unsupported(f"a game of {len(setup['players'])} players (the adapter starts a "
                          "two-player game)")
    first = next(iter(p["id"] for p in setup.get("players", [])), "you")
    for p in setup.get("players", []):
        for kind, n in (p.get("mana") or {}).items():
            fixed(n, f"player {p['id']}: mana")
        if p.get("hand"):
            raise Unsupported(f"player {p['id']}: a hand size")
        fixed(p.get("life", 20), f"player {p['id']}: life")
    for o in setup.get("objects", []):
        where = f"setup object {o['id']}"
        if o.get("zone") == "stack":
            stacked(o, case, where)
        elif o.get("zone", "battlefield") not in ENGINE_ZONES:
            raise Unsupported(f"{where}: an object on the {o['zone']} in the setup")
        for ability in o.get("abilities") or []:
            static_text(o.get("name") or o["id"], ability, players, o.get("controller"), where,
                        holder(o, setup))
        if o.get("attached_to"):
            host = next((h for h in setup.get("objects", []) if h["id"] == o["attached_to"]), {})
            if o.get("zone", "battlefield") != "battlefield" \
                    or host.get("zone", "battlefield") != "battlefield":
                raise Unsupported(f"{where}: attached to {o['attached_to']} off the battlefield")
            if not {"Equipment", "Aura"} & set(o.get("subtypes", [])):
                raise Unsupported(f"{where}: attached, and neither an Equipment nor an Aura")
        if o.get("face_down"):
            first = (setup.get("players") or [{"id": "you"}])[0]["id"]
            if o.get("zone", "battlefield") != "battlefield" or o.get("controller", first) != first:
                raise Unsupported(f"{where}: face down off the battlefield or under the second "
                                  "player's control (the first player plays it face down)")
            mana_of(o.get("mana_cost", ""), where)
        if o.get("copy"):
            raise Unsupported(f"{where}: set up as a copy (the adapter has objects become or "
                              "enter as copies by abilities the engine resolves)")
        if o.get("cda"):
            cda_text(o.get("name") or o["id"], o, players, first, where)
        if o.get("level_up"):
            level_text(o["level_up"], where)
        for trigger in o.get("counter_triggers") or []:
            counter_trigger_text(o.get("name") or o["id"], o, trigger, where)
        if o.get("counters_put_by"):
            put_by_text(o["counters_put_by"], where)
        if o.get("on_resolve") or o.get("x_is"):
            resolve_text(o, players, first, where)
        for key in ("max_counters", "x"):
            if o.get(key):
                raise Unsupported(f"{where}: `{key}`")
        if o.get("chapters") is not None:
            chapter_lines(o, objects_of(setup), where)
        if "timestamp" in o:
            fixed(o["timestamp"], where)
        if o.get("enters_as"):
            chosen = choice_text(o.get("name") or o["id"], o, where)[1]
            if o.get("choose", o["enters_as"][0]["pt"]) not in chosen:
                raise Unsupported(f"{where}: the choice {o.get('choose')} is none of "
                                  "`enters_as`")
        elif "pt" in o and not o.get("cda"):
            parse_pt(o["pt"], where)
        for kind, n in o.get("counters", {}).items():
            if counter_name(kind) is None:
                raise Unsupported(f"{where}: {kind} counters")
            fixed(n, where)
        for k in o.get("keywords", []):
            if k == "changeling" and not subtype_filters(case):
                continue
            if k not in KEYWORDS and inert_keyword_text(k) is None:
                raise Unsupported(f"{where}: the keyword {k} (phase.rs's parser does not read "
                                  "it as a bare keyword, or gives it an ability)")
        fixed(o.get("damage", 0), where)
        if o.get("regeneration_shields") and o.get("zone", "battlefield") != "battlefield":
            raise Unsupported(f"{where}: regeneration shields off the battlefield")
    objects = {o["id"]: o for o in setup.get("objects", [])}
    attacked = False
    controlled = False
    for i, step in enumerate(case.get("steps", [])):
        action = step["do"]
        where = f"step {i + 1}"
        kind = action if isinstance(action, str) else next(iter(action))
        if controlled and (kind not in AFTER_CONTROL or kind == "effect"
                           and not isinstance(action["effect"].get("affects"), list)):
            raise Unsupported(f"{where}: `{kind}` after a control change (the adapter maps it "
                              "by the setup's controllers)")
        if action == "state_based_actions":
            continue
        if action == "cleanup":
            deferred(step, "cleanup", where)
            continue
        (name, body), = action.items()
        putters = really_put(setup.get("objects", []))
        if name == "put_counters" and sealed_put(body, objects) \
                and (counter_name(body["kind"]) in (None, "level") or body["kind"] == "poison"):
            raise Unsupported(f"{where}: {body['kind']} counters put on {body['on']}, which "
                              "can't have counters put on it (the adapter puts them with a spell "
                              "that puts P/T, keyword or charge counters on a creature)")
        if name == "put_counters" and (putters or sealed_put(body, objects)):
            counters_spell(body, first, where,
                           objects.get(body["on"], {}).get("zone", "battlefield"))
            if not step.get("sba", True) and sealed_put(body, objects):
                raise Unsupported(f"{where}: counters put by a spell with state-based actions "
                                  "deferred (it resolves through priority, 704.3)")
        elif name == "put_counters":
            if body["kind"] == "poison" and body["on"] in players:
                fixed(body.get("count", 1), where)
                continue
            if counter_name(body["kind"]) is None:
                raise Unsupported(f"{where}: {body['kind']} counters")
            fixed(body.get("count", 1), where)
            if body["kind"] == "lore":
                first = (setup.get("players") or [{"id": "you"}])[0]["id"]
                saga = objects.get(body["on"], {})
                if "Saga" not in saga.get("subtypes", []) \
                        or saga.get("controller", first) != first \
                        or body.get("count", 1) not in NUMBER_WORDS:
                    raise Unsupported(f"{where}: lore counters put on {body['on']} (the adapter "
                                      "puts one to ten on a Saga of the first player, by an "
                                      "ability the engine resolves)")
                deferred(step, "lore", where)
        elif name == "remove_counters":
            if counter_name(body["kind"]) is None:
                raise Unsupported(f"{where}: {body['kind']} counters")
            fixed(body.get("count", 1), where)
        elif name == "effect":
            if isinstance(body.get("affects"), dict):
                first = (setup.get("players") or [{"id": "you"}])[0]["id"]
                locked_effect_text(body, players, first, where)
                deferred(step, "locked effect", where)
            elif not isinstance(body.get("affects"), list):
                raise Unsupported(f"{where}: an effect that affects "
                                  f"{json.dumps(body.get('affects'))}")
            extra = set(body) - {"name", "source", "affects", "until", "x", "set", "modify",
                                 "switch", "timestamp", "add_keywords", "remove_keywords",
                                 "remove_all_abilities", "add_types", "remove_types",
                                 "set_colors"}
            if extra:
                raise Unsupported(f"{where}: effect parts {sorted(extra)}")
            for k in body.get("add_keywords", []) + body.get("remove_keywords", []):
                if k not in KEYWORDS and inert_keyword_text(k) != k.capitalize():
                    raise Unsupported(f"{where}: the keyword {k} (not a bare keyword in "
                                      "phase.rs, or one with an ability there)")
            if body.get("until") not in ("end-of-turn", "forever"):
                raise Unsupported(f"{where}: the duration {body.get('until')}")
            x = body.get("x")
            if isinstance(x, dict):
                pump_text(body, players, first, where)
                deferred(step, "pump effect", where)
            elif x is not None:
                fixed(x, where)
            if "set" in body and not isinstance(x, dict):
                parse_pt(body["set"], where, x)
            if "modify" in body and not isinstance(x, dict):
                parse_pt(body["modify"], where, x, signed=True)
            if "timestamp" in body:
                fixed(body["timestamp"], where)
        elif name == "move":
            if body["to"] not in ENGINE_ZONES:
                raise Unsupported(f"{where}: a move to the {body['to']}")
            moved = objects.get(body["object"], {})
            if putters and any((body.get("counters") or {}).values()):
                return_spell(body, first, where, "hand" if moved.get("zone") == "hand"
                             else "graveyard")
            elif moved.get("cant_have_counters_put") and any((body.get("counters") or {}).values()):
                raise Unsupported(f"{where}: {body['object']}, which can't have counters put on "
                                  "it, enters with counters (the adapter would put them with "
                                  "the engine's debug action, which skips the replacement that "
                                  "stops them, 122.6)")
            elif entering_with_counters(moved, body):
                zone = moved.get("zone", "battlefield")
                first = (setup.get("players") or [{"id": "you"}])[0]["id"]
                if zone not in ENTERING or moved.get("controller", first) != first:
                    raise Unsupported(
                        f"{where}: {body['object']} enters the battlefield from the {zone} of "
                        f"{moved.get('controller', first)} with counters of its own or as a "
                        "copy (the engine's debug zone change skips the replacement that "
                        "does it, 614.1c; the adapter's ability that moves it puts the first "
                        "player's cards from a hand or a graveyard)")
                copy = body.get("copy") or {}
                if set(copy) - {"of"} or (copy and objects.get(copy["of"], {}).get("types")
                                          != ["Creature"]):
                    raise Unsupported(f"{where}: entering as a copy with {json.dumps(copy)} "
                                      "(the adapter writes a Clone's ability, a copy of a "
                                      "creature)")
                deferred(step, "move", where, object=body["object"])
            if moved.get("enters_as") and body["to"] == "battlefield":
                if body.get("copy") or (putters and any((body.get("counters") or {}).values())):
                    raise Unsupported(f"{where}: {body['object']}, whose P/T is chosen as it "
                                      "enters, enters as a copy or with counters beside an "
                                      "ability that changes how many a player puts or "
                                      "triggers on them")
                if not step.get("sba", True):
                    raise Unsupported(f"{where}: {body['object']} enters choosing its P/T with "
                                      "state-based actions deferred (the ability that moves it "
                                      "resolves through priority, 704.3)")
            for kind, n in (body.get("counters") or {}).items():
                if counter_name(kind) is None:
                    raise Unsupported(f"{where}: entering with {kind} counters")
                fixed(n, where)
        elif name == "combat_damage":
            deferred(step, "combat_damage", where)
            for entry in body:
                kinds = set(objects.get(entry["to"], {}).get("types", []))
                if kinds & {"Battle", "Planeswalker"}:
                    raise Unsupported(f"{where}: combat damage to {entry['to']}, a "
                                      f"{'/'.join(sorted(kinds))} (attacking a battle or a "
                                      "planeswalker is not mapped)")
                if "amount" in entry:
                    raise Unsupported(f"{where}: combat damage with an amount of its own (the "
                                      "adapter lets the engine assign each creature's damage)")
        elif name == "copy":
            extra = set(body) - {"name", "object", "of", "until"}
            if extra:
                raise Unsupported(f"{where}: a copy effect with {sorted(extra)}")
            if body.get("until", "forever") not in COPYING:
                raise Unsupported(f"{where}: a copy effect for {body.get('until')}")
            for h in (body["object"], body["of"]):
                if objects.get(h, {}).get("types") != ["Creature"]:
                    raise Unsupported(f"{where}: a copy effect on or of {h}, not a creature "
                                      "(the adapter's ability targets creatures)")
            if body["object"] == body["of"]:
                raise Unsupported(f"{where}: an object that becomes a copy of itself")
            deferred(step, "copy", where)
        elif name == "turn_face_up":
            deferred(step, "turn_face_up", where)
        elif name == "turn_face_down":
            if objects.get(body, {}).get("types") != ["Creature"]:
                raise Unsupported(f"{where}: turning {body} face down, not a creature (the "
                                  "adapter's ability targets a creature)")
            deferred(step, "turn_face_down", where)
        elif name == "crew":
            first = (setup.get("players") or [{"id": "you"}])[0]["id"]
            if any(objects.get(h, {}).get("controller", first) != first
                   for h in [body["vehicle"]] + body["with"]):
                raise Unsupported(f"{where}: crewing with the second player's permanents (the "
                                  "adapter activates abilities as the first player)")
            deferred(step, "crew", where)
        elif name == "attach":
            moved = objects.get(body["object"], {})
            first = (setup.get("players") or [{"id": "you"}])[0]["id"]
            mine = moved.get("controller", first) == first and \
                objects.get(body["to"], {}).get("controller", first) == first
            if "Equipment" not in moved.get("subtypes", []) or not mine:
                raise Unsupported(f"{where}: attaching {body['object']} (only the first player's "
                                  "Equipment to the first player's creature, by its equip "
                                  "ability, is mapped)")
            deferred(step, "attach", where)
        elif name == "cast":
            o = next((o for o in setup.get("objects", []) if o["id"] == body["object"]), None)
            if o is None or not o.get("on_resolve") or o.get("zone") != "hand" \
                    or body.get("by", first) != first or body.get("x"):
                raise Unsupported(f"{where}: casting {body['object']} (the adapter casts an "
                                  "instant or sorcery of the first player's hand with what it "
                                  "does as it resolves, `on_resolve`, and no X)")
            if o.get("controller", first) != first or players_mana(setup, first):
                raise Unsupported(f"{where}: casting {body['object']} with mana in the pool or "
                                  "for the second player (the adapter adds the mana its cost "
                                  "takes for the first player, to an empty pool)")
            cost_mana(o.get("mana_cost") or "", where)
            deferred(step, "cast", where)
        elif name == "resolve":
            deferred(step, "resolve", where)
        elif name == "move_counters":
            move_spell(body, players, first, where)
            if not step.get("sba", True):
                raise Unsupported(f"{where}: moving counters with state-based actions deferred "
                                  "(the adapter casts a spell for it, which resolves through "
                                  "priority, 704.3)")
        elif name in ("double", "triple", "double_counters"):
            spell_text(name, body, players, first, where)
            deferred(step, "double", where, name=name)
        elif name == "exchange":
            exchanged(body, case, first, where)
        elif name == "add_mana":
            mana_source(body, case, players, first, where)
        elif name == "pay_cost":
            if body.get("player", first) != first:
                raise Unsupported(f"{where}: a cost paid by {body['player']} (the adapter casts "
                                  "as the first player)")
            deferred(step, "pay_cost", where)
            if body.get("payment", 0):
                raise Unsupported(f"{where}: payment {body['payment']} of the cost (the engine "
                                  "pays a cost its own way: the adapter can ask it for the "
                                  "payment with the least life, no other one)")
            paid_cost(body, case, where)
        elif name == "attack":
            deferred(step, "attack", where)
            if attacked:
                raise Unsupported(f"{where}: a second combat in the case (the adapter walks "
                                  "the engine through one combat)")
            attacked = True
            for decl in body:
                defender = decl.get("defender")
                if defender is not None and defender not in players:
                    raise Unsupported(f"{where}: an attack on {defender}, a permanent "
                                      "(planeswalkers and battles are not mapped)")
        elif name == "combat_damage_step":
            deferred(step, "combat_damage_step", where)
        elif name == "prevent":
            fixed(body["amount"], where)
            deferred(step, "prevent", where)
        elif name in ("destroy", "regenerate"):
            deferred(step, "destroy", where, name=name)
        elif name == "begin_turn":
            if body not in players:
                raise Unsupported(f"{where}: the turn of {body}")
        elif name == "gain_control":
            controlled = True
            held = objects.get(body["object"], {})
            if any(held.get(k) for k in ("abilities", "cda", "counters_put_by", "chapters")):
                raise Unsupported(f"{where}: a control change of {body['object']}, whose "
                                  "abilities the adapter words from its setup controller's "
                                  "point of view (`you control`, `your graveyard`; the case's "
                                  "filters name players, the engine's text would follow the new "
                                  "controller)")
            if not step.get("sba", True):
                raise Unsupported(f"{where}: a control change with state-based actions deferred "
                                  "(the adapter casts a spell for it, which resolves through "
                                  "priority, 704.3)")
        elif name == "damage":
            fixed(body["amount"], where)
            deferred(step, "damage", where)
        else:
            raise Unsupported(f"{where}: the step `{name}`")


def mentions(x, handle):
    if isinstance(x, dict):
        return any(mentions(v, handle) for v in x.values())
    if isinstance(x, list):
        return any(mentions(v, handle) for v in x)
    return x == handle


def stacked(o, case, where):
    """An instant or sorcery on the stack in the setup is put in the engine's
    stack zone as it is (its debug zone change puts nothing on the stack to
    resolve), and only deals damage: a card of its face, cast when the case
    has it deal damage (`Game.cast_damage`). Anything else a step does with
    it would need the engine's stack to hold it as a spell."""
    if not set(o.get("types", [])) & SPELL_TYPES:
        raise Unsupported(f"{where}: a {' '.join(o.get('types', []))} spell on the stack in the "
                          "setup (the adapter keeps an instant or sorcery there, which never "
                          "resolves)")
    for key in ("on_resolve", "x_is", "attached_to", "counters", "copy"):
        if o.get(key):
            raise Unsupported(f"{where}: on the stack in the setup with `{key}`")
    for i, step in enumerate(case.get("steps", [])):
        action = step["do"]
        if isinstance(action, dict) and "damage" in action:
            action = {k: v for k, v in action["damage"].items() if k != "from"}
        if mentions(action, o["id"]):
            raise Unsupported(f"{where}: on the stack in the setup, and step {i + 1} acts on it "
                              "or reads it (the adapter keeps it in the engine's stack zone, "
                              "where it never resolves, and deals its damage with a card of its "
                              "face)")


def exchanged(body, case, first, where):
    """An exchange phase.rs's parser reads: the first player's life total
    with the power or toughness of a creature they control (Tree of
    Redemption), as that creature's own ability. Returns (handle, stat)."""
    values = body["values"]
    lives = [v for v in values if "life" in v]
    stats = [v for v in values if "life" not in v]
    if len(values) != 2 or len(lives) != 1 or lives[0]["life"] != first:
        raise Unsupported(f"{where}: an exchange of {json.dumps(values)} (phase.rs's parser reads "
                          "only \"Exchange your life total with NAME's toughness\" among "
                          "exchanges; not two creatures' powers)")
    if body.get("until") not in (None, "forever"):
        raise Unsupported(f"{where}: an exchange whose effects last {body['until']}")
    (stat, handle), = stats[0].items()
    o = next((o for o in case.get("setup", {}).get("objects", []) if o["id"] == handle), None)
    if o is None or o.get("controller", first) != first:
        raise Unsupported(f"{where}: an exchange with the {stat} of {handle}, which is no object "
                          "the first player controls (the adapter activates its ability)")
    return handle, stat


def mana_source(body, case, players, first, where):
    """How an `add_mana` step is played: `None` for a fixed amount (put in
    the pool), or the object whose own mana ability reads its power."""
    amount = body["amount"]
    if body.get("player", first) != first:
        raise Unsupported(f"{where}: mana for {body['player']} (the adapter activates abilities "
                          "as the first player)")
    if isinstance(amount, dict):
        if set(amount) != {"power_of"} or body.get("snow"):
            raise Unsupported(f"{where}: mana in an amount read from the game "
                              f"({json.dumps(amount)}; only an object's power is mapped, "
                              "without snow)")
        handle = amount["power_of"]
        o = next((o for o in case.get("setup", {}).get("objects", []) if o["id"] == handle), None)
        if o is None or o.get("controller", first) != first:
            raise Unsupported(f"{where}: mana in the amount of the power of {handle}, which is "
                              "no object the first player controls")
        return handle
    fixed(amount, where)
    return None


def paid_cost(body, case, where):
    """The mana cost a `pay_cost` step pays, as card text, and its X."""
    if body.get("cost_of"):
        o = next((o for o in case.get("setup", {}).get("objects", [])
                  if o["id"] == body["cost_of"]), None)
        cost = (o or {}).get("mana_cost") or ""
        if "X" in cost:
            raise Unsupported(f"{where}: the mana cost {cost} of {body['cost_of']} (what X is "
                              "there, 107.3h, the adapter would have to decide)")
        return cost or "{0}", 0
    cost = body.get("cost") or "{0}"
    x = body.get("x", 0)
    if x and "X" not in cost:
        raise Unsupported(f"{where}: an X for the cost {cost}, which has none")
    return cost, fixed(x, where)


SUBTYPE_PLURALS = {"Elf": "Elves", "Dwarf": "Dwarves", "Wolf": "Wolves"}


def quantity_text(q, players, you, where, target=None):
    """A quantity as Oracle text ("the number of creatures you control"),
    and the engine's parse of it that the adapter checks for (608.2h)."""
    if not isinstance(q, dict) or len(q) != 1:
        raise Unsupported(f"{where}: the quantity {json.dumps(q)}")
    (kind, arg), = q.items()
    if kind in ("power_of", "toughness_of") and target is not None and arg == target:
        stat = kind.split("_")[0]
        return (f"that creature's {stat}",
                {"type": "Ref", "qty": {"type": stat.capitalize(), "scope": {"type": "Target"}}})
    if kind == "half" and arg.get("round") in ("up", "down"):
        text, parsed = quantity_text(arg["of"], players, you, where, target)
        return (f"half {text}, rounded {arg['round']}",
                {"type": "DivideRounded", "inner": parsed, "divisor": 2,
                 "rounding": arg["round"].capitalize()})
    if kind == "count" and isinstance(arg, dict):
        extra = set(arg) - {"types", "subtypes", "controller", "zone"}
        types, subtypes = arg.get("types", []), arg.get("subtypes", [])
        who = arg.get("controller")
        zone = arg.get("zone") or "battlefield"
        if who is not None and who not in players:
            extra.add("controller")
        if zone == "battlefield" and not extra and len(types) + len(subtypes) == 1 \
                and (not types or types[0] in TYPE_NOUNS):
            noun = TYPE_NOUNS[types[0]] if types else \
                SUBTYPE_PLURALS.get(subtypes[0], subtypes[0] + "s")
            where_ = "on the battlefield" if who is None else \
                "you control" if who == you else "your opponents control"
            return (f"the number of {noun} {where_}",
                    {"type": "Ref", "qty": {"type": "ObjectCount", "filter": {
                        "type": "Typed",
                        "type_filters": types or [{"Subtype": subtypes[0]}],
                        "controller": None if who is None else "You" if who == you else "Opponent",
                        "properties": []}}})
        if zone == "graveyard" and not extra and not subtypes and types == ["Creature"] \
                and who in (None, you):
            return ("the number of creature cards in " + ("all graveyards" if who is None
                                                           else "your graveyard"),
                    {"type": "Ref", "qty": {"type": "ZoneCardCount", "zone": "Graveyard",
                                            "card_types": ["Creature"],
                                            "scope": "All" if who is None else "Controller"}})
    raise Unsupported(f"{where}: the quantity {json.dumps(q)} (the adapter writes no Oracle text "
                      "for it that phase.rs's parser reads as the case means)")


def pump_text(spec, players, first, where):
    """An effect whose X is read from the game, as an instant's Oracle text
    ("Target creature gets +X/+X until end of turn, where X is ...") and
    the engine's parse the adapter checks for: X is read as it resolves."""
    extra = set(spec) - {"name", "source", "affects", "until", "x", "modify", "timestamp"}
    if extra or "modify" not in spec or len(spec["affects"]) != 1 \
            or spec.get("until") != "end-of-turn":
        raise Unsupported(f"{where}: an effect with an amount read from the game other than one "
                          "creature's +X/+Y until end of turn")
    phrase, q = quantity_text(spec["x"], players, first, where, target=spec["affects"][0])
    parts = spec["modify"].split("/")
    parsed = {}
    for stat, part in zip(("power", "toughness"), parts):
        if part[1:] == "X":
            parsed[stat] = {"type": "Quantity", "value": q if part[0] == "+" else
                            {"type": "Multiply", "factor": -1, "inner": q}}
        elif part[1:].isdigit():
            parsed[stat] = {"type": "Fixed", "value": fixed(int(part), where)}
        else:
            raise Unsupported(f"{where}: the modification {spec['modify']}")
    return (f"Target creature gets {spec['modify']} until end of turn, where X is {phrase}.",
            parsed)


def spell_text(name, body, players, first, where):
    """The instant the adapter casts for a step, targeting one creature: its
    Oracle text and the parse the adapter checks for (kind and parts of its
    effect). None for a step the adapter plays otherwise."""
    if name == "effect":
        if not isinstance(body.get("x"), dict):
            return None
        text, expected = pump_text(body, players, first, where)
        return text, dict(expected, type="Pump")
    if name in ("double", "triple"):
        if body.get("until") != "end-of-turn":
            raise Unsupported(f"{where}: `{name}` lasting {body.get('until')}")
        what = {"power": ("power", "Power"), "toughness": ("toughness", "Toughness"),
                "both": ("power and toughness", "PowerAndToughness")}.get(body.get("what"))
        if what is None:
            raise Unsupported(f"{where}: `{name}` of {body.get('what')}")
        return (f"{name.capitalize()} target creature's {what[0]} until end of turn.",
                {"type": "DoublePT", "mode": what[1], "factor": 2 if name == "double" else 3})
    if name == "double_counters":
        if body["on"] in players:
            raise Unsupported(f"{where}: doubling a player's {body['kind']} counters (phase.rs's "
                              "parser reads no Oracle text for it)")
        if body.get("by", first) != first:
            raise Unsupported(f"{where}: counters put by {body['by']}")
        kind = counter_name(body["kind"])
        if kind is None:
            raise Unsupported(f"{where}: {body['kind']} counters")
        return (f"Double the number of {body['kind']} counters on target creature.",
                {"type": "MultiplyCounter", "counter_type": kind, "multiplier": 2})
    return None


def level_text(bands, where):
    """Level up bands (711.2) as the card's Oracle text (`LEVEL 2-6`, `3/3`,
    `First strike`), and the parse the adapter checks for: each band a
    static ability of the card, conditional on its level counters."""
    lines, parsed = [], []
    for band in bands:
        extra = set(band) - {"min", "max", "pt", "keywords"}
        if extra:
            raise Unsupported(f"{where}: a level band with {sorted(extra)}")
        for k in band.get("keywords", []):
            if k not in KEYWORDS:
                raise Unsupported(f"{where}: the keyword {k}")
        p, t = parse_pt(band["pt"], where)
        low, high = fixed(band["min"], where), band.get("max")
        lines += [f"LEVEL {low}-{fixed(high, where)}" if high is not None else f"LEVEL {low}+",
                  f"{p}/{t}"] + [k.capitalize() for k in band.get("keywords", [])]
        condition = {"type": "HasCounters", "counters": {"type": "OfType", "data": "level"},
                     "minimum": low}
        if high is not None:
            condition["maximum"] = high
        parsed.append({"modifications": [{"type": "SetPower", "value": p},
                                         {"type": "SetToughness", "value": t}]
                       + [{"type": "AddKeyword", "keyword": engine_keyword(k)}
                          for k in band.get("keywords", [])],
                       "condition": condition})
    return lines, parsed


PUT_BY = {
    ("you", "twice"): ("If you would put one or more counters on a permanent or player, put "
                       "twice that many of each of those kinds of counters on that permanent or "
                       "player instead.",
                       {"quantity_modification": {"type": "Times", "factor": 2},
                        "valid_player": "You"}),
    ("opponents", "half-down"): ("If an opponent would put one or more counters on a permanent "
                                 "or player, they put half that many of each of those kinds of "
                                 "counters on that permanent or player instead, rounded down.",
                                 {"quantity_modification": {"type": "Half"},
                                  "valid_player": "Opponent"}),
}

# "This can't have counters put on it" (Melira's Keepers), and the engine's
# parse of it: a replacement that prevents counters being put on the object
# itself, whatever puts them (122.6, 122.5).
SEALED = "can't have counters put on it."
SEALED_PARSE = {"event": "AddCounter", "execute": None, "mode": {"type": "Mandatory"},
                "valid_card": {"type": "SelfRef"}, "description": "~ " + SEALED,
                "condition": None, "quantity_modification": {"type": "Prevent"}}


def put_by_text(put_by, where):
    """Vorinclex, Monstrous Raider's replacement effects (614.1a, 122.6a) as
    Oracle text, and the parse the adapter checks for."""
    out = []
    for who, scale in put_by.items():
        if scale is None:
            continue
        if (who, scale) not in PUT_BY:
            raise Unsupported(f"{where}: counters put by {who} made {scale}")
        out.append(PUT_BY[(who, scale)])
    return out


def return_spell(body, first, where, zone="graveyard"):
    """A `move` to the battlefield with counters beside an ability that
    changes how many counters a player puts: an instant the putting player
    casts (`Return target creature card from a graveyard to the battlefield
    with 3 +1/+1 counters on it.`), so that the engine's replacement effects
    see who puts them (122.6a, 614.1c). Its text, parse and caster."""
    counters = {k: n for k, n in (body.get("counters") or {}).items() if n}
    (kind, n), = counters.items() if len(counters) == 1 else ((None, 0),)
    name = counter_name(kind) if kind else None
    if body["to"] != "battlefield" or name is None or name == "level" or kind in KEYWORDS \
            or body.get("copy") or body.get("choose"):
        raise Unsupported(f"{where}: a move with {json.dumps(counters)} beside an ability that "
                          "changes how many counters a player puts or triggers on them (the "
                          "adapter casts a spell returning a creature card from a graveyard, "
                          "or putting one from a hand, with one kind of P/T counters)")
    if body.get("by") is not None:
        # 122.6a: the text names nobody, so the controller of the entering
        # object puts them; an effect naming a player has no text here.
        raise Unsupported(f"{where}: a move whose effect names who puts the counters "
                          f"({body['by']}; phase.rs's parser reads no such text)")
    n = fixed(n, where)
    counted = (f"a {kind} counter" if n == 1 else f"{n} {kind} counters") + " on it."
    if zone == "hand":
        # The first player's own card: "your hand" (the caster's).
        text = "Put a creature card from your hand onto the battlefield with " + counted
    else:
        text = "Return target creature card from a graveyard to the battlefield with " + counted
    return text, {"type": "ChangeZone", "origin": zone.capitalize(), "destination": "Battlefield",
                  "enter_with_counters": [[name, {"type": "Fixed", "value": n}]]}, first


def counters_spell(body, first, where, zone="battlefield"):
    """`put_counters` beside an ability that changes how many counters a
    player puts: an instant the putting player casts (`Put 3 +1/+1 counters
    on target creature.`), so that the engine's replacement effects see who
    puts them. Its text, parse, and the player who casts it. On a card in a
    graveyard (`zone`): `... on target creature card in a graveyard.`"""
    if body.get("count", 1) <= 0:
        raise Unsupported(f"{where}: putting {body.get('count', 1)} counters")
    kind = counter_name(body["kind"]) if body["kind"] != "poison" else None
    if kind is None or kind == "level":
        raise Unsupported(f"{where}: {body['kind']} counters put beside an ability that changes "
                          "how many a player puts or triggers on them (the adapter casts a "
                          "spell that puts P/T or keyword counters on a creature)")
    n = fixed(body.get("count", 1), where)
    if zone not in ("battlefield", "graveyard"):
        raise Unsupported(f"{where}: counters put on {body['on']} in the {zone} (the adapter "
                          "casts a spell at a creature or a creature card in a graveyard)")
    at = "target creature" + (" card in a graveyard" if zone == "graveyard" else "")
    text = (f"Put a {body['kind']} counter on {at}." if n == 1 else
            f"Put {n} {body['kind']} counters on {at}.")
    parse = {"type": "PutCounter", "counter_type": kind, "count": {"type": "Fixed", "value": n},
             "target": {"type": "Typed", "type_filters": ["Creature"], "controller": None,
                        "properties": [{"type": "InZone", "zone": "Graveyard"}]
                        if zone == "graveyard" else []}}
    return text, parse, body.get("by") or first


def sealed_put(body, objects):
    """Whether a `put_counters` is on an object that can't have counters put
    on it: the engine's replacement that stops them (122.6) applies only to
    counters a spell or ability puts, not to its debug action, so the
    adapter casts `counters_spell` for it."""
    return bool(objects.get(body["on"], {}).get("cant_have_counters_put"))


def move_spell(body, players, first, where):
    """`move_counters` (122.5): an instant the moving player casts, `Move a
    +1/+1 counter from target creature onto another target creature.`, so
    that the engine removes and puts them (and its replacement effects see
    who puts them, 122.6a). Its text, parse, and the player who casts it."""
    kind = counter_name(body["kind"])
    if kind is None or body["from"] in players or body["to"] in players:
        raise Unsupported(f"{where}: moving {body['kind']} counters between {body['from']} and "
                          f"{body['to']} (the adapter casts a spell that moves a kind of "
                          "counter the engine knows between creatures)")
    if body["from"] == body["to"]:
        raise Unsupported(f"{where}: counters moved from {body['from']} onto itself (the "
                          "adapter's spell moves them onto another target creature)")
    n = fixed(body.get("count", 1), where)
    if n not in NUMBER_WORDS:
        raise Unsupported(f"{where}: moving {n} counters (the adapter writes one to ten)")
    text = (f"Move a {body['kind']} counter" if n == 1 else
            f"Move {NUMBER_WORDS[n]} {body['kind']} counters") \
        + " from target creature onto another target creature."
    creature = {"type": "Typed", "type_filters": ["Creature"], "controller": None}
    return text, {"type": "MoveCounters", "counter_type": kind,
                  "count": {"type": "Fixed", "value": n}, "mode": "Move",
                  "selection": "StackTarget", "source": dict(creature, properties=[]),
                  "target": dict(creature, properties=[{"type": "Another"}])}, \
        body.get("by") or first


def choice_text(name, o, where):
    """"As this enters" P/T choices (208.2b) as Primal Clay's Oracle text:
    `As NAME enters, it becomes your choice of a 3/3 artifact creature, a 2/2
    artifact creature with flying, or ... in addition to its other types.`
    Its text, and per choice (by its P/T) the P/T and keywords the parse must
    give it."""
    if o.get("cda") or o.get("pt", "*/*") != "*/*":
        raise Unsupported(f"{where}: P/T chosen as it enters beside a printed P/T other than "
                          "*/* or a characteristic-defining ability")
    if not set(o.get("types", [])) <= {"Artifact", "Creature", "Enchantment"} \
            or "Creature" not in o.get("types", []):
        raise Unsupported(f"{where}: P/T chosen as it enters by a {o.get('types')} (the "
                          "adapter writes Primal Clay's text, a creature)")
    kinds = " ".join(t.lower() for t in o["types"])
    options, parsed = [], {}
    for c in o["enters_as"]:
        p, t = parse_pt(c["pt"], where)
        keywords = c.get("keywords") or []
        if any(k not in KEYWORDS for k in keywords) or len(keywords) > 1 or set(c) - {
                "pt", "keywords"}:
            raise Unsupported(f"{where}: the choice {json.dumps(c)} (the adapter writes a P/T "
                              "with at most one keyword)")
        if c["pt"] in parsed:
            raise Unsupported(f"{where}: two choices with the P/T {c['pt']}")
        options.append(f"a {p}/{t} {kinds}" + (f" with {keywords[0]}" if keywords else ""))
        parsed[c["pt"]] = (p, t, {engine_keyword(k) for k in keywords})
    if len(options) < 2:
        raise Unsupported(f"{where}: {len(options)} choices as it enters")
    listed = " or ".join(options) if len(options) == 2 else \
        ", ".join(options[:-1]) + ", or " + options[-1]
    return (f"As {name} enters, it becomes your choice of {listed} in addition to its other "
            "types."), parsed


ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth",
            7: "seventh", 8: "eighth", 9: "ninth", 10: "tenth"}


def counter_trigger_text(name, o, trigger, where):
    """"When the Nth KIND counter is put on NAME, EFFECT." (122.7) as Oracle
    text, for an effect that grants the object a keyword for good or puts
    counters on it; its text and the trigger the parse must give."""
    kind, nth, do = trigger["kind"], trigger["nth"], trigger["do"]
    counter = counter_name(kind) if kind not in ("poison", "lore", "level") else None
    if counter is None or nth not in ORDINALS or not isinstance(do, dict) or len(do) != 1:
        raise Unsupported(f"{where}: an Nth-counter ability on the {nth}th {kind} counter that "
                          f"does {json.dumps(do)}")
    (step, body), = do.items()
    if step == "effect" and body.get("affects") == [o["id"]] \
            and body.get("until", "forever") == "forever" \
            and not set(body) - {"name", "affects", "add_keywords", "until"} \
            and len(body.get("add_keywords") or []) == 1 and body["add_keywords"][0] in KEYWORDS:
        keyword = body["add_keywords"][0]
        effect = f"{name} gains {keyword}"
        parsed = {"type": "GenericEffect", "duration": None, "target": None, "static_abilities": [
            {"affected": {"type": "SelfRef"},
             "modifications": [{"type": "AddKeyword", "keyword": engine_keyword(keyword)}]}]}
    elif step == "put_counters" and body.get("on") == o["id"] and not body.get("by") \
            and counter_name(body["kind"]) not in (None, "lore", "level") \
            and body.get("count", 1) in NUMBER_WORDS:
        n = body.get("count", 1)
        effect = f"put {NUMBER_WORDS[n]} {body['kind']} counter{'s' if n > 1 else ''} on {name}"
        parsed = {"type": "PutCounter", "counter_type": counter_name(body["kind"]),
                  "count": {"type": "Fixed", "value": n}, "target": {"type": "SelfRef"}}
    else:
        raise Unsupported(f"{where}: an Nth-counter ability that does {json.dumps(do)} (the "
                          "adapter writes one that gives the object a keyword for good or puts "
                          "counters on it)")
    return (f"When the {ORDINALS[nth]} {kind} counter is put on {name}, {effect}.",
            {"counter_filter": {"counter_type": counter, "threshold": nth}, "effect": parsed})


def shaped(read, want):
    """Whether the parse `read` has every part of `want` (dicts by their
    keys, lists item by item)."""
    if isinstance(want, dict):
        return isinstance(read, dict) and all(shaped(read.get(k), v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(read, list) and len(read) == len(want) \
            and all(shaped(r, w) for r, w in zip(read, want))
    return read == want


def really_put(objects):
    """Whether counters are put by the adapter's real spells: when who puts
    them matters (`counters_put_by`, 122.6a) or what they trigger
    (`counter_triggers`, 122.7); the engine's debug action triggers
    nothing."""
    return any(o.get("counters_put_by") or o.get("counter_triggers") for o in objects)


def players_mana(setup, first):
    return any(p.get("mana") for p in setup.get("players", []) if p["id"] == first)


def cost_mana(cost, where):
    """The mana that pays a mana cost of generic and colored symbols, for
    the engine's `AddMana` debug action; other symbols are refused."""
    out = []
    for sym in re.findall(r"\{([^}]*)\}", cost):
        if sym.isdigit():
            out += ["Colorless"] * int(sym)
        elif sym in MANA_COLORS:
            out.append(MANA_COLORS[sym])
        else:
            raise Unsupported(f"{where}: casting a spell with {{{sym}}} in its mana cost")
    return out


def resolve_text(o, players, first, where):
    """What an instant or sorcery of the case does as it resolves
    (`on_resolve`, with X defined by `x_is`) as its Oracle text
    (`Target creature gains trample and gets +X/+0 until end of turn, where
    X is that creature's power.`), and the parse the adapter checks for."""
    spec = (o.get("on_resolve") or {}).get("effect")
    if not spec or len(o["on_resolve"]) != 1 or not set(o.get("types", [])) & {"Instant",
                                                                               "Sorcery"}:
        raise Unsupported(f"{where}: a spell that does {json.dumps(o.get('on_resolve'))} as it "
                          "resolves (the adapter writes one creature's +X/+Y and keywords)")
    extra = set(spec) - {"name", "affects", "until", "x", "modify", "add_keywords"}
    if extra or "modify" not in spec or len(spec.get("affects", [])) != 1 \
            or spec.get("until") != "end-of-turn":
        raise Unsupported(f"{where}: a spell whose effect is {json.dumps(spec)}")
    x = spec.get("x")
    if isinstance(x, dict):
        if x != {"x_of": o["id"]} or not o.get("x_is"):
            raise Unsupported(f"{where}: a spell's X of {json.dumps(x)}")
        x = o["x_is"]
    elif o.get("x_is") or x is not None:
        raise Unsupported(f"{where}: a spell with `x_is` its effect does not read, or a fixed X")
    keywords = spec.get("add_keywords", [])
    for k in keywords:
        if k not in KEYWORDS:
            raise Unsupported(f"{where}: the keyword {k}")
    if not keywords:
        if x is None:
            raise Unsupported(f"{where}: a spell with a fixed effect (`effect` steps map it)")
        text, parsed = pump_text(dict(spec, x=x), players, first, where)
        return text, dict(parsed, type="Pump")
    phrase, q = quantity_text(x, players, first, where, target=spec["affects"][0]) \
        if x is not None else (None, None)
    mods = []
    for stat, part in zip(("Power", "Toughness"), spec["modify"].split("/")):
        if part[1:] == "X" and part[0] == "+" and q is not None:
            mods.append({"type": f"AddDynamic{stat}", "value": q})
        elif part[1:].isdigit() and int(part) != 0:
            mods.append({"type": f"Add{stat}", "value": int(part)})
        elif not (part[1:].isdigit() and int(part) == 0):
            raise Unsupported(f"{where}: the modification {spec['modify']}")
    mods += [{"type": "AddKeyword", "keyword": engine_keyword(k)} for k in keywords]
    text = (f"Target creature gains {' and '.join(keywords)} and gets {spec['modify']} until "
            "end of turn" + (f", where X is {phrase}." if phrase else "."))
    return text, {"type": "GenericEffect", "duration": "UntilEndOfTurn",
                  "static_abilities": [{"modifications": mods}]}


def cda_text(name, o, players, first, where):
    """A characteristic-defining ability (604.3) as Oracle text, the printed
    P/T with its `*`, and the engine's parse of it the adapter checks for."""
    cda, pt = o["cda"], o.get("pt", "")
    you = o.get("controller") or first
    p = cda.get("power")
    t = cda.get("toughness")
    if p is None:
        raise Unsupported(f"{where}: a characteristic-defining ability for toughness only")
    ptext, pq = quantity_text(p, players, you, where)
    mods = [{"type": "SetDynamicPower", "value": pq}]
    if pt == "*/*" and t == p:
        text = f"{name}'s power and toughness are each equal to {ptext}."
        mods.append({"type": "SetDynamicToughness", "value": pq})
    elif pt == "*/1+*" and t == p:
        text = (f"{name}'s power is equal to {ptext} and its toughness is equal to that "
                "number plus 1.")
        mods.append({"type": "SetDynamicToughness",
                     "value": {"type": "Offset", "inner": pq, "offset": 1}})
    elif t is None and re.fullmatch(r"\*/\d+", pt):
        text = f"{name}'s power is equal to {ptext}."
    else:
        raise Unsupported(f"{where}: the characteristic-defining ability {json.dumps(cda)} with "
                          f"P/T {pt}")
    return text, pt.split("/"), mods


def static_text(name, ability, players, controller, where, holder=None):
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
    elif affects == "attached" and holder is not None:
        subject, one = attached_subject(holder, where), True
    else:
        raise Unsupported(f"{where}: a static ability that affects {json.dumps(affects)}")
    has, gets = ("has", "gets") if one else ("have", "get")
    parts, kinds = [], set()
    if ability.get("add_types"):
        # "All enchantments are creatures in addition to their other types
        # and have base power and toughness 4/4." is read whole by the parser
        # (not "are creatures with base power and toughness 4/4 ...").
        if one:
            raise Unsupported(f"{where}: a static ability that adds types to its own object")
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


def locked_effect_text(spec, players, first, where):
    """An effect whose affected set is a filter, as the Oracle text of an
    activated ability of the adapter's effect source, and the kinds of
    modification its parsed effect must have. The engine locks the set as
    the ability resolves (611.2c): it writes one effect per object then."""
    parts = set(spec) - {"name", "source", "affects", "until", "timestamp", "x"}
    if len(parts) != 1 or parts - {"modify", "set", "set_colors", "remove_all_abilities",
                                   "add_keywords"}:
        raise Unsupported(f"{where}: an effect on a filter with {sorted(parts)} (the adapter "
                          "writes one change of modify, set, set_colors, remove_all_abilities "
                          "or add_keywords as an ability phase.rs's parser reads)")
    if "Artifact" in spec["affects"].get("types", []):
        raise Unsupported(f"{where}: an effect on artifacts (the adapter's effect source is one)")
    if spec["affects"].get("other"):
        raise Unsupported(f"{where}: an effect on `other` objects (other than its source)")
    if isinstance(spec.get("x"), dict):
        # The adapter's spell that reads X as it resolves (608.2h) targets
        # one creature; the effect source's ability is written with a number.
        raise Unsupported(f"{where}: an effect on a filter with an amount read from the game "
                          f"({json.dumps(spec['x'])}; the adapter maps such an X only for one "
                          "creature's +X/+Y until end of turn)")
    subject = filter_text(spec["affects"], players, first, where)
    if "modify" in spec:
        p, t = parse_pt(spec["modify"], where, spec.get("x"), signed=True)
        verb, kinds = f"get {p:+d}/{t:+d}", {"AddPower", "AddToughness"}
    elif "set" in spec:
        p, t = parse_pt(spec["set"], where, spec.get("x"))
        verb, kinds = f"have base power and toughness {p}/{t}", {"SetPower", "SetToughness"}
    elif "set_colors" in spec:
        if len(spec["set_colors"]) != 1:
            raise Unsupported(f"{where}: an effect on a filter that sets the colors "
                              f"{spec['set_colors']}")
        verb, kinds = f"become {spec['set_colors'][0]}", {"SetColor"}
    elif spec.get("remove_all_abilities"):
        verb, kinds = "lose all abilities", {"RemoveAllAbilities"}
    else:
        for k in spec["add_keywords"]:
            if k not in KEYWORDS:
                raise Unsupported(f"{where}: the keyword {k}")
        verb, kinds = "gain " + " and ".join(spec["add_keywords"]), {"AddKeyword"}
    until = {"end-of-turn": " until end of turn", "forever": ""}.get(spec.get("until"))
    if until is None:
        raise Unsupported(f"{where}: the duration {spec.get('until')}")
    return f"{{0}}: {subject} {verb}{until}.", kinds


NUMBER_WORDS = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine", 10: "ten"}
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII", 9: "IX",
         10: "X"}


# The effect source's abilities that make a creature a copy of another
# (707.2, 613.2a), by duration: the first target becomes a copy of the second.
COPYING = {
    "end-of-turn": "{0}: Target creature becomes a copy of another target creature until end "
                   "of turn.",
    "forever": "{0}: Target creature becomes a copy of another target creature.",
}


def mana_of(cost, where):
    """The mana that pays a mana cost, by the engine's names: `{3}{W/U}` ->
    three colorless and a white."""
    mana = []
    for symbol in re.findall(r"\{([^}]*)\}", cost or ""):
        if symbol.isdigit():
            mana += ["Colorless"] * int(symbol)
        elif symbol.split("/")[0] in "WUBRG" and len(symbol.split("/")[0]) == 1:
            mana.append({"W": "White", "U": "Blue", "B": "Black", "R": "Red",
                         "G": "Green"}[symbol.split("/")[0]])
        else:
            raise Unsupported(f"{where}: the mana symbol {{{symbol}}} in {cost}")
    return mana


# The effect source's ability that turns a creature face down (708.2).
FACE_DOWN = "{0}: Turn target creature face down."


def lore_text(n):
    """The effect source's ability that puts lore counters (714.2b)."""
    return f"{{0}}: Put {NUMBER_WORDS[n]} lore counter{'s' if n > 1 else ''} " \
        "on target Saga you control."


def objects_of(setup):
    return {o["id"]: o for o in setup.get("objects", [])}


def chapter_lines(o, objects, where):
    """A Saga's chapter abilities (714.2b) as Oracle text, each with the
    object its target is, by chapter number: `I, II — Put a +1/+1 counter on
    target creature.`, `III — Target creature gets +0/+3 until end of turn.`"""
    if "Saga" not in o.get("subtypes", []):
        raise Unsupported(f"{where}: chapter abilities on an object that is not a Saga")
    lines, targets = [], {}
    for chapter in o["chapters"]:
        action = chapter["do"]
        body = next(iter(action.values())) if isinstance(action, dict) else None
        if isinstance(action, dict) and "put_counters" in action and body["kind"] == "+1/+1" \
                and body.get("count", 1) in NUMBER_WORDS and "by" not in body:
            n = body.get("count", 1)
            text = f"Put {NUMBER_WORDS[n]} +1/+1 counter{'s' if n > 1 else ''} on target creature."
            target = body["on"]
        elif isinstance(action, dict) and "effect" in action \
                and set(body) <= {"name", "affects", "modify", "until"} and "modify" in body \
                and isinstance(body["affects"], list) and len(body["affects"]) == 1 \
                and body.get("until") == "end-of-turn":
            p, t = parse_pt(body["modify"], where, signed=True)
            text = f"Target creature gets {p:+d}/{t:+d} until end of turn."
            target = body["affects"][0]
        else:
            raise Unsupported(f"{where}: a chapter ability that does {json.dumps(action)} (the "
                              "adapter writes +1/+1 counters on a creature or a pump of one)")
        if objects.get(target, {}).get("types") != ["Creature"]:
            raise Unsupported(f"{where}: a chapter ability on {target}, not a creature")
        if any(n not in ROMAN for n in chapter["at"]):
            raise Unsupported(f"{where}: chapter numbers {chapter['at']}")
        lines.append(", ".join(ROMAN[n] for n in chapter["at"]) + " — " + text)
        for n in chapter["at"]:
            targets[n] = target
    return lines, targets


# The card of the adapter's source of effects on filters (611.2c).
EFFECT_SOURCE = "Ptoracle Effect Source"
# Its abilities that put a card onto the battlefield, by the card's zone.
ENTERING = {
    "hand": "{0}: Put a permanent card from your hand onto the battlefield.",
    "graveyard": "{0}: Return target permanent card from your graveyard to the battlefield.",
}


# The same for a card whose P/T is chosen as it enters (208.2b), also from
# exile (a permanent that left and returns chooses again, 400.7).
CHOOSING = dict(ENTERING, exile="{0}: Return target permanent card you own in exile to the "
                "battlefield.")


def entering_with_counters(o, move):
    """A move onto the battlefield of a permanent that enters with counters
    of its own: a planeswalker's loyalty (306.5b), a battle's defense
    (310.4b), a Saga's lore counter (714.3a); or as a copy (Clone, 707.2)."""
    return move["to"] == "battlefield" and o.get("zone", "battlefield") != "battlefield" \
        and bool(o.get("loyalty") or o.get("defense") or "Saga" in o.get("subtypes", [])
                 or move.get("copy"))


def holder(o, setup):
    """The object with what the permanent it is attached to is, for its text."""
    host = next((h for h in setup.get("objects", []) if h["id"] == o.get("attached_to")), {})
    enchants = "Creature" if host.get("types") == ["Creature"] else None
    return dict(o, _enchants=enchants)


def attached_subject(holder, where):
    """What an Equipment's or Aura's static ability calls the permanent it is
    attached to (301.5a, 303.4); the engine's parser reads both."""
    subtypes = holder.get("subtypes", [])
    if "Equipment" in subtypes:
        return "Equipped creature"
    if "Aura" in subtypes and holder.get("_enchants") == "Creature":
        return "Enchanted creature"
    raise Unsupported(f"{where}: a static ability of {holder['id']} on the permanent it is "
                      "attached to (only an Equipment's, or an Aura's on a creature)")


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
# a new game once it is ready for the setup (debug mode on, both hands kept
# and put back in the libraries, the first player's main phase), from which
# every case's game is loaded afresh. The game itself is never shared.

FOREST = {"name": "Forest", "manaCost": "", "colors": [], "colorIdentity": [],
          "type": "Basic Land — Forest", "types": ["Land"], "subtypes": ["Forest"],
          "supertypes": ["Basic"], "text": "({T}: Add {G}.)", "layout": "normal",
          "manaValue": 0, "identifiers": {}}

# The Forests each library holds besides the case's cards. The state round
# trips cost what the state holds, so the decks are no larger than the game
# needs: the opening hands go back to the libraries (a case's hand holds only
# its own objects, its players' `hand` being refused), so a library is only
# drawn from by a player's draw step (504.1), which only a `begin_turn` walk
# reaches, once per walk at most; an empty library there would lose the game
# (704.5b), which `do_begin_turn` refuses before the walk. Eight is one more
# than the opening hand of seven, which is drawn before it goes back: that
# draw never empties a library either.
LIBRARY_FORESTS = 8


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
        try:
            return self.engine.load_game(state if isinstance(state, str) else json.dumps(state))
        except ValueError as e:
            if "deserialize" not in str(e):
                raise
            # The engine checks its own records (its journal of zone
            # changes, of rules applied) against the state it is given: a
            # state the adapter edited that fails them can't be put in place.
            raise Unsupported(f"phase.rs does not load the state the adapter wrote ({e})") from e


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
        # Cards in hand that are not the case's would count for the hand size
        # of the cleanup's discard (514.1): none is left there.
        for k, v in g.state()["state"]["objects"].items():
            if v["zone"] == "Hand":
                g.apply(0, debug("MoveToZone", {"object_id": int(k), "to_zone": "Library",
                                                "simulate": False}))
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
            faces[DESTROY.lower()] = phase.build_oracle_face(
                {"name": DESTROY, "manaCost": "{0}", "colors": [], "colorIdentity": [],
                 "type": "Instant", "types": ["Instant"], "subtypes": [], "supertypes": [],
                 "text": "Destroy target permanent.", "layout": "normal", "manaValue": 0,
                 "identifiers": {}}, None)
        self.preventions = [s["do"]["prevent"]["amount"] for s in case.get("steps", [])
                            if isinstance(s["do"], dict) and "prevent" in s["do"]]
        for n in set(self.preventions):
            name = f"{PREVENT} {n}"
            faces[name.lower()] = phase.build_oracle_face(
                {"name": name, "manaCost": "{0}", "colors": [], "colorIdentity": [],
                 "type": "Instant", "types": ["Instant"], "subtypes": [], "supertypes": [],
                 "text": f"Prevent the next {n} damage that would be dealt to any target this turn.",
                 "layout": "normal", "manaValue": 0, "identifiers": {}}, None)
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
        self.engine, self.g, cards = start(faces, decks)
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

    def face(self, o):
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
        face = oracle_face(spec)
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
        return face

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
        face = phase.build_oracle_face({
            "name": EFFECT_SOURCE, "manaCost": "", "colors": [], "colorIdentity": [],
            "type": "Artifact", "types": ["Artifact"], "subtypes": [], "supertypes": [],
            "text": "\n".join(lines), "layout": "normal", "manaValue": 0, "identifiers": {}}, None)
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

    def enter(self, handle, oid):
        """A card of the first player put onto the battlefield by the effect
        source's ability, which the engine resolves (its replacement puts the
        counters it enters with, 614.1c); a zone change, one timestamp."""
        text = CHOOSING[ZONES[self.g.object(oid)["zone"]]]
        state = self.g.state()
        state["state"]["next_timestamp"] = self.next_ts  # the new object's (613.7d)
        self.g = self.engine.load_game(state)
        counting, self.counting = self.counting, False
        self.apply({"type": "ActivateAbility", "data": {
            "source_id": self.effect_source, "ability_index": list(self.locked).index(text)}})
        self.settle(handle, oid, text)
        self.counting = counting
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
        state = self.g.state()
        state["state"]["next_timestamp"] = self.next_ts
        self.g = self.engine.load_game(state)
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
        state = self.g.state()
        state["state"]["next_timestamp"] = self.next_ts
        self.g = self.engine.load_game(state)
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
        state = self.g.state()
        state["state"]["next_timestamp"] = self.next_ts
        self.g = self.engine.load_game(state)
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
        state = self.g.state()
        state["state"]["next_timestamp"] = self.next_ts
        self.g = self.engine.load_game(state)
        counting, self.counting = self.counting, False
        self.apply({"type": "ActivateAbility", "data": {
            "source_id": self.effect_source, "ability_index": list(self.locked).index(FACE_DOWN)}})
        self.settle(handle, oid, FACE_DOWN)
        self.counting = counting
        if self.g.object(oid)["face_down"] and not was:
            self.timestamp()
        self.next_ts = max(self.next_ts, self.g.state()["state"]["next_timestamp"])

    def put_lore(self, a):
        """Lore counters put by the effect source's ability, which the engine
        resolves: the chapter abilities they reach trigger (714.2b)."""
        oid = self.on_battlefield(a["on"])
        text = lore_text(a.get("count", 1))
        state = self.g.state()
        state["state"]["next_timestamp"] = self.next_ts  # what triggers is numbered from it
        self.g = self.engine.load_game(state)
        counting, self.counting = self.counting, False
        self.apply({"type": "ActivateAbility", "data": {
            "source_id": self.effect_source, "ability_index": list(self.locked).index(text)}})
        self.settle(a["on"], oid, text)
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
            name = f"Cost Of Step {i + 1}"
            while name.lower() in taken:
                name += " Again"
            taken.add(name.lower())
            face = phase.build_oracle_face({
                "name": name, "manaCost": cost, "colors": [], "colorIdentity": [],
                "type": "Instant", "types": ["Instant"], "subtypes": [], "supertypes": [],
                "text": "You gain 0 life.", "layout": "normal", "manaValue": 0,
                "identifiers": {}}, None)
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
            name = f"Effect Of Step {i + 1}"
            while name.lower() in taken:
                name += " Again"
            taken.add(name.lower())
            face = phase.build_oracle_face({
                "name": name, "manaCost": "{0}", "colors": [], "colorIdentity": [],
                "type": "Instant", "types": ["Instant"], "subtypes": [], "supertypes": [],
                "text": text, "layout": "normal", "manaValue": 0, "identifiers": {}}, None)
            read = [a["effect"] for a in face["abilities"]]
            if len(read) != 1 or {k: read[0].get(k) for k in expected} != expected \
                    or kind == "gain_control" and face["abilities"][0].get("duration"):
                raise Unsupported(f"step {i + 1}: phase.rs's parser does not read {text!r} as "
                                  f"the case means (it reads {json.dumps(face['abilities'])})")
            out.append((name, face, caster))
        return out

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

    # ---- steps --------------------------------------------------------------

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
        except NoFixpoint as e:
            return observations, {"step": k, "code": "no-fixpoint", "message": str(e)}
        observation = game.observe()
        lost = [h for h, p in observation["players"].items() if p["lost"]]
        waiting = game.g.waiting_for()
        if waiting["type"] == "GameOver" and not lost:
            raise Unsupported(
                f"step {k + 1}: the game is over in phase.rs ({json.dumps(waiting.get('data'))})")
        if lost and waiting["type"] == "GameOver":
            game.carry_on(k, step)
            observation = game.observe()
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
