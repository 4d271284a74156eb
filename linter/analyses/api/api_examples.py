"""The examples of an OpenAPI document that are kept in other files (issue 46, item 6).

An API document is often split (the layout Redocly and swagger-cli bundle): the main document
refers by ``$ref`` to path-item, response, request-body and parameter files, and to example files,
from an ``examples`` entry (a Reference Object, or an Example Object's ``externalValue``: "A URI
that identifies the literal example", OpenAPI 3.1.1 §4.8.19.1) or from a media type's ``example``
written as ``{$ref: ./examples/job.json}``, or that of a schema written in place in a media type
(a bundler replaces it by the file). Such an example is
the API's example all the same: it is judged against the schema of the place that refers to it
(the media type's, the parameter's, the header's), however many files away that place is.

:func:`api_examples` finds them: the examples written in the parts of the document kept in other
files (every example there), and the examples the document or its parts take from another file
(the document's own inline ones, and those a same-file ``$ref`` names, are the rule's already).
An example file referred to from two places is found twice, once with each place's schema.

References are resolved here, not by the reference index (which reads ``examples`` as data, never
as references): a relative path from the file that writes it, never out of the root; a remote URL
is never fetched. What could not be followed is returned (:class:`Unfollowed`) for the run's
summary, never a finding.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from speclint.analyses.api.inlining import corpus_target
from speclint.analyses.context import Context
from speclint.analyses.schemas.schema_objects import (
    openapi_schema_roots,
    referenced_schema_maps,
    schema_holders,
    structure_refs,
)
from speclint.common.findings import Location
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import follow_local, join_pointer, resolve_pointer, split_pointer

# How an example file is named by a schema written in place as its own `example` (ApiExample.how).
SCHEMA_REF = "schema $ref"
# A chain of references from an example entry to its value (`$ref` to an Example Object that has
# an `externalValue`...) is followed this far: a longer one is a loop or a mistake.
MAX_HOPS = 8
# A URI with a scheme (`https:`, `urn:`, `file:`): never a path into the repository.
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_REMOTE = ("http:", "https:", "//")
_PART_KINDS = (DocumentKind.DATA, DocumentKind.SCHEMA)


@dataclass(frozen=True)
class Part:
    """A part of the API document: the document itself, or an object of another file that its
    structure reaches by ``$ref`` (a path item, a response...), where the bundle puts it."""

    document: Document  # the file it is written in
    at: str  # where in that file
    node: Any
    place: str  # where a bundler puts it: a pointer of the API document
    referral: Location | None  # the `$ref` that brought it (None: the document itself)
    # Where its schema objects start (``openapi_schema_roots``): its walk, made once.
    schemas: tuple[str, ...] = ()

    def placed(self, pointer: str) -> str:
        """The bundled pointer of ``pointer`` of this part's file (one within the part)."""
        return self.place + pointer[len(self.at) :]


@dataclass(frozen=True)
class ApiExample:
    """One example and the holder (media type, parameter, header) whose schema it illustrates."""

    holder: Document  # the file of the holder
    holder_at: str  # the holder's pointer there
    holder_node: dict[str, Any]
    place: str  # the holder's bundled pointer in the API document (its direction: request...)
    file: Document  # the file the example's value is written in
    pointer: str  # where the value is in ``file``
    value: Any
    # The places that brought the example here, nearest first: the `$ref` or `externalValue`
    # that names it, then the `$ref`s that brought its holder's part into the document.
    referrals: tuple[Location, ...]
    # "path item" (written in a part), "$ref", "externalValue"; "schema $ref": the file a schema
    # written in place names as its own `example` (JSON Schema only recommends it validate).
    how: str

    @property
    def schema_at(self) -> str:
        return join_pointer(self.holder_at, "schema")


@dataclass(frozen=True)
class Unfollowed:
    """An example reference not followed: ``why`` is ``remote`` (a URL, never fetched),
    ``outside`` (it leads out of the root) or ``missing`` (to no file or object the repository
    holds as JSON or YAML)."""

    location: Location  # the `$ref` or `externalValue` member
    written: str
    why: str


