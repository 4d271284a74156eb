"""An API document as a bundler gives it: each ``$ref`` where the specification allows no
Reference Object replaced by what it names.

A split source written for ``redocly bundle`` or ``swagger-cli bundle`` puts ``$ref`` wherever a
piece is kept in a file of its own: an operation (``get: {$ref: ops/list.yml}``), a tag's
description (``{$ref: intro.yml#/text}``), a ``properties`` map. Those tools read any object with a
``$ref`` member as a JSON Reference (draft-pbryan-zyp-json-ref-03 §3: the object stands for its
target, its other members ignored) and replace it before the document is used, so the bundle they publish is what a reader
of the API gets. Validated as written, each such operation was two errors (``$ref`` is not
allowed, ``responses`` is missing) and the operation itself was never checked.

:func:`inline_misplaced` makes that bundle's view of one document: the places a judge says hold
a ``$ref`` the specification does not allow (the official schema rejects the object there) are
replaced by their targets, round after round (a target may hold such places too), and each
replaced place remembers the file and pointer it came from, so an error inside it is reported in
that file, at its line (:meth:`InlinedView.locate`). Only a target in the corpus is inlined, as
the reference index resolved the ``$ref`` where it is written (a relative path, a pointer into
the same file, a URL ``[ref-map]`` maps, an anchor: what unresolved-ref calls resolved is what
is inlined), never one out of the root or on the network; a reference that returns to a target it is already inside, or one past the rounds
or the size budget, is left in place and said so (:attr:`InlinedView.left`).

The references inside an inlined piece are rewritten as a bundler rewrites them: relative to the
document, so a validator resolving them from the document's place finds what the piece's own
file named.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from speclint.analyses.api.merging import Merges, merged_data
from speclint.analyses.schemas.references import located, rebased
from speclint.analyses.units import reach
from speclint.parsing.keyword_positions import Position, item_position, member_position
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import (
    escape_token,
    join_pointer,
    node_count,
    pointer_of,
    pointer_within,
    resolve_pointer,
    split_pointer,
)

if TYPE_CHECKING:
    from speclint.analyses.context import Context
    from speclint.model.corpus import Document

# A target nested inside inlined targets this deep is not inlined (a chain of files each naming
# the next); no real split source nests operations or descriptions more than a few levels.
ROUNDS = 16
# Nodes copied into one document's view at most: a source of a few thousand files inlines
# some 10^4; past this, what is left is said, not inlined.
BUDGET = 1_000_000


@dataclass
class InlinedView:
    """One document with its misplaced ``$ref``\\s replaced (:func:`inline_misplaced`)."""

    document: Document
    data: Any
    # view pointer of each inlined place -> (the file, the pointer) its content came from
    origins: dict[str, tuple[Document, str]] = field(default_factory=dict)
    # view pointer of each misplaced `$ref` left in place -> why ("missing", "cycle", "budget")
    left: dict[str, str] = field(default_factory=dict)
    # (file, a `$ref` of it as the view holds it) -> as the file writes it (`references.rebased`)
    written: dict[tuple[str, str], str] = field(default_factory=dict)

    @property
    def inlined(self) -> bool:
        return bool(self.origins)

    def locate(self, pointer: str) -> tuple[Document, str]:
        """The file and pointer where what is at ``pointer`` of the view is written."""
        best = ""
        for start in self.origins:
            if len(start) > len(best) and pointer_within(pointer, start):
                best = start
        if not best:
            return self.document, pointer
        holder, at = self.origins[best]
        return holder, at + pointer[len(best) :]

    def as_written(self, holder: Document, message: str) -> str:
        """``message`` about ``holder``'s content with each of its ``$ref``\\s quoted as the file
        writes it, not as the view rebased it (``"models/ids.yml"``, not the document's
        ``"resources/models/ids.yml"``)."""
        for (path, as_held), original in self.written.items():
            if path == holder.path and as_held != original:
                message = message.replace(json.dumps(as_held), json.dumps(original))
        return message

    def files(self) -> set[str]:
        """The files whose content the view holds besides the document's own."""
        return {holder.path for holder, _ in self.origins.values()} - {self.document.path}


def corpus_target(
    corpus: Context, holder: Document, pointer: str
) -> tuple[Document, str, Any] | None:
    """The corpus file, pointer and node that the ``$ref`` member of ``holder``'s object at
    ``pointer`` names, as the reference index resolved it (``speclint.analyses.schemas.references``:
    relative paths, ``[ref-map]``'s published URLs, ``$id``\\s and anchors alike, so that what
    unresolved-ref calls resolved is what is inlined); None for a remote one, one out of the
    root, a missing file or a pointer to nothing (unresolved-ref's, or "not checked")."""
    reference = corpus.references.at(holder.path, join_pointer(pointer, "$ref"))
    where = located(corpus, reference) if reference is not None else None
    if where is None:
        return None
    target = corpus.documents.get(where[0])
    if target is None or not target.usable:
        return None
    node = resolve_pointer(target.data, where[1])
    return None if node is None else (target, where[1], node)


