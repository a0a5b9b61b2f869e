"""Go's spelling of words is remembered per process, by the word and by ``lower``.

``go_name`` keeps each word's Go spelling (issue 34: the go target and its
check spell every code's words).  Its docstring is the oracle: with ``lower``
a word written in capitals is lower-cased before it is capitalised, without it
a word keeps its own capitals; an initialism is in capitals either way.  Each
order is tried, so a memo keyed by the word alone fails one of them.
"""

from __future__ import annotations

import pytest

from taxogen.targets.go import naming


@pytest.mark.parametrize("lower_first", [True, False])
def test_the_same_word_is_spelt_by_lower_in_either_order(lower_first: bool) -> None:
    word = "TIMEOUTZQX" if lower_first else "TIMEOUTQZX"  # fresh to the process
    calls = [True, False] if lower_first else [False, True]
    spelt = {lower: naming.go_name(f"TASK_{word}", lower=lower) for lower in calls}
    assert spelt[True] == "Task" + word[0] + word[1:].lower()
    assert spelt[False] == "TASK" + word


def test_an_initialism_is_in_capitals_either_way() -> None:
    assert naming.go_name("user_url", lower=True) == "UserURL"
    assert naming.go_name("USER_URL", lower=True) == "UserURL"
    assert naming.go_name("InvalidUrlError") == "InvalidURLError"
