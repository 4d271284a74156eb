"""``speclint build``: self-contained bundles of the corpus's schemas and a catalog of them.

A bundle is a Compound Schema Document (JSON Schema 2020-12 §9.3, "Bundling") in the draft of
its source: the schema as written, with every schema resource it reaches through ``$ref``
(transitively) embedded whole, keyed by the resource's absolute URI and carrying that URI as its
``$id``, under ``$defs`` (2019-09, 2020-12) or ``definitions`` (draft-04 to -07, which know no
``$defs``: a validator looks for no resource there), with ``id`` for a draft-04 resource. The
``$ref`` values that name a URI are kept: they resolve, from the bundle's own ``$id``, to the
embedded resources, so a validator needs nothing but the bundle. A draft-04 to -07 resource that
is only a ``$ref`` gets its ``$ref`` in an ``allOf`` of one, since those drafts ignore an ``$id``
beside a ``$ref``. No draft is translated: ``@apidevtools/json-schema-ref-parser`` too bundles in
the source's draft, and a translation (``items`` arrays, boolean ``exclusiveMaximum``,
``dependencies``) would be a second schema to prove equal to the first.

A file without ``$id`` has no URI but its place in the repository, which is no URI a reader of
the bundle can resolve (``file:///corpus/<path>`` was the same made-up URI in every project): it
is embedded by its corpus path (``$defs/schemas~1common.json``) with no ``$id``, and every ``$ref``
to it becomes a JSON pointer from the bundle's root, as json-schema-ref-parser writes internal
references. A bundle whose source has no ``$id`` has none either (its readers know it by where
they got it), and the catalog lists it by its path in the output folder. A ``$ref`` into an
OpenAPI or AsyncAPI document embeds the Schema Object it names the same way (by its path and
pointer), with the objects it reaches in turn.

A remote reference that ``[ref-map]`` maps to a corpus file is embedded under its remote URI
(vendoring it); an unmapped remote reference is kept as it is, with a warning, since speclint
never fetches. A schema ``check`` calls invalid (``schema-invalid``) is neither built nor
embedded in another's bundle, and a ``$ref`` to a file that does not parse says so: each is a
"not built", which the command's exit code (1) reports.

(jsonschema-rs 0.60 has ``bundle()``, but it embeds the target *subschema* under the whole
document's URI, so ``common.schema.json#/$defs/Id`` no longer resolves in its output; it is not
used here. Each bundle built here is checked to resolve every local ``$ref`` on its own.)

Each OpenAPI 3.x / AsyncAPI document is bundled into one file as well
(``speclint.outputs.api_bundle``); one that cannot be (an unresolved ``$ref``) is "not built", and
``--check`` fails on it.

The catalog (``catalog.json``) maps each ``$id`` (a bundle without one: its path in the output
folder) to its file, title, role and draft.
``speclint build --check`` builds in memory and compares with the output folder: a stale,
missing or extra file fails the check, the pattern that keeps generated artifacts honest.

The output folder is the build's, and only what the build wrote in it is touched (issues 13, 25).
The manifest ``.speclint-build.json`` lists every file the build wrote, with its sha256. A later
build deletes only files that the manifest lists, that it no longer produces, and that still hold
the bytes it wrote; any other file in the folder (a ``package.json``, a hand-written note) is never
touched. A file at a path the build writes is replaced only when the manifest lists it or it holds
those very bytes already: a ``catalog.json`` of someone else's stops the build. Files are written
whole (``writing``), and never through a symlink: the output path is resolved as the system
resolves it before it is compared with the (resolved) root, and at or below the root every folder
on the way must be a real folder. An output folder that is the corpus root, contains it, lies in
``.git``, or holds the corpus's source files (``[build] output = "schemas"``) is refused, and so
is any target in the way (a link, a file where a folder goes, a file the build did not write):
all are checked before anything is written. A missing output folder is created. Nothing the
manifest names is read, looked at or deleted through a symlink in the folder (a committed
``build/etc -> /etc`` with a manifest naming ``etc/passwd``), nor out of it: such an entry is said
"not read", in the same words whether a file is there or not (issue 44).
"""

from __future__ import annotations

import bisect
import copy
import errno
import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urldefrag, urlsplit

from referencing import Registry
from referencing.exceptions import Unresolvable

from speclint.analyses.context import Context
from speclint.analyses.schemas.references import (
    CORPUS_BASE,
    REMOTE_SCHEMES,
    Reference,
    file_uri,
    join_uri,
    ref_sites,
    tolerant,
)
from speclint.common.writing import write_output
from speclint.model.corpus import Document, glob_to_regex, parse_document
from speclint.model.descriptions import API_KINDS
from speclint.outputs.api_bundle import (
    BundleError,
    api_documents,
    bundle_api,
    dereference,
    render_bundle,
    unparsed_api_documents,
)
from speclint.parsing.dialects import DRAFT_2020_12, to_2020_12
from speclint.parsing.kinds import DocumentKind, draft_of
from speclint.parsing.reading import read_raw
from speclint.parsing.structured import (
    escape_token,
    resolve_pointer,
    unescape_token,
)
from speclint.rules import schema_invalid

CATALOG = "catalog.json"
MANIFEST = ".speclint-build.json"
MANIFEST_VERSION = 1


class BuildError(Exception):
    """The build cannot write where it was asked to; the message says why."""


@dataclass(frozen=True)
class BuildProblem:
    path: str
    message: str
    fatal: bool  # True: the schema was not built


