/** The current username as the spec's client holds it: the readable `X-Username` cookie. */

/** Reads `X-Username` (set by the server at login and after a rename), or null when absent. */
export function usernameFromCookie(): string | null {
  for (const part of document.cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== "X-Username") continue;
    try {
      return decodeURIComponent(rest.join("=")) || null;
    } catch {
      return null;
    }
  }
  return null;
}
