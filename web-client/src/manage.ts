// The manager's page: sentence ranges given to annotators, and each one's progress.
import { api } from "./api";
import { h, replace, say } from "./dom";

interface Person { user: string; assigned: number; done: number }

export function manage(main: HTMLElement): void {
  const table = h("tbody");
  const user = h("select", { id: "assign-user", required: true });
  const first = h("input", { id: "assign-first", type: "number", min: 1, required: true });
  const last = h("input", { id: "assign-last", type: "number", min: 1, required: true });
  const form = h("form", { class: "assign", "aria-labelledby": "assign-title" },
    h("h2", { id: "assign-title" }, "Assign sentences"),
    h("label", { for: "assign-user" }, "Annotator"), user,
    h("label", { for: "assign-first" }, "From sentence"), first,
    h("label", { for: "assign-last" }, "To sentence"), last,
    h("button", { type: "submit" }, "Assign"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await api<{ user: string; first: number; last: number }>(
        "POST", "/api/assignments",
        { user: user.value, first: Number(first.value), last: Number(last.value) });
      say(`Sentences ${made.first}–${made.last} assigned to ${made.user}.`);
    } catch (e) {
      say(e instanceof Error ? e.message : String(e), "error");
    }
    await refresh();
  });
  replace(main, h("section", { "aria-labelledby": "progress-title" },
    h("h2", { id: "progress-title" }, "Progress"),
    h("table", { class: "progress" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Annotator"),
        h("th", { scope: "col" }, "Assigned"), h("th", { scope: "col" }, "Done"),
        h("th", { scope: "col" }, "Progress"))),
      table)), form);

  async function refresh(): Promise<void> {
    const people = (await api<{ annotators: Person[] }>("GET", "/api/progress")).annotators;
    const chosen = user.value;
    replace(user, people.map((p) => h("option", { value: p.user, selected: p.user === chosen },
                                      p.user)));
    replace(table, people.map((p) => h("tr", { "data-user": p.user },
      h("th", { scope: "row" }, p.user), h("td", {}, String(p.assigned)),
      h("td", {}, String(p.done)),
      h("td", {}, h("progress", { max: Math.max(p.assigned, 1), value: p.done,
                                  "aria-label": `${p.user}: ${p.done} of ${p.assigned}` })))));
  }

  refresh();
}
