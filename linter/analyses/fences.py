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
   the page's version line has that name.

The first three are *explicit*: the author said which schema the example follows, so a tie that names
no corpus schema, or an example that is not JSON, is itself worth a finding. The last two are
inferences, dropped quietly when they are ambiguous.

``jsonc`` fences may hold ``//`` and ``/* */`` comments and trailing commas; they are blanked to
spaces before parsing so every line and column still matches the Markdown source.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import unquote, urldefrag

from speclint.analyses.context import Context
from speclint.analyses.references import map_remote
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.prose import CodeFence, Paragraph
from speclint.parsing.structured import (
    Parsed,
    ParseFailure,
    escape_token,
    parse_json,
    split_pointer,
    strip_jsonc,
)

DEFAULT_MARKERS = ("normative-example", "schema", "example-of")
JSON_LANGUAGES = ("json", "jsonc")
SCHEMA_FILE = re.compile(r"^[\w./@-]+\.json(?:#\S*)?$")
_MARKER = re.compile(r"<!--\s*([\w-]+)\s*:\s*(\S+?)\s*-->")
INFERRED = frozenset({"adjacent text", "definition name"})
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

    @property
    def explicit(self) -> bool:
        return self.how not in INFERRED


def fence_ties(
    corpus: Context,
    document: Document,
    markers: tuple[str, ...] = DEFAULT_MARKERS,
    configured: Mapping[str, str] | None = None,
    adjacent: bool = True,
    languages: tuple[str, ...] = JSON_LANGUAGES,
) -> Iterator[FenceTie]:
    """Every JSON fence of a Markdown ``document`` that is tied to a schema."""
    prose = document.prose
    if prose is None or document.text is None:
        return
    lines = document.text.split("\n")
    by_end = {p.end_line: p for p in prose.paragraphs}
    for fence in prose.fences:
        if fence.language not in languages:
            continue
        tie = _tie(corpus, document, fence, lines, by_end, markers, configured or {}, adjacent)
        if tie is not None:
            yield tie


def _tie(
    corpus: Context,
    document: Document,
    fence: CodeFence,
    lines: list[str],
    by_end: dict[int, Paragraph],
    markers: tuple[str, ...],
    configured: Mapping[str, str],
    adjacent: bool,
) -> FenceTie | None:
    def tie(how: str, named: str, line: int) -> FenceTie:
        return FenceTie(fence, how, named, resolve_schema(corpus, document.path, named), line)

    attribute = _INFO_ATTRIBUTE.search(fence.info)
    if attribute:
        return tie("info string", attribute.group(1), fence.line)
    # Walk up over blank lines and comments to the block that precedes the fence.
    line = fence.line - 1
    while line >= 1 and (
        not lines[line - 1].strip() or lines[line - 1].lstrip().startswith("<!--")
    ):
        for key, value in _MARKER.findall(lines[line - 1]):
            if key in markers:
                return tie("marker comment", value, line)
        line -= 1
    keys = [f"{document.path}#{fence.heading.anchor}"] if fence.heading else []
    for key in [*keys, document.path]:
        if key in configured:
            return tie("configuration", configured[key], fence.line)
    if not adjacent:
        return None
    paragraph = by_end.get(line) if line >= 1 else None
    if paragraph is None:
        return _by_definition(corpus, document, fence, None)
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
        return _by_definition(corpus, document, fence, paragraph)
    (target,) = found.values()
    return FenceTie(fence, "adjacent text", target.label, target, paragraph.line)


def _by_definition(
    corpus: Context, document: Document, fence: CodeFence, paragraph: Paragraph | None
) -> FenceTie | None:
    """Tie 5: a definition the paragraph above, else the fence's heading, says the fence *is*.

    Only a text that names one thing and calls it the object shown counts: a heading that is the
    name and object words ("7.1.1. `MessageSendParams` Object"), or a paragraph introducing the
    fence (ending in ":") whose only code span is the name, followed by an object word or in a
    few words ("Request `MessageSendParams` object:"). A text that names a definition among
    other things ("each `AgentSkill` maps to a `WorkflowDefinition`:") ties nothing.
    """
    prose = document.prose
    candidates: list[tuple[int, str]] = []
    if paragraph is not None and paragraph.plain.rstrip().endswith(":"):
        spans = paragraph.inline_code
        if len(spans) == 1 and _introduces(paragraph.plain, spans[0].text):
            candidates.append((paragraph.line, spans[0].text))
    elif paragraph is None and fence.heading is not None and prose is not None:
        spans = tuple(c for c in prose.inline_code if c.line == fence.heading.line)
        if len(spans) == 1 and _names_only(fence.heading.text, spans[0].text):
            candidates.append((fence.heading.line, spans[0].text))
    index = definition_index(corpus)
    for line, name in candidates:
        if not _DEFINITION_NAME.match(name):
            continue
        found = [
            target
            for target in index.get(name, ())
            if corpus.versions.comparable(document.path, target.document.path)
        ]
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
    node = schema
    for token in split_pointer(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return pointer


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
