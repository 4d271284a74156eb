"""Provenance: which documents the repository does not author, and the evidence (issue 45, item 3).

A finding belongs where the maintainers fix it. A repository commits content it does not write
by hand: a tool's output, another project's files, a build's copy of its own sources. Judged as
first-party, such a file reports every defect of its source a second time, drifts from the source
it is a copy of, wins bindings its source should win, and puts findings in files nobody edits.
Provenance is decided once, here, by evidence, and ``speclint files`` shows it:

``generated``
    a tool writes it: a generator's header (``Code generated ... DO NOT EDIT.``, openapi-generator
    and swagger-codegen headers, an openapi-generator docs page's ``[[Back to Model list]]``
    footer: ``kinds.generated_header``), or ``linguist-generated`` in a ``.gitattributes``
    (``Corpus.generated``); a schema bundle that embeds three or more other corpus schemas
    (``speclint.analyses.repository.lineage``); a file a build command of the repository writes (``generator
    --output path``, ``-o path``, ``> path`` in a script, a Makefile, a CI workflow or a
    ``package.json`` script: ``speclint.analyses.repository.downloads.build_outputs``), unless it is a
    bundle or a copy; the API documents and schemas that command names are its ``inputs``
    (``copy-drift`` never pairs a generated file with its own input); a file a program of the
    repository writes by a path, run by a build or by hand (``open(f"../static/{op}_get.json",
    "w")``: ``speclint.analyses.repository.downloads.program_outputs``); an API document or schema in a
    folder only a build writes (``build/``, ``dist/``, ``generated/``, ``bundled/``,
    ``compiled/``);
``vendored``
    ``linguist-vendored`` in a ``.gitattributes``; or a file the repository's own commands
    download (``curl … > api.json`` in a script, a workflow or a shell fence of its guide:
    ``speclint.analyses.repository.downloads``), another project's document refreshed verbatim;
``bundle``
    a document whose content, once every ``$ref`` is replaced by what it points to, equals that of
    another corpus document that references other files: the single-file bundle of split sources
    (``swagger-cli bundle``, ``redocly bundle``, ``*.bundled.json``), compared by content, never
    by name. The split document is its source. So is a file a *bundler* of the repository's
    build writes from a corpus document (``swagger flatten src.yml -o api.yml``, ``redocly
    bundle``, ``speakeasy merge``...: ``speclint.analyses.repository.downloads.bundled_outputs``), whatever
    it holds (go-swagger tags numbers and renames what it hoists: not equal to its source);
``copy``
    the JSON rendering of a YAML document beside it (``run.json`` of ``run.yaml``: equal once
    parsed, up to what a conversion changes: ``$schema``, a block scalar's last newline or
    reflowed lines, YAML 1.1 booleans); or a byte-identical copy of another checked document of the same name and version, in another
    folder (256 characters or more: two tiny files that agree say nothing; two files of different
    names that agree are two documents; a release folder's unchanged file is that release's
    own, ``speclint.parsing.versions``). Of identical files the source is the one a build
    command writes from something else (the copies are made from it), then the one not
    otherwise marked generated, then the one not under a build-output folder (``build/``, ``dist/``, ``generated/``...), then
    the one not in a folder of proposals (``kinds.DESIGN_FOLDERS``: a draft copies the standard),
    then the one more other files reference, then the first in path order (the history, which would
    say which came first, is not read). So for Arazzo workflows and Overlays too; an Arazzo
    document kept under other names, each edited (a renamed workflowId, one copy's defect fixed
    in another), is as many documents, each judged where it is edited;
``upstream``
    a committed copy of another project: a folder below the root with its own LICENSE and README
    whose schemas' ``$id``\\s are all on hosts the repository's other schemas never use (and
    these use at least one). Every document under that folder is upstream.

What rules make of it (``speclint.run.inventory.written_by_hand``): nothing is reported inside a
vendored, upstream, bundle or copy document (the source, where the fix is made, carries its
defects: one finding per root cause); inside a generated one, what breaks every consumer
(``GENERATED_STILL_CHECKED``), and in a generated API document or schema the defects of what it
says to its readers (``GENERATED_CONTENT_RULES``: an invalid example, an unquoted status code),
reported where they are fixed: dropped when the source has the same finding, else in the source
that holds the same content at the same place (``source_holding``: a build command's ``inputs``,
a bundle's ``sources``), else in the generated file as a warning whose message names the
evidence and sends the fix to the source or the generator. A file marked generated by its own
evidence (``linguist-generated``) that a build command also writes gets that command's
``inputs``. A bundle or a copy is ``derived`` (``Context.derived``): the rules
that compare or bind definitions (``copy-drift``, ``enum-drift``, example bindings) read its
source only, so a source and its own copy never drift and the source wins every binding.

Limits: without a bundler's command, a bundle is recognised only when it equals its source
exactly once dereferenced (a stale bundle is judged as written: its drift from the sources is
real); references are followed with
the corpus's own reference index (a remote one is compared as written); a document nested deeper
than ``DEPTH`` is not compared.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from speclint.analyses.repository.downloads import (
    build_inputs,
    build_outputs,
    bundled_outputs,
    downloads,
    program_outputs,
)
from speclint.analyses.schemas.references import ReferenceIndex, located, root_base
from speclint.model.corpus import VENDORED, Corpus, Document
from speclint.parsing.kinds import DocumentKind, in_design_folder
from speclint.parsing.structured import join_pointer, resolve_pointer

GENERATED = "generated"
VENDORED_KIND = "vendored"
BUNDLE = "bundle"
COPY = "copy"
UPSTREAM = "upstream"
TEST_INPUT = "test input"
# The kinds whose findings a run drops entirely: the source carries them, or another project
# does, or nobody (a test input broken on purpose).
NOT_JUDGED = frozenset({VENDORED_KIND, BUNDLE, COPY, UPSTREAM, TEST_INPUT})

SMALLEST_COPY = 256  # characters: below this, two identical files may well be written twice by hand
DEPTH = 400  # nesting levels: deeper documents are not compared (no recursion overflow)
# Folders a build writes its output to: of two identical files, the one here is the copy.
BUILD_FOLDERS = frozenset(
    {"build", "dist", "out", "output", "target", "generated", "gen", "bundled", "_site", "site"}
)
# Folders only a build writes (``npm run build``'s `dist/`, a bundler's `build/`): an API
# document or schema there is output whatever command wrote it (the others above may hold a
# project's own `site/` or `output/` schemas).
OUTPUT_FOLDERS = frozenset({"build", "dist", "generated", "bundled", "compiled"})
_COMPARED = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI, DocumentKind.SCHEMA)
# Documents about API documents: an Arazzo workflow (its steps call their operations) and an
# Overlay (its actions edit one). Copied and rendered as they are (a workflow's `run.json` beside
# its `run.yaml`, a same-name copy in a site's folder: one document, its defects reported once),
# but neither is bundled from `$ref`s nor an output by its folder alone.
_ABOUT_APIS = (DocumentKind.ARAZZO, DocumentKind.OVERLAY)
_RENDERED = (*_COMPARED, *_ABOUT_APIS)
_JUDGED = (*_RENDERED, DocumentKind.INSTANCE, DocumentKind.MARKDOWN, DocumentKind.PROTO)
_LICENSES = ("license", "licence", "copying")


@dataclass(frozen=True)
class Provenance:
    kind: str  # GENERATED, VENDORED_KIND, BUNDLE, COPY or UPSTREAM
    evidence: str  # why, as `speclint files` shows it
    sources: tuple[str, ...] = ()  # for a bundle or a copy: the corpus files it is made from
    # for a file a build command generates: the API documents and schemas the command reads (its
    # output renders them: not a copy of them to keep in step by hand)
    inputs: tuple[str, ...] = ()

    def describe(self) -> str:
        """``generated (why)``, ``bundle (of x.yaml and 4 other files ...), not judged``."""
        judged = ", not judged" if self.kind in NOT_JUDGED else ""
        return f"{self.kind} ({self.evidence}){judged}"


def provenance(
    corpus: Corpus, index: ReferenceIndex, embedding: Mapping[str, int]
) -> dict[str, Provenance]:
    """Each document the repository does not author -> its provenance (first evidence wins:
    a file's own marks, then the corpus-wide comparisons)."""
    found: dict[str, Provenance] = {}
    for path, why in corpus.generated.items():
        kind = VENDORED_KIND if why == VENDORED else GENERATED
        found[path] = Provenance(kind, why)
    for path, command in downloads(corpus).items():
        found.setdefault(path, Provenance(VENDORED_KIND, command))
    for path, (sources, command) in bundled_outputs(corpus).items():
        found.setdefault(path, Provenance(BUNDLE, f"of {', '.join(sources)}, {command}", sources))
        _read_from(found, path, sources)
    for path, count in embedding.items():
        found.setdefault(
            path, Provenance(GENERATED, f"a bundle that embeds {count} other corpus schemas")
        )
    inputs = build_inputs(corpus)
    written = build_outputs(corpus)
    built = {path: inputs.get(path, ()) for path in written}
    for path, made in _copies(corpus, index, found, built).items():
        found.setdefault(path, made)
    for path, made in _renderings(corpus, found).items():
        found.setdefault(path, made)
    for path, made in _bundles(corpus, index, found).items():
        found.setdefault(path, made)
    for path, command in written.items():
        found.setdefault(path, Provenance(GENERATED, command, inputs=inputs.get(path, ())))
        _read_from(found, path, inputs.get(path, ()))
    for path, evidence in program_outputs(corpus).items():
        found.setdefault(path, Provenance(GENERATED, evidence))
    for path, made in _upstream(corpus).items():
        found.setdefault(path, made)
    for path, made in _third_party(corpus).items():
        found.setdefault(path, made)
    for path, made in _broken_on_purpose(corpus).items():
        found.setdefault(path, made)
    for path, made in _in_output_folders(corpus).items():
        found.setdefault(path, made)
    return dict(sorted(found.items()))


def _read_from(found: dict[str, Provenance], path: str, inputs: tuple[str, ...]) -> None:
    """A file marked generated by its own evidence (``linguist-generated``, a header) that a
    build command or a bundler of the repository also writes from ``inputs``: those are its
    sources, where its defects are fixed (``source_holding``). Its kind and evidence stay."""
    made = found.get(path)
    if made is not None and made.kind == GENERATED and not made.inputs and inputs:
        found[path] = Provenance(GENERATED, made.evidence, made.sources, inputs)


def _in_output_folders(corpus: Corpus) -> dict[str, Provenance]:
    """The API documents and schemas in a folder only a build writes (``OUTPUT_FOLDERS``), when
    the repository holds others, its sources: a repository that publishes only its build's
    output (the sources kept elsewhere) has its findings there, where it can act on them."""
    found: dict[str, Provenance] = {}
    sources = False
    for path, document in corpus.documents.items():
        if document.kind not in _COMPARED:
            continue
        named = [f for f in path.split("/")[:-1] if f.lower() in OUTPUT_FOLDERS]
        if named:
            found[path] = Provenance(GENERATED, f"in a build's output folder, `{named[-1]}/`")
        else:
            sources = True
    return found if sources else {}


def rendered_together(found: Mapping[str, Provenance], first: str, second: str) -> bool:
    """Whether a tool keeps two files in step, not a person: both generated (one generator's
    JSON Schema and OpenAPI renderings of one model), or one a generator's output and the other
    its own input (``inject.js openapi.yaml > openapi.json``: regenerated from it). Such files
    are never copies to keep in step by hand (``copy-drift``)."""
    one, other = found.get(first), found.get(second)
    if one is not None and other is not None and one.kind == other.kind == GENERATED:
        return True
    if first == second:
        return False
    return (one is not None and second in one.inputs) or (
        other is not None and first in other.inputs
    )


def source_holding(corpus: Corpus, made: Provenance, path: str, pointer: str) -> str | None:
    """The source of the generated document ``path`` (its build command's ``inputs``, a
    bundle's ``sources``) that holds what ``path`` holds at ``pointer``: the same content at the
    same place, up to a YAML-to-JSON conversion (``same_when_converted``). A defect found there
    in the generated document is the source's, fixed there. None when no source holds it so: a
    generator that moves, renames or dereferences what it copies, or assembles its output by
    textual includes (no source is known), leaves the defect where it was found."""
    for source in (*made.inputs, *made.sources):
        if source != path and holds_same(corpus, (path, pointer), (source, pointer)):
            return source
    return None


def holds_same(corpus: Corpus, one: tuple[str, str], other: tuple[str, str]) -> bool:
    """Whether two places, (file, JSON pointer), hold the same content, up to a YAML-to-JSON
    conversion (``same_when_converted``): a generated file's part and its source's."""
    nodes = []
    for path, pointer in (one, other):
        document = corpus.documents.get(path)
        if document is None or not document.usable:
            return False
        try:
            nodes.append(resolve_pointer(document.data, pointer))
        except (KeyError, IndexError, TypeError, ValueError):
            return False
    return same_when_converted(*nodes)


def derived(found: Mapping[str, Provenance], embedding: Mapping[str, int]) -> dict[str, int]:
    """The documents made from other corpus documents -> how many: lineage's schema bundles,
    and the bundles and copies found here."""
    out = dict(embedding)
    for path, made in found.items():
        if made.kind in (BUNDLE, COPY):
            out.setdefault(path, len(made.sources))
    return dict(sorted(out.items()))


# --- one document in two serialisations ---------------------------------------------------------

# The two formats one document is published in (`run.yaml` and `run.json`).
_FORMATS = ((".json",), (".yaml", ".yml"))
# YAML 1.1 booleans: a YAML 1.2 reader keeps them strings, the YAML 1.1 tool that wrote the
# JSON copy turned them into `true`/`false` (yaml.org/type/bool.html).
_YAML11_BOOLEANS = {
    **dict.fromkeys(("y", "yes", "on", "true"), True),
    **dict.fromkeys(("n", "no", "off", "false"), False),
}
# Annotations that are prose (JSON Schema 2020-12 Validation §9.1, Core §8.3): a converter may
# reflow them (a block scalar's line breaks joined into spaces), and a reader sees the same text.
_PROSE = frozenset({"description", "title", "$comment"})


class _TooDeep(Exception):
    """A document nested past ``DEPTH``: not compared."""


def as_converted(node: Any, depth: int = 0) -> Any:
    """``node`` as a YAML-to-JSON conversion leaves it comparable: no `$schema` (a build may
    add or drop it), strings without the trailing newline of a YAML block scalar, prose
    annotations up to their whitespace (a reflowed description), and YAML 1.1 booleans
    (``yes``, ``on``) as the booleans a YAML 1.1 converter made of them. Raises ``_TooDeep``
    past ``DEPTH`` levels (``renderings`` compares such documents as different)."""
    if depth > DEPTH:
        raise _TooDeep
    if isinstance(node, dict):
        return {
            k: " ".join(v.split())
            if k in _PROSE and isinstance(v, str)
            else as_converted(v, depth + 1)
            for k, v in node.items()
            if k != "$schema"
        }
    if isinstance(node, list):
        return [as_converted(each, depth + 1) for each in node]
    if isinstance(node, str):
        flag = _YAML11_BOOLEANS.get(node.lower())
        return flag if flag is not None else node.rstrip()
    return node


def same_when_converted(first: Any, second: Any) -> bool:
    """Whether two parsed documents are one document in two serialisations."""
    try:
        return bool(as_converted(first) == as_converted(second))
    except _TooDeep:
        return False


def _renderings(corpus: Corpus, marked: Mapping[str, Provenance]) -> dict[str, Provenance]:
    """One document published as YAML and as JSON beside it (`run.yaml` and `run.json`), equal
    once parsed up to what a conversion changes: one is the other's copy. The YAML is taken as
    the source (people write YAML, a converter writes the JSON), unless only it is marked."""
    by_stem: dict[str, dict[int, Document]] = {}
    for path, document in corpus.documents.items():
        stem, suffix = posixpath.splitext(path)
        form = next((i for i, names in enumerate(_FORMATS) if suffix.lower() in names), None)
        if form is not None and document.kind in _RENDERED and document.usable:
            by_stem.setdefault(stem, {}).setdefault(form, document)
    found: dict[str, Provenance] = {}
    for forms in by_stem.values():
        if len(forms) < 2:
            continue
        rendered, written = forms[0], forms[1]
        if written.kind is not rendered.kind:
            continue
        if not same_when_converted(written.data, rendered.data):
            continue
        if written.path in marked and rendered.path not in marked:
            written, rendered = rendered, written
        found[rendered.path] = Provenance(
            COPY, f"{written.path} in another serialisation", (written.path,)
        )
    return found


# --- byte-identical copies ------------------------------------------------------------------------


def _copies(
    corpus: Corpus,
    index: ReferenceIndex,
    marked: Mapping[str, Provenance],
    built: Mapping[str, tuple[str, ...]],
) -> dict[str, Provenance]:
    by_text: dict[tuple[str, str, str], list[str]] = {}
    for path, document in corpus.documents.items():
        text = document.text
        if (
            document.kind in _JUDGED
            and document.usable
            and text is not None
            and len(text) >= SMALLEST_COPY
        ):
            digest = document.digest or hashlib.sha256(text.encode()).hexdigest()
            # A release folder holding a file its next release did not change is history,
            # written once per release: each version's copy is its own (``versions``).
            # A copy keeps its name (a build copies `spec/x.yml` to `site/static/spec/x.yml`):
            # two files of different names that agree are two documents that happen to be
            # equal (each tool's own settings schema), each written and fixed where it is.
            name = path.rpartition("/")[2]
            by_text.setdefault((digest, corpus.versions.of(path), name), []).append(path)
    groups = [paths for paths in by_text.values() if len(paths) > 1]
    if not groups:
        return {}
    incoming = Counter(
        r.target_path
        for r in index.references
        if r.target_path is not None and r.target_path != r.path
    )
    found: dict[str, Provenance] = {}
    for paths in groups:

        def preference(path: str, paths: list[str] = paths) -> tuple[int, bool, bool, int, str]:
            in_build = bool(BUILD_FOLDERS & set(path.lower().split("/")[:-1]))
            # A build command writes it from something else (a generator's output, which the
            # site build then copies): the first of the copies, the others made from it.
            first = path in built and not set(built[path]) & set(paths)
            rank = 0 if first else 2 if path in marked or path in built else 1
            return (rank, in_build, in_design_folder(path), -incoming[path], path)

        source = min(paths, key=preference)
        for path in paths:
            if path != source:
                found[path] = Provenance(COPY, f"byte-identical to {source}", (source,))
    return found


# --- bundles: equal to another document once dereferenced --------------------------------------


def _bundles(
    corpus: Corpus, index: ReferenceIndex, marked: Mapping[str, Provenance]
) -> dict[str, Provenance]:
    """Single-file documents equal, once dereferenced, to a split document of the same kind."""
    split: dict[DocumentKind, list[Document]] = {}
    single: dict[DocumentKind, list[Document]] = {}
    for document in corpus.documents.values():
        if document.kind not in _COMPARED or not document.usable or document.path in marked:
            continue
        if not isinstance(document.data, dict):
            continue
        outward = {
            r.target_path
            for r in index.within(document.path, "")
            if r.target_path is not None and r.target_path != document.path
        }
        (split if outward else single).setdefault(document.kind, []).append(document)
    if not split or not single:
        return {}
    # Only documents that agree at a glance are dereferenced (a corpus of a thousand schemas
    # with `$ref`s and a thousand without would otherwise hash every node of each).
    glance: dict[tuple[DocumentKind, str], list[Document]] = {}
    for kind, documents in split.items():
        for document in documents:
            glance.setdefault((kind, at_a_glance(document.data)), []).append(document)
    content = _Dereferenced(corpus, index)
    found: dict[str, Provenance] = {}
    for kind, singles in single.items():
        candidates = [d for d in singles if (kind, at_a_glance(d.data)) in glance]
        if not candidates:
            continue
        sources = [s for d in candidates for s in glance[kind, at_a_glance(d.data)]]
        sources = list({s.path: s for s in sources}.values())
        by_digest: dict[str, list[tuple[Document, dict[str, str]]]] = {}
        for source in sources:
            signature = _signature(content, source)
            if signature is not None:
                by_digest.setdefault(signature[0], []).append((source, signature[1]))
        for document in candidates:
            signature = _signature(content, document)
            if signature is None:
                continue
            top, held = signature
            matches = [
                source
                for source, needed in by_digest.get(top, [])
                if all(held.get(place) == digest for place, digest in needed.items())
            ]
            if len(matches) != 1:
                continue  # none, or ambiguous: two split sources of one content
            source = matches[0]
            reached = sorted(content.reached(source.path) - {source.path})
            others = f" and {len(reached)} other file{'s' if len(reached) != 1 else ''}"
            evidence = f"of {source.path}{others}, equal once dereferenced"
            found[document.path] = Provenance(BUNDLE, evidence, (source.path, *reached))
    return found


# Where a bundler puts what it hoists from other files (redocly's `components/schemas/Owner` for
# `./Owner.yaml`): a bundle may hold more there than its source; what the source names there is
# compared entry by entry.
_HOISTED = ("components", "definitions", "$defs", "parameters", "responses")


def at_a_glance(data: dict[str, Any]) -> str:
    """What a document and its bundle share on their face: the top-level members but the
    reusable ones, the scalar ones' values, and ``info``'s title and version."""
    parts = []
    for key in sorted(data):
        if key in _HOISTED:
            continue
        value = data[key]
        if isinstance(value, (str, int, float, bool)) or value is None:
            parts.append(f"{key}={value!r}")
        else:
            parts.append(key)
    info = data.get("info")
    if isinstance(info, dict):
        parts += [f"info.{k}={info.get(k)!r}" for k in ("title", "version")]
    return "\x00".join(parts)


def _signature(content: _Dereferenced, document: Document) -> tuple[str, dict[str, str]] | None:
    """The digest of the dereferenced document but for its reusable entries, and each entry's
    digest by place (``/components/schemas/Pet``); None when it cannot be compared."""
    data = document.data
    rest: list[str] = []
    entries: dict[str, str] = {}
    for key in sorted(data):
        pointer = join_pointer("", key)
        value = data[key]
        if key in _HOISTED and isinstance(value, dict):
            sections = value.items() if key == "components" else [("", value)]
            for section, members in sections:
                if not isinstance(members, dict):
                    return None
                base = join_pointer(pointer, section) if section else pointer
                for name in members:
                    place = join_pointer(base, name)
                    digest = content.digest(document.path, place)
                    if digest is None:
                        return None
                    entries[place] = digest
            continue
        digest = content.digest(document.path, pointer)
        if digest is None:
            return None
        rest.append(f"{key}\x01{digest}")
    if not rest:
        return None  # nothing but reusable entries: equal entries prove no bundle
    return _hash("\x00".join(rest)), entries


class _Dereferenced:
    """Content digests of documents with every ``$ref`` replaced by its target, memoised by
    place (a shared target is hashed once, so a tree that references one schema a thousand times
    costs what the schema does), and the files each dereferenced document reaches."""

    def __init__(self, corpus: Corpus, index: ReferenceIndex) -> None:
        self.corpus = corpus
        self.index = index
        self.memo: dict[tuple[str, str], str | None] = {}
        self.files: dict[tuple[str, str], frozenset[str]] = {}
        self.open: set[tuple[str, str]] = set()

    def digest(self, path: str, pointer: str) -> str | None:
        document = self.corpus.documents.get(path)
        if document is None:
            return None
        try:
            node = resolve_pointer(document.data, pointer)
        except (KeyError, IndexError, TypeError, ValueError):
            return None
        return self._place(path, pointer, node, 0)

    def reached(self, path: str) -> frozenset[str]:
        """The files the dereferenced places of ``path`` compared so far reach."""
        out = {path}
        for (where, _), files in self.files.items():
            if where == path:
                out |= files
        return frozenset(out)

    def _place(self, path: str, pointer: str, node: Any, depth: int) -> str | None:
        key = (path, pointer)
        if key in self.memo:
            return self.memo[key]
        if key in self.open:
            return "cycle"  # a recursive schema: both sides meet their cycle at the same place
        self.open.add(key)
        try:
            result, files = self._node(path, pointer, node, depth)
        finally:
            self.open.discard(key)
        self.memo[key] = result
        self.files[key] = files | {path}
        return result

    def _node(
        self, path: str, pointer: str, node: Any, depth: int
    ) -> tuple[str | None, frozenset[str]]:
        if depth > DEPTH:
            return None, frozenset()
        files: frozenset[str] = frozenset()
        if isinstance(node, dict):
            reference = node.get("$ref")
            parts: dict[str, str] = {}
            if isinstance(reference, str):
                target = self.index.at(path, join_pointer(pointer, "$ref"))
                if target is None:
                    target = self.index.at(path, pointer)
                found = located(self.corpus, target) if target is not None else None
                if found is not None:
                    resolved = self.digest(*found)
                    if resolved is None:
                        return None, files
                    files |= self.files.get(found, frozenset())
                    if len(node) == 1:
                        return resolved, files
                    parts["$ref"] = resolved  # siblings kept beside what it points to
            for key, value in node.items():
                if key == "$ref" and "$ref" in parts:
                    continue
                child = join_pointer(pointer, key)
                digest = self._place(path, child, value, depth + 1)
                if digest is None:
                    return None, files
                files |= self.files.get((path, child), frozenset())
                parts[key] = digest
            shown = "\x00".join(f"{k}\x01{v}" for k, v in sorted(parts.items()))
            return _hash("o" + shown), files
        if isinstance(node, list):
            items = []
            for number, value in enumerate(node):
                child = join_pointer(pointer, number)
                digest = self._place(path, child, value, depth + 1)
                if digest is None:
                    return None, files
                files |= self.files.get((path, child), frozenset())
                items.append(digest)
            return _hash("a" + "\x00".join(items)), files
        return _hash("s" + type(node).__name__ + "\x01" + repr(node)), files


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()


# --- upstream copies ----------------------------------------------------------------------------


# What a copier writes into the `info` of an API document it copies from elsewhere: APIs.guru's
# `x-origin`, `x-providerName` and `x-apisguru-categories`; a catalogue's `x-<name>-source-url`.
_COPIER_MARK = re.compile(
    r"(?i)^x-(?:origin|providername|apisguru-[\w-]+|(?:[\w-]+-)?source-?url|(?:[\w-]+-)?origin-?url)$"
)
# Hosts that stand for no organisation (placeholders, documentation domains, RFC 2606).
_NO_ORGANISATION = frozenset({"example", "localhost", "test", "invalid", "local"})
_API_KINDS = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)
# Documents of this many organisations in one folder: a collection of other companies' APIs (a
# generator's or a runner's sample inputs), not one company's (which may run two domains).
ORGANISATIONS_IN_A_COLLECTION = 3


