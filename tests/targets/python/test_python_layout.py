"""The two layouts of the generated Python package, and how one is chosen.

``module`` defines every class in ``__init__.py``; ``lazy`` defines each
domain's classes in a private module imported the first time one of them is
used.  The layout must be invisible to users: every case is rendered both ways
and the two packages, run in fresh interpreters, must behave identically.  The
lazy one must also really be lazy, and ``python_layout: auto`` picks by size.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from taxogen import render
from taxogen.targets import every
from taxogen.targets.python import LAZY_ABOVE
from taxogen.targets.python import lazy as python_lazy
from taxogen.naming import Names, name_taxonomy
from taxogen.pipeline import load_taxonomy
from tests import spec_oracle as oracle
from tests.support import Case, cases, today_case_ids, today_cases

#: Prints, as JSON, everything a user of the package can observe.
BEHAVIOUR = r"""
import importlib, json, pickle, sys, warnings

pkg = importlib.import_module(sys.argv[1])
# Each typed class's required fields (docs "Typed details"), by class and by code.
samples = json.loads(sys.argv[3])
seen = {"all": sorted(pkg.__all__), "dir_covers_all": set(pkg.__all__) <= set(dir(pkg))}
classes = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for name in sorted(pkg.__all__):
        cls = getattr(pkg, name)
        if not (isinstance(cls, type) and issubclass(cls, pkg.__dict__[sys.argv[2]])):
            continue
        error = cls(**samples["classes"].get(name, {}))
        classes[name] = {
            "module": cls.__module__,
            "qualname": cls.__qualname__,
            "mro": [c.__name__ for c in cls.__mro__],
            "doc": cls.__doc__,
            "static": [
                str(cls.code), str(cls.domain), cls.meaning, cls.retryable,
                cls.deprecated, cls.replaced_by,
                cls.http_status, cls.grpc_status, cls.throttling, cls.doc_url,
            ],
            "instance": [repr(error), error.to_dict(), error.__notes__],
            "pickled": pickle.loads(pickle.dumps(error)).to_dict(),
        }
    seen["warnings"] = [str(w.message) for w in caught]
seen["classes"] = classes
codes = [str(c) for c in pkg.ErrorCode]
codes += ["zz_not_a_code", "ZZ_NOT_A_CODE", "not a code"]
seen["lookup"] = {c: [pkg.lookup(c).__name__, pkg.is_retryable(c)] for c in codes}
decoded = {}
for code in codes:
    details = {"k": [1], **samples["codes"].get(code, {})}
    payload = {"code": code, "message": "m", "retryable": True, "details": details}
    try:
        error = pkg.from_payload(payload)
    except pkg.InvalidPayloadError as exc:
        decoded[code] = ["invalid", str(exc), exc.field]
    else:
        decoded[code] = [type(error).__name__, error.to_payload(), repr(error)]
seen["from_payload"] = decoded
wrapped = [pkg.to_error(ValueError("v")), pkg.to_error(42)]
seen["to_error"] = [
    [type(e).__name__, e.to_dict(), repr(e.__cause__), repr(e.original)]
    for e in wrapped
]
events = {}
for kind, location in pkg.ERROR_EVENTS.items():
    event = {"type": kind}
    holder = event
    *parents, last = location.split(".")
    for part in parents:
        holder[part] = {}
        holder = holder[part]
    holder[last] = {
        "code": codes[-4], "message": "e", "retryable": False,
        "details": samples["codes"].get(codes[-4], {}),
    }
    events[kind] = pkg.error_from_event(event).to_dict()