def api_examples(corpus: Context, document: Document) -> tuple[list[ApiExample], list[Unfollowed]]:
    """The examples of OpenAPI 3 ``document`` kept apart from it (module docstring), in the
    order its parts and holders are written; and the references that were not followed. Made
    once per run (the rule's unit and the listing of example files both ask)."""
    memo: dict[str, tuple[list[ApiExample], list[Unfollowed]]]
    memo = corpus.memo.setdefault("api_examples.examples", {})
    if document.path not in memo:
        memo[document.path] = _api_examples(corpus, document)
    return memo[document.path]


def _api_examples(corpus: Context, document: Document) -> tuple[list[ApiExample], list[Unfollowed]]:
    found: list[ApiExample] = []
    unfollowed: list[Unfollowed] = []
    data = document.data
    if (
        document.kind is not DocumentKind.OPENAPI
        or not isinstance(data, dict)
        or not str(data.get("openapi", "")).startswith("3")
    ):
        return found, unfollowed
    seen: set[tuple[str, str]] = set()
    for part in api_parts(corpus, document):
        for at, holder in _holders(part, document):
            if (part.document.path, at) in seen:
                continue  # one holder reached twice (two `$ref`s to one file): judged once
            seen.add((part.document.path, at))
            context = _Holder(corpus, part, at, holder, own=part.document is document)
            for item in context.examples():
                if isinstance(item, ApiExample):
                    found.append(item)
                else:
                    unfollowed.append(item)
    return found, unfollowed


def api_parts(corpus: Context, document: Document) -> list[Part]:
    """The document, and each object of another corpus file its structure reaches by a ``$ref``
    outside its schema objects, transitively (a path item, a parameter, a response, a request
    body kept apart), in the order reached. As the reference index resolved each ``$ref``: one
    that does not resolve is ``unresolved-ref``'s, one out of the root is never followed. A part
    written in another API document is that document's (it judges its own examples)."""
    memo: dict[str, list[Part]] = corpus.memo.setdefault("api_examples.parts", {})
    if document.path in memo:
        return memo[document.path]
    parts = [_part(document, "", document.data, "", None)]
    seen = {(document.path, "")}
    skipped = set(referenced_schema_maps(document.data))  # schema maps: schemas, no holders
    for part in parts:  # grows as it goes
        for site in structure_refs(part.node, part.at, frozenset(part.schemas)):
            if part.document is document and site in skipped:
                continue
            target = corpus_target(corpus, part.document, site)
            if target is None or (target[0].path, target[1]) in seen:
                continue
            seen.add((target[0].path, target[1]))
            holder, at, node = target
            # A file reached here is structure whatever discovery read it as (a path item
            # that is only a `$ref` on reads as a schema); another API document judges its own.
            if holder.kind not in _PART_KINDS or holder.path == document.path:
                continue
            written = resolve_pointer(part.document.data, join_pointer(site, "$ref"))
            note = f"`$ref: {written}` brings in the part the example is written in"
            via = part.document.location(join_pointer(site, "$ref"), note=note)
            parts.append(_part(holder, at, node, part.placed(site), via))
    memo[document.path] = parts
    return parts


def _part(document: Document, at: str, node: Any, place: str, referral: Location | None) -> Part:
    schemas = tuple(pointer for pointer, _ in openapi_schema_roots(node, at))
    return Part(document, at, node, place, referral, schemas)


