"""The HTML report (``--format html``): a self-contained page, repository text escaped, the CSP
hashes of its own style and script, the bindings the run lists for it; and, in a real headless
Chromium, the page loading without a console message, the fragment's filter hiding other rules'
findings, an injected ``<script>`` staying text, and a screenshot."""

from __future__ import annotations

import base64
import hashlib
import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import BUNDLED_CORPUS, run_cli
from speclint.common.findings import Finding, Location, Severity, sorted_findings
from speclint.outputs.reporters import Report, renderer
from speclint.outputs.reporters.html_report import POLICY
from speclint.run.bindings import Bound, BoundSet
from speclint.run.catalog import RuleInfo
from speclint.run.engine import Options, lint

INJECTED = "<script>document.title='PWNED'</script>"
SCHEMA = """\
{
  "type": "object",
  "properties": {
    "status": {"enum": ["on", "off"]}
  }
}
"""
PAGE = "# Status\n\nThe `status` is one of: `on`, `off`, `idle`.\n"


def rule(rule_id: str, severity: Severity) -> RuleInfo:
    return RuleInfo(rule_id, severity, "A rule.", f"tests.{rule_id}", lambda corpus, options: ())


RULES = {
    "enum-drift": rule("enum-drift", Severity.WARNING),
    "unresolved-ref": rule("unresolved-ref", Severity.ERROR),
}
DRIFT = Finding(
    "enum-drift",
    Severity.WARNING,
    "the prose lists `idle`, which the schema's `enum` does not: add it or drop it",
    Location("docs/status.md", 3, 1, heading="status"),
    related=(Location("schemas/s.json", 4, 5, pointer="/properties/status", note="the enum"),),
)
INJECTION = Finding(
    "unresolved-ref",
    Severity.ERROR,
    f"`{INJECTED}` does not exist; fix the reference {INJECTED}",
    Location("schemas/s.json", 2, 3, pointer=f"/{INJECTED}"),
)
BINDING = BoundSet(
    Location("docs/status.md", 3, 1, pointer="#status"),
    "union of values",
    "status",
    ("on", "off", "idle"),
    (
        Bound(
            Location("schemas/s.json", 4, 5, pointer="/properties/status"),
            "schemas/s.json#/properties/status",
            ("on", "off"),
            "medium",
            "the text names `status`, values overlap",
            False,
        ),
    ),
)


def report(bindings: tuple[BoundSet, ...] | None = None) -> Report:
    return Report(
        findings=sorted_findings([DRIFT, INJECTION]),
        rules=RULES,
        sources={"schemas/s.json": SCHEMA, "docs/status.md": PAGE},
        root="corpus",
        tool_version="9.8.7",
        bindings=bindings,
    )


def page(bindings: tuple[BoundSet, ...] | None = None) -> str:
    text: str = renderer("html")(report(bindings))
    return text


def test_repository_text_is_escaped_and_only_the_pages_own_script_is_a_script() -> None:
    text = page()
    assert text.count("<script") == 1  # the page's own, at the end
    assert INJECTED not in text
    assert html.escape(INJECTED) in text  # the message and the pointer show it as text


def test_the_policy_allows_nothing_but_the_pages_own_style_and_script_by_their_hashes() -> None:
    text = page()
    [style] = re.findall(r"<style>(.*?)</style>", text, re.DOTALL)
    [script] = re.findall(r"<script>(.*?)</script>", text, re.DOTALL)
    policy = html.unescape(re.search(r'Content-Security-Policy" content="([^"]*)"', text)[1])
    assert policy == POLICY

    def hashed(source: str) -> str:
        digest = hashlib.sha256(source.encode("utf-8")).digest()
        return f"'sha256-{base64.b64encode(digest).decode()}'"

    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives == {
        "default-src": "'none'",
        "style-src": hashed(style),
        "script-src": hashed(script),
        "base-uri": "'none'",
        "form-action": "'none'",
    }
    assert "unsafe-inline" not in policy
    # No style attribute or inline handler (the hashes do not allow them), nothing loaded.
    assert not re.search(r"\s(style|on[a-z]+|src)=", text)
    assert not re.search(r'href="(?!#)', text)


def test_each_finding_carries_what_the_filters_read() -> None:
    text = page()
    assert re.search(
        r'<article class="finding warning" id="finding-\d+" data-rule="enum-drift" '
        r'data-severity="warning" data-file="docs/status.md">',
        text,
    )
    assert '<option value="unresolved-ref">unresolved-ref (1)</option>' in text
    assert '<option value="docs/status.md">docs/status.md (1)</option>' in text
    assert '<a href="#rule=enum-drift">' in text  # the summary's shareable filtered link


