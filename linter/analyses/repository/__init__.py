"""The repository around the specification: its build command lines, the files they download,
which documents it does not author (provenance), generated bundles (lineage) and Helm chart
values."""
