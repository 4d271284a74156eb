"""``undeclared-tag`` on fixtures written here, one test a case, named after it. The rule: an
OpenAPI operation tagged with a name the document's ``tags`` list does not declare."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_provenance import findings, listing

from conftest import dedented as yaml
from conftest import run_rule
from speclint.analyses.context import Context
from speclint.analyses.repository import downloads
from speclint.analyses.repository.provenance import BUNDLE, COPY, GENERATED
from speclint.common.findings import Severity
from speclint.parsing.shell import expanded
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


# An API whose one operation names a tag it does not declare (`undeclared-tag`, a writing rule).
KENNEL = yaml(
    """
    openapi: 3.0.3
    info: {title: Kennel, version: 1.0.0}
    tags:
      - name: Dogs
        description: the dogs
    paths:
      /dogs:
        get:
          tags: [Puppies]
          operationId: listDogs
          responses:
            '200': {description: the dogs}
    """
)


MAKEFILE = yaml(
    """
    COMPOSE = docker-compose
    APIS = kennel cattery
    OUT := computable

    bundle:
    \t$(COMPOSE) run --rm redocly bundle specs/$(API).yaml -o $(OUT)/$(API).json
    \t$(COMPOSE) run --rm php bin/variants $(OUT)/$(API).json
    \t$(COMPOSE) run --rm redocly bundle $(OUT)/$(API)-codegen.json -o $(OUT)/$(API)-codegen.yaml

    all:
    \t@for api in $(APIS); do $(MAKE) bundle API=$$api; done
    """
)


DOG = {
    "type": "object",
    "required": ["name", "breed"],
    "properties": {"name": {"type": "string"}, "breed": {"type": "string"}},
}


SPLIT_ROOT = yaml(
    """
    openapi: 3.0.3
    info: {title: Kennel, version: 1.0.0}
    paths:
      /dogs:
        $ref: ./paths/dogs.yaml
    """
)


DOGS_PATH = yaml(
    """
    get:
      tags: [Puppies]
      responses:
        '200': {description: the dogs}
    """
)


GUIDE = yaml(
    """
    # Building the API

    From the root of the repository:

    ```
    swagger-cli bundle api/components/index.yaml --outfile api/build/kennel.yaml --type yaml
    ```
    """
)


GENERATE_ALL = "#!/usr/bin/env bash\n./generate.sh api/kennel.json yaml ../site/source/swagger\n"


GENERATE = yaml(
    """
    #!/usr/bin/env bash
    INPUT="$1"
    EXT="$2"
    OUTPUT_DIR="$3"
    java -jar $HOME/codegen.jar generate -i $INPUT -o /tmp/gen
    NAME=`basename $INPUT .json`
    OUTFILE="${NAME}.$EXT"
    cp /tmp/gen/openapi.$EXT $OUTPUT_DIR/$OUTFILE
    """
)


def test_a_makefile_loops_outputs_are_generated(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "specs/kennel.yaml": KENNEL.replace("Puppies", "Dogs"),
        "computable/kennel-codegen.yaml": KENNEL,
        "computable/cattery-codegen.yaml": KENNEL.replace("Kennel", "Cattery"),
        "computable/notes.yaml": "kept: true\n",
    }
    before = make_corpus(files)
    assert {f.location.path for f in run_rule(before, "undeclared-tag")} == {
        "computable/cattery-codegen.yaml",
        "computable/kennel-codegen.yaml",
    }
    root = make_corpus({**files, "development/Makefile": MAKEFILE})
    made = Context.load(root).provenance
    assert made["computable/kennel-codegen.yaml"].kind == GENERATED
    assert "development/Makefile:8" in made["computable/kennel-codegen.yaml"].evidence
    assert made["computable/cattery-codegen.yaml"].kind == GENERATED
    assert "computable/notes.yaml" not in made  # not what the pattern names
    assert [f for f in findings(root) if f["rule"] == "undeclared-tag"] == []


def test_a_program_that_reads_back_what_it_writes_is_a_formatter(make_corpus: MakeCorpus) -> None:
    formatter = (
        "for name in names:\n"
        "    data = json.load(open(f'../schemas/{name}.json'))\n"
        "    json.dump(data, open(f'../schemas/{name}.json', 'w'), indent=2)\n"
    )
    root = make_corpus(
        {"tools/fmt.py": formatter, "schemas/dog.json": json.dumps(DOG), "kennel.yaml": KENNEL}
    )
    assert "schemas/dog.json" not in Context.load(root).provenance


def test_a_committed_pyvenv_cfg_alone_beside_a_script_is_content(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "tools/gen/pyvenv.cfg": "home = /usr\n",
            "tools/gen/api.yaml": KENNEL,
            "env/pyvenv.cfg": "home = /usr\n",  # an environment whose files are ignored
            "env/lib/python3.12/site-packages/pkg/api.yaml": KENNEL,
        }
    )
    shown = listing(root)
    assert "tools/gen/api.yaml" in shown
    assert "env/" in shown and "skipped" in shown["env/"]


def test_a_scripts_argument_default_is_the_file_it_writes(make_corpus: MakeCorpus) -> None:
    script = 'OUTPUT="${3:-kennel-filtered.yaml}"\npython3 filter.py -i x -o "$OUTPUT"\n'
    assert expanded("tools/filter.sh", script.splitlines())[-1] == (
        'python3 filter.py -i x -o "kennel-filtered.yaml"'
    )
    root = make_corpus({"tools/filter.sh": script, "tools/kennel-filtered.yaml": KENNEL})
    assert Context.load(root).provenance["tools/kennel-filtered.yaml"].kind == GENERATED


def test_a_guides_bundler_command_makes_a_bundle(make_corpus: MakeCorpus) -> None:
    # (`out/`, not `build/`: the folder's name alone is evidence too.)
    root = make_corpus(
        {
            "api/README.md": GUIDE.replace("api/build/kennel.yaml", "api/out/kennel.yaml"),
            "api/components/index.yaml": SPLIT_ROOT,
            "api/components/paths/dogs.yaml": DOGS_PATH,
            "api/out/kennel.yaml": KENNEL,
        }
    )
    made = Context.load(root).provenance["api/out/kennel.yaml"]
    assert made.kind == BUNDLE and made.sources == ("api/components/index.yaml",)
    assert "api/README.md:6" in made.evidence


def test_an_api_in_a_builds_output_folder_is_generated(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/build/kennel.yaml": KENNEL, "api/site/kennel.yaml": KENNEL})
    made = Context.load(root).provenance
    assert made["api/build/kennel.yaml"].kind == GENERATED
    assert "build/" in made["api/build/kennel.yaml"].evidence
    assert "api/site/kennel.yaml" not in made  # a name others may use for their own files
    assert {f["location"]["path"] for f in findings(root) if f["rule"] == "undeclared-tag"} == {
        "api/site/kennel.yaml"
    }


def test_a_repository_that_publishes_only_its_builds_output_is_judged_there(
    make_corpus: MakeCorpus,
) -> None:
    # The sources are kept elsewhere: the committed output is all a maintainer has here.
    root = make_corpus({"dist/kennel.yaml": KENNEL})
    assert "dist/kennel.yaml" not in Context.load(root).provenance
    assert run_rule(root, "undeclared-tag") != []


def test_a_scripts_arguments_name_the_file_it_copies_into_place(make_corpus: MakeCorpus) -> None:
    lines = expanded("gen/generate.sh", GENERATE.splitlines(), ["api/k.json", "yaml", "../out"])
    assert lines[-1] == "cp /tmp/gen/openapi.yaml ../out/k.yaml"
    rendered = KENNEL.replace("the dogs\n", "the dogs, " + "kept and fed " * 12 + "\n", 1)
    root = make_corpus(
        {
            "gen/generate_all.sh": GENERATE_ALL,
            "gen/generate.sh": GENERATE,
            "gen/api/kennel.json": json.dumps({"openapi": "3.0.3", "paths": {}}),
            "site/source/swagger/kennel.yaml": rendered,
            # the site generator's output: a byte-identical copy, found first in path order
            "docs/swagger/kennel.yaml": rendered,
        }
    )
    made = Context.load(root).provenance
    assert made["site/source/swagger/kennel.yaml"].kind == GENERATED
    assert "gen/generate.sh:8" in made["site/source/swagger/kennel.yaml"].evidence
    assert made["docs/swagger/kennel.yaml"].kind == COPY
    assert made["docs/swagger/kennel.yaml"].sources == ("site/source/swagger/kennel.yaml",)
    assert [f for f in findings(root) if f["rule"] == "undeclared-tag"] == []


def test_a_copy_a_build_makes_of_a_source_leaves_the_source_first(make_corpus: MakeCorpus) -> None:
    script = "#!/bin/sh\ncp api/kennel.yaml docs/kennel.yaml\n"
    kennel = KENNEL.replace("the dogs\n", "the dogs, " + "kept and fed " * 12 + "\n", 1)
    root = make_corpus(
        {"publish.sh": script, "api/kennel.yaml": kennel, "docs/kennel.yaml": kennel}
    )
    made = Context.load(root).provenance
    assert "api/kennel.yaml" not in made
    assert made["docs/kennel.yaml"].kind == COPY
    assert [f["location"]["path"] for f in findings(root) if f["rule"] == "undeclared-tag"] == [
        "api/kennel.yaml"
    ]


def test_a_copy_of_a_download_is_not_generated(make_corpus: MakeCorpus) -> None:
    # The API document is refreshed from the project's own site: fetched, then put in place.
    workflow = yaml(
        """
        on: workflow_dispatch
        jobs:
          sync:
            runs-on: ubuntu-latest
            steps:
              - run: |
                  curl -sSf https://docs.example.com/kennel.yaml -o /tmp/kennel.yaml
                  cp /tmp/kennel.yaml kennel.yaml
        """
    )
    root = make_corpus({".github/workflows/sync.yml": workflow, "kennel.yaml": KENNEL})
    assert "kennel.yaml" not in Context.load(root).provenance


def test_the_build_commands_lines_are_read_once_a_run_for_every_reader(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Provenance and the cache's digest both ask what the build writes, what it reads and what
    # it bundles: the command lines are walked once for the build files, once with the guides.
    root = make_corpus(
        {
            "api/README.md": GUIDE,
            "api/components/index.yaml": SPLIT_ROOT,
            "api/components/paths/dogs.yaml": DOGS_PATH,
            "api/build/kennel.yaml": KENNEL,
            "Makefile": "all:\n\tgen api/components/index.yaml -o api/build/kennel.yaml\n",
        }
    )
    corpus = Context.load(root)
    walked: list[bool] = []
    command_lines = downloads._command_lines

    def counting(*args: Any, **options: Any) -> Any:
        walked.append(options.get("guides", True))
        return command_lines(*args, **options)

    monkeypatch.setattr(downloads, "_command_lines", counting)
    for _ in range(2):
        assert downloads.build_outputs(corpus)
        assert downloads.build_inputs(corpus)
        assert downloads.bundled_outputs(corpus)
    assert sorted(walked) == [False, True]


@pytest.mark.parametrize(
    ("caller", "line"),
    [
        # a variable set before the script, read from the script's own word (not the first word)
        ("gen/generate_all.sh", "SPEC_VERSION=2 ./generate.sh api/kennel.json yaml ../site/out"),
        # a CI step: run in the repository's root, the script named through `bash`
        (
            ".github/workflows/site.yml",
            "      - run: bash gen/generate.sh gen/api/kennel.json yaml site/out",
        ),
    ],
    ids=["variable-before-the-script", "workflow-step-through-bash"],
)
def test_a_script_called_after_what_precedes_its_name_is_read_with_its_arguments(
    make_corpus: MakeCorpus, caller: str, line: str
) -> None:
    root = make_corpus(
        {
            caller: f"{line}\n",
            "gen/generate.sh": GENERATE,
            "gen/api/kennel.json": json.dumps({"openapi": "3.0.3", "paths": {}}),
            "site/out/kennel.yaml": KENNEL,
        }
    )
    made = Context.load(root).provenance
    assert made["site/out/kennel.yaml"].kind == GENERATED
    assert "gen/generate.sh:8" in made["site/out/kennel.yaml"].evidence


# Issue 26, items 4 and 5: precision of version-drift, remote-ref, undeclared-tag,
# instance-invalid, openapi-invalid, schema-invalid and parse-error on layouts seen in public spec
# repositories, and short first lines for the closure, union, satisfiability and identity rules.
# Every fixture here is our own.


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


def test_undeclared_tag_fail_and_pass(make_corpus: MakeCorpus) -> None:
    doc = (
        "openapi: 3.1.0\ninfo: {title: Runs, version: 1.0.0}\ntags:\n  - name: runs\n"
        "paths:\n  /v1/runs:\n    get:\n      tags: [run]\n"
        "      responses: {'200': {description: ok}}\n"
    )
    root = make_corpus({"api/openapi.yaml": doc})
    [finding] = all_rules()["undeclared-tag"].check(Context.load(root), {})
    assert (finding.location.line, finding.location.pointer) == (
        8,
        "/paths/~1v1~1runs/get/tags/0",
    )
    assert "did you mean `runs`" in finding.message
    (root / "api/openapi.yaml").write_text(doc.replace("[run]", "[runs]"))
    assert list(all_rules()["undeclared-tag"].check(Context.load(root), {})) == []
    # A document that declares no tags has no convention to break.
    (root / "api/openapi.yaml").write_text(doc.replace("tags:\n  - name: runs\n", ""))
    assert list(all_rules()["undeclared-tag"].check(Context.load(root), {})) == []
