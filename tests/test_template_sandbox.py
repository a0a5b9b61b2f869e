"""User templates are code a repository carries: read once, within bounds, in a sandbox.

Issue 29 §2 and docs "User templates": a templates folder is read once, whole,
following links (loops refused) and refusing in bounded time what is not a
regular file, a name no output path can have, or a size over the documented
limits; the templates render from the bytes read, in Jinja's sandbox, where no
template reaches Python and every documented bound (output, range, recursion,
time) is an error naming the template (exit 2, nothing written), never a hang,
a crash or exit 70.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from taxogen import emit
from taxogen.cli import main
from taxogen.pipeline import build
from tests.golden import template_cases
from tests.support import Case, package

CASE = next(p for p in template_cases() if p.name == "override_and_extra")
FOLDER = "taxogen-templates"
#: What a run that uses user templates says first (docs "What taxogen touches").
NOTICE = "taxogen: using user templates configured in "
#: The limits docs "User templates" documents.
OUTPUT_LIMIT = 64 * 1024 * 1024
FILE_LIMIT = 4 * 1024 * 1024
TOTAL_LIMIT = 32 * 1024 * 1024


def _files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def _golden() -> dict[str, bytes]:
    """Every file the case's generate writes: its golden files and the runtime
    copies they do not store (:func:`tests.support.package`)."""
    case = Case(CASE.name, CASE / "taxonomy.yaml", CASE / "expected")
    return _files(package(case))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the template case's project, without its expected output."""
    work = tmp_path / "project"
    shutil.copytree(CASE, work, ignore=shutil.ignore_patterns("expected"))
    monkeypatch.chdir(work)
    return work


def _refused(
    project: Path, capsys: pytest.CaptureFixture[str], where: str, message: str
) -> None:
    """``generate`` exits 2 with ``where: error: ...message...`` first (after the
    notice that user templates run), and writes nothing."""
    capsys.readouterr()
    assert main(["generate"]) == 2
    notice, error, *rest = capsys.readouterr().err.splitlines()
    assert notice.startswith(NOTICE)
    assert error.startswith(f"{where}: error: "), error
    assert message in error
    assert rest[-1].endswith("nothing was written")
    assert not (project / "expected").exists()


# ------------------------------------------------------------- the sandbox
@pytest.mark.parametrize(
    "escape",
    [
        "{{ cycler.__init__.__globals__.os.system('touch pwned') }}",
        "{{ joiner.__init__.__globals__.os.system('touch pwned') }}",
        "{{ self.__init__.__globals__.__builtins__.__import__('os')"
        ".system('touch pwned') }}",
        "{{ lipsum.__globals__.os.system('touch pwned') }}",
        "{{ '{0.__class__.__mro__}'.format(1) }}",
    ],
)
def test_a_template_cannot_reach_python(
    project: Path, capsys: pytest.CaptureFixture[str], escape: str
) -> None:
    (project / FOLDER / "docs" / "evil.md.j2").write_text(escape + "\n")
    _refused(project, capsys, f"{FOLDER}/docs/evil.md.j2:1:1", "")
    assert not (project / "pwned").exists()


