"""Single-file bundles of the API documents (``speclint build``): every OpenAPI 3.x and AsyncAPI
2.x/3.x document with each ``$ref`` into another corpus file pulled in as a component.

What a bundle is:

- every external ``$ref`` (into another file of the corpus, by path or by ``$id``) becomes a
  component of the document: a schema under ``components/schemas``, a parameter, response,
  request body, header, example, link or callback under its own kind in OpenAPI, a message,
  channel, operation, parameter or server in AsyncAPI, chosen by where the ``$ref`` sits (anything
  under a ``schema``, ``schemas`` or ``payload`` is a schema). The ``$ref`` is rewritten to
  ``#/components/<kind>/<name>``. A ``$ref`` into a part of a file that is pulled in whole points
  into that component, so nothing is copied twice. A kind the document's version has no
  component for (OpenAPI 3.0 has no ``pathItems``; AsyncAPI 2 no ``operations``, 2.0-2.2 no
  ``channels`` or ``servers``) is written in full where it is used, as ``redocly bundle`` writes
  a 3.0 path item, and a ``$ref`` into it points to its first such place.
- nothing is dereferenced that does not need to be: the document's own ``$ref``\\s stay, and a
  recursive schema stays a ``$ref`` to its component.
- component names are stable: a schema file's ``title`` (as a name: letters, digits, ``.``, ``_``,
  ``-``), else its file name without ``.schema.json``; a part of a file by its last pointer token.
  Two targets that would take one name (or a name the document's components already hold) are
  told apart with ``-2``, ``-3``, ... in the order of their files and pointers, and the build
  reports each renaming.
- a pulled-in schema loses its ``$id`` and ``$schema`` (a component is no longer a schema resource
  of its own: its ``$id`` would change what the rewritten ``$ref``\\s inside it resolve against),
  and an ``$id`` nested in it likewise; in an OpenAPI 3.0 bundle, every schema loses its
  ``$comment``, a note to readers that a 3.0 Schema Object cannot hold.
- a remote ``$ref`` that ``[ref-map]`` does not map is kept, with a warning (speclint never
  fetches); an unresolved one makes the document "not built", with the reason.
- a ``$ref`` to a file that is not JSON or YAML is written as the file's text where text can
  stand (under an extension, or as a payload schema in a format that is not JSON Schema), as
  ``redocly bundle`` does; elsewhere it makes the document "not built".
- the source's format is kept (``[build] api-format = "yaml"`` or ``"json"`` converts), and a
  YAML document keeps its comments and key order: it is edited in place, not re-serialised.

``dereference`` replaces every ``$ref`` of a bundle with what it points to, for tools that cannot
follow ``$ref``; a recursive schema cannot be written that way, and is an error naming the cycle.
"""

from __future__ import annotations

import bisect
import copy
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urldefrag

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import LiteralScalarString

from speclint.analyses.api.components import OPENAPI_30_COMPONENTS
from speclint.analyses.context import Context
from speclint.analyses.schemas.references import ref_sites
from speclint.model.corpus import Document
from speclint.parsing.keyword_positions import Position, item_position, member_position
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.reading import LoadProblem, read_raw
from speclint.parsing.structured import (
    escape_token,
    holds_pointer,
    join_pointer,
    pointer_within,
    resolve_pointer,
    split_pointer,
)

API_KINDS = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)

