"""`refuse(case)`: what the adapter does not map onto phase.rs, refused with
its reason before the engine is started; and what it maps, let through."""

import copy
import sys
import unittest

from phase_adapter.refusals import Unsupported, refuse


def creature(handle, pt="2/2", **more):
    return dict({"id": handle, "types": ["Creature"], "pt": pt}, **more)


def case(objects=None, steps=(), players=None):
    setup = {"objects": objects if objects is not None else [creature("c")]}
    if players is not None:
        setup["players"] = players
    return {"id": "test/case", "setup": setup, "steps": [dict(s) for s in steps]}


def step(action, **more):
    return dict({"do": action}, **more)


def no_probe(keyword):
    raise AssertionError(f"the engine's parser was asked about {keyword!r}")


class Refusals(unittest.TestCase):
    def refused(self, c, probe=no_probe):
        with self.assertRaises(Unsupported) as e:
            refuse(c, probe)
        return str(e.exception)

    def assertRefused(self, c, reason, probe=no_probe):
        self.assertEqual(self.refused(c, probe), reason)

    def assertPlayed(self, c, probe=no_probe):
        before = copy.deepcopy(c)
        self.assertIsNone(refuse(c, probe))
        self.assertEqual(c, before, "refuse() changed the case")

    def test_a_case_it_maps_is_let_through_without_the_engine(self):
        self.assertPlayed(case([creature("c", keywords=["flying"]), creature("d", "1/1")], [
            step({"put_counters": {"on": "c", "kind": "+1/+1", "count": 2}}),
            step({"effect": {"affects": ["c"], "modify": "+1/+0", "until": "end-of-turn"}}),
            step({"damage": {"from": "d", "to": "c", "amount": 3}}),
            step("state_based_actions"),
            step("cleanup"),
        ]))
        self.assertFalse("phase" in sys.modules, "the refusals imported phase")

    def test_players(self):
        three = [{"id": "a"}, {"id": "b"}, {"id": "c"}]
        self.assertRefused(case(players=three),
                           "a game of 3 players (the adapter starts a two-player game)")
        self.assertRefused(case(players=[{"id": "you", "hand": 3}, {"id": "them"}]),
                           "player you: a hand size")
        self.assertRefused(case(players=[{"id": "you", "life": 2**31}, {"id": "them"}]),
                           "player you: life: 2147483648 does not fit in phase.rs's 32-bit "
                           "numbers")

    def test_objects(self):
        self.assertRefused(case([creature("c", zone="command")]),
                           "setup object c: an object on the command in the setup")
        self.assertRefused(case([creature("c", zone="stack")]),
                           "setup object c: a Creature spell on the stack in the setup (the "
                           "adapter keeps an instant or sorcery there, which never resolves)")
        self.assertRefused(case([creature("c", copy="d"), creature("d")]),
                           "setup object c: set up as a copy (the adapter has objects become or "
                           "enter as copies by abilities the engine resolves)")
        self.assertRefused(case([creature("c", counters={"stun": 1})]),
                           "setup object c: stun counters")
        self.assertRefused(case([creature("c", pt="*/*")]),
                           "setup object c: the value '*/*' (characteristic-defining or `*`)")
        self.assertRefused(case([creature("c", face_down=True, controller="them")],
                                players=[{"id": "you"}, {"id": "them"}]),
                           "setup object c: face down off the battlefield or under the second "
                           "player's control (the first player plays it face down)")
        self.assertRefused(case([creature("c", regeneration_shields=1, zone="graveyard")]),
                           "setup object c: regeneration shields off the battlefield")

    def test_a_spell_on_the_stack_only_deals_damage(self):
        bolt = {"id": "bolt", "types": ["Instant"], "zone": "stack"}
        self.assertPlayed(case([bolt, creature("c")],
                               [step({"damage": {"from": "bolt", "to": "c", "amount": 3}})]))
        self.assertRefused(case([bolt, creature("c")], [step({"move": {"object": "bolt",
                                                                       "to": "graveyard"}})]),
                           "setup object bolt: on the stack in the setup, and step 1 acts on it "
                           "or reads it (the adapter keeps it in the engine's stack zone, where "
                           "it never resolves, and deals its damage with a card of its face)")

    def test_keywords_outside_the_list_are_asked_of_the_parser(self):
        banding = case([creature("c", keywords=["banding"])])
        self.assertPlayed(banding, lambda k: "Banding" if k == "banding" else None)
        self.assertRefused(banding, "setup object c: the keyword banding (phase.rs's parser does "
                           "not read it as a bare keyword, or gives it an ability)",
                           lambda k: None)
        # A changeling is read as one only where a filter names a subtype.
        self.assertPlayed(case([creature("c", keywords=["changeling"])]))

    def test_steps_it_plays_through_priority_refuse_deferred_state_based_actions(self):
        damage = step({"damage": {"from": "c", "to": "c", "amount": 1}}, sba=False)
        self.assertRefused(case(steps=[damage]),
                           "step 1: damage with state-based actions deferred (the ability "
                           "resolves through priority, which checks them, 704.3)")
        self.assertRefused(case(steps=[step("cleanup", sba=False)]),
                           "step 1: the cleanup step with state-based actions deferred (the "
                           "engine checks them as the next turn's upkeep gives priority, 704.3)")
        self.assertRefused(case(steps=[step({"regenerate": "c"}, sba=False)]),
                           "step 1: `regenerate` with state-based actions deferred (the spell or "
                           "ability resolves through priority, which checks them, 704.3)")
        self.assertRefused(
            case(steps=[step({"double": {"affects": "c", "what": "power",
                                         "until": "end-of-turn"}}, sba=False)]),
            "step 1: `double` with state-based actions deferred (the adapter casts a spell for "
            "it, which resolves through priority, 704.3)")
        # A step played with the engine's debug actions defers them as asked.
        self.assertPlayed(case(steps=[step({"put_counters": {"on": "c", "kind": "-1/-1"}},
                                           sba=False)]))

    def test_steps_it_does_not_map(self):
        self.assertRefused(case(steps=[step({"transform": "c"})]),
                           "step 1: the step `transform`")
        self.assertRefused(case(steps=[step({"begin_turn": "nobody"})]),
                           "step 1: the turn of nobody")
        self.assertRefused(
            case(steps=[step({"effect": {"affects": ["c"], "modify": "+1/+1",
                                         "until": "end-of-combat"}})]),
            "step 1: the duration end-of-combat")
        self.assertRefused(
            case(steps=[step({"effect": {"affects": ["c"], "modify": "+X/+0",
                                         "x": {"power_of": "c"}, "until": "forever"}})]),
            "step 1: an effect with an amount read from the game other than one creature's "
            "+X/+Y until end of turn")
        self.assertRefused(
            case(steps=[step({"move_counters": {"from": "c", "to": "c", "kind": "+1/+1"}})]),
            "step 1: counters moved from c onto itself (the adapter's spell moves them onto "
            "another target creature)")
        self.assertRefused(case(steps=[step({"pay_cost": {"cost": "{1}", "payment": 1}})]),
                           "step 1: payment 1 of the cost (the engine pays a cost its own way: "
                           "the adapter can ask it for the payment with the least life, no "
                           "other one)")
        self.assertRefused(case(steps=[step({"put_counters": {"on": "c", "kind": "lore"}})]),
                           "step 1: lore counters put on c (the adapter puts one to ten on a Saga "
                           "of the first player, by an ability the engine resolves)")

    def test_what_earlier_steps_did_counts(self):
        attack = step({"attack": [{"attacker": "c"}]})
        self.assertRefused(case(steps=[attack, attack]),
                           "step 2: a second combat in the case (the adapter walks the engine "
                           "through one combat)")
        players = [{"id": "you"}, {"id": "them"}]
        steal = step({"gain_control": {"object": "c", "player": "them"}})
        self.assertPlayed(case(steps=[steal, step({"destroy": "c"})], players=players))
        self.assertRefused(case(steps=[steal, step({"move": {"object": "c",
                                                             "to": "graveyard"}})],
                                players=players),
                           "step 2: `move` after a control change (the adapter maps it by the "
                           "setup's controllers)")

    def test_casting_a_spell(self):
        pump = {"id": "giant", "types": ["Instant"], "zone": "hand", "mana_cost": "{G}",
                "x_is": {"power_of": "c"},
                "on_resolve": {"effect": {"affects": ["c"], "modify": "+X/+0",
                                          "until": "end-of-turn", "x": {"x_of": "giant"}}}}
        self.assertPlayed(case([creature("c"), pump], [step({"cast": {"object": "giant"}}),
                                                        step({"resolve": "giant"})]))
        self.assertRefused(case([creature("c"), pump], [step({"cast": {"object": "c"}})]),
                           "step 1: casting c (the adapter casts an instant or sorcery of the "
                           "first player's hand with what it does as it resolves, `on_resolve`, "
                           "and no X)")
        self.assertRefused(case([creature("c"), dict(pump, mana_cost="{S}")],
                                [step({"cast": {"object": "giant"}})]),
                           "step 1: casting a spell with {S} in its mana cost")
        self.assertRefused(case([creature("c"), dict(pump, x_is=None)]),
                           "setup object giant: a spell's X of {\"x_of\": \"giant\"}")

if __name__ == "__main__":
    unittest.main()
