"""The Python scripts the benchmark runs in fresh processes, as text.

Each one is written to the benchmark's temporary folder and run there, so every
measurement that start-up or import state could distort happens in a process of
its own.  Every script prints one JSON document on its last line of stdout.
Node's scripts are in :mod:`benchmarks.node_children`.
"""

from __future__ import annotations

__all__ = [
    "EXEC_MODULE",
    "PHASES",
    "PYDANTIC",
    "TYPED_DECODE",
    "BLACK",
    "WRAP",
    "YAML_PARSE",
]

#: Runs a command, and reports its wall time (measured here, from spawn to exit)
#: and its peak resident set size: RUSAGE_CHILDREN of this small wrapper covers
#: exactly the one child it ran.
WRAP = r"""
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
wall = time.perf_counter() - start
print(json.dumps({
    "wall": wall,
    "rc": done.returncode,
    "maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    "cpu": (
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        + resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime
    ),
    "stdout": done.stdout.decode("utf-8", "replace")[-4000:],
    "stderr": done.stderr.decode("utf-8", "replace")[-4000:],
}))
"""

#: What the C YAML loader needs just to parse the file (the text already read).
YAML_PARSE = r"""
import json, sys, time, yaml
path, reps = sys.argv[1], int(sys.argv[2])
text = open(path, encoding="utf-8").read()
samples = []
for _ in range(reps):
    start = time.perf_counter()
    yaml.load(text, Loader=yaml.CSafeLoader)
    samples.append(time.perf_counter() - start)
print(json.dumps({"samples": samples}))
"""

#: generate, step by step, in one process: where the time goes.  Rather than
#: re-spelling the pipeline (which changes), it wraps the functions
#: ``taxogen.pipeline`` calls, where it calls them, with timers, and runs
#: ``build_plan`` and ``emit.write`` exactly as the command line does.
PHASES = r"""
import functools, json, sys, time
from pathlib import Path
start = time.perf_counter()
from taxogen import emit, pipeline
from taxogen.targets.python import pysyntax
from taxogen.targets import every
from taxogen.targets.contract import dump, schema, vectors
imports = time.perf_counter() - start

path, out_root, reps = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
spent = {}
finish_log = []


def timed(label, function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        began = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.perf_counter() - began
    return wrapper


LABELS = {
    "load_bytes": "source: YAML events -> nodes",
    "validate": "validate",
    "name_taxonomy": "naming",
}
for name, label in LABELS.items():
    if callable(getattr(pipeline, name, None)):
        setattr(pipeline, name, timed(label, getattr(pipeline, name)))

original_render = pipeline.render


def render_by_target(names, targets=None, user=None, options=None, *, checks=()):
    # One target at a time: each step's own work, in one process (the render
    # of a large run is shared by two, see generator/workers.py), beginning
    # with the name checks of the targets not rendered, which run beside it.
    if checks:
        timed(
            "naming: checks of the targets not rendered",
            lambda: [check() for check in checks],
        )()
    plan = {}
    for target in every() if targets is None else targets:
        render_one = timed(f"render {target.name}", original_render)
        plan.update(render_one(names, (target,), user, options))
    return plan


pipeline.render = render_by_target
# Parts of the schema's and conformance's renders, so indented: not summed again.
schema.payload_schema = timed(
    "  of which contract: payload_schema", schema.payload_schema
)
vectors.vectors = timed("  of which contract: vectors", vectors.vectors)
dump.dump_json = timed(
    "  of which contract: dump_json (schema + vectors)", dump.dump_json
)
emit.manifest_bytes = timed("manifest (hashes)", emit.manifest_bytes)
original_finish = pysyntax.finish


def timed_finish(source):
    began = time.perf_counter()
    result = original_finish(source)
    # finish returns its argument itself unless black ran (black builds a new string).
    finish_log.append(
        {"seconds": time.perf_counter() - began, "black_ran": result is not source}
    )
    return result


pysyntax.finish = timed_finish
phases = []
black_imported = False
for rep in range(reps):
    spent.clear()
    began = time.perf_counter()
    plan = pipeline.build_plan(path)
    whole = time.perf_counter() - began
    emitted = time.perf_counter()
    emit.write(out_root / f"rep{rep}", plan)
    row = dict(spent)
    row["  of which pysyntax.finish (black safety net)"] = (
        finish_log[-1]["seconds"] if finish_log else 0.0
    )
    row["emit.write (atomic writes)"] = time.perf_counter() - emitted
    row["other (build_plan's own glue)"] = whole - sum(
        v for k, v in spent.items() if not k.startswith(" ")
    )
    phases.append(row)
    if rep == 0:
        black_imported = "black" in sys.modules
sizes = {key: len(value) for key, value in plan.items()}
print(json.dumps({"imports": imports, "phases": phases, "finish": finish_log,
                  "black_imported": black_imported, "build_plan": whole,
                  "sizes": sizes}))
"""

