"""The types and requiredness the prose states of fields, and the schema objects (or proto
messages) those field references describe (issue 46, item 8).

A *claim* is one field of a field reference that says what the field is:

- a table with a name column (``Field``, ``Name``, ``Property``, ``Parameter``, ``Attribute``,
  ``Key``, ``Member``) and a ``Type`` column or a ``Required`` (``Mandatory``, ``Optional``)
  column; a table with an ``In`` (``Location``) column lists an operation's parameters, not an
  object's members, and is none;
- a list item leading with the field, as code or bold, and a parenthesis after it:
  ``- **`cpuSet`** *(array of objects, OPTIONAL)*``, ``- `url` (string, REQUIRED): ...``;
- "this field is REQUIRED" (or OPTIONAL) in the item's or the row's description;
- a member of an object listing in a code block (``speclint.parsing.listings``: a
  pseudo-schema, a Python model class, a TypeScript interface), bound only by the listing's
  name.

The items of one list under one heading (and the rows of one table) are a *group*, bound as a
whole to the schema object they document, reusing what binds the prose's value sets
(``speclint.analyses.prose.enumerations``: the named schemas, the version and chart limits; a
proposal, or a page of a superseded folder, binds nothing) and the schema index of
``required-undeclared``
(``speclint.analyses.schemas.declarations``: where each member is declared, in-place parents,
``allOf`` branches, ``$ref`` targets):

1. the heading, or the sentence before the table, names a schema (a ``title``, a ``$defs``,
   ``definitions`` or ``components/schemas`` key, a schema file's name) that declares at least
   half the group's fields: ``high``;
2. else the schema objects that declare the most of the group's fields, at least two and more
   than half: ``medium``; several alike ones are all kept, and a claim is judged only where
   every one of them contradicts it.

Items nested under a field's item (``- **`linux`** (object)`` and its sub-items) document that
field's schema (its ``items`` for an array). A proposal (an RFC, a design folder) states a
change and binds nothing.

A proto message binds a group the same way, by its fields' JSON or proto names, when no schema
object does: its ``[(google.api.field_behavior) = REQUIRED]`` and ``OPTIONAL`` are the
requiredness there.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from speclint.analyses.api.api_definitions import superseded_page
from speclint.analyses.api.operations import TEMPLATE, api_operations
from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import own_protos
from speclint.analyses.prose.enumerations import may_describe, schema_names
from speclint.analyses.prose.rfcs import is_design_page
from speclint.analyses.schemas.declarations import IN_PLACE_LISTS, Node, SchemaIndex, Unknown
from speclint.analyses.schemas.schema_objects import types_of
from speclint.analyses.schemas.shapes import Site, follow
from speclint.model.corpus import Document
from speclint.parsing.dialects import modern
from speclint.parsing.keyword_positions import Position, item_position, member_position
from speclint.parsing.kinds import (
    DocumentKind,
    is_changelog,
)
from speclint.parsing.listings import Listing, listings
from speclint.parsing.prose import Heading, ListItem, Paragraph, Table
from speclint.parsing.protobuf import ProtoField, ProtoFile, ProtoMessage
from speclint.parsing.structured import join_pointer, json_type

_MAX_CANDIDATES = 12  # more alike schema objects than this fit a group: too common to bind
_MAX_VIEW = 400  # schema objects one object's view may visit

_NAME_HEADERS = frozenset(
    {"field", "name", "property", "parameter", "attribute", "key", "member", "field name",
     "property name", "parameter name", "attribute name", "fields", "properties"}
)  # fmt: skip
_TYPE_HEADERS = frozenset({"type", "data type", "datatype", "value type", "schema"})
_REQUIRED_HEADERS = frozenset({"required", "required?", "mandatory", "req", "req."})
_OPTIONAL_HEADERS = frozenset({"optional", "optional?"})
_PLACE_HEADERS = frozenset({"in", "location", "parameter type", "param type"})
_YES = frozenset({"yes", "y", "true", "required", "✓", "✔", "✔️", "x", "mandatory", "must"})
_NO = frozenset({"no", "n", "false", "optional"})

_FIELD_NAME = re.compile(r"^[A-Za-z_$@][\w$@-]*$")
# `- **`cpuSet`** *(array of objects, OPTIONAL)*`, `- `url` (string, REQUIRED): ...`, and an
# index of keys linking each to its section: `- [`contact`](#contact) (object)`
_ITEM = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?"
    r"(?P<lead>\*\*`(?P<a>[^`\s]+)`\*\*|`(?P<b>[^`\s]+)`|\*\*(?P<c>[A-Za-z_$@][\w$@-]*)\*\*"
    r"|__`(?P<d>[^`\s]+)`__|\[`(?P<e>[^`\s]+)`\]\(#[^()\s]*\)"
    r"|\[(?P<f>[A-Za-z_][\w-]*)\]\([^()\s]*\)(?=\s*[*_]?\((?:[Rr]equired|REQUIRED|[Oo]ptional|OPTIONAL)\)))"
)
_PAREN = re.compile(r"^\s*[:\-–—]?\s*[*_]?\((?P<inner>[^()\n]{1,80})\)")
# A type between two dashes after the field: `- **nodes** - array - List of nodes` (a type of
# at most three words, which ``parse_type`` must read as one).
_DASHED = re.compile(r"^\s+[-–—]\s+(?P<type>[\w\[\]<>.]+(?: [\w\[\]<>.]+){0,2})\s+[-–—]\s")
_SAYS = re.compile(
    r"\b(?:[Tt]his|[Tt]he)\s+(?:field|property|member|parameter|attribute|key)\s+is\s+"
    r"(?P<word>REQUIRED|OPTIONAL|required|optional)\b(?!\s+(?:if|when|unless|for|in)\b)"
)
_HTML_HEADING = re.compile(
    r"<h[1-6](?:[^>]*\bid=\"(?P<id>[^\"]{1,120})\")?[^>]*>\s*(?P<text>[^<]{1,80}?)\s*</h[1-6]>",
    re.IGNORECASE,
)
_GENERIC = frozenset(
    {"the", "a", "an", "object", "objects", "schema", "structure", "definition", "fields",
     "properties", "format", "reference", "field"}
)  # fmt: skip
# In a lead-in: a code span, a link's text or a bold name, and "X object" / "X schema".
_LEAD_NAMES = re.compile(
    r"`([A-Za-z_][\w.-]*)`|\[`?([A-Za-z_][\w-]*)`?\]\(|\*\*([A-Za-z_][\w-]*)\*\*"
)
_LEAD_OBJECT = re.compile(r"\b([A-Za-z_][\w-]*) (?:object|schema|message|structure)\b")
_HEADING_KIND = re.compile(r"\b([A-Z][\w-]*) (?:object|class|schema|message|type|record)\b")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_TAGS = re.compile(r"<[^>]+>")

# Type words, generously (issue 46, item 8): each gives the JSON types it allows.
_STRING = frozenset({"string"})
_INTEGER = frozenset({"integer"})
_NUMBER = frozenset({"number", "integer"})
_WIDE_INTEGER = frozenset({"integer", "string"})  # 64-bit integers: ProtoJSON writes strings
_WORDS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("string", "str", "text", "char", "chars"), _STRING),
    **dict.fromkeys(("integer", "int", "int32", "uint32", "uint", "short", "sint32"), _INTEGER),
    **dict.fromkeys(
        ("int64", "uint64", "long", "sint64", "fixed64", "sfixed64", "bigint"), _WIDE_INTEGER
    ),
    **dict.fromkeys(("number", "float", "double", "decimal", "numeric", "float64"), _NUMBER),
    **dict.fromkeys(("boolean", "bool"), frozenset({"boolean"})),
    **dict.fromkeys(("object", "map", "dictionary", "dict", "hash", "struct"), frozenset({"object"})),
    **dict.fromkeys(("array", "list", "sequence", "set", "repeated"), frozenset({"array"})),
    # a timestamp is written as a string or as seconds
    "timestamp": frozenset({"string", "integer", "number"}),
}  # fmt: skip
# Format words: a string, and the `format` the prose names (checked only when the schema names
# another one).
_FORMATS = {
    "uri": "uri", "url": "uri", "uri-reference": "uri", "iri": "uri", "iri-reference": "uri",
    "date-time": "date-time", "datetime": "date-time", "date": "date", "time": "time",
    "email": "email", "uuid": "uuid", "hostname": "hostname", "ipv4": "ipv4", "ipv6": "ipv6",
    "duration": "duration",
}  # fmt: skip
_SAME_FORMAT = {
    "uri-reference": "uri", "iri": "uri", "iri-reference": "uri", "url": "uri",
    "full-date": "date", "full-time": "time",  # RFC 3339's names (OpenAPI docs write them)
}  # fmt: skip
_VAGUE = re.compile(
    r"\b(or|any|mixed|various|null|nullable|either|one of|anyof|oneof|union|same as|see)\b|[|/?]"
)


@dataclass(frozen=True)
class TypeClaim:
    """What a type written in the prose allows: JSON types (None: not said), the ``format`` it
    names, whether it says "enum", the schema it names, and its items' claim for an array."""

    written: str
    types: frozenset[str] | None = None
    format: str | None = None
    enum: bool = False
    named: str | None = None
    items: TypeClaim | None = None


@dataclass(frozen=True)
class Claim:
    path: str
    line: int
    column: int
    name: str
    type: TypeClaim | None
    required: bool | None  # True: REQUIRED, False: OPTIONAL, None: not said
    said: str  # how the requiredness is written ("REQUIRED", "Required column: Yes")


@dataclass
class ClaimGroup:
    path: str
    line: int
    form: str  # "field table", "field list"
    heading: Heading | None
    context: str  # the schema names the heading and the sentence before it give
    claims: list[Claim] = field(default_factory=list)
    parent: Claim | None = None  # the field whose sub-items these are
    parent_group: ClaimGroup | None = None
    operation: tuple[str, str] | None = None  # (method, path) an operation row names
    generated: bool = False  # an API client generator's model page (``_GENERATOR_LAYOUT``)


@dataclass(frozen=True)
class ObjectView:
    """What applies to one object: each member's declaration, and its ``required`` names."""

    root: Node
    declared: dict[str, Site]
    always: dict[str, Site]  # name -> the `required` list that always applies with the object
    maybe: frozenset[str]  # names some branch or condition requires
    complete: bool = True  # every `$ref` on the way was read (no `required` left unseen)


@dataclass
class GroupBinding:
    group: ClaimGroup
    views: list[ObjectView]
    message: tuple[ProtoFile, ProtoMessage] | None
    confidence: str
    evidence: str
    why: str = ""  # why it is not bound to a schema object
    proto_evidence: str = ""


