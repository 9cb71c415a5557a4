/**
 * Send limits counted in the database (docs/limits.md, "Sending"): per subject and in total
 * within the hour, a wait until the oldest counted use leaves the window, uses older than the
 * window forgotten, and parallel callers on separate connections (two server processes on one
 * PostgreSQL) never pass a limit together.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../config.ts";
import { type Db, openDb } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { freshPostgresDatabase } from "../../tests/support/db.ts";
import {
  admitSend,
  admitSendBeyondTransaction,
  SEND_WINDOW_SECONDS,
  type SendQuota,
} from "./send_quota.ts";

/** Two handles on one fresh database: two pools on PostgreSQL, one PGlite twice otherwise. */
async function twoHandles(): Promise<{ a: Db; b: Db; close(): Promise<void> }> {
  const url = loadConfig().DATABASE_URL;
  if (!url) {
    const db = await openDb({ dataDir: "memory://" });
    await migrate(db);
    return { a: db, b: db, close: () => db.close() };
  }
  const database = await freshPostgresDatabase(url);
  const a = await openDb({ url: database.url });
  await migrate(a);
  const b = await openDb({ url: database.url });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await database.drop();
    },
  };
}

const quota: SendQuota = { kind: "test-email", perSubject: 3, total: 5 };

Deno.test("send limits: per subject, in total, the wait, the window", async (t) => {
  const { a, b, close } = await twoHandles();
  try {
    await t.step("a subject gets its limit, then waits for its oldest use", async () => {
      for (let i = 0; i < 3; i++) assert.deepEqual(await admitSend(a, quota, "7"), { ok: true });
      const refused = await admitSend(b, quota, "7");
      assert.equal(refused.ok, false);
      if (refused.ok) return;
      assert.equal(refused.limit, "perSubject");
      assert.ok(
        refused.retryAfterSeconds > SEND_WINDOW_SECONDS - 120 &&
          refused.retryAfterSeconds <= SEND_WINDOW_SECONDS,
        String(refused.retryAfterSeconds),
      );
      const [{ n }] = await a.query<{ n: number }>("select count(*)::int as n from send_uses");
      assert.equal(n, 3, "a refused use is not recorded");
    });

    await t.step("others share the total; other kinds count apart", async () => {
      assert.equal((await admitSend(b, quota, "8")).ok, true);
      assert.equal((await admitSend(a, quota, "9")).ok, true);
      const refused = await admitSend(a, quota, "10");
      assert.deepEqual(refused.ok ? null : refused.limit, "total");
      const other = { ...quota, kind: "notification-test" };
      assert.equal((await admitSend(a, other, "10")).ok, true);
    });

    await t.step("uses older than the window no longer count", async () => {
      await a.query(
        "update send_uses set at = now() - make_interval(secs => $1) where kind = 'test-email'",
        [SEND_WINDOW_SECONDS + 1],
      );
      assert.equal((await admitSend(b, quota, "7")).ok, true);
      const [{ n }] = await a.query<{ n: number }>(
        "select count(*)::int as n from send_uses where kind = 'test-email'",
      );
      assert.equal(n, 1, "the old uses are deleted");
    });
  } finally {
    await close();
  }
});

Deno.test("send limits: 20 parallel sends over two connections admit exactly the limit", async () => {
  const { a, b, close } = await twoHandles();
  try {
    const wide = { kind: "link-download", perSubject: 6, total: 100 };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => admitSend(i % 2 ? a : b, wide, "source-1")),
    );
    assert.equal(answers.filter((x) => x.ok).length, 6);
    const [{ n }] = await a.query<{ n: number }>("select count(*)::int as n from send_uses");
    assert.equal(n, 6);
  } finally {
    await close();
  }
});

Deno.test("send limits inside a transaction that rolls back: the use stays counted", async () => {
  const { a, close } = await twoHandles();
  try {
    const small = { kind: "link-download", perSubject: 1, total: 10 };
    await a.transaction(async (tx) => {
      assert.equal((await admitSendBeyondTransaction(a, small, "3")).ok, true);
      await tx.query("select 1");
      // The run fails after its download: its transaction rolls back.
      throw new Error("rolled back");
    }).catch(() => {});
    const again = await admitSendBeyondTransaction(a, small, "3");
    assert.deepEqual(again.ok ? null : again.limit, "perSubject");
    assert.equal((await admitSendBeyondTransaction(a, small, "4")).ok, true);
  } finally {
    await close();
  }
});
