"""A ``$ref`` that does not resolve inside the corpus.

What it does
    Resolves every ``$ref`` in schemas and API documents against the corpus (relative to the
    document, or to the base URI its ``$id`` sets, JSON Schema 2020-12 §8.2; ``id`` under
    draft-04) and reports those that reach no schema: a missing file, a JSON pointer that names
    nothing (when only an unescaped ``/`` is wrong, the ``~1`` pointer to write, RFC 6901 §3), an
    ``$id`` no corpus schema defines, a reference that is not a URI reference (RFC 3986), a loop
    of ``$ref``-only schemas, a URL whose host is a bare word (``https://schemas/x.json``: a
    ``warning``, with the URL it likely meant), or a schema's ``$ref`` to a whole OpenAPI or
    AsyncAPI document (its root is no schema; the message names a fragment to write).

    Nothing is fetched: a remote URL is listed as not checked, not reported, unless its host is
    where the corpus's ``$id``\\s publish (it resolves to the file published there). One missing
    target is one finding, at its first referencing site, the others related.

Why is this bad?
    A validator given the schema fails at run time (or, worse, ignores the reference and accepts
    everything); code generators stop, far from the commit that moved or deleted the target.

Example
    ``api/openapi.yaml``::

        schema:
          $ref: '../schemas/error-envelope.schema.json'

    FAIL when ``schemas/error-envelope.schema.json`` is not in the corpus:
    ``error [unresolved-ref] `../schemas/error-envelope.schema.json` →
    schemas/error-envelope.schema.json does not exist ...``

Use instead
    ::

        schema:
          $ref: '../schemas/error.schema.json'

    PASS when ``schemas/error.schema.json`` exists (and, with a fragment, has that pointer).

Options
    None.

Limitations
    Listed as not checked, not reported: a bare name another folder's schema declares as its
    ``$id`` (a search path JSON Schema does not have), references into a git submodule not
    checked out or a file a program of the repository writes. Not reported: a target that
    exists but is not JSON or YAML, a generated bundle's copies, a pointer the repository's
    bundler merges in.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

from speclint.analyses.api.merging import Merges
from speclint.analyses.context import Context
from speclint.analyses.repository.downloads import program_text_names, program_writes
from speclint.analyses.schemas.references import Reference, bare_host, declared_id, root_base
from speclint.common.findings import Finding, Member, Severity, headed, left_out
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import (
    escape_token,
    join_pointer,
    resolve_pointer,
    split_pointer,
)

ID = "unresolved-ref"
SEVERITY = Severity.ERROR
FACTS = ("derived", "references", "merges")  # speclint.analyses.context
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"
RELATED_LIMIT = 200
FAMILY = 3  # missing `$id`s under one folder reported as one finding


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    groups: dict[tuple[str, str], list[Reference]] = defaultdict(list)
    derived = corpus.derived
    submodules = corpus.submodules
    unchecked: dict[str, list[Reference]] = defaultdict(list)
    merges = corpus.merges
    made: dict[str, list[Reference]] = defaultdict(list)
    searched: dict[str, list[Reference]] = defaultdict(list)
    relative_ids: dict[str, list[str]] | None = None
    for reference in corpus.references.unresolved():
        if reference.path in derived:
            continue  # a generated bundle: its references are judged at their sources
        if _merged_in(corpus, merges, reference):
            continue  # a local pointer the fragment merged into this document defines
        into = _submodule(reference, submodules)
        if into is not None:
            # Another repository's schemas, not checked out here: not checked, not broken.
            unchecked[into].append(reference)
            continue
        written = _built(corpus, reference)
        if written is not None:
            # A file the build writes, not committed: not checked, not broken.
            made[written].append(reference)
            continue
        if reference.outcome == "missing-file":
            if relative_ids is None:
                relative_ids = _relative_ids(corpus)
            holder = _by_relative_id(corpus, relative_ids, reference)
            if holder is not None:
                # Found by `$id` or a search path, as the project's tools find it; not by
                # JSON Schema's rules: coverage, not a finding.
                searched[holder].append(reference)
                continue
        if reference.outcome == "missing-file":
            group = (reference.outcome, reference.target_path or reference.target)
        elif reference.outcome == "missing-pointer":
            group = (reference.outcome, f"{reference.target_path}#{reference.target_pointer}")
        elif reference.outcome == "cycle":
            group = (reference.outcome, f"{reference.path}#{reference.pointer}")
        else:
            group = (reference.outcome, reference.target)
        groups[group].append(reference)
    for folder, references in sorted(unchecked.items()):
        yield _not_checked(corpus, folder, references)
    for name, references in sorted(made.items()):
        yield _made_by_the_build(corpus, name, references)
    for holder, references in sorted(searched.items()):
        yield _by_search_path(corpus, holder, references)
    # An `$id` no schema declares, where the corpus's other `$id`s say which file would declare
    # it, and that file is the one other references name as missing: one root cause, one finding.
    index = corpus.references
    for outcome, target in list(groups):
        if outcome != "unknown-id":
            continue
        if any(path in corpus.documents for path in index.published_at(target)):
            # The file is in the folder the corpus publishes at that URL (a schema store's
            # `x-without-$id.json` beside the `all.json` that names it by URL): that URL serves
            # it, whatever `$id` it declares, so the reference reaches it (2020-12 §9.1.1: a
            # schema retrieved by a URI other than its `$id` is still that schema).
            del groups[(outcome, target)]
            continue
        named = [p for p in index.published_at(target) if ("missing-file", p) in groups]
        if len(named) == 1:
            groups[("missing-file", named[0])] += groups.pop((outcome, target))
    # `$id`s no corpus schema declares, three or more under one folder: a generated family
    # (`https://example.org/store/1.0.0.json`, `.../2.0.0.json`, ...) is one finding.
    families: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for outcome, target in groups:
        if outcome == "unknown-id":
            families[target.split("#", 1)[0].rsplit("/", 1)[0] + "/"].append((outcome, target))
    for folder, members in families.items():
        if len({target.split("#", 1)[0] for _, target in members}) >= FAMILY:
            groups[("unknown-id", folder)] = [r for key in members for r in groups.pop(key)]
    _by_spelling(groups)
    # Bare names of schemas the repository does not hold, from a schema set its documentation
    # links (an extension's schemas naming the base specification's by file name).
    linked: dict[str, tuple[str, str, int]] | None = None
    stems: list[str] | None = None
    for outcome, target in sorted(groups):
        if outcome not in ("missing-file", "missing-name"):
            continue
        bare = _bare_name(corpus, groups[(outcome, target)])
        if bare is None:
            continue
        if linked is None:
            linked = _linked_schema_sets(corpus)
        source = linked.get(bare) or linked.get("")
        if source is None:
            continue
        if stems is None:
            stems = sorted({posixpath.basename(p).lower().split(".", 1)[0] for p in corpus.tree})
        # A name close to one of the repository's own (by stems: a shared `.schema.json` makes
        # any two names look alike) is a renamed or misspelt file of its own: a finding.
        if not difflib.get_close_matches(bare.lower().split(".", 1)[0], stems, 1, 0.8):
            yield _external_schema(corpus, bare, source, groups.pop((outcome, target)))
    for (outcome, target), references in sorted(groups.items()):
        # The first site that names the file itself, when some name it by `$id` instead.
        first, *others = sorted(references, key=lambda r: (r.outcome != outcome, r.path, r.pointer))
        document = corpus.documents[first.path]
        count = len(references)
        listed = others[:RELATED_LIMIT]
        # whether the message may say every other site is related (past the limit it counts
        # those left out instead)
        whole = len(listed) == len(others)
        every = " (all listed as related locations)" if whole else ""
        related_too = ", listed as related locations" if whole else ""
        sites = f"{count} `$ref`s point to it{every}" if count > 1 else ""
        if outcome == "missing-name":
            folders = sorted({posixpath.dirname(r.target_path or "") for r in references})
            message = headed(
                f"`{first.value}` is in none of the {len(folders)} folders whose files name it",
                f" (`{folders[0]}/`, ...){'; ' + sites if sites else ''}. Add the file, or "
                "point the references at the schema that replaced it",
            )
        elif outcome == "missing-file":
            fix = "Add the file, or point the reference at the schema that replaced it"
            if target.endswith("/") and target.rstrip("/") in corpus.tree:
                # `x.yml/` is another URI path than `x.yml` (RFC 3986 §3.3): URI-based
                # resolvers do not find the file that is there; a path-cleaning bundler does.
                fix = f"`{target.rstrip('/')}` exists: drop the trailing `/` from the reference"
            message = (
                f"`{first.value}` → `{target}` does not exist in the corpus"
                f"{' (' + first.detail + ')' if first.detail else ''}"
                f"{'; ' + sites if sites else ''}. {fix}"
            )
        elif outcome == "missing-pointer":
            merged = merges.partners(first.path) if first.value.startswith("#/") else []
            # merged: the document is checked as its bundler merges it, and lacks it merged too
            nor = f" (nor does `{merged[0]}`, merged with it)" if len(merged) == 1 else ""
            nor = f" (nor do the {len(merged)} files merged with it)" if len(merged) > 1 else nor
            target_document = corpus.documents.get(first.target_path or "")
            escaped = (
                _escaped(target_document.data, first.target_pointer or "")
                if target_document is not None
                else None
            )
            fix = (
                # The key exists and holds a `/`, which a JSON pointer writes `~1` (RFC 6901 §3):
                # lenient resolvers join the split tokens back, strict ones do not.
                f"The key exists with a `/` in it: write the pointer `#{escaped}` (`/` in a key "
                "is `~1`, RFC 6901)"
                if escaped
                else "Fix the JSON pointer (check the spelling and the `$defs` name) or add the "
                "definition"
            )
            through = (
                _through_ref(target_document.data, first.target_pointer or "")
                if target_document is not None and not escaped
                else None
            )
            if through is not None:
                hop, ref, meant = through
                # A JSON pointer walks the document as written and never follows a `$ref`
                # (RFC 6901 §4); json-schema-ref-parser's bundles hold such pointers (its
                # issue 338), so the file's generator writes it again unless fixed there.
                # the place by its last tokens: the pointer written holds the rest
                tail = "/".join(split_pointer(hop)[-3:]) if hop else ""
                message = headed(
                    f"`{first.value}` runs through `.../{tail}`, a `$ref` to `{ref}`",
                    f", which a JSON pointer does not follow (RFC 6901){nor}"
                    f"{'; ' + sites if sites else ''}. It means `#{meant}`: write that, or fix "
                    "the bundler that wrote it",
                )
            else:
                message = (
                    f"`{first.value}`: `{first.target_path or first.target}` has no "
                    f"`{first.target_pointer or '#'}`{nor}{'; ' + sites if sites else ''}. {fix}"
                )
        elif outcome == "invalid-uri":
            message = (
                f"`{first.value}` is {first.detail}, so it resolves to nothing"
                f"{'; ' + sites if sites else ''}. Fix the reference"
            )
        elif outcome == "cycle":
            message = f"{first.detail}; make one of the schemas in the loop define the shape"
        elif count > 1:
            message = (
                f"{count} `$ref`s name `$id`s under `{target}` that no corpus schema declares "
                f"(`{first.target}` and {count - 1} more{related_too}). Add the schemas, fix "
                "the `$id`s, or map the URIs to corpus files with [ref-map]"
            )
        else:
            expected = [p for p in index.published_at(first.target) if p not in corpus.documents]
            where = (
                f" (by the corpus's other `$id`s, `{expected[0]}` would, and it does not exist)"
                if len(expected) == 1
                else ""
            )
            message = (
                f"`{first.value}` resolves to `{first.target}`, which no corpus schema declares as "
                f"its `$id`{where}. Add the schema, fix the `$id`, or map the URI to a corpus file "
                "with [ref-map]"
            )
        related = tuple(
            corpus.documents[r.path].location(r.pointer, note=f"also references `{r.value}`")
            for r in listed
        )
        key = f"{outcome}:{target}"
        yield Finding(
            ID,
            SEVERITY,
            # past the limit, the message says how many are not listed (issue 44)
            message + left_out(len(listed), len(others) - len(listed), "other `$ref`s"),
            document.location(first.pointer),
            related=related,
            key=key,
            # every `$ref`: a waiver at one covers that one
            members=tuple(
                Member(
                    corpus.documents[r.path].location(
                        r.pointer, note=f"also references `{r.value}`"
                    ),
                    key,
                )
                for r in (first, *others)
            )
            if others
            else (),
        )
    for reference in corpus.references.references:
        if (
            reference.outcome == "remote"
            and reference.path not in derived
            and bare_host(reference.target)
        ):
            yield _malformed(corpus.documents[reference.path], reference)
        elif reference.path not in derived and _names_an_api_document(corpus, reference):
            yield _api_document_as_schema(corpus, reference)


def _names_an_api_document(corpus: Context, reference: Reference) -> bool:
    """Whether a schema's ``$ref`` names a whole OpenAPI or AsyncAPI document (no fragment): it
    resolves, to a file, but reaches no schema."""
    holder = corpus.documents.get(reference.path)
    target = corpus.documents.get(reference.target_path or "")
    return (
        reference.outcome == "ok"
        and not reference.target_pointer
        and reference.target_pointer is not None
        and holder is not None
        and holder.kind is DocumentKind.SCHEMA
        and target is not None
        and target.kind in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)
    )


def _api_document_as_schema(corpus: Context, reference: Reference) -> Finding:
    """A schema's ``$ref`` to a whole API document (a schema library kept as an OpenAPI file with
    an empty `paths`): a validator reads the document's root as a schema, whose ``openapi``,
    ``info``, ``paths`` and ``components`` are keywords it does not know (2020-12 Core §6.5:
    ignored), so the reference accepts any value (beside another `oneOf` branch, a value that
    branch accepts then matches two and fails); ``speclint build`` cannot bundle it."""
    document = corpus.documents[reference.path]
    target = corpus.documents[reference.target_path or ""]
    data = target.data if isinstance(target.data, dict) else {}
    components = data.get("components")
    schemas = components.get("schemas") if isinstance(components, dict) else None
    place = "/components/schemas/" if target.kind is DocumentKind.OPENAPI else ""
    first = next(iter(schemas), None) if isinstance(schemas, dict) and place else None
    example = (
        f" (`{reference.value.split('#', 1)[0]}#{place}{escape_token(str(first))}`)"
        if first is not None
        else ""
    )
    return Finding(
        ID,
        SEVERITY,
        f"`{reference.value}` names the whole {target.dialect or 'API'} document "
        f"{target.path}, which is no schema: a validator reads its `paths` and `components` "
        "as unknown keywords, so the reference accepts any value, and `speclint build` cannot "
        f"bundle it. Name the schema meant with a fragment{example}",
        document.location(reference.pointer),
        related=(target.location("", note="the API document it names"),),
    )


def _malformed(document: Document, reference: Reference) -> Finding:
    """A remote `$ref` is not followed (speclint never fetches: coverage, not a finding), but
    one whose host is no domain name can never resolve, wherever it is fetched from."""
    parts = urlsplit(reference.target)
    segments = parts.path.lstrip("/").split("/", 1)
    meant = ""
    if "." in segments[0]:
        # `https://schemas/opengis.org/cql2.json` -> `https://schemas.opengis.org/cql2.json`
        rest = f"/{segments[1]}" if len(segments) > 1 else ""
        meant = f" (did you mean `{parts.scheme}://{parts.netloc}.{segments[0]}{rest}`?)"
    return Finding(
        ID,
        Severity.WARNING,
        headed(
            f"`{reference.value}`: the host `{parts.netloc}` is not a domain name, so this "
            f"`$ref` can never resolve{meant}",
            ". Fix the URL, or reference the schema relatively if the repository holds it",
            f"this `$ref`'s host `{parts.netloc}` is not a domain name{meant}",
        ),
        document.location(reference.pointer),
        key=f"malformed:{reference.pointer}",
    )


def _by_spelling(groups: dict[tuple[str, str], list[Reference]]) -> None:
    """One relative name missing beside the files of several folders (every plug-in folder's
    schema naming `shared.schema.json`, which none holds): one convention, one root cause, so
    one group (``missing-name``), in place of one per folder."""
    spelled: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for outcome, target in groups:
        if outcome != "missing-file":
            continue
        spellings = {r.value.split("#", 1)[0] for r in groups[(outcome, target)]}
        if len(spellings) == 1:
            spelled[spellings.pop()].append((outcome, target))
    for spelling, keys in spelled.items():
        if len(keys) >= 2 and not urlsplit(spelling).scheme:
            groups[("missing-name", spelling)] = [r for key in keys for r in groups.pop(key)]


# A URL in prose: a Markdown link's destination or a bare URL.
_URL = re.compile(r"https?://[^\s<>()\[\]\"'`]+")
_SCHEMA_FOLDERS = frozenset({"schema", "schemas"})


def _bare_name(corpus: Context, references: list[Reference]) -> str | None:
    """The file name the references all write with no folder (``glTFProperty.schema.json``),
    from schemas without an absolute `$id`, else None."""
    written = {r.value.split("#", 1)[0] for r in references}
    if len(written) != 1:
        return None
    name = written.pop()
    if not name or "/" in name or urlsplit(name).scheme:
        return None
    if any(urlsplit(root_base(corpus.documents[r.path])).scheme != "file" for r in references):
        return None  # named from under the repository's own `$id`: its own schema
    return name


def _linked_schema_sets(corpus: Context) -> dict[str, tuple[str, str, int]]:
    """The remote schemas and schema folders the repository's Markdown links to (a link or a
    bare URL): by file name, a file's URL; under ``""``, the first folder of schemas in another
    repository on a code host (``.../tree/main/specification/2.0/schema``); each with its
    page and line."""
    found: dict[str, tuple[str, str, int]] = {}
    folders: set[str] = set()  # every folder of the repository, at any depth
    for path in corpus.tree:
        folder = posixpath.dirname(path)
        while folder and folder not in folders:
            folders.add(folder)
            folder = posixpath.dirname(folder)
    for document in sorted(corpus.of_kind(DocumentKind.MARKDOWN), key=lambda d: d.path):
        for number, line in enumerate((document.text or "").splitlines(), 1):
            for url in _URL.findall(line):
                url = url.rstrip(".,;:")
                if _own_folder(corpus.tree, folders, url):
                    continue
                last = posixpath.basename(urlsplit(url).path.rstrip("/"))
                if "." in last:
                    found.setdefault(last, (url, document.path, number))
                elif last in _SCHEMA_FOLDERS and _HOSTED.match(urlsplit(url).path):
                    found.setdefault("", (url, document.path, number))
    return found


# A code host's link into a repository: /OWNER/REPO/tree|blob/REF/PATH.
_HOSTED = re.compile(r"^/[^/]+/[^/]+/(?:-/)?(?:tree|blob|raw)/[^/]+/(.+?)/?$")


def _own_folder(tree: frozenset[str], folders: set[str], url: str) -> bool:
    """Whether a code host's link names a path this repository has (its own schema folder,
    published: `.../tree/master/specification/0.0/schema`), which is no other schema set."""
    hosted = _HOSTED.match(urlsplit(url).path)
    if hosted is None:
        return False
    path = hosted.group(1)
    return path in tree or path in folders


def _external_schema(
    corpus: Context, name: str, source: tuple[str, str, int], references: list[Reference]
) -> Finding:
    """``$ref``\\s by bare name to a schema of a base schema set the repository does not hold
    but links: not checked (coverage), as a remote reference is not."""
    count = len(references)
    url, page, line = source
    return _coverage_note(
        corpus,
        references,
        f"{count} `$ref`{'s name' if count > 1 else ' names'} `{name}`, not in the repository: "
        f"{'the schema' if url.endswith('/' + name) else 'one of the schemas in the folder'} "
        f"`{page}` line {line} links (`{url}`), read from there by its tools",
        key=f"external-schema:{name}",
        coverage="external-schema",
    )


def _coverage_note(
    corpus: Context,
    references: list[Reference],
    message: str,
    *,
    key: str,
    coverage: str,
    note: str | None = None,
) -> Finding:
    """A note of ``$ref``\\s the run did not check (coverage): at the first of ``references``,
    the others related (each "also references" its value unless ``note`` says otherwise)."""
    first, *others = sorted(references, key=lambda r: (r.path, r.pointer))
    return Finding(
        ID,
        Severity.INFO,
        message,
        corpus.documents[first.path].location(first.pointer),
        related=tuple(
            corpus.documents[r.path].location(
                r.pointer, note=note or f"also references `{r.value}`"
            )
            for r in others[:RELATED_LIMIT]
        ),
        key=key,
        coverage=coverage,
    )


def _relative_ids(corpus: Context) -> dict[str, list[str]]:
    """The corpus's schemas by the relative `$id` each declares at its root (`"$id":
    "base.schema.json"`, with no base URI of its own)."""
    named: dict[str, list[str]] = defaultdict(list)
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        declared = declared_id(document)
        if declared and not urlsplit(declared).scheme and not declared.startswith("/"):
            named[posixpath.normpath(declared)].append(document.path)
    return named


def _by_relative_id(
    corpus: Context, relative_ids: dict[str, list[str]], reference: Reference
) -> str | None:
    """The one corpus schema, in another folder, whose relative `$id` is what a missing-file
    ``$ref`` writes (``rootProperty.schema.json``), else None.

    JSON Schema resolves the reference against the referring file's base (2020-12 §8.2), where
    nothing is; a tool that registers schemas by `$id`, or a build given the core folder as a
    schema search path (wetzel's ``-S``), finds the schema that declares that name. A fragment
    must still name something there."""
    written, _, fragment = reference.value.partition("#")
    if not written or urlsplit(written).scheme or written.startswith("/"):
        return None
    holders = relative_ids.get(posixpath.normpath(written), [])
    if len(holders) != 1 or holders[0] == reference.target_path:
        return None
    if fragment and not (
        fragment.startswith("/")
        and resolve_pointer(corpus.documents[holders[0]].data, unquote(fragment)) is not None
    ):
        return None
    return holders[0]


def _by_search_path(corpus: Context, holder: str, references: list[Reference]) -> Finding:
    """``$ref``\\s that name a schema by the relative `$id` it declares, from another folder:
    what a search path resolves, listed among what the run did not check (coverage)."""
    count = len(references)
    return _coverage_note(
        corpus,
        references,
        f"{count} `$ref`{'s name' if count > 1 else ' names'} "
        f"`{declared_id(corpus.documents[holder])}`"
        f", the relative `$id` of `{holder}`: found by `$id` or a schema search path, not by "
        "JSON Schema's rules, which look beside the referring file (2020-12 §8.2)",
        key=f"search-path:{holder}",
        coverage="search-path",
    )


def _through_ref(data: Any, pointer: str) -> tuple[str, str, str] | None:
    """Where a pointer that names nothing runs into a schema that is a local ``$ref``
    (``.../allOf/0``, ``{$ref: '#/components/schemas/Place'}``) whose target has the rest:
    (that place, the ``$ref``, the pointer it means), else None."""
    tokens = split_pointer(pointer)
    node, at, index, hop = data, "", 0, None
    hops = 0
    while index < len(tokens):
        token = tokens[index]
        if isinstance(node, dict) and token not in node:
            ref = node.get("$ref")
            if not (isinstance(ref, str) and ref.startswith("#/")) or hops == len(tokens):
                return None  # a bound on hops: a loop of `$ref`s does not hang
            hops += 1
            hop = hop or (at, ref)
            at = unquote(ref[1:])
            node = resolve_pointer(data, at)
            continue
        if isinstance(node, dict):
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
        at, index = join_pointer(at, token), index + 1
    return (hop[0], hop[1], at) if hop is not None else None


def _merged_in(corpus: Context, merges: Merges, reference: Reference) -> bool:
    """Whether a local pointer (``#/channels/x``) that names nothing in its own file is defined
    by a file the repository's bundler merges with it (``speclint.analyses.api.merging``): the
    merged document, which a local pointer names (RFC 3986 §4.4), holds it."""
    return (
        reference.outcome == "missing-pointer"
        and reference.value.startswith("#/")
        and reference.target_path in (None, reference.path)
        and reference.target_pointer is not None
        and merges.resolves(corpus, reference.path, reference.target_pointer) is not None
    )


def _built(corpus: Context, reference: Reference) -> str | None:
    """The name of the file a missing-file ``$ref`` names, when a program of the repository
    that a build command runs writes a file of that name (``downloads.program_writes``) and
    names the referencing file's folder (it reads or copies it: ``SOURCE_DIR = "profiles"``),
    else None. The build makes the target beside what it builds from the referencing file
    (issue 45, batch 5: a dictionary a generator writes beside its copies of the profiles)."""
    if reference.outcome != "missing-file" or not reference.target_path:
        return None
    name = posixpath.basename(reference.target_path)
    writer = program_writes(corpus).get(name)
    if writer is None:
        return None
    folder = posixpath.basename(posixpath.dirname(reference.path))
    named = folder or posixpath.basename(reference.path)
    return name if program_text_names(corpus, writer[0], named) else None


def _made_by_the_build(corpus: Context, name: str, references: list[Reference]) -> Finding:
    """``$ref``\\s to a file the build writes and the repository does not commit: listed among
    what the run did not check (coverage), not a finding."""
    count = len(references)
    evidence = program_writes(corpus)[name][1]
    return _coverage_note(
        corpus,
        references,
        f"not checked: {count} `$ref`{'s' if count > 1 else ''} name `{name}`, which the build "
        f"writes ({evidence}) and the repository does not commit",
        key=f"build-output:{name}",
        coverage="build-output",
    )


def _submodule(reference: Reference, submodules: frozenset[str]) -> str | None:
    """The submodule folder a reference points into: by a relative path (its target file), or
    host-relative (``/sibling/schemas/x.json``: the repository's root)."""
    if not submodules:
        return None
    if reference.outcome == "missing-file" and reference.target_path:
        path = reference.target_path
    elif reference.value.startswith("/") and not reference.value.startswith("//"):
        path = reference.value.split("#", 1)[0].lstrip("/")
    else:
        return None
    return next((f for f in sorted(submodules) if path.startswith(f + "/")), None)


def _not_checked(corpus: Context, folder: str, references: list[Reference]) -> Finding:
    """What the run could not check: ``$ref``\\s into a submodule that is not checked out,
    listed among what the run did not check (coverage), not a finding."""
    count = len(references)
    return _coverage_note(
        corpus,
        references,
        f"not checked: {count} `$ref`{'s' if count > 1 else ''} point into `{folder}/`, a git "
        "submodule (`.gitmodules`) that is not checked out here; check it out (`git submodule "
        "update --init`) to check them",
        key=f"submodule:{folder}",
        coverage="submodule",
        note="points into the submodule",
    )


def _escaped(data: Any, pointer: str) -> str | None:
    """``pointer`` written as it was meant, when a key it fails to find holds a ``/`` that the
    pointer left unescaped (``#/components/messages/v1/Hello`` for the key ``v1/Hello``); None
    when no such key explains the miss."""
    tokens = split_pointer(pointer)
    node, written, index = data, "", 0
    while index < len(tokens):
        if isinstance(node, list) and tokens[index].isdigit() and int(tokens[index]) < len(node):
            node, written, index = node[int(tokens[index])], f"{written}/{tokens[index]}", index + 1
            continue
        if not isinstance(node, dict):
            return None
        if tokens[index] in node:
            node = node[tokens[index]]
            written, index = join_pointer(written, tokens[index]), index + 1
            continue
        # The longest run of the next tokens that, joined by `/`, is a key here.
        for end in range(len(tokens), index + 1, -1):
            key = "/".join(tokens[index:end])
            if key in node:
                node, written, index = node[key], join_pointer(written, key), end
                break
        else:
            return None
    return written if "~1" in written else None
