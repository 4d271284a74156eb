"""Arazzo workflows and OpenAPI Overlays: what a workflow document names, resolved in the corpus
(sources, operations, runtime expressions), the documents an overlay applies to (Speakeasy's
workflow file among the evidence)."""
