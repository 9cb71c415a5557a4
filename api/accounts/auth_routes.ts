/** The /auth calls of the contract, plus password-reset completion. */
import { Hono } from "hono";
import type { Context } from "hono";
import { getConnInfo } from "hono/deno";
import {
  completeResetRequest,
  type CurrentUser,
  loginRequest,
  resetPasswordRequest,
} from "../../shared/contract/auth.ts";
import type { AppEnv } from "../deps.ts";
import { ApiError, unauthorized } from "../http/errors.ts";
import { body } from "../http/validate.ts";
import { clearSessionCookies, refreshToken, setSessionCookies } from "../auth/cookies.ts";
import { requireUser } from "../auth/guards.ts";
import { verifyPassword } from "../auth/password.ts";
import { completeReset, createResetToken, RESET_TOKEN_MINUTES } from "../auth/password_reset.ts";
import {
  openSession,
  refreshSession,
  revokeSession,
  sessionForRefreshToken,
} from "../auth/sessions.ts";
import { clearFailures, isThrottled, recordFailure } from "../auth/throttle.ts";

const LOGIN_FAILED = "Invalid username or password.";
const THROTTLED = "Too many failed login attempts. Please wait 15 minutes and try again.";
const RESET_SENT =
  "If that account exists and has an e-mail address, a password reset link has been sent to it.";

const flag = (on: boolean) => (on ? "True" : "False") as "True" | "False";

function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

function resetLink(c: Context<AppEnv>, token: string): string {
  const base = c.var.deps.config.PUBLIC_URL ?? new URL(c.req.url).origin;
  return new URL(`/reset-password?token=${encodeURIComponent(token)}`, base).href;
}

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
    if (await isThrottled(db, username, address)) throw new ApiError(429, THROTTLED);
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
    await clearFailures(db, username);
    await db.query("update users set last_login = now() where id = $1", [user.id]);
    const tokens = await openSession(db, user.id, {
      ip: address,
      userAgent: c.req.header("user-agent") ?? "",
    });
    setSessionCookies(c, tokens, user.username);
    return c.json({ username: user.username }, 200);
  })
  .post("/logout", async (c) => {
    const token = refreshToken(c);
    const sessionId = token ? await sessionForRefreshToken(c.var.deps.db, token) : null;
    if (sessionId) await revokeSession(c.var.deps.db, sessionId, "logout");
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
    const { db, mailer } = c.var.deps;
    const request = c.req.valid("json");
    const username = typeof request === "string" ? request : request.username;
    const reset = await createResetToken(db, username);
    if (reset) {
      mailer.send({
        to: reset.email,
        subject: "Password reset",
        text: `Hello ${reset.username},\n\nSomeone asked to reset your password. Open this link ` +
          `within ${RESET_TOKEN_MINUTES} minutes to choose a new one:\n\n${
            resetLink(c, reset.token)
          }\n\nIf it was not you, ignore this e-mail; your password stays as it is.\n`,
      }).catch((error) =>
        console.error(`password reset mail for user ${reset.username} failed: ${error.message}`)
      );
    }
    return c.json({ message: RESET_SENT });
  })
  .post("/reset-password/complete", body("json", completeResetRequest), async (c) => {
    const { token, newPassword } = c.req.valid("json");
    await completeReset(c.var.deps.db, token, newPassword);
    clearSessionCookies(c);
    return c.body(null, 204);
  });
