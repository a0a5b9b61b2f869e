"""Mutation: run the mutation test pass and write its report, MUTATION.md.

``python -m tests.mutation`` (``make mutate``) runs mutmut over the modules and
tests that ``[tool.mutmut]`` in pyproject.toml names, then counts, for each of
the four groups the issue names (naming, validate, contract, emit), how many of
its mutants the tests killed, and lists every survivor with its diff and why it
survives.  The why comes from ``tests/mutation_survivors.toml`` (mutant name →
reason), written by hand after reading the diff: a survivor nobody has
explained is listed as *unexplained*, so the report cannot hide one.  With
``--report-only`` it reads the results of the last run in ``mutants/`` again;
``--restat`` makes mutmut record afresh which tests call which functions (it
keeps that record by test name, so a test changed to reach more code is not run
against the new code's mutants until then).
With ``--sample N`` it runs only N of the mutants not yet run, drawn at random
(seeded, so the draw can be repeated), and the report then estimates the kill
rate of all those not run from the sample, with a 95% interval: the mutants of
the functions every test calls (``read_taxonomy``, ``_assign``...) each cost a
run of nearly the whole fast suite, far more than a session's machine time.
It also runs :mod:`tests.mutation_named`, a dozen hand-written mutations
checked end to end, and puts their table in the report.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

from tests import mutation_named

REPO = Path(__file__).resolve().parent.parent
REASONS = REPO / "tests" / "mutation_survivors.toml"
REPORT = REPO / "MUTATION.md"
#: The mutants a ``--sample`` run drew, one name a line (beside mutmut's state).
SAMPLE = REPO / "mutants" / "sample.txt"
MUTMUT = [sys.executable, "-m", "mutmut"]
#: mutmut's environment: bytecode is written whatever the caller's
#: PYTHONDONTWRITEBYTECODE says.  The mutated modules are ten times the size of
#: the originals, and every test that runs ``python -m taxogen`` (each of the
#: 138 bad cases, the command-line tests) would compile them afresh: 2.7 s a run
#: here against 0.21 s with the bytecode cached.
#: TAXOGEN_MUTATION: the costly property tests draw a tenth of their examples
#: (``tests.support.examples``).
MUTMUT_ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "TAXOGEN_MUTATION": "1",
}

#: The groups the report counts, by the dotted prefix of a mutant's module.
GROUPS = {
    "naming": ("taxogen.naming",),
    "validate": ("taxogen.validate",),
    "contract": ("taxogen.targets.contract",),
    "emit": ("taxogen.emit",),
}
GOAL = 0.90
_RESULT = re.compile(r"\s*(\S+): (.+)")
_MODULE = re.compile(r"(.+?)\.x(?:ǁ|_)")


def refresh_copies() -> None:
    """Bring mutmut's copies of the package's other files up to date.

    mutmut copies a file of the source folder into ``mutants/`` only if it is
    not there yet, and rewrites only the Python it mutates, so a runtime
    (``runtime.ts``, ``runtime.go``) changed since the pass began would stay
    stale there and fail the clean run, or worse, be tested as it was.
    """
    mutants = REPO / "mutants"
    if not mutants.is_dir():
        return
    for source in sorted((REPO / "taxogen").rglob("*")):
        if not source.is_file() or source.suffix in (".py", ".pyc"):
            continue
        copy = mutants / source.relative_to(REPO)
        if not copy.exists() or copy.read_bytes() != source.read_bytes():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy)


def results() -> dict[str, str]:
    """Every mutant of the last run and its status, as ``mutmut results`` says."""
    text = subprocess.run(
        [*MUTMUT, "results", "--all", "true"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found = {}
    for line in text.splitlines():
        match = _RESULT.fullmatch(line)
        if match and "__mutmut_" in match[1]:
            found[match[1]] = match[2]
    return found


def group_of(mutant: str) -> str | None:
    match = _MODULE.match(mutant)
    module = match[1] if match else mutant
    for group, prefixes in GROUPS.items():
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return group
    return None


#: Prints the diff of every mutant named on stdin as JSON, in one process:
#: ``mutmut show`` costs a second or two a mutant, minutes for a few hundred.
_DIFFS = """
import json, sys
from pathlib import Path
from mutmut.mutation.diff_apply import get_diff_for_mutant
out = {}
for name in json.load(sys.stdin):
    module = name[: name.index(".x")]
    path = Path(*module.split(".")).with_suffix(".py")
    if not path.exists():
        path = Path(*module.split("."), "__init__.py")
    out[name] = get_diff_for_mutant(name, path=path)
