"""Examples that show part of a root document: an excerpt of a file one schema describes.

Specifications of a configuration or document format have one *root* schema (a pipeline file
whose root declares ``pipelines``, ``variables``, ``steps``) and show excerpts of it in prose:
``pipelines: {build: {...}}``. Such a fence is a *partial document* of that root (issue 46,
item 3, example-invalid's ``by-fragment`` binding): every member it shows is validated at every
depth (unknown members of closed objects, enum values, types), and the root's members it leaves
out are not required. An object it shows inside is judged whole, its ``required`` members too,
unless it gives under half of them (a sketch, as for every binding by the example).

A schema file's root is a *root document* when it declares two or more members and no other
corpus document uses it as the value of a member (a ``$ref`` to it under ``properties``,
``items``... makes it a part of something else; one from an OpenAPI or AsyncAPI document makes
it a message), or when a schema catalog lists it (it describes files by a pattern).

A fence binds to a root when every one of its top-level members is declared by that root (its
``properties``, through ``allOf``, ``anyOf``, ``oneOf``, ``then``, ``else`` and ``$ref``) and

- it has two or more of them, not all generic (``name``, ``id``, ``type``...); or
- it has one, not generic, whose value is an object or a list (a plain value, ``priority: 1``,
  shows too little) and of the shape its schema declares three levels down (objects with half
  of their members declared there: a registry index's ``packs`` is not a lockfile's), and the
  page names the root (its file name, or its ``title`` as a heading or in a code span); or
- it sits in an *attribute section*: a heading that is a member's path (``## `init_steps```,
  ``### steps.init``) and a fence whose top-level member is that attribute.

A fence in an attribute section whose content is the *value* of that attribute (a list of steps
under ``## `init_steps```, the members of ``steps.init`` under ``### steps.init``) binds through
the root to that attribute's schema, where its shape is that schema's (an object with half of
its members declared there, a list where an array is).

Schemas of one folder that declare each member the fence shows alike (a family: a minimal, an
extended, and a by-reference variant of one document) are one root for it: any of them gives
the same verdict. A fence whose every member is a string where its schema declares an object or
array is another form of the document (its members' digests), not an excerpt.

Quiet where it is not sure: two different roots (identical copies are one) fit the fence, or a
definition (a ``$defs``/``definitions`` member) declares every member too, so the fence may be
that part rather than the root's excerpt; then the fence is left to the other bindings.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from speclint.analyses.context import Context
from speclint.analyses.schema_catalogs import schema_catalogs
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.prose import CodeFence
from speclint.parsing.structured import escape_token, resolve_pointer, split_pointer
from speclint.parsing.versions import newest_first, version_place

BY_FRAGMENT = "root fragment"
# Member names so common that one, or several of them alone, say nothing of whose they are.
GENERIC_MEMBERS = frozenset(
    {
        "name",
        "id",
        "type",
        "kind",
        "version",
        "description",
        "title",
        "label",
        "labels",
        "metadata",
        "spec",
        "status",
        "value",
        "values",
        "data",
        "enabled",
        "tags",
        "key",
        "url",
        "path",
    }
)
FRAGMENT_MINIMUM = 2  # members a fragment needs when nothing on the page names its root
_FIT_DEPTH = 3  # levels of objects a one-member fragment's value must have the shape of
_DEPTH = 64  # schemas deep (`$ref`s, branches) before what one declares is "not known"
# Where a `$ref` makes its target the value of a member (a part of another schema).
_PART_KEYWORDS = frozenset(
    {"properties", "patternProperties", "additionalProperties", "items", "prefixItems"}
)
# A heading that is a member's path: `init_steps`, `steps.init`, then at most a note in
# parentheses or after a dash or colon ("`retries` (optional)").
_ATTRIBUTE_HEADING = re.compile(
    r"^\s*([A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*)\s*(?:$|[(:\u2013\u2014-])"
)


# A schema: its document and the pointer to it there.
Place = tuple[Document, str]


@dataclass(frozen=True)
class Fragment:
    """What a fence shows of a root document: the schema it binds to and why."""

    document: Document
    pointer: str  # the root (""), an attribute's schema, or the object an attribute is in
    evidence: str
    line: int  # where the tie is read: the fence, or the heading of an attribute section
    whole: bool = False  # the fence is an attribute's value, not an excerpt of members


@dataclass(frozen=True)
class Root:
    document: Document
    members: Mapping[str, Place]  # member -> where its schema is
    places: frozenset[tuple[str, str]]  # the schemas (path, pointer) its members are read from
    digest: str  # the root's JSON text: identical copies are one root

    @property
    def name(self) -> str:
        return posixpath.basename(self.document.path)


def root_fragment(
    corpus: Context, document: Document, fence: CodeFence, data: Any
) -> tuple[Fragment | None, str]:
    """The root document (or an attribute of it) the example ``data`` of ``fence`` shows part
    of; or None and why (``""`` where no root declares any of its members)."""
    if not isinstance(data, (dict, list)) or not data:
        return None, ""
    roots = [
        r
        for r in document_roots(corpus)
        if corpus.versions.comparable(document.path, r.document.path)
    ]
    if not roots:
        return None, ""
    keys = frozenset(str(k) for k in data) if isinstance(data, dict) else frozenset()
    section = _attribute_section(corpus, document, fence, roots, data, keys)
    if section is not None:
        return section
    if not keys:
        return None, ""
    fitting = _live(corpus, document, _distinct(r for r in roots if keys <= r.members.keys()))
    alike = ""
    if not fitting:
        if any(keys & r.members.keys() for r in roots):
            return None, "no root document's schema declares every top-level member it has"
        return None, ""
    if len(fitting) > 1:
        family = _one_family(corpus, fitting, keys)
        if family is None:
            names = ", ".join(sorted(f"`{r.document.path}`" for r in fitting)[:4])
            return None, f"its members fit the roots of several schemas ({names})"
        alike = ", ".join(f"`{r.name}`" for r in fitting if r is not family)
        fitting = [family]
    (root,) = fitting
    if isinstance(data, dict) and _stands_for_members(corpus, root, data):
        return None, (
            f"each member is a string where `{root.name}` declares an object or array: another "
            "form of the document (its members' digests, references or names), not an excerpt"
        )
    distinctive = keys - GENERIC_MEMBERS
    if not distinctive:
        return None, f"its members are generic ({_listed(keys)}): they do not say whose they are"
    if len(keys) < FRAGMENT_MINIMUM:
        (only,) = keys
        value = next(iter(data.values())) if isinstance(data, dict) else None
        if not (isinstance(value, (dict, list)) and value):
            return None, f"one member (`{only}`) of `{root.name}`'s root, with a plain value"
        if not _names_root(document, root):
            return None, (
                f"one member (`{only}`) of `{root.name}`'s root, and the page names no such file"
            )
        if not _fits(corpus, root.members[only], value, _FIT_DEPTH):
            return None, (
                f"one member (`{only}`) of `{root.name}`'s root, whose value is not of the "
                "shape declared there"
            )
    part = _declaring_definition(corpus, document, root, keys)
    if part:
        return None, f"its members are also those of the definition `{part}`"
    evidence = f"a fragment of `{root.name}`: members {_listed(keys)} declared by its root"
    if alike:
        evidence += f" ({alike} of its family declare them alike)"
    return Fragment(root.document, "", evidence, fence.line), ""


def _attribute_section(
    corpus: Context,
    document: Document,
    fence: CodeFence,
    roots: list[Root],
    data: Any,
    keys: frozenset[str],
) -> tuple[Fragment | None, str] | None:
    """A fence under a heading that is a root member's path: the attribute shown as a member
    (an excerpt of the root, or of the object it is in), or as its value. None where the
    heading is no path of a root."""
    heading = fence.heading
    matched = _ATTRIBUTE_HEADING.match(heading.text) if heading is not None else None
    if heading is None or matched is None:
        return None
    path = matched.group(1).split(".")
    if len(path) == 1 and path[0] in GENERIC_MEMBERS:
        return None
    found: dict[str, tuple[Root, list[Place]]] = {}
    for root in roots:
        steps = _walk(corpus, root, path)
        if steps is not None:
            found.setdefault(root.digest, (root, steps))
    live = {r.digest for r in _live(corpus, document, [r for r, _ in found.values()])}
    found = {digest: found[digest] for digest in found if digest in live}
    if not found:
        return None
    if len(found) > 1:
        names = ", ".join(sorted(f"`{r.document.path}`" for r, _ in found.values())[:4])
        return None, f"its heading names a member of several root schemas ({names})"
    ((root, steps),) = found.values()
    written = ".".join(path)
    at = f"under the heading `{written}`"
    if keys == {path[0]}:
        evidence = f"a fragment of `{root.name}` {at}: member `{path[0]}` declared by its root"
        return Fragment(root.document, "", evidence, heading.line), ""
    if len(path) > 1 and keys == {path[-1]}:
        parent = steps[-2]
        evidence = (
            f"a fragment of `{root.name}` {at}: member `{path[-1]}` of `{'.'.join(path[:-1])}`"
        )
        return Fragment(*parent, evidence, heading.line), ""
    if not _value_of(corpus, steps[-1], data):
        return None, (
            f"its heading names `{written}` of `{root.name}`, and it is neither that member "
            "nor a value of its shape"
        )
    evidence = f"the value of `{written}` of `{root.name}` {at}"
    return Fragment(*steps[-1], evidence, heading.line, whole=True), ""


def _walk(corpus: Context, root: Root, path: list[str]) -> list[Place] | None:
    """The schema of each step of a member path from a root, or None where a step is not
    declared: a named member, else (below the root) a map's ``additionalProperties`` schema."""
    steps: list[Place] = []
    members: Mapping[str, Place] | None = root.members
    place: Place = (root.document, "")
    for position, name in enumerate(path):
        if position:
            members = _members(corpus, *place)
        if members is not None and name in members:
            place = members[name]
        else:
            document, pointer = _followed(corpus, *place)
            node = resolve_pointer(document.data, pointer)
            extra = node.get("additionalProperties") if isinstance(node, dict) else None
            if not position or not isinstance(extra, dict):
                return None
            place = (document, f"{pointer}/additionalProperties")
        steps.append(place)
    return steps


