"""Templated files are listed as templates and not read as documents (issue 45, item 2); a real
JSON/YAML error beside them, and a valid document whose strings contain template syntax, are
read as ever. Every fixture here is written for the test."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_cli import cli

from speclint.analyses.context import Context
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.templates import template_data, template_name, template_text
from speclint.run.engine import Options, lint
from speclint.run.inventory import TEMPLATE, entries, phrase

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

CHART = "apiVersion: v2\nname: things\nversion: 0.1.0\n"
DEPLOYMENT = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n"
    '  labels:\n    {{- include "things.labels" . | nindent 4 }}\nspec:\n'
    "  {{- if not .Values.autoscaling.enabled }}\n  replicas: {{ .Values.replicas }}\n"
    "  {{- end }}\n"
)
# Parses as YAML (the action is inside a quoted string): a template by its folder alone.
SERVICE = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: "{{ .Release.Name }}-svc"\n'
OPENAPI_TEMPLATE = """\
openapi: 3.0.3
info: {title: Things, version: 1.0.0}
paths:
  /{%-name-%}:
    get:
      operationId: "list_{%-name-%}"
      responses:
        '200':
          description: the list
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/{%-name-%}'
components:
  schemas: {}
"""
# A valid API document whose strings hold template syntax: content, not a template.
MUSTACHE = """\
openapi: 3.1.0
info:
  title: Greetings
  version: 1.0.0
  description: |
    {{ greeting }} is rendered by the client, as in
    {% raw %}Mustache{% endraw %}.
  summary: Render `{{name}}` with a
    {{ helper }} of your own
paths:
  /greetings:
    get:
      responses:
        '200': {description: "{{greeting}}"}  # {{ not a template }}
