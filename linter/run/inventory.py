"""What a run checked: every discovered file with its kind, dialect and the reason (issue 14).

A linter that says "no findings" about a repository it did not understand gives a false
all-clear. Every report therefore ends with what was checked (the text report's last line, the
JSON report's ``checked`` object, SARIF's ``run.artifacts``), ``speclint files`` lists each file
with the reason it was classified so, and a run that found nothing checkable says so and fails.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from speclint.analyses.context import Context
from speclint.analyses.repository.provenance import (
    GENERATED,
    NOT_JUDGED,
    holds_same,
    source_holding,
)
from speclint.analyses.workflows.overlays import overlays
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import fixtures
from speclint.parsing.kinds import DocumentKind, generated_blocks

# The kinds a run checks (anything else is counted and ignored), in the order reports list them.
CHECKED_KINDS = (
    DocumentKind.SCHEMA,
    DocumentKind.OPENAPI,
    DocumentKind.ASYNCAPI,
    DocumentKind.OVERLAY,
    DocumentKind.ARAZZO,
    DocumentKind.INSTANCE,
    DocumentKind.MARKDOWN,
    DocumentKind.PROTO,
)
UNREADABLE = "unreadable"  # the kind reported for a file that did not parse
FIXTURE = "fixture"  # a test suite's file: listed, not checked
TEMPLATE = DocumentKind.TEMPLATE.value  # a file a tool renders (Helm, Jinja): listed, not read
SKIPPED = "skipped"  # a folder of installed software or a tool's cache: not entered
_NOUNS = {
    DocumentKind.SCHEMA.value: ("JSON Schema", "JSON Schemas"),
    DocumentKind.OPENAPI.value: ("OpenAPI document", "OpenAPI documents"),
    DocumentKind.ASYNCAPI.value: ("AsyncAPI document", "AsyncAPI documents"),
    DocumentKind.OVERLAY.value: ("OpenAPI Overlay", "OpenAPI Overlays"),
    DocumentKind.ARAZZO.value: ("Arazzo document", "Arazzo documents"),
    DocumentKind.INSTANCE.value: ("instance", "instances"),
    DocumentKind.MARKDOWN.value: ("Markdown page", "Markdown pages"),
    DocumentKind.PROTO.value: ("Protocol Buffers file", "Protocol Buffers files"),
}


OTHER_DIALECT = "another dialect"


@dataclass(frozen=True)
class Entry:
    path: str
    kind: str  # a DocumentKind value, or UNREADABLE
    dialect: str  # "2020-12", "OpenAPI 3.1", ""
    reason: str


def entries(corpus: Context) -> tuple[Entry, ...]:
    """Every discovered file, in path order."""
    found = []
    overlaid = overlays(corpus)
    applied: dict[str, list[str]] = {}
    for target, applying in overlaid.items():
        for overlay in applying:
            applied.setdefault(overlay, []).append(target)
    for path, document in corpus.documents.items():
        if document.kind is DocumentKind.TEMPLATE:
            found.append(Entry(path, TEMPLATE, "", document.reason))
            continue
        if not document.usable:
            problem = document.problem.message if document.problem else "unreadable"
            found.append(Entry(path, UNREADABLE, "", problem))
            continue
        reason = document.reason or (
            "Markdown" if document.kind is DocumentKind.MARKDOWN else "read as data"
        )
        version = corpus.versions.of(path)
        if version:
            reason += f"; version {version}"
        made = corpus.provenance.get(path)
        if made is not None:
            reason += f"; {made.describe()}"
        merged = corpus.merges.describe(path)  # a fragment a bundler merges into another
        if merged is not None:
            reason += f"; {merged}"
        if path in overlaid:  # corrected at build time: a reader of its findings should know
            reason += f"; an OpenAPI Overlay applies to it ({', '.join(overlaid[path])})"
        if path in applied:
            reason += f"; an OpenAPI Overlay of {', '.join(applied[path])}"
        dialect = document.dialect
        data = document.data
        if not dialect and document.kind is DocumentKind.SCHEMA and isinstance(data, dict):
            # A `$schema` no validator knows (a project's own dialect, a next draft): say so,
            # not "no `$schema`" (schema-invalid says which draft it was judged as).
            dialect = OTHER_DIALECT if isinstance(data.get("$schema"), str) else ""
        found.append(Entry(path, document.kind.value, dialect, reason))
    for path in fixtures(corpus.config, corpus.tree):
        found.append(Entry(path, FIXTURE, "", "a test fixture: not checked (see `fixtures`)"))
    return tuple(sorted(found, key=lambda entry: entry.path))


# The rules that still report inside a generated file: a file every consumer fails to read or
# validate is broken whoever wrote it. The others judge writing (links, examples, prose that
# drifts from a schema, schema design), which is fixed in the generator, not in its output.
GENERATED_STILL_CHECKED = frozenset(
    {
        "parse-error",
        "duplicate-key",
        "yaml-indentation",
        "schema-invalid",
        "openapi-invalid",
        "asyncapi-invalid",
        "instance-invalid",
        "unresolved-ref",
        "duplicate-id",
        "internal-error",
    }
)


# The rules that judge what an API document or a schema says to every reader of it, whoever wrote
# it (issue 52, item 5): an example its schema rejects, a schema no value satisfies, an unquoted
# status code, a security requirement naming no scheme. In a generated API document or schema
# such a defect is real: every client generated from it and every reader of its reference sees
# it. Its fix is in the generator's source, so it is reported there when the source is known
# and holds it (``outside_generated``), else in the generated file as a warning that says so.
# Not here: the rules that compare documents with each other or with prose (a generated file
# renders its source, it does not drift from it), prose and link rules, role-based design
# (``closure-policy``), and the document's housekeeping, which no reader is misled by and a
# generator does its own way: components no operation uses (openapi-generator writes every
# response it inlines as an unused component too), tags not declared in `tags` (OpenAPI 3.1.1
# §4.8.1: not all tags used need be declared). Those stay unjudged in a generated file.
GENERATED_CONTENT_RULES = frozenset(
    {
        "array-items-missing",
        "component-name-invalid",
        "discriminator-invalid",
        "example-invalid",
        "example-value-conflict",
        "identical-paths",
        "inapplicable-keyword",
        "no-success-response",
        "non-string-key",
        "nullable-without-type",
        "oas30-leftover",
        "oneof-subsumed-branch",
        "path-key-invalid",
        "pattern-portability",
        "ref-sibling-ignored",
        "required-undeclared",
        "security-scope-undeclared",
        "security-undeclared",
        "server-variable-invalid",
        "unsatisfiable-schema",
        "value-invalid",
    }
)
# The documents those rules judge as content: API documents and schemas (a generated Markdown
# page's example is prose, and stays unjudged).
_CONTENT_KINDS = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI, DocumentKind.SCHEMA)


# The rules whose finding in a generated page, against a hand-written document of the corpus,
# says the page is stale: an API client generator's model docs that disagree with the API
# document they are generated from (issue 46, item 8). The fix is to regenerate the page, and
# its readers read it as it is meanwhile.
STALE_OUTPUT_RULES = frozenset({"type-claim-drift"})


def stale_output(corpus: Context, finding: Finding) -> bool:
    """Whether ``finding`` says a generated page is stale (``STALE_OUTPUT_RULES``): a related
    place in a hand-written, structured document (the source the page was generated from)."""
    if finding.rule not in STALE_OUTPUT_RULES:
        return False
    made = corpus.provenance.get(finding.location.path)
    if made is None or made.kind in NOT_JUDGED:
        return False
    for related in finding.related:
        document = corpus.documents.get(related.path)
        if (
            document is not None
            and document.kind is not DocumentKind.MARKDOWN
            and related.path not in corpus.provenance
        ):
            return True
    return False


def written_by_hand(corpus: Context, findings: Iterable[Finding]) -> list[Finding]:
    """The findings that are not about generated content (issue 26): none at a line of a block
    a tool marks as its own in a Markdown page (``kinds.generated_blocks``), and in a generated
    file only those of ``GENERATED_STILL_CHECKED``, and those of ``GENERATED_CONTENT_RULES`` in
    a generated API document or schema, moved to where they are fixed (``outside_generated``).
    A finding that also names a hand-written page (prose that drifts from a generated schema)
    stays: the fix may be in that page. A generated file's finding that its source has too (the
    same rule saying the same of a hand-written file, or, of a content rule, of the same content
    at another place: a schema the generated file inlines) is dropped: the source's is the one
    finding of that root cause."""
    blocks: dict[str, tuple[tuple[int, int, str], ...]] = {}

    def in_block(location: Location) -> bool:
        document = corpus.documents.get(location.path)
        if document is None or document.kind is not DocumentKind.MARKDOWN or not document.text:
            return False
        if location.path not in blocks:
            blocks[location.path] = generated_blocks(document.text)
        return any(first <= location.line <= last for first, last, _ in blocks[location.path])

    def by_hand(location: Location) -> bool:
        document = corpus.documents.get(location.path)
        return (
            document is not None
            and document.kind is DocumentKind.MARKDOWN
            and location.path not in corpus.provenance
            and not in_block(location)
        )

    findings = list(findings)
    # A generated file's defect that its source has too (the same rule saying the same of a
    # hand-written file: a bundle's `{?id*}` path of an operation file) is the source's,
    # reported there once (issue 45, item 3: one finding per root cause).
    at_sources = {
        (f.rule, _gist(f.message)) for f in findings if f.location.path not in corpus.provenance
    }

    def about_generated(finding: Finding) -> bool:
        if finding.rule == "internal-error":
            return False
        made = corpus.provenance.get(finding.location.path)
        if made is not None and (finding.rule, _gist(finding.message)) in at_sources:
            return True
        # A vendored or upstream file is someone else's output kept here, a bundle or a copy
        # is its source's content again (issue 45, item 3): its defects are fixed where it
        # comes from, so not even the consumer-facing rules judge it.
        if not in_block(finding.location) and (
            made is None
            or (made.kind not in NOT_JUDGED and finding.rule in GENERATED_STILL_CHECKED)
        ):
            return False
        if made is not None and made.sources:
            return True  # its source has the same finding: one finding per root cause
        if stale_output(corpus, finding):
            return False
        return not any(by_hand(related) for related in finding.related)

    # A generated file that embeds its source's part at another place (a compiled schema that
    # inlines another under `/properties/phones/items`) says the same of it with other pointers.
    placed: dict[str, list[Finding]] = {}
    for f in findings:
        if f.rule in GENERATED_CONTENT_RULES and f.location.path not in corpus.provenance:
            placed.setdefault(f.rule, []).append(f)

    def at_a_source(finding: Finding) -> bool:
        return any(_same_defect(corpus, finding, f) for f in placed.get(finding.rule, ()))

    def content_of_generated(finding: Finding) -> bool:
        made = corpus.provenance.get(finding.location.path)
        document = corpus.documents.get(finding.location.path)
        return (
            made is not None
            and made.kind == GENERATED
            and finding.rule in GENERATED_CONTENT_RULES
            and document is not None
            and document.kind in _CONTENT_KINDS
            and (finding.rule, _gist(finding.message)) not in at_sources
            and not at_a_source(finding)
        )

    kept: list[Finding] = []
    moved: list[tuple[Finding, Finding]] = []
    for finding in findings:
        if not about_generated(finding):
            kept.append(finding)
        elif content_of_generated(finding):
            moved.append((finding, outside_generated(corpus, finding)))
    return kept + _once(corpus, moved)


def outside_generated(corpus: Context, finding: Finding) -> Finding:
    """A content defect found in a generated API document or schema (``GENERATED_CONTENT_RULES``),
    where it is fixed: in the generated file's source when the source holds the same content at
    the same place (``provenance.source_holding``), the generated file related; else in the
    generated file, at most a warning (nobody edits it), its message saying the file is
    generated, by which evidence, and that the fix goes into its source or generator. Its key
    stays the rule's, so the fingerprint does not change with that note, and two generated
    files of one source give the source one finding."""
    made = corpus.provenance[finding.location.path]
    here = finding.location
    source = source_holding(corpus, made, here.path, here.pointer) if here.pointer else None
    key = finding.key if finding.key is not None else finding.message
    if source is None:
        note = (
            f"(this file is {made.describe()}: make the fix in its source or its generator, "
            "then regenerate it)"
        )
        return replace(
            _closed(finding, note), severity=min(finding.severity, Severity.WARNING), key=key
        )
    note = (
        f"(found in `{here.path}`, generated from this file: fix it here, then regenerate "
        f"`{here.path}`)"
    )
    generated = replace(here, note=f"where it was found: `{here.path}` is {made.describe()}")
    return replace(
        _closed(finding, note),
        location=corpus.documents[source].location(here.pointer or ""),
        related=(generated, *finding.related),
        key=key,
        members=(),  # its places were the generated file's
    )


def _closed(finding: Finding, note: str) -> Finding:
    """``finding`` with ``note`` closing its message and the message's terminal form."""
    shortened = f"{finding.shortened} {note}" if finding.shortened is not None else None
    return replace(finding, message=f"{finding.message} {note}", shortened=shortened)


