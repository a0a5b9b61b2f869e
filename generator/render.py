"""Render: the taxonomy, named, through the templates into a plan of files.

A plan maps each output path (relative to the output folder, with ``/``) to the
exact bytes that belong there.  Nothing here touches the output folder:
``generate`` writes a plan and ``check`` compares one, so both see the same
bytes.  There is one Jinja environment (``StrictUndefined``, so a template that
names something the context lacks fails loudly); each target gets an overlay of
it with that language's filters only, so a Python filter cannot leak into the
TypeScript output.  Python output is finished by :mod:`generator.pysyntax`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache

import generator.templates
from generator import pysyntax
from generator.model import PAYLOAD_FIELDS, JSONObject, JSONValue, Taxonomy
from generator.naming import Names
from generator.validate import CASE_PATTERNS

__all__ = [
    "LAZY_ABOVE",
    "TEMPLATES",
    "TYPESCRIPT_RANGE",
    "Target",
    "TARGETS",
    "context",
    "header_lines",
    "python_lazy",
    "output_shapes",
    "render",
]

#: Where the templates live: the package data ``generator.templates``, found
#: through the import system (the repository's top-level ``templates/`` folder,
#: which the wheel and the sdist ship inside the package; an editable install
#: maps it to the checkout's folder).
TEMPLATES = Path(generator.templates.__file__).resolve().parent
#: The TypeScript compiler the generated package is built with.
TYPESCRIPT_RANGE = "^7.0.2"


# ----------------------------------------------------------------------- filters
def _py_bool(value: bool) -> str:
    return "True" if value else "False"


def _py_assign(target: str, value: str, indent: int) -> str:
    return pysyntax.assign(indent, target, value)


def _py_class(name: str, base: str) -> str:
    return pysyntax.class_header(name, base)


def _toml_str(text: str) -> str:
    out = []
    for char in text:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif code < 0x20 or code == 0x7F or not char.isprintable():
            out.append(f"\\u{code:04X}" if code < 0x10000 else f"\\U{code:08X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _ts_escape(char: str) -> str:
    if char == "\\":
        return "\\\\"
    if char == '"':
        return '\\"'
    if char == "\n":
        return "\\n"
    if char == "\r":
        return "\\r"
    if char == "\t":
        return "\\t"
    if char.isprintable():
        return char
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\u{{{code:x}}}"


def _ts_str(text: str) -> str:
    """A TypeScript string literal; everything invisible is escaped."""
    if text.isprintable() and "\\" not in text and '"' not in text:  # the usual case
        return f'"{text}"'
    return '"' + "".join(_ts_escape(char) for char in text) + '"'


def _ts_bool(value: bool) -> str:
    return "true" if value else "false"


def _ts_doc(text: str) -> str:
    """Text for one line of a JSDoc block: cannot close the comment or start a tag."""
    escaped = text.replace("\\", "\\\\")
    if not text.isprintable():  # else nothing to escape: the usual case, checked in C
        escaped = "".join(
            char if char.isprintable() else _ts_escape(char) for char in escaped
        )
    return escaped.replace("*/", "*\\/").replace("@", "\\@")


def _json_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=True)


# What can start inline Markdown (emphasis, code, links, HTML, entities, table
# pipes, strikethrough, math) anywhere in a line; everything else is left as is so
# the page stays readable as source.
_MD_INLINE = frozenset("\\`*_[]<>|&~$!:")
_MD_LINE_START = re.compile(r"[#>+=-]|[0-9]+[.)]")


# Text with no character to escape, no block marker at its start, no "#" or
# space at either end.
_MD_PLAIN = re.compile(
    r"(?![#>+=-]|[0-9]+[.)])[^ \\`*_\[\]<>|&~$!:](?:[^\\`*_\[\]<>|&~$!:]*[^ #\\`*_\[\]<>|&~$!:])?"
)


def _md_text(text: str) -> str:
    """Plain text as Markdown inline content that renders as exactly ``text``.

    Characters that could start inline markup are backslash-escaped, and so is
    the punctuation of a leading block marker (``#``, ``>``, ``-``, the ``.`` of
    ``1.``) and a final ``#`` (which would close an ATX heading); line breaks
    become ``<br>`` (a table row is one line) and invisible characters, like
    leading and trailing spaces (which headings and table cells strip), become
    character references.
    """
    if text.isprintable() and _MD_PLAIN.fullmatch(
        text
    ):  # the usual case: nothing to escape
        return text
    out = []
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    body = text.strip(" ")
    lead = len(text) - len(text.lstrip(" "))
    trail = len(text) - lead - len(body)
    escape: set[int] = set()
    marker = _MD_LINE_START.match(body)
    if marker is not None:
        escape.add(marker.end() - 1)  # a backslash before a digit would be shown
    if body.endswith("#"):
        escape.add(len(body) - 1)
    out.append("&#x20;" * lead)
    for index, char in enumerate(body):
        if char in _MD_INLINE or index in escape:
            out.append("\\" + char)
        elif char == "\n":
            out.append("<br>")
        elif char == " " or char.isprintable():
            out.append(char)
        else:
            out.append(f"&#x{ord(char):X};")
    out.append("&#x20;" * trail)
    return "".join(out)


def _md_yes_no(value: bool) -> str:
    return "yes" if value else "no"


def _md_fence(text: str, language: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def _md_indent(text: str) -> str:
    return text.replace("\n", "\n  ")


def _md_quote(text: str) -> str:
    return text.replace("\n", "\n> ")


# ----------------------------------------------------------------------- targets
@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """One output language: its templates, where they go, and its filters."""

    name: str
    files: tuple[tuple[str, str], ...]  # (template, output path with {placeholders})
    filters: Mapping[str, Callable[..., str]]
    finish: Callable[[str], str] = lambda text: text
    # Rendered once per domain, with ``d`` bound to it, when ``context`` lists the
    # domain in ``module_domains`` (the lazy Python layout).
    domain_files: tuple[tuple[str, str], ...] = ()


TARGETS = (
    Target(
        name="python",
        files=(
            ("python/pyproject.toml.j2", "python/pyproject.toml"),
            ("python/README.md.j2", "python/README.md"),
            ("python/__init__.py.j2", "python/src/{package}/__init__.py"),
            ("python/py.typed.j2", "python/src/{package}/py.typed"),
        ),
        domain_files=(("python/domain.py.j2", "python/src/{package}/{module}.py"),),
        filters={
            "py_str": pysyntax.string_literal,
            "py_assign": _py_assign,
            "py_class": _py_class,
            "py_bool": _py_bool,
            "toml_str": _toml_str,
        },
    ),
    Target(
        name="typescript",
        files=(
            ("typescript/package.json.j2", "typescript/package.json"),
            ("typescript/tsconfig.json.j2", "typescript/tsconfig.json"),
            ("typescript/index.ts.j2", "typescript/src/index.ts"),
        ),
        filters={
            "ts_str": _ts_str,
            "ts_bool": _ts_bool,
            "ts_doc": _ts_doc,
            "json_str": _json_str,
        },
    ),
    Target(
        name="docs",
        files=(("docs/errors.md.j2", "docs/errors.md"),),
        filters={
            "md_text": _md_text,
            "md_yes_no": _md_yes_no,
            "md_fence": _md_fence,
            "md_indent": _md_indent,
            "md_quote": _md_quote,
        },
    ),
)


class _TemplateCache(jinja2.BytecodeCache):
    """Compiled templates kept on disk the way Python keeps this package's bytecode.

    Compiling the templates costs about 50 ms a run (more than rendering the
    shipped taxonomy), and they only change with taxogen.  Jinja checks an
    entry against its template's source, its bytecode format and the Python
    version; the file name adds what it does not check: Jinja's version and
    this module's source (the environment's options and the filters).  Like
    ``.pyc`` files, entries go to ``__pycache__`` beside the templates, or under
    ``PYTHONPYCACHEPREFIX``, and are not written under ``PYTHONDONTWRITEBYTECODE``.
    A folder that cannot be written (a read-only install) or an unreadable entry
    only means compiling, as without a cache.
    """

    def __init__(self) -> None:
        prefix = sys.pycache_prefix
        if prefix is None:
            self.folder = TEMPLATES / "__pycache__"
        else:  # Python's own layout: the source folder's absolute path under the prefix
            self.folder = Path(prefix) / TEMPLATES.relative_to(TEMPLATES.anchor)
        stamp = hashlib.sha256(
            jinja2.__version__.encode() + Path(__file__).read_bytes()
        )
        self.tag = stamp.hexdigest()[:16]

    def _file(self, bucket: jinja2.bccache.Bucket) -> Path:
        return self.folder / f"{bucket.key}.{self.tag}.jinja"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            data = self._file(bucket).read_bytes()
        except OSError:
            return
        try:
            bucket.bytecode_from_string(data)
        except Exception:  # a truncated or foreign file: compile instead
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if sys.dont_write_bytecode:
            return
        target = self._file(bucket)
        partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(bucket.bytecode_to_string())
            os.replace(
                partial, target
            )  # never a half-written entry under the real name
        except OSError:
            try:
                partial.unlink(missing_ok=True)
            except OSError:
                pass


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        bytecode_cache=_TemplateCache(),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _json_data(value: JSONValue) -> Any:
    """The model's tuple form of free-form data back as JSON-ready lists and dicts."""
    if isinstance(value, JSONObject):
        return {key: _json_data(item) for key, item in value.items}
    if isinstance(value, tuple):
        return [_json_data(item) for item in value]
    return value


