"""Which schema a Markdown code fence illustrates, and the JSON inside it with positions.

Spec prose shows payloads in fenced code blocks. A fence is *tied* to a schema, strongest first:

1. by its info string: ```` ```json schema=schemas/run-options.schema.json ````;
2. by a marker comment on the lines just above it: ``<!-- normative-example: error.schema.json -->``
   (the marker keys are configurable; OpenWOP writes ``normative-example``);
3. by configuration: ``"spec/rest.md#create-a-run" = "schemas/run-request.schema.json"`` ties every
   JSON fence under that heading (or, without ``#anchor``, in that file);
4. by adjacency: the paragraph that ends just above the fence names exactly one schema file, as a
   link or a backticked file name ("Schema: `run-options.schema.json`");
5. by definition name: that paragraph, or else the fence's heading, names in a code span one
   schema definition of the corpus, by its ``$defs``/``definitions`` key or its ``title``
   (specification pages write "Request `MessageSendParams` object"), and no other definition of
   the page's version line has that name;
6. by the example's values (issue 28): the schema it names as its own (``$schema``,
   ``_schemaURL``, as a corpus schema's ``$id`` or path); else the values it gives to properties
   that definitions fix
   with a ``const`` or an ``enum`` (JSON-RPC's ``"method": "message/send"``, ``"kind": "task"``,
   ``"eventType": "START"``) leave exactly one definition of the page's version line that allows
   them all, and that definition declares most of the example's members; of a definition the
   repository keeps at several versions (``schemas/Event/1.0.0.json``, ``order-v2.json``), the
   version whose own ``version``-like member (``meta.version``) fixes the example's value;
7. by the operation it sits under: the fence's heading or the paragraph above it names an
   OpenAPI operation by method and path ("#### `POST /v1/runs` request") and says which side it
   shows, so the example is that operation's request body or success response (one schema); a
   JSON-RPC response (a ``result`` with no ``method``) answers the request shown above it in its
   section (the same ``id``) or the method its heading or paragraph names, so its ``result`` is
   the result definition of that method (``CallToolRequest`` -> ``CallToolResult``; or the whole
   is the method's ``...SuccessResponse``/``...Response`` where that declares ``result``); and
   by the exchange it is part of: the body an HTTP request fence shows (an ``http`` fence, a
   ``curl -d``), or a fence after it that a status line or the words above say is the request
   or a response, is that body of the operation the request calls
   (``speclint.analyses.api.exchanges``);
8. by the example's shape: exactly one definition declares every member the example has (three
   or more), or one fits clearly better than any other; a missing required member does not stop
   the binding (it is the defect to report). A Kubernetes-style object (``apiVersion`` and
   ``kind``) needs three members beyond those every such object has (``metadata``, ``spec``,
   ``status``), and no definition fixing another ``kind`` or ``apiVersion`` is its (ties 6 to 8);
9. as an excerpt of a root document: its top-level members are members of the root of a schema
   that describes a whole file (``pipelines: {build: {...}}``), or it sits under a heading that
   names a root member (``## `init_steps```): a partial document of that root, or that
   member's value (``speclint.analyses.prose.fragments``);
10. by its heading, where nothing above binds it: the heading is example words and the name of
    one definition ("Full Manifest Example" for a schema titled ``manifest``), which declares
    at least half of the example's members (an example whose misplaced member is the very
    defect that keeps it from binding by shape);
11. a member of an example bound whole, by its key: a reverse-DNS extension name
    (``io.cnab.dependencies``) whose host and last segment are one schema's ``$id`` host and
    file name (``https://cnab.io/specs/v1/dependencies.schema.json``) is an instance of that
    schema, the extension's own, where the map of extensions holding it says nothing of it.

The definitions of ties 5 to 8 are the schema files' and the OpenAPI 3 and AsyncAPI documents'
components, copies of one definition counted once (``speclint.analyses.api.api_definitions``).

The first three are *explicit*: the author said which schema the example follows, so a tie that names
no corpus schema, or an example that is not JSON, is itself worth a finding. The others are
inferences, dropped quietly when they are ambiguous. Ties 6 to 8 read the example itself, so the
example is a whole instance of what it binds to (or, for a fragment, the part of it they name).

``jsonc`` fences may hold ``//`` and ``/* */`` comments and trailing commas; they are blanked to
spaces before parsing so every line and column still matches the Markdown source.
"""

from __future__ import annotations

import functools
import json
import posixpath
import re
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast
from urllib.parse import unquote, urldefrag, urlsplit

from referencing.exceptions import NoSuchResource, Unresolvable

from speclint.analyses.api.api_definitions import (
    component_name,
    component_places,
    one_per_definition,
    same_file_at_versions,
    superseded_page,
)
from speclint.analyses.api.exchanges import EXAMPLE_LANGUAGES, page_exchanges, side_said
from speclint.analyses.api.operations import Operation, named_operations
from speclint.analyses.api.spellings import declared_by_convention
from speclint.analyses.context import Context
from speclint.analyses.prose.fragments import (
    BY_FRAGMENT,
    BY_PAGE,
    BY_SECTION,
    Fragment,
    called_otherwise,
    document_roots,
    root_fragment,
)
from speclint.analyses.schemas.references import file_uri, map_remote
from speclint.model.corpus import Document
from speclint.parsing.kinds import SAMPLE_FOLDERS, DocumentKind, at_example, in_design_folder
from speclint.parsing.prose import (
    CodeFence,
    CommentBlocks,
    Heading,
    InlineCode,
    Paragraph,
    ProseDocument,
)
from speclint.parsing.structured import (
    Parsed,
    ParseFailure,
    escape_token,
    follow_local,
    holds_pointer,
    parse_json,
    parse_yaml,
    resolve_pointer,
    split_pointer,
    strip_jsonc,
)
from speclint.parsing.transcripts import http_bodies
from speclint.parsing.versions import order_key

DEFAULT_MARKERS = ("normative-example", "schema", "example-of")
JSON_LANGUAGES = ("json", "jsonc")
SCHEMA_FILE = re.compile(r"^[\w./@-]+\.json(?:#\S*)?$")
_MARKER = re.compile(r"<!--\s*([\w-]+)\s*:\s*(\S+?)\s*-->")
BY_VALUE = "example value"
BY_SHAPE = "example shape"
BY_OPERATION = "example operation"
BY_EXCHANGE = "example exchange"
BY_HEADING = "heading name"
BY_EXTENSION = "extension name"
BY_LEAD_IN = "lead-in"
BY_TITLE = "section title"
BY_SHARED = "shared member"
BY_ELEMENTS = "member elements"
# An example file a schema names as its example (`example: {$ref: ../examples/edu.json}`).
BY_REFERENCE = "example reference"
# The ties of an excerpt of a root document (speclint.analyses.prose.fragments).
FRAGMENT_TIES = frozenset({BY_FRAGMENT, BY_SECTION, BY_PAGE})
# The ties by what the example is (6 to 8, a fragment of a root document: tie 9, and an HTTP
# exchange's bodies).
BY_EXAMPLE = (
    frozenset(
        {
            BY_SHARED,
            BY_ELEMENTS,
            BY_VALUE,
            BY_SHAPE,
            BY_OPERATION,
            BY_EXCHANGE,
            BY_EXTENSION,
            BY_LEAD_IN,
        }
    )
    | FRAGMENT_TIES
)
# The ties by text that names a schema: what they bind is often one block of a larger document,
# so what the example leaves out (``required``) is not judged.
BY_TEXT = frozenset({"adjacent text", "definition name", BY_HEADING, BY_TITLE})
# Every tie speclint infers (not one the author wrote): by what the example is, or by the text.
INFERRED = BY_EXAMPLE | BY_TEXT
# The languages of a fence that holds an example: JSON and YAML; an untagged fence whose content
# is a JSON object is one too.
YAML_LANGUAGES = ("yaml", "yml")
SHAPE_MINIMUM = 3  # members an example needs before its shape alone binds it
SHAPE_MARGIN = 2.0  # the best fit by shape must fill its definition this many times the next
# A definition name as prose writes it in a code span: an identifier, not a sentence.
_DEFINITION_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{2,}$")
_INFO_ATTRIBUTE = re.compile(r"""\bschema\s*=\s*["']?([^"'\s]+)""")


@dataclass(frozen=True)
class SchemaTarget:
    document: Document
    pointer: str  # JSON pointer inside the schema document ("" for its root)

    @property
    def label(self) -> str:
        return self.document.path + (f"#{self.pointer}" if self.pointer else "")


@dataclass(frozen=True)
class FenceTie:
    fence: CodeFence
    how: str  # "info string" | "marker comment" | "configuration" | "adjacent text" | "definition name"
    named: str  # the schema as the author wrote it
    target: SchemaTarget | None  # None: the name matches no schema in the corpus
    line: int  # where the tie is written (the marker, the paragraph, or the fence itself)
    # A tie by the example itself: what in it binds (`` `method: "message/send"` ``).
    evidence: str = ""
    # Where in the example the bound instance is: "" for the whole, "/result" for the part of a
    # larger message bound by its own values (a fragment).
    part: str = ""
    # The example is a fragment of its definition: one or two of its members, shown alone
    # (`{"aiProviders": {...}}` of a capabilities document), so what else it requires is not
    # the example's to give.
    fragment: bool = False
    # Bound by the schema the example names as its own (``$schema``, ``_schemaURL``: tie 6).
    own_schema: bool = False

    @property
    def explicit(self) -> bool:
        return self.how not in INFERRED

    @property
    def phrase(self) -> str:
        """What binds the example, as a finding says it: "the marker comment", "its
        `method: "message/send"`"."""
        if self.how == BY_VALUE:
            return f"its {self.evidence}"
        if self.how in (BY_SHAPE, BY_SHARED, BY_ELEMENTS) or self.how in FRAGMENT_TIES:
            return f"its members ({self.evidence})"
        if self.how in (BY_OPERATION, BY_EXCHANGE):
            return f"its place ({self.evidence})"
        if self.how == BY_LEAD_IN:
            return f"its lead-in ({self.evidence})"
        return f"the {self.how}"


@dataclass(frozen=True)
class Binding:
    """How examples are tied to schemas: example-invalid's options (``Binding.of``), read
    once for the rule and for ``speclint bindings`` alike."""

    markers: tuple[str, ...] = DEFAULT_MARKERS
    configured: Mapping[str, str] = field(default_factory=dict)
    adjacent: bool = True  # ties 4 and 5, by the text above
    value: bool = True  # tie 6
    shape: bool = True  # tie 8
    operation: bool = True  # tie 7

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Binding:
        return cls(
            tuple(str(m) for m in options.get("markers", DEFAULT_MARKERS)),
            {str(k): str(v) for k, v in dict(options.get("fences", {})).items()},
            bool(options.get("adjacent", True)),
            bool(options.get("by-value", True)),
            bool(options.get("by-shape", True)),
            bool(options.get("by-operation", True)),
        )

    @property
    def by_example(self) -> bool:
        """Whether any tie by the example itself (6 to 8) is on."""
        return self.value or self.shape or self.operation


# The ties by text only (1 to 5): what the rules that read fences without example-invalid's
# options (and tests) ask for.
BY_TEXT_ONLY = Binding(value=False, shape=False, operation=False)


def comment_blocks(document: Document) -> CommentBlocks:
    """The page's :class:`CommentBlocks`, made once per page."""
    return document.remember(
        "comment-blocks", functools.partial(CommentBlocks, document.prose, document.lines)
    )


