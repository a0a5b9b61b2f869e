"""docs/java.md's examples run and print what the page says they print.

The Java program is compiled with ``javac -Xlint:all -Werror`` against the
shipped taxonomy's sources in their default package (compiled with every case,
``compiled_java``) and run; the Kotlin program is compiled with Debian's
``kotlinc`` against the same classes and run.  Each must print the block with
no info string (a listing of output) that follows it on the page, line for line.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.support import REPO, require_tool
from tests.targets.java.support import CLASSPATH, JAVAC, Compiled, run

PAGE = REPO / "docs" / "java.md"
KOTLIN_STDLIB = Path("/usr/share/java/kotlin-stdlib.jar")


def _example(language: str) -> tuple[str, str]:
    """The page's ``language`` block and the plain block after it."""
    found = re.search(
        rf"```{language}\n(.*?)```\n\n```\n(.*?)```",
        PAGE.read_text(encoding="utf-8"),
        re.S,
    )
    assert found, f"docs/java.md has no {language} example with its output"
    return found.group(1), found.group(2)


def test_the_java_example_prints_what_the_page_says(
    compiled_java: Compiled, tmp_path: Path
) -> None:
    source, output = _example("java")
    (tmp_path / "Example.java").write_text(source, encoding="utf-8")
    classpath = f"{CLASSPATH}:{compiled_java.classes}"
    out = tmp_path / "out"
    done = run(
        [*JAVAC, "-cp", classpath, "-d", str(out), str(tmp_path / "Example.java")]
    )
    assert done.returncode == 0, done.stdout + done.stderr
    done = run(["java", "-cp", f"{classpath}:{out}", "Example"])
    assert done.returncode == 0, done.stderr
    assert done.stdout == output


def test_the_kotlin_example_prints_what_the_page_says(
    compiled_java: Compiled, tmp_path: Path
) -> None:
    require_tool(
        shutil.which("kotlinc") is not None and KOTLIN_STDLIB.is_file(),
        "Kotlin (kotlinc; `make java` installs Debian's kotlin)",
    )
    source, output = _example("kotlin")
    (tmp_path / "Example.kt").write_text(source, encoding="utf-8")
    classpath = f"{CLASSPATH}:{compiled_java.classes}"
    out = tmp_path / "out"
    done = run(
        ["kotlinc", str(tmp_path / "Example.kt"), "-cp", classpath, "-d", str(out)]
    )
    assert done.returncode == 0 and "error:" not in done.stderr, done.stderr
    done = run(["java", "-cp", f"{classpath}:{out}:{KOTLIN_STDLIB}", "ExampleKt"])
    assert done.returncode == 0, done.stderr
    assert done.stdout == output