def _organisation(host: str) -> tuple[str, str] | None:
    """(the registrable domain, its organisation label) of a server's host name:
    `api.elevenlabs.io` -> (`elevenlabs.io`, `elevenlabs`); None for an IP address, a
    placeholder or a name without a dot."""
    labels = host.lower().rstrip(".").split(".")
    if len(labels) < 2 or labels[-1].isdigit() or not labels[-1].isalpha():
        return None
    # a second-level public suffix (`co.uk`, `com.au`): the organisation is one label further in
    cut = (
        3
        if len(labels[-1]) == 2 and labels[-2] in {"co", "com", "org", "net", "ac", "gov", "edu"}
        else 2
    )
    if len(labels) < cut:
        return None
    label = labels[-cut]
    if label in _NO_ORGANISATION:
        return None
    return ".".join(labels[-cut:]), label


def _server_domains(data: Any) -> list[tuple[str, str]]:
    """The organisations of an API document's absolute server URLs (OpenAPI 3's `servers`,
    Swagger 2.0's `host`, AsyncAPI's `servers` map)."""
    urls: list[Any] = []
    servers = data.get("servers")
    if isinstance(servers, list):
        urls = [s.get("url") for s in servers if isinstance(s, dict)]
    elif isinstance(servers, dict):
        urls = [s.get("url") or s.get("host") for s in servers.values() if isinstance(s, dict)]
    if isinstance(data.get("host"), str):
        urls.append("https://" + data["host"])
    found = []
    for url in urls:
        if not isinstance(url, str):
            continue
        host = urlsplit(url if "//" in url else "https://" + url).hostname
        made = (
            _organisation(host)
            if host and "{" not in url.split("/")[2 if "//" in url else 0]
            else None
        )
        if made is not None:
            found.append(made)
    return found