def fence_ties(
    corpus: Context,
    document: Document,
    binding: Binding = BY_TEXT_ONLY,
    languages: tuple[str, ...] = JSON_LANGUAGES,
) -> Iterator[FenceTie]:
    """Every fence of a Markdown ``document`` in ``languages`` that is tied to a schema; with a
    tie by the example on in ``binding``, also the JSON and YAML examples bound by what they
    are (ties 6 to 8)."""
    prose = document.prose
    if prose is None or document.text is None:
        return
    lines = document.text.split("\n")
    page = _Page(prose, comment_blocks(document))
    asked: dict[int, tuple[str, Any]] = {}  # section (heading line) -> the request shown last
    exchanged = _by_exchange(corpus, document) if binding.operation else {}
    for fence in prose.fences:
        tie = None
        if fence.language in languages:
            tie = _tie(corpus, document, fence, lines, page, binding)
        found: list[FenceTie] = []
        if tie is not None:
            found = [tie]
        elif fence.line in exchanged:
            found = exchanged[fence.line]
        elif binding.by_example and fence.language in EXAMPLE_LANGUAGES:
            found = list(_by_example(corpus, document, fence, binding, asked, page))
            if not found and binding.shape:
                named = _by_heading(corpus, document, fence, page)
                if named is None:
                    named = _by_lead_in(corpus, document, fence, page)
                if named is None:
                    named = _by_title(corpus, document, fence)
                found = [named] if named is not None else []
        yield from found
        if binding.value and any(t.target is not None and not t.part for t in found):
            yield from _extension_ties(corpus, fence, found)


class _Page:
    """What a page says above its fences, indexed once per page: the paragraph ending on a line,
    the last one ending before a line, the code spans of a line, and the definitions of the
    page's version line. Asked of every fence, a scan of every code span (for the heading's,
    tie 5) and of every paragraph (for the one above, tie 7) made a page of many fences
    quadratic (review of issue 44, item 4: 20,000 fences under `` ## `Thing` i `` headings took
    16 s, 50,000 outlived the rule's time box)."""

    def __init__(self, prose: ProseDocument, comments: CommentBlocks) -> None:
        self.comments = comments
        paragraphs = prose.paragraphs
        self.by_end = {p.end_line: p for p in paragraphs}
        # The last paragraph (in page order) ending before a line: indexes ordered by end line,
        # each with the latest index among those up to it.
        order = sorted(range(len(paragraphs)), key=lambda i: paragraphs[i].end_line)
        self.paragraphs = paragraphs
        self.ends = [paragraphs[i].end_line for i in order]
        self.latest: list[int] = []
        for index in order:
            self.latest.append(max(self.latest[-1], index) if self.latest else index)
        self.spans: dict[int, list[InlineCode]] = {}
        for code in prose.inline_code:
            self.spans.setdefault(code.line, []).append(code)
        self._candidates: list[Definition] | None = None

    def paragraph_above(self, fence: CodeFence) -> str | None:
        """The text of the paragraph ending just above the fence (a blank line between at
        most; comments between, a waiver or a marker, do not part them)."""
        top = self.comments.above(fence.line)
        found = bisect_left(self.ends, top)
        before = self.paragraphs[self.latest[found - 1]] if found else None
        if before is not None and top - before.end_line <= 2:
            return before.plain
        return None

    def candidates(self, corpus: Context, document: Document) -> list[Definition]:
        """The definitions an example of the page can be an instance of (ties 6 to 8)."""
        if self._candidates is None:
            self._candidates = _candidates(corpus, document)
        return self._candidates


def _tie(
    corpus: Context,
    document: Document,
    fence: CodeFence,
    lines: list[str],
    page: _Page,
    binding: Binding,
) -> FenceTie | None:
    def tie(how: str, named: str, line: int) -> FenceTie:
        return FenceTie(fence, how, named, resolve_schema(corpus, document.path, named), line)

    attribute = _INFO_ATTRIBUTE.search(fence.info)
    if attribute:
        return tie("info string", attribute.group(1), fence.line)
    # Walk up over blank lines and comments (a marker, a waiver: HTML or MDX's JSX comments) to
    # the block that precedes the fence.
    blocks = page.comments
    line = fence.line - 1
    while line >= 1:
        row = lines[line - 1]
        if not row.strip():
            line -= 1
            continue
        first = blocks.first_of.get(line, line if row.lstrip().startswith("<!--") else None)
        if first is None:
            break
        for number in range(line, first - 1, -1):
            for key, value in _MARKER.findall(lines[number - 1]):
                if key in binding.markers:
                    return tie("marker comment", value, number)
        line = first - 1
    keys = [f"{document.path}#{fence.heading.anchor}"] if fence.heading else []
    for key in [*keys, document.path]:
        if key in binding.configured:
            return tie("configuration", binding.configured[key], fence.line)
    if not binding.adjacent:
        return None
    paragraph = page.by_end.get(line) if line >= 1 else None
    if paragraph is None:
        return _by_definition(corpus, document, fence, None, page)
    names = {
        *(link.target for link in paragraph.links),
        *(code.text for code in paragraph.inline_code),
    }
    found: dict[str, SchemaTarget] = {}
    for name in sorted(names):
        if not SCHEMA_FILE.match(name) or "://" in name:
            continue
        target = resolve_schema(corpus, document.path, name)
        if target is None:
            continue
        found.setdefault(target.label, target)
    if len(found) > 1:
        return None
    if not found:
        return _by_definition(corpus, document, fence, paragraph, page)
    (target,) = found.values()
    return FenceTie(fence, "adjacent text", target.label, target, paragraph.line)


def _by_definition(
    corpus: Context, document: Document, fence: CodeFence, paragraph: Paragraph | None, page: _Page
) -> FenceTie | None:
    """Tie 5: a definition the paragraph above, else the fence's heading, says the fence *is*.

    Only a text that names one thing and calls it the object shown counts: a heading that is the
    name and object words ("7.1.1. `MessageSendParams` Object"), or a paragraph introducing the
    fence (ending in ":") whose only code span is the name, followed by an object word or in a
    few words ("Request `MessageSendParams` object:"). A text that names a definition among
    other things ("each `AgentSkill` maps to a `WorkflowDefinition`:") ties nothing.
    """
    candidates: list[tuple[int, str]] = []
    if paragraph is not None and paragraph.plain.rstrip().endswith(":"):
        spans = paragraph.inline_code
        if len(spans) == 1 and _introduces(paragraph.plain, spans[0].text):
            candidates.append((paragraph.line, spans[0].text))
    elif paragraph is None and fence.heading is not None:
        spans = tuple(page.spans.get(fence.heading.line, ()))
        if len(spans) == 1 and _names_only(fence.heading.text, spans[0].text):
            candidates.append((fence.heading.line, spans[0].text))
    index = definition_index(corpus)
    for line, name in candidates:
        if not _DEFINITION_NAME.match(name):
            continue
        found = _sources_of_truth(
            corpus,
            document,
            [
                target
                for target in (
                    *index.get(name, ()),
                    *(
                        ()
                        if superseded_page(document.path)
                        else component_index(corpus).get(name, ())
                    ),
                )
                if corpus.versions.comparable(document.path, target.document.path)
            ],
        )
        if len(found) == 1:
            return FenceTie(fence, "definition name", name, found[0], line)
    return None


# Words that call a name the object a fence shows ("`X` object", "Example `X` payload").
_OBJECT_WORDS = frozenset(
    [
        "object",
        "objects",
        "payload",
        "schema",
        "message",
        "type",
        "example",
        "request",
        "response",
        "params",
        "parameters",
        "result",
        "body",
        "structure",
        "definition",
        "format",
        "shape",
    ]
)


def _introduces(plain: str, name: str) -> bool:
    words = re.findall(r"[\w.-]+", plain.replace(name, " NAME "))
    if "NAME" not in words:
        return False
    following = words[words.index("NAME") + 1 : words.index("NAME") + 2]
    return bool(following and following[0].lower() in _OBJECT_WORDS) or len(words) <= 6


def _names_only(heading: str, name: str) -> bool:
    rest = re.findall(r"[A-Za-z]+", heading.replace(name, " "))
    return all(word.lower() in _OBJECT_WORDS for word in rest)


# The words a heading adds to the name of what its example shows ("Full Manifest Example",
# "A complete `Order` object", "Example 2: minimal order").
_HEADING_FILLER = _OBJECT_WORDS | {
    "a",
    "an",
    "the",
    "of",
    "full",
    "complete",
    "whole",
    "sample",
    "samples",
    "examples",
    "minimal",
    "basic",
    "simple",
    "typical",
    "json",
    "yaml",
    "file",
    "document",
}


