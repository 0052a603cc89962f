"""What the adapter maps onto phase.rs, and the precise reason for what it
does not: `refuse(case)` raises `Unsupported` naming the first thing of the
case it can't play, before the engine is started. Needs no engine (a
keyword outside the adapter's list is asked of the engine's parser through
`probe`)."""

import json

from .oracle_text import (COPYING, ENTERING, NUMBER_WORDS, cda_text, chapter_lines, choice_text,
                          counter_trigger_text, counters_spell, holder, level_text,
                          locked_effect_text, move_spell, pump_text, put_by_text, resolve_text,
                          return_spell, spell_text, static_text)
from .terms import (ENGINE_ZONES, KEYWORDS, SPELL_TYPES, Unsupported, cost_mana, counter_name,
                    fixed, mana_of, parse_pt)


# The steps the adapter plays after a control change: their mapping reads
# who controls what from the engine (the others from the case's setup).
AFTER_CONTROL = {"damage", "begin_turn", "cleanup", "state_based_actions", "put_counters",
                 "remove_counters", "effect", "destroy", "gain_control", "regenerate",
                 "prevent", "combat_damage"}


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


# What `refuse` says of a step it refuses with state-based actions deferred
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


def refuse(case, probe=None):
    """Raises `Unsupported` naming the first thing of the case the adapter
    does not map onto phase.rs, before the engine is started. `probe(k)`:
    the Oracle text phase.rs's parser reads as the bare keyword `k` and
    nothing else, or None (by default the engine's parser is asked,
    `engine.inert_keyword_text`; only a keyword outside the adapter's own
    list asks it)."""
    if probe is None:
        probe = engine_probe
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
        refuse_object(o, case, players, first, probe)
    c = Refusing(case, players, first, probe)
    for i, step in enumerate(case.get("steps", [])):
        refuse_step(c, step, f"step {i + 1}")


def engine_probe(k):
    """The engine parser's reading of a bare keyword (`engine.py`): only
    here is the engine imported by the refusals."""
    from .engine import inert_keyword_text
    return inert_keyword_text(k)


def refuse_object(o, case, players, first, probe):
    """What the adapter does not map of a setup object."""
    setup = case.get("setup", {})
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
        if k not in KEYWORDS and probe(k) is None:
            raise Unsupported(f"{where}: the keyword {k} (phase.rs's parser does not read "
                              "it as a bare keyword, or gives it an ability)")
    fixed(o.get("damage", 0), where)
    if o.get("regeneration_shields") and o.get("zone", "battlefield") != "battlefield":
        raise Unsupported(f"{where}: regeneration shields off the battlefield")


class Refusing:
    """What the refusal of a step reads: the case, its objects by handle, its
    players (`first`: the one the adapter plays as), and what earlier steps
    did (an attack declared, a control change)."""

    def __init__(self, case, players, first, probe):
        self.case = case
        self.setup = case.get("setup", {})
        self.objects = {o["id"]: o for o in self.setup.get("objects", [])}
        self.players = players
        self.first = first
        self.probe = probe
        self.putters = really_put(self.setup.get("objects", []))
        self.attacked = False
        self.controlled = False


def refuse_step(c, step, where):
    """What the adapter does not map of a step (`STEPS`, by its name)."""
    action = step["do"]
    kind = action if isinstance(action, str) else next(iter(action))
    if c.controlled and (kind not in AFTER_CONTROL or kind == "effect"
                         and not isinstance(action["effect"].get("affects"), list)):
        raise Unsupported(f"{where}: `{kind}` after a control change (the adapter maps it "
                          "by the setup's controllers)")
    if action == "state_based_actions":
        return
    if action == "cleanup":
        deferred(step, "cleanup", where)
        return
    (name, body), = action.items()
    refusal = STEPS.get(name)
    if refusal is None:
        raise Unsupported(f"{where}: the step `{name}`")
    refusal(c, step, body, where)


def refuse_put_counters(c, step, body, where):
    objects, players, first = c.objects, c.players, c.first
    if sealed_put(body, objects) \
            and (counter_name(body["kind"]) in (None, "level") or body["kind"] == "poison"):
        raise Unsupported(f"{where}: {body['kind']} counters put on {body['on']}, which "
                          "can't have counters put on it (the adapter puts them with a spell "
                          "that puts P/T, keyword or charge counters on a creature)")
    if c.putters or sealed_put(body, objects):
        counters_spell(body, first, where,
                       objects.get(body["on"], {}).get("zone", "battlefield"))
        if not step.get("sba", True) and sealed_put(body, objects):
            raise Unsupported(f"{where}: counters put by a spell with state-based actions "
                              "deferred (it resolves through priority, 704.3)")
        return
    if body["kind"] == "poison" and body["on"] in players:
        fixed(body.get("count", 1), where)
        return
    if counter_name(body["kind"]) is None:
        raise Unsupported(f"{where}: {body['kind']} counters")
    fixed(body.get("count", 1), where)
    if body["kind"] == "lore":
        saga = objects.get(body["on"], {})
        if "Saga" not in saga.get("subtypes", []) \
                or saga.get("controller", first) != first \
                or body.get("count", 1) not in NUMBER_WORDS:
            raise Unsupported(f"{where}: lore counters put on {body['on']} (the adapter "
                              "puts one to ten on a Saga of the first player, by an "
                              "ability the engine resolves)")
        deferred(step, "lore", where)


