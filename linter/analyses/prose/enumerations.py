"""Value sets and counted claims in the prose, and the schema locations they describe.

Spec prose states value sets in a handful of shapes, each read here from the Markdown model:

- a union of code spans, `` `queued` | `running` | `failed` ``, or a code span holding one,
  `` `queued | running | failed` ``;
- "one of `x`, `y` or `z`" (and "MUST be one of:"), and "Supported values are: `a`, `b`" (also
  one value per ``<br>- `a`: ...`` line, in a reference-table row whose first cell names the field);
- a table column whose every cell is one code span (the column header names the field, as
  `` `Run.status` ``, ``status`` or ``Status``, a note after it aside: "`` `Run.status` `` (stored
  form)"; a generic header such as "Value" leaves it to the
  sentence introducing the table);
- code spans joined by slashes, commas or "or" after the field they belong to ("the run's
  `status` flips to `completed` / `failed` / `paused`"): a few of its values, never its
  complete set, so only a value the schema lacks is drift;
- a bullet list whose every item starts with a code span, introduced by a sentence that names the
  field;
- a TypeScript-style literal union in a code fence, ``kind: 'approval' | 'clarification'``;
- a counted list, "the eight `kind` discriminators (`approval`, `clarification`, ...)";
- since issue 46 (item 10, ``SHAPE_FORMS``): a definition list of bold values
  (``* **LOW**: ...``, every value spelt alike) or of code spans under a heading naming the field
  ("### `status` values"); a table whose first column lists values (code spans, or plain
  identifiers spelt alike) of a field its heading, header ("| `status` value |"), caption
  ("Table 2: Status values") or introducing sentence names; values in a field's running text ("Values are `a`, `b`", "MUST be `a` or
  `b`", "one of ..." in a table row or list item that names the field; in a paragraph naming
  it in passing, a few of its values).

A *counted claim* is a number (word or digit) before what it counts: "four kind discriminators",
"five modes".

**Binding.** Which schema location does a prose set describe? In order of confidence:

1. ``[bindings]`` in the configuration (``"page.md#anchor@field" = "schema.json#/pointer"``): high;
2. a reference next to it: `` `RunSnapshot.status` `` (a schema ``title``, ``$defs`` or
   ``components/schemas`` name, then a property), a list item leading with a schema's name
   (``- **Selection**: `kind` (...)``: that schema's field, or none; on a proposal's page none),
   or a schema file named in the same paragraph or its intro plus the field: high;
3. the field name the text gives (table header, `` `kind` ``, ``kind:``, the sentence
   introducing a "Value" column, the word before a list) matched against every enumerated
   property of that name in the corpus, kept only when the two value sets share at least two
   values and one contains the other or they overlap by half (Jaccard ≥ 0.5; for a list the
   text does not give as complete, most of its values): medium; only in the schema files the
   section (else the page) names, when it names any. Not in a proposal (an RFC or SEP page, or
   a page in a folder of proposals): it states a change, and binds only by 1 or 2. Not to an enum in a ``then`` or
   ``else`` (it narrows the field for some instances). When several schemas have the field and
   some list every value a list the text does not give as complete names, that list binds to
   those only (the others merely share the name: a deprecated endpoint's older enum).

Prose binds only to schemas of its own version (``versions``) and, inside a Helm chart (a folder
with a ``Chart.yaml``), of its own chart: each chart's README documents its own values, and two
charts' ``mode`` are two fields (``charts.chart_of``). A page outside every chart may describe any.

Enums of one field that no comparison can tell apart (the same values, keyword, closure and
version, and the same standing: a variant's tag, a ``then``) are one :class:`EnumGroup`, and a
prose set is weighed once against each group (``Binder.grouped``), not against each schema:
280 pages and 2,100 schemas of one enum are 280 comparisons. ``Binder.bindings`` lists one
binding per schema location, for ``speclint bindings``.

Anything weaker is not bound: a drift reported on a guess would be noise. A ``const`` or a
one-value ``enum`` that other schemas fix to other values (a variant per file) is one variant's
tag, never bound by name alone. A ``oneOf``/``anyOf``
whose every branch fixes one property to one value (``kind: {enum: [TABLE]}``, ``[TASK]``) is
indexed as one set of that property's values at the union, and the branches' one-value tags are
not bound by name (each would "lack" the others' values).

A bullet list interrupted by a block quote (``> **Note**``, a quoted example), a code fence, a
paragraph labelled "Note:" or "Example:", or an item's nested sub-list, and resuming at the same
depth, is one list. A list whose lead-in names a category of the values ("The scalar data types
are:", "The additional modes are:") lists part of them, as "such as" does.

A list of another format's values set against the field's ("Tabular Data supports four types
that overlap with Table Schema types:", or an item "not supported in Table Schema" where the
lead-in names Table Schema) documents that format, and binds nothing.

A number right after "carries", "sends", "at most", "up to" and the like counts what a message
holds, not a field's values ("a request that carries two `channel` values"); a count "of"
something ("6 variants of URI") counts only a list whose text speaks of that thing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from speclint.analyses.context import Context
from speclint.analyses.prose.fences import comment_blocks
from speclint.analyses.prose.rfcs import is_design_page, is_rfc
from speclint.analyses.repository.charts import chart_of, same_chart
from speclint.analyses.schemas.shapes import Site, ValueSet, follow, resolve, value_set
from speclint.common.findings import Location, as_written
from speclint.model.corpus import Document
from speclint.parsing.keyword_positions import (
    Position,
    item_position,
    member_position,
    root_position,
)
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.prose import CommentBlocks, Heading, Paragraph
from speclint.parsing.structured import join_pointer

if TYPE_CHECKING:
    from speclint.parsing.prose import ProseDocument

NUMBER_WORDS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
}
VALUE = r"[A-Za-z0-9][\w.:/+-]*"
_CODE = re.compile(r"`([^`\n]+)`")
_UNION = re.compile(r"`[^`\n]+`(?:\s*\\?\|\s*`[^`\n]+`)+")
_IN_SPAN_UNION = re.compile(rf"^\s*['\"]?{VALUE}['\"]?(?:\s*\|\s*['\"]?{VALUE}['\"]?)+\s*$")
_ONE_OF = re.compile(r"\bone of\b:?\s*((?:`[^`\n]+`[\s,]*(?:or\s+|and\s+|/\s*|\|\s*)?){2,})", re.I)
# Code spans joined by slashes, commas or "or": "`completed` / `failed` / `paused`",
# "`sync`, `async`, `batch` or `stream`".
_SEPARATED = re.compile(
    r"`[^`\n]+`(?:\s*(?:/|,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+)\s*`[^`\n]+`)+"
)
# Words between a field and its values that are not the field ("the run's mode *is*").
_NOT_FIELD = frozenset(
    [
        "a",
        "an",
        "the",
        "is",
        "are",
        "be",
        "was",
        "were",
        "its",
        "it",
        "this",
        "that",
        "these",
        "those",
        "to",
        "of",
        "in",
        "on",
        "at",
        "by",
        "for",
        "from",
        "with",
        "as",
        "may",
        "can",
        "must",
        "should",
        "will",
        "shall",
        "flips",
        "flip",
        "moves",
        "move",
        "becomes",
        "become",
        "transitions",
        "changes",
        "set",
        "sets",
        "either",
        "also",
        "then",
        "when",
        "only",
        "one",
        "value",
        "values",
        "field",
        "property",
        "either",
        "takes",
        "take",
        "has",
        "have",
    ]
)
_TS_UNION = re.compile(
    r"""(?P<field>[A-Za-z_]\w*)\??\s*:\s*\|?\s*(?P<values>(?:['"][^'"\n]+['"]\s*\|\s*)+['"][^'"\n]+['"])"""
)
_COUNT_WORD = "|".join(NUMBER_WORDS)
_COUNTED = re.compile(
    rf"(?<![\d.])\b(?P<number>{_COUNT_WORD}|\d{{1,2}})\s+(?P<between>(?:`?[\w.-]+`?\s+){{0,2}}?)"
    r"(?P<noun>kinds?|modes?|values?|statuses|states?|types?|discriminators?|levels?|actions?|"
    r"variants?|phases?|categories|roles?|reasons?|outcomes?|scopes?)\b"
    r"(?:\s+of\s+(?:the\s+|an?\s+)?(?P<of>`?[\w.-]+`?))?",
    re.IGNORECASE,
)
# A number right after these words counts instances in a message, not a field's values ("a
# request that carries two `channel` values", "at most three modes"): issue 45, item 7; or a
# pair taken to compare ("the comparison algorithm of two `channel` values", "compare two
# values", "between two states", "any two modes"): ecosystem batch 3.
_INSTANCES = re.compile(
    r"\b(?:carr(?:y|ies|ying)|send(?:s|ing)?|pass(?:es|ing)?|repeat(?:s|ing)?|more\s+than|"
    r"fewer\s+than|less\s+than|up\s+to|at\s+most|at\s+least|between|any|"
    r"compar(?:e[sd]?|ing|isons?)(?:\s+\w+)?(?:\s+(?:of|for|on))?)\s+$",
    re.IGNORECASE,
)
_VALUES_PHRASE = re.compile(
    r"\b(?:supported|possible|allowed|valid|accepted|permitted)\s+values\s+(?:are|is|include)?\s*:?",
    re.IGNORECASE,
)
_VALUES_END = re.compile(r"\b(?:defaults?\s+to|default\s+is|if not set)\b", re.IGNORECASE)
# A list item or line that leads with a schema's name in bold or code, then a colon.
_OWNER_LEAD = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|`)([A-Z][A-Za-z0-9_]*)(?:\*\*|`):")
_TYPE_FIELD = re.compile(r"^([A-Za-z_][\w-]*)\.([A-Za-z_][\w-]*)$")
_SCHEMA_FILE = re.compile(r"([\w./-]+\.json)(?:#\S*)?$")
_PARTIAL = re.compile(
    r"\b(e\.g\.|for example|examples?|such as|including|includes?|among others|etc\.?)", re.I
)
# A lead-in that names a category of the field's values lists that category, not all of them:
# "The scalar data types are:", "The additional modes are:", "Order-relevant values:" (issue 45,
# item 7).
_CATEGORY_LEAD = re.compile(
    r"\b(?:scalar|primitive|basic|simple|composite|complex|compound|structured|numeric|core|"
    r"common|main|principal|additional|extra|other|remaining|custom|experimental|deprecated|"
    r"legacy|reserved|optional|required|standard|built-in|vendor|relevant|applicable|specific)"
    r"\b[^.:;]*:[\s*_]*$",
    re.IGNORECASE,
)


def _partial_lead(text: str) -> bool:
    """Whether an intro says its list is part of the values: examples ("such as"), or a category
    of them in the sentence that leads into the list ("The scalar types are:")."""
    # A code span is one word here (`Total.type`'s dot ends no sentence).
    last = re.split(r"(?<=[.!?])\s+", _CODE.sub("x", text).strip())[-1]
    return bool(_PARTIAL.search(text) or _CATEGORY_LEAD.search(last))


@dataclass(frozen=True, slots=True)
class ProseSet:
    """A value set the prose states."""

    path: str
    line: int
    values: tuple[str, ...]
    form: (
        str  # union | one-of | values | table | table-row | list | fence | counted, or SHAPE_FORMS
    )
    heading: Heading | None
    field: str | None  # the field it enumerates, when the text names one
    context: str  # the sentence/intro around it, for references
    complete: bool  # False when the text says it lists examples only
    claimed: int | None = None  # a number the text gives for it ("the eight kinds")
    # The schema files its section names ("Defined in `x.schema.json`"), else the page's
    # opening: the schema it describes is among them (file names, as written).
    named_files: tuple[str, ...] = ()
    # What a sentence's list is of ("List threads by status (a, b, c)": `thread`), "" when it
    # names nothing: a schema of that name holds the field it lists.
    owner: str = ""
    # Each value's own line, in the order of ``values``, when they are not all on ``line``: a
    # table column's rows, a list's items (issue 48, item 4: a drift's excerpt of the prose
    # centres on the row of the value in question, not on the table's first line). Empty: every
    # value is on ``line``.
    value_lines: tuple[int, ...] = ()

    def line_of(self, value: str) -> int:
        """The line ``value`` is written on (its row, its item); ``line`` for a value the set
        does not list or whose line it did not record (a copy given other values)."""
        if len(self.value_lines) == len(self.values) and value in self.values:
            return self.value_lines[self.values.index(value)]
        return self.line

    @property
    def anchor(self) -> str:
        return self.heading.anchor if self.heading else ""

    def location(self, note: str | None = None) -> Location:
        return Location(
            self.path, self.line, 1, pointer=f"#{self.anchor}" if self.anchor else "", note=note
        )


# How each shape (ProseSet.form) is said in a message or a listing.
FORM_WORDS = {
    "union": "union of values",
    "one-of": '"one of" list',
    "values": "list of supported values",
    "table": "table column",
    "table-row": "table row's values",
    "list": "bullet list",
    "fence": "literal union",
    "counted": "counted list",
    "definitions": "definition list",
    "value-table": "table of values",
    "values-text": "field's running text",
    "values-sentence": "sentence's list of values",
}


@dataclass(frozen=True, slots=True)
class CountedClaim:
    path: str
    line: int
    number: int
    subject: str  # what it counts, singular: "kind", "mode"
    field: str | None  # a backticked field name in the claim ("`kind` discriminators")
    text: str
    heading: Heading | None
    qualifiers: tuple[str, ...] = ()  # plain words between number and noun ("interrupt")
    of: str | None = None  # what the noun is of: "6 variants of URI" counts URI's variants

    def location(self, note: str | None = None) -> Location:
        anchor = f"#{self.heading.anchor}" if self.heading else ""
        return Location(self.path, self.line, 1, pointer=anchor, note=note)


@dataclass(frozen=True)
class Binding:
    prose: ProseSet
    target: Site  # the property whose values the prose lists
    values: ValueSet
    confidence: str  # high | medium
    evidence: str


@dataclass(frozen=True, eq=False)
class EnumGroup:
    """Enumerated properties of one name that any comparison with a value list treats alike:
    the same values in the same order, the same keyword and closure, one version, and the same
    standing (a variant's tag, a ``then``'s narrowing, the kind of document): what a list finds
    of one of them it finds of all. A list is compared with a group once, not with each member
    (issue 44: 280 pages and 2,100 schemas that each list one field's values were 588,000
    comparisons and as many findings). Compared by identity: the index makes each group once."""

    field: str
    # (position in the index's list of the field's enums, the property, its values)
    members: tuple[tuple[int, Site, ValueSet], ...]

    @property
    def site(self) -> Site:
        return self.members[0][1]

    @property
    def values(self) -> ValueSet:
        return self.members[0][2]


@dataclass(frozen=True)
class GroupBinding:
    """A prose set bound to a group of alike enums: one binding that stands for one per member
    (``Binder.bindings`` lists those)."""

    prose: ProseSet
    group: EnumGroup
    confidence: str  # high | medium
    evidence: str
    rank: int = 0  # where its members come among the prose set's bindings (the reference's turn)
    # Which evidence bound it (the module docstring's order): "configuration" (1), "reference"
    # (2: a `Type.field` or a schema file named with the field), "name" (3: the field name).
    how: str = "name"


# --- extraction -----------------------------------------------------------------------------------


def _clean(value: str) -> str:
    return value.strip().strip("'\"").strip()


def _values_of(spans: list[str]) -> tuple[str, ...]:
    seen: list[str] = []
    for span in spans:
        value = _clean(span)
        if value and value not in seen:
            seen.append(value)
    return tuple(seen)


def _lines_of(spans: list[str], lines: list[int]) -> tuple[int, ...]:
    """The line of each value ``_values_of(spans)`` keeps (its first occurrence), ``lines[n]``
    being the line of ``spans[n]``."""
    seen: dict[str, int] = {}
    for span, line in zip(spans, lines, strict=True):
        value = _clean(span)
        if value:
            seen.setdefault(value, line)
    return tuple(seen.values())


def _is_value(text: str) -> bool:
    return bool(re.fullmatch(VALUE, _clean(text)))


def _field_before(text: str, end: int) -> str | None:
    """The last field-like code span before ``end`` in ``text`` (`` `status` ``, `` `Run.status` ``)."""
    found = None
    for match in _CODE.finditer(text[:end]):
        span = match.group(1).strip()
        if re.fullmatch(r"[A-Za-z_][\w.-]*", span):
            found = span.rsplit(".", 1)[-1]
    return found


def prose_sets(document: Document) -> list[ProseSet]:
    """Every value set the page states (memoised on the document: a pure function of its text)."""
    memo = document.derived.get("prose_sets")
    if memo is None:
        memo = document.derived["prose_sets"] = _prose_sets(document)
    return list(memo)


def _prose_sets(document: Document) -> list[ProseSet]:
    prose = document.prose
    if prose is None or document.text is None:
        return []
    lines = document.lines
    found: list[ProseSet] = []
    found += _inline_sets(document.path, prose)
    # A comment (a waiver) between a list or table and the sentence introducing it does not part
    # them (issue 44, item 12); the page's blocks are made once, for the fences too.
    blocks = comment_blocks(document)
    found += _table_sets(document.path, prose, blocks)
    found += _list_sets(document.path, prose, lines, blocks)
    found += _term_lists(document.path, prose, lines, blocks)
    found += _text_sets(document.path, prose)
    found += _sentence_sets(document.path, prose)
    found += _fence_sets(document.path, prose)
    # The same set stated twice on one line (a union inside a "one of" sentence) is one set.
    unique: dict[tuple[int, tuple[str, ...]], ProseSet] = {}
    for item in found:
        kept = unique.setdefault((item.line, item.values), item)
        if kept.form == "list" and not kept.complete and item.form == "values-text":
            # "Allowed values: `a`, `b`" read first as values named in passing: the field's
            # own text gives them as its set (issue 46, item 10)
            unique[item.line, item.values] = item
    if not unique:
        return []
    # The page's opening (up to its second `##` section: "This binding carries the checkout
    # schema (`checkout.json`)") names what the whole page describes; a file named further down
    # (`run-event.schema.json` in one section) only what its own section does.
    sections: dict[str, list[str]] = {}
    opening: list[str] = []
    # (A page of fewer `##` sections: its first 30 lines.)
    cutoff = ([h.line for h in prose.headings if h.level == 2][1:2] or [30])[0]
    for paragraph in prose.paragraphs:
        named = sections.setdefault(paragraph.heading.anchor if paragraph.heading else "", [])
        files = _FILE_NAME.findall(paragraph.text)
        named += [n for n in files if n not in named]
        if paragraph.line < cutoff:
            opening += [n for n in files if n not in opening]
    return [
        replace(item, named_files=tuple(sections.get(item.anchor) or opening))
        for item in unique.values()
    ]


# A schema file a page names, in a code span or a link ("*Defined in [class.schema.json](...)*").
_FILE_NAME = re.compile(r"(?<![\w.-])([\w-]+(?:\.[\w-]+)*\.(?:json|ya?ml))(?![\w.-])")


def _inline_sets(path: str, prose: ProseDocument) -> Iterator[ProseSet]:
    for paragraph in prose.paragraphs:
        text = paragraph.text
        # Every set below is made of code spans, two at least (one for a union written inside
        # one span): a paragraph with fewer backticks states none. Most paragraphs are skipped
        # here, before the case-insensitive patterns (a third of a page's parse time).
        ticks = text.count("`")
        if ticks < 2:
            continue
        if ticks < 4:
            if "|" in text:
                yield from _span_unions(path, paragraph, bool(_PARTIAL.search(text)))
            continue
        partial = bool(_PARTIAL.search(text))
        for match in _UNION.finditer(text):
            spans = _CODE.findall(match.group(0))
            if len(spans) >= 2 and all(_is_value(s) for s in spans):
                line = paragraph.line + text[: match.start()].count("\n")
                yield ProseSet(
                    path,
                    line,
                    _values_of(spans),
                    "union",
                    paragraph.heading,
                    _field_before(text, match.start()),
                    text,
                    not partial,
                )
        if "|" in text:
            yield from _span_unions(path, paragraph, partial)
        phrase = _phrase_values(text)
        if phrase:
            line = paragraph.line + text[: phrase[1]].count("\n")
            yield ProseSet(
                path,
                line,
                phrase[0],
                "values",
                paragraph.heading,
                _field_before(text, phrase[1]),
                text,
                not _PARTIAL.search(text),
            )
        for match in _ONE_OF.finditer(text):
            spans = _CODE.findall(match.group(1))
            if len(spans) >= 2 and all(_is_value(s) for s in spans):
                line = paragraph.line + text[: match.start()].count("\n")
                yield ProseSet(
                    path,
                    line,
                    _values_of(spans),
                    "one-of",
                    paragraph.heading,
                    _field_before(text, match.start()),
                    text,
                    not partial,
                )
        # A counted list is written in parentheses after its count.
        for match in _COUNTED.finditer(text) if "(" in text else ():
            after = text[match.end() :]
            listed = re.match(r"\s*\(([^()]*)\)", after)
            spans = _CODE.findall(listed.group(1)) if listed else []
            rest = _CODE.sub(" ", listed.group(1)) if listed else ""
            if re.sub(r"\b(and|or)\b|[\s,;/|]|—.*$", "", rest):
                spans = []  # words other than separators: a remark, not a list
            if len(spans) >= 2 and all(_is_value(s) for s in spans):
                number = _number(match.group("number"))
                between = _CODE.findall(match.group("between"))
                line = paragraph.line + text[: match.start()].count("\n")
                yield ProseSet(
                    path,
                    line,
                    _values_of(spans),
                    "counted",
                    paragraph.heading,
                    between[-1] if between else None,
                    text,
                    True,
                    number,
                )

        # Last: the same spans read as a union, a "one of" or a counted list say more.
        for match in _SEPARATED.finditer(text):
            spans = _CODE.findall(match.group(0))
            if not all(_is_value(v) for v in spans) or len(set(spans)) < 2:
                continue
            if "/" not in match.group(0) and len(spans) < 3:
                continue  # "`a` or `b`" is too common a phrase to read as a value set
            field_name = _field_in_sentence(text, match.start(), spans)
            if field_name is None:
                continue
            line = paragraph.line + text[: match.start()].count("\n")
            # The values a field *moves to* or *may be* here, not its whole vocabulary: only a
            # value the schema lacks is drift (the set is never taken as complete).
            yield ProseSet(
                path, line, _values_of(spans), "list", paragraph.heading, field_name, text, False
            )


def _span_unions(path: str, paragraph: Paragraph, partial: bool) -> Iterator[ProseSet]:
    """Unions written inside one code span: `` `a | b | c` ``."""
    text = paragraph.text
    for match in _CODE.finditer(text):
        span = match.group(1)
        if "|" in span and _IN_SPAN_UNION.match(span):
            line = paragraph.line + text[: match.start()].count("\n")
            yield ProseSet(
                path,
                line,
                _values_of(span.split("|")),
                "union",
                paragraph.heading,
                _field_before(text, match.start()),
                text,
                not partial,
            )


def _field_in_sentence(text: str, start: int, values: list[str]) -> str | None:
    """The field a value list right after it belongs to, named in the same sentence: the last
    field-like code span before the list (not a value), else the last plain word of the few
    before it that is not grammar ("A run's mode is `sync`, ...")."""
    sentence_start = max(text.rfind(". ", 0, start), text.rfind("\n\n", 0, start), -1) + 1
    before = text[sentence_start:start]
    named = [
        m.group(1).strip()
        for m in _CODE.finditer(before)
        if re.fullmatch(r"[A-Za-z_][\w.-]*", m.group(1).strip())
        and _clean(m.group(1)) not in values
    ]
    if named:
        return named[-1].rsplit(".", 1)[-1]
    words = re.findall(r"[A-Za-z_][\w'-]*", _CODE.sub(" ", before))[-4:]
    for word in reversed(words):
        if word.lower() in _NOT_FIELD or "'" in word:
            continue
        return word if re.fullmatch(r"[a-z_][\w-]*", word) else None
    return None


def _phrase_values(text: str) -> tuple[tuple[str, ...], int] | None:
    """ "Supported values are: `a`, `b` and `c`" (or one per ``<br>- `a`: ...`` line): the values,
    and where the phrase starts. Code spans after "Defaults to" are not values."""
    match = _VALUES_PHRASE.search(text)
    if not match:
        return None
    rest = text[match.end() :]
    end = _VALUES_END.search(rest)
    if end:
        rest = rest[: end.start()]
    bullets = re.split(r"<br\s*/?>\s*\**\s*-\s*", rest)
    if len(bullets) > 2:
        spans = [m.group(1) for b in bullets[1:] if (m := _CODE.search(b))]
    else:
        spans = _CODE.findall(rest.split("<br")[0])
    if len(spans) >= 2 and all(_is_value(v) for v in spans):
        return _values_of(spans), match.start()
    return None


def _table_sets(path: str, prose: ProseDocument, blocks: CommentBlocks) -> Iterator[ProseSet]:
    for table in prose.tables:
        # "| read | string | ... | Supported values are: `data`, `envelope`, `raw` |": the
        # first column names the field a row's description enumerates.
        for row in table.rows:
            if len(row) < 2:
                continue
            name = row[0].text.strip().strip("`").strip()
            if not re.fullmatch(r"[A-Za-z_][\w.-]*", name):
                continue
            for cell in row[1:]:
                found = _phrase_values(cell.text)
                if found:
                    yield ProseSet(
                        path,
                        cell.line,
                        found[0],
                        "table-row",
                        table.heading,
                        name.rsplit(".", 1)[-1],
                        cell.text,
                        not _PARTIAL.search(cell.text),
                    )
        for column, header in enumerate(table.header):
            cells = [row[column] for row in table.rows if column < len(row)]
            spans = []
            for cell in cells:
                match = re.fullmatch(r"\s*`([^`]+)`\s*", cell.text)
                if not match or not _is_value(match.group(1)):
                    break
                spans.append(match.group(1))
            else:
                # A column that repeats a value describes its rows (the `Type` column of a
                # field reference table: `string`, `string`, `boolean`), it does not list a
                # vocabulary.
                if len(spans) >= 2 and len(set(spans)) == len(spans):
                    intro = _paragraph_before(prose, blocks.above(table.line))
                    field_name = _column_field(header.text, intro.text if intro else "", spans)
                    form = "table"
                    if field_name is None:
                        # "| `status` value | ... |", or "| Value | ... |" under "### `status`
                        # values" (issue 46, item 10)
                        field_name = _value_column_field(
                            header.text, table.heading, intro.text if intro else ""
                        )
                        form = "value-table" if field_name else form
                    yield ProseSet(
                        path,
                        table.line,
                        _values_of(spans),
                        form,
                        table.heading,
                        field_name.rsplit(".", 1)[-1] if field_name else None,
                        (intro.text if intro else "") + "\n" + header.text,
                        # "Order-relevant `Total.type` values:" heads a selection, not the set.
                        not (intro and _partial_lead(intro.text)),
                        value_lines=_lines_of(spans, [cell.line for cell in cells]),
                    )
                continue
            if column == 0:
                plain = _plain_column(path, prose, blocks, table, cells)
                if plain is not None:
                    yield plain


# Column headers that say "the values" without naming whose: the sentence introducing the table
# names the field ("The `mode` of a run:" above "| Value | Meaning |").
_GENERIC_HEADERS = frozenset(
    [
        "value",
        "values",
        "name",
        "names",
        "code",
        "codes",
        "literal",
        "literals",
        "token",
        "tokens",
        "constant",
        "constants",
        "identifier",
        "id",
        "enum",
        "member",
        "members",
        "string",
        "strings",
        "option",
        "options",
    ]
)


_NOTED_HEADER = re.compile(r"`([^`]+)`\s*(?:\([^()]*\)|[—–-]\s.*)")


def _column_field(header: str, intro: str, values: list[str]) -> str | None:
    """The field a table column enumerates: its header (`` `Run.status` ``, ``status``,
    ``Status``), or for a generic header ("Value") the field the introducing sentence names."""
    name = header.strip()
    quoted = name.startswith("`")
    # A note after the code span names the same field: "`A2ATaskState.state` (stored form)".
    noted = _NOTED_HEADER.fullmatch(name)
    name = noted.group(1).strip() if noted else name.strip("`").strip()
    if not re.fullmatch(r"[A-Za-z_][\w.-]*", name):
        return None
    if not quoted and name.lower() in _GENERIC_HEADERS:
        return _named_field(intro, values)
    if not quoted and name[:1].isupper() and name[1:].islower():
        name = name.lower()  # a plain "Status" header is the `status` field
    return name


def _named_field(text: str, values: list[str] | tuple[str, ...]) -> str | None:
    """The field the last sentence of ``text`` names in a code span (not one of the values)."""
    last_sentence = re.split(r"(?<=[.!?])\s+", text.strip())[-1] if text.strip() else ""
    named = [
        m.group(1).strip()
        for m in _CODE.finditer(last_sentence)
        if re.fullmatch(r"[A-Za-z_][\w.-]*", m.group(1).strip())
        and _clean(m.group(1)) not in values
    ]
    return named[-1].rsplit(".", 1)[-1] if named else None


def _paragraph_before(prose: ProseDocument, line: int) -> Any:
    before = [p for p in prose.paragraphs if p.end_line < line and line - p.end_line <= 2]
    return before[-1] if before else None


def _code_lead(item: Any) -> str | None:
    """The code span a list item starts with (bold around it aside: ``- **`queued`** - ...``)."""
    match = _CODE.match(item.text.lstrip("-*+ 0123456789.)"))
    return match.group(1) if match else None


def _list_sets(
    path: str,
    prose: ProseDocument,
    lines: Sequence[str],
    blocks: CommentBlocks,
    lead: Any = _code_lead,
) -> Iterator[ProseSet]:
    """Bullet lists whose every item starts with a value (``lead``: a code span, or for
    :func:`_term_lists` a bold identifier)."""
    items = sorted(prose.list_items, key=lambda i: i.line)
    run: list[Any] = []
    terms = lead is not _code_lead

    def flush() -> Iterator[ProseSet]:
        if len(run) >= 2:
            spans = [lead(item) for item in run]
            intro = _paragraph_before(prose, blocks.above(run[0].line))
            heading = run[0].heading
            intro_text = intro.text if intro is not None else ""
            if _contrasted(intro_text, [item.text for item in run]):
                return  # another format's values, compared with these: no documentation of them
            if terms and not _one_convention(spans):
                return  # bold words of several spellings: a list of features, not of values
            if all(_is_value(s) for s in spans) and (intro is not None or heading is not None):
                # Without an intro sentence, the heading names the field ("## Kinds").
                last_sentence = re.split(r"(?<=[.!?])\s+", intro_text.strip())[-1]
                named = [
                    m.group(1).strip()
                    for m in _CODE.finditer(last_sentence)
                    if re.fullmatch(r"[A-Za-z_][\w.-]*", m.group(1).strip())
                    and _clean(m.group(1)) not in spans
                ]
                form = "definitions" if terms else "list"
                if named:
                    field_name: str | None = named[-1].rsplit(".", 1)[-1]
                elif (titled := _heading_names_field(heading)) is not None:
                    # "### `status` values" over the list (issue 46, item 10): a definition
                    # list of the field's values, read since that item (a preview heuristic).
                    field_name, form = titled, "definitions"
                elif terms:
                    return  # bold words under no sentence naming a field: a list of features
                else:
                    field_name = _heading_field(heading)
                yield ProseSet(
                    path,
                    run[0].line,
                    _values_of(spans),
                    form,
                    run[0].heading,
                    field_name,
                    intro_text,
                    not _partial_lead(intro_text),
                    value_lines=_lines_of(spans, [item.line for item in run]),
                )

    fenced = [(f.line, f.end_line) for f in prose.fences]
    headed = {h.line for h in prose.headings}

    def only_an_aside(first: int, last: int, nested: set[int]) -> bool:
        """Are source lines ``first``..``last`` (1-based) blank, a block quote (``> **Note**``,
        a quoted example), a code fence, or a paragraph labelled as a note or an example? A
        list that resumes after one of these at the same depth is the same list, as after the
        lines of a deeper list (``nested``)."""
        line = first
        while line <= last:
            if line in nested:
                line += 1
                continue
            if line in headed:
                return False
            fence = next((end for start, end in fenced if start == line), None)
            if fence is not None:
                line = fence + 1
                continue
            text = lines[line - 1].strip() if line - 1 < len(lines) else ""
            if text and not text.startswith(">"):
                if not _ASIDE.match(text):
                    return False
                while line + 1 <= last and lines[line].strip():
                    line += 1  # the rest of the labelled paragraph
            line += 1
        return True

    # A list is read depth by depth: an item's nested sub-list sits between it and the next
    # item of its own list, which continues after it (issue 45, item 7: a list split where a
    # sub-list ends read as two lists, each lacking the other's values).
    found: list[ProseSet] = []
    for depth in sorted({item.depth for item in items}):
        nested = {
            line
            for item in items
            if item.depth > depth
            for line in range(item.line, item.end_line + 1)
        }
        previous = None
        run = []
        for item in (i for i in items if i.depth == depth):
            starts_with_code = lead(item) is not None
            contiguous = previous is not None and (
                item.line <= previous.end_line + 1
                or only_an_aside(previous.end_line + 1, item.line - 1, nested)
            )
            if starts_with_code and (contiguous or not run):
                run.append(item)
            else:
                found.extend(flush())
                run = [item] if starts_with_code else []
            previous = item
        found.extend(flush())
    yield from sorted(found, key=lambda p: p.line)


# --- value lists in the other shapes a spec writes them (issue 46, item 10) ---------------------
#
# Read since that item, and bound and compared like the others; enum-drift reports what they
# find under a heuristic of its own (``SHAPE_FORMS``), in preview until its findings are labelled.

# The forms of those lists: a definition list of bold values or under a heading that names the
# field, a table whose first column lists the values of a field a heading, header or caption
# names, values in a field's running text.
SHAPE_FORMS = frozenset({"definitions", "value-table", "values-text"})

# ``* **LOW**: ...``, ``- **queued** — ...``: a bold identifier, then a colon or a dash.
_TERM = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*|__)([A-Za-z][\w.-]*)(?::(?:\*\*|__)|(?:\*\*|__)\s*(?::|[-\u2014\u2013]\s))"
)


def _term_lead(item: Any) -> str | None:
    match = _TERM.match(item.text)
    return match.group(1) if match else None


# Spellings of an identifier, one of which every value of a list follows: `UPPER_CASE`,
# `lower_case` (or kebab-case, dotted), `camelCase`. A capitalised word ("**Fast**") is prose.
_CONVENTIONS = (
    re.compile(r"[A-Z][A-Z0-9]*(?:[_.-][A-Z0-9]+)*"),
    re.compile(r"[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)*"),
    re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+"),
)


def _one_convention(values: list[str] | tuple[str, ...]) -> bool:
    """Whether the values are identifiers spelt alike (a list of values), not words."""
    return any(all(c.fullmatch(v) for v in values) for c in _CONVENTIONS) or (
        # camelCase and a one-word value ("done", "inProgress") are one convention
        all(_CONVENTIONS[1].fullmatch(v) or _CONVENTIONS[2].fullmatch(v) for v in values)
        and not all("_" in v or "-" in v for v in values)
        and not any("_" in v or "-" in v for v in values)
    )


def _term_lists(
    path: str, prose: ProseDocument, lines: Sequence[str], blocks: CommentBlocks
) -> Iterator[ProseSet]:
    """``* **LOW**: background work``: bold values, under a sentence or heading naming the
    field, all spelt alike."""
    if not any(_TERM.match(item.text) for item in prose.list_items):
        return
    yield from _list_sets(path, prose, lines, blocks, _term_lead)


# A heading that names a field whose values its section lists: "`status` values", "`status`",
# "Values of `Job.status`", "Status values", "The `status` field".
_FIELD_HEADING = re.compile(
    r"^(?:(?:the\s+)?(?:allowed\s+|possible\s+|valid\s+|supported\s+)?values?\s+(?:of|for)\s+)?"
    r"(?:the\s+)?(?:(?P<code>`[^`]+`)|(?P<word>[A-Za-z][a-z]*(?:[_-][a-z]+)*))"
    r"(?:\s+(?:field|property|attribute|parameter))?"
    r"(?P<tail>\s+(?:values?|enum(?:eration)?s?))?\s*:?$",
    re.IGNORECASE,
)


def _heading_names_field(heading: Heading | None) -> str | None:
    """The field a heading names for the values under it (`` ### `status` values ``): a code
    span, or a plain word followed by "values" ("Status values"); a plain word alone is a topic
    ("## Kinds" is :func:`_heading_field`'s)."""
    if heading is None:
        return None
    return _title_field(heading.text)


# A table's caption: "Table 3: `status` values", "**Table 3.** Status values".
_CAPTION = re.compile(r"^[*_]*table\s+[\w.-]+[*_]*\s*[:.\u2014\u2013-]?[*_]*\s*", re.IGNORECASE)


def _caption_field(intro: str) -> str | None:
    """The field a table's caption (the line above it) names, as a heading would."""
    last = intro.strip().splitlines()[-1].strip() if intro.strip() else ""
    caption = _CAPTION.sub("", last, count=1)
    return _title_field(caption.strip("*_ ").rstrip(":").strip()) if caption != last else None


def _title_field(text: str) -> str | None:
    """The field a title (a heading, a caption) names for the values under it."""
    match = _FIELD_HEADING.match(text.strip())
    if match is None:
        return None
    if match.group("code"):
        name = match.group("code").strip("`").strip()
        if not re.fullmatch(r"[A-Za-z_][\w.-]*", name):
            return None
        return name.rsplit(".", 1)[-1]
    word = match.group("word")
    if not match.group("tail") or word.lower() in {"the", "all", "possible", "allowed"}:
        return None
    return word.lower()


def _value_column_field(header: str, heading: Heading | None, intro: str = "") -> str | None:
    """The field a column of values belongs to when its header says so with more words than
    a name ("`status` value", "Values of `status`"), or says only "Value" under a heading that
    names the field."""
    match = _FIELD_HEADING.match(header.strip())
    if match and match.group("code"):
        name = match.group("code").strip("`").strip()
        return name if re.fullmatch(r"[A-Za-z_][\w.-]*", name) else None
    if match and match.group("tail") and match.group("word").lower() not in _GENERIC_HEADERS:
        return match.group("word").lower()
    if header.strip().strip("*").lower() in _GENERIC_HEADERS:
        return _caption_field(intro) or _heading_names_field(heading)
    return None


# Headers of a column of field names (a field reference table), not of one field's values.
_FIELD_HEADERS = frozenset(
    [
        *("field", "fields", "parameter", "parameters", "property", "properties"),
        *("attribute", "attributes", "key", "keys", "column", "columns", "setting"),
        *("settings", "variable", "variables", "flag", "flags", "argument", "arguments"),
        *("element", "elements"),
    ]
)


def _plain_column(
    path: str, prose: ProseDocument, blocks: CommentBlocks, table: Any, cells: list[Any]
) -> ProseSet | None:
    """A first column of plain identifiers (``| queued | waiting |``), all spelt alike, whose
    header, introducing sentence or heading names the field: the field's values."""
    values = [cell.text.strip().strip("*_").strip() for cell in cells]
    if (
        len(values) < 2
        or len(set(values)) < len(values)
        or not all(re.fullmatch(r"[A-Za-z][\w.-]*", v) for v in values)
        or not _one_convention(values)
    ):
        return None
    header = table.header[0].text.strip()
    intro = _paragraph_before(prose, blocks.above(table.line))
    intro_text = intro.text if intro else ""
    name = _value_column_field(header, table.heading, intro_text) or _column_field(
        header, intro_text, values
    )
    if name is None or name.lower() in _FIELD_HEADERS or name in values:
        return None
    return ProseSet(
        path,
        table.line,
        _values_of(values),
        "value-table",
        table.heading,
        name.rsplit(".", 1)[-1],
        intro_text + "\n" + header,
        not (intro and _partial_lead(intro_text)),
        value_lines=_lines_of(values, [cell.line for cell in cells]),
    )


# Values a sentence lists as plain words, naming the field: "List threads by status (idle,
# busy, error)", "Statuses are idle, busy and error." (issue 46, round 4). Three values or more,
# each a word in lower case (a name, a sentence's words, are not); the list ends the parenthesis
# or the sentence.
SENTENCE_FORM = "values-sentence"
_WORD = r"[a-z][a-z0-9_-]*"
_WORDS = (
    rf"{_WORD}(?:\s*,\s*{_WORD})+\s*,?\s*(?:(?:and|or)\s+)?{_WORD}|{_WORD}(?:\s*,\s*{_WORD}){{2,}}"
)
_SENTENCE_VALUES = (
    # "by status (a, b, c)", "filtered on `status` (a, b or c)"
    re.compile(
        rf"(?:\b(?P<owner>[A-Za-z]\w*)\s+)?\b(?:by|on)\s+(?:the\s+|their\s+|its\s+)?`?(?P<field>[A-Za-z_]\w*)`?\s*"
        rf"\((?P<values>{_WORDS})\)"
    ),
    # "statuses are a, b, and c." "The `status` is one of a, b or c."
    re.compile(
        rf"(?:^|(?<=[.!?]\s)|\bthe\s+|\bits\s+|\btheir\s+)`?(?P<field>[A-Za-z_]\w*)`?\s+"
        rf"(?:are|is\s+one\s+of|can\s+be(?:\s+one\s+of)?|must\s+be(?:\s+one\s+of)?)\s*:?\s+"
        rf"(?P<values>{_WORDS})\s*(?:[.!?](?:\s|$)|$)",
        re.IGNORECASE,
    ),
)


def _singular(word: str) -> str:
    """The field a plural names: `statuses` the field `status`, `kinds` `kind`."""
    if word.endswith(("uses", "sses", "xes")) and len(word) > 4:
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def _sentence_sets(path: str, prose: ProseDocument) -> Iterator[ProseSet]:
    """Value lists a sentence gives as plain words after the field it names (``_SENTENCE_VALUES``);
    a sentence that says they are examples ("e.g.", "such as", "including") gives part of the
    set."""
    for paragraph in prose.paragraphs:
        text = paragraph.plain
        for pattern in _SENTENCE_VALUES:
            for match in pattern.finditer(text):
                values = re.findall(_WORD, re.sub(r"\b(?:and|or)\b", ",", match.group("values")))
                if len(set(values)) < 3:
                    continue
                name = match.group("field")
                if name[1:].islower():
                    name = name.lower()  # a sentence's first word: "Statuses are ..."
                if name.lower() in _NOT_FIELD or name.lower() in ("values", "options", "these"):
                    continue
                start = text.rfind(". ", 0, match.start()) + 1
                stop = text.find(". ", match.end())
                sentence = text[start : stop if stop >= 0 else len(text)]
                partial = bool(_PARTIAL.search(sentence) or _CONDITION.search(sentence))
                line = paragraph.line + text[: match.start("values")].count("\n")
                owner = match.groupdict().get("owner") or ""
                yield ProseSet(path, line, _values_of(values), SENTENCE_FORM, paragraph.heading,
                               _singular(name), sentence, not partial,
                               owner=_singular(owner.lower()))  # fmt: skip


# Values in a field's running text: "Values are `a`, `b`, and `c`", "Allowed values: `x`, `y`",
# "MUST be `a` or `b`", "one of `queued`, `running` or `done`" (the last in a table cell: a
# paragraph's is the "one-of" form).
_TEXT_LEAD = re.compile(
    r"(?:\b(?:(?:allowed|possible|valid|supported|accepted|permitted)\s+)?values?\s*(?:are|is|include|:)"
    r"|\b(?:must|shall|should|can|may|will)\s+(?:only\s+)?(?:be|take)\b(?:\s+(?:either|one\s+of))?"
    r"|(?P<one>\bone\s+of\b))\s*:?\s*",
    re.IGNORECASE,
)
_TEXT_VALUES = re.compile(r"(?:`[^`\n]+`[\s,]*(?:or\s+|and\s+|/\s*|\|\s*)?){2,}")
# A condition makes "MUST be `done` or `failed`" the values of some moments, not the field's.
_CONDITION = re.compile(r"\b(?:when|if|once|after|before|until|unless|while)\b", re.IGNORECASE)
# A list item or paragraph that leads with the field it describes: "- `status` (string): ...",
# "**`mode`** — ...", "`priority`: ...".
_FIELD_LEAD = re.compile(
    r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__)?`?([A-Za-z_][\w.-]*)`?(?:\*\*|__)?"
    r"\s*(?:\([^()]*\)\s*)?(?::|[-\u2014\u2013]\s)"
)


def _text_values(text: str, cell: bool) -> Iterator[tuple[tuple[str, ...], int, bool]]:
    """The value lists of a field's running text: the values, where the lead starts, and
    whether the text gives them as the field's whole set."""
    for match in _TEXT_LEAD.finditer(text):
        if match.group("one") and not cell:
            continue  # a paragraph's "one of" is read as such (`_ONE_OF`)
        listed = _TEXT_VALUES.match(text, match.end())
        if listed is None:
            continue
        spans = _CODE.findall(listed.group(0))
        if len(spans) < 2 or not all(_is_value(v) for v in spans) or len(set(spans)) < 2:
            continue
        start = text.rfind(".", 0, match.start()) + 1
        stop = text.find(". ", listed.end())
        sentence = text[start : stop if stop >= 0 else len(text)]
        partial = bool(_PARTIAL.search(sentence) or _CONDITION.search(sentence))
        yield _values_of(spans), match.start(), not partial


def _text_sets(path: str, prose: ProseDocument) -> Iterator[ProseSet]:
    """Values in the running text of a field: a table row's cells whose first cell names the
    field, a list item (or paragraph) that leads with it or names it before the values."""
    for table in prose.tables:
        for row in table.rows:
            if len(row) < 2:
                continue
            name = row[0].text.strip().strip("*_").strip().strip("`").strip()
            if not re.fullmatch(r"[A-Za-z_][\w.-]*", name):
                continue
            for cell in row[1:]:
                if cell.text.count("`") < 4:
                    continue
                for values, _, complete in _text_values(cell.text, True):
                    yield ProseSet(
                        path,
                        cell.line,
                        values,
                        "values-text",
                        table.heading,
                        name.rsplit(".", 1)[-1],
                        cell.text,
                        complete,
                    )
    for paragraph in prose.paragraphs:
        text = paragraph.text
        if text.count("`") < 4:
            continue
        lead = _FIELD_LEAD.match(text)
        for values, at, complete in _text_values(text, False):
            if lead is not None and lead.group(1) not in values:
                field_name: str | None = lead.group(1)
            else:
                field_name = _field_before(text, at)
                # the field in a sentence of its own, not a condition's: a set in passing
                complete = False
            if field_name is None or field_name in values:
                continue
            yield ProseSet(
                path,
                paragraph.line + text[:at].count("\n"),
                values,
                "values-text",
                paragraph.heading,
                field_name.rsplit(".", 1)[-1],
                text,
                complete,
            )


# A lead-in that contrasts its list with another set of values: the list is the other's
# ("Tabular Data supports four types that overlap with Table Schema types:").
_CONTRAST_LEAD = re.compile(
    r"\b(?:overlaps?|overlapping)\s+with\b",
    re.IGNORECASE,
)
# An item that says its value is not one of something's: "This type is not supported in X".
_NOT_IN = re.compile(
    r"\b(?:is|are)\s+not\s+(?:supported|available|allowed|defined|valid)\s+(?:in|by)\s+"
    r"(?:the\s+)?([A-Z][\w-]*(?:\s+[A-Z]?[\w-]+){0,2})"
    r"|\bdoes\s+not\s+exist\s+in\s+(?:the\s+)?([A-Z][\w-]*(?:\s+[A-Z]?[\w-]+){0,2})",
)


def _contrasted(intro: str, items: list[str]) -> bool:
    """Whether a list is another format's values set against a field's (issue 45, batch 5): its
    lead-in sets it against something ("types that overlap with Table Schema's"), or an item
    says its value is not supported in what the lead-in names ("This type is not supported in
    Table Schema" under "... written as in Table Schema:"). Such a list documents the other
    format; a value only it has is no value the field lacks."""
    last = re.split(r"(?<=[.!?])\s+", intro.strip())[-1] if intro.strip() else ""
    if _CONTRAST_LEAD.search(last):
        return True
    for text in items:
        for match in _NOT_IN.finditer(text):
            named = (match.group(1) or match.group(2) or "").rstrip(".")
            words = named.split()
            # "Table Schema", then "Table": the name as the intro writes it (a proper name),
            # shortened past the words after it
            while words and " ".join(words) not in intro:
                words.pop()
            if words and len(" ".join(words)) > 3:
                return True
    return False


# A paragraph that interrupts a list without ending it: "NOTE:", "**Note**", "Example 2:".
_ASIDE = re.compile(r"^[*_]*(?:note|example|e\.g\.)\b[\w ]*[*_]*\s*[:.\-\u2014]", re.IGNORECASE)


def _heading_field(heading: Heading | None) -> str | None:
    """ "Kinds" or "Run statuses" -> "kind", "status": a heading that is a plural noun."""
    if heading is None:
        return None
    words = heading.text.strip("`").split()
    if not words or len(words) > 3:
        return None
    last = words[-1].lower()
    if last.endswith("statuses"):
        return "status"
    return last[:-1] if last.endswith("s") and last[:-1].isalpha() else None


_PLAIN_UNION = re.compile(
    rf"""^\s*["']?(?P<field>[A-Za-z_]\w*)["']?\s*:\s*(?P<values>{VALUE}(?:\s*\|\s*{VALUE})+)\s*,?\s*(?:#.*|//.*)?$""",
    re.MULTILINE,
)


def _fence_sets(path: str, prose: ProseDocument) -> Iterator[ProseSet]:
    for fence in prose.fences:
        if fence.language in {"yaml", "yml", "json", "jsonc"}:
            # A shape sketch: `status: queued | running | done`.
            for match in _PLAIN_UNION.finditer(fence.content):
                values = [v.strip() for v in match.group("values").split("|")]
                line = fence.line + 1 + fence.content[: match.start()].count("\n")
                yield ProseSet(
                    path,
                    line,
                    _values_of(values),
                    "fence",
                    fence.heading,
                    match.group("field"),
                    match.group(0),
                    True,
                )
            continue
        if fence.language not in {"ts", "typescript", "js", "javascript", "tsx"}:
            continue
        for match in _TS_UNION.finditer(fence.content):
            values = re.findall(r"""['"]([^'"\n]+)['"]""", match.group("values"))
            if len(values) >= 2 and all(_is_value(v) for v in values):
                line = fence.line + 1 + fence.content[: match.start()].count("\n")
                yield ProseSet(
                    path,
                    line,
                    _values_of(values),
                    "fence",
                    fence.heading,
                    match.group("field"),
                    fence.content[max(0, match.start() - 200) : match.end()],
                    True,
                )


def _number(text: str) -> int:
    return int(text) if text.isdigit() else NUMBER_WORDS[text.lower()]


def counted_claims(document: Document) -> Iterator[CountedClaim]:
    prose = document.prose
    if prose is None:
        return
    for paragraph in prose.paragraphs:
        for match in _COUNTED.finditer(paragraph.text):
            if _INSTANCES.search(paragraph.text[max(0, match.start() - 40) : match.start()]):
                continue  # how many a message carries, not how many values a field has
            between = _CODE.findall(match.group("between"))
            noun = match.group("noun").lower()
            subject = (
                noun[:-3] + "y"
                if noun.endswith("ies")
                else noun.rstrip("s")
                if noun != "statuses"
                else "status"
            )
            line = paragraph.line + paragraph.text[: match.start()].count("\n")
            plain_words = tuple(
                w.lower() for w in _CODE.sub(" ", match.group("between")).split() if w.isalpha()
            )
            yield CountedClaim(
                document.path,
                line,
                _number(match.group("number")),
                subject,
                between[-1].strip() if between else None,
                _sentence(paragraph.text, match.start()),
                paragraph.heading,
                plain_words,
                match.group("of").strip("`").lower() if match.group("of") else None,
            )


def _sentence(text: str, at: int) -> str:
    flat_start = max(text.rfind(". ", 0, at) + 2, 0) if text.rfind(". ", 0, at) >= 0 else 0
    end = text.find(". ", at)
    sentence = " ".join(text[flat_start : end + 1 if end >= 0 else len(text)].split())
    return sentence if len(sentence) <= 200 else sentence[:197].rsplit(" ", 1)[0] + " ..."


# --- the schema side ------------------------------------------------------------------------------


# What a walk of a schema does not enter: values (an enum's, an example's: where their key is a
# keyword, ``keyword_positions``), and conditions (`if` and `not` subschemas are not the values a
# field may take).
_CONDITIONS = frozenset({"if", "not"})


def _schema_member(position: Position, key: object, api: DocumentKind) -> Position | None:
    """The position of member ``key`` of an object at ``position`` for a walk of schemas, or
    None where the walk does not enter (data, a condition)."""
    place = member_position(position, key, api)
    if place is Position.DATA or (position is Position.SCHEMA and key in _CONDITIONS):
        return None
    return place


def schema_names(corpus: Context) -> dict[str, list[Site]]:
    """The named schemas of the corpus (a bundle or copy of other corpus documents aside), by
    lower-case name: a schema file's name, a ``title`` that is an identifier, a ``$defs``,
    ``definitions`` or ``components/schemas`` key. Built once a run: what binds prose value
    sets (:class:`Binder`) and field claims (``speclint.analyses.prose.type_claims``) to a schema it
    names."""
    found: dict[str, list[Site]] | None = corpus.memo.get("enumerations.schema_names")
    if found is None:
        found = {}
        derived = corpus.derived
        for document in corpus.of_kind(
            DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI
        ):
            if document.path in derived:
                continue
            _named_in(document, document.data, "", found, root_position(document.kind))
            if document.kind is DocumentKind.SCHEMA:
                stem = (
                    document.path.rsplit("/", 1)[-1].removesuffix(".json").removesuffix(".schema")
                )
                found.setdefault(stem.lower(), []).append(Site(document, "", document.data))
        corpus.memo["enumerations.schema_names"] = found
    return found


def _named_in(
    document: Document, node: Any, pointer: str, found: dict[str, list[Site]], position: Position
) -> None:
    if isinstance(node, dict):
        if position in (Position.SCHEMA, Position.API, Position.COMPONENTS):  # keys are keywords
            title = node.get("title")
            if isinstance(title, str) and re.fullmatch(r"[A-Za-z_][\w-]*", title):
                found.setdefault(title.lower(), []).append(Site(document, pointer, node))
            for key in ("$defs", "definitions", "schemas"):
                holder = node.get(key)
                if isinstance(holder, dict):
                    for name, child in holder.items():
                        if isinstance(child, dict):
                            at = join_pointer(join_pointer(pointer, key), name)
                            found.setdefault(name.lower(), []).append(Site(document, at, child))
        for key, child in node.items():
            place = _schema_member(position, key, document.kind)
            if place is not None:
                _named_in(document, child, join_pointer(pointer, key), found, place)
    elif isinstance(node, list):
        for index, child in enumerate(node):
            _named_in(document, child, join_pointer(pointer, index), found, item_position(position))


def may_describe(corpus: Context, page: str, schema: str) -> bool:
    """Whether prose on ``page`` may describe the schema file ``schema``: of one version line
    (the 3.2 pages do not describe the 3.0 schema), and not of two different Helm charts (each
    chart's README documents its own values)."""
    return corpus.versions.comparable(page, schema) and same_chart(corpus, page, schema)


@dataclass
class SchemaIndex:
    """Every enumerated property in the corpus, by property name, and the named schemas
    (:func:`schema_names`)."""

    corpus: Context
    by_field: dict[str, list[tuple[Site, ValueSet]]] = field(default_factory=dict)
    named: dict[str, list[Site]] = field(default_factory=dict)  # lower-case name -> schemas
    # (path, pointer) of a property that fixes one branch of a union to one value: the
    # branch's tag, not a vocabulary of its own (the union's entry in by_field is).
    tags: set[tuple[str, str]] = field(default_factory=set)
    _groups: dict[str, list[EnumGroup]] = field(default_factory=dict, repr=False)
    _at: dict[str, dict[tuple[str, str], int]] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, corpus: Context) -> SchemaIndex:
        index = cls(corpus)
        # A bundle or copy of other corpus documents (``speclint.analyses.repository.provenance``) holds
        # its sources' enums again: the source is bound, never its copy (issue 45, item 3).
        derived = corpus.derived
        index.named = schema_names(corpus)
        for document in corpus.of_kind(
            DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI
        ):
            if document.path not in derived:
                index._walk(document, document.data, "", root_position(document.kind))
        # Variants written as separate schemas (one per `linkType`, each `enum: [START]`,
        # `[END]`, ...) and joined by no union: a field that several schemas fix to one value
        # each, and to different values, is tagging variants; those one-value sites are tags.
        for sites in index.by_field.values():
            single = [(site, v.values[0]) for site, v in sites if len(v.values) == 1]
            if len({str(value) for _, value in single}) >= 2:
                index.tags.update((site.document.path, site.pointer) for site, _ in single)
        return index

    def groups(self, name: str) -> list[EnumGroup]:
        """The enumerated properties named ``name``, as groups of alike ones (memoised), in the
        order of their first members."""
        found = self._groups.get(name)
        if found is None:
            found = self._groups[name] = self.grouped(
                name, list(enumerate(self.by_field.get(name, [])))
            )
        return found

    def grouped(
        self, name: str, entries: list[tuple[int, tuple[Site, ValueSet]]]
    ) -> list[EnumGroup]:
        """``entries`` of ``by_field[name]`` (with their positions there) as groups of alike
        ones; a property listed twice (a schema found by its title and by its file name) once."""
        alike: dict[tuple[Any, ...], list[tuple[int, Site, ValueSet]]] = {}
        seen: set[tuple[str, str]] = set()
        for order, (site, values) in entries:
            here = (site.document.path, site.pointer)
            if here in seen:
                continue
            seen.add(here)
            alike.setdefault(self._alike(site, values), []).append((order, site, values))
        return [EnumGroup(name, tuple(members)) for members in alike.values()]

    def _alike(self, site: Site, values: ValueSet) -> tuple[Any, ...]:
        """What a comparison with a prose set reads of an enumerated property besides its
        place: two properties with the same key are compared alike."""
        head, _, last = site.pointer.rpartition("/")
        at_property = head.endswith("/properties") or head == "/properties"
        return (
            values.values,
            values.keyword,
            values.open,
            self.corpus.versions.of(site.document.path),
            chart_of(self.corpus, site.document.path),
            (site.document.path, site.pointer) in self.tags,
            _conditional(site.pointer),
            site.document.kind,
            # the field a message names: a property's own name, else the last token
            None if at_property else last,
        )

    def position(self, name: str, path: str, pointer: str) -> int | None:
        """Where the property at ``path#pointer`` is in ``by_field[name]``, or None."""
        at = self._at.get(name)
        if at is None:
            at = self._at[name] = {}
            for order, (site, _) in enumerate(self.by_field.get(name, [])):
                at.setdefault((site.document.path, site.pointer), order)
        return at.get((path, pointer))

    def _walk(self, document: Document, node: Any, pointer: str, position: Position) -> None:
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict) and position is not Position.SCHEMA_NAMES:
                for name, child in properties.items():
                    at = join_pointer(join_pointer(pointer, "properties"), name)
                    site = Site(document, at, child)
                    values = value_set(self.corpus, site)
                    if (
                        values is not None
                        and values.values
                        and all(isinstance(v, str) for v in values.values)
                    ):
                        self.by_field.setdefault(name, []).append((site, values))
            for keyword in ("oneOf", "anyOf"):
                if position is not Position.SCHEMA_NAMES:
                    self._union(document, node, pointer, keyword)
            for key, child in node.items():
                place = _schema_member(position, key, document.kind)
                if place is not None:
                    self._walk(document, child, join_pointer(pointer, key), place)
        elif isinstance(node, list):
            for index, child in enumerate(node):
                self._walk(document, child, join_pointer(pointer, index), item_position(position))

    def _union(self, document: Document, node: dict[str, Any], pointer: str, keyword: str) -> None:
        """A ``oneOf``/``anyOf`` whose every branch fixes a property to one value (``kind:
        {enum: [TABLE]}`` in one, ``[TASK]`` in the other) lists that property's values as
        the union of the branches' tags: indexed as one set at the union, so prose listing
        `TABLE` | `TASK` binds to it, not to each branch (which would each "lack" the other)."""
        branches = node.get(keyword)
        if not isinstance(branches, list) or len(branches) < 2:
            return
        at = join_pointer(pointer, keyword)
        tags: list[dict[str, tuple[Site, Any]]] = []
        for index, branch in enumerate(branches):
            site = follow(self.corpus, Site(document, join_pointer(at, index), branch))
            properties = site.node.get("properties") if isinstance(site.node, dict) else None
            if not isinstance(properties, dict):
                return
            found: dict[str, tuple[Site, Any]] = {}
            for name, child in properties.items():
                tag = Site(
                    site.document,
                    join_pointer(join_pointer(site.pointer, "properties"), name),
                    child,
                )
                values = value_set(self.corpus, tag)
                if values is not None and len(values.values) == 1 and not values.open:
                    found[name] = (tag, values.values[0])
            tags.append(found)
        holder = Site(document, pointer, node)
        for name in sorted(set.intersection(*(set(t) for t in tags))):
            listed = [t[name][1] for t in tags]
            if len(set(map(str, listed))) < len(listed) or not all(
                isinstance(v, str) for v in listed
            ):
                continue  # two branches with one tag: not a discriminated union
            self.by_field.setdefault(name, []).append(
                (holder, ValueSet(tuple(listed), holder, keyword, False))
            )
            self.tags.update((t[name][0].document.path, t[name][0].pointer) for t in tags)