# Where a `$ref` sits -> the component kind its target becomes: the key that holds the object
# the `$ref` is in, and (for maps and lists) the key above it.
_OPENAPI_KINDS = {
    "parameters": "parameters",
    "responses": "responses",
    "requestBody": "requestBodies",
    "requestBodies": "requestBodies",
    "headers": "headers",
    "examples": "examples",
    "links": "links",
    "callbacks": "callbacks",
    "securitySchemes": "securitySchemes",
    "paths": "pathItems",
    "webhooks": "pathItems",
    "pathItems": "pathItems",
}
_ASYNCAPI_KINDS = {
    "channel": "channels",
    "message": "messages",
    "messages": "messages",
    "channels": "channels",
    "operations": "operations",
    "parameters": "parameters",
    "servers": "servers",
    "variables": "serverVariables",
    "correlationId": "correlationIds",
    "correlationIds": "correlationIds",
    "messageTraits": "messageTraits",
    "operationTraits": "operationTraits",
    "serverVariables": "serverVariables",
    "externalDocs": "externalDocs",
    "tags": "tags",
    "reply": "replies",
    "replies": "replies",
    "address": "replyAddresses",
    "replyAddresses": "replyAddresses",
    "securitySchemes": "securitySchemes",
    "serverBindings": "serverBindings",
    "channelBindings": "channelBindings",
    "operationBindings": "operationBindings",
    "messageBindings": "messageBindings",
}
# The component kinds of each version (OpenAPI 3.0.3 §4.7.7, 3.1.0 §4.8.7; AsyncAPI 2.0.0 and
# 2.3.0 "Components Object", 3.0.0 §3.3.29): a target whose kind the document's version has no
# place for is written where it is used, as `redocly bundle` does with a 3.0 path item.
_OPENAPI_30 = frozenset(OPENAPI_30_COMPONENTS)
_ASYNCAPI_20 = frozenset(
    {
        "schemas",
        "messages",
        "securitySchemes",
        "parameters",
        "correlationIds",
        "operationTraits",
        "messageTraits",
        "serverBindings",
        "channelBindings",
        "operationBindings",
        "messageBindings",
    }
)
_ASYNCAPI_23 = _ASYNCAPI_20 | {"servers", "serverVariables", "channels"}
_SCHEMA_KEYS = frozenset({"schema", "schemas", "payload"})
# A media type's whole `examples` map written as a `$ref` to the file that holds it: no
# component kind holds a map of examples, so it is written in place, as Redocly resolves it.
_EXAMPLE_MAP = "examples map"
_NAME = re.compile(r"[^A-Za-z0-9._-]+")


class BundleError(Exception):
    """The document cannot be bundled; the message says why."""


@dataclass
class ApiBundle:
    document: Document
    tree: Any  # the bundled document (round-trip YAML nodes for a YAML source)
    renamed: list[str] = field(default_factory=list)  # collisions resolved, for the build's notes
    kept_remote: list[str] = field(default_factory=list)  # remote `$ref`s left as they are
    notes: list[str] = field(default_factory=list)  # what the bundle could not keep, for the build
    # keys written twice in the document, each bundled with its last value, for the build's notes
    duplicates: list[str] = field(default_factory=list)

    def plain(self) -> Any:
        """The bundle as plain JSON data."""
        return json.loads(json.dumps(self.tree, default=str))


def api_documents(corpus: Context) -> list[Document]:
    return [
        document
        for document in corpus.of_kind(*API_KINDS)
        if isinstance(document.data, dict) and _bundles_this_version(document)
    ]


# A top-level `openapi:` or `asyncapi:` key, as YAML writes it (at the start of a line) or JSON
# (anywhere: its layout is free): what a file that no longer parses still says it is.
_API_KEY = re.compile(r'^(?:openapi|asyncapi)\s*:|"(?:openapi|asyncapi)"\s*:', re.M)


def unparsed_api_documents(corpus: Context) -> list[tuple[str, str]]:
    """(path, why) of each JSON/YAML file that says it is an OpenAPI or AsyncAPI document (its
    text has the version key) and does not parse: its bundle cannot be made, and the build must
    say so, not drop it as a document it no longer has to build."""
    found = []
    for path, document in sorted(corpus.documents.items()):
        problem = document.problem
        if problem is None or problem.unread or not document.text:
            continue
        if not path.lower().endswith((".yaml", ".yml", ".json")):
            continue
        if _API_KEY.search(document.text):
            found.append(
                (
                    path,
                    f"does not parse (line {problem.line}, column {problem.column}: "
                    f"{problem.message}): fix it, and the bundle is built again",
                )
            )
    return found


def _bundles_this_version(document: Document) -> bool:
    version = str(document.data.get("openapi") or document.data.get("asyncapi") or "")
    if document.kind is DocumentKind.OPENAPI:
        return version.startswith("3.")
    return version.startswith(("2.", "3."))


@dataclass(frozen=True)
class _Target:
    path: str
    pointer: str
    kind: str


