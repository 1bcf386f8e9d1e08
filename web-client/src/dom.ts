// A tiny element builder: h("button", {type: "button", onclick}, "Save").
type Attrs = { [name: string]: string | number | boolean | null | undefined | EventListener };
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

export function replace(parent: Element, ...children: (Child | Child[])[]): void {
  parent.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child);
  }
}

// A message in the page's live region (role=status), read by screen readers; "" clears it.
export function say(message: string, kind: "info" | "error" = "info"): void {
  const region = document.getElementById("status");
  if (!region) return;
  region.textContent = message;
  region.className = message ? kind : "";
}

// A request's failure said in the status line (the server's reason, or that it cannot be
// reached).
export function sayFailed(e: unknown): void {
  say(e instanceof Error ? e.message : String(e), "error");
}

// Tokens start..end (0-based, end exclusive: what the server is sent) as the person reads
// them: 1-based and inclusive ("token 2", "tokens 2–4"), or the gap before token start.
export function tokensName(start: number, end: number, count?: number): string {
  if (start === end) {
    return count !== undefined && start >= count ? "at the end" : `before token ${start + 1}`;
  }
  return end - start === 1 ? `token ${start + 1}` : `tokens ${start + 1}–${end}`;
}

// One write at a time on a page: `run` sends it unless one is in flight (then it answers
// null and nothing is sent: a double click writes once), with the buttons, selects and
// check boxes of `scope` disabled meanwhile (text boxes stay open for typing).
export class Writes {
  private running: Promise<unknown> | null = null;

  constructor(private scope: () => Element[]) {}

  get busy(): boolean {
    return this.running !== null;
  }

  run<T>(task: () => Promise<T>): Promise<T> | null {
    if (this.running) return null;
    const held = this.scope().flatMap((root) => [...root.querySelectorAll<
      HTMLButtonElement | HTMLSelectElement | HTMLInputElement>(
      "button, select, input[type=checkbox]")]).filter((e) => !e.disabled);
    held.forEach((e) => { e.disabled = true; });
    const running = task().finally(() => {
      this.running = null;
      held.forEach((e) => { if (e.isConnected) e.disabled = false; });
    });
    this.running = running;
    return running;
  }
}

// A sentence's tokens, each with its number: the positions the edits count.
export function tokenRow(tokens: string[]): HTMLElement {
  return h("p", { class: "tokens", lang: "" },
    tokens.map((token, i) => h("span", { class: "token" }, h("sub", {}, String(i + 1)), token)));
}

// An edit as "original → correction" (an insertion or a deletion shown with ∅).
export function change(original: string, correction: string): HTMLElement {
  return h("span", { class: "change" },
    h("del", {}, original || "∅"), " → ", h("ins", {}, correction || "∅"));
}

// An edit as the server describes one (a log's, a note's): 0-based tokens, the words it
// covers, what they become and its type.
export interface EditShown { start: number; end: number; type: string; original: string;
                             correction: string }

// It as the pages show edits: where (1-based), what it becomes, its type.
export function readable(e: EditShown, count: number): HTMLElement {
  return h("span", { class: "edit" }, `${tokensName(e.start, e.end, count)}: `,
           change(e.original, e.correction), " ", h("code", {}, e.type));
}

// The source's tokens as buttons (numbered from 1), and the gaps between them: a click on
// a token selects it (Shift+click extends the selection `span`), a click on a gap picks
// an insertion point; `pick` gets the new span (0-based, end exclusive; [at, at] for a
// gap).
export function tokenPicker(tokens: string[], span: [number, number] | null, label: string,
                            pick: (next: [number, number]) => void): HTMLElement {
  const gap = (at: number) => h("button", {
    type: "button", class: "gap", "data-at": at, "aria-label": `Insert ${tokensName(at, at, tokens.length)}`,
    title: `Insert ${tokensName(at, at, tokens.length)}`,
    "aria-pressed": span !== null && span[0] === at && span[1] === at ? "true" : "false",
    onclick: () => pick([at, at]),
  }, "");
  const row = h("p", { class: "tokens source", role: "group", "aria-label": label });
  tokens.forEach((token, i) => {
    const chosen = span !== null && span[0] <= i && i < span[1];
    row.append(gap(i), h("button", {
      type: "button", class: "token", "data-index": i, "aria-pressed": String(chosen),
      "aria-label": `token ${i + 1}: ${token}`,  // not "1This"
      onclick: (event: Event) => {
        const shift = (event as MouseEvent).shiftKey && span !== null;
        pick(shift ? [Math.min(span![0], i), Math.max(span![1], i + 1)] : [i, i + 1]);
      },
    }, h("sub", {}, String(i + 1)), token));
  });
  row.append(gap(tokens.length));
  return row;
}
