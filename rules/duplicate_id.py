"""Two schemas with one ``$id``, or an ``$id`` that does not follow the corpus's URL pattern.

What it does
    Collects every schema resource's identifier: each schema file's root ``$id`` (``id`` under
    draft-04) and each embedded resource's, resolved against the base URI in force (JSON Schema
    2020-12 §8.2.1), and reports:

    - the same absolute ``$id`` declared by two schemas (``error``): one finding at the one
      whose ``$id`` does not end with its own file's name (the copied ``$id``), else at the
      second in path order, the other related;
    - a root ``$id`` off the corpus's pattern (``warning``), with the ``$id`` it gives: the
      ``pattern`` option, else inferred when most root ``$id`` values end with their own file's
      name (then one naming another file or version folder is reported);
    - with ``pattern`` set, a schema under ``folder`` with no ``$id`` at all (``info``).

Why is this bad?
    A ``$ref`` names a schema by its ``$id``: with two schemas under one ``$id`` a validator keeps
    one (by load order), so references silently resolve to the wrong file. The usual cause is an
    ``$id`` copied from the schema a new file started from; an ``$id`` off the corpus's pattern is
    published at the wrong address.

Example
    ``schemas/run-request.schema.json``::

        {"$id": "https://example.org/schemas/run.schema.json", "type": "object"}

    FAIL when ``schemas/run.schema.json`` declares the same ``$id``: ``error [duplicate-id] `$id`
    ... is also declared by schemas/run.schema.json ...``

Use instead
    ``"$id": "https://example.org/schemas/run-request.schema.json"``. PASS.

Options
    ``pattern`` (default none: inferred): the ``$id`` of every schema file under ``folder`` (default
    ``""``, the root), with ``{path}``, ``{name}``, ``{stem}``, ``{dir}`` (relative to ``folder``),
    ``{version}``: ``"https://example.org/schemas/{path}"``. ``infer`` (default ``true``): ``false``
    turns inference off. ``majority`` (default 0.8), ``minimum`` (default 5): how many root ``$id``
    values must agree to infer one.

Limitations
    Not conflicts: copies in different version lines, generated bundles, identical copies, one
    schema as YAML and as JSON, embedded metaschemas; editions in one folder
    (``bom-1.3-strict.schema.json``) share the ``$id`` on purpose (an ``info``). A draft in
    ``proposals/`` or ``rfcs/`` conflicts only with another draft.
"""

from __future__ import annotations

import posixpath
import re
import string
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from speclint.analyses.context import Context
from speclint.analyses.repository.provenance import same_when_converted
from speclint.analyses.schemas.references import file_uri
from speclint.common.findings import Finding, Location, Severity, headed
from speclint.model.corpus import Document
from speclint.parsing.keyword_positions import (
    Position,
    item_position,
    member_position,
    root_position,
)
from speclint.parsing.kinds import DocumentKind, draft_of, in_design_folder, is_dialect_uri
from speclint.parsing.structured import escape_token

ID = "duplicate-id"
SEVERITY = Severity.ERROR
FACTS = ("derived", "references")  # speclint.analyses.context
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"

# How a file name ends, longest first: `run.schema.json` is the stem `run` and `.schema.json`.
SUFFIXES = (".schema.json", ".schema.yaml", ".schema.yml", ".json", ".yaml", ".yml")
PLACEHOLDERS = frozenset({"path", "name", "stem", "dir", "version"})
# Where an `$id` may stand: the depth of the walk is bounded, a generated schema nests deep.
MAX_DEPTH = 256


@dataclass(frozen=True)
class Declaration:
    """One schema resource's identifier: where it is declared and what it resolves to."""

    document: Document
    pointer: str  # of the schema object that declares it ("" for the root)
    keyword: str  # `$id` or `id`
    written: str  # as written
    uri: str  # absolute, without its (empty) fragment
    node: Any

    def location(self, note: str | None = None) -> Location:
        pointer = f"{self.pointer}/{escape_token(self.keyword)}"
        return self.document.location(pointer, note=note)