def _semver_to_pep440(version: str) -> str:
    match = re.fullmatch(
        r"(\d+\.\d+\.\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?", version
    )
    if match is None:  # validation only lets semantic versions through
        return version
    release, pre, build = match.groups()
    out = release
    if pre is not None:
        pre_match = re.fullmatch(r"(alpha|a|beta|b|rc|c)[.-]?(\d*)", pre.lower())
        if pre_match is not None:
            tag = {
                "alpha": "a",
                "a": "a",
                "beta": "b",
                "b": "b",
                "rc": "rc",
                "c": "rc",
            }[pre_match.group(1)]
            out += f"{tag}{pre_match.group(2) or 0}"
        else:
            out += ".dev0"
    if build is not None:
        out += "+" + re.sub(r"[^0-9A-Za-z]+", ".", build).strip(".")
    return out


def _version_key(version: str) -> tuple[int, int, int, int, str]:
    match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+.*)?", version)
    if match is None:
        return (0, 0, 0, 0, version)
    major, minor, patch, pre = match.groups()
    # A pre-release sorts before its release.
    return (int(major), int(minor), int(patch), 0 if pre else 1, pre or "")


def _changes(names: Names) -> list[dict[str, Any]]:
    """The changelog rows, newest version first: codes added, deprecated and removed."""
    rows: list[tuple[str, int, dict[str, Any]]] = []
    for code in names.taxonomy.codes:
        if code.since is not None:
            rows.append(
                (
                    code.since,
                    2,
                    {
                        "what": "added",
                        "code": code.code,
                        "text": "",
                        "replaced_by": None,
                    },
                )
            )
        if code.deprecated is not None:
            rows.append(
                (
                    code.deprecated.since or "",
                    1,
                    {
                        "what": "deprecated",
                        "code": code.code,
                        "text": code.deprecated.reason,
                        "replaced_by": code.deprecated.replaced_by,
                    },
                )
            )
    for tomb in names.taxonomy.removed:
        text = tomb.reason + (f" (it meant: {tomb.meaning})" if tomb.meaning else "")
        rows.append(
            (
                tomb.since,
                0,
                {
                    "what": "removed",
                    "code": tomb.code,
                    "text": text,
                    "replaced_by": None,
                },
            )
        )
    # Newest first, then deprecations that record no version ("—"); within a
    # version: removals, deprecations, additions.
    rows.sort(
        key=lambda row: (
            row[0] != "",
            _version_key(row[0]) if row[0] else (0, 0, 0, 0, ""),
            -row[1],
        ),
        reverse=True,
    )
    return [{"version": version or "—", **row} for version, _, row in rows]


