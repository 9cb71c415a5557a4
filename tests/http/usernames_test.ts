/** Usernames over HTTP: NFKC on create, rename and login; look-alikes refused with a 400. */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";

const messageOf = (response: { body: unknown }) => (response.body as { message: string }).message;

Deno.test("usernames are normalised and look-alikes refused", async (t) => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);

    await t.step("user create refuses control, bidi, zero-width and mixed scripts", async () => {
      const cases: [string, RegExp][] = [
        ["\u0430dmin2", /username: Username cannot mix letters from different scripts/],
        ["evil\u202Egpj", /username: Username cannot contain invisible/],
        ["ze\u200Bro", /username: Username cannot contain invisible/],
        ["bo\u2066m", /username: Username cannot contain invisible/],
        ["ctl\u0001x", /username: /],
      ];
      for (const [username, text] of cases) {
        const response = await admin.post("/api/accounts/update/user", {
          userId: 0,
          username,
          email: "x@test.local",
        });
        assert.equal(response.status, 400, JSON.stringify(username));
        assert.match(messageOf(response), text, JSON.stringify(username));
      }
    });

    await t.step(
      "a full-width name is stored as NFKC and collides with its plain form",
      async () => {
        const created = await admin.post("/api/accounts/update/user", {
          userId: 0,
          username: "ｐａｖｅｌ",
          email: "pavel@test.local",
          password: "pavel-password",
          activeStatus: true,
        });
        assert.equal(created.status, 200);
        assert.equal((created.body as { username: string }).username, "pavel");
        const twin = await admin.post("/api/accounts/update/user", {
          userId: 0,
          username: "ＰＡＶＥＬ",
          email: "twin@test.local",
        });
        assert.equal(twin.status, 409);
        // Login normalises the same way before the lookup.
        const login = await testClient(server.url).post("/auth/login", {
          username: "ｐａｖｅｌ",
          password: "pavel-password",
        });
        assert.equal(login.status, 200);
        assert.deepEqual(login.body, { username: "pavel" });
      },
    );

    await t.step("update/username refuses a look-alike and normalises", async () => {
      const userId = await server.createUser({ username: "quinn", password: "quinn-password" });
      const quinn = testClient(server.url);
      await quinn.login("quinn", "quinn-password");
      const bad = await quinn.post("/api/accounts/update/username", {
        userId,
        oldUsername: "quinn",
        newUsername: "qu\u0456nn", // Cyrillic і
      });
      assert.equal(bad.status, 400);
      assert.match(messageOf(bad), /newUsername: Username cannot mix/);
      const good = await quinn.post("/api/accounts/update/username", {
        userId,
        oldUsername: "quinn",
        newUsername: "ｑｕｉｎｎ２",
      });
      assert.equal(good.status, 200);
      assert.deepEqual(good.body, { username: "quinn2" });
    });
  } finally {
    await server.close();
  }
});
