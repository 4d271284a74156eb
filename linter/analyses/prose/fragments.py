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
from dataclasses import dataclass, replace
from typing import Any, cast

from speclint.analyses.context import Context
from speclint.analyses.schemas.references import located
from speclint.analyses.schemas.schema_catalogs import schema_catalogs
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind, is_changelog
from speclint.parsing.prose import CodeFence, Heading
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
    how: str = BY_FRAGMENT  # what binds it: its members, its section, or its page


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
    corpus: Context,
    document: Document,
    fence: CodeFence,
    data: Any,
    page: tuple[tuple[int, Any], ...] = (),
) -> tuple[Fragment | None, str]:
    """The root document (or an attribute of it) the example ``data`` of ``fence`` shows part
    of; or None and why (``""`` where no root declares any of its members). ``page``: the
    page's examples (line, data), for the root the others are excerpts of."""
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
    if section is not None and section[0] is not None:
        return section
    # An excerpt its members alone bind (two or more of a root's) keeps that binding.
    shown = len(keys) >= FRAGMENT_MINIMUM and any(keys <= r.members.keys() for r in roots)
    scoped = None if shown else _section_fragment(corpus, document, fence, data, keys)
    if scoped is not None:
        return scoped, ""
    if section is not None:
        return section
    if not keys:
        return None, ""
    fitting = _live(corpus, document, _distinct(r for r in roots if keys <= r.members.keys()))
    alike = ""
    if not fitting:
        paged = _by_page(corpus, document, _page_of(corpus, document, fence, page), data, keys)
        if paged is not None:
            called = called_otherwise(document, fence, paged.document)
            return (None, called) if called else (replace(paged, line=fence.line), "")
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
            paged = _by_page(corpus, document, _page_of(corpus, document, fence, page), data, keys)
            if paged is not None and paged.document is root.document:
                called = called_otherwise(document, fence, root.document)
                return (None, called) if called else (replace(paged, line=fence.line), "")
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
    called = called_otherwise(document, fence, root.document)
    if called:
        return None, called
    evidence = f"a fragment of `{root.name}`: members {_listed(keys)} declared by its root"
    if alike:
        evidence += f" ({alike} of its family declare them alike)"
    return Fragment(root.document, "", evidence, fence.line), ""


# The kinds of message a schema's name and a section's title both say: "evaluation-request"
# and "The Subject Search API Request" name two requests of one API.
_MESSAGE_KINDS = frozenset({"request", "response", "reply", "message", "event", "command"})
# Words before a kind that do not name a message: articles, the exchange's form, adjectives
# of an example. "Example request" and "a valid request" say nothing of whose it is.
_STOPS = frozenset(
    {
        "a", "an", "the", "this", "that", "these", "those", "its", "their", "our", "your",
        "of", "for", "to", "in", "on", "with", "and", "or", "as", "by", "from", "is", "are",
        "each", "every", "any", "one", "no",
    }
)  # fmt: skip
_UNNAMING = frozenset(
    {
        "example", "examples", "sample", "non-normative", "normative", "valid", "invalid",
        "http", "https", "json", "yaml", "xml", "api", "full", "minimal", "simple", "basic",
        "complete", "typical", "successful", "failed", "error", "erroneous", "bad", "good",
        "malformed", "incoming", "outgoing", "initial", "final", "first", "second", "next",
        "same", "following", "above", "below", "corresponding", "whole", "entire", "new",
        "original", "raw", "body", "payload", "schema", "object", "empty", "missing",
        "unknown", "partial", "extra", "additional", "duplicate", "wrong", "unsupported",
        "large", "small", "long", "short", "non",
    }
)  # fmt: skip
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_ANCHOR = re.compile(r"\{#[^}]*\}")


