"""Templates: a code's ``message``, a sentence built from its details fields.

``{name}`` is a placeholder and ``{{``/``}}`` are literal braces (the lexical
rule is :func:`taxogen.model.parse_template`).  Each placeholder must name a
field that always has a value (required, or optional with a default) of a
scalar type, so that every language renders the same text.
"""

from __future__ import annotations

from taxogen.model import SCALAR_TYPES, Template, parse_template
from taxogen.nodes import Node
from taxogen.validate.fields import Declared
from taxogen.validate.hints import close_match
from taxogen.validate.reader import Reader

__all__ = ["read_template"]


def read_template(
    r: Reader, key: str, node: Node, declared: Declared
) -> Template | None:
    """A ``message`` template whose placeholders name fields that always have a value.

    A placeholder naming a field that was written but is broken (and reported)
    is not reported again, nor any when the ``details`` could not be read at all.
    """
    text = r.text(node, key, allow_empty=False)
    if text is None:
        return None
    pieces = parse_template(text)
    if isinstance(pieces, str):
        r.error(node.position, key, pieces)
        return None
    by_name = {field.name: field for field in declared.fields}
    ok = declared.complete
    for name in dict.fromkeys(p.field for p in pieces if p.field):
        field = by_name.get(name)
        if field is None and (declared.opaque or name in declared.written):
            ok = False
        elif field is None:
            hint = close_match(name, tuple(by_name))
            more = (
                f" (did you mean {{{hint}}}?)"
                if hint
                else (
                    f" (declared: {', '.join(by_name)})"
                    if by_name
                    else "; declare it under `details:`"
                )
            )
            r.error(node.position, key, f"placeholder {{{name}}} names no field{more}")
            ok = False
        elif field.shape.type not in SCALAR_TYPES:
            r.error(
                node.position,
                key,
                f"placeholder {{{name}}} names a field of type {field.shape.type};"
                " only strings, numbers and booleans can be shown in a message",
            )
            ok = False
        elif not field.required and not field.has_default:
            r.error(
                node.position,
                key,
                f"placeholder {{{name}}} names an optional field without a default,"
                " which may have no value; give it a `default:` or make it required",
            )
            ok = False
    if not ok:
        return None
    return Template(text=text, pieces=pieces, position=node.position)