def _holders(part: Part, document: Document) -> Iterator[tuple[str, dict[str, Any]]]:
    """The media types, parameters and headers of a part: the document's as the rule reads them
    (``schema_holders``); in another file, each object with a ``schema`` that is one by its
    place in the bundle (under ``content``, ``headers``) or by its ``in``."""
    if part.document is document:
        yield from schema_holders(document)
        return
    for pointer in part.schemas:
        holder_at, _, last = pointer.rpartition("/")
        if last != "schema" or not (holder_at == part.at or holder_at.startswith(part.at + "/")):
            continue
        holder = resolve_pointer(part.document.data, holder_at)
        if not isinstance(holder, dict):
            continue
        tokens = split_pointer(part.placed(holder_at))
        if (
            (len(tokens) >= 2 and tokens[-2] in ("content", "headers"))
            or isinstance(holder.get("in"), str)
        ) and tokens[:2] != ["components", "schemas"]:
            yield holder_at, holder


class _Holder:
    """The examples of one holder (``examples()``), resolving references from its file."""

    def __init__(
        self, corpus: Context, part: Part, at: str, node: dict[str, Any], own: bool
    ) -> None:
        self.corpus = corpus
        self.part = part
        self.at = at
        self.node = node
        self.own = own  # the API document's own holder: its in-file examples are the rule's

    def examples(self) -> Iterator[ApiExample | Unfollowed]:
        if "schema" not in self.node:
            return
        document = self.part.document
        if "example" in self.node:
            example = self.node["example"]
            at = join_pointer(self.at, "example")
            if _is_reference(example):
                # `example: {$ref: ./examples/job.json}`: a bundler puts the file's content here
                # (an `example` is a value, so the file is the literal example).
                yield from self._literal(document, join_pointer(at, "$ref"), example["$ref"], ())
            elif not self.own:
                yield self._example(document, at, example, (), "path item")
        schema = self.node["schema"]
        if isinstance(schema, dict) and _is_reference(schema.get("example")):
            # The holder's own schema written in place with `example: {$ref: ./examples/x.yaml}`:
            # the same bundler convention, one level down (the schema is the holder's).
            site = join_pointer(join_pointer(join_pointer(self.at, "schema"), "example"), "$ref")
            yield from self._literal(document, site, schema["example"]["$ref"], (), SCHEMA_REF)
        examples: Any = self.node.get("examples")
        source, under = document, join_pointer(self.at, "examples")
        via: tuple[Location, ...] = ()
        if _is_reference(examples):
            # The whole map kept in a file (`examples: {$ref: ./examples/jobs.yaml}`), as a
            # bundler inlines it.
            site, written = join_pointer(under, "$ref"), examples["$ref"]
            target = _follow(self.corpus, document, site, written)
            if isinstance(target, Unfollowed):
                yield target
            if not isinstance(target, tuple):
                return
            source, under, examples = target
            note = f"`$ref: {written}` names these examples"
            via = (document.location(site, note=note),)
        for name, entry in sorted(examples.items() if isinstance(examples, dict) else []):
            at = join_pointer(under, str(name))
            if self.own and not via and _in_document(document, entry):
                continue  # judged where it is written (example-invalid's in-document examples)
            yield from self._entry(source, at, entry, via, 0)

    def _entry(
        self, document: Document, at: str, entry: Any, via: tuple[Location, ...], hops: int
    ) -> Iterator[ApiExample | Unfollowed]:
        """An ``examples`` entry at ``at`` of ``document``: an Example Object, or a Reference
        Object to one, followed to its ``value`` or ``externalValue``."""
        if not isinstance(entry, dict) or hops > MAX_HOPS:
            return
        reference = entry.get("$ref")
        if isinstance(reference, str):
            site = join_pointer(at, "$ref")
            target = _follow(self.corpus, document, site, reference)
            if isinstance(target, Unfollowed):
                yield target
            elif target is not None:
                holder, pointer, node = target
                here = (document.location(site, note=f"`$ref: {reference}` names this example"),)
                yield from self._entry(holder, pointer, node, here + via, hops + 1)
            return
        if "value" in entry:
            how = "$ref" if via else "path item"
            yield self._example(document, join_pointer(at, "value"), entry["value"], via, how)
        elif isinstance(entry.get("externalValue"), str):
            site = join_pointer(at, "externalValue")
            yield from self._literal(document, site, entry["externalValue"], via)

    def _literal(
        self,
        document: Document,
        site: str,
        written: str,
        via: tuple[Location, ...],
        how: str = "",
    ) -> Iterator[ApiExample | Unfollowed]:
        """The file (or the object) ``written`` at ``site`` names, as the literal example."""
        target = _follow(self.corpus, document, site, written)
        if isinstance(target, Unfollowed):
            yield target
        elif target is not None:
            holder, pointer, node = target
            key = site.rpartition("/")[2]
            note = f"`{key}: {written}` names this example"
            how = how or ("externalValue" if key == "externalValue" else "$ref")
            yield self._example(
                holder, pointer, node, (document.location(site, note=note), *via), how
            )

    def _example(
        self, file: Document, pointer: str, value: Any, via: tuple[Location, ...], how: str
    ) -> ApiExample:
        part = self.part
        chain = (*via, *((part.referral,) if part.referral is not None else ()))
        return ApiExample(
            part.document,
            self.at,
            self.node,
            part.placed(self.at),
            file,
            pointer,
            value,
            chain,
            how,
        )


