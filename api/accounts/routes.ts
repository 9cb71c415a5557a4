/**
 * The /api/accounts calls: a user's own account (any logged-in user, or Admin for anyone) and user
 * management (Admin only). Decisions are in docs/accounts.md.
 */
import { Hono } from "hono";
import { z } from "zod";
import {
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
import { requireAdmin, requireUser } from "../auth/guards.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import { revokeUserSessions, type SessionUser } from "../auth/sessions.ts";
import { createAccessToken, listAccessTokens, revokeAccessToken } from "../auth/access_tokens.ts";
import { admitAttempt, recordFailure, recordSuccess, throttled } from "../auth/throttle.ts";
import { clientAddress } from "../http/client.ts";
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
    ensureSelfOrAdmin(c.var.user, userId);
    const info = await updateUserInfo(c.var.deps.db, userId, fields);
    if (!info) throw notFound(`User ${userId}`);
    return c.json(info);
  })
  .post("/update/username", requireUser, body("json", updateUsernameRequest), async (c) => {
    const { userId, oldUsername, newUsername } = c.req.valid("json");
    const { db } = c.var.deps;
    ensureSelfOrAdmin(c.var.user, userId);
    const info = await userInfoById(db, userId);
    if (!info) throw notFound(`User ${userId}`);
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
      // Whoever knew the old password is signed out everywhere but here.
      const keep = userId === c.var.user.userId ? c.var.user.sessionId : undefined;
      await revokeUserSessions(tx, userId, "password changed", keep);
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
    // A leaked token must not be able to mint tokens that outlive its revocation.
    if (c.var.user.sessionId.startsWith("token:")) {
      throw forbidden("Create access tokens on the account page or with `cli login`.");
    }
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
    const { id } = c.req.valid("param");
    if (!(await revokeAccessToken(c.var.deps.db, c.var.user.userId, id))) {
      throw notFound(`Access token ${id}`);
    }
    return c.body(null, 204);
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
    const passwordHash = password ? await hashPassword(password) : null;
    const savedId = await db.transaction(async (tx) => {
      await ensureUsernameFree(tx, fields.username, userId);
      if (userId === 0) return await insertUser(tx, { ...fields, passwordHash });
      if (!(await updateUser(tx, userId, { ...fields, passwordHash }))) {
        throw notFound(`User ${userId}`);
      }
      if (passwordHash || fields.activeStatus === false) {
        const reason = passwordHash ? "password changed by an admin" : "user deactivated";
        await revokeUserSessions(
          tx,
          userId,
          reason,
          userId === me.userId ? me.sessionId : undefined,
        );
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