def refuse_remove_counters(c, step, body, where):
    if counter_name(body["kind"]) is None:
        raise Unsupported(f"{where}: {body['kind']} counters")
    fixed(body.get("count", 1), where)


def refuse_effect(c, step, body, where):
    players, first = c.players, c.first
    if isinstance(body.get("affects"), dict):
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
        if k not in KEYWORDS and c.probe(k) != k.capitalize():
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


def refuse_move(c, step, body, where):
    objects, first = c.objects, c.first
    if body["to"] not in ENGINE_ZONES:
        raise Unsupported(f"{where}: a move to the {body['to']}")
    moved = objects.get(body["object"], {})
    if c.putters and any((body.get("counters") or {}).values()):
        return_spell(body, first, where, "hand" if moved.get("zone") == "hand"
                     else "graveyard")
    elif moved.get("cant_have_counters_put") and any((body.get("counters") or {}).values()):
        raise Unsupported(f"{where}: {body['object']}, which can't have counters put on "
                          "it, enters with counters (the adapter would put them with "
                          "the engine's debug action, which skips the replacement that "
                          "stops them, 122.6)")
    elif entering_with_counters(moved, body):
        zone = moved.get("zone", "battlefield")
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
        if body.get("copy") or (c.putters and any((body.get("counters") or {}).values())):
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


def refuse_combat_damage(c, step, body, where):
    deferred(step, "combat_damage", where)
    for entry in body:
        kinds = set(c.objects.get(entry["to"], {}).get("types", []))
        if kinds & {"Battle", "Planeswalker"}:
            raise Unsupported(f"{where}: combat damage to {entry['to']}, a "
                              f"{'/'.join(sorted(kinds))} (attacking a battle or a "
                              "planeswalker is not mapped)")
        if "amount" in entry:
            raise Unsupported(f"{where}: combat damage with an amount of its own (the "
                              "adapter lets the engine assign each creature's damage)")


def refuse_copy(c, step, body, where):
    extra = set(body) - {"name", "object", "of", "until"}
    if extra:
        raise Unsupported(f"{where}: a copy effect with {sorted(extra)}")
    if body.get("until", "forever") not in COPYING:
        raise Unsupported(f"{where}: a copy effect for {body.get('until')}")
    for h in (body["object"], body["of"]):
        if c.objects.get(h, {}).get("types") != ["Creature"]:
            raise Unsupported(f"{where}: a copy effect on or of {h}, not a creature "
                              "(the adapter's ability targets creatures)")
    if body["object"] == body["of"]:
        raise Unsupported(f"{where}: an object that becomes a copy of itself")
    deferred(step, "copy", where)


def refuse_turn_face_up(c, step, body, where):
    deferred(step, "turn_face_up", where)


def refuse_turn_face_down(c, step, body, where):
    if c.objects.get(body, {}).get("types") != ["Creature"]:
        raise Unsupported(f"{where}: turning {body} face down, not a creature (the "
                          "adapter's ability targets a creature)")
    deferred(step, "turn_face_down", where)


def refuse_crew(c, step, body, where):
    if any(c.objects.get(h, {}).get("controller", c.first) != c.first
           for h in [body["vehicle"]] + body["with"]):
        raise Unsupported(f"{where}: crewing with the second player's permanents (the "
                          "adapter activates abilities as the first player)")
    deferred(step, "crew", where)


def refuse_attach(c, step, body, where):
    objects, first = c.objects, c.first
    moved = objects.get(body["object"], {})
    mine = moved.get("controller", first) == first and \
        objects.get(body["to"], {}).get("controller", first) == first
    if "Equipment" not in moved.get("subtypes", []) or not mine:
        raise Unsupported(f"{where}: attaching {body['object']} (only the first player's "
                          "Equipment to the first player's creature, by its equip "
                          "ability, is mapped)")
    deferred(step, "attach", where)


def refuse_cast(c, step, body, where):
    setup, first = c.setup, c.first
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


def refuse_resolve(c, step, body, where):
    deferred(step, "resolve", where)


