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

// A message in the page's live region (role=status), read by screen readers.
export function say(message: string, kind: "info" | "error" = "info"): void {
  const region = document.getElementById("status");
  if (!region) return;
  region.textContent = message;
  region.className = kind;
}

// A sentence's tokens, each with its number: the positions the edits count.
export function tokenRow(tokens: string[]): HTMLElement {
  return h("p", { class: "tokens", lang: "" },
    tokens.map((token, i) => h("span", { class: "token" }, h("sub", {}, String(i)), token)));
}

// An edit as "original → correction" (an insertion or a deletion shown with ∅).
export function change(original: string, correction: string): HTMLElement {
  return h("span", { class: "change" },
    h("del", {}, original || "∅"), " → ", h("ins", {}, correction || "∅"));
}

// The source's tokens as buttons, and the gaps between them: a click on a token selects
// it (Shift+click extends the selection `span`), a click on a gap picks an insertion
// point; `pick` gets the new span ([at, at] for a gap).
export function tokenPicker(tokens: string[], span: [number, number] | null, label: string,
                            pick: (next: [number, number]) => void): HTMLElement {
  const gap = (at: number) => h("button", {
    type: "button", class: "gap", "data-at": at, "aria-label": `Insert before token ${at}`,
    "aria-pressed": span !== null && span[0] === at && span[1] === at ? "true" : "false",
    onclick: () => pick([at, at]),
  }, "");
  const row = h("p", { class: "tokens source", role: "group", "aria-label": label });
  tokens.forEach((token, i) => {
    const chosen = span !== null && span[0] <= i && i < span[1];
    row.append(gap(i), h("button", {
      type: "button", class: "token", "data-index": i, "aria-pressed": String(chosen),
      onclick: (event: Event) => {
        const shift = (event as MouseEvent).shiftKey && span !== null;
        pick(shift ? [Math.min(span![0], i), Math.max(span![1], i + 1)] : [i, i + 1]);
      },
    }, h("sub", {}, String(i)), token));
  });
  row.append(gap(tokens.length));
  return row;
}
