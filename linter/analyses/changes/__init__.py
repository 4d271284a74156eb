"""Two revisions compared: the walk that pairs their schemas, what applies at a location, the
keyword-by-keyword comparisons and their witnesses, whether the head accepts what the base
accepted, the changes to what is published by name, the contract changes ``compat-claim`` reads, and
what a change breaks in the gRPC surface and in the corpus's Arazzo workflows."""