def _fits(corpus: Context, place: Place, data: Any, depth: int) -> bool:
    """Whether ``data`` has the shape of the schema at ``place`` down to ``depth`` levels of
    objects: an object gives half of its members among those declared there (or is a map whose
    values fit its ``additionalProperties``), a list's objects fit its ``items``."""
    if depth <= 0 or not isinstance(data, (dict, list)):
        return True
    document, pointer = _followed(corpus, *place)
    node = resolve_pointer(document.data, pointer)
    if not isinstance(node, dict):
        return False
    if isinstance(data, list):
        items = node.get("items")
        if not isinstance(items, dict):
            return node.get("type") == "array"
        inner: Place = (document, f"{pointer}/items")
        return all(_fits(corpus, inner, item, depth - 1) for item in data)
    declared = _members(corpus, document, pointer)
    if declared:
        given = [str(k) for k in data]
        if len(set(given) & declared.keys()) * 2 < len(given):
            return False
        return all(
            _fits(corpus, declared[str(k)], v, depth - 1)
            for k, v in data.items()
            if str(k) in declared
        )
    extra = node.get("additionalProperties")
    if not isinstance(extra, dict):
        return False
    inner = (document, f"{pointer}/additionalProperties")
    return all(_fits(corpus, inner, v, depth - 1) for v in data.values())


