/**
 * The one way pages call the API (docs/web_decisions.md, "Calling the API"): `call(...)` takes a
 * typed-client call (`api.api.accounts.list.$get()`), waits for it and returns the parsed JSON,
 * or throws the one error type, {@link ApiError}. The session rules (cookies, JSON headers,
 * refresh-then-repeat on 401, redirect to the login page) stay in `apiFetch` (http.ts), which
 * the typed client uses as its fetch.
 */
import type { ClientResponse } from "hono/client";

/** Field name → messages, as the server's `{ message, errors }` error body carries them. */
export type FieldErrors = Record<string, string[]>;

/** Status of an ApiError raised because the request never got an answer. */
export const NETWORK_FAILURE = 0;

/**
 * A call that did not answer 200/204, or did not get through at all (`status` 0). `message` is
 * the server's `message` when it sent one, else `Request failed (status).` (or the network
 * error's own message); `serverMessage` is only the server's. `errors` holds the field errors of
 * a 400, `text` the raw body.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
    readonly errors: FieldErrors = {},
    readonly text = "",
    options?: ErrorOptions,
  ) {
    super(serverMessage ?? fallbackMessage(status, options?.cause), options);
    this.name = "ApiError";
  }

  /** True when the request never got an answer (network failure). */
  get isNetworkFailure(): boolean {
    return this.status === NETWORK_FAILURE;
  }
}

function fallbackMessage(status: number, cause: unknown): string {
  if (status !== NETWORK_FAILURE) return `Request failed (${status}).`;
  return cause instanceof Error ? cause.message : "The server could not be reached.";
}

/**
 * The server's message of `error` when it is an ApiError that carries one, else `fallback`: the
 * spec's texts read "the server's message, else ...".
 */
export function messageOr(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/** True for the statuses the spec counts as success. */
export function isSuccess(response: Pick<Response, "status">): boolean {
  return response.status === 200 || response.status === 204;
}

/** What `call` reads of a response; the typed client's responses satisfy it. */
type ResponseLike = Pick<Response, "status" | "text">;

/** A JSON text parsed, or undefined when it is empty or not JSON. */
function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Builds the ApiError of a response that is not a success. */
export async function errorOf(response: ResponseLike): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  const body = parseJson(text) as { message?: unknown; errors?: unknown } | undefined;
  const message = typeof body?.message === "string" && body.message ? body.message : undefined;
  const errors = body?.errors && typeof body.errors === "object" ? body.errors as FieldErrors : {};
  return new ApiError(response.status, message, errors, text);
}

/**
 * Waits for a typed-client call and returns its JSON answer (undefined for an empty 204).
 * Anything but 200/204 throws an {@link ApiError} with the status, the server's message and field
 * errors; a network failure throws one with status 0.
 *
 * ```ts ignore
 * const users = await call(api.api.accounts.list.$get());
 * ```
 */
// deno-lint-ignore no-explicit-any
export async function call<T>(request: Promise<ClientResponse<T, any, any>>): Promise<T> {
  let response: ResponseLike;
  try {
    response = await request;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(NETWORK_FAILURE, undefined, {}, "", { cause: error });
  }
  if (!isSuccess(response)) throw await errorOf(response);
  return parseJson(await response.text()) as T;
}
