"""Which document an overlay without `extends` applies to (issue 49, ecosystem batch 8): the one it
fits best, the nearest folder breaking a tie, never its own output when another fits; and, when
Speakeasy's workflow lists it, its source's inputs. Each case on a fixture written here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.analyses.workflows.overlays import Applied, applied_to
from speclint.common.findings import Severity
from speclint.model.config import load_config

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# An API served in production and in a sandbox, behind an OAuth client-credentials scheme.
INPUT = """openapi: 3.1.0
info: {title: Payments, version: 2.0.0}
servers:
  - url: https://api.example.com
  - url: https://sandbox.example.com
security:
  - oauth: []
paths:
  /payments:
    get:
      responses:
        "200": {description: The payments}
components:
  securitySchemes:
    oauth:
      type: oauth2
      flows:
        clientCredentials: {tokenUrl: /token, scopes: {}}
"""

# What a build makes of it for a tool that only talks to the sandbox, with a bearer token.
OVERLAY = """overlay: 1.0.0
info: {title: Sandbox only, version: 1.0.0}
actions:
  - target: $.servers[0]
    remove: true
  - target: $.servers[0]
    update: {description: Sandbox}
  - target: $.security[?@.oauth]
    remove: true
  - target: $.components.securitySchemes.oauth
    remove: true
  - target: $.security
    update: [{bearer: []}]
  - target: $.components.securitySchemes
    update: {bearer: {type: http, scheme: bearer}}
"""

OUTPUT = """openapi: 3.1.0
info: {title: Payments, version: 2.0.0}
servers:
  - url: https://sandbox.example.com
    description: Sandbox
security:
  - bearer: []
paths:
  /payments:
    get:
      responses:
        "200": {description: The payments}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
"""


def applied(root: Path, path: str) -> Applied:
    corpus = Context.load(root, load_config(root))
    return applied_to(corpus, corpus.documents[path])


def pets(*, summary: str = "") -> str:
    described = f"\n      summary: {summary}" if summary else ""
    return (
        "openapi: 3.1.0\ninfo: {title: Pets, version: 1.0.0}\npaths:\n  /pets:\n    get:"
        f"{described}\n      responses:\n        '200': {{description: The pets}}\n"
    )


# 1. The overlay beside its own output


def test_an_overlay_beside_its_own_output_applies_to_its_input(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"openapi.yaml": INPUT, "sandbox/overlay.yaml": OVERLAY, "sandbox/openapi.yaml": OUTPUT}
    )
    assert applied(root, "sandbox/overlay.yaml").paths == ("openapi.yaml",)
    assert run_rule(root, "overlay-target-unmatched") == []


def test_the_output_is_not_chosen_even_when_the_overlay_fits_both_equally(
    make_corpus: MakeCorpus,
) -> None:
    # A stale removal selects nothing in the input too: both fit one target of two, and the
    # output is nearer; but there the update is already held and the removal's node is gone.
    overlay = (
        "overlay: 1.0.0\ninfo: {title: Docs, version: 1.0.0}\nactions:\n"
        "  - target: $.paths['/pets'].get\n    update: {summary: List the pets}\n"
        "  - target: $.paths['/legacy']\n    remove: true\n"
    )
    root = make_corpus(
        {
            "openapi.yaml": pets(),
            "docs/overlay.yaml": overlay,
            "docs/openapi.yaml": pets(summary="List the pets"),
        }
    )
    assert applied(root, "docs/overlay.yaml").paths == ("openapi.yaml",)
    found = run_rule(root, "overlay-target-unmatched")
    assert [f.location.pointer for f in found] == ["/actions/1/target"]


def test_an_overlay_whose_only_document_is_its_output_is_checked_against_it(
    make_corpus: MakeCorpus,
) -> None:
    # No other document fits: the output is the only one the overlay points into.
    root = make_corpus({"sandbox/overlay.yaml": OVERLAY, "sandbox/openapi.yaml": OUTPUT})
    assert applied(root, "sandbox/overlay.yaml").paths == ("sandbox/openapi.yaml",)


# 2. The best fit first, the nearest folder breaking ties


def test_of_documents_the_overlay_fits_equally_the_nearest_is_chosen(
    make_corpus: MakeCorpus,
) -> None:
    overlay = (
        "overlay: 1.0.0\ninfo: {title: Docs, version: 1.0.0}\nactions:\n"
        "  - target: $.paths['/pets'].get\n    update: {description: All of them}\n"
    )
    root = make_corpus(
        {"openapi.yaml": pets(), "specs/overlay.yaml": overlay, "specs/openapi.yaml": pets()}
    )
    assert applied(root, "specs/overlay.yaml").paths == ("specs/openapi.yaml",)


def test_a_farther_document_the_overlay_fits_better_is_chosen_over_a_nearer_one(
    make_corpus: MakeCorpus,
) -> None:
    overlay = (
        "overlay: 1.0.0\ninfo: {title: Docs, version: 1.0.0}\nactions:\n"
        "  - target: $.paths['/pets'].get\n    update: {description: All of them}\n"
        "  - target: $.paths['/pets'].get.responses['200']\n    update: {description: Pets}\n"
        "  - target: $.paths['/pets'].post\n    remove: true\n"
    )
    post = "    post:\n      responses:\n        '201': {description: Added}\n"
    root = make_corpus(
        {"openapi.yaml": pets() + post, "specs/overlay.yaml": overlay, "specs/openapi.yaml": pets()}
    )
    assert applied(root, "specs/overlay.yaml").paths == ("openapi.yaml",)


def test_a_target_an_earlier_action_creates_counts_toward_the_fit(make_corpus: MakeCorpus) -> None:
    # Read at its turn, the second target matches where the first action added its node.
    overlay = (
        "overlay: 1.0.0\ninfo: {title: Docs, version: 1.0.0}\nactions:\n"
        "  - target: $.paths\n    update: {/owners: {get: {responses: {'200': {description: x}}}}}\n"
        "  - target: $.paths['/owners'].get\n    update: {summary: The owners}\n"
    )
    owners = "  /owners:\n    get:\n      responses:\n        '200': {description: y}\n"
    root = make_corpus(
        {
            "openapi.yaml": pets() + owners,
            "specs/overlay.yaml": overlay,
            "specs/openapi.yaml": pets(),
        }
    )
    assert applied(root, "specs/overlay.yaml").paths == ("specs/openapi.yaml",)


# 3. Speakeasy's workflow

WORKFLOW = """workflowVersion: 1.0.0
speakeasyVersion: latest
sources:
  payments:
    inputs:
{inputs}
    overlays:
      - location: ./overlays/sandbox.yaml
    registry:
      location: registry.speakeasyapi.dev/example/example/payments
