/**
 * Errors are logged without what they carry (issue 10, finding 7): a failing query's parameters,
 * a password hash, a stored secret or a session token never reach the log, on PGlite and on
 * PostgreSQL (DATABASE_URL). A whole session's logs are checked for secrets in logs_test.ts.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { startTestServer } from "../support/server.ts";
import { handleError } from "../../api/http/errors.ts";
import { describeError } from "../../api/http/log_error.ts";

const HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$leakedHashValueDoNotLog0123456789";
const SECRET = "v1.deadbeef.ZW5jcnlwdGVkLXNlY3JldC1kby1ub3QtbG9n";
const MAILBOX_PASSWORD = "mailbox-password-Zr4!";

/** Runs `body` with console.error/log/warn/info captured; answers the captured text. */
async function capturingLogs(body: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  const saved = { error: console.error, log: console.log, warn: console.warn, info: console.info };
  const capture = (...args: unknown[]) => {
    lines.push(
      args.map((a) => {
        if (typeof a === "string") return a;
        // What console.error would print for an object: its inspection, properties included.
        return Deno.inspect(a, { depth: 10, colors: false });
      }).join(" "),
    );
  };
  console.error =
    console.log =
    console.warn =
    console.info =
      capture;
  try {
    await body();
  } finally {
    Object.assign(console, saved);
  }
  return lines.join("\n");
}

Deno.test("unexpected errors are logged scrubbed: no parameters, hashes, secrets or tokens", async (t) => {
  const server = await startTestServer();
  try {
    const { db } = server;
    // A small app with the one error handler whose routes fail inside the database, each query
    // carrying a secret as a parameter.
    const app = new Hono();
    app.onError(handleError);
    app.get("/cast", async () => {
      await db.query("select $1::integer", [HASH]);
      return new Response();
    });
    app.get("/not-null", async () => {
      await db.query("insert into users (username, password_hash, email) values (null, $1, $2)", [
        HASH,
        SECRET,
      ]);
      return new Response();
    });
    app.get("/syntax", async () => {
      await db.query("selec $1, $2", [HASH, SECRET]);
      return new Response();
    });
    app.get("/check", async () => {
      await db.query(
        "insert into email_sources (username, email, password_enc) values ($1, $2, $3)",
        ["x".repeat(300) + MAILBOX_PASSWORD, "a@example.test", SECRET],
      );
      return new Response();
    });
    app.get("/thrown", () => {
      throw Object.assign(new Error("boom"), { parameters: [HASH], query: `select '${SECRET}'` });
    });

    for (const path of ["/cast", "/not-null", "/syntax", "/thrown"]) {
      await t.step(`${path}: 500 without details, a log line without secrets`, async () => {
        let response: Response | undefined;
        const log = await capturingLogs(async () => {
          response = await app.request(path);
        });
        assert.equal(response!.status, 500);
        assert.deepEqual(await response!.json(), { message: "Internal server error." });
        assert.match(log, new RegExp(`GET ${path} failed: `));
        for (const secret of [HASH, SECRET, "argon2id", "leakedHash"]) {
          assert.ok(!log.includes(secret), `${path} logged ${secret}:\n${log}`);
        }
      });
    }

    await t.step("the log line names the class, the SQLSTATE code and the constraint", async () => {
      const log = await capturingLogs(async () => {
        await app.request("/cast");
        await app.request("/not-null");
      });
      assert.match(log, /22P02/);
      assert.match(log, /23502/);
      assert.match(log, /on users\.username/);
    });

    await t.step("a check violation is a 422 naming the constraint, not the row", async () => {
      const response = await app.request("/check");
      assert.equal(response.status, 422);
      const body = await response.text();
      assert.match(body, /email_sources_username_length/);
      assert.ok(!body.includes(MAILBOX_PASSWORD) && !body.includes(SECRET));
    });

    await t.step("describeError keeps only safe fields of an arbitrary error", () => {
      const line = describeError(
        Object.assign(new Error(`invalid input syntax for type integer: "${HASH}"`), {
          code: "22P02",
          detail: `Failing row contains (${SECRET})`,
          parameters: [HASH, SECRET],
          query: "select $1::integer",
          cause: Object.assign(new Error("inner"), { args: [SECRET] }),
        }),
      );
      assert.match(line, /^Error 22P02: invalid input syntax for type integer: "…"/);
      assert.match(line, /caused by: Error: inner/);
      assert.ok(!line.includes(HASH) && !line.includes(SECRET), line);
    });
  } finally {
    await server.close();
  }
});
