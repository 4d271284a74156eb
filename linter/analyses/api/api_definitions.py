"""API components as example definitions, and copies of one definition as one (issue 46, items 1, 4).

The example binding (``speclint.analyses.prose.fences``, ties 5 to 8) looks for the definition a prose
example or an example file is an instance of. A repository whose schemas live only in an API
document has them as components:

``components/schemas``
    of an OpenAPI 3.0 or 3.1 document (3.0.3 §4.7.7, 3.1.0 §4.8.7) and of an AsyncAPI document
    (2.6.0 §4.3.11, 3.0.0 §3.3.16), each named by its key (and its ``title``);
``components/messages``
    of an AsyncAPI document: the message's ``payload`` is what an example of the message shows,
    named by the message's key (and its ``name`` and ``title``). A payload written in another
    schema format (``schemaFormat``: Avro, RAML) is not a JSON Schema and binds nothing; a
    Multi Format Schema Object of JSON Schema (3.0.0 §3.3.29) binds by its ``schema``.

A page kept for what the API was (in an ``obsolete/``, ``deprecated/``, ``legacy/`` or archive
folder) binds no component: the components are what the API is now.

A component is validated in its document's dialect (``schema_objects.validator_class_of``:
OpenAPI 3.0's Schema Object dialect, 3.1's, AsyncAPI's draft-07), its ``$ref``\\s resolved in that
document, as the examples written inside the document are.

A definition kept in several places is one definition (item 4): a frozen copy in a version folder
(``schemas/v1/job.json`` beside ``schemas/v2/job.json``), a generated, vendored or upstream copy
(``speclint.analyses.repository.provenance``), a client's copy (``clients/``, ``sdk/``), an API document's
component copying a standalone schema of the same name, an API document's dereferenced copy (its
``$ref``\\s written out in place, found by content under any name: :func:`dereferenced_copies`).
Identical copies were one candidate already (the digest); of copies that differ, the *source of
truth* is the candidate: written by hand before generated or copied, a standalone schema before
an API component, the page's own version before another, then the newest version (an
unversioned file is the live one). An example
then binds to it alone rather than "fitting several definitions", and one defect is one finding.
Two definitions of one name that none of these relate (two first-party files of one version) stay
two: which one an example means is not known.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar, cast

from speclint.analyses.context import Context
from speclint.analyses.repository.provenance import GENERATED, UPSTREAM, VENDORED_KIND, at_a_glance
from speclint.model.corpus import Document
from speclint.parsing.inlined import content_digest, has_local_refs
from speclint.parsing.kinds import DocumentKind, in_record_folder, in_superseded_folder
from speclint.parsing.structured import escape_token, split_pointer
from speclint.parsing.versions import UNRELEASED_KEY, order_key, whole_version

# Schema formats whose payload is a JSON Schema (AsyncAPI 3.0.0 §3.3.29, 2.6.0 §4.3.13): the
# AsyncAPI Schema Object's, JSON Schema's; another (Avro, RAML, Protobuf) is not ours to judge.
_JSON_SCHEMA_FORMATS = ("application/schema", "application/vnd.aai.asyncapi")
# Folders that hold a client's or another project's copy of the definitions (a generated SDK, a
# vendored tree): of two definitions of one name, the one here is the copy.
COPY_FOLDERS = frozenset(
    {"client", "clients", "sdk", "sdks", "vendor", "vendored", "third_party", "third-party"}
)
_NOT_WRITTEN_HERE = frozenset({GENERATED, VENDORED_KIND, UPSTREAM})


def api_components(document: Document) -> Iterator[tuple[str, Any, tuple[str, ...]]]:
    """The definitions an OpenAPI 3 or AsyncAPI document declares as components: (pointer, schema,
    the names prose calls it by), in key order."""
    data = document.data
    if not isinstance(data, dict):
        return
    if document.kind is DocumentKind.OPENAPI and not str(data.get("openapi", "")).startswith("3"):
        return  # Swagger 2.0's `definitions`: another dialect, not taken here
    if document.kind not in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        return
    components = data.get("components")
    if not isinstance(components, dict):
        return
    schemas = components.get("schemas")
    for key, node in sorted(schemas.items()) if isinstance(schemas, dict) else ():
        if isinstance(node, dict):
            yield f"/components/schemas/{escape_token(str(key))}", node, _names(str(key), node)
    if document.kind is not DocumentKind.ASYNCAPI:
        return
    messages = components.get("messages")
    for key, message in sorted(messages.items()) if isinstance(messages, dict) else ():
        found = _payload(message)
        if found is None:
            continue
        at, node = found
        names = _names(str(key), message, "name")
        yield f"/components/messages/{escape_token(str(key))}{at}", node, names


def _payload(message: Any) -> tuple[str, dict[str, Any]] | None:
    """Where a message's JSON Schema payload is (below the message) and the payload, or None."""
    if not isinstance(message, dict) or "$ref" in message:
        return None
    if not str(message.get("schemaFormat", "application/schema")).startswith(_JSON_SCHEMA_FORMATS):
        return None  # AsyncAPI 2.x: the message's payload is in another schema format
    payload = message.get("payload")
    if not isinstance(payload, dict):
        return None
    if "schemaFormat" in payload:  # a Multi Format Schema Object (3.0.0 §3.3.29)
        inner = payload.get("schema")
        if str(payload["schemaFormat"]).startswith(_JSON_SCHEMA_FORMATS) and isinstance(
            inner, dict
        ):
            return "/payload/schema", inner
        return None
    return "/payload", payload