def _squeezed(name: str) -> str:
    """A name as a heading may write it: in any case, words run together (``Agent Card`` for
    ``AgentCard``, ``agent_card``)."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


# A reverse-DNS name (`io.cnab.dependencies`, `com.example.backup-preferences`): the name an
# extension goes by in an open map of extensions (a bundle's `custom`, an annotations object).
_REVERSE_DNS = re.compile(r"^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*){2,}$")


def _extension_ties(corpus: Context, fence: CodeFence, ties: list[FenceTie]) -> Iterator[FenceTie]:
    """Tie 11: a member of a bound example whose key is a reverse-DNS extension name, bound to
    the one schema of the corpus that name describes: its ``$id`` is on the host the name's
    leading segments give reversed, and its file is named by the last (``io.cnab.dependencies``
    and ``https://cnab.io/specs/v1/dependencies.schema.json``). The map of extensions is open
    (any name, any value), so the definition the example binds to says nothing of that value;
    the extension's own schema does."""
    if not _extension_index(corpus):
        return  # no schema has an `$id` on a host: no name to read
    try:
        data = fence_data(fence, lenient=True).data
    except ParseFailure:
        return
    bound = {t.target.label for t in ties if t.target is not None}
    for pointer, key in _reverse_dns_members(data, "", 0):
        target = _extension_schema(corpus, key)
        if target is None or target.label in bound:
            continue
        evidence = (
            f"`{key}`, the reverse-DNS name of `{_name(target)}` "
            f"(`$id` {target.document.data.get('$id')})"
        )
        yield FenceTie(fence, BY_EXTENSION, target.label, target, fence.line, evidence, pointer)


def _reverse_dns_members(data: Any, at: str, depth: int) -> Iterator[tuple[str, str]]:
    """Where in ``data`` an object member's key is a reverse-DNS name (not inside one)."""
    if depth > 8:
        return
    items = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    for key, value in items:
        pointer = f"{at}/{escape_token(str(key))}"
        if isinstance(data, dict) and _REVERSE_DNS.match(str(key)):
            yield pointer, str(key)
        else:
            yield from _reverse_dns_members(value, pointer, depth + 1)


def _extension_schema(corpus: Context, name: str) -> SchemaTarget | None:
    """The one schema file whose ``$id`` host and file name a reverse-DNS name gives."""
    *domain, last = name.split(".")
    found = _extension_index(corpus).get((".".join(reversed(domain)), last), ())
    return found[0] if len(found) == 1 else None


def _extension_index(corpus: Context) -> Mapping[tuple[str, str], tuple[SchemaTarget, ...]]:
    """The schema files by their ``$id``'s host and file name (without extensions). Built
    once."""
    cached = corpus.memo.get("extension_index")
    if cached is None:
        found: dict[tuple[str, str], list[SchemaTarget]] = {}
        for document in corpus.of_kind(DocumentKind.SCHEMA):
            data = document.data
            identifier = data.get("$id") if isinstance(data, dict) else None
            if document.path in corpus.derived or not isinstance(identifier, str):
                continue
            address = urlsplit(identifier)
            stem = posixpath.basename(address.path).split(".")[0]
            if address.hostname and stem:
                found.setdefault((address.hostname, stem), []).append(SchemaTarget(document, ""))
        cached = corpus.memo["extension_index"] = {k: tuple(v) for k, v in found.items()}
    return cast(Mapping[tuple[str, str], tuple[SchemaTarget, ...]], cached)


def _squeezed_index(corpus: Context) -> Mapping[str, tuple[tuple[str, SchemaTarget], ...]]:
    """The definition names of the schema files and the API components by their
    :func:`_squeezed` form, with the names as written. Built once."""
    cached = corpus.memo.get("squeezed_index")
    if cached is None:
        found: dict[str, list[tuple[str, SchemaTarget]]] = {}
        for index in (definition_index(corpus), component_index(corpus)):
            for name, targets in index.items():
                found.setdefault(_squeezed(name), []).extend((name, t) for t in targets)
        cached = corpus.memo["squeezed_index"] = {k: tuple(v) for k, v in found.items()}
    return cast(Mapping[str, tuple[tuple[str, SchemaTarget], ...]], cached)


def _by_heading(
    corpus: Context, document: Document, fence: CodeFence, page: _Page
) -> FenceTie | None:
    """An example that nothing else binds (its values fix nothing, its shape fits no definition:
    a member misplaced at the top level is the very defect that keeps it from binding by shape),
    bound by its heading: what the heading says besides example words ("Full Manifest Example")
    is the name of one definition of the page's version line (a schema's root ``title``, a
    ``$defs`` key or title, a component), in any case and spacing, and that definition declares
    at least half of the example's members. A tie by text (``BY_TEXT``): what the example
    leaves out is judged only where it gives most of what the definition requires. A heading
    of example words only ("### Example") is the caption of its section's subject: the heading
    above it ("## Manifest") names the definition."""
    heading = fence.heading
    if heading is None or in_design_folder(document.path):
        return None
    words = re.findall(r"[A-Za-z][\w-]*", heading.text)
    rest = [w for w in words if w.lower() not in _HEADING_FILLER]
    caption = heading.text
    if words and not rest and len(heading.path) >= 2:
        caption = heading.path[-2]
        rest = [
            w for w in re.findall(r"[A-Za-z][\w-]*", caption) if w.lower() not in _HEADING_FILLER
        ]
    elif len(rest) == len(words):
        return None  # no word of the heading says it captions an example
    if not rest or len(rest) > 3:
        return None  # a heading of example words only, or a sentence
    wanted = _squeezed("".join(rest))
    try:
        data = fence_data(fence, lenient=True).data
    except ParseFailure:
        return None
    if not isinstance(data, dict) or not data:
        return None
    named = [
        (name, target)
        for name, target in _squeezed_index(corpus).get(wanted, ())
        if corpus.versions.comparable(document.path, target.document.path)
    ]
    if superseded_page(document.path):
        named = [(n, t) for n, t in named if t.document.kind is DocumentKind.SCHEMA]
    found = _sources_of_truth(corpus, document, [t for _, t in named])
    if len(found) != 1:
        return None
    (target,) = found
    keys = frozenset(str(k) for k in data)
    fit = _fit(corpus, target.document, target.pointer, keys)
    if fit is None or not fit.of_its_shape:
        return None  # the heading names it, but the example is not of its shape
    name = next(n for n, t in named if t.label == target.label)
    evidence = (
        f'the heading "{caption}" names `{name}`, which declares {fit.declared} of its '
        f"{fit.members} members"
    )
    return FenceTie(fence, BY_HEADING, target.label, target, heading.line, evidence)


def _by_title(corpus: Context, document: Document, fence: CodeFence) -> FenceTie | None:
    """An example nothing else binds, under a heading that is the name of one definition of the
    page's version line and nothing else, in words or run together, singular or plural
    ("### Knowledge graph", "## Results", "#### `Message`"): the section is about that thing,
    and its example shows one where the definition declares EVERY member it has. A section about
    a thing often shows something else (a member misplaced at the top level is the sign of
    that, and binds nothing here); an example all of whose members are the named definition's
    is one of it (issue 46, round 5: a tutorial walking through a message part by part)."""
    heading = fence.heading
    if heading is None or in_design_folder(document.path):
        return None
    words = re.findall(r"[A-Za-z][\w-]*", heading.text)
    if not words or len(words) > 3 or re.search(r"[^\w\s`.()-]", heading.text):
        return None  # a sentence, a question, or a heading of several names
    squeezed = _squeezed("".join(words))
    try:
        data = fence_data(fence, lenient=True).data
    except ParseFailure:
        return None
    if not isinstance(data, dict) or not data:
        return None
    keys = frozenset(str(k) for k in data)
    for wanted in dict.fromkeys((squeezed, squeezed[:-1] if squeezed.endswith("s") else squeezed)):
        named = [
            (name, target)
            for name, target in _squeezed_index(corpus).get(wanted, ())
            if corpus.versions.comparable(document.path, target.document.path)
        ]
        if superseded_page(document.path):
            named = [(n, t) for n, t in named if t.document.kind is DocumentKind.SCHEMA]
        found = _newest_release(_sources_of_truth(corpus, document, [t for _, t in named]))
        if len(found) != 1:
            continue
        (target,) = found
        fit = _fit(corpus, target.document, target.pointer, keys)
        name = next(n for n, t in named if t.label == target.label)
        if fit is not None and fit.declared == 0 and len(data) == 1:
            return _map_entry(corpus, fence, heading, name, target, data)
        if fit is None or fit.declared != fit.members:
            return None  # the section names it, but the example shows something else
        if len(words) == 1 and len(data) < 2:
            return None  # one member under a one-word heading ("## Response"): too little
        evidence = (
            f'the heading "{heading.text}" names `{name}`, which declares every one of its '
            f"{fit.members} members"
        )
        return FenceTie(fence, BY_TITLE, target.label, target, heading.line, evidence)
    return None


_API_KINDS = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)


def _map_entry(
    corpus: Context,
    fence: CodeFence,
    heading: Heading,
    name: str,
    section: SchemaTarget,
    data: dict[str, Any],
) -> FenceTie | None:
    """One entry of a map the section's definition holds, shown alone by its key
    (``"creative_edge": {...}`` under "### Knowledge Graph", whose ``edges`` map an id to an
    ``Edge``): its value bound to the one map element definition of the section's that declares
    every member it has (two or more)."""
    ((key, value),) = data.items()
    if not isinstance(value, dict) or len(value) < 2:
        return None
    members = frozenset(str(k) for k in value)
    node = resolve_pointer(section.document.data, section.pointer)
    declared = node.get("properties") if isinstance(node, dict) else None
    fitting: dict[str, SchemaTarget] = {}
    for member in declared.values() if isinstance(declared, dict) else ():
        held = _unwrapped(member)
        if not isinstance(held, dict) or "additionalProperties" not in held:
            continue
        element = _local_target(section.document, held.get("additionalProperties"))
        fit = _fit(corpus, element.document, element.pointer, members) if element else None
        if element is not None and fit is not None and fit.declared == fit.members:
            fitting[element.label] = element
    if len(fitting) != 1:
        return None
    (element,) = fitting.values()
    evidence = (
        f'the heading "{heading.text}" names `{name}`, whose map of `{_name(element)}` the '
        f"entry `{key}` is one of: `{_name(element)}` declares every one of its "
        f"{len(members)} members"
    )
    part = f"/{escape_token(str(key))}"
    return FenceTie(fence, BY_TITLE, element.label, element, heading.line, evidence, part)


def _newest_release(targets: list[SchemaTarget]) -> list[SchemaTarget]:
    """Of one component name in several API documents, each a release of one API kept beside
    another (``docs/api.yaml`` at 1.6.0 and ``api.yaml`` at 2.0.0), the newest's: a page that
    names no release describes the current one. Newest by ``info.version`` where every document
    gives one, else by the OpenAPI/AsyncAPI version it is written in (a document moved to 3.1
    is the later one; a template's ``info.version`` is often a placeholder). Anything else (a
    name in a schema file, two documents at one version) is left as it is."""
    if len(targets) < 2 or any(t.document.kind not in _API_KINDS for t in targets):
        return targets
    for field_of in (_info_version, _format_version):
        releases = {field_of(t.document.data): t for t in targets}
        if None not in releases and len(releases) == len(targets):
            return [releases[max(k for k in releases if k is not None)]]
    return targets


def _numbers(value: Any) -> tuple[int, ...] | None:
    matched = re.match(r"^v?(\d+(?:\.\d+)*)", value) if isinstance(value, str) else None
    return tuple(int(n) for n in matched.group(1).split(".")) if matched else None


def _info_version(data: Any) -> tuple[int, ...] | None:
    info = data.get("info") if isinstance(data, dict) else None
    return _numbers(info.get("version")) if isinstance(info, dict) else None


def _format_version(data: Any) -> tuple[int, ...] | None:
    if not isinstance(data, dict):
        return None
    return _numbers(data.get("openapi", data.get("asyncapi")))


# The sentence that leads in to an example and names what it is, in words: "A USD -> USDC
# offering could appear as:", "Example request body for a Widget:".
_LEAD_IN = (
    re.compile(
        r"\b(?:an?|the|this|one)\s+(?:[^\s:.]+\s+){0,8}?`?(?P<noun>[A-Za-z][\w-]*)`?\s+"
        r"(?:could|would|might|may|can|will|should|does)\s+(?:look|appear|read)\s+"
        r"(?:like|as)(?:\s+follows)?\s*:\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bexample(?:\s+[\w-]+){0,3}\s+(?:for|of)\s+(?:an?|the)\s+`?(?P<noun>[A-Za-z][\w-]*)`?"
        r"\s*:\s*$",
        re.IGNORECASE,
    ),
)


def _by_lead_in(
    corpus: Context, document: Document, fence: CodeFence, page: _Page
) -> FenceTie | None:
    """An example nothing else binds, led in by a sentence that names what it is ("An offering
    could appear as:"): the one definition of the page's version line that name is (a
    definition name, or a schema file's name, ``offering.schema.json``), where it declares
    some of the example's members. Judged whole: the sentence says it shows one."""
    text = page.paragraph_above(fence)
    if text is None or in_design_folder(document.path):
        return None
    matched = next((m for m in (p.search(text.strip()) for p in _LEAD_IN) if m), None)
    if matched is None:
        return None
    noun = _squeezed(matched.group("noun"))
    try:
        data = fence_data(fence, lenient=True).data
    except ParseFailure:
        return None
    if not isinstance(data, dict) or not data:
        return None
    for wanted in dict.fromkeys((noun, noun[:-1] if noun.endswith("s") else noun)):
        named = [
            t
            for _, t in _squeezed_index(corpus).get(wanted, ())
            if corpus.versions.comparable(document.path, t.document.path)
        ] + [
            t
            for t in _file_names(corpus).get(wanted, ())
            if corpus.versions.comparable(document.path, t.document.path)
        ]
        found = _sources_of_truth(corpus, document, list({t.label: t for t in named}.values()))
        if len(found) != 1:
            continue
        (target,) = found
        keys = frozenset(str(k) for k in data)
        fit = _fit(corpus, target.document, target.pointer, keys)
        if fit is None or not fit.declared:
            return None
        evidence = (
            f'the sentence "{text.strip()[-80:]}" names `{matched.group("noun")}`, which '
            f"declares {fit.declared} of its {fit.members} members"
        )
        return FenceTie(fence, BY_LEAD_IN, target.label, target, fence.line - 1, evidence)
    return None


