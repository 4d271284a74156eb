"""Single-file bundles of the API documents (``speclint build``): every OpenAPI 3.x and AsyncAPI
2.x/3.x document with each ``$ref`` into another corpus file pulled in as a component.

What a bundle is:

- every external ``$ref`` (into another file of the corpus, by path or by ``$id``) becomes a
  component of the document: a schema under ``components/schemas``, a parameter, response,
  request body, header, example, link or callback under its own kind in OpenAPI, a message,
  channel, operation, parameter or server in AsyncAPI, chosen by where the ``$ref`` sits (anything
  under a ``schema``, ``schemas`` or ``payload`` is a schema). The ``$ref`` is rewritten to
  ``#/components/<kind>/<name>``. A ``$ref`` into a part of a file that is pulled in whole points
  into that component, so nothing is copied twice.
- nothing is dereferenced that does not need to be: the document's own ``$ref``\\s stay, and a
  recursive schema stays a ``$ref`` to its component.
- component names are stable: a schema file's ``title`` (as a name: letters, digits, ``.``, ``_``,
  ``-``), else its file name without ``.schema.json``; a part of a file by its last pointer token.
  Two targets that would take one name (or a name the document's components already hold) are
  told apart with ``-2``, ``-3``, ... in the order of their files and pointers, and the build
  reports each renaming.
- a pulled-in schema loses its ``$id`` and ``$schema`` (a component is no longer a schema resource
  of its own: its ``$id`` would change what the rewritten ``$ref``\\s inside it resolve against),
  and an ``$id`` nested in it likewise.
- a remote ``$ref`` that ``[ref-map]`` does not map is kept, with a warning (speclint never
  fetches); an unresolved one makes the document "not built", with the reason.
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

from ruamel.yaml import YAML

from speclint.analyses.context import Context
from speclint.analyses.references import ref_sites
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import (
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
}
_ASYNCAPI_KINDS = {
    "channel": "channels",
    "messages": "messages",
    "channels": "channels",
    "operations": "operations",
    "parameters": "parameters",
    "servers": "servers",
    "correlationId": "correlationIds",
    "correlationIds": "correlationIds",
    "traits": "messageTraits",
    "messageTraits": "messageTraits",
    "operationTraits": "operationTraits",
    "serverVariables": "serverVariables",
    "externalDocs": "externalDocs",
    "tags": "tags",
    "replies": "replies",
    "replyAddresses": "replyAddresses",
    "securitySchemes": "securitySchemes",
}
_SCHEMA_KEYS = frozenset({"schema", "schemas", "payload"})
_NAME = re.compile(r"[^A-Za-z0-9._-]+")


class BundleError(Exception):
    """The document cannot be bundled; the message says why."""


@dataclass
class ApiBundle:
    document: Document
    tree: Any  # the bundled document (round-trip YAML nodes for a YAML source)
    renamed: list[str] = field(default_factory=list)  # collisions resolved, for the build's notes
    kept_remote: list[str] = field(default_factory=list)  # remote `$ref`s left as they are
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
    _reached(corpus, document, "", "", targets, kept_remote, main)
    # What the pulled-in parts reach in turn (their own file's parts, a third file): each target
    # walked once, in rounds of the targets the round before found, sorted (walking one again
    # finds nothing new: a pass over them all per round was rounds x targets, 13 minutes on a
    # split document of thousands of components).
    fresh = sorted(targets)
    while fresh:
        before = set(targets)
        for path, pointer in fresh:
            kind = targets[(path, pointer)]
            _reached(corpus, corpus.documents[path], pointer, kind, targets, kept_remote, main)
        fresh = sorted(set(targets) - before)
    # 2. Names: a target inside another target is a pointer into that component (its ancestors
    #    looked up, not every other target compared).
    roots = sorted(
        target
        for target in targets
        if not any((target[0], above) in targets for above in _ancestors(target[1]))
    )
    tree = _load_tree(document)
    duplicates = _last_values(tree, document)
    components = tree.get("components") if isinstance(tree, dict) else None
    names: dict[tuple[str, str], tuple[str, str]] = {}
    # A component of the document that is only a `$ref` to a file (`Run: {$ref: run.schema.json}`,
    # the usual way to list shared schemas) is that file's place: its content goes there.
    aliases = _aliases(corpus, document, components, set(roots))
    names.update(aliases)
    taken: dict[str, set[str]] = {}
    renamed: list[str] = []
    for target in roots:
        if target in aliases:
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

    by_file: dict[str, list[tuple[str, tuple[str, str]]]] = {}
    for (root_path, root_pointer), named in names.items():
        by_file.setdefault(root_path, []).append((root_pointer, named))

    def rewritten(path: str, pointer: str) -> str:
        for root_pointer in (pointer, *_ancestors(pointer)):
            named = names.get((path, root_pointer))
            if named is not None:
                kind, name = named
                rest = pointer[len(root_pointer) :]
                return f"#{join_pointer(join_pointer('/components', kind), name)}{rest}"
        raise AssertionError(f"no component for {path}#{pointer}")  # every target has a root

    # 3. The document's own external `$ref`s rewritten in place, then the components added.
    alias_sites = {
        join_pointer(join_pointer(join_pointer("/components", kind), name), "$ref")
        for kind, name in aliases.values()
    }
    for site, _, _ in ref_sites(document):
        reference = index.at(main, site)
        if reference is None or reference.outcome != "ok" or reference.target_path in (None, main):
            continue
        if site in alias_sites:
            continue  # the component becomes the content itself, below
        assert reference.target_pointer is not None
        _set(tree, site, rewritten(reference.target_path, reference.target_pointer))
    additions: dict[str, dict[str, Any]] = {}
    for target in roots:
        path, pointer = target
        kind, name = names[target]
        holder = corpus.documents[path]
        content = copy.deepcopy(resolve_pointer(holder.data, pointer))
        for site, _, _ in _sites_under(holder, pointer):
            reference = index.at(path, site)
            if reference is None or reference.outcome != "ok" or reference.target_path is None:
                continue
            assert reference.target_pointer is not None
            local = site[len(pointer) :]
            if reference.target_path == main:
                _set(content, local, f"#{reference.target_pointer}")
            else:
                _set(content, local, rewritten(reference.target_path, reference.target_pointer))
        if kind == "schemas" and isinstance(content, dict):
            content.pop("$schema", None)
            _drop_ids(content)
        if target in aliases:
            tree["components"][kind][name] = content  # in place: the document's own order
        else:
            additions.setdefault(kind, {})[name] = content
    if additions:
        _add_components(tree, additions)
    return ApiBundle(document, tree, renamed, sorted(kept_remote), duplicates)


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
) -> None:
    """Add to ``targets`` what the ``$ref`` members under ``holder#subtree`` reach outside the main
    document; a remote one to ``kept_remote``. :class:`BundleError` on one that does not resolve."""
    index = corpus.references
    for site, value, _ in _sites_under(holder, subtree):
        reference = index.at(holder.path, site)
        if reference is None:
            continue
        where = f"{holder.path}#{site[: -len('/$ref')] or '/'}"
        if reference.outcome == "remote":
            kept_remote.append(f"{where}: {value}")
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
    pulled-in component of kind ``inherited``."""
    if inherited == "schemas":
        return "schemas"  # whatever a schema refers to is a schema
    keys = split_pointer(site)[:-1]  # the object that holds the "$ref"
    if any(key in _SCHEMA_KEYS for key in keys):
        return "schemas"
    table = _ASYNCAPI_KINDS if api_kind is DocumentKind.ASYNCAPI else _OPENAPI_KINDS
    for depth in (2, 1):
        if len(keys) >= depth and keys[-depth] in table:
            return table[keys[-depth]]
    return inherited or "schemas"


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


def _drop_ids(node: Any) -> None:
    if isinstance(node, dict):
        node.pop("$id", None)
        for key, child in node.items():
            if key not in ("const", "enum", "default", "examples", "example"):
                _drop_ids(child)
    elif isinstance(node, list):
        for child in node:
            _drop_ids(child)


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


def _load_tree(document: Document) -> Any:
    """The document as it will be edited: YAML with its comments and key order (ruamel's
    round-trip nodes), JSON as plain data in its key order."""
    text = document.text or ""
    if document.path.lower().endswith((".yaml", ".yml")):
        reader = YAML(typ="rt")
        # ruamel keeps the first of a duplicate key: ``_last_values`` puts the last back.
        reader.allow_duplicate_keys = True
        reader.preserve_quotes = True
        return reader.load(text)
    return json.loads(text)


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