def _name_words(text: str) -> list[str]:
    """A name's words, lower case and singular: ``evaluationRequest.schema.json`` is
    evaluation, request."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    words = [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words]


def _message_names(text: str) -> list[tuple[str, frozenset[str]]]:
    """The messages ``text`` names: kind and naming words (``_message_phrases``)."""
    return [(kind, naming) for kind, naming, _ in _message_phrases(text)]


def _message_phrases(text: str) -> list[tuple[str, frozenset[str], str]]:
    """The messages ``text`` names: each kind word with the naming words just before it and
    the one next to the kind ("Subject Search API Request" is a request named subject, search,
    after "search"). A kind with no naming word before it ("Example request") names none."""
    words = _WORD.findall(text)
    found: list[tuple[str, frozenset[str], str]] = []
    for at, word in enumerate(words):
        kind = _name_words(word)
        if len(kind) != 1 or kind[0] not in _MESSAGE_KINDS:
            continue
        naming: list[str] = []
        head = ""
        for before in reversed(words[max(0, at - 4) : at]):
            lowered = before.lower()
            if lowered in _STOPS or (lowered in _UNNAMING and naming):
                break  # "the Subject Search" stops at "the", "sends a request" at "a"
            if lowered not in _UNNAMING:
                naming.extend(_name_words(before))
                head = head or _name_words(before)[-1]
        if naming:
            found.append((kind[0], frozenset(naming), head))
    return found


def called_otherwise(document: Document, fence: CodeFence, root: Document) -> str:
    """Why the words around ``fence`` say it is another message than ``root``, or ``""``.

    A root named as one message of an API ("evaluation-request", a ``title`` "Evaluation
    Request") shares its top-level members with the API's other requests (a search request
    sends a subject, an action and a resource too, with their own rules). The nearest of the
    fence's section titles (its own, an earlier one of its parent section, the ones it is
    under) that names a message of that kind, or an operation the page names such a message
    after ("Subject search with context" where the page speaks of a "subject search
    request"), decides: where it names another, the fence is that other message, and its
    member fit alone binds it to nothing."""
    title = root.data.get("title") if isinstance(root.data, dict) else None
    stem = re.sub(r"(\.schema)?\.(json|ya?ml)$", "", root.path.rsplit("/", 1)[-1])
    own: dict[str, set[str]] = {}
    for name in (stem, title if isinstance(title, str) else ""):
        for kind, naming in _message_names(" ".join(_name_words(name))):
            own.setdefault(kind, set()).update(naming)
    if not own or fence.heading is None or document.prose is None:
        return ""
    # The operations the page names other messages of the root's kind after: the word just
    # before the kind ("search" of "subject search request").
    others = {
        head
        for kind, naming, head in _page_messages(document)
        if kind in own and not naming & own[kind]
    }
    for heading in _titles_above(document.prose.headings, fence.heading):
        said = [(k, n) for k, n in _message_names(heading.text) if k in own]
        words = set(_name_words(heading.text))
        if any(n & own[k] for k, n in said) or any(words & n for n in own.values()):
            return ""  # the section names the root's own message
        named = [f"a {k} named {_listed(n)}" for k, n in said]
        named = named or [
            f"`{w}` (as the page names another message)" for w in sorted(words & others)
        ]
        if not named:
            continue
        text = _ANCHOR.sub("", heading.text).strip()
        return (
            f"the words call it {named[0]} under the heading `{text}`, not the message "
            f"`{root.path.rsplit('/', 1)[-1]}` is named for: they share members, not rules"
        )
    return ""


def _page_messages(document: Document) -> tuple[tuple[str, frozenset[str], str], ...]:
    """The messages a page names (kind, naming words, the word just before the kind)."""

    def read() -> tuple[tuple[str, frozenset[str], str], ...]:
        found = []
        for line in (document.text or "").splitlines():
            for kind, naming, head in _message_phrases(line):
                found.append((kind, naming, head))
        return tuple(found)

    return document.remember("message_names", read)


def _titles_above(headings: Any, heading: Heading) -> list[Heading]:
    """A fence's section titles, nearest first: its own, the earlier ones of its parent
    section at its level ("The Search Request" over "Example"), then those it is under."""
    chain = _heading_chain(headings, heading)
    parent = chain[-2].line if len(chain) > 1 else 0
    # Only a bare example title ("Example (non-normative)") shows what the section before
    # it defines; a titled section ("Invalid field types") is its own.
    bare = set(_name_words(_ANCHOR.sub("", heading.text))) <= _UNNAMING | _STOPS
    siblings = [
        h for h in headings if bare and parent < h.line < heading.line and h.level == heading.level
    ]
    return [heading, *reversed(siblings), *reversed(chain[:-1])]


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
        listed = _list_branch(corpus, (document, pointer))
        if listed is None:
            return False
        document, pointer = listed
        node = resolve_pointer(document.data, pointer)
        items = node.get("items") if isinstance(node, dict) else None
        if not isinstance(items, dict):
            return True
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
    entry = _entry(corpus, (document, pointer)) if "items" not in node else None
    if entry is None:
        return False
    return all(_fits(corpus, entry, v, depth - 1) for v in data.values())


def _list_branch(corpus: Context, place: Place) -> Place | None:
    """The schema at ``place``, or its ``oneOf``/``anyOf`` branch, that is a list's (an
    ``items``, or ``type: array``): "a list or a map" schemas take a list there."""
    document, pointer = _followed(corpus, *place)
    node = resolve_pointer(document.data, pointer)
    if not isinstance(node, dict):
        return None
    types = node.get("type")
    if "items" in node or types == "array" or (isinstance(types, list) and "array" in types):
        return document, pointer
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        for index in range(len(branches) if isinstance(branches, list) else 0):
            inner = _followed(corpus, document, f"{pointer}/{keyword}/{index}")
            branch = resolve_pointer(inner[0].data, inner[1])
            if isinstance(branch, dict) and ("items" in branch or branch.get("type") == "array"):
                return inner
    return None


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
    where = located(corpus, reference) if reference is not None else None
    target = corpus.documents.get(where[0]) if where is not None else None
    if where is None or target is None or not target.usable:
        return None
    return target, where[1]


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


# -- Section scope (issue 46, round 4): the headings above a fence place it in a root -----------

BY_SECTION = "section scope"
BY_PAGE = "page root"
# A heading that names a member in words: "Services top-level element", "The `build` section".
_MEMBER_WORDS = re.compile(
    r"\s+(?:top[- ]level\s+)?(?:elements?|sections?|keys?|attributes?|fields?|"
    r"propert(?:y|ies)|blocks?|objects?)\s*$",
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"`([^`\s]+)`")
_NAME = re.compile(r"^[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*$")


@dataclass(frozen=True)
class Step:
    """One member a heading of a section names, from the root down."""

    name: str
    place: Place  # the member's schema
    value: Place  # what one of its entries is: the schema itself, or its map's / list's entry
    line: int  # the heading that names it
    entries: bool  # a map (``patternProperties``, ``additionalProperties``) or list of entries


@dataclass(frozen=True)
class Scope:
    """Where a section of a page is in a root document: the members its headings name."""

    root: Root
    steps: tuple[Step, ...]

    def container(self, index: int) -> Place:
        """The object whose member ``steps[index]`` is: the root, or the step above's entry."""
        return (self.root.document, "") if index == 0 else self.steps[index - 1].value

    @property
    def path(self) -> str:
        return ".".join(s.name for s in self.steps)