def _value_of(corpus: Context, place: Place, data: Any) -> bool:
    """Whether ``data`` has the shape of the schema at ``place``: an object with half of its
    members declared there (or a map's), a list where an array is."""
    document, pointer = _followed(corpus, *place)
    node = resolve_pointer(document.data, pointer)
    if not isinstance(node, dict):
        return False
    if isinstance(data, list):
        return node.get("type") == "array" or "items" in node
    if not isinstance(data, dict) or not data:
        return False
    declared = _members(corpus, document, pointer)
    if declared:
        return len(set(map(str, data)) & declared.keys()) * 2 >= len(data)
    return isinstance(node.get("additionalProperties"), dict)


def document_roots(corpus: Context) -> tuple[Root, ...]:
    """The corpus's root documents (module docstring). Made once per run."""
    cached = corpus.memo.get("fragment_roots")
    if cached is not None:
        return cast(tuple[Root, ...], cached)
    parts: set[str] = set()
    for reference in corpus.references.references:
        if (
            reference.outcome != "ok"
            or reference.target_path is None
            or reference.target_path == reference.path
            or reference.target_pointer not in (None, "")
        ):
            continue
        referrer = corpus.documents.get(reference.path)
        tokens = set(split_pointer(reference.pointer))
        if (referrer is not None and referrer.kind is not DocumentKind.SCHEMA) or (
            tokens & _PART_KEYWORDS
        ):
            parts.add(reference.target_path)
    listed = schema_catalogs(corpus).listed
    found: list[Root] = []
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        path = document.path
        if path in corpus.derived or not isinstance(document.data, dict):
            continue
        if path in parts and path not in listed:
            continue
        seen: set[tuple[str, str]] = set()
        members = _members(corpus, document, "", seen)
        if members is None or len(members) < 2:
            continue
        digest = json.dumps(document.data, sort_keys=True, default=str)
        found.append(Root(document, members, frozenset(seen), digest))
    result = tuple(found)
    corpus.memo["fragment_roots"] = result
    return result