def _once(corpus: Context, moved: list[tuple[Finding, Finding]]) -> list[Finding]:
    """One finding per root cause among the defects found in generated files, each given as
    found and as moved (``outside_generated``): the same defect (``_same_defect``) in two
    generated files (a YAML and a JSON rendering of one source, two documents a generator
    assembles from one shared part, under other paths) is reported once, at the first, the
    other places related."""
    groups: dict[str, list[int]] = {}
    out: list[Finding] = []
    origins: list[Finding] = []
    for found, finding in moved:
        same = next(
            (n for n in groups.get(finding.rule, ()) if _same_defect(corpus, origins[n], found)),
            None,
        )
        if same is None:
            groups.setdefault(finding.rule, []).append(len(out))
            out.append(finding)
            origins.append(found)
            continue
        kept = out[same]
        places = [kept.location, *kept.related]
        also = replace(found.location, note="the same in this generated file")
        more = [place for place in (also, *finding.related) if place not in places]
        out[same] = replace(kept, related=(*kept.related, *more))
    return out


def _same_defect(corpus: Context, one: Finding, other: Finding) -> bool:
    """Whether two findings of a content rule are one defect found twice: the same rule at two
    places that hold the same content (``provenance.holds_same``), saying the same but for the
    places it quotes, or judging it in the same context (the two places' parents hold the same
    content too: an example inside the same schema, which a message may name by another place
    or as a related location)."""
    if one.rule != other.rule:
        return False
    here = (one.location.path, one.location.pointer or "")
    there = (other.location.path, other.location.pointer or "")
    if here != there and not holds_same(corpus, here, there):
        return False
    if _unplaced(one.message) == _unplaced(other.message):
        return True
    if here == there or not here[1] or not there[1]:
        return False  # two findings at one place say two things
    return holds_same(
        corpus, (here[0], here[1].rsplit("/", 1)[0]), (there[0], there[1].rsplit("/", 1)[0])
    )


