"""What the corpus's JSON Schemas say and where they reach: every ``$ref`` resolved against the
corpus itself, every schema object with its dialect, object shapes and their closure, roles
(submitted, emitted), satisfiability and its witnesses, validation against official schemas,
which schema checks an instance, declarations, fingerprints of copies, union members,
namespaces and schema catalogs."""
