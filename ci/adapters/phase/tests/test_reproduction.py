"""The text of a reproduction (`repro_text.py`), which runs without phase.rs:
the state edits the program makes, the literals it writes, and the whole
program a recording gives, which must compile and import nothing of
ptoracle's or the adapter's."""

import ast
import unittest

from phase_adapter.repro_text import action_literal, edits, literal, program

MESSAGE = {
    "type": "reproduce", "seq": 3, "edition": "2026-09-25",
    "case": {"id": "phase/x", "title": "A dead creature keeps its damage",
             "description": "A 2/2 dealt 3 damage dies (704.5g).", "rules": ["400.7"]},
    "differences": [{"step": 0, "of": "bear", "field": "damage", "reference": 0, "engine": 3},
                    {"step": 0, "of": "you", "field": "life", "reference": 20, "engine": 19}],
}

RECORDED = {
    "cards": {"grizzly bears": {"name": "Grizzly Bears", "text": "", "power": "2"}},
    "decks": [["Grizzly Bears", "Forest"], ["Forest"]],
    "ids": {"bear": 1}, "players": {"you": 0, "opponent": 1},
    "lines": ["# The case's setup.", "g.apply(0, debug('RunStateBasedActions'))"],
    "accounting": {"life_offset": {}, "poison_offset": {}, "losers": set()},
}


class Text(unittest.TestCase):
    def test_edits_are_the_assignments_that_differ(self):
        before = {"state": {"objects": {"1": {"damage_marked": 0, "tapped": False}},
                            "effects": [1, 2], "gone": 1}}
        after = {"state": {"objects": {"1": {"damage_marked": 3, "tapped": False}},
                           "effects": [1, 2, 3], "new": {"a": 1}}}
        self.assertEqual(edits(before, after), [
            "st['state']['effects'] = [1, 2, 3]",
            "del st['state']['gone']",
            "st['state']['new'] = {'a': 1}",
            "st['state']['objects']['1']['damage_marked'] = 3",
        ])
        self.assertEqual(edits(before, before), [])

    def test_literals_fit_a_line_or_take_one_entry_a_line(self):
        self.assertEqual(literal({"a": [1, 2]}), "{'a': [1, 2]}")
        long = {"key": "x" * 100, "other": [1]}
        self.assertEqual(literal(long), "{\n    'key': '" + "x" * 100 + "',\n    'other': [1],\n}")
        self.assertEqual(ast.literal_eval(literal(long)), long)

    def test_actions_are_written_as_the_engine_takes_them(self):
        self.assertEqual(action_literal({"type": "Debug", "data": {"type": "RunStateBasedActions"}}),
                         "debug('RunStateBasedActions')")
        self.assertEqual(action_literal({"type": "Debug", "data": {"type": "SetTapped",
                                                                   "data": {"object_id": 1}}}),
                         "debug('SetTapped', {'object_id': 1})")
        self.assertEqual(action_literal({"type": "PassPriority"}), "{'type': 'PassPriority'}")

        class Offered:  # an action the engine offered (Game.actions())
            def to_dict(self):
                return {"type": "ChooseTarget", "data": {"target": {"Object": 2}}}
        self.assertEqual(action_literal(Offered()),
                         "{'type': 'ChooseTarget', 'data': {'target': {'Object': 2}}}")

    def test_the_program_compiles_reads_each_field_and_imports_only_the_engine(self):
        text = program(MESSAGE, "phase.rs (phase-python)", RECORDED)
        tree = ast.parse(text)
        imports = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                   for alias in node.names}
        imports |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        self.assertEqual(imports, {"json", "sys", "phase"})
        self.assertTrue(text.startswith('#!/usr/bin/env python3\n"""phase.rs (phase-python): A '
                                        'dead creature keeps its damage'))
        self.assertIn("    (1, 'bear', 'damage', 0),\n    (1, 'you', 'life', 20),\n]", text)
        self.assertIn("seen[(1, 'bear', 'damage')] = observe(g, IDS['bear'])['damage']", text)
        self.assertIn("seen[(1, 'you', 'life')] = observe_player(g, 0)['life']", text)
        self.assertIn("g.apply(0, debug('RunStateBasedActions'))", text)
        self.assertTrue(text.endswith("sys.exit(report(seen))\n"))


if __name__ == "__main__":
    unittest.main()