# --- the prose side -------------------------------------------------------------------------------


def _plain(text: str) -> str:
    text = _LINK.sub(r"\1", text)
    text = _TAGS.sub(" ", text)
    return re.sub(r"\s+", " ", text.replace("`", "").replace("*", "").replace("\\", "")).strip()


# The language types of API client generators' model pages (Java, Go, C#), as JSON Schema says
# them: a date-time or a date is a string, a decimal a number.
_LANGUAGE_TYPES = {
    "offsetdatetime": ("string", "date-time"), "localdatetime": ("string", "date-time"),
    "zoneddatetime": ("string", "date-time"), "instant": ("string", "date-time"),
    "time.time": ("string", "date-time"), "localdate": ("string", "date"),
    "bigdecimal": ("number", None),
}  # fmt: skip
# A generator's cell that is a link whose bold text holds brackets: `[**List[Message]**](Message.md)`.
# (A code span's, `` [`map[string, task]`](#task) ``, is a notation of its page's own: not read.)
_BRACKETED_LINK = re.compile(r"^\[(?P<text>\*\*.+\*\*)\]\([^()\s]*\)$")


def parse_type(written: str) -> TypeClaim | None:
    """The claim a type as written makes, or None when it makes none that can be judged (an
    unknown word, a union, ``any``, a nullable form)."""
    linked = _BRACKETED_LINK.match(written.strip())
    source = linked.group("text") if linked else written
    text = html.unescape(_plain(source)).strip(" .,:;")
    text = re.sub(r"^[Pp]ointer to\s+", "", text)  # Go's generator: "Pointer to **string**"
    if text.lower() in _LANGUAGE_TYPES:
        kind, fmt = _LANGUAGE_TYPES[text.lower()]
        return TypeClaim(written, _STRING if kind == "string" else _NUMBER, format=fmt)
    if not text or len(text) > 60:
        return None
    low = text.lower()
    if _VAGUE.search(low):
        return None
    low = re.sub(r"^(?:an?|the)\s+", "", low)
    match = (
        re.fullmatch(r"(?:array|list|set|sequence|repeated)\s*(?:of\s+|<\s*|\[\s*)(.+?)[>\]]?", low)
        or re.fullmatch(r"\[\](.+)", low)
        or re.fullmatch(r"(.+?)\s*\[\]", low)
        or re.fullmatch(r"repeated\s+(.+)", low)
    )
    if match:
        inner_at = low.find(match.group(1))
        inner = text[inner_at : inner_at + len(match.group(1))]
        return TypeClaim(written, frozenset({"array"}), items=_element(inner))
    if re.fullmatch(r"(?:map|dictionary|dict|object|hash)\b.*", low):
        return TypeClaim(written, frozenset({"object"}))
    words = low.split()
    if "enum" in words or "enumeration" in words:
        rest = [w for w in words if w not in ("enum", "enumeration", "(enum)")]
        base = _WORDS.get(rest[0]) if len(rest) == 1 else None
        if len(rest) > 1:
            return None
        return TypeClaim(written, base, enum=True)
    if text == "Date":
        # A generated SDK's language type (JavaScript's `Date`, read from a `date-time` or `date`
        # string): a string, its format the language's to say.
        return TypeClaim(written, _STRING)
    if len(words) == 1:
        word = words[0]
        if word in _WORDS:
            return TypeClaim(written, _WORDS[word])
        if word in _FORMATS:
            return TypeClaim(written, _STRING, format=_FORMATS[word])
        if re.fullmatch(r"[A-Z][A-Za-z0-9_]*", text):
            return TypeClaim(written, named=text)
        return None
    # "string (date-time)", "string, uri", "string date-time"
    parts = [p for p in re.split(r"[\s,()]+", low) if p]
    if len(parts) == 2 and parts[0] == "string" and parts[1] in _FORMATS:
        return TypeClaim(written, _STRING, format=_FORMATS[parts[1]])
    if len(parts) == 2 and parts[0] in _WORDS and parts[1] in ("int32", "int64", "float", "double"):
        return TypeClaim(written, _WORDS[parts[0]])
    return None


def _element(written: str) -> TypeClaim | None:
    """An array's element as written (``objects``, ``strings``, ``Job``)."""
    claim = parse_type(written)
    if claim is None and written.lower().endswith("s"):
        single = written[:-1]
        claim = parse_type(single)
        if claim is not None and claim.named is not None:
            return None  # `Jobs` may be a schema's own name: not guessed
    return claim


def _header_kind(text: str) -> str | None:
    word = _plain(text).lower().strip(" :")
    if word in _NAME_HEADERS:
        return "name"
    if word in _TYPE_HEADERS:
        return "type"
    if word in _REQUIRED_HEADERS:
        return "required"
    if word in _OPTIONAL_HEADERS:
        return "optional"
    if word in _PLACE_HEADERS:
        return "place"
    return None


def _requiredness(cell: str, optional_column: bool) -> bool | None:
    # A footnote mark (`Yes*`, `Yes†`, `Yes [1]`) sends the reader to a condition below the
    # table: the cell says "required when...", not "required".
    bare = re.sub(r"\*\*(.+?)\*\*|__(.+?)__", r"\1\2", cell)
    if re.search(r"[*†‡¹²³]|\[\d+\]|\^", bare):
        return None
    word = _plain(cell).lower().strip(" .")
    if word in _YES:
        return not optional_column
    if word in _NO:
        return optional_column
    return None


def _says(text: str) -> bool | None:
    found = {m.group("word").lower() for m in _SAYS.finditer(text)}
    if len(found) == 1:
        return found.pop() == "required"
    return None


def claim_groups(document: Document) -> list[ClaimGroup]:
    """Every field table and field list of a page that states a type or requiredness."""
    prose = document.prose
    if prose is None:
        return []
    groups: list[ClaimGroup] = []
    for table in prose.tables:
        group = _table_group(document, table)
        if group is not None:
            groups.append(group)
    groups += _list_groups(document, prose.list_items)
    groups += _listing_groups(document)
    for table in prose.tables:
        groups += _operation_rows(document, table)
    return sorted(groups, key=lambda g: g.line)


# A section heading that is a member's name: `## pre_start`, `### `cpu_count``, lower-case
# first (a title-case word, "## Examples", is a section of the page, not a member).
_MEMBER_HEADING = re.compile(r"^`?(?P<name>[a-z_$][\w$-]*)`?$")
_MIN_MEMBER_SECTIONS = 5  # fewer sibling sections are too few to tell which object they document


def section_groups(document: Document) -> list[ClaimGroup]:
    """The sibling sections of a page whose headings are members' names (``## annotations``,
    ``## attach``, ... under ``# Services``): a group of claims that each is a member of the
    object the page documents (form ``member sections``; no type, no requiredness). Bound as
    field references are, by the members the schema objects declare; where a section scope
    (the heading chain's place in a root schema) is known, that is the binding to use
    (``ClaimBinder.bind`` is the one call)."""
    prose = document.prose
    if prose is None:
        return []
    siblings: dict[tuple[tuple[str, ...], int], list[Heading]] = {}
    for heading in prose.headings:
        siblings.setdefault((heading.path[:-1], heading.level), []).append(heading)
    groups: list[ClaimGroup] = []
    for (parents, _), headings in siblings.items():
        named = [(h, _MEMBER_HEADING.match(h.text.strip())) for h in headings]
        members = [(h, m.group("name")) for h, m in named if m is not None]
        if len(members) < _MIN_MEMBER_SECTIONS or len(members) * 4 < len(headings) * 3:
            continue  # a page of other sections, with a few names among them
        parent = next((h for h in prose.headings if h.path == parents), None)
        group = ClaimGroup(document.path, headings[0].line, "member sections", parent,
                           "\n".join(n for t in parents[-1:] for n in heading_name(t)))  # fmt: skip
        for heading, name in members:
            column = document.lines[heading.line - 1].find(name) + 1 or 1
            group.claims.append(Claim(document.path, heading.line, column, name, None, None, ""))
        groups.append(group)
    return groups


# A row of an endpoint table: a method cell, a path cell, and in its description "Requires
# `agent_name`, `input`. Optional: `session_id`, `mode`": the request body's members.
_METHOD_CELL = re.compile(r"(?:GET|POST|PUT|PATCH|DELETE|QUERY)")
_PATH_CELL = re.compile(r"/[\w{}\-./:~]*")
_NAMES = r"(?P<names>`[\w.-]+`(?:\s*\([^()]*\))?(?:\s*(?:,|and|or)\s*`[\w.-]+`(?:\s*\([^()]*\))?)*)"
_ROW_SAYS = (
    (re.compile(rf"\b(?:Requires|Required:)\s+{_NAMES}"), True),
    (re.compile(rf"\bOptional(?:ly)?:?\s+{_NAMES}"), False),
)


def _operation_rows(document: Document, table: Table) -> list[ClaimGroup]:
    """The rows of an endpoint table whose description says which request members are
    required ("Requires `a`, `b`") and which optional ("Optional: `c`")."""
    groups: list[ClaimGroup] = []
    lines = document.lines if table.rows else []
    for row in table.rows:
        texts = [_plain(cell.text) for cell in row]
        method = next((t for t in texts if _METHOD_CELL.fullmatch(t)), None)
        path = next((t for t in texts if _PATH_CELL.fullmatch(t)), None)
        if method is None or path is None:
            continue
        group = ClaimGroup(document.path, row[0].line, "operation row", table.heading, "")
        group.operation = (method, path)
        for cell in row:
            for pattern, required in _ROW_SAYS:
                for match in pattern.finditer(cell.text):
                    for name in re.findall(r"`([\w.-]+)`(?!\s*\()", match.group("names")):
                        said = f"its row says `{_plain(match.group(0))}`"
                        source = lines[cell.line - 1] if cell.line <= len(lines) else ""
                        column = source.find(f"`{name}`") + 1 or 1
                        group.claims.append(
                            Claim(document.path, cell.line, column, name, None, required, said)
                        )
        if group.claims:
            groups.append(group)
    return groups


# The object listings of code blocks (``speclint.parsing.listings``): bound by their name only.
LISTING_FORMS = frozenset({"pseudo-schema", "Python class", "TypeScript interface"})


def _block_start(lines: Sequence[str], line: int, content: str) -> int | None:
    """The line (from 1) of a code block's first content line: a fence's is the one after
    its opening line, an indented block's its own (whichever the model gives)."""
    first = content.split("\n", 1)[0]
    for at in (line, line - 1):
        if 0 <= at < len(lines) and lines[at].strip() == first.strip() and first.strip():
            return at + 1
    return None