def section_schema(corpus: Context, document: Document, heading: Heading | None) -> Scope | None:
    """The place in a root document the chain of headings above (and at) ``heading`` names: a
    heading naming a root member (in a code span, bare, or in words, "Services top-level
    element"), then sub-headings naming members of that member's value, through maps
    (``additionalProperties``, ``patternProperties``) and lists' ``items``; headings that name
    nothing there ("Long syntax", "Examples") are passed over. None where no root has it, or
    two different roots do. Other analyses (type claims) read a section's schema here too."""
    prose = document.prose
    if heading is None or prose is None:
        return None
    roots = [
        r
        for r in document_roots(corpus)
        if corpus.versions.comparable(document.path, r.document.path)
    ]
    chain = _heading_chain(prose.headings, heading)
    found: dict[str, Scope] = {}
    for root in _live(corpus, document, _distinct(roots)):
        steps = _scope_steps(corpus, root, chain)
        if steps:
            found.setdefault(root.digest, Scope(root, steps))
    if len(found) != 1:
        return None
    return next(iter(found.values()))


def _heading_chain(headings: Any, heading: Heading) -> list[Heading]:
    """The headings a section is under, outermost first, ending with its own."""
    chain = [heading]
    level = heading.level
    for other in reversed([h for h in headings if h.line < heading.line]):
        if other.level < level:
            chain.append(other)
            level = other.level
    return chain[::-1]


