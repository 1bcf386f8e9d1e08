// The annotator's workbench where LSP has no standard UI: asking for what a code action
// carries no text for (a correction, an annotator), the Disagreements view, and each
// annotator's progress in the status bar.  Every edit, type and list is the server's.

import * as vscode from "vscode";
import { ExecuteCommandRequest, LanguageClient } from "vscode-languageclient/node";

type Next = (command: string, args: unknown[]) => unknown;

/** Commands whose code action carries no text: ask for it, then run the server's command.
 * - m2lsp.annotateFromCorrection [uri, line, null, annotator, current]: the corrected
 *   sentence, in an editor of its own (a long sentence is seen whole), prefilled;
 * - m2lsp.addEdit [uri, line, start, end, null, null, annotators, tokens, where]: the
 *   correction of the tokens (prefilled with them), or at a gap (start = end) the words to
 *   insert, and the annotator where the file has several; `where` (the version and sentence
 *   the action was made for) passed on;
 * - m2lsp.splitToken [uri, line, index, null, token, where]: the token cut with spaces,
 *   `where` passed on. */
export async function askForText(command: string, args: unknown[], next: Next): Promise<unknown> {
  if (command === "m2lsp.annotateFromCorrection" && args[2] === null) {
    const text = await editInPlace(`annotator ${String(args[3])}'s corrected sentence`,
      typeof args[4] === "string" ? args[4] : "");
    return text === undefined ? undefined : next(command, [args[0], args[1], text, args[3]]);
  }
  if (command === "m2lsp.splitToken" && args[3] === null) {
    const token = typeof args[4] === "string" ? args[4] : "";
    const pieces = await vscode.window.showInputBox({
      title: `Split token ${String(args[2])}`,
      prompt: `"${token}" with a space where each cut goes (every annotator's edits follow)`,
      value: token,
      ignoreFocusOut: true,
    });
    return pieces === undefined ? undefined : next(command, [args[0], args[1], args[2], pieces, args[4], args[5]]);
  }
  if (command === "m2lsp.addEdit" && args[4] === null) {
    const tokens = typeof args[7] === "string" ? args[7] : "";
    const insertion = args[2] === args[3];
    const correction = await vscode.window.showInputBox({
      title: insertion ? `Insert before token ${String(args[2])}`
        : `Add an edit for tokens ${String(args[2])}–${Number(args[3]) - 1}`,
      prompt: insertion ? "The words to insert" : `What "${tokens}" becomes (empty: deleted)`,
      value: tokens,
      ignoreFocusOut: true,
    });
    if (correction === undefined) {
      return undefined;
    }
    const annotators = Array.isArray(args[6]) ? args[6].map(String) : [];
    const annotator = annotators.length > 1
      ? await vscode.window.showQuickPick(annotators, { title: "Whose edit is it?" })
      : annotators[0];
    return annotator === undefined ? undefined
      : next(command, [args[0], args[1], args[2], args[3], correction, annotator, args[8]]);
  }
  return next(command, args);
}

/** A text edited in an editor of its own beside the file, its long line wrapped; resolved
 * with its text (lines joined by a space) on "Apply", undefined on "Cancel" or when the
 * editor is closed. */
async function editInPlace(what: string, value: string): Promise<string | undefined> {
  const document = await vscode.workspace.openTextDocument({ content: value, language: "plaintext" });
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  if (vscode.workspace.getConfiguration("editor", document).get("wordWrap") === "off") {
    // a sentence is one long line: wrapped in this editor only (the user's setting stays)
    await vscode.commands.executeCommand("editor.action.toggleWordWrap");
  }
  const choice = await vscode.window.showInformationMessage(
    `m2lsp: edit ${what} in the editor beside, then Apply.`, "Apply", "Cancel");
  const text = document.getText().split(/\r?\n/).join(" ").trim();
  if (vscode.window.activeTextEditor?.document === document) {
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  }
  return choice === "Apply" ? text : undefined;
}

interface Edit {
  start: number;
  end: number;
  type: string;
  corrections: string[];
}

interface Disagreement {
  sentence: number;
  line: number; // 1-based
  text: string;
  only: Record<string, Edit[]>;
}

type Row = { disagreement: Disagreement } | { annotator: string; edits: Edit[]; line: number };

/** "Disagreements": each sentence of the active M2 file where the annotators' edit sets
 * differ (m2lsp.disagreements), and under it the edits each annotator has that another
 * lacks; a row shows its sentence, where the code actions adjudicate it. */
