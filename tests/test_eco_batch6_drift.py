"""copy-drift and enum-drift on classes of ecosystem batch 6 (issue 45, item 7).

1. copy-drift pairs on evidence: a one-branch ``allOf`` around a ``$ref`` is that ``$ref``; a
   definition named in a schema file of its own is paired with that file, not with another of
   its ``title``; an unnamed message body is not a copy of another message that shares only its
   envelope's member names; a definition composed from another file's parts (a request profile)
   is a variant, not a drifted copy; the first line names the file the definition differs from.
2. enum-drift binds prose on evidence: a section or page that names its schema file binds to
   that file alone; a page in a proposals folder binds only explicitly; a list headed as a
   subset ("Order-relevant ... values") is not the field's whole vocabulary; an operation's own
   response is no vocabulary another API's response is a projection of.

Each fixture is written here, in our own words.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_rule as run
from conftest import schema

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _api(title: str, schemas: dict[str, Any], paths: Any = None) -> str:
    return textwrap.dedent(
        f"""\
        openapi: 3.0.3
        info: {{title: {json.dumps(title)}, version: "1.0"}}
        paths: {json.dumps(paths or {})}
        components:
          schemas: {json.dumps(schemas)}
        """
    )


# --- 1. copy-drift pairs on evidence -------------------------------------------------------------

_BLURB = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {"plain": {"type": "string"}, "html": {"type": "string"}},
}


def _gadget(blurb: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["id"],
        "properties": {"id": {"type": "string"}, "label": {"type": "string"}, "blurb": blurb},
    }


def test_a_one_branch_all_of_around_a_ref_is_that_ref(make_corpus: MakeCorpus) -> None:
    json_side = {"$ref": "#/$defs/Blurb", "description": "What the gadget is."}
    files: dict[str, str | bytes] = {
        "schemas/gadgets.json": schema(**{"$defs": {"Gadget": _gadget(json_side), "Blurb": _BLURB}}),
        # OpenAPI 3.0 cannot put a description beside a `$ref`: its authors wrap the `$ref` in
        # an `allOf` of one branch, which says the same.
        "api/gadgets.yaml": _api(
            "Gadgets",
            {
                "Gadget": _gadget(
                    {
                        "allOf": [{"$ref": "#/components/schemas/Blurb"}],
                        "description": "What the gadget is.",
                    }
                ),
                "Blurb": _BLURB,
            },
        ),
    }
    assert run(make_corpus(files), "copy-drift") == []
    # A real difference beside the wrapper is still one.
    narrower = dict(
        _BLURB, properties={"plain": {"type": "string", "maxLength": 80}, "html": {"type": "string"}}
    )
    files["api/gadgets.yaml"] = _api(
        "Gadgets",
        {
            "Gadget": _gadget({"allOf": [{"$ref": "#/components/schemas/Blurb"}]}),
            "Blurb": narrower,
        },
    )
    assert any("maxLength" in f.message or "plain" in f.message for f in run(make_corpus(files), "copy-drift"))