def _heading_names(text: str) -> tuple[list[list[str]], bool, bool]:
    """The member paths a heading names; whether it says so plainly (a code span, or words
    such as "top-level element"); and whether in those words."""
    spans = _CODE_SPAN.findall(text)
    if spans:
        return [s.split(".") for s in spans if _NAME.match(s)], True, False
    bare = _MEMBER_WORDS.sub("", text.strip())
    worded = bare != text.strip()
    bare = re.sub(r"^the\s+", "", bare, flags=re.IGNORECASE)
    parts = re.split(r"\s*(?:,|/|\band\b)\s*", bare)
    return [p.split(".") for p in parts if _NAME.match(p)], worded, worded


def _named(members: Mapping[str, Place], name: str, worded: bool) -> str | None:
    """The member ``name`` names: itself, else, in words ("Services top-level element"), the
    one member equal to it but for case. A bare title-case word ("# Search") is a title."""
    if name in members:
        return name
    if not worded:
        return None
    alike = [m for m in members if m.lower() == name.lower()]
    return alike[0] if len(alike) == 1 else None


def _scope_steps(corpus: Context, root: Root, chain: list[Heading]) -> tuple[Step, ...]:
    steps: list[Step] = []
    for heading in chain:
        paths, plain, worded = _heading_names(heading.text)
        for path in paths:
            walked = _steps_of(corpus, root, steps, path, heading.line, plain, worded)
            if walked:
                steps.extend(walked)
                break
    return tuple(steps)


def _steps_of(
    corpus: Context,
    root: Root,
    above: list[Step],
    path: list[str],
    line: int,
    plain: bool,
    worded: bool,
) -> list[Step]:
    """The steps a heading's member path takes below ``above``; [] where one is not declared.
    A root member named by a generic word alone ("## Name") needs the heading to say so."""
    if not above and len(path) == 1 and path[0].lower() in GENERIC_MEMBERS and not plain:
        return []
    steps: list[Step] = []
    for name in path:
        if not above and not steps:
            members: Mapping[str, Place] | None = root.members
        else:
            members = _members(corpus, *(steps or above)[-1].value)
        member = _named(members, name, worded) if members else None
        if member is None or members is None:
            return []
        place = members[member]
        entry = _entry(corpus, place)
        steps.append(Step(member, place, entry or place, line, entry is not None))
    return steps


def _entry(corpus: Context, place: Place) -> Place | None:
    """The schema of one entry of a map or list schema at ``place``: its ``items``, or, where
    it declares no members of its own, its one ``patternProperties`` schema or its
    ``additionalProperties``; None for any other schema."""
    document, pointer = _followed(corpus, *place)
    node = resolve_pointer(document.data, pointer)
    if not isinstance(node, dict):
        return None
    if isinstance(node.get("items"), dict):
        return document, f"{pointer}/items"
    if node.get("properties"):
        return None
    patterns = node.get("patternProperties")
    if isinstance(patterns, dict):
        schemas = [k for k, v in patterns.items() if isinstance(v, dict)]
        if len(schemas) == 1:
            return document, f"{pointer}/patternProperties/{escape_token(str(schemas[0]))}"
    if isinstance(node.get("additionalProperties"), dict):
        return document, f"{pointer}/additionalProperties"
    return None


def _section_fragment(
    corpus: Context, document: Document, fence: CodeFence, data: Any, keys: frozenset[str]
) -> Fragment | None:
    """A fence bound by the section it is in (:func:`section_schema`): a member of the object
    a step is in, shown with that member (``annotations: {...}`` under ``## annotations`` of
    the services page); entries of a scoped map (``web: {image: ...}``: a service); or the
    value of the section's member."""
    scope = section_schema(corpus, document, fence.heading)
    if scope is None:
        return None
    name = scope.root.name
    at = f"in the section of `{scope.path}`"
    if keys:
        for index in reversed(range(len(scope.steps))):
            step = scope.steps[index]
            declared = (
                scope.root.members if index == 0 else _members(corpus, *scope.container(index))
            )
            if declared and step.name in keys and keys <= declared.keys():
                evidence = (
                    f"a fragment of `{name}` {at}: member `{step.name}` shown with its object"
                )
                container = _followed(corpus, *scope.container(index))
                return Fragment(*container, evidence, step.line, how=BY_SECTION)
        for step in reversed(scope.steps):
            if _entries_of(corpus, step, data):
                evidence = f"entries of `{step.name}` of `{name}` {at}"
                return Fragment(*step.place, evidence, step.line, how=BY_SECTION)
    last = scope.steps[-1]
    if _value_of(corpus, last.place, data):
        evidence = f"the value of `{scope.path}` of `{name}` {at}"
        return Fragment(*last.place, evidence, last.line, whole=True, how=BY_SECTION)
    return None