def bundle_api(corpus: Context, document: Document) -> ApiBundle:
    """The single-file bundle of one API document; :class:`BundleError` when it cannot be made."""
    index = corpus.references
    main = document.path
    # 1. Every target the document reaches through `$ref`s into other files, transitively, with
    #    the component kind of the place that first reaches it.
    targets: dict[tuple[str, str], str] = {}
    kept_remote: list[str] = []
    texts: dict[tuple[str, str], str] = {}
    _reached(corpus, document, "", "", targets, kept_remote, main, texts)
    # What the pulled-in parts reach in turn (their own file's parts, a third file): each target
    # walked once, in rounds of the targets the round before found, sorted (walking one again
    # finds nothing new: a pass over them all per round was rounds x targets, 13 minutes on a
    # split document of thousands of components).
    fresh = sorted(targets)
    while fresh:
        before = set(targets)
        for path, pointer in fresh:
            kind = targets[(path, pointer)]
            _reached(
                corpus, corpus.documents[path], pointer, kind, targets, kept_remote, main, texts
            )
        fresh = sorted(set(targets) - before)
    # 2. Names: a target inside another target is a pointer into that component (its ancestors
    #    looked up, not every other target compared).
    roots = sorted(
        target
        for target in targets
        if not any((target[0], above) in targets for above in _ancestors(target[1]))
    )
    # A target of a kind the document's version has no component for (a path item in OpenAPI
    # 3.0, whose Components Object has no `pathItems`: 3.0.3 §4.7.7) is written in full where it
    # is used, as `redocly bundle` does; a pointer into it points into its first such place.
    kinds = _component_kinds(document)
    inlined = {
        target
        for target in roots
        if targets[target] == _EXAMPLE_MAP or (kinds is not None and targets[target] not in kinds)
    }
    places: dict[tuple[str, str], str] = {}
    for site, _, _ in _sites_under(document, ""):
        reference = index.at(main, site)
        if reference is not None and reference.outcome == "ok" and reference.target_path:
            reached = (reference.target_path, reference.target_pointer or "")
            if reached in inlined and reached not in places:
                places[reached] = site[: -len("/$ref")]
    tree, reading = _load_tree(document)
    duplicates = _last_values(tree, document)
    components = tree.get("components") if isinstance(tree, dict) else None
    names: dict[tuple[str, str], tuple[str, str]] = {}
    # A component of the document that is only a `$ref` to a file (`Run: {$ref: run.schema.json}`,
    # the usual way to list shared schemas) is that file's place: its content goes there.
    aliases = _aliases(corpus, document, components, set(roots) - inlined)
    names.update(aliases)
    taken: dict[str, set[str]] = {}
    renamed: list[str] = []
    for target in roots:
        if target in aliases or target in inlined:
            continue
        kind = targets[target]
        used = taken.setdefault(
            kind,
            set(components.get(kind) or {})
            if isinstance(components, dict) and isinstance(components.get(kind), dict)
            else set(),
        )
        wanted = _name_of(corpus, target)
        name, number = wanted, 1
        while name in used:
            number += 1
            name = f"{wanted}-{number}"
        if name != wanted:
            renamed.append(
                f"`{target[0]}#{target[1]}` is `components/{kind}/{name}`: "
                f"`{wanted}` names another component"
            )
        used.add(name)
        names[target] = (kind, name)

    # Where each root is written: roots hold no other root, so the one holding a pointer is the
    # pointer itself or one of its ancestors (looked up, not every root of its file compared).
    written_at: dict[tuple[str, str], str | None] = {
        target: join_pointer(join_pointer("/components", kind), name)
        for target, (kind, name) in names.items()
    }
    for target in sorted(inlined):
        written_at[target] = places.get(target)

    def rewritten(path: str, pointer: str) -> str:
        for root_pointer in (pointer, *_ancestors(pointer)):
            if (path, root_pointer) in written_at:
                where = written_at[(path, root_pointer)]
                if where is None:
                    raise BundleError(
                        f"`{path}#{pointer or '/'}` is part of a {targets[(path, root_pointer)]} "
                        "entry, which this version's components cannot hold, and the document "
                        "itself never uses it whole: reference it from the document"
                    )
                return f"#{where}{pointer[len(root_pointer) :]}"
        raise AssertionError(f"no component for {path}#{pointer}")  # every target has a root

    def content_of(target: tuple[str, str], chain: tuple[tuple[str, str], ...]) -> Any:
        """A copy of ``target`` with its ``$ref``\\s rewritten to point into the bundle, and
        those to an inlined target replaced by its content."""
        if target in chain:
            steps = " → ".join(f"{p}#{q or '/'}" for p, q in (*chain, target))
            raise BundleError(f"written in place, it would contain itself: {steps}")
        path, pointer = target
        holder = corpus.documents[path]
        content = copy.deepcopy(resolve_pointer(holder.data, pointer))
        whole: list[tuple[str, tuple[str, str]]] = []
        whole_text: list[tuple[str, str]] = []
        for site, _, _ in _sites_under(holder, pointer):
            reference = index.at(path, site)
            if (path, site) in texts:
                whole_text.append((site[len(pointer) : -len("/$ref")], texts[(path, site)]))
                continue
            if reference is None or reference.outcome != "ok" or reference.target_path is None:
                continue
            assert reference.target_pointer is not None
            local = site[len(pointer) :]
            reached = (reference.target_path, reference.target_pointer)
            if reference.target_path == main:
                _set(content, local, f"#{reference.target_pointer}")
            elif reached in inlined:
                whole.append((local[: -len("/$ref")], reached))
            else:
                _set(content, local, rewritten(*reached))
        for local, reached in sorted(whole, key=lambda each: -len(each[0])):
            content = _put(content, local, content_of(reached, (*chain, target)))
        for local, text in sorted(whole_text, key=lambda each: -len(each[0])):
            content = _put(content, local, LiteralScalarString(text))
        return content

    # 3. The document's own external `$ref`s rewritten in place, then the components added.
    alias_sites = {
        join_pointer(join_pointer(join_pointer("/components", kind), name), "$ref")
        for kind, name in aliases.values()
    }
    in_place: list[tuple[str, tuple[str, str]]] = []
    for site, _, _ in _sites_under(document, ""):
        reference = index.at(main, site)
        if (main, site) in texts:
            continue  # written below, after the `$ref`s around it
        if reference is None or reference.outcome != "ok" or reference.target_path in (None, main):
            continue
        if site in alias_sites:
            continue  # the component becomes the content itself, below
        assert reference.target_pointer is not None
        reached = (reference.target_path, reference.target_pointer)
        if reached in inlined:
            in_place.append((site[: -len("/$ref")], reached))
        else:
            _set(tree, site, rewritten(*reached))
    for where, reached in sorted(in_place, key=lambda each: -len(each[0])):
        tree = _put(tree, where, content_of(reached, ()))
    for (path, site), text in sorted(texts.items(), key=lambda each: -len(each[0][1])):
        if path == main:
            tree = _put(tree, site[: -len("/$ref")], LiteralScalarString(text))
    additions: dict[str, dict[str, Any]] = {}
    for target in roots:
        if target in inlined:
            continue
        kind, name = names[target]
        content = content_of(target, ())
        if kind == "schemas" and isinstance(content, dict):
            content.pop("$schema", None)
            _drop_ids(content)
        if target in aliases:
            tree["components"][kind][name] = content  # in place: the document's own order
        else:
            additions.setdefault(kind, {})[name] = content
    if additions:
        _add_components(tree, additions)
    if document.kind is DocumentKind.OPENAPI and str(document.data.get("openapi")).startswith(
        "3.0"
    ):
        _drop_comments(tree, Position.API)
    return ApiBundle(
        document,
        tree,
        renamed,
        sorted(kept_remote),
        [reading] if reading else [],
        duplicates,
    )


