// The annotator's page: one sentence at a time, a list to jump in; the source tokens
// above, the corrected sentence as editable text below (Svala's idea). A changed
// correction is saved and the server realigns it into edits, shown with their types;
// the linter's findings (a quick fix applied by the server), notes and "unsure", "No
// error", next and previous (Alt+N, Alt+P).
// Or select source tokens (or the gap between two) and type what they become; split a
// token or join several (the source's tokens, for the whole project). Undo and redo send
// back an earlier state of the edits the server gave (Alt+Z, Alt+Y; Ctrl+Z, Ctrl+Shift+Z
// outside a text box), each sentence's kept while the page is open; suggestions are accepted or rejected one by one; the page hears
// of its user's saves in other tabs, of retokenisations and assignments (server-sent
// events) and reloads what changed (and all it shows when the stream comes back after the
// server restarted). One write at a time: a second click while one is sent is ignored.
// What is typed and not saved is saved before another sentence opens (a click, Alt+N,
// Alt+P, the list, the address bar's #N), and a reload or a closed tab asks first.
import { api, ApiError } from "./api";
import {
  change, EditShown, h, readable, replace, say, sayFailed, tokenPicker, tokensName, Writes,
} from "./dom";
import { listenLive } from "./live";

const HISTORIES = 500;  // sentences whose undo history a page keeps once left

// `findings`: a done sentence's, as its page lists them (null: not counted yet)
interface Listed {
  number: number; text: string; state: string; version: string; findings?: number | null;
}
interface Row {
  index: number; noop: boolean; start?: number; end?: number; original?: string;
  correction?: string; type: string; required?: string; fit?: string[];
}
interface Finding {
  code: string; message: string; severity: string; row: number;  // "error", "warning"...
  fix: string | null; safe: boolean;  // the quick fix's title, if the page may apply it
}
interface Note {
  who: string; text: string; unsure: boolean; edit: string | null; change: EditShown | null;
}
interface Shown {
  number: number; tokens: string[]; version: string; corrected: string; changes: Row[];
  findings: Finding[]; notes: Note[]; edits: string[]; straddled?: string[];
  retokenisable: boolean;
}
interface Suggestion {
  id: string; from: string; start: number; end: number; type: string; correction: string;
}
interface Heard { sentence: number; version: string; done: boolean; retokenised?: boolean }

