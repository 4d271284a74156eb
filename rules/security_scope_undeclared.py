"""A security requirement listing an OAuth2 scope its scheme's flows do not declare.

What it does
    In an OpenAPI or Swagger 2.0 document, for each Security Requirement Object naming an
    ``oauth2`` scheme, reports each listed scope that no flow of that scheme declares (3.x:
    ``flows.*.scopes``; 2.0: the scheme's ``scopes``) as a warning at the scope, with the
    scheme as related location. In OpenAPI 3.0 and Swagger 2.0 it also reports a non-empty list
    for a scheme that is neither ``oauth2`` nor ``openIdConnect`` (an ``apiKey``, an ``http``
    scheme) as an error.

Why is this bad?
    The flows list "the available scopes for the OAuth2 security scheme" (OpenAPI 3.1.1
    §4.8.29): a scope no flow offers is a typo or a rename on one side only, and a client asking
    for it gets ``invalid_scope`` (RFC 6749 §5.2). For other scheme types "the array MUST be
    empty" (OpenAPI 3.0.4 §4.7.30, Swagger 2.0); 3.1 allows role names there.

Example
    ::

        components:
          securitySchemes:
            oauth:
              type: oauth2
              flows:
                clientCredentials:
                  tokenUrl: https://auth.example.test/token
                  scopes: {runs:read: read runs}
        security:
          - oauth: [run:read]

    FAIL: ``warning [security-scope-undeclared] the document's security requirement asks scheme
    `oauth` for scope `run:read`, which none of its flows declares ...``

Use instead
    ::

          - oauth: [runs:read]

    PASS.

Options
    None.

Limitations
    ``openIdConnect`` scopes are declared by the provider's discovery document, not in the API
    document: never judged. In OpenAPI 3.1 and later a list for another scheme type is role
    names (3.1.1 §4.8.30): never judged. A scheme whose flows are kept in a file that does not
    resolve is not judged; a requirement naming an undeclared scheme is security-undeclared's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.written_operations import (
    Written,
    declared_schemes,
    security_requirements,
    swagger,
    version,
    with_partners,
)
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "security-scope-undeclared"
SEVERITY = Severity.WARNING
READS = "structured"
FACTS = ("merges", "references")  # speclint.analyses.context


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    # A requirement in a file two API documents `$ref` is walked with each: reported once.
    reported: set[tuple[str, str]] = set()
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        schemes = declared_schemes(corpus, document)
        if schemes is not None:  # and those of the files a build merges it with
            schemes = with_partners(corpus, document, schemes)
        if schemes is None or schemes.declared is None:
            continue
        empty_required = version(document) in ("2.0", "3.0")
        for requirement in security_requirements(corpus, document):
            written = (requirement.at.file.path, requirement.at.pointer)
            if written in reported:
                continue
            reported.add(written)
            for name, listed in requirement.at.node.items():
                scheme = schemes.schemes.get(str(name))
                if scheme is None or not isinstance(listed, list) or not listed:
                    continue
                kind = scheme.node.get("type")
                at = join_pointer(requirement.at.pointer, str(name))
                who = _possessive(requirement.label)
                related = (scheme.file.location(scheme.pointer, note=f"the scheme `{name}`"),)
                if kind == "oauth2":
                    offered = _scopes(document, scheme)
                    if offered is None:
                        continue
                    for index, scope in enumerate(listed):
                        if not isinstance(scope, str) or scope in offered:
                            continue
                        choice = ", ".join(f"`{s}`" for s in sorted(offered)[:8])
                        yield Finding(
                            ID,
                            SEVERITY,
                            f"{who} security requirement asks scheme `{name}` for scope "
                            f"`{scope}`, which none of its flows declares: name a declared "
                            f"scope ({choice or 'it declares none'}), or add `{scope}` to the "
                            "flows' `scopes`",
                            requirement.at.file.location(join_pointer(at, index)),
                            related=related,
                            key=f"{join_pointer(at, index)}:{scope}",
                        )
                elif empty_required and kind != "openIdConnect" and isinstance(kind, str):
                    # 3.0.4 §4.7.30, Swagger 2.0: "For other security scheme types, the array
                    # MUST be empty"; 3.1 made it a list of role names.
                    yield Finding(
                        ID,
                        Severity.ERROR,
                        f"{who} security requirement lists values for scheme `{name}`, of type "
                        f"`{kind}`: in OpenAPI {version(document)} only an oauth2 or "
                        "openIdConnect scheme takes scopes and the list MUST be empty for "
                        "others; write `[]` (role names need OpenAPI 3.1)",
                        requirement.at.file.location(at),
                        related=related,
                        key=f"{at}:not-empty",
                    )


def _scopes(document: Any, scheme: Written) -> set[str] | None:
    """The scopes the oauth2 scheme's flows declare; None where they cannot be read."""
    if swagger(document):
        scopes = scheme.node.get("scopes", {})
        return {str(s) for s in scopes} if isinstance(scopes, dict) else None
    flows = scheme.node.get("flows")
    if not isinstance(flows, dict):
        return None
    offered: set[str] = set()
    for flow in flows.values():
        if not isinstance(flow, dict):
            continue
        scopes = flow.get("scopes")
        if not isinstance(scopes, dict):
            return None  # a `$ref` or a mistake openapi-invalid reports: not judged
        offered.update(str(s) for s in scopes)
    return offered


def _possessive(label: str) -> str:
    return "the document's" if label == "the document" else f"{label}'s"