def _aliases(
    corpus: Context, document: Document, components: Any, roots: set[tuple[str, str]]
) -> dict[tuple[str, str], tuple[str, str]]:
    """Targets that a component of the document names with a bare ``$ref``: the first such
    component (in the document's order) for each."""
    found: dict[tuple[str, str], tuple[str, str]] = {}
    if not isinstance(components, dict):
        return found
    for kind, entries in components.items():
        if not isinstance(entries, dict):
            continue
        for name, value in entries.items():
            if not (isinstance(value, dict) and list(value) == ["$ref"]):
                continue
            site = join_pointer(join_pointer(join_pointer("/components", kind), name), "$ref")
            reference = corpus.references.at(document.path, site)
            if (
                reference is None
                or reference.outcome != "ok"
                or reference.target_path in (None, document.path)
                or reference.target_pointer is None
            ):
                continue
            target = (reference.target_path, reference.target_pointer)
            if target in roots and target not in found:
                found[target] = (str(kind), str(name))
    return found


def _reached(
    corpus: Context,
    holder: Document,
    subtree: str,
    kind: str,
    targets: dict[tuple[str, str], str],
    kept_remote: list[str],
    main: str,
    texts: dict[tuple[str, str], str],
) -> None:
    """Add to ``targets`` what the ``$ref`` members under ``holder#subtree`` reach outside the main
    document; a remote one to ``kept_remote``; one to a file's text, where that text can stand
    (:func:`_text_in_place`), to ``texts`` (holder path, site -> the text). :class:`BundleError`
    on one that does not resolve."""
    index = corpus.references
    for site, value, _ in _sites_under(holder, subtree):
        reference = index.at(holder.path, site)
        if reference is None:
            continue
        where = f"{holder.path}#{site[: -len('/$ref')] or '/'}"
        if reference.outcome == "remote":
            kept_remote.append(f"{where}: {value}")
            continue
        if reference.outcome == "text" and reference.target_path is not None:
            texts[(holder.path, site)] = _text_in_place(corpus, holder, site, value, where)
            continue
        if reference.outcome != "ok" or reference.target_path is None:
            raise BundleError(
                f"`{value}` at {where} does not resolve "
                f"({reference.detail or reference.outcome}): fix the reference first"
            )
        if reference.target_pointer is None:
            raise BundleError(
                f"`{value}` at {where} points at an anchor, which is not bundled yet: point it "
                "at the schema with a JSON pointer"
            )
        if reference.target_path == main:
            continue  # into the document itself: a local `$ref` in the bundle
        target = (reference.target_path, reference.target_pointer)
        if target in targets:
            continue
        if reference.target_path not in corpus.documents:
            raise BundleError(f"{reference.target_path} is not a document of the corpus")
        relative = site[len(subtree) :] if holder.path != main else site
        targets[target] = _kind_at(corpus.documents[main].kind, relative, kind)


