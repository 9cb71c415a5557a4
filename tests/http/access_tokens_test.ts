/**
 * Personal access tokens over HTTP (docs/auth.md, "Personal access tokens"): shown once, stored
 * hashed, the user's current flags, revocation, deactivated users, no CSRF for bearer requests.
 */
import assert from "node:assert/strict";
import { hashToken } from "../../api/auth/tokens.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";

const LIST = { PageSize: 10, PageIndex: 1, SortParams: { customerPoNumber: true } };

Deno.test("personal access tokens", async (t) => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  const bearer = (token: string, extra: Record<string, string> = {}) => ({
    headers: { authorization: `Bearer ${token}`, ...extra },
  });
  const anonymous = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const userId = await server.createUser({
      username: "ops",
      password: "ops-password-1",
      email: "ops@test.local",
      orderUser: true,
    });
    const ops = testClient(server.url);
    await ops.login("ops", "ops-password-1");

    let token = "";
    let tokenId = 0;
    await t.step("created once, stored hashed, listed without the token", async () => {
      const created = await ops.post("/api/accounts/tokens", { name: "laptop" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const body = created.body as { id: number; token: string; name: string; hint: string };
      assert.match(body.token, /^smt_[A-Za-z0-9_-]{43}$/);
      assert.equal(body.hint, body.token.slice(0, 8));
      token = body.token;
      tokenId = body.id;
      const rows = await server.db.query<{ tokenHash: string }>(
        `select token_hash as "tokenHash" from access_tokens where id = $1`,
        [tokenId],
      );
      assert.equal(rows[0].tokenHash, hashToken(token));
      const stored = JSON.stringify(
        await server.db.query("select * from access_tokens where id = $1", [tokenId]),
      );
      assert.ok(!stored.includes(token), "the token itself is not stored");
      const list = await ops.get("/api/accounts/tokens");
      assert.equal(list.status, 200);
      assert.ok(!JSON.stringify(list.body).includes(token));
      const [entry] = list.body as { name: string; lastUsedAt: string | null }[];
      assert.equal(entry.name, "laptop");
      assert.equal(entry.lastUsedAt, null);
      // Another user does not see it.
      assert.deepEqual((await admin.get("/api/accounts/tokens")).body, []);
    });

    await t.step("acts with the user's flags, records the last use", async () => {
      const me = await anonymous.get("/auth/user", bearer(token));
      assert.equal(me.status, 200);
      assert.equal((me.body as { username: string }).username, "ops");
      const orders = await anonymous.post(
        "/api/order-tracking/list",
        LIST,
        bearer(token),
      );
      assert.equal(orders.status, 200, JSON.stringify(orders.body));
      const inventory = await anonymous.get("/api/inventory-sources/inventories", bearer(token));
      assert.equal(inventory.status, 403);
      const users = await anonymous.get("/api/accounts/list", bearer(token));
      assert.equal(users.status, 403);
      const [entry] = (await ops.get("/api/accounts/tokens")).body as { lastUsedAt: string }[];
      assert.ok(entry.lastUsedAt);
      // The flag taken away: the next request says no.
      await server.db.query("update users set order_user = false where id = $1", [userId]);
      const refused = await anonymous.post(
        "/api/order-tracking/list",
        LIST,
        bearer(token),
      );
      assert.equal(refused.status, 403);
      await server.db.query("update users set order_user = true where id = $1", [userId]);
    });

    await t.step("bearer requests pass the CSRF check; a token cannot mint tokens", async () => {
      const crossSite = await anonymous.post(
        "/api/order-tracking/list",
        LIST,
        bearer(token, { origin: "https://evil.example" }),
      );
      assert.equal(crossSite.status, 200);
      const minted = await anonymous.post("/api/accounts/tokens", { name: "x" }, bearer(token));
      assert.equal(minted.status, 403);
    });

    await t.step("wrong token, malformed header: 401", async () => {
      for (const header of [`Bearer smt_${"A".repeat(43)}`, "Bearer nonsense", "Basic abc"]) {
        const response = await anonymous.get("/auth/user", { headers: { authorization: header } });
        assert.equal(response.status, 401, header);
      }
    });

    await t.step(
      "a deactivated user's tokens stop working, and stay dead after reactivation",
      async () => {
        const account = (await admin.get(`/api/accounts/user/${userId}`)).body as Record<
          string,
          unknown
        >;
        const save = (activeStatus: boolean) =>
          admin.post("/api/accounts/update/user", { ...account, activeStatus, password: "" });
        assert.equal((await save(false)).status, 200);
        assert.equal((await anonymous.get("/auth/user", bearer(token))).status, 401);
        assert.equal((await save(true)).status, 200);
        assert.equal((await anonymous.get("/auth/user", bearer(token))).status, 401);
        assert.deepEqual((await ops.get("/api/accounts/tokens")).status, 401, "sessions end too");
        await ops.login("ops", "ops-password-1");
        assert.deepEqual((await ops.get("/api/accounts/tokens")).body, []);
        const fresh = (await ops.post("/api/accounts/tokens", { name: "laptop" })).body as {
          id: number;
          token: string;
        };
        ({ token, id: tokenId } = fresh);
        assert.equal((await anonymous.get("/auth/user", bearer(token))).status, 200);
      },
    );

    await t.step("revoke: by id (only the owner) and the current token", async () => {
      const otherUser = await admin.request("DELETE", `/api/accounts/tokens/${tokenId}`);
      assert.equal(otherUser.status, 404);
      const revoked = await ops.request("DELETE", `/api/accounts/tokens/${tokenId}`);
      assert.equal(revoked.status, 204);
      assert.equal((await anonymous.get("/auth/user", bearer(token))).status, 401);
      assert.deepEqual((await ops.get("/api/accounts/tokens")).body, []);
      const second = (await ops.post("/api/accounts/tokens", { name: "ci" })).body as {
        token: string;
      };
      const self = await anonymous.request(
        "DELETE",
        "/api/accounts/tokens/current",
        bearer(second.token),
      );
      assert.equal(self.status, 204);
      assert.equal((await anonymous.get("/auth/user", bearer(second.token))).status, 401);
    });

    await t.step("a name is required", async () => {
      const response = await ops.post("/api/accounts/tokens", { name: " " });
      assert.equal(response.status, 400);
    });
  } finally {
    await server.close();
  }
});