def _names(key: str, node: Any, *members: str) -> tuple[str, ...]:
    found = [key]
    for member in (*members, "title"):
        value = node.get(member) if isinstance(node, dict) else None
        if isinstance(value, str) and value not in found:
            found.append(value)
    return tuple(found)


def component_places(corpus: Context) -> tuple[tuple[Document, str, Any, tuple[str, ...]], ...]:
    """Every component definition of the corpus's OpenAPI 3 and AsyncAPI documents (not a
    derived copy: a bundle's components are its sources'). Built once."""
    cached = corpus.memo.get("api_definitions:components")
    if cached is not None:
        return tuple(cached)
    found = []
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        if document.usable and document.path not in corpus.derived:
            for pointer, node, names in api_components(document):
                found.append((document, pointer, node, names))
    result = tuple(found)
    corpus.memo["api_definitions:components"] = result
    return result


def superseded_page(path: str) -> bool:
    """Whether a page documents what the API was (it lies in an ``obsolete/``, ``deprecated/``,
    ``legacy/``, ``old/`` or archive folder): its examples show the API as it stood then, and the API
    document's components, which are what it is now, do not bind them."""
    return in_superseded_folder(path) or in_record_folder(path)


def component_name(pointer: str) -> str | None:
    """The name of the component at ``pointer`` (its key), or None for a place that is none: a
    message's payload is called by the message's key."""
    tokens = split_pointer(pointer)
    if len(tokens) >= 3 and tokens[0] == "components" and tokens[1] in ("schemas", "messages"):
        if tokens[1] == "schemas" and len(tokens) == 3:
            return tokens[2]
        if tokens[1] == "messages" and tokens[3:] in (["payload"], ["payload", "schema"]):
            return tokens[2]
    return None


T = TypeVar("T")


def one_per_definition(
    corpus: Context,
    page: str,
    candidates: Sequence[T],
    place: Callable[[T], tuple[Document, str]],
    name: Callable[[T], str],
    members: Callable[[T], frozenset[str]],
    identity: Callable[[T], str] = lambda _: "",
) -> list[T]:
    """``candidates`` (in their order) less each that is a copy of a better one (the module's
    docstring): two of one name are copies when they are one file's at two versions, or when one
    is not written by hand here (generated, vendored, upstream, a client's copy) or is an API
    component and the other a standalone schema, and they share at least half of the members of
    the smaller; or when their ``identity`` (the definition's text) is one. ``page``: the path
    of the example, whose own version comes first."""
    by_name: dict[str, list[int]] = {}
    for index, candidate in enumerate(candidates):
        by_name.setdefault(name(candidate), []).append(index)
    dropped = _one_per_group(
        corpus, page, candidates, list(by_name.values()), place, members, identity
    )
    # Copies under another name: a schema file a build writes from an API document's component
    # (`getCardTypes_get.json` of `cardTypeCollection`), the same members (three or more) in a
    # document written here and one that is not, or in an API document and a schema file.
    by_members: dict[frozenset[str], list[int]] = {}
    for index, candidate in enumerate(candidates):
        if index not in dropped and len(members(candidate)) >= SAME_MEMBERS:
            by_members.setdefault(members(candidate), []).append(index)
    dropped |= _one_per_group(
        corpus, page, candidates, list(by_members.values()), place, members, identity
    )
    return [c for i, c in enumerate(candidates) if i not in dropped]


SAME_MEMBERS = 3  # members two definitions of different names share all of, to be copies


def _one_per_group(
    corpus: Context,
    page: str,
    candidates: Sequence[T],
    groups: list[list[int]],
    place: Callable[[T], tuple[Document, str]],
    members: Callable[[T], frozenset[str]],
    identity: Callable[[T], str],
) -> set[int]:
    """The candidates of each group that are copies of a better one of it."""
    dropped: set[int] = set()
    for indexes in groups:
        if len(indexes) < 2:
            continue
        ranked = sorted(indexes, key=lambda i: _rank(corpus, page, place(candidates[i])))
        # Each definition kept with the copies found of it: a copy of a copy is one too (the
        # release 1 file of a release 2 file identical to the source).
        kept: list[list[int]] = []
        for index in ranked:
            family = next(
                (
                    found
                    for found in kept
                    if any(
                        identity(candidates[k]) == identity(candidates[index]) != ""
                        or _copies(corpus, candidates, k, index, place, members)
                        for k in found
                    )
                ),
                None,
            )
            if family is None:
                kept.append([index])
            else:
                family.append(index)
                dropped.add(index)
    return dropped


