"""Agent Feedback Protocol v1.2: speclint as the feedback provider of an authoring agent.

An agent that writes a spec change sends a Request Object (AFP §3) on stdin to ``speclint afp``
and reads a Response Object (§4) on stdout. speclint's findings become ``areas_for_improvement``
(what is wrong is the ``description``, how to fix it the ``recommendation``), the rules that found
nothing become ``positive_points``, and the next request's ``applied_feedback`` is acknowledged.

Ids are derived from finding fingerprints: ``<rule-id>.<16 hex digits>`` (``enum-drift.3f2a...``),
which matches AFP's ``^[a-z0-9._-]{8,128}$``. A fingerprint is the rule, the file, the JSON
pointer or heading, and the rule's own key for the finding: not the line, so an id survives edits
elsewhere and the agent can report on it in the next iteration. speclint keeps no session state
(AFP §2.1 leaves sessions to the tool layer), so an ``applied_feedback`` id is ``acknowledged``
when speclint could have issued it (its rule exists and its form is speclint's) and
``unknown_id`` otherwise. Each acknowledgement also says (``x-speclint-still-reported``) whether
that finding is still reported for the new artifact, so an agent sees an ``accepted`` fix that did
not take.

The protocol's tables are written down as JSON Schemas in ``data/afp/`` (request and response);
requests are validated against the request schema. One leniency: the protocol's own first example
(§5.1) omits ``protocol_version``, so a missing one is read as "1.2"; any other version is an
``INVALID_REQUEST``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from speclint.analyses.context import Context
from speclint.common.controls import json_escaped
from speclint.common.findings import Finding, Severity
from speclint.model.config import ConfigError, load_config
from speclint.model.corpus import parse_document
from speclint.outputs.reporters.json_report import location_json
from speclint.run.catalog import RuleInfo, all_rules

PROTOCOL_VERSION = "1.2"
ID_PATTERN = re.compile(r"^[a-z0-9._-]{8,128}$")
_OWN_ID = re.compile(r"^(?P<rule>[a-z0-9-]+)\.(?P<digest>[0-9a-f]{16})$")
# Where a message turns from what is wrong to what to do: "...: add the field ...".
_FIX_START = re.compile(
    r"(?:[:;.]\s+|,\s+(?=either\b))(?P<fix>(?:either\s+)?(?:did\s+you\s+mean|add|fix|remove|drop|make|keep|give|"
    r"correct|declare|use|replace|close|open|move|rename|name|write|list|document|bind|split|"
    r"change|point|quote|admit|read|restore|define|set|delete|merge|indent|reference|align|check|decide|vendor|map)\b.*)$",
    re.IGNORECASE | re.DOTALL,
)


class RequestError(Exception):
    """A request speclint cannot answer; ``code`` is an AFP §4.2 baseline error code."""

    def __init__(self, code: str, message: str, iteration: int | float = 0) -> None:
        super().__init__(message)
        self.code = code
        self.iteration = iteration


@dataclass(frozen=True)
class Request:
    iteration: int | float
    media_type: str
    content: Any
    extensions: Mapping[str, Any]  # the artifact's x- fields (x-speclint-path)
    applied: tuple[Mapping[str, Any], ...]


@cache
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of AFP's ``request`` or ``response`` object, written from its tables."""
    text = resources.files("speclint").joinpath(f"data/afp/{name}.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def parse_request(text: str) -> Request:
    """A validated Request Object, or a RequestError with the AFP error code and the reason."""

    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RequestError(
            "INVALID_REQUEST", f"the request is not JSON: {error.msg} (line {error.lineno})"
        ) from None
    if not isinstance(data, dict):
        raise RequestError("INVALID_REQUEST", "the request must be one JSON object (AFP §3)")
    iteration = data.get("iteration", 0)
    echo = (
        iteration if isinstance(iteration, (int, float)) and not isinstance(iteration, bool) else 0
    )
    data.setdefault("protocol_version", PROTOCOL_VERSION)  # §5.1's example omits it
    errors = sorted(
        Draft202012Validator(schema("request")).iter_errors(data), key=lambda e: list(e.path)
    )
    if errors:
        first = errors[0]
        where = "/" + "/".join(str(p) for p in first.absolute_path)
        raise RequestError(
            "INVALID_REQUEST",
            f"the request does not follow AFP v1.2 §3 at {where}: {first.message}",
            echo,
        )
    artifact = data["artifact"]
    applied = (
        data.get("applied_feedback", {}).get("items", []) if "applied_feedback" in data else []
    )
    return Request(
        echo,
        str(artifact["media_type"]),
        artifact["content"],
        {k: v for k, v in artifact.items() if k.startswith("x-")},
        tuple(applied),
    )


def feedback_id(finding: Finding) -> str:
    """The finding's stable AFP id: ``<rule>.<16 hex of its fingerprint>``."""
    return f"{finding.rule}.{finding.fingerprint[:16]}"


def recommendation(finding: Finding, info: RuleInfo | None) -> str:
    """What to do: the fix the message gives, else the rule's "Use instead" section."""
    message = " ".join(finding.message.split())
    match = _FIX_START.search(message)
    if match:
        fix = match.group("fix").strip()
        return fix[0].upper() + fix[1:]
    if info is not None:
        section = info.doc.split("Use instead", 1)
        if len(section) == 2:
            body = section[1].split("\nOptions", 1)[0]
            text = " ".join(body.replace("::", "").replace("``", "`").replace("\\", "").split())
            text = re.sub(r"\s*\bPASS\.?", "", text).strip()
            if text:
                return f"{text} (see `speclint rule {finding.rule}`)"
    return f"See `speclint rule {finding.rule}` for what this rule expects."


def area(finding: Finding, info: RuleInfo | None) -> dict[str, Any]:

    item: dict[str, Any] = {
        "id": feedback_id(finding),
        "aspect": f"{finding.rule} at {finding.location.describe()}",
        "description": " ".join(finding.message.split()),
        "recommendation": recommendation(finding, info),
        "x-speclint-rule": finding.rule,
        "x-speclint-severity": finding.severity.label,
        "x-speclint-location": location_json(finding.location),
    }
    if finding.related:
        item["x-speclint-related"] = [location_json(r) for r in finding.related]
    return item


def confidence(findings: Sequence[Finding]) -> dict[str, str]:
    crashed = [f for f in findings if f.rule == "internal-error"]
    unread = [f for f in findings if f.rule == "parse-error"]
    if crashed:
        return {
            "level": "low",
            "justification": f"{len(crashed)} rule(s) crashed, so their checks are missing from "
            "this feedback (speclint's own bug; the rest is reliable)",
        }
    if unread:
        return {
            "level": "medium",
            "justification": f"{len(unread)} file(s) could not be parsed, so nothing that depends "
            "on them was checked; fix the parse errors first",
        }
    return {
        "level": "high",
        "justification": "every file parsed and every rule ran; findings come from real "
        "validators and the corpus's own prose, each with its location",
    }


def positive_points(
    findings: Sequence[Finding], rules: Mapping[str, RuleInfo]
) -> list[dict[str, str]]:
    """One point per rule that ran and found nothing: a check the artifact passes."""
    fired = {f.rule for f in findings}
    points = []
    for rule_id in sorted(rules):
        if rule_id in fired or rule_id in {"internal-error", "waiver"} or rules[rule_id].needs_base:
            continue  # a rule that needs a base checked nothing without one
        summary = rules[rule_id].summary.rstrip(".")
        points.append(
            {
                "aspect": rule_id,
                "justification": f"No finding of `{rule_id}`, which reports {summary[0].lower()}{summary[1:]}.",
            }
        )
    return points


def summary(findings: Sequence[Finding], waived: int) -> str:
    if not findings:
        text = "speclint found nothing to improve: the artifact passes every check that ran."
    else:
        counts = Counter(f.severity for f in findings)
        files = len({f.location.path for f in findings})
        rules = len({f.rule for f in findings})
        text = (
            f"{len(findings)} area(s) to improve in {files} file(s), from {rules} rule(s): "
            f"{counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s), "
            f"{counts[Severity.INFO]} info. Errors first: they contradict the spec's own rules "
            "or make a document unusable."
        )
    if waived:
        text += f" {waived} finding(s) are waived with a recorded reason and not listed."
    return text


def response(
    findings: Sequence[Finding],
    rules: Mapping[str, RuleInfo],
    iteration: int | float = 1,
    waived: int = 0,
    applied: Iterable[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """A ``success`` Response Object for these findings (errors first, then by place)."""
    ordered = sorted(findings, key=lambda f: (-int(f.severity), *f.sort_key()))
    document: dict[str, Any] = {
        "protocol_version": PROTOCOL_VERSION,
        "iteration": iteration,
        "status": "success",
        "feedback": {
            "confidence": confidence(findings),
            "positive_points": positive_points(findings, rules),
            "areas_for_improvement": [area(f, rules.get(f.rule)) for f in ordered],
            "general_summary": summary(findings, waived),
        },
    }
    if applied is not None:
        document["applied_feedback_ack"] = acknowledge(applied, findings, rules)
    return document


def acknowledge(
    applied: Iterable[Mapping[str, Any]], findings: Sequence[Finding], rules: Mapping[str, RuleInfo]
) -> dict[str, Any]:

    known_rules = set(all_rules()) | set(rules) | {"internal-error", "waiver"}
    current = {feedback_id(f) for f in findings}
    items = []
    for item in applied:
        identifier = str(item.get("id", ""))
        match = _OWN_ID.match(identifier)
        ours = match is not None and match["rule"] in known_rules
        items.append(
            {
                "id": identifier,
                "processing_status": "acknowledged" if ours else "unknown_id",
                "x-speclint-still-reported": identifier in current,
            }
        )
    return {"items": items}


def error_response(error: RequestError) -> dict[str, Any]:
    return {
        "protocol_version": PROTOCOL_VERSION,
        "iteration": error.iteration,
        "status": "error",
        "error": {"code": error.code, "message": str(error)},
    }


def dumps(document: Mapping[str, Any]) -> str:
    return json_escaped(json.dumps(document, indent=2, ensure_ascii=False)) + "\n"


# --- the artifact ---------------------------------------------------------------------------

_INLINE_TYPES = {
    "application/schema+json": ("json", "schemas/artifact.schema.json"),
    "application/json": ("json", "schemas/artifact.schema.json"),
    "application/yaml": ("yaml", "api/artifact.yaml"),
    "application/x-yaml": ("yaml", "api/artifact.yaml"),
    "text/yaml": ("yaml", "api/artifact.yaml"),
    "application/openapi+yaml": ("yaml", "api/openapi.yaml"),
    "application/vnd.oai.openapi+yaml": ("yaml", "api/openapi.yaml"),
    "application/vnd.oai.openapi+json": ("json", "api/openapi.json"),
    "text/markdown": ("markdown", "spec/artifact.md"),
}


def artifact_corpus(request: Request, path: Path | None) -> tuple[Context, str | None]:
    """The corpus an AFP request's artifact stands for, and the file to report on (None: all)."""

    media_type = request.media_type.split(";", 1)[0].strip().lower()
    try:
        if media_type == "inode/directory":
            if not isinstance(request.content, str) or not Path(request.content).is_dir():
                raise RequestError(
                    "INVALID_REQUEST",
                    "an `inode/directory` artifact's content must be the path of a corpus folder",
                    request.iteration,
                )
            folder = Path(request.content)
            return Context.load(folder, load_config(folder.resolve())), None
        if media_type not in _INLINE_TYPES:
            raise RequestError(
                "UNSUPPORTED_MEDIA_TYPE",
                f"speclint reviews `inode/directory` (a corpus path) and "
                f"{', '.join(f'`{t}`' for t in _INLINE_TYPES)}; not `{media_type}`",
                request.iteration,
            )
        syntax, default_path = _INLINE_TYPES[media_type]
        content = request.content
        if not isinstance(content, str):
            if syntax == "markdown":
                raise RequestError(
                    "INVALID_REQUEST",
                    "a `text/markdown` artifact's content must be a string",
                    request.iteration,
                )
            content = json.dumps(content, indent=2, ensure_ascii=False) + "\n"
        target = str(request.extensions.get("x-speclint-path") or "")
        if not target:
            target = default_path
            if syntax != "markdown" and isinstance(request.content, dict):
                for key in ("openapi", "asyncapi"):
                    if key in request.content:
                        target = f"api/{key}.{'json' if syntax == 'json' else 'yaml'}"
        if target.startswith("/") or ".." in target.split("/"):
            raise RequestError(
                "INVALID_REQUEST",
                "`x-speclint-path` must be a path inside the corpus",
                request.iteration,
            )
        if path is None:
            return Context.from_texts({target: content}), target
        base = Context.load(path, load_config(path.resolve()))
        documents = dict(base.documents)
        documents[target] = parse_document(target, content)
        return Context(base.root, base.config, dict(sorted(documents.items()))), target
    except ConfigError as error:
        raise RequestError("INVALID_REQUEST", str(error), request.iteration) from None
