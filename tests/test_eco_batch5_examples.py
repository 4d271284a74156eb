"""Classes found at the first read of ecosystem batch 5 (issue 45): examples, `$schema` paths,
illustrations and sketches, each on a fixture of ours."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from conftest import run_cli, run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# --- example-invalid: an example that is the JSON text of a descriptor fragment --------------

_NAME = {"type": "string", "pattern": "^[a-z][a-z0-9-]*$"}


def _profile(name: dict[str, object], tags: dict[str, object]) -> str:
    return json.dumps(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"label": name, "tags": tags},
        },
        indent=2,
    )


def test_a_string_example_showing_the_descriptor_member_is_judged_by_that_member(
    make_corpus: MakeCorpus,
) -> None:
    """A profile whose documentation shows each property as it appears in a descriptor
    (`"{\\n  \\"label\\": \\"my-label\\"\\n}\\n"`, the JSON text of a fragment) illustrates the
    property's value by the member named as the property: it is that value that is judged, not
    the text against the property's pattern."""
    name = {**_NAME, "examples": ['{\n  "label": "my-label"\n}\n', '{"label": "other"}']}
    tags = {
        "oneOf": [
            {"type": "string", "examples": ['{\n  "tags": "one"\n}\n']},
            {
                "type": "array",
                "items": {"type": "string", "examples": ['{\n  "tags": "two"\n}\n']},
                "examples": ['[ "one", "two" ]\n'],
            },
        ]
    }
    root = make_corpus({"profiles/thing.json": _profile(name, tags)})
    assert run_rule(root, "example-invalid") == []


def test_a_descriptor_fragment_whose_member_fails_is_reported_at_that_member(
    make_corpus: MakeCorpus,
) -> None:
    name = {**_NAME, "examples": ['{\n  "label": "Not Valid"\n}\n']}
    root = make_corpus({"profiles/thing.json": _profile(name, {"type": "array"})})
    [finding] = run_rule(root, "example-invalid")
    assert "example at /label" in finding.message
    assert '"Not Valid"' in finding.message
    assert "JSON text" in finding.message


def test_json_text_where_the_schema_wants_its_value_is_still_reported(
    make_corpus: MakeCorpus,
) -> None:
    """The JSON text of an object or array given on one line where the schema wants the value
    itself (`"[]"` for an array, `"{\\"replicas\\": 2}"` for an object) is the defect an
    editor's completion inserts: still reported. So is a string that is no fragment of the
    property (an object without the property's member)."""
    name = {**_NAME, "examples": ['{"title": "x"}', '{\n  "title": "x"\n}\n']}
    tags = {"type": "array", "examples": ['[ "one" ]', "[]"]}
    root = make_corpus({"profiles/thing.json": _profile(name, tags)})
    found = sorted(f.message for f in run_rule(root, "example-invalid"))
    assert len(found) == 2, found
    assert 'is not of type "array"' in found[0] and "1 more item" in found[0]
    assert "does not match" in found[1] and "1 more item" in found[1]
    assert not any("JSON text" in message for message in found)


# --- instance-invalid: a `$schema` path the repository reads from its root -------------------

_INFO_SCHEMA = "type: object\nrequired: [title]\nproperties:\n  title: {type: string}\n"


def test_a_schema_path_that_exists_only_from_the_repository_root_is_read_from_there(
    make_corpus: MakeCorpus,
) -> None:
    """`spec/info.yaml` naming `./schemas/info.schema.yaml`, a file only the repository root
    has (where the repository's own linter resolves it): no broken reference, and the instance
    is checked against that schema."""
    root = make_corpus(
        {
            "schemas/info.schema.yaml": _INFO_SCHEMA,
            "spec/info.yaml": "$schema: ./schemas/info.schema.yaml\ntitle: 5\n",
            "spec/other.yaml": "$schema: ./schemas/info.schema.yaml\ntitle: Ok\n",
        }
    )
    [finding] = run_rule(root, "instance-invalid")
    assert finding.location.path == "spec/info.yaml"
    assert finding.location.line == 2 and "not of type" in finding.message


def test_a_schema_path_read_from_its_folder_first_and_missing_from_both_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "schemas/info.schema.yaml": _INFO_SCHEMA,
            "spec/schemas/info.schema.yaml": "type: object\nrequired: [name]\n",
            "spec/info.yaml": "$schema: ./schemas/info.schema.yaml\ntitle: 5\n",
            "spec/gone.yaml": "$schema: ./nowhere/info.schema.yaml\ntitle: Ok\n",
        }
    )
    found = sorted((f.location.path, f.message) for f in run_rule(root, "instance-invalid"))
    assert len(found) == 2, found
    assert found[0][0] == "spec/gone.yaml" and "not in the corpus" in found[0][1]
    # the file beside it wins: its `required: [name]`, not the root's `title` type
    assert found[1][0] == "spec/info.yaml" and '"name" is a required' in found[1][1]


def test_a_modeline_naming_a_schema_only_the_root_has_is_still_a_broken_reference(
    make_corpus: MakeCorpus,
) -> None:
    """The YAML language server reads a modeline's path from the file's folder: an editor finds
    no schema there, whatever the root holds."""
    root = make_corpus(
        {
            "schemas/info.schema.yaml": _INFO_SCHEMA,
            "spec/info.yaml": "# yaml-language-server: $schema=./schemas/info.schema.yaml\ntitle: 5\n",
        }
    )
    [finding] = run_rule(root, "instance-invalid")
    assert "not in the corpus" in finding.message


