"""Which rules a run runs: ``--select`` and ``--ignore``, and the configuration's ``select``,
``ignore`` and ``[rules]`` ``off``, as ruff chooses its rules (issue 44, item 14).

A selector is a rule id (``enum-drift``), ``ALL``, or a prefix of ids in whole words: ids are
kebab-case, so ``proto`` (or ``proto-``) selects ``proto-enum-drift``, ``proto-invalid`` and
``proto-message-drift``, ``proto-enum`` only the first, and ``prot`` nothing (a word is never cut,
so a prefix means the family its name says). A selector that selects nothing is an error, with
the nearest id or prefix: a typo must not run no rule, or every rule, without a word.

ruff's precedence, layer by layer:

- the configuration: ``select`` (default ``ALL``) less ``ignore`` and the rules ``[rules]`` turns
  ``off``; where a select and an ignore both match a rule, the more specific one (more words; an id
  is the most specific) decides, an ignore winning a tie. A rule that is not selected is off,
  exactly as ``[rules] id = "off"`` makes it (``configured``);
- the command line: ``--select`` replaces the configuration's choice (its ``select``, ``ignore``
  and ``off`` alike: what is asked for by name runs, at the rule's own severity where the
  configuration had it off), less ``--ignore`` by the same precedence; without ``--select``,
  ``--ignore`` takes rules away from the configuration's choice (``chosen``).

``--rule ID`` is ``--select ID``. ``waiver`` and ``internal-error`` are speclint's own findings, not
rules: they are reported whatever is selected.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from speclint.common.findings import Severity
from speclint.model.config import REMOVED_RULES, Config

ALL = "ALL"
# Findings speclint makes about itself, which no selection turns off (speclint.run.waivers,
# speclint.run.runner).
OWN_FINDINGS = ("waiver", "internal-error")


class SelectionError(ValueError):
    """A selector that names no rule; the message says where it was written and the nearest."""


def words(selector: str) -> tuple[str, ...]:
    """The words of a selector: ``proto-`` and ``proto`` are both ``("proto",)``."""
    return tuple(selector.strip().rstrip("-").split("-"))


def matches(selector: str, rule_id: str) -> bool:
    if selector.strip().upper() == ALL:
        return True
    wanted = words(selector.lower())
    return rule_id.split("-")[: len(wanted)] == list(wanted)


def _specificity(selector: str) -> int:
    return 0 if selector.strip().upper() == ALL else len(words(selector))


def resolved(ids: Iterable[str], select: Sequence[str], ignore: Sequence[str]) -> frozenset[str]:
    """The ids ``select`` selects and ``ignore`` does not take away, by specificity: the most
    specific selector matching a rule decides it, an ignore winning a tie."""
    chosen: set[str] = set()
    for rule_id in ids:
        verdicts = [(_specificity(s), False) for s in ignore if matches(s, rule_id)]
        verdicts += [(_specificity(s), True) for s in select if matches(s, rule_id)]
        # max: the most words, then (at equal words) False, the ignore, before True.
        if verdicts and max(verdicts, key=lambda verdict: (verdict[0], not verdict[1]))[1]:
            chosen.add(rule_id)
    return frozenset(chosen)


def prefixes(ids: Iterable[str]) -> list[str]:
    """Every id and every whole-word prefix of one (``proto``, ``proto-enum``): the names a
    selector may be, for "did you mean"."""
    found: set[str] = set()
    for rule_id in ids:
        parts = rule_id.split("-")
        found.update("-".join(parts[:count]) for count in range(1, len(parts) + 1))
    return sorted(found)


def nearest(name: str, choices: Iterable[str]) -> str | None:
    """The choice a mistyped ``name`` most likely meant (difflib's ratio of 0.6 or more)."""
    near = difflib.get_close_matches(name.strip().lower(), sorted(choices), n=1, cutoff=0.6)
    return near[0] if near else None


def check(
    label: str,
    selectors: Sequence[str],
    ids: Collection[str],
    shown: bool = True,
    ignoring: bool = False,
) -> None:
    """A :class:`SelectionError` for the first selector that selects no rule of ``ids``.
    ``label`` is where the selectors were written (``--select``, ``speclint.toml: select``).
    ``shown``: the message may repeat the selector (the command line's); a configuration's is
    named by its place (``select[2]``), as configuration messages never repeat a value."""
    for index, selector in enumerate(selectors):
        if selector.strip().upper() == ALL or any(matches(selector, i) for i in ids):
            continue
        named = f"`{selector}` in {label}" if shown else f"{label}[{index}]"
        if selector.strip() in REMOVED_RULES:
            if ignoring:
                continue  # ignoring a removed rule asks for what is already so
            raise SelectionError(f"{named}: {REMOVED_RULES[selector.strip()]}; remove it")
        if selector.strip() in OWN_FINDINGS:
            raise SelectionError(
                f"{named}: `{selector.strip()}` findings are speclint's own, reported whatever "
                "is selected; select or ignore rules (`speclint rules` lists them)"
            )
        if not selector.strip():
            raise SelectionError(f"{named} is empty: give a rule id or a prefix of one")
        near = nearest(selector, prefixes(ids))
        hint = f" (did you mean `{near}`?)" if near else ""
        raise SelectionError(
            f"{named} is no rule id and no prefix of one{hint}; `speclint rules` lists them"
        )


def configured(config: Config, ids: Collection[str]) -> Config:
    """The configuration with every rule its ``select`` and ``ignore`` leave out turned off
    (``[rules] id = "off"``), so that everything reading the configuration, the rule cache's
    keys among them, sees one choice. A selector that selects nothing is a
    :class:`SelectionError`."""
    if config.select is None and not config.ignore:
        return config
    where = config.source or "configuration"
    check(f"{where}: select", config.select or (), ids, shown=False)
    check(f"{where}: ignore", config.ignore, ids, shown=False, ignoring=True)
    kept = resolved(ids, config.select if config.select is not None else (ALL,), config.ignore)
    severities: dict[str, Severity | None] = dict(config.rule_severity)
    severities.update((rule, None) for rule in ids if rule not in kept)
    return replace(config, rule_severity=severities)


def chosen(
    config: Config,
    ids: Collection[str],
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    as_rule: Collection[str] = (),
) -> tuple[str, ...]:
    """The ids a run runs: ``select`` (the command line's ``--select`` and ``--rule``; empty:
    the configuration's choice) less ``ignore``, sorted. ``config`` is :func:`configured`'s.
    ``as_rule``: the selectors of ``select`` given as ``--rule``, which an error names so (the
    option the user typed)."""
    check("--rule", [s for s in select if s in as_rule], ids)
    check("--select", [s for s in select if s not in as_rule], ids)
    check("--ignore", ignore, ids, ignoring=True)
    if select:
        return tuple(sorted(resolved(ids, select, ignore)))
    off = {rule for rule, level in config.rule_severity.items() if level is None}
    enabled = [rule for rule in ids if rule not in off]
    return tuple(sorted(resolved(enabled, (ALL,), ignore)))


def needing_a_base(select: Sequence[str], base_rules: Collection[str], ids: Collection[str]) -> str:
    """The first selector of ``select`` that selects only rules that judge a change
    (compat-claim), which cannot run without a base: "" when none does. A command line's
    ``--select`` and a configuration's ``select`` alike: either would run no rule, a silent
    pass."""
    for selector in select:
        matched = [rule for rule in ids if matches(selector, rule)]
        if matched and all(rule in base_rules for rule in matched):
            return selector.strip()
    return ""
