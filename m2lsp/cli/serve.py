"""`m2lsp serve`: the language server, over stdio (default) or TCP."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from m2lsp.cli.exits import EXIT_ERROR


def add_commands(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("serve", help="run the language server",
                                 description="Run the m2lsp language server.")
    parser.add_argument("--stdio", action="store_true",
                        help="talk over stdin/stdout (the default; accepted for LSP clients)")
    parser.add_argument("--tcp", metavar="HOST:PORT",
                        help="listen on a TCP port instead, for the invoking user only: a "
                             "client passes the token ($M2LSP_TOKEN, else a new one written "
                             "to --token-file or printed) in initializationOptions "
                             "{\"m2lsp\": {\"token\": ...}}; commands then read only "
                             "files in the workspace or open documents")
    parser.add_argument("--token-file", metavar="FILE", type=Path,
                        help="with --tcp: write the token here, readable by you only")
    parser.add_argument("--log-level", default="WARNING",
                        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                        help="what goes to stderr (default WARNING: editors show stderr as "
                             "errors)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import gc

    gc.enable()  # a long-running process: let the cycle collector work
    logging.basicConfig(level=args.log_level, format="m2lsp %(levelname)s %(message)s")
    from m2lsp.lsp.features import create_server
    from m2lsp.lsp.server import ClientLog

    server = create_server()

    ours = logging.getLogger("m2lsp")
    ours.addHandler(ClientLog(server))
    ours.propagate = False  # to the client's log, not also to stderr
    ours.setLevel(args.log_level)

    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not port.isdigit():
            logging.error("--tcp expects HOST:PORT, got %r", args.tcp)
            return EXIT_ERROR
        from m2lsp.lsp.tcp import TOKEN_ENV, server_token

        try:
            token, made = server_token(args.token_file)
        except OSError as exc:
            logging.error("cannot write the token file %s: %s", args.token_file,
                          exc.strerror or exc)
            return EXIT_ERROR
        where = f"written to {args.token_file}" if args.token_file else (
            f"from ${TOKEN_ENV}" if not made else token)
        sys.stderr.write(f"m2lsp: listening on {host or '127.0.0.1'}:{port}; clients pass "
                         f"the token in initializationOptions.m2lsp.token ({where})\n")
        sys.stderr.flush()
        server.start_tcp(host or "127.0.0.1", int(port), token)
    else:
        server.start_io()
    return server.exit_code
