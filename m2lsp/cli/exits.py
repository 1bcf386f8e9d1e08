"""Exit codes of every command."""

EXIT_CLEAN = 0  # nothing found / job done
EXIT_FINDINGS = 1  # problems found
EXIT_ERROR = 2  # usage or I/O error
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), as shells report it

# Set by the console script (`m2lsp.cli.entry`), which ends the process without freeing
# every object: a command may then keep what it made (`keep_until_exit`) instead of
# freeing a large file's hundreds of megabytes of small objects one by one.
ending = False
_kept: list[object] = []


def keep_until_exit(value: object) -> None:
    """Keep `value` alive to the end of a console-script process (nothing in-process)."""
    if ending:
        _kept.append(value)
