"""The language server (pygls): handlers convert between LSP and the core."""
