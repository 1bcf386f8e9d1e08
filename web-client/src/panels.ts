// The panels the curator's and the manager's pages share: the agreement dashboard (what
// `m2lsp agree` prints, and `--against` the gold), a system's output scored against the
// gold (what `m2lsp score --format json` prints, its numbers to four decimals as the
// agreement's, each one's full value in its title and data-value), and the
// gold's and each layer's export. The server computes everything; these only draw it.
import { api, UNREACHABLE_READ } from "./api";
import { change, h, replace, say } from "./dom";

interface Side {
  scored: string; gold: string; tp: number; fp: number; fn: number;
  precision: number; recall: number; f: number;
}
interface TypeRow {
  type: string; first: number; second: number; first_shared: number; second_shared: number;
  agreement: number;
}
interface Pair {
  first: string; second: string; sentences: number; left_out: number;
  forward: Side; backward: Side; mean_f: number;
  needs_correction: { observed: number; expected: number; kappa: number | null };
  types: TypeRow[];
}
interface Agreement { metric: string; beta: number; pairs: Pair[] }
interface SummaryRow {
  annotator: string; sentences: number; shared: number; edits: number; matched: number;
  agreement: number;
}
interface Summary { sentences: number; pairs: number; agreement: number; rows: SummaryRow[] }
interface Dashboard {
  names: string[]; pairs: Agreement | null; summary: Summary | null; gold: Agreement | null;
  unfinished: number | null;
}
interface ScoredEdit {
  start: number; end: number; original?: string; correction?: string; corrections?: string[];
  type?: string;
}
interface ScoredSentence {
  index: number; precision: number; recall: number; f: number;
  true_positives: ScoredEdit[]; false_positives: ScoredEdit[]; false_negatives: ScoredEdit[];
}
interface Score {
  metric: string; signature: string; beta: number; precision: number; recall: number;
  f: number; counts: Record<string, number>; sentences: ScoredSentence[]; sources: string[];
  warnings: string[]; unfinished: number;
}
interface Exportable { gold: boolean; layers: string[]; formats: string[]; unfinished: number }

const FORMATS: Record<string, string> = { "m2": "M2", "bea-json": "BEA-2019 JSON",
                                          "brat": "brat (zip)" };

// The curator's and the manager's panels, in one section appended to `main`; the
// function returned reloads what changes as the team works (the agreement, the exports).
export function panels(main: HTMLElement): () => void {
  const agreement = agreementPanel();
  const exports = exportPanel();
  main.append(h("section", { class: "panels", "aria-label": "Agreement, scores and export" },
    agreement.element, exports.element, scorePanel()));
  return () => { agreement.load(); exports.load(); };
}

interface Panel { element: HTMLElement; load: () => Promise<void> }

// A number as `m2lsp agree` prints it (four decimals; kappa undefined with one answer).
function fixed(value: number | null): string {
  return value === null ? "undefined" : value.toFixed(4);
}

function cell(value: string | number, title?: string): HTMLElement {
  return h("td", { class: "number", title }, String(value));
}

// A table's head; the columns named in `numbers` hold numbers (right-aligned, as theirs).
function head(names: string[], numbers: string[] = []): HTMLElement {
  return h("thead", {}, h("tr", {}, names.map((n) => h("th", {
    scope: "col", class: numbers.includes(n) ? "number" : null }, n))));
}

// A score to four decimals (as `m2lsp agree` prints), the value as it came in its title and
// data-value.
function scoreCell(tag: "td" | "dd", key: string, value: number): HTMLElement {
  return h(tag, { class: tag === "td" ? "number" : null, "data-key": key,
                  "data-value": String(value), title: String(value) }, fixed(value));
}

function fail(e: unknown, where: HTMLElement): void {
  const message = e instanceof Error ? e.message : String(e);
  replace(where, h("p", { class: "error" }, message));
}

// A file picked into a text box (its text, read in the page: nothing is sent yet).
export function fileInto(input: HTMLInputElement, box: HTMLTextAreaElement): void {
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (file) box.value = await file.text();
  });
}

