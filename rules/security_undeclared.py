"""A security requirement naming a security scheme the document does not declare.

What it does
    In an OpenAPI or Swagger 2.0 document, reports each name in a Security Requirement Object
    (the document's ``security`` or an operation's, in the file the operation is written in)
    that ``components.securitySchemes`` (Swagger 2.0: ``securityDefinitions``) does not declare,
    as an error at the name, with the declared schemes as related location. A name another API
    document of the corpus declares is a warning (a module a build may merge with it); not
    reported when the document's ``$ref`` members name that document (it borrows its components).

Why is this bad?
    "Each name MUST correspond to a security scheme which is declared in the Security Schemes
    under the Components Object" (OpenAPI 3.0.4 §4.7.30, 3.1.1 §4.8.30; Swagger 2.0, Security
    Requirement Object). A requirement naming no declared scheme says nothing a client can act
    on: documentation shows no way to authenticate, and generated clients send no credentials,
    so every call the requirement guards fails with 401.

Example
    ::

        openapi: 3.1.0
        components:
          securitySchemes:
            bearer: {type: http, scheme: bearer}
        security:
          - bearerAuth: []

    FAIL: ``error [security-undeclared] the document's security requirement names `bearerAuth`,
    which `components.securitySchemes` does not declare ...``

Use instead
    ::

        security:
          - bearer: []

    PASS.

Options
    None.

Limitations
    OpenAPI 3.2 also lets a name be the URI of a Security Scheme Object (3.2.0 §4.8.30): a name
    that reads as a URI (with ``/``, ``#`` or ``:``) is not judged there. A document whose
    ``components`` is itself a ``$ref``, or whose scheme map does not resolve, is not judged. An
    empty requirement ``{}`` (anonymous access) names nothing. A missing ``security`` is style.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.written_operations import (
    declared_schemes,
    security_requirements,
    version,
    with_partners,
)
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "security-undeclared"
SEVERITY = Severity.ERROR
READS = "structured"
FACTS = ("merges", "references")  # speclint.analyses.context
PREVIEW = True  # new (issue 52): labelled in benchmarks/ecosystem (precision.json); leaving preview is decided there


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    declaring = _declaring(corpus)
    judged = _judged_by_roots(corpus)
    reported: set[tuple[str, str]] = set()  # a requirement two documents reach, once
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        schemes = declared_schemes(corpus, document)
        if schemes is not None:  # and those of the files a build merges it with
            schemes = with_partners(corpus, document, schemes)
        if schemes is None:
            continue
        uris = version(document) not in ("", "2.0", "3.0", "3.1")
        names = sorted(schemes.schemes)
        listed = ", ".join(f"`{n}`" for n in names[:8]) + (", ..." if len(names) > 8 else "")
        if schemes.declared is None:
            related = (document.location("", note=f"the document declares no {schemes.field}"),)
            fix = f"declare the scheme in {schemes.field}"
        else:
            where = schemes.declared
            related = (where.file.location(where.pointer, note="the declared security schemes"),)
            fix = f"name one of the declared schemes ({listed}), or declare it in {schemes.field}"
        borrowed = _referenced(corpus, document)
        for requirement in security_requirements(corpus, document):
            for name in requirement.at.node:
                name = str(name)
                if name in schemes.schemes or (uris and any(c in name for c in "/#:")):
                    continue
                at = join_pointer(requirement.at.pointer, name)
                place = (requirement.at.file.path, at)
                if name in judged.get(place, ()) or place in reported:
                    # Also an operation of another API document that `$ref`s it there, which
                    # declares the scheme: judged as that document's.
                    continue
                reported.add(place)
                elsewhere = [d for d in declaring.get(name, ()) if d[0].path != document.path]
                if any(d[0].path in borrowed for d in elsewhere):
                    # A module of a larger API: it takes its components from the document
                    # that declares the scheme, and a build merges the two.
                    continue
                who = _possessive(requirement.label)
                if elsewhere:
                    other, pointer = elsewhere[0]
                    yield Finding(
                        ID,
                        Severity.WARNING,
                        f"{who} security requirement names `{name}`, which {schemes.field} "
                        f"does not declare; {other.path} does: if a build merges this document "
                        f"with it, nothing is wrong; otherwise {fix}",
                        requirement.at.file.location(at),
                        related=(other.location(pointer, note=f"`{name}` declared there"),),
                        key=at,
                    )
                    continue
                yield Finding(
                    ID,
                    SEVERITY,
                    f"{who} security requirement names `{name}`, which {schemes.field} does not "
                    f"declare: no client can satisfy it; {fix}",
                    requirement.at.file.location(at),
                    related=related,
                    key=at,
                )


def _declaring(corpus: Context) -> dict[str, list[tuple[Document, str]]]:
    """Scheme name -> (document, pointer) of each OpenAPI document declaring it."""
    found: dict[str, list[tuple[Document, str]]] = {}
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        schemes = declared_schemes(corpus, document)
        if schemes is None or schemes.declared is None:
            continue
        for name in schemes.schemes:
            pointer = join_pointer(schemes.declared.pointer, name)
            found.setdefault(name, []).append((schemes.declared.file, pointer))
    return found


def _judged_by_roots(corpus: Context) -> dict[tuple[str, str], set[str]]:
    """(file, pointer of a requirement's name) -> the schemes declared by the documents that
    reach that requirement from elsewhere (an operation written in an API document of its
    own that another document's path item `$ref`s)."""
    found: dict[tuple[str, str], set[str]] = {}
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        schemes = declared_schemes(corpus, document)
        if schemes is None or schemes.declared is None:
            continue
        for requirement in security_requirements(corpus, document):
            if requirement.at.file.path == document.path:
                continue
            for name in requirement.at.node:
                place = (requirement.at.file.path, join_pointer(requirement.at.pointer, str(name)))
                found.setdefault(place, set()).update(schemes.schemes)
    return found


def _referenced(corpus: Context, document: Document) -> set[str]:
    """The files the document's ``$ref``\\s name (resolved in the corpus)."""
    return {
        r.target_path
        for r in corpus.references.within(document.path, "")
        if r.outcome == "ok" and r.target_path is not None
    }


def _possessive(label: str) -> str:
    return "the document's" if label == "the document" else f"{label}'s"
