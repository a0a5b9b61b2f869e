"""Named mutations: a dozen wrong programs that the behavioural tests must refuse.

mutmut's mutants are small and blind; these are the mistakes a person makes
(send unknown codes to the wrap code, invert retryability, let a duplicate
code through, trust the class over the wire), each written as one exact edit
of taxogen's source.  For each, ``python -m tests.mutation_named`` copies the
tree, applies the edit, regenerates every golden file from the mutated code
(so a byte comparison cannot be what catches it), and runs the fast tests of
``[tool.mutmut]`` with no ``tsc`` and no ``node`` on ``PATH`` and ``CI`` unset
(so nothing that needs them can be what catches it either).  The mutation is
killed when those tests fail; :mod:`tests.mutation` puts the table in
MUTATION.md.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


#: The Python runtime's check of an unknown code (the line before its length test).
_UNKNOWN_CODE_CHECK = (
    "        if cls is None and isinstance(code, str) and pattern is not None:\n"
)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Mutation:
    name: str
    file: str
    old: str
    new: str
    wrong: str  # what the mutated taxogen gets wrong, in the spec's words


MUTATIONS = (
    Mutation(
        name="fallback-is-wrap",
        file="generator/naming.py",
        old="else by_code[taxonomy.fallback],",
        new="else by_code[taxonomy.wrap],",
        wrong="unknown codes are treated as the wrap code, not the fallback",
    ),
    Mutation(
        name="wrap-is-fallback",
        file="generator/naming.py",
        old="wrap=by_code[taxonomy.wrap],",
        new="wrap=by_code[taxonomy.fallback],",
        wrong="non-error throws are wrapped with the fallback code",
    ),
    Mutation(
        name="retryable-inverted",
        file="generator/validate/codes.py",
        old="retryable=bool(retryable),",
        new="retryable=not retryable,",
        wrong="every code's retryability is the opposite of the YAML's",
    ),
    Mutation(
        name="duplicate-code-accepted",
        file="generator/validate/codes.py",
        old="        elif earlier is not None:\n",
        new="        elif False:\n",
        wrong="a code defined in two domains is accepted",
    ),
    Mutation(
        name="code-in-first-domain",
        file="generator/naming.py",
        old="                domain=domain,\n",
        new="                domain=taxonomy.domains[0],\n",
        wrong="every domain's class table claims the first domain",
    ),
    Mutation(
        name="class-retryable-wins",
        file="generator/targets/python/runtime/_runtime.py",
        old="error = _received(cls, message, retryable, code)",
        new="error = _received(cls, message, cls.retryable, code)",
        wrong="a decoded payload's retryable is the class default, not the wire's",
    ),
    Mutation(
        name="unknown-decodes-as-wrap",
        file="generator/targets/python/runtime/_runtime.py",
        old="return self.fallback() if target is None else self._resolve(target)",
        new="return self.wrap() if target is None else self._resolve(target)",
        wrong="the Python runtime decodes unknown codes as the wrap code",
    ),
    Mutation(
        name="exceptions-wrapped-as-fallback",
        file="generator/targets/python/runtime/_runtime.py",
        old="return classes.wrap()(message, cause=cause)",
        new="return classes.fallback()(message, cause=cause)",
        wrong="to_error wraps an exception with the fallback code",
    ),
    Mutation(
        name="code-limit-off-by-one",
        file="generator/targets/python/runtime/_runtime.py",
        old=_UNKNOWN_CODE_CHECK + "            if len(code) > MAX_CODE_LENGTH:",
        new=_UNKNOWN_CODE_CHECK + "            if len(code) >= MAX_CODE_LENGTH:",
        wrong="a code of exactly the limit's length is refused",
    ),
    Mutation(
        name="schema-retryable-optional",
        file="generator/targets/contract/schema.py",
        old='"required": ["code", "message", "retryable"],',
        new='"required": ["code", "message"],',
        wrong="the JSON Schema accepts a payload without retryable",
    ),
    Mutation(
        name="schema-pattern-lower-only",
        file="generator/targets/contract/schema.py",
        old="    pattern = _pattern(names.taxonomy)\n",
        # An upper_snake pattern spelt in lower case: the lower_snake one.
        new=(
            "    pattern = _pattern(names.taxonomy)\n"
            '    pattern = pattern and pattern.replace("A-Z", "a-z")\n'
        ),
        wrong="the schema's code pattern ignores the taxonomy's code case",
    ),
    Mutation(
        name="vector-lookup-unknown-wrap",
        file="generator/targets/contract/vectors.py",
        old="        unknown,\n        _looked_up(names, unknown),\n",
        new=(
            "        unknown,\n"
            '        {"class": wrap.class_name, "retryable": wrap.code.retryable},\n'
        ),
        wrong="the conformance vectors expect unknown codes to look up the wrap",
    ),
    Mutation(
        name="check-blind-to-edits",
        file="generator/emit.py",
        old="            elif current != data:\n",
        new="            elif False:\n",
        wrong="check passes a hand-edited generated file",
    ),
    Mutation(
        name="check-blind-to-leftovers",
        file="generator/emit.py",
        old='                if folder.kind(path) == "file":\n',
        new="                if False:\n",
        wrong="check passes a generated file that generate would remove",
    ),
)


def _copy_tree(into: Path) -> None:
    """The working tree's files as git sees them (tracked and new, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for raw in filter(None, listed):
        source = REPO / os.fsdecode(raw)
        if source.is_file():
            target = into / os.fsdecode(raw)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _bare_path(tmp: Path) -> str:
    """A PATH with Python and git only: no tsc, no node."""
    tools = tmp / "bin"
    tools.mkdir()
    for tool in ("git",):
        found = shutil.which(tool)
        if found:
            (tools / tool).symlink_to(found)
    return f"{Path(sys.executable).parent}{os.pathsep}{tools}"


