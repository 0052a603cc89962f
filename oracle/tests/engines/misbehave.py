#!/usr/bin/env python3
"""A misbehaving engine, for testing the gate: it passes every request to
`ptoracle serve` (the binary named by $PTORACLE_BIN) and misbehaves on the
request with sequence number 3, the first for the second case (the gate
asks every passing corpus case twice: request 2 is the first case again),
or on the one whose number $MISBEHAVE_ON gives, or on every request if it
is `all`, in the way MODE says:

  crash          exits with status 3 before answering
  last-words     closes stdout, writes to stderr a moment later, exits 3
  hang           never answers (and, if $HANG_MARK names a file, writes
                 its pid there first: the sign that it hangs now)
  always-hang    never answers any case
  orphan         starts a process that leaves its session (setsid) and
                 holds stdout open, writes that process's pid to
                 $ORPHAN_MARK, then exits with status 3 before answering
  garbage        answers a line that is not JSON
  floats         answers with every integer written as a float (2.0)
  fraction       answers with a power of 2.5
  omit           answers without the `damage` field of every object
  wrong-seq      answers with sequence number 99
  duplicate-key  answers with a key given twice (a power of -7, then the
                 right one: a parser that keeps the last sees no lie)
  beyond-64-bits answers with a damage of 2**63 (an integer, too large)
  reply-twice    answers twice
  reply-early    answers, then answers request 3 before it is sent
  reply-unread   answers, waits until the next request is there to read,
                 answers it without reading it (its reply is right: the
                 request is the same case asked again), then stops reading
  reply-twice-always answers every request twice (not only request 2)
  hostile-text   is named, answers an error and writes to stderr with ANSI
                 escapes, NULs and newlines that fake a line of the report,
                 and HTML and a Markdown link in its name and message
  alternate      answers every other request (each even seq) with every
                 power one more: asked twice in a row, a case gets two answers
  stderr-flood   writes 20 MB to stderr, then answers correctly
  huge-line      writes 100 MB on one line
  engine-error   answers {"type": "error"} with a message
  unsupported    answers {"type": "unsupported"}
  unsupported-objects answers every generated case {"type": "unsupported"},
                 naming the case's last object in its reason (as an
                 adapter does: "setup object o3: ..."), and the others well
  handshake-exit exits as soon as it reads the hello
  handshake-flaky exits on its first hello only (the file $FLAKY_MARK
                  remembers it), then behaves
  version        answers the hello with protocol version 2
  unknown-feature declares a feature ptoracle does not know (`countres`)
  no-features    declares no feature
  ok             behaves

With $MISBEHAVE_PIPELINE set it declares the pipeline `serve` declares
(several requests in flight, when ptoracle's hello offers it; otherwise it
declares none), writes the id of the case of request 3 to the file
$MISBEHAVE_NAMES (if set) before it misbehaves, and has three more modes:

  out-of-order   holds back its reply to request 3 and writes it after its
                 reply to request 4 (the protocol allows this)
  drop           never answers request 3, answers every other
  reply-unsent   answers request 3, then request 1003 (not yet sent)
"""
import json
import os
import select
import stat
import subprocess
import sys
import time

ORPHAN = """
import os, sys, time
os.setsid()
path = sys.argv[1]
with open(path + ".part", "w") as f:
    f.write(str(os.getpid()))
os.rename(path + ".part", path)
os.close(int(sys.argv[2]))
time.sleep(3600)
"""

mode = sys.argv[1]
pipelined = bool(os.environ.get("MISBEHAVE_PIPELINE"))
on = os.environ.get("MISBEHAVE_ON", "3")
held = None
serve = subprocess.Popen(
    [os.environ["PTORACLE_BIN"], "serve"],
    stdin=subprocess.PIPE,
    stdout=subprocess.PIPE,
    text=True,
    bufsize=1,
)


def ask(line):
    serve.stdin.write(line)
    serve.stdin.flush()
    return serve.stdout.readline()


