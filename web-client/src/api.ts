// The JSON API: every write carries the session's CSRF token (X-CSRF-Token).
let csrf = "";

export function setToken(token: string): void {
  csrf = token;
}

export class ApiError extends Error {
  constructor(public status: number, public data: any) {
    super(typeof data?.error === "string" ? data.error : `HTTP ${status}`);
  }
}

// What the page says when the request never reached the server (it is down, the network
// is): status 0. A write's change is not saved; the page keeps it, to be sent again.
export const UNREACHABLE = "cannot reach the server: your change is not saved; try again";
export const UNREACHABLE_READ = "cannot reach the server: try again";

export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (method !== "GET") headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, {
      method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { error: method === "GET" ? UNREACHABLE_READ : UNREACHABLE });
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data as T;
}

export interface Me { user: string; role: "annotator" | "curator" | "manager"; csrf: string }