#: Loads a module from its source path (through its .pyc) under ``name`` after
#: importing ``preload`` (its dependencies), and times only that module's own
#: load: unmarshal the .pyc and run the module body.  The same for the
#: generated package and for a second copy of psycopg.errors.
EXEC_MODULE = r"""
import importlib, importlib.util, json, os, sys, time
name, path, preload = sys.argv[1], sys.argv[2], sys.argv[3]
for module in filter(None, preload.split(",")):
    if not module.startswith("."):
        importlib.import_module(module)
package_dir = [os.path.dirname(path)] if path.endswith("__init__.py") else None
spec = importlib.util.spec_from_file_location(
    name, path, submodule_search_locations=package_dir
)
cached = importlib.util.cache_from_source(path)
module = importlib.util.module_from_spec(spec)
sys.modules[name] = module
# The package's own modules (".name"), found through the package not yet run,
# as psycopg's are loaded by `import psycopg` before its errors module's body.
for own in filter(None, preload.split(",")):
    if own.startswith("."):
        importlib.import_module(name + own)
start = time.perf_counter_ns()
spec.loader.exec_module(module)
elapsed = time.perf_counter_ns() - start
# Then the first use of every public name: free for one module, the domain
# modules' import for the lazy layout (whose classes the body does not define).
start = time.perf_counter_ns()
for attribute in getattr(module, "__all__", ()):
    getattr(module, attribute)
first_use = time.perf_counter_ns() - start
classes = sum(
    1 for value in vars(module).values()
    if isinstance(value, type)
    and issubclass(value, BaseException)
    and value.__module__ == name
)
# The floor under the generated package's figure: its ErrorCode enum made again
# the same way (a class body of NAME = value lines, its base the same), timed
# alone in this process (issue 34 §3).  psycopg.errors has none: 0.
enum_ns = 0
made = vars(module).get("ErrorCode")
if made is not None:
    import enum
    base = next(b for b in made.__mro__[1:] if b.__module__ == "enum")
    body = "class ErrorCode(_base):\n" + "".join(
        f"    {name} = {member.value!r}\n" for name, member in made.__members__.items()
    )
    code = compile(body, "<ErrorCode again>", "exec")
    start = time.perf_counter_ns()
    exec(code, {"_base": base})
    enum_ns = time.perf_counter_ns() - start
print(json.dumps({"ns": elapsed, "first_use_ns": first_use, "classes": classes,
                  "lazy": "_LAZY" in vars(module), "pyc": os.path.exists(cached),
                  "enum_ns": enum_ns}))
"""

