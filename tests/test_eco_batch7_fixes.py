"""Issue 49, first-read batch 7: the general classes behind its false and noise verdicts. A
docs renderer's diff markers in a fence, a `$ref` to a plain-name fragment (an `$anchor`), a
readOnly property an example of a request leaves out, a `.json` file its tool reads as JSON with
comments, a test input whose name says it is broken on purpose, and a third party's API document
kept as a tool's input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_cli import cli

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.model.config import load_config

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def fence(language: str, body: str) -> str:
    return f"```{language}\n{body}\n```\n\n"


# --- fence-invalid: a docs renderer's diff markers (Shiki `[!code --]` / `[!code ++]`) ---------

# Old and new lines together, each marked: the page renders a diff, the `--` line is not part of
# the document shown.
DIFF_YAML = "top: {\n  inner: value\n} # [!code --]\n  } # [!code ++]\nnext: other"
DIFF_JSON = '{\n  "mode": "old", // [!code --]\n  "mode": "new", // [!code ++]\n  "n": 1\n}'


def test_a_fence_with_diff_markers_is_read_without_the_removed_lines(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Migrate\n\n" + fence("yaml", DIFF_YAML) + fence("json", DIFF_JSON)
    root = make_corpus({"docs/migrate.md": page})
    assert run_rule(root, "fence-invalid") == []


def test_a_slip_in_a_fence_with_diff_markers_is_still_reported(make_corpus: MakeCorpus) -> None:
    """The added line itself is read: a trailing comma there is a slip."""
    body = '{\n  "mode": "old" // [!code --]\n  "mode": "new", // [!code ++]\n}'
    root = make_corpus({"docs/migrate.md": "# Migrate\n\n" + fence("json", body)})
    found = run_rule(root, "fence-invalid")
    assert [("trailing comma" in f.message) for f in found] == [True]


# --- type-claim-drift: a `$ref` to a plain-name fragment is the `$anchor`'s subschema ----------

# `"$ref": "#jobId"` names the subschema whose `$anchor` is `jobId` (JSON Schema 2020-12 §8.2.2):
# a string. Read as the document's root it was an object, and the page's `string` a drift.
ANCHORED = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Pipeline",
    "type": "object",
    "properties": {
        "name": {"$anchor": "jobId", "type": "string"},
        "after": {"$ref": "#jobId"},
        "before": {"$ref": "#noSuchAnchor"},
    },
}
ANCHOR_PAGE = (
    "# Pipelines\n\n## Pipeline\n\n"
    "- `name` (string): the pipeline's name.\n"
    "- `after` (string): the pipeline to run first.\n"
    "- `before` (string): the pipeline to run next.\n"
)


def test_a_ref_to_an_anchor_is_read_as_the_anchored_subschema(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"schemas/pipeline.json": json.dumps(ANCHORED, indent=2), "docs/pipeline.md": ANCHOR_PAGE}
    )
    assert run_rule(root, "type-claim-drift") == []


def test_a_ref_to_an_anchor_resolves_to_its_pointer_not_the_root(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schemas/pipeline.json": json.dumps(ANCHORED, indent=2)})
    context = Context.load(root, load_config(root))
    found = context.references.at("schemas/pipeline.json", "/properties/after/$ref")
    assert found is not None and found.outcome == "ok"
    assert found.target_pointer == "/properties/name"
    missing = context.references.at("schemas/pipeline.json", "/properties/before/$ref")
    assert missing is not None and missing.outcome != "ok"


# --- example-invalid: a readOnly discriminating property a request leaves out -------------------

# The server sets `platform` from the branch a client chooses (it is `readOnly`): a request body
# does not send it (OpenAPI 3.0.3 §4.7.24.1), so the discriminator cannot demand it of a request
# example. A response example still needs it. (Limitation: openapi-schema-validator stops at the
# missing discriminating property, so the branches are not read for such a request example.)
SHAPES_API = """\
openapi: %s
info: {title: Shapes, version: 1.0.0}
paths:
  /shapes:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Shape'}
            examples:
              circle: {value: {radius: 2}}
              wrong: {value: {platform: circle, radius: wide}}
      responses:
        '201':
          description: Created.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Shape'}
              examples:
                created: {value: {radius: 2}}