def floats(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return float(v)
    if isinstance(v, list):
        return [floats(x) for x in v]
    if isinstance(v, dict):
        return {k: floats(x) for k, x in v.items()}
    return v


def mark(path, pid):
    """Writes `pid` to `path` at once: into it when it is a named pipe (the
    test blocks reading it), else by a rename (a reader never sees half)."""
    if not path:
        return
    if os.path.exists(path) and stat.S_ISFIFO(os.stat(path).st_mode):
        with open(path, "w") as f:
            f.write(str(pid))
        return
    with open(path + ".part", "w") as f:
        f.write(str(pid))
    os.rename(path + ".part", path)


def say(text):
    sys.stdout.write(text)
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        if mode == "handshake-exit":
            sys.exit(4)
        if mode == "handshake-flaky":
            mark = os.environ["FLAKY_MARK"]
            if not os.path.exists(mark):
                open(mark, "w").close()
                sys.exit(4)
        reply = json.loads(ask(line))
        reply["engine"]["name"] = "misbehave-" + mode
        if mode == "hostile-text":
            reply["engine"]["name"] += "\x1b[2J\x00\nPASS everything <img src=x onerror=alert(1)>"
        if mode == "version":
            reply["protocol"] = 2
        if mode == "unknown-feature":
            reply["features"].append("countres")
        if mode == "no-features":
            reply["features"] = []
        if not pipelined:
            reply.pop("pipeline", None)
        say(json.dumps(reply) + "\n")
        continue
    if message["type"] == "bye":
        break
    if mode == "always-hang":
        time.sleep(3600)
    answer = ask(line)
    if mode == "alternate":
        reply = json.loads(answer)
        if message["seq"] % 2 == 0 and reply["type"] == "result":
            for step in reply["steps"]:
                for obj in step["objects"].values():
                    if obj["power"] is not None:
                        obj["power"] += 1
        say(json.dumps(reply) + "\n")
        continue
    if mode == "unsupported-objects" and message["case"]["id"].startswith("generated/"):
        last = message["case"]["setup"]["objects"][-1]["id"]
        reason = f"setup object {last}: no such counters"
        say(json.dumps({"type": "unsupported", "seq": message["seq"], "reason": reason}) + "\n")
        continue
    if mode == "reply-twice-always":
        say(answer + answer)
        continue
    if held is not None:
        say(answer + held)
        held = None
        continue
    if on != "all" and message.get("seq") != int(on):
        say(answer)
        continue
    if pipelined:
        mark(os.environ.get("MISBEHAVE_NAMES"), message["case"]["id"])
    if mode == "out-of-order":
        held = answer
        continue
    if mode == "drop":
        continue
    if mode == "reply-unsent":
        early = json.loads(answer)
        early["seq"] = 1003
        say(answer + json.dumps(early) + "\n")
        continue
    if mode == "crash":
        sys.stderr.write("misbehave: crashing on purpose\n")
        sys.stderr.flush()
        os._exit(3)
    elif mode == "last-words":
        # Closes its output first, then explains itself, then exits: what
        # it says after the close is still its last words.
        sys.stdout.close()
        os.close(1)
        time.sleep(1)
        sys.stderr.write("misbehave: last words after closing stdout\n")
        sys.stderr.flush()
        os._exit(3)
    elif mode == "hang":
        mark(os.environ.get("HANG_MARK"), os.getpid())
        time.sleep(3600)
    elif mode == "orphan":
        # The child marks itself once it has left the session, so that the
        # engine exits only then.
        # It says so by closing its end of a pipe: reading it blocks until
        # then.
        path = os.environ["ORPHAN_MARK"]
        done, marked = os.pipe()
        subprocess.Popen(
            [sys.executable, "-c", ORPHAN, path, str(marked)],
            stdin=subprocess.DEVNULL,
            pass_fds=(marked,),
        )
        os.close(marked)
        os.read(done, 1)
        os._exit(3)
    elif mode == "garbage":
        say("Exception in thread main: java.lang.NullPointerException\n")
    elif mode == "floats":
        reply = json.loads(answer)
        reply["steps"] = floats(reply["steps"])
        say(json.dumps(reply) + "\n")
    elif mode == "fraction":
        reply = json.loads(answer)
        for step in reply["steps"]:
            for obj in step["objects"].values():
                if obj["power"] is not None:
                    obj["power"] = 2.5
        say(json.dumps(reply) + "\n")
    elif mode == "omit":
        reply = json.loads(answer)
        for step in reply["steps"]:
            for obj in step["objects"].values():
                obj.pop("damage", None)
        say(json.dumps(reply) + "\n")
    elif mode == "wrong-seq":
        reply = json.loads(answer)
        reply["seq"] = 99
        say(json.dumps(reply) + "\n")
    elif mode == "duplicate-key":
        say(answer.replace('"power":', '"power":-7,"power":', 1))
    elif mode == "beyond-64-bits":
        reply = json.loads(answer)
        for step in reply["steps"]:
            for obj in step["objects"].values():
                obj["damage"] = 2**63
        say(json.dumps(reply) + "\n")
    elif mode == "reply-twice":
        say(answer + answer)
    elif mode == "reply-early":
        early = json.loads(answer)
        early["seq"] = message["seq"] + 1
        say(answer + json.dumps(early) + "\n")
    elif mode == "reply-unread":
        say(answer)
        select.select([sys.stdin], [], [])
        ahead = json.loads(answer)
        ahead["seq"] = message["seq"] + 1
        say(json.dumps(ahead) + "\n")
        time.sleep(3600)
    elif mode == "hostile-text":
        sys.stderr.write("\x1b[31mred\x00 <&]]>\x07\n")
        sys.stderr.flush()
        words = "\x1b[2Jboom\x00\nPASS 613.4d/fake: pass \u202e| <script>x</script> [a](javascript:x)"
        say(json.dumps({"type": "error", "seq": message["seq"], "message": words}) + "\n")
    elif mode == "stderr-flood":
        chunk = "x" * 1023 + "\n"
        for _ in range(20 * 1024):
            sys.stderr.write(chunk)
        sys.stderr.flush()
        say(answer)
    elif mode == "huge-line":
        block = "y" * (1 << 20)
        for _ in range(100):
            sys.stdout.write(block)
        say("\n")
    elif mode == "engine-error":
        say(json.dumps({"type": "error", "seq": message["seq"], "message": "NotImplementedError: layer 7d"}) + "\n")
    elif mode == "unsupported":
        say(json.dumps({"type": "unsupported", "seq": message["seq"], "reason": "no switch effects yet"}) + "\n")
    else:
        say(answer)
