"""Oracle text for phase.rs's parser: what the adapter writes on a card (a
static ability, a characteristic-defining ability, level bands, a Saga's
chapters, an Nth-counter trigger, a replacement effect) or on one of its own
instants and abilities, each with the parse the adapter then checks the
engine's parser gives it. It refuses, with the reason, what it writes no
text for. Needs no engine: the parse is checked in `faces.py`."""

import json
import re

from .terms import (KEYWORDS, Unsupported, counter_name, engine_keyword, fixed,
                    parse_pt)


# The instant the player who gains control casts for a `gain_control` step:
# the control change lasts indefinitely (613.1b), so no duration.
CONTROL = "Gain control of target creature."


def instant(name, text, cost="{0}"):
    """The card of one of the adapter's instants, for phase.rs's parser."""
    return {"name": name, "manaCost": cost, "colors": [], "colorIdentity": [],
            "type": "Instant", "types": ["Instant"], "subtypes": [], "supertypes": [],
            "text": text, "layout": "normal", "manaValue": 0, "identifiers": {}}


# The instant the adapter casts for a `destroy` step.
DESTROY = "Ptoracle Destroy"
# The instants it casts for a `prevent` step ("Ptoracle Prevent 3").
PREVENT = "Ptoracle Prevent"


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


# The effect source's ability that turns a creature face down (708.2).
FACE_DOWN = "{0}: Turn target creature face down."


def lore_text(n):
    """The effect source's ability that puts lore counters (714.2b)."""
    return f"{{0}}: Put {NUMBER_WORDS[n]} lore counter{'s' if n > 1 else ''} " \
        "on target Saga you control."


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