#: Above this many codes, ``python_layout: auto`` chooses the lazy layout.  An
#: eager module costs about 25 µs a code to import (a class and an enum member);
#: at 256 codes that is some 6 ms, about what ``psycopg.errors`` costs for its
#: 258 classes, and below it one module is simpler to read and to ship.
LAZY_ABOVE = 256


def python_lazy(taxonomy: Taxonomy) -> bool:
    """Whether the Python package defines its classes in per-domain lazy modules."""
    if taxonomy.python_layout == "auto":
        return len(taxonomy.codes) > LAZY_ABOVE
    return taxonomy.python_layout == "lazy"


def _header_name(source: str) -> str:
    """The taxonomy's file name as it may stand in any comment of any output.

    Headers sit in ``#`` and ``//`` line comments, HTML comments of Markdown and
    JSON strings.  Percent-encoded (as UTF-8): every invisible character, line
    breaks and Unicode line separators included (they would end a line
    comment), ``%`` itself, ``<``, ``>`` and ``&``, and the second ``-`` of a
    ``--`` (which HTML comments may not hold, and ``-->`` would close).
    """
    if (
        source.isprintable()
        and not any(c in source for c in "%<>&")
        and "--" not in source
    ):
        return source  # the usual case
    out: list[str] = []
    for char in source:
        if (
            not char.isprintable()
            or char in "%<>&"
            or (char == "-" and out[-1:] == ["-"])
        ):
            out.append(
                "".join(
                    f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass")
                )
            )
        else:
            out.append(char)
    return "".join(out)