def _copies(
    corpus: Context,
    candidates: Sequence[T],
    first: int,
    second: int,
    place: Callable[[T], tuple[Document, str]],
    members: Callable[[T], frozenset[str]],
) -> bool:
    """Whether two candidates of one name are copies of one definition."""
    (one, at_one), (two, at_two) = place(candidates[first]), place(candidates[second])
    shared = members(candidates[first]) & members(candidates[second])
    smaller = min(len(members(candidates[first])), len(members(candidates[second])))
    if not shared or len(shared) * 2 < smaller:
        return False
    if at_one == at_two and _versions_of_one_file(corpus, one.path, two.path):
        return True
    return _copied(corpus, one.path) != _copied(corpus, two.path) or (
        one.kind is DocumentKind.SCHEMA
    ) != (two.kind is DocumentKind.SCHEMA)


def dereferenced_copies(corpus: Context) -> Mapping[str, str]:
    """Each API document that is another dereferenced (every local ``$ref`` written out in
    place: ``redocly bundle --dereferenced``, ``swagger-cli bundle -r``) -> that other, its
    source, under any name. Found by content, never by name: documents that agree at a glance
    (``provenance.at_a_glance``) and have one content once their ``$ref``\\s are read as their
    targets (``inlined.content_digest``), of which exactly one is written with ``$ref``\\s.
    Two sources of one content are ambiguous: no copy. Built once."""
    cached = corpus.memo.get("api_definitions:dereferenced")
    if cached is not None:
        return cast(Mapping[str, str], cached)
    alike: dict[tuple[DocumentKind, str], list[Document]] = {}
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        if document.usable and isinstance(document.data, dict):
            alike.setdefault((document.kind, at_a_glance(document.data)), []).append(document)
    found: dict[str, str] = {}
    for group in alike.values():
        if len(group) < 2:
            continue  # only documents that agree at a glance are dereferenced
        refs = {d.path: has_local_refs(d.data) for d in group}  # one walk of each document
        if sum(refs.values()) in (0, len(group)):
            # A copy has no `$ref` and its source has: with none (or only) written with them,
            # nothing here is a copy, and digesting every release of a large API (one
            # document per version, all alike at a glance) is what made this slow.
            continue
        by_content: dict[str, list[Document]] = {}
        for document in group:
            digest = content_digest(document.data, document.data)
            by_content.setdefault(digest, []).append(document)
        for same in by_content.values():
            written = [d for d in same if refs[d.path]]
            if len(same) < 2 or len(written) != 1:
                continue  # alone, or several written with `$ref`s: which is the source?
            found.update((d.path, written[0].path) for d in same if d is not written[0])
    corpus.memo["api_definitions:dereferenced"] = found
    return found


def _versions_of_one_file(corpus: Context, first: str, second: str) -> bool:
    """Two paths of one file at two versions (or one of them unversioned): the same path once
    the version is taken out."""
    a, b = corpus.versions.of(first), corpus.versions.of(second)
    return a != b and _unversioned(first, a) == _unversioned(second, b)


def same_file_at_versions(corpus: Context, first: str, second: str) -> bool:
    """Whether two paths are one file at two versions (``schemas/thing/1.0.0.json`` and
    ``schemas/thing/2.0.0.json``, ``thing-v1.json`` and ``thing-v2.json``)."""
    return bool(corpus.versions.of(first) and corpus.versions.of(second)) and (
        _versions_of_one_file(corpus, first, second)
    )


def _unversioned(path: str, version: str) -> str:
    if not version:
        return path
    bare = whole_version(version).sub("", path)
    bare = re.sub(r"[-_.]+(?=[/.])|(?<=/)[-_.]+", "", bare)
    return posixpath.normpath(bare.replace("//", "/"))


def _copied(corpus: Context, path: str) -> bool:
    """Whether a document is not written by hand in this repository: generated, vendored, an
    upstream project's, in a client's or vendored folder, or an API document's dereferenced
    copy."""
    made = corpus.provenance.get(path)
    if made is not None and made.kind in _NOT_WRITTEN_HERE:
        return True
    if path in dereferenced_copies(corpus):
        return True
    return any(part.lower() in COPY_FOLDERS for part in path.split("/")[:-1])


def _rank(corpus: Context, page: str, place: tuple[Document, str]) -> tuple[Any, ...]:
    """A candidate's place among copies, the source of truth first."""
    document, pointer = place
    version = corpus.versions.of(document.path)
    newest = UNRELEASED_KEY if not version else order_key(version)
    own = bool(version) and version == corpus.versions.of(page)
    return (
        _copied(corpus, document.path),
        document.kind is not DocumentKind.SCHEMA,
        not own,
        tuple(-n for n in _flat(newest)),
        document.path,
        pointer,
    )


def _flat(key: tuple[Any, ...]) -> tuple[int, ...]:
    """A version's ``order_key`` as one tuple of numbers that sort as the key does, padded."""
    tier, numbers, stage, rest = key
    return (tier, *numbers, *([0] * (6 - len(numbers))), stage, *rest, *([0] * (6 - len(rest))))
