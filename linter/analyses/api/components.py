"""The Components Object's fixed fields in each OpenAPI version: the maps a document keeps what it
``$ref``s by name in (OpenAPI 3.0.4 §4.7.7; 3.1.1 §4.8.7 adds ``pathItems``; 3.2.0 adds
``mediaTypes``). Its keys of each match one pattern (3.0.4 §4.7.7.1)."""

from __future__ import annotations

OPENAPI_30_COMPONENTS = (
    "schemas",
    "responses",
    "parameters",
    "examples",
    "requestBodies",
    "headers",
    "securitySchemes",
    "links",
    "callbacks",
)
OPENAPI_31_COMPONENTS = (*OPENAPI_30_COMPONENTS, "pathItems")
OPENAPI_32_COMPONENTS = (*OPENAPI_31_COMPONENTS, "mediaTypes")
