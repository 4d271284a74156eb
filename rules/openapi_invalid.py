"""An OpenAPI document that fails the OpenAPI specification.

What it does
    Validates each OpenAPI 2.0 / 3.0 / 3.1 / 3.2 document with openapi-spec-validator: first against
    the official OpenAPI JSON Schema for its declared ``openapi:`` version, then its semantic checks
    (path parameters declared, ``default`` values that fit their schema, unique operationIds, ...).
    ``$ref``\\s are followed only into documents of the corpus: a missing or remote target is treated
    as an empty schema here (``unresolved-ref`` and ``remote-ref`` report it), so one broken
    reference does not hide the document's other errors, and no network request is ever made.
    A document too incomplete for the validator to run on (``openapi:`` with no value, a
    truncated file without ``paths``) is one finding at its root instead of a crash. A valid
    document is never called invalid because it is deep: validation runs on a deep stack, and a
    document deeper still (a ``$ref`` chain of tens of thousands of schemas) gets an ``info``
    finding that it was not checked past that point.

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

    FAIL: ``/paths/~1v1~1runs~1{runId}/get/responses/200: 'description' is a required property``

Use instead
    ::

                "200":
                  description: The run.
                  content: {application/json: {schema: {type: object}}}

    PASS (with the ``runId`` path parameter declared).

Options
    None.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from referencing.exceptions import Unresolvable

from speclint.corpus import Corpus, Document, DocumentKind
from speclint.findings import Finding, Severity
from speclint.references import CORPUS_BASE, file_uri
from speclint.stack import DEEP_RECURSION
from speclint.structured import join_pointer
from speclint.validation import explain, short_message

# openapi-spec-validator picks its schema backend when first imported, and prefers jsonschema-rs when
# that is installed (speclint installs it for unsatisfiable-schema). Its errors carry no instance
# path or keyword, which this rule needs to point at the line and explain the failure.
os.environ["OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND"] = "jsonschema"

ID = "openapi-invalid"
SEVERITY = Severity.ERROR
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    from openapi_spec_validator.validation.exceptions import ValidatorDetectError
    from openapi_spec_validator.versions.exceptions import OpenAPIVersionNotFound
    from openapi_spec_validator.versions.shortcuts import get_spec_version

    for document in corpus.of_kind(DocumentKind.OPENAPI):
        try:
            get_spec_version(document.data)
        except (OpenAPIVersionNotFound, ValidatorDetectError, TypeError):  # `openapi:` empty
            declared = document.data.get("openapi", document.data.get("swagger"))
            yield Finding(
                ID,
                SEVERITY,
                f"`openapi: {declared}` is not a version openapi-spec-validator knows; declare one "
                "of 2.0, 3.0.x, 3.1.x or 3.2.x",
                document.location("/openapi"),
                key="unknown-version",
            )
            continue
        try:
            # The runner runs rules on a deep stack (speclint.stack): a valid document nested
            # deeply is not "invalid" because Python's recursion limit says so (issue 13).
            found = list(_validate(corpus, document))
        except RecursionError:
            found = [_too_deep(document)]
        except Exception as error:
            # openapi-spec-validator assumes a document that is whole: `openapi:` with no value,
            # or a truncated document without `paths`, raises instead of reporting.
            found = [_cannot_check(document, error)]
        yield from found


def _validate(corpus: Corpus, document: Document) -> Iterator[Finding]:
    from openapi_spec_validator.shortcuts import get_validator_cls

    def corpus_only(uri: str) -> Any:
        # Only documents the corpus loaded; anything else is an empty schema (see the docstring).
        path = uri.split("#", 1)[0][len(CORPUS_BASE) :] if uri.startswith(CORPUS_BASE) else None
        target = corpus.documents.get(path) if path else None
        return target.data if target is not None and target.usable else {}

    base = get_validator_cls(document.data)
    validator_cls = type(
        f"CorpusOnly{base.__name__}",
        (base,),
        {
            "resolver_handlers": {
                scheme: corpus_only for scheme in ("file", "http", "https", "<all_urls>")
            }
        },
    )
    validator = validator_cls(document.data, base_uri=file_uri(document.path))
    seen: set[tuple[str, str]] = set()
    try:
        for error in validator.iter_errors():
            specific = explain(error)
            pointer = ""
            for token in getattr(specific, "absolute_path", ()):
                pointer = join_pointer(pointer, token)
            message = short_message(specific) if hasattr(specific, "validator") else str(specific)
            if (pointer, message) in seen:
                continue
            seen.add((pointer, message))
            yield Finding(
                ID,
                SEVERITY,
                f"{pointer or '/'}: {message}; fix it so the document is valid OpenAPI "
                f"{document.data.get('openapi', '')}",
                document.location(pointer),
                key=f"{pointer}:{message}",
            )
    except Unresolvable:
        # A pointer into a corpus document that does not exist: unresolved-ref reports it, and the
        # semantic checks past it cannot run. The structural errors above were already reported.
        return
    except RecursionError:
        yield _too_deep(document)
    except Exception as error:
        if not seen:  # otherwise the structural errors already say why
            yield _cannot_check(document, error)


def _too_deep(document: Document) -> Finding:
    """Unknown, not invalid: the validator recursed past even the runner's deep stack."""
    return Finding(
        ID,
        Severity.INFO,
        "/: not checked past this point: openapi-spec-validator recursed deeper than "
        f"{DEEP_RECURSION:,} frames following this document's references and nesting; the "
        "document is not known to be invalid. Shorten the `$ref` chains to have it checked",
        document.location(""),
        key="too-deep",
    )


def _cannot_check(document: Document, error: Exception) -> Finding:
    version = document.data.get("openapi") if isinstance(document.data, dict) else None
    return Finding(
        ID,
        SEVERITY,
        f"/: openapi-spec-validator cannot check this document ({type(error).__name__}: "
        f"{error}); it is probably incomplete: complete it so it is valid OpenAPI"
        + (f" {version}" if isinstance(version, (str, int, float)) else ""),
        document.location(""),
        key=f"crash:{type(error).__name__}",
    )