def overlap(prose: tuple[str, ...], schema: tuple[Any, ...], complete: bool = True) -> bool:
    """Same field, same values? Two shared values and half the union, or one set inside the
    other (a value added on one side is exactly the drift to find). A set the text does not
    give as complete ("flips to `a` / `b` / `c`") is a few of the field's values: two shared
    values that are most of it suffice."""
    a, b = set(prose), {as_written(v) for v in schema}
    common = a & b
    if not common:
        return False
    if a <= b or b <= a:
        return len(a) >= 2 and len(b) >= 1
    if not complete:
        return len(common) >= 2 and len(common) / len(a) > 0.5
    return len(common) >= 2 and len(common) / len(a | b) >= 0.5


def _owned_overlap(prose: ProseSet, group: EnumGroup) -> bool:
    """A sentence's list of what it names ("threads by status (a, b, c)") against the enum of
    that field in a schema of that name (`ThreadSearchRequest`, `ThreadStatus`): the names say
    which enum it is, so two shared values and half the list bind it, however far the values
    drifted (two renamed, one left out)."""
    if not prose.owner or len(prose.owner) < 3:
        return False
    names = {
        segment.casefold()
        for site in (group.site, group.values.holder)
        for segment in (*site.pointer.split("/"), site.document.path.rsplit("/", 1)[-1])
    }
    if not any(name.startswith(prose.owner) for name in names):
        return False
    common = set(prose.values) & {as_written(v) for v in group.values.values}
    return len(common) >= 2 and len(common) * 2 >= len(prose.values)