def _entries_of(corpus: Context, step: Step, data: Any) -> bool:
    """Whether ``data`` is entries of the map ``step`` is: objects of the entries' shape,
    under keys its entries do not declare as members."""
    if not step.entries or not isinstance(data, dict) or not data:
        return False
    document, pointer = _followed(corpus, *step.place)
    node = resolve_pointer(document.data, pointer)
    if not isinstance(node, dict) or "items" in node:
        return False
    own = _members(corpus, *step.value) or {}
    if any(str(k) in own for k in data):
        return False
    return all(
        isinstance(v, dict) and v and _fits(corpus, step.value, v, _FIT_DEPTH)
        for v in data.values()
    )


# -- Page context: the root the other examples of a page are excerpts of ------------------------

PAGE_ANCHORS = 2  # other examples of a page that must be excerpts of one root to bind by it


def page_root(
    corpus: Context,
    document: Document,
    examples: tuple[tuple[int, Any], ...],
    line: int,
) -> Root | None:
    """The one root two or more of a page's ``examples`` (line, data) other than the one at
    ``line`` are plain excerpts of: every top-level member declared by it (its extension
    members too), two or more of them not generic, or one whose value has the shape its
    schema declares three levels down."""
    key = f"fragment_page_anchors:{document.path}"
    anchors = cast("dict[str, tuple[Root, set[int]]] | None", corpus.memo.get(key))
    if anchors is None:
        anchors = {}
        roots = [
            r
            for r in document_roots(corpus)
            if corpus.versions.comparable(document.path, r.document.path)
        ]
        for root in _live(corpus, document, _distinct(roots)):
            for at, data in examples:
                if _anchors(corpus, root, data):
                    anchors.setdefault(root.digest, (root, set()))[1].add(at)
        corpus.memo[key] = anchors
    found = [root for root, lines in anchors.values() if len(lines - {line}) >= PAGE_ANCHORS]
    return found[0] if len(found) == 1 else None


def _anchors(corpus: Context, root: Root, data: Any) -> bool:
    if not isinstance(data, dict) or not data:
        return False
    keys = {str(k) for k in data}
    if not all(k in root.members or _extension(root, k) for k in keys):
        return False
    own = [k for k in keys if k in root.members and k not in GENERIC_MEMBERS]
    if len(own) >= FRAGMENT_MINIMUM:
        return True
    return len(own) == 1 and all(
        isinstance(data[k], (dict, list))
        and data[k]
        and _fits(corpus, root.members[k], data[k], _FIT_DEPTH)
        for k in data
        if str(k) in own
    )


def _extension(root: Root, key: str) -> bool:
    """Whether the root takes ``key`` by a ``patternProperties`` pattern (``^x-``)."""
    patterns = root.document.data.get("patternProperties")
    for pattern in patterns if isinstance(patterns, dict) else ():
        try:
            if re.search(str(pattern), key):
                return True
        except re.error:
            continue
    return False


def _closed(root: Root) -> bool:
    return root.document.data.get("additionalProperties") is False


def near_member(name: str, members: Mapping[str, Any] | frozenset[str]) -> str | None:
    """The one member ``name`` misses by case, a plural's ``s``, or one letter (an edit)."""
    found = {m for m in members if m != name and _near(name, m)}
    return next(iter(found)) if len(found) == 1 else None


