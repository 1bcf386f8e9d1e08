"""Requests beyond diagnostics: reading aids, editing aids, and the scoring commands.  Each
handler fetches the live document, calls the core, converts."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Generator
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from m2lsp import highlighting, reading
from m2lsp.lsp import convert
from m2lsp.lsp.server import M2Server, OpenDocument
from m2lsp.model import Format
from m2lsp.taxonomy import TAXONOMIES

log = logging.getLogger(__name__)

SCORE = "m2lsp.score"
SCORE_AGAINST = "m2lsp.scoreAgainst"
CLEAR_SCORES = "m2lsp.clearScores"
FIXED_WORDS = ("REQUIRED", "OPTIONAL", "-NONE-", "noop")
TOKEN_LEGEND = types.SemanticTokensLegend(token_types=list(highlighting.LEGEND),
                                          token_modifiers=[])
PROGRESS_SENTENCES = 1000  # report progress when scoring more sentences than this


def register(server: M2Server) -> None:
    for method, options, handler in _FEATURES:
        server.feature(method, options)(handler) if options else server.feature(method)(handler)
    for name, handler in _COMMANDS:
        server.command(name)(handler)


def _m2(ls: M2Server, uri: str) -> tuple[OpenDocument, Any] | None:
    doc = ls.checked_document(uri)
    if doc is None or doc.live.format is not Format.M2:
        return None
    return doc, doc.live.m2


def hover(ls: M2Server, params: types.HoverParams) -> types.Hover | None:
    found = _m2(ls, params.text_document.uri)
    if found is None:
        return None
    doc, m2 = found
    text = reading.hover(m2, params.position.line, doc.live.lint_context_taxonomy())
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def inlay_hints(ls: M2Server, params: types.InlayHintParams) -> list[types.InlayHint]:
    found = _m2(ls, params.text_document.uri)
    if found is None:
        return []
    doc, m2 = found
    hints = reading.inlay_hints(m2, params.range.start.line, params.range.end.line)
    return [types.InlayHint(position=convert.position(doc.lines, h.line, h.col, ls.encoding),
                            label=h.label, padding_left=True) for h in hints]


def symbols(ls: M2Server, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    found = _m2(ls, params.text_document.uri)
    if found is None:
        return []
    doc, m2 = found
    return [types.DocumentSymbol(
        name=s.name, detail=s.detail, kind=types.SymbolKind.String,
        range=convert.range_of(s.span, doc.lines, ls.encoding),
        selection_range=convert.range_of(s.selection, doc.lines, ls.encoding))
        for s in reading.symbols(m2)]


def folding(ls: M2Server, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    found = _m2(ls, params.text_document.uri)
    if found is None:
        return []
    return [types.FoldingRange(start_line=a, end_line=b)
            for a, b in reading.folding_ranges(found[1])]


def code_actions(ls: M2Server, params: types.CodeActionParams) -> list[types.CodeAction]:
    doc = ls.checked_document(params.text_document.uri)
    if doc is None:
        return []
    first, last = params.range.start.line, params.range.end.line
    out = []
    for found in doc.live.diagnostics_on(first, last):
        if found.fix is None:
            continue
        lsp = convert.diagnostic(found, doc.lines, doc.uri, ls.encoding)
        out.append(types.CodeAction(
            title=f"{found.fix.title} ({found.code})", kind=types.CodeActionKind.QuickFix,
            diagnostics=[lsp], is_preferred=found.fix.applicability.value == "safe",
            edit=convert.workspace_edit(found.fix, doc.uri, doc.lines, ls.encoding)))
    return out


def semantic_tokens(ls: M2Server, params: types.SemanticTokensParams,
                    ) -> types.SemanticTokens:
    return _tokens(ls, params.text_document.uri, 0, None)


def semantic_tokens_range(ls: M2Server, params: types.SemanticTokensRangeParams,
                          ) -> types.SemanticTokens:
    where = params.range
    return _tokens(ls, params.text_document.uri, where.start.line, where.end.line)


def _tokens(ls: M2Server, uri: str, first: int, last: int | None) -> types.SemanticTokens:
    """Tokens in LSP's relative encoding (line delta, start delta, length, type, modifiers)."""
    doc = ls.checked_document(uri)
    if doc is None:
        return types.SemanticTokens(data=[])
    data: list[int] = []
    line = col = 0
    for token in highlighting.tokens(doc.lines, doc.live.format, first, last):
        text = doc.lines[token.line]
        start = convert.to_units(text, token.col, ls.encoding)
        length = convert.to_units(text, token.col + token.length, ls.encoding) - start
        data += [token.line - line, start - col if token.line == line else start, length,
                 int(token.kind), 0]
        line, col = token.line, start
    return types.SemanticTokens(data=data)