seen["events"] = events
print(json.dumps(seen, sort_keys=True, default=repr))
"""


def _names(case: Case, layout: str) -> Names:
    taxonomy = dataclasses.replace(load_taxonomy(case.taxonomy), python_layout=layout)
    return name_taxonomy(taxonomy, str(case.taxonomy))


def _write_python(names: Names, root: Path) -> Path:
    """Write the Python package of ``names`` under ``root``; return its ``src``
    folder.
    """
    # The Python target alone: another target's failure is its own tests' to see.
    python = [t for t in every() if t.name == "python"]
    for path, data in render.render(names, python).items():
        if path.startswith("python/src/"):
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return root / "python" / "src"


def _python(src: Path, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def _taxonomy_text(count: int, layout: str | None) -> str:
    """A valid taxonomy of ``count`` codes in two domains."""
    lines = [
        "format: 1",
        "name: sized",
        "title: Sized",
        "version: 1.0.0",
        "base: SizedError",
    ]
    lines += ["fallback: alpha_error", "wrap: alpha_error"]
    if layout is not None:
        lines.append(f"python_layout: {layout}")
    lines.append("domains:")
    for domain, share in (("alpha", count - count // 2), ("beta", count // 2)):
        lines += [f"  {domain}:", f"    title: {domain.title()}", "    codes:"]
        lines.append(
            f"      {domain}_error: {{retryable: false, meaning: Unspecified}}"
        )
        lines += [
            f"      {domain}_c{i}: {{retryable: true, meaning: Code {i}}}"
            for i in range(1, share)
        ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("count", "layout", "lazy"),
    [
        (LAZY_ABOVE, None, False),
        (LAZY_ABOVE + 1, None, True),
        (LAZY_ABOVE, "auto", False),
        (LAZY_ABOVE + 1, "auto", True),
        (LAZY_ABOVE + 1, "module", False),
        (4, "lazy", True),
        (4, "module", False),
    ],
)
def test_the_layout_is_chosen_by_size_unless_named(
    tmp_path: Path, count: int, layout: str | None, lazy: bool
) -> None:
    path = tmp_path / "taxonomy.yaml"
    path.write_text(_taxonomy_text(count, layout), encoding="utf-8")
    taxonomy = load_taxonomy(path)
    assert len(taxonomy.codes) == count
    assert python_lazy(taxonomy) is lazy
    modules = sorted(
        p
        for p in render.render(name_taxonomy(taxonomy, str(path)))
        if p.endswith(".py")
    )
    # The runtime module, the same for every taxonomy, is there in both layouts.
    expected = [
        "python/src/sized_errors/__init__.py",
        "python/src/sized_errors/_runtime.py",
    ]
    if lazy:
        expected += [
            "python/src/sized_errors/_domain_alpha.py",
            "python/src/sized_errors/_domain_beta.py",
        ]
    assert modules == sorted(expected)


def _samples(case: Case) -> dict[str, dict[str, Any]]:
    """Each code's required fields as its YAML declares them, by class and by code."""
    spec = oracle.read_spec(case.taxonomy)
    by_code = {code: oracle.sample_details(spec, code) for code in spec.codes}
    return {
        "codes": by_code,
        "classes": {
            name: by_code[entry.code]
            for entry in spec.codes.values()
            # docs "Aliases": an alias's class is its code's, under another name.
            for name in (entry.class_name, *entry.alias_classes)
        },
    }


@pytest.mark.parametrize("case", today_cases(), ids=today_case_ids())
def test_both_layouts_behave_the_same(case: Case, tmp_path: Path) -> None:
    results: dict[str, Any] = {}
    samples = json.dumps(_samples(case))
    for layout in ("module", "lazy"):
        names = _names(case, layout)
        src = _write_python(names, tmp_path / layout)
        assert any(src.rglob("_domain_*.py")) is (layout == "lazy")
        spec = oracle.read_spec(case.taxonomy)
        done = _python(src, BEHAVIOUR, spec.python_package, spec.base, samples)
        assert done.returncode == 0, done.stderr
        results[layout] = json.loads(done.stdout)
    module, lazy = results["module"], results["lazy"]
    assert module["dir_covers_all"] and module["classes"] and module["from_payload"]
    for key in sorted(module):
        assert lazy[key] == module[key], key


