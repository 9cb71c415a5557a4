/**
 * Authorization middleware. Every feature router puts one of these in front of its routes; the
 * server enforces the flags whatever the browser shows (docs/design.md section 8).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../deps.ts";
import { forbidden, unauthorized } from "../http/errors.ts";
import { accessToken } from "./cookies.ts";
import { userForBearerToken } from "./access_tokens.ts";
import { sessionProvedPasswordWithin, type SessionUser, userForAccessToken } from "./sessions.ts";

/** The flags a route can ask for. */
export type Flag = "orderUser" | "inventoryUser" | "submissionUser";

/**
 * The value of `Authorization: Bearer <token>`, or undefined. A request that carries one is
 * authenticated by it alone, never by cookies (which is why the CSRF check lets it through:
 * api/http/csrf.ts).
 */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

const TOKEN_REFUSED = "The access token is unknown or revoked, or its user is deactivated.";

function guard(allowed: (user: SessionUser) => boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const authorization = c.req.header("authorization");
    let user: SessionUser | null;
    if (authorization !== undefined) {
      const bearer = bearerToken(authorization);
      user = bearer ? await userForBearerToken(c.var.deps.db, bearer) : null;
      if (!user) throw unauthorized(bearer ? TOKEN_REFUSED : "Send Authorization: Bearer <token>.");
    } else {
      const token = accessToken(c);
      user = token ? await userForAccessToken(c.var.deps.db, token) : null;
      if (!user) throw unauthorized(token ? "Your session has expired." : "Not logged in.");
    }
    if (!allowed(user)) throw forbidden();
    c.set("user", user);
    await next();
  });
}

/** Any logged-in, active user. */
export const requireUser = guard(() => true);
/** Role Admin. */
export const requireAdmin = guard((user) => user.isAdmin);
/** One flag (Admin does not imply it: flags are set per user, and the first admin has all). */
export const requireFlag = (flag: Flag) => guard((user) => user[flag]);
/** Any of the three user flags, or Admin when `orAdmin` (notification settings). */
export const requireAnyFlag = (orAdmin = false) =>
  guard((user) =>
    user.orderUser || user.inventoryUser || user.submissionUser || (orAdmin && user.isAdmin)
  );

/**
 * How recent the login must be for what could take an account over: changing one's own e-mail
 * address or username, creating access tokens (docs/auth.md, "What a token cannot do").
 */
export const RECENT_LOGIN_MINUTES = 30;

/** True when the request is authenticated by an access token (`Authorization: Bearer`). */
export const isBearerUser = (user: SessionUser): boolean => user.sessionId.startsWith("token:");

/**
 * Refuses with 403 unless the request comes from a browser session (cookie), never an access
 * token. `what` names the action ("Changing the password").
 */
export function ensureSession(c: Context<AppEnv>, what: string): void {
  if (isBearerUser(c.var.user)) {
    throw forbidden(
      `${what} needs your password, which an access token does not prove: do it on the account ` +
        "page, signed in with your password.",
    );
  }
}

/**
 * Refuses with 403 unless the request comes from a browser session whose login (the password)
 * is at most `RECENT_LOGIN_MINUTES` old: a leaked token or an old session left open cannot
 * redirect the account's mail or mint credentials.
 */
export async function ensureRecentLogin(c: Context<AppEnv>, what: string): Promise<void> {
  ensureSession(c, what);
  const recent = await sessionProvedPasswordWithin(
    c.var.deps.db,
    c.var.user.sessionId,
    RECENT_LOGIN_MINUTES,
  );
  if (!recent) {
    throw forbidden(
      `${what} needs a login within the last ${RECENT_LOGIN_MINUTES} minutes: log out, log in ` +
        "again with your password and retry.",
    );
  }
}