def completion(ls: M2Server, params: types.CompletionParams) -> types.CompletionList:
    found = _m2(ls, params.text_document.uri)
    items: list[types.CompletionItem] = []
    if found is not None:
        doc, m2 = found
        row, col = convert.position_in(doc.lines, params.position, ls.encoding)
        line = doc.lines[row] if row < len(doc.lines) else ""
        field = line[:col].count("|||")
        items = _completions(doc, m2, field)
    return types.CompletionList(is_incomplete=False, items=items)


def _completions(doc: OpenDocument, m2: Any, field: int) -> list[types.CompletionItem]:
    kind = types.CompletionItemKind
    if field == 1:  # the error type
        taxonomy = doc.live.lint_context_taxonomy()
        types_ = taxonomy.types if taxonomy is not None else {
            t: m for tax in TAXONOMIES.values() for t, m in tax.types.items()}
        return [types.CompletionItem(label=t, detail=m, kind=kind.EnumMember)
                for t, m in sorted(types_.items())]
    if field == 2:
        return [types.CompletionItem(label="-NONE-", detail="delete", kind=kind.Keyword)]
    if field == 3:
        return [types.CompletionItem(label=w, kind=kind.Keyword) for w in FIXED_WORDS[:2]]
    if field == 4:
        return [types.CompletionItem(label="-NONE-", kind=kind.Keyword)]
    if field == 5:
        ids = sorted({e.annotator.strip() for b in m2.blocks for e in b.edits})
        return [types.CompletionItem(label=i, detail="annotator", kind=kind.Value)
                for i in ids if i]
    return []


def formatting(ls: M2Server, params: types.DocumentFormattingParams) -> list[types.TextEdit]:
    from m2lsp.formatting import format_m2

    found = _m2(ls, params.text_document.uri)
    if found is None:
        return []
    doc, _ = found
    text = doc.live.text
    formatted = format_m2(text)
    if formatted is None or formatted == text:
        return []
    end = convert.position(doc.lines, len(doc.lines) - 1, len(doc.lines[-1]), ls.encoding)
    return [types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end),
                           new_text=formatted)]


# -- scoring -------------------------------------------------------------------------

def _path(value: Any) -> Path:
    if not isinstance(value, str) or not value:
        raise ValueError("expected a path or file URI")
    return Path(to_fs_path(value) if value.startswith("file:") else value)


