// The manager's page: the project's sentences (loaded here into a project made without
// them), sentence ranges given to annotators and each one's progress, kept up to date by
// the server's live updates; suggestion sets; the agreement, scores and export panels.
import { api } from "./api";
import { h, replace, say, sayFailed, Writes } from "./dom";
import { listenLive } from "./live";
import { fileInto, gathered, panels } from "./panels";

// A form whose submit sends one request: a second submit while it is sent is ignored (its
// button disabled meanwhile); `send` is told which button submitted it.
function onSubmit(form: HTMLFormElement,
                  send: (by: HTMLElement | null) => Promise<void>): void {
  const writes = new Writes(() => [form]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const by = event.submitter;
    writes.run(() => send(by));
  });
}

interface Person { user: string; assigned: number; ranges: [number, number][]; done: number }
interface Progress { sentences: number; annotators: Person[] }

export function manage(main: HTMLElement): void {
  const table = h("tbody");
  const count = h("p", { id: "sentence-count" });
  const source = sourceForm(() => refresh());
  const user = h("select", { id: "assign-user", required: true });
  const first = h("input", { id: "assign-first", type: "number", min: 1, required: true });
  const last = h("input", { id: "assign-last", type: "number", min: 1, required: true });
  const form = h("form", { class: "assign", "aria-labelledby": "assign-title" },
    h("h2", { id: "assign-title" }, "Assign sentences"),
    h("label", { for: "assign-user" }, "Annotator"), user,
    h("label", { for: "assign-first" }, "From sentence"), first,
    h("label", { for: "assign-last" }, "To sentence"), last,
    h("button", { type: "submit", id: "assign" }, "Assign"), " ",
    h("button", { type: "submit", id: "unassign", class: "quiet",
                  title: "Take these sentences back: what the annotator wrote in them stays " +
                    "in their layer, for the curator" }, "Unassign"));
  onSubmit(form, async (by) => {
    const range = { user: user.value, first: Number(first.value), last: Number(last.value) };
    const back = by?.id === "unassign";
    const which = range.first === range.last ? `sentence ${range.first}`
      : `sentences ${range.first}–${range.last}`;
    if (back && !confirm(`Take ${which} back from ${range.user}? What they wrote there ` +
                         "stays in their layer.")) return;
    try {
      if (back) {
        const made = await api<{ removed: number }>("POST", "/api/assignments/remove", range);
        say(`${made.removed} sentence(s) of ${range.first}–${range.last} taken back from ` +
            `${range.user}.`);
      } else {
        const made = await api<{ user: string; first: number; last: number }>(
          "POST", "/api/assignments", range);
        say(`Sentences ${made.first}–${made.last} assigned to ${made.user}.`);
      }
    } catch (e) {
      sayFailed(e);
    }
    await refresh().catch(() => undefined);
  });
  replace(main,
    h("section", { "aria-labelledby": "source-title" },
      h("h2", { id: "source-title" }, "Sentences"), count, source),
    h("section", { "aria-labelledby": "progress-title" },
      h("h2", { id: "progress-title" }, "Progress"),
      h("table", { class: "progress" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Annotator"),
          h("th", { scope: "col" }, "Assigned"), h("th", { scope: "col" }, "Done"),
          h("th", { scope: "col" }, "Progress"))),
        table)),
    form, suggestionsForm());
  const reload = panels(main);

  async function refresh(): Promise<void> {
    const found = await api<Progress>("GET", "/api/progress");
    const people = found.annotators;
    count.textContent = found.sentences
      ? `${found.sentences} sentences.` : "No sentence yet: load them to start.";
    source.hidden = found.sentences > 0;
    const chosen = user.value;
    replace(user, people.map((p) => h("option", { value: p.user, selected: p.user === chosen },
                                      p.user)));
    replace(table, people.map((p) => h("tr", { "data-user": p.user },
      h("th", { scope: "row" }, p.user),
      h("td", {}, String(p.assigned),
        p.ranges.length ? h("span", { class: "ranges" }, ` (${spans(p.ranges)})`) : null),
      h("td", {}, String(p.done)),
      h("td", {}, h("progress", { max: Math.max(p.assigned, 1), value: p.done,
                                  "aria-label": `${p.user}: ${p.done} of ${p.assigned}` })))));
  }

  // the progress as the annotators save; the agreement and the exports a second after
  // a curation decision
  const soon = gathered(() => { refresh().catch(sayFailed); }, 200);
  const later = gathered(reload, 1000);
  listenLive({ saved: soon, assigned: soon, source: soon, decided: later },
             () => { soon(); later(); }, () => main.isConnected);  // back: all again
  refresh().catch(sayFailed);
}