def test_a_part_a_built_in_template_includes_is_sandboxed_too(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """typescript/index.ts.j2 (taxogen's) includes typescript/base_class.ts.j2."""
    part = project / FOLDER / "typescript" / "base_class.ts.j2"
    part.write_text("{{ cycler.__init__.__globals__.os.system('touch pwned') }}\n")
    _refused(project, capsys, f"{FOLDER}/typescript/base_class.ts.j2:1:1", "unsafe")
    assert not (project / "pwned").exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{{ "x" * 10**10 }}', f"over {OUTPUT_LIMIT:,} characters"),
        ('{{ "x" * 2**62 }}', f"over {OUTPUT_LIMIT:,} characters"),
        (
            '{% for i in range(70) %}{{ "x" * 1000000 }}{% endfor %}',
            f"renders over {OUTPUT_LIMIT:,} characters",
        ),
        (
            '{% set ns = namespace(s="x") %}{% for i in range(60) %}'
            "{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
            f"over {OUTPUT_LIMIT:,} characters",
        ),
        ('{{ "%2000000000d" % 1 }}', f"over {OUTPUT_LIMIT:,}"),
        ('{{ "x"|center(2000000000) }}', f"over {OUTPUT_LIMIT:,}"),
        ('{{ ("x"|safe).ljust(2000000000) }}', f"over {OUTPUT_LIMIT:,}"),
        ("{% for i in range(10**9) %}{% endfor %}", "(100000)"),
        # + builds too: 8 times the text limit, 4 times the list limit
        (
            '{% set a = "x" * 67108864 %}{% set b = a + a %}{% set c = b + b %}'
            "{% set d = c + c %}{{ d|length }}",
            f"over {OUTPUT_LIMIT:,} characters",
        ),
        (
            "{% set a = [0] * 100000 %}{% set b = a + a %}{{ (b + b)|length }}",
            "over 100,000 items",
        ),
        # a key in nested parentheses hides no width
        (
            '{{ ("%(a(b))300000000d" % {"a(b)": 1})|length }}',
            f"over {OUTPUT_LIMIT:,}",
        ),
        # join, tojson and ~ are measured before they build
        (
            "{% set a = ['x' * 1000000] * 100 %}{{ a|join|length }}",
            f"over {OUTPUT_LIMIT:,} characters",
        ),
        (
            "{% set a = ['x' * 1000000] * 100 %}{{ (a ~ '')|length }}",
            f"over {OUTPUT_LIMIT:,} characters",
        ),
        (
            "{% set b = ['x' * 1000000] * 100 %}{{ b|tojson|length }}",
            f"over {OUTPUT_LIMIT:,} characters",
        ),
        ("{{ [[[1]]]|tojson(indent=100000000) }}", "indent over 16"),
        # textwrap is quadratic in a long word: 1 M characters took 21 s
        ('{{ ("a" * 1000000)|wordwrap(1)|length }}', "wraps a text over 262,144"),
    ],
)
def test_what_a_template_builds_is_bounded(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    (project / FOLDER / "docs" / "big.md.j2").write_text(text + "\n")
    began = time.monotonic()
    _refused(project, capsys, f"{FOLDER}/docs/big.md.j2:1:1", message)
    assert time.monotonic() - began < 10


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(0) }}",
            "calls nested over 100 deep",
        ),
        ('{% include "docs/self.md.j2" %}', "recursion too deep"),
    ],
)
def test_recursion_is_bounded(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    (project / FOLDER / "docs" / "self.md.j2").write_text(text + "\n")
    _refused(project, capsys, f"{FOLDER}/docs/self.md.j2:1:1", message)


def test_a_render_has_a_time_limit(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from taxogen.targets import sandbox

    monkeypatch.setattr(sandbox, "SECONDS", 0.5)
    loops = "{% for i in range(100000) %}{% for j in range(100000) %}"
    (project / FOLDER / "docs" / "slow.md.j2").write_text(
        f"{loops}{{% endfor %}}{{% endfor %}}\n"
    )
    began = time.monotonic()
    _refused(project, capsys, f"{FOLDER}/docs/slow.md.j2:1:1", "over 0.5 s")
    assert time.monotonic() - began < 5


@pytest.mark.parametrize(
    "text",
    [
        # each comparison is one step of some 13 ms, with no clock read between
        '{% set a = "x" * 60000000 %}{% set b = "x" * 60000000 %}'
        + "{% if a == b %}{% endif %}" * 400,
    ],
)
def test_the_time_limit_is_a_watchdog(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
) -> None:
    from taxogen.targets import sandbox

    monkeypatch.setattr(sandbox, "SECONDS", 0.2)
    (project / FOLDER / "docs" / "slow.md.j2").write_text(text + "\n")
    began = time.monotonic()
    capsys.readouterr()
    assert main(["generate"]) == 2
    error = capsys.readouterr().err.splitlines()[1]
    assert error.startswith(f"{FOLDER}/docs/slow.md.j2"), error
    assert "error: takes over 0.2 s to render" in error
    assert not (project / "expected").exists()
    assert time.monotonic() - began < 10


def test_the_watchdog_covers_finishing_the_output(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """black over a user's Python output runs within the same time limit."""
    from taxogen.targets import every, sandbox

    def slow(output: str, text: str) -> str:
        time.sleep(5)
        return text

    monkeypatch.setattr(sandbox, "SECONDS", 0.2)
    docs = next(target for target in every() if target.name == "docs")
    original = docs.finish
    object.__setattr__(docs, "finish", slow)  # frozen; undone below
    try:
        began = time.monotonic()
        capsys.readouterr()
        assert main(["generate"]) == 2
        error = capsys.readouterr().err.splitlines()[1]
        assert error.startswith(f"{FOLDER}/docs/"), error  # the first docs one
        assert "takes over 0.2 s to render" in error
        assert time.monotonic() - began < 2
    finally:
        object.__setattr__(docs, "finish", original)


def test_a_template_running_out_of_memory_is_its_problem(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not taxogen's bug (exit 70): the template's, at the line that ran out."""
    from taxogen.targets import every

    def exhausted(text: str) -> str:
        raise MemoryError

    docs = next(target for target in every() if target.name == "docs")
    monkeypatch.setitem(docs.filters, "md_quote", exhausted)
    (project / FOLDER / "docs" / "mem.md.j2").write_text("# x\n{{ 'x' | md_quote }}\n")
    _refused(project, capsys, f"{FOLDER}/docs/mem.md.j2:2:1", "ran out of memory")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{{ range(100000)|random }}", "no filter named 'random'"),
        ("{{ model.keys() - [] }}", "order varies between runs"),
        ("{{ cycler(1) }}", "not plain data"),
        ("{% set x = cycler(1) %}{{ x|string }}", "not plain data"),
        ("{{ '{}'.format(joiner()) }}", "not plain data"),
    ],
)
def test_what_varies_between_runs_is_refused_with_or_without_the_memo(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    message: str,
) -> None:
    """The memo holds a render to be a function of its inputs: a template whose
    output varies between runs is an error, so ``check`` with the memo and
    without it agree (and never pass what a second run would not write)."""
    (project / FOLDER / "docs" / "varies.md.j2").write_text(text + "\n")
    for command in ("generate", "check"):
        for no_cache in ("", "1"):
            monkeypatch.setenv("TAXOGEN_NO_CACHE", no_cache)
            capsys.readouterr()
            assert main([command]) == 2, (command, no_cache)
            error = capsys.readouterr().err.splitlines()[1]
            assert error.startswith(f"{FOLDER}/docs/varies.md.j2:1:"), error
            assert message in error.lower()
    assert not (project / "expected").exists()


@pytest.mark.parametrize(
    "name",
    ["typescript/src/index.ts.j2", "typescript/src/runtime.ts.j2"],
)
def test_an_extra_template_writing_a_built_in_output_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Its output would be lost, or taxogen's: docs "User templates" says to
    override a built-in template by its name."""
    (project / FOLDER / name).parent.mkdir(parents=True, exist_ok=True)
    (project / FOLDER / name).write_text("mine\n")
    _refused(project, capsys, f"{FOLDER}/{name}", "override the built-in template")


@pytest.mark.parametrize(
    "link",
    ["docs/env.md.j2", "docs/outside", "."],
)
def test_a_link_out_of_the_project_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str], link: str
) -> None:
    """``ln -s /proc/self/environ tpl/docs/env.md.j2`` put the environment's
    secrets in generated/ and in check's diff."""
    secret = project.parent / "secret"
    (secret / "docs").mkdir(parents=True)
    (secret / "docs" / "env.md.j2").write_text("SECRET\n")
    if link == ".":  # the templates folder itself
        shutil.rmtree(project / FOLDER)
        (project / FOLDER).symlink_to(secret, target_is_directory=True)
        where = FOLDER
    else:
        target = (
            secret / "docs" if link == "docs/outside" else secret / "docs/env.md.j2"
        )
        (project / FOLDER / link).symlink_to(target)
        where = f"{FOLDER}/{link}"
    for command in ("generate", "check"):
        capsys.readouterr()
        assert main([command]) == 2
        err = capsys.readouterr().err
        assert f"{where}: error: leads outside the project's folder" in err, err
        assert "SECRET" not in err
    assert not (project / "expected").exists()


# --------------------------------------------------------- reading the folder
def test_the_templates_render_from_the_bytes_read_once(project: Path) -> None:
    from taxogen import template_folder

    read = template_folder.read(project / FOLDER)
    (project / FOLDER / "docs" / "catalogue.md.j2").write_text("changed on disk\n")
    plan, _ = build(project / "taxonomy.yaml", ["docs"], (), read)
    golden = (CASE / "expected" / "docs" / "catalogue.md").read_bytes()
    assert plan["docs/catalogue.md"] == golden


def test_every_file_is_read_in_any_folder_and_through_links(project: Path) -> None:
    from taxogen import template_folder

    (project / FOLDER / "docs" / "__pycache__").mkdir()
    (project / FOLDER / "docs" / "__pycache__" / "_part.j2").write_bytes(b"part\n")
    (project / "shared").mkdir()
    (project / "shared" / "_more.j2").write_bytes(b"more\n")
    (project / FOLDER / "linked").symlink_to("../shared")
    files = template_folder.read(project / FOLDER).files
    assert files["docs/__pycache__/_part.j2"] == b"part\n"
    assert files["linked/_more.j2"] == b"more\n"
    on_disk = {
        path.relative_to(project / FOLDER).as_posix(): path.read_bytes()
        for path in (project / FOLDER).rglob("*")
        if path.is_file()
    }
    assert dict(files) == {**on_disk, "linked/_more.j2": b"more\n"}
    assert list(files) == sorted(files)


def test_a_linked_folder_of_templates_is_used_whole(project: Path) -> None:
    (project / FOLDER / "docs").rename(project / "docs-elsewhere")
    (project / FOLDER / "docs").symlink_to("../docs-elsewhere")
    assert main(["generate", "-q"]) == 0
    assert _files(project / "expected") == _golden()


def test_a_linked_template_is_used(project: Path) -> None:
    template = project / FOLDER / "docs" / "catalogue.md.j2"
    template.rename(project / "catalogue.md.j2")
    template.symlink_to(project / "catalogue.md.j2")
    assert main(["generate", "-q"]) == 0
    assert _files(project / "expected") == _golden()


def test_a_mistake_in_a_linked_folder_names_the_template_as_reached(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / FOLDER / "docs").rename(project / "docs-elsewhere")
    (project / FOLDER / "docs").symlink_to("../docs-elsewhere")
    (project / "docs-elsewhere" / "errors.md.j2").write_text("# {{ title }}\n{{ x }}\n")
    _refused(project, capsys, f"{FOLDER}/docs/errors.md.j2:2:1", "'x' is undefined")


@pytest.mark.parametrize(
    ("make", "where", "message"),
    [
        (lambda f: (f / "docs" / "again").symlink_to(".."), "docs/again", "a loop"),
        (lambda f: (f / "docs" / "gone").symlink_to("nowhere"), "docs/gone", "leads"),
        (
            lambda f: os.truncate(_touch(f / "docs" / "huge.bin"), 1 << 40),
            "docs/huge.bin",
            f"a file over {FILE_LIMIT:,} bytes",
        ),
    ],
)
def test_what_no_template_can_be_is_refused(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    make: Callable[[Path], object],
    where: str,
    message: str,
) -> None:
    make(project / FOLDER)
    began = time.monotonic()
    _refused(project, capsys, f"{FOLDER}/{where}", message)
    assert time.monotonic() - began < 5


def _touch(path: Path) -> Path:
    path.touch()
    return path


def test_a_folder_over_the_total_size_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for number in range(TOTAL_LIMIT // FILE_LIMIT + 1):
        os.truncate(_touch(project / FOLDER / "docs" / f"{number}.bin"), FILE_LIMIT)
    _refused(project, capsys, FOLDER, f"holds over {TOTAL_LIMIT:,} bytes")


def test_the_count_and_depth_limits_are_enforced(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from taxogen import template_folder

    monkeypatch.setattr(template_folder, "DEPTH_LIMIT", 3)
    (project / FOLDER / "docs" / "a" / "b" / "c").mkdir(parents=True)
    _refused(project, capsys, f"{FOLDER}/docs/a/b", "folders nested over 3 deep")
    shutil.rmtree(project / FOLDER / "docs" / "a")
    entries = len(list((project / FOLDER).rglob("*")))
    monkeypatch.setattr(template_folder, "ENTRY_LIMIT", entries - 1)
    _refused(project, capsys, FOLDER, f"holds over {entries - 1} files and folders")


@pytest.mark.parametrize("name", ["docs/pipe.md.j2", "docs/_part.j2", "pipe"])
def test_a_fifo_in_the_folder_is_refused_without_hanging(
    project: Path, name: str
) -> None:
    os.mkfifo(project / FOLDER / name)
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from taxogen.cli import main; " "sys.exit(main(['generate']))",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 2
    notice, error, *_ = run.stderr.splitlines()
    assert notice.startswith(NOTICE)
    assert error == f"{FOLDER}/{name}: error: is a FIFO, not a regular file or folder"
    assert not (project / "expected").exists()


def test_a_device_in_the_folder_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read without a project's bound (a link out of the project is refused
    before its kind is looked at)."""
    from taxogen import template_folder
    from taxogen.diagnostics import TaxonomyError

    (project / FOLDER / "docs" / "zero.md.j2").symlink_to("/dev/zero")
    with pytest.raises(TaxonomyError, match="is a device"):
        template_folder.read(project / FOLDER)
    _refused(project, capsys, f"{FOLDER}/docs/zero.md.j2", "outside the project")


def test_a_template_that_is_not_utf8_is_named(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / FOLDER / "docs" / "catalogue.md.j2").write_bytes(b"caf\xe9\n")
    _refused(project, capsys, f"{FOLDER}/docs/catalogue.md.j2", "not UTF-8")


# ------------------------------------------------------------------ names
@pytest.mark.parametrize(
    ("name", "shown", "message"),
    [
        (b"docs/a\nb.md.j2", "docs/a\\x0ab.md.j2", "control characters"),
        ("docs/a\u202eb.md.j2".encode(), "docs/a\\u202eb.md.j2", "control characters"),
        (b"docs/caf\xe9.md.j2", "docs/caf\\xe9.md.j2", "not valid UTF-8"),
        (
            b"docs/.taxogen-manifest.json.j2",
            "docs/.taxogen-manifest.json.j2",
            "manifest",
        ),
        (b".taxogen-manifest.json", ".taxogen-manifest.json", "manifest"),
        (b"docs/a.taxogen-tmp-x.md.j2", "docs/a.taxogen-tmp-x.md.j2", "temporary"),
    ],
)
def test_a_name_no_output_path_can_have_is_refused_before_writing(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    name: bytes,
    shown: str,
    message: str,
) -> None:
    path = os.path.join(os.fsencode(project / FOLDER), name)
    with open(path, "wb") as handle:
        handle.write(b"x\n")
    _refused(project, capsys, f"{FOLDER}/{shown}", message)


@pytest.mark.parametrize(
    "name",
    [
        "a\nb",
        "a\tb",
        "a\x7fb",
        "a\u202eb",
        "a\u2066b",
        "a\u2028b",
        "a\ufeffb",
        "a\udcffb",
        "a\\b",
        "x" * 256,
        "é" * 128,
        ".taxogen-manifest.json",
    ],
)
def test_the_name_rules_refuse_every_name_an_output_path_cannot_have(
    name: str,
) -> None:
    from taxogen.template_folder import name_problem

    assert emit.path_problem(name) is not None  # the rules the README states
    assert name_problem(name) is not None
    assert name_problem("docs") is None
    assert name_problem("errors.md.j2") is None
