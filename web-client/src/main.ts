// The page: who is logged in decides what it shows (an annotator's sentences, the
// curation, the manager's assignments); the login form otherwise.
import "./app.css";
import { api, ApiError, Me, setToken } from "./api";
import { annotate } from "./annotate";
import { curate } from "./curate";
import { h, replace } from "./dom";
import { login } from "./login";
import { manage } from "./manage";

const PAGES = { annotator: annotate, curator: curate, manager: manage };
const TITLES = { annotator: "Annotate", curator: "Curate", manager: "Manage" };

function shell(root: HTMLElement, me: Me): void {
  const out = h("button", { type: "button", class: "quiet" }, "Log out");
  out.addEventListener("click", async () => {
    await api("POST", "/logout").catch(() => undefined);
    start(root);
  });
  const main = h("main", { id: "page", class: me.role });
  replace(root,
    h("header", {},
      h("h1", {}, `m2lsp · ${TITLES[me.role]}`),
      h("span", { id: "connection", role: "status", hidden: true,
                  title: "The live updates stopped: the page tries again" }, "reconnecting…"),
      h("span", { class: "who" }, `${me.user} (${me.role})`), out),
    h("p", { id: "status", role: "status", "aria-live": "polite" }),
    main);
  document.title = `m2lsp · ${TITLES[me.role]}`;
  PAGES[me.role](main);
}

async function start(root: HTMLElement): Promise<void> {
  try {
    const me = await api<Me>("GET", "/api/me");
    setToken(me.csrf);
    shell(root, me);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e;
    login(root, (me) => shell(root, me));
  }
}

start(document.getElementById("app") as HTMLElement);
