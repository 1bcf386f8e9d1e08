"""Editor aids as plain data, independent of LSP: where a line is, what a hover says, hints,
outline and folding, semantic highlighting, canonical formatting.  The server converts them."""