// The project's sentences, once, before anyone annotates: raw (one a line, tokenised by
// the server as `m2lsp skeleton` tokenises them, or tokenised already) or an M2 file.
function sourceForm(loaded: () => void): HTMLFormElement {
  const text = h("textarea", { id: "source-text", rows: 8, spellcheck: "false",
                               placeholder: "one sentence a line" });
  const file = h("input", { id: "source-file", type: "file", accept: ".txt,.m2,text/plain" });
  fileInto(file, text);
  const tokenised = h("input", { id: "source-tokenised", type: "checkbox" });
  const form = h("form", { class: "source-form", "aria-label": "Load the sentences" },
    h("label", { for: "source-text" }, "Raw sentences, one a line (or an M2 file)"), text,
    h("label", { for: "source-file" }, "or a file"), file,
    h("label", { class: "check" }, tokenised, " Tokenised already (split at spaces)"),
    h("button", { type: "submit" }, "Load the sentences"));
  onSubmit(form, async () => {
    try {
      const made = await api<{ sentences: number; skipped: string }>("POST", "/api/source",
        { text: text.value, tokenised: tokenised.checked });
      const skipped = made.skipped
        ? ` ${made.skipped[0].toUpperCase()}${made.skipped.slice(1)}.` : "";
      say(`${made.sentences} sentences loaded: assign them.${skipped}`);
      loaded();
    } catch (e) {
      sayFailed(e);
    }
  });
  return form;
}

// A system's output or an M2 file loaded as a named set of suggestions for the annotators.
function suggestionsForm(): HTMLElement {
  const sets = h("p", { id: "suggestion-sets" });
  const name = h("input", { id: "suggest-name", required: true, autocomplete: "off" });
  const format = h("select", { id: "suggest-format" },
    h("option", { value: "text" }, "a system's output, one sentence a line"),
    h("option", { value: "m2" }, "an M2 file"));
  const text = h("textarea", { id: "suggest-text", rows: 4, spellcheck: "false" });
  const file = h("input", { id: "suggest-file", type: "file", accept: ".txt,.m2,text/plain" });
  fileInto(file, text);
  const form = h("form", { class: "suggest", "aria-labelledby": "suggest-title" },
    h("h2", { id: "suggest-title" }, "Suggestions"), sets,
    h("label", { for: "suggest-name" }, "Name (lower-case letters, digits, _ and -)"), name,
    h("label", { for: "suggest-format" }, "What it is"), format,
    h("label", { for: "suggest-text" }, "Its text"), text,
    h("label", { for: "suggest-file" }, "or a file"), file,
    h("button", { type: "submit" }, "Load the suggestions"));
  async function listed(): Promise<void> {
    const found = (await api<{ sets: string[] }>("GET", "/api/suggestions")).sets;
    sets.textContent = found.length ? `Loaded: ${found.join(", ")}.` : "None loaded yet.";
  }
  onSubmit(form, async () => {
    try {
      const made = await api<{ name: string; sentences: number; edits: number }>(
        "POST", "/api/suggestions", { name: name.value, format: format.value, text: text.value });
      say(`Suggestions ${made.name} loaded: ${made.edits} edits in ${made.sentences} sentences.`);
    } catch (e) {
      sayFailed(e);
    }
    await listed().catch(() => undefined);
  });
  listed().catch(() => undefined);
  return form;
}

// assigned sentences as the manager gave them: "1–10, 15"
function spans(ranges: [number, number][]): string {
  return ranges.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(", ");
}
