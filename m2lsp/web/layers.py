"""An annotator's layer, a sentence at a time: what the page shows (tokens, edits, the
linter's findings, the version) and a save (edits as A lines, or a corrected sentence
realigned by `authoring`), refused when based on a stale version.  Pure of HTTP: the views
turn these into responses."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from m2lsp.annotation.from_correction import Engines
from m2lsp.diagnostic import Diagnostic
from m2lsp.errors import UsageError
from m2lsp.model import Block
from m2lsp.web.project import (
    ANNOTATOR,
    Project,
    own_lines,
    version,
)


class Stale(Exception):
    """A save based on another version than the file holds now."""

    def __init__(self, current: dict[str, Any]) -> None:
        super().__init__("stale")
        self.current = current


@dataclass(frozen=True)
class Change:
    """What a save asks for: the version it was based on, and either the sentence's new
    A lines or its corrected text."""

    version: str
    lines: tuple[str, ...] | None = None
    corrected: str | None = None
    untouched: bool = False  # no line at all, not a noop: an undo back to before any save


def change_of(body: Any) -> Change:
    """The change a request body asks for (a UsageError for any other shape)."""
    if not isinstance(body, dict) or not isinstance(body.get("version"), str):
        raise UsageError("the body is a JSON object with the version the change is based on")
    lines, corrected = body.get("edits"), body.get("corrected")
    if (lines is None) == (corrected is None):
        raise UsageError("give either edits (A lines) or corrected (the corrected sentence)")
    if lines is not None and not (isinstance(lines, list) and
                                  all(isinstance(x, str) and "\n" not in x and "\r" not in x
                                      for x in lines)):
        raise UsageError("edits is a list of A lines, one line each")
    if corrected is not None and (not isinstance(corrected, str) or "\n" in corrected):
        raise UsageError("corrected is the corrected sentence, one line")
    untouched = body.get("untouched", False)
    if type(untouched) is not bool or (untouched and lines != []):
        raise UsageError("untouched is true only with no edits (the sentence as before "
                         "its first save)")
    return Change(body["version"], tuple(lines) if lines is not None else None, corrected,
                  untouched)


def shown(project: Project, user: str, number: int) -> dict[str, Any]:
    """Sentence `number` of `user`'s layer as the page shows it."""
    from m2lsp.web.display import sentence_view
    from m2lsp.web.flags import remember
    from m2lsp.web.notes import notes_of

    found = project.store.get(project.layer(user)).block(number)
    tokens = list(found.sentence.tokens if found.sentence else ())
    view = sentence_view(found, ANNOTATOR, project.language)
    found_now, at = findings(found), version(found)
    remember(at, len(found_now))  # for the list's mark
    return {"number": number, "tokens": tokens, "edits": own_lines(found),
            "findings": found_now, "version": at, **view,
            "corrected": _as_written(view["corrected"], tokens),
            "notes": notes_of(project, user, number, found),
            # the source's tokens can be fixed until the curation starts (`retokenising`)
            "retokenisable": not project.gold.exists()}


def _as_written(corrected: str, tokens: list[str]) -> str:
    """The corrected sentence as the annotator types it: char-level Chinese without the
    spaces between its characters (a save splits it into characters again)."""
    from m2lsp.annotation.from_correction import language_of

    return "".join(corrected.split()) if language_of(tokens) == "zh" else corrected


def findings(found: Block) -> list[dict[str, Any]]:
    """The linter's findings on the sentence's block (rows counted from its S line), each
    with its quick fix's title where the page may apply it (`fixable`) and whether the fix
    is safe (what `m2lsp check --fix` applies) or to be checked."""
    from m2lsp.diagnostic import Applicability

    return [{"code": d.code, "message": d.message, "severity": d.severity.label,
             "row": d.span.line, "fix": d.fix.title if fixable(d) and d.fix else None,
             "safe": bool(d.fix and d.fix.applicability == Applicability.SAFE)}
            for d in diagnostics(found)]


def block_text(found: Block) -> str:
    return "".join(line.rstrip("\r\n") + "\n" for line in found.lines)


def diagnostics(found: Block) -> list[Diagnostic]:
    """The linter's diagnostics on the block alone, in the order the page lists them."""
    from m2lsp.linting.run import lint
    from m2lsp.model import Format
    from m2lsp.parsing.source import SourceText

    return list(lint(SourceText(block_text(found)), Format.M2).diagnostics)