def _near(a: str, b: str) -> bool:
    x, y = a.lower(), b.lower()
    if x == y or x + "s" == y or y + "s" == x:
        return True
    if min(len(x), len(y)) < 4 or abs(len(x) - len(y)) > 1:
        return False
    if len(x) == len(y):
        return sum(p != q for p, q in zip(x, y, strict=True)) == 1
    short, long = (x, y) if len(x) < len(y) else (y, x)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _by_page(
    corpus: Context, document: Document, root: Root | None, data: Any, keys: frozenset[str]
) -> Fragment | None:
    """A fence bound by its page's root (:func:`page_root`): its top-level members all
    declared there, or all but one that misses a member of the closed root (case, plural, a
    letter) and whose value has that member's shape."""
    if root is None or not isinstance(data, dict) or not keys:
        return None
    if is_changelog(document.path):
        return None  # a changelog shows the shapes a release left behind
    undeclared = [k for k in keys if k not in root.members and not _extension(root, k)]
    if not undeclared:
        if not (keys & root.members.keys()) - GENERIC_MEMBERS or not all(
            _consistent(corpus, root.members[k], data[k], _FIT_DEPTH)
            for k in keys
            if k in root.members
        ):
            return None
        evidence = (
            f"a fragment of `{root.name}`, as other examples of this page are: "
            f"members {_listed(keys)} declared by its root"
        )
        return Fragment(root.document, "", evidence, 0, how=BY_PAGE)
    if len(undeclared) != 1 or not _closed(root):
        return None
    (slip,) = undeclared
    meant = near_member(slip, root.members)
    value = data.get(slip)
    if (
        meant is None
        or meant in keys
        or not isinstance(value, (dict, list))
        or not value
        or not _fits(corpus, root.members[meant], value, _FIT_DEPTH)
    ):
        return None
    evidence = (
        f"a fragment of `{root.name}`, as other examples of this page are: `{slip}` has the "
        f"shape of its root's `{meant}`"
    )
    return Fragment(root.document, "", evidence, 0, how=BY_PAGE)


def _page_of(
    corpus: Context, document: Document, fence: CodeFence, page: tuple[tuple[int, Any], ...]
) -> Root | None:
    """The page's root for ``fence`` (:func:`page_root`)."""
    return page_root(corpus, document, page, fence.line) if page else None


def _consistent(corpus: Context, place: Place, data: Any, depth: int) -> bool:
    """Whether ``data`` is of the kind (object, list, plain value) the schema at ``place``
    allows, and so at each member it declares, ``depth`` levels down: the members it does not
    declare are passed over (they may be the example's defect), but a plain value where the
    schema wants an object is another document's member of that name (a process's
    ``inputs: {leg: "id"}`` is not its description's ``inputs: {leg: {...}}``)."""
    if depth <= 0:
        return True
    document, pointer = _followed(corpus, *place)
    node = resolve_pointer(document.data, pointer)
    if not isinstance(node, dict):
        return True
    kinds = _kinds(corpus, (document, pointer))
    given = "object" if isinstance(data, dict) else "array" if isinstance(data, list) else "plain"
    if kinds and given not in kinds:
        return False
    if isinstance(data, dict):
        declared = _members(corpus, document, pointer) or {}
        entry = None if declared else _entry(corpus, (document, pointer))
        for key, value in data.items():
            inner = declared.get(str(key)) or entry
            if inner is not None and not _consistent(corpus, inner, value, depth - 1):
                return False
    return True


def _kinds(corpus: Context, place: Place) -> set[str]:
    """The kinds of value (object, array, plain) a schema's ``type`` (or its ``oneOf``/
    ``anyOf`` branches' types) allows; empty where it does not say."""
    document, pointer = _followed(corpus, *place)
    node = resolve_pointer(document.data, pointer)
    if not isinstance(node, dict):
        return set()
    found: set[str] = set()
    types = node.get("type")
    for name in types if isinstance(types, list) else [types] if isinstance(types, str) else []:
        found.add(name if name in ("object", "array") else "plain")
    if not found and ("properties" in node or "patternProperties" in node):
        found.add("object")
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        for index in range(len(branches) if isinstance(branches, list) else 0):
            inner = _kinds(corpus, (document, f"{pointer}/{keyword}/{index}"))
            if not inner:
                return set()  # a branch that does not say allows anything
            found |= inner
    parts = node.get("allOf")
    for index in range(len(parts) if isinstance(parts, list) else 0):
        inner = _kinds(corpus, (document, f"{pointer}/allOf/{index}"))
        if inner:
            found = found & inner if found else inner  # every part holds: what they all allow
    return found
