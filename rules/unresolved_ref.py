"""A ``$ref`` that does not resolve inside the corpus.

What it does
    Resolves every ``$ref`` in schemas and API documents against the corpus (relative to the
    document, or to the base URI its ``$id`` sets, JSON Schema 2020-12 §8.2; ``id`` under
    draft-04) and reports those that reach no schema: a missing file, a JSON pointer that names
    nothing (when only an unescaped ``/`` is wrong, the ``~1`` pointer to write, RFC 6901 §3), an
    ``$id`` no corpus schema defines, a reference that is not a URI reference (RFC 3986), a loop
    of ``$ref``-only schemas, or a URL whose host is a bare word (``https://schemas/x.json``:
    a ``warning``, with the URL it likely meant).

    Nothing is fetched: a remote URL is not followed, and the run's summary says so ("not
    checked: 3 remote references not followed"), not a finding. A URL is the corpus's own when
    its ``$id``\\s publish on that host (on a shared host such as ``raw.githubusercontent.com``
    or ``OWNER.github.io``, under its own repository); it then resolves to the file the corpus
    publishes there.

    One missing target is one finding, at its first referencing site, with the other sites as
    related locations (200 at most), however each spells the path; three or more missing
    ``$id``\\s under one folder are one finding too. Not reported: a target that exists but is
    not JSON or YAML (a Markdown description), a generated bundle's copies (judged at their
    sources, ``speclint.analyses.lineage``), a local pointer that the repository's bundler
    merges in (``speclint.analyses.merging``). An ``info`` says what was not checked: references
    into a git submodule that is not checked out, and into a file a program of the repository
    writes (``speclint.analyses.downloads.program_writes``).

Why is this bad?
    A validator given the schema fails at run time (or, worse, some validators ignore the reference
    and accept everything); code generators stop. The error appears far from the commit that moved
    or deleted the target.

Example
    ``api/openapi.yaml``::

        schema:
          $ref: '../schemas/error-envelope.schema.json'

    FAIL when ``schemas/error-envelope.schema.json`` is not in the corpus:
    ``error [unresolved-ref] `../schemas/error-envelope.schema.json` → schemas/error-envelope.schema.json
    does not exist ...``

    ``schemas/a.schema.json`` ``{"$ref": "b.schema.json"}`` with ``schemas/b.schema.json``
    ``{"$ref": "a.schema.json"}``: FAIL (circular ``$ref`` chain).

Use instead
    ::

        schema:
          $ref: '../schemas/error.schema.json'

    PASS when ``schemas/error.schema.json`` exists (and, with a fragment, has that pointer).

Options
    None.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from speclint.analyses.context import Context
from speclint.analyses.downloads import program_text_names, program_writes
from speclint.analyses.merging import Merges
from speclint.analyses.references import Reference, bare_host
from speclint.common.findings import Finding, Member, Severity, headed, left_out
from speclint.model.corpus import Document
from speclint.parsing.structured import join_pointer, split_pointer

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
        if outcome == "missing-file":
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


def _merged_in(corpus: Context, merges: Merges, reference: Reference) -> bool:
    """Whether a local pointer (``#/channels/x``) that names nothing in its own file is defined
    by a file the repository's bundler merges with it (``speclint.analyses.merging``): the
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
    first, *others = sorted(references, key=lambda r: (r.path, r.pointer))
    count = len(references)
    evidence = program_writes(corpus)[name][1]
    return Finding(
        ID,
        Severity.INFO,
        f"not checked: {count} `$ref`{'s' if count > 1 else ''} name `{name}`, which the build "
        f"writes ({evidence}) and the repository does not commit",
        corpus.documents[first.path].location(first.pointer),
        related=tuple(
            corpus.documents[r.path].location(r.pointer, note=f"also references `{r.value}`")
            for r in others[:RELATED_LIMIT]
        ),
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
    first, *others = sorted(references, key=lambda r: (r.path, r.pointer))
    count = len(references)
    return Finding(
        ID,
        Severity.INFO,
        f"not checked: {count} `$ref`{'s' if count > 1 else ''} point into `{folder}/`, a git "
        "submodule (`.gitmodules`) that is not checked out here; check it out (`git submodule "
        "update --init`) to check them",
        corpus.documents[first.path].location(first.pointer),
        related=tuple(
            corpus.documents[r.path].location(r.pointer, note="points into the submodule")
            for r in others[:RELATED_LIMIT]
        ),
        key=f"submodule:{folder}",
        coverage="submodule",
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