def _is_reference(value: Any) -> bool:
    """``{$ref: "..."}`` and nothing else: a reference, not an example with a ``$ref`` member."""
    return isinstance(value, dict) and set(value) == {"$ref"} and isinstance(value["$ref"], str)


def _in_document(document: Document, entry: Any) -> bool:
    """Whether the rule judges this ``examples`` entry of the API document where it is: an Example
    Object with a ``value``, or a same-document ``$ref`` to one (``_holder_examples``)."""
    entry = follow_local(document.data, entry)[1]
    return isinstance(entry, dict) and "value" in entry


def _follow(
    corpus: Context, document: Document, site: str, written: str
) -> tuple[Document, str, Any] | Unfollowed | None:
    """The file, pointer and value that ``written`` (a ``$ref`` or ``externalValue`` at ``site`` of
    ``document``) names: a path relative to ``document``, with a JSON pointer fragment or none.
    Unfollowed for a URL, a path out of the root, or nothing there; None for a file the corpus
    holds but does not read as JSON or YAML (an XML or text example) or cannot parse
    (``parse-error``'s)."""
    location = document.location(site)
    file_part, _, fragment = written.partition("#")
    if file_part.startswith(_REMOTE):
        return Unfollowed(location, written, "remote")
    if _SCHEME.match(file_part) or file_part.startswith("/"):
        return Unfollowed(location, written, "outside")
    if file_part:
        path = posixpath.normpath(
            posixpath.join(posixpath.dirname(document.path), unquote(file_part))
        )
        if path == ".." or path.startswith("../"):
            return Unfollowed(location, written, "outside")
    else:
        path = document.path
    target = corpus.documents.get(path)
    if target is None:
        return None if path in corpus.tree else Unfollowed(location, written, "missing")
    if not target.usable:
        return None
    pointer = unquote(fragment)
    if pointer and not pointer.startswith("/"):
        return None  # an anchor or a name: no example object is found by one
    node = resolve_pointer(target.data, pointer)
    if node is None:
        return Unfollowed(location, written, "missing")
    return target, pointer, node


def referenced_example_files(corpus: Context) -> dict[str, list[ApiExample]]:
    """Path of each corpus file an OpenAPI document takes an example from (by ``$ref`` or
    ``externalValue``) -> those examples: bound by their reference, not by what they are
    (``speclint.analyses.prose.fences.example_file_binding``). Made once per run."""
    memo = corpus.memo.get("api_examples.files")
    if isinstance(memo, dict):
        return memo
    files: dict[str, list[ApiExample]] = {}
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        for example in api_examples(corpus, document)[0]:
            if example.file is not example.holder and example.how != "path item":
                files.setdefault(example.file.path, []).append(example)
    corpus.memo["api_examples.files"] = files
    return files
