"""What an Arazzo document names, resolved in the corpus: its sources and its steps' operations
(issue 49, items 2 and 3).

An Arazzo document's ``sourceDescriptions`` name the API documents (and other Arazzo documents)
its steps call, by a URL relative to the Arazzo file (Arazzo 1.0.1 §4.5, "Relative References in
URLs"). A step calls an operation of one by ``operationId`` (bare when there is one OpenAPI source,
else ``$sourceDescriptions.<name>.<operationId>``, §4.6.5), by ``operationPath``
(``{$sourceDescriptions.<name>.url}#/paths/~1pets/get``: a JSON pointer into the source), or a
workflow by ``workflowId`` (local, or ``$sourceDescriptions.<name>.<workflowId>`` in an Arazzo
source). This module resolves each to a corpus file, an operation (``speclint.analyses.api.operations``)
or a workflow (``speclint.model.arazzo``), says why when it cannot, and names the near miss: the
rules ``arazzo-unresolved-source``, ``arazzo-unresolved-operation``, ``arazzo-unknown-parameter``
and ``arazzo-payload-invalid`` report from it, and ``speclint bindings`` lists its bindings.

A source at a remote URL, or leading out of the root, is not read (no network, nothing outside
the root): what its steps call is then not checked, which the run says among what it did not
check, never as a finding.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, cast
from urllib.parse import unquote

from speclint.analyses.api.operations import HTTP_METHODS, Operation, api_operations
from speclint.analyses.context import Context
from speclint.model.arazzo import (
    ARAZZO_SOURCE,
    OPENAPI_SOURCE,
    ArazzoDocument,
    Parameter,
    SourceDescription,
    Step,
    Workflow,
    arazzo_document,
    arazzo_documents,
)
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import follow_local, join_pointer, split_pointer

# A URL with a scheme (RFC 3986 §3.1): not a path in the repository.
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# `$sourceDescriptions.<name>.<rest>` (Arazzo 1.0.1 §4.7, runtime expression ABNF: a source
# name is `[A-Za-z0-9_\-]+`; what follows its dot is an operationId or a workflowId).
_QUALIFIED = re.compile(r"^\$sourceDescriptions\.([A-Za-z0-9_\-]+)\.(.+)$")
# `{$sourceDescriptions.<name>.url}#<pointer>` (§4.6.5, operationPath).
_OPERATION_PATH = re.compile(r"^\{\$sourceDescriptions\.([A-Za-z0-9_\-]+)\.url\}#(.*)$")
# `<name>#<pointer>`: a source's name where its URL expression belongs (not Arazzo 1.0; a
# catalogue's generator writes all its steps so).
# Also the expression without its braces or `.url` (`$sourceDescriptions.<name>#<pointer>`,
# `$sourceDescriptions.<name>.url#<pointer>`), as Redocly's runner reads it.
_SHORT_PATH = re.compile(r"^(?:\$sourceDescriptions\.)?([A-Za-z0-9_\-]+)(?:\.url)?#(/.*)$")

# How a source description resolves.
FOUND = "found"  # a usable OpenAPI or Arazzo document of the corpus
REMOTE = "remote"  # an http(s) (or other scheme) URL: not fetched
OUTSIDE = "outside-root"  # a relative path leading out of the root: not read
NOT_READ = "not-read"  # a file of the repository that discovery does not read (left out)
UNREADABLE = "unreadable"  # a corpus file that did not parse (parse-error's finding)
OTHER_KIND = "other-kind"  # a corpus file that is no OpenAPI or Arazzo document
MISSING = "missing"  # no file of the repository


@dataclass(frozen=True)
class ResolvedSource:
    """A source description and the corpus file it names."""

    description: SourceDescription
    status: str  # FOUND, REMOTE, OUTSIDE, NOT_READ, UNREADABLE, OTHER_KIND or MISSING
    path: str  # the root-relative path it names ("" for a remote URL)
    document: Document | None  # the document, when FOUND (or OTHER_KIND)
    # FOUND only from the root: the URL names no file relative to the Arazzo file (Arazzo
    # 1.0.1 §4.5), but ``path`` relative to the corpus root, as some catalogues write them
    # (`./apis/openapi/…` from `workflows/x/`). Bound, so the steps are checked;
    # arazzo-unresolved-source reports the URL once per document.
    from_root: bool = False
    # FOUND only by its tail: an absolute path (`/itarazzo/specs/loan.yaml`) naming no file from
    # the root, whose tail after ``mounted_at`` (`/itarazzo`) names one corpus document: the
    # repository as a runner's container or CI job mounts it. Bound, so the steps are checked;
    # what the folder is outside the repository is not known here (a coverage note, no finding).
    mounted_at: str = ""

    @property
    def checked(self) -> bool:
        """Whether what the source holds can be read here."""
        return self.status == FOUND

    @property
    def is_openapi(self) -> bool:
        return self.document is not None and self.document.kind is DocumentKind.OPENAPI

    @property
    def holds_no_workflows(self) -> bool:
        """Whether the source is known to hold no workflow: an OpenAPI document read here, or
        one not read whose declared `type` is `openapi` (Arazzo 1.0.1 §4.6.3: workflows are
        in `arazzo` sources; an OpenAPI document holds operations)."""
        if self.document is not None:
            return self.is_openapi
        return self.description.type == OPENAPI_SOURCE


def resolved_sources(corpus: Context, arazzo: ArazzoDocument) -> dict[str, ResolvedSource]:
    """The document's source descriptions by name (the first of a repeated name), resolved;
    once a run (the bindings, the expressions and the targets all ask)."""
    key = f"arazzo.sources:{arazzo.path}"
    cached = corpus.memo.get(key)
    if cached is not None:
        return cast(dict[str, ResolvedSource], cached)
    found: dict[str, ResolvedSource] = {}
    for source in arazzo.source_descriptions:
        found.setdefault(source.name, resolve_source(corpus, arazzo.path, source))
    corpus.memo[key] = found
    return found


def resolve_source(corpus: Context, path: str, source: SourceDescription) -> ResolvedSource:
    """The corpus file ``source`` (of the Arazzo document at ``path``) names: its URL without a
    fragment, relative to the Arazzo file's folder (Arazzo 1.0.1 §4.5), or to the root when it
    starts with ``/``."""
    url = source.url.split("#", 1)[0]
    if _SCHEME.match(url):
        return ResolvedSource(source, REMOTE, "", None)
    written = unquote(url)
    if written.startswith("/"):
        named = posixpath.normpath(written.lstrip("/"))
    else:
        named = posixpath.normpath(posixpath.join(posixpath.dirname(path), written))
    if named == ".." or named.startswith("../"):
        return ResolvedSource(source, OUTSIDE, named, None)
    document = corpus.documents.get(named)
    if document is None:
        status = NOT_READ if named in corpus.tree else MISSING
        rooted = posixpath.normpath(written)
        found = corpus.documents.get(rooted) if status == MISSING else None
        if (
            found is not None
            and found.usable
            and found.kind in (DocumentKind.OPENAPI, DocumentKind.ARAZZO)
            and not rooted.startswith("../")
        ):
            return ResolvedSource(source, FOUND, rooted, found, from_root=True)
        if status == MISSING and written.startswith("/"):
            mounted = _mounted(corpus, named)
            if mounted is not None:
                tail, document = mounted
                prefix = "/" + named[: -len(tail)].rstrip("/")
                return ResolvedSource(source, FOUND, tail, document, mounted_at=prefix)
        return ResolvedSource(source, status, named, None)
    if not document.usable:
        return ResolvedSource(source, UNREADABLE, named, document)
    if document.kind not in (DocumentKind.OPENAPI, DocumentKind.ARAZZO):
        return ResolvedSource(source, OTHER_KIND, named, document)
    return ResolvedSource(source, FOUND, named, document)


def _mounted(corpus: Context, named: str) -> tuple[str, Document] | None:
    """The corpus document an absolute path's tail names when its head does not (the path
    where a runner mounts the repository: `itarazzo/specs/loan.yaml` -> `specs/loan.yaml`),
    with the tail: the longest tail of at least a folder and a file that names a usable OpenAPI
    or Arazzo document (a bare file name is too weak a match); None when none does."""
    parts = named.split("/")
    for start in range(1, len(parts) - 1):
        tail = "/".join(parts[start:])
        document = corpus.documents.get(tail)
        if (
            document is not None
            and document.usable
            and document.kind in (DocumentKind.OPENAPI, DocumentKind.ARAZZO)
        ):
            return tail, document
    return None


def near_source_paths(
    corpus: Context, named: str, source_type: str = "", referrer: str = ""
) -> list[str]:
    """The corpus's documents ``named`` may have meant: the same name in another letter case or
    folder, else a close spelling (difflib). Of the kind the source's ``source_type`` says
    (`openapi`, `arazzo`; either when another or none), never the Arazzo document
    ``referrer`` that names it (a workflow does not call itself as its API)."""
    kinds = {
        OPENAPI_SOURCE: (DocumentKind.OPENAPI,),
        ARAZZO_SOURCE: (DocumentKind.ARAZZO,),
    }.get(source_type, (DocumentKind.OPENAPI, DocumentKind.ARAZZO))
    paths = [d.path for d in corpus.of_kind(*kinds) if d.path != referrer]
    lowered = named.lower()
    same = [p for p in paths if p.lower() == lowered]
    if same:
        return same
    base = posixpath.basename(lowered)
    elsewhere = [p for p in paths if posixpath.basename(p).lower() == base]
    if len(elsewhere) > 2:
        # A catalogue where every API is `openapi.json`: the one meant is in a folder of the
        # same distinctive name (`kubernetes.io/…` for `kubernetes.io/…`), else none is known.
        return _same_folder_name(lowered, elsewhere)
    if elsewhere:
        return sorted(elsewhere)
    if len(paths) > _SPELLING_POOL:
        return []  # difflib over thousands of long, alike paths: minutes, and no answer
    return difflib.get_close_matches(named, paths, n=2, cutoff=0.8)


# How many documents a close spelling of a missing source's path is looked for among.
_SPELLING_POOL = 2000


def _same_folder_name(named: str, paths: list[str]) -> list[str]:
    """Those of ``paths`` sharing a folder name with ``named`` that at most two of them have."""
    folders = set(posixpath.dirname(named).split("/"))
    counts: dict[str, int] = {}
    for path in paths:
        for folder in set(posixpath.dirname(path).lower().split("/")):
            counts[folder] = counts.get(folder, 0) + 1
    rare = {f for f in folders if 0 < counts.get(f, 0) <= 2}
    return sorted(p for p in paths if rare & set(posixpath.dirname(p).lower().split("/")))[:2]


# --- steps --------------------------------------------------------------------------------------

# How a step's call resolves.
RESOLVED = "resolved"
UNRESOLVED = "unresolved"  # names nothing the sources hold (``reason``, ``meant``)
# A bare operationId that several OpenAPI sources hold, or an operationId that several operations
# of one source hold, the step's parameters fitting not exactly one (``candidates``).
AMBIGUOUS = "ambiguous"
UNCHECKED = "unchecked"  # its source is not read (remote, outside the root, unreadable)


@dataclass(frozen=True)
class StepBinding:
    """What one step calls, as resolved in the corpus."""

    arazzo: ArazzoDocument
    workflow: Workflow
    step: Step
    field: str  # "operationId" | "operationPath" | "workflowId" ("" when the step names none)
    written: str  # the field's value, as written
    status: str  # RESOLVED, UNRESOLVED, AMBIGUOUS or UNCHECKED
    operation: Operation | None = None  # the operation called (RESOLVED, an operation)
    called: Workflow | None = None  # the workflow called (RESOLVED, a workflow)
    called_in: ArazzoDocument | None = None  # the Arazzo document holding ``called``
    evidence: str = ""  # how it resolved: "operationId `getPet` of pets.yaml"
    reason: str = ""  # why it did not resolve (UNRESOLVED, UNCHECKED)
    meant: tuple[str, ...] = ()  # the names or pointers it may have meant (a near miss)
    candidates: tuple[Operation, ...] = ()  # AMBIGUOUS: every operation of that id
    source: ResolvedSource | None = None  # the source it names, when it names one
    # How Arazzo 1.0 writes what it names, when it is written another way that a tool reads
    # (Redocly's `<source>.<operationId>` for `$sourceDescriptions.<source>.<operationId>`):
    # it is bound, and arazzo-unresolved-operation warns.
    standard: str = ""


def step_bindings(corpus: Context) -> tuple[StepBinding, ...]:
    """Every step of every Arazzo document of the corpus with what it calls, in document order
    (those that name no call, left to arazzo-invalid, included with ``field`` empty). Built
    once per run."""
    cached = corpus.memo.get("arazzo.step_bindings")
    if cached is not None:
        return cast(tuple[StepBinding, ...], cached)
    operations = api_operations(corpus)
    by_document: dict[str, list[Operation]] = {}
    for operation in operations:
        by_document.setdefault(operation.document.path, []).append(operation)
    found: list[StepBinding] = []
    for arazzo in arazzo_documents(corpus):
        sources = resolved_sources(corpus, arazzo)
        for workflow, step in arazzo.steps():
            found.append(_bind(corpus, arazzo, sources, by_document, workflow, step))
    result = tuple(found)
    corpus.memo["arazzo.step_bindings"] = result
    return result


def _bind(
    corpus: Context,
    arazzo: ArazzoDocument,
    sources: dict[str, ResolvedSource],
    by_document: dict[str, list[Operation]],
    workflow: Workflow,
    step: Step,
) -> StepBinding:
    bind = _Binder(corpus, arazzo, sources, by_document, workflow, step)
    if step.operation_id:
        return bind.operation_id(step.operation_id)
    if step.operation_path:
        return bind.operation_path(step.operation_path)
    if step.workflow_id:
        return bind.workflow_id(step.workflow_id)
    return StepBinding(arazzo, workflow, step, "", "", UNCHECKED, reason="the step calls nothing")


class _Binder:
    """Resolves one step's call (``_bind``)."""

    def __init__(
        self,
        corpus: Context,
        arazzo: ArazzoDocument,
        sources: dict[str, ResolvedSource],
        by_document: dict[str, list[Operation]],
        workflow: Workflow,
        step: Step,
    ) -> None:
        self.corpus = corpus
        self.arazzo = arazzo
        self.sources = sources
        self.by_document = by_document
        self.workflow = workflow
        self.step = step

    def result(self, field: str, written: str, status: str, **more: Any) -> StepBinding:
        return StepBinding(self.arazzo, self.workflow, self.step, field, written, status, **more)

    def named_source(self, field: str, written: str, name: str) -> StepBinding | ResolvedSource:
        """The source ``name`` a qualified reference names, or the binding saying why not."""
        source = self.sources.get(name)
        if source is None:
            names = sorted(self.sources)
            return self.result(
                field,
                written,
                UNRESOLVED,
                reason=f"the document declares no source description named `{name}`"
                + (f" (it declares {listed(names)})" if names else ""),
                meant=tuple(near_names(name, names)),
            )
        if not source.checked:
            return self.result(field, written, UNCHECKED, reason=_unread(source), source=source)
        return source

    def operation_id(self, written: str) -> StepBinding:
        field = "operationId"
        qualified = _QUALIFIED.match(written)
        if qualified is not None:
            source = self.named_source(field, written, qualified.group(1))
            if isinstance(source, StepBinding):
                return source
            if not source.is_openapi:
                return self.result(
                    field,
                    written,
                    UNRESOLVED,
                    reason=f"source `{source.description.name}` ({source.path}) is no OpenAPI "
                    "document",
                    source=source,
                )
            return self._by_id(written, qualified.group(2), [source])
        openapi = [s for s in self.sources.values() if s.description.type != ARAZZO_SOURCE]
        read = [s for s in openapi if s.is_openapi]
        if not read and openapi:
            unread = next((s for s in openapi if not s.checked), None)
            if unread is not None:
                return self.result(field, written, UNCHECKED, reason=_unread(unread), source=unread)
        bound = self._by_id(written, written, read)
        if bound.status == UNRESOLVED:
            bound = self._shorthand(written) or bound
        if bound.status == UNRESOLVED and any(not s.checked for s in openapi):
            # The operation may be in the source not read: nothing is known.
            unread = next(s for s in openapi if not s.checked)
            return self.result(field, written, UNCHECKED, reason=_unread(unread), source=unread)
        return bound

    def _shorthand(self, written: str) -> StepBinding | None:
        """``<source>.<operationId>``: not Arazzo 1.0 (§4.6.5 qualifies an operationId as
        `$sourceDescriptions.<name>.<operationId>`), but what Redocly's Respect runner reads.
        Bound to the operation when the part before the first `.` names an OpenAPI source that
        has the rest as an operationId (a bare operationId with a dot is looked up first)."""
        name, dot, identifier = written.partition(".")
        source = self.sources.get(name) if dot else None
        if source is None or not source.is_openapi:
            return None
        bound = self._by_id(written, identifier, [source])
        if bound.status == AMBIGUOUS:
            return bound  # the source has it, more than once
        if bound.status != RESOLVED:
            return None
        return replace(bound, standard=f"$sourceDescriptions.{name}.{identifier}")

    def _by_id(self, written: str, identifier: str, sources: list[ResolvedSource]) -> StepBinding:
        field = "operationId"
        # Two source descriptions may name one file: its operations count once.
        paths = dict.fromkeys(s.path for s in sources)
        held = [op for path in paths for op in self.by_document.get(path, ())]
        matching = [op for op in held if op.identifier == identifier]
        if len({op.document.path for op in matching}) == 1:
            # One document declaring the id twice is that document's defect (openapi-invalid:
            # OpenAPI 3.1 §4.8.10, "MUST be unique"). An imported catalogue calls a list GET
            # and a by-id GET both `Things_Get`: the step is bound to the one its parameters
            # fit, and to none when they fit several or none (nothing is judged against a
            # guessed operation; arazzo-unresolved-operation says so, once).
            fitting = self._fitting(matching) if len(matching) > 1 else matching
            if len(fitting) != 1:
                path = matching[0].document.path
                labels = listed(op.label for op in matching).replace("`", "")
                return self.result(
                    field,
                    written,
                    AMBIGUOUS,
                    reason=f"operationId `{identifier}` names {len(matching)} operations of "
                    f"{path} ({labels})",
                    candidates=tuple(matching),
                    source=_source_of(sources, matching[0]),
                )
            operation = fitting[0]
            twice = (
                f" (of the {len(matching)} of that id, the one taking the step's parameters)"
                if len(matching) > 1
                else ""
            )
            return self.result(
                field,
                written,
                RESOLVED,
                operation=operation,
                evidence=f"operationId `{identifier}` of {operation.document.path}{twice}",
                source=_source_of(sources, operation),
            )
        if len(matching) > 1:
            return self.result(
                field,
                written,
                AMBIGUOUS,
                reason=f"operationId `{identifier}` is an operation of "
                f"{listed(sorted({op.document.path for op in matching}))}",
                candidates=tuple(matching),
            )
        reason = (
            f"no operation of {listed(sorted({s.path for s in sources}))} has the operationId "
            f"`{identifier}`"
            if sources
            else "the document declares no OpenAPI source description the operation could be in"
        )
        return self.result(
            field,
            written,
            UNRESOLVED,
            reason=reason,
            meant=tuple(
                near_names(identifier, sorted({op.identifier for op in held if op.identifier}))
            ),
            source=sources[0] if len(sources) == 1 else None,
        )

    def _fitting(self, candidates: list[Operation]) -> list[Operation]:
        """Those of ``candidates`` (one document's operations sharing an operationId) taking
        every parameter the step passes, by name and `in` (``accepted_parameters``). A
        parameter in no Arazzo place (`in: body`) is arazzo-invalid's and is not weighed; a
        header or cookie none of them takes neither (HTTP lets a client send any header,
        RFC 9110 §6.3); a candidate whose parameters are not all read (a `$ref` to another
        file) may take any."""
        passed = [
            (p.name, p.in_)
            for p in (effective_parameter(self.arazzo, w) for w in self.step.parameters)
            if p is not None and (not p.in_ or p.in_ in PARAMETER_PLACES)
        ]
        taken = [accepted_parameters(op) for op in candidates]

        def fits(accepted: AcceptedParameters) -> bool:
            return not accepted.whole or all(
                accepted.takes(name, where)
                or (where in ("header", "cookie") and not any(t.takes(name, where) for t in taken))
                for name, where in passed
            )

        return [op for op, accepted in zip(candidates, taken, strict=True) if fits(accepted)]

    def operation_path(self, written: str) -> StepBinding:
        field = "operationPath"
        parts = _OPERATION_PATH.match(written)
        if parts is None:
            short = _SHORT_PATH.match(written)
            if short is not None and short.group(1) in self.sources:
                # `<source>#<pointer>`: not Arazzo 1.0, but what it means is plain.
                bound = self._path_in(written, short.group(1), short.group(2))
                if bound.status == RESOLVED:
                    standard = f"{{$sourceDescriptions.{short.group(1)}.url}}#{short.group(2)}"
                    return replace(bound, standard=standard)
            return self.result(
                field,
                written,
                UNRESOLVED,
                reason="it is not `{$sourceDescriptions.<name>.url}#<JSON pointer>` "
                "(Arazzo 1.0.1 §4.6.5)",
            )
        return self._path_in(written, parts.group(1), parts.group(2))

    def _path_in(self, written: str, name: str, fragment: str) -> StepBinding:
        """The operation at the JSON pointer ``fragment`` of the source ``name``."""
        field = "operationPath"
        source = self.named_source(field, written, name)
        if isinstance(source, StepBinding):
            return source
        pointer = unquote(fragment)
        held = self.by_document.get(source.path, []) if source.is_openapi else []
        for operation in held:
            if operation.pointer == pointer:
                return self.result(
                    field,
                    written,
                    RESOLVED,
                    operation=operation,
                    evidence=f"{source.path}#{pointer}",
                    source=source,
                )
        return self.result(
            field,
            written,
            UNRESOLVED,
            reason=f"{source.path} has no operation at `{pointer}`",
            meant=tuple(_near_pointer(pointer, held)),
            source=source,
        )

    def workflow_id(self, written: str) -> StepBinding:
        field = "workflowId"
        qualified = _QUALIFIED.match(written)
        if qualified is None:
            return self._workflow_in(written, written, self.arazzo, None)
        declared = self.sources.get(qualified.group(1))
        if declared is not None and declared.document is None and declared.holds_no_workflows:
            # Not read (remote), but its declared type already says it holds no workflow.
            return self.result(
                field,
                written,
                UNRESOLVED,
                reason=f"source `{declared.description.name}` is declared `type: openapi`: an "
                "OpenAPI document holds no workflows (Arazzo 1.0.1 §4.6.3)",
                meant=self._local_workflows(qualified.group(2)),
                source=declared,
            )
        source = self.named_source(field, written, qualified.group(1))
        if isinstance(source, StepBinding):
            return source
        other = arazzo_document(source.document) if source.document is not None else None
        if other is None:
            return self.result(
                field,
                written,
                UNRESOLVED,
                reason=f"source `{source.description.name}` ({source.path}) is no Arazzo document",
                meant=self._local_workflows(qualified.group(2)),
                source=source,
            )
        return self._workflow_in(written, qualified.group(2), other, source)

    def _local_workflows(self, identifier: str) -> tuple[str, ...]:
        """The workflows of this document a workflowId qualified by a source holding none may
        have meant: the same id, else a near one."""
        local = [w.workflow_id for w in self.arazzo.workflows if w.workflow_id]
        return (identifier,) if identifier in local else tuple(near_names(identifier, local))

    def _workflow_in(
        self,
        written: str,
        identifier: str,
        arazzo: ArazzoDocument,
        source: ResolvedSource | None,
    ) -> StepBinding:
        called = arazzo.workflow(identifier)
        if called is not None:
            return self.result(
                "workflowId",
                written,
                RESOLVED,
                called=called,
                called_in=arazzo,
                evidence=f"workflowId `{identifier}` of {arazzo.path}",
                source=source,
            )
        segment, dot, rest = identifier.partition(".")
        if source is not None and dot and segment == "workflows" and arazzo.workflow(rest):
            # `$sourceDescriptions.<name>.workflows.<workflowId>`: not Arazzo 1.0 (§4.6.5
            # qualifies a workflowId with the source name alone), but what Redocly's Respect
            # runner reads; its meaning is plain, so it is bound, with the standard form.
            bound = self._workflow_in(written, rest, arazzo, source)
            standard = f"$sourceDescriptions.{source.description.name}.{rest}"
            return replace(bound, standard=standard)
        names = [w.workflow_id for w in arazzo.workflows if w.workflow_id]
        return self.result(
            "workflowId",
            written,
            UNRESOLVED,
            reason=f"{arazzo.path} has no workflow `{identifier}`",
            meant=tuple(near_names(identifier, names)),
            source=source,
        )