components:
  schemas:
    Shape:
      type: object
      properties:
        platform: {type: string, readOnly: true}
      discriminator:
        propertyName: platform
        mapping: {circle: '#/components/schemas/Circle', square: '#/components/schemas/Square'}
      oneOf:
        - $ref: '#/components/schemas/Circle'
        - $ref: '#/components/schemas/Square'
    Circle:
      type: object
      properties:
        platform: {type: string, readOnly: true}
        radius: {type: number}
      required: [radius]
    Square:
      type: object
      properties:
        platform: {type: string, readOnly: true}
        side: {type: number}
      required: [side]
"""


def test_a_request_example_may_leave_out_a_readonly_discriminating_property(
    make_corpus: MakeCorpus,
) -> None:
    # 3.1's validators do not enforce the discriminator (an annotation): only 3.0's response
    # example lacks what the server must send.
    for version, expected in (("3.0.3", ["created", "wrong"]), ("3.1.0", ["wrong"])):
        root = make_corpus({"openapi.yaml": SHAPES_API % version})
        found = [f for f in run_rule(root, "example-invalid") if f.coverage is None]
        pointers = sorted(str(f.location.pointer).rsplit("/", 2)[-2] for f in found)
        assert pointers == expected, version


# --- test inputs broken on purpose ----------------------------------------------------------------

BROKEN_API = "openapi: 3.0.3\ninfo: {title: %s, version: '1'%s}\npaths:\n  /a:\n    get: {}\n"


def findings_by_path(root: Path) -> set[str]:
    run = cli("check", str(root), "--preview", "--no-cache", "--format", "json")
    return {f["location"]["path"] for f in json.loads(run.stdout)["findings"]}


def test_a_data_file_named_broken_on_purpose_is_a_fixture(make_corpus: MakeCorpus) -> None:
    """`*-with-errors`, `invalid-*`, `*.invalid.*`, `broken-*`: a validator's negative inputs,
    listed as fixtures; a page named so is about the subject, and is read."""
    names = ("pets-with-errors.yaml", "invalid-pets.yaml", "pets.invalid.yaml", "broken_pets.yml")
    files = {f"resources/{name}": BROKEN_API % ("Pets", "") for name in names}
    files["resources/pets.yaml"] = BROKEN_API % ("Pets", "")
    root = make_corpus(files)
    assert findings_by_path(root) == {"resources/pets.yaml"}
    rows = {line.split()[0]: line for line in cli("files", str(root)).stdout.splitlines()}
    assert all("fixture" in rows[f"resources/{name}"] for name in names)


def test_a_document_that_says_it_is_a_torture_test_is_not_judged(make_corpus: MakeCorpus) -> None:
    files = {
        "examples/errors/flows.yaml": BROKEN_API
        % ("Validator Torture Test", ", description: A purposely broken document"),
        "examples/flows.yaml": BROKEN_API % ("Flows", ", description: Tests the flows"),
    }
    root = make_corpus(files)
    assert findings_by_path(root) == {"examples/flows.yaml"}
    rows = {line.split()[0]: line for line in cli("files", str(root)).stdout.splitlines()}
    assert "test input" in rows["examples/errors/flows.yaml"]
    # Not silent: the run's summary says one document was left unreported, and which.
    report = json.loads(cli("check", str(root), "--no-cache", "--format", "json").stdout)
    assert report["not_checked"]["counts"]["test-input"] == 1
    (note,) = [n for n in report["not_checked"]["notes"] if n["kind"] == "test-input"]
    assert note["path"] == "examples/errors/flows.yaml" and "Torture Test" in note["what"]


# --- parse-error: a Rush config file is JSON with comments ------------------------------------------


def test_a_rush_config_file_with_comments_is_jsonc(make_corpus: MakeCorpus) -> None:
    jsonc = '// written by the tool\n{\n  /* state */\n  "pnpmShrinkwrapHash": "abc",\n}\n'
    root = make_corpus(
        {
            "common/config/rush/repo-state.json": jsonc,
            "rush.json": jsonc,
            "data/state.json": jsonc,  # no tool reads this one as JSONC: still an error
        }
    )
    assert {f.location.path for f in run_rule(root, "parse-error")} == {"data/state.json"}


# --- third parties' API documents kept as a tool's input -------------------------------------------

THIRD_PARTY = (
    "openapi: 3.0.3\ninfo: {title: %s, version: '1'%s}\nservers: [{url: '%s'}]\n"
    "paths:\n  /a:\n    get:\n      parameters:\n"
    "        - {name: n, in: query, schema: {type: integer}, example: many}\n"
    "      responses: {'200': {description: OK}}\n"
)


def test_an_api_document_with_a_copiers_mark_is_vendored(make_corpus: MakeCorpus) -> None:
    files = {
        "specs/chat.yaml": THIRD_PARTY
        % (
            "Chat",
            ", x-origin: [{url: 'https://chat.example.net/openapi.json'}]",
            "https://api.chat.dev",
        ),
        "specs/own.yaml": THIRD_PARTY % ("Own", "", "https://api.own.dev"),
    }
    root = make_corpus(files)
    assert findings_by_path(root) == {"specs/own.yaml"}
    rows = {line.split()[0]: line for line in cli("files", str(root)).stdout.splitlines()}
    assert "vendored" in rows["specs/chat.yaml"] and "x-origin" in rows["specs/chat.yaml"]


def test_a_folder_named_for_the_servers_domain_holds_a_vendored_copy(
    make_corpus: MakeCorpus,
) -> None:
    files = {
        "inputs/voice.io/v1/openapi.yaml": THIRD_PARTY % ("Voice", "", "https://api.voice.io"),
        "inputs/mine/openapi.yaml": THIRD_PARTY % ("Mine", "", "https://api.mine.dev"),
    }
    assert findings_by_path(make_corpus(files)) == {"inputs/mine/openapi.yaml"}


def collected_apis(count: int) -> dict[str, str]:
    domains = [("chat", "chatco.com"), ("maps", "mapsco.com"), ("pay", "payco.co.uk")]
    return {
        f"examples/apis/{name}.yaml": THIRD_PARTY % (name, "", f"https://api.{domain}/v1")
        for name, domain in domains[:count]
    }


def test_a_folder_collecting_apis_of_three_organisations_one_marked_is_vendored(
    make_corpus: MakeCorpus,
) -> None:
    files = collected_apis(3)
    mark = ", x-origin: [{url: 'https://elsewhere.example.org/a.json'}]"
    files["examples/apis/pay.yaml"] = files["examples/apis/pay.yaml"].replace(
        "version: '1'", "version: '1'" + mark
    )
    assert findings_by_path(make_corpus(files)) == set()


def test_a_repository_s_own_descriptions_of_other_companies_apis_are_judged(
    make_corpus: MakeCorpus,
) -> None:
    """Three organisations' APIs, none marked as copied and none in a domain-named folder: a
    collection its repository writes itself (one description per exchange) owns its defects."""
    three = collected_apis(3)
    assert findings_by_path(make_corpus(three)) == set(three)


def test_a_folder_of_two_organisations_apis_is_not_a_collection(make_corpus: MakeCorpus) -> None:
    """A company's API and its payments arm's, side by side: both judged."""
    two = collected_apis(2)
    assert findings_by_path(make_corpus(two)) == set(two)


def test_a_document_beside_marked_copies_of_other_organisations_is_vendored(
    make_corpus: MakeCorpus,
) -> None:
    """Two copies bear a copier's mark; the third, unmarked, is of a third organisation."""
    files = collected_apis(3)
    mark = ", x-origin: [{url: 'https://elsewhere.example.org/a.json'}]"
    for name in ("examples/apis/chat.yaml", "examples/apis/maps.yaml"):
        files[name] = files[name].replace("version: '1'", "version: '1'" + mark)
    assert findings_by_path(make_corpus(files)) == set()
