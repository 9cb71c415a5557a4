/**
 * One member of staff for the load benchmark: a session of their own (cookies kept like a
 * browser, one refresh after a 401 as the web app does), and the requests staff make, each
 * timed and filed under its kind.
 */

/** Latencies (ms) and failures per kind of request. */
export interface Recorder {
  /** `appMs`: the time inside the app, from its `Server-Timing` answer, when it sent one. */
  record(kind: string, ms: number, ok: boolean, appMs?: number): void;
}

/** A signed-in member of staff. */
export interface Staff {
  /** Sends one request, times it, and records it; answers the parsed JSON (or null). */
  call(kind: string, method: string, path: string, body?: unknown): Promise<unknown>;
  /** Sends a file as multipart, as the CLI's import does. */
  upload(kind: string, path: string, fileName: string, bytes: Uint8Array): Promise<unknown>;
  /** The session's `Cookie` header as it stands, for another client (wrk) to send. */
  cookie(): string;
  /**
   * Renews the session's access token (it lasts 15 minutes): wrk, sending a copied cookie,
   * cannot, and a round that began with an old token was answered 401 half-way.
   */
  renew(): Promise<void>;
}

/** A failed request, with what the server said. */
export class LoadError extends Error {}

/**
 * Logs `username` in at `baseUrl` and answers a client whose every request is recorded.
 *
 * @example
 * const staff = await signIn(url, "staff-1", "password", recorder);
 * await staff.call("order list", "POST", "/api/order-tracking/list", { PageSize: 50 });
 */
export async function signIn(
  baseUrl: string,
  username: string,
  password: string,
  recorder: Recorder,
): Promise<Staff> {
  const cookies = new Map<string, string>();
  const origin = new URL(baseUrl).origin;

  const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");

  async function send(method: string, path: string, body?: BodyInit, type?: string) {
    const headers = new Headers({ accept: "application/json", origin });
    if (type) headers.set("content-type", type);
    if (cookies.size) headers.set("cookie", cookie());
    const response = await fetch(new URL(path, baseUrl), { method, headers, body });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0];
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value === "" || /Max-Age=0/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  }

  /** Asks for a new access token, as the web app does; true when it was given. */
  async function refresh(): Promise<boolean> {
    const refreshed = await send("POST", "/auth/refresh-token", "", "application/json");
    await refreshed.body?.cancel();
    return refreshed.ok;
  }

  async function timed(
    kind: string,
    attempt: () => Promise<Response>,
  ): Promise<unknown> {
    const started = performance.now();
    let response = await attempt();
    if (response.status === 401) {
      await response.body?.cancel();
      await refresh();
      response = await attempt();
    }
    const text = await response.text();
    const ms = performance.now() - started;
    const ok = response.status >= 200 && response.status < 300;
    const app = /app;dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
    recorder.record(kind, ms, ok, app ? Number(app[1]) : undefined);
    if (!ok) throw new LoadError(`${kind}: ${response.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : null;
  }

  const login = await send(
    "POST",
    "/auth/login",
    JSON.stringify({ username, password }),
    "application/json",
  );
  const answer = await login.text();
  if (login.status !== 200) {
    throw new LoadError(`login of ${username}: ${login.status} ${answer.slice(0, 200)}`);
  }

  return {
    call: (kind, method, path, body) =>
      timed(
        kind,
        () =>
          send(
            method,
            path,
            body === undefined ? undefined : JSON.stringify(body),
            body === undefined ? undefined : "application/json",
          ),
      ),
    upload: (kind, path, fileName, bytes) =>
      timed(kind, () => {
        const form = new FormData();
        form.append("file", new File([bytes as BlobPart], fileName));
        return send("POST", path, form);
      }),
    cookie,
    async renew() {
      if (!await refresh()) throw new LoadError(`refresh of ${username} failed`);
    },
  };
}
