// The curator's page: the sentences with the open ones first, one sentence with every
// annotator's version side by side; take a version, accept or reject an edit, write an
// edit of one's own (select tokens or a gap, type the correction, choose a type), mark a
// sentence done, accept everything the annotators agree on. Each button sends one
// decision; the server makes it (m2lsp.curation) and the page shows what it returns, with
// the decisions made on the sentence (read by the server from the log). Live updates: a
// save or another curator's decision refreshes the list and the open sentence, and all of
// it is read again when the stream comes back after the server restarted. One decision
// at a time: a second click while one is sent is ignored. The address bar names the
// sentence shown (#N; Back and a hand-typed #N open theirs).
import { api, ApiError } from "./api";
import {
  change, EditShown, h, readable, replace, say, sayFailed, tokenPicker, tokensName, Writes,
} from "./dom";
import { listenLive } from "./live";
import { gathered, panels } from "./panels";

// `changed`: decided, and these annotators changed their version since
interface Item { number: number; state: string; rule: string; text: string; changed: string[] }
interface Overview {
  names: string[]; sentences: number; curated: number; counts: Record<string, number>;
  changed: number; outcomes: Item[];
}
interface Spec {
  key: string; start: number; end: number; type: string; original: string;
  correction: string; in_gold: boolean; agreed: boolean; required: boolean;
}
interface Sentence {
  number: number; tokens: string[]; state: string; rule: string; changed: string[];
  gold: Spec[];
  versions: Record<string, Spec[] | null>; notes: { by: string; text: string; unsure: boolean;
    edit: string | null; change: EditShown | null }[];
  history: Decided[];
}
interface Decided {
  time: string; who: string; action: string; from: string[]; edit: string | null;
  edits: string[] | null; change: EditShown | null; changes: (EditShown | null)[] | null;
}
interface Update { user: string; sentence: number | null; action?: string }