export function annotate(main: HTMLElement): void {
  let listed: Listed[] = [];
  let types: [string, string][] = [];
  let shown: Shown | null = null;
  let saved = "";
  let span: [number, number] | null = null;  // the tokens selected, or a gap (start = end)
  let picked = false;  // tokens were just clicked: their text is selected in the edit's box
  let suggestions: Suggestion[] = [];
  // The sentence's edits (A lines) as the server gave them, oldest first, and where the
  // page is among them: undo and redo save an earlier or later one (a normal save).
  let history: string[][] = [];
  let at = -1;
  // each sentence left, its history and place (back on it, undo goes on where it was, as
  // long as the server still has the edits it left; the last HISTORIES sentences)
  // (with the source's tokens then: a history is kept only while they stay the same, its
  // offsets pointing where they did)
  const histories = new Map<number, { history: string[][]; at: number; tokens: string }>();
  const known = new Set<string>();  // versions this page was given (its own saves)
  let inflight: Promise<unknown> = Promise.resolve();
  let pending: Promise<boolean> | null = null;  // the write in flight, answering if it was made
  let opening = 0;  // the sentence last asked for (an older answer is dropped)
  const suggestionBox = h("div", { id: "suggestions" });
  const list = h("ol", { class: "sentences" });
  const progress = h("progress", { id: "progress", max: 1, value: 0 });
  const progressText = h("span", { id: "progress-text" });
  const view = h("section", { class: "sentence", "aria-labelledby": "sentence-title" });
  replace(main,
    h("nav", { "aria-label": "Sentences" },
      h("p", {}, h("label", { for: "progress" }, "Done "), progress, " ", progressText),
      list),
    view);
  const writes = new Writes(() => [view]);

  // The list read again; when the server left findings to count (a large list, cold),
  // asked again a little later until none is left.
  let recount: number | null = null;
  async function refreshList(): Promise<void> {
    const found = await api<{ sentences: Listed[]; unchecked: number }>("GET",
                                                                       "/api/sentences");
    listed = found.sentences;
    showList();
    if (found.unchecked && recount === null && main.isConnected) {
      recount = window.setTimeout(() => {
        recount = null;
        refreshList().catch(() => undefined);
      }, 2000);
    }
  }

  function showList(): void {
    const done = listed.filter((s) => s.state === "done").length;
    progress.max = Math.max(listed.length, 1);
    progress.value = done;
    progressText.textContent = `${done} of ${listed.length}`;
    replace(list, listed.map((s) => {
      const flagged = s.state === "done" && !!s.findings;
      const what = flagged ? `done, ${s.findings} finding(s) left` : s.state;
      return h("li", { class: flagged ? "done flagged" : s.state },
        h("button", {
          type: "button", "data-number": s.number, title: flagged ? what : null,
          "aria-current": shown?.number === s.number ? "true" : null,
          onclick: () => open(s.number),
        }, h("span", { class: "mark", "aria-hidden": "true" },
             flagged ? "!" : s.state === "done" ? "✓" : "·"),
          h("span", { class: "unseen" }, `${what}: `),  // what the mark says, read aloud
          ` ${s.number}. ${s.text}`));
    }));
  }

  // The address bar names the sentence shown (#N): Back and a hand-typed #N open theirs;
  // `first` replaces the entry rather than adding one.
  function showHash(number: number, first = false): void {
    if (location.hash === `#${number}`) return;
    if (first) window.history.replaceState(null, "", `#${number}`);
    else location.hash = `#${number}`;
  }

  // What is typed and not saved, saved (true once it is, or when there is nothing to save).
  async function flush(): Promise<boolean> {
    if (pending && !(await pending)) return false;
    if (!shown || corrected.value === saved) return true;
    return save(corrected.value);
  }

  async function open(number: number, first = false): Promise<void> {
    if (shown?.number === number) {  // open already
      opening = number;
      showHash(number, true);
      return;
    }
    opening = number;
    if (!(await flush()) || opening !== number) {  // the typing is not saved: stay
      if (shown && opening === number) showHash(shown.number, true);
      return;
    }
    let found: Shown;
    try {
      found = await api<Shown>("GET", `/api/sentences/${number}`);
    } catch (e) {
      if (opening === number) {
        sayFailed(e);
        if (shown) showHash(shown.number, true);
      }
      return;
    }
    if (opening !== number) return;  // another sentence was asked for meanwhile
    if (shown) keepHistory(shown.number);
    shown = found;
    known.add(shown.version);
    span = null;
    takeHistory(shown);
    suggestions = [];
    say("");  // what was said was about the sentence left
    showHash(number, first);
    render();
    showList();
    const at = document.activeElement;
    if (!at || at === document.body || list.contains(at)) corrected.focus({ preventScroll: true });
    await loadSuggestions().catch(() => undefined);
  }

  async function openFirst(): Promise<void> {
    const wanted = Number(location.hash.slice(1));
    const first = listed.find((s) => s.number === wanted) ?? listed.find((s) => s.state !== "done")
      ?? listed[0];
    if (first) await open(first.number, true);
    else replace(view, h("p", {}, "No sentence is assigned to you yet."));
  }

  // The sentence's open suggestions, shown in their own box (a redraw of the box only).
  async function loadSuggestions(): Promise<void> {
    if (!shown) return;
    const number = shown.number;
    const found = (await api<{ suggestions: Suggestion[] }>(
      "GET", `/api/suggestions/${number}`)).suggestions;
    if (shown?.number !== number) return;
    suggestions = found;
    replace(suggestionBox, suggestionList(shown));
  }

  function keepHistory(number: number): void {
    histories.delete(number);  // the newest last: the oldest is the first to go
    histories.set(number, { history, at, tokens: shown ? shown.tokens.join(" ") : "" });
    if (histories.size > HISTORIES) histories.delete(histories.keys().next().value!);
  }

  // The history kept for the sentence if the server still has the edits it was at, else
  // one of its edits alone (another tab, an editor or a retokenisation changed them).
  function takeHistory(s: Shown): void {
    const kept = histories.get(s.number);
    histories.delete(s.number);
    const same = kept && kept.tokens === s.tokens.join(" ") &&
      JSON.stringify(kept.history[kept.at]) === JSON.stringify(s.edits);
    history = same ? kept.history : [s.edits];
    at = same ? kept.at : 0;
  }

  // The edits the server gave become the newest state (what was undone is dropped).
  function remember(s: Shown): void {
    if (JSON.stringify(history[at]) === JSON.stringify(s.edits)) return;
    history = [...history.slice(0, at + 1), s.edits];
    at = history.length - 1;
  }

  async function travel(by: number): Promise<void> {
    if (!shown) return;
    const to = at + by;
    if (to < 0 || to >= history.length) {
      say(by < 0 ? "Nothing to undo." : "Nothing to redo.");
      return;
    }
    // no edit lines at all is the sentence before its first save (a noop is a line): the
    // server writes it back untouched, not "no error"
    const edits = history[to], s = shown;
    await saving(() => api<Shown>("PUT", `/api/sentences/${s.number}`,
                                  { version: s.version, edits, untouched: edits.length === 0 }),
                 by < 0 ? "Undone." : "Redone.", () => { at = to; });
  }

  function step(by: number): Promise<void> {
    if (!shown || !listed.length) return Promise.resolve();
    const here = listed.findIndex((s) => s.number === shown!.number);
    const next = listed[here + by];
    return next ? open(next.number) : Promise.resolve();
  }

  // A change sent (unless another is in flight: then nothing is, and false): the sentence
  // as the server now shows it (`then`: what the page does with its history instead of
  // remembering the new state).
  function saving(send: () => Promise<Shown>, message: string,
                  then: (s: Shown) => void = remember): Promise<boolean> {
    const written = writes.run(() => sent(send(), message, then));
    if (written === null) return Promise.resolve(false);
    // the write is over once its answer is drawn (the page takes clicks again); the list
    // follows
    const running = written.then(async (done) => {
      if (done) await refreshList().catch(() => undefined);
      return done;
    });
    pending = written;
    inflight = running;
    written.finally(() => { if (pending === written) pending = null; });
    return running;
  }

  async function sent(request: Promise<Shown>, message: string,
                      then: (s: Shown) => void): Promise<boolean> {
    try {
      shown = await request;
      known.add(shown.version);
      then(shown);
      await loadSuggestions().catch(() => undefined);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.data?.current) {
        // another tab or an editor saved first: show theirs, keep what was typed
        const typed = corrected.value;
        shown = e.data.current as Shown;
        known.add(shown.version);
        remember(shown);
        render();
        corrected.value = typed;
        say(`${e.message}. What you typed is still in the box: save it again to apply it.`,
            "error");
        return false;
      }
      sayFailed(e);  // what was typed stays in the box, not counted as saved: Enter retries
      return false;
    }
    render();
    say(message);  // said once drawn: what the message names is on the page
    return true;
  }

  // The corrected text saved (`saved` is only ever what the server answered with).
  function save(text: string): Promise<boolean> {
    if (!shown) return Promise.resolve(false);
    const s = shown;
    return saving(() => api<Shown>("PUT", `/api/sentences/${s.number}`,
                                   { version: s.version, corrected: text }),
                  `Sentence ${s.number} saved.`);
  }

  // "No error": the source as the correction; the edits it removes are confirmed first.
  async function noError(s: Shown): Promise<void> {
    const edits = s.changes.filter((r) => !r.noop).length;
    const typed = corrected.value !== saved;
    const question = edits === 1 ? "Remove the edit and mark the sentence correct?"
      : edits ? `Remove the ${edits} edits and mark the sentence correct?`
      : typed ? "Discard what you typed and mark the sentence correct?" : null;
    if (question !== null && !window.confirm(question)) return;
    if (!(await save(s.tokens.join(" ")))) return;
    await step(1);
    say(`Sentence ${s.number} marked correct (no error).`);  // said after the next opened
  }

  const corrected = h("textarea", { id: "corrected", rows: 2, spellcheck: "false",
    "aria-describedby": "corrected-help" });
  corrected.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      if (corrected.value !== saved) save(corrected.value);
    }
  });
  // Leaving the box saves what was typed; when a click left it, that click goes first (a
  // click on Next or the list saves and goes on, rather than being lost to the redraw).
  let pressing = false;
  let afterPress: (() => void) | null = null;
  document.addEventListener("pointerdown", () => { pressing = true; }, true);
  document.addEventListener("pointerup", () => window.setTimeout(() => {
    pressing = false;
    const call = afterPress;
    afterPress = null;
    call?.();
  }), true);
  corrected.addEventListener("change", () => {
    const go = () => {
      if (main.isConnected && corrected.value !== saved && !writes.busy) save(corrected.value);
    };
    if (pressing) afterPress = go; else go();
  });
  window.addEventListener("beforeunload", (event) => {
    if (!main.isConnected || !shown || corrected.value === saved) return;
    event.preventDefault();  // what is typed is not saved: the browser asks first
    event.returnValue = "";
  });
  window.addEventListener("hashchange", () => {
    const number = Number(location.hash.slice(1));
    if (main.isConnected && Number.isInteger(number) && number > 0 && number !== shown?.number) {
      open(number);
    }
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
      const s = shown;
      if (!s) return;
      saving(() => api<Shown>("POST", `/api/sentences/${s.number}/type`,
                              { version: s.version, edit: row.index, type: select.value }),
             `Edit ${row.index + 1} is now ${select.value}.`);
    });
    return select;
  }

  // REQUIRED (checked) or OPTIONAL: the M2 field the scorer leaves as it is, set here by
  // the server as a type is.
  function requiredBox(row: Row): HTMLInputElement {
    const box = h("input", { type: "checkbox", class: "required", "data-edit": row.index,
                             "aria-label": `Edit ${row.index + 1} is required`,
                             checked: row.required !== "OPTIONAL" }) as HTMLInputElement;
    box.addEventListener("change", () => {
      const s = shown;
      if (!s) return;
      saving(() => api<Shown>("POST", `/api/sentences/${s.number}/required`,
                              { version: s.version, edit: row.index, required: box.checked }),
             `Edit ${row.index + 1} is now ${box.checked ? "REQUIRED" : "OPTIONAL"}.`);
    });
    return box;
  }

  // Where a finding is, as the edits table numbers the edits: "edit 2: " for the sentence's
  // second A line (row 2 from its S line), nothing for the S line.
  function findingPlace(s: Shown, f: Finding): string {
    const row = s.changes.find((r) => r.index === f.row - 1);
    if (!row) return "";
    return row.noop ? "the no-error line: " : `edit ${row.index + 1}: `;
  }

  // A finding's quick fix, applied by the server to the annotator's lines and saved; one
  // that is not certain to be right (not what `check --fix` applies) says to check it.
  function fixButton(s: Shown, f: Finding, index: number): HTMLElement {
    return h("button", {
      type: "button", class: "fix",
      title: f.safe ? f.fix : `${f.fix}: not certain to be right, check the result`,
      onclick: () => saving(() => api<Shown>("POST", `/api/sentences/${s.number}/fix`,
                                            { version: s.version, finding: index }),
                            `Fixed: ${f.fix}.`),
    }, f.safe ? `Fix: ${f.fix}` : `Fix (check it): ${f.fix}`);
  }

  function sourceRow(tokens: string[]): HTMLElement {
    return tokenPicker(tokens, span, "Source tokens: select some, or a gap, to add an edit",
                       (next) => { span = next; picked = true; render(true); });
  }

  // What the selected tokens are called, 1-based ("Token 2 (“a”) becomes").
  function spanLabel(s: Shown, start: number, end: number): string {
    if (start === end) return `Insert ${tokensName(start, end, s.tokens.length)}`;
    const name = tokensName(start, end);
    return `${name[0].toUpperCase()}${name.slice(1)} (“${s.tokens.slice(start, end).join(" ")}”) ` +
      (end - start === 1 ? "becomes" : "become");
  }

  function spanForm(s: Shown): HTMLElement | null {
    if (span === null) return null;
    const [start, end] = span;
    const text = h("input", { id: "span-correction", autocomplete: "off",
                              value: s.tokens.slice(start, end).join(" ") });
    const form = h("form", { class: "span", "aria-label": "Add an edit" },
      h("label", { for: "span-correction" }, spanLabel(s, start, end)),
      text,
      h("button", { type: "submit" }, "Add edit"),
      h("button", { type: "button", class: "quiet",
                    onclick: () => { span = null; render(true); } }, "Cancel"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const done = await saving(() => api<Shown>("POST", `/api/sentences/${s.number}/edits`,
        { version: s.version, start, end, correction: text.value }), "Edit added.");
      if (done) { span = null; render(); }
    });
    if (picked) {  // the tokens' text, selected: what is typed replaces it
      picked = false;
      setTimeout(() => { text.focus(); text.select(); });
    }
    return form;
  }

  // The selected token split (its pieces typed with spaces where it is cut), or the
  // selected tokens joined: the source's tokens, for every annotator of the project.
  function tokensForm(s: Shown): HTMLElement | null {
    // once the curation has started the source's tokens stay as they are: no form
    if (span === null || span[1] - span[0] < 1 || !s.retokenisable) return null;
    const [start, end] = span;
    if (end - start > 1) {
      return h("p", { class: "retokenise" },
        h("button", { type: "button", id: "join-tokens",
                      title: "The source's tokens, for every annotator",
                      onclick: () => retokenise("join", { start, end },
                        `Tokens ${start + 1}–${end} joined.`) },
          `Join tokens ${start + 1}–${end} into one`));
    }
    const pieces = h("input", { id: "split-pieces", autocomplete: "off",
                                value: s.tokens[start] });
    const form = h("form", { class: "span retokenise", "aria-label": "Split the token" },
      h("label", { for: "split-pieces" }, `Or split token ${start + 1}: spaces where it is cut`),
      pieces, h("button", { type: "submit", title: "The source's tokens, for every annotator" },
        "Split token"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      retokenise("split", { token: start, pieces: pieces.value },
                 `Token ${start + 1} split.`);
    });
    return form;
  }

  async function retokenise(how: "split" | "join", what: object, message: string
                            ): Promise<void> {
    const was = shown;
    if (!was) return;
    // the source is the project's: every annotator's sentence changes with it
    if (!window.confirm(`${how === "split" ? "Split the token" : "Join the tokens"} in the `
                        + "source, for every annotator of the project?")) return;
    const path = how === "split" ? `/api/sentences/${was.number}/split`
      : `/api/sentences/${was.number}/join`;
    const done = await saving(() => api<Shown>("POST", path,
      { version: was.version, ...what }), message, (s) => {
        history = [s.edits];  // the old states' offsets point elsewhere now
        at = 0;
      });
    if (!done || !shown) return;
    span = null;
    render();
    if (shown.straddled?.length) say(`${message} ${shown.straddled.join("; ")}.`);
  }

  function suggestionList(s: Shown): HTMLElement {
    if (!suggestions.length) return h("p", { class: "empty" }, "No suggestion.");
    const decide = (row: Suggestion, decision: "accept" | "reject") => () => {
      saving(() => api<{ sentence: Shown; suggestions: Suggestion[] }>(
        "POST", `/api/suggestions/${s.number}`,
        { id: row.id, decision, version: s.version }).then((r) => r.sentence),
        decision === "accept" ? "Suggestion accepted." : "Suggestion rejected.");
    };
    return h("ul", { class: "suggestions" }, suggestions.map((row) =>
      h("li", { "data-suggestion": row.id },
        h("span", { class: "where" }, `${tokensName(row.start, row.end, s.tokens.length)} `),
        change(s.tokens.slice(row.start, row.end).join(" "), row.correction),
        " ", h("code", {}, row.type), " ", h("span", { class: "from" }, `from ${row.from}`),
        " ", h("button", { type: "button", class: "accept", onclick: decide(row, "accept") },
          "Accept"),
        " ", h("button", { type: "button", class: "reject quiet",
                            onclick: decide(row, "reject") }, "Reject"))));
  }

  // What the page heard: its user's save in another tab, or a retokenisation, moved a
  // sentence's version on; the open sentence is read again (what was typed is kept).
  async function heard(d: Heard): Promise<void> {
    await inflight;  // this page's own save: its answer gives the version first
    if (d.retokenised) histories.delete(d.sentence);  // its offsets point elsewhere now
    const row = listed.find((x) => x.number === d.sentence);
    if (row) {
      row.state = d.done ? "done" : "new";
      row.version = d.version;
      // its findings as counted for that version: the list read again (this page's own
      // saves read it once answered)
      if (!known.has(d.version)) { row.findings = null; refreshList().catch(() => undefined); }
      showList();
    }
    if (!shown || shown.number !== d.sentence || known.has(d.version)) return;
    await reload(d.retokenised
      ? `The source's tokens of sentence ${d.sentence} were fixed: reloaded.`
      : `Sentence ${d.sentence} was changed in another tab or window: reloaded.`,
      d.retokenised === true);
  }

  async function reload(message: string, fresh: boolean): Promise<void> {
    if (!shown) return;
    const typed = corrected.value, typing = corrected.value !== saved;
    const number = shown.number;
    const request = api<Shown>("GET", `/api/sentences/${number}`);
    inflight = request.catch(() => undefined);
    const found = await request;
    if (shown?.number !== number) return;  // another sentence was opened meanwhile
    shown = found;
    known.add(shown.version);
    if (fresh) { history = [shown.edits]; at = 0; span = null; } else remember(shown);
    await loadSuggestions().catch(() => undefined);
    render();
    if (typing && typed !== corrected.value) {
      corrected.value = typed;
      message += " What you typed is still in the box: Enter saves it.";
    }
    say(message);
  }

  // The sentence drawn as the server gave it; `keep`: what is typed and not saved stays in
  // the box (a redraw of the page's own, not an answer).
  function render(keep = false): void {
    if (!shown) return;
    const s = shown;
    const typed = keep && corrected.value !== saved ? corrected.value : null;
    replace(suggestionBox, suggestionList(s));
    corrected.value = saved = s.corrected;
    if (typed !== null) corrected.value = typed;
    // a long sentence gets the rows it needs (up to 10), a short one two
    corrected.rows = Math.min(10, Math.max(2, Math.ceil(corrected.value.length / 70)));
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
    noteForm.addEventListener("submit", (event) => {
      event.preventDefault();
      writes.run(async () => {
        try {
          const answer = await api<{ notes: Note[] }>("POST", `/api/sentences/${s.number}/notes`,
            { text: noteText.value, unsure: unsure.checked,
              edit: on.value === "" ? null : Number(on.value) });
          // the sentence may have been read again meanwhile: its notes are these
          if (shown?.number === s.number) shown.notes = answer.notes;
          render(true);
          say("Note added.");
        } catch (e) {
          sayFailed(e);
        }
      });
    });
    const before = document.activeElement;  // the keyboard stays where it was (a redraw
    const inView = before instanceof HTMLElement && view.contains(before);  // replaces it)
    replace(view,
      h("h2", { id: "sentence-title" }, `Sentence ${s.number}`),
      h("h3", {}, "Source"), sourceRow(s.tokens), spanForm(s), tokensForm(s),
      h("label", { for: "corrected" }, "Corrected sentence"), corrected,
      h("p", { id: "corrected-help", class: "help" },
        "Type the correction; Enter saves it and the edits follow. Or click a source " +
        "token (Shift+click for more) or the gap between two, and type what they become. " +
        "Alt+N next sentence, Alt+P previous, Alt+Z undo, Alt+Y redo."),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "save", onclick: () => save(corrected.value) },
          "Save"),
        h("button", { type: "button", id: "no-error", title: "Mark it done and go on",
                      onclick: () => noError(s) }, "No error"),
        h("button", { type: "button", id: "undo", disabled: at <= 0,
                      title: "Undo (Alt+Z)", onclick: () => travel(-1) }, "Undo"),
        h("button", { type: "button", id: "redo", disabled: at >= history.length - 1,
                      title: "Redo (Alt+Y)", onclick: () => travel(1) }, "Redo"),
        h("button", { type: "button", onclick: () => step(-1) }, "Previous"),
        h("button", { type: "button", onclick: () => step(1) }, "Next")),
      h("h3", {}, "Edits"),
      edits.length
        ? h("table", { class: "edits" },
            h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"),
              h("th", { scope: "col" }, "Tokens"), h("th", { scope: "col" }, "Change"),
              h("th", { scope: "col" }, "Type"), h("th", { scope: "col" }, "Required"))),
            h("tbody", {}, edits.map((r) => h("tr", { "data-edit": r.index },
              h("td", {}, String(r.index + 1)),
              h("td", {}, tokensName(r.start ?? 0, r.end ?? 0, s.tokens.length)),
              h("td", {}, change(r.original ?? "", r.correction ?? "")),
              h("td", {}, typeSelect(r)), h("td", {}, requiredBox(r))))))
        : h("p", { class: "empty" }, noop ? "No error: done." : "No edit yet."),
      h("h3", {}, "Suggestions"), suggestionBox,
      h("h3", {}, "Findings"),
      s.findings.length
        ? h("ul", { class: "findings" }, s.findings.map((f, k) => h("li", { "data-code": f.code, class: f.severity },
            h("code", {}, f.code), " ", findingPlace(s, f), f.message, f.fix ? [" ", fixButton(s, f, k)] : null)))
        : h("p", { class: "empty" }, "The linter finds nothing."),
      h("h3", {}, "Notes"),
      s.notes.length
        ? h("ul", { class: "notes" }, s.notes.map((n) => h("li", {},
            n.unsure ? h("strong", {}, "unsure ") : null,
            n.change ? [readable(n.change, s.tokens.length), " "]
              : n.edit ? [h("code", {}, n.edit), " "] : null, n.text)))
        : null,
      noteForm);
    if (inView && !view.contains(document.activeElement)) {
      // the same control drawn anew, else (a form gone with its edit) the correction's box
      const again = before.id ? document.getElementById(before.id) : null;
      (again && view.contains(again) ? again : corrected).focus({ preventScroll: true });
    }
  }

  document.addEventListener("keydown", (event) => {
    if (!main.isConnected) return;
    const key = event.key.toLowerCase();
    const inText = event.target instanceof HTMLTextAreaElement ||
      event.target instanceof HTMLInputElement;
    if ((event.ctrlKey || event.metaKey) && event.code === "KeyZ" && !inText) {
      // in a text box, Ctrl+Z undoes the typing there
      event.preventDefault();
      travel(event.shiftKey ? 1 : -1);
      return;
    }
    if (!event.altKey) return;
    if (key === "n") { event.preventDefault(); step(1); }
    if (key === "p") { event.preventDefault(); step(-1); }
    // by the key's place, as Alt changes the character on some layouts (macOS: Ω)
    if (event.code === "KeyZ") { event.preventDefault(); travel(-1); }
    if (event.code === "KeyY") { event.preventDefault(); travel(1); }
  });

  // sentences given to this annotator (or loaded): the list, and the first one if none
  // was shown
  // The list read again after a manager gave sentences or took some back (the open one
  // too: then the page leaves it, saying so; what was typed there could not be saved).
  async function assigned(): Promise<void> {
    const before = new Set(listed.map((x) => x.number));
    await refreshList();
    const added = listed.filter((x) => !before.has(x.number)).length;
    if (added) say(`${added} sentence(s) newly assigned to you.`);
    if (shown && !listed.some((x) => x.number === shown!.number)) {
      const gone = shown.number;
      const typed = corrected.value !== saved ? corrected.value : null;
      histories.delete(gone);
      shown = null;
      await openFirst();
      say(`Sentence ${gone} is no longer assigned to you.` + (typed === null ? "" :
          ` What you typed there was not saved: “${typed}”.`), typed === null ? "info" : "error");
    }
    if (!shown) await openFirst();
  }

  const quietly = (call: () => Promise<void>) => () => { call().catch(sayFailed); };
  listenLive({
    saved: (d: Heard) => { heard(d).catch(sayFailed); },
    assigned: quietly(assigned),
    source: quietly(assigned),
    suggestions: quietly(async () => {
      await loadSuggestions();
      say("New suggestions were loaded.");
    }),
  }, quietly(async () => {  // the stream is back: what was missed, read again
    await assigned();
    if (shown) await reload(`Reconnected: sentence ${shown.number} reloaded.`, false);
  }), () => main.isConnected);

  (async () => {
    types = (await api<{ types: [string, string][] }>("GET", "/api/types")).types;
    await refreshList();
    await openFirst();
  })().catch(sayFailed);
}
