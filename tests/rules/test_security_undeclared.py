"""``security-undeclared`` and ``security-scope-undeclared`` (issue 52, item 6) on fixtures
written here, one test a case, named after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import dedented as yaml
from conftest import run_rule
from speclint.common.findings import Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def found(root: Path, rule: str) -> list[tuple[str, str | None, Severity]]:
    return [(f.location.path, f.location.pointer, f.severity) for f in run_rule(root, rule)]


SCHEMES = """\
components:
  securitySchemes:
    token: {type: http, scheme: bearer}
    keys: {type: apiKey, in: header, name: X-Key}
    oauth:
      type: oauth2
      flows:
        clientCredentials:
          tokenUrl: https://auth.example.test/token
          scopes: {runs:read: read runs, runs:write: write runs}
        authorizationCode:
          authorizationUrl: https://auth.example.test/authorize
          tokenUrl: https://auth.example.test/token
          scopes: {admin: everything}
    oidc: {type: openIdConnect, openIdConnectUrl: https://auth.example.test/.well-known/openid-configuration}
"""


def api(version: str, security: str, operation_security: str = "") -> str:
    return (
        f"openapi: {version}\ninfo: {{title: Runs, version: 1.0.0}}\n{security}"
        "paths:\n  /runs:\n    get:\n"
        f"{operation_security}"
        "      responses:\n        '200': {description: the runs}\n"
        f"{SCHEMES}"
    )


def test_a_document_requirement_naming_an_undeclared_scheme_is_an_error(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api.yaml": api("3.1.0", "security:\n  - bearer: []\n")})
    findings = run_rule(root, "security-undeclared")
    assert [(f.location.pointer, f.severity) for f in findings] == [
        ("/security/0/bearer", Severity.ERROR)
    ]
    assert "`token`" in findings[0].message  # the declared ones, as the fix
    assert findings[0].related[0].pointer == "/components/securitySchemes"


def test_an_operation_requirement_naming_an_undeclared_scheme_is_reported_at_it(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "api.yaml": api(
                "3.0.3", "", "      security:\n        - token: []\n          basic: []\n"
            )
        }
    )
    assert found(root, "security-undeclared") == [
        ("api.yaml", "/paths/~1runs/get/security/0/basic", Severity.ERROR)
    ]


def test_declared_schemes_and_an_empty_requirement_are_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {"api.yaml": api("3.1.0", "security:\n  - {}\n  - token: []\n  - oauth: [admin]\n")}
    )
    assert found(root, "security-undeclared") == []
    assert found(root, "security-scope-undeclared") == []


def test_a_document_declaring_no_schemes_relates_the_document(make_corpus: MakeCorpus) -> None:
    text = (
        "openapi: 3.0.3\ninfo: {title: Runs, version: 1.0.0}\nsecurity:\n  - token: []\npaths: {}\n"
    )
    findings = run_rule(make_corpus({"api.yaml": text}), "security-undeclared")
    assert [f.location.pointer for f in findings] == ["/security/0/token"]
    assert "declares no" in (findings[0].related[0].note or "")


def test_swagger_2_reads_security_definitions(make_corpus: MakeCorpus) -> None:
    text = yaml(
        """
        swagger: '2.0'
        info: {title: Runs, version: 1.0.0}
        securityDefinitions:
          key: {type: apiKey, in: header, name: X-Key}
        security:
          - key: []
          - token: []
        paths: {}
        """
    )
    findings = run_rule(make_corpus({"api.yaml": text}), "security-undeclared")
    assert [f.location.pointer for f in findings] == ["/security/1/token"]
    assert "`securityDefinitions`" in findings[0].message


def test_an_operation_in_a_path_item_file_is_reported_in_that_file(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api.yaml": (
                "openapi: 3.1.0\ninfo: {title: Runs, version: 1.0.0}\n"
                "paths:\n  /runs:\n    $ref: paths/runs.yaml\n" + SCHEMES
            ),
            "paths/runs.yaml": yaml(
                """
                get:
                  security:
                    - token: []
                    - tokn: []
                  responses:
                    '200': {description: the runs}
                """
            ),
        }
    )
    findings = run_rule(root, "security-undeclared")
    assert [(f.location.path, f.location.pointer, f.location.line) for f in findings] == [
        ("paths/runs.yaml", "/get/security/1/tokn", 4)
    ]
    assert findings[0].related[0].path == "api.yaml"


def test_a_uri_name_in_openapi_32_is_not_judged(make_corpus: MakeCorpus) -> None:
    security = "security:\n  - 'https://auth.example.test/schemes.yaml#/components/securitySchemes/x': []\n"
    assert found(make_corpus({"api.yaml": api("3.2.0", security)}), "security-undeclared") == []


def test_an_undeclared_oauth2_scope_is_a_warning_at_the_scope(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api.yaml": api("3.1.0", "security:\n  - oauth: [runs:read, run:write]\n")})
    findings = run_rule(root, "security-scope-undeclared")
    assert [(f.location.pointer, f.severity) for f in findings] == [
        ("/security/0/oauth/1", Severity.WARNING)
    ]
    assert "`runs:write`" in findings[0].message


def test_a_scope_of_any_flow_of_the_scheme_counts(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api.yaml": api("3.0.3", "security:\n  - oauth: [runs:write, admin]\n")})
    assert found(root, "security-scope-undeclared") == []


def test_open_id_connect_scopes_are_never_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api.yaml": api("3.0.3", "security:\n  - oidc: [openid, profile]\n")})
    assert found(root, "security-scope-undeclared") == []


def test_role_names_of_a_non_oauth_scheme_in_31_are_not_reported(make_corpus: MakeCorpus) -> None:
    # OpenAPI 3.1.1 §4.8.30: "the array MAY contain a list of role names" (the OAI's own
    # non-oauth-scopes example, which Spectral reports).
    root = make_corpus({"api.yaml": api("3.1.0", "security:\n  - token: [admin, auditor]\n")})
    assert found(root, "security-scope-undeclared") == []


def test_values_for_a_non_oauth_scheme_in_30_are_an_error(make_corpus: MakeCorpus) -> None:
    # OpenAPI 3.0.4 §4.7.30: "For other security scheme types, the array MUST be empty."
    root = make_corpus({"api.yaml": api("3.0.3", "security:\n  - keys: [admin]\n")})
    assert found(root, "security-scope-undeclared") == [
        ("api.yaml", "/security/0/keys", Severity.ERROR)
    ]


def test_swagger_2_scopes_are_read_from_the_scheme(make_corpus: MakeCorpus) -> None:
    text = yaml(
        """
        swagger: '2.0'
        info: {title: Runs, version: 1.0.0}
        securityDefinitions:
          oauth:
            type: oauth2
            flow: application
            tokenUrl: https://auth.example.test/token
            scopes: {read: read}
        security:
          - oauth: [read, write]
        paths: {}
        """
    )
    assert found(make_corpus({"api.yaml": text}), "security-scope-undeclared") == [
        ("api.yaml", "/security/0/oauth/1", Severity.WARNING)
    ]


CORE = (
    "openapi: 3.0.3\ninfo: {title: Core, version: 1.0.0}\npaths: {}\n"
    "components:\n  securitySchemes:\n    token: {type: http, scheme: bearer}\n"
    "  schemas:\n    Run: {type: object}\n"
)


def test_a_module_borrowing_the_components_of_the_declaring_document_is_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    module = yaml(
        """
        openapi: 3.0.3
        info: {title: Runs module, version: 1.0.0}
        paths:
          /runs:
            get:
              security:
                - token: []
              responses:
                '200':
                  description: the runs
                  content:
                    application/json:
                      schema: {$ref: 'core.yaml#/components/schemas/Run'}
        """
    )
    root = make_corpus({"core.yaml": CORE, "runs.yaml": module})
    assert found(root, "security-undeclared") == []


def test_a_name_another_document_declares_is_a_warning_relating_it(
    make_corpus: MakeCorpus,
) -> None:
    module = (
        "openapi: 3.0.3\ninfo: {title: Runs module, version: 1.0.0}\n"
        "security:\n  - token: []\npaths: {}\n"
    )
    findings = run_rule(
        make_corpus({"core.yaml": CORE, "runs.yaml": module}), "security-undeclared"
    )
    assert [(f.location.path, f.severity) for f in findings] == [("runs.yaml", Severity.WARNING)]
    assert findings[0].related[0].path == "core.yaml"
    assert findings[0].related[0].pointer == "/components/securitySchemes/token"


def test_an_api_document_whose_paths_another_document_refs_is_judged_as_that_ones(
    make_corpus: MakeCorpus,
) -> None:
    # The piece is an OpenAPI document of its own (an `openapi` header, no schemes); the root
    # `$ref`s its path item and declares the scheme its operation names.
    piece = yaml(
        """
        openapi: 3.0.3
        info: {title: Runs piece, version: 1.0.0}
        paths:
          /runs:
            get:
              security:
                - token: []
              responses:
                '200': {description: the runs}
        """
    )
    root = (
        "openapi: 3.0.3\ninfo: {title: Runs, version: 1.0.0}\n"
        "paths:\n  /runs:\n    $ref: 'piece.yaml#/paths/~1runs'\n"
        "components:\n  securitySchemes:\n    token: {type: http, scheme: bearer}\n"
    )
    assert found(make_corpus({"api.yaml": root, "piece.yaml": piece}), "security-undeclared") == []


def test_a_scheme_declared_by_a_file_the_build_merges_with_the_document_counts(
    make_corpus: MakeCorpus,
) -> None:
    first = (
        "openapi: 3.0.3\ninfo: {title: Runs, version: 1.0.0}\npaths: {}\n"
        "components:\n  securitySchemes:\n    token: {type: http, scheme: bearer}\n"
    )
    second = (
        "openapi: 3.0.3\ninfo: {title: Runs, version: 2.0.0}\n"
        "paths:\n  /runs:\n    get:\n      security:\n        - token: []\n"
        "      responses:\n        '200': {description: the runs}\n"
    )
    build = "build:\n\tyq eval-all '. as $$item ireduce ({}; . * $$item)' first.yaml second.yaml > api.yaml\n"
    root = make_corpus({"first.yaml": first, "second.yaml": second, "Makefile": build})
    assert found(root, "security-undeclared") == []


def test_an_undeclared_scope_in_a_path_item_file_two_documents_read_is_reported_once(
    make_corpus: MakeCorpus,
) -> None:
    # Each API document that `$ref`s the file walks its requirements: the finding is the
    # file's, once (as security-undeclared's is).
    root_document = (
        "openapi: 3.1.0\ninfo: {title: Runs, version: 1.0.0}\n"
        "paths:\n  /runs:\n    $ref: paths/runs.yaml\n" + SCHEMES
    )
    root = make_corpus(
        {
            "api.yaml": root_document,
            "public.yaml": root_document.replace("title: Runs", "title: Public runs"),
            "paths/runs.yaml": yaml(
                """
                get:
                  security:
                    - oauth: [runs:delete]
                  responses:
                    '200': {description: the runs}
                """
            ),
        }
    )
    assert found(root, "security-scope-undeclared") == [
        ("paths/runs.yaml", "/get/security/0/oauth/0", Severity.WARNING)
    ]
