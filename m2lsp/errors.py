"""The one root of m2lsp's exceptions.

User errors in documents are diagnostics, never exceptions; these are for I/O faults,
unusable arguments and programmer errors.
"""


class M2lspError(Exception):
    """Base of every exception m2lsp raises on purpose."""


class UsageError(M2lspError):
    """Arguments or inputs that make the requested job impossible (exit code 2)."""


class InputError(M2lspError):
    """A file that cannot be read or decoded for a job that needs it whole (exit code 2)."""
