"""taxogen.render: how the render's jobs are ordered and what they raise first.

Two rendering processes take the targets largest first by the ``cost`` each
target.toml gives (docs "How it works"), then the name checks of the targets a
run does not render, one job a target.  Whatever the order, the checks'
problems, all of them and in planning order, are raised before any target's
own error, as a run that checked before rendering would raise them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taxogen import render, targets, workers
from taxogen.diagnostics import Diagnostic, Position, TaxonomyError
from taxogen.pipeline import load_names
from taxogen.targets import ENTRIES, select
from tests.support import REPO


def test_the_targets_are_taken_largest_first_then_the_checks() -> None:
    chosen = select(None)
    checks = [object(), object()]
    taken = render._taken(chosen, checks)
    cost = {entry.name: entry.cost for entry in ENTRIES}
    order = [chosen[index - len(checks)].name for index in taken[: len(chosen)]]
    assert [cost[name] for name in order] == sorted(
        (cost[target.name] for target in chosen), reverse=True
    )
    assert taken[len(chosen) :] == [0, 1]  # the checks, in order, last
    assert sorted(taken) == list(range(len(checks) + len(chosen)))


@pytest.mark.parametrize(
    ("cost", "read"), [("", 1.0), ("cost = 0.25\n", 0.25), ("cost = 2\n", 2)]
)
def test_a_target_s_cost_is_read_from_its_target_toml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cost: str, read: float
) -> None:
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "target.toml").write_text(_TOML + cost, encoding="utf-8")
    monkeypatch.setattr(targets, "HERE", tmp_path)
    (entry,) = targets._discover()
    assert entry.cost == read


@pytest.mark.parametrize("cost", ['"high"', "true", "[1]"])
def test_a_cost_that_is_not_a_number_is_refused_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cost: str
) -> None:
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "target.toml").write_text(_TOML + f"cost = {cost}\n", encoding="utf-8")
    monkeypatch.setattr(targets, "HERE", tmp_path)
    with pytest.raises(TypeError, match=r"toy/target\.toml: .*cost"):
        targets._discover()


_TOML = (
    '[[targets]]\nname = "toy"\norder = 1000\ndefault = false\nwrites = "toy/"\n'
    'summary = "a toy"\n'
)


def _problem(line: int, message: str) -> Diagnostic:
    return Diagnostic(
        path="t.yaml", position=Position(line=line, col=1), key="k", message=message
    )


@pytest.mark.parametrize("threshold", [10**9, 0], ids=["one-process", "two"])
def test_the_checks_problems_come_before_a_failing_target(
    monkeypatch: pytest.MonkeyPatch, threshold: int
) -> None:
    monkeypatch.setattr(workers, "THRESHOLD", threshold)
    names = load_names(REPO / "taxonomy.yaml")

    def failing(target: object, *args: object, **kwargs: object) -> object:
        raise RuntimeError("a target failed")

    monkeypatch.setattr(render, "render_target", failing)
    checks = [lambda: [_problem(1, "go")], lambda: [], lambda: [_problem(3, "rust")]]
    with pytest.raises(TaxonomyError) as caught:
        render.render(names, select(None), checks=checks)
    assert [d.message for d in caught.value.diagnostics] == ["go", "rust"]
    # Without a problem of the checks, the target's own error is raised.
    with pytest.raises(RuntimeError, match="a target failed"):
        render.render(names, select(None), checks=[lambda: []])
