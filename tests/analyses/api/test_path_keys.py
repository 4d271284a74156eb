"""The path keys of a document whose ``paths`` is kept in a file (``path_keys.paths_objects``),
found as the operation walk finds them (``written_operations.followed``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from speclint.analyses.api.path_keys import paths_objects
from speclint.analyses.context import Context

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_a_paths_file_that_is_itself_a_ref_is_followed_to_its_keys(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": (
                "openapi: 3.1.0\ninfo: {title: Runs, version: '1'}\npaths: {$ref: paths.yaml}\n"
            ),
            "api/paths.yaml": "$ref: v2/paths.yaml\n",
            "api/v2/paths.yaml": "/runs: {get: {responses: {'200': {description: ok}}}}\n",
        }
    )
    (found,) = paths_objects(Context.load(root))
    assert (found.holder.path, found.pointer, found.keys) == ("api/v2/paths.yaml", "", ("/runs",))