def header_lines(source: str) -> tuple[str, str]:
    """The two lines every generated file opens with (in its own comment syntax)."""
    shown = _header_name(source)
    return (
        f"Generated by taxogen from {shown}.",
        f"DO NOT EDIT: edit {shown} and regenerate.",
    )


def context(names: Names) -> dict[str, Any]:
    """Everything a template may use: names and values, nothing to compute."""
    taxonomy = names.taxonomy
    docs = taxonomy.docs
    example = None
    if docs.example is not None:
        payload = {
            "code": docs.example.code,
            "message": docs.example.message,
            "retryable": taxonomy.code(docs.example.code).retryable,
        }
        details = _json_data(docs.example.details)
        if details:
            payload["details"] = details
        example = json.dumps(payload, indent=2, ensure_ascii=False)
    lazy = python_lazy(taxonomy)
    classes = [names.base]
    for domain in names.domains:
        if domain.base_code is None:
            classes.append(domain.class_name)
        classes.extend(code.class_name for code in domain.class_order)
    exports = sorted(
        [
            "Domain",
            "ERROR_EVENTS",
            "ErrorCode",
            "ErrorPayload",
            "InvalidPayloadError",
            "error_from_event",
            "from_payload",
            "is_retryable",
            "lookup",
            "to_error",
            names.py_guard,
            *classes,
        ]
    )
    return {
        "changes": _changes(names),
        "header": " ".join(header_lines(taxonomy.source)),
        "header_lines": header_lines(taxonomy.source),
        "name": taxonomy.name,
        "title": taxonomy.title,
        "description": f"{taxonomy.title}: error codes, generated by taxogen",
        "version": taxonomy.version,
        "py_version": _semver_to_pep440(taxonomy.version),
        "py_dist": names.python_package.replace("_", "-"),
        "package": names.python_package,
        "npm_package": names.npm_package,
        "typescript_range": TYPESCRIPT_RANGE,
        "base": names.base,
        "py_guard": names.py_guard,
        "ts_guard": names.ts_guard,
        "ts_options": names.ts_options,
        "brand": names.brand,
        "code_pattern": CASE_PATTERNS[taxonomy.code_case].pattern,
        "codes": names.codes,
        "domains": names.domains,
        "events": taxonomy.events,
        "fallback": names.fallback,
        "wrap": names.wrap,
        "exports": exports,
        "lazy": lazy,
        "module_domains": names.domains if lazy else (),
        "docs": docs,
        "example": example,
        "fields": [
            {
                "name": field,
                "type": kind,
                "required": required,
                "description": docs.field_description(field) or default,
            }
            for field, kind, required, default in PAYLOAD_FIELDS
        ],
    }


def render(names: Names, targets: tuple[Target, ...] = TARGETS) -> dict[str, bytes]:
    """Render every file of every target, in a fixed order, as bytes."""
    env = _environment()
    values = context(names)
    plan: dict[str, bytes] = {}

    def add(
        overlay: jinja2.Environment, template: str, output: str, values: dict[str, Any]
    ) -> None:
        text = overlay.get_template(template).render(values)
        if output.endswith(".py"):
            text = pysyntax.finish(text)
        plan[output] = text.encode("utf-8")

    for target in targets:
        overlay = env.overlay()
        overlay.filters.update(target.filters)
        for template, output in target.files:
            add(overlay, template, output.format(package=names.python_package), values)
        for template, output in target.domain_files:
            for domain in values["module_domains"]:
                path = output.format(
                    package=names.python_package, module=domain.py_module
                )
                add(overlay, template, path, {**values, "d": domain})
    return plan


#: What each placeholder of an output path can stand for (see :mod:`generator.naming`).
_PLACEHOLDERS = {"package": "[a-z][a-z0-9_]*", "module": "_domain_[a-z0-9_]+"}


def output_shapes(targets: tuple[Target, ...] = TARGETS) -> tuple[str, ...]:
    """A regular expression for every path ``targets`` can write, for any taxonomy.

    The manifest trusts only entries of these shapes: the stale files of a
    removed code or domain are still recognised as taxogen's, while a forged
    entry naming any other file never is.
    """
    shapes = []
    for target in targets:
        for _, output in (*target.files, *target.domain_files):
            parts = re.split(r"\{(\w+)\}", output)
            shapes.append(
                "".join(
                    _PLACEHOLDERS[part] if index % 2 else re.escape(part)
                    for index, part in enumerate(parts)
                )
            )
    return tuple(shapes)