def _file_names(corpus: Context) -> Mapping[str, tuple[SchemaTarget, ...]]:
    """The schema files by their names' :func:`_squeezed` stem (``offering.schema.json``:
    ``offering``). Built once."""
    cached = corpus.memo.get("schema_file_names")
    if cached is None:
        found: dict[str, list[SchemaTarget]] = {}
        for document in corpus.of_kind(DocumentKind.SCHEMA):
            if document.path in corpus.derived or not isinstance(document.data, dict):
                continue
            stem = re.sub(r"(?:\.schema)?\.(?:json|ya?ml)$", "", posixpath.basename(document.path))
            found.setdefault(_squeezed(stem), []).append(SchemaTarget(document, ""))
        cached = corpus.memo["schema_file_names"] = {k: tuple(v) for k, v in found.items()}
    return cast(Mapping[str, tuple[SchemaTarget, ...]], cached)


def definition_index(corpus: Context) -> Mapping[str, tuple[SchemaTarget, ...]]:
    """Each definition name of the corpus's schema files (a root ``title``, a ``$defs`` or
    ``definitions`` key, a definition's ``title``) and the definitions it names. Built once."""
    cached = corpus.memo.get("definition_index")
    if cached is not None:
        return cast(Mapping[str, tuple[SchemaTarget, ...]], cached)
    found: dict[str, dict[str, SchemaTarget]] = {}

    def add(name: Any, target: SchemaTarget) -> None:
        if isinstance(name, str) and _DEFINITION_NAME.match(name):
            found.setdefault(name, {}).setdefault(target.label, target)

    for document in corpus.of_kind(DocumentKind.SCHEMA):
        if document.path in corpus.derived or not isinstance(document.data, dict):
            continue
        add(document.data.get("title"), SchemaTarget(document, ""))
        for keyword in ("$defs", "definitions"):
            members = document.data.get(keyword)
            for key, member in (members or {}).items() if isinstance(members, dict) else ():
                target = SchemaTarget(document, f"/{keyword}/{escape_token(str(key))}")
                add(key, target)
                if isinstance(member, dict):
                    add(member.get("title"), target)
    index = {name: tuple(targets[k] for k in sorted(targets)) for name, targets in found.items()}
    corpus.memo["definition_index"] = index
    return index


def resolve_schema(corpus: Context, markdown_path: str, name: str) -> SchemaTarget | None:
    """The corpus schema a name in prose means: a path relative to the page or the root, a
    ``ref-map``ped URL or ``$id``, or a file name that only one schema in the corpus has."""
    address, fragment = urldefrag(name.strip())
    address = unquote(address)
    candidates: list[str] = []
    mapped = map_remote(corpus.config.ref_map, address)
    if mapped is not None or "://" in address:
        path = corpus.references.path_for(mapped or address)
        if path:
            candidates.append(path)
    else:
        candidates += [
            posixpath.normpath(posixpath.join(posixpath.dirname(markdown_path), address)),
            posixpath.normpath(address.lstrip("/")),
        ]
        same_name = _schemas_named(corpus).get(posixpath.basename(address), [])
        if len(same_name) == 1:
            candidates.append(same_name[0])
    for path in candidates:
        target = corpus.documents.get(path)
        if target is None or not target.usable or target.kind is not DocumentKind.SCHEMA:
            continue
        pointer = _pointer(target.data, unquote(fragment))
        return SchemaTarget(target, pointer) if pointer is not None else None
    return None


def _schemas_named(corpus: Context) -> dict[str, list[str]]:
    """The schema files by file name, made once per run (every page asks)."""
    found: dict[str, list[str]] | None = corpus.memo.get("schemas_named")
    if found is None:
        found = {}
        for document in corpus.of_kind(DocumentKind.SCHEMA):
            found.setdefault(posixpath.basename(document.path), []).append(document.path)
        corpus.memo["schemas_named"] = found
    return found


def _pointer(schema: Any, fragment: str) -> str | None:
    """A JSON-pointer fragment, or the dotted form prose often uses (``$defs.outputChunk``)."""
    if not fragment:
        return ""
    pointer = fragment if fragment.startswith("/") else "/" + fragment.replace(".", "/")
    return pointer if holds_pointer(schema, pointer) else None


def fence_json(fence: CodeFence) -> Parsed:
    """The fence's JSON with positions relative to the fence body (line 1 is the first line
    after the opening fence). ``jsonc`` comments and trailing commas are blanked first.
    Raises :class:`ParseFailure`."""
    text = fence.content
    if fence.language == "jsonc":
        text = strip_jsonc(text)
    if not text.strip():
        raise ParseFailure("the code fence is empty")
    return parse_json(text)


def fence_data(fence: CodeFence, lenient: bool = False) -> Parsed:
    """The example in a JSON, JSONC or YAML fence (or an untagged fence holding a JSON object),
    with positions as :func:`fence_json` gives them; a fence holding object members
    (``"message": {...}``: a fragment of a larger message) is read as the object of those
    members. ``lenient``: a ``json`` fence with ``//`` comments, as documentation writes them,
    is read as JSONC (for an example bound by what it holds; an explicit tie asks for JSON).
    A fence that shows an HTTP message (a request or status line and header fields above the
    body: ``speclint.parsing.transcripts``) holds the example in its body, located as ever.
    Raises :class:`ParseFailure`."""
    bodies = http_bodies(fence.content) if fence.language else None
    if bodies is not None:
        if len(bodies) != 1:
            raise ParseFailure(
                "an HTTP transcript with no JSON or YAML body"
                if not bodies
                else "an HTTP transcript of several messages"
            )
        fence = replace(fence, content=bodies[0])
    if lenient and fence.language == "json":
        try:
            return fence_data(fence)
        except ParseFailure as failure:
            try:
                return fence_data(_as_jsonc(fence))
            except ParseFailure:
                raise failure from None
    if fence.language not in YAML_LANGUAGES and fence.content.lstrip().startswith('"'):
        try:
            return fence_json(fence)
        except ParseFailure as failure:
            wrapped = replace(fence, content="{" + fence.content.rstrip().rstrip(",") + "\n}")
            try:
                return fence_json(wrapped)
            except ParseFailure:
                raise failure from None
    if fence.language in YAML_LANGUAGES:
        if not fence.content.strip():
            raise ParseFailure("the code fence is empty")
        return parse_yaml(fence.content)
    if fence.language == "" and not fence.content.lstrip().startswith("{"):
        raise ParseFailure("an untagged fence that is not a JSON object")
    return fence_json(fence)


def _as_jsonc(fence: CodeFence) -> CodeFence:
    return replace(fence, language="jsonc")


@dataclass(frozen=True)
class Definition:
    """A schema definition an example can be an instance of (ties 6 and 7)."""

    target: SchemaTarget
    properties: frozenset[str]  # the members it declares (its own and its allOf parts')
    # Member -> the JSON texts of the values a `const` or `enum` allows there, and whether that
    # is one value (a `const` or a one-value `enum`: a discriminator).
    fixed: Mapping[str, tuple[frozenset[str], bool]]
    digest: str  # the definition's JSON text: two identical copies are one candidate
    # The same for the members of its object members (an envelope's `context.type`), keyed by
    # (member, its member): evidence where the example's own members fix nothing.
    nested: Mapping[tuple[str, str], tuple[frozenset[str], bool]] = field(default_factory=dict)


def example_definitions(corpus: Context) -> tuple[Definition, ...]:
    """Every object definition of the corpus's schema files (a root, a ``$defs`` or
    ``definitions`` member) with the members it declares and fixes. Built once."""
    cached = corpus.memo.get("example_definitions")
    if cached is not None:
        return cast(tuple[Definition, ...], cached)
    found: list[Definition] = []
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        if document.path in corpus.derived or not isinstance(document.data, dict):
            continue
        places = [("", document.data)]
        for keyword in ("$defs", "definitions"):
            members = document.data.get(keyword)
            for key, member in (members or {}).items() if isinstance(members, dict) else ():
                places.append((f"/{keyword}/{escape_token(str(key))}", member))
        for pointer, node in places:
            definition = _definition(document, pointer, node)
            if definition is not None:
                found.append(definition)
    result = tuple(found)
    corpus.memo["example_definitions"] = result
    return result


def _definition(document: Document, pointer: str, node: Any) -> Definition | None:
    if not isinstance(node, dict):
        return None
    properties: dict[str, Any] = {}
    for part in [node, *_local_parts(document.data, node)]:
        declared = part.get("properties")
        if isinstance(declared, dict):
            for name, schema in declared.items():
                properties.setdefault(str(name), _local(document.data, schema))
    if not properties:
        return None
    fixed = _fixed(properties)
    nested: dict[tuple[str, str], tuple[frozenset[str], bool]] = {}
    for name, schema in properties.items():
        inner = schema.get("properties") if isinstance(schema, dict) else None
        if isinstance(inner, dict):
            members = {str(k): _local(document.data, v) for k, v in inner.items()}
            for member, allowed in _fixed(members).items():
                nested[(name, member)] = allowed
    digest = json.dumps(node, sort_keys=True, default=str)
    return Definition(SchemaTarget(document, pointer), frozenset(properties), fixed, digest, nested)


def _fixed(properties: Mapping[str, Any]) -> dict[str, tuple[frozenset[str], bool]]:
    """The members a ``const`` or ``enum`` fixes, with the values allowed and whether one."""
    fixed: dict[str, tuple[frozenset[str], bool]] = {}
    for name, schema in properties.items():
        if not isinstance(schema, dict):
            continue
        if "const" in schema:
            fixed[name] = (frozenset({_text(schema["const"])}), True)
        elif isinstance(schema.get("enum"), list) and schema["enum"]:
            values = frozenset(_text(v) for v in schema["enum"])
            fixed[name] = (values, len(values) == 1)
    return fixed