def written_at(corpus: Context, view: InlinedView, pointer: str) -> tuple[Document, str]:
    """The file and pointer where what is at ``pointer`` of the view is written, through the
    ``$ref``\\s the view inlined (:meth:`InlinedView.locate`) and through those it keeps because
    the specification allows them there and a validator follows them: a path item kept in its
    own file (OpenAPI 3.1.1 §4.8.9.1 ``$ref``), a parameter or response component, a Swagger
    2.0 schema's ``definitions``. A check that follows them (the library's path parameters and
    duplicate operationIds, Swagger 2.0's schema validation) names a pointer of the root
    document that passes through such a ``$ref``; what it judges is written at the target,
    and the finding goes there, once however many places reach it. A ``$ref`` that does not
    resolve in the corpus ends the walk (``unresolved-ref``'s), at the object holding it."""
    holder, at = view.locate(pointer)
    for _ in range(ROUNDS):
        tokens = split_pointer(at)
        node: Any = holder.data
        for index, token in enumerate(tokens):
            if isinstance(node, dict) and token not in node and isinstance(node.get("$ref"), str):
                target = corpus_target(corpus, holder, pointer_of(tokens[:index]))
                if target is None:
                    return holder, pointer_of(tokens[:index])
                holder, at = target[0], pointer_of(split_pointer(target[1]) + tokens[index:])
                break
            node = _step(node, token)
            if node is None:
                return holder, at
        else:
            # A node that is only a `$ref` (a shared parameter) is judged as its target: an
            # error the library places at it is the target's, but a reference to what holds
            # it (a loop) is its own.
            # One the view left uninlined (past its budget, or missing) is said as itself.
            alone = list(node) == ["$ref"] if isinstance(node, dict) else False
            if alone and isinstance(node["$ref"], str) and pointer not in view.left:
                target = corpus_target(corpus, holder, at)
                if target is not None and not (
                    target[0] is holder and pointer_within(at, target[1])
                ):
                    return target[0], target[1]
            return holder, at
    return holder, at


def _step(node: Any, token: str) -> Any:
    if isinstance(node, dict):
        return node.get(token)
    if isinstance(node, list) and token.isdigit() and int(token) < len(node):
        return node[int(token)]
    return None


def inline_misplaced(
    corpus: Context,
    document: Document,
    misplaced: Callable[[Any], Iterable[str]],
    rounds: int | None = None,
    budget: int | None = None,
) -> InlinedView:
    """``document`` as its bundle reads: each object with a ``$ref`` member at a pointer that
    ``misplaced(data)`` yields (the places the specification's schema rejects it) replaced by
    the ``$ref``'s target, until ``misplaced`` yields no new place, ``rounds`` are done, or
    ``budget`` nodes are copied. The ``$ref``'s siblings are dropped, as JSON Reference says
    (draft-pbryan-zyp-json-ref-03 §3: "any members other than `$ref` ... SHALL be ignored")."""
    rounds = ROUNDS if rounds is None else rounds
    budget = BUDGET if budget is None else budget
    view = InlinedView(document, document.data)
    # the (file, pointer) targets each inlined place is inside, for cycles
    chains: dict[str, tuple[tuple[str, str], ...]] = {}
    copied = 0
    for _ in range(rounds):
        places = sorted(
            {p for p in misplaced(view.data) if p not in view.left and p not in view.origins},
            key=lambda p: (len(split_pointer(p)), p),
        )
        changed = False
        for place in places:
            node = resolve_pointer(view.data, place)
            reference = node.get("$ref") if isinstance(node, dict) else None
            if not isinstance(reference, str):
                continue
            # Resolved where it is written (the file an inlined piece came from), as the
            # reference index resolved it there.
            holder, at = view.locate(place)
            target = corpus_target(corpus, holder, at)
            if target is None:
                view.left[place] = "missing"  # unresolved-ref or remote-ref says why, once
                continue
            target_document, target_pointer, content = target
            chain = _chain(chains, place)
            key = (target_document.path, target_pointer)
            if key in chain or (
                target_document is document and pointer_within(place, target_pointer)
            ):
                view.left[place] = "cycle"
                continue
            size = node_count(content)
            if copied + size > budget:
                view.left[place] = "budget"
                continue
            copied += size
            inlined = rebased(content, target_document.path, document.path, view.written)
            view.data = _replaced(view.data, split_pointer(place), inlined)
            view.origins[place] = (target_document, target_pointer)
            chains[place] = (*chain, key)
            changed = True
        if not changed:
            break
    return view


