"""The shortcut and the render agree on every step of any sequence of edits.

Issue 29: random sequences of edits to every input kind (the taxonomy, the
settings, templates reached through a link, the plugin selection and what a
plugin answers), with a ``generate`` now and then, each step followed by
``check`` with the memo and without it: the two must give the same exit status
and the same report, whatever came before.  A memo recorded at any step must
never answer for a later one it does not describe.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import tempfile
from pathlib import Path

from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from taxogen.cli import main
from tests.support import CASES_DIR, examples

MINIMAL = (CASES_DIR / "minimal" / "taxonomy.yaml").read_text(encoding="utf-8")
MEANINGS = ["Something went wrong", "Something went amiss", "It broke"]
TARGETS = [None, ["docs"], ["docs", "schema"], ["go", "docs"], ["python"]]
MODULES = [None, "example.com/acme/a", "example.com/acme/b"]
TEMPLATES = ["# {{ title }}\n", "# {{ title }}!\n", "{% include 'docs/_p.j2' %}\n"]
PARTS = ["part one\n", "part two\n"]
PLUGIN = """\
import json, pathlib, sys
sys.stdin.read()
text = pathlib.Path(__file__).with_name("answer.txt").read_text()
print(json.dumps({"files": [{"path": "out.txt", "content": text}]}))
"""


class Edits(RuleBasedStateMachine):
    """A project edited step by step; after each step both checks agree."""

    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="taxogen-memo-property-"))
        self.work = self.root / "project"
        real = self.work / "real-docs"  # in the project, as a link must lead
        real.mkdir(parents=True)
        (self.work / "tpl").mkdir()
        (self.work / "tpl" / "docs").symlink_to(real, target_is_directory=True)
        (self.work / "plugin.py").write_text(PLUGIN, encoding="utf-8")
        self.targets: list[str] | None = None
        self.module: str | None = None
        self.with_templates = False
        self.with_plugin = False
        self.previous = Path.cwd()
        self.cache = os.environ.get("TAXOGEN_CACHE_DIR")
        os.environ["TAXOGEN_CACHE_DIR"] = str(self.root / "cache")  # its own memos
        os.chdir(self.work)
        self.taxonomy(0)
        self.template(0)
        self.part(0)
        self.answer("first\n")
        self._write_settings()

    def teardown(self) -> None:
        os.chdir(self.previous)
        if self.cache is None:
            os.environ.pop("TAXOGEN_CACHE_DIR", None)
        else:
            os.environ["TAXOGEN_CACHE_DIR"] = self.cache
        shutil.rmtree(self.root, ignore_errors=True)

    def _write_settings(self) -> None:
        lines = ["[tool.taxogen]", 'out = "generated"']
        if self.targets is not None:
            names = ", ".join(f'"{name}"' for name in self.targets)
            lines.append(f"targets = [{names}]")
        if self.module is not None:
            lines.append(f'go_module = "{self.module}"')
        if self.with_templates:
            lines.append('templates = "tpl"')
        if self.with_plugin:
            lines.append("[tool.taxogen.plugins]")
            lines.append(
                f"mine = {{command = [{sys.executable!r}, 'plugin.py'], "
                'out = "plugged"}'
            )
        (self.work / "pyproject.toml").write_text(
            "\n".join(lines) + "\n", encoding="utf-8"
        )

    @rule(index=st.integers(0, len(MEANINGS) - 1))
    def taxonomy(self, index: int) -> None:
        (self.work / "taxonomy.yaml").write_text(
            MINIMAL.replace("Something went wrong", MEANINGS[index]), encoding="utf-8"
        )

    @rule(
        selected=st.integers(0, len(TARGETS) - 1),
        module=st.integers(0, len(MODULES) - 1),
    )
    def selection(self, selected: int, module: int) -> None:
        self.targets = TARGETS[selected]
        self.module = MODULES[module]
        self._write_settings()

    @rule(on=st.booleans())
    def templates(self, on: bool) -> None:
        self.with_templates = on
        self._write_settings()

    @rule(index=st.integers(0, len(TEMPLATES) - 1))
    def template(self, index: int) -> None:
        # Through the link: tpl/docs is real-docs.
        (self.work / "real-docs" / "catalogue.md.j2").write_text(
            TEMPLATES[index], encoding="utf-8"
        )

    @rule(index=st.integers(0, len(PARTS) - 1))
    def part(self, index: int) -> None:
        (self.work / "real-docs" / "_p.j2").write_text(PARTS[index], encoding="utf-8")

    @rule(on=st.booleans())
    def plugin(self, on: bool) -> None:
        self.with_plugin = on
        self._write_settings()

    @rule(text=st.sampled_from(["first\n", "second\n"]))
    def answer(self, text: str) -> None:
        (self.work / "answer.txt").write_text(text, encoding="utf-8")

    @rule()
    def generate(self) -> None:
        main(["generate", "-q"])

    @invariant()
    def both_checks_agree(self) -> None:
        shortcut = _run(["check"], use_memo=True)
        render = _run(["check"], use_memo=False)
        assert shortcut == render


def _run(argv: list[str], *, use_memo: bool) -> tuple[int, str]:
    """Exit status and standard output of one ``main`` run."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(argv, use_memo=use_memo)
    return status, out.getvalue()


TestEdits = Edits.TestCase
TestEdits.settings = settings(
    max_examples=examples(15), stateful_step_count=20, deadline=None
)