function agreementPanel(): Panel {
  const out = h("div", { id: "agreement" });
  const button = h("button", { type: "button", id: "agreement-refresh" }, "Refresh");
  button.addEventListener("click", () => load());
  async function load(): Promise<void> {
    try {
      const data = await api<Dashboard>("GET", "/api/agreement");
      replace(out, dashboard(data));
    } catch (e) {
      fail(e, out);
    }
  }
  load();
  const element = h("section", { class: "panel wide", "aria-labelledby": "agreement-title" },
    h("h2", { id: "agreement-title" }, "Agreement ", button), out);
  return { load, element };
}

function dashboard(d: Dashboard): HTMLElement[] {
  const name = (id: string) => id === "gold" ? "gold" : d.names[Number(id)] ?? id;
  const out: HTMLElement[] = [];
  if (d.pairs?.pairs.length) out.push(...pairTables(d.pairs, name));
  else if (d.summary) out.push(summaryTable(d.summary, name));
  else out.push(h("p", { class: "empty" }, "No pair of annotators to compare yet."));
  if (d.gold) {
    out.push(goldTable(d.gold, name));
    if (d.unfinished) {
      out.push(h("p", { class: "help", id: "agreement-unfinished" },
        stillToCurate(d.unfinished)));
    }
  } else {
    out.push(h("p", { class: "empty" }, "No gold yet: nothing to compare the layers with."));
  }
  return out;
}

function pairTables(a: Agreement, name: (id: string) => string): HTMLElement[] {
  const f = `F${a.beta}`;
  const sides = (s: Side) => [
    cell(fixed(s.precision)), cell(fixed(s.recall)),
    cell(fixed(s.f), `TP ${s.tp}, FP ${s.fp}, FN ${s.fn}`)];
  const pairs = h("table", { class: "agreement", id: "agreement-pairs" },
    h("caption", {}, `Each pair both ways (${a.metric.toUpperCase()}, ${f}), and Cohen's ` +
      "κ on which sentences need a correction"),
    h("thead", {},
      h("tr", {}, h("td", { colspan: 2 }),
        h("th", { scope: "colgroup", colspan: 3 }, "first against second"),
        h("th", { scope: "colgroup", colspan: 3 }, "second against first"),
        h("td", { colspan: 2 })),
      h("tr", {}, ["Pair", "Sentences", "P", "R", f, "P", "R", f, `mean ${f}`, "κ"].map(
        (n) => h("th", { scope: "col", class: n === "Pair" ? null : "number" }, n)))),
    h("tbody", {}, a.pairs.map((p) => h("tr", { "data-pair": `${name(p.first)}-${name(p.second)}` },
      h("th", { scope: "row" }, `${name(p.first)} · ${name(p.second)}`),
      cell(p.sentences), ...sides(p.forward), ...sides(p.backward), cell(fixed(p.mean_f)),
      cell(fixed(p.needs_correction.kappa), kappaTitle(p))))));
  const types = a.pairs.map((p) => h("details", { class: "types" },
    h("summary", {}, `${name(p.first)} and ${name(p.second)}, per error type`),
    h("table", { class: "agreement", "data-pair": `${name(p.first)}-${name(p.second)}` },
      head(["Type", `by ${name(p.first)}`, `by ${name(p.second)}`, "shared", "agreement"],
           [`by ${name(p.first)}`, `by ${name(p.second)}`, "shared", "agreement"]),
      h("tbody", {}, p.types.map((t) => h("tr", {},
        h("th", { scope: "row" }, t.type), cell(t.first), cell(t.second),
        cell(`${t.first_shared}/${t.second_shared}`), cell(fixed(t.agreement))))))));
  return [pairs, ...types];
}

function kappaTitle(p: Pair): string {
  const { observed, expected } = p.needs_correction;
  return `Cohen's kappa on which sentences need a correction (agree on ${fixed(observed)}, ` +
    `by chance ${fixed(expected)})`;
}