@dataclass(frozen=True)
class Expected:
    """The `$id` the corpus's pattern gives a file, and why."""

    uri: str
    why: str


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    derived = corpus.derived
    declarations: list[Declaration] = []
    roots: dict[str, Declaration] = {}
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        if document.path in derived:
            continue  # a generated bundle carries its sources' `$id`s legitimately
        for found in declared_ids(document):
            if is_dialect_uri(found.uri) or draft_of(found.uri) is not None:
                continue  # an embedded (or vendored) metaschema: the published one's `$id`
            declarations.append(found)
            if not found.pointer:
                roots[document.path] = found
    pattern = options.get("pattern")
    problems: list[Finding] = []
    if isinstance(pattern, str) and pattern:
        expected, problems = _configured(corpus, roots, pattern, str(options.get("folder", "")))
    elif options.get("infer", True) is not False:
        expected = _inferred(
            corpus,
            roots,
            float(options.get("majority", 0.8)),
            int(options.get("minimum", 5)),
        )
    else:
        expected = {}
    yield from problems
    reported: set[str] = set()
    for finding, path in _duplicates(corpus, declarations, expected):
        reported.add(path)
        yield finding
    for path, want in sorted(expected.items()):
        declaration = roots.get(path)
        if path in reported:
            continue
        if declaration is None:
            document = corpus.documents[path]
            yield Finding(
                ID,
                Severity.INFO,
                f"this schema has no `$id`; the configured pattern gives `{want.uri}`: add "
                f'`"$id": "{want.uri}"` so references can name it',
                document.location(""),
                key=f"missing:{want.uri}",
            )
            continue
        yield Finding(
            ID,
            Severity.WARNING,
            headed(
                f"`$id` `{declaration.written}` does not follow {want.why}",
                f": expected `{want.uri}`. Change the `$id` (and the `$ref`s that use the old "
                "one), or rename the file",
                f"this `$id` does not follow {want.why}",
            ),
            declaration.location(),
            key=f"pattern:{declaration.uri}",
        )


def declared_ids(document: Document) -> Iterator[Declaration]:
    """Every schema resource identifier in ``document``, as ``speclint.analyses.schemas.references``
    registers them: the id keyword of the dialect in force (``id`` under draft-03/04, ``$id`` later;
    a nested ``$schema`` switches it), resolved against the enclosing base URI. Anchors (an id
    that is only a fragment, ``#foo``) name no resource and are left out."""
    root = document.data
    dialect = root.get("$schema") if isinstance(root, dict) else None
    # A key means what its position says (keyword_positions): a property *named* `default`
    # holds a schema, whose `$id` is declared like any other.
    api = document.kind if document.kind is not DocumentKind.SCHEMA else None
    stack: list[tuple[Any, str, str, Any, int, Position]] = [
        (root, "", file_uri(document.path), dialect, 0, root_position(document.kind))
    ]
    while stack:
        node, pointer, base, dialect, depth, position = stack.pop()
        if depth > MAX_DEPTH:
            continue
        if isinstance(node, dict):
            if pointer and isinstance(node.get("$schema"), str):
                dialect = node["$schema"]
            keyword = "id" if draft_of(dialect) in ("draft-03", "draft-04") else "$id"
            written = node.get(keyword)
            if isinstance(written, str) and written and not written.startswith("#"):
                try:
                    joined = urljoin(base, written)
                    urlsplit(joined)
                except ValueError:
                    joined = ""  # not a URI (`http://[bad`): schema-invalid's finding
                if joined:
                    base = joined
                    yield Declaration(
                        document, pointer, keyword, written, urldefrag(base).url, node
                    )
            for key, child in node.items():
                inner = member_position(position, key, api)
                if inner is Position.DATA or (
                    position is not Position.SCHEMA_NAMES and str(key).startswith("x-")
                ):
                    continue
                if isinstance(child, (dict, list)):
                    at = f"{pointer}/{escape_token(key)}"
                    stack.append((child, at, base, dialect, depth + 1, inner))
        elif isinstance(node, list):
            for index, child in enumerate(node):
                if isinstance(child, (dict, list)):
                    stack.append(
                        (
                            child,
                            f"{pointer}/{index}",
                            base,
                            dialect,
                            depth + 1,
                            item_position(position),
                        )
                    )


# --- duplicates -----------------------------------------------------------------------------------


def _duplicates(
    corpus: Context, declarations: list[Declaration], expected: dict[str, Expected]
) -> Iterator[tuple[Finding, str]]:
    by_uri: dict[str, list[Declaration]] = {}
    for declaration in declarations:
        by_uri.setdefault(declaration.uri, []).append(declaration)
    for uri, group in sorted(by_uri.items()):
        if len(group) < 2:
            continue
        # A proposal's or design record's schema (`proposals/x/schema.json`) is a draft of a
        # change to the published schema, and reuses its `$id` on purpose: no conflict with the
        # published one (only with another draft).
        published = [d for d in group if not in_design_folder(d.document.path)]
        if published:
            group = published
        if len(group) < 2:
            continue
        group.sort(key=lambda d: (d.document.path, d.pointer))
        # One version line at a time: `2.0.0/x.json` and `3.0.0/x.json` are history.
        lines: list[list[Declaration]] = []
        for declaration in group:
            for line in lines:
                if corpus.versions.same_line(line[0].document.path, declaration.document.path):
                    line.append(declaration)
                    break
            else:
                lines.append([declaration])
        for line in lines:
            owner = _owner(line, expected)
            for declaration in line:
                if declaration is owner or _same_resource(declaration.node, owner.node):
                    continue
                if _one_schema_two_formats(declaration, owner):
                    continue
                yield (
                    _duplicate(corpus, uri, declaration, owner, expected),
                    declaration.document.path,
                )


