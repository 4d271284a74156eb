"""What the Markdown says: value sets and counted claims, type and requiredness claims, code
fences and the schema each illustrates, excerpts of root documents, ignore-unknown policies,
RFC header tables, which renderer makes each page and its anchors, and the documents a build
assembles from several pages."""