def _local_parts(root: Any, node: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``allOf`` members of ``node`` (local ``$ref``\\s followed)."""
    parts = node.get("allOf")
    found = []
    for part in parts if isinstance(parts, list) else ():
        resolved = _local(root, part)
        if isinstance(resolved, dict):
            found.append(resolved)
    return found


def _local(root: Any, schema: Any) -> Any:
    """``schema``, or what its ``$ref``\\s name when that is in the same document."""
    found = follow_local(root, schema)[1]
    return found if found is not None else schema


def _text(value: Any) -> str:
    """A value as JSON text: ``1`` and ``true`` stay different (Python says ``1 == True``)."""
    return json.dumps(value, sort_keys=True)


def _by_example(
    corpus: Context,
    document: Document,
    fence: CodeFence,
    modes: Binding,
    asked: dict[int, tuple[str, Any]],
    page: _Page,
) -> Iterator[FenceTie]:
    """Ties 6 to 8: the definition the example is an instance of, by what it holds or where it
    is; where the whole binds no way, each object member bound by its own values (a JSON-RPC
    response's ``result``, the ``"message": {...}`` of a fragment), else a JSON-RPC response's
    ``result`` by the request it answers. Not on a page of proposals or design records: a
    proposal shows the shapes it would change to."""
    if in_design_folder(document.path):
        return
    try:
        data = fence_data(fence, lenient=True).data
    except ParseFailure:
        return  # a sketch, or a fragment with elisions: nothing concrete to bind
    if not isinstance(data, dict) or not data:
        fragment = _fragment_tie(corpus, document, fence, data) if modes.shape else None
        if fragment is not None:
            yield fragment
        return
    section = fence.heading.line if fence.heading is not None else 0
    if isinstance(data.get("method"), str):
        # A JSON-RPC request: what a `result` below it in its section answers.
        asked[section] = (data["method"], data.get("id"))
    if modes.value:
        named = _named_schema(corpus, document, data)
        if named is not None:
            target, evidence = named
            yield FenceTie(
                fence, BY_VALUE, target.label, target, fence.line, evidence, own_schema=True
            )
            return
    candidates = page.candidates(corpus, document)
    keys = frozenset(str(k) for k in data)
    if modes.value:
        found, _ = _value_diagnosis(candidates, data, keys)
        if found is not None:
            definition, evidence = _at_its_version(corpus, document, *found, data)
            target = definition.target
            yield FenceTie(fence, BY_VALUE, target.label, target, fence.line, evidence)
            return
    if modes.operation:
        placed = _by_operation(corpus, document, fence, keys, page)
        if placed is not None:
            yield placed
            return
    if modes.shape:
        fragment = _fragment_tie(corpus, document, fence, data)
        if fragment is not None:
            yield fragment
            return
        shaped, _ = _shape_diagnosis(candidates, data, keys)
        if shaped is not None and not _called_otherwise(document, fence, shaped.target):
            evidence = f"only `{_name(shaped.target)}` declares every one of them"
            target = shaped.target
            yield FenceTie(fence, BY_SHAPE, target.label, target, fence.line, evidence)
            return
    parts = list(_parts(fence, candidates, data)) if modes.value else []
    yield from parts
    if not parts and modes.operation and "result" in data and "method" not in data:
        answer = _by_request(corpus, document, fence, candidates, data, asked.get(section), page)
        if answer is not None:
            yield answer
            return
    if not parts and modes.shape and len(keys) < SHAPE_MINIMUM:
        member = _by_member(corpus, candidates, data, keys)
        if member is not None and _called_otherwise(document, fence, member[0].target):
            member = None  # the words call it another message: its members do not say whose
        if member is not None:
            definition, evidence = member
            target = definition.target
            yield FenceTie(
                fence, BY_SHAPE, target.label, target, fence.line, evidence, fragment=True
            )
        else:
            shared = _by_shared_member(corpus, candidates, data)
            if shared is not None:
                key, target, evidence = shared
                part = f"/{escape_token(key)}"
                yield FenceTie(fence, BY_SHARED, target.label, target, fence.line, evidence, part)
            else:
                held = _by_member_elements(corpus, candidates, data, page.paragraph_above(fence))
                if held is not None:
                    target, evidence = held
                    yield FenceTie(
                        fence,
                        BY_ELEMENTS,
                        target.label,
                        target,
                        fence.line,
                        evidence,
                        fragment=True,
                    )


def _fragment_tie(
    corpus: Context, document: Document, fence: CodeFence, data: Any
) -> FenceTie | None:
    """Tie 9: the example is part of a root document, or an attribute's value
    (``speclint.analyses.prose.fragments``)."""
    found: Fragment | None = None
    if isinstance(data, (dict, list)) and data:
        # The page's other examples are read only where the corpus has a root to bind to.
        page = _page_examples(document) if document_roots(corpus) else ()
        found, _ = root_fragment(corpus, document, fence, data, page)
    if found is None:
        return None
    target = SchemaTarget(found.document, found.pointer)
    return FenceTie(
        fence,
        found.how,
        target.label,
        target,
        found.line,
        found.evidence,
        fragment=not found.whole,
    )


def _called_otherwise(document: Document, fence: CodeFence, target: SchemaTarget) -> bool:
    """Whether the section titles over ``fence`` call it another message than the root
    schema its shape fits (``speclint.analyses.prose.fragments.called_otherwise``)."""
    return not target.pointer and bool(called_otherwise(document, fence, target.document))


def _page_examples(document: Document) -> tuple[tuple[int, Any], ...]:
    """A page's examples that parse, with their lines: the company a fragment keeps
    (``speclint.analyses.prose.fragments.page_root``). Made once per page."""
    return document.remember("page_examples", lambda: _read_examples(document))


def _read_examples(document: Document) -> tuple[tuple[int, Any], ...]:
    found: list[tuple[int, Any]] = []
    for fence in document.prose.fences if document.prose is not None else ():
        if fence.language not in EXAMPLE_LANGUAGES:
            continue
        try:
            found.append((fence.line, fence_data(fence, lenient=True).data))
        except ParseFailure:
            continue
    return tuple(found)


def _by_member(
    corpus: Context, candidates: list[Definition], data: dict[str, Any], keys: frozenset[str]
) -> tuple[Definition, str] | None:
    """Tie 8 for a fragment: the one definition that declares each of the example's one or two
    members, where those members are objects whose every member their schema there declares
    (two or more in all): ``{"aiProviders": {"supported": true, ...}}`` is a capabilities
    document's ``aiProviders``, shown alone."""
    objects = {k: v for k, v in data.items() if isinstance(v, dict) and v}
    if not objects or sum(len(v) for v in objects.values()) < 2:
        return None
    declaring = {d.digest: d for d in candidates if keys <= d.properties}
    if len(declaring) != 1:
        return None  # none, or several: a member name alone does not say whose it is
    (definition,) = declaring.values()
    target = definition.target
    for key, value in objects.items():
        pointer = _member_pointer(target.document, target.pointer, str(key))
        declared = _declared(corpus, target.document, pointer) if pointer is not None else None
        if declared is None or not {str(k) for k in value} <= declared:
            return None
    named = ", ".join(f"`{k}`" for k in sorted(keys))
    return definition, f"only `{_name(target)}` declares {named}, and every member given there"


def _by_shared_member(
    corpus: Context, candidates: list[Definition], data: dict[str, Any]
) -> tuple[str, SchemaTarget, str] | None:
    """A wrapper of one object member that several definitions declare, each as a reference to
    one definition (``{"message": {...}}``, where a request, a response and an asynchronous
    request each hold a ``message`` that is a ``Message``): the member's value is an instance
    of that definition, whichever wrapper the example is. Bound where every definition that
    declares the member refers to the same one (of two releases of an API document, the
    newest's), and that one declares every member the value has (two or more): a member some
    definition declares otherwise (an error's ``message`` string) binds nothing."""
    if len(data) != 1:
        return None
    ((key, value),) = data.items()
    key = str(key)
    if not isinstance(value, dict) or len(value) < 2:
        return None
    declaring = [d for d in candidates if key in d.properties]
    if len(declaring) < 2:
        return None  # one declares it: `_by_member`'s, or none
    referred: dict[str, SchemaTarget] = {}
    holders: list[Definition] = []
    for definition in declaring:
        target = definition.target
        pointer = _member_pointer(target.document, target.pointer, key)
        node = resolve_pointer(target.document.data, pointer) if pointer is not None else None
        node = _unwrapped(node)
        reference = node.get("$ref") if isinstance(node, dict) else None
        if isinstance(node, dict) and reference is None and _scalar(node.get("type")):
            continue  # a log entry's `message` string: no wrapper of an object
        if not isinstance(reference, str) or not reference.startswith("#/"):
            return None  # declared inline, or elsewhere: not one definition's instance
        at = unquote(reference[1:])
        if not isinstance(resolve_pointer(target.document.data, at), dict):
            return None
        found = SchemaTarget(target.document, at)
        referred.setdefault(found.label, found)
        holders.append(definition)
    releases = _newest_release(list(referred.values()))
    if len(releases) != 1:
        return None
    (target,) = releases
    fit = _fit(corpus, target.document, target.pointer, frozenset(str(k) for k in value))
    if fit is None or fit.declared != fit.members:
        return None
    names = ", ".join(
        sorted({f"`{_name(d.target)}`" for d in holders if d.target.document is target.document})
    )
    evidence = (
        f"`{key}`, which {names} each declare as `{_name(target)}`, and every member given there"
    )
    return key, target, evidence


def _unwrapped(node: Any) -> Any:
    """A schema without the one-branch ``allOf``/``oneOf``/``anyOf`` an OpenAPI 3.0 document
    wraps a reference in to give it siblings (``oneOf: [{$ref: ...}]``)."""
    for keyword in ("allOf", "oneOf", "anyOf"):
        branches = node.get(keyword) if isinstance(node, dict) else None
        if isinstance(branches, list) and len(branches) == 1:
            node = branches[0]
    return node


def _local_target(document: Document, node: Any) -> SchemaTarget | None:
    """The definition a schema is a local reference to, or None."""
    node = _unwrapped(node)
    reference = node.get("$ref") if isinstance(node, dict) else None
    if not isinstance(reference, str) or not reference.startswith("#/"):
        return None
    at = unquote(reference[1:])
    return (
        SchemaTarget(document, at) if isinstance(resolve_pointer(document.data, at), dict) else None
    )


def _by_member_elements(
    corpus: Context, candidates: list[Definition], data: dict[str, Any], words: str | None
) -> tuple[SchemaTarget, str] | None:
    """A wrapper of one member holding objects, a list of them or a map of them by id
    (``{"edges": [{...}]}``, ``{"edges": {"e1": {...}}}``), that several definitions declare,
    each holding elements of some definition (a knowledge graph's edges, a query graph's query
    edges): bound, as a fragment, to the one definition whose elements' definition declares
    most of the members the example's elements have (half or more, and twice the next, or of
    those close, the one the paragraph above names), so that a list where a map is declared,
    or an element's slip, is judged there."""
    if len(data) != 1:
        return None
    ((key, value),) = data.items()
    key = str(key)
    elements = (
        list(value)
        if isinstance(value, list)
        else list(value.values())
        if isinstance(value, dict)
        else []
    )
    if not elements or not all(isinstance(e, dict) and e for e in elements):
        return None
    members = frozenset(str(k) for e in elements for k in e)
    if len(members) < 2:
        return None  # one member name says too little of whose elements they are
    declaring = [d for d in candidates if key in d.properties]
    if len(declaring) < 2:
        return None
    # Of two releases of an API document, the newest's definitions (one target a document).
    by_document = {d.target.document.path: d.target for d in declaring}
    documents = {t.document.path for t in _newest_release(list(by_document.values()))}
    fits: list[tuple[int, Definition, SchemaTarget]] = []
    for definition in declaring:
        target = definition.target
        if target.document.path not in documents and len(documents) == 1:
            continue  # an older release's
        pointer = _member_pointer(target.document, target.pointer, key)
        node = _unwrapped(resolve_pointer(target.document.data, pointer)) if pointer else None
        if not isinstance(node, dict):
            continue
        held = node.get("items") if "items" in node else node.get("additionalProperties")
        element = _local_target(target.document, held)
        if element is None:
            continue
        fit = _fit(corpus, element.document, element.pointer, members)
        if fit is not None:
            fits.append((fit.declared, definition, element))
    fits.sort(key=lambda f: -f[0])
    if not fits or fits[0][0] * 2 < len(members):
        return None
    close = [f for f in fits if f[0] * SHAPE_MARGIN > fits[0][0]]
    if len(close) > 1 and words is not None:
        # Several fit about as well (a graph's edges and a schema graph's edge kinds): the one
        # the words above name ("the publications supporting the Edge") is what they show.
        close = [f for f in close if re.search(rf"\b{re.escape(_name(f[2]))}\b", words)]
    if len(close) != 1:
        return None  # two definitions' elements fit about as well
    declared, definition, element = close[0]
    evidence = (
        f"`{key}`, whose elements `{_name(definition.target)}` holds as `{_name(element)}`, "
        f"which declares {declared} of the {len(members)} members they have"
    )
    return definition.target, evidence


def _scalar(declared: Any) -> bool:
    """Whether a ``type`` admits no object (``"string"``, ``["string", "null"]``)."""
    types = declared if isinstance(declared, list) else [declared]
    return bool(types) and all(
        t in ("string", "number", "integer", "boolean", "null") for t in types
    )


def _member_pointer(document: Document, pointer: str, name: str) -> str | None:
    """Where the definition at ``pointer`` declares its member ``name``: its own
    ``properties``, or an ``allOf`` part's (a local ``$ref`` followed)."""
    node = resolve_pointer(document.data, pointer)
    if not isinstance(node, dict):
        return None
    places = [(pointer, node)]
    parts = node.get("allOf")
    for index, part in enumerate(parts if isinstance(parts, list) else ()):
        reference = part.get("$ref") if isinstance(part, dict) else None
        if isinstance(reference, str) and reference.startswith("#/"):
            at = unquote(reference[1:])
            places.append((at, resolve_pointer(document.data, at)))
        else:
            places.append((f"{pointer}/allOf/{index}", part))
    for at, place in places:
        declared = place.get("properties") if isinstance(place, dict) else None
        if isinstance(declared, dict) and name in declared:
            return f"{at}/properties/{escape_token(name)}"
    return None


# The folders whose JSON and YAML files are examples of the corpus's schemas (issue 28): an
# `examples/` folder beside the schemas, and a conformance set of sample events (an example of
# the schemas too, though no sample API: not among ``SAMPLE_FOLDERS``).
EXAMPLE_FOLDERS = SAMPLE_FOLDERS | {"conformance"}
# A folder or file whose name says its examples are meant to fail.
_MEANT_TO_FAIL = re.compile(
    r"(?:^|[\W_])(invalid|negative|bad|fail(?:s|ing|ures?)?)(?:$|[\W_])", re.I
)


# Files in an example folder that configure a tool rather than exemplify a schema.
_TOOL_FILES = frozenset({"package.json", "package-lock.json", "tsconfig.json", "composer.json"})


def example_file(document: Document) -> bool:
    """Whether a data file (JSON or YAML that declares no ``$schema``) is an example: it lies in
    an example folder, and nothing in its path says it is meant to fail."""
    parts = document.path.lower().split("/")
    return (
        document.kind is DocumentKind.DATA
        and any(part in EXAMPLE_FOLDERS for part in parts[:-1])
        and not any(_MEANT_TO_FAIL.search(part) for part in parts)
        and not in_design_folder(document.path)
        and parts[-1] not in _TOOL_FILES
        and not parts[-1].startswith(".")
    )


@dataclass(frozen=True)
class FileBinding:
    """An example file bound by its values or shape (tie 6 or 8), or why it is not."""

    document: Document
    how: str  # BY_VALUE | BY_SHAPE | "" (not bound)
    target: SchemaTarget | None
    evidence: str  # what binds it, or why nothing does
    own_schema: bool = False  # bound by the schema it names as its own (``$schema``)


def example_file_binding(
    corpus: Context, document: Document, binding: Binding = Binding()
) -> FileBinding:
    """The definition an example file is an instance of, by the same evidence as a fence."""
    by_value, by_shape = binding.value, binding.shape
    data = document.data
    named = _named_schema(corpus, document, data) if by_value and isinstance(data, dict) else None
    if named is not None:
        return FileBinding(document, BY_VALUE, named[0], named[1], own_schema=True)
    # The schema that names the file as its example says what it exemplifies: its values
    # (`"edu_type": "m.presence"`) may name a narrower definition it was not written for.
    naming = schema_named_examples(corpus).get(document.path)
    if naming is not None:
        return FileBinding(document, BY_REFERENCE, *naming)
    if not isinstance(data, dict) or not data:
        return FileBinding(document, "", None, "not an object")
    if not (by_value or by_shape):
        return FileBinding(document, "", None, "binding by the example is off")
    candidates = _candidates(corpus, document)
    keys = frozenset(str(k) for k in data)
    reasons = []
    if by_value:
        found, why = _value_diagnosis(candidates, data, keys)
        if found is not None:
            definition, evidence = _at_its_version(corpus, document, *found, data)
            return FileBinding(document, BY_VALUE, definition.target, evidence)
        reasons.append(why)
    if by_shape:
        shaped, why = _shape_diagnosis(candidates, data, keys)
        if shaped is not None:
            evidence = f"only `{_name(shaped.target)}` declares every one of them"
            return FileBinding(document, BY_SHAPE, shaped.target, evidence)
        reasons.append(why)
    return FileBinding(document, "", None, "; ".join(reasons))


def schema_named_examples(corpus: Context) -> Mapping[str, tuple[SchemaTarget, str]]:
    """Path of each corpus file a schema names as a whole example (a relative ``$ref`` that is
    the value of its ``example`` keyword, or an item of its ``examples``) -> the schema holding
    the keyword and what names it. Where that schema is a branch of an ``allOf``, the schema
    holding the ``allOf``: every branch applies to the instance (JSON Schema Core §10.2.1.1),
    and the branch beside a ``$ref`` (`allOf: [{$ref: edu.yaml}, {example: ...}]`) says nothing
    of the shape alone. The first naming place in path order wins. Made once per run."""
    memo = corpus.memo.get("fences.schema_named_examples")
    if isinstance(memo, dict):
        return cast(dict[str, tuple[SchemaTarget, str]], memo)
    found: dict[str, tuple[SchemaTarget, str]] = {}
    for document in sorted(corpus.of_kind(DocumentKind.SCHEMA), key=lambda d: d.path):
        if not document.usable:
            continue
        folder = posixpath.dirname(document.path)
        stack: list[tuple[Any, str]] = [(document.data, "")]
        sites: list[tuple[str, str]] = []
        while stack:  # iterative: generated schemas nest deeper than Python's recursion limit
            node, pointer = stack.pop()
            if isinstance(node, dict):
                reference = node.get("$ref")
                if isinstance(reference, str) and pointer and at_example(pointer):
                    sites.append((pointer, reference))
                else:
                    stack.extend((v, f"{pointer}/{escape_token(str(k))}") for k, v in node.items())
            elif isinstance(node, list):
                stack.extend((v, f"{pointer}/{i}") for i, v in enumerate(node))
        for pointer, reference in sorted(sites):
            schema_at = _example_holder(pointer)
            # A whole file, named in the corpus (not a part of one: its `#fragment`).
            file_part, _, fragment = reference.partition("#")
            if schema_at is None or fragment.strip("/") or not file_part or "://" in file_part:
                continue
            if file_part.startswith(("/", "urn:")):
                continue
            path = posixpath.normpath(posixpath.join(folder, unquote(file_part)))
            if path in corpus.documents and path not in found:
                found[path] = (
                    SchemaTarget(document, schema_at),
                    f"the example at `{document.path}#{pointer}`",
                )
    corpus.memo["fences.schema_named_examples"] = found
    return found


def _example_holder(pointer: str) -> str | None:
    """The pointer of the schema whose ``example`` (or ``examples`` item) is the object at
    ``pointer``, out of an ``allOf`` branch; None where the object lies inside an example's
    value rather than being it."""
    parent, _, last = pointer.rpartition("/")
    if last.isdigit() and parent.endswith("/examples"):
        parent, _, last = parent.rpartition("/")
    if last not in ("example", "examples") or (parent and at_example(parent)):
        return None
    branches, _, index = parent.rpartition("/")
    if index.isdigit() and branches.rpartition("/")[2] == "allOf":
        return branches.rpartition("/")[0]
    return parent


# Members by which an instance names its own schema: JSON Schema's `$schema` (an instance's
# use of it, as `instance-invalid` reads it for files), OpenLineage's `_schemaURL`.
_SCHEMA_MEMBERS = ("$schema", "_schemaURL")


def _named_schema(
    corpus: Context, document: Document, data: dict[str, Any]
) -> tuple[SchemaTarget, str] | None:
    """The corpus schema the example names as its own, by a ``$schema``-like member whose value
    is that schema's ``$id`` (or its path, or a URL the configuration maps into the corpus)."""
    for member in _SCHEMA_MEMBERS:
        value = data.get(member)
        if isinstance(value, str) and value.strip():
            target = resolve_schema(corpus, document.path, value)
            if target is not None:
                return target, f"`{member}: {_text(value)}`"
    return None


def _candidates(corpus: Context, document: Document) -> list[Definition]:
    """The definitions an example of ``document`` can be an instance of: those of its version
    line, schema files' and API components' alike, copies of one definition as one (issue 46,
    items 1 and 4: ``speclint.analyses.api.api_definitions``). Made once per version (they depend
    on the page's version alone), not once per page and example file."""
    superseded = superseded_page(document.path)
    key = f"candidates:{corpus.versions.of(document.path)}:{superseded}"
    cached = corpus.memo.get(key)
    if cached is None:
        components = () if superseded else component_definitions(corpus)
        found = [
            d
            for d in (*example_definitions(corpus), *components)
            if corpus.versions.comparable(document.path, d.target.document.path)
        ]
        cached = corpus.memo[key] = one_per_definition(
            corpus,
            document.path,
            found,
            lambda d: (d.target.document, d.target.pointer),
            lambda d: _copy_name(d.target),
            lambda d: d.properties,
            lambda d: d.digest,
        )
    return list(cast(list[Definition], cached))


def _copy_name(target: SchemaTarget) -> str:
    """The name copies of one definition share: a component's or a ``$defs`` key, a schema
    file's name without its extensions (``job.schema.json`` and the component ``Job``), in any
    case."""
    name = _name(target)
    if not target.pointer:
        name = name.split(".")[0]
    return name.lower()


def component_definitions(corpus: Context) -> tuple[Definition, ...]:
    """:func:`example_definitions` of the OpenAPI 3 and AsyncAPI components (issue 46,
    item 1). Built once."""
    cached = corpus.memo.get("component_definitions")
    if cached is None:
        made = (_definition(d, p, node) for d, p, node, _ in component_places(corpus))
        cached = tuple(d for d in made if d is not None)
        corpus.memo["component_definitions"] = cached
    return cast(tuple[Definition, ...], cached)


def component_index(corpus: Context) -> Mapping[str, tuple[SchemaTarget, ...]]:
    """:func:`definition_index` of the API components: each by its key (a message's payload by
    the message's key and ``name``) and ``title``. Built once."""
    cached = corpus.memo.get("component_index")
    if cached is None:
        found: dict[str, list[SchemaTarget]] = {}
        for document, pointer, _, names in component_places(corpus):
            for name in names:
                if _DEFINITION_NAME.match(name):
                    found.setdefault(name, []).append(SchemaTarget(document, pointer))
        cached = {name: tuple(targets) for name, targets in found.items()}
        corpus.memo["component_index"] = cached
    return cast(Mapping[str, tuple[SchemaTarget, ...]], cached)


def _sources_of_truth(
    corpus: Context, document: Document, targets: list[SchemaTarget]
) -> list[SchemaTarget]:
    """``targets`` of one name, copies of one definition as one (issue 46, item 4)."""

    def members(target: SchemaTarget) -> frozenset[str]:
        node = resolve_pointer(target.document.data, target.pointer)
        declared = node.get("properties") if isinstance(node, dict) else None
        return frozenset(str(k) for k in declared) if isinstance(declared, dict) else frozenset()

    return one_per_definition(
        corpus,
        document.path,
        list({t.label: t for t in targets}.values()),
        lambda t: (t.document, t.pointer),
        lambda _: "",
        members,
    )


def _parts(
    fence: CodeFence, candidates: list[Definition], data: dict[str, Any]
) -> Iterator[FenceTie]:
    """Each object member of the example bound by its own values."""
    for key, member in data.items():
        if not isinstance(member, dict) or not member:
            continue
        keys = frozenset(str(k) for k in member)
        found, _ = _value_diagnosis(candidates, member, keys)
        # A part is bound only where its definition declares every member it has: a value
        # alone (`"algorithm": "m.megolm.v1.aes-sha2"`) is shared by the contents of several
        # messages, some of them defined where no definition is found.
        if found is not None and keys <= found[0].properties:
            definition, evidence = found
            target = definition.target
            part = f"/{escape_token(str(key))}"
            yield FenceTie(fence, BY_VALUE, target.label, target, fence.line, evidence, part)


def _by_exchange(corpus: Context, document: Document) -> dict[int, list[FenceTie]]:
    """Tie 7 for an HTTP exchange (``speclint.analyses.api.exchanges``): a request fence's body,
    and the fences after it that a status line or the words above say are its request or a
    response. One bound by words alone must have the shape of that body: at least half of its
    members declared there."""
    found: dict[int, list[FenceTie]] = {}
    for line, exchanged in page_exchanges(corpus, document).ties.items():
        for tie in exchanged:
            if tie.by_words:
                try:
                    data = fence_data(tie.fence, lenient=True).data
                except ParseFailure:
                    data = None
                keys = frozenset(str(k) for k in data) if isinstance(data, dict) else frozenset()
                fit = _fit(corpus, tie.document, tie.pointer, keys)
                if fit is not None and not fit.of_its_shape:
                    continue  # not the shape of that body: something else the section shows
            target = SchemaTarget(tie.document, tie.pointer)
            found.setdefault(line, []).append(
                FenceTie(
                    tie.fence, BY_EXCHANGE, target.label, target, tie.request_line, tie.evidence
                )
            )
    return found


def _by_operation(
    corpus: Context, document: Document, fence: CodeFence, keys: frozenset[str], page: _Page
) -> FenceTie | None:
    """Tie 7 for HTTP: the OpenAPI operation the paragraph above the fence, else its heading,
    names by method and path, and the side of it the same text says the fence shows (a request
    or a response); one JSON schema there, declaring at least half of the example's members."""
    above = page.paragraph_above(fence)
    texts = [t for t in (above, fence.heading.text if fence.heading else None) if t]
    operations: tuple[Operation, ...] = ()
    direction = ""
    for text in texts:
        direction = direction or side_said(text)
        if not operations:
            operations = tuple(
                operation
                for operation in named_operations(corpus, text)
                if operation.document.path not in corpus.derived
                and corpus.versions.comparable(document.path, operation.document.path)
            )
    if len(operations) != 1 or not direction:
        return None
    (operation,) = operations
    bodies = {
        json.dumps(resolve_pointer(b.document.data, b.pointer), sort_keys=True, default=str): b
        for b in operation.of(direction)
    }
    if len(bodies) != 1:
        return None  # none, or several success responses of different shapes
    (body,) = bodies.values()
    fit = _fit(corpus, body.document, body.pointer, keys)
    if fit is None or not fit.of_its_shape:
        return None  # not the shape of that body: something else the section shows
    target = SchemaTarget(body.document, body.pointer)
    side = "request body" if direction == "request" else f"{body.status} response"
    evidence = f"under `{operation.label}`, its {side}"
    return FenceTie(fence, BY_OPERATION, target.label, target, fence.line, evidence)


@dataclass(frozen=True)
class _Fit:
    """How many of an example's members a schema declares: the shape test of a binding whose
    evidence is words (a heading, an operation, an exchange named above the example)."""

    declared: int
    members: int

    @property
    def of_its_shape(self) -> bool:
        """At least half of the example's members declared: an example of that schema, with a
        slip or two to report, rather than something else the section shows."""
        return self.declared * 2 >= self.members


def _fit(corpus: Context, document: Document, pointer: str, keys: frozenset[str]) -> _Fit | None:
    """How the example's members ``keys`` fit the schema at ``document#pointer``, or None where
    what the schema declares cannot be told (:func:`_declared`)."""
    declared = _declared(corpus, document, pointer)
    if declared is None:
        return None
    return _Fit(len(keys & declared), len(keys))


def _declared(corpus: Context, document: Document, pointer: str) -> frozenset[str] | None:
    """The members a schema declares (its ``properties``, its ``allOf`` parts', ``$ref``\\s
    followed through the corpus), or None where that cannot be told (a ``oneOf``, a reference
    out of the corpus)."""
    node = resolve_pointer(document.data, pointer)
    resolver = corpus.references.registry.resolver(base_uri=file_uri(document.path))
    found: set[str] = set()

    def walk(schema: Any, resolver: Any, depth: int) -> bool:
        if not isinstance(schema, dict) or depth > 8:
            return False
        reference = schema.get("$ref")
        if isinstance(reference, str):
            try:
                resolved = resolver.lookup(reference)
            except (NoSuchResource, Unresolvable):
                return False  # out of the corpus: what it declares is not known
            if not walk(resolved.contents, resolved.resolver, depth + 1):
                return False
        declared = schema.get("properties")
        if isinstance(declared, dict):
            found.update(str(k) for k in declared)
        parts = schema.get("allOf")
        for part in parts if isinstance(parts, list) else ():
            if not walk(part, resolver, depth + 1):
                return False
        return True

    return frozenset(found) if walk(node, resolver, 0) and found else None


def _by_request(
    corpus: Context,
    document: Document,
    fence: CodeFence,
    candidates: list[Definition],
    data: dict[str, Any],
    asked: tuple[str, Any] | None,
    page: _Page,
) -> FenceTie | None:
    """Tie 7 for JSON-RPC: a response's ``result`` answers the request shown above it in its
    section (the same ``id``, where both give one), or else the one method the heading or the
    paragraph above names; it is that method's result definition, found by the request
    definition's name (``CallToolRequest`` -> ``CallToolResult``, or the whole response is
    ``SendMessageSuccessResponse`` where that declares ``result``)."""
    methods = _request_methods(candidates)
    method = ""
    if asked is not None and (asked[1] is None or data.get("id") in (None, asked[1])):
        method = asked[0]
        how = f"answering the `{method}` request above"
    else:
        named = set()
        for text in (
            page.paragraph_above(fence),
            fence.heading.text if fence.heading else "",
        ):
            named = {
                m
                for m in methods
                if text and re.search(rf"(?<![\w/]){re.escape(m)}(?![\w/])", text)
            }
            if named:
                break
        if len(named) != 1:
            return None
        (method,) = named
        how = f"answering `{method}`, which the text names"
    request = methods.get(method)
    if request is None:
        return None
    stem = _name(request.target).removesuffix("Request")
    if not stem or stem == _name(request.target):
        return None  # no naming scheme to find its result by
    by_name: dict[str, list[Definition]] = {}
    for definition in candidates:
        by_name.setdefault(_name(definition.target), []).append(definition)

    def only(name: str) -> Definition | None:
        found = {d.digest: d for d in by_name.get(name, ())}
        return next(iter(found.values())) if len(found) == 1 else None

    result = only(f"{stem}Result")
    given = data.get("result")
    # Every member the result gives is one its definition declares: a request can be answered
    # with another kind of result (MCP's task-augmented `tools/call` returns a
    # `CreateTaskResult`), and then the name is not the evidence it seems.
    if (
        result is not None
        and isinstance(given, dict)
        and {str(k) for k in given} <= result.properties
    ):
        target = result.target
        return FenceTie(fence, BY_OPERATION, target.label, target, fence.line, how, "/result")
    if result is not None:
        return None  # its result definition does not declare what the result gives
    for name in (f"{stem}SuccessResponse", f"{stem}ResultResponse", f"{stem}Response"):
        whole = only(name)
        if whole is not None and "result" in whole.properties:
            target = whole.target
            return FenceTie(fence, BY_OPERATION, target.label, target, fence.line, how)
    return None


def _request_methods(candidates: list[Definition]) -> dict[str, Definition]:
    """Each JSON-RPC method a request definition fixes with a constant, when one definition
    (identical copies aside) does."""
    found: dict[str, dict[str, Definition]] = {}
    for definition in candidates:
        allowed = definition.fixed.get("method")
        if allowed is not None and allowed[1] and "params" in definition.properties:
            (value,) = allowed[0]
            method = json.loads(value)
            if isinstance(method, str):
                found.setdefault(method, {})[definition.digest] = definition
    return {m: next(iter(d.values())) for m, d in found.items() if len(d) == 1}


# The members every Kubernetes-style object has (Kubernetes API conventions, "Objects": an
# object's `apiVersion` and `kind` name its type, `metadata` is the common ObjectMeta, `spec` and
# `status` its desired and observed state). A rendered manifest and any definition of such an
# object share them whatever the kind: they say nothing of which definition the example is.
_KUBERNETES_ENVELOPE = frozenset({"apiVersion", "kind", "metadata", "spec", "status"})
# Of them, the members that name the object's type.
_KUBERNETES_TYPE = ("apiVersion", "kind")


def _kubernetes_object(data: Any) -> bool:
    """Whether an example is a Kubernetes-style object: it names its type by a string
    ``apiVersion`` and ``kind`` (a manifest, a custom resource)."""
    return isinstance(data, dict) and all(
        isinstance(data.get(member), str) and data[member] for member in _KUBERNETES_TYPE
    )


def _theirs(candidates: list[Definition], data: dict[str, Any]) -> list[Definition]:
    """The candidates a Kubernetes-style object can be an instance of: not one whose ``kind``
    or ``apiVersion`` is fixed (a ``const`` or ``enum``) to other values than the example's. The
    type an object names is what it is: a definition of another type is not its schema, and
    the difference is no defect of the example."""
    if not _kubernetes_object(data):
        return candidates
    return [
        d
        for d in candidates
        if all(
            d.fixed.get(member) is None or _text(data[member]) in d.fixed[member][0]
            for member in _KUBERNETES_TYPE
        )
    ]


def _value_diagnosis(
    candidates: list[Definition], data: dict[str, Any], keys: frozenset[str]
) -> tuple[tuple[Definition, str] | None, str]:
    """Tie 6: the one definition whose fixed members allow every fixed value the example gives,
    with the values that single it out; or None and why."""
    candidates = _theirs(candidates, data)
    allowing = _allowing(candidates, data, exact=True)
    if not allowing:
        # A versioned identifier one definition fixes at another version
        # (`dev.cdevents.change.merged.0.1.2` where the schema says `...0.3.0`): the example is
        # that definition's, written for an older (or newer) version of it.
        allowing = _allowing(candidates, data, exact=False)
    if not allowing:
        return None, "no value of it is one a definition fixes with a `const` or `enum`"
    left = set.intersection(*(matched for _, matched, _ in allowing))
    unique = {candidates[i].digest: candidates[i] for i in sorted(left)}
    if not unique:
        return None, "its fixed values point at different definitions"
    if len(unique) > 1:
        names = ", ".join(sorted({_name(d.target) for d in unique.values()})[:4])
        return None, f"its values fit several definitions ({names})"
    [definition] = unique.values()
    covered = len(declared_by_convention(keys, definition.properties)) / len(keys)
    # A constant (a discriminator) is strong evidence; an enum's value alone needs the shape too.
    constant = any(one for _, _, one in allowing)
    if covered < (0.75 if constant else 0.9) or (not constant and len(keys) < 2):
        return None, (
            f"its values point at `{_name(definition.target)}`, which does not declare most "
            "of its members"
        )
    # The values that single it out: those fewest definitions allow.
    fewest = min(len(matched) for _, matched, _ in allowing)
    evidence = " and ".join(text for text, matched, _ in allowing if len(matched) == fewest)
    return (definition, evidence), ""


NAMED_VERSIONS = 4  # the versions a binding names one by one; more are said as a range


def _at_its_version(
    corpus: Context, document: Document, definition: Definition, evidence: str, data: Any
) -> tuple[Definition, str]:
    """The version of ``definition`` an example declares it follows. A repository that keeps
    every version of a definition (``schemas/event/1.0.0.json`` ... ``4.0.2.json``,
    ``thing-v1.json`` and ``thing-v2.json``) has each fix its own version in a member
    (``"version": {"const": "2.0.0"}``, an envelope's ``meta.version``), and an example says
    which one it is by its value there: it is an instance of that version (the newest of those
    that accept it), not of the newest version the binding's copies fold into
    (``speclint.analyses.api.api_definitions``). Where no version accepts it, the newest stays."""
    if not isinstance(data, dict):
        return definition, evidence
    given = [
        (place, _text(value))
        for nested in (False, True)
        for place, value in _scalars(data, nested)
        if place[-1].lower().endswith("version")
    ]

    def fixes(candidate: Definition, place: tuple[str, ...]) -> frozenset[str] | None:
        allowed = (
            candidate.nested.get((place[0], place[-1]))
            if len(place) > 1
            else candidate.fixed.get(place[0])
        )
        return None if allowed is None else allowed[0]

    wrong = [
        (place, text)
        for place, text in given
        if (values := fixes(definition, place)) is not None and text not in values
    ]
    if not wrong:
        return definition, evidence
    # The other values that bound the example (`meta.type`) must bind it to the version too.
    kept = [
        (place, text)
        for nested in (False, True)
        for place, text in ((p, _text(v)) for p, v in _scalars(data, nested))
        if (values := fixes(definition, place)) is not None and text in values
    ]
    superseded = superseded_page(document.path)
    sources = (*example_definitions(corpus), *(() if superseded else component_definitions(corpus)))
    versions = [
        other
        for other in sources
        if other.target.pointer == definition.target.pointer
        and other.target.document.path != definition.target.document.path
        and corpus.versions.comparable(document.path, other.target.document.path)
        and same_file_at_versions(
            corpus, other.target.document.path, definition.target.document.path
        )
    ]
    at_its_version = [
        other
        for other in versions
        if all(
            (values := fixes(other, place)) is not None and text in values for place, text in wrong
        )
        and all((values := fixes(other, place)) is None or text in values for place, text in kept)
    ]
    named = " and ".join(f"`{'.'.join(place)}: {text}`" for place, text in wrong)
    if not at_its_version:
        if not versions:
            return definition, evidence
        # Its version is none the repository keeps: said once, beside the newest's failure.
        kept_at = sorted(
            {corpus.versions.of(d.target.document.path) for d in (*versions, definition)},
            key=order_key,
        )
        listed = (
            ", ".join(kept_at)
            if len(kept_at) <= NAMED_VERSIONS
            else f"{len(kept_at)} versions, {kept_at[0]} to {kept_at[-1]}"
        )
        return definition, f"{evidence} (no version of it has {named}: {listed})"
    newest = max(
        at_its_version,
        key=lambda d: (
            order_key(corpus.versions.of(d.target.document.path)),
            d.target.document.path,
        ),
    )
    return newest, f"{evidence} and {named}"


def _allowing(
    candidates: list[Definition], data: dict[str, Any], exact: bool
) -> list[tuple[str, set[int], bool]]:
    """The example's values that candidates fix, each with the candidates that allow it and
    whether one of them fixes it to that one value: its own members', else (an envelope) its
    object members' (CloudEvents-style `context.type`). Not ``exact``: a versioned identifier
    matched without its version, against definitions that fix one value only."""
    for nested in (False, True):
        found: list[tuple[str, set[int], bool]] = []
        for place, value in _scalars(data, nested):
            text = _text(value)
            if not exact and _unversioned(text) is None:
                continue
            matched: set[int] = set()
            one = False
            for index, definition in enumerate(candidates):
                allowed = (
                    definition.nested.get((place[0], place[-1]))
                    if nested
                    else definition.fixed.get(place[0])
                )
                if allowed is None:
                    continue
                values, single = allowed
                if exact and text in values:
                    matched.add(index)
                    one = one or single
                elif not exact and single:
                    (only,) = values
                    if only != text and _unversioned(only) == _unversioned(text):
                        matched.add(index)
                        one = True
            if matched:
                note = "" if exact else " (fixed at another version)"
                found.append((f"`{'.'.join(place)}: {text}`{note}", matched, one))
        if found:
            return found
    return []


def _scalars(data: dict[str, Any], nested: bool) -> Iterator[tuple[tuple[str, ...], Any]]:
    """The example's scalar members (``nested``: its object members' scalar members)."""
    for key, value in data.items():
        if not nested:
            if not isinstance(value, (dict, list)) and value is not None:
                yield (str(key),), value
            continue
        for member, inner in value.items() if isinstance(value, dict) else ():
            if not isinstance(inner, (dict, list)) and inner is not None:
                yield (str(key), str(member)), inner


# A trailing version in an identifier, from its separator to the closing quote: `.0.3.0"`,
# `-v2.1"`, `/1.0.0-draft"`.
_VERSION_TAIL = re.compile(r'[./@_-]v?\d+(?:\.\d+){1,2}(?:-[0-9A-Za-z.]+)?"\Z')
_VERSION_SEPARATOR = re.compile(r"[./@_-]")
_LETTER = re.compile(r"[A-Za-z]")
# A versioned identifier is a discriminator's value (`dev.cdevents.change.merged.0.1.2`), a
# line at most: a longer text (a configuration file held in a string) is not one. One regular
# expression with two lazy groups before the version (`^"(.*?[A-Za-z].*?)[./@_-]...`) took
# time cubic in the text: 141 s on the 162 configuration strings of one Helm repository's
# example files, and example-invalid outran its time box (issue 45).
IDENTIFIER_LENGTH = 200


@functools.lru_cache(maxsize=4096)
def _unversioned(text: str) -> str | None:
    """A JSON string's text without its trailing version (from the first separator after a
    letter where a version runs to its end), or None when it has none."""
    if len(text) > IDENTIFIER_LENGTH or not text.startswith('"'):
        return None
    letter = _LETTER.search(text, 1)
    if letter is None:
        return None
    for separator in _VERSION_SEPARATOR.finditer(text, letter.end()):
        if _VERSION_TAIL.match(text, separator.start()):
            return text[1 : separator.start()]
    return None


def _shape_diagnosis(
    candidates: list[Definition], data: dict[str, Any], keys: frozenset[str]
) -> tuple[Definition | None, str]:
    """Tie 7: the one definition that declares every member of the example and fits it clearly
    better than any other (by the share of its members the example gives), none where a fixed
    member of it has another value in the example; or None and why."""
    if len(keys) < SHAPE_MINIMUM:
        return None, f"fewer than {SHAPE_MINIMUM} members to bind it by shape"
    if _kubernetes_object(data) and len(keys - _KUBERNETES_ENVELOPE) < SHAPE_MINIMUM:
        # A manifest's `apiVersion`, `kind`, `metadata`, `spec` fit every definition of a
        # Kubernetes object: only the one of its kind (a `kind` it fixes) is its schema.
        shared = ", ".join(f"`{k}`" for k in sorted(keys & _KUBERNETES_ENVELOPE))
        return None, (
            f"a Kubernetes object: {shared} are every such object's members, and it has fewer "
            f"than {SHAPE_MINIMUM} others to bind it by shape"
        )
    fits: dict[str, tuple[float, Definition]] = {}
    for definition in candidates:
        if declared_by_convention(keys, definition.properties) != keys:
            continue
        if any(
            key in data and _text(data[key]) not in allowed
            for key, (allowed, _) in definition.fixed.items()
            if not isinstance(data.get(key), (dict, list))
        ):
            continue
        score = len(keys) / len(definition.properties)
        fits.setdefault(definition.digest, (score, definition))
    ranked = sorted(fits.values(), key=lambda fit: -fit[0])
    if not ranked:
        return None, "no definition declares every member it has"
    if len(ranked) > 1 and ranked[0][0] < SHAPE_MARGIN * ranked[1][0]:
        names = ", ".join(_name(d.target) for _, d in ranked[:4])
        return None, f"its members fit several definitions about as well ({names})"
    return ranked[0][1], ""


@dataclass(frozen=True)
class ExampleBinding:
    """What ``speclint bindings`` says of one example fence: its ties, or why it has none."""

    fence: CodeFence
    ties: tuple[FenceTie, ...]
    why: str = ""


def example_bindings(
    corpus: Context, document: Document, binding: Binding = Binding()
) -> Iterator[ExampleBinding]:
    """Every example fence of a Markdown page (JSON, JSONC, YAML, or an untagged fence that
    opens an object) with the ties that bind it, or why none does."""
    prose = document.prose
    if prose is None:
        return
    ties: dict[int, list[FenceTie]] = {}
    for tie in fence_ties(corpus, document, binding):
        ties.setdefault(tie.fence.line, []).append(tie)
    after_requests = page_exchanges(corpus, document).unbound if binding.operation else {}
    for fence in prose.fences:
        shown = fence.line in ties or fence.line in after_requests  # an HTTP exchange's
        if fence.language not in EXAMPLE_LANGUAGES and not shown:
            continue
        if fence.language == "" and not fence.content.lstrip().startswith(("{", '"')) and not shown:
            continue
        found = tuple(ties.get(fence.line, ()))
        why = "" if found else _unbound(corpus, document, fence, binding)
        yield ExampleBinding(fence, found, why)


def _unbound(corpus: Context, document: Document, fence: CodeFence, modes: Binding) -> str:
    """Why no tie binds an example fence."""
    if not modes.by_example:
        return "nothing names its schema, and binding by the example is off"
    if in_design_folder(document.path):
        return "a page of proposals or design records: its examples show what it would change"
    after = page_exchanges(corpus, document).unbound.get(fence.line, "") if modes.operation else ""
    if after and (fence.language not in EXAMPLE_LANGUAGES or not fence.language):
        # a request fence's own body; an untagged block after a request is read as its
        # exchange says (it holds a status line, or the words above say its side)
        return after
    try:
        data = fence_data(fence, lenient=True).data
    except ParseFailure as failure:
        return f"not parsed ({failure.message}): a sketch"
    fragment = root_fragment(corpus, document, fence, data)[1] if modes.shape else ""
    if not isinstance(data, dict) or not data:
        return "; ".join(["not an object", *([fragment] if fragment else [])])
    candidates = _candidates(corpus, document)
    if not candidates and not modes.operation:
        return "no schema definition of this page's version line"
    keys = frozenset(str(k) for k in data)
    reasons = []
    reasons.append(after)
    if modes.value:
        reasons.append(_value_diagnosis(candidates, data, keys)[1])
    if modes.operation:
        reasons.append("no operation named above it, nor a request it answers, binds it")
    if modes.shape:
        reasons.append(_shape_diagnosis(candidates, data, keys)[1])
    reasons.append(fragment)
    return "; ".join(r for r in reasons if r)


def _name(target: SchemaTarget) -> str:
    """A definition as prose names it: its key (a message's, for its payload), or the file's
    name for a root."""
    component = component_name(target.pointer)
    if component is not None:
        return component
    if target.pointer:
        return split_pointer(target.pointer)[-1]
    return posixpath.basename(target.document.path)
