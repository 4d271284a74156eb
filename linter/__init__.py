"""speclint: a linter for specification corpora (JSON Schema, OpenAPI, AsyncAPI, Markdown)."""

__version__ = "0.1.0"
