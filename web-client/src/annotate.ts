// The annotator's page: one sentence at a time, a list to jump in; the source tokens
// above, the corrected sentence as editable text below (Svala's idea). A changed
// correction is saved and the server realigns it into edits, shown with their types;
// the linter's findings, notes and "unsure", "No error", next and previous (Alt+N, Alt+P).
// Or select source tokens (or the gap between two) and type what they become.
import { api, ApiError } from "./api";
import { change, h, replace, say } from "./dom";

interface Listed { number: number; text: string; state: string; version: string }
interface Row {
  index: number; noop: boolean; start?: number; end?: number; original?: string;
  correction?: string; type: string; required?: string; fit?: string[];
}
interface Finding { code: string; message: string; severity: string }
interface Note { who: string; text: string; unsure: boolean; edit: string | null }
interface Shown {
  number: number; tokens: string[]; version: string; corrected: string; changes: Row[];
  findings: Finding[]; notes: Note[];
}

export function annotate(main: HTMLElement): void {
  let listed: Listed[] = [];
  let types: [string, string][] = [];
  let shown: Shown | null = null;
  let saved = "";
  let span: [number, number] | null = null;  // the tokens selected, or a gap (start = end)
  const list = h("ol", { class: "sentences" });
  const progress = h("progress", { id: "progress", max: 1, value: 0 });
  const progressText = h("span", { id: "progress-text" });
  const view = h("section", { class: "sentence", "aria-labelledby": "sentence-title" });
  replace(main,
    h("nav", { "aria-label": "Sentences" },
      h("p", {}, h("label", { for: "progress" }, "Done "), progress, " ", progressText),
      list),
    view);

  async function refreshList(): Promise<void> {
    listed = (await api<{ sentences: Listed[] }>("GET", "/api/sentences")).sentences;
    showList();
  }

  function showList(): void {
    const done = listed.filter((s) => s.state === "done").length;
    progress.max = Math.max(listed.length, 1);
    progress.value = done;
    progressText.textContent = `${done} of ${listed.length}`;
    replace(list, listed.map((s) => h("li", { class: s.state },
      h("button", {
        type: "button", "data-number": s.number,
        "aria-current": shown?.number === s.number ? "true" : null,
        onclick: () => open(s.number),
      }, h("span", { class: "mark", "aria-label": s.state }, s.state === "done" ? "✓" : "·"),
        ` ${s.number}. ${s.text}`))));
  }

  async function open(number: number): Promise<void> {
    shown = await api<Shown>("GET", `/api/sentences/${number}`);
    span = null;
    location.hash = `#${number}`;
    render();
    showList();
  }

  function step(by: number): void {
    if (!shown || !listed.length) return;
    const at = listed.findIndex((s) => s.number === shown!.number);
    const next = listed[at + by];
    if (next) open(next.number);
  }

  async function saving(request: Promise<Shown>, message: string): Promise<boolean> {
    try {
      shown = await request;
      say(message);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.data?.current) {
        // another tab or an editor saved first: show theirs, keep what was typed
        const typed = corrected.value;
        shown = e.data.current as Shown;
        render();
        corrected.value = typed;
        say(`${e.message}. What you typed is still in the box: save it again to apply it.`,
            "error");
        return false;
      }
      say(e instanceof Error ? e.message : String(e), "error");
      return false;
    }
    render();
    await refreshList();
    return true;
  }

  function save(text: string): Promise<boolean> {
    if (!shown) return Promise.resolve(false);
    saved = text;
    return saving(api<Shown>("PUT", `/api/sentences/${shown.number}`,
                             { version: shown.version, corrected: text }),
                  `Sentence ${shown.number} saved.`);
  }

  const corrected = h("textarea", { id: "corrected", rows: 2, spellcheck: "false",
    "aria-describedby": "corrected-help" });
  corrected.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      if (corrected.value !== saved) save(corrected.value);
    }
  });
  corrected.addEventListener("change", () => {
    if (corrected.value !== saved) save(corrected.value);
  });

  function typeSelect(row: Row): HTMLSelectElement {
    const fit = new Set(row.fit ?? []);
    const option = (name: string, meaning: string) =>
      h("option", { value: name, selected: name === row.type, title: meaning }, name);
    const known = types.some(([name]) => name === row.type);
    const select = h("select", { "aria-label": `Type of edit ${row.index + 1}`,
                                 class: "type", "data-edit": row.index },
      known ? null : option(row.type, "as written"),
      h("optgroup", { label: "Fits this edit" },
        types.filter(([name]) => fit.has(name)).map(([n, m]) => option(n, m))),
      h("optgroup", { label: "Other types" },
        types.filter(([name]) => !fit.has(name)).map(([n, m]) => option(n, m))));
    select.addEventListener("change", () => {
      if (!shown) return;
      saving(api<Shown>("POST", `/api/sentences/${shown.number}/type`,
                        { version: shown.version, edit: row.index, type: select.value }),
             `Edit ${row.index + 1} is now ${select.value}.`);
    });
    return select;
  }

  // The source's tokens as buttons, and the gaps between them: a click selects a token
  // (Shift+click extends the selection), a gap an insertion point.
  function sourceRow(tokens: string[]): HTMLElement {
    const gap = (at: number) => h("button", {
      type: "button", class: "gap", "data-at": at, "aria-label": `Insert before token ${at}`,
      "aria-pressed": span !== null && span[0] === at && span[1] === at ? "true" : "false",
      onclick: () => { span = [at, at]; render(); },
    }, "");
    const row = h("p", { class: "tokens source", role: "group",
                         "aria-label": "Source tokens: select some, or a gap, to add an edit" });
    tokens.forEach((token, i) => {
      const chosen = span !== null && span[0] <= i && i < span[1];
      row.append(gap(i), h("button", {
        type: "button", class: "token", "data-index": i, "aria-pressed": String(chosen),
        onclick: (event: Event) => {
          const shift = (event as MouseEvent).shiftKey && span !== null;
          span = shift ? [Math.min(span![0], i), Math.max(span![1], i + 1)] : [i, i + 1];
          render();
        },
      }, h("sub", {}, String(i)), token));
    });
    row.append(gap(tokens.length));
    return row;
  }

  function spanForm(s: Shown): HTMLElement | null {
    if (span === null) return null;
    const [start, end] = span;
    const text = h("input", { id: "span-correction", autocomplete: "off",
                              value: s.tokens.slice(start, end).join(" ") });
    const form = h("form", { class: "span", "aria-label": "Add an edit" },
      h("label", { for: "span-correction" }, start === end
        ? `Insert before token ${start}`
        : `Tokens ${start}–${end} (“${s.tokens.slice(start, end).join(" ")}”) become`),
      text,
      h("button", { type: "submit" }, "Add edit"),
      h("button", { type: "button", class: "quiet",
                    onclick: () => { span = null; render(); } }, "Cancel"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const done = await saving(api<Shown>("POST", `/api/sentences/${s.number}/edits`,
        { version: s.version, start, end, correction: text.value }), "Edit added.");
      if (done) { span = null; render(); }
    });
    setTimeout(() => text.focus());
    return form;
  }

  function render(): void {
    if (!shown) return;
    const s = shown;
    corrected.value = saved = s.corrected;
    const edits = s.changes.filter((r) => !r.noop);
    const noop = s.changes.some((r) => r.noop);
    const noteText = h("textarea", { id: "note-text", rows: 2 });
    const unsure = h("input", { id: "note-unsure", type: "checkbox" });
    const on = h("select", { id: "note-on" },
      h("option", { value: "" }, "the whole sentence"),
      edits.map((r) => h("option", { value: r.index },
        `edit ${r.index + 1}: ${r.original || "∅"} → ${r.correction || "∅"}`)));
    const noteForm = h("form", { class: "note", "aria-label": "Add a note" },
      h("label", { for: "note-text" }, "Note"), noteText,
      h("label", { for: "note-on" }, "On"), on,
      h("label", { class: "check" }, unsure, " Unsure"),
      h("button", { type: "submit" }, "Add note"));
    noteForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const answer = await api<{ notes: Note[] }>("POST", `/api/sentences/${s.number}/notes`,
          { text: noteText.value, unsure: unsure.checked,
            edit: on.value === "" ? null : Number(on.value) });
        s.notes = answer.notes;
        render();
        say("Note added.");
      } catch (e) {
        say(e instanceof Error ? e.message : String(e), "error");
      }
    });
    replace(view,
      h("h2", { id: "sentence-title" }, `Sentence ${s.number}`),
      h("h3", {}, "Source"), sourceRow(s.tokens), spanForm(s),
      h("label", { for: "corrected" }, "Corrected sentence"), corrected,
      h("p", { id: "corrected-help", class: "help" },
        "Type the correction; Enter saves it and the edits follow. Alt+N next sentence, " +
        "Alt+P previous."),
      h("div", { class: "actions" },
        h("button", { type: "button", onclick: () => save(corrected.value) }, "Save"),
        h("button", { type: "button", id: "no-error", title: "Mark it done and go on",
                      onclick: async () => { if (await save(s.tokens.join(" "))) step(1); } },
          "No error"),
        h("button", { type: "button", onclick: () => step(-1) }, "Previous"),
        h("button", { type: "button", onclick: () => step(1) }, "Next")),
      h("h3", {}, "Edits"),
      edits.length
        ? h("table", { class: "edits" },
            h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"),
              h("th", { scope: "col" }, "Tokens"), h("th", { scope: "col" }, "Change"),
              h("th", { scope: "col" }, "Type"))),
            h("tbody", {}, edits.map((r) => h("tr", { "data-edit": r.index },
              h("td", {}, String(r.index + 1)), h("td", {}, `${r.start}–${r.end}`),
              h("td", {}, change(r.original ?? "", r.correction ?? "")),
              h("td", {}, typeSelect(r))))))
        : h("p", { class: "empty" }, noop ? "No error: done." : "No edit yet."),
      h("h3", {}, "Findings"),
      s.findings.length
        ? h("ul", { class: "findings" }, s.findings.map((f) => h("li", {},
            h("code", {}, f.code), " ", f.message)))
        : h("p", { class: "empty" }, "The linter finds nothing."),
      h("h3", {}, "Notes"),
      s.notes.length
        ? h("ul", { class: "notes" }, s.notes.map((n) => h("li", {},
            n.unsure ? h("strong", {}, "unsure ") : null,
            n.edit ? h("code", {}, n.edit) : null, n.edit ? " " : null, n.text)))
        : null,
      noteForm);
  }

  document.addEventListener("keydown", (event) => {
    if (!event.altKey) return;
    if (event.key === "n" || event.key === "N") { event.preventDefault(); step(1); }
    if (event.key === "p" || event.key === "P") { event.preventDefault(); step(-1); }
  });

  (async () => {
    types = (await api<{ types: [string, string][] }>("GET", "/api/types")).types;
    await refreshList();
    const wanted = Number(location.hash.slice(1));
    const first = listed.find((s) => s.number === wanted) ?? listed.find((s) => s.state !== "done")
      ?? listed[0];
    if (first) await open(first.number);
    else replace(view, h("p", {}, "No sentence is assigned to you yet."));
  })();
}
