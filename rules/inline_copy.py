"""An inline schema in an API document that copies a schema already defined in a schema file.

What it does
    Fingerprints every schema location (see ``speclint.fingerprints``: property names, types,
    ``required``, enums, constraints and ``$ref`` targets, ignoring descriptions and key order) and
    compares each inline object schema of an OpenAPI or AsyncAPI document (component schemas,
    request and response bodies, message payloads) with the object schemas of the schema files. An
    inline schema with the same fingerprint, or with mostly the same property names (Jaccard
    similarity ≥ ``similarity``, default 0.8), is a copy. A comment above it, or its
    ``description``, calling it "verbatim", "referenced" or a "copy of" something is taken as the
    author's word: the bar drops to 0.5. The finding gives the exact ``$ref`` to write instead.
    Not copies: a definition of another version (``speclint.versions``), a generated bundle's,
    and, without such a comment, a shape that requires none of the fields the original
    requires (a PATCH body, a filter over an event's attributes: a partial view).

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
from typing import Any

from speclint.corpus import Corpus
from speclint.findings import Finding, Severity, first_fitting
from speclint.fingerprints import all_shapes, differences, inline_copies, relative_ref

ID = "inline-copy"
SEVERITY = Severity.WARNING
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    threshold = float(options.get("similarity", 0.8))
    for found in inline_copies(corpus, all_shapes(corpus), threshold):
        copy, original = found.copy, found.original
        reference = relative_ref(copy.site.document.path, original.site)
        share = round(found.similarity * 100)
        samenesses = (
            ("the same shape as",)
            if copy.digest == original.digest
            else (f"a near copy ({share}% of the property names) of", f"a near copy ({share}%) of")
        )
        claim = f' Its comment says so: "{found.claim.rstrip(".")}".' if found.claim else ""
        drift = differences(original, copy)
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