def _listing_groups(document: Document) -> list[ClaimGroup]:
    """The object listings of the page's code blocks that state a type or requiredness. A
    pseudo-schema's unmarked members are required only on a page whose pseudo-schemas mark
    some member ``#optional``: the notation then says the others are required."""
    prose = document.prose
    if prose is None or not document.text:
        return []
    lines = document.lines
    read: list[tuple[int, Listing, ClaimGroup]] = []
    for fence in prose.fences:
        if "$" not in fence.content and not re.search(
            r"\b(?:class|interface|type)\s", fence.content
        ):
            continue
        start = _block_start(lines, fence.line, fence.content)
        if start is None:
            continue
        for listing in listings(fence.content):
            group = ClaimGroup(
                document.path, start + listing.offset, listing.form, fence.heading, listing.name
            )
            read.append((start, listing, group))
    marked = any(listing.marks_optional for _, listing, _ in read)
    groups: list[ClaimGroup] = []
    for start, listing, group in read:
        for member in listing.members:
            required = member.required
            if listing.form == "pseudo-schema" and not marked:
                required = None
            type_claim = parse_type(member.type) if member.type else None
            if type_claim is None and required is None:
                continue
            group.claims.append(
                Claim(
                    document.path, start + member.offset, member.column, member.name,
                    type_claim, required, member.said if required is not None else "",
                )
            )  # fmt: skip
        if group.claims:
            groups.append(group)
    return groups


def _naming(document: Document, heading: Heading | None, line: int) -> str:
    """The schema names the text around a table or list gives with some certainty, one a line:
    its heading when that is a name (``## Job``, ``## The `Job` Object``, ``## Mounts``), the
    HTML heading above its own (generated API references write ``<h2 id="tocS_Job">Job</h2>``
    and the table under a "Properties"), with its id's parts, and in the sentence before it a
    code span, a link text, a bold name or "`X` object". A heading that merely contains a name
    ("Task Parameters") names nothing: the parameters are another object."""
    names: list[str] = []
    if heading is not None:
        names += heading_name(heading.text)
        # "## Top level (Query class)", "## The Trip object": a type's name beside its kind
        names += [m.group(1) for m in _HEADING_KIND.finditer(_plain(heading.text))]
    prose = document.prose
    before = [p for p in prose.paragraphs if p.end_line < line] if prose is not None else []
    if before and line - before[-1].end_line <= 2:
        lead = before[-1].text
        names += [next(g for g in m.groups() if g) for m in _LEAD_NAMES.finditer(lead)]
        names += [m.group(1) for m in _LEAD_OBJECT.finditer(_plain(lead))]
    lines = document.lines
    headings = 0
    for row in reversed(lines[max(0, line - 60) : line - 1]):
        headings += row.startswith("#")
        if headings > 1:
            break  # above the table's own heading ("### Properties"), another section
        found = _HTML_HEADING.search(row)
        if found:
            # the heading's text, and its id's parts (`..._performancemetricsv3_properties`)
            names += heading_name(found.group("text"))
            names += [part for part in re.split(r"[_\-]+", found.group("id") or "") if part]
            break
    if (
        not names
        and heading is not None
        and len(heading.path) > 1
        and _generic_heading(heading.text)
    ):
        # "## Properties" under "# Run": the section of the object its parent names
        names += heading_name(heading.path[-2])
    names = [n.strip("`*_ ") for n in names]
    return "\n".join(n for n in names if _FIELD_NAME.match(n))


def _generic_heading(text: str) -> bool:
    words = _plain(text).lower().split()
    return bool(words) and all(word in _GENERIC for word in words)


def heading_name(text: str) -> list[str]:
    """The name a heading is, when it is one: without its anchors, markup and generic words
    ("object", "schema"); a plural also as its singular."""
    words = [
        w
        for w in re.split(r"\s+", _plain(re.sub(r"<a\b[^>]*>(?:</a>)?", " ", text)))
        if w and w.lower() not in _GENERIC
    ]
    if len(words) != 1:
        return []
    word = words[0]
    return [word, word[:-1]] if word.endswith("s") and len(word) > 3 else [word]


# The model pages an API client generator writes from an API document (OpenAPI Generator's
# Markdown docs: "Name | Type | Description | Notes", the name in bold, `**str**`,
# `[**List[Message]**](Message.md)`): a member it generated as optional is marked `[optional]` in
# Notes, and one without the mark is required. The page is the component it is titled by, as
# the document said when the page was generated: a page that disagrees with the document is
# stale (the usual defect of such pages: the document changed, the docs were not regenerated).
_GENERATOR_LAYOUT = ("name", "type", "description", "notes")
_GENERATOR_OPTIONAL = re.compile(r"\[optional\]", re.IGNORECASE)


def _generator_layout(table: Table) -> bool:
    """A model's table (under "## Properties"); an operation page's "### Parameters" table of
    the same layout lists parameters, whose Notes say `[optional]` alike."""
    return (
        tuple(_plain(cell.text).lower() for cell in table.header) == _GENERATOR_LAYOUT
        and table.heading is not None
        and _plain(table.heading.text).lower() == "properties"
    )


def _table_group(document: Document, table: Table) -> ClaimGroup | None:
    kinds = [_header_kind(cell.text) for cell in table.header]
    generated = _generator_layout(table)
    if "name" not in kinds or "place" in kinds:
        return None
    if not any(k in kinds for k in ("type", "required", "optional")):
        return None
    name_at = kinds.index("name")
    group = ClaimGroup(
        document.path,
        table.line,
        "field table",
        table.heading,
        _naming(document, table.heading, table.line),
        generated=generated,
    )
    for row in table.rows:
        if name_at >= len(row):
            continue
        cell = row[name_at]
        name = cell.inline_code[0].text.strip() if cell.inline_code else _plain(cell.text)
        if not _FIELD_NAME.match(name):
            continue  # a dotted path, a nested row (`» name`), a sentence
        type_claim = None
        required: bool | None = None
        said = ""
        for kind, value in zip(kinds, row, strict=False):
            if kind == "type":
                type_claim = parse_type(value.text)
            elif kind in ("required", "optional") and required is None:
                required = _requiredness(value.text, kind == "optional")
                said = f"its `{'Required' if kind == 'required' else 'Optional'}` cell says "
                said += f"`{_plain(value.text)}`"
        if generated and len(row) == len(_GENERATOR_LAYOUT):
            optional = bool(_GENERATOR_OPTIONAL.search(row[-1].text))
            required = not optional
            said = (
                "its Notes cell says `[optional]`"
                if optional
                else "its Notes cell has no `[optional]`, the generator's mark of an optional member"
            )
        if required is None:
            stated = _says(" ".join(c.text for c in row))
            if stated is not None:
                required, said = (
                    stated,
                    f"its text says this field is {'REQUIRED' if stated else 'OPTIONAL'}",
                )
        if type_claim is None and required is None:
            continue
        column = cell.inline_code[0].column if cell.inline_code else 1
        group.claims.append(
            Claim(document.path, cell.line, column, name, type_claim, required, said)
        )
    return group if group.claims else None


# An item's last words "(OPTIONAL)" or "(REQUIRED)", in RFC 2119 capitals:
# ``- `license`: the license of the bundle (OPTIONAL)``.
_TRAILING = re.compile(r"\((?P<word>REQUIRED|OPTIONAL)\)\.?\s*$")
# An item whose sub-items are its members, each optional: "where each maintainer MAY
# optionally have the following:", "with the following optional fields:".
_OPTIONAL_MEMBERS = re.compile(
    r"\b(?:MAY|may)\s+(?:optionally\s+)?(?:have|contain|include|carry)\b[^.]*\bfollowing\b"
    r"|\bthe following\s+(?:OPTIONAL|optional)\s+(?:fields|properties|members|keys|attributes)\b"
)


# The sentence before a list that says every member it lists must be given: "Each item in the
# list must have two keys:", "The object MUST contain the following fields:".
_ALL_REQUIRED_LEAD = re.compile(
    r"\b(?:must|MUST|shall|SHALL)\s+(?:have|contain|include|define|declare|specify)\s+"
    r"(?:the\s+following|these|all\s+of\s+the\s+following|(?:two|three|four|five|both)"
    r"(?:\s+of\s+the\s+following)?)\s*(?:keys|fields|members|properties|attributes|entries)?"
    r"\s*:\s*$"
)


LEAD_REQUIRED = "the sentence before the list says each item must have them"


def _all_required_lead(document: Document, item: ListItem) -> bool:
    """Whether the paragraph just before a top-level item says each listed member must be
    given (``_ALL_REQUIRED_LEAD``)."""
    prose = document.prose
    if prose is None or item.depth > 1:
        return False  # a sub-item (a list's first level is 1)
    for paragraph in prose.paragraphs:
        if item.line - 2 <= paragraph.end_line < item.line:
            text = paragraph.text.strip()
            return bool(_ALL_REQUIRED_LEAD.search(text)) and not _CONDITION.search(
                text.rsplit(".", 1)[-1]
            )
    return False


def _item_claim(
    path: str, item: ListItem, inherited: str = "", lead_required: str = ""
) -> Claim | None:
    """The claim a list item makes; ``inherited``: what the item above says of its sub-items'
    requiredness (they are OPTIONAL), ``lead_required``: what the sentence before the list
    says of its items (each is REQUIRED), where the item says none itself."""
    text = item.text
    match = _ITEM.match(text)
    if match is None:
        return None
    name = next(g for g in match.group("a", "b", "c", "d", "e", "f") if g)
    if match.group("f") and name[:1].isupper() and name[1:].islower():
        # "- [Services](services.md) (Required)": a page's title for the member `services`
        name = name.lower()
    if not _FIELD_NAME.match(name):
        return None
    rest = text[match.end() :]
    type_claim: TypeClaim | None = None
    required: bool | None = None
    said = ""
    paren = _PAREN.match(rest)
    if paren is not None:
        parts = [p.strip() for p in paren.group("inner").split(",")]
        kept = []
        for part in parts:
            word = part.strip("*_ ").lower()
            if word in ("required", "optional"):
                required = word == "required"
                said = f"its item says `({paren.group('inner').strip()})`"
            elif word.startswith(("required ", "optional ", "default", "e.g", "deprecated")):
                if word.startswith(("required ", "optional ")):
                    return None  # "REQUIRED if ...": conditional, not judged
                continue
            else:
                kept.append(part)
        if len(kept) == 1:
            type_claim = parse_type(kept[0])
        rest = rest[paren.end() :]
    dashed = _DASHED.match(rest) if paren is None else None
    if dashed is not None:
        type_claim = parse_type(dashed.group("type"))
        rest = rest[dashed.end() :]
    if required is None:
        stated = _says(rest)
        if stated is not None:
            required, said = (
                stated,
                f"its text says this field is {'REQUIRED' if stated else 'OPTIONAL'}",
            )
    if required is None:
        trailing = _TRAILING.search(rest)
        if trailing is not None:
            required = trailing.group("word") == "REQUIRED"
            said = f"its item ends `({trailing.group('word')})`"
    if required is None and inherited:
        required, said = False, inherited
    if required is None and lead_required:
        required, said = True, lead_required
    column = text.find(name) + 1
    if type_claim is None and required is None:
        if _OPTIONAL_MEMBERS.search(rest):
            # says nothing of itself, but holds the members its sub-items list
            return Claim(path, item.line, column, name, None, None, "")
        return None
    return Claim(path, item.line, column, name, type_claim, required, said)


