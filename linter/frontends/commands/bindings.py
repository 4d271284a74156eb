"""``speclint bindings``: what the prose is bound to (value sets, examples, parameters, protos,
routes, field tables, Arazzo steps), with the evidence.

Its engine, outputs and analyses are imported where they are used ("Deferred": the start-up
time of ``speclint.frontends.options``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from speclint.common.findings import as_written
from speclint.frontends.options import SPEC_PATH, corpus_around, say
from speclint.model.descriptions import API_KINDS, DescribedPage, described_page
from speclint.parsing.kinds import DocumentKind

if TYPE_CHECKING:
    from speclint.analyses.context import Context
    from speclint.analyses.prose.fences import ExampleBinding


@click.command(name="bindings")
@SPEC_PATH
@click.option("--all", "show_all", is_flag=True, help="Also list prose sets that bind to nothing.")
def show_bindings(path: Path, show_all: bool) -> None:
    """List the value sets in the prose of PATH and the schema enums they are bound to."""
    # Deferred: startup (module docstring).
    from speclint.analyses.prose.enumerations import Binder, all_prose_sets

    corpus, covered = corpus_around(path)
    binder = Binder(corpus)
    bound = unbound = 0
    for prose in all_prose_sets(corpus):
        if not covered(prose.path):
            continue
        bindings = binder.bindings(prose)
        if not bindings and not show_all:
            unbound += 1
            continue
        field = f" `{prose.field}`" if prose.field else ""
        values = ", ".join(prose.values[:6]) + (", ..." if len(prose.values) > 6 else "")
        say(f"{prose.path}:{prose.line} {prose.form}{field} [{values}]")
        if not bindings:
            unbound += 1
            say("    (not bound)")
        for binding in bindings:
            bound += 1
            listed = {as_written(v) for v in binding.values.values}
            same = "same values" if listed == set(prose.values) else "values differ"
            say(f"    -> {binding.target.label} ({binding.confidence}; {same}): {binding.evidence}")
    say(f"speclint: {bound} binding(s); {unbound} prose set(s) bound to nothing")
    _show_example_bindings(corpus, covered)
    _show_parameter_bindings(corpus, covered)
    _show_proto_bindings(corpus, covered)
    _show_route_bindings(corpus, covered)
    _show_type_claim_bindings(corpus, covered)
    _show_arazzo_bindings(corpus, covered)


def _show_arazzo_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """Each Arazzo step (issue 49, item 7) with the operation or workflow it calls and the
    evidence, or why it is not bound; nothing without an Arazzo document."""
    # Deferred: startup (module docstring).
    from speclint.analyses.workflows.arazzo import RESOLVED, step_bindings

    found = [b for b in step_bindings(corpus) if covered(b.arazzo.path)]
    if not found:
        return
    bound = 0
    for binding in found:
        step = binding.step
        call = f" {binding.field} `{binding.written}`" if binding.field else ""
        say(
            f"{binding.arazzo.path}:{step.location.line} step `{step.step_id}` "
            f"(workflow `{binding.workflow.workflow_id}`){call}"
        )
        if binding.status == RESOLVED and binding.operation is not None:
            bound += 1
            operation = binding.operation
            target = f"{operation.document.path}#{operation.pointer}"
            say(f"    -> {target} {operation.label} ({binding.evidence})")
        elif binding.status == RESOLVED and binding.called is not None:
            bound += 1
            holder = binding.called_in.path if binding.called_in else binding.arazzo.path
            say(f"    -> {holder}#{binding.called.pointer} ({binding.evidence})")
        else:
            say(f"    ({binding.status}: {binding.reason})")
    say(f"speclint: {bound} Arazzo step binding(s); {len(found) - bound} step(s) not bound")


def _show_parameter_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """Every query and path value of a concrete request on a page, with the parameter schema it
    is held to (example-invalid's ``parameter-value``)."""
    # Deferred: startup (module docstring).
    from speclint.analyses.api.exchanges import parameter_values

    count = 0
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        if not covered(document.path):
            continue
        for given in parameter_values(corpus, document):
            count += 1
            say(f"{document.path}:{given.line} {given.place} parameter value `{given.value}`")
            target = f"{given.operation.document.path}#{given.pointer}"
            say(f"    -> {target} (by parameter value: {given.evidence})")
    say(f"speclint: {count} request parameter value(s) bound")


def _show_example_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """Every example fence of the prose, with the definition it is bound to and the evidence,
    or why it is not bound (issue 28), read with example-invalid's configured options."""
    # Deferred: startup (module docstring).
    from speclint.analyses.api.api_examples import referenced_example_files
    from speclint.analyses.prose.fences import (
        Binding,
        example_bindings,
        example_file,
        example_file_binding,
    )

    binding = Binding.of(corpus.config.rule_options.get("example-invalid", {}))
    bound = unbound = 0
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        if not covered(document.path):
            continue
        for example in example_bindings(corpus, document, binding):
            fence = example.fence
            # An indented block's evidence is its first line and its kind: it has no opening
            # line, and no info string to bind it (only what it holds, or the text above it).
            kind = "indented code block" if fence.indented else f"{fence.language or 'untagged'}"
            say(f"{document.path}:{fence.start} {kind} example")
            bound, unbound = bound + len(example.ties), unbound + (not example.ties)
            _say_ties(example, say)
    for document in corpus.of_kind(*API_KINDS):
        described = described_page(document)
        if described is None or not covered(document.path):
            continue
        # An API document's descriptions (CommonMark): their fences, bound as a page's.
        for example in example_bindings(corpus, described.page, binding):
            language = example.fence.language or "untagged"
            say(f"{_described_at(described, example.fence.line)} {language} example")
            bound, unbound = bound + len(example.ties), unbound + (not example.ties)
            _say_ties(example, say)
    referenced = referenced_example_files(corpus)
    for path, examples in sorted(referenced.items()):
        if not covered(path):
            continue
        say(f"{path} example file")
        for named in examples:
            bound += 1
            via = named.referrals[0]
            say(
                f"    -> {named.holder.path}#{named.schema_at} (by reference: {via.note} at "
                f"{via.path} line {via.line})"
            )
    for document in corpus.of_kind(DocumentKind.DATA):
        if not (covered(document.path) and example_file(document)):
            continue
        if document.path in referenced:
            continue
        found = example_file_binding(corpus, document, binding)
        say(f"{document.path} example file")
        if found.target is None:
            unbound += 1
            say(f"    (not bound: {found.evidence})")
        else:
            bound += 1
            say(f"    -> {found.target.label} (by {found.how}: {found.evidence})")
    say(f"speclint: {bound} example binding(s); {unbound} example(s) bound to nothing")


def _show_proto_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """The proto surface's pairs (issue 30), with their evidence; nothing without a proto."""
    # Deferred: startup (module docstring).
    from speclint.analyses.grpc.proto_bindings import proto_bindings
    from speclint.analyses.grpc.protos import corpus_protos

    listed = proto_bindings(corpus)
    if listed is None:
        return
    found = [binding for binding in listed if covered(binding.path)]
    for binding in found:
        say(f"{binding.path}:{binding.line} {binding.what}")
        for arrow in binding.arrows:
            say(f"    -> {arrow}")
    bound = sum(binding.bound for binding in found)
    unbound = sum(len(binding.arrows) for binding in found) - bound
    # a corpus with method tables and no proto: its tables' bindings are no proto's
    what = "proto" if corpus_protos(corpus).read() else "method-table"
    say(f"speclint: {bound} {what} binding(s); {unbound} pair(s) not bound or not compared")


def _show_route_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """The routes the prose names (issue 46, item 7), each with the operation it names, or why
    it is not held to one."""
    # Deferred: startup (module docstring).
    from speclint.analyses.api.routes import held_pages, page_checks

    bound = unbound = 0
    for held in held_pages(corpus):
        if not covered(held.path):
            continue
        for check in page_checks(corpus, held.path, held.mentions, own_api=held.own_api):
            mention = check.mention
            where = f"{held.path}:{mention.line}"
            if held.described is not None:
                where = _described_at(held.described, mention.line)
            say(f"{where} {mention.form} route `{mention.label}`")
            if check.operations:
                bound += 1
                first = check.operations[0]
                others = len({op.document.path for op in check.operations}) - 1
                also = f" (and {others} other document(s))" if others else ""
                say(f"    -> `{first.label}` of {first.document.path}{also}")
                if check.renamed is not None:
                    say(f"    (its parameter `{check.renamed[0]}` is `{check.renamed[1]}` there)")
            elif check.why:
                unbound += 1
                say(f"    (not checked: {check.why})")
            else:
                unbound += 1
                near = f"; nearest `{check.near.label}`" if check.near is not None else ""
                through = (
                    ", bound through the repository's pages" if check.through_repository else ""
                )
                because = f"; held as the API's: {check.evidence}" if check.evidence else ""
                say(f"    (no operation of {check.document}{through}{near}{because})")
    say(f"speclint: {bound} route binding(s); {unbound} route(s) bound to no operation")


def _say_ties(example: ExampleBinding, say: Callable[[str], None]) -> None:
    """What binds one example of a page (or of an API document's descriptions), with its
    evidence; or why nothing does."""
    if not example.ties:
        say(f"    (not bound: {example.why})")
    for tie in example.ties:
        target = tie.target.label if tie.target else f"{tie.named} (no such schema)"
        part = f" at {tie.part}" if tie.part else ""
        evidence = tie.evidence or f"`{tie.named}`"
        say(f"    -> {target}{part} (by {tie.how}: {evidence})")


def _described_at(described: DescribedPage, line: int) -> str:
    """Where a line of an API document's description page is in the file, and which
    description it is in."""
    place = described.where(line)
    if place is None:
        return f"{described.document.path}:{line}"
    return f"{described.document.path}:{place[0]} (description {place[2]})"


def _show_type_claim_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """Every field table and field list that states types or requiredness, with the schema
    objects (and proto message) it is bound to and the evidence, or why it is not bound (issue
    46, item 8: type-claim-drift's)."""
    # Deferred: startup (module docstring).
    from speclint.analyses.prose.type_claims import ClaimBinder, every_group

    binder = ClaimBinder(corpus)
    bound = unbound = 0
    for group in every_group(corpus):
        if not covered(group.path):
            continue
        binding = binder.bind(group)
        of = f" of `{group.parent.name}`" if group.parent else ""
        say(f"{group.path}:{group.line} {group.form}{of} ({len(group.claims)} field claim(s))")
        for view in binding.views:
            root = view.root
            target = root.document.path + (f"#{root.pointer}" if root.pointer else "")
            say(f"    -> {target} ({binding.confidence}; by {binding.evidence})")
        if binding.message is not None:
            proto, message = binding.message
            name = f"proto message `{message.name}`"
            say(f"    -> {proto.path}:{message.line} {name} (by {binding.proto_evidence})")
        if binding.views or binding.message is not None:
            bound += 1
        else:
            unbound += 1
            say(f"    (not bound: {binding.why})")
    say(f"speclint: {bound} field reference(s) bound; {unbound} bound to nothing")
