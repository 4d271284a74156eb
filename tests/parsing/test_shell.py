"""Shell command lines as the build analyses read them (``speclint.parsing.shell``)."""

from __future__ import annotations

from speclint.parsing.shell import PIPELINES, split_line


def test_a_line_split_again_is_split_alike_whatever_the_last_caller_did_with_its_words() -> None:
    """Each line is split once a process (a run reads it for the merges, the downloads, the
    outputs...): what a caller gets is its own to change."""
    # A pipeline is one command of PIPELINES (its `|` kept), `&&` two.
    line = "curl -sSL https://vendor.example/api.json | jq . > api.json && echo 'done; ok'"
    first = split_line(line, PIPELINES)
    assert first == [
        ["curl", "-sSL", "https://vendor.example/api.json", "|", "jq", ".", ">", "api.json"],
        ["echo", "done; ok"],
    ]
    first[0].append("--changed")
    first.pop()
    assert split_line(line, PIPELINES) == [
        ["curl", "-sSL", "https://vendor.example/api.json", "|", "jq", ".", ">", "api.json"],
        ["echo", "done; ok"],
    ]
    assert split_line("# a comment", PIPELINES) == []
    assert split_line("echo 'unclosed", PIPELINES) == []
