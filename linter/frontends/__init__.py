"""The front ends over the engine: the command line (also the pre-commit hook) and the language
server."""
