"""undeclared-tag: the cases its documentation leaves to the tests, each named after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.common.findings import Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _api(*tags: str, container: str = "paths") -> str:
    uses = "".join(
        f"  /op{n}:\n    post: {{tags: [{tag}], responses: {{'200': {{description: ok}}}}}}\n"
        for n, tag in enumerate(tags)
    )
    return (
        "openapi: 3.1.0\ninfo: {title: Shop, version: 1.0.0}\n"
        "tags:\n  - {name: cart, description: The cart}\n"
        "  - {name: invoices, description: Invoices}\n"
        f"{container}:\n{uses}"
    )


def _typos(root: Path) -> list[str]:
    found = run_rule(root, "undeclared-tag", {})
    return sorted(f.message.split("`")[1] for f in found if f.severity is Severity.WARNING)


def test_undeclared_tag_allows_one_edit_under_five_letters_and_two_from_five_on(
    make_corpus: MakeCorpus,
) -> None:
    # `crat` is one swap from `cart`, `invioce` two edits from `invoices`: typos; `cab` (two
    # edits from a four-letter name) is another word
    root = make_corpus({"api.yaml": _api("cart", "invoices", "crat", "invioce", "cab")})
    assert _typos(root) == ["crat", "invioce"]


def test_undeclared_tag_reads_the_tags_of_webhooks(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api.yaml": _api("Cart", container="webhooks")})
    assert _typos(root) == ["Cart"]
