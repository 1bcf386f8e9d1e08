"""The language server end to end over stdio (pytest-lsp), pushing diagnostics."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import sys
from collections.abc import Callable

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from m2lsp.cli import main
from m2lsp.editor.highlighting import LEGEND
from tests.conftest import ROOT, shared

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
URI = "file:///work/a.m2"
TEXT = ("S The cat sat on mat .\n"
        "A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"
        "A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0\n"
        "A 9 10|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
        "\n"
        "S It was happy .  \n"
        "A 2 3|||R:ADJ|||glad|||REQUIRED|||-NONE-|||0\n")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(  # progress shown (a score of 1,312 sentences)
            window=types.WindowClientCapabilities(work_done_progress=True)),
        initialization_options={"m2lsp": {"beta": 0.5, "max-unchanged-words": "bad"}}))
    yield
    await lsp_client.shutdown_session()


async def published(client: LanguageClient, uri: str,
                    holds: Callable[[list[types.Diagnostic]], bool] = lambda _: True,
                    timeout: float = 60.0) -> list[types.Diagnostic]:
    """Wait until the diagnostics published for `uri` satisfy `holds` (no race with the
    notification arriving before the wait starts)."""
    async with asyncio.timeout(timeout):
        while uri not in client.diagnostics or not holds(client.diagnostics[uri]):
            await asyncio.sleep(0.01)
    return client.diagnostics[uri]


async def open_doc(client: LanguageClient, text: str = TEXT, uri: str = URI,
                   language: str = "gec-m2") -> list[types.Diagnostic]:
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1,
                                             text=text)))
    return await published(client, uri)


def codes(diagnostics: list[types.Diagnostic]) -> list[tuple[str, int, int, int]]:
    return [(str(d.code), d.range.start.line, d.range.start.character, d.range.end.character)
            for d in diagnostics]


@pytest.mark.asyncio(loop_scope="module")
async def test_diagnostics_on_open_have_exact_ranges_codes_and_links(client: LanguageClient):
    found = await open_doc(client)
    assert codes(found) == [("M102", 3, 2, 6), ("X004", 5, 16, 18)]
    first = found[0]
    assert first.severity == types.DiagnosticSeverity.Error
    assert first.code_description and first.code_description.href.endswith("rules.md#m102")
    assert first.source == "m2lsp"


@pytest.mark.asyncio(loop_scope="module")
async def test_a_change_updates_the_diagnostics(client: LanguageClient):
    await open_doc(client, uri="file:///work/change.m2")
    client.diagnostics.pop("file:///work/change.m2")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri="file:///work/change.m2",
                                                            version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=3, character=2),
                              end=types.Position(line=3, character=6)), text="5 6")]))
    assert codes(await published(client, "file:///work/change.m2")) == [("X004", 5, 16, 18)]


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_tokens_corrections_meaning_and_corrected_sentence(
        client: LanguageClient):
    uri = "file:///work/hover.m2"
    await open_doc(client, TEXT.replace("A 9 10", "A 5 6"), uri=uri)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=1, character=3)))
    assert hover is not None
    value = hover.contents.value  # type: ignore[union-attr]
    assert "`cat` → `dog`" in value
    assert "R:NOUN: " in value and "ERRANT" in value
    assert "Annotator 0: The dog sat on the mat x" in value


@pytest.mark.asyncio(loop_scope="module")
async def test_inlay_hints_symbols_and_folding(client: LanguageClient):
    await open_doc(client, uri="file:///work/nav.m2")
    doc = types.TextDocumentIdentifier(uri="file:///work/nav.m2")
    whole = types.Range(start=types.Position(line=0, character=0),
                        end=types.Position(line=7, character=0))
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc, range=whole))
    assert [(h.position.line, h.position.character, h.label) for h in hints
            if h.kind is None] == [(1, 5, "cat → dog"), (2, 5, "∅ → the"), (6, 5, "happy → glad")]
    # each token's number before it, in the block of the cursor (here: of the last edit)
    assert [(h.position.line, h.position.character, h.label) for h in hints if h.kind] == [
        (0, 2, "0"), (0, 6, "1"), (0, 10, "2"), (0, 14, "3"), (0, 17, "4"), (0, 21, "5")]
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc))
    assert [s.name for s in symbols] == ["progress", "1: The cat sat on mat .",
                                         "2: It was happy ."]
    assert symbols[0].detail == "annotator 0: 2 of 2 sentences"
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc))
    assert [(f.start_line, f.end_line) for f in folds] == [(0, 3), (5, 6)]


@pytest.mark.asyncio(loop_scope="module")
async def test_semantic_tokens_colour_fields_in_utf16_units(client: LanguageClient):
    text = "S 我们 去\nA 1 2|||S|||𠮷|||REQUIRED|||-NONE-|||0\n"  # 𠮷: two UTF-16 units
    await open_doc(client, text, uri="file:///work/tokens.m2")
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
        text_document=types.TextDocumentIdentifier(uri="file:///work/tokens.m2")))
    rows, line, col = [], 0, 0
    data = list(tokens.data)
    for i in range(0, len(data), 5):
        delta_line, delta_col, length, kind, _ = data[i:i + 5]
        line, col = line + delta_line, (col if delta_line == 0 else 0) + delta_col
        rows.append((line, col, length, LEGEND[kind]))
    assert rows[:6] == [(0, 0, 1, "keyword"), (1, 0, 1, "keyword"), (1, 2, 1, "number"),
                        (1, 4, 1, "number"), (1, 5, 3, "operator"), (1, 8, 1, "type")]
    assert (1, 12, 2, "string") in rows and rows[-1] == (1, 37, 1, "parameter")


@pytest.mark.asyncio(loop_scope="module")
async def test_code_action_fixes_trailing_whitespace(client: LanguageClient):
    await open_doc(client, uri="file:///work/fix.m2")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri="file:///work/fix.m2"),
        range=types.Range(start=types.Position(line=5, character=0),
                          end=types.Position(line=5, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    fixes = [a for a in actions if isinstance(a, types.CodeAction) and a.edit is not None]
    assert len(fixes) == 1
    [change] = fixes[0].edit.document_changes  # type: ignore[misc, union-attr]
    # for this version: a client whose text moved on refuses it
    assert (change.text_document.uri, change.text_document.version) == (  # type: ignore
        "file:///work/fix.m2", 1)
    edit = change.edits[0]  # type: ignore[union-attr]
    assert (edit.range.start.character, edit.range.end.character, edit.new_text) == (16, 18, "")


@pytest.mark.asyncio(loop_scope="module")
async def test_unknown_type_gets_a_did_you_mean_quick_fix(client: LanguageClient):
    uri = "file:///work/types.m2"
    found = await open_doc(client, TEXT.replace("R:ADJ", "R:ADJJ"), uri=uri)
    assert any(str(d.code) == "M405" and "did you mean 'R:ADJ'" in d.message for d in found)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=6, character=0),
                          end=types.Position(line=6, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    fix = next(a for a in actions if "M405" in a.title)
    assert not fix.is_preferred  # a guess: offered, never preferred
    assert fix.edit.document_changes[0].edits[0].new_text == "R:ADJ"  # type: ignore


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_of_types_and_annotators(client: LanguageClient):
    await open_doc(client, uri="file:///work/complete.m2")
    doc = types.TextDocumentIdentifier(uri="file:///work/complete.m2")
    types_ = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=types.Position(line=1, character=8)))
    labels = [i.label for i in types_.items]  # type: ignore[union-attr]
    # a span with a correction: replacements only (M: fits an insertion, U: a deletion)
    assert "R:NOUN" in labels and not any(t.startswith(("M:", "U:")) for t in labels)
    item = types_.items[0]  # type: ignore[union-attr]
    assert (item.text_edit.range.start.character, item.text_edit.range.end.character) == (
        8, 14)  # the whole type field, R:NOUN
    ids = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=types.Position(line=1, character=43)))
    assert [i.label for i in ids.items] == ["0"]  # type: ignore[union-attr]


@pytest.mark.asyncio(loop_scope="module")
async def test_formatting_is_canonical_and_keeps_content(client: LanguageClient):
    text = ("S a  b c\n"
            "A 1 2|||X|||y|||REQUIRED|||-NONE-|||1\n"
            "A 0 1|||X|||z|||REQUIRED|||-NONE-|||0\n\n\n"
            "S d\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0")
    await open_doc(client, text, uri="file:///work/format.m2")
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri="file:///work/format.m2"),
        options=types.FormattingOptions(tab_size=4, insert_spaces=True)))
    assert edits and edits[0].new_text == (
        "S a b c\nA 0 1|||X|||z|||REQUIRED|||-NONE-|||0\n"
        "A 1 2|||X|||y|||REQUIRED|||-NONE-|||1\n\n"
        "S d\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")


@pytest.mark.asyncio(loop_scope="module")
async def test_the_server_survives_bad_input(client: LanguageClient):
    found = await open_doc(client, "A x|||\x00\ufffd" + "S " + "w " * 200_000,
                           uri="file:///work/bad.m2")
    assert found  # diagnostics, not a crash
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=["file:///work/a.m2", "/nonexistent/system.txt"]))
    assert result is None
    assert "cannot read the system file" in client.messages[-1].message
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[42]))
    assert result is None
    assert "expects [goldUri, systemPath]" in client.messages[-1].message
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri="file:///work/unknown.m2"),
        position=types.Position(line=99, character=99)))
    assert hover is None


@pytest.mark.asyncio(loop_scope="module")
async def test_cged_documents_are_checked(client: LanguageClient):
    text = ('<DOC>\n<TEXT id="1">\nabc\n</TEXT>\n'
            '<ERROR start_off="9" end_off="9" type="R"></ERROR>\n</DOC>\n')
    found = await open_doc(client, text, uri="file:///work/a.sgml", language="gec-cged")
    assert [d.code for d in found] == ["C006"]


@pytest.mark.asyncio(loop_scope="module")
async def test_score_command_equals_the_cli_and_annotates_the_gold(client: LanguageClient):
    gold = shared("conll2014/gold/official-2014.combined.m2")
    system = shared("conll2014/systems/CAMB")
    uri = gold.as_uri()
    await open_doc(client, gold.read_text("utf-8"), uri=uri)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(system)]))
    expected = shared("conll2014/expected/m2scorer-3.2/CAMB.txt").read_text("utf-8")
    printed = {line.split(":")[0].strip(): line.split(":")[1].strip()
               for line in expected.splitlines() if ":" in line}
    assert f"{result['precision']:.4f}" == printed["Precision"]
    assert f"{result['recall']:.4f}" == printed["Recall"]
    assert f"{result['f']:.4f}" == printed["F_0.5"]
    assert result["signature"].startswith("M2|beta:0.5|max-unchanged:2")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["score", "--format", "json", str(system), str(gold)])
    assert result["signature"] == json.loads(out.getvalue())["signature"]  # same words
    found = await published(client, uri, lambda ds: any(d.source == "m2lsp-score" for d in ds))
    scored = [d for d in found if d.source == "m2lsp-score"]
    kinds = {str(d.code) for d in scored}
    # the whole test set has more FP and FN than max-diagnostics: a note says so on top
    assert {"FN", "FP", "max-diagnostics"} == kinds
    assert scored[0].range.start.line == 0 and "more of" in scored[0].message
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.clearScores", arguments=[uri]))
    await published(client, uri, lambda ds: all(d.source != "m2lsp-score" for d in ds))


@pytest.mark.asyncio(loop_scope="module")
async def test_score_against_an_open_system_document_with_progress(client: LanguageClient):
    gold = shared("conll2014/gold/official-2014.combined.m2")
    system = shared("conll2014/systems/AMU")
    gold_uri, system_uri = gold.as_uri(), "file:///work/AMU.txt"
    await open_doc(client, gold.read_text("utf-8"), uri=gold_uri)
    # a system's output has no format m2lsp checks: kept for scoring, no diagnostics
    assert not await open_doc(client, system.read_text("utf-8"), uri=system_uri,
                              language="plaintext")
    before = set(client.progress_reports)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.scoreAgainst", arguments=[gold_uri, system_uri]))
    expected = shared("conll2014/expected/m2scorer-3.2/AMU.txt").read_text("utf-8")
    assert f"F_0.5       : {result['f']:.4f}" in expected
    assert f"Precision   : {result['precision']:.4f}" in expected
    reports = [client.progress_reports[t] for t in set(client.progress_reports) - before]
    assert len(reports) == 1  # the gold has 1,312 sentences: progress is reported
    kinds = [type(r).__name__ for r in reports[0]]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd"
    assert "WorkDoneProgressReport" in kinds
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.scoreAgainst", arguments=[gold_uri, "file:///work/closed.txt"]))
    assert result is None and "is not open" in client.messages[-1].message


@pytest.mark.asyncio(loop_scope="module")
async def test_score_command_with_the_errant_metric(client: LanguageClient):
    """The same command, metric errant, on a hypothesis M2 file: a live score with the
    numbers and the TP/FP/FN alignments of `m2lsp score --metric errant --format json`;
    each found or missed edit's mark points at its reference line."""
    ref, hyp = shared("mucgec/demo.ref.m2.char"), shared("mucgec/demo.hyp.m2.char")
    uri = ref.as_uri()
    await open_doc(client, ref.read_text("utf-8"), uri=uri)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(hyp), {"metric": "errant"}]))
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["score", "--metric", "errant", "--format", "json", str(hyp), str(ref)])
    expected = json.loads(out.getvalue())
    assert (result["precision"], result["recall"], result["f"]) == (
        expected["precision"], expected["recall"], expected["f"])
    assert result["signature"] == expected["signature"] and result["live"]
    found = await published(client, uri, lambda ds: any(d.source == "m2lsp-score" for d in ds))
    scored = [d for d in found if d.source == "m2lsp-score"]
    for code, key in (("TP", "true_positives"), ("FP", "false_positives"),
                      ("FN", "false_negatives")):
        assert sum(str(d.code) == code for d in scored) == sum(
            len(s[key]) for s in expected["sentences"]), code
    missed = {d.related_information[0].location.range.start.line + 1 for d in scored
              if str(d.code) == "FN"}
    assert missed == {e["line"] for s in expected["sentences"] for e in s["false_negatives"]}
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    lenses = [lens for lens in lenses if " agree: " not in lens.command.title]  # scores'
    assert len(lenses) == len(expected["sentences"])


