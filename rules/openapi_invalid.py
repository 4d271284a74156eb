"""An OpenAPI document that fails the OpenAPI specification.

What it does
    Validates each OpenAPI 2.0 / 3.0 / 3.1 / 3.2 document with openapi-spec-validator, against
    the official schema of its declared version and by its semantic checks (path parameters
    declared, unique ``operationId``\\s, ...), and judges every schema object of an OpenAPI 3
    document by its dialect's metaschema where it is written. Each error is placed at its node
    (``/components/schemas/Run/type``), with what to do about it.

    ``$ref``\\s are followed only into the corpus, and a document is validated as its bundle reads:
    a ``$ref`` where the version allows no Reference Object is replaced by its target (as redocly
    bundles), a document merged from pieces (``redocly join``) as merged, an error in a piece
    reported in its file. Left to other rules: a ``$ref``'d schema file (``schema-invalid``), an
    unresolved reference (``unresolved-ref``), a rejected ``default`` (``value-invalid``), an
    undeclared ``required`` name (``required-undeclared``).

    Heuristics: ``document``, the document itself; ``referenced-part``, each part of another
    file the structure reaches by ``$ref`` (a path item, a parameter, a response), judged once
    in the role of the place naming it; ``json-schema-as-3.0`` (preview until labels prove
    it), a JSON Schema file an OpenAPI 3.0 document reads as Schema Objects with keywords 3.0
    lacks (``examples``, ``const``), one finding in that file.

Why is this bad?
    Code generators, gateways and documentation tools reject or misread an invalid document; the
    error surfaces far from the change that caused it.

Example
    ::

        paths:
          /v1/runs/{runId}:
            get:
              responses:
                "200":
                  content: {application/json: {schema: {type: object}}}

    FAIL: ``/paths/~1v1~1runs~1{runId}/get/responses/200: "description" is a required property``

Use instead
    ``description: The run.`` beside ``content``, with the ``runId`` path parameter declared. PASS.

Options
    None.

Limitations
    A release with no shipped schema (Swagger 1.2, a later 3.x), a fragment with no ``info``,
    a document deeper than the validator's stack, a SwaggerHub domain's missing ``paths`` and a
    template's member left empty over a marker a build's ``sed`` fills are listed as not
    checked, never errors. A document the validator cannot run on is one finding at its root.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api import openapi_validation
from speclint.analyses.api.openapi_validation import ID, SEVERITY, openapi_findings
from speclint.analyses.context import Context
from speclint.analyses.units import check_by_unit
from speclint.common.findings import Finding
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind

__all__ = ["ID", "SEVERITY"]

# One API document at a time, with the files its `$ref`s reach (speclint.analyses.units).
READS = "document"
# Reads no shared index (speclint.run.runner.prime): it may start while they are built. It reads
# the reference index only for a document with a `$ref` the bundler inlines (`inlining`), and
# builds it then.
NEEDS_INDEXES = False
FACTS = ("merges", "provenance", "references")  # speclint.analyses.context
# The ways to a finding (speclint.run.preview, ``openapi_validation.HEURISTICS``): the document
# as its bundle reads, judged by the validator (a declared tie: it guesses nothing); each part
# of another file its structure reaches by `$ref`, judged in the role of the place that names
# it; and a JSON Schema file's fragments an OpenAPI 3.0 document reads as Schema Objects. The
# last two are new: each runs in preview until its labels prove it (speclint.run.preview).
HEURISTICS = openapi_validation.HEURISTICS
DECLARED_TIES = (HEURISTICS[0],)
# What one unit reads besides its document (``speclint.analyses.units``): the files its bundle
# reads, which hold those of the parts its structure reaches and every file a misplaced `$ref`
# inlines.
unit_reach = openapi_validation.unit_reach


def units(corpus: Context) -> list[Document]:
    return list(corpus.of_kind(DocumentKind.OPENAPI))


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    return openapi_findings(corpus, document)