#: from_payload against pydantic v2 (strict TypeAdapter + the same construction).
PYDANTIC = r"""
import json, math, statistics, sys, time, timeit
import importlib
src, package, pattern, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, src)
errors = importlib.import_module(package)
from typing import Annotated
from typing_extensions import NotRequired, TypedDict
import pydantic
from pydantic import ConfigDict, JsonValue, StringConstraints, TypeAdapter


class Payload(TypedDict):
    __pydantic_config__ = ConfigDict(strict=True, allow_inf_nan=False, extra="ignore")
    code: Annotated[str, StringConstraints(pattern=pattern)]
    message: str
    retryable: bool
    details: NotRequired[dict[str, JsonValue] | None]


adapter = TypeAdapter(Payload)
lookup = errors.lookup


def build(valid):
    # What from_payload does once the payload is checked, spelled the same way.
    error = lookup(valid["code"])(valid["message"], retryable=valid["retryable"])
    details = valid.get("details")
    if details:
        error.details = details
    error.wire_code = valid["code"]
    return error


def pyd_dict(payload):
    return build(adapter.validate_python(payload))


def pyd_json(text):
    return build(adapter.validate_json(text))


from_payload = errors.from_payload


def ours_json(text):
    return from_payload(json.loads(text))


code = sys.argv[5]
full = {"code": code, "message": "billing gateway timed out after 30s",
        "retryable": True,
        "details": {"task_id": "task_01", "timeout_ms": 300000, "elapsed_ms": 302150}}
bare = {"code": code, "message": "billing gateway timed out after 30s",
        "retryable": True}

# Agreement on what is accepted and what is built, before timing anything.
cases = [
    full, bare, dict(full, extra=1), dict(full, details=None),
    dict(full, code="no_such_code_here"), dict(full, code="Bad-Code"),
    dict(full, code=7), dict(full, message=None), dict(full, retryable=1),
    dict(full, retryable="true"), dict(full, details=[]), dict(full, details={1: 2}),
    dict(full, details={"x": float("nan")}), dict(full, details={"x": object()}),
    "not a payload",
]
agree, differ = 0, []
for case in cases:
    outcome = []
    for fn in (from_payload, pyd_dict):
        try:
            error = fn(case)
            outcome.append((type(error).__name__, error.wire_code, error.message,
                            error.retryable, error.details))
        # InvalidPayloadError and pydantic's ValidationError are ValueErrors.
        except (ValueError, TypeError) as exc:
            outcome.append("rejected")
    if outcome[0] == outcome[1]:
        agree += 1
    else:
        ours = "accepts" if outcome[0] != "rejected" else "rejects"
        theirs = "accepts" if outcome[1] != "rejected" else "rejects"
        differ.append(f"{case!r}: from_payload {ours}, pydantic {theirs}")


def calibrate(fn, arg):
    number = 1
    while True:
        spent = timeit.timeit(lambda: fn(arg), number=number)
        if spent >= 0.05:
            return number
        number *= 2


def race(candidates):
    numbers = {label: calibrate(fn, arg) for label, (fn, arg) in candidates.items()}
    samples = {label: [] for label in candidates}
    for _ in range(reps):
        for label, (fn, arg) in candidates.items():
            spent = timeit.timeit(lambda: fn(arg), number=numbers[label])
            samples[label].append(spent / numbers[label] * 1e9)
    return samples


text = json.dumps(full)
bare_text = json.dumps(bare)
assert type(ours_json(text)) is type(pyd_json(text))
valid = adapter.validate_python(full)
samples = race({
    "construct_only": (build, valid),
    "pydantic_validate_only": (adapter.validate_python, full),
    "json_loads_only": (json.loads, text),
    "ours_dict": (from_payload, full),
    "pydantic_dict": (pyd_dict, full),
    "ours_json": (ours_json, text),
    "pydantic_json": (pyd_json, text),
    "ours_dict_bare": (from_payload, bare),
    "pydantic_dict_bare": (pyd_dict, bare),
    "ours_json_bare": (ours_json, bare_text),
    "pydantic_json_bare": (pyd_json, bare_text),
})
print(json.dumps({"samples_ns": samples, "agree": agree, "cases": len(cases),
                  "differ": differ, "pydantic": pydantic.VERSION}))
"""

#: from_payload of a code with declared details fields against the same payload
#: with a code that declares none: what checking the fields costs.
TYPED_DECODE = r"""
import importlib, json, sys, timeit
src, package, typed, untyped, details, reps = sys.argv[1:7]
sys.path.insert(0, src)
from_payload = importlib.import_module(package).from_payload
details, reps = json.loads(details), int(reps)
payloads = {
    label: {"code": code, "message": "m", "retryable": True, "details": details}
    for label, code in (("typed", typed), ("untyped", untyped))
}
# Both decode, to the same details: the typed one is checked, not refused.
for payload in payloads.values():
    assert from_payload(payload).details == details, payload


def calibrate(payload):
    number = 1
    while timeit.timeit(lambda: from_payload(payload), number=number) < 0.05:
        number *= 2
    return number


numbers = {label: calibrate(p) for label, p in payloads.items()}
samples = {label: [] for label in payloads}
for _ in range(reps):
    for label, payload in payloads.items():
        spent = timeit.timeit(lambda: from_payload(payload), number=numbers[label])
        samples[label].append(spent / numbers[label] * 1e9)
print(json.dumps({"samples_ns": samples}))
"""

#: black itself over a generated module (already black-clean, so this is what the
#: safety net would cost if it ran over the whole file).
BLACK = r"""
import json, sys, time
start = time.perf_counter()
import black
imported = time.perf_counter() - start
path, reps = sys.argv[1], int(sys.argv[2])
source = open(path, encoding="utf-8").read()
samples, changed = [], None
for _ in range(reps):
    start = time.perf_counter()
    result = black.format_str(source, mode=black.Mode(line_length=88))
    samples.append(time.perf_counter() - start)
    changed = result != source
wide = sum(1 for line in source.splitlines() if len(line) > 88)
print(json.dumps({"samples": samples, "changed": changed, "import": imported,
                  "wide_lines": wide, "version": black.__version__}))
"""