def _third_party(corpus: Corpus) -> dict[str, Provenance]:
    """API documents copied from other companies, kept as a tool's input: one whose `info` bears
    a copier's mark (``_COPIER_MARK``); one in a folder named for its server's domain (APIs.guru's
    `provider.com/version/openapi.yaml` layout); the documents of a folder that collects the
    APIs of three or more organisations (by their servers' domains), each of another, one of
    them marked or so placed."""
    found: dict[str, Provenance] = {}
    collections: dict[str, dict[str, tuple[str, str]]] = {}
    for path, document in corpus.documents.items():
        if document.kind not in _API_KINDS or not document.usable:
            continue
        if not isinstance(document.data, dict):
            continue
        info = document.data.get("info")
        marks = (
            sorted(k for k in info if _COPIER_MARK.match(str(k))) if isinstance(info, dict) else []
        )
        domains = _server_domains(document.data)
        folders = path.split("/")[:-1]
        named = [f for f in folders if any(f.lower() == domain for domain, _ in domains)]
        if marks:
            found[path] = Provenance(
                VENDORED_KIND, f"`info.{marks[0]}`: a copy of another party's API document"
            )
        elif named:
            found[path] = Provenance(
                VENDORED_KIND, f"in a folder named for its server's domain, `{named[-1]}/`"
            )
        # the collection a document belongs to: the folder above any folder named as a domain
        # or a version (`elevenlabs.io/main/openapi.json` is one of `openapi_specs/`)
        top = len(folders)
        while top and (
            "." in folders[top - 1]
            or folders[top - 1].lower() in ("main", "latest", "current")
            or folders[top - 1].lstrip("v").replace(".", "").isdigit()
        ):
            top -= 1
        # (one with a copier's mark counts towards its folder's collection too)
        if len({label for _, label in domains}) == 1:
            collections.setdefault("/".join(folders[:top]), {})[path] = domains[0]
    for folder, members in sorted(collections.items()):
        labels = {label for _, label in members.values()}
        if len(labels) < ORGANISATIONS_IN_A_COLLECTION:
            continue
        # A folder of many organisations' APIs is a collection of copies only where one of them
        # shows it was copied (a mark, a domain-named folder): a repository that writes its own
        # descriptions of other companies' APIs (kanekoshoyu/exchange-collection: one document
        # per exchange, none marked) owns their defects.
        if not any(path in found for path in members):
            continue
        shown = ", ".join(sorted({domain for domain, _ in members.values()})[:4])
        for path in members:
            found.setdefault(
                path,
                Provenance(
                    VENDORED_KIND,
                    f"one of {len(members)} API documents of {len(labels)} organisations in "
                    f"`{folder or '.'}/` ({shown}...): a collection of other companies' APIs",
                ),
            )
    return found


