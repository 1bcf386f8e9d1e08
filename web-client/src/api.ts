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

export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (method !== "GET") headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data as T;
}

export interface Me { user: string; role: "annotator" | "curator" | "manager"; csrf: string }