def _owner(line: list[Declaration], expected: dict[str, Expected]) -> Declaration:
    """The declaration that keeps the `$id`: the first (path order) whose `$id` ends with its
    own file's name, else the first. A copied `$id` is reported, not the original."""
    for declaration in line:
        if (
            not declaration.pointer
            and _names_own_file(declaration)
            and declaration.document.path not in expected
        ):
            return declaration
    return line[0]


def _names_own_file(declaration: Declaration) -> bool:
    last = unquote(urlsplit(declaration.uri).path.rsplit("/", 1)[-1])
    return bool(last) and _stem(last) == _stem(declaration.document.path.rsplit("/", 1)[-1])


def _same_resource(first: Any, second: Any) -> bool:
    """Two copies of one resource (a vendored schema, an embedded copy): a reference reaches
    the same schema whichever one a validator keeps. `$schema` aside: a bundle may drop it."""
    if isinstance(first, dict) and isinstance(second, dict):
        return {k: v for k, v in first.items() if k != "$schema"} == {
            k: v for k, v in second.items() if k != "$schema"
        }
    return bool(first == second)


# The two formats one schema is published in (`run.yaml` and `run.json`).
_FORMATS = ((".json",), (".yaml", ".yml"))


def _one_schema_two_formats(first: Declaration, second: Declaration) -> bool:
    """One schema published as YAML and as JSON (`schemas/run.yaml` beside `schemas/run.json`,
    the root `$id` of both): the same paths but for the extension, and the same content up to
    what converting between the two formats changes (``provenance.as_converted``)."""
    if first.pointer or second.pointer:
        return False
    one, other = first.document.path, second.document.path
    (stem, suffix), (other_stem, other_suffix) = (
        posixpath.splitext(one), posixpath.splitext(other)
    )  # fmt: skip
    if stem != other_stem:
        return False
    kinds = {
        i for i, names in enumerate(_FORMATS) for s in (suffix, other_suffix) if s.lower() in names
    }
    if kinds != {0, 1}:
        return False
    return same_when_converted(first.node, second.node)


# A file published in editions of one schema: `bom-1.3.schema.json` and `bom-1.3-strict.schema.json`,
# `cvss-v3.1.json` and `cvss-v3.1_strict.json`. Editions keep one `$id` on purpose (a tool loads the
# one it wants), so the shared `$id` is a notice, not a defect.
_EDITION = re.compile(
    r"[-_.](?:strict|lax|loose|relaxed|min|minimal|full|bundled|deref(?:erenced)?)$"
)


def _editions(one: Declaration, other: Declaration) -> bool:
    """Two root declarations in files whose names differ only by an edition word
    (``x.json``/``x-strict.json``), in one folder."""
    if one.pointer or other.pointer:
        return False
    first, second = one.document.path, other.document.path
    if posixpath.dirname(first) != posixpath.dirname(second):
        return False
    stems = sorted((_stem(posixpath.basename(first)), _stem(posixpath.basename(second))), key=len)
    short, long = stems
    return long.startswith(short) and bool(_EDITION.fullmatch(long[len(short) :]))