@pytest.mark.asyncio(loop_scope="module")
async def test_score_command_on_a_cged_truth_file(client: LanguageClient):
    """metric cged: a result file against an open truth file, counted as nlptea16cged.jar
    counts (the recorded HSK example: identification 0.8 / 0.8, position 2/6, 2/5)."""
    folder = shared("cged/cged2016/nlptea16cged_release1.0/Evaluation/HSK_Truth.txt").parent
    truth, result = folder / "HSK_Truth.txt", folder / "HSK_OutputFile.txt"
    uri = truth.as_uri()
    await open_doc(client, truth.read_text("utf-8"), uri=uri, language="gec-cged-truth")
    found = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(result), {"metric": "cged"}]))
    assert found["false_positive_rate"] == 0
    assert (found["identification"]["precision"], found["identification"]["recall"]) == (0.8,
                                                                                          0.8)
    assert found["position"]["precision"] == pytest.approx(2 / 6)
    scored = [d for d in await published(
        client, uri, lambda ds: any(d.source == "m2lsp-score" for d in ds))
        if d.source == "m2lsp-score"]
    # truth lines: 481 S 6-7 (missed), 481 R 8-8 (found), 464 correct (TN), 1261 M 9-9
    # (found), 1261 S 16-16 (missed), 1320 W 19-25 (missed)
    assert [(d.range.start.line, str(d.code)) for d in scored] == [
        (0, "FN"), (1, "TP"), (2, "TN"), (3, "TP"), (4, "FN"), (5, "FN")]


