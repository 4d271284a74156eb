"""What a run did not check: coverage, reported apart from the findings (issue 45, items 1 and 8).

A note that speclint did not follow a remote ``$ref``, or that protoc read a file with an empty
file in place of an import the repository does not hold (a buf dependency), is true and useful:
without it, a quiet report would be taken for a clean one. But it is no defect a maintainer can
fix, so it is not a finding: every report says it beside what the run checked (the text and
Markdown reports' "not checked:" line, the JSON report's ``not_checked``, SARIF's
``invocations[0].toolExecutionNotifications``, SARIF 2.1.0 §3.20.21), and ``speclint files``
says it per file. A note never fails a run, and baselines, waivers and the gate never see one.

Notes come from two places. What the corpus itself shows is read here (:func:`of_corpus`):
remote references, and the files speclint found but cannot read as what they are. What only a
rule learns (protoc's missing imports, an instance whose schema is remote) the rule yields as a
:class:`~speclint.common.findings.Finding` with ``coverage`` set to its kind, and the run moves
it here (:func:`split`), so it is cached with the rule's results.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from speclint.analyses.context import Context
from speclint.analyses.repository.provenance import TEST_INPUT
from speclint.analyses.schemas.references import bare_host, held_at_raw_url
from speclint.analyses.schemas.validation import swagger_2_read
from speclint.common.controls import visible
from speclint.common.findings import Finding
from speclint.model.corpus import not_left_out
from speclint.parsing.kinds import DocumentKind
from speclint.run.catalog import all_rules


@dataclass(frozen=True, order=True)
class Note:
    """One thing not checked: its kind (a key of :data:`KINDS`), where, and what."""

    kind: str
    path: str
    line: int
    what: str


# Each kind, in the order reports list them: (one, many) as the summary counts them.
KINDS: dict[str, tuple[str, str]] = {
    "remote-ref": (
        "remote reference not followed",
        "remote references not followed",
    ),
    "remote-example": (
        "remote example (`externalValue` or `$ref` in an API document) not fetched",
        "remote examples (`externalValue` or `$ref` in API documents) not fetched",
    ),
    "example-outside-root": (
        "example reference of an API document leading out of the root, not followed",
        "example references of API documents leading out of the root, not followed",
    ),
    "example-not-found": (
        "example reference of an API document to nothing the repository holds, not checked",
        "example references of API documents to nothing the repository holds, not checked",
    ),
    "remote-schema": (
        "instance naming a remote schema not validated",
        "instances naming a remote schema not validated",
    ),
    "schema-not-loaded": (
        "instance whose schema is a file speclint does not load",
        "instances whose schema is a file speclint does not load",
    ),
    "submodule": (
        "git submodule not checked out, which `$ref`s point into",
        "git submodules not checked out, which `$ref`s point into",
    ),
    "proto-import": (
        "proto import not in the repository (a buf dependency or another package)",
        "proto imports not in the repository (buf dependencies or other packages)",
    ),
    "proto-rewrite": (
        "proto file not compiled where an option of a missing import was set aside",
        "proto files not compiled where options of missing imports were set aside",
    ),
    "proto-dependency": (
        "proto file not compiled without what an import not in the repository defines",
        "proto files not compiled without what imports not in the repository define",
    ),
    "proto-limit": (
        "proto file not compiled: past speclint's limits on protoc's runs",
        "proto files not compiled: past speclint's limits on protoc's runs",
    ),
    "proto-excerpt": (
        "proto excerpt whose imports are not shown",
        "proto excerpts whose imports are not shown",
    ),
    "no-schema": (
        "API document of a version whose official schema speclint does not ship",
        "API documents of versions whose official schemas speclint does not ship",
    ),
    "overlay-target": (
        "OpenAPI Overlay whose document is not in the repository, its actions not checked",
        "OpenAPI Overlays whose documents are not in the repository, their actions not checked",
    ),
    "overlay-record": (
        "archived OpenAPI Overlay (the record of an edit already applied), its actions not applied",
        "archived OpenAPI Overlays (records of edits already applied), their actions not applied",
    ),
    "arazzo-remote-source": (
        "Arazzo source description at a remote URL, not fetched (the steps calling it unchecked)",
        "Arazzo source descriptions at remote URLs, not fetched (the steps calling them unchecked)",
    ),
    "arazzo-mounted-source": (
        "Arazzo source description at an absolute path, read by its tail as a corpus file",
        "Arazzo source descriptions at absolute paths, read by their tails as corpus files",
    ),
    "arazzo-source-not-read": (
        "Arazzo source description of a file speclint does not read, or outside the root",
        "Arazzo source descriptions of files speclint does not read, or outside the root",
    ),
    "not-inlined": (
        "`$ref` a bundler inlines, past the size speclint inlines for one document",
        "`$ref`s a bundler inlines, past the size speclint inlines for one document",
    ),
    "merged-fragment": (
        "fragment a bundler merges into another document, validated as merged, not alone",
        "fragments a bundler merges into other documents, validated as merged, not alone",
    ),
    "build-output": (
        "file `$ref`s name that the build writes and the repository does not commit",
        "files `$ref`s name that the build writes and the repository does not commit",
    ),
    "search-path": (
        "`$ref` found by a schema's relative `$id` (a search path), not by JSON Schema's rules",
        "`$ref`s found by schemas' relative `$id`s (a search path), not by JSON Schema's rules",
    ),
    "component-library": (
        "SwaggerHub domain (a library of components) not required to have `paths`",
        "SwaggerHub domains (libraries of components) not required to have `paths`",
    ),
    "build-placeholder": (
        "member left empty for a build script to fill (a marker comment), not judged",
        "members left empty for a build script to fill (marker comments), not judged",
    ),
    "external-schema": (
        "schema named by file name from a schema set the documentation links, not in the repository",
        "schemas named by file name from schema sets the documentation links, not in the repository",
    ),
    "build-source": (
        "piece of an API the repository's merge step assembles, judged but for what a merge "
        "rewrites",
        "pieces of an API the repository's merge step assembles, judged but for what a merge "
        "rewrites",
    ),
    "swagger-2": (
        "Swagger 2.0 document validated but not read by the OpenAPI 3 rules",
        "Swagger 2.0 documents validated but not read by the OpenAPI 3 rules",
    ),
    "custom-dialect": (
        "schema whose own dialect's keywords were not checked (its metaschema does not resolve)",
        "schemas whose own dialect's keywords were not checked (their metaschema does not resolve)",
    ),
    "pattern-not-compiled": (
        "pattern the compile budget left uncompiled, a file's values not judged against it",
        "patterns the compile budget left uncompiled, a file's values not judged against them",
    ),
    "undecided": (
        "schema whose satisfiability was not decided",
        "schemas whose satisfiability was not decided",
    ),
    "errors-not-shown": (
        "document whose errors past the first 50 were not reported",
        "documents whose errors past the first 50 were not reported",
    ),
    "too-deep": (
        "API document not validated past its depth",
        "API documents not validated past their depth",
    ),
    "no-extension": (
        "schema without a file extension not read",
        "schemas without a file extension not read",
    ),
    "restructuredtext": (
        "reStructuredText page not read",
        "reStructuredText pages not read",
    ),
    "asciidoc": ("AsciiDoc page not read", "AsciiDoc pages not read"),
    "mdx": ("MDX page that could not be parsed", "MDX pages that could not be parsed"),
    "empty": ("empty file not read", "empty files not read"),
    "test-input": (
        "document its own words call broken on purpose (a test input), its findings not reported",
        "documents their own words call broken on purpose (test inputs), their findings not reported",
    ),
    "json-sketch": (
        "JSON sketch not read (a file that elides members with `...`)",
        "JSON sketches not read (files that elide members with `...`)",
    ),
    "example-source": (
        "example file read as the page showing it reads it (its comments and elisions as notes)",
        "example files read as the pages showing them read them (comments and elisions as notes)",
    ),
    "build-anchor": (
        "link to an anchor a site's build makes of an item code",
        "links to anchors a site's build makes of item codes",
    ),
    "site-route": (
        "link to a route of a site whose routes speclint could not read",
        "links to routes of a site whose routes speclint could not read",
    ),
    "build-copy": (
        "link to a file a build command copies into place",
        "links to files a build command copies into place",
    ),
}
_ORDER = {kind: index for index, kind in enumerate(KINDS)}

# Pages in a markup speclint does not read (item 8): found, counted, not checked.
_PAGES = {".rst": "restructuredtext", ".adoc": "asciidoc", ".asciidoc": "asciidoc"}


def sorted_notes(notes: Iterable[Note]) -> tuple[Note, ...]:
    """The notes without repeats, by kind (in :data:`KINDS`' order), file, line and text: the
    same input gives the same report, byte for byte."""
    return tuple(
        sorted(
            set(notes),
            key=lambda n: (_ORDER.get(n.kind, len(_ORDER)), n.kind, n.path, n.line, n.what),
        )
    )


def split(findings: Iterable[Finding]) -> tuple[list[Finding], list[Note]]:
    """The rules' findings, and apart the coverage notes among them (``Finding.coverage``)."""
    kept: list[Finding] = []
    notes: list[Note] = []
    for finding in findings:
        if finding.coverage:
            notes.append(
                Note(
                    finding.coverage, finding.location.path, finding.location.line, finding.message
                )
            )
        else:
            kept.append(finding)
    return kept, notes


def of_corpus(corpus: Context) -> list[Note]:
    """What the corpus shows was not checked: remote ``$ref``s (speclint never fetches), and
    files it found but cannot read as what they are."""
    return [*_remote_references(corpus), *_unread_files(corpus)]


def _remote_references(corpus: Context) -> Iterator[Note]:
    for reference in corpus.references.references:
        # A generated bundle's references are its sources' (speclint.analyses.repository.lineage); a URL
        # whose host is no domain name can never resolve: unresolved-ref's finding.
        if (
            reference.outcome != "remote"
            or reference.path in corpus.derived
            or bare_host(reference.target)
        ):
            continue
        document = corpus.documents[reference.path]
        what = f"`{reference.value}`: a remote `$ref`, not followed (speclint never fetches)"
        held = held_at_raw_url(corpus.documents, reference.target.split("#", 1)[0])
        if held:
            # A GitHub raw URL of a file this repository holds: not resolved to it (the branch
            # it names may not be the one checked), but the file is there to reference.
            what += f"; this repository holds that file as `{held}`"
        yield Note(
            "remote-ref", reference.path, document.location(reference.pointer).line, visible(what)
        )


def _unread_files(corpus: Context) -> Iterator[Note]:
    pages = [path for path in sorted(corpus.tree) if posixpath.splitext(path)[1].lower() in _PAGES]
    # Those discovery would have taken, were they of a kind it reads (not excluded, not a
    # fixture or build output, not git-ignored): what the repository holds and was not read.
    # Discovery's answer from git, kept on the corpus: git is not asked twice a run.
    kept = not_left_out(corpus.root, corpus.config, pages, corpus.git_ignored) if pages else ()
    for path in kept:
        kind = _PAGES[posixpath.splitext(path)[1].lower()]
        yield Note(kind, path, 1, "a page in a markup speclint does not read: not checked")
    # A schema kept in a file with no extension is found where a `$ref` reaches it (the
    # reference index takes such a file as text: ``speclint.analyses.schemas.references``).
    reached: dict[str, int] = {}
    for reference in corpus.references.references:
        target = reference.target_path
        if reference.outcome == "text" and target and not posixpath.splitext(target)[1]:
            line = corpus.documents[reference.path].location(reference.pointer).line
            reached.setdefault(target, line)
    for target in sorted(reached):
        yield Note(
            "no-extension",
            target,
            1,
            "reached by `$ref`, but speclint reads a file as JSON or YAML by its extension: "
            "not checked (name it `.json` or `.yaml` to have it checked)",
        )
    for path, made in sorted(corpus.provenance.items()):
        if made.kind == TEST_INPUT:
            # Its findings are dropped (nobody fixes a validator's torture test): said, so a
            # quiet report on it is not taken for a clean one.
            yield Note("test-input", path, 1, visible(f"a test input: {made.evidence}"))
    for document in corpus.documents.values():
        if document.empty:
            # A tool's state file committed empty is no broken document (parse-error): said.
            yield Note("empty", document.path, 1, "an empty file: not read")
        if document.path.lower().endswith(".mdx") and not document.usable:
            problem = document.problem.message if document.problem else "could not be parsed"
            yield Note("mdx", document.path, 1, visible(f"not checked: {problem}"))


# The rules whose notes ``speclint files`` lists, run for them alone: they bind each instance to
# its schema and compile the protos, which is how a note is learnt. The others' notes (a schema
# the decider could not read) need the whole run.
LISTED_RULES = ("instance-invalid", "proto-invalid")


def listed(corpus: Context) -> list[Note]:
    """What ``speclint files`` says was not checked: the corpus's notes, those of
    :data:`LISTED_RULES` (an instance whose modeline names a remote schema, a proto import from
    a buf dependency), and the Swagger 2.0 documents."""
    notes = of_corpus(corpus)
    catalog = all_rules()
    for rule_id in LISTED_RULES:
        info = catalog[rule_id]
        try:
            _, found = split(info.check(corpus.reading(info.facts), {}))
        except Exception:  # the rule's own bug: `speclint check` reports it, the listing stands
            continue
        notes += found
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        if isinstance(document.data, dict) and "swagger" in document.data:
            notes.append(
                Note(
                    "swagger-2",
                    document.path,
                    document.location("/swagger").line,
                    swagger_2_read(document.data["swagger"]),  # as openapi-invalid says it
                )
            )
    return list(sorted_notes(notes))


def counts(notes: Sequence[Note]) -> dict[str, int]:
    """Kind -> how many (the JSON report's ``not_checked.counts``), in :data:`KINDS`' order."""
    by_kind = Counter(note.kind for note in notes)
    return {kind: by_kind[kind] for kind in sorted(by_kind, key=lambda k: (_ORDER.get(k, 99), k))}


def phrase(notes: Sequence[Note]) -> str:
    """``not checked: 3 remote references not followed; 10 proto imports ...``, or "" when the
    run checked everything it found."""
    parts = []
    for kind, number in counts(notes).items():
        one, many = KINDS.get(kind, (kind, kind))
        parts.append(f"{number} {one if number == 1 else many}")
    return "not checked: " + "; ".join(parts) if parts else ""


def by_file(notes: Sequence[Note]) -> dict[str, str]:
    """What was not checked in each file, for ``speclint files`` (``phrase``); a file with
    nothing is not in it. The notes grouped once, not scanned again for each file."""
    grouped: dict[str, list[Note]] = {}
    for note in notes:
        grouped.setdefault(note.path, []).append(note)
    return {path: phrase(found) for path, found in grouped.items()}
