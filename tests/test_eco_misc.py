"""Issue 26, items 4 and 5: precision of version-drift, remote-ref, undeclared-tag,
instance-invalid, openapi-invalid, schema-invalid and parse-error on layouts seen in public spec
repositories, and short first lines for the closure, union, satisfiability and identity rules.
Every fixture here is our own."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import BUNDLED_CORPUS, run_rule, schema
from speclint.analyses.context import Context
from speclint.common.findings import Severity
from speclint.model.config import load_config
from speclint.parsing.kinds import DocumentKind
from speclint.run.catalog import all_rules
from speclint.run.coverage import Note, of_corpus, sorted_notes
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
FIRST_LINE = 200


def not_checked(root: Path, kind: str) -> list[Note]:
    """What the corpus shows was not checked, of one kind (``speclint.run.coverage``)."""
    notes = of_corpus(Context.load(root, load_config(root)))
    return [note for note in sorted_notes(notes) if note.kind == kind]


def yaml(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def api(version: str = "1.0.0", extra: str = "") -> str:
    return (
        yaml(
            f"""
        openapi: 3.1.0
        info: {{title: Widgets, version: "{version}"}}
        paths: {{}}
        """
        )
        + extra
    )


# --- version-drift: a placeholder manifest version is no corpus version -------------------------


def test_a_placeholder_package_version_is_not_the_corpus_version(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "package.json": json.dumps(
                {"name": "site", "version": "0.0.1", "private": True, "description": "theme"}
            ),
            "api/one.yaml": api("1.0.0"),
            "api/two.yaml": api("2.0.0"),
        }
    )
    assert run_rule(root, "version-drift") == []


def test_a_placeholder_version_an_api_document_shares_is_still_compared(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "package.json": json.dumps({"name": "proto", "version": "0.0.3"}),
            "api/one.yaml": api("0.0.3"),
            "api/two.yaml": api("0.2.0"),
        }
    )
    found = run_rule(root, "version-drift")
    assert [f.location.path for f in found] == ["api/two.yaml"]


def test_a_real_package_version_is_still_the_corpus_version(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "package.json": json.dumps({"name": "proto", "version": "1.4.0", "private": True}),
            "api/one.yaml": api("1.0.0"),
        }
    )
    assert [f.location.path for f in run_rule(root, "version-drift")] == ["api/one.yaml"]


@pytest.mark.parametrize(
    "placeholder",
    [
        "0.0.0",
        "0.1.0-dev",
        "x.y.z",
        "${VERSION}",
        "latest",
        "dev",
        "unreleased",
        "next",
        "Dev - the protocol at v1.7.0-alpha.8",
    ],
)
def test_a_development_placeholder_in_info_version_is_no_release(
    make_corpus: MakeCorpus, placeholder: str
) -> None:
    # A build fills `info.version` in from the release: the placeholder disagrees with the
    # changelog by design. A real version that disagrees is still reported.
    root = make_corpus(
        {
            "CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n\n## [1.2.0] - 2026-05-01\n",
            "api/dev.yaml": api(placeholder),
            "api/old.yaml": api("1.0.0"),
        }
    )
    assert [f.location.path for f in run_rule(root, "version-drift")] == ["api/old.yaml"]


def test_a_development_placeholder_an_api_shares_is_no_corpus_version(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "package.json": json.dumps({"name": "site", "version": "0.1.0-dev"}),
            "api/one.yaml": api("0.1.0-dev"),
            "api/two.yaml": api("2.0.0"),
        }
    )
    assert run_rule(root, "version-drift") == []


@pytest.mark.parametrize("name", ["CHANGES.md", "HISTORY.md", "NEWS.md", "RELEASES.md"])
def test_the_changelog_is_named_as_the_repository_names_it(
    make_corpus: MakeCorpus, name: str
) -> None:
    root = make_corpus(
        {
            name: "# Changes\n\n## 1.2.0\n\n- More.\n",
            "package.json": json.dumps({"name": "proto", "version": "1.0.0"}),
            "api/one.yaml": api("1.0.0"),
        }
    )
    found = run_rule(root, "version-drift")
    assert [f.location.path for f in found] == ["api/one.yaml", "package.json"]
    assert f"({name}:3)" in found[0].message and found[0].related[0].path == name
    assert f"but {name}'s latest release is 1.2.0" in found[1].message
    assert all("CHANGELOG" not in f.message for f in found)


# --- remote references: not followed, said as coverage (issue 45) -------------------------------


def test_remote_refs_are_coverage_one_note_each_not_findings(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a.schema.json": schema(
                type="object",
                properties={
                    "x": {"$ref": "https://example.net/one.json"},
                    "y": {"$ref": "https://example.net/two.json"},
                    "z": {"$ref": "https://other.example.org/three.json"},
                },
            ),
            "schemas/b.schema.json": schema(
                type="object", properties={"x": {"$ref": "https://example.net/one.json"}}
            ),
        }
    )
    notes = not_checked(root, "remote-ref")
    assert [(n.path, n.what.split("`")[1]) for n in notes] == [
        ("schemas/a.schema.json", "https://example.net/one.json"),
        ("schemas/a.schema.json", "https://example.net/two.json"),
        ("schemas/a.schema.json", "https://other.example.org/three.json"),
        ("schemas/b.schema.json", "https://example.net/one.json"),
    ]
    assert "remote-ref" not in all_rules()  # a rule whose only output was the note is gone


def test_a_raw_github_url_of_a_file_the_repository_holds_says_so(make_corpus: MakeCorpus) -> None:
    own = "https://raw.githubusercontent.com/acme/widgets/refs/heads/main/v1/widget.json"
    root = make_corpus(
        {
            "v1/widget.json": schema(type="object"),
            "api/openapi.json": schema(type="object", properties={"w": {"$ref": own}}),
        }
    )
    (note,) = not_checked(root, "remote-ref")
    assert "this repository holds that file as `v1/widget.json`" in note.what


# --- undeclared-tag: a warning only for a likely typo ------------------------------------------


TAGGED = yaml(
    """
    openapi: 3.1.0
    info: {title: Widgets, version: "1.0"}
    tags: [{name: widgets, description: The widgets}, {name: gadgets, description: Gadgets}]
    paths:
      /a:
        get: {tags: [widget], responses: {"200": {description: ok}}}
      /b:
        get: {tags: [Gadgets], responses: {"200": {description: ok}}}
      /c:
        get: {tags: [billing], responses: {"200": {description: ok}}}
      /d:
        get: {tags: [reports], responses: {"200": {description: ok}}}
      /e:
        get: {tags: [gadget], responses: {"200": {description: ok}}}
      /f:
        get: {tags: [gadget], responses: {"200": {description: ok}}}
      /g:
        get: {tags: [gadgets], responses: {"200": {description: ok}}}
    """
)


def test_an_undeclared_tag_is_a_warning_only_when_it_looks_like_a_typo(
    make_corpus: MakeCorpus,
) -> None:
    found = run_rule(make_corpus({"api.yaml": TAGGED}), "undeclared-tag")
    warnings = sorted(f.message.split("`")[1] for f in found if f.severity is Severity.WARNING)
    assert warnings == ["Gadgets", "widget"]
    infos = [f for f in found if f.severity is Severity.INFO]
    # `billing` and `reports`, and `gadget`, close to `gadgets` but a group two operations
    # share: one notice for the document.
    assert len(infos) == 1
    assert all(tag in infos[0].message for tag in ("billing", "reports", "gadget"))
    assert len(infos[0].related) == 3  # the first use is the finding's location


def test_a_near_name_of_a_declared_tag_nobody_carries_is_a_rename_half_done(
    make_corpus: MakeCorpus,
) -> None:
    # `gadgets` is declared (with its description) but no operation carries it, while two carry
    # `gadget`: the operations were retagged and the declaration was not, or the reverse.
    orphaned = TAGGED.replace("[gadgets]", "[]")
    assert orphaned != TAGGED
    found = run_rule(make_corpus({"api.yaml": orphaned}), "undeclared-tag")
    warned = [f for f in found if f.severity is Severity.WARNING and "`gadget`" in f.message]
    assert len(warned) == 2 and all("did you mean `gadgets`?" in f.message for f in warned)
    [info] = [f for f in found if f.severity is Severity.INFO]
    assert "gadget`" not in info.message


def test_no_notice_where_the_declared_tags_are_bare_names(make_corpus: MakeCorpus) -> None:
    # A generator that declares its tags without descriptions: declaring one more adds nothing
    # a reader sees, so only the likely typos are reported.
    bare = TAGGED.replace(
        "{name: widgets, description: The widgets}, {name: gadgets, description: Gadgets}",
        "{name: widgets}, {name: gadgets}",
    )
    found = run_rule(make_corpus({"api.yaml": bare}), "undeclared-tag")
    assert found and all(f.severity is Severity.WARNING for f in found)


# --- instance-invalid --------------------------------------------------------------------------


def test_an_instance_whose_meta_schema_requires_schema_keeps_its_schema_member(
    make_corpus: MakeCorpus,
) -> None:
    # A custom meta-schema (its own dialect) requires `$schema` through a `$ref`ed base, and the
    # documents it judges name it in `$schema`: that member is data here, not an annotation.
    root = make_corpus(
        {
            "meta/base.yaml": yaml(
                """
                $id: http://widgets.example/meta/base.yaml#
                $schema: https://json-schema.org/draft/2019-09/schema
                properties:
                  $schema: {enum: ["http://widgets.example/meta/core.yaml#"]}
                required: [$id, $schema, title]
                """
            ),
            "meta/core.yaml": yaml(
                """
                $id: http://widgets.example/meta/core.yaml#
                $schema: https://json-schema.org/draft/2019-09/schema
                allOf: [{$ref: "http://widgets.example/meta/base.yaml#"}]
                """
            ),
            "bindings/widget.yaml": yaml(
                """
                $id: http://widgets.example/schemas/widget.yaml#
                $schema: http://widgets.example/meta/core.yaml#
                title: A widget
                """
            ),
            "bindings/gadget.yaml": yaml(
                """
                $id: http://widgets.example/schemas/gadget.yaml#
                $schema: http://widgets.example/meta/core.yaml#
                """
            ),
        }
    )
    found = run_rule(root, "instance-invalid")
    assert [(f.location.path, '"title"' in f.message) for f in found] == [
        ("bindings/gadget.yaml", True)
    ]


def test_a_remote_schema_named_by_files_is_coverage_not_a_finding(make_corpus: MakeCorpus) -> None:
    """An editor's modeline naming a published schema: the file is not validated, which the run
    says among what it did not check, one note per file (issue 45)."""
    named = "https://tools.example/schemas/model.json"
    root = make_corpus(
        {
            f"model/{name}.yaml": f"# yaml-language-server: $schema={named}\ngroups: []\n"
            for name in ("a", "b", "c")
        }
        | {"other.json": json.dumps({"$schema": "https://else.example/x.json", "a": 1})}
    )
    outcome = lint(root, Options(cache=False, rules=("instance-invalid",)))
    assert outcome.findings == []
    assert [(n.kind, n.path) for n in outcome.result.coverage] == [
        ("remote-schema", "model/a.yaml"),
        ("remote-schema", "model/b.yaml"),
        ("remote-schema", "model/c.yaml"),
        ("remote-schema", "other.json"),
    ]
    assert "`https://tools.example/schemas/model.json`" in outcome.result.coverage[0].what


# --- openapi-invalid ---------------------------------------------------------------------------


def test_a_bundler_configuration_with_an_openapi_section_is_not_an_api_document(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "redocly.yaml": yaml(
                """
                apis:
                  main: {root: openapi/openapi.yaml}
                openapi:
                  theme: {colors: {primary: {main: '#123456'}}}
                """
            ),
            "openapi/openapi.yaml": api(),
        }
    )
    corpus = Context.load(root, load_config(root))
    assert corpus.documents["redocly.yaml"].kind is DocumentKind.DATA
    assert run_rule(root, "openapi-invalid") == []


def test_a_text_file_ref_where_a_string_belongs_is_the_bundlers_business(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "openapi/api.yaml": yaml(
                """
                openapi: 3.0.3
                info:
                  title: Widgets
                  version: "1.0"
                  description: {$ref: ./intro.md}
                tags:
                  - name: About
                    description: {$ref: ./tags/about.md}
                  - name: Broken
                    description: {$ref: ./tags/missing.md}
                paths: {}
                """
            ),
            "openapi/intro.md": "# Intro\n",
            "openapi/tags/about.md": "About.\n",
        }
    )
    found = run_rule(root, "openapi-invalid")
    assert [f.location.pointer for f in found] == ["/tags/1/description/$ref"]
    assert "missing.md" in found[0].message


def test_a_docs_only_openapi_30_document_without_paths_is_a_notice(
    make_corpus: MakeCorpus,
) -> None:
    docs_only = yaml(
        """
        openapi: 3.0.3
        info: {title: Background, version: "1.0"}
        tags: [{name: About, description: Prose only.}]
        """
    )
    components_only = yaml(
        """
        openapi: 3.0.3
        info: {title: Parts, version: "1.0"}
        components: {schemas: {Widget: {type: object}}}
        """
    )
    root = make_corpus({"docs/openapi.yaml": docs_only, "parts/openapi.yaml": components_only})
    found = {f.location.path: f.severity for f in run_rule(root, "openapi-invalid")}
    assert found == {"docs/openapi.yaml": Severity.INFO, "parts/openapi.yaml": Severity.ERROR}


# --- schema-invalid: an example is not a schema ------------------------------------------------


def test_an_event_example_referenced_from_an_api_is_not_judged_as_a_schema(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "api.yaml": yaml(
                """
                openapi: 3.1.0
                info: {title: Events, version: "1.0"}
                paths:
                  /events:
                    get:
                      responses:
                        "200":
                          description: ok
                          content:
                            application/json:
                              schema:
                                type: object
                                properties:
                                  event: {$ref: examples/ping.json}
                """
            ),
            "examples/ping.json": json.dumps(
                {"type": "org.example.ping", "content": {"body": "hi"}}
            ),
        }
    )
    assert run_rule(root, "schema-invalid") == []


def test_a_schema_with_a_wrong_type_name_is_still_invalid(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"schemas/count.schema.json": schema(type="object", properties={"n": {"type": "int"}})}
    )
    assert [f.location.pointer for f in run_rule(root, "schema-invalid")] == ["/properties/n/type"]


# --- parse-error: a YAML stream of data documents ----------------------------------------------


def test_a_multi_document_manifest_is_not_a_parse_error(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "deploy/app.yaml": "kind: Service\nname: a\n---\nkind: Deployment\nname: a\n",
            "api/two.yaml": api() + "---\nkind: Other\n",
        }
    )
    assert [f.location.path for f in run_rule(root, "parse-error")] == ["api/two.yaml"]


# --- item 5: first lines ------------------------------------------------------------------------

CAPPED = ("closure-policy", "closed-event-union", "unsatisfiable-schema", "duplicate-id")
MINE = (
    *CAPPED,
    "version-drift",
    "undeclared-tag",
    "instance-invalid",
    "openapi-invalid",
    "schema-invalid",
    "parse-error",
)


def _long_first_lines(root: Path) -> list[tuple[str, int, str]]:
    corpus = Context.load(root, load_config(root))
    long = []
    for rule in MINE:
        for finding in all_rules()[rule].check(corpus, {}):
            first = finding.terminal_message.split("\n")[0]
            if len(first) > FIRST_LINE:
                long.append((rule, len(first), first))
    return long


def test_first_lines_are_short_on_the_bundled_corpus() -> None:
    root = BUNDLED_CORPUS
    assert _long_first_lines(root) == []


def test_first_lines_are_short_on_openwop(openwop: Path) -> None:
    assert _long_first_lines(openwop) == []