# What an API document's `info` (or a schema's `title`/`description`) says of a test input made
# broken on purpose: a validator's "torture test", a document "purposely broken".
_BROKEN_ON_PURPOSE = re.compile(
    r"(?i)\btorture[- ]test\b|\b(?:broken|invalid) on purpose\b|"
    r"\b(?:purposely|purposefully|deliberately|intentionally)\s+(?:broken|invalid|malformed|wrong)\b"
)


def _broken_on_purpose(corpus: Corpus) -> dict[str, Provenance]:
    """Documents whose own title or description says they are broken on purpose (a
    validator's test input: nobody fixes them)."""
    found: dict[str, Provenance] = {}
    for path, document in corpus.documents.items():
        data = document.data if document.usable else None
        if not isinstance(data, dict):
            continue
        info: dict[str, Any] = data["info"] if isinstance(data.get("info"), dict) else data
        for key in ("title", "description"):
            text = info.get(key)
            said = _BROKEN_ON_PURPOSE.search(text) if isinstance(text, str) else None
            if said is not None:
                where = "info." + key if info is not data else key
                found[path] = Provenance(TEST_INPUT, f'its `{where}` says so: "{said.group(0)}"')
                break
    return found


def _upstream(corpus: Corpus) -> dict[str, Provenance]:
    """Folders holding another project: their own LICENSE and README, and schema ``$id`` hosts
    the rest of the repository never uses."""
    files_in: dict[str, set[str]] = {}
    for path in corpus.tree:
        folder, _, name = path.rpartition("/")
        if folder:
            files_in.setdefault(folder, set()).add(name.lower())
    projects = sorted(
        folder
        for folder, names in files_in.items()
        if any(name.startswith(_LICENSES) for name in names)
        and any(name.startswith("readme") for name in names)
    )
    if not projects:
        return {}

    def project_of(path: str) -> str | None:
        inside = [folder for folder in projects if path.startswith(folder + "/")]
        return max(inside, key=len) if inside else None

    own_hosts: set[str] = set()
    hosts_in: dict[str, set[str]] = {}
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        host = _id_host(document)
        if host is None:
            continue
        project = project_of(document.path)
        if project is None:
            own_hosts.add(host)
        else:
            hosts_in.setdefault(project, set()).add(host)
    if not own_hosts:
        return {}  # nothing says which namespace is the repository's own
    found: dict[str, Provenance] = {}
    for project, hosts in sorted(hosts_in.items()):
        if hosts & own_hosts:
            continue
        shown = ", ".join(sorted(hosts))
        evidence = (
            f"another project's copy: {project}/ has its own LICENSE and README, and `$id` "
            f"host {shown}, not the repository's {', '.join(sorted(own_hosts))}"
        )
        for path in corpus.documents:
            if path.startswith(project + "/"):
                found[path] = Provenance(UPSTREAM, evidence)
    return found


def _id_host(document: Document) -> str | None:
    """The host of the schema's declared base URI (``root_base``: its `$id`, or draft-04's
    `id`), None for one with no http(s) `$id`."""
    if not isinstance(document.data, dict):
        return None
    parts = urlsplit(root_base(document))
    if parts.scheme not in ("http", "https"):
        return None
    return parts.netloc.lower() or None
