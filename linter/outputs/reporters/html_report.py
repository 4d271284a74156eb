"""One self-contained HTML page to browse a whole corpus's findings (``--format html``).

As Spectral's and ESLint's HTML formatters do: a header with the counts, a table of findings by
rule and severity, filters by rule, severity and file, and each finding with its message, its
place, an excerpt of the file around it, and its related locations (the other side of the drift)
with theirs. Then the waived findings with their reasons, and the bindings: which prose value set
is bound to which schema enum, and by what evidence (``speclint.run.bindings``; the run lists
them when this format is asked for). Excerpts are the Markdown report's (``excerpt_lines``).

The page is opened from a file, in a browser, from a repository that is untrusted input. So:

- everything the repository wrote (paths, messages, excerpts, values, notes) is escaped with
  ``html.escape`` after its control characters are written as escapes (``visible``): a message
  quoting ``<script>`` shows it as text;
- nothing is loaded: no network, no other file. The style and the script are inline, and a
  Content-Security-Policy ``<meta>`` allows nothing but them: ``default-src 'none'`` (no image,
  font, frame, fetch or connection), the page's one ``<style>`` and one ``<script>`` allowed by
  their SHA-256 hashes (CSP Level 3, "hash-source"), ``base-uri`` and ``form-action`` 'none' (they
  do not fall back to ``default-src``). Hashes rather than ``'unsafe-inline'``: should escaping
  ever miss, an injected inline script or ``style`` attribute still does not run, since its hash
  is not listed; the page's own two blocks are constants of this module, so their hashes are too.
  The page therefore uses no ``style`` attribute and no inline event handler;
- the filters are plain JavaScript over ``data-`` attributes; they read and write the URL's
  fragment (``#rule=enum-drift&severity=error&file=spec/a.md``), so a filtered view is a link
  to share, and the summary's rule names are such links. Without script, everything is shown.

The output is deterministic (findings arrive sorted; no time, no machine name).
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from urllib.parse import quote

from speclint.common.controls import visible
from speclint.common.findings import Finding, Location, Severity
from speclint.outputs.reporters import FixedFinding, Report, UncheckedFinding
from speclint.outputs.reporters.markdown_report import (
    RELATED_SHOWN,
    by_severity,
    excerpt_lines,
    first_line,
    place,
)
from speclint.outputs.reporters.text_report import count_phrase, detail, shown_path
from speclint.run.bindings import BoundSet
from speclint.run.coverage import phrase as coverage_phrase
from speclint.run.inventory import phrase

SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)
# A code span of a message: a run of backticks, content, the same run (CommonMark §6.1).
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)

STYLE = """
:root { color-scheme: light dark; --fg: #1f2328; --bg: #fff; --muted: #59636e; --line: #d1d9e0;
  --soft: #f6f8fa; --mark: #fff8c5; --error: #cf222e; --warning: #9a6700; --info: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1;
  --line: #3d444d; --soft: #151b23; --mark: #3b2e00; --error: #ff7b72; --warning: #d29922;
  --info: #58a6ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 16px; }
h1 { font-size: 22px; margin: 16px 0 4px; }
h2 { font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 28px; }
h3 { font-size: 16px; margin: 20px 0 4px; }
code, pre { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
p code, li code, td code, h3 code, h4 code { background: var(--soft); padding: 0 3px;
  border-radius: 4px; overflow-wrap: anywhere; }
.counts { display: flex; flex-wrap: wrap; gap: 8px; padding: 0; list-style: none; }
.counts li { border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; }
.counts strong { font-size: 18px; margin-right: 4px; }
.muted, .rule-summary { color: var(--muted); }
nav.filters { position: sticky; top: 0; z-index: 1; background: var(--bg);
  border-bottom: 1px solid var(--line); padding: 8px 16px; display: flex; flex-wrap: wrap;
  gap: 12px; align-items: center; justify-content: center; }
nav.filters select { max-width: 28em; font: inherit; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
td.n { text-align: right; }
.badge { display: inline-block; min-width: 5.2em; text-align: center; border-radius: 10px;
  padding: 0 6px; color: #fff; font-size: 12px; font-weight: 600; }
.badge.error { background: var(--error); }
.badge.warning { background: var(--warning); }
.badge.info { background: var(--info); }
article.finding { border: 1px solid var(--line); border-left: 4px solid var(--info);
  border-radius: 6px; padding: 4px 12px 8px; margin: 10px 0; }
article.finding.error { border-left-color: var(--error); }
article.finding.warning { border-left-color: var(--warning); }
article.finding h4 { margin: 6px 0; font-size: 14px; font-weight: 600; }
.message { white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0; }
pre.excerpt { background: var(--soft); border: 1px solid var(--line); border-radius: 6px;
  padding: 6px 0; margin: 6px 0; overflow-x: auto; }
pre.excerpt span.l { display: block; padding: 0 10px; }
pre.excerpt span.l.m { background: var(--mark); }
pre.excerpt span.n { display: inline-block; min-width: 3.5em; color: var(--muted);
  user-select: none; }
ul.related { padding-left: 18px; }
[hidden] { display: none !important; }
footer { color: var(--muted); margin: 32px auto 16px; }
"""

SCRIPT = """
"use strict";
(() => {
  const keys = ["rule", "severity", "file"];
  const select = (key) => document.getElementById("filter-" + key);
  const findings = Array.from(document.querySelectorAll("article.finding"));
  const sections = Array.from(document.querySelectorAll("section.rule"));
  const bound = Array.from(document.querySelectorAll("tr.binding"));
  const tallied = Array.from(document.querySelectorAll("tr.tally"));
  const shown = document.getElementById("shown");
  const apply = () => {
    const chosen = Object.fromEntries(keys.map((key) => [key, select(key).value]));
    let count = 0;
    for (const finding of findings) {
      const match = keys.every((key) => !chosen[key] || finding.dataset[key] === chosen[key]);
      finding.hidden = !match;
      count += match ? 1 : 0;
    }
    const kept = new Set(findings.filter((f) => !f.hidden).map((f) => f.dataset.rule));
    for (const section of sections) section.hidden = !kept.has(section.dataset.rule);
    for (const row of tallied) row.hidden = !kept.has(row.dataset.rule);
    for (const row of bound) {
      row.hidden = Boolean(chosen.file) && row.dataset.file !== chosen.file;
    }
    shown.textContent = count === findings.length
      ? `all ${count} shown` : `${count} of ${findings.length} shown`;
  };
  const fromFragment = () => {
    const wanted = new URLSearchParams(location.hash.slice(1));
    for (const key of keys) {
      const value = wanted.get(key) || "";
      const known = Array.from(select(key).options).some((option) => option.value === value);
      select(key).value = known ? value : "";
    }
    apply();
  };
  const toFragment = () => {
    const chosen = new URLSearchParams();
    for (const key of keys) {
      if (select(key).value) chosen.set(key, select(key).value);
    }
    const fragment = chosen.toString();
    history.replaceState(null, "", fragment ? "#" + fragment : location.pathname);
    apply();
  };
  for (const key of keys) select(key).addEventListener("change", toFragment);
  window.addEventListener("hashchange", fromFragment);
  fromFragment();
  document.documentElement.dataset.ready = "true";
})();
"""


def _hash(source: str) -> str:
    """A CSP hash-source: the SHA-256 of the element's text, as the browser hashes it (UTF-8)."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


POLICY = (
    f"default-src 'none'; style-src {_hash(STYLE)}; script-src {_hash(SCRIPT)}; "
    "base-uri 'none'; form-action 'none'"
)


def text(value: str) -> str:
    """Repository text as HTML text or an attribute value: controls as escapes, then escaped."""
    return html.escape(visible(value), quote=True)


def message_html(message: str) -> str:
    """A message with its backtick code spans as ``<code>``, the rest as text."""
    out: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(message):
        out.append(text(message[position : match.start()]))
        out.append(f"<code>{text(match.group(2))}</code>")
        position = match.end()
    out.append(text(message[position:]))
    return "".join(out)


def anchor(location: Location) -> str:
    if location.pointer is not None:
        return f" <code>{text(location.pointer or '/')}</code>"
    return f" <code>{text('#' + location.heading)}</code>" if location.heading else ""


def excerpt_html(report: Report, location: Location) -> str:
    lines = excerpt_lines(report.sources, location)
    if isinstance(lines, str):
        return f'<p class="muted">{text(lines)}</p>'
    width = len(str(lines[-1].number))
    body = "".join(
        # Lines left out of the excerpt (a table's rows between its header and the row in
        # question) are shown as an ellipsis.
        (
            f'<span class="l"><span class="n">{"…":>{width}}</span></span>'
            if previous is not None and line.number > previous.number + 1
            else ""
        )
        + f'<span class="l{" m" if line.marked else ""}"><span class="n">'
        f"{line.number:>{width}}</span>{text(line.text)}</span>"
        for previous, line in zip([None, *lines], lines, strict=False)
    )
    return f'<pre class="excerpt">{body}</pre>'


def finding_html(report: Report, finding: Finding, number: int) -> list[str]:
    location = finding.location
    severity = finding.severity.label
    lines = [
        f'<article class="finding {severity}" id="finding-{number}" data-rule="{text(finding.rule)}"'
        f' data-severity="{severity}" data-file="{text(location.path)}">',
        f'<h4><span class="badge {severity}">{severity}</span> '
        f"<code>{text(place(report.root, location))}</code>{anchor(location)}</h4>",
        f'<p class="message">{message_html(finding.message.strip()) or "(no message)"}</p>',
        excerpt_html(report, location),
    ]
    if finding.related:
        lines += [
            f"<details open><summary>Related locations ({len(finding.related)})</summary>",
            '<ul class="related">',
        ]
        for related in finding.related[:RELATED_SHOWN]:
            note = " ".join(detail(related).split())
            said = f" — {message_html(note)}" if note else ""
            lines.append(
                f"<li><code>{text(place(report.root, related))}</code>{said}"
                f"{excerpt_html(report, related)}</li>"
            )
        for related in finding.related[RELATED_SHOWN:]:  # named, not quoted: a page stays light
            note = " ".join(detail(related).split())
            said = f" — {message_html(note)}" if note else ""
            lines.append(f"<li><code>{text(place(report.root, related))}</code>{said}</li>")
        lines += ["</ul>", "</details>"]
    lines.append("</article>")
    return lines


def options(label: str, counted: Iterable[tuple[str, int]], total: int) -> list[str]:
    return [
        f'<option value="">{label} ({total})</option>',
        *(f'<option value="{text(value)}">{text(value)} ({n})</option>' for value, n in counted),
    ]


def filters(findings: Sequence[Finding]) -> list[str]:
    rules = Counter(f.rule for f in findings)
    severities = Counter(f.severity for f in findings)
    files = Counter(f.location.path for f in findings)
    total = len(findings)
    by_rule = [(rule, rules[rule]) for rule in by_severity(findings)]
    by_label = [(s.label, severities[s]) for s in SEVERITIES if severities[s]]
    return [
        '<nav class="filters" aria-label="Filters">',
        '<label>Rule <select id="filter-rule">',
        *options("all rules", by_rule, total),
        "</select></label>",
        '<label>Severity <select id="filter-severity">',
        *options("all severities", by_label, total),
        "</select></label>",
        '<label>File <select id="filter-file">',
        *options("all files", sorted(files.items()), total),
        "</select></label>",
        f'<output id="shown">{total} findings</output>',
        "</nav>",
    ]


def counts(findings: Sequence[Finding]) -> list[str]:
    tally = Counter(f.severity for f in findings)
    items = [f"<li><strong>{len(findings)}</strong>findings</li>"]
    for severity in SEVERITIES:
        n = tally[severity]
        word = severity.label if n == 1 or severity is Severity.INFO else f"{severity.label}s"
        items.append(f'<li><span class="badge {severity.label}">{n}</span> {word}</li>')
    files = len({f.location.path for f in findings})
    items.append(f"<li><strong>{files}</strong>file{'' if files == 1 else 's'}</li>")
    return ['<ul class="counts">', *items, "</ul>"]


def summary_table(findings: Sequence[Finding]) -> list[str]:
    by_rule: dict[str, Counter[Severity]] = defaultdict(Counter)
    for finding in findings:
        by_rule[finding.rule][finding.severity] += 1
    lines = [
        '<section id="summary">',
        "<h2>Summary</h2>",
        "<table><thead><tr><th>Rule</th><th>Errors</th><th>Warnings</th><th>Info</th>"
        "<th>Total</th></tr></thead><tbody>",
    ]
    for rule in by_severity(findings):
        tally = by_rule[rule]
        numbers = "".join(f'<td class="n">{tally[s]}</td>' for s in SEVERITIES)
        link = f"#rule={quote(rule, safe='')}"
        lines.append(
            f'<tr class="tally" data-rule="{text(rule)}"><td><a href="{text(link)}"><code>{text(rule)}</code></a></td>{numbers}'
            f'<td class="n">{sum(tally.values())}</td></tr>'
        )
    return [*lines, "</tbody></table>", "</section>"]


def rule_sections(report: Report) -> list[str]:
    by_rule: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        by_rule[finding.rule].append(finding)
    title = "New findings" if report.gate is not None else "Findings"
    lines = ['<section id="findings">', f"<h2>{title} ({len(report.findings)})</h2>"]
    if not report.findings:
        lines.append("<p>Nothing found.</p>")
    number = 0
    for rule in by_severity(report.findings):
        lines += [
            f'<section class="rule" data-rule="{text(rule)}">',
            f"<h3><code>{text(rule)}</code></h3>",
        ]
        info = report.rules.get(rule)
        if info is not None and info.summary:
            lines.append(f'<p class="rule-summary">{message_html(info.summary)}</p>')
        for finding in by_rule[rule]:
            number += 1
            lines += finding_html(report, finding, number)
        lines.append("</section>")
    return [*lines, "</section>"]


def waived_section(report: Report) -> list[str]:
    if not report.waived:
        return []
    lines = [
        '<section id="waived">',
        f"<h2>Waived, with reasons ({len(report.waived)})</h2>",
        "<ul>",
    ]
    for waived in report.waived:
        finding, waiver = waived.finding, waived.waiver
        where = f"{waiver.origin.path}:{waiver.origin.line}"
        who = f", by {text(waiver.who)}" if waiver.who else ""
        until = f", until {text(str(waiver.expires))}" if waiver.expires else ""
        lines.append(
            f"<li><code>{text(finding.rule)}</code> at "
            f"<code>{text(place(report.root, finding.location))}</code>: "
            f"{message_html(waiver.reason)} (waiver at <code>{text(where)}</code>{who}{until})</li>"
        )
    return [*lines, "</ul>", "</section>"]


def fixed_section(report: Report) -> list[str]:
    gate = report.gate
    return _gone_section("fixed", "Fixed by this change", gate.fixed if gate else ())


def unchecked_section(report: Report) -> list[str]:
    """The base's findings the head no longer checks (a file gone or unreadable, a `$ref` that
    no longer resolves): hidden by the change, not fixed by it (issue 48), with why."""
    gate = report.gate
    return _gone_section(
        "unchecked", "No longer checked, not fixed", gate.no_longer_checked if gate else ()
    )


def _gone_section(
    anchor: str, title: str, gone: Sequence[FixedFinding | UncheckedFinding]
) -> list[str]:
    """A list of the base's findings the head does not have, with why where it is said; none
    when there are none."""
    if not gone:
        return []
    lines = [f'<section id="{anchor}">', f"<h2>{title} ({len(gone)})</h2>", "<ul>"]
    for finding in gone:
        where = f" <code>{text(finding.where)}</code>" if finding.where else ""
        why = f" ({text(finding.why)})" if isinstance(finding, UncheckedFinding) else ""
        lines.append(
            f"<li><code>{text(finding.rule)}</code> at <code>{text(finding.path)}</code>{where}: "
            f"{message_html(first_line(finding.message))}{why}</li>"
        )
    return [*lines, "</ul>", "</section>"]


def values_html(values: Sequence[str]) -> str:
    return ", ".join(f"<code>{text(value)}</code>" for value in values)


def bindings_section(report: Report, bindings: Sequence[BoundSet]) -> list[str]:
    bound = [entry for entry in bindings if entry.targets]
    count = sum(len(entry.targets) for entry in bound)
    alone = len(bindings) - len(bound)
    lines = [
        '<section id="bindings">',
        f"<h2>Bindings ({count})</h2>",
        f"<p>Which value set of the prose is compared with which schema enum, and why "
        f"(<code>speclint bindings</code> lists them too): {count} binding"
        f"{'' if count == 1 else 's'} of {len(bound)} prose value set"
        f"{'' if len(bound) == 1 else 's'}; {alone} prose value set"
        f"{'' if alone == 1 else 's'} bound to nothing.</p>",
    ]
    if not bound:
        return [*lines, "</section>"]
    lines.append(
        "<table><thead><tr><th>Prose</th><th>Its values</th><th>Schema enum</th>"
        "<th>Its values</th><th>Evidence</th></tr></thead><tbody>"
    )
    for entry in bound:
        field = f" <code>{text(entry.field)}</code>" if entry.field else ""
        prose = (
            f"<code>{text(place(report.root, entry.location, with_column=False))}</code><br>"
            f'<span class="muted">{text(entry.form)}</span>{field}'
        )
        for target in entry.targets:
            agreement = "same values" if target.same else "<strong>values differ</strong>"
            lines.append(
                f'<tr class="binding" data-file="{text(entry.location.path)}">'
                f"<td>{prose}</td><td>{values_html(entry.values)}</td>"
                f"<td><code>{text(shown_path(report.root, target.label))}</code></td>"
                f"<td>{values_html(target.values)}</td>"
                f"<td>{message_html(target.evidence)} ({text(target.confidence)}; {agreement})</td>"
                "</tr>"
            )
    return [*lines, "</tbody></table>", "</section>"]


def header(report: Report) -> list[str]:
    root = report.root or "."
    lines = [
        "<header>",
        "<h1>speclint report</h1>",
        f"<p>Corpus <code>{text(root)}</code>: {text(count_phrase(report.findings, new=report.gate is not None))}"
        f" (speclint {text(report.tool_version)}).</p>",
    ]
    gate = report.gate
    if gate is not None:
        lines.append(
            f"<p>Against {text(gate.against)}: <strong>{len(report.findings)} new</strong>, "
            f"<strong>{len(gate.fixed)} fixed</strong>, "
            + (
                f"{len(gate.no_longer_checked)} no longer checked, "
                if gate.no_longer_checked
                else ""
            )
            + f"{len(report.waived)} waived, "
            f"{len(gate.known)} unchanged (not this change's doing; not shown).</p>"
        )
    lines += counts(report.findings)
    if report.scope:
        lines.append(f'<p class="muted">{text(report.scope)}</p>')
    if report.checked:
        said = phrase(report.checked)
        lines.append(f'<p class="muted">{text(said[0].upper() + said[1:])}.</p>')
    if report.not_checked:
        said = coverage_phrase(report.not_checked)
        lines.append(f'<p class="muted">{text(said[0].upper() + said[1:])}.</p>')
    return [*lines, "</header>"]


def render(report: Report) -> str:
    title = f"speclint report: {report.root or '.'}"
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{text(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        *header(report),
        *filters(report.findings),
        "<main>",
    ]
    if report.findings:
        lines += summary_table(report.findings)
    lines += rule_sections(report)
    lines += fixed_section(report)
    lines += unchecked_section(report)
    lines += waived_section(report)
    if report.bindings is not None:
        lines += bindings_section(report, report.bindings)
    lines += [
        "</main>",
        f"<footer>speclint {text(report.tool_version)}</footer>",
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(lines) + "\n"
