"""speclint.parsing.curl: curl commands read as curl(1) reads them, by both of its readers (the
exchange a fence shows and the routes a page names)."""

from __future__ import annotations

import pytest

from speclint.parsing.curl import curl_commands
from speclint.parsing.http_requests import fence_request
from speclint.parsing.routes import curl_requests

# curl(1): -X wins; -I is HEAD; -G puts the data in a GET's query; -d/--data*/--json/-F/--form*
# send a POST; -T uploads with PUT; nothing of these is a GET.
_METHODS = [
    ("curl https://h.example/jobs", "GET"),
    ("curl -d '{}' https://h.example/jobs", "POST"),
    ("curl --data-raw '{}' https://h.example/jobs", "POST"),
    ("curl --data-binary @job.json https://h.example/jobs", "POST"),
    ("curl --data-urlencode q=a https://h.example/jobs", "POST"),
    ("curl --json '{}' https://h.example/jobs", "POST"),
    ("curl -F file=@a.png https://h.example/jobs", "POST"),
    ("curl --form file=@a.png https://h.example/jobs", "POST"),
    ("curl --form-string note=a https://h.example/jobs", "POST"),
    ("curl -G -d q=a https://h.example/jobs", "GET"),
    ("curl --get --data q=a https://h.example/jobs", "GET"),
    ("curl -I https://h.example/jobs", "HEAD"),
    ("curl --head https://h.example/jobs", "HEAD"),
    ("curl -T job.json https://h.example/jobs", "PUT"),
    ("curl -X PATCH -d '{}' https://h.example/jobs", "PATCH"),
    ("curl --request DELETE https://h.example/jobs", "DELETE"),
    ("curl --request=PUT https://h.example/jobs", "PUT"),
    ("curl -XPUT https://h.example/jobs", "PUT"),
    ("curl -X GET -d q=a https://h.example/jobs", "GET"),
    ("curl -sSI https://h.example/jobs", "HEAD"),
    ("curl -sXPOST https://h.example/jobs", "POST"),
    ("curl -sd '{}' https://h.example/jobs", "POST"),
]


@pytest.mark.parametrize(("command", "method"), _METHODS)
def test_each_option_gives_curls_method_to_both_readers(command: str, method: str) -> None:
    (read,) = curl_commands(command)
    assert read.method == method
    request = fence_request("shell", command)
    assert request is not None and (request.method, request.path) == (method, "/jobs")
    assert [(r.method, r.target) for r in curl_requests(command)] == [
        (method, "https://h.example/jobs")
    ]


def test_an_options_value_is_never_the_url() -> None:
    for option in ("--form-string", "--max-redirs", "--dump-header", "-D", "--proxy-header"):
        text = f"curl {option} x https://h.example/jobs"
        assert [r.target for r in curl_requests(text)] == ["https://h.example/jobs"]
        request = fence_request("sh", text)
        assert request is not None and request.path == "/jobs"


def test_continued_lines_and_a_body_over_several_lines_are_one_command() -> None:
    text = (
        "$ curl -X POST \\\n"
        "    -H 'Content-Type: application/json' \\\n"
        '    https://h.example/jobs -d \'{\n  "name": "a"\n}\'\n'
        "curl https://h.example/jobs/1 | jq .\n"
    )
    first, second = curl_commands(text)
    assert first.headers == (("Content-Type", "application/json"),)
    assert first.url is not None and first.url.text == "https://h.example/jobs"
    assert second.method == "GET"
    assert [(r.method, r.target, r.line, r.offset) for r in curl_requests(text)] == [
        ("POST", "https://h.example/jobs", 2, 4),
        ("GET", "https://h.example/jobs/1", 5, 5),
    ]
    request = fence_request("shell", text)
    assert request is not None and request.method == "POST"
    assert request.messages[0].body.strip() == '{\n  "name": "a"\n}'


def test_json_sends_its_headers_and_get_sends_no_body() -> None:
    (json,) = curl_commands("curl --json '{\"a\": 1}' https://h.example/jobs")
    assert ("Content-Type", "application/json") in json.headers
    request = fence_request("sh", "curl -G --data-raw '{\"a\": 1}' https://h.example/jobs")
    assert request is not None and request.messages[0].body == ""


def test_curl_is_a_command_not_a_word_of_another() -> None:
    text = "apt-get install curl\nsudo TOKEN=x curl -X DELETE https://h.example/jobs/1\n"
    (command,) = curl_commands(text)
    assert command.method == "DELETE"
    request = fence_request("sh", text)
    assert request is not None and request.path == "/jobs/1"


def test_a_quoted_url_with_an_angle_placeholder_is_a_route() -> None:
    text = "curl 'http://<domain-of-the-hub>/participants'"
    assert [(r.target, r.offset) for r in curl_requests(text)] == [
        ("http://{domain-of-the-hub}/participants", 6)
    ]


def test_a_backslash_with_spaces_after_it_still_continues_the_command() -> None:
    text = "curl -X PUT -H 'Accept: application/json' \\ \n  -d '{}' \\\n  https://h.example/jobs\n"
    assert [(r.method, r.target, r.line) for r in curl_requests(text)] == [
        ("PUT", "https://h.example/jobs", 2)
    ]
