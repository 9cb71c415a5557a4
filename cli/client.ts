/**
 * The CLI's one HTTP client (issue 15): every command that reads or changes application state
 * goes through the server's API with a personal access token, so it works while the server runs,
 * against a remote server, and with the permissions of the screens. Errors become `CliError`s
 * carrying the exit code (`EXIT`) and one line for the user.
 *
 * @module
 */
import { readCredentials } from "./credentials.ts";

/** Exit codes of every server command (also in `cli --help` and the README). */
export const EXIT = {
  /** Done. */
  ok: 0,
  /** Refused input (a bad argument or file) or the server said no (400, 403, 404, 409, 5xx). */
  refused: 1,
  /** Done, but held (inventory guard) or with row errors (an import run): look before trusting it. */
  attention: 2,
  /** The server could not be reached. */
  unreachable: 3,
  /** Not authenticated: no token, a wrong or revoked one, or a deactivated user (401). */
  unauthenticated: 4,
} as const;

/** The help text listing the exit codes. */
export const EXIT_HELP = `
Exit codes:
  0  done
  1  refused: a bad argument or input file, the server said no (the message says why), or the
     import run failed as a whole (orders import, runs rerun: e.g. a missing column)
  2  done with something to look at: the run has row errors (orders import, runs rerun), or it
     is held by the inventory guard (inventory process, runs rerun)
  3  the server could not be reached (the message names the URL)
  4  not authenticated: no token, or a wrong or revoked one: run \`cli login\`
With --json every path prints one JSON document on stdout, errors as {"error": {...}}.`;

/** An error meant for the user: one line, an exit code, and what the server said. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.refused,
    readonly status?: number,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

/** Where the server is and how to authenticate, from the options and the environment. */
export interface Connection {
  server: string;
  token?: string;
}

/** Global options that every server command accepts. */
export interface ConnectionOptions {
  server?: string;
  token?: string;
}

/** The server URL: `--server`, else `SOURCE_MANAGER_URL`, else the local `PORT` (8000). */
export function serverUrl(option?: string): string {
  const raw = option || Deno.env.get("SOURCE_MANAGER_URL") ||
    `http://127.0.0.1:${Deno.env.get("PORT") || "8000"}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`--server "${raw}" is not a URL (e.g. http://127.0.0.1:8000)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CliError(`--server "${raw}" must start with http:// or https://`);
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** The token: `--token`, else `SOURCE_MANAGER_TOKEN`, else the one `cli login` stored. */
export async function resolveConnection(options: ConnectionOptions): Promise<Connection> {
  const server = serverUrl(options.server);
  const token = options.token || Deno.env.get("SOURCE_MANAGER_TOKEN") ||
    (await readCredentials())[server]?.token;
  return { server, token: token || undefined };
}

/** What a request may carry. */
export interface RequestOptions {
  json?: unknown;
  form?: FormData;
  query?: Record<string, string | number | undefined>;
  /** Send no token even when one is known (`cli login`'s password step). */
  anonymous?: boolean;
  /** Extra headers (the session cookie of `cli login`). */
  headers?: Record<string, string>;
}

/** The API of one server, with one token. */
export class ApiClient {
  constructor(readonly connection: Connection) {}

  /** Sends a request; answers the parsed JSON (null for 204); throws `CliError` otherwise. */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}) {
    return (await this.raw<T>(method, path, options)).body;
  }

  /** Like `request`, with the response's headers (for cookies). */
  async raw<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<{ body: T; headers: Headers }> {
    const { server, token } = this.connection;
    const url = new URL(server + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers = new Headers({ accept: "application/json", ...options.headers });
    if (token && !options.anonymous) headers.set("authorization", `Bearer ${token}`);
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers.set("content-type", "application/json");
    }
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body });
    } catch (error) {
      const message = oneLine((error as Error).message);
      const reason = /connection refused|timed out|dns error|certificate|reset by peer/i.exec(
        message,
      )?.[0]?.toLowerCase() ?? message;
      throw new CliError(`cannot reach the server at ${server}: ${reason}`, EXIT.unreachable);
    }
    const text = await response.text();
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new CliError(
          `${server} answered ${method} ${path} with ${response.status} and no JSON: is it the source manager?`,
          response.status === 401 ? EXIT.unauthenticated : EXIT.refused,
          response.status,
        );
      }
    }
    if (response.ok) return { body: parsed as T, headers: response.headers };
    const answer = (parsed ?? {}) as { message?: unknown; errors?: Record<string, string[]> };
    const message = typeof answer.message === "string" && answer.message
      ? answer.message
      : `${method} ${path} answered ${response.status}`;
    if (response.status === 401) {
      throw new CliError(
        token || options.headers
          ? "not logged in or token revoked: run `cli login`"
          : "not logged in: run `cli login` (or set SOURCE_MANAGER_TOKEN)",
        EXIT.unauthenticated,
        401,
      );
    }
    throw new CliError(message, EXIT.refused, response.status, answer.errors);
  }

  /** GET */
  get<T = unknown>(path: string, query?: RequestOptions["query"]): Promise<T> {
    return this.request<T>("GET", path, { query });
  }

  /** POST with a JSON body. */
  post<T = unknown>(path: string, json?: unknown): Promise<T> {
    return this.request<T>("POST", path, { json: json ?? {} });
  }
}

/** Collapses whitespace so that an error stays on one line. */
export const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();
