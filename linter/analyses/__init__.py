"""What is computed from a corpus, by subject: ``schemas`` (references, shapes, roles,
satisfiability, validation), ``api`` (OpenAPI/AsyncAPI operations, routes, examples), ``grpc``
(protos and their bindings), ``workflows`` (Arazzo and Overlays), ``prose`` (what the Markdown
states), ``changes`` (two revisions compared) and ``repository`` (build commands, provenance).
Rules receive the derived facts through ``speclint.analyses.context.Context``; ``units`` cuts the
corpus into the documents an incremental run re-checks."""
