"""`m2lsp note FILE SENTENCE --text ... [--edit EDIT] [--annotator N] [--unsure]`: a note
on a sentence or an edit, kept beside the M2 file in FILE.notes.jsonl (see
m2lsp.curation.notes); `m2lsp note FILE` lists them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.errors import UsageError


def add_commands(commands: argparse._SubParsersAction) -> None:
    note = commands.add_parser(
        "note", help="attach a comment or an unsure flag to a sentence or an edit",
        description="Append a note to FILE.notes.jsonl, keyed by the sentence's key and the "
        "edit's, so it survives merge, split, curate and re-ordering; without SENTENCE, "
        "list the file's notes.")
    note.add_argument("file", type=Path, help="an M2 file (an annotator's, merged or a gold)")
    note.add_argument("sentence", nargs="?", help="its number (1-based) or key")
    note.add_argument("--edit", metavar="EDIT", help="the edit `START END|||TYPE|||"
                      "CORRECTION` the note is on (default: the whole sentence)")
    note.add_argument("--annotator", help="whose edit (default: whoever made it)")
    note.add_argument("--text", default="", help="the comment")
    note.add_argument("--unsure", action="store_true", help="flag it as unsure")
    note.add_argument("--who", help="who writes (default: git's user.name, or $USER)")
    note.add_argument("--encoding", default=None, help="the file's encoding (detected)")
    note.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from m2lsp.cli.curate import _now, _who
    from m2lsp.curation.keys import EditSpec, sentence_keys
    from m2lsp.curation.notes import SUFFIX, Note, placed, read_notes
    from m2lsp.files.curation import annotators
    from m2lsp.files.writing import write_atomic

    document = annotators([args.file], args.encoding)
    path = Path(str(args.file) + SUFFIX)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if args.sentence is None:
        for p in placed(document, read_notes(text, str(path))):
            sys.stdout.write(_shown(p))
        return EXIT_CLEAN
    keys = sentence_keys(document.blocks)
    key = _key(args.sentence, keys)
    edit = None if args.edit is None else EditSpec.parse(args.edit).key
    if not args.text and not args.unsure:
        raise UsageError("a note needs --text or --unsure")
    new = Note(_who(args), _now(), key, args.text, args.unsure, edit, args.annotator)
    [where] = placed(document, [new])
    if not where.edit_found:
        raise UsageError(f"sentence {args.sentence} has no edit {edit}"
                         + (f" by annotator {args.annotator}" if args.annotator else ""))
    write_atomic(path, (text if not text or text.endswith("\n") else text + "\n")
                 + new.line())
    print(f"m2lsp: noted in {path}", file=sys.stderr)
    return EXIT_CLEAN


def _key(sentence: str, keys: list[str]) -> str:
    if sentence.isdigit() and 1 <= int(sentence) <= len(keys):
        return keys[int(sentence) - 1]
    if sentence in keys:
        return sentence
    raise UsageError(f"there is no sentence {sentence!r} (a number from 1 to {len(keys)}, "
                     "or a key)")


def _shown(p: object) -> str:
    from m2lsp.curation.notes import Placed

    assert isinstance(p, Placed)
    n = p.note
    where = "(sentence gone)" if p.sentence is None else f"sentence {p.sentence + 1}"
    on = f" edit {n.edit}" if n.edit else ""
    gone = " (edit gone)" if p.sentence is not None and not p.edit_found else ""
    flag = " [unsure]" if n.unsure else ""
    return f"{where}{on}{gone}: {n.who}{flag}: {n.text}\n"
