"""Which schema a Markdown code fence illustrates, and the JSON inside it with positions.

Spec prose shows payloads in fenced code blocks. A fence is *tied* to a schema, strongest first:

1. by its info string: ```` ```json schema=schemas/run-options.schema.json ````;
2. by a marker comment on the lines just above it: ``<!-- normative-example: error.schema.json -->``
   (the marker keys are configurable; OpenWOP writes ``normative-example``);
3. by configuration: ``"spec/rest.md#create-a-run" = "schemas/run-request.schema.json"`` ties every
   JSON fence under that heading (or, without ``#anchor``, in that file);
4. by adjacency: the paragraph that ends just above the fence names exactly one schema file, as a
   link or a backticked file name ("Schema: `run-options.schema.json`").

The first three are *explicit*: the author said which schema the example follows, so a tie that names
no corpus schema, or an example that is not JSON, is itself worth a finding. An adjacent tie is an
inference and is dropped quietly when it is ambiguous.

``jsonc`` fences may hold ``//`` and ``/* */`` comments and trailing commas; they are blanked to
spaces before parsing so every line and column still matches the Markdown source.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urldefrag

from .corpus import Corpus, Document
from .kinds import DocumentKind
from .prose import CodeFence, Paragraph
from .references import map_remote
from .structured import Parsed, ParseFailure, parse_json, split_pointer, strip_jsonc

DEFAULT_MARKERS = ("normative-example", "schema", "example-of")
JSON_LANGUAGES = ("json", "jsonc")
SCHEMA_FILE = re.compile(r"^[\w./@-]+\.json(?:#\S*)?$")
_MARKER = re.compile(r"<!--\s*([\w-]+)\s*:\s*(\S+?)\s*-->")
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
    how: str  # "info string" | "marker comment" | "configuration" | "adjacent text"
    named: str  # the schema as the author wrote it
    target: SchemaTarget | None  # None: the name matches no schema in the corpus
    line: int  # where the tie is written (the marker, the paragraph, or the fence itself)

    @property
    def explicit(self) -> bool:
        return self.how != "adjacent text"


def fence_ties(
    corpus: Corpus,
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
    corpus: Corpus,
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
    if not adjacent or line < 1 or line not in by_end:
        return None
    paragraph = by_end[line]
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
    if len(found) != 1:
        return None
    (target,) = found.values()
    return FenceTie(fence, "adjacent text", target.label, target, paragraph.line)


def resolve_schema(corpus: Corpus, markdown_path: str, name: str) -> SchemaTarget | None:
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
        base = posixpath.basename(address)
        same_name = [
            d.path
            for d in corpus.of_kind(DocumentKind.SCHEMA)
            if posixpath.basename(d.path) == base
        ]
        if len(same_name) == 1:
            candidates.append(same_name[0])
    for path in candidates:
        target = corpus.documents.get(path)
        if target is None or not target.usable or target.kind is not DocumentKind.SCHEMA:
            continue
        pointer = _pointer(target.data, unquote(fragment))
        return SchemaTarget(target, pointer) if pointer is not None else None
    return None


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