def _duplicate(
    corpus: Context,
    uri: str,
    declaration: Declaration,
    owner: Declaration,
    expected: dict[str, Expected],
) -> Finding:
    winner = corpus.references.path_for(uri)
    where = owner.document.path + ("" if not owner.pointer else f"#{owner.pointer}")
    if _editions(declaration, owner):
        return Finding(
            ID,
            Severity.INFO,
            headed(
                f"`$id` `{uri}` is shared with {where}, another edition of this schema",
                ": a `$ref` to it reaches whichever of the two a validator loads, so load only "
                "one, or give this edition its own `$id` if both are loaded together",
                f"`$id` `{uri}` is shared with {where}, another edition",
                "this `$id` is shared with another edition of this schema",
            ),
            declaration.location(),
            related=(owner.location(note=f"also declares `{uri}`"),),
            key=f"duplicate:{uri}",
        )
    if winner in (owner.document.path, declaration.document.path):
        resolves = f"a `$ref` to it reaches only one of them (today {winner})"
    else:
        resolves = "a `$ref` to it reaches only one of them (whichever a validator loads first)"
    fix = "give this schema its own `$id`"
    want = expected.get(declaration.document.path) if not declaration.pointer else None
    if want is None and not declaration.pointer and not _names_own_file(declaration):
        want = _renamed(declaration)
    if want is not None:
        fix = f"give this schema its own `$id` (`{want.uri}`)"
    return Finding(
        ID,
        SEVERITY,
        headed(
            f"`$id` `{uri}` is also declared by {where} (line {owner.location().line})",
            f", and {resolves}: {fix}, or remove one of the two",
            f"`$id` `{uri}` is also declared by {where}",
            f"this `$id` is also declared by {where}",
            "this `$id` is also declared by another schema (the related location)",
        ),
        declaration.location(),
        related=(owner.location(note=f"also declares `{uri}`"),),
        key=f"duplicate:{uri}",
    )


def _renamed(declaration: Declaration) -> Expected | None:
    """The `$id` with its last segment naming this file (the copy-paste fix)."""
    parts = urlsplit(declaration.uri)
    folder, _, last = parts.path.rpartition("/")
    if not last:
        return None
    name = declaration.document.path.rsplit("/", 1)[-1]
    stem = _stem(name)
    _, written_suffix = _split(unquote(last))
    uri = parts._replace(path=f"{folder}/{stem}{written_suffix}").geturl()
    return Expected(uri, "the file's name")


# --- the pattern ----------------------------------------------------------------------------------


def _split(name: str) -> tuple[str, str]:
    for suffix in SUFFIXES:
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)], name[-len(suffix) :]
    return name, ""


def _stem(name: str) -> str:
    return _split(name)[0]


def _configured(
    corpus: Context, roots: dict[str, Declaration], pattern: str, folder: str
) -> tuple[dict[str, Expected], list[Finding]]:
    """Each schema file under ``folder`` -> the `$id` ``pattern`` gives it."""
    try:
        fields = {name for _, name, _, _ in string.Formatter().parse(pattern) if name is not None}
        unknown = [f"`{{{name}}}`" for name in sorted(fields - PLACEHOLDERS)]
        if not unknown:
            pattern.format(**{name: "x" for name in PLACEHOLDERS})
    except (ValueError, IndexError) as error:  # `{path:d}`, an unmatched brace
        unknown = [f"a field it cannot fill ({error})"]
    if unknown:
        where = Location(corpus.config_path(), 1, 1)
        return {}, [
            Finding(
                ID,
                Severity.WARNING,
                f"option `pattern` of [rules.duplicate-id] has {', '.join(unknown)}, not one "
                f"of the placeholders {', '.join(f'`{{{p}}}`' for p in sorted(PLACEHOLDERS))}: "
                "no `$id` is checked against it; fix the pattern",
                where,
                key="pattern-option",
            )
        ]
    prefix = folder.strip("/") + "/" if folder.strip("/") else ""
    found: dict[str, Expected] = {}
    derived = corpus.derived
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        if not document.path.startswith(prefix) or document.path in derived:
            continue
        relative = document.path[len(prefix) :]
        folder_part, _, name = relative.rpartition("/")
        uri = pattern.format(
            path=relative,
            name=name,
            stem=_stem(name),
            dir=folder_part + "/" if folder_part else "",
            version=corpus.versions.of(document.path),
        )
        declaration = roots.get(document.path)
        if declaration is not None and declaration.written.rstrip("#") == uri.rstrip("#"):
            continue
        if declaration is not None and declaration.uri == urldefrag(uri).url:
            continue
        found[document.path] = Expected(uri, f"the configured pattern `{pattern}`")
    return found, []


@dataclass(frozen=True)
class _Claim:
    declaration: Declaration
    matched: int  # trailing segments of the `$id`'s path that equal the file's path
    id_segments: list[str]
    path_segments: list[str]


