"""`m2lsp serve`: the language server, over stdio (default) or TCP."""

from __future__ import annotations

import argparse
import logging

from m2lsp.cli.exits import EXIT_ERROR


def add_commands(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("serve", help="run the language server",
                                 description="Run the m2lsp language server.")
    parser.add_argument("--stdio", action="store_true",
                        help="talk over stdin/stdout (the default; accepted for LSP clients)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP port instead")
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
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        server.start_io()
    return server.exit_code
