"""What the API documents define and what the pages say of them: OpenAPI operations and routes,
the parts kept in other files and their roles, examples and example definitions, HTTP
exchanges on pages, envelopes, links into a rendered reference, JSON-RPC methods, how a
bundler inlines and merges sources, member spellings, and how ``openapi-invalid`` judges a
document."""