def test_a_finding_shows_its_excerpt_and_its_related_places_excerpt() -> None:
    text = page()
    # The marked line of the prose, and the schema's enum line as the related place's excerpt.
    assert '<span class="l m"><span class="n">3</span>The `status` is one of' in text
    assert "<code>corpus/schemas/s.json:4:5</code> — the enum" in text
    assert '<span class="l m"><span class="n">4</span>    &quot;status&quot;' in text


def test_the_bindings_section_lists_each_binding_with_its_evidence() -> None:
    assert 'id="bindings"' not in page()  # not listed by the run: no section
    text = page((BINDING,))
    section = text[text.index('id="bindings"') :]
    assert "1 binding of 1 prose value set; 0 prose value sets bound to nothing" in section
    assert "<code>corpus/schemas/s.json#/properties/status</code>" in section
    assert "the text names <code>status</code>, values overlap (medium;" in section
    assert "<strong>values differ</strong>" in section


def test_the_run_lists_the_bindings_only_when_asked() -> None:
    assert lint(BUNDLED_CORPUS, Options(cache=False)).bindings is None
    listed = lint(BUNDLED_CORPUS, Options(cache=False, bindings=True)).bindings
    assert listed is not None
    targets = {target.label for entry in listed for target in entry.targets}
    assert "schemas/run-snapshot.schema.json#/properties/status" in targets


def test_check_writes_the_html_report_with_the_bindings(tmp_path: Path) -> None:
    output = tmp_path / "report.html"
    result = run_cli("check", str(BUNDLED_CORPUS), "--output", str(output))
    assert result.exit_code == 1, result.output  # the bundled corpus has errors
    text = output.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert 'id="bindings"' in text and "run-snapshot.schema.json#/properties/status" in text


# --- in a real browser ---------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# What this machine needs: no sandbox (root in a container), no GPU, nothing fetched or synced
# behind the page's back, a profile of the test's own.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
)


def chromium(profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)


@pytest.mark.slow
@pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium binary (Debian: apt-get install chromium; .ci/run installs it as root)",
)
def test_the_page_in_headless_chromium(tmp_path: Path) -> None:
    # The bundled corpus, and a schema whose `$ref` is a script: the finding's message, pointer
    # and excerpt all quote it.
    corpus = tmp_path / "corpus"
    shutil.copytree(BUNDLED_CORPUS, corpus)
    (corpus / "schemas" / "injected.schema.json").write_text(
        '{\n  "type": "object",\n  "properties": {\n'
        f'    "x": {{"$ref": "{INJECTED}.json"}}\n  }}\n}}\n',
        encoding="utf-8",
    )
    output = tmp_path / "report.html"
    run_cli("check", str(corpus), "--format", "html", "--output", str(output))
    url = output.as_uri()

    # Loaded unfiltered: the script ran to its end, and said nothing on the console (an
    # exception, a CSP refusal of its own style or script, a blocked load would all be there).
    loaded = chromium(tmp_path / "p1", "--dump-dom", url)
    assert re.search(r'<html lang="en" data-ready="true">', loaded.stdout), loaded.stderr[-2000:]
    console = [line for line in loaded.stderr.splitlines() if ":CONSOLE" in line]
    assert console == []
    assert "Uncaught" not in loaded.stderr
    findings = re.findall(r"<article [^>]*>", loaded.stdout)
    assert len(findings) > 10 and not any(" hidden" in tag for tag in findings)
    # The injected script is text: the title is the page's, the only script element the page's.
    assert "<title>speclint report:" in loaded.stdout and "PWNED</title>" not in loaded.stdout
    assert loaded.stdout.count("<script") == 1
    assert html.escape(INJECTED, quote=False) in loaded.stdout

    # A shareable filtered link: only the findings of the rule in the fragment are shown.
    filtered = chromium(tmp_path / "p2", "--dump-dom", url + "#rule=unresolved-ref")
    tags = re.findall(r"<article [^>]*>", filtered.stdout)
    assert len(tags) == len(findings)
    shown = [tag for tag in tags if " hidden" not in tag]
    assert shown and all('data-rule="unresolved-ref"' in tag for tag in shown)
    assert len(shown) < len(tags)
    total = len(tags)
    assert f'<output id="shown">{len(shown)} of {total} shown</output>' in filtered.stdout
    assert [line for line in filtered.stderr.splitlines() if ":CONSOLE" in line] == []

    screenshot = tmp_path / "report.png"
    chromium(tmp_path / "p3", f"--screenshot={screenshot}", "--window-size=1280,1400", url)
    assert screenshot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert screenshot.stat().st_size > 10_000