def _list_groups(document: Document, items: Iterable[ListItem]) -> list[ClaimGroup]:
    groups: list[ClaimGroup] = []
    open_groups: dict[int, ClaimGroup] = {}  # depth -> the group being filled
    last_claim: dict[int, tuple[Claim, ClaimGroup]] = {}
    heading: Heading | None = None
    previous_end = 0
    lead = ""
    for item in items:
        if item.heading != heading or item.line > previous_end + 40:
            open_groups.clear()
            last_claim.clear()
            heading = item.heading
        if item.depth <= 1:
            if _all_required_lead(document, item):
                lead = LEAD_REQUIRED
            elif item.line > previous_end + 2:
                lead = ""  # another list
        previous_end = item.end_line
        depth = item.depth
        for deeper in [d for d in open_groups if d > depth]:
            del open_groups[deeper]
        for deeper in [d for d in last_claim if d > depth]:
            del last_claim[deeper]
        above = last_claim.get(depth - 1)
        inherited = ""
        if above is not None and above[0].type is None and above[0].required is None:
            inherited = f"the item `{above[0].name}` above says each MAY optionally have them"
        claim = _item_claim(document.path, item, inherited, lead if depth <= 1 else "")
        if claim is None:
            continue
        group = open_groups.get(depth)
        if group is None:
            parent = last_claim.get(depth - 1)
            group = ClaimGroup(
                document.path,
                item.line,
                "field list",
                heading,
                _naming(document, heading, item.line),
                parent=parent[0] if parent else None,
                parent_group=parent[1] if parent else None,
            )
            open_groups[depth] = group
            groups.append(group)
        group.claims.append(claim)
        last_claim[depth] = (claim, group)
    # A group of holders only (items that say nothing of themselves) documents no claim
    # unless its sub-items' group does.
    holding = {id(g.parent_group) for g in groups if g.parent_group is not None}
    return [
        g
        for g in groups
        if id(g) in holding or any(c.type or c.required is not None for c in g.claims)
    ]


# --- sentences ----------------------------------------------------------------------------------

# "`next_page_url` is `null`", "whose pagination.next_page_url is null", "`x` may be null": a
# field named in a code span, or a dotted or underscored name, said to hold null.
_NULL_SAID = re.compile(
    r"(?:`(?P<a>[A-Za-z_][\w.]*)`|(?<![\w.`/])(?P<b>[a-z][a-z0-9]*(?:[._][a-z0-9]+)+"
    # an object's name and its member, `QNode.ids` written plain (a schema's own name leads)
    r"|[A-Z][A-Za-z0-9]*\.[a-z][a-z0-9_]*))"
    r"(?:\s+(?:field|property|member|attribute|value))?"
    r"\s+(?:is|may be|MAY be|can be|will be|is set to)\s+(?:`null`|null|nullable)(?![\w`-])"
)
# A sentence whose subject is left out, "MAY be null, or MAY be missing", under a heading that
# names one field (`## QNode.ids`, `### \`weight\``): a rules page's layout.
_NULL_UNSAID = re.compile(
    r"^(?:[-*+]\s+|\d+[.)]\s+)?(?:It\s+|Its value\s+|The value\s+)?"
    r"(?:[Mm]ay|MAY|[Cc]an|CAN|[Mm]ight)\s+be\s+(?:`null`|null)(?![\w`-])"
)
_HEADING_FIELD = re.compile(r"^`?(?:(?P<holder>[A-Za-z_][\w-]*)\.)?(?P<name>[A-Za-z_][\w-]*)`?$")
# Emphasis around a keyword (`**MUST**`, `__MUST__`): blanked, so that offsets keep.
_EMPHASIS = re.compile(r"\*+|(?<!\w)__|__(?!\w)")
# "One of `env` or `path` MUST be specified", "must provide either `content` or `content_url`"
_ONE_OF_SAID = re.compile(
    r"\b(?:[Ee]ither|[Oo]ne of)\s+`(?P<a>[A-Za-z_][\w-]*)`\s+or\s+`(?P<b>[A-Za-z_][\w-]*)`"
)
# One member said to be required, of the object the section is about: "`path` is required",
# "A Compose file must declare a `services` top-level element", "The request MUST contain
# `applicant`". The subject of the second form is a document or an object, never a party (a
# client that must send a header speaks of a request, not of a schema).
_REQUIRED_SAID = re.compile(
    r"(?:^|(?<=[.;:]\s))`(?P<a>[A-Za-z_][\w-]*)`\s+is\s+(?:REQUIRED|required|mandatory)\b"
    r"(?!\s+(?:if|when|unless|for|in|only|by|to|with|on|except)\b)"
    r"|^(?:An?|The|Each|Every)\s+(?:[\w-]+\s+){0,3}?(?:file|document|object|item|entry|element"
    r"|definition|manifest|configuration|resource|message|record|request|body|payload"
    # or a type's own name ("A Loan MUST contain"), bound by the member as the others are
    r"|[A-Z][a-z]+(?:[A-Z][a-z]+)*)\s+"
    r"(?:MUST|must|SHALL|shall)\s+(?:declare|contain|have|include|define|specify)\s+"
    r"(?:an?\s+|the\s+)?`(?P<b>[A-Za-z_][\w-]*)`(?!\s*(?:,|or|and|/)\s*`)"
)
# One member said to be of a JSON type: "`container_name` is a string that...", "The `extends`
# value must be a mapping". A union ("a string or a list"), a list "of" something, and a
# sentence that names a condition are not read.
_TYPE_SAID = re.compile(
    r"(?:^|^The\s+)`(?P<a>[A-Za-z_][\w-]*)`(?:\s+(?:value|field|property|attribute|key|member))?"
    r"\s+(?:is|must\s+be|MUST\s+be|shall\s+be|SHALL\s+be)\s+(?:always\s+)?(?:an?\s+)?"
    r"(?P<t>string|integer|number|boolean|array|list|object|map|mapping|sequence)\b"
    r"(?!\s*(?:or|of|,|/)\b|\s*(?:or|of|,|/)\s)"
)
_SAID_TYPES = {"mapping": "object", "map": "object", "list": "array", "sequence": "array"}
_MUST = re.compile(r"\b(?:MUST|must|SHALL|shall|REQUIRED|required)\b")
_MUST_NOT = re.compile(r"\b(?:MUST|must|SHALL|shall)\s+(?:NOT|not|never)\b|\b(?:at most|only)\b")
_CONDITION = re.compile(r"\b(?:[Ii]f|[Ww]hen|[Uu]nless|[Ww]here|[Ff]or)\b")
# A list's lead-in sentence that makes its items a condition's rules ("When converting ..., the
# following MUST be adhered to:").
_LEADING_CONDITION = re.compile(r"\s*(?:If|When|Whenever|Unless|In case|For each|For a)\b")
# A sentence about what a server refuses says the field must NOT be null.
_REFUSAL = re.compile(r"\b(?:error|errors|reject\w*|invalid|fail\w*|4\d\d)\b", re.IGNORECASE)


@dataclass(frozen=True)
class SentenceClaim:
    """What a sentence of the prose says of one object's fields: that a field may be null
    (``null``), or that one of two fields must be given (``one of``)."""

    path: str
    line: int
    column: int
    kind: str  # "null", "one of", "required", "type"
    names: tuple[str, ...]  # the fields (the last segment of a dotted path)
    holder: str | None  # a dotted path's segment before the field (`pagination`)
    written: str
    section: tuple[str, ...] = ()  # the headings the sentence is under


