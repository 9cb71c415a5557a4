/** Contract tests of the /auth calls over real HTTP, on PGlite or on PostgreSQL (DATABASE_URL). */
import assert from "node:assert/strict";
import { createResetToken, PASSWORD_RESET_JOB } from "../../api/auth/password_reset.ts";
import { runDueJobs } from "../../api/jobs/runner.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";

const LOGIN_FAILED = { message: "Invalid username or password." };

Deno.test("auth contract", async (t) => {
  const server = await startTestServer();
  const { url, db } = server;
  try {
    await t.step("login sets HttpOnly session cookies and a readable username cookie", async () => {
      const client = testClient(url);
      const response = await client.login("admin", ADMIN_PASSWORD);
      assert.deepEqual(response.body, { username: "admin" });
      const byName = Object.fromEntries(
        response.setCookies.map((line) => [line.split("=")[0], line]),
      );
      assert.match(byName["X-Access-Token"], /HttpOnly/);
      assert.match(byName["X-Access-Token"], /SameSite=Strict/);
      assert.match(byName["X-Access-Token"], /Path=\//);
      assert.match(byName["X-Refresh-Token"], /HttpOnly/);
      assert.match(byName["X-Refresh-Token"], /Path=\/auth/);
      assert.match(byName["X-Username"], /^X-Username=admin;/);
      assert.doesNotMatch(byName["X-Username"], /HttpOnly/);
      // Plain HTTP: no Secure flag, or the browser would drop the cookies.
      assert.doesNotMatch(byName["X-Access-Token"], /Secure/);
      assert.equal((await client.get("/auth/allowed")).body, true);
      assert.deepEqual((await client.get("/auth/user")).body, {
        userId: 1,
        username: "admin",
        role: "Admin",
        inventoryUser: "True",
        orderUser: "True",
        submissionUser: "True",
      });
    });

    await t.step(
      "the username is matched without case and the login updates lastLogin",
      async () => {
        const client = testClient(url);
        await client.login("ADMIN", ADMIN_PASSWORD);
        const [row] = await db.query<{ recent: boolean }>(
          "select last_login > now() - interval '1 minute' as recent from users where id = 1",
        );
        assert.equal(row.recent, true);
      },
    );

    await t.step("a plain user gets role User and the flags as True/False strings", async () => {
      await server.createUser({ username: "ivy", password: "ivy-password", inventoryUser: true });
      const client = testClient(url);
      await client.login("ivy", "ivy-password");
      assert.deepEqual((await client.get("/auth/user")).body, {
        userId: 2,
        username: "ivy",
        role: "User",
        inventoryUser: "True",
        orderUser: "False",
        submissionUser: "False",
      });
    });

    await t.step("wrong password, unknown user and inactive user get one generic 401", async () => {
      await server.createUser({
        username: "sleepy",
        password: "sleepy-password",
        activeStatus: false,
      });
      for (
        const [username, password] of [
          ["admin", "wrong-password"],
          ["nobody", "whatever-password"],
          ["sleepy", "sleepy-password"],
        ]
      ) {
        const response = await testClient(url).post("/auth/login", { username, password });
        assert.equal(response.status, 401, username);
        assert.deepEqual(response.body, LOGIN_FAILED);
        assert.equal(response.setCookies.length, 0);
      }
    });

    await t.step("a bad login payload is a 400 naming the field", async () => {
      const response = await testClient(url).post("/auth/login", { username: "  ", password: "x" });
      assert.equal(response.status, 400);
      assert.match((response.body as { message: string }).message, /username/);
      const notJson = await testClient(url).request("POST", "/auth/login", {
        rawBody: "{not json",
        headers: { "content-type": "application/json" },
      });
      assert.equal(notJson.status, 400);
      assert.equal(typeof (notJson.body as { message: string }).message, "string");
    });

    await t.step("keys are matched without case", async () => {
      const response = await testClient(url).post("/auth/login", {
        Username: "admin",
        PASSWORD: ADMIN_PASSWORD,
      });
      assert.equal(response.status, 200);
    });

    await t.step("without a session the guarded calls answer 401 with a message", async () => {
      for (const path of ["/auth/allowed", "/auth/user"]) {
        const response = await testClient(url).get(path);
        assert.equal(response.status, 401);
        assert.equal(typeof (response.body as { message: string }).message, "string");
      }
      const forged = await testClient(url).get("/auth/allowed", {
        headers: { cookie: "X-Access-Token=forged; X-Username=admin" },
      });
      assert.equal(forged.status, 401);
    });

    await t.step(
      "refresh rotates both tokens; the old access token keeps its short life",
      async () => {
        const client = testClient(url);
        await client.login("admin", ADMIN_PASSWORD);
        const before = client.cookies.get("X-Refresh-Token")!.value;
        const accessBefore = client.cookies.get("X-Access-Token")!.value;
        const refreshed = await client.post("/auth/refresh-token");
        assert.equal(refreshed.status, 204);
        assert.notEqual(client.cookies.get("X-Refresh-Token")!.value, before);
        assert.notEqual(client.cookies.get("X-Access-Token")!.value, accessBefore);
        assert.equal((await client.get("/auth/allowed")).body, true);
      },
    );

    await t.step(
      "parallel refreshes with one token all succeed inside the grace window",
      async () => {
        const client = testClient(url);
        await client.login("admin", ADMIN_PASSWORD);
        const refresh = client.cookies.get("X-Refresh-Token")!.value;
        const results = await Promise.all(
          [1, 2, 3].map(() =>
            testClient(url).post("/auth/refresh-token", undefined, {
              headers: { cookie: `X-Refresh-Token=${refresh}` },
            })
          ),
        );
        assert.deepEqual(results.map((r) => r.status), [204, 204, 204]);
      },
    );

    await t.step("a refresh token reused after the grace window revokes the session", async () => {
      const client = testClient(url);
      await client.login("admin", ADMIN_PASSWORD);
      const stolen = client.cookies.get("X-Refresh-Token")!.value;
      assert.equal((await client.post("/auth/refresh-token")).status, 204);
      await db.query(
        "update session_tokens set used_at = now() - interval '1 minute' where used_at is not null",
      );
      const thief = await testClient(url).post("/auth/refresh-token", undefined, {
        headers: { cookie: `X-Refresh-Token=${stolen}` },
      });
      assert.equal(thief.status, 401);
      assert.ok(thief.setCookies.some((line) => /^X-Access-Token=;/.test(line)));
      // The legitimate holder is logged out too: the family is revoked.
      assert.equal((await client.get("/auth/allowed")).status, 401);
      assert.equal((await client.post("/auth/refresh-token")).status, 401);
    });

    await t.step("an expired refresh token gets 401 and the cookies are cleared", async () => {
      const client = testClient(url);
      await client.login("admin", ADMIN_PASSWORD);
      await db.query("update session_tokens set expires_at = now() - interval '1 second'");
      const response = await client.post("/auth/refresh-token");
      assert.equal(response.status, 401);
      assert.equal(client.cookies.size, 0);
      assert.equal((await testClient(url).post("/auth/refresh-token")).status, 401);
    });

    await t.step("logout ends the session on the server", async () => {
      const client = testClient(url);
      await client.login("admin", ADMIN_PASSWORD);
      const access = client.cookies.get("X-Access-Token")!.value;
      const refresh = client.cookies.get("X-Refresh-Token")!.value;
      // Used once first, so the server remembers who it belongs to (api/auth/session_cache.ts).
      assert.equal((await client.get("/auth/allowed")).status, 200);
      assert.equal((await client.post("/auth/logout")).status, 204);
      assert.equal(client.cookies.size, 0);
      const replay = testClient(url);
      assert.equal(
        (await replay.get("/auth/allowed", { headers: { cookie: `X-Access-Token=${access}` } }))
          .status,
        401,
      );
      assert.equal(
        (await replay.post("/auth/refresh-token", undefined, {
          headers: { cookie: `X-Refresh-Token=${refresh}` },
        })).status,
        401,
      );
      // Logging out without a session still answers 204 and clears the cookies.
      assert.equal((await testClient(url).post("/auth/logout")).status, 204);
    });

    await t.step("logout with only the access cookie ends the session", async () => {
      const client = testClient(url);
      await client.login("admin", ADMIN_PASSWORD);
      const access = client.cookies.get("X-Access-Token")!.value;
      const refresh = client.cookies.get("X-Refresh-Token")!.value;
      const other = testClient(url);
      const out = await other.post("/auth/logout", undefined, {
        headers: { cookie: `X-Access-Token=${access}` },
      });
      assert.equal(out.status, 204);
      assert.equal(
        (await other.get("/auth/allowed", { headers: { cookie: `X-Access-Token=${access}` } }))
          .status,
        401,
      );
      assert.equal(
        (await other.post("/auth/refresh-token", undefined, {
          headers: { cookie: `X-Refresh-Token=${refresh}` },
        })).status,
        401,
      );
    });

    await t.step("cross-site state-changing requests are refused", async () => {
      const client = testClient(url);
      await client.login("admin", ADMIN_PASSWORD);
      const evil = await client.post("/auth/logout", undefined, {
        headers: { origin: "http://evil.example" },
      });
      assert.equal(evil.status, 403);
      assert.equal((await client.get("/auth/allowed")).body, true);
      const form = await client.request("POST", "/auth/logout", {
        rawBody: "a=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      assert.equal(form.status, 403);
      // multipart/form-data is a form's content type too (issue 28).
      const multipart = new FormData();
      multipart.append("a", "1");
      const multipartForm = await client.request("POST", "/auth/logout", { rawBody: multipart });
      assert.equal(multipartForm.status, 403);
      assert.equal((await client.get("/auth/allowed")).body, true);
      const crossSite = await client.post("/auth/logout", undefined, {
        headers: { "sec-fetch-site": "cross-site" },
      });
      assert.equal(crossSite.status, 403);
      const sameOrigin = await client.post("/auth/logout", undefined, {
        headers: { origin: new URL(url).origin, "sec-fetch-site": "same-origin" },
      });
      assert.equal(sameOrigin.status, 204);
    });

    await t.step(
      "repeated failures from one address delay that address, even for the right password",
      async () => {
        await server.createUser({ username: "target", password: "target-password" });
        for (let i = 0; i < 4; i++) {
          const response = await testClient(url).post("/auth/login", {
            username: "target",
            password: `guess-${i}`,
          });
          assert.equal(response.status, 401);
          assert.deepEqual(response.body, LOGIN_FAILED);
        }
        const delayed = await testClient(url).post("/auth/login", {
          username: "target",
          password: "target-password",
        });
        assert.equal(delayed.status, 429);
        assert.match(
          (delayed.body as { message: string }).message,
          /Too many failed login attempts/,
        );
        assert.ok(Number(delayed.headers.get("retry-after")) >= 1);
        // An unknown name is throttled the same way: a 429 tells nothing about the account.
        for (let i = 0; i < 4; i++) {
          await testClient(url).post("/auth/login", { username: "nobody", password: `g-${i}` });
        }
        const ghost = await testClient(url).post("/auth/login", {
          username: "nobody",
          password: "x",
        });
        assert.equal(ghost.status, 429);
        assert.deepEqual(ghost.body, delayed.body);
        // Other accounts are not affected by this account's delay.
        assert.equal(
          (await testClient(url).post("/auth/login", {
            username: "ivy",
            password: "ivy-password",
          })).status,
          200,
        );
        // The delay passes: the owner gets in once it has (1 s after the fourth failure).
        await db.query("update login_throttle set blocked_until = now() where account = 'target'");
        await testClient(url).login("target", "target-password");
        const [{ rows }] = await db.query<{ rows: number }>(
          "select count(*)::int as rows from login_throttle where account = 'target'",
        );
        assert.equal(rows, 0);
      },
    );

    await t.step("reset-password answers the same for known and unknown users", async () => {
      await db.query("update users set email = 'admin@test.local' where username = 'admin'");
      const known = await testClient(url).post("/auth/reset-password", "admin");
      const unknown = await testClient(url).post("/auth/reset-password", { username: "ghost" });
      assert.equal(known.status, 200);
      assert.deepEqual(known.body, unknown.body);
      // Both requests did the same work: one job each; nothing else yet.
      const jobs = await db.query<{ username: string }>(
        `select payload->>'username' as username from jobs where kind = $1 order by id`,
        [PASSWORD_RESET_JOB],
      );
      assert.deepEqual(jobs.map((job) => job.username), ["admin", "ghost"]);
      const tokens = () =>
        db.query<{ count: number }>("select count(*)::int as count from password_reset_tokens");
      assert.equal((await tokens())[0].count, 0);
      // The jobs send one mail, to the known user; this server has no PUBLIC_URL, so the mail
      // carries no link (none built from the request) and says whom to ask.
      const sent: { to: string; text: string }[] = [];
      const mailer = {
        configured: true,
        send: (message: { to: string; text: string }) => {
          sent.push(message);
          return Promise.resolve();
        },
      };
      const ran = await runDueJobs({ ...server.server.deps, mailer }, {
        kinds: [PASSWORD_RESET_JOB],
        log: () => {},
      });
      assert.equal(ran, 2);
      assert.deepEqual(sent.map((message) => message.to), ["admin@test.local"]);
      assert.doesNotMatch(sent[0].text, /https?:\/\/|reset-password\?token=/);
      assert.match(sent[0].text, /ask your administrator to reset your password/);
      assert.equal((await tokens())[0].count, 1);
    });

    await t.step("a reset token sets the password once, and ends the user's sessions", async () => {
      const client = testClient(url);
      await client.login("ivy", "ivy-password");
      await db.query("update users set email = 'ivy@test.local' where username = 'ivy'");
      const reset = await createResetToken(db, "ivy");
      assert.ok(reset);
      const done = await testClient(url).post("/auth/reset-password/complete", {
        token: reset.token,
        newPassword: "ivy-new-password",
      });
      assert.equal(done.status, 204);
      assert.equal((await client.get("/auth/allowed")).status, 401);
      await testClient(url).login("ivy", "ivy-new-password");
      const again = await testClient(url).post("/auth/reset-password/complete", {
        token: reset.token,
        newPassword: "ivy-third-password",
      });
      assert.equal(again.status, 400);
      assert.match((again.body as { message: string }).message, /invalid or has expired/);
    });

    await t.step("an expired reset token is refused", async () => {
      const reset = await createResetToken(db, "admin");
      assert.ok(reset);
      await db.query("update password_reset_tokens set expires_at = now() - interval '1 second'");
      const response = await testClient(url).post("/auth/reset-password/complete", {
        token: reset.token,
        newPassword: "another-password",
      });
      assert.equal(response.status, 400);
    });

    await t.step("responses carry security headers", async () => {
      const response = await testClient(url).get("/health");
      assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      assert.match(response.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
      // One clickjacking policy: both headers forbid every frame.
      assert.equal(response.headers.get("x-frame-options"), "DENY");
      assert.equal(response.headers.get("cache-control"), "no-store");
    });
  } finally {
    await server.close();
  }
});
