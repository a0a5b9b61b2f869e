"""The Java runtime on its own: ``RuntimeCheck.java`` (compiled with every case)
reads what RFC 8259 says is JSON and refuses the rest, writes numbers in
messages as ECMAScript's Number::toString does, and makes ``create``,
``toError``, the copies and the typed details behave as docs/java.md says."""

from __future__ import annotations

from tests.targets.java.support import CLASSPATH, Compiled, run


def test_the_runtime_checks_pass(compiled_java: Compiled) -> None:
    done = run(["java", "-cp", f"{CLASSPATH}:{compiled_java.classes}", "RuntimeCheck"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert ", 0 failed" in done.stdout and "checked " in done.stdout
