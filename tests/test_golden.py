"""Golden files: every case's outputs, byte for byte, and generated/ in sync.

The expected files are rewritten by ``make golden`` (tests/cases) and
``make generate`` (generated/); these tests only compare.  A case's golden
folder holds every file but the runtime copies, which are checked once against
the target's runtime source (:func:`tests.support.runtime_copies`);
``generated/``, the product, holds them too.  Generation is deterministic in
one process and across processes whatever their hash seed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taxogen import emit
from taxogen.pipeline import build_plan
from taxogen.targets import every
from tests.golden import template_cases
from tests.support import REPO, Case, case_ids, cases, package, runtime_copies

#: Hash seeds of the processes that must generate the same bytes: Python salts
#: str and bytes hashes per process, so iterating a set of strings (or anything
#: ordered by hash) would differ between them.
SEEDS = ("0", "1", "random")


def _files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_plan_matches_golden_files_byte_for_byte(case: Case) -> None:
    plan = build_plan(case.taxonomy)
    on_disk = _files(case.expected)
    if case.name == "shipped":
        # generated/ may hold the user's own files next to taxogen's; only ours count.
        on_disk = {path: data for path, data in on_disk.items() if path in plan}
    else:
        # The runtime copies are checked against their source, not stored.
        copies = runtime_copies(case.taxonomy)
        plan = {path: data for path, data in plan.items() if path not in copies}
    assert sorted(plan) == sorted(
        on_disk
    ), "the set of files differs: run `make golden`"
    for path, data in plan.items():
        assert (
            on_disk[path] == data
        ), f"{case.name}: {path} differs: run `make golden` and review"


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_every_runtime_copy_is_its_target_s_source_verbatim(case: Case) -> None:
    """Issue 31 §5: each runtime file a package holds is the target's runtime
    source byte for byte, under the header; a case with the default targets
    holds Python's and TypeScript's, and its golden folder neither."""
    plan = build_plan(case.taxonomy)
    copies = runtime_copies(case.taxonomy)
    held = sorted(path for path in plan if path in copies)
    assert [path.rsplit("/", 1)[-1] for path in held] == ["_runtime.py", "runtime.ts"]
    for path in held:
        assert plan[path] == copies[path], f"{case.name}: {path} is not its source"
        stored = case.expected / path
        assert stored.is_file() == (case.name == "shipped"), stored
        assert (package(case) / path).read_bytes() == copies[path]


def test_the_go_runtime_copies_are_their_source_verbatim() -> None:
    """The go target (off by default) copies each of its runtime files the same
    way, into the module's internal package."""
    shipped = cases()[0]
    plan = build_plan(shipped.taxonomy, ["go"])
    copies = runtime_copies(shipped.taxonomy)
    held = [path for path in plan if path in copies]
    [go] = [target for target in every() if target.name == "go"]
    assert len(held) == len(go.runtime) > 0
    for path in held:
        assert path.startswith("go/internal/taxogen/"), path
        assert plan[path] == copies[path], f"{path} is not its source"


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_generation_is_deterministic(case: Case) -> None:
    assert build_plan(case.taxonomy) == build_plan(case.taxonomy)


#: What each process runs: ``taxogen generate`` (the command line's own entry
#: point, as ``python -m taxogen`` calls it) for every job, one process for
#: all the cases so that each pays the imports once.
DRIVER = """
import json, os, sys
from taxogen.cli import main
for cwd, args in json.loads(sys.argv[1]):
    os.chdir(cwd)
    if main(["generate", "-q", *args]) != 0:
        sys.exit(f"generate {args} failed")
"""


def _generate_under_each_seed(
    jobs: list[tuple[Path, list[str]]],
) -> None:
    """Every job (a folder to run in, the arguments of ``generate``) in one process
    per seed of SEEDS, the three side by side; each job's ``--out`` names
    ``{seed}``, which each process fills in."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONHASHSEED"}
    # No cache: each process compiles the templates itself, none reads another's.
    env["TAXOGEN_NO_CACHE"] = "1"
    runs = []
    for seed in SEEDS:
        mine = [
            (str(cwd), [arg.replace("{seed}", seed) for arg in args])
            for cwd, args in jobs
        ]
        runs.append(
            subprocess.Popen(
                [sys.executable, "-c", DRIVER, json.dumps(mine)],
                cwd=REPO,
                env={**env, "PYTHONHASHSEED": seed},
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        )
    for seed, run in zip(SEEDS, runs):
        _, stderr = run.communicate(timeout=300)
        assert run.returncode == 0, f"PYTHONHASHSEED={seed}: {stderr.decode()}"


def test_generation_is_byte_identical_across_hash_seeds(tmp_path: Path) -> None:
    """Issue 31: every target's output of every case, and a project's through its
    user templates, generated by processes started with PYTHONHASHSEED 0, 1 and
    random, is the same bytes (for a case, this process's plan)."""
    names = [target.name for target in every()]
    selected = [arg for name in names for arg in ("--target", name)]
    jobs = [
        (
            REPO,
            [
                "--taxonomy",
                str(case.taxonomy),
                "--out",
                f"{tmp_path}/{{seed}}/{case.name}",
                *selected,
            ],
        )
        for case in cases()
    ] + [
        (project, ["--out", f"{tmp_path}/{{seed}}/template-{project.name}"])
        for project in template_cases()
    ]
    _generate_under_each_seed(jobs)
    for case in cases():
        plan = dict(build_plan(case.taxonomy, names))
        trees = [_files(tmp_path / seed / case.name) for seed in SEEDS]
        for seed, tree in zip(SEEDS, trees):
            assert tree.keys() == plan.keys(), f"{case.name}, PYTHONHASHSEED={seed}"
            differ = [path for path in plan if tree[path] != plan[path]]
            assert not differ, f"{case.name}, PYTHONHASHSEED={seed}: {differ} differ"
    for project in template_cases():
        trees = [_files(tmp_path / seed / f"template-{project.name}") for seed in SEEDS]
        assert trees[0] and trees[0] == trees[1] == trees[2], project.name


def test_generated_folder_is_in_sync_through_the_check_code_path() -> None:
    shipped = cases()[0]
    difference = emit.compare(shipped.expected, build_plan(shipped.taxonomy))
    assert difference.clean, (
        f"generated/ is out of date (missing {difference.missing}, stale"
        f" {difference.stale}, extra {difference.extra}): run `make generate`"
    )


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_every_file_says_it_is_generated(case: Case) -> None:
    source = case.taxonomy.name
    for path, data in build_plan(case.taxonomy).items():
        text = data.decode("utf-8")
        if path.endswith("py.typed"):
            assert text == ""
            continue
        if path.endswith(".json") and not path.endswith(
            ("tsconfig.json", "tsconfig.cjs.json")
        ):
            # JSON has no comments: the words go in a top-level field JSON readers
            # ignore.
            document = json.loads(text)
            said = document.get("//") or document.get("$comment") or ""
            if path == emit.MANIFEST:
                assert "taxogen" in said and "Do not edit" in said
                continue
        else:
            said = "\n".join(text.splitlines()[:3])
        assert (
            f"Generated by taxogen from {source}" in said
        ), f"{path} lacks the generated-file header"
        assert "DO NOT EDIT" in said, path


@pytest.mark.parametrize("case", cases(), ids=case_ids())
def test_outputs_hold_no_timestamps_or_machine_paths(case: Case) -> None:
    for path, data in build_plan(case.taxonomy).items():
        text = data.decode("utf-8")
        assert str(Path.cwd()) not in text, path
        assert str(Path.home()) not in text or str(Path.home()) == "/", path
