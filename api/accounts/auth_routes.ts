/** The /auth calls of the contract, plus password-reset completion. */
import { Hono } from "hono";
import {
  completeResetRequest,
  type CurrentUser,
  loginRequest,
  resetPasswordRequest,
} from "../../shared/contract/auth.ts";
import type { AppEnv } from "../deps.ts";
import { unauthorized } from "../http/errors.ts";
import { clientAddress } from "../http/client.ts";
import { body } from "../http/validate.ts";
import {
  accessToken,
  clearSessionCookies,
  refreshToken,
  setSessionCookies,
} from "../auth/cookies.ts";
import { requireUser } from "../auth/guards.ts";
import { verifyPassword } from "../auth/password.ts";
import { completeReset, requestPasswordReset } from "../auth/password_reset.ts";
import {
  openSession,
  refreshSession,
  revokeSession,
  sessionForAccessToken,
  sessionForRefreshToken,
} from "../auth/sessions.ts";
import { admitAttempt, recordFailure, recordSuccess, throttled } from "../auth/throttle.ts";

const LOGIN_FAILED = "Invalid username or password.";

const RESET_SENT =
  "If that account exists and has an e-mail address, a password reset link has been sent to it.";

const flag = (on: boolean) => (on ? "True" : "False") as "True" | "False";

export const authRoutes = new Hono<AppEnv>()
  .get("/allowed", requireUser, (c) => c.json(true))
  .get("/user", requireUser, (c) => {
    const user = c.var.user;
    return c.json(
      {
        userId: user.userId,
        username: user.username,
        role: user.isAdmin ? "Admin" : "User",
        inventoryUser: flag(user.inventoryUser),
        orderUser: flag(user.orderUser),
        submissionUser: flag(user.submissionUser),
      } satisfies CurrentUser,
    );
  })
  .post("/login", body("json", loginRequest), async (c) => {
    const { db } = c.var.deps;
    const { username, password } = c.req.valid("json");
    const address = clientAddress(c);
    const admission = await admitAttempt(db, username, address);
    if (!admission.ok) return throttled(c, admission.retryAfterSeconds);
    const [user] = await db.query<
      { id: number; username: string; passwordHash: string | null; active: boolean }
    >(
      `select id, username, password_hash as "passwordHash", active_status as active
         from users where lower(username) = lower($1)`,
      [username],
    );
    const valid = await verifyPassword(password, user?.passwordHash ?? null);
    if (!user || !valid || !user.active) {
      await recordFailure(db, username, address);
      throw unauthorized(LOGIN_FAILED);
    }
    await recordSuccess(db, username, address);
    await db.query("update users set last_login = now() where id = $1", [user.id]);
    const tokens = await openSession(db, user.id, {
      ip: address,
      userAgent: c.req.header("user-agent") ?? "",
    });
    setSessionCookies(c, tokens, user.username);
    return c.json({ username: user.username }, 200);
  })
  .post("/logout", async (c) => {
    const { db } = c.var.deps;
    // Either cookie names the session: the access cookie alone (refresh cookie scoped away or
    // dropped) must end it as well.
    const sessions = new Set<string>();
    const refresh = refreshToken(c);
    const access = accessToken(c);
    if (refresh) sessions.add((await sessionForRefreshToken(db, refresh)) ?? "");
    if (access) sessions.add((await sessionForAccessToken(db, access)) ?? "");
    sessions.delete("");
    for (const sessionId of sessions) await revokeSession(db, sessionId, "logout");
    clearSessionCookies(c);
    return c.body(null, 204);
  })
  .post("/refresh-token", async (c) => {
    const token = refreshToken(c);
    const result = token ? await refreshSession(c.var.deps.db, token) : null;
    if (!result?.ok) {
      clearSessionCookies(c);
      throw unauthorized("Your session has expired. Please log in again.");
    }
    setSessionCookies(c, result.tokens, result.username);
    return c.body(null, 204);
  })
  .post("/reset-password", body("json", resetPasswordRequest), async (c) => {
    const { username } = c.req.valid("json");
    // The same work for every name: the lookup, the token and the mail happen in a job. The
    // request gives it no origin: the link uses PUBLIC_URL alone, whatever Host this names.
    await requestPasswordReset(c.var.deps.db, username);
    return c.json({ message: RESET_SENT });
  })
  .post("/reset-password/complete", body("json", completeResetRequest), async (c) => {
    const { token, newPassword } = c.req.valid("json");
    await completeReset(c.var.deps.db, token, newPassword);
    clearSessionCookies(c);
    return c.body(null, 204);
  });
