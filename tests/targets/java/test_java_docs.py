"""docs/java.md's examples run and print what the page says they print.

The Java programs are compiled with ``javac -Xlint:all -Werror`` against the
shipped taxonomy's sources in their default package and every case's in
``cases.<case>`` (compiled with every case, ``compiled_java``: "Nested objects"
uses tests/cases/nested_details) and run; the Kotlin programs are compiled with
Debian's ``kotlinc`` against the same classes and run.  Each must print the
block with no info string (a listing of output) that follows it on the page,
line for line.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.support import REPO, require_tool
from tests.targets.java.support import CLASSPATH, JAVAC, Compiled, run

PAGE = REPO / "docs" / "java.md"
KOTLIN_STDLIB = Path("/usr/share/java/kotlin-stdlib.jar")


def _examples(language: str) -> list[tuple[str, str]]:
    """The page's ``language`` blocks, each with the plain block after it."""
    found = re.findall(
        rf"```{language}\n(.*?)```\n\n```\n(.*?)```",
        PAGE.read_text(encoding="utf-8"),
        re.S,
    )
    assert found, f"docs/java.md has no {language} example with its output"
    return found


def test_the_java_examples_print_what_the_page_says(
    compiled_java: Compiled, tmp_path: Path
) -> None:
    """Each program is compiled (one javac run for them all) and run."""
    examples = _examples("java")
    assert len(examples) >= 2  # the package's, and "Nested objects"
    files = []
    for source, _ in examples:
        found = re.search(r"^public class (\w+)", source, re.M)
        assert found, source
        files.append(tmp_path / f"{found.group(1)}.java")
        files[-1].write_text(source, encoding="utf-8")
    classpath = f"{CLASSPATH}:{compiled_java.classes}"
    out = tmp_path / "out"
    done = run([*JAVAC, "-cp", classpath, "-d", str(out), *map(str, files)])
    assert done.returncode == 0, done.stdout + done.stderr
    for path, (_, output) in zip(files, examples, strict=True):
        done = run(["java", "-cp", f"{classpath}:{out}", path.stem])
        assert done.returncode == 0, done.stderr
        assert done.stdout == output, path.stem


def test_the_kotlin_examples_print_what_the_page_says(
    compiled_java: Compiled, tmp_path: Path
) -> None:
    """Each program is compiled (one kotlinc run for them all) and run."""
    require_tool(
        shutil.which("kotlinc") is not None and KOTLIN_STDLIB.is_file(),
        "Kotlin (kotlinc; `make java` installs Debian's kotlin)",
    )
    examples = _examples("kotlin")
    assert len(examples) >= 2  # the package's, and "Nested objects"
    files = []
    for index, (source, _) in enumerate(examples):
        files.append(tmp_path / f"Example{index}.kt")
        files[-1].write_text(source, encoding="utf-8")
    classpath = f"{CLASSPATH}:{compiled_java.classes}"
    out = tmp_path / "out"
    done = run(["kotlinc", *map(str, files), "-cp", classpath, "-d", str(out)])
    assert done.returncode == 0 and "error:" not in done.stderr, done.stderr
    for path, (_, output) in zip(files, examples, strict=True):
        main = f"{path.stem}Kt"
        done = run(["java", "-cp", f"{classpath}:{out}:{KOTLIN_STDLIB}", main])
        assert done.returncode == 0, done.stderr
        assert done.stdout == output, main
