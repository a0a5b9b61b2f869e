"""Issue 30 §6: ``python_bases`` and ``go_is``, beyond the errno hierarchy
(``tests/test_native_errno.py``).

Python: an error of a class with python_bases is the builtin too, with what
the builtin's reference gives it (an OSError's ``errno``, ``strerror`` and
``args`` as ``OSError(errno, strerror)`` has them), kept through pickling and
copying; ``to_error`` of a native exception picks the most specific class
(the Python reference's ``__mro__`` order), and a taxonomy without the key
keeps today's behaviour.  Go: ``errors.Is`` answers the sentinels ``go_is``
names (``tests/targets/go/native_test.go``), and the table of sentinels
validation accepts is the installed Go's (``go doc``).
"""

from __future__ import annotations

import copy
import errno
import importlib
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from taxogen.diff import BREAKING, diff
from taxogen.pipeline import build_plan, load_names
from taxogen.targets.go.reserved import GO_SENTINELS
from tests.support import REPO, cases, import_generated, require_tool
from tests.targets.go.test_go import _add_test, _go, _write
from tests.targets.go.test_go import go_env  # noqa: F401  (the fixture, by name)

CASE = next(case for case in cases() if case.name == "errno_native")
SPEC = yaml.safe_load(CASE.taxonomy.read_text(encoding="utf-8"))


def test_an_oserror_class_carries_errno_strerror_and_args() -> None:
    mod = import_generated(CASE)
    error = mod.EnoentError("gone")
    # As OSError(2, "gone") would: the Python reference's OSError constructor.
    assert (error.errno, error.strerror, error.args) == (2, "gone", (2, "gone"))
    assert str(error) == "gone" and error.message == "gone"
    assert repr(error) == "EnoentError(code=2, message='gone')"
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error)):
        assert type(again) is mod.EnoentError
        assert (again.errno, again.strerror, again.args) == (2, "gone", (2, "gone"))
    bare = mod.EnoentError()
    assert (bare.errno, bare.strerror) == (2, "No such file or directory")


def test_an_unknown_errno_keeps_its_number_through_pickling() -> None:
    mod = import_generated(CASE)
    error = mod.from_payload({"errno": errno.ENOTTY, "strerror": "tty"})
    again = pickle.loads(pickle.dumps(error))
    assert again.errno == again.wire_code == errno.ENOTTY
    assert again.args == (errno.ENOTTY, "tty")


def test_to_error_picks_the_most_specific_class() -> None:
    mod = import_generated(CASE)
    # An errno of no code: the nearest builtin of the exception's type that a
    # class names, here the domain's class, which (no fallback) has no code of
    # its own and carries the errno as its code.
    plain = mod.to_error(PermissionError(999, "denied"))
    assert type(plain) is mod.PermissionError
    assert (plain.wire_code, plain.errno) == (999, 999)
    assert plain.message == "denied" and plain.__cause__ is not None
    # Without an errno such a class has no code to carry: wrapped as before.
    assert mod.to_error(PermissionError("denied")).wire_code == errno.EINVAL
    # BrokenPipeError is EPIPE's and ESHUTDOWN's: the first in the file.
    assert type(mod.to_error(BrokenPipeError())) is mod.EpipeError
    assert type(mod.to_error(ConnectionError(999, "c"))) is mod.ConnectionError
    # With an errno, the errno's class, whatever the exception's own type.
    assert type(mod.to_error(OSError(errno.ESHUTDOWN, "x"))) is mod.EshutdownError
    assert type(mod.to_error(PermissionError(errno.EACCES, "x"))) is mod.EaccesError
    # An empty message is the class's meaning.
    assert (
        mod.to_error(TimeoutError()).message
        == SPEC["domains"]["network"]["codes"]["ETIMEDOUT"]["meaning"]
    )
    # Not native: wrapped as before.
    wrapped = mod.to_error(ValueError("v"))
    assert wrapped.wire_code == errno.EINVAL and wrapped.message == "ValueError: v"


def test_a_class_takes_a_builtins_name_and_the_module_says_builtins() -> None:
    mod = import_generated(CASE)
    assert mod.PermissionError is not PermissionError
    assert issubclass(mod.PermissionError, PermissionError)
    assert mod.ConnectionError.__mro__[1] is mod.SystemCallError
    assert ConnectionError in mod.ConnectionError.__mro__
    source = (CASE.expected / "python/src/errno_native_errors/__init__.py").read_text(
        encoding="utf-8"
    )
    assert "class PermissionError(SystemCallError, builtins.PermissionError):" in (
        source
    )


def test_without_python_bases_a_native_exception_is_wrapped_as_today() -> None:
    other = next(case for case in cases() if case.name == "errno_numbers")
    mod = import_generated(other)
    error = mod.to_error(FileNotFoundError(errno.ENOENT, "x"))
    assert not isinstance(error, OSError)
    assert error.wire_code == 5  # its wrap code, EIO
    assert error.message == "FileNotFoundError: [Errno 2] x"