def _sentences(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for match in re.finditer(r"(?<=[.!?])\s+(?=[A-Z`*])|\n\s*\n", text):
        yield start, text[start : match.start()]
        start = match.end()
    yield start, text[start:]


def sentence_claims(document: Document) -> list[SentenceClaim]:
    """Every sentence of the page that says a field may be null, or that one of two fields
    must be given; a proposal's are read too (the binder sets them aside)."""
    prose = document.prose
    if prose is None or is_changelog(document.path):
        # A changelog's "`name` is null" tells what a release changed, of whichever API.
        return []
    found: list[SentenceClaim] = []
    lead_condition = False  # the list's lead-in states a condition ("When ..., the following:")
    for paragraph in prose.paragraphs:
        listed = re.match(r"\s*(?:[-*+]|\d+[.)])\s", paragraph.text) is not None
        if not listed:
            lead = paragraph.text.rstrip()
            last = re.split(r"(?<=[.!?])\s+", lead)[-1]
            lead_condition = lead.endswith(":") and _LEADING_CONDITION.match(last) is not None
        text = _EMPHASIS.sub(lambda m: " " * len(m.group(0)), paragraph.text)
        if "null" not in text and "`" not in text:
            continue
        found += _heading_null_claims(document, paragraph, text)
        found += _union_claims(document, paragraph, text)
        for offset, sentence in _sentences(text):
            for match in _NULL_SAID.finditer(sentence):
                if _REFUSAL.search(sentence):
                    break
                dotted = (match.group("a") or match.group("b")).split(".")
                if dotted[-1] in {"json", "yaml", "md"}:
                    continue  # a file's name
                found.append(_sentence_claim(document, paragraph, offset + match.start(), "null",
                                             (dotted[-1],), dotted[-2] if len(dotted) > 1 else None,
                                             match.group(0)))  # fmt: skip
            typed = _TYPE_SAID.search(sentence.strip())
            if typed is not None and not _CONDITION.search(sentence[: sentence.find("`")]):
                at = offset + len(sentence) - len(sentence.lstrip()) + typed.start()
                word = typed.group("t")
                found.append(_sentence_claim(document, paragraph, at, "type", (typed.group("a"),),
                                             None, _SAID_TYPES.get(word, word)))  # fmt: skip
            # a list item's marker is no part of its sentence
            marker = re.match(r"\s*(?:(?:[-+]|\d+[.)])\s+)?\s*", sentence)
            skip = marker.end() if marker is not None else 0
            body = sentence[skip:].rstrip()
            required = _REQUIRED_SAID.search(body)
            if (
                required is not None
                and not re.search(r"\b(?:if|when|unless)\b", sentence, re.I)
                and not (listed and lead_condition)
            ):
                at = offset + skip + required.start()
                name = required.group("a") or required.group("b")
                found.append(_sentence_claim(document, paragraph, at, "required", (name,), None,
                                             sentence.strip()))  # fmt: skip
            one_of = _ONE_OF_SAID.search(sentence)
            if (
                one_of is not None
                and _MUST.search(sentence)
                and not _MUST_NOT.search(sentence)
                and not _CONDITION.search(sentence)
                and one_of.group("a") != one_of.group("b")
            ):
                found.append(_sentence_claim(document, paragraph, offset + one_of.start(),
                                             "one of", (one_of.group("a"), one_of.group("b")),
                                             None, sentence.strip()))  # fmt: skip
    found += _cell_claims(document)
    return found


# A member the prose names as one, in any of the ways specs write it: "the `rules` field", "the
# *rule* attribute" (emphasis blanked), "`url` property", "Attribute: reference" (a label line).
# ("the alias field names" is a compound: the names of fields, not a member `alias`)
_MEMBER_WORDS = (
    r"(?:field|property|attribute|member|key)(?!\s+(?:names?|values?|types?|paths?|sets?)\b)"
)
_MEMBER_SAID = re.compile(
    # a plain word is English ("make the trait field optional", "the partition key"): an
    # emphasised one names a member ("the *rule* attribute"), and not before "key"
    r"\b[Tt]he\s+(?:\*{1,2}|_)(?P<a>[a-z][a-z0-9_]*)(?:\*{1,2}|_)\s+(?!key\b)"
    + _MEMBER_WORDS
    + r"\b"
    r"|`(?P<b>[a-z][a-z0-9_]*)`\s+" + _MEMBER_WORDS + r"\b"
    r"|^\s*(?:[-+]\s+)?(?:\*\*|__)?(?:Attribute|Field|Property|Key)(?:\*\*|__)?\s*:\s*"
    r"`?(?P<c>[a-z][a-z0-9_]*)`?\s*$",
    re.MULTILINE,
)


def member_claims(document: Document) -> list[SentenceClaim]:
    """Every member the page names as a member (``_MEMBER_SAID``): held to the schemas'
    declarations by the rule (a near-miss spelling of a declared member that no schema
    declares is the prose's misspelling, issue 46, item 8)."""
    prose = document.prose
    if prose is None or is_changelog(document.path):
        return []
    found: list[SentenceClaim] = []
    for paragraph in prose.paragraphs:
        for match in _MEMBER_SAID.finditer(paragraph.text):
            name = match.group("a") or match.group("b") or match.group("c")
            at = match.start("a" if match.group("a") else "b" if match.group("b") else "c")
            found.append(_sentence_claim(document, paragraph, at, "member", (name,), None,
                                         match.group(0).strip()))  # fmt: skip
    return found


# `QEdge.qualifier_constraints`, written plain or as code: a schema's own name (capitalised, as
# API components are), a dot and a member (a method call, a file's extension aside).
_DOTTED_MEMBER = re.compile(
    r"(?<![\w./`-])`?(?P<holder>[A-Z][A-Za-z0-9]+)\.(?P<name>[a-z][a-z0-9_]*)`?(?![\w(-]|\.\w)"
)
_MIGRATION = re.compile(r"migrat|upgrad|release[-_ ]?notes|whats[-_]?new", re.IGNORECASE)
_HISTORY = re.compile(
    r"\b(?:obsolete|deprecated|removed|renamed|replaced|legacy|formerly|previously|no longer"
    r"|older|earlier|prior)\b",
    re.IGNORECASE,
)
_EXTENSIONS = frozenset({"json", "yaml", "yml", "md", "proto", "py", "js", "ts", "html", "xml"})


def dotted_members(document: Document) -> list[SentenceClaim]:
    """Every ``Object.member`` of the page's paragraphs (the holder is the object's name)."""
    prose = document.prose
    if prose is None or is_changelog(document.path) or _MIGRATION.search(document.path):
        return []  # a migration guide names the members a version removed
    found: list[SentenceClaim] = []
    for paragraph in prose.paragraphs:
        if "." not in paragraph.text or _HISTORY.search(paragraph.text):
            continue  # "`NodeBinding.query_id` from older versions is obsolete": a past member
        for match in _DOTTED_MEMBER.finditer(paragraph.text):
            if match.group("name") in _EXTENSIONS:
                continue
            found.append(_sentence_claim(document, paragraph, match.start(), "dotted",
                                         (match.group("name"),), match.group("holder"),
                                         match.group(0).strip("`")))  # fmt: skip
    return found


def near_misses(name: str) -> set[str]:
    """The spellings of a member one plural or singular ending away from ``name``."""
    found = {name + "s", name + "es"}
    if name.endswith("s") and len(name) > 2:
        found.add(name[:-1])
    if name.endswith("es") and len(name) > 3:
        found.add(name[:-2])
    return found


# A union of types said of one member: "`display` property, and its value MUST be an object or
# URI string", "The `seats` value is an integer or a float" (issue 46: a union compared as a set
# of JSON types, each alternative held to the schema). "or null" is the null claims'.
_UNION_WORD = r"(?:(?:URI|URL|uri|url)\s+)?(?:string|integer|number|boolean|array|list|object|map|float|double)"
_UNION_SAID = re.compile(
    r"`(?P<a>[A-Za-z_][\w-]*)`(?:\s+(?:value|field|property|attribute|key|member))?"
    r"(?:,?\s+and\s+its\s+value)?"
    r"\s+(?:is|MUST\s+be|must\s+be|SHALL\s+be|shall\s+be|can\s+be|may\s+be|MAY\s+be)\s+"
    r"(?:either\s+)?(?:an?\s+)?(?P<x>"
    + _UNION_WORD
    + r")\s+or\s+(?:an?\s+)?(?P<y>"
    + _UNION_WORD
    + r")\b(?!\s+(?:of|with)\b)"
)
# in a union, "float" is the alternative to an integer: a number that need not be whole
_UNION_TYPES = {**_WORDS, "float": frozenset({"number"}), "double": frozenset({"number"})}


def union_types(word: str) -> frozenset[str]:
    """The JSON types one alternative of a said union allows ("URI string": a string)."""
    return _UNION_TYPES.get(word.split()[-1].lower(), frozenset())


def _union_claims(document: Document, paragraph: Paragraph, text: str) -> list[SentenceClaim]:
    found: list[SentenceClaim] = []
    for match in _UNION_SAID.finditer(text):
        if _REFUSAL.search(text[match.start() : match.end() + 80]):
            continue
        written = f"{match.group('x')} or {match.group('y')}"
        found.append(_sentence_claim(document, paragraph, match.start(), "union",
                                     (match.group("a"),), None, written))  # fmt: skip
    return found


def _heading_null_claims(
    document: Document, paragraph: Paragraph, text: str
) -> list[SentenceClaim]:
    """ "MAY be null" without a subject, at the start of a paragraph or list item under a heading
    that names one field (and, dotted, the object holding it): a claim of that field."""
    heading = paragraph.heading
    if heading is None:
        return []
    lines = document.lines
    written = lines[heading.line - 1] if 0 < heading.line <= len(lines) else ""
    named = _HEADING_FIELD.match(heading.text.strip())
    if named is None or (named.group("holder") is None and "`" not in written):
        return []  # a plain word heading ("## Results") names no field
    found: list[SentenceClaim] = []
    start = 0
    for index, line in enumerate(text.split("\n")):
        led = index == 0 or re.match(r"\s*(?:[-*+]|\d+[.)])\s", line) is not None
        match = _NULL_UNSAID.match(line.strip()) if led else None
        if match is not None and not _REFUSAL.search(line):
            at = start + len(line) - len(line.lstrip())
            found.append(_sentence_claim(document, paragraph, at, "null", (named.group("name"),),
                                         named.group("holder"), match.group(0)))  # fmt: skip
        start += len(line) + 1
    return found


# A field table's description cell that says its own field may be null: "if the server does
# not support it, the value will be `null`" (the subject is the row's field, not named again).
_NULL_CELL = re.compile(
    r"\b(?:[Tt]he|[Ii]ts|[Tt]his)\s+(?:value|field|property|member|attribute)\s+"
    r"(?:is|may be|MAY be|can be|will be|is set to)\s+(?:`null`|<code>null</code>|null)(?![\w`-])"
)
# A row of an HTML field table whose first cell leads with the field as code (`<td><code>
# ga4gh</code><br/>string</td><td>...</td>`, the layout of pages that nest tables). Its text
# ends at its `</tr>`, and a row that holds a nested table before it is the nested rows' (its
# own cells say nothing of theirs); a row is read up to a bound, so that a page of unclosed
# rows is read in linear time.
_HTML_ROW = re.compile(
    r"<tr\b[^>]*>\s*<td\b[^>]*>\s*<code>(?P<name>[A-Za-z_][\w-]*)</code>"
    r"(?P<rest>(?:(?!<tr\b|</tr>).){0,4000}?)</tr>",
    re.DOTALL,
)


def _cell_claims(document: Document) -> list[SentenceClaim]:
    """The claims the description cells of a page's field tables make of the row's own field:
    that it may be null (``_NULL_CELL``). Markdown tables with a name column, and HTML tables
    whose rows lead with the field as code. A cell about an error or a refusal says nothing of
    the kind."""
    prose = document.prose
    text = document.text or ""
    if prose is None or "null" not in text:
        return []
    found: list[SentenceClaim] = []
    for table in prose.tables:
        kinds = [_header_kind(cell.text) for cell in table.header]
        if "name" not in kinds or "place" in kinds:
            continue
        name_at = kinds.index("name")
        for row in table.rows:
            if name_at >= len(row):
                continue
            cell = row[name_at]
            name = cell.inline_code[0].text.strip() if cell.inline_code else _plain(cell.text)
            if not _FIELD_NAME.match(name):
                continue
            for other in row[name_at + 1 :]:
                match = _NULL_CELL.search(other.text)
                if match is not None and not _REFUSAL.search(other.text):
                    found.append(_cell_claim(document, other.line, match.group(0), name, table))
    fenced = [(f.line, f.line + f.content.count("\n") + 2) for f in prose.fences]
    for html_row in _HTML_ROW.finditer(text):
        match = _NULL_CELL.search(html_row.group("rest"))
        if match is None or _REFUSAL.search(html_row.group("rest")):
            continue
        at = html_row.start("rest") + match.start()
        line = text.count("\n", 0, at) + 1
        if any(start <= line <= end for start, end in fenced):
            continue  # HTML shown in a code block
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        heading = prose.heading_at(line)
        section = heading.path if heading is not None else ()
        found.append(SentenceClaim(document.path, line, column, "null", (html_row.group("name"),),
                                   None, _plain(match.group(0)), section))  # fmt: skip
    return found


def _cell_claim(
    document: Document, line: int, written: str, name: str, table: Table
) -> SentenceClaim:
    lines = document.lines
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    column = source.find(written) + 1 or 1
    section = table.heading.path if table.heading is not None else ()
    return SentenceClaim(document.path, line, column, "null", (name,), None, _plain(written),
                         section)  # fmt: skip


def _sentence_claim(
    document: Document,
    paragraph: Paragraph,
    at: int,
    kind: str,
    names: tuple[str, ...],
    holder: str | None,
    written: str,
) -> SentenceClaim:
    """The claim at offset ``at`` of the paragraph's text, located in the page."""
    page = paragraph.page.text
    where = paragraph.start + at
    line = paragraph.line + paragraph.text.count("\n", 0, at)
    column = where - (page.rfind("\n", 0, where) + 1) + 1
    quoted = _plain(re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", written))
    quoted = quoted if len(quoted) <= 120 else quoted[:117].rstrip() + "..."
    section = paragraph.heading.path if paragraph.heading is not None else ()
    return SentenceClaim(document.path, line, column, kind, names, holder, quoted, section)


# In an API document's property description, one of two members of the object that holds it
# said to be required, code spans or plain words: "One of url or content is required".
_ONE_OF_DESCRIBED = re.compile(
    r"\b(?:[Ee]ither|[Oo]ne of)\s+(?:the\s+)?`?(?P<a>[A-Za-z_][\w-]*)`?\s+or\s+"
    r"`?(?P<b>[A-Za-z_][\w-]*)`?"
)


@dataclass(frozen=True)
class DescribedClaim:
    """A sentence of a property's ``description`` in an API document, and the schema object
    holding the property: the object it speaks of (issue 46, item 8)."""

    claim: SentenceClaim
    holder: Node


def described_claims(corpus: Context) -> Iterator[DescribedClaim]:
    """The "one of `a` or `b` is required" sentences of the property descriptions of the API
    documents' schema objects, where both are members of the object holding the property (or
    the object's own description). Located at the sentence's line when the file shows it, else
    at the ``description`` key."""
    for node in corpus.schemas.ordered():
        document = node.document
        if document.kind not in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
            continue
        if document.path in corpus.derived:
            continue
        properties = node.raw.get("properties")
        if not isinstance(properties, dict):
            continue
        members = {str(name) for name in properties}
        texts = [(node.pointer, node.raw.get("description"))]
        texts += [
            (
                join_pointer(join_pointer(node.pointer, "properties"), str(name)),
                child.get("description"),
            )
            for name, child in properties.items()
            if isinstance(child, dict)
        ]
        for pointer, text in texts:
            if not isinstance(text, str) or (
                "one of" not in text.lower() and "either" not in text.lower()
            ):
                continue
            for _, sentence in _sentences(text):
                found = _ONE_OF_DESCRIBED.search(sentence)
                if (
                    found is None
                    or not _MUST.search(sentence)
                    or _MUST_NOT.search(sentence)
                    or _CONDITION.search(sentence)
                    or found.group("a") == found.group("b")
                    or not {found.group("a"), found.group("b")} <= members
                ):
                    continue
                line, column = _described_at(document, join_pointer(pointer, "description"),
                                             found.group(0))  # fmt: skip
                written = _plain(sentence.strip())
                written = written if len(written) <= 120 else written[:117].rstrip() + "..."
                claim = SentenceClaim(document.path, line, column, "one of",
                                      (found.group("a"), found.group("b")), None, written)  # fmt: skip
                yield DescribedClaim(claim, node)


# A parameter's description that lets it be left out: "If not specified, it is up to the
# implementation...", "If omitted, ...", "Optional.".
_LEFT_OUT = re.compile(
    r"\b[Ii]f\s+(?:it\s+is\s+|this\s+is\s+)?(?:not\s+specified|not\s+provided|not\s+given"
    r"|not\s+supplied|omitted|unspecified|left\s+out|absent)\b"
    # "If not supplied by the client, the server MUST create one": another party's request
    r"(?!\s+(?:by|from|upstream)\b|\s+(?:in\s+the\s+)?(?:body|header))"
    r"|^\s*\(?[Oo]ptional\b[).:,]"
)
_PLACES = frozenset({"path", "query", "header", "cookie"})


@dataclass(frozen=True)
class ParameterClaim:
    """A required parameter of an API document whose description lets it be left out."""

    path: str
    line: int
    column: int
    name: str
    place: str  # its `in`
    pointer: str  # the parameter object's
    written: str  # the sentence that says so


def parameter_claims(corpus: Context) -> Iterator[ParameterClaim]:
    """Every required parameter (``required: true``, or ``in: path``, which OpenAPI requires to
    be) of the API documents whose ``description`` says what happens when it is not given."""
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        if document.path in corpus.derived or not document.usable:
            continue
        paths = document.data.get("paths") if isinstance(document.data, dict) else None
        routes = {str(p).rstrip("/") for p in paths} if isinstance(paths, dict) else set()
        for pointer, parameter in _parameters(document.data, ""):
            text = parameter.get("description")
            if not isinstance(text, str):
                continue
            if parameter.get("in") == "path" and _route_without(pointer, parameter, routes):
                continue  # "If omitted, all are returned": by the route without the segment
            for _, sentence in _sentences(text):
                found = _LEFT_OUT.search(sentence)
                if found is None:
                    continue
                line, column = _described_at(
                    document, join_pointer(pointer, "description"), found.group(0).strip()
                )
                written = _plain(sentence.strip())
                written = written if len(written) <= 120 else written[:117].rstrip() + "..."
                yield ParameterClaim(document.path, line, column, parameter["name"],
                                     parameter["in"], pointer, written)  # fmt: skip
                break


def _route_without(pointer: str, parameter: dict[str, Any], routes: set[str]) -> bool:
    """Whether the document has the route a path parameter's "if omitted" speaks of: the path
    without its segment. A parameter declared apart from any path (``components/parameters``,
    shared by routes with and without it) is taken to have one."""
    parts = pointer.split("/")
    if len(parts) < 3 or parts[1] != "paths":
        return True
    path = parts[2].replace("~1", "/").replace("~0", "~")
    segment = "/{" + str(parameter.get("name")) + "}"
    return segment in path and path.replace(segment, "", 1).rstrip("/") in routes


def _parameters(
    node: Any, pointer: str, depth: int = 0, position: Position = Position.API
) -> Iterator[tuple[str, dict[str, Any]]]:
    if depth > 12:
        return
    if isinstance(node, dict):
        if (
            isinstance(node.get("name"), str)
            and node.get("in") in _PLACES
            and (node.get("required") is True or node.get("in") == "path")
        ):
            yield pointer, node
            return
        for key, value in node.items():
            # Data where the key is a field (`keyword_positions`): a parameter component named
            # `default` is a parameter.
            place = member_position(position, key, DocumentKind.OPENAPI)
            if place is Position.DATA or str(key).startswith("x-"):
                continue
            yield from _parameters(value, join_pointer(pointer, str(key)), depth + 1, place)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _parameters(
                item, join_pointer(pointer, index), depth + 1, item_position(position)
            )


def _described_at(document: Document, pointer: str, said: str) -> tuple[int, int]:
    """The line and column of ``said`` in the description at ``pointer``: the line that shows
    its first words (a folded scalar runs over lines), else the ``description`` key's."""
    line, column = document.position(pointer)
    words = said.split()[:3]
    pattern = re.compile(r"\s+".join(re.escape(w) for w in words))
    lines = document.lines
    for at in range(max(line, 1), min(len(lines), line + 40) + 1):
        match = pattern.search(lines[at - 1])
        if match is not None:
            return at, match.start() + 1
    return line, column


def every_sentence_claim(corpus: Context) -> Iterator[SentenceClaim]:
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        yield from sentence_claims(document)


# --- the schema side ------------------------------------------------------------------------------


class ClaimBinder:
    """Binds claim groups to schema objects and proto messages (module docstring)."""

    def __init__(self, corpus: Context) -> None:
        self.corpus = corpus
        self.index: SchemaIndex = corpus.schemas
        self._by_member: dict[str, list[Node]] | None = None
        self._views: dict[tuple[str, str], ObjectView | None] = {}
        self._bound: dict[int, GroupBinding] = {}
        self._proposals: dict[str, bool] = {}

    @property
    def by_member(self) -> dict[str, list[Node]]:
        """The schema objects declaring each member name in their own ``properties``."""
        if self._by_member is None:
            found: dict[str, list[Node]] = {}
            derived = self.corpus.derived
            for node in self.index.ordered():
                if node.document.path in derived:
                    continue
                properties = node.raw.get("properties")
                if isinstance(properties, dict):
                    for name in properties:
                        if isinstance(name, str):
                            found.setdefault(name, []).append(node)
            self._by_member = found
        return self._by_member

    def top(self, node: Node) -> Node:
        """The object ``node`` applies in place to (its in-place parents' top)."""
        current = node
        for _ in range(64):
            parent = self.index.parent_of(current)
            if parent is None or current.link == "not":
                return current
            current = parent
        return current

    def view(self, root: Node) -> ObjectView | None:
        """Every member declared for the object at ``root`` and its ``required`` names."""
        if root.key in self._views:
            return self._views[root.key]
        declared: dict[str, Site] = {}
        always: dict[str, Site] = {}
        maybe: set[str] = set()
        pending: list[tuple[Node, bool]] = [(root, True)]
        seen: set[tuple[str, str]] = set()
        complete = True
        while pending and len(seen) < _MAX_VIEW:
            node, must = pending.pop()
            if node.key in seen:
                continue
            seen.add(node.key)
            reading = modern(node.raw, node.dialect)
            if reading is None:
                continue
            schema = reading.node
            properties = schema.get("properties")
            if isinstance(properties, dict):
                at = join_pointer(node.pointer, reading.source("properties"))
                for name, child in properties.items():
                    declared.setdefault(name, Site(node.document, join_pointer(at, name), child))
            required = schema.get("required")
            if isinstance(required, list):
                site = Site(
                    node.document, join_pointer(node.pointer, reading.source("required")), required
                )
                for name in required:
                    if isinstance(name, str):
                        if must:
                            always.setdefault(name, site)
                        maybe.add(name)
            dependent = schema.get("dependentRequired")
            if isinstance(dependent, dict):
                maybe.update(
                    n for names in dependent.values() if isinstance(names, list) for n in names
                )
            reference = schema.get("$ref")
            if isinstance(reference, str):
                try:
                    target = self.index.target(node, reference)
                except Unknown:
                    target = frozenset()  # not followed: what it declares is not read
                if isinstance(target, Node):
                    pending.append((target, must))
                else:
                    complete = False
            for keyword in (*IN_PLACE_LISTS, "if", "then", "else", "dependentSchemas"):
                branches = schema.get(keyword)
                children: list[str] = []
                base = join_pointer(node.pointer, keyword)
                if isinstance(branches, list):
                    children = [join_pointer(base, i) for i in range(len(branches))]
                elif isinstance(branches, dict) and keyword == "dependentSchemas":
                    children = [join_pointer(base, name) for name in branches]
                elif isinstance(branches, dict):
                    children = [base]
                for pointer in children:
                    inner_node = self.index.nodes.get((node.document.path, pointer))
                    if inner_node is not None and keyword != "if":
                        pending.append((inner_node, must and keyword == "allOf"))
        complete = complete and not pending
        found = ObjectView(root, declared, always, frozenset(maybe), complete) if declared else None
        self._views[root.key] = found
        return found

    def sole_object(self, claim: SentenceClaim) -> tuple[ObjectView | None, str]:
        """The one schema object (of the page's version) that declares every field a sentence
        names, and the evidence; None (and why) when none or several do. A dotted path's
        holder (`pagination` in `pagination.next_page_url`) must name the object too, as the
        member that holds it or its schema's name."""
        if self.is_proposal(claim.path):
            return None, "a proposal states a change"
        roots: dict[tuple[str, str], ObjectView] = {}
        for node in self.by_member.get(claim.names[0], []):
            root = self.top(node)
            if root.key in roots or not self.comparable(claim.path, root.document.path):
                continue
            view = self.view(root)
            if view is not None and all(name in view.declared for name in claim.names):
                roots[root.key] = view
        shown = " and ".join(f"`{n}`" for n in claim.names)
        evidence = f"the only schema object declaring {shown}"
        if len(roots) > 1 and claim.holder is not None:
            # `QNode.ids`: the object the path's holder names, of those declaring the field
            holder = _normal(claim.holder)
            roots = {
                key: view
                for key, view in roots.items()
                if holder in {_normal(n) for n in self._names_of(view.root)}
            }
            evidence = f"the object `{claim.holder}` names"
        if len(roots) > 1 and (
            len({(key[0].rsplit("/", 1)[-1], key[1]) for key in roots}) == 1
            or all(view.root.raw == next(iter(roots.values())).root.raw for view in roots.values())
        ):
            # One definition in copies of one document (a published copy under `docs/`), or
            # the same object written out in two schemas: the copy nearest the root is the
            # source (issue 46, item 4: copies of one definition are one candidate).
            first = min(roots, key=lambda key: (key[0].count("/"), key[0]))
            roots = {first: roots[first]}
            evidence += " (and its copies)"
        if len(roots) > 1:
            # Several objects declare them: the one the section's headings name ("##
            # Credentials" for `credential`), if one alone is.
            said = {_normal(n) for text in claim.section for n in heading_name(text)}
            # a heading of several words that is a schema's title ("## Credential Application")
            said |= {_normal(_plain(text)) for text in claim.section}
            roots = {
                key: view
                for key, view in roots.items()
                if said & {_normal(n) for n in self._names_of(view.root)}
            }
            evidence = f"the object of {shown} the section's heading names"
        if len(roots) != 1:
            return None, f"{len(roots)} schema objects declare {', '.join(claim.names)}"
        (view,) = roots.values()
        if claim.holder is not None:
            names = {_normal(n) for n in self._names_of(view.root)}
            if _normal(claim.holder) not in names:
                return None, f"`{claim.holder}` does not name the object that declares it"
        return view, evidence

    def _names_of(self, root: Node) -> list[str]:
        """What an object is called: its ``title``, the last segment of its pointer, and the
        members holding a ``$ref`` to it."""
        names = [root.pointer.rsplit("/", 1)[-1]] if root.pointer else []
        title = root.raw.get("title") if isinstance(root.raw, dict) else None
        if isinstance(title, str):
            names.append(title)
        holders = self.corpus.memo.get("type-claims:holders")
        if holders is None:
            holders = self.corpus.memo["type-claims:holders"] = self._holders()
        names += holders.get(root.key, [])
        return names

    def _holders(self) -> dict[tuple[str, str], list[str]]:
        found: dict[tuple[str, str], list[str]] = {}
        for node in self.index.ordered():
            properties = node.raw.get("properties")
            if not isinstance(properties, dict):
                continue
            at = join_pointer(node.pointer, "properties")
            for name, child in properties.items():
                if not isinstance(child, dict):
                    continue
                pointer = join_pointer(at, name)
                if "$ref" not in child and isinstance(child.get("items"), dict):
                    pointer = join_pointer(pointer, "items")  # an array of the object
                held = self.index.nodes.get((node.document.path, pointer))
                if held is None or not isinstance(held.raw.get("$ref"), str):
                    continue
                try:
                    target = self.index.target(held, held.raw["$ref"])
                except Unknown:
                    continue
                if isinstance(target, Node):
                    found.setdefault(self.top(target).key, []).append(name)
        return found

    def is_proposal(self, path: str) -> bool:
        """A proposal (an RFC, a design folder), or a page kept as a record of the past."""
        if path not in self._proposals:
            document = self.corpus.documents.get(path)
            # A page of what is no longer current (an obsolete version kept for reference, an
            # `old/` folder): its tables describe schemas the corpus no longer holds, and a
            # schema of today that shares their fields is another version of the object.
            self._proposals[path] = document is not None and (
                is_design_page(document) or superseded_page(path)
            )
        return self._proposals[path]

    def comparable(self, page: str, schema: str) -> bool:
        return may_describe(self.corpus, page, schema)

    def bind(self, group: ClaimGroup) -> GroupBinding:
        found = self._bound.get(id(group))
        if found is None:
            found = self._bound[id(group)] = self._bind(group)
            names = {claim.name for claim in group.claims}
            if not found.why.startswith("a proposal") and group.parent is None:
                message = self._proto_message(group, names)
                if message is not None:
                    found.message = message
                    found.proto_evidence = (
                        f"proto message `{message[1].name}` declares "
                        f"{self._proto_shared(message[1], names)} of its {len(names)} fields"
                    )
        return found

    def _bind(self, group: ClaimGroup) -> GroupBinding:
        names = {claim.name for claim in group.claims}
        if self.is_proposal(group.path):
            return GroupBinding(
                group,
                [],
                None,
                "",
                "",
                "a proposal states a change; a record or an obsolete page documents the past",
            )
        if group.parent is not None and group.parent_group is not None:
            return self._bind_nested(group, names)
        if group.operation is not None:
            return self._bind_operation(group)
        named = self._named_views(group, names)
        if named:
            shown = ", ".join(sorted({f"`{n}`" for n, _ in named}))
            said = f"the {group.form} is named" if group.form in LISTING_FORMS else "the text names"
            return GroupBinding(group, [v for _, v in named], None, "high", f"{said} {shown}")
        if group.form in LISTING_FORMS:
            # A listing's members alone do not say which object it is: a class of an SDK or a
            # tutorial shares member names with many schemas.
            return GroupBinding(
                group, [], None, "", "", f"no schema is named `{group.context}` as the listing is"
            )
        scored: dict[tuple[str, str], tuple[int, ObjectView]] = {}
        for name in sorted(names):
            for node in self.by_member.get(name, []):
                root = self.top(node)
                if root.key in scored or not self.comparable(group.path, root.document.path):
                    continue
                view = self.view(root)
                if view is not None:
                    scored[root.key] = (len(names & set(view.declared)), view)
        need = max(2, math.floor(len(names) / 2) + 1)
        best = max((score for score, _ in scored.values()), default=0)
        if best < need:
            return GroupBinding(
                group, [], None, "", "",
                f"no schema object declares more than half of its {len(names)} fields",
            )  # fmt: skip
        views = [view for score, view in scored.values() if score == best]
        if len(views) > _MAX_CANDIDATES:
            return GroupBinding(
                group, [], None, "", "", f"{len(views)} schema objects declare those fields"
            )
        return GroupBinding(
            group, views, None, "medium", f"declares {best} of its {len(names)} fields"
        )

    def _bind_operation(self, group: ClaimGroup) -> GroupBinding:
        """An endpoint row: the request body of the one operation its method and path name."""
        assert group.operation is not None
        method, path = group.operation
        shape = TEMPLATE.sub("{}", path.rstrip("/"))
        views: dict[tuple[str, str], ObjectView] = {}
        labels: set[str] = set()
        for operation in api_operations(self.corpus):
            if (
                operation.method.upper() != method
                or TEMPLATE.sub("{}", operation.path.rstrip("/")) != shape
                or operation.document.path in self.corpus.derived
                or not self.comparable(group.path, operation.document.path)
            ):
                continue
            for body in operation.of("request"):
                node = self.index.node_at(operation.document.path, body.pointer)
                view = self.view(self.top(node)) if node is not None else None
                if view is not None:
                    views.setdefault(view.root.key, view)
                    labels.add(operation.label)
        if len(views) != 1:
            return GroupBinding(
                group, [], None, "", "",
                f"`{method} {path}` names {len(views)} request body schemas",
            )  # fmt: skip
        shown = ", ".join(f"`{label}`" for label in sorted(labels))
        return GroupBinding(
            group, list(views.values()), None, "high", f"the row names {shown}, its request body"
        )

    def _named_views(self, group: ClaimGroup, names: set[str]) -> list[tuple[str, ObjectView]]:
        words = set(group.context.split())
        found: list[tuple[str, ObjectView]] = []
        seen: set[tuple[str, str]] = set()
        need = max(1, math.ceil(len(names) / 2))
        for word in sorted(words):
            for site in schema_names(self.corpus).get(word.lower(), []):
                if not self.comparable(group.path, site.document.path):
                    continue
                node = self.index.node_at(site.document.path, site.pointer)
                if node is None:
                    continue
                root = self.top(node)
                if root.key in seen:
                    continue
                seen.add(root.key)
                view = self.view(root)
                if view is not None and len(names & set(view.declared)) >= need:
                    found.append((word, view))
        if group.generated:
            found = self._generated_model(group, found) or self._generated_inner(group, names)
        return found

    def _generated_inner(self, group: ClaimGroup, names: set[str]) -> list[tuple[str, ObjectView]]:
        """A generator's model of an unnamed inner schema, named after the schema it is in:
        ``ContentOneOfInner`` is the items of the array branch of ``Content``'s ``oneOf``
        (OpenAPI Generator's names: ``OneOf``/``AnyOf`` a branch, ``Inner`` an array's items)."""
        title = group.context.split("\n", 1)[0] if group.context else ""
        match = re.fullmatch(r"(?P<base>[A-Z]\w*?)(?P<of>OneOf|AnyOf)?(?P<inner>Inner)?", title)
        if match is None or not (match.group("of") or match.group("inner")):
            return []
        found: list[tuple[str, ObjectView]] = []
        for site in schema_names(self.corpus).get(match.group("base").lower(), []):
            if not self.comparable(group.path, site.document.path):
                continue
            candidates = [site.pointer]
            if match.group("of"):
                keyword = "oneOf" if match.group("of") == "OneOf" else "anyOf"
                branches = site.node.get(keyword) if isinstance(site.node, dict) else None
                candidates = [
                    join_pointer(join_pointer(site.pointer, keyword), i)
                    for i, branch in enumerate(branches if isinstance(branches, list) else [])
                    if isinstance(branch, dict) and (not match.group("inner") or "items" in branch)
                ]
            if match.group("inner"):
                candidates = [join_pointer(c, "items") for c in candidates]
            for pointer in candidates:
                node = self.index.node_at(site.document.path, pointer)
                view = self.view(self.top(node)) if node is not None else None
                if view is not None and len(names & set(view.declared)) * 2 >= len(names):
                    found.append((title, view))
        return found if len(found) == 1 else []

    @staticmethod
    def _generated_model(
        group: ClaimGroup, found: list[tuple[str, ObjectView]]
    ) -> list[tuple[str, ObjectView]]:
        """A generator's model page is the component whose key (else whose ``title``) is its
        title, spelt alike: a same-titled copy (a ``title`` pasted into another component,
        a property's schema) is another model of the generator's."""
        title = group.context.split("\n", 1)[0] if group.context else ""

        def key(view: ObjectView) -> str:
            return view.root.pointer.rsplit("/", 1)[-1]

        def titled(view: ObjectView) -> bool:
            raw = view.root.raw if isinstance(view.root.raw, dict) else {}
            return raw.get("title") == title

        for test in (lambda v: key(v) == title, titled):
            kept = [(word, view) for word, view in found if test(view)]
            if kept:
                return kept
        return found

    def _bind_nested(self, group: ClaimGroup, names: set[str]) -> GroupBinding:
        assert group.parent is not None and group.parent_group is not None
        outer = self.bind(group.parent_group)
        views: list[ObjectView] = []
        for view in outer.views:
            site = view.declared.get(group.parent.name)
            if site is None:
                continue
            inner = follow(self.corpus, site)
            if isinstance(inner.node, dict) and isinstance(inner.node.get("items"), dict):
                inner = follow(
                    self.corpus,
                    Site(inner.document, join_pointer(inner.pointer, "items"), inner.node["items"]),
                )
            node = self.index.node_at(inner.document.path, inner.pointer)
            found = self.view(node) if node is not None else None
            if found is not None and names & set(found.declared):
                views.append(found)
        if not views:
            return GroupBinding(
                group, [], None, "", "", f"`{group.parent.name}`'s schema declares none of them"
            )
        return GroupBinding(
            group, views, None, outer.confidence, f"the members of `{group.parent.name}`"
        )

    @staticmethod
    def _proto_shared(message: ProtoMessage, names: set[str]) -> int:
        return sum(1 for f in message.fields if f.json_name in names or f.name in names)

    def _proto_message(
        self, group: ClaimGroup, names: set[str]
    ) -> tuple[ProtoFile, ProtoMessage] | None:
        """The one proto message declaring the most of the group's fields (more than half,
        two at least), named in the text when several do."""
        if not any(claim.required is not None for claim in group.claims):
            return None
        protos = self.corpus.memo.get("type-claims:protos")
        if protos is None:
            protos = self.corpus.memo["type-claims:protos"] = [
                p for p in own_protos(self.corpus) if p.path in self.corpus.documents
            ]
        need = max(2, math.floor(len(names) / 2) + 1)
        scored = [
            (self._proto_shared(message, names), proto, message)
            for proto in protos
            for message in proto.messages
        ]
        best = max((s for s, _, _ in scored), default=0)
        top = [(p, m) for s, p, m in scored if s == best and s >= need]
        if len(top) > 1:
            words = set(group.context.split())
            top = [(p, m) for p, m in top if m.name.rsplit(".", 1)[-1] in words]
        return top[0] if len(top) == 1 else None


# --- judging ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SchemaType:
    """What a property's schema says of its type."""

    types: frozenset[str] | None  # None: any, or not read with certainty
    format: str | None
    enum: bool
    reference: str | None  # the name of the schema its `$ref` names
    items: Site | None
    site: Site  # where it says it (after `$ref`-only hops)


def schema_type(corpus: Context, site: Site, depth: int = 0) -> SchemaType:
    node = site.node
    reference = None
    if isinstance(node, dict) and isinstance(node.get("$ref"), str):
        reference = _ref_name(node["$ref"])
    here = follow(corpus, site)
    node = here.node
    if not isinstance(node, dict):
        return SchemaType(None, None, False, reference, None, here)
    types: set[str] | None = set(types_of(node)) - {"null"}
    enum = "enum" in node or "const" in node
    if not types:
        values = node.get("enum") if isinstance(node.get("enum"), list) else None
        if values is None and "const" in node:
            values = [node["const"]]
        if values:
            types = {json_type(v) for v in values if v is not None}
        elif any(k in node for k in _SHAPE_KEYWORDS):
            # `properties` or `items` without a `type` constrain objects or arrays only, and
            # let every other value through (Validation 2020-12 §10.3): no type is said.
            types = None
        else:
            types, all_enum = _composed_types(corpus, here, depth)
            enum = enum or all_enum
    one_of = node.get("oneOf")
    if isinstance(one_of, list) and all(isinstance(b, dict) and "const" in b for b in one_of):
        enum = True  # a `oneOf` of `const`s is an enumeration written with a description each
    items = node.get("items")
    items_site = (
        Site(here.document, join_pointer(here.pointer, "items"), items)
        if isinstance(items, dict)
        else None
    )
    fmt = node.get("format") if isinstance(node.get("format"), str) else None
    return SchemaType(frozenset(types) if types else None, fmt, enum, reference, items_site, here)


_SHAPE_KEYWORDS = (
    "properties",
    "patternProperties",
    "additionalProperties",
    "items",
    "prefixItems",
)


def _composed_types(corpus: Context, here: Site, depth: int) -> tuple[set[str] | None, bool]:
    """The types an ``allOf`` (what every branch that says one allows) or a ``oneOf``/``anyOf``
    (what some branch allows, when every branch says) gives, and whether all are enums."""
    node = here.node
    found: set[str] | None = None
    enums: list[bool] = []
    for keyword in ("allOf", "oneOf", "anyOf"):
        listed = node.get(keyword)
        if not isinstance(listed, list) or not listed:
            continue
        if depth >= 4:
            return None, False
        at = join_pointer(here.pointer, keyword)
        inner = [
            schema_type(corpus, Site(here.document, join_pointer(at, i), branch), depth + 1)
            for i, branch in enumerate(listed)
            if isinstance(branch, dict)
        ]
        if keyword == "allOf":
            known = [set(t.types) for t in inner if t.types]
            here_types = set.intersection(*known) if known else None
        elif len(inner) == len(listed) and all(t.types for t in inner):
            here_types = {kind for t in inner for kind in t.types or ()}
        else:
            return None, False  # a branch that allows anything
        enums += [t.enum for t in inner]
        if here_types is not None:
            found = here_types if found is None else found & here_types
    return found, bool(enums) and all(enums)


def _ref_name(reference: str) -> str:
    address, _, fragment = reference.partition("#")
    if fragment.strip("/"):
        return fragment.rstrip("/").rsplit("/", 1)[-1]
    stem = address.rsplit("/", 1)[-1]
    for suffix in (".json", ".yaml", ".yml", ".schema"):
        stem = stem.removesuffix(suffix)
    return stem


def _normal(name: str) -> str:
    name = re.sub(r"[^a-z0-9]", "", name.lower())
    for suffix in ("schema", "object", "type"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    return name


def contradiction(
    corpus: Context, claim: TypeClaim, site: Site, known: Mapping[str, Any]
) -> str | None:
    """What the schema at ``site`` says that ``claim`` contradicts, or None."""
    said = schema_type(corpus, site)
    if claim.named is not None:
        # The `$ref`'s last segment names the target in the author's files; a bundler's
        # pointer (`.../payload`) does not, and the target's `title` then does.
        title = said.site.node.get("title") if isinstance(said.site.node, dict) else None
        names = {_normal(n) for n in (said.reference, title) if isinstance(n, str)}
        if said.reference is None or _normal(claim.named) in names:
            return None
        if claim.named.lower() not in known:
            return None  # a word the corpus names no schema by: not judged
        return f"`$ref` names `{said.reference}`"
    if said.types is None:
        return None
    if claim.types is not None:
        allowed = set(said.types)
        if "number" in allowed:
            allowed.add("integer")
        if not (claim.types & allowed):
            return f"`type: {' | '.join(sorted(said.types))}`"
    if claim.enum and not said.enum:
        return "no `enum` or `const`"
    if claim.format is not None and said.format is not None:
        a = _SAME_FORMAT.get(claim.format, claim.format)
        b = _SAME_FORMAT.get(said.format, said.format)
        if a != b:
            return f"`format: {said.format}`"
    if claim.items is not None and said.items is not None and "array" in said.types:
        inner = contradiction(corpus, claim.items, said.items, known)
        if inner is not None:
            return f"items with {inner}"
    return None


def field_behaviors(document: Document | None, field_: ProtoField) -> frozenset[str]:
    """The ``google.api.field_behavior`` values written on a field, read from its source (from
    the field's line to the ``;`` that ends it)."""
    if document is None or not document.text:
        return frozenset()
    lines = document.lines
    text = "\n".join(lines[field_.line - 1 : field_.line + 8])
    text = text[max(0, field_.column - 1) :] if "\n" not in text[: field_.column] else text
    end = text.find(";")
    text = text[: end if end >= 0 else len(text)]
    found = re.findall(r"\(\s*google\.api\.field_behavior\s*\)\s*=\s*\[?([A-Z_,\s]+)\]?", text)
    return frozenset(w for group in found for w in re.split(r"[\s,]+", group) if w)


def every_group(corpus: Context) -> Iterator[ClaimGroup]:
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        yield from claim_groups(document)


def every_section_group(corpus: Context) -> Iterator[ClaimGroup]:
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        yield from section_groups(document)


def every_member_claim(corpus: Context) -> Iterator[SentenceClaim]:
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        yield from member_claims(document)
        yield from dotted_members(document)
