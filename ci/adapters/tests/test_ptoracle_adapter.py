"""The protocol loop the Python adapters share: one reply per request, in
order, until `bye`; an exception is the case's error and the loop goes on;
the handshake and the answer to a `run` as docs/protocol.md has them."""

import contextlib
import importlib.util
import io
import json
import sys
import unittest

import ptoracle_adapter as protocol

from . import ADAPTERS

EDITIONS = ["2026-09-25"]


def hello(offer):
    return protocol.hello_reply({"name": "test", "version": "1"}, ["counters"], EDITIONS,
                                offer=offer, pipeline=8)


def play(case):
    if case.get("refuse"):
        raise protocol.Unsupported(case["refuse"])
    if case.get("crash"):
        raise ValueError("boom")
    return [{"objects": {}, "players": {}}], case.get("error")


def respond(message):
    return protocol.answer(message, hello, play, EDITIONS, "the test engine implements one")


def served(*lines):
    """The replies to these request lines, and what went to stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        protocol.serve(respond, io.StringIO("".join(line + "\n" for line in lines)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def run(seq, case, edition=EDITIONS[0]):
    return json.dumps({"type": "run", "seq": seq, "edition": edition, "case": case})


class Loop(unittest.TestCase):
    def test_one_reply_per_request_until_bye(self):
        replies, err = served(json.dumps({"type": "hello", "protocol": 1, "ptoracle": "0.1.0"}),
                              "", run(1, {}), run(2, {"refuse": "step 1: the step `crew`"}),
                              json.dumps({"type": "bye"}), run(3, {}))
        self.assertEqual([r["type"] for r in replies], ["hello", "result", "unsupported"])
        self.assertEqual(replies[1], {"type": "result", "seq": 1,
                                      "steps": [{"objects": {}, "players": {}}]})
        self.assertEqual(replies[2], {"type": "unsupported", "seq": 2,
                                      "reason": "step 1: the step `crew`"})
        self.assertEqual(err, "")

    def test_an_exception_is_the_cases_error_and_the_loop_goes_on(self):
        replies, err = served(run(5, {"crash": True}), "not json", run(6, {}))
        self.assertEqual(replies[0], {"type": "error", "seq": 5, "message": "ValueError: boom"})
        self.assertEqual(replies[1]["type"], "error")
        self.assertIsNone(replies[1]["seq"])
        self.assertTrue(replies[1]["message"].startswith("JSONDecodeError: "))
        self.assertEqual(replies[2]["seq"], 6)
        self.assertIn("Traceback", err)
        self.assertIn("ValueError: boom", err)

    def test_a_step_that_could_not_complete(self):
        error = {"step": 0, "code": "invalid", "message": "c is in the graveyard"}
        replies, _ = served(run(7, {"error": error}))
        self.assertEqual(replies[0]["error"], error)

    def test_another_edition_and_another_message(self):
        replies, _ = served(run(8, {}, edition="2003-03-15"), json.dumps({"type": "x", "seq": 9}))
        self.assertEqual(replies, [
            {"type": "unsupported", "seq": 8,
             "reason": "edition 2003-03-15 (the test engine implements one)"},
            {"type": "error", "seq": 9, "message": "unknown message type 'x'"}])


class Handshake(unittest.TestCase):
    def test_pipelining_only_when_offered(self):
        offered = hello({"type": "hello", "protocol": 1, "pipeline": 16})
        self.assertEqual(offered["pipeline"], 8)
        self.assertNotIn("pipeline", hello({"type": "hello", "protocol": 1}))
        self.assertNotIn("pipeline", protocol.hello_reply({}, [], EDITIONS, offer=offered))

    def test_the_reply(self):
        reply = protocol.hello_reply({"name": "e", "version": "2"}, ["set"], EDITIONS,
                                     unobserved=["lki"])
        self.assertEqual(reply, {"type": "hello", "protocol": 1,
                                 "engine": {"name": "e", "version": "2"}, "features": ["set"],
                                 "editions": EDITIONS, "unobserved": ["lki"]})

    def test_an_engine_not_installed_has_an_unknown_version(self):
        self.assertEqual(protocol.distribution_version("no-such-distribution-ptoracle"),
                         "unknown")


class Reproductions(unittest.TestCase):
    """The optional capability: declared only when offered, a `reproduce`
    answered with the program, a refusal unsupported, none without it."""

    REQUEST = {"type": "reproduce", "seq": 4, "edition": EDITIONS[0],
               "case": {"id": "a/b", "title": "t", "rules": ["704.5q"]},
               "reference": [],
               "differences": [{"step": 1, "of": "c", "field": "counters",
                                "reference": {}, "engine": {"+1/+1": 1, "-1/-1": 1}}]}

    def test_declared_only_when_offered(self):
        mine = protocol.reproducer("python", "py", "python3 FILE")
        offered = protocol.hello_reply({}, [], EDITIONS, offer={"reproduce": True},
                                       reproducer=mine)
        self.assertEqual(offered["reproduce"],
                         {"language": "python", "extension": "py", "run": "python3 FILE"})
        self.assertNotIn("reproduce", protocol.hello_reply({}, [], EDITIONS, offer={},
                                                           reproducer=mine))

    def test_a_request_is_answered_with_the_program_or_a_refusal(self):
        def reproduce(message):
            if message["case"]["id"] == "no/way":
                raise protocol.Unsupported("not this case")
            rows, last = protocol.checks(message)
            return f"# {rows} after step {last + 1}"
        reply = protocol.answer(self.REQUEST, hello, play, EDITIONS, "x", reproduce)
        self.assertEqual(reply, {"type": "reproduction", "seq": 4,
                                 "program": "# [(2, 'c', 'counters', {}, {'+1/+1': 1, "
                                            "'-1/-1': 1})] after step 2"})
        refused = dict(self.REQUEST, case={"id": "no/way"})
        self.assertEqual(protocol.answer(refused, hello, play, EDITIONS, "x", reproduce),
                         {"type": "unsupported", "seq": 4, "reason": "not this case"})
        self.assertEqual(respond(self.REQUEST)["type"], "error")

    def test_the_shared_parts_of_a_program_run(self):
        text = "\n".join([protocol.program_docstring(self.REQUEST, "e", "python3 FILE"),
                          "import sys", protocol.checks_literal(self.REQUEST), protocol.REPORT,
                          "seen = {(2, 'c', 'counters'): {'+1/+1': 1, '-1/-1': 1}}",
                          "status = report(seen)"])
        space = {}
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(compile(text, "repro.py", "exec"), space)
        self.assertEqual(space["status"], 1)
        self.assertIn("after step 2: c.counters: engine {'+1/+1': 1, '-1/-1': 1}, rules {}",
                      out.getvalue())
        space["seen"][(2, "c", "counters")] = {}
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(space["report"](space["seen"]), 0)


class Template(unittest.TestCase):
    """ci/adapters/python-example/adapter.py, through the shared loop."""

    @classmethod
    def setUpClass(cls):
        here = ADAPTERS / "python-example"
        sys.path.insert(0, str(here))
        spec = importlib.util.spec_from_file_location("python_example_adapter",
                                                      here / "adapter.py")
        cls.adapter = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cls.adapter)

    def test_it_plays_and_refuses(self):
        case = {"id": "t", "setup": {"objects": [{"id": "c", "types": ["Creature"],
                                                  "pt": "2/2"}]},
                "steps": [{"do": {"put_counters": {"on": "c", "kind": "+1/+1"}}}]}
        steps, error = self.adapter.play(case)
        self.assertIsNone(error)
        self.assertEqual((steps[0]["objects"]["c"]["power"],
                          steps[0]["objects"]["c"]["toughness"]), (3, 3))
        case["steps"].append({"do": {"crew": {"vehicle": "c", "with": []}}})
        with self.assertRaises(protocol.Unsupported) as e:
            self.adapter.play(case)
        self.assertEqual(str(e.exception), "step 2: the step `crew`")

    def test_it_accepts_pipelining(self):
        self.assertEqual(self.adapter.hello({"pipeline": 16})["pipeline"], 64)


if __name__ == "__main__":
    unittest.main()
