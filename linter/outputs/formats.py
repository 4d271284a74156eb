"""The report formats speclint writes, by name: one ``reporters/<name>_report.py`` each (a ``-``
in the name is a ``_`` in the module). Kept apart from the reporters so that the command line can
offer them without importing what renders them (speclint.frontends.cli: start-up time)."""

from __future__ import annotations

FORMATS = (
    "text",
    "json",
    "sarif",
    "markdown",
    "markdown-summary",
    "github",
    "afp",
    "junit",
    "gitlab",
    "html",
)