def _source_of(sources: list[ResolvedSource], operation: Operation) -> ResolvedSource | None:
    return next((s for s in sources if s.path == operation.document.path), None)


def _unread(source: ResolvedSource) -> str:
    """Why what a source holds is not checked."""
    name = f"source `{source.description.name}`"
    if source.status == REMOTE:
        return f"{name} is a remote URL ({source.description.url}), not fetched"
    if source.status == OUTSIDE:
        return f"{name} leads out of the repository ({source.description.url})"
    if source.status == NOT_READ:
        return f"{name} ({source.path}) is a file speclint does not read"
    if source.status == UNREADABLE:
        return f"{name} ({source.path}) could not be read"
    if source.status == OTHER_KIND:
        return f"{name} ({source.path}) is no OpenAPI or Arazzo document"
    return f"{name} names no file of the repository ({source.path})"


def listed(names: Iterable[str], most: int = 5) -> str:
    """``names`` in code spans, comma-separated, the first ``most`` then how many more."""
    shown = [f"`{n}`" for n in names]
    if len(shown) > most:
        shown = [*shown[:most], f"{len(shown) - most} more"]
    return ", ".join(shown)


def near_names(name: str, names: Iterable[str]) -> list[str]:
    """What ``name`` may have meant among ``names``: the same name in another letter case, else
    the same words joined otherwise, else the closest spellings (difflib, ratio 0.75 or more):
    the near miss the Arazzo analyses and rules name in their fix."""
    pool = sorted(set(names))
    same = [n for n in pool if n.lower() == name.lower() and n != name]
    if same:
        return same
    joined = [n for n in pool if _joined(n) == _joined(name) and n != name]
    if joined:
        return joined  # `get_pet` for `getPet`: the same words, joined otherwise
    return difflib.get_close_matches(name, pool, n=2, cutoff=0.75)