async def score(ls: M2Server, *args: Any) -> dict[str, Any] | None:
    """[goldUri, systemPath, {metric}?]: score a system file against an open gold document.
    With metric `errant` the system file is hypothesis M2 (default: the `metric` setting)."""
    try:
        gold_uri, system = args[0], _path(args[1])
        text = system.read_bytes().decode("utf-8")
    except (IndexError, ValueError, TypeError) as exc:
        return _fail(ls, f"m2lsp.score expects [goldUri, systemPath]: {exc}")
    except OSError as exc:
        return _fail(ls, f"cannot read the system file {args[1]}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        return _fail(ls, f"the system file {args[1]} is not UTF-8 (byte {exc.start})")
    return await _score(ls, gold_uri, text, _options(args))


def _options(args: tuple[Any, ...]) -> dict[str, Any]:
    return args[2] if len(args) > 2 and isinstance(args[2], dict) else {}


async def score_against(ls: M2Server, *args: Any) -> dict[str, Any] | None:
    """[goldUri, systemUri, {metric}?]: score an open system document against an open gold
    one."""
    try:
        gold_uri, system_uri = args[0], args[1]
    except (IndexError, TypeError):
        return _fail(ls, "m2lsp.scoreAgainst expects [goldUri, systemUri]")
    system = ls.documents.get(system_uri)
    if system is None:
        return _fail(ls, f"the system document {system_uri} is not open")
    return await _score(ls, gold_uri, system.live.text, _options(args))


async def _score(ls: M2Server, gold_uri: Any, system_text: str, options: dict[str, Any]
                 ) -> dict[str, Any] | None:
    metric = options.get("metric", ls.config.score.metric)
    doc = ls.checked_document(gold_uri) if isinstance(gold_uri, str) else None
    if metric == "cged" and doc is not None and doc.live.format in (Format.TRUTH,
                                                                    Format.CGED):
        return _score_cged(ls, doc, system_text)
    if doc is None or doc.live.format is not Format.M2:
        return _fail(ls, f"the gold document {gold_uri} is not an open M2 document")
    if metric == "errant":
        return await _score_errant(ls, doc, system_text)
    if metric != "m2":
        return _fail(ls, f"metric {metric!r} cannot score in the editor here (m2 or errant "
                         "on an M2 gold, cged on a truth file)")
    return await _score_m2(ls, doc, system_text)


async def _score_m2(ls: M2Server, doc: OpenDocument, system_text: str
                    ) -> dict[str, Any] | None:
    from m2lsp.errors import M2lspError
    from m2lsp.parsing.source import SourceText
    from m2lsp.scoring.in_editor import score_diagnostics
    from m2lsp.scoring.m2.inputs import read_gold, read_system
    from m2lsp.scoring.m2.maxmatch import M2Settings, evaluate_in_steps

    gold_uri = doc.uri
    settings = M2Settings(ls.config.score.max_unchanged_words, ls.config.score.beta,
                          ls.config.score.ignore_whitespace_casing)
    try:
        gold = read_gold(doc.live.m2, SourceText(doc.live.text), gold_uri)
        hypotheses = read_system(SourceText(system_text))
    except M2lspError as exc:
        return _fail(ls, f"cannot score: {exc}")
    if len(gold) != len(hypotheses):
        return _fail(ls, f"cannot score: the gold has {len(gold)} sentences but the system "
                         f"{len(hypotheses)} lines")
    result = await _evaluate(ls, doc, len(gold), evaluate_in_steps(gold, hypotheses, settings))
    if result is None:
        return _fail(ls, "the gold document changed while it was scored; score again")
    doc.scores = score_diagnostics(result, doc.live.m2)
    ls.refresh(doc.uri)
    s = result.score
    ls.window_show_message(types.ShowMessageParams(
        type=types.MessageType.Info,
        message=f"P {s.precision:.4f}  R {s.recall:.4f}  F{settings.beta:g} {s.f:.4f}  "
                f"({s.signature})"))
    return {"precision": s.precision, "recall": s.recall, "f": s.f,
            "signature": s.signature, "correct": s.counts.correct,
            "proposed": s.counts.proposed, "gold": s.counts.gold}


async def _score_errant(ls: M2Server, doc: OpenDocument, system_text: str
                        ) -> dict[str, Any] | None:
    from m2lsp.errors import M2lspError
    from m2lsp.scoring.errant.compare import ErrantSettings
    from m2lsp.scoring.errant.compare import evaluate_in_steps as errant_steps
    from m2lsp.scoring.errant.inputs import check_pair, read_blocks
    from m2lsp.scoring.in_editor import errant_diagnostics

    settings = ErrantSettings(beta=ls.config.score.beta)
    try:
        hyp = read_blocks(system_text, "system")
        ref = read_blocks(doc.live.text, doc.uri)
        warning = check_pair(hyp, ref, "system", doc.uri)
    except M2lspError as exc:
        return _fail(ls, f"cannot score: {exc}")
    if warning:
        log.warning(warning)
    result = await _evaluate(ls, doc, len(ref), errant_steps(hyp, ref, settings))
    if result is None:
        return _fail(ls, "the gold document changed while it was scored; score again")
    doc.scores = errant_diagnostics(result, doc.live.m2)
    ls.refresh(doc.uri)
    p, r, f = result.scores
    signature = settings.signature()
    ls.window_show_message(types.ShowMessageParams(
        type=types.MessageType.Info,
        message=f"P {p}  R {r}  F{settings.beta:g} {f}  ({signature})"))
    return {"precision": p, "recall": r, "f": f, "signature": signature,
            "true_positives": result.tp, "false_positives": result.fp,
            "false_negatives": result.fn}


def _score_cged(ls: M2Server, doc: OpenDocument, system_text: str) -> dict[str, Any] | None:
    """A result file against an open CGED truth file or SGML file (nlptea16cged.jar's
    counting: several errors per sentence)."""
    from m2lsp.errors import M2lspError
    from m2lsp.parsing.cged import parse_cged
    from m2lsp.scoring.cged.inputs import items_from_sgml, read_items
    from m2lsp.scoring.cged.levels import LEVELS, evaluate_2016
    from m2lsp.scoring.in_editor import cged_diagnostics

    try:
        if doc.live.format is Format.CGED:
            truth = items_from_sgml(parse_cged(doc.live.text))
        else:
            truth = read_items(doc.live.text, doc.uri, "truth", strict=False)
        result = read_items(system_text, "system", "result", strict=False)
        scored = evaluate_2016(result, truth)
    except M2lspError as exc:
        return _fail(ls, f"cannot score: {exc}")
    doc.scores = cged_diagnostics(truth, result, doc.live.lines)
    ls.refresh(doc.uri)
    levels = {level: scored.score(level) for level in LEVELS}
    rate = scored.false_positive_rate[0]
    summary = "  ".join(f"{name[:3]} F1 {s.f1:.4f}" for name, s in levels.items())
    ls.window_show_message(types.ShowMessageParams(
        type=types.MessageType.Info, message=f"FPR {rate:.4f}  {summary}  "
        "(CGED|scorer:nlptea16cged)"))
    def number(value: float) -> float | None:  # a 0/0 (NaN) is not JSON
        return None if value != value else value

    return {"false_positive_rate": number(rate), "signature": "CGED|scorer:nlptea16cged",
            **{name: {"accuracy": number(s.accuracy), "precision": number(s.precision),
                      "recall": number(s.recall), "f1": number(s.f1)}
               for name, s in levels.items()}}


async def _evaluate(ls: M2Server, doc: OpenDocument, sentences: int,
                    steps: Generator[int, None, Any]) -> Any:
    """Run a scorer's steps, yielding to the event loop between them (requests and changes
    keep flowing) and reporting progress; None if the gold document changed meanwhile."""
    version = doc.version
    token = await _begin(ls, sentences)
    try:
        while True:
            done = next(steps)
            _report(ls, token, done, sentences)
            await asyncio.sleep(0)
            if doc.version != version or ls.documents.get(doc.uri) is not doc:
                return None
    except StopIteration as finished:
        return finished.value
    finally:
        _end(ls, token)


def _report(ls: M2Server, token: str | None, done: int, total: int) -> None:
    if token is not None:
        ls.work_done_progress.report(token, types.WorkDoneProgressReport(
            message=f"{done}/{total} sentences", percentage=100 * done // max(total, 1)))


async def _begin(ls: M2Server, sentences: int) -> str | None:
    if sentences <= PROGRESS_SENTENCES:
        return None
    token = str(uuid.uuid4())
    try:
        await ls.work_done_progress.create_async(token)
    except Exception:  # a client without window/workDoneProgress/create
        return None
    ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
        title="m2lsp: scoring", message=f"{sentences} sentences", percentage=0))
    return token


def _end(ls: M2Server, token: str | None) -> None:
    if token is not None:
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="scored"))


