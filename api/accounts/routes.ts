/**
 * The /api/accounts calls: a user's own account (any logged-in user, or Admin for anyone) and user
 * management (Admin only). Decisions are in docs/accounts.md.
 */
import { Hono } from "hono";
import { z } from "zod";
import { configWarnings } from "../config.ts";
import {
  type ConfigWarnings,
  createAccessTokenRequest,
  saveSettingsRequest,
  saveUserRequest,
  updatePasswordRequest,
  updateUserInfoRequest,
  updateUsernameRequest,
  USERNAME_MAX,
} from "../../shared/contract/accounts.ts";
import type { AppEnv } from "../deps.ts";
import type { Db } from "../db/client.ts";
import { badRequest, conflict, forbidden, notFound } from "../http/errors.ts";
import { body, idParam } from "../http/validate.ts";
import { boundedString, MAX_ID } from "../../shared/contract/fields.ts";
import { setUsernameCookie } from "../auth/cookies.ts";
import { ensureRecentLogin, ensureSession, requireAdmin, requireUser } from "../auth/guards.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import type { SessionUser } from "../auth/sessions.ts";
import { endUserAccess } from "../auth/user_access.ts";
import { createAccessToken, listAccessTokens, revokeAccessToken } from "../auth/access_tokens.ts";
import { admitAttempt, recordFailure, recordSuccess, throttled } from "../auth/throttle.ts";
import { clientAddress } from "../http/client.ts";
import { noticeEmailChange } from "./email_change.ts";
import {
  accountById,
  countUsers,
  deleteUser,
  insertUser,
  listAccounts,
  passwordHashOf,
  saveSettings,
  setPasswordHash,
  settingsOf,
  updateUser,
  updateUserInfo,
  updateUsername,
  userInfoById,
  userInfoByUsername,
  usernameTakenBy,
} from "./queries.ts";

const OWN_ACCOUNT_ONLY = "You can only view or change your own account.";

/** Refuses a non-admin acting on someone else's account. */
function ensureSelfOrAdmin(user: SessionUser, userId: number): void {
  if (!user.isAdmin && user.userId !== userId) throw forbidden(OWN_ACCOUNT_ONLY);
}

/** Two addresses are the same mailbox when they differ in case only. */
const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** 404 unless the user exists. */
async function ensureUserExists(db: Db, userId: number): Promise<void> {
  if (!(await userInfoById(db, userId))) throw notFound(`User ${userId}`);
}

/** 409 naming the username when another user holds it (any case). */
async function ensureUsernameFree(db: Db, username: string, exceptUserId = 0): Promise<void> {
  if (await usernameTakenBy(db, username, exceptUserId)) {
    throw conflict(`The username "${username}" is already taken.`);
  }
}

const usernameParam = z.object({
  username: boundedString(USERNAME_MAX).trim().min(1, "Username is required"),
});
const settingsQuery = z.object({
  userId: z.coerce.number({ error: "userId must be a number" }).int().min(1, "userId is required")
    .max(MAX_ID, "userId is out of range"),
});
const settingsByNameQuery = z.object({
  userName: boundedString(USERNAME_MAX).trim().min(1, "userName is required"),
});