"""


def kinds(root: Path) -> dict[str, str]:
    return {entry.path: entry.kind for entry in entries(Context.load(root))}


def rules_found(root: Path) -> list[tuple[str, str]]:
    found = lint(root, Options(cache=False)).findings
    return sorted((f.rule, f.location.path) for f in found)


def test_a_helm_charts_templates_are_listed_as_templates_not_parse_errors(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "deploy/chart/Chart.yaml": CHART,
            "deploy/chart/values.yaml": "replicas: 2\n",
            "deploy/chart/templates/deployment.yaml": DEPLOYMENT,
            "deploy/chart/templates/service.yaml": SERVICE,
            "docs/index.md": "# Things\n",
        }
    )
    assert rules_found(root) == []
    found = kinds(root)
    assert found["deploy/chart/templates/deployment.yaml"] == TEMPLATE
    assert found["deploy/chart/templates/service.yaml"] == TEMPLATE
    assert found["deploy/chart/values.yaml"] == DocumentKind.DATA.value
    listed = cli("files", str(root)).stdout
    line = next(x for x in listed.splitlines() if x.startswith("deploy/chart/templates/service"))
    assert "template" in line and "Helm chart" in line and "deploy/chart/Chart.yaml" in line
    assert listed.rstrip().endswith("2 templates not read")
    report = json.loads(cli("check", str(root), "--format", "json").stdout)
    assert report["checked"]["template"] == 2


def test_a_templates_folder_without_a_chart_is_read_and_real_errors_stay(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "deploy/chart/Chart.yaml": CHART,
            "deploy/chart/values.yaml": "image: {repository: things\n",  # a real error
            "site/templates/page.yaml": SERVICE,  # no chart beside it: data
            # A quoted action in a file broken elsewhere: the error is real.
            "config/broken.yaml": 'name: "{{ x }}"\nlist: [a, b\n',
            "config/broken.json": '{"name": "${NAME}" "port": 1}\n',
        }
    )
    assert rules_found(root) == [
        ("parse-error", "config/broken.json"),
        ("parse-error", "config/broken.yaml"),
        ("parse-error", "deploy/chart/values.yaml"),
    ]
    assert kinds(root)["site/templates/page.yaml"] == DocumentKind.DATA.value


def test_an_openapi_template_is_not_validated_as_an_api(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/things.openapi.yaml": OPENAPI_TEMPLATE, "README.md": "# Things\n"})
    assert rules_found(root) == []
    assert kinds(root)["api/things.openapi.yaml"] == TEMPLATE


def test_jinja_statements_and_json_placeholders_are_templates(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "deploy/services.yaml": "{% for s in services %}\n- name: {{ s.name }}\n{% endfor %}\n",
            "deploy/config.json": '{"port": ${PORT}, "name": "things"}\n',
            "deploy/values.yaml": "name: {{ name }}\nreplicas: 2\n",  # YAML reads a flow map
            "docs/index.j2.md": "# {{ title }}\n\n[Guide](gone.md)\n",
            "README.md": "# Deploy\n",
        }
    )
    assert rules_found(root) == []
    assert set(kinds(root).values()) == {TEMPLATE, DocumentKind.MARKDOWN.value}


def test_a_project_templates_files_are_templates_by_their_folder(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "{{cookiecutter.slug}}/api/openapi.yaml": (
                'openapi: 3.1.0\ninfo: {title: "{{cookiecutter.name}}", version: 0.1.0}\n'
                "paths: {}\n"
            ),
            "{{cookiecutter.slug}}/README.md": "# {{cookiecutter.name}}\n\n[Spec](gone.md)\n",
            "cookiecutter.json": '{"slug": "things", "name": "Things"}\n',
            "README.md": "# Template\n",
        }
    )
    assert rules_found(root) == []
    found = kinds(root)
    assert found["{{cookiecutter.slug}}/README.md"] == TEMPLATE
    assert found["{{cookiecutter.slug}}/api/openapi.yaml"] == TEMPLATE
    assert found["cookiecutter.json"] == DocumentKind.DATA.value


def test_a_valid_document_whose_strings_hold_template_syntax_is_no_template(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/greetings.yaml": MUSTACHE})
    assert kinds(root) == {"api/greetings.yaml": DocumentKind.OPENAPI.value}
    assert "template" not in phrase(entries(Context.load(root)))


def test_template_syntax_is_read_where_the_document_has_none() -> None:
    # A block scalar's text, a quoted string, a comment and a plain scalar's middle are text.
    assert template_text("a: |\n  {{ x }}\nb: 1\n", json=False, parsed=True, data={}) is None
    assert template_text("a: '{{ x }}'\n", json=False, parsed=False) is None
    assert template_text("a: 1  # {{ x }}\n", json=False, parsed=False) is None
    assert template_text("a: repo/{{ x }}\n", json=False, parsed=False) is None
    assert template_text("a: ${X}\n", json=False, parsed=False) is None
    # Where a node starts, it is syntax; in JSON, anywhere outside a string.
    assert template_text("a: |\n  x\n{{ y }}\n", json=False, parsed=False) is not None
    assert template_text("- {{ x }}\n", json=False, parsed=False) is not None
    assert template_text('{"a": "${X}", "b": {{ y }}}', json=True, parsed=False) is not None
    assert template_text('{"a": "${X}" "b": 1}', json=True, parsed=False) is None
    assert template_name("api/openapi.j2.yaml") is not None
    assert template_name("api/openapi.yaml") is None
    assert template_data("openapi", {"paths": {"/things/{id}": {}}}) is None
    assert template_data("json-schema", {"$ref": "${BASE}/thing.json"}) is not None
    assert template_data("data", {"$ref": "${BASE}/thing.json"}) is None


def test_a_template_stays_one_when_read_back_from_the_caches(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "chart/Chart.yaml": CHART,
            "chart/templates/deployment.yaml": DEPLOYMENT,
            "chart/templates/service.yaml": SERVICE,
            "api/things.openapi.yaml": OPENAPI_TEMPLATE,
            "README.md": "# Things\n",
        }
    )
    cold = lint(root, Options())
    # The run cache misses; the parse cache answers for the templates.
    (root / "README.md").write_text("# Things, again\n")
    warm = lint(root, Options())
    assert cold.findings == warm.findings == []
    shown = [(e.path, e.kind) for e in warm.result.inventory if e.kind == TEMPLATE]
    assert shown == [(e.path, e.kind) for e in cold.result.inventory if e.kind == TEMPLATE]
    assert len(shown) == 3
