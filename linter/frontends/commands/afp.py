"""``speclint afp``: answer an Agent Feedback Protocol request.

Its engine, outputs and analyses are imported where they are used ("Deferred": the start-up
time of ``speclint.frontends.options``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from speclint.frontends.options import time_limit_of


@click.command(name="afp")
@click.argument(
    "path",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    required=False,
)
def agent_feedback(path: Path | None) -> None:
    """Answer an Agent Feedback Protocol v1.2 request on stdin with a response on stdout.

    The artifact is a corpus folder (media type `inode/directory`, content its path) or one inline
    document (`application/schema+json`, `application/json`, `application/yaml`, `text/markdown`).
    With PATH, an inline document is linted inside the corpus at PATH, in place of the file its
    `x-speclint-path` names; without PATH, on its own. Exit 0 with a `success` response, 2 with an
    `error` response.
    """
    # Deferred: startup (module docstring).
    from speclint.outputs.afp import (
        RequestError,
        artifact_corpus,
        dumps,
        error_response,
        parse_request,
        response,
    )

    try:
        request = parse_request(sys.stdin.read())
        corpus, focus = artifact_corpus(request, path)
        # Deferred: startup (module docstring).
        from speclint.run.engine import Options, lint_corpus

        result = lint_corpus(corpus, Options(time_limit=time_limit_of(None)))
        findings = [
            f
            for f in result.findings
            if focus is None or f.location.path == focus or any(r.path == focus for r in f.related)
        ]
        answer = response(
            findings,
            result.rules,
            request.iteration,
            len(result.waived),
            request.applied if request.applied else None,
        )
    except RequestError as error:
        click.echo(dumps(error_response(error)), nl=False)
        sys.exit(2)
    except Exception as error:  # an AFP client needs a response object, not a traceback
        failure = RequestError("INTERNAL_ERROR", f"{type(error).__name__}: {error}")
        click.echo(dumps(error_response(failure)), nl=False)
        sys.exit(2)
    click.echo(dumps(answer), nl=False)