#: No edit at all: the same steps must pass, or a kill would prove nothing.
CONTROL = Mutation(name="control", file="", old="", new="", wrong="nothing")


def run(mutation: Mutation) -> tuple[bool, str]:
    """Whether the fast tests refuse ``mutation``, and the first tests that did."""
    with tempfile.TemporaryDirectory(prefix=f"taxogen-{mutation.name}-") as name:
        tmp = Path(name)
        tree = tmp / "tree"
        _copy_tree(tree)
        if mutation is not CONTROL:
            source = tree / mutation.file
            text = source.read_text(encoding="utf-8")
            if text.count(mutation.old) != 1:
                raise SystemExit(f"{mutation.name}: the edit no longer applies once")
            text = text.replace(mutation.old, mutation.new)
            source.write_text(text, encoding="utf-8")
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("CI", "PYTHONPATH")
        }
        env.update(PATH=_bare_path(tmp), PYTHONPATH=str(tree))
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        for golden in ("tests.golden", "tests.bad_golden"):
            subprocess.run(
                [sys.executable, "-m", golden],
                cwd=tree,
                env=env,
                capture_output=True,
            )
        config = tomllib.loads((tree / "pyproject.toml").read_text("utf-8"))
        selection = config["tool"]["mutmut"]["pytest_add_cli_args_test_selection"]
        tests = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
            + ["-x", *selection],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
        )
        failed = _FAILED.findall(tests.stdout)
        return tests.returncode != 0, ", ".join(failed[:2]) or tests.stdout[-200:]


def table(results: list[tuple[Mutation, bool, str]]) -> str:
    lines = [
        "## Named mutations",
        "",
        "Written by `python -m tests.mutation_named` (part of `make mutate`): each",
        "edit applied to a copy of the tree, every golden file regenerated from",
        "the mutated code, then the fast tests run with no `tsc` and no `node`.",
        "",
        "| mutation | what it gets wrong | where | killed by |",
        "|---|---|---|---|",
    ]
    for mutation, killed, by in results:
        shown = f"`{by}`" if killed else "**SURVIVED**"
        lines.append(
            f"| {mutation.name} | {mutation.wrong} | `{mutation.file}` | {shown} |"
        )
    return "\n".join(lines) + "\n"


def outcomes() -> tuple[str, bool]:
    """Run the control and every mutation: the report's table, and all killed."""
    workers = max(1, (os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        found = list(pool.map(run, (CONTROL, *MUTATIONS)))
    control_failed, by = found.pop(0)
    if control_failed:
        raise SystemExit(f"the unmutated copy fails its tests ({by}): no kill counts")
    results = [(m, killed, by) for m, (killed, by) in zip(MUTATIONS, found)]
    return table(results), all(killed for _, killed, _ in results)


if __name__ == "__main__":
    text, ok = outcomes()
    print(text)
    sys.exit(0 if ok else 1)