@pytest.mark.asyncio(loop_scope="module")
async def test_score_command_on_a_cged_sgml_file(client: LanguageClient, tmp_path):
    sgml = ('<DOC>\n<TEXT id="s1">我送你那裡</TEXT>\n'
            '<ERROR start_off="4" end_off="4" type="M" answer="到"></ERROR>\n'
            '<ERROR start_off="1" end_off="2" type="W"></ERROR>\n</DOC>\n'
            '<DOC>\n<TEXT id="s2">他們高興</TEXT>\n</DOC>\n')
    result = tmp_path / "result.txt"
    result.write_text("s1, 4, 4, M, 到\ns2, 2, 2, S\n", encoding="utf-8")
    uri = "file:///work/gold.sgml"
    await open_doc(client, sgml, uri=uri, language="gec-cged")
    found = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(result), {"metric": "cged"}]))
    assert found["false_positive_rate"] == 1.0 and found["detection"]["recall"] == 1.0
    scored = [d for d in await published(
        client, uri, lambda ds: any(d.source == "m2lsp-score" for d in ds))
        if d.source == "m2lsp-score"]
    assert [(d.range.start.line, str(d.code)) for d in scored] == [(2, "TP"), (3, "FN"),
                                                                  (6, "FP")]


@pytest.mark.asyncio(loop_scope="module")
async def test_related_information_points_at_the_other_edit(client: LanguageClient):
    uri = "file:///work/annotated.m2"
    found = await open_doc(client, (ROOT / "examples" / "annotated.m2").read_text("utf-8"),
                           uri=uri)
    repeated = next(d for d in found if d.code == "M402")
    [related] = repeated.related_information
    assert (related.location.uri, related.location.range.start.line) == (uri, 8)
    assert related.message == "first occurrence" and repeated.range.start.line == 9


