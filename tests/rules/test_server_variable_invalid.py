"""``server-variable-invalid`` (issue 52, item 6) on fixtures written here, one test a case."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.common.findings import Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def api(version: str, servers: str, paths: str = "paths: {}\n") -> str:
    return f"openapi: {version}\ninfo: {{title: Runs, version: 1.0.0}}\n{servers}{paths}"


def found(root: Path) -> list[tuple[str, str | None, Severity]]:
    return [
        (f.location.path, f.location.pointer, f.severity)
        for f in run_rule(root, "server-variable-invalid")
    ]


def test_a_variable_the_url_uses_and_variables_does_not_define_is_an_error(
    make_corpus: MakeCorpus,
) -> None:
    servers = (
        "servers:\n  - url: https://{region}.api.example.test/{version}\n"
        "    variables:\n      region: {default: eu}\n"
    )
    root = make_corpus({"api.yaml": api("3.0.3", servers)})
    findings = run_rule(root, "server-variable-invalid")
    assert [(f.location.pointer, f.severity) for f in findings] == [
        ("/servers/0/url", Severity.ERROR)
    ]
    assert "`{version}`" in findings[0].message


def test_a_url_with_variables_and_no_variables_map_is_reported(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api.yaml": api("3.1.0", "servers:\n  - url: https://{host}/v1\n")})
    assert found(root) == [("api.yaml", "/servers/0/url", Severity.ERROR)]


def test_a_default_outside_the_enum_is_an_error_in_31(make_corpus: MakeCorpus) -> None:
    servers = (
        "servers:\n  - url: https://{region}.api.example.test\n"
        "    variables:\n      region: {default: eu, enum: [us, asia]}\n"
    )
    root = make_corpus({"api.yaml": api("3.1.0", servers)})
    assert found(root) == [("api.yaml", "/servers/0/variables/region/default", Severity.ERROR)]


def test_a_default_outside_the_enum_is_a_warning_in_30(make_corpus: MakeCorpus) -> None:
    # OpenAPI 3.0.4 §4.7.6: the default SHOULD exist in the enum's values.
    servers = (
        "servers:\n  - url: https://{region}.api.example.test\n"
        "    variables:\n      region: {default: eu, enum: [us, asia]}\n"
    )
    root = make_corpus({"api.yaml": api("3.0.3", servers)})
    assert found(root) == [("api.yaml", "/servers/0/variables/region/default", Severity.WARNING)]


def test_an_empty_enum_is_a_warning_in_30_and_left_to_openapi_invalid_in_31(
    make_corpus: MakeCorpus,
) -> None:
    servers = "servers:\n  - url: https://{r}.example.test\n    variables:\n      r: {default: eu, enum: []}\n"
    root = make_corpus({"old.yaml": api("3.0.3", servers), "new.yaml": api("3.1.0", servers)})
    assert found(root) == [("old.yaml", "/servers/0/variables/r/enum", Severity.WARNING)]


def test_defined_variables_and_an_unused_one_are_not_reported(make_corpus: MakeCorpus) -> None:
    servers = (
        "servers:\n  - url: https://{region}.api.example.test\n"
        "    variables:\n      region: {default: eu, enum: [eu, us]}\n      unused: {default: x}\n"
    )
    assert found(make_corpus({"api.yaml": api("3.1.0", servers)})) == []


def test_servers_of_a_path_item_file_are_reported_in_that_file(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api.yaml": api("3.1.0", "", "paths:\n  /runs:\n    $ref: runs.yaml\n"),
            "runs.yaml": (
                "servers:\n  - url: https://{tenant}.example.test\n"
                "get:\n  servers:\n    - url: https://files.example.test/{bucket}\n"
                "  responses:\n    '200': {description: ok}\n"
            ),
        }
    )
    assert found(root) == [
        ("runs.yaml", "/servers/0/url", Severity.ERROR),
        ("runs.yaml", "/get/servers/0/url", Severity.ERROR),
    ]


def test_swagger_2_is_not_judged(make_corpus: MakeCorpus) -> None:
    text = (
        "swagger: '2.0'\ninfo: {title: Runs, version: 1.0.0}\nhost: api.example.test\npaths: {}\n"
    )
    assert found(make_corpus({"api.yaml": text})) == []


def test_a_placeholder_port_makes_every_substituted_url_no_url(make_corpus: MakeCorpus) -> None:
    # `<port>` is a placeholder for the reader, not a server variable: every URL the variables
    # give keeps it, and `<` is no URI character (RFC 3986 §2).
    servers = (
        "servers:\n  - url: '{scheme}://gateway.example.test:<port>/v1'\n"
        "    variables:\n      scheme: {default: https, enum: [https, http]}\n"
    )
    [finding] = run_rule(
        make_corpus({"api.yaml": api("3.0.3", servers)}), "server-variable-invalid"
    )
    assert (finding.location.pointer, finding.severity) == ("/servers/0/url", Severity.ERROR)
    assert "`https://gateway.example.test:<port>/v1`" in finding.message
    assert "`http://gateway.example.test:<port>/v1`" in finding.message
    assert "`<` is not allowed" in finding.message


def test_a_variable_value_that_breaks_the_url_is_reported(make_corpus: MakeCorpus) -> None:
    # The template is a URL; the default of `port` is not a port (RFC 3986 §3.2.3).
    servers = (
        "servers:\n  - url: https://gateway.example.test:{port}/v1\n"
        "    variables:\n      port: {default: PORT}\n"
    )
    [finding] = run_rule(
        make_corpus({"api.yaml": api("3.1.0", servers)}), "server-variable-invalid"
    )
    assert "the port `PORT` is no number" in finding.message


def test_urls_relative_ipv6_and_international_hosts_are_urls(make_corpus: MakeCorpus) -> None:
    servers = (
        "servers:\n  - url: /api/v2\n  - url: 'http://[::1]:8080/v1'\n"
        "  - url: https://bücher.example.test/v1%20beta\n"
        "  - url: https://{host}:{port}/\n    variables:\n"
        "      host: {default: api.example.test}\n      port: {default: '8443', enum: ['8443', '443']}\n"
    )
    assert found(make_corpus({"api.yaml": api("3.1.0", servers)})) == []


def test_a_variable_named_bare_in_its_url_lost_its_braces(make_corpus: MakeCorpus) -> None:
    # `protocol://...` beside a `protocol` variable the URL never uses: the scheme is the name.
    servers = (
        "servers:\n  - url: protocol://gateway.example.test/v1\n"
        "    variables:\n      protocol: {default: https, enum: [https, http]}\n"
    )
    [finding] = run_rule(
        make_corpus({"api.yaml": api("3.0.3", servers)}), "server-variable-invalid"
    )
    assert (finding.location.pointer, finding.severity) == (
        "/servers/0/variables/protocol",
        Severity.WARNING,
    )
    assert "write `{protocol}` in the URL" in finding.message
