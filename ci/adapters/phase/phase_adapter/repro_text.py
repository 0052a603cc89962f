"""The text of a reproduction (`reproduce.py` records what goes in it):
the program's fixed parts (the engine's parser and a new game, the
observation of the fields compared) and the Python literals it writes for
the adapter's actions and the states it wrote. Runs without phase."""

import json

from ptoracle_adapter import REPORT, checks, checks_literal, program_docstring

RUN = "python3 FILE in a virtual environment with phase-python installed"

# What the program starts with: the engine's parser, a game as the adapter
# starts one (engine.start), and the observation (observe.py) of the fields
# compared, read the way the adapter reads them.
PRELUDE = '''
import json
import sys

import phase


def debug(kind, data=None):
    """phase.rs's debug action `kind` (its way to put a chosen state in place:
    zone changes, counters, mana, the phase), accepted in debug mode."""
    inner = {"type": kind, "data": data} if data is not None else {"type": kind}
    return {"type": "Debug", "data": inner}


# The card faces, from Oracle text, by phase.rs's own parser.
faces = {key: phase.build_oracle_face(card, None) for key, card in CARDS.items()}
engine = phase.Engine.from_json(json.dumps(faces, sort_keys=True))
'''

OBSERVE = '''

def observe(g, oid):
    """The fields of object `oid` as ptoracle's observations name them."""
    o = g.object(oid)
    types = list(o["card_types"]["core_types"])
    creature = ("Creature" in types or o["zone"] != "Battlefield") \\
        and o.get("power") is not None and o.get("toughness") is not None
    p, t = (o["power"], o["toughness"]) if creature else (None, None)
    counters = {{"P1P1": "+1/+1", "M1M1": "-1/-1"}}.get
    keyword = lambda k: "".join(" " + c.lower() if c.isupper() else c  # FirstStrike
                                for c in (next(iter(k)) if isinstance(k, dict) else k)).strip()
    sick = {{b["id"]: bool(b.get("has_summoning_sickness")) for b in g.battlefield()}}
    shields = [r for r in g.state()["state"]["objects"][str(oid)].get("replacement_definitions", [])
               if r.get("shield_kind") == "Regeneration" and not r.get("is_consumed")]
    return {{
        "zone": o["zone"].lower(), "types": types, "power": p, "toughness": t,
        "colors": [c.lower() for c in o["color"]],
        "base_power": o.get("layer_base_power") if creature else None,
        "base_toughness": o.get("layer_base_toughness") if creature else None,
        "total": p + t if creature else None,
        "combat_damage": max(0, p) if creature else None,
        "counters": {{counters(k, k): n for k, n in o["counters"].items() if n}},
        "damage": o["damage_marked"], "deathtouch_damage": o["dealt_deathtouch_damage"],
        "keywords": [keyword(k) for k in o["keywords"] if keyword(k) != "crew"],
        "tapped": o["tapped"], "summoning_sick": sick.get(oid, False),
        "regeneration_shields": len(shields),
    }}


def observe_player(g, i):
    """The fields of player `i`."""
    p = g.player(i)
    mana = {{}}
    for m in p["mana_pool"]["mana"]:
        letter = {{"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G"}}.get(
            m.get("color"), "C")
        mana[letter] = mana.get(letter, 0) + 1
    return {{"life": p["life"] - {life_offset!r}.get(i, 0),
            "poison": p["poison_counters"] + {poison_offset!r}.get(i, 0), "mana": mana,
            "lost": bool(p["is_eliminated"]) or p["status"].get("type") != "Active"
            or i in {losers!r}}}
'''


def literal(value, indent=0, width=96):
    """A JSON value as Python source, readable: on one line when it fits,
    else one entry of a dict or list per line."""
    text = repr(value)
    if len(text) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return text
    pad = " " * (indent + 4)
    if isinstance(value, dict):
        items = [f"{pad}{k!r}: {literal(v, indent + 4, width)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{pad}{literal(v, indent + 4, width)}," for v in value]
    return "[\n" + "\n".join(items) + "\n" + " " * indent + "]"


def action_literal(action):
    """An action the adapter applied, as the program writes it."""
    if not isinstance(action, dict):
        action = action.to_dict()  # an action the engine offered (Game.actions())
    if action.get("type") == "Debug":
        inner = action["data"]
        if "data" in inner:
            return f"debug({inner['type']!r}, {literal(inner['data'], 4)})"
        return f"debug({inner['type']!r})"
    return literal(action, 4)


def edits(before, after, path="st"):
    """The assignments that make `before` (a state) into `after`."""
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for k in sorted(set(before) | set(after), key=str):
            at = f"{path}[{k!r}]"
            if k not in after:
                out.append(f"del {at}")
            elif k not in before:
                out.append(f"{at} = {literal(after[k])}")
            else:
                out += edits(before[k], after[k], at)
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        return [e for i, (b, a) in enumerate(zip(before, after)) for e in edits(b, a, f"{path}[{i}]")]
    return [] if before == after else [f"{path} = {literal(after)}"]


def program(message, engine_name, recorded):
    """The program: `recorded` holds the cards, decks, ids, lines and the
    adapter's accounting of players (offsets, losers) of the recording."""
    rows, last = checks(message)
    reads = [f"seen = {{}}  # the engine's values, after step {last + 1}"]
    for step, who, field, _, _ in rows:
        if who in recorded["ids"]:
            at = f"observe(g, IDS[{who!r}])"
        else:
            at = f"observe_player(g, {recorded['players'][who]})"
        reads.append(f"seen[({step}, {who!r}, {field!r})] = {at}[{field!r}]")
    parts = [
        "#!/usr/bin/env python3",
        program_docstring(message, engine_name, RUN),
        "",
        "# The cards, by the names the engine's card database keys them by, as the",
        "# adapter writes them (MTGJSON's shape): each object's own Oracle text, and the",
        "# abilities it adds to play a step with the engine's own mechanisms (a damage",
        "# step is the source's \"{0}: NAME deals N damage to any target.\", activated).",
        "CARDS = " + literal(recorded["cards"]),
        "DECKS = " + literal([list(d) for d in recorded["decks"]]),
        "IDS = " + literal(dict(recorded["ids"])) + "  # the case's objects, by the engine's ids",
        checks_literal(message),
        PRELUDE.rstrip(),
        OBSERVE.format(**recorded["accounting"]).rstrip(),
        REPORT.rstrip(),
        "",
        "",
        "\n".join(recorded["lines"]).strip("\n"),
        "",
        "\n".join(reads),
        "sys.exit(report(seen))",
        "",
    ]
    return "\n".join(parts)
