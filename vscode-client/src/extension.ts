// m2lsp for VS Code: a launcher.  It starts `m2lsp serve`, forwards palette commands to the
// server and shows what the server reports: the live score in the status bar
// (m2lsp/scoreChanged) and the "M2 Scores" view (m2lsp/scoreReport).  Every check, fix, score,
// sort and message is the server's.

import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";
import type { RangeData } from "./protocol";
import { ScoresView } from "./scores";
import { DisagreementsView, ProgressStatus, askForText, nextDisagreement } from "./workbench";

let client: LanguageClient | undefined;
let status: vscode.StatusBarItem;
const scores = new Map<string, ScoreStatus>(); // gold uri -> its live score
const view = new ScoresView(() => client);
const disagreements = new DisagreementsView(() => client);
const progress = new ProgressStatus(() => client);

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  status.command = "m2Scores.focus";
  context.subscriptions.push(
    status,
    view.attach(vscode.window.createTreeView("m2Scores", { treeDataProvider: view })),
    vscode.commands.registerCommand("m2lsp.client.scoreAgainstFile", () => scoreAgainstFile()),
    vscode.commands.registerCommand("m2lsp.client.scoreAgainstFileWith",
      () => scoreAgainstFile(context.extension.packageJSON)),
    vscode.commands.registerCommand("m2lsp.client.clearScores", clearScores),
    vscode.commands.registerCommand("m2lsp.client.restart", restart),
    vscode.commands.registerCommand("m2lsp.client.nextFalsePositive", () => nextMark("FP")),
    vscode.commands.registerCommand("m2lsp.client.nextMiss", () => nextMark("FN")),
    vscode.commands.registerCommand("m2lsp.client.sortScores", () => view.chooseSort()),
    vscode.commands.registerCommand("m2lsp.client.filterScores", () => view.chooseType()),
    vscode.commands.registerCommand("m2lsp.client.refreshScores", () => view.refresh()),
    vscode.commands.registerCommand("m2lsp.client.reveal", reveal),
    vscode.commands.registerCommand("m2lsp.client.openReport", openReport),
    vscode.commands.registerCommand("m2lsp.client.explainAgainstFile", explainAgainstFile),
    vscode.commands.registerCommand("m2lsp.client.nextDisagreement", () => nextDisagreement(client, "next")),
    vscode.commands.registerCommand("m2lsp.client.previousDisagreement", () => nextDisagreement(client, "previous")),
    vscode.commands.registerCommand("m2lsp.client.refreshDisagreements", () => disagreements.refresh()),
    vscode.window.onDidChangeActiveTextEditor(() => showStatus()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("m2lsp.server")) {
        void restart();
      }
    }),
  );
  disagreements.attach(context);
  progress.attach(context);
  await start();
  // the file whose opening activated the extension is already active: no editor change
  // will fill the views for it
  void progress.show();
  void disagreements.refresh();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}

/** The server's command line: the setting, else the Python extension's interpreter, else
 * python3. */
async function serverCommand(): Promise<string[]> {
  const configured = vscode.workspace.getConfiguration("m2lsp").get<string[]>("server.command");
  if (configured && configured.length > 0) {
    return configured;
  }
  const python = await pythonInterpreter();
  return [python ?? "python3", "-m", "m2lsp", "serve"];
}

async function pythonInterpreter(): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension("ms-python.python");
  if (!extension) {
    return undefined;
  }
  try {
    const api = await extension.activate();
    const path = api?.environments?.getActiveEnvironmentPath?.()?.path;
    return typeof path === "string" && path.length > 0 ? path : undefined;
  } catch {
    return undefined;
  }
}