# What a message says of the defect itself, not where: its leading JSON pointer (`/paths/~1a:
# …`, a validator's place) and a closing note of how the file is reached (`(… reaches this
# file by `$ref`)`).
_PLACE = re.compile(r"^/\S*: ")
_REACHED = re.compile(r"\s*\([^()]*\breaches this file\b[^()]*\)$")


def _gist(message: str) -> str:
    return _REACHED.sub("", _PLACE.sub("", message))


# A place a message quotes (`/properties/extension`, `#/components/schemas/Run`).
_QUOTED_PLACE = re.compile(r"`#?/[^`]*`")


def _unplaced(message: str) -> str:
    """What a message says of the defect without any place it quotes."""
    return _QUOTED_PLACE.sub("``", _gist(message))


def skipped(corpus: Context) -> tuple[Entry, ...]:
    """The folders discovery did not enter, and why (a virtual environment, ``node_modules``, a
    cache): ``speclint files`` lists them, so a user who expected their content sees where it
    went. Walked again from the root, only for that listing."""
    return tuple(Entry(path, SKIPPED, "", why) for path, why in corpus.folders_skipped())


def counts(inventory: Sequence[Entry]) -> dict[str, int]:
    """Kind -> how many files (the JSON report's ``checked`` object), checked kinds first."""
    by_kind = Counter(entry.kind for entry in inventory)
    order = [kind.value for kind in CHECKED_KINDS] + [
        DocumentKind.DATA.value,
        UNREADABLE,
        TEMPLATE,
        FIXTURE,
    ]
    return {kind: by_kind[kind] for kind in order if by_kind[kind]}