def _joined(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def _near_pointer(pointer: str, held: list[Operation]) -> list[str]:
    """The operation pointers ``pointer`` may have meant: a path written unescaped
    (``#/paths/pets/get`` for ``#/paths/~1pets/get``, RFC 6901 §3), or in another case, or a
    close spelling of the path with the same method."""
    tokens = split_pointer(pointer)
    pointers = [op.pointer for op in held]
    if len(tokens) >= 2 and tokens[0] == "paths" and tokens[-1].lower() in HTTP_METHODS:
        # `/paths/pets/{id}/get`: the path's own slashes not escaped.
        route = "/" + "/".join(tokens[1:-1]).lstrip("/")
        escaped = join_pointer(join_pointer("/paths", route), tokens[-1].lower())
        if escaped in pointers and escaped != pointer:
            return [escaped]
    same = [p for p in pointers if p.lower() == pointer.lower() and p != pointer]
    if same:
        return same
    return difflib.get_close_matches(pointer, pointers, n=2, cutoff=0.8)


# --- parameters and bodies of an operation ------------------------------------------------------


@dataclass(frozen=True)
class DeclaredParameter:
    """A parameter an operation takes: its path item's or its own (a ``$ref`` followed)."""

    name: str
    in_: str
    pointer: str  # where it is declared (the Parameter Object, the reference followed)


def operation_parameters(operation: Operation) -> tuple[list[DeclaredParameter], bool]:
    """The parameters ``operation`` takes (OpenAPI 3.1 §4.8.9: its Path Item's, and its own,
    which override them by name and location), and whether every one was read (False when a
    ``$ref`` leads to another file or nowhere: what it names is unknown here)."""
    data = operation.document.data
    item_pointer = operation.pointer.rsplit("/", 1)[0]
    found: dict[tuple[str, str], DeclaredParameter] = {}
    whole = True
    for holder in (item_pointer, operation.pointer):
        node = mapping_at(data, holder)
        listed = node.get("parameters") if isinstance(node, dict) else None
        for index, entry in enumerate(listed if isinstance(listed, list) else ()):
            at, parameter = follow_local(data, entry, f"{holder}/parameters/{index}")
            if not isinstance(parameter, dict) or "$ref" in parameter:
                whole = False
                continue
            name, where = parameter.get("name"), parameter.get("in")
            if isinstance(name, str) and isinstance(where, str):
                found[(name, where)] = DeclaredParameter(name, where, at)
    return list(found.values()), whole


@dataclass(frozen=True)
class Credential:
    """A parameter a security scheme of an operation supplies: the header, query parameter or
    cookie a client sends its credential in, which OpenAPI describes by the scheme and not as a
    parameter (OpenAPI 3.1 §4.8.12.1: a header parameter named `Authorization` is ignored)."""

    name: str
    in_: str  # "header" | "query" | "cookie"
    scheme: str  # the security scheme's name
    pointer: str  # where the scheme is declared


def operation_credentials(operation: Operation) -> list[Credential]:
    """The credentials the security requirements of ``operation`` name (OpenAPI 3.1 §4.8.10
    `security`: its own, else the document's; Swagger 2.0 alike): `Authorization` for an `http`
    (bearer, basic, ...), `oauth2` or `openIdConnect` scheme (3.x; Swagger 2.0's `basic` and
    `oauth2`), the `name` of an `apiKey` scheme where its `in` says. A scheme given by a local
    ``$ref`` is followed; one that names nothing supplies nothing."""
    data = operation.document.data
    if not isinstance(data, dict):
        return []
    own = mapping_at(data, operation.pointer).get("security")
    requirements = own if isinstance(own, list) else data.get("security")
    components = data.get("components")
    schemes, holder = (
        (components.get("securitySchemes"), "/components/securitySchemes")
        if isinstance(components, dict) and "securitySchemes" in components
        else (data.get("securityDefinitions"), "/securityDefinitions")
    )
    if not isinstance(requirements, list) or not isinstance(schemes, dict):
        return []
    found: list[Credential] = []
    named = {str(n) for r in requirements if isinstance(r, dict) for n in r}
    for name in sorted(named):
        at, scheme = follow_local(data, schemes.get(name), join_pointer(holder, name))
        if not isinstance(scheme, dict):
            continue
        kind = scheme.get("type")
        if kind in ("http", "basic", "oauth2", "openIdConnect"):
            # RFC 9110 §11.6.2: the credentials of these schemes go in `Authorization`.
            found.append(Credential("Authorization", "header", name, at))
        elif kind == "apiKey":
            key, where = scheme.get("name"), scheme.get("in")
            if isinstance(key, str) and where in ("header", "query", "cookie"):
                found.append(Credential(key, str(where), name, at))
    return found


# Arazzo 1.0.1 §4.6.6 (Parameter Object, `in`): where a step's parameter goes ("path, query,
# header, cookie"); anything else (`body`) is arazzo-invalid's finding.
PARAMETER_PLACES = frozenset({"path", "query", "header", "cookie"})
# OpenAPI 3.1.0 §4.8.12 (Parameter Object, fixed field `name`): a header parameter named
# `Accept` or `Content-Type` "SHALL be ignored" (content negotiation and `requestBody` say them),
# so no operation declares one and a step may always send it. Lower case (RFC 9110 §5.1).
CONTENT_HEADERS = frozenset({"accept", "content-type"})
_COMPONENT = "$components.parameters."


def content_header(name: str, where: str) -> bool:
    """Whether the parameter is a header no operation can declare, as content negotiation's."""
    return where == "header" and name.lower() in CONTENT_HEADERS


def effective_parameter(arazzo: ArazzoDocument, parameter: Parameter) -> Parameter | None:
    """A step's parameter as it applies: a Reusable Object's component (its ``value``
    overriding); None when it names no component (another rule's) or has no name."""
    if parameter.reference:
        if not parameter.reference.startswith(_COMPONENT):
            return None
        named = arazzo.components.parameters.get(parameter.reference[len(_COMPONENT) :])
        if named is None:
            return None
        return Parameter(
            named.name, named.in_, parameter.value, parameter.reference, parameter.pointer,
            parameter.location,
        )  # fmt: skip
    return parameter if parameter.name else None


def declares(declared: DeclaredParameter, name: str, where: str) -> bool:
    """Whether ``declared`` is the parameter ``name`` in ``where`` (by name alone when no
    place is given)."""
    if not where:
        return declared.name == name
    if declared.in_ != where:
        return False
    # RFC 9110 §5.1: field names are case-insensitive.
    return declared.name.lower() == name.lower() if where == "header" else declared.name == name


def supplies(credential: Credential, name: str, where: str) -> bool:
    """Whether ``credential`` is the parameter ``name`` in ``where`` (any place when not given)."""
    if where and credential.in_ != where:
        return False
    if credential.in_ == "header":
        return credential.name.lower() == name.lower()  # RFC 9110 §5.1
    return credential.name == name


@dataclass(frozen=True)
class AcceptedParameters:
    """What an operation takes from a step: its parameters (``operation_parameters``), whether
    every one was read, and the credentials its security schemes supply."""

    declared: tuple[DeclaredParameter, ...]
    whole: bool
    credentials: tuple[Credential, ...]

    def takes(self, name: str, where: str) -> bool:
        """Whether the operation takes the parameter ``name`` in ``where``: declared, the
        credential of a security scheme it uses, or a content header."""
        return (
            content_header(name, where)
            or any(declares(d, name, where) for d in self.declared)
            or any(supplies(c, name, where) for c in self.credentials)
        )


def accepted_parameters(operation: Operation) -> AcceptedParameters:
    declared, whole = operation_parameters(operation)
    return AcceptedParameters(tuple(declared), whole, tuple(operation_credentials(operation)))


def request_body(operation: Operation) -> tuple[str, Any]:
    """The operation's Request Body Object as written (a local ``$ref`` followed) and its
    pointer; None when it has none or it is in another file."""
    return follow_local(
        operation.document.data,
        mapping_at(operation.document.data, operation.pointer).get("requestBody"),
        f"{operation.pointer}/requestBody",
    )


def mapping_at(data: Any, pointer: str) -> Any:
    """The mapping at ``pointer`` of ``data``; an empty one where the pointer leads to nothing
    or to no mapping (an operation's, a holder's members are read from it)."""
    node = data
    for token in split_pointer(pointer):
        if not isinstance(node, dict):
            return {}
        node = node.get(token)
    return node if isinstance(node, dict) else {}