def refuse_move_counters(c, step, body, where):
    move_spell(body, c.players, c.first, where)
    if not step.get("sba", True):
        raise Unsupported(f"{where}: moving counters with state-based actions deferred "
                          "(the adapter casts a spell for it, which resolves through "
                          "priority, 704.3)")


def refuse_double(c, step, body, where):
    name = next(iter(step["do"]))
    spell_text(name, body, c.players, c.first, where)
    deferred(step, "double", where, name=name)


def refuse_exchange(c, step, body, where):
    exchanged(body, c.case, c.first, where)


def refuse_add_mana(c, step, body, where):
    mana_source(body, c.case, c.players, c.first, where)


def refuse_pay_cost(c, step, body, where):
    if body.get("player", c.first) != c.first:
        raise Unsupported(f"{where}: a cost paid by {body['player']} (the adapter casts "
                          "as the first player)")
    deferred(step, "pay_cost", where)
    if body.get("payment", 0):
        raise Unsupported(f"{where}: payment {body['payment']} of the cost (the engine "
                          "pays a cost its own way: the adapter can ask it for the "
                          "payment with the least life, no other one)")
    paid_cost(body, c.case, where)


def refuse_attack(c, step, body, where):
    deferred(step, "attack", where)
    if c.attacked:
        raise Unsupported(f"{where}: a second combat in the case (the adapter walks "
                          "the engine through one combat)")
    c.attacked = True
    for decl in body:
        defender = decl.get("defender")
        if defender is not None and defender not in c.players:
            raise Unsupported(f"{where}: an attack on {defender}, a permanent "
                              "(planeswalkers and battles are not mapped)")


def refuse_combat_damage_step(c, step, body, where):
    deferred(step, "combat_damage_step", where)


def refuse_prevent(c, step, body, where):
    fixed(body["amount"], where)
    deferred(step, "prevent", where)


def refuse_destroy(c, step, body, where):
    deferred(step, "destroy", where, name=next(iter(step["do"])))


def refuse_begin_turn(c, step, body, where):
    if body not in c.players:
        raise Unsupported(f"{where}: the turn of {body}")


def refuse_gain_control(c, step, body, where):
    c.controlled = True
    held = c.objects.get(body["object"], {})
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


def refuse_damage(c, step, body, where):
    fixed(body["amount"], where)
    deferred(step, "damage", where)


# The refusal of each step the adapter plays, by the step's name; any other
# step is refused by its name.
STEPS = {
    "put_counters": refuse_put_counters,
    "remove_counters": refuse_remove_counters,
    "effect": refuse_effect,
    "move": refuse_move,
    "combat_damage": refuse_combat_damage,
    "copy": refuse_copy,
    "turn_face_up": refuse_turn_face_up,
    "turn_face_down": refuse_turn_face_down,
    "crew": refuse_crew,
    "attach": refuse_attach,
    "cast": refuse_cast,
    "resolve": refuse_resolve,
    "move_counters": refuse_move_counters,
    "double": refuse_double,
    "triple": refuse_double,
    "double_counters": refuse_double,
    "exchange": refuse_exchange,
    "add_mana": refuse_add_mana,
    "pay_cost": refuse_pay_cost,
    "attack": refuse_attack,
    "combat_damage_step": refuse_combat_damage_step,
    "prevent": refuse_prevent,
    "destroy": refuse_destroy,
    "regenerate": refuse_destroy,
    "begin_turn": refuse_begin_turn,
    "gain_control": refuse_gain_control,
    "damage": refuse_damage,
}


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


def sealed_put(body, objects):
    """Whether a `put_counters` is on an object that can't have counters put
    on it: the engine's replacement that stops them (122.6) applies only to
    counters a spell or ability puts, not to its debug action, so the
    adapter casts `counters_spell` for it."""
    return bool(objects.get(body["on"], {}).get("cant_have_counters_put"))


def really_put(objects):
    """Whether counters are put by the adapter's real spells: when who puts
    them matters (`counters_put_by`, 122.6a) or what they trigger
    (`counter_triggers`, 122.7); the engine's debug action triggers
    nothing."""
    return any(o.get("counters_put_by") or o.get("counter_triggers") for o in objects)


def players_mana(setup, first):
    return any(p.get("mana") for p in setup.get("players", []) if p["id"] == first)


def objects_of(setup):
    return {o["id"]: o for o in setup.get("objects", [])}


def entering_with_counters(o, move):
    """A move onto the battlefield of a permanent that enters with counters
    of its own: a planeswalker's loyalty (306.5b), a battle's defense
    (310.4b), a Saga's lore counter (714.3a); or as a copy (Clone, 707.2)."""
    return move["to"] == "battlefield" and o.get("zone", "battlefield") != "battlefield" \
        and bool(o.get("loyalty") or o.get("defense") or "Saga" in o.get("subtypes", [])
                 or move.get("copy"))