def checked_anything(inventory: Sequence[Entry]) -> bool:
    wanted = {kind.value for kind in CHECKED_KINDS}
    return any(entry.kind in wanted for entry in inventory)


def phrase(inventory: Sequence[Entry]) -> str:
    """``checked 40 JSON Schemas (38 2020-12, 2 draft-07), 1 OpenAPI document (3.1), ...``."""
    parts = []
    for kind in CHECKED_KINDS:
        these = [entry for entry in inventory if entry.kind == kind.value]
        if not these:
            continue
        one, many = _NOUNS[kind.value]
        part = f"{len(these)} {one if len(these) == 1 else many}"
        dialects = Counter(entry.dialect or "no `$schema`" for entry in these)
        if kind is not DocumentKind.MARKDOWN and kind is not DocumentKind.INSTANCE:
            names = {
                name: name.removeprefix("OpenAPI ")
                .removeprefix("AsyncAPI ")
                .removeprefix("Overlay ")
                .removeprefix("Arazzo ")
                for name in dialects
            }
            shown = [
                f"{n} {names[name]}" if len(dialects) > 1 else names[name]
                for name, n in sorted(dialects.items())
            ]
            part += f" ({', '.join(shown)})"
        parts.append(part)
    others = sum(1 for entry in inventory if entry.kind == DocumentKind.DATA.value)
    unreadable = sum(1 for entry in inventory if entry.kind == UNREADABLE)
    text = "checked " + (", ".join(parts) if parts else "nothing")
    if unreadable:
        text += f"; {unreadable} file{'s' if unreadable != 1 else ''} could not be read"
    if others:
        text += f"; {others} other JSON/YAML file{'s' if others != 1 else ''} ignored"
    templates = sum(1 for entry in inventory if entry.kind == TEMPLATE)
    if templates:
        text += f"; {templates} template{'s' if templates != 1 else ''} not read"
    left = sum(1 for entry in inventory if entry.kind == FIXTURE)
    if left:
        text += f"; {left} test fixture{'s' if left != 1 else ''} not checked"
    return text


def nothing_found(root: str, inventory: Sequence[Entry]) -> str:
    """The message for a run that found nothing it checks: what it looked for, and where."""
    others = len(inventory)
    return (
        f"nothing to check in {root}: no JSON Schema, OpenAPI or AsyncAPI document, instance, "
        f"Markdown page or Protocol Buffers file was found among {others} "
        f"JSON/YAML/Markdown/.proto file"
        f"{'s' if others != 1 else ''} (see `speclint files {root}`; `include` in speclint.toml "
        "says where to look)"
    )