def test_go_is_answers_errors_is(
    tmp_path: Path, go_env: dict[str, str]  # noqa: F811
) -> None:
    module = _write(CASE, tmp_path)
    _add_test(module, REPO / "tests/targets/go/native_test.go", "native")
    done = _go(["go", "test", "-count=1", "./native"], module, go_env)
    assert done.returncode == 0, done.stdout + done.stderr
    errors_go = (module / "errors.go").read_text(encoding="utf-8")
    assert '\t"io/fs"\n' in errors_go


def test_every_go_sentinel_is_an_error_variable_of_the_installed_go() -> None:
    """The table validation reads, held to ``go doc`` of the installed Go: each
    entry is an exported variable of its package (the import path the table
    gives), and the package's name is the one Go code writes before the dot."""
    go = shutil.which("go")
    require_tool(go is not None, "go")
    assert go is not None
    for name, path in GO_SENTINELS.items():
        package, _, variable = name.partition(".")
        assert path.rsplit("/", 1)[-1] == package, name
        done = subprocess.run(
            [go, "doc", path, variable],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert done.returncode == 0, (name, done.stderr)
        assert f"package {package} " in done.stdout, name
        assert f"var {variable} " in done.stdout or f"\t{variable} " in done.stdout, (
            name,
            done.stdout,
        )


def test_diff_compares_what_each_class_is_inherited_bases_included(
    tmp_path: Path,
) -> None:
    """Dropping the top level's OSError breaks every code whose class is then
    no OSError (except OSError stops catching it), and none whose own builtin
    is one anyway (FileNotFoundError is an OSError, by Python's reference)."""
    text = CASE.taxonomy.read_text(encoding="utf-8")
    edited = re.sub(r"(?m)^python_bases: \[OSError\].*\n", "", text, count=1)
    assert edited != text
    (tmp_path / "old.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "new.yaml").write_text(edited, encoding="utf-8")
    changes = diff(load_names(tmp_path / "old.yaml"), load_names(tmp_path / "new.yaml"))
    assert {(c.kind, c.rule) for c in changes} == {(BREAKING, "python-base-removed")}
    broken = {c.message.split("'")[1] for c in changes}
    own = {
        key
        for domain in SPEC["domains"].values()
        for key, code in domain["codes"].items()
        if not code.get("python_bases") and not domain.get("python_bases")
    }
    assert broken == own
    assert all("no longer a OSError (python_bases)" in c.message for c in changes)


def test_the_lazy_layout_converts_native_exceptions_too(tmp_path: Path) -> None:
    """The same case in the lazy layout (classes in per-domain modules, loaded
    on first use): to_error finds a domain's class and the root class alike."""
    text = CASE.taxonomy.read_text(encoding="utf-8")
    text = text.replace(
        "name: errno_native\n", "name: errno_lazy\npython_layout: lazy\n"
    )
    source = tmp_path / "taxonomy.yaml"
    source.write_text(text, encoding="utf-8")
    for path, data in build_plan(source, ["python"]).items():
        if path.startswith("python/src/"):
            target = tmp_path / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    assert (tmp_path / "python/src/errno_lazy_errors/_domain_file.py").is_file()
    sys.path.insert(0, str(tmp_path / "python/src"))
    try:
        mod = importlib.import_module("errno_lazy_errors")
        denied = mod.to_error(PermissionError(999, "p"))
        assert type(denied) is mod.PermissionError and denied.errno == 999
        assert type(mod.to_error(OSError(errno.ENOTTY, "t"))) is mod.SystemCallError
        found = mod.to_error(FileNotFoundError("f"))
        assert type(found) is mod.EnoentError and isinstance(found, FileNotFoundError)
        assert mod.from_payload({"errno": errno.EACCES}).errno == errno.EACCES
    finally:
        sys.path.remove(str(tmp_path / "python/src"))
        for name in [m for m in sys.modules if m.startswith("errno_lazy_errors")]:
            del sys.modules[name]


def test_the_docs_page_says_which_builtins_each_class_extends() -> None:
    page = (CASE.expected / "docs/errors.md").read_text(encoding="utf-8")
    top = ", ".join(f"`{b}`" for b in SPEC["python_bases"])
    assert f"In Python, every error class is also a builtin {top}" in page
    for domain in SPEC["domains"].values():
        for name in domain.get("python_bases", ()):
            assert f"its classes are also a builtin `{name}`" in page
        # The column is there where some code of the domain has a native error.
        column = any(
            c.get("python_bases") or c.get("go_is") for c in domain["codes"].values()
        )
        for key, code in domain["codes"].items():
            (row,) = [line for line in page.splitlines() if f"| `{key}` |" in line]
            if not column:
                assert row.count("|") == 5, row  # code, key, retryable, meaning
                continue
            native = [
                f"{language} " + ", ".join(f"`{n}`" for n in code[k])
                for language, k in (("Python", "python_bases"), ("Go", "go_is"))
                if code.get(k)
            ]
            assert row.endswith(f" {'; '.join(native)} |" if native else "|  |"), row