def _inferred(
    corpus: Context, roots: dict[str, Declaration], majority: float, minimum: int
) -> dict[str, Expected]:
    """Files whose root `$id` names another file, or another version folder, when a strong
    majority of root `$id`s end with their own file's name."""
    claims: list[_Claim] = []
    for path, declaration in sorted(roots.items()):
        try:
            parts = urlsplit(declaration.written)
        except ValueError:
            continue
        if parts.scheme not in ("http", "https") or not parts.path.strip("/"):
            continue  # a relative id, a URN: no URL path to compare with the file's
        id_segments = [unquote(s) for s in urlsplit(declaration.uri).path.split("/")]
        path_segments = path.split("/")
        claims.append(
            _Claim(
                declaration,
                _matched(id_segments, path_segments),
                id_segments,
                path_segments,
            )
        )
    followers = [c for c in claims if c.matched]
    if len(claims) < minimum or len(followers) < majority * len(claims):
        return {}
    # Which folder maps to which URL prefix (`schemas/` -> `https://example.org/spec/v1/`), and
    # how many files say so: an `$id` is corrected only into a mapping other files follow.
    mappings = Counter(_mapping(c.declaration.uri, c.path_segments) for c in followers)

    def supported(uri: str, claim: _Claim) -> bool:
        mapping = _mapping(uri, claim.path_segments)
        own = _mapping(claim.declaration.uri, claim.path_segments) == mapping and claim.matched
        return mapping[0] is not None and mappings[mapping] - (1 if own else 0) >= 1

    # The suffix the `$id`s give file names (`.json`, `.schema.json`, none): a copied `$id`
    # keeps it; an `$id` that ends otherwise (a folder URL) follows some other convention.
    suffixes = Counter(_split(c.id_segments[-1])[1] for c in followers)
    usual_suffix = suffixes.most_common(1)[0][0]
    # `versions = false` in the configuration: no version lines, so no version folders either
    version = re.compile(corpus.config.versions) if corpus.config.versions else None
    found: dict[str, Expected] = {}
    for claim in claims:
        declaration = claim.declaration
        if not claim.matched:
            last = claim.id_segments[-1]
            if not last or _split(last)[1] != usual_suffix:
                continue
            renamed = _renamed(declaration)
            if renamed is not None and supported(renamed.uri, claim):
                found[declaration.document.path] = Expected(
                    renamed.uri,
                    f"this corpus's pattern (the `$id`s of {len(followers)} of {len(claims)} "
                    "schemas end with their own file's name)",
                )
            continue
        # The first segment from the end that differs: a version folder left from a copy?
        at = claim.matched + 1
        if at > len(claim.id_segments) or at > len(claim.path_segments):
            continue
        written, actual = claim.id_segments[-at], claim.path_segments[-at]
        if version is None or written == actual:
            continue
        if not (version.fullmatch(written) and version.fullmatch(actual)):
            continue
        if not _versions_agree(claims, version, majority):
            continue
        parts = urlsplit(declaration.uri)
        segments = parts.path.split("/")
        segments[-at] = actual
        corrected = parts._replace(path="/".join(segments)).geturl()
        if not supported(corrected, claim):
            continue  # the `$id` is published elsewhere on purpose (`.../v2/schema.json`)
        found[declaration.document.path] = Expected(
            corrected,
            f"its version folder `{actual}` (the `$id`s of this corpus name their file's "
            "version folder)",
        )
    return found


def _mapping(uri: str, path_segments: list[str]) -> tuple[str | None, str]:
    """(the folder, the URL prefix) an `$id` maps a file's path under: the folders and URL path
    above the segments they share; (None, "") when they share none."""
    parts = urlsplit(uri)
    id_segments = [unquote(s) for s in parts.path.split("/")]
    matched = _matched(id_segments, path_segments)
    if not matched:
        return None, ""
    folder = "/".join(path_segments[:-matched])
    prefix = f"{parts.scheme}://{parts.netloc}" + "/".join(id_segments[:-matched])
    return folder, prefix


def _matched(id_segments: list[str], path_segments: list[str]) -> int:
    """How many trailing segments agree: the last by stem (`run.json` names `run.schema.json`
    when the `$id`s drop `.schema`), the folders above it exactly."""
    if not id_segments or not path_segments or not id_segments[-1]:
        return 0
    if _stem(id_segments[-1]) != _stem(path_segments[-1]):
        return 0
    count = 1
    while (
        count < len(id_segments)
        and count < len(path_segments)
        and id_segments[-1 - count] == path_segments[-1 - count]
    ):
        count += 1
    return count


def _versions_agree(claims: list[_Claim], version: re.Pattern[str], majority: float) -> bool:
    """Do the `$id`s of files in version folders carry that version folder, as a strong
    majority?"""
    versioned = [c for c in claims if any(version.fullmatch(s) for s in c.path_segments[:-1])]
    carrying = [
        c for c in versioned if any(version.fullmatch(s) for s in c.path_segments[-c.matched : -1])
    ]
    return bool(versioned) and len(carrying) >= majority * len(versioned)
