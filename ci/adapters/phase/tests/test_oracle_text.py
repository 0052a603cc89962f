"""The Oracle text the adapter writes for phase.rs's parser, and the parse it
then requires of the engine; what it writes no text for is refused."""

import unittest

from phase_adapter import oracle_text as text
from phase_adapter.terms import Unsupported

PLAYERS = {"you", "them"}
OWN_POWER = {"type": "Ref", "qty": {"type": "Power", "scope": {"type": "Target"}}}


class StaticAbilities(unittest.TestCase):
    def test_a_lord(self):
        ability = {"affects": {"types": ["Creature"], "controller": "you", "other": True},
                   "modify": "+1/+1", "add_keywords": ["flying"]}
        self.assertEqual(text.static_text("Lord", ability, PLAYERS, "you", "w"),
                         ("Other creatures you control get +1/+1 and have flying.",
                          {"AddPower", "AddToughness", "AddKeyword"}))

    def test_its_own_object(self):
        ability = {"affects": "self", "set": "1/1", "remove_all_abilities": True}
        self.assertEqual(text.static_text("Turtle", ability, PLAYERS, "you", "w"),
                         ("Turtle loses all abilities and has base power and toughness 1/1.",
                          {"RemoveAllAbilities", "SetPower", "SetToughness"}))

    def test_types_added_to_a_filter_are_read_whole(self):
        ability = {"affects": {"types": ["Enchantment"]}, "add_types": ["Creature"],
                   "set": "4/4"}
        self.assertEqual(text.static_text("Opalescence", ability, PLAYERS, "you", "w")[0],
                         "All enchantments are creatures in addition to their other types and "
                         "have base power and toughness 4/4.")

    def test_an_equipment_and_an_aura(self):
        ability = {"affects": "attached", "modify": "+2/+0"}
        equipment = text.holder({"id": "e", "subtypes": ["Equipment"], "attached_to": "c"},
                                {"objects": [{"id": "c", "types": ["Creature"]}]})
        self.assertEqual(text.static_text("Sword", ability, PLAYERS, "you", "w", equipment)[0],
                         "Equipped creature gets +2/+0.")
        aura = text.holder({"id": "a", "subtypes": ["Aura"], "attached_to": "l"},
                           {"objects": [{"id": "l", "types": ["Land"]}]})
        with self.assertRaises(Unsupported) as e:
            text.static_text("Aura", ability, PLAYERS, "you", "w", aura)
        self.assertEqual(str(e.exception), "w: a static ability of a on the permanent it is "
                         "attached to (only an Equipment's, or an Aura's on a creature)")

    def test_filters(self):
        self.assertEqual(text.filter_text({"types": ["Creature"], "power_at_most": 2},
                                          PLAYERS, "you", "w"),
                         "Creatures with power 2 or less")
        self.assertEqual(text.filter_text({"types": ["Creature"], "colors": ["white"],
                                           "controller": "them"}, PLAYERS, "you", "w"),
                         "White creatures your opponents control")
        with self.assertRaises(Unsupported) as e:
            text.filter_text({"types": ["Creature", "Artifact"]}, PLAYERS, "you", "w")
        self.assertEqual(str(e.exception), 'w: a static ability whose filter is {"types": '
                         '["Creature", "Artifact"]}')


class Quantities(unittest.TestCase):
    def test_a_count_and_its_parse(self):
        self.assertEqual(
            text.quantity_text({"count": {"types": ["Creature"], "controller": "you"}},
                               PLAYERS, "you", "w"),
            ("the number of creatures you control",
             {"type": "Ref", "qty": {"type": "ObjectCount", "filter": {
                 "type": "Typed", "type_filters": ["Creature"], "controller": "You",
                 "properties": []}}}))

    def test_the_targets_power_read_as_it_resolves(self):
        spec = {"affects": ["c"], "modify": "+X/+0", "x": {"power_of": "c"},
                "until": "end-of-turn"}
        self.assertEqual(text.pump_text(spec, PLAYERS, "you", "w"),
                         ("Target creature gets +X/+0 until end of turn, where X is that "
                          "creature's power.",
                          {"power": {"type": "Quantity", "value": OWN_POWER},
                           "toughness": {"type": "Fixed", "value": 0}}))

    def test_another_objects_power_is_refused(self):
        with self.assertRaises(Unsupported) as e:
            text.quantity_text({"power_of": "d"}, PLAYERS, "you", "w", target="c")
        self.assertEqual(str(e.exception), 'w: the quantity {"power_of": "d"} (the adapter '
                         "writes no Oracle text for it that phase.rs's parser reads as the case "
                         "means)")

    def test_a_cda(self):
        graveyards = {"count": {"types": ["Creature"], "zone": "graveyard"}}
        o = {"id": "t", "pt": "*/1+*", "cda": {"power": graveyards, "toughness": graveyards}}
        written, pt, _ = text.cda_text("Tarmo", o, PLAYERS, "you", "w")
        self.assertEqual(written, "Tarmo's power is equal to the number of creature cards in all "
                         "graveyards and its toughness is equal to that number plus 1.")
        self.assertEqual(pt, ["*", "1+*"])


