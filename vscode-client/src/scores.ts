// The "M2 Scores" view: the server's m2lsp/scoreReport as a tree (sentences in the order
// the server sorted them, their edits as children; a click reveals the words).  No scoring
// or sorting here: the labels are the server's summaries and messages.

import * as vscode from "vscode";
import { LanguageClient } from "vscode-languageclient/node";
import type { RangeData } from "./protocol";

interface Edit {
  kind: string;
  message: string;
  type: string;
  range: RangeData;
}

interface Sentence {
  index: number;
  line: number;
  summary: string;
  source: string;
  range: RangeData;
  edits: Edit[];
}

interface Report {
  uri: string;
  error?: string;
  sort?: string;
  types?: Record<string, Record<string, number>>;
  sentences: Sentence[];
}

type Node = { sentence: Sentence; uri: string } | { edit: Edit; uri: string } | { note: string };

const ICONS: Record<string, string> = { TP: "pass", FP: "error", FN: "circle-slash" };
const SORTS = [
  { label: "Worst F first", sort: "f" },
  { label: "Most false positives first", sort: "fp" },
  { label: "Most missed edits first", sort: "fn" },
  { label: "File order", sort: "line" },
];

export class ScoresView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private uri: string | undefined;
  private sort = "f";
  private type: string | undefined;
  private report: Report | undefined;
  private timer: NodeJS.Timeout | undefined;

  private tree: vscode.TreeView<Node> | undefined;

  constructor(private readonly client: () => LanguageClient | undefined) {}

  attach(tree: vscode.TreeView<Node>): vscode.TreeView<Node> {
    this.tree = tree;
    return tree;
  }

  /** A gold document's score changed (or was cleared): show it, a moment later. */
  scored(uri: string | undefined, live: boolean): void {
    if (!live && uri !== undefined && uri !== this.uri) {
      return;
    }
    this.uri = live ? uri : undefined;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), 300);
  }

  async refresh(): Promise<void> {
    const client = this.client();
    this.report = undefined;
    if (client && this.uri) {
      this.report = await client.sendRequest<Report>("m2lsp/scoreReport",
        { uri: this.uri, sort: this.sort, type: this.type });
    }
    this.changed.fire(undefined);
    if (this.tree) {
      const rows = this.report?.sentences ?? [];
      const count = (kind: string) => rows.reduce((n, s) => n + s.edits.filter((e) => e.kind === kind).length, 0);
      this.tree.description = rows.length
        ? `${rows.length} sentences · ${count("FP")} FP · ${count("FN")} FN${this.type ? ` · ${this.type}` : ""}`
        : undefined;
    }
  }

  async chooseSort(): Promise<void> {
    const picked = await vscode.window.showQuickPick(SORTS, { title: "Sort the M2 Scores view" });
    if (picked) {
      this.sort = picked.sort;
      await this.refresh();
    }
  }

  async chooseType(): Promise<void> {
    const types = Object.entries(this.report?.types ?? {}).map(([type, counts]) => ({
      label: type, description: Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(", "),
    }));
    const picked = await vscode.window.showQuickPick([{ label: "All types", description: "" }, ...types],
      { title: "Show the edits of one error type" });
    if (picked) {
      this.type = picked.label === "All types" ? undefined : picked.label;
      await this.refresh();
    }
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      if (!this.report) {
        return [{ note: "Score a gold file (M2: Score Against System File…) to review it here." }];
      }
      if (this.report.error) {
        return [{ note: this.report.error }];
      }
      const uri = this.report.uri;
      return this.report.sentences.map((sentence) => ({ sentence, uri }));
    }
    if ("sentence" in node) {
      return node.sentence.edits.map((edit) => ({ edit, uri: node.uri }));
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if ("note" in node) {
      return new vscode.TreeItem(node.note);
    }
    if ("sentence" in node) {
      const s = node.sentence;
      // the sentence's words lead (a row is cut at the view's edge); its numbers follow
      const item = new vscode.TreeItem(s.source,
        s.edits.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.description = `#${s.index + 1} · ${s.summary}`;
      item.tooltip = `#${s.index + 1}: ${s.summary}\n${s.source}`;
      item.command = { command: "m2lsp.client.reveal", title: "Reveal", arguments: [node.uri, s.range, true] };
      return item;
    }
    const e = node.edit;
    const item = new vscode.TreeItem(e.message);
    item.iconPath = new vscode.ThemeIcon(ICONS[e.kind] ?? "circle");
    item.description = e.type;
    item.tooltip = `${e.kind}: ${e.message}`;
    item.command = { command: "m2lsp.client.reveal", title: "Reveal", arguments: [node.uri, e.range, true] };
    return item;
  }
}