async function start(): Promise<void> {
  const [command, ...args] = await serverCommand();
  const serverOptions: ServerOptions = { command, args };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: "gec-m2" },
      { language: "gec-cged" },
      { language: "gec-cged-truth" },
      { language: "gec-cged-input" },
      { language: "gec-multigec" },
      { language: "gec-ua-gec" },
      // system outputs: the server keeps them (it does not check them) so that a live
      // score follows their edits and marks their words
      { language: "plaintext", scheme: "file" },
    ],
    synchronize: { configurationSection: "m2lsp" },
    middleware: { executeCommand: (command, args, next) => afterCuration(command, askForText(command, args, next)) },
  };
  client = new LanguageClient("m2lsp", "m2lsp", serverOptions, clientOptions);
  client.onNotification("m2lsp/scoreChanged", (score: ScoreStatus) => {
    if (score.cleared) {
      scores.delete(score.uri);
    } else {
      scores.set(score.uri, score);
    }
    view.scored(score.uri, !score.cleared);
    showStatus();
  });
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    const fix = `Install it with \`${command} -m pip install m2lsp\`, or set m2lsp.server.command.`;
    const choice = await vscode.window.showErrorMessage(
      `m2lsp: the server did not start (${command} ${args.join(" ")}): ${String(error)}. ${fix}`,
      "Open Settings",
    );
    if (choice === "Open Settings") {
      await vscode.commands.executeCommand("workbench.action.openSettings", "m2lsp.server.command");
    }
  }
}

/** A decision of the curator (m2lsp.curate) changes the gold's progress and its open
 * sentences even where the gold's text stays the same: both views asked again. */
async function afterCuration(command: string, answer: unknown): Promise<unknown> {
  const done = await answer;
  if (command === "m2lsp.curate") {
    void progress.show();
    void disagreements.refresh();
  }
  return done;
}

async function restart(): Promise<void> {
  if (client) {
    await client.stop();
    client = undefined;
  }
  await start();
}

interface ScoreStatus {
  uri: string;
  system?: string;
  cleared?: boolean;
  error?: string;
  f?: number;
  precision?: number;
  recall?: number;
  beta?: number;
  signature?: string;
  warnings?: string[];
}

/** The live score of the gold (or system) in the active editor; hidden elsewhere. */
function showStatus(): void {
  const uri = vscode.window.activeTextEditor?.document.uri.toString();
  const score = [...scores.values()].find((s) => s.uri === uri || s.system === uri);
  if (!score) {
    status.hide();
    return;
  }
  if (score.error !== undefined) {
    status.text = "$(warning) M2: not scored";
    status.tooltip = score.error;
  } else {
    status.text = `F${score.beta} ${score.f?.toFixed(4)}`;
    status.tooltip = `P ${score.precision?.toFixed(4)}  R ${score.recall?.toFixed(4)}\n` +
      `${score.signature ?? ""}${(score.warnings ?? []).map((w) => `\nwarning: ${w}`).join("")}`;
  }
  status.show();
}

/** Score the active gold file against a system file chosen in a dialog, with the `metric`
 * setting's metric, or (given the extension's manifest) one picked from the metrics the
 * setting offers. */
async function scoreAgainstFile(manifest?: any): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor) {
    void vscode.window.showWarningMessage("m2lsp: open a gold file (M2 or CGED) first.");
    return;
  }
  let options: { metric?: string } = {};
  if (manifest) {
    const metrics: string[] = manifest.contributes.configuration.properties["m2lsp.metric"].enum;
    const metric = await vscode.window.showQuickPick(metrics, { title: "Metric to score with" });
    if (!metric) {
      return;
    }
    options = { metric };
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: "Score",
    title: "System output to score against this gold file",
  });
  if (!picked || picked.length === 0) {
    return;
  }
  const result = (await client.sendRequest(ExecuteCommandRequest.type, {
    command: "m2lsp.score",
    arguments: [editor.document.uri.toString(), picked[0].fsPath, options],
  })) as (ScoreStatus & { live?: boolean }) | null;
  if (result && typeof result.f === "number" && !result.live) {
    // a metric scored once (errant, cged): its numbers, until the next score or clear
    const beta = /beta:([0-9.]+)/.exec(result.signature ?? "")?.[1] ?? "0.5";
    scores.set(editor.document.uri.toString(), { ...result, uri: editor.document.uri.toString(), beta: Number(beta) });
    showStatus();
  }
}

/** "M2: Open Report": the server's report page (`m2lsp.report`, the page `m2lsp report`
 * writes) for the active gold file and the chosen system files, in a webview; a sentence's
 * gold line, clicked in the page, is shown in the editor. */
