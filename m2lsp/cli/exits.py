"""Exit codes of every command."""

EXIT_CLEAN = 0  # nothing found / job done
EXIT_FINDINGS = 1  # problems found
EXIT_ERROR = 2  # usage or I/O error