export const accountRoutes = new Hono<AppEnv>()
  .get("/user-info/:username", requireUser, body("param", usernameParam), async (c) => {
    const { username } = c.req.valid("param");
    const user = c.var.user;
    // A non-admin learns nothing about other names, not even whether they exist.
    if (!user.isAdmin && username.toLowerCase() !== user.username.toLowerCase()) {
      throw forbidden(OWN_ACCOUNT_ONLY);
    }
    const info = await userInfoByUsername(c.var.deps.db, username);
    if (!info) throw notFound(`User "${username}"`);
    return c.json(info);
  })
  .get("/order-tracking-settings", requireUser, body("query", settingsQuery), async (c) => {
    const { userId } = c.req.valid("query");
    ensureSelfOrAdmin(c.var.user, userId);
    await ensureUserExists(c.var.deps.db, userId);
    return c.json(await settingsOf(c.var.deps.db, userId));
  })
  .get(
    "/order-tracking-settings/username",
    requireUser,
    body("query", settingsByNameQuery),
    async (c) => {
      const { userName } = c.req.valid("query");
      const user = c.var.user;
      if (!user.isAdmin && userName.toLowerCase() !== user.username.toLowerCase()) {
        throw forbidden(OWN_ACCOUNT_ONLY);
      }
      const info = await userInfoByUsername(c.var.deps.db, userName);
      if (!info) throw notFound(`User "${userName}"`);
      return c.json(await settingsOf(c.var.deps.db, info.userId));
    },
  )
  .post("/update/user-info", requireUser, body("json", updateUserInfoRequest), async (c) => {
    const { userId, ...fields } = c.req.valid("json");
    const { db } = c.var.deps;
    const me = c.var.user;
    ensureSelfOrAdmin(me, userId);
    const before = await userInfoById(db, userId);
    if (!before) throw notFound(`User ${userId}`);
    const emailChanges = !sameAddress(before.email, fields.email);
    // One's own address is where password resets go: a token or an old session must not move it.
    if (emailChanges && userId === me.userId) {
      await ensureRecentLogin(c, "Changing your e-mail address");
    }
    const info = await db.transaction(async (tx) => {
      const saved = await updateUserInfo(tx, userId, fields);
      if (saved && emailChanges) {
        await noticeEmailChange(tx, {
          username: saved.username,
          oldEmail: before.email,
          newEmail: saved.email,
          byAdmin: userId !== me.userId,
        });
      }
      return saved;
    });
    if (!info) throw notFound(`User ${userId}`);
    return c.json(info);
  })
  .post("/update/username", requireUser, body("json", updateUsernameRequest), async (c) => {
    const { userId, oldUsername, newUsername } = c.req.valid("json");
    const { db } = c.var.deps;
    ensureSelfOrAdmin(c.var.user, userId);
    const info = await userInfoById(db, userId);
    if (!info) throw notFound(`User ${userId}`);
    // Renamed by a stranger, the owner could neither log in nor ask for a reset by name.
    if (userId === c.var.user.userId && info.username !== newUsername) {
      await ensureRecentLogin(c, "Changing your username");
    }
    // A stale page (renamed in another tab) must not rename on old information.
    if (
      oldUsername && oldUsername.toLowerCase() !== info.username.normalize("NFKC").toLowerCase()
    ) {
      throw badRequest(`The current username is "${info.username}", not "${oldUsername}".`);
    }
    await ensureUsernameFree(db, newUsername, userId);
    await updateUsername(db, userId, newUsername);
    if (userId === c.var.user.userId) setUsernameCookie(c, newUsername);
    return c.json({ username: newUsername });
  })
  .post("/update/password", requireUser, body("json", updatePasswordRequest), async (c) => {
    const { userId, username, oldPassword, newPassword } = c.req.valid("json");
    const { db } = c.var.deps;
    ensureSelfOrAdmin(c.var.user, userId);
    // The old password in the body is the proof; a token never changes a password.
    ensureSession(c, "Changing the password");
    const info = await userInfoById(db, userId);
    if (!info) throw notFound(`User ${userId}`);
    if (username && username.toLowerCase() !== info.username.toLowerCase()) {
      throw badRequest(`User ${userId} is not "${username}".`);
    }
    // Throttled like a login, per (account, address): a stolen session must not become a free
    // password-guessing oracle. The key is the user id, so renames do not reset it.
    const throttleKey = `password-change:${userId}`;
    const address = clientAddress(c);
    const admission = await admitAttempt(db, throttleKey, address);
    if (!admission.ok) return throttled(c, admission.retryAfterSeconds);
    if (!(await verifyPassword(oldPassword, await passwordHashOf(db, userId)))) {
      await recordFailure(db, throttleKey, address);
      throw badRequest("Current password is incorrect.");
    }
    await recordSuccess(db, throttleKey, address);
    await db.transaction(async (tx) => {
      await setPasswordHash(tx, userId, await hashPassword(newPassword));
      // Whoever knew the old password is signed out everywhere but here, and every access token
      // is revoked (the CLI logs in again).
      const keep = userId === c.var.user.userId ? c.var.user.sessionId : undefined;
      await endUserAccess(tx, userId, "password changed", keep);
    });
    return c.body(null, 204);
  })
  .post(
    "/update/order-tracking-settings",
    requireUser,
    body("json", saveSettingsRequest),
    async (c) => {
      const request = c.req.valid("json");
      const userId = request.userId || c.var.user.userId;
      ensureSelfOrAdmin(c.var.user, userId);
      await ensureUserExists(c.var.deps.db, userId);
      return c.json(await saveSettings(c.var.deps.db, userId, request.enabledColumns));
    },
  )
  // Personal access tokens of the signed-in user (docs/auth.md, "Personal access tokens").
  .get("/tokens", requireUser, async (c) => {
    return c.json(await listAccessTokens(c.var.deps.db, c.var.user.userId));
  })
  .post("/tokens", requireUser, body("json", createAccessTokenRequest), async (c) => {
    // A leaked token (or an old session left open) must not mint tokens that outlive it.
    await ensureRecentLogin(c, "Creating an access token");
    const { name } = c.req.valid("json");
    return c.json(await createAccessToken(c.var.deps.db, c.var.user.userId, name));
  })
  .delete("/tokens/current", requireUser, async (c) => {
    const session = c.var.user.sessionId;
    if (!session.startsWith("token:")) throw badRequest("This request carries no access token.");
    await revokeAccessToken(c.var.deps.db, c.var.user.userId, Number(session.slice(6)));
    return c.body(null, 204);
  })
  .delete("/tokens/:id", requireUser, body("param", idParam), async (c) => {
    // A token may revoke itself (above), not its siblings: a leaked one must not cut off the
    // owner's CI. Revoking needs a session but not a recent login: it only takes access away.
    ensureSession(c, "Revoking an access token");
    const { id } = c.req.valid("param");
    if (!(await revokeAccessToken(c.var.deps.db, c.var.user.userId, id))) {
      throw notFound(`Access token ${id}`);
    }
    return c.body(null, 204);
  })
  // What the admin should fix in the configuration (docs/operations.md, "PUBLIC_URL").
  .get("/config-warnings", requireAdmin, (c) => {
    return c.json({ warnings: configWarnings(c.var.deps.config) } satisfies ConfigWarnings);
  })
  .get("/count", requireAdmin, async (c) => c.json(await countUsers(c.var.deps.db)))
  .get("/list", requireAdmin, async (c) => c.json(await listAccounts(c.var.deps.db)))
  .get("/user/:id", requireAdmin, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const account = await accountById(c.var.deps.db, id);
    if (!account) throw notFound(`User ${id}`);
    return c.json(account);
  })
  .post("/update/user", requireAdmin, body("json", saveUserRequest), async (c) => {
    const { userId, password, ...fields } = c.req.valid("json");
    const { db } = c.var.deps;
    const me = c.var.user;
    if (userId === me.userId && fields.isAdmin === false) {
      throw badRequest("You cannot remove the Admin role from your own account.");
    }
    if (userId === me.userId && fields.activeStatus === false) {
      throw badRequest("You cannot deactivate your own account.");
    }
    const before = userId === 0 ? null : await accountById(db, userId);
    if (userId !== 0 && !before) throw notFound(`User ${userId}`);
    const emailChanges = before !== null && !sameAddress(before.email, fields.email);
    // The admin's own credentials follow the account page's rules: no token, a recent login.
    if (
      before && userId === me.userId &&
      (emailChanges || password || before.username !== fields.username)
    ) {
      await ensureRecentLogin(c, "Changing your own e-mail address, username or password");
    }
    const passwordHash = password ? await hashPassword(password) : null;
    const savedId = await db.transaction(async (tx) => {
      await ensureUsernameFree(tx, fields.username, userId);
      if (userId === 0) return await insertUser(tx, { ...fields, passwordHash });
      if (!(await updateUser(tx, userId, { ...fields, passwordHash }))) {
        throw notFound(`User ${userId}`);
      }
      if (passwordHash || fields.activeStatus === false) {
        // Sessions and access tokens alike; reactivating later revives neither.
        const reason = passwordHash ? "password changed by an admin" : "user deactivated";
        await endUserAccess(tx, userId, reason, userId === me.userId ? me.sessionId : undefined);
      }
      if (emailChanges) {
        await noticeEmailChange(tx, {
          username: fields.username,
          oldEmail: before!.email,
          newEmail: fields.email,
          byAdmin: userId !== me.userId,
        });
      }
      return userId;
    });
    if (savedId === me.userId) setUsernameCookie(c, fields.username);
    return c.json((await accountById(db, savedId))!);
  })
  .post("/delete/:id", requireAdmin, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    if (id === c.var.user.userId) throw badRequest("You cannot delete your own account.");
    // Their sessions are deleted with them (on delete cascade), which ends them at once.
    if (!(await deleteUser(c.var.deps.db, id))) throw notFound(`User ${id}`);
    return c.body(null, 204);
  });