def _chain(
    chains: dict[str, tuple[tuple[str, str], ...]], place: str
) -> tuple[tuple[str, str], ...]:
    """The targets the place is inside, outermost first."""
    best = ""
    for start in chains:
        if len(start) > len(best) and place.startswith(start + "/"):
            best = start
    return chains.get(best, ())


def _replaced(data: Any, tokens: list[str], value: Any) -> Any:
    """``data`` with ``value`` at ``tokens``: the containers on the way copied (shallowly), the
    corpus's own documents never changed."""
    if not tokens:
        return value
    head, rest = tokens[0], tokens[1:]
    if isinstance(data, dict):
        copy = dict(data)
        copy[head] = _replaced(data[head], rest, value)
        return copy
    if isinstance(data, list):
        listed = list(data)
        listed[int(head)] = _replaced(data[int(head)], rest, value)
        return listed
    return data


def misplaced_refs_of(errors: Iterable[tuple[str, Any]]) -> Iterator[str]:
    """The places to inline, from a judge's errors (pointer, the value there): an object with a
    ``$ref`` member, or the object holding a ``$ref`` member that was judged alone (a
    ``properties`` map whose ``$ref`` member is read as a property named ``$ref``)."""
    for pointer, value in errors:
        if isinstance(value, dict) and isinstance(value.get("$ref"), str):
            yield pointer
        elif pointer.endswith("/$ref") and isinstance(value, str):
            yield pointer[: -len("/$ref")]


# The keywords whose value is a map of names to schemas (JSON Schema 2020-12 §10.3.2.1-3, §8.2.4;
# draft-04's `definitions`): a string is never a schema, so a `$ref` member holding one is the
# bundler's reference to a map kept elsewhere, not a property named `$ref`.
SCHEMA_MAPS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)


def schema_map_refs(schema: Any, at: str) -> Iterator[str]:
    """The pointers, within ``schema`` (at ``at``), of each schema map written as a ``$ref``
    (``properties: {$ref: attributes.yml#/ids}``): found by walking the schema, not its data
    (examples, defaults, enums) or extensions. A key means what its position says
    (``keyword_positions``): a property *named* ``default`` or ``properties`` is a schema."""
    stack: list[tuple[str, Any, Position]] = [(at, schema, Position.SCHEMA)]
    while stack:
        pointer, node, position = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                key = str(key)
                inner = member_position(position, key, DocumentKind.OPENAPI)
                if inner is Position.DATA or (position is Position.SCHEMA and key.startswith("x-")):
                    continue
                here = f"{pointer}/{escape_token(key)}"
                if (
                    inner is Position.SCHEMA_NAMES
                    and key in SCHEMA_MAPS
                    and isinstance(value, dict)
                    and isinstance(value.get("$ref"), str)
                ):
                    yield here
                    continue
                if isinstance(value, (dict, list)):
                    stack.append((here, value, inner))
        elif isinstance(node, list):
            stack.extend(
                (f"{pointer}/{index}", item, item_position(position))
                for index, item in enumerate(node)
                if isinstance(item, (dict, list))
            )


def inline_merged(
    corpus: Context,
    document: Document,
    misplaced: Callable[[Any], Iterable[str]],
    found: Merges,
) -> InlinedView:
    """``document`` as its bundle reads (:func:`inline_misplaced`), with the fragments its
    merge (``speclint.analyses.api.merging``) names merged in first: an error in merged-in content
    is located in the fragment, at its line (:meth:`InlinedView.locate`)."""
    merge = found.by_document.get(document.path)
    if merge is None:
        return inline_misplaced(corpus, document, misplaced)
    written: dict[tuple[str, str], str] = {}
    data, origins = merged_data(corpus, merge, written)
    # The merged document stands in for the file while its `$ref`s are inlined; its memos are
    # its own (``Document.remember`` keeps pure functions of the file's content).
    merged = replace(document, data=data, kept={}, derived={})
    view = inline_misplaced(corpus, merged, misplaced)
    view.document = document
    for at, origin in origins.items():
        view.origins.setdefault(at, origin)
    view.written.update(written)
    return view


def bundle_reach(corpus: Context, document: Document) -> list[str]:
    r"""What a document's bundle reads besides the document: every file its ``$ref``\s reach
    (``units.reach``) and the files its bundler merges with it (``speclint.analyses.api.merging``).
    That holds every file a misplaced ``$ref`` inlines (the reference index resolves them all),
    and is known without validating the document: the unit key of a rule that judges a
    document as its bundle reads (``unit_reach``, ``speclint.analyses.units``), so a run whose
    results are all cached validates nothing. The price: an edit of a schema file the document
    reaches re-checks the document too."""
    return sorted(set(reach(corpus, document.path)) | set(corpus.merges.partners(document.path)))