class Cards(unittest.TestCase):
    def test_primal_clay(self):
        o = {"id": "p", "types": ["Artifact", "Creature"], "pt": "*/*",
             "enters_as": [{"pt": "3/3"}, {"pt": "2/2", "keywords": ["flying"]},
                           {"pt": "1/6", "keywords": ["defender"]}]}
        written, choices = text.choice_text("Primal Clay", o, "w")
        self.assertEqual(written, "As Primal Clay enters, it becomes your choice of a 3/3 "
                         "artifact creature, a 2/2 artifact creature with flying, or a 1/6 "
                         "artifact creature with defender in addition to its other types.")
        self.assertEqual(choices, {"3/3": (3, 3, set()), "2/2": (2, 2, {"Flying"}),
                                   "1/6": (1, 6, {"Defender"})})

    def test_an_nth_counter_trigger(self):
        trigger = {"kind": "+1/+1", "nth": 3,
                   "do": {"effect": {"affects": ["h"], "add_keywords": ["flying"]}}}
        written, parse = text.counter_trigger_text("Hatchling", {"id": "h"}, trigger, "w")
        self.assertEqual(written, "When the third +1/+1 counter is put on Hatchling, Hatchling "
                         "gains flying.")
        self.assertEqual(parse["counter_filter"], {"counter_type": "P1P1", "threshold": 3})

    def test_a_sagas_chapters(self):
        saga = {"id": "s", "subtypes": ["Saga"], "chapters": [
            {"at": [1, 2], "do": {"put_counters": {"on": "c", "kind": "+1/+1"}}},
            {"at": [3], "do": {"effect": {"affects": ["c"], "modify": "+0/+3",
                                          "until": "end-of-turn"}}}]}
        self.assertEqual(text.chapter_lines(saga, {"c": {"types": ["Creature"]}}, "w"),
                         (["I, II — Put a +1/+1 counter on target creature.",
                           "III — Target creature gets +0/+3 until end of turn."],
                          {1: "c", 2: "c", 3: "c"}))

    def test_level_bands(self):
        bands = [{"min": 1, "max": 3, "pt": "2/2"},
                 {"min": 4, "pt": "4/4", "keywords": ["first strike"]}]
        lines, parse = text.level_text(bands, "w")
        self.assertEqual(lines, ["LEVEL 1-3", "2/2", "LEVEL 4+", "4/4", "First strike"])
        self.assertEqual(parse[1]["condition"], {"type": "HasCounters", "counters": {
            "type": "OfType", "data": "level"}, "minimum": 4})

    def test_vorinclex(self):
        self.assertEqual([t for t, _ in text.put_by_text({"you": "twice", "opponents": None},
                                                         "w")],
                         ["If you would put one or more counters on a permanent or player, put "
                          "twice that many of each of those kinds of counters on that permanent "
                          "or player instead."])


class TheAdaptersSpellsAndAbilities(unittest.TestCase):
    def test_an_effect_on_a_filter(self):
        spec = {"affects": {"types": ["Creature"], "controller": "you"}, "modify": "+2/+1",
                "until": "end-of-turn"}
        self.assertEqual(text.locked_effect_text(spec, PLAYERS, "you", "w"),
                         ("{0}: Creatures you control get +2/+1 until end of turn.",
                          {"AddPower", "AddToughness"}))

    def test_counters_put_moved_and_returned(self):
        self.assertEqual(text.counters_spell({"on": "c", "kind": "+1/+1", "count": 3}, "you",
                                             "w")[0],
                         "Put 3 +1/+1 counters on target creature.")
        self.assertEqual(text.counters_spell({"on": "c", "kind": "-1/-1", "by": "them"}, "you",
                                             "w", "graveyard")[::2],
                         ("Put a -1/-1 counter on target creature card in a graveyard.", "them"))
        self.assertEqual(text.move_spell({"from": "a", "to": "b", "kind": "+1/+1", "count": 2},
                                         PLAYERS, "you", "w")[0],
                         "Move two +1/+1 counters from target creature onto another target "
                         "creature.")
        self.assertEqual(text.return_spell({"object": "c", "to": "battlefield",
                                            "counters": {"+1/+1": 3}}, "you", "w")[0],
                         "Return target creature card from a graveyard to the battlefield with "
                         "3 +1/+1 counters on it.")
        self.assertEqual(text.lore_text(3), "{0}: Put three lore counters on target Saga you "
                         "control.")

    def test_a_spell_of_the_case(self):
        o = {"id": "g", "types": ["Instant"], "x_is": {"power_of": "c"},
             "on_resolve": {"effect": {"affects": ["c"], "modify": "+X/+0",
                                       "add_keywords": ["trample"], "until": "end-of-turn",
                                       "x": {"x_of": "g"}}}}
        written, parse = text.resolve_text(o, PLAYERS, "you", "w")
        self.assertEqual(written, "Target creature gains trample and gets +X/+0 until end of "
                         "turn, where X is that creature's power.")
        self.assertEqual(parse["static_abilities"][0]["modifications"],
                         [{"type": "AddDynamicPower", "value": OWN_POWER},
                          {"type": "AddKeyword", "keyword": "Trample"}])

    def test_doubling(self):
        self.assertEqual(text.spell_text("double", {"affects": "c", "what": "both",
                                                    "until": "end-of-turn"},
                                         PLAYERS, "you", "w"),
                         ("Double target creature's power and toughness until end of turn.",
                          {"type": "DoublePT", "mode": "PowerAndToughness", "factor": 2}))
        with self.assertRaises(Unsupported) as e:
            text.spell_text("double_counters", {"on": "them", "kind": "poison"}, PLAYERS, "you",
                            "w")
        self.assertEqual(str(e.exception), "w: doubling a player's poison counters (phase.rs's "
                         "parser reads no Oracle text for it)")

    def test_an_instant_of_the_adapters(self):
        card = text.instant(text.DESTROY, "Destroy target permanent.")
        self.assertEqual((card["name"], card["manaCost"], card["types"], card["text"]),
                         ("Ptoracle Destroy", "{0}", ["Instant"], "Destroy target permanent."))


if __name__ == "__main__":
    unittest.main()