def fixable(found: Diagnostic) -> bool:
    """Whether an annotator's page may apply the diagnostic's fix: one that changes their
    A lines only (the S line is the project's source, every annotator's: its tokens are
    fixed by a split or a join)."""
    fix = found.fix
    return fix is not None and not fix.removes_bom and bool(fix.edits) and all(
        e.span.line >= 1 for e in fix.edits)


def save(project: Project, user: str, number: int, change: Change) -> dict[str, Any]:
    """Write the change to `user`'s layer (atomically) and return the sentence as now
    shown; `Stale` (nothing written) when the version is not the file's, or when the file
    changed while the change was made (an editor, git)."""
    from m2lsp.files.writing import WriteRefused

    path = project.layer(user)
    found = project.store.get(path).block(number)
    if change.version != version(found):
        raise Stale(shown(project, user, number))
    lines = _new_lines(found, change, project.engines)  # before the file's lock
    try:
        written = project.store.replace_at(path, number, change.version, lines)
    except WriteRefused:
        written = None
    if written is None:
        raise Stale(shown(project, user, number))
    return shown(project, user, number)


def _new_lines(found: Block, change: Change, engines: Engines) -> list[str]:
    from m2lsp.annotation.from_correction import rewritten_block
    from m2lsp.authoring.edits import realigned
    from m2lsp.authoring.lines import with_lines

    if change.corrected is not None:
        return realigned(found, ANNOTATOR, change.corrected, engines).lines
    if change.untouched:
        return rewritten_block(found, ANNOTATOR, [])
    return with_lines(found, ANNOTATOR, [_checked_line(found, line) for line in change.lines
                                         or ()])


def _checked_line(found: Block, line: str) -> str:
    """An A line for this sentence, given to the layer's annotator (a UsageError for a
    line that is not one, or whose span is outside the sentence)."""
    from m2lsp.authoring.lines import renumbered
    from m2lsp.parsing.m2 import parse_m2

    head = found.lines[0].rstrip("\r\n")
    parsed = parse_m2(f"{head}\n{line}\n").blocks[0]
    if parsed.problems or len(parsed.edits) != 1 or not line.startswith("A "):
        raise UsageError(f"not an A line: {line!r}")
    edit = parsed.edits[0]
    count = len(found.sentence.tokens) if found.sentence else 0
    if not edit.is_noop and not 0 <= edit.start <= edit.end <= count:
        raise UsageError(f"the span {edit.start} {edit.end} is outside the sentence's "
                         f"{count} tokens")
    return renumbered(line, ANNOTATOR)


def warm(engines: Engines | None = None) -> None:
    """Import and run once what a save uses (the parser, the linter, the alignment and
    `engines`), so that the first page to open or save after the server starts does not
    wait for it."""
    from m2lsp.authoring.edits import realigned
    from m2lsp.parsing.m2 import parse_m2

    found = parse_m2("S a b .\n\n").blocks[0]
    findings(found)
    realigned(found, ANNOTATOR, "a c .", engines or Engines())


def is_done(found: Block) -> bool:
    """An annotator has looked at the sentence once it has a line of theirs (a noop says
    it needs no edit)."""
    return bool(own_lines(found))


def listed(project: Project, user: str, numbers: list[int],
           budget: float | None = None) -> dict[str, Any]:
    """The user's sentences `numbers` as their list shows them, each done one with
    `findings` (how many, or None when not counted yet), and how many are `unchecked`."""
    from m2lsp.web.flags import BUDGET, known, remember

    path = project.layer(user)
    rows = project.store.rows(path, numbers)
    index = project.store.get(path)
    until = time.monotonic() + (BUDGET if budget is None else budget)
    unchecked = 0
    for row in rows:
        if row["state"] != "done":
            continue
        row["findings"] = known(str(row["version"]))
        if row["findings"] is None and time.monotonic() < until:
            number = int(str(row["number"]))
            if index.version(number) == row["version"]:  # the index the rows were read from
                count = len(findings(index.block(number)))
                remember(str(row["version"]), count)
                row["findings"] = count
        unchecked += row["findings"] is None
    return {"sentences": rows, "unchecked": unchecked}
