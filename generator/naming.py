"""Naming: the identifiers every target shares, and the rules that keep them safe.

Codes and domains become class names and enum members, the same in every
language with classes (users grep across Python and TypeScript), computed
here once so templates only print names they are given.  A class name may be
no reserved name of any target's language (a keyword, a builtin or global the
generated code relies on, a name a generated module defines itself: each
target says, :func:`taxogen.reserved.reserved_reason`), and two codes or
domains may not map to one class.  A clash is refused with the lines of both
sides; a code or domain can then pick its class name with ``class:``.  The
base class's types each target declares beside it (TypeScript's
``<Base>Options``) are claimed the same way, and each target checks the other
names it makes from it (the type guards ``is_<base>``, ``is<Base>``).  Every other name
a target gives a taxonomy (packages, Go's constants...) is its own, in its
folder's ``naming.py`` (:class:`taxogen.language.Language`), whose checks run
here too.  :func:`check_names` runs the same checks over the valid parts of a
taxonomy that has other problems, so validation can report the clashes in
the same run.  It is longer than 300 lines because it is the one home of the
shared identifier rules: the spellings (and the did-you-mean guesses
validation offers) beside the assignment that applies them and refuses their
clashes.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Collection, Sequence
from typing import TypeVar, Union, cast

from taxogen.diagnostics import Diagnostic, Position, TaxonomyError
from taxogen.model import ANY_CASE, Code, Domain, Taxonomy
from taxogen.reserved import ERROR_OWN_NAMES, field_reasons, reserved_reason
from taxogen.targets import languages

T = TypeVar("T")

__all__ = [
    "NamedAlias",
    "NamedCode",
    "NamedDomain",
    "Names",
    "KeyPath",
    "Owner",
    "code_said",
    "key_path",
    "later_checks",
    "check_names",
    "class_guess",
    "class_name",
    "details_type",
    "domain_prefix",
    "field_problem",
    "generic_code",
    "in_code_case",
    "member_name",
    "name_taxonomy",
    "other_case",
    "pascal",
    "pascal_guess",
    "reserved_reason",
    "snake",
    "snake_guess",
    "split_words",
    "words",
]

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def words(identifier: str) -> list[str]:
    """The lowercase words of a code or domain: ``TASK_TIMEOUT`` → task, timeout.

    A key in neither snake case (``code_case: as_written``) is split where its
    spelling changes: ``NoSuchKey`` → no, such, key; ``x-amz-Thing`` → x, amz,
    thing (its other characters only separate words).
    """
    if not ANY_CASE.fullmatch(identifier):
        return [w.lower() for w in split_words(identifier)]
    return [w for w in identifier.lower().split("_") if w]


def pascal(identifier: str) -> str:
    """``task_timeout`` / ``TASK_TIMEOUT`` → ``TaskTimeout``."""
    return "".join(w[:1].upper() + w[1:] for w in words(identifier))


def snake(name: str) -> str:
    """``HarmovelaError`` → ``harmovela_error``; ``HTTPError`` → ``http_error``."""
    return "_".join(part.lower() for part in _WORD.findall(name))


def class_name(
    identifier: str, suffix: str = "Error", parts: list[str] | None = None
) -> str:
    """The class for a code or domain: PascalCase plus ``suffix`` (the taxonomy's
    ``class_suffix``), never doubled (no ``ErrorError``); with ``""`` plain
    PascalCase, psycopg's ``UniqueViolation``.  ``parts``: its :func:`words`,
    when the caller has them already.
    """
    if parts is None:
        parts = words(identifier)
    if suffix and parts and parts[-1] == suffix.lower():
        parts = parts[:-1]
    return "".join(w[:1].upper() + w[1:] for w in parts) + suffix


def member_name(identifier: str) -> str:
    """The enum member (and TypeScript key) for a code or domain value: its words
    in capitals (``task_timeout`` → ``TASK_TIMEOUT``, ``NoSuchKey`` →
    ``NO_SUCH_KEY``)."""
    return "_".join(words(identifier)).upper()


def in_code_case(identifier: str, code_case: str) -> str:
    """A lower_snake ``identifier`` spelt in ``code_case`` (upper_snake: capitals;
    as_written takes it as it is)."""
    return identifier.upper() if code_case == "upper_snake" else identifier


def other_case(code: str, code_case: str) -> str:
    """``code`` spelt in a case the taxonomy does not use (as_written: each
    letter's case swapped, ``NoSuchKey`` → ``nOsUCHkEY``)."""
    if code_case == "as_written":
        return code.swapcase()
    return code.upper() if code_case == "lower_snake" else code.lower()


def domain_prefix(domain: str, code_case: str) -> str:
    """The prefix a domain's codes carry, in the code case (``llm`` → ``LLM_``)."""
    return in_code_case(f"{domain.lower()}_", code_case)


def generic_code(domain: str, code_case: str) -> str:
    """The domain's generic code, ``<domain>_error``, whose class is the domain's.

    It is spelt in the code case whatever the domain's own (``llm`` → ``LLM_ERROR``).
    """
    return domain_prefix(domain, code_case) + in_code_case("error", code_case)


# Hints for names written in another style: what the writer most likely meant.
# A hint is only offered when it passes the rule the name broke.


_SPLIT = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[0-9]+")


def split_words(text: str) -> list[str]:
    """The words of a name however spelt: ``Bad-Code``, ``badCode``, ``BAD_CODE``."""
    return _SPLIT.findall(text)


def snake_guess(text: str) -> str:
    """A name in any spelling as lower_snake: ``badCode`` → ``bad_code``."""
    return "_".join(word.lower() for word in split_words(text))


def pascal_guess(text: str) -> str:
    """A class name in any spelling as PascalCase: ``acme_error`` → ``AcmeError``.

    Each run of letters and digits keeps its own capitals (``HTTPError`` stays).
    """
    return "".join(
        word[:1].upper() + word[1:] for word in re.findall(r"[A-Za-z0-9]+", text)
    )


def class_guess(text: str) -> str:
    """:func:`pascal_guess`, or "" (no guess) where that names a class no
    target allows (a did-you-mean never suggests a name that is then refused)."""
    guess = pascal_guess(text)
    return "" if reserved_reason(guess) is not None else guess


def details_type(class_name: str) -> str:
    """The type of a code's declared details.

    ``TaskTimeoutError`` → ``TaskTimeoutDetails``.
    """
    stem = class_name.removesuffix("Error") or class_name
    return f"{stem}Details"


def field_problem(name: str) -> str | None:
    """Why ``name`` cannot be a details field (``None`` when it can).

    A field is a keyword argument of the Python constructor, a property in
    TypeScript...: it may be no word a target's language reserves for that
    (:func:`taxogen.reserved.field_reasons`), nor a name the error itself
    holds or takes (``message``, ``cause``...).
    """
    clauses = field_reasons(name)
    if name in ERROR_OWN_NAMES:
        clauses.append("is a name the error itself holds or its constructor takes")
    return " and ".join(clauses) if clauses else None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class NamedAlias:
    """Another name of a code (``aliases:``) with its identifiers: its class is an
    alias of the code's class, its member of the code's member."""

    name: str
    class_name: str
    member: str


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class NamedCode:
    """A code with its identifiers."""

    code: Code
    class_name: str
    parent: str  # the class it extends
    member: str
    domain_member: str
    is_domain_base: bool
    #: The type of its declared details (a TypedDict, an interface), if it has any.
    details_type: str | None = None
    #: Its ``aliases:``, each with the names it is exported under.
    aliases: tuple[NamedAlias, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class NamedDomain:
    """A domain with its identifiers; ``base_code`` is its ``<domain>_error`` code,
    if any.
    """

    domain: Domain
    class_name: str
    member: str
    base_code: NamedCode | None
    codes: tuple[NamedCode, ...]  # in source order, base_code among them
    #: The class its class extends: its parent domain's, else the base.
    parent_class: str = ""

    @property
    def prefix(self) -> str:
        return f"{self.domain.key}_*"

    @property
    def class_order(self) -> tuple[NamedCode, ...]:
        """The codes in the order their classes must be defined: the domain base
        first.
        """
        rest = tuple(c for c in self.codes if not c.is_domain_base)
        return rest if self.base_code is None else (self.base_code, *rest)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Names:
    """Every identifier of a taxonomy, computed once."""

    taxonomy: Taxonomy
    base: str
    domains: tuple[NamedDomain, ...]
    #: None with ``fallback: null`` (issue 30 §3): unknown codes keep their own.
    fallback: NamedCode | None
    wrap: NamedCode
    #: The domains in the order their classes are defined: parents first.
    class_domains: tuple[NamedDomain, ...] = ()
    #: What :meth:`derived` has made of these names, by the function that made
    #: it.  Not an argument, so ``dataclasses.replace`` starts it afresh.
    _derived: dict[Callable[[Names], object], object] = dataclasses.field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def derived(self, make: Callable[[Names], T]) -> T:
        """``make(self)``, made once for these names: the data of the whole
        taxonomy that several targets read (the classes' statuses, the codes
        in order), which each would otherwise make again, some once per code
        (issue 34: at 10,000 codes, 60,000 calls made 10,000 mappings)."""
        if make not in self._derived:
            self._derived[make] = make(self)
        return cast(T, self._derived[make])

    @property
    def codes(self) -> tuple[NamedCode, ...]:
        return self.derived(_codes)

    def fallback_text(self, tick: str = "") -> str:
        """What an unknown code is treated as, for the schema's and OpenAPI's
        words: the fallback's key (and wire code where it differs), or with no
        fallback (issue 30 §3) itself, an error of the root class; ``tick``
        quotes each name (a Markdown backtick)."""
        if self.fallback is None:
            return f"itself (an error of {tick}{self.base}{tick} carrying it)"
        code = self.fallback.code
        if code.wire is None:
            return f"{tick}{code.code}{tick}"
        if tick:
            return f"{tick}{code.code}{tick} ({tick}{code.wire_text}{tick})"
        return f"{code.code} ({code.wire_text})"

    @property
    def any_code_classes(self) -> frozenset[str]:
        """Issue 30 §3: the classes whose errors may carry any code (an unknown
        one kept), and every class above them: a domain's own class with no
        fallback, or the class of a domain saying ``fallback: null``.  (The root
        too, whenever one is.)"""
        parent = {d.class_name: d.parent_class for d in self.domains}
        parent.update((c.class_name, c.parent) for c in self.codes)
        keeping = {
            d.class_name
            for d in self.domains
            if d.domain.keeps_unknown
            or (
                self.fallback is None
                and d.base_code is None
                and bool(d.domain.prefixes or d.domain.ranges)
            )
        }
        out: set[str] = set()
        for name in keeping:
            while name in parent and name not in out:
                out.add(name)
                name = parent[name]
        if out or self.fallback is None:
            out.add(self.base)
        return frozenset(out)

    @property
    def own_constructors(self) -> frozenset[str]:
        """With no fallback (issue 30 §3), whose root constructor requires a code:
        the code classes right below a class with no code (the root, a domain's
        own class), which each need a constructor without it.  Empty otherwise."""
        if self.fallback is not None:
            return frozenset()
        coded = {code.class_name for code in self.codes}
        return frozenset(c.class_name for c in self.codes if c.parent not in coded)

    @property
    def prefixes(self) -> tuple[tuple[str, str], ...]:
        """Each prefix of a domain's ``match:`` and the class of that domain."""
        return tuple(
            (prefix, d.class_name) for d in self.domains for prefix in d.domain.prefixes
        )

    @property
    def ranges(self) -> tuple[tuple[int, int, str], ...]:
        """Each range of a domain's ``match:`` and the class of that domain."""
        return tuple(
            (low, high, d.class_name)
            for d in self.domains
            for low, high in d.domain.ranges
        )


def _domain_base_code(domain: Domain, code_case: str) -> Code | None:
    generic = generic_code(domain.key, code_case)
    return next((c for c in domain.codes if c.code == generic), None)


def check_names(
    domains: Sequence[Domain],
    base: str | None,
    base_position: Position | None,
    code_case: str,
    path: str,
    suffix: str = "Error",
) -> list[Diagnostic]:
    """Every clash among the identifiers of these domains and this base class.

    Validation calls this with the parts of a broken taxonomy that are valid
    (``base`` is ``None`` when the base name itself is invalid), so that a user
    sees the name clashes together with every other problem.
    """
    problems, _ = _assign(domains, base, base_position, code_case, path, suffix)
    return problems


#: What owns a name, as messages say it: the text, or (form, code) for one of
#: a code's own names (the form a word such as "class" or a language's "variant"),
#: worded only when a message needs it: a clash is rare, a code's names many.
Owner = Union[str, tuple[str, Code]]
#: A diagnostic's key path: the text, or (the domain's key path, the code's key).
KeyPath = Union[str, tuple[str, str]]


def code_said(code: Code) -> str:
    """A code as messages name the owner of its names: "code 'x'", and "(set by
    `class:`)" when its class name is its own choice."""
    return f"code {code.code!r}" + (" (set by `class:`)" if code.class_name else "")


def key_path(key: KeyPath) -> str:
    """``key`` as a diagnostic's key path (``domains.task.codes.task_timeout``)."""
    return key if isinstance(key, str) else f"{key[0]}.codes.{key[1]}"


def _said(what: Owner) -> str:
    """``what`` as messages say it: a code's class (:func:`code_said`), its
    member ("code 'x'"), its details type."""
    if isinstance(what, str):
        return what
    form, code = what
    if form == "member":
        return f"code {code.code!r}"
    return (
        code_said(code) if form == "class" else f"the details type of {code_said(code)}"
    )


def _assign(
    domains: Sequence[Domain],
    base: str | None,
    base_position: Position | None,
    code_case: str,
    path: str,
    suffix: str = "Error",
    later: Collection[str] = (),
) -> tuple[list[Diagnostic], list[NamedDomain]]:
    problems: list[Diagnostic] = []
    owners: dict[str, tuple[Owner, Position]] = {}

    def problem(position: Position, key: KeyPath, message: str) -> None:
        problems.append(
            Diagnostic(path=path, position=position, key=key_path(key), message=message)
        )

    def claim(
        name: str, what: Owner, position: Position, key: KeyPath, fix: str
    ) -> bool:
        reason = reserved_reason(name)
        if reason is not None:
            problem(
                position, key, f"class name {name!r} of {_said(what)} {reason}; {fix}"
            )
            return False
        earlier = owners.get(name)
        if earlier is not None:
            problem(
                position,
                key,
                f"class name {name!r} of {_said(what)} is already the class name of "
                f"{_said(earlier[0])} (line {earlier[1].line}); {fix}",
            )
            return False
        owners[name] = (what, position)
        return True

    if base is not None and base_position is not None:
        fix = "choose another base name"
        if claim(base, "the base class", base_position, "base", fix):
            # Each target's names made from the base: the types it declares
            # beside the classes, which no class may take, then its own checks
            # (its type guard...).
            declared = {
                name: what
                for _target, names in languages()
                for name, what in names.base_types(base)
            }  # two targets declaring one type claim it once
            for name, what in declared.items():
                claim(name, what, base_position, "base", fix)
            for _target, names in languages():
                problems += names.check_base(base, base_position, path)

    # Every domain's class first: a domain's class extends its parent's, which may
    # come later in the file.
    dclasses = {d.key: _domain_class(d, code_case, suffix) for d in domains}
    named_domains: list[NamedDomain] = []
    refused: set[str] = set()  # the codes whose class name is refused
    # Enum members: unique while keys are in one snake case; two keys written as
    # on the wire may spell one (``NoSuchKey``, ``NO_SUCH_KEY``), which `class:`
    # cannot resolve.
    members: dict[str, tuple[Owner, Position]] = {}

    def claim_member(
        member: str, what: Owner, position: Position, key: KeyPath
    ) -> None:
        earlier = members.get(member)
        if earlier is None:
            members[member] = (what, position)
            return
        problem(
            position,
            key,
            f"{_said(what)} makes the enum member {member!r}, as {_said(earlier[0])} "
            f"does (line {earlier[1].line}); every language would have one name for "
            "both, so rename one key and give its wire code as `wire:`",
        )

    for domain in domains:
        dkey = f"domains.{domain.key}"
        domain_member = member_name(domain.key)
        base_code_model = _domain_base_code(domain, code_case)
        dclass = dclasses[domain.key]
        parent_class = (
            dclasses.get(domain.parent, base or "")
            if domain.parent is not None
            else (base or "")
        )
        if base_code_model is not None:
            if domain.class_name is not None and domain.class_name != dclass:
                problem(
                    domain.position,
                    f"{dkey}.class",
                    f"the class of domain {domain.key!r} is the class of its code "
                    f"{base_code_model.code!r} ({dclass!r}), so it cannot be "
                    f"{domain.class_name!r}; set `class:` on that code instead",
                )
        else:
            what = f"domain {domain.key!r}" + (
                " (set by `class:`)" if domain.class_name else ""
            )
            claim(
                dclass,
                what,
                domain.position,
                dkey,
                "set `class:` on the domain to choose another",
            )
        named_codes: list[NamedCode] = []
        base_named: NamedCode | None = None
        for code in domain.codes:
            is_base = code is base_code_model
            spelt = words(code.code)  # its class's words and its member's
            cname = code.class_name or class_name(code.code, suffix, spelt)
            dtype = details_type(cname) if code.fields else None
            aliases = tuple(
                NamedAlias(
                    name=alias,
                    class_name=class_name(alias, suffix),
                    member=member_name(alias),
                )
                for alias in code.aliases
            )
            named = NamedCode(
                code=code,
                class_name=cname,
                parent=parent_class if is_base else dclass,
                member="_".join(spelt).upper(),  # member_name(code.code)
                domain_member=domain_member,
                is_domain_base=is_base,
                details_type=dtype,
                aliases=aliases,
            )
            # Said only with a problem: a clash is rare, a code's names many.
            ckey = (dkey, code.code)
            claim_member(named.member, ("member", code), code.position, ckey)
            for alias in aliases:
                what = f"alias {alias.name!r} of code {code.code!r}"
                if claim(
                    alias.class_name, what, code.position, ckey, "choose another alias"
                ):
                    claim_member(alias.member, what, code.position, ckey)
                else:  # its other names are not checked again
                    refused.add(alias.name)
            fix = "set `class:` on the code to choose another"
            claimed = claim(cname, ("class", code), code.position, ckey, fix)
            if claimed and dtype is not None:
                claim(dtype, ("details", code), code.position, ckey, fix)
            if not claimed:
                refused.add(code.code)
            named_codes.append(named)
            if is_base:
                base_named = named
        named_domains.append(
            NamedDomain(
                domain=domain,
                class_name=dclass,
                member=domain_member,
                base_code=base_named,
                codes=tuple(named_codes),
                parent_class=parent_class,
            )
        )
    # Each target's own names: checked for every taxonomy, selected or not;
    # those of the targets in ``later`` by later_checks, unless something is
    # refused already (then here, so that every problem is reported at once).
    ahead = [
        (target, names.check(named_domains, refused, path))
        for target, names in languages()
        if target not in later
    ]
    if problems or any(found for _, found in ahead):
        later = ()
    checked = dict(ahead)
    for target, names in languages():
        if target in checked:
            problems += checked[target]
        elif target not in later:
            problems += names.check(named_domains, refused, path)
    return problems, named_domains


def _codes(names: Names) -> tuple[NamedCode, ...]:
    return tuple(code for domain in names.domains for code in domain.codes)


def later_checks(
    names: Names, later: Collection[str], path: str
) -> list[Callable[[], list[Diagnostic]]]:
    """The checks :func:`name_taxonomy` left for later, one a target in planning
    order, each returning the clashes among that target's names: work that two
    rendering processes can share (:func:`taxogen.render.render` raises what
    they find before anything else).  They run only on names nothing else
    refused, so no code is refused here."""
    return [
        functools.partial(language.check, names.domains, (), path)
        for target, language in languages()
        if target in later
    ]


def _domain_class(domain: Domain, code_case: str, suffix: str) -> str:
    """The class of a domain: its ``<domain>_error`` code's class, if it has that
    code, else its ``class:``, else derived from its key."""
    base_code = _domain_base_code(domain, code_case)
    if base_code is not None:
        return base_code.class_name or class_name(base_code.code, suffix)
    return domain.class_name or class_name(domain.key, suffix)


def name_taxonomy(
    taxonomy: Taxonomy, path: str, *, later: Collection[str] = ()
) -> Names:
    """Give every code and domain its identifiers, or raise every clash found.

    ``later``: targets (by name) whose own checks are left to
    :func:`later_checks`, which the caller runs before it uses anything of
    theirs: a plan leaves those of the targets it does not render to run beside
    its rendering.  Once anything else is refused they run here all the same,
    and every problem is raised at once.
    """
    problems, domains = _assign(
        taxonomy.domains,
        taxonomy.base,
        taxonomy.base_position,
        taxonomy.code_case,
        path,
        taxonomy.class_suffix,
        later,
    )
    by_code = {code.code.code: code for domain in domains for code in domain.codes}
    by_key = {domain.domain.key: domain for domain in domains}
    if problems:
        raise TaxonomyError(problems)
    return Names(
        taxonomy=taxonomy,
        base=taxonomy.base,
        domains=tuple(domains),
        class_domains=tuple(by_key[d.key] for d in taxonomy.class_domains),
        fallback=None if taxonomy.fallback is None else by_code[taxonomy.fallback],
        wrap=by_code[taxonomy.wrap],
    )