def _members(
    corpus: Context, document: Document, pointer: str, seen: set[tuple[str, str]] | None = None
) -> dict[str, Place] | None:
    """The members the schema at ``pointer`` of ``document`` declares, each with where its
    schema is (``$ref``\\s followed through the corpus), or None where a reference leaves the
    corpus. ``seen``: the places walked, filled in."""
    found: dict[str, Place] = {}
    walked = seen if seen is not None else set()

    def walk(document: Document, at: str, depth: int) -> bool:
        if (document.path, at) in walked:
            return True  # read already (a cycle, or a schema two branches share): once is all
        node = resolve_pointer(document.data, at)
        if not isinstance(node, dict) or depth > _DEPTH:
            return False
        walked.add((document.path, at))
        if isinstance(node.get("$ref"), str):
            target = _referenced(corpus, document, at)
            if target is None or not walk(*target, depth + 1):
                return False
        declared = node.get("properties")
        if isinstance(declared, dict):
            for name in declared:
                found.setdefault(
                    str(name), (document, f"{at}/properties/{escape_token(str(name))}")
                )
        for keyword in ("allOf", "anyOf", "oneOf"):
            branches = node.get(keyword)
            for index in range(len(branches) if isinstance(branches, list) else 0):
                if not walk(document, f"{at}/{keyword}/{index}", depth + 1):
                    return False
        for keyword in ("then", "else"):
            if isinstance(node.get(keyword), dict) and not walk(
                document, f"{at}/{keyword}", depth + 1
            ):
                return False
        return True

    return found if walk(document, pointer, 0) else None


def _referenced(corpus: Context, document: Document, pointer: str) -> Place | None:
    """Where the ``$ref`` of the schema at ``pointer`` leads, when it resolves in the corpus."""
    reference = corpus.references.at(document.path, f"{pointer}/$ref")
    if reference is None or reference.outcome != "ok" or reference.target_path is None:
        return None
    target = corpus.documents.get(reference.target_path)
    if target is None or not target.usable:
        return None
    return target, reference.target_pointer or ""


def _followed(corpus: Context, document: Document, pointer: str) -> Place:
    """Where a schema's ``$ref`` chain ends (the schema itself when it has none)."""
    place: Place = (document, pointer)
    for _ in range(_DEPTH):
        node = resolve_pointer(place[0].data, place[1])
        if not isinstance(node, dict) or not isinstance(node.get("$ref"), str):
            break
        target = _referenced(corpus, *place)
        if target is None:
            break
        place = target
    return place


def _one_family(corpus: Context, roots: list[Root], keys: frozenset[str]) -> Root | None:
    """The root to judge a fence by where several fit it but agree on it: a family of schemas
    of one document (a minimal and an extended one, one written with references) that declare
    each member the fence shows alike, or by a reference the corpus cannot follow (an ``$id``
    -relative `/lengths`: it says nothing against the others). An excerpt is judged by its
    members' schemas only (its root's ``required`` is not asked), so any of them gives the
    same verdict: the one that declares the most of them readably, then the fewest members
    (the minimal one), then by path. A family is kept in one folder: schemas of other folders
    are other documents' (two services' `job.schema.json`), left ambiguous. None where two
    declare a member differently."""
    if len({posixpath.dirname(r.document.path) for r in roots}) != 1:
        return None
    known: dict[str, int] = {}
    for key in sorted(keys):
        texts = set()
        for root in roots:
            text = _readable(corpus, root.members[key])
            if text is not None:
                texts.add(text)
                known[root.document.path] = known.get(root.document.path, 0) + 1
        if len(texts) != 1:
            return None
    return min(
        roots, key=lambda r: (-known.get(r.document.path, 0), len(r.members), r.document.path)
    )


