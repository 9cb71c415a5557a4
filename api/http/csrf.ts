/**
 * CSRF protection for state-changing requests: a browser request must come from our own origin
 * (Origin, else Sec-Fetch-Site); without those browser headers, only content types that a
 * cross-site form cannot send are accepted. A form can send exactly three (`enctype`): urlencoded,
 * multipart/form-data and text/plain; all three are refused (docs/auth.md, "CSRF").
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../deps.ts";
import { forbidden } from "./errors.ts";

/** Methods that change nothing (RFC 9110, section 9.2.1). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);
const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)/i;

/** Rejects cross-site state-changing requests with 403. */
export const csrfGuard = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return await next();
  // A bearer request authenticates by its Authorization header only (api/auth/guards.ts), which
  // a cross-site page cannot set without a CORS preflight we never grant: no cookie, no CSRF.
  if (/^Bearer\s/i.test(c.req.header("authorization") ?? "")) return await next();
  const origin = c.req.header("origin");
  const own = new URL(c.req.url).origin;
  const publicUrl = c.var.deps.config.PUBLIC_URL;
  const allowed = origin === own ||
    (publicUrl !== undefined && origin === new URL(publicUrl).origin);
  const fetchSite = c.req.header("sec-fetch-site");
  const contentType = c.req.header("content-type") ?? "";
  if (origin !== undefined && origin !== "null") {
    if (!allowed) throw forbidden("Cross-site request refused.");
  } else if (fetchSite !== undefined && fetchSite !== "same-origin" && fetchSite !== "none") {
    throw forbidden("Cross-site request refused.");
  } else if (FORM_TYPES.test(contentType) || origin === "null") {
    // A browser always sends Origin on a POST; a script without one sends JSON, or a file upload
    // with Origin or a bearer token (what the web app and the CLI do).
    throw forbidden(
      "Cross-site request refused: a form post needs this site's Origin header (or send JSON, " +
        "or use an access token).",
    );
  }
  await next();
});