def clear_scores(ls: M2Server, *args: Any) -> None:
    uris = [a for a in args if isinstance(a, str)] or list(ls.documents)
    for uri in uris:
        doc = ls.documents.get(uri)
        if doc is not None and doc.scores:
            doc.scores = []
            ls.refresh(uri)


def _fail(ls: M2Server, message: str) -> None:
    log.warning(message)
    ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                   message=f"m2lsp: {message}"))
    return None


_FEATURES = (
    (types.TEXT_DOCUMENT_HOVER, None, hover),
    (types.TEXT_DOCUMENT_INLAY_HINT, None, inlay_hints),
    (types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None, symbols),
    (types.TEXT_DOCUMENT_FOLDING_RANGE, None, folding),
    (types.TEXT_DOCUMENT_CODE_ACTION,
     types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]), code_actions),
    (types.TEXT_DOCUMENT_COMPLETION,
     types.CompletionOptions(trigger_characters=["|"]), completion),
    (types.TEXT_DOCUMENT_FORMATTING, None, formatting),
    (types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, TOKEN_LEGEND, semantic_tokens),
    (types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, TOKEN_LEGEND, semantic_tokens_range),
)
_COMMANDS = ((SCORE, score), (SCORE_AGAINST, score_against), (CLEAR_SCORES, clear_scores))
