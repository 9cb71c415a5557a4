/**
 * Login throttling without lockouts, and TRUST_PROXY, over real HTTP on PGlite or PostgreSQL.
 * The server trusts the proxy headers, so `X-Forwarded-For` plays the client's address.
 */
import assert from "node:assert/strict";
import { MAX_FAILURES_PER_ADDRESS } from "../../api/auth/throttle.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";

const from = (address: string) => ({ headers: { "x-forwarded-for": `${address}, 10.9.9.9` } });

Deno.test("throttling delays an attacker's address, never the owner elsewhere", async (t) => {
  const server = await startTestServer({ env: { TRUST_PROXY: "true" } });
  const { url, db } = server;
  const login = (username: string, password: string, address: string) =>
    testClient(url).post("/auth/login", { username, password }, from(address));
  try {
    await t.step("an attacker cannot lock the admin out", async () => {
      for (let i = 0; i < 4; i++) {
        assert.equal((await login("admin", `guess-${i}`, "203.0.113.66")).status, 401);
      }
      const blocked = await login("admin", ADMIN_PASSWORD, "203.0.113.66");
      assert.equal(blocked.status, 429);
      assert.deepEqual(blocked.body, {
        message: "Too many failed login attempts. Please wait a moment and try again.",
      });
      assert.ok(Number(blocked.headers.get("retry-after")) >= 1);
      // The right password from a clean address is admitted at once.
      assert.equal((await login("admin", ADMIN_PASSWORD, "198.51.100.7")).status, 200);
      // ... and that does not clear the attacker's count.
      const [row] = await db.query<{ failures: number }>(
        "select failures from login_throttle where account = 'admin' and address = $1",
        ["203.0.113.66"],
      );
      assert.equal(row.failures, 4);
    });

    await t.step("the delay doubles after every further failure, up to a cap", async () => {
      const blockedFor = async () => {
        const [row] = await db.query<{ seconds: number }>(
          `select extract(epoch from blocked_until - last_attempt_at)::float8 as seconds
             from login_throttle where account = 'admin' and address = '203.0.113.66'`,
        );
        return Math.round(row.seconds);
      };
      const seen: number[] = [];
      for (let i = 0; i < 12; i++) {
        // Time passes: the waiting is over.
        await db.query("update login_throttle set blocked_until = now() where address = $1", [
          "203.0.113.66",
        ]);
        assert.equal((await login("admin", `again-${i}`, "203.0.113.66")).status, 401);
        seen.push(await blockedFor());
      }
      assert.deepEqual(seen, [2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900]);
      const response = await login("admin", "x", "203.0.113.66");
      assert.equal(response.status, 429);
      assert.ok(Number(response.headers.get("retry-after")) > 800);
    });

    await t.step("one address has a budget across accounts", async () => {
      for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
        assert.equal((await login(`spray-${i}`, "password1", "192.0.2.50")).status, 401);
      }
      const over = await login("spray-new", "password1", "192.0.2.50");
      assert.equal(over.status, 429);
      assert.ok(Number(over.headers.get("retry-after")) > 0);
      assert.equal((await login("admin", ADMIN_PASSWORD, "192.0.2.50")).status, 429);
      assert.equal((await login("admin", ADMIN_PASSWORD, "192.0.2.51")).status, 200);
    });

    await t.step("parallel guesses from one address get only the free attempts", async () => {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => login("admin", `p-${i}`, "192.0.2.99")),
      );
      const statuses = answers.map((a) => a.status).sort();
      // Three free failures and the fourth (which sets the first delay); the rest wait.
      assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429, 429, 429, 429, 429]);
    });

    await t.step("the current-password check of update/password is throttled too", async () => {
      const userId = await server.createUser({ username: "pat", password: "pat-password" });
      const pat = testClient(url);
      await pat.login("pat", "pat-password");
      const change = (oldPassword: string, address: string) =>
        pat.post("/api/accounts/update/password", {
          userId,
          oldPassword,
          newPassword: "pat-new-password",
        }, from(address));
      for (let i = 0; i < 4; i++) {
        const wrong = await change(`wrong-${i}`, "203.0.113.9");
        assert.equal(wrong.status, 400);
      }
      const blocked = await change("pat-password", "203.0.113.9");
      assert.equal(blocked.status, 429);
      assert.ok(Number(blocked.headers.get("retry-after")) >= 1);
      assert.equal((await change("pat-password", "198.51.100.20")).status, 204);
    });

    await t.step("X-Forwarded-Proto https makes the cookies Secure", async () => {
      const response = await testClient(url).post("/auth/login", {
        username: "admin",
        password: ADMIN_PASSWORD,
      }, { headers: { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.30" } });
      assert.equal(response.status, 200);
      for (const line of response.setCookies) assert.match(line, /; Secure/);
      const [session] = await db.query<{ ip: string }>(
        "select ip from sessions order by created_at desc limit 1",
      );
      assert.equal(session.ip, "198.51.100.30");
    });
  } finally {
    await server.close();
  }
});

Deno.test("without TRUST_PROXY the forwarding headers are ignored", async () => {
  const server = await startTestServer({ env: { TRUST_PROXY: "false" } });
  try {
    const response = await testClient(server.url).post("/auth/login", {
      username: "admin",
      password: ADMIN_PASSWORD,
    }, { headers: { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.30" } });
    assert.equal(response.status, 200);
    for (const line of response.setCookies) assert.doesNotMatch(line, /Secure/);
    // Failures "from" different forwarded addresses all count on the real peer.
    for (let i = 0; i < 4; i++) {
      const wrong = await testClient(server.url).post(
        "/auth/login",
        { username: "admin", password: `g-${i}` },
        from(`203.0.113.${i}`),
      );
      assert.equal(wrong.status, 401);
    }
    const blocked = await testClient(server.url).post(
      "/auth/login",
      { username: "admin", password: ADMIN_PASSWORD },
      from("203.0.113.200"),
    );
    assert.equal(blocked.status, 429);
  } finally {
    await server.close();
  }
});
