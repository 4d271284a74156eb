"""What ``check`` and ``hook`` make of the engine's :class:`~speclint.run.engine.Outcome`: the
report, the exit code, and the lines on standard error about what the run left out.

The engine and the outputs are imported inside the functions that use them ("Deferred": the
start-up time of ``speclint.frontends.options``)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from speclint import __version__
from speclint.common.findings import Severity, warnings_over
from speclint.frontends.options import fail, say

if TYPE_CHECKING:
    from speclint.outputs.reporters import Gate, Report
    from speclint.run.engine import Outcome


def understood(root: Path, outcome: Outcome, focus: tuple[str, ...] | None = None) -> str:
    """How the corpus root is shown; a usage error when nothing in it (in ``focus``, when
    given) could be checked."""
    # Deferred: startup (module docstring).
    from speclint.outputs.reporters.text_report import shown_path
    from speclint.run.inventory import checked_anything, nothing_found
    from speclint.run.roots import in_focus

    shown_root = root.as_posix().rstrip("/") or "."
    if not checked_anything(outcome.result.inventory):
        # A gate that passes a repository it did not understand gives a false all-clear: as
        # ESLint does for files no pattern matched, say so and fail (issue 14).
        fail(nothing_found(shown_root, outcome.result.inventory))
    if focus is not None:
        inside = [e for e in outcome.result.inventory if in_focus(e.path, focus)]
        if not checked_anything(inside):
            named = ", ".join(shown_path(shown_root, path) for path in focus)
            fail(
                f"{named}: no file speclint checks in the corpus at {shown_root} (see "
                f"`speclint files {shown_root}`: a file may be excluded, ignored by git, or "
                "not a JSON Schema, OpenAPI, AsyncAPI, instance or Markdown file)"
            )
    return shown_root


def focused(report: Report, outcome: Outcome, focus: tuple[str, ...] | None) -> Report:
    """The report, saying for which of the corpus's files it shows findings."""

    # Deferred: startup (module docstring).
    from speclint.outputs.reporters.text_report import seen
    from speclint.run.roots import in_focus

    if focus is None:
        return report
    files = outcome.result.inventory
    shown = sum(1 for entry in files if in_focus(entry.path, focus))
    named = ", ".join(seen(report, path) for path in focus)
    return replace(report, scope=f"(findings shown for {shown} of {len(files)} files: {named})")


def make_report(
    outcome: Outcome,
    shown_root: str,
    color: bool,
    gate: Gate | None,
    quiet: bool = False,
    max_warnings: int | None = None,
) -> Report:
    # Deferred: startup (module docstring).
    from speclint.outputs.reporters import Report

    return Report(
        here=_here(shown_root),
        findings=outcome.findings,
        rules=outcome.result.rules,
        sources=outcome.sources,
        root=shown_root,
        tool_version=__version__,
        color=color,
        waived=tuple(outcome.result.waived),
        gate=gate,
        checked=outcome.result.inventory,
        not_checked=outcome.result.coverage,
        quiet=quiet,
        max_warnings=max_warnings,
        bindings=outcome.bindings,
    )


def _here(shown_root: str) -> str:
    """The working folder from the corpus root (``Report.here``) when it lies inside the corpus
    and the root was named relative to it (``..``); "" otherwise (a root named absolute is
    shown as named)."""
    if os.path.isabs(shown_root):
        return ""
    inside = os.path.relpath(os.path.abspath(os.curdir), os.path.abspath(shown_root))
    return "" if inside == "." or inside.split(os.sep)[0] == os.pardir else Path(inside).as_posix()


def exit_code(outcome: Outcome, fail_on: str | None, max_warnings: int | None = None) -> int:
    """1 when a reported finding, or a finding of the base the change made worse, is at or above
    --fail-on (else the configuration's), or when there are more warnings than --max-warnings
    (ESLint's option: errors fail regardless; new warnings only)."""

    threshold = Severity.parse(fail_on) if fail_on else outcome.config.fail_on
    # A finding the base had that the change made worse (an enum drift lacking one more value:
    # ``Gate.grown``) fails as a new one would; one that shrank or was reworded does not.
    grown = outcome.gate.grown if outcome.gate is not None else ()
    if any(f.severity >= threshold for f in (*outcome.findings, *grown)):
        return 1
    return 1 if warnings_over(outcome.findings, max_warnings) else 0


def say_held(outcome: Outcome) -> None:
    """The line on the preview rules the selection chose and the run did not run (ruff says
    so of a preview rule selected by its code; speclint counts the others too, so a run that
    looks clean says what it left out)."""
    # Deferred: startup (module docstring).
    from speclint.run.preview import HOW

    held = outcome.held
    if held.named:
        named = ", ".join(f"`{rule}`" for rule in held.named)
        what = "is a preview rule" if len(held.named) == 1 else "are preview rules"
        say(f"speclint: {named} {what}: selected, but run only with {HOW}", err=True)
    others = len(held.rules) - len(held.named)
    if others:
        rules = "preview rule" if others == 1 else "preview rules"
        say(
            f"speclint: {others} {rules} not run (--preview runs them; `speclint rules` marks them)",
            err=True,
        )
    dropped = sum(count for _, count in held.heuristics)
    if dropped:
        each = ", ".join(f"{heuristic} {count}" for heuristic, count in held.heuristics)
        findings = "finding" if dropped == 1 else "findings"
        say(
            f"speclint: {dropped} {findings} of preview heuristics not reported ({each}; "
            "--preview reports them; `speclint rule ID` shows their precision)",
            err=True,
        )
