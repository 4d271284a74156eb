"""non-string-key (issue 52, item 1): YAML mapping keys of an API document that are no string."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.parsing.structured import parse_json, parse_yaml

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

HEAD = "info: {title: Runs, version: 1.0.0}\n"


def responses(version: str, codes: str, field: str = "openapi") -> str:
    """An API document of ``version`` with one operation whose ``responses`` are ``codes``."""
    return f"{field}: {version}\n{HEAD}paths:\n  /runs:\n    get:\n      responses:\n" + "".join(
        f"        {code}: {{description: Answer.}}\n" for code in codes.split()
    )


def test_the_reader_keeps_which_yaml_keys_were_no_string() -> None:
    parsed = parse_yaml('codes:\n  200: a\n  "201": b\n  true: c\n  null: d\n  1.5: e\n  k: f\n')
    assert parsed.data == {
        "codes": {"200": "a", "201": "b", "true": "c", "null": "d", "1.5": "e", "k": "f"}
    }
    assert parsed.non_string_keys == ["/codes/200", "/codes/true", "/codes/null", "/codes/1.5"]


def test_json_keys_are_always_strings() -> None:
    assert parse_json('{"responses": {"200": {}}}').non_string_keys == []


def test_an_unquoted_status_code_is_an_error_at_the_key(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": responses("3.0.3", '200 "404"')})
    [found] = run_rule(root, "non-string-key")
    assert (found.location.pointer, found.location.line, found.location.column) == (
        "/paths/~1runs/get/responses/200",
        7,
        9,
    )
    assert found.severity.label == "error"
    assert "`200` (an integer)" in found.message
    assert 'quote it (`"200":`)' in found.message


def test_quoted_status_codes_are_fine(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": responses("3.1.0", '"200" "404" 2XX default')})
    assert run_rule(root, "non-string-key") == []


def test_many_keys_give_one_finding_with_the_count_and_capped_related(
    make_corpus: MakeCorpus,
) -> None:
    codes = " ".join(str(code) for code in range(200, 230))
    root = make_corpus({"api/openapi.yaml": responses("3.0.3", codes)})
    [found] = run_rule(root, "non-string-key")
    assert found.message.startswith("30 mapping keys are no string in YAML: `200` (an integer)")
    assert "and 29 more, all status codes;" in found.message
    assert "fixes them all at once" in found.message
    assert len(found.related) == 10
    assert len(found.members) == 30


def test_a_boolean_key_outside_responses_is_counted_with_the_status_codes(
    make_corpus: MakeCorpus,
) -> None:
    text = responses("3.0.3", '200 "404"') + "x-flags:\n  true: on\n"
    [found] = run_rule(make_corpus({"api/openapi.yaml": text}), "non-string-key")
    assert found.location.pointer == "/paths/~1runs/get/responses/200"
    assert "2 mapping keys" in found.message and "1 of them status codes" in found.message
    assert [r.pointer for r in found.related] == ["/x-flags/true"]
    assert found.severity.label == "error"


def test_a_non_status_key_in_a_32_document_is_a_warning(make_corpus: MakeCorpus) -> None:
    text = responses("3.2.0", '"200"') + "x-flags:\n  1: on\n"
    [found] = run_rule(make_corpus({"api/openapi.yaml": text}), "non-string-key")
    assert found.severity.label == "warning"


def test_an_unquoted_status_code_in_swagger_2(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/swagger.yaml": responses('"2.0"', "201", field="swagger")})
    [found] = run_rule(root, "non-string-key")
    assert found.location.pointer == "/paths/~1runs/get/responses/201"


def test_a_path_item_file_is_reported_where_the_key_is_written(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": f"openapi: 3.0.3\n{HEAD}paths:\n  /runs:\n    $ref: paths/runs.yaml\n",
            "api/paths/runs.yaml": "get:\n  responses:\n    204: {description: Done.}\n",
        }
    )
    [found] = run_rule(root, "non-string-key")
    assert (found.location.path, found.location.pointer, found.location.line) == (
        "api/paths/runs.yaml",
        "/get/responses/204",
        3,
    )


def test_a_yaml_file_no_api_document_reads_is_not_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": responses("3.0.3", '"200"'),
            "config/limits.yaml": "limits:\n  100: small\n  1000: large\n",
        }
    )
    assert run_rule(root, "non-string-key") == []
