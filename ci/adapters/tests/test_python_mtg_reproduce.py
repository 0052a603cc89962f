"""python-mtg's reproductions (ci/adapters/python-mtg/reproduce.py), the
parts that run without the engine: the facts a program writes are the
difference between two states, sets in sorted order, the engine's random
generator left to the calls that advance it."""

import random
import sys
import unittest

from . import ADAPTERS

sys.path.insert(0, str(ADAPTERS / "python-mtg"))
import reproduce  # noqa: E402


class Facts(unittest.TestCase):
    def test_edits_are_the_facts_added_removed_and_set(self):
        before = {"counter": {("c", "p1p1", 1)}, "marked": set(), "_forced": {},
                  "_rng": random.Random(1), "gone": {("x",)}}
        after = {"counter": {("c", "m1m1", 1), ("c", "p1p1", 1)}, "marked": {("c", 2)},
                 "_forced": {"target": "c"}, "_rng": random.Random(2), "_loser": "bob"}
        self.assertEqual(reproduce.edits(before, after), [
            "s['_forced'] = {'target': 'c'}",
            "s['_loser'] = 'bob'",
            "s['counter'].add(('c', 'm1m1', 1))",
            "s.pop('gone')",
            "s['marked'].add(('c', 2))",
        ])

    def test_literals_of_sets_are_sorted(self):
        self.assertEqual(reproduce.literal({("b",), ("a",)}), "{('a',), ('b',)}")
        self.assertEqual(reproduce.literal(set()), "set()")


if __name__ == "__main__":
    unittest.main()