@pytest.mark.asyncio(loop_scope="module")
async def test_gleu_on_an_open_source_file(client: LanguageClient):
    src = shared("jfleg/test/test.src")
    refs = [str(shared(f"jfleg/test/test.ref{k}")) for k in range(4)]
    uri = src.as_uri()
    assert not await open_doc(client, src.read_text("utf-8"), uri=uri, language="plaintext")
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(src), {"metric": "gleu",
                                                          "references": refs}]))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", "--metric", "gleu", str(src), "--source", str(src), "--ref",
                     *refs, "--format", "json"]) == 0
    assert result["gleu"] == json.loads(out.getvalue())["gleu"]
    assert result["signature"].startswith("GLEU|refs:4|")
    found = await published(client, uri, lambda ds: len(ds) == 747)
    assert found[0].message.startswith("GLEU ") and found[0].severity == 4  # hints
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(src), {"metric": "gleu"}]))
    assert result is None and "references" in client.messages[-1].message


@pytest.mark.asyncio(loop_scope="module")
async def test_cged_scores_follow_the_result_as_it_is_typed(client: LanguageClient):
    """A live CGED score: the open result corrected line by line, the position level
    follows (the recorded HSK example: 2/6 position precision, then 3/6, then 4/6)."""
    folder = shared("cged/cged2016/nlptea16cged_release1.0/Evaluation/HSK_Truth.txt").parent
    truth = folder / "HSK_Truth.txt"
    result = (folder / "HSK_OutputFile.txt").read_text("utf-8")
    uri, system_uri = truth.as_uri(), "file:///work/HSK_result.txt"
    await open_doc(client, truth.read_text("utf-8"), uri=uri, language="gec-cged-truth")
    await open_doc(client, result, uri=system_uri, language="plaintext")
    found = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.scoreAgainst", arguments=[uri, system_uri, {"metric": "cged"}]))
    assert found["live"] and found["position"]["precision"] == pytest.approx(2 / 6)
    lines = result.split("\n")
    for version, (row, new) in enumerate([(5, "00038801261, 16, 16, S"),
                                          (6, "00038801320, 19, 25, W")], 2):
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=system_uri,
                                                                version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=row, character=0),
                                  end=types.Position(line=row, character=len(lines[row]))),
                text=new)]))
        lines[row] = new
        report = await client.protocol.send_request_async("m2lsp/scoreReport", {"uri": uri})
        assert report.precision == pytest.approx((version + 1) / 6)
    scored = [d for d in await published(
        client, uri, lambda ds: sum(str(d.code) == "TP" for d in ds) == 4)
        if d.source == "m2lsp-score"]
    assert [(d.range.start.line, str(d.code)) for d in scored] == [
        (0, "FN"), (1, "TP"), (2, "TN"), (3, "TP"), (4, "TP"), (5, "TP")]


