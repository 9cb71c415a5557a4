/**
 * The one place the web app talks HTTP. Every call sends cookies; a 401 triggers one shared
 * token refresh and one repeat of the original request (spec part 1, section 4).
 */
import { navigate } from "wouter/use-browser-location";

const REFRESH_PATH = "/auth/refresh-token";
const SESSION_COOKIES = ["X-Access-Token", "X-Refresh-Token", "X-Username"];

/** Exact console text the spec asks for when a refresh fails (part 1, section 8). */
export const SESSION_EXPIRED_LOG = "Session expired. Redirecting to login.";

type SessionExpiredListener = () => void;
const sessionExpiredListeners = new Set<SessionExpiredListener>();

// Shared by every request that sees a 401 while a refresh is running, so the server sees a
// single refresh call (refresh tokens rotate; parallel refreshes would look like reuse).
let refreshInFlight: Promise<boolean> | null = null;

/**
 * Registers a callback run when the session cannot be refreshed (before the redirect to /).
 * Returns a function that removes it.
 */
export function onSessionExpired(listener: SessionExpiredListener): () => void {
  sessionExpiredListeners.add(listener);
  return () => sessionExpiredListeners.delete(listener);
}

/**
 * Removes the session cookies the browser can reach. The two token cookies are HttpOnly, so
 * this is best effort; the server clears them on logout and on a failed refresh.
 */
export function clearClientSession(): void {
  for (const name of SESSION_COOKIES) {
    document.cookie = `${name}=; Max-Age=0; path=/`;
  }
}

/** Navigates to the login page without a reload, unless the browser is already there. */
export function goToLogin(): void {
  if (location.pathname !== "/") navigate("/", { replace: true });
}

function urlOf(input: RequestInfo | URL): string {
  if (input instanceof Request) return input.url;
  return String(input);
}

// A 401 from the login call means wrong credentials, not an expired session: refreshing
// there would only print "Session expired" beside the login error.
const NO_REFRESH_PATHS = new Set([REFRESH_PATH, "/auth/login"]);

function isRefreshExempt(input: RequestInfo | URL): boolean {
  return NO_REFRESH_PATHS.has(new URL(urlOf(input), location.href).pathname);
}

function withDefaults(init: RequestInit | undefined): RequestInit {
  const headers = new Headers(init?.headers);
  const method = (init?.method ?? "GET").toUpperCase();
  // The server's CSRF rule accepts state-changing requests with a JSON content type.
  if (method !== "GET" && method !== "HEAD") {
    if (!headers.has("Accept")) headers.set("Accept", "application/json");
    if (!headers.has("Content-Type") && !(init?.body instanceof FormData)) {
      headers.set("Content-Type", "application/json");
    }
  }
  return { ...init, headers, credentials: "include" };
}

async function refreshSession(): Promise<boolean> {
  try {
    const response = await fetch(REFRESH_PATH, withDefaults({ method: "POST" }));
    return response.status === 200 || response.status === 204;
  } catch {
    return false;
  }
}

/** Runs at most one refresh at a time; callers arriving meanwhile share its outcome. */
function sharedRefresh(): Promise<boolean> {
  refreshInFlight ??= refreshSession().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

function expireSession(): void {
  clearClientSession();
  for (const listener of sessionExpiredListeners) listener();
  console.warn(SESSION_EXPIRED_LOG);
  goToLogin();
}

/**
 * fetch with the app's session rules: credentials always, JSON headers on writes, and on a
 * 401 (except from the refresh and login calls) one refresh then one repeat. When the refresh
 * fails the client session is cleared and the browser goes to /; the original 401 response
 * is still returned so the caller can react to it.
 */
export async function apiFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  // A Request body can be read once; keep a copy for the repeat.
  const spare = input instanceof Request ? input.clone() : input;
  const response = await fetch(input, withDefaults(init));
  if (response.status !== 401 || isRefreshExempt(input)) return response;

  if (!(await sharedRefresh())) {
    expireSession();
    return response;
  }
  return fetch(spare, withDefaults(init));
}

/** How much of an upload has been sent. */
export type UploadProgress = (sent: number, total: number) => void;

/** A body apiUpload sends: a multipart form, or JSON text (a save that carries a file as base64). */
export type UploadBody = FormData | string;

/** One POST through XMLHttpRequest, the one browser API that reports upload progress. */
function xhrPost(url: string, body: UploadBody, onProgress: UploadProgress): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    // JSON text as withDefaults sends it (the CSRF rule accepts a JSON content type).
    if (typeof body === "string") xhr.setRequestHeader("Content-Type", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    xhr.onload = () =>
      resolve(
        new Response(xhr.status === 204 ? null : xhr.responseText, {
          status: xhr.status,
          headers: { "Content-Type": xhr.getResponseHeader("Content-Type") ?? "text/plain" },
        }),
      );
    xhr.onerror = () => reject(new TypeError("Failed to fetch"));
    xhr.onabort = () => reject(new DOMException("The upload was aborted.", "AbortError"));
    xhr.send(body);
  });
}

/**
 * A POST (multipart, or JSON text) that reports its upload progress, with apiFetch's session
 * rules (a 401 refreshes once and repeats the upload; a failed refresh ends the session).
 */
export async function apiUpload(
  url: string,
  body: UploadBody,
  onProgress: UploadProgress,
): Promise<Response> {
  const response = await xhrPost(url, body, onProgress);
  if (response.status !== 401) return response;
  if (!(await sharedRefresh())) {
    expireSession();
    return response;
  }
  return xhrPost(url, body, onProgress);
}
