/**
 * The users behind access tokens, remembered by a process: asked once, and forgotten when a
 * user, a session or a token changes (by this process at once, by another within a second) or
 * when the token expires.
 */
import assert from "node:assert/strict";
import type { Db } from "../db/client.ts";
import { openTestDb, recordingDb } from "../../tests/support/db.ts";
import { openSession, refreshSession, revokeSession, userForAccessToken } from "./sessions.ts";
import { rememberedUser, sessionsMayHaveChanged } from "./session_cache.ts";

let users = 0;

/**
 * A new order user signed in on `db`, and a handle on `db` standing for one process, whose
 * statements that find users `lookups` counts.
 */
async function signedIn(db: Db) {
  const username = `ivy${++users}`;
  const [{ id }] = await db.query<{ id: number }>(
    `insert into users (username, password_hash, email, order_user, active_status)
     values ($1, 'x', $1 || '@test.local', true, true) returning id`,
    [username],
  );
  const { access } = await openSession(db, id, { ip: "127.0.0.1", userAgent: "test" });
  const [{ sessionId }] = await db.query<{ sessionId: string }>(
    `select id as "sessionId" from sessions where user_id = $1`,
    [id],
  );
  const watched = recordingDb(db);
  const lookups = () =>
    watched.statements.filter((sql) => sql.includes("from session_tokens t")).length;
  return { username, userId: id, sessionId, access, process: watched.db, lookups };
}

/** Runs `test` on a new test database. */
async function withDb(test: (db: Db) => Promise<void>) {
  const { db, close } = await openTestDb();
  try {
    await test(db);
  } finally {
    await close();
  }
}

Deno.test("a process asks the database once for the user behind a token", () =>
  withDb(async (db) => {
    const { username, access, process, lookups } = await signedIn(db);
    for (let i = 0; i < 5; i++) {
      assert.equal((await userForAccessToken(process, access))?.username, username);
    }
    assert.equal(lookups(), 1);
    for (let i = 0; i < 2; i++) {
      assert.equal(await userForAccessToken(process, "not-a-token"), null);
    }
    assert.equal(lookups(), 3, "an unknown token is asked for each time, never remembered");
  }));

/** What a token gives after a change: its user's order flag, or nothing (null). */
type After = { orderUser: boolean } | null;
type Change = (db: Db, t: { userId: number; sessionId: string }) => Promise<unknown>;

/** Changes that end or alter what a token gives, each made straight in the database. */
const CHANGES: [string, Change, After][] = [
  ["logout", (db, t) => revokeSession(db, t.sessionId, "logout"), null],
  [
    "deactivation",
    (db, t) => db.query("update users set active_status = false where id = $1", [t.userId]),
    null,
  ],
  [
    "a flag taken away",
    (db, t) => db.query("update users set order_user = false where id = $1", [t.userId]),
    { orderUser: false },
  ],
  ["the user deleted", (db, t) => db.query("delete from users where id = $1", [t.userId]), null],
  ["the token expired early", (db, t) =>
    db.query(
      "update session_tokens set expires_at = now() - interval '1 second' where session_id = $1",
      [t.sessionId],
    ), null],
];

Deno.test("a change made by this process holds for its next request", () =>
  withDb(async (db) => {
    for (const [name, change, expected] of CHANGES) {
      const t = await signedIn(db);
      assert.equal((await userForAccessToken(t.process, t.access))?.orderUser, true, name);
      await change(db, t);
      // What the app does after every request that could write (api/app.ts).
      sessionsMayHaveChanged(t.process);
      const user = await userForAccessToken(t.process, t.access);
      assert.deepEqual(user && { orderUser: user.orderUser }, expected, name);
    }
  }));

Deno.test("a change made by another process holds here within a second", () =>
  withDb(async (db) => {
    let now = Date.now();
    for (const [name, change, expected] of CHANGES) {
      const t = await signedIn(db);
      now += 2_000;
      assert.equal((await userForAccessToken(t.process, t.access, now))?.orderUser, true, name);
      // Another process: the same database through a handle this one never hears of.
      await change({ ...db }, t);
      assert.equal(
        (await userForAccessToken(t.process, t.access, now + 500))?.orderUser,
        true,
        `${name}: the count was read half a second ago`,
      );
      const user = await userForAccessToken(t.process, t.access, now + 1_001);
      assert.deepEqual(user && { orderUser: user.orderUser }, expected, name);
    }
  }));

Deno.test("writes that change no answer leave remembered users alone", () =>
  withDb(async (db) => {
    const t = await signedIn(db);
    const other = await signedIn(db);
    const now = Date.now();
    await userForAccessToken(t.process, t.access, now);
    const count = async () =>
      (await db.query<{ version: number }>("select version from session_changes"))[0].version;
    const before = await count();
    // Elsewhere, by another user: a login (`last_login`, a new session), a refresh (its token's
    // `used_at`) and the delete of an expired access token.
    await db.query("update users set last_login = now() where id = $1", [other.userId]);
    const { refresh } = await openSession(db, other.userId, { ip: "127.0.0.1", userAgent: "t" });
    assert.equal((await refreshSession(db, refresh)).ok, true);
    await db.query(
      `insert into session_tokens (token_hash, session_id, kind, expires_at)
       values ('expired', $1, 'access', now() - interval '1 minute')`,
      [other.sessionId],
    );
    await db.query("delete from session_tokens where kind = 'access' and expires_at < now()");
    assert.equal(await count(), before);
    assert.equal((await userForAccessToken(t.process, t.access, now + 1_001))?.userId, t.userId);
    assert.equal(t.lookups(), 1);
  }));

Deno.test("a remembered user is asked for again when the token's time is up", () =>
  withDb(async (db) => {
    const { access, process, lookups } = await signedIn(db);
    const now = Date.now();
    await userForAccessToken(process, access, now);
    await userForAccessToken(process, access, now + 14 * 60_000);
    assert.equal(lookups(), 1);
    // Past the access token's 15 minutes by this process's clock (the database's has not moved).
    await userForAccessToken(process, access, now + 15 * 60_000 + 1_000);
    assert.equal(lookups(), 2);
  }));

Deno.test("an answer read while this process wrote is not kept", () =>
  withDb(async (db) => {
    const user = {
      sessionId: "s",
      userId: 1,
      username: "ivy",
      isAdmin: false,
      inventoryUser: false,
      orderUser: true,
      submissionUser: false,
    };
    let finds = 0;
    const find = (during?: () => void) => () => {
      finds++;
      during?.();
      return Promise.resolve({ user, secondsLeft: 900 });
    };
    await rememberedUser(db, "hash", find(() => sessionsMayHaveChanged(db)));
    await rememberedUser(db, "hash", find());
    await rememberedUser(db, "hash", find());
    assert.equal(finds, 2, "the first answer was dropped, the second kept");
  }));
