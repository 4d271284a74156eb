"""An inline schema in an API document that copies a schema already defined in a schema file.

What it does
    Fingerprints every schema location (property names, types, ``required``, enums,
    constraints and ``$ref`` targets; descriptions and key order ignored, see
    ``speclint.analyses.schemas.fingerprints``) and compares each inline object schema of an OpenAPI or
    AsyncAPI document (component schemas, request and response bodies, message payloads) with
    the object schemas of the schema files. An inline schema that says the same is a copy, and
    the finding gives the exact ``$ref`` to write instead.

    Mostly the same property names (``similarity``, default 0.8) make a near copy only with
    more evidence: the same name, or most shared members saying exactly the same; or a comment
    or ``description`` calling it "verbatim", "referenced" or a "copy of" something (the bar
    then drops to 0.5). A shape that requires none of the fields the original requires (a
    PATCH body, a filter) is a partial view, not a copy.

    Not copies: a definition of another version (``speclint.parsing.versions``), an earlier
    release of an API document (another of the same ``info.title`` is newer), a generated or
    self-contained bundle (it copies by design so that it stands alone), the schemas of a
    design folder (``proposals/``, ``rfcs/``, ``adr/``). A near copy that already disagrees
    with its original is ``copy-drift``'s (one root cause, every difference named).

Why is this bad?
    RFC 0094 §D: the ``ai.message.chunk`` payload in ``api/asyncapi.yaml`` was a hand-made copy of
    ``run-event-payloads.schema.json#/$defs/outputChunk`` whose comment said it was "referenced here
    verbatim". The copy drifted (``copy-drift``) and SDKs generated from the two disagreed.

Example
    ::

        # The outputChunk payload of run-event-payloads.schema.json, referenced here verbatim.
        payload:
          type: object
          required: [nodeId, chunk]
          properties: {nodeId: {type: string}, chunk: {type: string}}

    FAIL: ``warning [inline-copy] this inline payload copies
    `schemas/run-event-payloads.schema.json#/$defs/outputChunk` ...``

Use instead
    ::

        payload:
          $ref: '../schemas/run-event-payloads.schema.json#/$defs/outputChunk'

    PASS.

Options
    ``similarity`` (default 0.8): the share of property names two object schemas must have in
    common to count as copies.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.fingerprints import (
    Equivalence,
    all_shapes,
    differences,
    inline_copies,
    relative_ref,
    self_contained,
    superseded,
)
from speclint.common.findings import Finding, Severity, first_fitting
from speclint.parsing.kinds import in_design_folder

ID = "inline-copy"
SEVERITY = Severity.WARNING
FACTS = ("derived", "references", "provenance")  # speclint.analyses.context
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"


# An API document holding this many exact copies of schema-file definitions, as most of the
# copies found in it, is an edition of those files kept on purpose (issue 26).
EDITION = 3


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    threshold = float(options.get("similarity", 0.8))
    # A proposal's or a design record's schemas are drafts of a change under discussion: not
    # copies to keep in step with the contract (as fence-invalid reads their examples).
    # An earlier release of an API document (``superseded``) is history, not a copy either.
    history = superseded(corpus)
    shapes = [
        s
        for s in all_shapes(corpus)
        if not in_design_folder(s.site.document.path) and s.site.document.path not in history
    ]
    equivalence = Equivalence.of(shapes)
    copies = inline_copies(corpus, shapes, threshold)
    # A bundle (no `$ref` into another file) republishes the schema files so that it stands
    # alone: "replace it with a `$ref` to the file" would undo the bundle.
    bundles = {
        path
        for path in {found.copy.site.document.path for found in copies}
        if self_contained(corpus, corpus.documents[path])
    }
    exact: dict[str, int] = {}
    total: dict[str, int] = {}
    for found in copies:
        path = found.copy.site.document.path
        total[path] = total.get(path, 0) + 1
        exact[path] = exact.get(path, 0) + found.exact
    editions = {
        path for path, count in exact.items() if count >= EDITION and 2 * count >= total[path]
    }
    mirrors = bundles | editions
    for found in copies:
        copy, original = found.copy, found.original
        if found.claim is not None and found.claim == original.site.node.get("description"):
            # A bundler copies the source's description with its schema: a "the same as ..."
            # there is the source's own sentence (about another shape), not the author's word
            # that this schema is a copy.
            found = replace(found, claim=None, claim_line=None)
        if not found.claim and copy.site.document.path in mirrors:
            # A document that mirrors the schema files (a bundle, an edition per OpenAPI
            # version, a YAML edition of a JSON schema) copies them by design: "replace it with
            # a `$ref`" is not the fix. Its copies that drifted are copy-drift's.
            continue
        drift = differences(original, copy, equivalence.members(original, copy))
        if drift and not found.claim:
            # A near copy that already disagrees is one root cause: copy-drift reports it, with
            # every difference. The author's word that it is a copy keeps it here too.
            continue
        reference = relative_ref(copy.site.document.path, original.site)
        share = round(found.similarity * 100)
        samenesses = (
            ("the same shape as",)
            if found.exact
            else (f"a near copy ({share}% of the property names) of", f"a near copy ({share}%) of")
        )
        claim = f' Its comment says so: "{found.claim.rstrip(".")}".' if found.claim else ""
        drifted = (
            f" It has already drifted ({'; '.join(drift[:3])}: see copy-drift)." if drift else ""
        )
        yield Finding(
            ID,
            SEVERITY,
            first_fitting(
                # The `$ref` to write, then the original's name, then the comment's claim.
                *(
                    f"this inline schema is {sameness} {what}.{said}{drift_note} {fix}"
                    for fix in (
                        f"Define the shape once: replace it with `$ref: '{reference}'`",
                        f"Replace it with `$ref: '{reference}'`",
                    )
                    for what in (f"`{original.label}`", "the definition on the related location")
                    for said in (claim, " Its comment says so." if claim else "", "")
                    for sameness in samenesses
                    for drift_note in (drifted, "")
                    if fix.startswith("Replace") or (said == claim and drift_note == drifted)
                ),
                f"this inline schema is {samenesses[-1]} the definition on the related location: "
                "replace it with a `$ref` to it",
            ),
            copy.site.location(),
            related=(
                original.site.location(
                    note=f"the definition it copies (`$ref: '{reference}'`)"
                    + (f"; differences: {'; '.join(drift)}" if drift else "")
                    + (f"; the comment says: {found.claim}" if found.claim else "")
                ),
            ),
            key=copy.site.pointer,
        )