print(json.dumps(out))
"""


def diffs_of(mutants: list[str]) -> dict[str, list[str]]:
    """The changed lines of each mutant (as ``mutmut show`` gives them)."""
    done = subprocess.run(
        [sys.executable, "-c", _DIFFS],
        cwd=REPO,
        input=json.dumps(mutants),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:  # mutmut's internals moved: ask it one by one
        return {mutant: diff_of(mutant) for mutant in mutants}
    shown = json.loads(done.stdout)
    return {mutant: _changed(shown[mutant]) for mutant in mutants}


def _changed(shown: str) -> list[str]:
    return [
        line
        for line in shown.splitlines()
        if line[:2] in ("- ", "+ ") and not line.startswith(("--- ", "+++ "))
    ]


def diff_of(mutant: str) -> list[str]:
    shown = subprocess.run(
        [*MUTMUT, "show", mutant], cwd=REPO, capture_output=True, text=True
    ).stdout
    return _changed(shown)


#: The end of a reason that gives the entry's name at an earlier commit, where the
#: function it mutates has changed since: "... (x_read_code__mutmut_287 at 069196e)".
_ALIAS = re.compile(r" \((x\S+__mutmut_\d+) at ([0-9a-f]{7,40})\)$")


def reasons_at(raw: dict[str, str], head: str) -> dict[str, str]:
    """The reasons by the names mutmut gives the code at commit ``head``: an
    entry that gives its name at that commit is shown under that name (its
    current name there may denote another mutant, so it is not used)."""
    out: dict[str, str] = {}
    for name, reason in raw.items():
        alias = _ALIAS.search(reason)
        if alias and head.startswith(alias[2]):
            module = name[: name.index(".x")]
            out[f"{module}.{alias[1]}"] = reason
        else:
            out.setdefault(name, reason)
    return out


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``hits / n``."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def sample_table(
    found: dict[str, str], sampled: list[str], counts: dict[str, Counter[str]]
) -> list[str]:
    """The estimate, per group, of the kill rate over every mutant, the ones not
    run counted at the rate of the sample drawn from them."""
    lines = [
        "## Estimate from a sample of the mutants not run",
        "",
        f"{len(sampled)} of the mutants not run in the full pass were drawn at "
        "random (`--sample`, seeded) and run. Each group's estimate counts the",
        "mutants still not run at the kill rate of its sample (the interval is",
        "the sample's 95% Wilson interval, carried over).",
        "",
        "| module | not run before | sampled | killed | survived "
        "| sample kill rate (95%) | estimated kill rate (95%) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for group, count in counts.items():
        drawn = [m for m in sampled if group_of(m) == group]
        killed = sum(found.get(m) in ("killed", "timeout") for m in drawn)
        survived = sum(found.get(m) == "survived" for m in drawn)
        ran = killed + survived
        waiting = count["not checked"]
        before = waiting + ran
        total = sum(count.values())
        done = count["killed"] + count["timeout"]
        if not before:
            continue
        low, high = wilson(killed, ran)
        rate = killed / ran if ran else 0.0
        estimate = (done + waiting * rate) / total
        lowest = (done + waiting * low) / total
        highest = (done + waiting * high) / total
        lines.append(
            f"| {group} | {before} | {ran} | {killed} | {survived} "
            f"| {rate:.1%} ({low:.1%}–{high:.1%}) "
            f"| {estimate:.1%} ({lowest:.1%}–{highest:.1%}) |"
        )
    return [*lines, ""]


def provenance(head: str, base: str) -> list[str]:
    """Which commit the report measures, and since when verdicts are carried."""
    if not head:
        return []
    measured = f"Measured on commit {head[:7]}."
    if not base or base == head:
        return [measured, ""]
    return [
        f"{measured} mutmut's baseline is {base[:7]}, and it keeps a mutant's",
        "verdict until the function it mutates changes: a verdict may come from a",
        "run on that commit or an earlier one, and a survivor is run again on this",
        "commit only by name (`--survivors` runs them all).",
        "",
    ]


def report(
    found: dict[str, str],
    reasons: dict[str, str],
    named: str,
    head: str = "",
    base: str = "",
) -> tuple[str, bool]:
    """The Markdown report, and whether every group meets the goal."""
    counts: dict[str, Counter[str]] = {group: Counter() for group in GROUPS}
    for mutant, status in found.items():
        group = group_of(mutant)
        if group is not None:
            counts[group][status] += 1
    lines = [
        "# Mutation testing",
        "",
        "Written by `make mutate` (`tests/mutation.py`): mutmut's mutants of the",
        "modules below, run against the fast behavioural tests that",
        "`[tool.mutmut]` in pyproject.toml lists (not the golden byte comparisons,",
        "which kill any change of output and prove nothing about behaviour).",
        "",
        *provenance(head, base),
        "| module | mutants | killed | of them hangs | survived | not run | other "
        "| kill rate | of those run |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    ok = True
    unrun = 0
    for group, count in counts.items():
        total = sum(count.values())
        killed = count["killed"] + count["timeout"]
        survived = count["survived"]
        waiting = count["not checked"]
        unrun += waiting
        rate = killed / total if total else 0.0
        ran = total - waiting
        ok = ok and rate >= GOAL
        lines.append(
            f"| {group} | {total} | {killed} | {count['timeout']} | {survived} "
            f"| {waiting} | {ran - killed - survived} | {rate:.1%} "
            f"| {killed / ran if ran else 0.0:.1%} |"
        )
    lines += ["", f"Goal: {GOAL:.0%} or more killed in each.", ""]
    hangs = sorted(m for m, s in found.items() if s == "timeout" and group_of(m))
    if hangs:
        # Counted as killed, so each is named: a budget too tight for the tests
        # would pass survivors off as hangs (see timeout_multiplier).
        lines += [
            "Hangs are mutants stopped after `timeout_multiplier` times their tests'",
            "time, counted as killed: " + ", ".join(f"`{m}`" for m in hangs) + ".",
            "",
        ]
    if unrun:
        lines += [
            f"**This run is incomplete**: {unrun} mutants were never run (mutmut's",
            "*not checked*); they count against the kill rate, and the rate of",
            "those run says nothing of them.",
            "",
        ]
    sampled = SAMPLE.read_text("utf-8").split() if SAMPLE.exists() else []
    if sampled:
        lines += sample_table(found, sampled, counts)
    if named:
        lines += [named]
    lines += ["## Every survivor, and why it survives", ""]
    survivors = sorted(m for m, s in found.items() if s == "survived" and group_of(m))
    if not survivors:
        lines.append("None.")
    diffs = diffs_of(survivors) if survivors else {}
    for mutant in survivors:
        lines.append(f"- `{mutant}`: {reasons.get(mutant, '*unexplained*')}")
        lines += [f"  `{line}`" for line in diffs[mutant]]
    return "\n".join(lines) + "\n", ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation")
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--sample", type=int, default=0, metavar="N")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--survivors", action="store_true")
    parser.add_argument("--restat", action="store_true")
    args = parser.parse_args(argv)
    if args.restat:
        # mutmut records which functions each test calls once per test name, so a
        # test changed to call more (a new input, a new case) is not run for their
        # mutants until the record is made again, by the next run.
        (REPO / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    named, all_killed = "", True
    children = str(os.cpu_count() or 1)
    if not args.report_only:
        refresh_copies()
    if args.survivors:
        # mutmut keeps a verdict until the function it mutates changes, so a
        # test added to kill a survivor counts only once the survivor is run
        # again by name.
        again = sorted(
            m for m, s in results().items() if s == "survived" and group_of(m)
        )
        if again:
            subprocess.run(
                [*MUTMUT, "run", "--max-children", children, *again],
                cwd=REPO,
                env=MUTMUT_ENV,
            )
        args.report_only = True
    if args.sample:
        waiting = sorted(
            m for m, s in results().items() if s == "not checked" and group_of(m)
        )
        drawn = random.Random(args.seed).sample(waiting, min(args.sample, len(waiting)))
        # Added to any earlier draw: a second draw from what the first left is
        # still one uniform sample of the mutants not run before either.
        earlier = SAMPLE.read_text("utf-8") if SAMPLE.exists() else ""
        SAMPLE.write_text(earlier + "".join(f"{m}\n" for m in drawn), "utf-8")
        subprocess.run(
            [*MUTMUT, "run", "--max-children", children, *drawn],
            cwd=REPO,
            env=MUTMUT_ENV,
        )
        args.report_only = True
    if not args.report_only:
        subprocess.run(
            [*MUTMUT, "run", "--max-children", children], cwd=REPO, env=MUTMUT_ENV
        )
        named, all_killed = mutation_named.outcomes()
    elif REPORT.exists():  # keep the named table of the last full run
        old = REPORT.read_text("utf-8")
        start = old.find("## Named mutations")
        end = old.find("## Every survivor")
        if 0 <= start < end:
            named = old[start:end].rstrip("\n") + "\n"
    raw = tomllib.loads(REASONS.read_text("utf-8")) if REASONS.exists() else {}
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    reasons = reasons_at({k: str(v) for k, v in raw.items()}, head)
    stats = REPO / "mutants" / "mutmut-stats.json"
    base = (
        json.loads(stats.read_text("utf-8")).get("git_commit") if stats.exists() else ""
    )
    text, ok = report(results(), reasons, named, head, base or "")
    REPORT.write_text(text, encoding="utf-8")
    print(text.split("## Every survivor")[0])
    return 0 if ok and all_killed else 1


if __name__ == "__main__":
    sys.exit(main())
