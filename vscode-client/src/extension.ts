// m2lsp for VS Code: a launcher.  It starts `m2lsp serve` and forwards three palette
// commands to the server; every check, fix and score is the server's.

import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;
let status: vscode.StatusBarItem;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  status.command = "m2lsp.client.scoreAgainstFile";
  context.subscriptions.push(
    status,
    vscode.commands.registerCommand("m2lsp.client.scoreAgainstFile", scoreAgainstFile),
    vscode.commands.registerCommand("m2lsp.client.clearScores", clearScores),
    vscode.commands.registerCommand("m2lsp.client.restart", restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("m2lsp.server")) {
        void restart();
      }
    }),
  );
  await start();
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
    ],
    synchronize: { configurationSection: "m2lsp" },
  };
  client = new LanguageClient("m2lsp", "m2lsp", serverOptions, clientOptions);
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

async function restart(): Promise<void> {
  if (client) {
    await client.stop();
    client = undefined;
  }
  await start();
}

interface Score {
  f?: number;
  precision?: number;
  recall?: number;
  signature?: string;
}

async function scoreAgainstFile(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor) {
    void vscode.window.showWarningMessage("m2lsp: open a gold file (M2 or CGED) first.");
    return;
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
    arguments: [editor.document.uri.toString(), picked[0].fsPath],
  })) as Score | null;
  if (result && typeof result.f === "number") {
    const beta = /beta:([0-9.]+)/.exec(result.signature ?? "")?.[1] ?? "0.5";
    status.text = `F${beta} ${result.f.toFixed(4)}`;
    status.tooltip = `P ${result.precision?.toFixed(4)}  R ${result.recall?.toFixed(4)}\n${result.signature ?? ""}`;
    status.show();
  }
}

async function clearScores(): Promise<void> {
  if (client) {
    await client.sendRequest(ExecuteCommandRequest.type, { command: "m2lsp.clearScores", arguments: [] });
  }
  status.hide();
}