# The schema formats whose schemas are JSON Schema (or a dialect of it: AsyncAPI 3.0.0 §3.3.37
# "Multi Format Schema Object" lists them): a `$ref` in such a schema reaches a schema, never text.
_JSON_SCHEMA_FORMATS = (
    "application/vnd.aai.asyncapi",
    "application/schema+",
    "application/vnd.oai",
)


def _text_in_place(corpus: Context, holder: Document, site: str, value: str, where: str) -> str:
    """The text of the file that the ``$ref`` at ``holder#site`` names (a Markdown page, a code
    sample, a .proto file), where a bundle may write a file's text in its place: under a
    specification extension (`x-codeSamples`' `source`, `x-topics`' `content`: Redocly's
    `bundle` resolves a `$ref` to a file that is not JSON or YAML to the file's text) or as the
    schema of a payload whose `schemaFormat` is not JSON Schema (AsyncAPI 3.0.0 §3.3.37, 2.6.0
    "Message Object"). Anywhere else, and for a `$ref` into a part of the file (a fragment means
    nothing in text), :class:`BundleError` with the reason. The file is read as the corpus reads
    its own: never through a symlink out of the root."""
    reason = f"`{value}` at {where} names a file that is not JSON or YAML"
    tokens = split_pointer(site)[:-1]
    extension = any(token.startswith("x-") for token in tokens)
    if not (extension or _non_json_schema_payload(holder.data, tokens)):
        raise BundleError(
            f"{reason}, and only an extension (`x-...`) or a payload whose `schemaFormat` is not "
            "JSON Schema can take a file's text: reference a JSON or YAML file"
        )
    if urldefrag(value).fragment:
        raise BundleError(
            f"{reason}, and its text can be written in place only whole (`#...` names no part "
            "of a text): reference the file without the fragment"
        )
    reference = corpus.references.at(holder.path, site)
    assert reference is not None and reference.target_path is not None
    raw = read_raw(corpus.root, reference.target_path)
    if isinstance(raw, LoadProblem):
        raise BundleError(f"{reason}, which is not read: {raw.message}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BundleError(f"{reason}, and it is not UTF-8 text") from None


def _non_json_schema_payload(data: Any, tokens: list[str]) -> bool:
    """Whether the object at ``tokens`` is the schema of a Multi Format Schema Object (its
    parent has `schemaFormat` and holds it as `schema`) or an AsyncAPI 2 message's `payload`,
    in a format that is not JSON Schema."""
    if not tokens or tokens[-1] not in ("schema", "payload"):
        return False
    parent = data
    for token in tokens[:-1]:
        parent = resolve_pointer(parent, "/" + escape_token(token))
    schema_format = parent.get("schemaFormat") if isinstance(parent, dict) else None
    return isinstance(schema_format, str) and not schema_format.startswith(_JSON_SCHEMA_FORMATS)


def _ancestors(pointer: str) -> Iterator[str]:
    """The pointers above ``pointer``, nearest first, down to the root ("")."""
    while pointer:
        pointer = pointer.rsplit("/", 1)[0]
        yield pointer


def _sites_under(holder: Document, subtree: str) -> list[tuple[str, str, str]]:
    """The ``$ref`` sites (``ref_sites``) of ``holder`` below ``subtree``, in ``ref_sites``'s
    order. The sites are walked once per document and sorted by pointer, those below
    ``subtree`` found by bisection: a bundle pulls in one component per target, thousands from
    one file of a large split document, and a walk of the whole file per component was
    components x sites."""

    def walked() -> list[tuple[str, int, str, str]]:
        return sorted(
            (site, order, value, base)
            for order, (site, value, base) in enumerate(ref_sites(holder))
        )

    sites: list[tuple[str, int, str, str]] = holder.remember("api_bundle.ref_sites", walked)
    if subtree:
        # Every site is a `$ref` member's pointer, so none is `subtree` itself; "0" is the
        # character after "/".
        sites = sites[
            bisect.bisect_left(sites, (subtree + "/",)) : bisect.bisect_left(
                sites, (subtree + "0",)
            )
        ]
    return [(site, value, base) for site, _, value, base in sorted(sites, key=lambda s: s[1])]


def _kind_at(api_kind: DocumentKind, site: str, inherited: str) -> str:
    """The component kind of what the ``$ref`` at ``site`` points to in an ``api_kind`` document:
    ``site`` is relative to the document's root (``inherited`` empty) or to the root of a
    pulled-in component of kind ``inherited``, read as if it sat at ``/components/<kind>/_``."""
    if inherited == "schemas":
        return "schemas"  # whatever a schema refers to is a schema
    keys = split_pointer(site)[:-1]  # the object that holds the "$ref"
    if inherited:
        keys = ["components", inherited, "_", *keys]
    if any(key in _SCHEMA_KEYS for key in keys):
        return "schemas"
    if api_kind is DocumentKind.ASYNCAPI:
        table = _ASYNCAPI_KINDS
        special = _asyncapi_kind(keys)
        if special:
            return special
    else:
        table = _OPENAPI_KINDS
        if len(keys) >= 3 and keys[-3] == "callbacks":
            return "pathItems"  # a Callback Object maps expressions to path items (3.1.0 §4.8.18)
        if keys and keys[-1] == "examples":
            return _EXAMPLE_MAP  # `examples: {$ref: file}`: the whole map in another file
    for depth in (2, 1):
        if len(keys) >= depth and keys[-depth] in table:
            return table[keys[-depth]]
    return inherited or "schemas"


def _asyncapi_kind(keys: list[str]) -> str:
    """The AsyncAPI kinds that the holding key alone does not say: traits of an operation or of
    a message, bindings of a server, channel, operation or message, a message of a 2.x
    operation's ``oneOf``; empty for the others."""
    if len(keys) >= 2 and keys[-2] == "traits":
        operation = (len(keys) >= 3 and keys[-3] in ("publish", "subscribe")) or (
            len(keys) >= 4 and keys[-4] in ("operations", "operationTraits")
        )
        return "operationTraits" if operation else "messageTraits"
    if keys and keys[-1] == "bindings":
        if len(keys) >= 2 and keys[-2] in ("publish", "subscribe"):
            return "operationBindings"
        if len(keys) >= 2 and keys[-2] == "message":
            return "messageBindings"
        holder = keys[-3] if len(keys) >= 3 else ""
        return {
            "servers": "serverBindings",
            "channels": "channelBindings",
            "operations": "operationBindings",
            "messages": "messageBindings",
        }.get(holder, "")
    if len(keys) >= 3 and keys[-2] == "oneOf" and keys[-3] == "message":
        return "messages"
    return ""


def _component_kinds(document: Document) -> frozenset[str] | None:
    """The component kinds the document's version has, or None for all of those bundled."""
    data = document.data if isinstance(document.data, dict) else {}
    if document.kind is DocumentKind.OPENAPI:
        return _OPENAPI_30 if str(data.get("openapi", "")).startswith("3.0") else None
    version = str(data.get("asyncapi", ""))
    if not version.startswith("2."):
        return None
    minor = version.split(".")[1] if version.count(".") >= 1 else "0"
    return _ASYNCAPI_23 if minor.isdigit() and int(minor) >= 3 else _ASYNCAPI_20


def _name_of(corpus: Context, target: tuple[str, str]) -> str:
    path, pointer = target
    if pointer:
        token = split_pointer(pointer)[-1]
        return _NAME.sub("_", token).strip("_") or "component"
    data = corpus.documents[path].data
    title = data.get("title") if isinstance(data, dict) else None
    if isinstance(title, str) and _NAME.sub("", title):
        return _NAME.sub("_", title).strip("_")
    stem = path.rsplit("/", 1)[-1]
    for suffix in (".schema.json", ".schema.yaml", ".schema.yml", ".json", ".yaml", ".yml"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    return _NAME.sub("_", stem).strip("_") or "component"


def _drop_ids(node: Any, position: Position = Position.SCHEMA) -> None:
    """Drop the ``$id`` of a schema and of every schema in it: not a property named ``$id``,
    nor anything in data (``keyword_positions``)."""
    if isinstance(node, dict):
        if position is Position.SCHEMA:
            node.pop("$id", None)
        for key, child in node.items():
            place = member_position(position, key)
            if place is not Position.DATA:
                _drop_ids(child, place)
    elif isinstance(node, list):
        for child in node:
            _drop_ids(child, item_position(position))


def _drop_comments(node: Any, position: Position) -> None:
    """Drop ``$comment`` from every schema of an OpenAPI 3.0 bundle. A 3.0 Schema Object has no
    such keyword (3.0.3 §4.7.24 lists its fields; the official schema allows no others), so a
    schema file that a 3.0 document references and that the source's validator never reads
    inline makes an invalid bundle; ``$comment`` is only a note to readers (JSON Schema 2020-12
    Core §8.3: it MUST NOT change validation or annotation results), so dropping it changes
    nothing the document says. Not a property named ``$comment``, nor anything in data."""
    if isinstance(node, dict):
        if position is Position.SCHEMA:
            node.pop("$comment", None)
        for key, child in node.items():
            place = member_position(position, key, DocumentKind.OPENAPI)
            extension = str(key).startswith("x-") and position in (Position.SCHEMA, Position.API)
            if place is not Position.DATA and not extension:
                _drop_comments(child, place)
    elif isinstance(node, list):
        for child in node:
            _drop_comments(child, item_position(position))


def _put(tree: Any, pointer: str, content: Any) -> Any:
    """``tree`` with the object at ``pointer`` (a ``$ref`` and its siblings) replaced by
    ``content``; the siblings are kept over it (what ``dereference`` does)."""
    tokens = split_pointer(pointer)
    parent = tree
    for token in tokens[:-1]:
        parent = parent[int(token)] if isinstance(parent, list) else parent[token]
    here = (
        (parent[int(tokens[-1])] if isinstance(parent, list) else parent[tokens[-1]])
        if tokens
        else tree
    )
    if isinstance(content, dict) and isinstance(here, dict):
        merged = {**content, **{k: v for k, v in here.items() if k != "$ref"}}
        content = merged
    if not tokens:
        return content
    if isinstance(parent, list):
        parent[int(tokens[-1])] = content
    else:
        parent[tokens[-1]] = content
    return tree


def _set(tree: Any, pointer: str, value: Any) -> None:
    tokens = split_pointer(pointer)
    node = tree
    for token in tokens[:-1]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    last = tokens[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def _last_values(tree: Any, document: Document) -> list[str]:
    """Give each key the document writes twice with different values its last value in
    ``tree``, as speclint's own reading and most parsers (JSON's, PyYAML) do, and say which:
    ruamel's round trip keeps the first, so the bundle would hold what the checks never read
    (an operation's second `parameters` lost, its path parameter with it). YAML 1.2 §3.2.1.1
    forbids the duplicate, RFC 8259 §4 leaves it undefined: `duplicate-key` reports it."""
    notes: list[str] = []
    replaced: list[str] = []
    for duplicate in sorted(document.duplicates, key=lambda d: (d.pointer.count("/"), d.pointer)):
        if duplicate.same or any(pointer_within(duplicate.pointer, r) for r in replaced):
            continue  # the same value twice, or inside a value already replaced by its last
        if not holds_pointer(document.data, duplicate.pointer):
            continue
        last = resolve_pointer(document.data, duplicate.pointer)
        try:
            _set(tree, duplicate.pointer, copy.deepcopy(last))
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # a place the round-trip tree does not hold as the reading does
        replaced.append(duplicate.pointer)
        notes.append(
            f"key `{split_pointer(duplicate.pointer)[-1]}` written twice at "
            f"{document.path}#{duplicate.pointer} (lines {duplicate.first[0]} and "
            f"{duplicate.again[0]}): bundled with the last value, as most parsers read it; "
            "merge the two (see `duplicate-key`)"
        )
    return notes


def _load_tree(document: Document) -> tuple[Any, str | None]:
    """The document as it will be edited, and a note when its comments could not be kept: YAML
    with its comments and key order (ruamel's round-trip nodes), JSON as plain data in its key
    order. The corpus's parse decides what the document is: where this second reading fails and
    the corpus's did not (libyaml takes a tab after `key:` that ruamel's scanner refuses; a JSON
    file may start with a byte order mark), the bundle is made from the corpus's data, in its
    key order, without the comments."""
    text = document.text or ""
    if document.path.lower().endswith((".yaml", ".yml")):
        reader = YAML(typ="rt")
        # ruamel keeps the first of a duplicate key: ``_last_values`` puts the last back.
        reader.allow_duplicate_keys = True
        reader.preserve_quotes = True
        try:
            return reader.load(text), None
        except (YAMLError, RecursionError) as error:
            mark = getattr(error, "problem_mark", None)
            where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
            return copy.deepcopy(document.data), (
                f"its comments are not kept: the round-trip YAML reader cannot read it{where}: "
                f"{getattr(error, 'problem', None) or error}"
            )
    try:
        return json.loads(text), None
    except (ValueError, RecursionError):
        return copy.deepcopy(document.data), None


def _add_components(tree: Any, additions: dict[str, dict[str, Any]]) -> None:
    components = tree.get("components")
    if not isinstance(components, dict):
        components = tree["components"] = type(tree)() if hasattr(tree, "ca") else {}
    for kind in sorted(additions):
        holder = components.get(kind)
        if not isinstance(holder, dict):
            holder = components[kind] = type(tree)() if hasattr(tree, "ca") else {}
        for name in sorted(additions[kind]):
            holder[name] = additions[kind][name]


def render_bundle(built: ApiBundle, output_format: str) -> tuple[str, str]:
    """(the output file's extension, its text) in ``output_format``: ``yaml``, ``json`` or
    ``source`` (the document's own)."""
    is_yaml = built.document.path.lower().endswith((".yaml", ".yml"))
    wanted = output_format if output_format != "source" else ("yaml" if is_yaml else "json")
    if wanted == "json":
        return ".json", json.dumps(built.plain(), indent=2, ensure_ascii=False) + "\n"

    writer = YAML(typ="rt")
    writer.width = 4096  # no folding of long descriptions the source did not fold
    if not is_yaml or _indented_sequences(built.document.text or ""):
        writer.indent(mapping=2, sequence=4, offset=2)  # `key:` then `  - item`, as written
    stream = io.StringIO()
    writer.dump(built.tree if is_yaml else built.plain(), stream)
    return ".yaml", stream.getvalue()


def _indented_sequences(text: str) -> bool:
    """Whether the source writes a block sequence indented under its key (``key:`` then
    ``  - item``) rather than level with it; ruamel keeps comments and order, not indentation."""
    found = re.search(r"^( *)[^\s#-][^\n]*:[ \t]*\n( *)- ", text, re.M)
    return found is not None and len(found.group(2)) > len(found.group(1))


def dereference(tree: Any) -> Any:
    """The bundle with every local ``$ref`` replaced by a copy of what it points to (siblings of
    the ``$ref`` kept over it); :class:`BundleError` on a recursive reference."""
    plain = json.loads(json.dumps(tree, default=str))

    def walk(node: Any, chain: tuple[str, ...]) -> Any:
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str) and reference.startswith("#"):
                if reference in chain:
                    cycle = " → ".join((*chain[chain.index(reference) :], reference))
                    raise BundleError(
                        f"recursive: {cycle}; a recursive schema cannot be written without "
                        "`$ref` (build without --dereference)"
                    )
                target = resolve_pointer(plain, reference[1:])
                resolved = walk(copy.deepcopy(target), (*chain, reference))
                siblings = {k: walk(v, chain) for k, v in node.items() if k != "$ref"}
                if isinstance(resolved, dict):
                    return {**resolved, **siblings}
                return resolved
            return {key: walk(value, chain) for key, value in node.items()}
        if isinstance(node, list):
            return [walk(item, chain) for item in node]
        return node

    return walk(plain, ())


def external_refs(tree: Any) -> Iterator[str]:
    """Every ``$ref`` of a bundle that does not point into it (a remote one kept, or a bug)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str) and not reference.startswith("#"):
                yield reference
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