export class DisagreementsView implements vscode.TreeDataProvider<Row> {
  private readonly changed = new vscode.EventEmitter<Row | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private found: Disagreement[] = [];
  private uri: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly client: () => LanguageClient | undefined) {}

  attach(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      vscode.window.createTreeView("m2Disagreements", { treeDataProvider: this }),
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.toString() === this.uri) {
          this.later();
        }
      }),
    );
  }

  private later(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => void this.refresh(), 400);
  }

  async refresh(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const client = this.client();
    if (!client || !editor || editor.document.languageId !== "gec-m2") {
      return;
    }
    this.uri = editor.document.uri.toString();
    const answer = (await client.sendRequest(ExecuteCommandRequest.type, {
      command: "m2lsp.disagreements", arguments: [this.uri],
    })) as { disagreements: Disagreement[] } | null;
    this.found = answer?.disagreements ?? [];
    this.changed.fire(undefined);
  }

  getChildren(row?: Row): Row[] {
    if (!row) {
      return this.found.map((disagreement) => ({ disagreement }));
    }
    if ("disagreement" in row) {
      const d = row.disagreement;
      return Object.entries(d.only).map(([annotator, edits]) => ({ annotator, edits, line: d.line }));
    }
    return [];
  }

  getTreeItem(row: Row): vscode.TreeItem {
    if ("disagreement" in row) {
      const d = row.disagreement;
      const item = new vscode.TreeItem(`${d.sentence}: ${d.text}`, vscode.TreeItemCollapsibleState.Collapsed);
      item.description = `line ${d.line}`;
      item.command = this.reveal(d.line);
      return item;
    }
    const shown = row.edits.map((e) => `${e.start} ${e.end} ${e.type} → ${e.corrections.join(" || ") || "-NONE-"}`);
    const item = new vscode.TreeItem(`annotator ${row.annotator} only`);
    item.description = shown.join("; ") || "(nothing the others lack)";
    item.command = this.reveal(row.line);
    return item;
  }

  private reveal(line: number): vscode.Command {
    const where = { start: { line: line - 1, character: 0 }, end: { line: line - 1, character: 0 } };
    return { title: "Show", command: "m2lsp.client.reveal", arguments: [this.uri, where] };
  }
}

/** The next (or previous) disagreement after the cursor, as the server finds it. */
export async function nextDisagreement(client: LanguageClient | undefined, direction: "next" | "previous"): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor) {
    return;
  }
  const found = (await client.sendRequest(ExecuteCommandRequest.type, {
    command: "m2lsp.nextDisagreement",
    arguments: [editor.document.uri.toString(), editor.selection.active.line, direction],
  })) as { line: number; sentence: number } | null;
  if (!found) {
    void vscode.window.showInformationMessage("m2lsp: the annotators agree on every sentence.");
    return;
  }
  const where = new vscode.Position(found.line, 0);
  editor.selection = new vscode.Selection(where, where);
  editor.revealRange(new vscode.Range(where, where), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** "annotator 0: 132 of 200 sentences" of the active M2 file (of a curated gold, "curated
 * 132 of 200"), in the status bar. */
export class ProgressStatus {
  private readonly item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 99);
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly client: () => LanguageClient | undefined) {}

  attach(context: vscode.ExtensionContext): void {
    this.item.command = "m2Disagreements.focus";
    context.subscriptions.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => void this.show()),
      vscode.workspace.onDidChangeTextDocument(() => {
        if (this.timer) {
          clearTimeout(this.timer);
        }
        this.timer = setTimeout(() => void this.show(), 500);
      }),
    );
  }

  async show(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const client = this.client();
    if (!client || !editor || editor.document.languageId !== "gec-m2") {
      this.item.hide();
      return;
    }
    const found = (await client.sendRequest(ExecuteCommandRequest.type, {
      command: "m2lsp.progress", arguments: [editor.document.uri.toString()],
    })) as { text: string }[] | null;
    if (!found || found.length === 0) {
      this.item.hide();
      return;
    }
    this.item.text = `$(checklist) ${found.map((p) => p.text).join(" · ")}`;
    this.item.tooltip = found.some((p) => p.text.startsWith("curated"))
      ? "m2lsp: the sentences auto-merged or decided, of the curated gold"
      : "m2lsp: the sentences each annotator has written a line in";
    this.item.show();
  }
}