async function openReport(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor) {
    void vscode.window.showWarningMessage("m2lsp: open a gold file (M2 or CGED) first.");
    return;
  }
  const gold = editor.document.uri;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: true,
    openLabel: "Report",
    title: "System outputs to compare on this gold file",
  });
  if (!picked || picked.length === 0) {
    return;
  }
  const metric = vscode.workspace.getConfiguration("m2lsp").get<string>("metric");
  const running = client;
  const answer = (await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: "m2lsp: scoring the systems for the report…" },
    () => running.sendRequest(ExecuteCommandRequest.type, {
      command: "m2lsp.report",
      arguments: [gold.toString(), picked.map((uri) => uri.fsPath), { metric }],
    }),
  )) as { html?: string; error?: string } | null;
  if (!answer || typeof answer.html !== "string") {
    void vscode.window.showErrorMessage(`m2lsp: no report: ${answer?.error ?? "the server did not answer"}`);
    return;
  }
  const name = gold.path.split("/").pop() ?? gold.toString();
  const panel = vscode.window.createWebviewPanel("m2lspReport", `M2 Report: ${name}`,
    vscode.ViewColumn.Beside, { enableScripts: true, retainContextWhenHidden: true });
  panel.webview.html = answer.html;
  panel.webview.onDidReceiveMessage(async (message: { command?: string; line?: number }) => {
    if (message?.command === "reveal" && typeof message.line === "number") {
      const document = await vscode.workspace.openTextDocument(gold);
      const shown = await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
      const where = new vscode.Position(message.line, 0);
      shown.selection = new vscode.Selection(where, where);
      shown.revealRange(new vscode.Range(where, where), vscode.TextEditorRevealType.AtTop);
    }
  });
}

/** "M2: Explain a System's Edits…": the server's `m2lsp.explain` for the active gold file
 * and a system file, with the `metric` setting's metric and a chosen attributor; the server
 * shows each edit's share as inlay hints and on hover. */
async function explainAgainstFile(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor) {
    void vscode.window.showWarningMessage("m2lsp: open a gold file (M2) first.");
    return;
  }
  const attributor = await vscode.window.showQuickPick(["add", "sub", "shapley", "shapley-sampling"],
    { title: "How to share each sentence's score among its edits" });
  const picked = attributor && await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: "Explain",
    title: "System output whose edits to explain on this gold file",
  });
  if (!picked || picked.length === 0) {
    return;
  }
  const metric = vscode.workspace.getConfiguration("m2lsp").get<string>("metric");
  const running = client;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: "m2lsp: attributing the system's scores to its edits…" },
    () => running.sendRequest(ExecuteCommandRequest.type, {
      command: "m2lsp.explain",
      arguments: [editor.document.uri.toString(), picked[0].fsPath, { metric, attributor }],
    }),
  );
}

async function clearScores(): Promise<void> {
  if (client) {
    await client.sendRequest(ExecuteCommandRequest.type, { command: "m2lsp.clearScores", arguments: [] });
  }
  scores.clear();
  view.scored(undefined, false);
  status.hide();
}

/** The next wrong (FP) or missed (FN) edit after the cursor, as the server finds it. */
async function nextMark(kind: "FP" | "FN"): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor) {
    return;
  }
  const found = (await client.sendRequest(ExecuteCommandRequest.type, {
    command: "m2lsp.nextScoreMark",
    arguments: [editor.document.uri.toString(), { line: editor.selection.active.line, character: editor.selection.active.character }, kind],
  })) as { uri: string; range: RangeData; message: string } | null;
  if (!found) {
    void vscode.window.showInformationMessage(`m2lsp: no ${kind === "FP" ? "false positive" : "missed edit"} in this score.`);
    return;
  }
  await reveal(found.uri, found.range);
  vscode.window.setStatusBarMessage(found.message, 8000);
}

// keepFocus: from a row of the M2 Scores view, which keeps the keyboard (arrow keys walk on)
async function reveal(uri: string, range: RangeData, keepFocus = false): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  const editor = await vscode.window.showTextDocument(document, { preview: false, preserveFocus: keepFocus });
  const where = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
  editor.selection = new vscode.Selection(where.start, where.end);
  editor.revealRange(where, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