def _readable(corpus: Context, place: Place) -> str | None:
    """A member's schema as JSON text, its ``$ref`` chain followed; None where it ends in a
    reference the corpus cannot follow. One with references of its own inside is read with
    its folder (a relative reference means another file elsewhere)."""
    document, pointer = _followed(corpus, *place)
    node = resolve_pointer(document.data, pointer)
    if isinstance(node, dict) and isinstance(node.get("$ref"), str):
        return None
    text = json.dumps(node, sort_keys=True, default=str)
    return f"{posixpath.dirname(document.path)}:{text}" if '"$ref"' in text else text


def _stands_for_members(corpus: Context, root: Root, data: dict[str, Any]) -> bool:
    """Whether every member of an excerpt (two or more) is a string where its schema declares
    an object or an array: the document written as its members' digests (a content-addressed
    format's "level 1" form), references or file names, not an excerpt of it."""
    if len(data) < 2:
        return False
    for key, value in data.items():
        if not isinstance(value, str):
            return False
        document, pointer = _followed(corpus, *root.members[str(key)])
        node = resolve_pointer(document.data, pointer)
        types = node.get("type") if isinstance(node, dict) else None
        wanted = types if isinstance(types, list) else [types]
        if not wanted or not all(t in ("object", "array") for t in wanted):
            return False
    return True


def _distinct(roots: Iterator[Root] | list[Root]) -> list[Root]:
    """The roots less identical copies (a frozen version folder, a generated copy)."""
    return list({r.digest: r for r in roots}.values())


def _live(corpus: Context, document: Document, roots: list[Root]) -> list[Root]:
    """The roots a page's example is of, frozen versions aside: those of the page's own
    version; else, for a page of no version, the one root of no version (the live file beside
    its release folders); else, where every root is a version of one file, the newest."""
    if len(roots) < 2:
        return roots
    versions = corpus.versions
    own = versions.of(document.path)
    if own:
        same = [r for r in roots if versions.of(r.document.path) == own]
        return same or roots
    unversioned = [r for r in roots if not versions.of(r.document.path)]
    if len(unversioned) == 1:
        return unversioned
    if unversioned:
        return roots
    if len({version_place(r.document.path, versions.of(r.document.path)) for r in roots}) != 1:
        return roots
    newest = newest_first(versions.of(r.document.path) for r in roots)[0]
    return [r for r in roots if versions.of(r.document.path) == newest]


def _names_root(document: Document, root: Root) -> bool:
    """Whether the page names the root: its file name, or its ``title`` as a heading or a
    code span."""
    if root.name in (document.text or ""):
        return True
    title = root.document.data.get("title") if isinstance(root.document.data, dict) else None
    prose = document.prose
    if not isinstance(title, str) or not title.strip() or prose is None:
        return False
    return any(h.text.strip() == title for h in prose.headings) or any(
        c.text == title for c in prose.inline_code
    )


def _declaring_definition(
    corpus: Context, document: Document, root: Root, keys: frozenset[str]
) -> str:
    """A definition (``$defs``, ``definitions``) of the page's version line, other than those
    the root declares its members through, that declares every one of ``keys`` itself, or
    ""."""
    for schema, pointer, declared in _definitions(corpus):
        if (
            keys <= declared
            and (schema.path, pointer) not in root.places
            and corpus.versions.comparable(document.path, schema.path)
        ):
            return split_pointer(pointer)[-1]
    return ""


def _definitions(corpus: Context) -> list[tuple[Document, str, frozenset[str]]]:
    """Each ``$defs``/``definitions`` member of the corpus's schemas with the members it
    declares itself. Made once per run."""
    cached = corpus.memo.get("fragment_definitions")
    if cached is not None:
        return cast(list[tuple[Document, str, frozenset[str]]], cached)
    found: list[tuple[Document, str, frozenset[str]]] = []
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        if document.path in corpus.derived or not isinstance(document.data, dict):
            continue
        for keyword in ("$defs", "definitions"):
            members = document.data.get(keyword)
            for key, member in members.items() if isinstance(members, dict) else ():
                declared = member.get("properties") if isinstance(member, dict) else None
                if isinstance(declared, dict) and declared:
                    pointer = f"/{keyword}/{escape_token(str(key))}"
                    found.append((document, pointer, frozenset(str(k) for k in declared)))
    corpus.memo["fragment_definitions"] = found
    return found


def _listed(keys: frozenset[str]) -> str:
    return ", ".join(f"`{k}`" for k in sorted(keys))
