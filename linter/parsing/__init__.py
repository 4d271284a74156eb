"""Reading and parsing one file: untrusted reads, JSON/YAML with positions, the Markdown prose
model and a page's links, what a file is (kinds, dialects, versions), and git's view of the root.
Knows nothing of the corpus."""