@dataclass
class BuildResult:
    files: dict[str, str] = field(default_factory=dict)  # output-relative path -> text
    problems: list[BuildProblem] = field(default_factory=list)
    bundles: dict[str, Any] = field(default_factory=dict)  # corpus path -> bundled schema
    # corpus path of an API document -> its single-file bundle (plain data), and its output path
    api_bundles: dict[str, Any] = field(default_factory=dict)
    api_outputs: dict[str, str] = field(default_factory=dict)
    api_not_built: list[str] = field(default_factory=list)  # API documents that could not be
    # where the bundle of an API document not built this time may be (its `.yaml` and `.json`
    # output): the earlier build's file there is kept, not deleted (``write``)
    held: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Staleness:
    missing: list[str]
    stale: list[str]
    extra: list[str]
    # entries of the manifest that are not read, with why: through a symlink, out of the folder
    refused: list[tuple[str, str]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.missing or self.stale or self.extra or self.refused)


def render(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def base_uri(document: Document) -> str:
    """The URI a schema document is known by: its ``$id`` (``id`` up to draft-04, draft-06 Core
    §9.2), else its corpus file URI. Read as the reference index reads it (``ref_sites``), beside
    a ``$ref`` too, so that the bundle and the index agree on what a relative ``$ref`` names."""
    data = document.data if isinstance(document.data, dict) else {}
    declared = data.get("id" if draft_of(data.get("$schema")) in _PLAIN_ID_DRAFTS else "$id")
    uri = file_uri(document.path)
    joined = join_uri(uri, declared) if isinstance(declared, str) else None
    return urldefrag(joined).url if joined is not None else uri


def selected(corpus: Context) -> list[Document]:
    patterns = [glob_to_regex(p) for p in corpus.config.build_schemas]
    return [
        document
        for document in corpus.of_kind(DocumentKind.SCHEMA)
        if isinstance(document.data, dict)
        and (not patterns or any(p.match(document.path) for p in patterns))
    ]


# The drafts before 2019-09 name a schema resource with `id` (draft-03, draft-04) or `$id`
# (draft-06, draft-07: draft-06 Core §9.2), keep subschemas under `definitions` (`$defs` is no
# keyword of theirs, and a validator does not look for resources under it), and ignore every
# member beside a `$ref`, the `$id` too (draft-07 Core §8.3; draft-04's JSON Reference, §3).
LEGACY_DRAFTS = frozenset({"draft-03", "draft-04", "draft-06", "draft-07"})
_PLAIN_ID_DRAFTS = frozenset({"draft-03", "draft-04"})
# What may stay beside a `$ref` that moves into an `allOf` (see `_identified`): the identifier
# the move is for, the subschemas a pointer reaches, and annotations; an assertion there was
# ignored, and would start to count.
_KEPT_BESIDE_REF = frozenset(
    {
        "$schema",
        "$id",
        "id",
        "definitions",
        "title",
        "description",
        "$comment",
        "default",
        "examples",
    }
)
# The characters a `$ref` to an embedded piece (a JSON pointer in a fragment) keeps as written;
# `#`, `%`, a space and the like are percent-encoded (RFC 3986 §3.5, RFC 6901 §6).
_FRAGMENT_SAFE = "/~$!&'()*+,;=:@-._"
_Piece = tuple[str, str]  # (corpus path, pointer of the embedded subtree; "" the whole file)


def identifier(document: Document) -> str | None:
    """The absolute URI a schema declares as its own (its ``$id``, or ``id`` up to draft-04), or
    None: a schema without one (or with one relative to where the file is) is known by its place,
    which is not a URI anyone can resolve once it is bundled and published."""
    uri = base_uri(document)
    return None if uri.startswith(CORPUS_BASE) else uri


class _Bundling:
    """One schema's bundle being made: the resources and pieces it embeds, each a copy with its
    ``$ref``s to id-less files and API documents rewritten to the place the copy takes."""

    def __init__(self, corpus: Context, document: Document, verdicts: dict[str, str | None]):
        self.corpus = corpus
        self.document = document
        self.verdicts = verdicts
        self.draft = draft_of(document.data.get("$schema"))
        self.container = "definitions" if self.draft in LEGACY_DRAFTS else "$defs"
        self.root_id = identifier(document)
        self.embedded: dict[str, Any] = {}  # container key -> the copy embedded there
        self.keys: dict[_Piece, str] = {}  # each piece (an id-less file, a subtree) -> its key
        self.queue: list[tuple[Document, str, str, bool]] = []  # (holder, at, key, piece)
        self.problems: list[BuildProblem] = []

    def problem(self, message: str, fatal: bool = True) -> None:
        self.problems.append(BuildProblem(self.document.path, message, fatal))

    def run(self) -> dict[str, Any] | None:
        root = self.copy_of(self.document, "", None, piece=True)
        while self.queue:
            holder, at, key, piece = self.queue.pop(0)
            self.embedded[key] = self.copy_of(holder, at, key, piece)
        if any(p.fatal for p in self.problems) or not isinstance(root, dict):
            return None
        result: dict[str, Any] = root
        if self.embedded:
            if self.root_id is not None and self.draft in LEGACY_DRAFTS and "$ref" in result:
                result = _beside_ref(result)  # its `$id` is what the embedded refs resolve by
            definitions = result.setdefault(self.container, {})
            pieces = set(self.keys.values())
            if not isinstance(definitions, dict) or pieces & set(definitions):
                self.problem(
                    f"cannot be bundled: its `{self.container}` is no object with room for the "
                    "embedded schemas"
                )
                return None
            for uri in sorted(self.embedded):
                # A schema already embedded under its URI (a bundle kept in the corpus) is the
                # one that URI names: two resources with one `$id` are an error (2020-12 §8.2.1).
                definitions.setdefault(uri, self.embedded[uri])
        return result

    def copy_of(self, holder: Document, at: str, key: str | None, piece: bool) -> Any:
        """A copy of ``holder``'s subtree at ``at``, every ``$ref`` in it followed (the targets
        queued) and rewritten where the copy's place changes what it resolves to."""
        rewrites: dict[str, str] = {}
        # A file without `$id` embedded under the URI a `$ref` named it by takes that URI as its
        # `$id`: its relative refs then resolve from it, in the bundle as in the index.
        rebased = key if not piece and key is not None and identifier(holder) is None else None
        for pointer, value, base in _sites_within(holder, at):
            if rebased is not None and base == file_uri(holder.path):
                base = rebased
            written = self.follow(holder, pointer, value, base)
            if written is not None and written != value:
                rewrites[pointer[len(at) :]] = written
        tree = copy.deepcopy(holder.data if not at else resolve_pointer(holder.data, at))
        for pointer, value in rewrites.items():
            _set_at(tree, pointer, value)
        tree = self.translated(holder, at, tree)
        if key is None or not isinstance(tree, dict):
            return tree
        if self.draft in LEGACY_DRAFTS and draft_of(tree.get("$schema")) == self.draft:
            # draft-04 to -07 allow `$schema` only at the root (draft-07 Core §7); the embedded
            # schema is of the root's draft, and is read as one without it.
            del tree["$schema"]
        if piece:  # known by its place in the bundle
            for keyword in ("$id", "id"):
                if isinstance(tree.get(keyword), str) and not at:
                    del tree[keyword]  # relative to a file the bundle is not
            return tree
        return _identified(tree, key, self.draft)

    def translated(self, holder: Document, at: str, tree: Any) -> Any:
        """``tree`` (a copy of ``holder``'s subtree at ``at``) in the bundle's dialect, when the
        dialect ``check`` reads it in has no ``$schema`` URI to declare it by: an OpenAPI 3.0
        Schema Object (a file only 3.0 documents reference, or a 3.0 document's own) or an
        AsyncAPI 2 one. Embedded as written, under a 2020-12 root, it would change meaning
        (``exclusiveMinimum: true`` is no bound there, ``nullable`` is ignored): it is rewritten
        by the reading the diff uses (``speclint.parsing.dialects.to_2020_12``), and the build
        says so. A root so rewritten declares 2020-12, the dialect it is now in. Draft-04 to
        2019-09 files keep their own ``$schema`` instead (2020-12 Core §9.3.3)."""
        source = holder.dialect
        if not source.startswith(("OpenAPI 3.0", "AsyncAPI 2")) or not isinstance(tree, dict):
            return tree
        if "$schema" in tree or self.draft not in (None, "2020-12"):
            return tree  # a dialect declared in the copy (read by it), or a root of another draft
        result = to_2020_12(tree, source)
        if result == tree:
            return tree  # nothing the two dialects read differently
        family = "OpenAPI 3.0" if source.startswith("OpenAPI 3.0") else "AsyncAPI 2"
        root = holder is self.document and not at
        where = f"{holder.path}#{at}" if at else holder.path
        self.problem(
            f"{'is' if root else f'embeds {where},'} read as an {family} Schema Object (as "
            "`check` reads it), rewritten "
            "in JSON Schema 2020-12 meaning the same (a boolean `exclusiveMinimum` as a bound, "
            '`nullable` as a `"null"` type, an array `items` as `prefixItems`)',
            fatal=False,
        )
        if root:
            result = {"$schema": DRAFT_2020_12, **result}
        return result

    def follow(self, holder: Document, pointer: str, value: str, base: str) -> str | None:
        """The ``$ref`` at ``holder#pointer`` as the bundle writes it (None: as written, or not
        built), with its target queued for embedding."""
        reference = self.corpus.references.at(holder.path, pointer)
        joined = join_uri(base, value)
        if joined is None or reference is None:
            return None  # not a URI reference: unresolved-ref reports it, the build drops it
        written, fragment = urldefrag(joined)
        where = f"`{value}` at {holder.path}#{pointer}"
        if reference.outcome == "remote" or (
            urlsplit(written).scheme in REMOTE_SCHEMES and reference.target_path is None
        ):
            self.problem(
                f"keeps the remote reference {where}: speclint does not fetch it; map it "
                "to a corpus file with [ref-map] to embed it",
                fatal=False,
            )
            return None
        if reference.outcome != "ok" or reference.target_path is None:
            self.problem(f"cannot be bundled: {where} {_unresolved_reason(self.corpus, reference)}")
            return None
        target = self.corpus.documents.get(reference.target_path)
        if target is None:
            return None
        if target.kind in API_KINDS:
            return self.piece(holder, base, where, target, reference.target_pointer)
        if target.kind is not DocumentKind.SCHEMA:
            self.problem(
                f"cannot be bundled: {where} points into {target.path}, which is not a schema file"
            )
            return None
        if target.path != self.document.path:
            invalid = self.invalid(target)
            if invalid is not None:
                self.problem(
                    f"cannot be bundled: {where} names {target.path}, which is not a valid schema "
                    f"({invalid}); see `schema-invalid`: it is never embedded"
                )
                return None
        if not written.startswith(CORPUS_BASE):
            # A URI the target is known by ($id, or a mapped remote one): embedded under it.
            if written != self.root_id and target.path != self.document.path:
                self.enqueue(target, "", written)
            return None
        if unquote(written) != unquote(file_uri(target.path)):
            # A resource inside the file, named by an `$id` relative to the file's place
            # (`"$id": "PlanSource"` in a hoisted `$defs`): the bundle holds it where the source
            # does when that is the root; the probe below says whether it does.
            return None
        # Named by its place in the corpus (the holder has no `$id`): by its own `$id` when it
        # declares one, else as a piece of this bundle.
        own = identifier(target)
        if own is not None:
            if target.path != self.document.path:
                self.enqueue(target, "", own)
            return own + (f"#{fragment}" if fragment else "")
        if fragment and not fragment.startswith("/"):
            self.problem(
                f"cannot be bundled: {where} names an anchor (`#{fragment}`) in {target.path}, "
                "which has no `$id` to embed it by: give it one"
            )
            return None
        if target.path == self.document.path:
            return self.local(holder, base, where, None, fragment)
        return self.local(holder, base, where, self.enqueue_piece(target, ""), fragment)

    def piece(
        self, holder: Document, base: str, where: str, target: Document, at: str | None
    ) -> str | None:
        """A ``$ref`` into an OpenAPI/AsyncAPI document: the Schema Object it names embedded."""
        if not at:
            self.problem(
                f"cannot be bundled: {where} names the whole API document {target.path}, which "
                "is not a schema"
            )
            return None
        return self.local(holder, base, where, self.enqueue_piece(target, at), "")

    def local(
        self, holder: Document, base: str, where: str, key: str | None, fragment: str
    ) -> str | None:
        """A ``$ref`` to the root (``key`` None) or to an embedded piece, written as a pointer
        from the bundle's root."""
        elsewhere = not base.startswith(CORPUS_BASE) and base != self.root_id
        if elsewhere and self.root_id is None:
            # Inside a schema embedded under its own `$id`: a fragment there is that schema's,
            # and the bundle's root has no URI to name it by.
            self.problem(
                f"cannot be bundled: {where} reaches a schema without `$id` from inside one with "
                "an `$id`, and the bundle's root has none to name it by: give the root an `$id`"
            )
            return None
        path = "" if key is None else f"/{escape_token(self.container)}/{escape_token(key)}"
        return (
            (self.root_id or "")
            + "#"
            + quote(path, safe=_FRAGMENT_SAFE)
            + (fragment if fragment.startswith("/") else "")
        )

    def enqueue(self, target: Document, at: str, key: str, piece: bool = False) -> None:
        if key not in self.embedded:
            self.embedded[key] = None  # reserved: filled when the queue reaches it
            self.queue.append((target, at, key, piece))

    def enqueue_piece(self, target: Document, at: str) -> str:
        """The key of a piece: its corpus path, with the pointer of a subtree (an API
        document's Schema Object) after a `#`."""
        if (target.path, at) not in self.keys:
            self.keys[target.path, at] = target.path + (f"#{at}" if at else "")
            self.enqueue(target, at, self.keys[target.path, at], piece=True)
        return self.keys[target.path, at]

    def invalid(self, document: Document) -> str | None:
        if document.path not in self.verdicts:
            self.verdicts[document.path] = invalid_schema(self.corpus, document)
        return self.verdicts[document.path]


def bundle(
    corpus: Context, document: Document, verdicts: dict[str, str | None] | None = None
) -> tuple[dict[str, Any] | None, list[BuildProblem]]:
    """The bundle of one schema document, or None with the reasons it cannot be built.
    ``verdicts``: each schema's :func:`invalid_schema`, kept across the bundles of one build."""
    verdicts = {} if verdicts is None else verdicts
    if document.path not in verdicts:
        verdicts[document.path] = invalid_schema(corpus, document)
    invalid = verdicts[document.path]
    if invalid is not None:
        return None, [
            BuildProblem(
                document.path,
                f"cannot be bundled: it is not a valid schema ({invalid}); see `schema-invalid`",
                fatal=True,
            )
        ]
    making = _Bundling(corpus, document, verdicts)
    result = making.run()
    if result is None:
        return None, making.problems
    unresolved = _unresolved(result, document)
    if unresolved:
        return None, [
            *making.problems,
            BuildProblem(
                document.path,
                f"cannot be bundled: {unresolved} does not resolve inside the bundle",
                True,
            ),
        ]
    return result, making.problems


def invalid_schema(corpus: Context, document: Document) -> str | None:
    """Why ``check`` calls the schema invalid (its first ``schema-invalid`` error), or None. The
    rule's own judgement, so that the build refuses exactly what ``check`` fails on: a file
    without ``$schema`` is judged as ``check`` judges it (2020-12, or OpenAPI 3.0's dialect for
    a file only OpenAPI 3.0 documents reference)."""
    if all(unit.path != document.path for unit in schema_invalid.units(corpus)):
        return None  # not judged by check (a generated bundle, an example named by `$ref`)
    try:
        findings = schema_invalid.check_unit(corpus, document, {})
    except (AttributeError, TypeError, ValueError, RecursionError) as error:
        return f"it cannot be read as a schema: {type(error).__name__}"
    errors = [f for f in findings if f.severity is schema_invalid.SEVERITY]
    if not errors:
        return None
    first = min(errors, key=lambda f: (f.location.line, f.location.column))
    return first.message.split(";", 1)[0]


def _unresolved_reason(corpus: Context, reference: Reference) -> str:
    """Why a ``$ref`` does not resolve, in words: a file that is there but does not parse is
    said so, with where its parse fails (it is no "missing file")."""
    target = corpus.documents.get(reference.target_path or "")
    if reference.outcome == "missing-file" and target is not None and target.problem is not None:
        problem = target.problem
        if problem.unread:
            return f"names {target.path}, which is not read ({problem.message})"
        return (
            f"names {target.path}, which does not parse ({target.path}:{problem.line}:"
            f"{problem.column}: {problem.message}); see `parse-error`"
        )
    return f"does not resolve ({reference.outcome}); see `unresolved-ref`"


def _identified(resource: dict[str, Any], uri: str, root_draft: str | None) -> dict[str, Any]:
    """An embedded schema resource named by ``uri``: with ``$id`` (``id`` for a draft-04 one),
    a ``$ref`` beside it moved into an ``allOf`` of one where its draft would ignore the id."""
    own = draft_of(resource.get("$schema")) or root_draft
    if own in LEGACY_DRAFTS and "$ref" in resource:
        resource = _beside_ref(resource)
    resource["id" if own in _PLAIN_ID_DRAFTS else "$id"] = uri
    return resource


def _beside_ref(schema: dict[str, Any]) -> dict[str, Any]:
    """A draft-04 to -07 schema whose ``$ref`` is the only member that counts, written so that
    an ``$id`` beside it counts too: the ``$ref`` in an ``allOf`` of one (the same instances
    pass), with its `definitions` and annotations; the ignored assertions are left out."""
    kept = {key: value for key, value in schema.items() if key in _KEPT_BESIDE_REF}
    kept["allOf"] = [{"$ref": schema["$ref"]}]
    return kept


def _sites_within(holder: Document, at: str) -> list[tuple[str, str, str]]:
    """The ``$ref`` sites (``ref_sites``) of ``holder`` at or below ``at``. The sites are walked
    once per document and sorted by pointer, those below ``at`` found by bisection: an API
    document gives one piece per Schema Object a schema reaches, thousands in a large one."""
    sites = holder.remember("build.ref_sites", lambda: sorted(ref_sites(holder)))
    if not at:
        return sites
    start = bisect.bisect_left(sites, (at + "/",))
    end = bisect.bisect_left(sites, (at + "0",))  # "0" is the character after "/"
    return sites[start:end]


def _set_at(tree: Any, pointer: str, value: Any) -> None:
    tokens = [unescape_token(t) for t in pointer.split("/")[1:]]
    holder = tree
    for token in tokens[:-1]:
        holder = holder[int(token)] if isinstance(holder, list) else holder[token]
    holder[int(tokens[-1]) if isinstance(holder, list) else tokens[-1]] = value


def _unresolved(schema: dict[str, Any], document: Document) -> str | None:
    """The first local ``$ref`` of a bundle that does not resolve in the bundle alone, read at
    the ``$id`` a validator reads at its root; a bundle without one (or whose draft ignores it
    beside a ``$ref``) at its source's place, where the registry holds nothing else: a reader
    reads it from where it got it, against which its relative ``$id``s and ``$ref``s agree."""

    dialect = schema.get("$schema")
    # Tolerant: an embedded `$id` that is no URI (`http://[bad`) names nothing, not a crash.
    specification = tolerant(dialect if isinstance(dialect, str) else "")
    uri = specification.id_of(schema) or file_uri(document.path)
    container = schema.get("definitions" if draft_of(dialect) in LEGACY_DRAFTS else "$defs")
    embedded = container if isinstance(container, dict) else {}
    try:
        registry: Registry[Any] = Registry().with_resource(
            uri, specification.create_resource(schema)
        )
        registry = registry.crawl()
    except (AttributeError, TypeError, ValueError) as error:
        # An embedded schema its own `$schema` reads by the stock specification (a `null`
        # subschema): not a schema a validator could load either.
        return f"its embedded schemas cannot be read ({type(error).__name__}: {error})"
    probe = Document(document.path, DocumentKind.SCHEMA, data=schema)
    at_root = {file_uri(document.path), base_uri(probe)}  # the root's base, as the walk has it
    for pointer, value, base in ref_sites(probe):
        target = join_uri(base, value)
        if target is None:
            continue  # not a URI reference: unresolved-ref reports it
        if urlsplit(target).scheme in REMOTE_SCHEMES and urldefrag(target).url not in embedded:
            continue  # kept remote on purpose (warned above)
        try:
            registry.resolver(base_uri=uri if base in at_root else base).lookup(value)
        except (Unresolvable, AttributeError, TypeError, ValueError):
            return f"`{value}` at #{pointer}"
    return None


def build(corpus: Context, dereferenced: bool = False) -> BuildResult:
    """Every selected schema bundled, every OpenAPI/AsyncAPI document bundled into one file
    (``speclint.outputs.api_bundle``; ``dereferenced``: with no ``$ref`` left), and the catalog, as
    output-relative path -> text."""
    result = BuildResult()
    _build_api(corpus, result, dereferenced)
    catalog: dict[str, Any] = {}
    verdicts: dict[str, str | None] = {}
    for document in selected(corpus):
        built, problems = bundle(corpus, document, verdicts)
        result.problems += problems
        if built is None:
            continue
        result.bundles[document.path] = built
        result.files[document.path] = render(built)
        title = document.data.get("title")
        # A bundle without `$id` is known by its place: its path in the output folder, a URI
        # reference relative to the catalog (see the module's docstring); so is one whose `$id`
        # an earlier file declares too (a vendored copy and its "strict" variant), which would
        # otherwise replace that file's entry.
        key = identifier(document) or document.path
        catalog[document.path if key in catalog else key] = {
            "file": document.path,
            "title": title if isinstance(title, str) else None,
            "role": corpus.roles.role_name(document.path, ""),
            "draft": document.data.get("$schema"),
        }
    result.files[CATALOG] = render(dict(sorted(catalog.items())))
    result.files[MANIFEST] = render(
        {
            "speclint-build": MANIFEST_VERSION,
            "files": {
                relative: hashlib.sha256(text.encode("utf-8")).hexdigest()
                for relative, text in sorted(result.files.items())
            },
        }
    )
    return result


def _build_api(corpus: Context, result: BuildResult, dereferenced: bool) -> None:
    for path, why in unparsed_api_documents(corpus):
        result.problems.append(BuildProblem(path, why, True))
        result.api_not_built.append(path)
        result.held += _outputs_of(path)
    for document in api_documents(corpus):
        try:
            built = bundle_api(corpus, document)
            if dereferenced:
                built.tree = dereference(built.tree)
        except BundleError as error:
            result.problems.append(BuildProblem(document.path, str(error), True))
            result.api_not_built.append(document.path)
            result.held += _outputs_of(document.path)
            continue
        for note in built.renamed:
            result.problems.append(BuildProblem(document.path, f"renamed: {note}", False))
        for note in built.notes:
            result.problems.append(BuildProblem(document.path, note, False))
        for note in built.duplicates:
            result.problems.append(BuildProblem(document.path, f"duplicate key: {note}", False))
        for remote in built.kept_remote:
            result.problems.append(
                BuildProblem(
                    document.path,
                    f"remote `$ref` kept (speclint never fetches; map it with [ref-map] to "
                    f"bundle it): {remote}",
                    False,
                )
            )
        extension, text = render_bundle(built, corpus.config.build_api_format)
        stem = document.path.rsplit(".", 1)[0]
        output = f"{stem}{extension}"
        result.files[output] = text
        result.api_bundles[document.path] = built.plain()
        result.api_outputs[document.path] = output


def _outputs_of(path: str) -> list[str]:
    """Where the bundle of the API document at ``path`` is written, in either format."""
    stem = path.rsplit(".", 1)[0]
    return [f"{stem}.json", f"{stem}.yaml"]


def _holding(result: BuildResult, previous: dict[str, str]) -> tuple[dict[str, str], set[str]]:
    """(the files to write, the earlier outputs to keep): the bundle of an API document not
    built this time (it stopped parsing, a `$ref` broke) stays as the last build wrote it, with
    its manifest entry, so that a broken commit does not delete a published file; the build
    still fails and says why."""
    held = {
        relative: previous[relative]
        for relative in result.held
        if relative in previous and relative not in result.files
    }
    if not held or MANIFEST not in result.files:
        return result.files, set()
    manifest = json.loads(result.files[MANIFEST])
    manifest["files"] = dict(sorted({**held, **manifest["files"]}.items()))
    return {**result.files, MANIFEST: render(manifest)}, set(held)


# --- the output folder ----------------------------------------------------------------------------


# What Linux allows on one path lookup before ELOOP: a loop of links is an error, not a hang.
_MAX_LINKS = 40


def output_folder(corpus: Context, explicit: Path | None = None) -> tuple[Path, Path]:
    """(the output folder, every link on the way resolved; the real folder below which nothing
    is followed and missing folders are created), or :class:`BuildError` when the folder is not
    one the build may own."""
    root = corpus.root  # resolved by Corpus.load
    named = root / corpus.config.build_output if explicit is None else explicit.absolute()
    folder, confined = _locate(named, root)
    if root.is_relative_to(folder):
        raise BuildError(
            f"{folder} is the corpus root or contains it: the build would write among the "
            "sources; choose a folder of its own (default `build`)"
        )
    if folder.is_relative_to(root):
        confined = root
        relative = folder.relative_to(root).as_posix()
        if ".git" in relative.split("/"):
            raise BuildError(f"{folder} is inside .git; choose another output folder")
        owned = {*_manifest(folder), MANIFEST}  # the manifest is the build's own, too
        includes = [glob_to_regex(p) for p in corpus.config.include]
        sources = sorted(
            path
            for path in corpus.tree
            if path.startswith(relative + "/")
            and path[len(relative) + 1 :] not in owned
            and any(r.match(path) for r in includes)
            and _is_source(root, path)
        )
        if sources:
            shown = ", ".join(sources[:3]) + (
                f" and {len(sources) - 3} more" if len(sources) > 3 else ""
            )
            raise BuildError(
                f"{folder} holds source files of the corpus ({shown}); the build would "
                "overwrite or delete them: choose an output folder of its own (default `build`)"
            )
    return folder, confined


def _locate(path: Path, root: Path) -> tuple[Path, Path]:
    """``path`` resolved the way the system resolves it, and the deepest folder of it that exists.

    The root is resolved, so the output must be too before the two are compared: a corpus named
    through a symlinked folder (``/tmp`` is one on macOS) was taken for outside its own root, and
    a committed ``build -> ../outside`` was then followed (issue 25). A link outside the root is
    the user's, and is followed; a link at or below the root is the repository's, and is refused.
    Each step is ``lstat``-ed, so a link is never followed by accident on the way."""
    pending = list(reversed(path.parts[1:]))
    current = deepest = Path(path.anchor)
    links = 0
    while pending:
        part = pending.pop()
        if part in ("", "."):
            continue
        if part == "..":
            if current == deepest:
                deepest = deepest.parent  # the parent of a real folder is real
            current = current.parent
            continue
        candidate = current / part
        if current != deepest:
            current = candidate  # below a folder that does not exist: nothing to follow
            continue
        try:
            status = os.lstat(candidate)
        except FileNotFoundError:
            current = candidate
            continue
        except OSError as error:
            raise BuildError(f"cannot use {candidate}: {error.strerror or error}") from None
        if stat.S_ISLNK(status.st_mode):
            if candidate.is_relative_to(root):
                raise BuildError(
                    f"{candidate} is a symlink; the build never writes through a symlink (it "
                    "could point out of the repository): remove it, or choose another folder"
                )
            links += 1
            if links > _MAX_LINKS:
                raise BuildError(f"cannot use {path}: {os.strerror(errno.ELOOP)}")
            try:
                target = Path(os.readlink(candidate))
            except OSError as error:
                raise BuildError(f"cannot use {candidate}: {error.strerror or error}") from None
            if target.is_absolute():
                current = deepest = Path(target.anchor)
                pending.extend(reversed(target.parts[1:]))
            else:
                pending.extend(reversed(target.parts))
            continue
        if not stat.S_ISDIR(status.st_mode):
            raise BuildError(f"{candidate} is not a folder")
        current = deepest = candidate
    return current, deepest


def _manifest_document(folder: Path) -> dict[str, Any] | None:
    """The manifest in ``folder`` as a JSON object, when there is one that says it is one."""
    raw = read_raw(folder, MANIFEST) if folder.is_dir() else None
    if not isinstance(raw, bytes):
        return None
    try:
        document = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return document if isinstance(document, dict) and "speclint-build" in document else None


def _manifest(folder: Path) -> dict[str, str]:
    """What the last build wrote in ``folder`` (path -> sha256); empty when there is no valid
    manifest. The manifest is in the repository, so it is checked like any input: only plain
    relative paths below the folder are believed."""
    document = _manifest_document(folder)
    if document is None or document.get("speclint-build") != MANIFEST_VERSION:
        return {}
    files = document.get("files")
    if not isinstance(files, dict):
        return {}
    return {
        relative: digest
        for relative, digest in files.items()
        if isinstance(relative, str)
        and isinstance(digest, str)
        and _plain_relative(relative)
        and relative != MANIFEST
    }


def manifest_refusals(folder: Path) -> list[tuple[str, str]]:
    """The manifest's entries that are never read, each with why: a path out of the folder
    (``../x``, ``/etc/x``), or one through a symlink in it (``etc/passwd`` with ``etc -> /etc``
    committed). Nothing past the symlink is looked at, so what is said is the same whether a
    file is there or not (issue 44: ``--check`` said "build/etc/passwd: extra")."""
    document = _manifest_document(folder) or {}
    files = document.get("files")
    if not isinstance(files, dict) or document.get("speclint-build") != MANIFEST_VERSION:
        return []
    found = []
    for relative in sorted(name for name in files if isinstance(name, str) and name != MANIFEST):
        if not _plain_relative(relative):
            found.append((relative, "it is not a path below the output folder"))
            continue
        link = _symlink_on_the_way(folder, relative)
        if link is not None:
            way = "it is a symlink" if link == relative else f"it is through the symlink {link}"
            found.append((relative, f"{way}; nothing the manifest lists is read through one"))
    return found


def _plain_relative(path: str) -> bool:
    parts = path.split("/")
    return (
        bool(path)
        and not path.startswith("/")
        and "\\" not in path
        and all(part not in ("", ".", "..") for part in parts)
    )


def _read(folder: Path, relative: str) -> bytes | None:
    """An output file's bytes, or None: never through a symlink, at the file or a folder on the
    way (``read_raw`` looks at the file's own name only: a committed ``build/etc -> /etc`` made
    ``etc/passwd`` readable)."""
    if _symlink_on_the_way(folder, relative) is not None:
        return None
    raw = read_raw(folder, relative)
    return raw if isinstance(raw, bytes) else None


def _symlink_on_the_way(folder: Path, relative: str) -> str | None:
    """The first part of ``relative`` below ``folder`` (a folder on the way, or the file) that
    is a symlink, as a path below ``folder``; None when there is none, or when a part is missing
    (nothing below it to follow). Each part is ``lstat``-ed and nothing past a symlink is, so
    nothing out of the folder is ever looked at."""
    current = folder
    parts = relative.split("/")
    for index, part in enumerate(parts):
        current = current / part
        try:
            status = os.lstat(current)
        except OSError:
            return None
        if stat.S_ISLNK(status.st_mode):
            return "/".join(parts[: index + 1])
    return None


def staleness(result: BuildResult, output: Path) -> Staleness:
    """How the output folder differs from a fresh build. ``extra`` are the files the last build
    wrote (its manifest says so) that this build would not write; other files are not the
    build's business."""
    missing, stale = [], []
    for relative, text in sorted(result.files.items()):
        # Through a link below the folder is not in it: the build would refuse to write there.
        found = _read(output, relative)
        if found is None:
            missing.append(relative)
        elif found != text.encode("utf-8"):
            stale.append(relative)  # a torn or edited file too: bytes, not text, are compared
    refused = manifest_refusals(output)
    unread = {relative for relative, _ in refused}
    extra = [
        relative
        for relative in sorted(_manifest(output))
        if relative not in result.files
        and relative not in result.held  # not built: kept (the build fails all the same)
        and relative not in unread
        and _read(output, relative) is not None
    ]
    return Staleness(missing, stale, extra, [r for r in refused if r[0] not in result.files])


@dataclass(frozen=True)
class Written:
    written: list[str]  # files (re)written
    deleted: list[str]  # files of an earlier build that this one does not produce
    kept: list[str]  # such files that changed since the build wrote them: left in place
    # entries of the earlier manifest not looked at, with why (manifest_refusals)
    refused: list[tuple[str, str]] = field(default_factory=list)
    held: list[str] = field(
        default_factory=list
    )  # bundles of documents not built: kept as they were


_FOREIGN = (
    f"exists and speclint did not write it (no {MANIFEST} in its folder lists it); the build "
    "never overwrites a file it did not write"
)


def _in_the_way(result: BuildResult, output: Path, confined: Path) -> list[tuple[Path, str]]:
    """Every target of the build that it must not write, with the reason: a symlink or a file
    on the way to it (every folder from ``confined`` down is looked at), or a file there that the
    build did not write. All are found before anything is written (issue 25: a link found half
    way left orphaned outputs that blocked every later build)."""
    previous = _manifest(output)
    found: dict[Path, str] = {}
    for relative, text in sorted(result.files.items()):
        target = output / relative
        on_the_way = _folder_in_the_way(confined, target.parent)
        if on_the_way is not None:
            found.setdefault(*on_the_way)
            continue
        reason = _occupied(output, relative, text, previous)
        if reason is not None:
            found[target] = reason
    return sorted(found.items())


def _folder_in_the_way(confined: Path, folder: Path) -> tuple[Path, str] | None:
    current = confined
    for part in folder.relative_to(confined).parts:
        current = current / part
        try:
            status = os.lstat(current)
        except FileNotFoundError:
            return None  # it and all below it are created as real folders
        except OSError as error:
            return current, f"cannot be used ({error.strerror or error})"
        if stat.S_ISLNK(status.st_mode):
            return current, (
                "is a symlink; the build never writes through a symlink (it could point out of "
                "the repository)"
            )
        if not stat.S_ISDIR(status.st_mode):
            return current, "is not a folder"
    return None


def _occupied(output: Path, relative: str, text: str, previous: dict[str, str]) -> str | None:
    """Why the file at ``relative`` must not be replaced, or None. A file is the build's when
    the folder's manifest lists it (an edited or torn bundle is rebuilt: that is what `--check`
    calls stale) or when it already holds the very bytes the build writes; anything else there
    is someone else's file (issue 25: a `catalog.json` of the user's was overwritten, then
    deleted as no longer built)."""
    try:
        status = os.lstat(output / relative)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot be used ({error.strerror or error})"
    if stat.S_ISLNK(status.st_mode):
        return "is a symlink, which the build did not make"
    if stat.S_ISDIR(status.st_mode):
        return "is a folder"
    if not stat.S_ISREG(status.st_mode):
        return "is not a regular file"
    if relative == MANIFEST:
        return None if _manifest_document(output) is not None else _FOREIGN
    if relative in previous or _read(output, relative) == text.encode("utf-8"):
        return None
    return _FOREIGN


def _refusal(blocked: list[tuple[Path, str]]) -> str:
    """One line for what :func:`_in_the_way` found."""
    (first, reason), rest = blocked[0], blocked[1:]
    also = ""
    if rest:
        named = ", ".join(str(path) for path, _ in rest[:3])
        more = f" and {len(rest) - 3} more" if len(rest) > 3 else ""
        also = f" (in the way too: {named}{more})"
    return (
        f"{first} {reason}{also}: move it away, or choose another output folder; nothing was "
        "written"
    )


def write(result: BuildResult, output: Path, confined: Path | None = None) -> Written:
    """Write the build into ``output``; raises :class:`BuildError`, with nothing written, when a
    target is in the way (:func:`_in_the_way`), and ``writing.OutputError`` when a file cannot be
    written (nothing is deleted then)."""
    blocked = _in_the_way(result, output, confined or output)
    if blocked:
        raise BuildError(_refusal(blocked))
    previous = _manifest(output)
    files, held = _holding(result, previous)
    refused = [entry for entry in manifest_refusals(output) if entry[0] not in result.files]
    written: list[str] = []
    # The manifest last: until it is written, the old one still names what is on disk.
    for relative in sorted(files, key=lambda r: (r == MANIFEST, r)):
        text = files[relative]
        target = output / relative
        if _read(output, relative) == text.encode("utf-8"):
            continue
        write_output(target, text, confined=confined or output)
        written.append(relative)
    deleted, kept = [], []
    for relative, digest in sorted(previous.items()):
        if relative in files or _symlink_on_the_way(output, relative) is not None:
            continue  # through a symlink: not looked at (manifest_refusals says so)
        if relative in held:
            continue
        target = output / relative
        try:
            status = os.lstat(target)
        except OSError:
            continue  # gone already
        content = _read(output, relative)
        if (
            not stat.S_ISREG(status.st_mode)
            or content is None
            or hashlib.sha256(content).hexdigest() != digest
        ):
            kept.append(relative)
            continue
        try:
            target.unlink()
            deleted.append(relative)
        except OSError:
            kept.append(relative)
    return Written(written, deleted, kept, refused, sorted(held))


def _is_source(root: Path, path: str) -> bool:
    """Whether a file the build did not write is corpus content by what it is (a schema, an API
    document, an instance, a page): a stray ``notes.json`` in the output folder is not, and is
    left alone; a schema there means the folder holds sources."""
    raw = read_raw(root, path)
    if not isinstance(raw, bytes):
        return False
    document = parse_document(path, raw)
    return document.usable and document.kind is not DocumentKind.DATA
