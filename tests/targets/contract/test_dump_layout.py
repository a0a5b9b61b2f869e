"""dump_json against the plainest spelling of its layout, on random documents.

dump_json writes a container of scalars through one call of json's C encoder,
its item separator the line break and indent (``_flat``), and escapes each
part as it is made; the oracle below lays out every item in Python, then
escapes the whole text line by line, as dump_json did before.  Documents mix
what the shortcut must refuse: non-string keys (json quotes them, the layout
does not), tuples, empty containers, invisible and astral characters, DEL.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from taxogen.targets.contract import dump
from taxogen.targets.contract.dump import dump_json

_COMPACT = json.JSONEncoder(ensure_ascii=False).encode
_TEXTS = ["a", "", "é", "x\x7fy", "\u202e", "a\u200bb", "\U000e0041", "😀", "\n", '"']
_KEYS: list[Any] = ["k", "é", "\u200b", "\x7f", 1, True, None, 2.5]


def _oracle(document: object, inline_below: int) -> bytes:
    out: list[str] = []
    _layout(document, 0, inline_below, out)
    lines = "".join(out).split("\n")
    return ("\n".join(map(_escaped, lines)) + "\n").encode("utf-8")


def _layout(value: object, depth: int, inline_below: int, out: list[str]) -> None:
    if depth >= inline_below or not value or not isinstance(value, (dict, list)):
        out.append(_COMPACT(value))
        return
    pad = "\n" + "  " * (depth + 1)
    out.append("{" if isinstance(value, dict) else "[")
    between = pad
    for key, item in value.items() if isinstance(value, dict) else enumerate(value):
        out.append(between)
        if isinstance(value, dict):
            out.append(_COMPACT(key) + ": ")
        _layout(item, depth + 1, inline_below, out)
        between = "," + pad
    out.append(pad[:-2] + ("}" if isinstance(value, dict) else "]"))


def _escaped(line: str) -> str:
    out = []
    for char in line:
        if char.isprintable():
            out.append(char)
        elif ord(char) < 0x10000:
            out.append(f"\\u{ord(char):04x}")
        else:
            high, low = divmod(ord(char) - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
    return "".join(out)


def _value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth > 4 or roll < 0.45:
        return rng.choice([*_TEXTS, 0, -3, 1.5, 1e300, True, False, None])
    if roll < 0.55:
        return rng.choice([{}, [], ()])
    if roll < 0.6:
        return tuple(_value(rng, depth + 1) for _ in range(rng.randrange(1, 3)))
    items = [_value(rng, depth + 1) for _ in range(rng.randrange(1, 5))]
    if roll < 0.8:
        return items
    keys = [rng.choice(_KEYS) if rng.random() < 0.3 else f"k{i}" for i in range(9)]
    return dict(zip(keys, items))


@pytest.mark.parametrize("seed", range(40))
def test_the_layout_is_the_plain_one(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        document = _value(rng, 0)
        for inline_below in (1, 2, 3, 64):
            assert dump_json(document, inline_below) == _oracle(document, inline_below)


def test_containers_of_scalars_laid_out_in_one_call() -> None:
    # What the shortcut takes: the schema's entries, one item a line.
    entry = {"const": "a\x7f", "title": "é\u200b", "n": 1, "f": 0.5, "z": None}
    document = {"anyOf": [entry, [True, "x"], {"k": {}}], "empty": {}}
    assert dump_json(document) == _oracle(document, 64)
    assert b"\\u007f" in dump_json(document) and b"\\u200b" in dump_json(document)
    # Keys json would quote are left to the general branch, which does not.
    assert dump_json({1: "x"}) == _oracle({1: "x"}, 64) == b'{\n  1: "x"\n}\n'


@pytest.mark.parametrize("accelerated", [True, False])
def test_the_kept_encoder_is_json_dumps(
    accelerated: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The C encoder built once, and json's own where Python has no C one.
    if not accelerated:
        monkeypatch.setattr(json.encoder, "c_make_encoder", None)
    rng = random.Random(7)
    for separator in (", ", ",\n    "):
        encode = dump._encoder(separator)
        for _ in range(300):
            value = _value(rng, 0)
            expected = json.dumps(
                value, ensure_ascii=False, separators=(separator, ": ")
            )
            assert encode(value) == expected