# --- parse-error: a JSON file that leaves members out with `...` ------------------------------

_ELIDED_FILE = """{
  "left": "#part-1",
  "right": "#part-2",
  ...
  "parts": [
    {"id": "part-1", "body": "QUJD ...(bytes left out)... WFla"}
  ]
}
"""


def test_a_json_file_that_fails_only_at_its_elisions_is_a_sketch_not_read(
    make_corpus: MakeCorpus,
) -> None:
    """A `.json` file that leaves members out with `...` (the source of an illustration) is not
    data anyone reads: it parses once its elisions are read as such. It is said among what the
    run did not check, not reported as broken; JSON files are data far more often than fences,
    so this is all it gets (never a pass: the run says it was not read)."""
    page = "# Parts\n\nThe parts, as [a figure shows them](figures/parts.json).\n"
    root = make_corpus({"figures/parts.json": _ELIDED_FILE, "README.md": page})
    [note] = run_rule(root, "parse-error")
    assert note.coverage == "json-sketch" and note.location.line == 4
    result = run_cli("check", str(root), "--no-cache", "--format", "json")
    report = json.loads(result.stdout)
    assert report["findings"] == []
    [said] = report["not_checked"]["notes"]
    assert said["path"] == "figures/parts.json" and said["kind"] == "json-sketch"


def test_a_json_file_with_an_elision_and_another_fault_is_still_broken(
    make_corpus: MakeCorpus,
) -> None:
    broken = _ELIDED_FILE.replace('"#part-1",', '"#part-1"')  # a comma left out
    elsewhere = '{\n  "a": 1\n  "b": 2,\n  "c": "x ... y"\n}\n'  # fails where no elision is
    root = make_corpus({"figures/parts.json": broken, "data/values.json": elsewhere})
    found = sorted((f.location.path, f.location.line) for f in run_rule(root, "parse-error"))
    assert found == [("data/values.json", 3), ("figures/parts.json", 3)]


# --- fence-invalid: computed values, prose placeholders, elided multi-line strings ------------


def _page(*fences: str) -> str:
    return "# Messages\n\n" + "\n".join(f"```json\n{f}\n```\n" for f in fences)


def test_values_written_as_function_calls_are_a_notation_for_computed_values(
    make_corpus: MakeCorpus,
) -> None:
    envelope = """{
  "header": encode({
      "kind": "sealed",
      "mode": "fast", // or "slow"
  }),
  "to": [
    {"key": encode(recipient key), "hint": digest(header.key)}
  ],
  "tag": "c2lnbmVk"
}"""
    root = make_corpus({"docs/envelope.md": _page(envelope)})
    assert run_rule(root, "fence-invalid") == []


def test_a_missing_comma_beside_a_computed_value_is_still_reported(
    make_corpus: MakeCorpus,
) -> None:
    # the notation's own extra `)` (inside the braces of the argument) does not end the call
    slip = (
        '{\n  "header": encode({"kind": "sealed", "hint": hash(key))}),\n'
        '  "body": "c2Vh"\n  "tag": "dGFn"\n}'
    )
    root = make_corpus({"docs/envelope.md": _page(slip)})
    [finding] = run_rule(root, "fence-invalid")
    assert finding.location.line == 7 and "',' is missing" in finding.message


def test_a_prose_placeholder_in_an_array_is_a_description_of_its_items(
    make_corpus: MakeCorpus,
) -> None:
    proof = '{\n  "digest": "5817...0968",\n  "rows": [ 4 arrays of 32 bytes between 0 and 255]\n}'
    numbers = '{\n  "rows": [1 2 3]\n}'  # commas left out of numbers: a slip
    root = make_corpus({"docs/proof.md": _page(proof, numbers)})
    [finding] = run_rule(root, "fence-invalid")
    assert finding.location.line == 12  # the second fence's `[1 2 3]`


def test_an_elision_in_a_string_spanning_lines_is_an_elided_value(
    make_corpus: MakeCorpus,
) -> None:
    batch = '{\n  "items": [\n    {"id": "1", "message": "{\n        ...\n    }"}\n  ]\n}'
    root = make_corpus({"docs/batch.md": _page(batch)})
    assert run_rule(root, "fence-invalid") == []


def test_a_string_broken_across_lines_says_so(make_corpus: MakeCorpus) -> None:
    """A raw line break inside a JSON string was reported as "invalid control character at",
    the parser's message cut before its position."""
    wrapped = '{\n  "kid": "did:example:123#key-\n1"\n}'
    root = make_corpus({"docs/keys.md": _page(wrapped), "keys.json": wrapped})
    for rule in ("fence-invalid", "parse-error"):
        [finding] = run_rule(root, rule)
        assert "line break inside a string" in finding.message, finding.message
        assert " at;" not in finding.message and "at:" not in finding.message
        if rule == "parse-error":  # the key it had: baselines and labels still match it
            assert finding.key == "invalid control character at"


def test_many_calls_whose_brackets_never_close_take_linear_time() -> None:
    """Each unclosed call is looked for to the end of the text: after one, no other is (40,000
    of them took minutes; a hang guard, not a timing)."""
    code = "from speclint.parsing.sketches import sketch_notes\nsketch_notes('[' + 'f(, ' * 40000 + ']')"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
