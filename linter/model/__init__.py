"""The corpus model: the configuration, and the corpus's documents as plain data, found by
discovery and parsed once. Knows nothing of the analyses, caches or rules."""