function summaryTable(s: Summary, name: (id: string) => string): HTMLElement {
  return h("table", { class: "agreement", id: "agreement-summary" },
    h("caption", {}, `${s.pairs} pairs on ${s.sentences} sentences: agreement ` +
      `${fixed(s.agreement)}, one row per annotator`),
    head(["Annotator", "Sentences", "Shared", "Edits", "Matched", "Agreement"],
         ["Sentences", "Shared", "Edits", "Matched", "Agreement"]),
    h("tbody", {}, s.rows.map((r) => h("tr", { "data-user": name(r.annotator) },
      h("th", { scope: "row" }, name(r.annotator)), cell(r.sentences), cell(r.shared),
      cell(r.edits), cell(r.matched), cell(fixed(r.agreement))))));
}

function goldTable(a: Agreement, name: (id: string) => string): HTMLElement {
  const f = `F${a.beta}`;
  return h("table", { class: "agreement", id: "agreement-gold" },
    h("caption", {}, `Each annotator against the gold (${a.metric.toUpperCase()})`),
    head(["Annotator", "Sentences", "P", "R", f, "κ"], ["Sentences", "P", "R", f, "κ"]),
    h("tbody", {}, a.pairs.map((p) => h("tr", { "data-user": name(p.first) },
      h("th", { scope: "row" }, name(p.first)), cell(p.sentences),
      cell(fixed(p.forward.precision)), cell(fixed(p.forward.recall)),
      cell(fixed(p.forward.f), `TP ${p.forward.tp}, FP ${p.forward.fp}, FN ${p.forward.fn}`),
      cell(fixed(p.needs_correction.kappa))))));
}

function scorePanel(): HTMLElement {
  const system = h("textarea", { id: "score-system", rows: 5, spellcheck: "false",
                                 placeholder: "the system's output, one sentence a line" });
  const file = h("input", { id: "score-file", type: "file", accept: ".txt,text/plain" });
  fileInto(file, system);
  const metric = h("select", { id: "score-metric" },
    ["m2", "errant", "cherrant"].map((m) => h("option", { value: m }, m)));
  const beta = h("input", { id: "score-beta", type: "number", step: "any", min: 0,
                            value: "0.5" });
  const out = h("div", { id: "score" });
  const form = h("form", { class: "score", "aria-labelledby": "score-title" },
    h("label", { for: "score-system" }, "System output"), system,
    h("label", { for: "score-file" }, "or a file"), file,
    h("div", { class: "row" },
      h("label", { for: "score-metric" }, "Metric"), metric,
      h("label", { for: "score-beta" }, "β"), beta,
      h("button", { type: "submit" }, "Score")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    replace(out, h("p", { class: "help" }, "Scoring…"));
    try {
      const found = await api<Score>("POST", "/api/score",
        { system: system.value, metric: metric.value, beta: Number(beta.value) });
      replace(out, scored(found));
    } catch (e) {
      fail(e, out);
    }
  });
  return h("section", { class: "panel wide", "aria-labelledby": "score-title" },
    h("h2", { id: "score-title" }, "Score a system against the gold"), form, out);
}

// The score as the server gives it: `m2lsp score --format json`'s numbers, unmodified.
function scored(s: Score): HTMLElement[] {
  const corpus = h("dl", { id: "score-corpus", class: "score" },
    h("dt", {}, "P"), scoreCell("dd", "precision", s.precision),
    h("dt", {}, "R"), scoreCell("dd", "recall", s.recall),
    h("dt", {}, `F${s.beta}`), scoreCell("dd", "f", s.f),
    Object.entries(s.counts).map(([k, v]) => [h("dt", {}, k.replace(/_/g, " ")),
                                              h("dd", { "data-key": k }, String(v))]).flat());
  const edits = (found: ScoredEdit[], kind: string) => h("ul", { class: `marks ${kind}` },
    found.map((e) => h("li", {}, `${e.start}–${e.end} `,
      change(e.original ?? "", e.correction ?? (e.corrections ?? []).join(" / ")),
      e.type ? h("code", {}, ` ${e.type}`) : null)));
  const rows = s.sentences.map((t) => h("tr", { "data-sentence": t.index },
    h("th", { scope: "row" }, String(t.index)),
    h("td", { class: "text" }, s.sources[t.index - 1] ?? ""),
    scoreCell("td", "precision", t.precision), scoreCell("td", "recall", t.recall),
    scoreCell("td", "f", t.f),
    h("td", {}, edits(t.true_positives, "found")),
    h("td", {}, edits(t.false_positives, "wrong")),
    h("td", {}, edits(t.false_negatives, "missed"))));
  const parts: (HTMLElement | null)[] = [
    corpus,
    h("p", { class: "signature" }, h("code", {}, s.signature)),
    s.unfinished ? h("p", { class: "help" },
      stillToCurate(s.unfinished)) : null,
    s.warnings.length ? h("ul", { class: "warnings" }, s.warnings.map((w) => h("li", {}, w)))
      : null,
    h("table", { id: "score-sentences", class: "scored" },
      head(["#", "Sentence", "P", "R", `F${s.beta}`, "Found", "Wrong", "Missed"],
           ["P", "R", `F${s.beta}`]),
      h("tbody", {}, rows)),
  ];
  return parts.filter((e): e is HTMLElement => e !== null);
}