export function curate(main: HTMLElement): void {
  let current = 0;
  let overview = null as Overview | null;
  let types: [string, string][] = [];
  // the curator's own edit being written: the tokens selected (or a gap: start = end),
  // the correction typed and the type chosen, kept when a live update redraws the page
  let span: [number, number] | null = null;
  let draft: string | null = null;
  let draftType = "";
  let shown = null as Sentence | null;
  let picked = false;  // tokens were just clicked: their text is selected in the form
  const live = h("p", { id: "live", "aria-live": "polite" });
  const list = h("ol", { class: "sentences" });
  const counts = h("p", { id: "counts" });
  const view = h("section", { class: "sentence", "aria-labelledby": "sentence-title" });
  const agreed = h("button", { type: "button", id: "accept-agreed" }, "Accept all agreed");
  agreed.addEventListener("click", () => decide("/api/curation", { action: "accept-agreed" },
                                                "Every agreed edit accepted."));
  replace(main, h("nav", { "aria-label": "Sentences to curate" }, counts, agreed, live, list),
          view);
  const writes = new Writes(() => [view, agreed]);
  // the agreement, scores and export (shared with the manager's page), reloaded a second
  // after a burst of decisions
  const reloadPanels = gathered(panels(main), 1000);

  // One request for the list at a time: updates heard meanwhile (twenty annotators
  // saving every second) make one more, not one each.
  let asking: Promise<void> | null = null;
  let again = false;
  function refresh(): Promise<void> {
    if (asking) { again = true; return asking; }
    asking = (async () => {
      try {
        do { again = false; await showList(); } while (again);
      } finally {
        asking = null;
      }
    })();
    return asking;
  }

  async function showList(): Promise<void> {
    overview = await api<Overview>("GET", "/api/curating");
    const o = overview;
    counts.textContent = `${o.curated} of ${o.sentences} curated` +
      (o.counts.open ? ` · ${o.counts.open} open` : "") +
      (o.changed ? ` · ${o.changed} changed since decided` : "");
    replace(list, o.outcomes.map((item) => h("li", {
      class: item.changed?.length ? "changed" : item.state.replace(" ", "-") },
      h("button", { type: "button", "data-number": item.number,
                    "aria-current": item.number === current ? "true" : null,
                    title: item.changed?.length
                      ? `Changed since decided by ${item.changed.join(", ")}` : null,
                    onclick: () => open(item.number) },
        h("span", { class: "badge" }, item.changed?.length ? "changed" : item.state),
        ` ${item.number}. ${item.text}`))));
  }

  // The sentence `number` (read again when it is open already: a decision, an update);
  // `first` replaces the address bar's entry rather than adding one.
  async function open(number: number, first = false): Promise<void> {
    if (await show(number, first)) await refresh().catch(() => undefined);
  }

  // The sentence read and drawn (false when it was not: another was asked for meanwhile,
  // or the server did not answer).
  async function show(number: number, first = false): Promise<boolean> {
    const other = number !== current;
    if (other) { span = null; draft = null; draftType = ""; }
    current = number;
    let s: Sentence;
    try {
      s = await api<Sentence>("GET", `/api/curating/${number}`);
    } catch (e) {
      if (number === current) sayFailed(e);
      return false;
    }
    if (number !== current) return false;  // another sentence was opened meanwhile
    if (other && shown !== null) say("");  // what was said was about the sentence left
    if (location.hash !== `#${number}`) {
      if (first) window.history.replaceState(null, "", `#${number}`);
      else location.hash = `#${number}`;
    }
    shown = s;
    render(s);
    return true;
  }

  // One decision sent (none while another is in flight: a double click decides once).
  // The page takes clicks again once the sentence is drawn anew; the list follows.
  function decide(path: string, body: object, message: string,
                  made: () => void = () => undefined): void {
    writes.run(async () => {
      let done = false;
      try {
        await api("POST", path, body);
        made();
        done = true;
      } catch (e) {
        sayFailed(e);
        if (e instanceof ApiError && e.status === 0) return;  // the server is not there
      }
      const drawn = current ? await show(current) : true;
      if (done && drawn) say(message);  // said once drawn: what it names is on the page
    })?.then(() => refresh()).catch(() => undefined);
  }

  // Done on a sentence not decided yet whose annotators made edits the gold does not hold
  // curates it without them: asked first.
  function doneAsked(s: Sentence): boolean {
    if (s.state === "decided" || s.state === "auto") return true;
    const left = new Set(Object.values(s.versions).flatMap((specs) =>
      (specs ?? []).filter((spec) => !spec.in_gold).map((spec) => spec.key)));
    return !left.size || window.confirm(
      `Mark sentence ${s.number} done with the gold as it is? ${left.size} edit(s) of the ` +
      "annotators are not in it.");
  }

  const on = (body: object, message: string) =>
    decide(`/api/curation/${current}`, body, message);

  // An edit in words, for a button's name and a message: "token 2: go → goes (R:VERB:SVA)".
  function said(spec: Spec): string {
    return `${tokensName(spec.start, spec.end, shown?.tokens.length)}: ` +
      `${spec.original || "∅"} → ${spec.correction || "∅"} (${spec.type})`;
  }

  function specRow(spec: Spec, button: HTMLElement | null): HTMLElement {
    const where = tokensName(spec.start, spec.end, shown?.tokens.length);
    return h("li", { "data-key": spec.key },
      h("span", { class: "where" }, `${where}: `),  // a word may stand twice
      change(spec.original, spec.correction), " ", h("code", {}, spec.type),
      spec.required ? null : h("span", { class: "badge optional",
                                        title: "OPTIONAL: the scorer may skip it" }, "optional"),
      spec.agreed ? h("span", { class: "badge agreed" }, "agreed") : null,
      spec.in_gold ? h("span", { class: "badge gold" }, "in gold") : null, " ", button);
  }

  function sourceRow(tokens: string[]): HTMLElement {
    return tokenPicker(tokens, span, "Source tokens: select some, or a gap, to write an edit",
                       (next) => { span = next; picked = true; if (shown) render(shown); });
  }

  // The curator's own edit of the tokens selected: the correction and a type, sent as
  // one `edit` decision (refused with the reason when the linter would flag it).
  function ownForm(s: Sentence): HTMLElement | null {
    if (span === null) return null;
    const [start, end] = span;
    const text = h("input", { id: "own-correction", autocomplete: "off",
                              value: draft ?? s.tokens.slice(start, end).join(" ") });
    text.addEventListener("input", () => { draft = text.value; });
    const kind = h("select", { id: "own-type", "aria-label": "Type of the edit", required: true },
      h("option", { value: "" }, "type…"),
      types.map(([name, meaning]) => h("option", { value: name, title: meaning,
                                                    selected: name === draftType }, name)));
    kind.addEventListener("change", () => { draftType = kind.value; });
    const form = h("form", { class: "span own", "aria-label": "Write your own edit" },
      h("label", { for: "own-correction" }, start === end
        ? `Insert ${tokensName(start, end, s.tokens.length)}`
        : `${tokensName(start, end).replace(/^t/, "T")} (“${s.tokens.slice(start, end).join(" ")}”) ` +
          (end - start === 1 ? "becomes" : "become")),
      text, kind,
      h("button", { type: "submit" }, "Add my edit"),
      h("button", { type: "button", class: "quiet", onclick: () => {
        span = null; draft = null; draftType = ""; render(s);
      } }, "Cancel"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      decide(`/api/curation/${s.number}`, { action: "edit", start, end,
        correction: text.value, type: kind.value }, "Your edit is in the gold.",
             () => { span = null; draft = null; draftType = ""; });
    });
    if (picked) {
      picked = false;
      setTimeout(() => { text.focus(); text.select(); });  // what is typed replaces it
    }
    return form;
  }

  function historyList(s: Sentence): HTMLElement[] {
    if (!s.history.length) return [];
    return [h("h3", {}, "History"),
      h("ol", { class: "history" }, s.history.map((d) => h("li", { "data-action": d.action },
        h("time", { datetime: d.time }, d.time.replace("T", " ").replace("Z", " UTC")), " ",
        h("strong", {}, d.who), ` ${d.action}`,
        d.change ? [" ", readable(d.change, s.tokens.length)]
          : d.edit ? h("code", {}, ` ${d.edit}`) : null,
        d.from.length ? ` from ${d.from.join(", ")}` : "",
        d.edits ? [" (", ...(d.edits.length ? d.edits.flatMap((key, k) => {
          const shown = d.changes?.[k];
          return [k ? "; " : "", shown ? readable(shown, s.tokens.length) : h("code", {}, key)];
        }) : ["no edit"]), ")"] : "")))];
  }


  function render(s: Sentence): void {
    const focused = document.activeElement?.id;  // kept when a live update redraws
    const columns = Object.entries(s.versions).map(([name, specs]) =>
      h("section", { class: "version", "aria-label": `${name}'s version` },
        h("h3", {}, name),
        specs === null ? h("p", { class: "empty" }, "not annotated yet")
          : specs.length === 0 ? h("p", { class: "empty" }, "no error")
          : h("ul", {}, specs.map((spec) => specRow(spec, spec.in_gold ? null :
              h("button", { type: "button", class: "accept",
                            "aria-label": `Accept ${name}'s edit ${said(spec)}`,
                            onclick: () => on({ action: "accept", value: spec.key, from: name },
                                              `Accepted ${said(spec)}.`) }, "Accept")))),
        specs === null ? null : h("button", { type: "button", class: "take",
          onclick: () => on({ action: "take", value: name }, `Took ${name}'s version.`) },
          `Take ${name}'s version`)));
    const gold = h("section", { class: "version gold", "aria-label": "The gold" },
      h("h3", {}, "Gold"),
      s.gold.length ? h("ul", {}, s.gold.map((spec) => specRow(spec,
        h("button", { type: "button", class: "reject",
                      "aria-label": `Reject the gold's edit ${said(spec)}`,
                      onclick: () => on({ action: "reject", value: spec.key },
                                        `Rejected ${said(spec)}.`) }, "Reject"))))
        : h("p", { class: "empty" }, "no edit"));
    replace(view,
      h("h2", { id: "sentence-title" }, `Sentence ${s.number}`),
      h("p", {}, h("span", { class: `badge ${s.state.replace(" ", "-")}`, id: "state" }, s.state),
        s.rule && s.rule !== s.state ? ` ${s.rule}` : ""),
      s.changed.length
        ? h("p", { id: "changed", class: "warning" },
            `Changed since it was decided by ${s.changed.join(", ")}: the gold keeps the ` +
            "decision. Look again: Done keeps it, or decide anew.")
        : null,
      sourceRow(s.tokens), ownForm(s),
      h("div", { class: "versions" }, columns, gold),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "done",
                      onclick: () => { if (doneAsked(s)) on({ action: "done" }, "Sentence curated."); } },
          "Done"),
        h("button", { type: "button", id: "correct",
                      title: "The source needs no correction: the gold gets no edit for " +
                        "this sentence (whatever it holds now is removed)",
                      onclick: () => on({ action: "correct" },
                                        "The source is correct: no edit in the gold.") },
          "Source is correct (no edit)"),
        h("button", { type: "button",
                      onclick: () => on({ action: "reopen" }, "Sentence reopened.") }, "Reopen"),
        h("button", { type: "button", id: "next-open", onclick: () => {
          const next = overview?.outcomes.find((o) => o.number !== s.number &&
                                                      (o.state === "open" || o.state === "in progress"));
          if (next) open(next.number); else say("No sentence is open.");
        } }, "Next open"),
        h("span", { class: "help" }, "Click a source token (Shift+click for more) or the gap " +
          "between two to write an edit of your own.")),
      s.notes.length ? h("h3", {}, "Notes") : null,
      s.notes.length ? h("ul", { class: "notes" }, s.notes.map((n) => h("li", {},
        h("strong", {}, n.by), n.unsure ? " (unsure)" : "",
        n.change ? [" on ", readable(n.change, s.tokens.length)]
          : n.edit ? ` on ${n.edit}` : "",
        `: ${n.text}`))) : null,
      historyList(s));
    const again = focused ? document.getElementById(focused) : null;
    if (again && view.contains(again)) again.focus();
  }

  // Live updates: another person's save or decision refreshes the list, and the open
  // sentence when it is the one concerned (an edit being written is kept).
  function listen(): void {
    const heard = (kind: string) => (update: Update) => {
      live.textContent = kind === "saved"
        ? `${update.user} saved sentence ${update.sentence}`
        : `${update.user}: ${update.action}${update.sentence ? ` on ${update.sentence}` : ""}`;
      if (current && (update.sentence === null || update.sentence === current)) open(current);
      else refresh().catch(() => undefined);
      if (kind === "decided") reloadPanels();
    };
    listenLive({ saved: heard("saved"), decided: heard("decided"),
                 source: () => { refresh().catch(() => undefined); } }, () => {
      // back after the stream broke: the list, the open sentence and the panels again
      if (current) open(current); else refresh().then(openFirst).catch(() => undefined);
      reloadPanels();
    }, () => main.isConnected);
  }

  async function openFirst(): Promise<void> {
    if (current) return;
    const wanted = Number(location.hash.slice(1));
    const first = overview?.outcomes.find((o) => o.number === wanted) ?? overview?.outcomes[0];
    if (first) await open(first.number, true);
    else replace(view, h("p", {}, "No annotator has a layer yet."));
  }

  window.addEventListener("hashchange", () => {
    const number = Number(location.hash.slice(1));
    if (main.isConnected && Number.isInteger(number) && number > 0 && number !== current) {
      open(number);
    }
  });

  (async () => {
    types = (await api<{ types: [string, string][] }>("GET", "/api/types")).types;
    listen();
    await refresh();
    await openFirst();
  })().catch(sayFailed);
}