@pytest.mark.asyncio(loop_scope="module")
async def test_green_on_an_open_m2_gold(client: LanguageClient):
    """GREEN of CAMB against the open CoNLL-2014 gold: the command's number, a hint with
    each sentence's GREEN on its S line."""
    gold = shared("conll2014/gold/official-2014.combined.m2")
    camb = shared("conll2014/systems/CAMB")
    uri = gold.as_uri()
    await open_doc(client, gold.read_text("utf-8"), uri=uri)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(camb), {"metric": "green"}]))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", "--metric", "green", str(camb), str(gold), "--format",
                     "json"]) == 0
    expected = json.loads(out.getvalue())
    assert result["green"] == expected["green"]
    assert result["signature"] == expected["signature"]
    found = await published(client, uri, lambda ds: sum(d.source == "m2lsp-score"
                                                       for d in ds) == 1312)
    hints = [d for d in found if d.source == "m2lsp-score"]
    assert hints[0].range.start.line == 0 and hints[0].message.startswith("GREEN ")


@pytest.mark.asyncio(loop_scope="module")
async def test_a_multigec_file_is_linted_and_outlined_by_essay(client: LanguageClient,
                                                                tmp_path):
    """A MultiGEC reference opened as Markdown: its essays in the outline, folded, and its
    ids checked against the corpus's original file beside it on disk."""
    (tmp_path / "sv-swell-orig-dev.md").write_text(
        "### essay_id = 1\nHej, jag heter Anna.\n\n### essay_id = 2\nJag bor här.\n",
        encoding="utf-8")
    text = ("### essay_id = 1\nHej! Jag heter Anna.\nOch du?\n\n"
            "### essay_id = 3\nEn uppsats till.\n")
    uri = (tmp_path / "sv-swell-ref1-dev.md").as_uri()
    found = await open_doc(client, text, uri=uri, language="markdown")
    assert [(d.code, d.range.start.line) for d in found] == [("G006", 4)]
    doc = types.TextDocumentIdentifier(uri=uri)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc))
    assert [s.name for s in symbols] == ["essay 1: Hej! Jag heter Anna. Och du?",
                                         "essay 3: En uppsats till."]
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc))
    assert [(f.start_line, f.end_line) for f in folds] == [(0, 2), (4, 5)]
