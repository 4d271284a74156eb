"""The gRPC surface: the corpus's ``.proto`` files and proto fences compiled, what they are
paired with (proto bindings, the ProtoJSON mapping to JSON Schema) and the rpcs beside the
HTTP and JSON-RPC surfaces."""
