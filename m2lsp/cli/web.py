"""`m2lsp web`: a project served to a team (see m2lsp.web and docs/web.md).

    m2lsp web init PROJECT [--from sentences.txt|file.m2] [--lang en] [--no-tok]
                   [--user NAME:ROLE ...]                 (passwords printed once; without
                                                           --from, a manager loads the
                                                           sentences in the page)
    m2lsp web adduser PROJECT NAME --role annotator|curator|manager   (password on stdin,
                                                                       else one printed once)
    m2lsp web PROJECT [--host H] [--port P] [--behind-tls] [--no-types]

Starlette, uvicorn and argon2-cffi come with `pip install 'm2lsp[web]'`; nothing here
imports them before a web command runs."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import sys
from pathlib import Path

from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.errors import UsageError

ACTIONS = ("init", "adduser")


def add_commands(commands: argparse._SubParsersAction) -> None:
    web = commands.add_parser(
        "web", help="serve a project to a team of annotators, curators and managers",
        description="`m2lsp web PROJECT` serves the project folder at http://127.0.0.1:PORT; "
        "`m2lsp web init PROJECT --from FILE` makes one from raw sentences (one a line) or "
        "an M2 file's S lines (without --from, a manager loads them in the page); `m2lsp "
        "web adduser PROJECT NAME --role ROLE` adds a person (the password read from "
        "stdin, else generated and printed once). A project named init or adduser is given "
        "as ./init.")
    web.add_argument("words", nargs="+", metavar="PROJECT | init PROJECT | adduser PROJECT NAME")
    web.add_argument("--from", dest="source", type=Path, metavar="FILE",
                     help="init: raw sentences (.txt, one a line) or an M2 file (without "
                     "it, a manager loads the sentences in the page)")
    web.add_argument("--lang", default="en", metavar="CODE", help="init: the language "
                     "(default: en; raw text is tokenised as m2lsp skeleton tokenises)")
    web.add_argument("--no-tok", action="store_true",
                     help="init: the raw text is tokenised already (split at whitespace)")
    web.add_argument("--user", action="append", default=[], metavar="NAME:ROLE",
                     help="init: add this person too (repeatable), a password generated "
                     "and printed once for each")
    web.add_argument("--role", choices=("annotator", "curator", "manager"),
                     help="adduser: the person's role")
    web.add_argument("--host", default="127.0.0.1",
                     help="serve: the address (default 127.0.0.1; another needs --behind-tls)")
    web.add_argument("--port", type=int, default=8000, help="serve: the port (default 8000)")
    web.add_argument("--behind-tls", action="store_true", help="serve: a TLS reverse proxy "
                     "is in front (cookies marked Secure; allows a non-loopback --host)")
    web.add_argument("--no-types", action="store_true", help="serve: leave realigned edits "
                     "typed UNK for the annotators to type (by default ERRANT types them, "
                     "or ChERRANT for Chinese, where installed)")
    web.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from m2lsp.web import required

    words = args.words
    if words[0] == "init":
        if args.user:
            required()
        return _init(args, _one(words, "init PROJECT"))
    required()
    if words[0] == "adduser":
        if len(words) != 3 or args.role is None:
            raise UsageError("m2lsp web adduser PROJECT NAME --role annotator|curator|manager")
        return _adduser(Path(words[1]), words[2], args.role)
    return _serve(args, _one(["serve", *words], "PROJECT"))


def _one(words: list[str], usage: str) -> Path:
    if len(words) != 2:
        raise UsageError(f"m2lsp web {usage}: one project folder")
    return Path(words[1])


def _init(args: argparse.Namespace, root: Path) -> int:
    from m2lsp.web.project import init_project, refuse_project

    refuse_project(root)
    people = [_person(given) for given in args.user]
    if len({name for name, _ in people}) < len(people):
        raise UsageError("--user names a person twice")
    sentences = [] if args.source is None else _sentences(args)
    project = init_project(root, sentences, args.lang)
    for name, role in people:
        _adduser(root, name, role, ask=False)
    made = (f"{len(sentences)} sentences" if sentences else
            "no sentence yet: a manager loads them in the page")
    more = "more " if people else ""
    print(f"m2lsp: made the project {project.root} ({made}); add {more}people "
          f"with m2lsp web adduser {project.root} NAME --role ROLE", file=sys.stderr)
    return EXIT_CLEAN


def _sentences(args: argparse.Namespace) -> list[list[str]]:
    """The sentences of --from: an M2 file's S lines, or raw lines tokenised as `m2lsp
    skeleton` tokenises them (split at whitespace with --no-tok)."""
    from m2lsp.cli.inputs import read_text
    from m2lsp.web.source import sentences_of, skipped

    text = read_text(args.source, "text").text
    sentences = sentences_of(text, args.lang, args.no_tok, args.source)
    if not sentences:
        raise UsageError("no sentence to annotate (the input has no non-blank line)")
    if said := skipped(text):
        print(f"m2lsp: {said}", file=sys.stderr)
    return sentences


def _person(given: str) -> tuple[str, str]:
    """NAME:ROLE of --user, checked before anything is made."""
    from m2lsp.web.names import checked_name, checked_role

    name, _, role = given.partition(":")
    return checked_name(name), checked_role(role)


def _adduser(root: Path, name: str, role: str, ask: bool = True) -> int:
    from m2lsp.web.accounts import add_user, generated_password
    from m2lsp.web.db import connect
    from m2lsp.web.project import add_layer, open_project

    project = open_project(root)
    given = (None if not ask or sys.stdin is None or sys.stdin.isatty()
             else sys.stdin.readline())
    password = given.rstrip("\r\n") if given else generated_password()
    db = connect(project.database)
    try:
        user = add_user(db, name, role, password)
    finally:
        db.close()
    if user.role == "annotator":
        add_layer(project, user.name)
    if not given:
        print(f"password of {user.name}: {password}  (shown this once)")
    print(f"m2lsp: added {user.name} ({user.role}) to {project.root}", file=sys.stderr)
    return EXIT_CLEAN


def _serve(args: argparse.Namespace, root: Path) -> int:
    import uvicorn

    from m2lsp.web.app import build_app
    from m2lsp.web.engines import described

    if not _loopback(args.host) and not args.behind_tls:
        raise UsageError(f"--host {args.host} serves plain HTTP beyond this machine: put a "
                         "TLS reverse proxy in front (docs/web.md) and add --behind-tls")
    app = build_app(root, secure=args.behind_tls, types=not args.no_types)
    print(f"m2lsp: serving {root} at http://{args.host}:{args.port} (edits typed: "
          f"{described(app.state.site.project.engines)})", file=sys.stderr, flush=True)
    # pages keep their live updates open: a stop waits for them at most this long, then
    # closes them (the pages reconnect when the server is back), which is no error here
    logging.getLogger("uvicorn.error").addFilter(_closing_updates)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                timeout_graceful_shutdown=STOPPING)
    return EXIT_CLEAN


STOPPING = 3  # seconds a stopping server gives open requests (the live updates never end)


def _closing_updates(record: logging.LogRecord) -> bool:
    """uvicorn's "Cancel N running task(s), timeout graceful shutdown exceeded": the live
    updates closed on a stop, as they always are, left out of the log."""
    return "timeout graceful shutdown exceeded" not in record.getMessage()


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
