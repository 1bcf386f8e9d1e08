// The curator's page: the sentences with the open ones first, one sentence with every
// annotator's version side by side; take a version, accept or reject an edit, mark a
// sentence done, accept everything the annotators agree on. Each button sends one
// decision; the server makes it (m2lsp.curation) and the page shows what it returns.
import { api } from "./api";
import { change, h, replace, say, tokenRow } from "./dom";

interface Item { number: number; state: string; rule: string; text: string }
interface Overview {
  names: string[]; sentences: number; curated: number; counts: Record<string, number>;
  outcomes: Item[];
}
interface Spec {
  key: string; start: number; end: number; type: string; original: string;
  correction: string; in_gold: boolean; agreed: boolean;
}
interface Sentence {
  number: number; tokens: string[]; state: string; rule: string; gold: Spec[];
  versions: Record<string, Spec[] | null>; notes: { by: string; text: string; unsure: boolean;
    edit: string | null }[];
}

export function curate(main: HTMLElement): void {
  let current = 0;
  let overview = null as Overview | null;
  const list = h("ol", { class: "sentences" });
  const counts = h("p", { id: "counts" });
  const view = h("section", { class: "sentence", "aria-labelledby": "sentence-title" });
  const agreed = h("button", { type: "button", id: "accept-agreed" }, "Accept all agreed");
  agreed.addEventListener("click", () => decide("/api/curation", { action: "accept-agreed" },
                                                "Every agreed edit accepted."));
  replace(main, h("nav", { "aria-label": "Sentences to curate" }, counts, agreed, list), view);

  async function refresh(): Promise<void> {
    overview = await api<Overview>("GET", "/api/curating");
    const o = overview;
    counts.textContent = `${o.curated} of ${o.sentences} curated` +
      (o.counts.open ? ` · ${o.counts.open} open` : "");
    replace(list, o.outcomes.map((item) => h("li", { class: item.state.replace(" ", "-") },
      h("button", { type: "button", "data-number": item.number,
                    "aria-current": item.number === current ? "true" : null,
                    onclick: () => open(item.number) },
        h("span", { class: "badge" }, item.state), ` ${item.number}. ${item.text}`))));
  }

  async function open(number: number): Promise<void> {
    current = number;
    const s = await api<Sentence>("GET", `/api/curating/${number}`);
    location.hash = `#${number}`;
    render(s);
    await refresh();
  }

  async function decide(path: string, body: object, message: string): Promise<void> {
    try {
      await api("POST", path, body);
      say(message);
    } catch (e) {
      say(e instanceof Error ? e.message : String(e), "error");
    }
    if (current) await open(current);
    else await refresh();
  }

  const on = (body: object, message: string) =>
    decide(`/api/curation/${current}`, body, message);

  function specRow(spec: Spec, button: HTMLElement | null): HTMLElement {
    return h("li", { "data-key": spec.key },
      change(spec.original, spec.correction), " ", h("code", {}, spec.type),
      spec.agreed ? h("span", { class: "badge agreed" }, "agreed") : null,
      spec.in_gold ? h("span", { class: "badge gold" }, "in gold") : null, " ", button);
  }

  function render(s: Sentence): void {
    const columns = Object.entries(s.versions).map(([name, specs]) =>
      h("section", { class: "version", "aria-label": `${name}'s version` },
        h("h3", {}, name),
        specs === null ? h("p", { class: "empty" }, "not annotated yet")
          : specs.length === 0 ? h("p", { class: "empty" }, "no error")
          : h("ul", {}, specs.map((spec) => specRow(spec, spec.in_gold ? null :
              h("button", { type: "button", class: "accept",
                            onclick: () => on({ action: "accept", value: spec.key, from: name },
                                              `Accepted ${spec.key}.`) }, "Accept")))),
        specs === null ? null : h("button", { type: "button", class: "take",
          onclick: () => on({ action: "take", value: name }, `Took ${name}'s version.`) },
          `Take ${name}'s version`)));
    const gold = h("section", { class: "version gold", "aria-label": "The gold" },
      h("h3", {}, "Gold"),
      s.gold.length ? h("ul", {}, s.gold.map((spec) => specRow(spec,
        h("button", { type: "button", class: "reject",
                      onclick: () => on({ action: "reject", value: spec.key },
                                        `Rejected ${spec.key}.`) }, "Reject"))))
        : h("p", { class: "empty" }, "no edit"));
    replace(view,
      h("h2", { id: "sentence-title" }, `Sentence ${s.number}`),
      h("p", {}, h("span", { class: `badge ${s.state.replace(" ", "-")}`, id: "state" }, s.state),
        s.rule && s.rule !== s.state ? ` ${s.rule}` : ""),
      tokenRow(s.tokens),
      h("div", { class: "versions" }, columns, gold),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "done",
                      onclick: () => on({ action: "done" }, "Sentence curated.") }, "Done"),
        h("button", { type: "button",
                      onclick: () => on({ action: "correct" }, "Marked correct as it is.") },
          "Correct as it is"),
        h("button", { type: "button",
                      onclick: () => on({ action: "reopen" }, "Sentence reopened.") }, "Reopen"),
        h("button", { type: "button", id: "next-open", onclick: () => {
          const next = overview?.outcomes.find((o) => o.number !== s.number &&
                                                      (o.state === "open" || o.state === "in progress"));
          if (next) open(next.number); else say("No sentence is open.");
        } }, "Next open")),
      s.notes.length ? h("h3", {}, "Notes") : null,
      s.notes.length ? h("ul", { class: "notes" }, s.notes.map((n) => h("li", {},
        h("strong", {}, n.by), n.unsure ? " (unsure)" : "", n.edit ? ` on ${n.edit}` : "",
        `: ${n.text}`))) : null);
  }

  (async () => {
    await refresh();
    const wanted = Number(location.hash.slice(1));
    const first = overview?.outcomes.find((o) => o.number === wanted) ?? overview?.outcomes[0];
    if (first) await open(first.number);
    else replace(view, h("p", {}, "No annotator has a layer yet."));
  })();
}
