"""What the java target's tests share: the toolchain, and a case's sources written.

javac and java come from Debian's ``openjdk-17-jdk-headless`` and the Jackson
jars from ``libjackson2-databind-java`` (``make java`` installs both); without
them these tests fail under ``CI`` and skip elsewhere
(``tests.support.require_tool``).  Nothing is fetched: the jars are read from
/usr/share/java.
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from taxogen.pipeline import build_plan
from tests.support import REPO, Case, cases, mappings, require_tool

JARS = tuple(
    Path("/usr/share/java") / f"jackson-{name}.jar"
    for name in ("databind", "core", "annotations")
)
CLASSPATH = ":".join(str(jar) for jar in JARS)
#: How every generated source is compiled: Java 17, warnings are errors.
JAVAC = ("javac", "--release", "17", "-encoding", "UTF-8", "-Xlint:all", "-Werror")


def require_java() -> None:
    """javac, java and the Jackson jars, or a skip (a failure under CI)."""
    require_tool(
        shutil.which("javac") is not None and shutil.which("java") is not None,
        "Java 17 (javac and java; `make java` installs openjdk-17-jdk-headless)",
    )
    require_tool(
        all(jar.is_file() for jar in JARS),
        "Jackson's jars in /usr/share/java (`make java` installs "
        "libjackson2-databind-java)",
    )


def write_sources(
    taxonomy: Path, folder: Path, options: Mapping[str, object] | None = None
) -> list[Path]:
    """The taxonomy's Java sources written under ``folder`` (its package's folders
    from there); their paths."""
    written = []
    plan = build_plan(taxonomy, ["java"], {"java": dict(options or {})})
    for path, data in plan.items():
        if path.endswith(".java"):
            target = folder / path.split("src/main/java/", 1)[1]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            written.append(target)
    return written


def run(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)


RUNNER = Path(__file__).with_name("Conformance.java")
#: The runtime on its own, through the shipped package (test_java_runtime.py).
RUNTIME_CHECK = Path(__file__).with_name("RuntimeCheck.java")
#: A consumer of nested details' records (test_java_nested.py).
NESTED_CHECK = Path(__file__).with_name("NestedCheck.java")


@dataclasses.dataclass(frozen=True)
class Compiled:
    """Every case's package and the runner, compiled: the classes' folder, and how
    long javac took."""

    classes: Path
    seconds: float
    files: int


def case_package(case: Case) -> str:
    """The package a case is compiled in: ``cases.<case>``."""
    return f"cases.{case.name}"


def mapping_package(path: Path) -> str:
    """The package a mapping of tests/mappings/ is compiled in."""
    return f"mappings.{path.stem}"


def compile_every_case(root: Path) -> Compiled:
    """Every case (the shipped taxonomy also under its default package), every
    mapping of tests/mappings/ and the runners, compiled in one javac run (CI's
    budget allows one, not one per case)."""
    require_java()
    sources = [RUNNER, RUNTIME_CHECK, NESTED_CHECK]
    for case in cases():
        options = {"package": case_package(case)}
        sources += write_sources(case.taxonomy, root / "src", options)
    sources += write_sources(REPO / "taxonomy.yaml", root / "src")  # its default
    for path in mappings():  # the payload mappings no golden case has
        options = {"package": mapping_package(path)}
        sources += write_sources(path, root / "src", options)
    started = time.monotonic()
    done = run(
        [*JAVAC, "-cp", CLASSPATH, "-d", str(root / "classes"), *map(str, sources)]
    )
    seconds = time.monotonic() - started
    assert done.returncode == 0, done.stdout + done.stderr
    return Compiled(root / "classes", seconds, len(sources))


def conformance(compiled: Compiled, pairs: list[tuple[str, Path]]) -> tuple[int, str]:
    """The runner over each (package, vectors.json), in one JVM: its exit code
    and what it printed."""
    args = [arg for package, vectors in pairs for arg in (package, str(vectors))]
    classpath = f"{CLASSPATH}:{compiled.classes}"
    done = run(["java", "-cp", classpath, "Conformance", *args])
    return done.returncode, done.stdout + done.stderr