targets:
  go:
    target: go
    source: payments
"""


def workflow(*inputs: str) -> str:
    return WORKFLOW.format(inputs="\n".join(f"      - location: {i}" for i in inputs))


def test_speakeasy_s_workflow_naming_the_input(make_corpus: MakeCorpus) -> None:
    # The output beside the overlay, and nothing in its folder names it as one: the
    # workflow does.
    root = make_corpus(
        {
            "sdk/.speakeasy/workflow.yaml": workflow("./specs/vendor.yaml"),
            "sdk/specs/vendor.yaml": INPUT,
            "sdk/overlays/sandbox.yaml": OVERLAY,
            "sdk/overlays/openapi.yaml": INPUT,
        }
    )
    assert applied(root, "sdk/overlays/sandbox.yaml").paths == ("sdk/specs/vendor.yaml",)


def test_speakeasy_s_workflow_merging_several_inputs_applies_the_overlay_to_all(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            ".speakeasy/workflow.yaml": workflow("specs/pets.yaml", "specs/payments.yaml"),
            "specs/pets.yaml": pets(),
            "specs/payments.yaml": INPUT,
            "overlays/sandbox.yaml": OVERLAY,
        }
    )
    assert applied(root, "overlays/sandbox.yaml").paths == (
        "specs/pets.yaml",
        "specs/payments.yaml",
    )
    # Each target selects a node of one of the merged documents: none matches nothing.
    assert run_rule(root, "overlay-target-unmatched") == []


def test_speakeasy_s_workflow_with_a_remote_input_leaves_the_overlay_unchecked(
    make_corpus: MakeCorpus,
) -> None:
    # The repository holds a document the overlay would fit, but the workflow reads another.
    root = make_corpus(
        {
            ".speakeasy/workflow.yaml": workflow("https://api.example.com/openapi.yaml"),
            "openapi.yaml": OUTPUT,
            "overlays/sandbox.yaml": OVERLAY,
        }
    )
    result = applied(root, "overlays/sandbox.yaml")
    assert result.paths == ()
    assert result.coverage == "overlay-target"
    assert "remote document (https://api.example.com/openapi.yaml)" in result.why
    [note] = run_rule(root, "overlay-target-unmatched")
    assert note.severity is Severity.INFO
    assert note.coverage == "overlay-target"
    assert "Speakeasy's workflow (.speakeasy/workflow.yaml)" in note.message


def test_speakeasy_s_workflow_with_a_registry_input_leaves_the_overlay_unchecked(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            ".speakeasy/workflow.yaml": workflow("registry.speakeasyapi.dev/example/x/api"),
            "openapi.yaml": INPUT,
            "overlays/sandbox.yaml": OVERLAY,
        }
    )
    assert "remote document" in applied(root, "overlays/sandbox.yaml").why


def test_an_overlay_the_workflow_does_not_list_is_guessed_as_before(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            ".speakeasy/workflow.yaml": workflow("https://api.example.com/openapi.yaml"),
            "openapi.yaml": INPUT,
            "fixes/other.yaml": OVERLAY,
        }
    )
    assert applied(root, "fixes/other.yaml").paths == ("openapi.yaml",)


def test_an_overlay_s_extends_wins_over_the_workflow(make_corpus: MakeCorpus) -> None:
    extending = OVERLAY.replace("info:", "extends: ../specs/payments.yaml\ninfo:")
    root = make_corpus(
        {
            ".speakeasy/workflow.yaml": workflow("https://api.example.com/openapi.yaml"),
            "specs/payments.yaml": INPUT,
            "overlays/sandbox.yaml": extending,
        }
    )
    assert applied(root, "overlays/sandbox.yaml").paths == ("specs/payments.yaml",)