#: Run against a lazy package: classes appear only when used, and only their domain's.
LAZINESS = r"""
import json, pickle, sys, threading

package, base, first, first_modules, other, other_code, other_modules = sys.argv[1:8]
# docs "Hierarchies": a domain's module imports its parents' modules too.
first_modules, other_modules = json.loads(first_modules), json.loads(other_modules)
other_code = json.loads(other_code)  # its wire code: a string or an integer
other_details = json.loads(sys.argv[8])  # the required fields of other_code
pkg = __import__(package)


def loaded():
    prefix = package + "._domain_"
    return sorted(m.rpartition(".")[2] for m in sys.modules if m.startswith(prefix))


assert loaded() == [], loaded()
assert base in vars(pkg) and first not in vars(pkg) and other not in vars(pkg)
assert first in dir(pkg) and other in dir(pkg)

# Eight threads race for the first use of a class: they all get the same one.
found = []
threads = [
    threading.Thread(target=lambda: found.append(getattr(pkg, first)))
    for _ in range(8)
]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
assert len(found) == 8 and all(cls is found[0] for cls in found), found
assert loaded() == sorted(first_modules), loaded()
assert found[0].__module__ == package and vars(pkg)[first] is found[0]
# Every class above it is the package's, never seen under a private module.
for above in found[0].__mro__:
    assert not above.__module__.startswith(package + "._domain_"), above

if other_modules[0] not in first_modules:
    payload = {"code": other_code, "message": "m", "retryable": False}
    error = pkg.from_payload(dict(payload, details=other_details))
    assert type(error).__name__ == other
    assert sorted(loaded()) == sorted({*first_modules, *other_modules})

try:
    pkg.not_a_name_of_the_package
except AttributeError as exc:
    missing = f"module {package!r} has no attribute 'not_a_name_of_the_package'"
    assert str(exc) == missing, exc
else:
    raise AssertionError("a missing name must raise AttributeError")

namespace = {}
exec(f"from {package} import *", namespace)
assert set(pkg.__all__) <= set(namespace)
sys.stdout.buffer.write(pickle.dumps(getattr(pkg, other)("sent", **other_details)))
"""

#: Unpickles, in a fresh interpreter where no domain is loaded yet.
UNPICKLE = r"""
import pickle, sys
error = pickle.loads(sys.stdin.buffer.read())
pkg = sys.modules[sys.argv[1]]
assert type(error) is getattr(pkg, sys.argv[2]) and str(error) == "sent", error
"""


@pytest.mark.parametrize("case", today_cases(), ids=today_case_ids())
def test_the_lazy_layout_defines_a_domain_only_when_used(
    case: Case, tmp_path: Path
) -> None:
    src = _write_python(_names(case, "lazy"), tmp_path)
    # Expectations from the YAML and the README, not the generator's naming.
    spec = oracle.read_spec(case.taxonomy)
    codes_of = {
        key: [c for c in spec.codes.values() if c.domain == key] for key in spec.domains
    }
    first_domain = next(iter(spec.domains))
    last_domain = [key for key, codes in codes_of.items() if codes][-1]

    def modules(domain: str) -> str:
        # docs "Python layout": a domain's classes live in `_domain_<name>.py`
        # (its key in lower case); docs "Hierarchies": loading a domain loads
        # its parents (from the YAML's parent keys), and a parent may have no
        # codes.
        return json.dumps([f"_domain_{key.lower()}" for key in spec.lineage(domain)])

    first_codes = codes_of[first_domain]
    first_name = (
        first_codes[-1].class_name if first_codes else spec.domains[first_domain]
    )
    other = codes_of[last_domain][-1]
    args = [
        spec.python_package,
        spec.base,
        first_name,
        modules(first_domain),
        other.class_name,
        json.dumps(other.wire),
        modules(last_domain),
        json.dumps(_samples(case)["codes"][other.code]),
    ]
    done = subprocess.run(
        [sys.executable, "-c", LAZINESS, *args],
        env={**os.environ, "PYTHONPATH": str(src)},
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    back = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(UNPICKLE),
            spec.python_package,
            other.class_name,
        ],
        env={**os.environ, "PYTHONPATH": str(src)},
        input=done.stdout,
        capture_output=True,
        check=False,
    )
    assert back.returncode == 0, back.stderr.decode()


def test_the_module_layout_writes_no_domain_modules() -> None:
    """The shipped taxonomy (16 codes) keeps its single module."""
    (shipped,) = [case for case in cases() if case.name == "shipped"]
    assert not python_lazy(load_taxonomy(shipped.taxonomy))
    assert not list((shipped.expected / "python").rglob("_domain_*.py"))
