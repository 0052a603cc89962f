#!/usr/bin/env python3
"""An engine that writes reproductions, for testing the gate's side of them
(docs/protocol.md, "Reproductions"): it passes every `run` to `ptoracle
serve --mutant MUTANT` (the binary named by $PTORACLE_BIN), declares
`reproduce` when ptoracle's hello offers it, and answers each `reproduce`
with a Python program that prints the request's differences and exits 1,
as a real adapter's program does while the bug is there (it plays nothing:
the mutant has no API of its own). With $REPRODUCER_REFUSE set it answers
`unsupported` instead.

    reproducer.py MUTANT
"""
import json
import os
import subprocess
import sys

serve = subprocess.Popen([os.environ["PTORACLE_BIN"], "serve", "--mutant", sys.argv[1]],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def ask(line):
    serve.stdin.write(line)
    serve.stdin.flush()
    return json.loads(serve.stdout.readline())


def program(message):
    rows = [(d["step"] + 1, d["of"], d["field"], d["reference"], d["engine"])
            for d in message["differences"]]
    return "\n".join([
        "#!/usr/bin/env python3",
        f'"""{message["case"]["id"]}: the mutant\'s values, recorded."""',
        "import sys",
        f"ROWS = {rows!r}",
        "for step, who, field, want, got in ROWS:",
        "    print(f'after step {step}: {who}.{field}: engine {got!r}, rules {want!r}')",
        "sys.exit(1 if any(want != got for _, _, _, want, got in ROWS) else 0)",
        ""])


for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "bye":
        break
    if kind == "hello":
        reply = ask(line)
        if message.get("reproduce") is True:
            reply["reproduce"] = {"language": "python", "extension": "py", "run": "python3 FILE"}
    elif kind == "reproduce" and os.environ.get("REPRODUCER_REFUSE"):
        reply = {"type": "unsupported", "seq": message["seq"], "reason": "not this one"}
    elif kind == "reproduce":
        reply = {"type": "reproduction", "seq": message["seq"], "program": program(message)}
    else:
        reply = ask(line)
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
