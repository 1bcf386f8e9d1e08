"""Every file m2lsp reads whole or writes: bounded reading and one atomic writer."""
