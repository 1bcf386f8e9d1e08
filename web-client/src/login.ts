import { api, ApiError, Me, setToken } from "./api";
import { h, replace } from "./dom";

// The login form; `done` gets the person once logged in.
export function login(root: HTMLElement, done: (me: Me) => void): void {
  const name = h("input", { id: "name", name: "name", autocomplete: "username", required: true });
  const password = h("input", { id: "password", name: "password", type: "password",
                                autocomplete: "current-password", required: true });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "login", "aria-labelledby": "login-title" },
    h("h1", { id: "login-title" }, "m2lsp: log in"),
    h("label", { for: "name" }, "Name"), name,
    h("label", { for: "password" }, "Password"), password,
    h("button", { type: "submit" }, "Log in"), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const me = await api<Me>("POST", "/login", { name: name.value, password: password.value });
      setToken(me.csrf);
      done(me);
    } catch (e) {
      error.textContent = e instanceof ApiError ? e.message : String(e);
    }
  });
  replace(root, form);
  name.focus();
}