class Binder:
    """Binds prose sets to schema enumerations (see the module docstring for the order).

    A prose set binds to groups of alike enums (:class:`EnumGroup`), each weighed once: the
    work is the prose sets times the distinct enums of their field, not times every schema."""

    def __init__(self, corpus: Context) -> None:
        self.corpus = corpus
        self._proposals: dict[str, bool] = {}
        self._memo: dict[tuple[str, ...], list[EnumGroup]] = {}

    @cached_property
    def index(self) -> SchemaIndex:
        return SchemaIndex.build(self.corpus)

    def bindings(self, prose: ProseSet) -> list[Binding]:
        """One binding per enum bound (every member of every group), in the order the evidence
        finds them."""
        grouped = self.grouped(prose)
        members = sorted(
            (
                ((bound.rank, order, n), site, values)
                for n, bound in enumerate(grouped)
                for order, site, values in bound.group.members
            ),
            key=lambda member: member[0],
        )
        return [
            Binding(prose, site, values, grouped[n].confidence, grouped[n].evidence)
            for (_, _, n), site, values in members
        ]

    def grouped(self, prose: ProseSet) -> list[GroupBinding]:
        configured = self._configured(prose)
        if configured is not None:
            return configured
        explicit = [b for b in self._explicit(prose) if self._comparable(prose, b.group.site)]
        if explicit:
            return explicit
        if prose.field is not None and self._owner(prose) is not None:
            # "- **SelectedFulfillmentOption**: `type` (`a|b`)": the text names its schema,
            # which has no such enumerated field; another schema's `type` is not described.
            return []
        if prose.field is None or self._is_proposal(prose.path):
            # A proposal (an RFC, a SEP) states what it changes, or changed: its value sets
            # bind to a schema only when it says which one (the explicit and configured
            # bindings above), never by a field name alone.
            return []
        # One evidence for every group: a list is weighed against each distinct enum.
        evidence = f"the text names `{prose.field}`, values overlap"
        # A section (else a page) that names its schema files ("Defined in
        # `class.property.schema.json`") describes those: a field of that name elsewhere is
        # another schema's (issue 45, item 7).
        own = set(prose.named_files) & self._schema_files
        found = [
            GroupBinding(prose, group, "medium", evidence)
            for group in self.by_name(prose.field)
            # the 3.2 pages do not describe the 3.0 schema, nor one chart's README another's
            if self._comparable(prose, group.site)
            and (
                not own
                or any(site.document.path.rsplit("/", 1)[-1] in own for _, site, _ in group.members)
            )
            and (
                overlap(prose.values, group.values.values, prose.complete)
                or _owned_overlap(prose, group)
            )
        ]
        if prose.complete:
            return found
        # A few values named in passing ("flips to `join` / `invite` / `knock`") where several
        # schemas have a field of that name (a deprecated endpoint's older enum beside the
        # event's): the text speaks of those whose values hold all it names, when there are
        # such, not of the others that merely share the name. A complete list claims the
        # field's vocabulary, and disagrees with every schema of that name that lacks a value.
        agreeing = [
            b for b in found if set(prose.values) <= {as_written(v) for v in b.group.values.values}
        ]
        return agreeing or found

    def by_name(self, name: str) -> list[EnumGroup]:
        """The groups of ``name`` a field name alone may bind to (and a shape, which says less:
        ``enum-drift``'s projections)."""
        found = self._memo.get(("name", name))
        if found is None:
            found = self._memo["name", name] = [
                group
                for group in self.index.groups(name)
                # One branch's tag: the union's entry binds instead.
                if (group.site.document.path, group.site.pointer) not in self.index.tags
                # A `const` is the tag of one branch of a union (MCP's elicitation `mode`:
                # `form` in one branch, `url` in the other), not the field's vocabulary: a
                # name alone does not bind a list of values to it.
                and group.values.keyword != "const"
                # A `then` narrows the field for some instances: not its vocabulary.
                and not _conditional(group.site.pointer)
            ]
        return found

    @cached_property
    def _schema_files(self) -> set[str]:
        """The file names of the corpus's schema files."""
        return {
            document.path.rsplit("/", 1)[-1]
            for document in self.corpus.of_kind(DocumentKind.SCHEMA)
        }

    def _is_proposal(self, path: str) -> bool:
        """An RFC (its header) or a page in a folder of proposals (``rfcs/rfc.orders.md``,
        whose header is a few bold lines)."""
        if path not in self._proposals:
            document = self.corpus.documents.get(path)
            self._proposals[path] = document is not None and is_design_page(document)
        return self._proposals[path]

    def _comparable(self, prose: ProseSet, site: Site) -> bool:
        return may_describe(self.corpus, prose.path, site.document.path)

    def _configured(self, prose: ProseSet) -> list[GroupBinding] | None:
        keys = [f"{prose.path}#{prose.anchor}@{prose.field}", f"{prose.path}#{prose.anchor}"]
        for key in keys:
            targets = self.corpus.config.bindings.get(key)
            if targets is None:
                continue
            found = []
            for rank, target in enumerate(targets):
                group = self._target(target)
                if group is not None:
                    found.append(
                        GroupBinding(
                            prose,
                            group,
                            "high",
                            f"[bindings] `{key}` = `{target}`",
                            rank,
                            "configuration",
                        )
                    )
            return found
        return None

    def _target(self, target: str) -> EnumGroup | None:
        """The configured ``file#pointer`` as a group of its own (made once, so that the lists
        bound to it compare with one group)."""
        memo = self._memo.get(("target", target))
        if memo is None:
            site = self._site(target)
            values = value_set(self.corpus, site) if site else None
            memo = self._memo["target", target] = (
                [EnumGroup(target, ((0, site, values),))]
                if site is not None and values is not None
                else []
            )
        return memo[0] if memo else None

    def _site(self, target: str) -> Site | None:
        path, _, pointer = target.partition("#")
        document = self.corpus.documents.get(path)
        if document is None or not document.usable:
            return None
        node = resolve(document, pointer)
        return Site(document, pointer, node) if node is not None else None

    def _explicit(self, prose: ProseSet) -> list[GroupBinding]:
        references = [m.group(1).strip() for m in _CODE.finditer(prose.context)]
        found: list[GroupBinding] = []
        for rank, reference in enumerate(references):
            match = _TYPE_FIELD.match(reference)
            if match:
                owner, name = match.groups()
                evidence = f"the text names `{reference}`"
                for group in self._owned(owner.lower(), name):
                    if overlap(prose.values, group.values.values, prose.complete):
                        found.append(
                            GroupBinding(prose, group, "high", evidence, rank, "reference")
                        )
        if found or prose.field is None:
            return found
        owner = self._owner(prose)
        if owner is not None and not self._is_proposal(prose.path):
            # (On a proposal's page the item states the change: it names its schema, which
            # keeps it from binding to another's, and binds to none.)
            evidence = f"the text names `{owner}` and the field `{prose.field}`"
            return [
                GroupBinding(prose, group, "high", evidence, 0, "reference")
                for group in self._owned(owner.lower(), prose.field)
                if overlap(prose.values, group.values.values, prose.complete)
            ]
        for rank, reference in enumerate(references):
            file_match = _SCHEMA_FILE.search(reference)
            if not file_match:
                continue
            base = file_match.group(1).rsplit("/", 1)[-1]
            evidence = f"the text names `{reference}` and the field `{prose.field}`"
            for group in self._in_file(base, prose.field):
                if overlap(prose.values, group.values.values, prose.complete):
                    found.append(GroupBinding(prose, group, "high", evidence, rank, "reference"))
        return found

    def _owner(self, prose: ProseSet) -> str | None:
        """The schema a list item or line leads with (``- **Selection**: `kind` (...)``), when
        the corpus defines a schema of that name."""
        match = _OWNER_LEAD.match(prose.context)
        if match is None or match.group(1).lower() not in self.index.named:
            return None
        return match.group(1)

    def _owned(self, owner: str, name: str) -> list[EnumGroup]:
        """The property ``name`` of each schema named ``owner`` (`` `RunSnapshot.status` ``), as
        groups: in the order of the schemas so named."""
        found = self._memo.get(("owned", owner, name))
        if found is None:
            entries = self.index.by_field.get(name, [])
            chosen: list[tuple[int, tuple[Site, ValueSet]]] = []
            for schema in self.index.named.get(owner, []):
                pointer = join_pointer(join_pointer(schema.pointer, "properties"), name)
                at = self.index.position(name, schema.document.path, pointer)
                if at is not None:
                    chosen.append((len(chosen), entries[at]))
            found = self._memo["owned", owner, name] = self.index.grouped(name, chosen)
        return found

    def _in_file(self, base: str, name: str) -> list[EnumGroup]:
        """The enumerated properties ``name`` of the schema files named ``base``, as groups."""
        found = self._memo.get(("file", base, name))
        if found is None:
            chosen = [
                (order, (site, values))
                for order, (site, values) in enumerate(self.index.by_field.get(name, []))
                if site.document.kind is DocumentKind.SCHEMA
                and site.document.path.rsplit("/", 1)[-1] == base
                # one branch's tag: the union's entry binds instead
                and (site.document.path, site.pointer) not in self.index.tags
            ]
            found = self._memo["file", base, name] = self.index.grouped(name, chosen)
        return found


def _conditional(pointer: str) -> bool:
    """Whether the site is inside a ``then`` or ``else`` (2020-12 §10.2.2.1): an enum there
    narrows the field for the instances its ``if`` selects."""
    tokens = pointer.split("/")
    return any(
        token in ("then", "else") and tokens[n - 1] not in ("properties", "patternProperties")
        for n, token in enumerate(tokens)
        if n
    )


def page_value_lists(document: Document) -> tuple[list[ProseSet], bool]:
    """What a rule binding the prose's value lists reads of one page (its extract,
    speclint.analyses.units): the lists, and whether the page is a proposal (which binds only
    explicitly)."""
    return prose_sets(document), is_rfc(document)


def all_prose_sets(corpus: Context) -> list[ProseSet]:
    found: list[ProseSet] = []
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        found += prose_sets(document)
    return sorted(found, key=lambda s: (s.path, s.line, s.values))
