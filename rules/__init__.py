"""speclint's rules: one module per rule; each module's docstring is its documentation."""