function exportPanel(): Panel {
  const out = h("div", { id: "exports" });
  const button = h("button", { type: "button", id: "exports-refresh" }, "Refresh");
  button.addEventListener("click", () => load());
  const skip = h("input", { id: "export-skip", type: "checkbox" });
  async function load(): Promise<void> {
    try {
      const found = await api<Exportable>("GET", "/api/exports");
      replace(out, exportTable(found, () => skip.checked));
    } catch (e) {
      fail(e, out);
    }
  }
  load();
  const element = h("section", { class: "panel", "aria-labelledby": "exports-title" },
    h("h2", { id: "exports-title" }, "Export ", button), out,
    h("label", { class: "check" }, skip,
      " Leave out what a format cannot hold (as m2lsp convert --skip-unconvertible)"));
  return { load, element };
}

function exportTable(e: Exportable, skip: () => boolean): HTMLElement {
  const which = [...(e.gold ? ["gold"] : []), ...e.layers];
  if (!which.length) return h("p", { class: "empty" }, "Nothing to export yet.");
  const table = h("table", { class: "exports" },
    head(["", ...e.formats.map((f) => FORMATS[f] ?? f)]),
    h("tbody", {}, which.map((w) => h("tr", { "data-which": w },
      h("th", { scope: "row" }, w === "gold" ? "the gold" : `${w}'s layer`),
      e.formats.map((f) => h("td", {}, h("button", {
        type: "button", class: "export", "data-which": w, "data-format": f,
        onclick: () => download(w, f, skip()),
      }, FORMATS[f] ?? f)))))));
  if (!e.unfinished) return table;
  return h("div", {}, table, h("p", { class: "help", id: "exports-unfinished" },
    `${stillToCurate(e.unfinished)} The gold exported now holds them as they stand.`));
}

// Download an export; what the format cannot hold refuses it, and is said, unless `skip`
// (skip=1) leaves it out.
async function download(which: string, format: string, skip: boolean): Promise<void> {
  const query = new URLSearchParams({ format, ...(skip ? { skip: "1" } : {}) });
  let response: Response;
  try {
    response = await fetch(`/api/export/${encodeURIComponent(which)}?${query}`,
                           { credentials: "same-origin" });
  } catch {
    say(UNREACHABLE_READ, "error");
    return;
  }
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    say(typeof data?.error === "string" ? data.error : `HTTP ${response.status}`, "error");
    return;
  }
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${which}.${format}`;
  const url = URL.createObjectURL(await response.blob());
  const link = h("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  const skipped = Number(response.headers.get("X-M2lsp-Skipped") ?? "0");
  say(skipped ? `${name} downloaded; ${skipped} problem(s) left out.` : `${name} downloaded.`);
}

// `call`, `ms` milliseconds after the first of the calls that come meanwhile (saves come
// quickly while a team works: one refresh for them all, and one at least every `ms`
// however long the saves go on).
export function gathered(call: () => void, ms: number): () => void {
  let timer: number | null = null;
  return () => {
    if (timer === null) timer = window.setTimeout(() => { timer = null; call(); }, ms);
  };
}

function stillToCurate(count: number): string {
  return count === 1 ? "1 sentence of the gold is still to curate."
    : `${count} sentences of the gold are still to curate.`;
}
