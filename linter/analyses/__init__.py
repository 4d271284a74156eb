"""What is computed from a corpus: the reference index, roles, lineage, prose value sets and their
bindings, shapes and fingerprints, RFCs, schema objects, satisfiability and validation. Rules
receive the derived facts through ``speclint.analyses.context.Context``."""
