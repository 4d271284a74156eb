"""``speclint rules`` and ``speclint rule ID``: the rules and one rule's documentation.

Its engine, outputs and analyses are imported where they are used ("Deferred": the start-up
time of ``speclint.frontends.options``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from speclint.common.findings import Severity
from speclint.frontends.options import COLOR, fail, say, wants_color

if TYPE_CHECKING:
    from speclint.run.catalog import RuleInfo


@click.command(name="rules")
def list_rules() -> None:
    """List the rules with their default severity, `preview` for a preview rule (run only with
    --preview), and their summary."""
    # Deferred: startup (module docstring).
    from speclint.run.preview import PreviewDataError, is_preview

    catalog = _documented_rules()
    try:
        previews = {rule_id for rule_id in catalog if is_preview(rule_id)}
    except PreviewDataError as error:
        fail(str(error))
    width = max(len(rule_id) for rule_id in catalog)
    for rule_id, info in catalog.items():
        status = "preview" if rule_id in previews else ""
        say(f"{rule_id:<{width}}  {info.severity.label:<7}  {status:<7}  {info.summary}")


@click.command(name="rule")
@click.argument("rule_id")
@COLOR
def show_rule(rule_id: str, color: bool | None) -> None:
    """Print the documentation of rule RULE_ID, with its measured precision and the number of
    labels behind it."""
    # Deferred: startup (module docstring).
    from speclint.outputs.reporters.rule_doc import render_doc
    from speclint.run.catalog import all_rules
    from speclint.run.preview import PreviewDataError, is_preview, precision_lines

    catalog = _documented_rules()
    info = catalog.get(rule_id)
    if info is None:
        fail(_unknown_rule(rule_id, catalog))
    use_color = wants_color(color)
    try:
        status = ", preview" if is_preview(info.id) else ""
        # Not for speclint's own `waiver` and `internal-error`, which are no rules.
        measured = precision_lines(info.id) if info.id in all_rules() else []
    except PreviewDataError as error:
        fail(str(error))
    say(f"{info.id} [{info.severity.label}{status}]")
    for line in measured:
        say(line)
    click.echo()
    # click strips colour from output that is not a terminal unless told: --color means colour.
    click.echo(render_doc(info.doc, use_color), nl=False, color=use_color or None)


def _unknown_rule(rule_id: str, catalog: dict[str, RuleInfo]) -> str:
    """Why ``speclint rule ID`` knows no ID: the rules a prefix names, or the nearest id."""
    # Deferred: startup (module docstring).
    from speclint.model.config import REMOVED_RULES
    from speclint.run.selection import matches, nearest

    if rule_id.strip() in REMOVED_RULES:
        return REMOVED_RULES[rule_id.strip()]
    family = [known for known in catalog if matches(rule_id, known)] if rule_id.strip() else []
    if family and rule_id.strip().upper() != "ALL":
        return (
            f"unknown rule `{rule_id}`: it is a prefix of {', '.join(family)}; "
            "`speclint rule` shows one rule"
        )
    near = nearest(rule_id, catalog)
    hint = f" (did you mean `{near}`?)" if near else ""
    return f"unknown rule `{rule_id}`{hint}; `speclint rules` lists them"


def _documented_rules() -> dict[str, RuleInfo]:
    """Every rule id a report can carry: the rule modules', and the findings speclint itself
    makes about waivers (``waiver``) and crashed rules (``internal-error``)."""
    # Deferred: startup (module docstring).
    from speclint.run.catalog import RuleInfo, all_rules
    from speclint.run.runner import internal_error_info
    from speclint.run.waivers import WAIVER_DOC, WAIVER_RULE

    waiver = RuleInfo(
        WAIVER_RULE, Severity.WARNING, WAIVER_DOC, "speclint.run.waivers", lambda c, o: ()
    )
    crashed = internal_error_info()
    return dict(sorted({**all_rules(), waiver.id: waiver, crashed.id: crashed}.items()))
