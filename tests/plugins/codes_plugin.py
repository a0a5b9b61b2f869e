"""A taxogen plugin for the tests, in Python: one line per code, and its input's hash.

It reads the model document on stdin and answers with two files:
``codes.txt`` (``<id> <retryable> <python class>`` per code) and
``input/sha256.txt`` (the SHA-256 of exactly the bytes it was given).  Its first
argument picks a way to misbehave instead, for the tests of what taxogen does
then, or a variant of its answer (another file, the shapes it declares).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time


def flood() -> int:
    """Answer without end (without reading stdin), noting in the current folder
    its process id and, after each write, how many bytes it has written: up to
    64 MiB, then it waits, so that a taxogen without a cap runs into the
    plugin's time-out rather than filling a disk."""
    with open("flood.pid", "w", encoding="ascii") as note:
        note.write(str(os.getpid()))
    chunk = b"x" * 65536
    written = 0
    while written < 64 * 2**20:
        written += os.write(1, chunk)
        with open("flood.progress.tmp", "w", encoding="ascii") as note:
            note.write(str(written))
        os.replace("flood.progress.tmp", "flood.progress")  # whole, if killed
    time.sleep(60)
    return 0


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    if mode == "flood":
        return flood()
    data = sys.stdin.buffer.read()
    model = json.loads(data)
    lines = [
        f"{c['id']} {str(c['retryable']).lower()} {c['names']['python']['class']}\n"
        for c in model["codes"]
    ]
    files = [
        {"path": "codes.txt", "content": "".join(lines)},
        {"path": "input/sha256.txt", "content": hashlib.sha256(data).hexdigest()},
    ]
    answer: dict[str, object] = {"files": files}
    if mode == "warn":
        answer["diagnostics"] = [{"severity": "warning", "message": "just saying"}]
    elif mode == "error":
        answer["diagnostics"] = [{"severity": "error", "message": "cannot do it"}]
    elif mode == "exit":
        print("plugin: giving up", file=sys.stderr)
        return 3
    elif mode == "sleep":
        time.sleep(30)
    elif mode == "garbage":
        sys.stdout.write("not json\n")
        return 0
    elif mode == "chatty":
        sys.stdout.write("starting...\n")
    elif mode == "escape":
        files.append({"path": "../outside.txt", "content": "x"})
    elif mode == "absolute":
        files.append({"path": "/tmp/absolute.txt", "content": "x"})
    elif mode == "manifest":
        files.append({"path": ".taxogen-manifest.json", "content": "{}"})
    elif mode == "nested":
        files.append({"path": "sub/.taxogen-manifest.json", "content": "{}"})
    elif mode == "temporary":
        files.append({"path": "sub/.codes.txt.taxogen-tmp-0123", "content": "x"})
    elif mode == "extra":
        files.append({"path": "extra.txt", "content": "extra\n"})
    elif mode == "shapes":
        answer["shapes"] = ["*.txt", "input/**"]
    elif mode == "narrow":
        answer["shapes"] = ["codes.txt"]
    elif mode == "twice":
        files.append({"path": "codes.txt", "content": "again"})
    elif mode == "surrogate":
        sys.stdout.write('{"files": [{"path": "a.txt", "content": "\\ud800"}]}')
        return 0
    elif mode == "latin1":
        sys.stdout.buffer.write(
            '{"files": [{"path": "é.txt", "content": ""}]}'.encode("latin-1")
        )
        return 0
    json.dump(answer, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
