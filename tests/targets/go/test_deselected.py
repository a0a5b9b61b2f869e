"""A Go-name clash is refused whether or not the go target is selected.

Issue 31 (and 34) asked what a clash among a deselected target's names does.
taxogen's answer (docs "Choosing targets"): every target's name checks run
for every taxonomy, because the taxonomy is shared (turning a target on later
must not find it broken) and the model document names every target's
identifiers.  Two codes that are one Go constant are refused by a run that
generates Python only, with the message the go target gives.

Issue 34 asks that what only a selected target needs be computed only when it
is selected: the checks of the targets a run does not render are left by
naming to run beside the rendering (taxogen.workers, in the second process
on a large taxonomy).  The answer must not change: the same messages, in the
same order, nothing written, and every other problem reported with them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taxogen import workers
from taxogen.cli import main

TAXONOMY = """\
format: 1
name: tiny
title: Tiny
version: 0.0.1
base: TinyError
fallback: url_bad
wrap: url_bad
domains:
  misc:
    title: Miscellaneous
    codes:
      url_bad: {retryable: false, meaning: A bad URL}
      u_r_l_bad: {retryable: false, meaning: Another, class: URLBadError}
"""


@pytest.mark.parametrize("forked", [False, True], ids=["one-process", "two"])
def test_a_go_clash_is_refused_when_only_python_is_generated(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    forked: bool,
) -> None:
    if forked:  # the render (and the checks beside it) shared by two processes
        monkeypatch.setattr(workers, "THRESHOLD", 0)
    # UrlBadError and URLBadError are two classes, but one Go constant,
    # CodeURLBad (docs "Go", Names: URL is an initialism).
    (tmp_path / "taxonomy.yaml").write_text(TAXONOMY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "--target", "python"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "taxonomy.yaml:13:7: error: domains.misc.codes.u_r_l_bad: Go name "
        "'CodeURLBad' of the Go constant of code 'u_r_l_bad' (set by `class:`) is "
        "already the Go name of the Go constant of code 'url_bad' (line 12); set "
        "`class:` on the code to choose another",
        # Rust's names meet too (UrlBad), reported by the rust target, also off.
        "taxonomy.yaml:13:7: error: domains.misc.codes.u_r_l_bad: Rust name "
        "'UrlBad' of the Rust variant of code 'u_r_l_bad' (set by `class:`) is "
        "already the Rust name of the Rust variant of code 'url_bad' (line 12); set "
        "`class:` on the code to choose another",
        "taxogen: 2 errors in taxonomy.yaml; nothing was written",
    ]
    assert not (tmp_path / "generated").exists()


def test_every_problem_is_reported_with_the_unselected_targets_clashes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A clash every language shares (two codes, one class) beside the Go one:
    # the run reports both at once, not the first and then the other.
    text = (
        TAXONOMY
        + "      url_bad_too: {retryable: false, meaning: X, class: UrlBadError}\n"
    )
    (tmp_path / "taxonomy.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "--target", "python"]) == 2
    err = capsys.readouterr().err
    assert "class name 'UrlBadError' of code 'url_bad_too'" in err
    assert "Go name 'CodeURLBad'" in err
    assert not (tmp_path / "generated").exists()
