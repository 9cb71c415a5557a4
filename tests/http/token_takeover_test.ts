/**
 * An access token cannot take its account (issue 28): with a bearer token the e-mail address,
 * username, password and tokens stay as they are; the owner still logs in and resets the
 * password through their own mailbox (real Postfix and Dovecot); an address change needs a
 * recent login and tells the old address; password resets and changes, an admin's reset end the
 * user's tokens with their sessions.
 */
import assert from "node:assert/strict";
import { addMailUser, readServices } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { type TestClient, testClient } from "../support/http.ts";
import { readMail } from "../support/mail_read.ts";

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** A new token of the client's session. */
async function newToken(client: TestClient, name: string): Promise<{ id: number; token: string }> {
  const created = await client.post("/api/accounts/tokens", { name });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body as { id: number; token: string };
}

const messageOf = (body: unknown) => (body as { message: string }).message;

Deno.test("a bearer token cannot take over its account; the owner keeps it", async (t) => {
  const info = readServices();
  const own = await addMailUser(`owner-${crypto.randomUUID().slice(0, 8)}`);
  const next = await addMailUser(`next-${crypto.randomUUID().slice(0, 8)}`);
  const server = await startTestServer({
    jobs: true,
    env: {
      JOBS_TICK_SECONDS: "1",
      SMTP_HOST: info.host,
      SMTP_PORT: String(info.ports.smtp),
      SMTP_SECURITY: "none",
      SMTP_FROM: `back-office@${info.domain}`,
      PUBLIC_URL: "http://backoffice.example.test",
    },
  });
  const anonymous = testClient(server.url);
  const alive = async (token: string) =>
    (await anonymous.get("/auth/user", bearer(token))).status === 200;
  try {
    const userId = await server.createUser({
      username: "carol",
      password: "carol-password",
      email: own.address,
      orderUser: true,
    });
    const carol = testClient(server.url);
    await carol.login("carol", "carol-password");
    const stolen = await newToken(carol, "ci");
    const sibling = await newToken(carol, "laptop");

    await t.step("with the token: e-mail, username, password and tokens are refused", async () => {
      const profile = { userId, email: "attacker@evil.example", firstName: "", lastName: "" };
      const email = await anonymous.post(
        "/api/accounts/update/user-info",
        profile,
        bearer(stolen.token),
      );
      assert.equal(email.status, 403);
      assert.match(messageOf(email.body), /access token/);
      const password = await anonymous.post("/api/accounts/update/password", {
        userId,
        username: "carol",
        oldPassword: "carol-password",
        newPassword: "taken-over-password",
      }, bearer(stolen.token));
      assert.equal(password.status, 403);
      const rename = await anonymous.post("/api/accounts/update/username", {
        userId,
        oldUsername: "carol",
        newUsername: "mallory",
      }, bearer(stolen.token));
      assert.equal(rename.status, 403);
      const mint = await anonymous.post(
        "/api/accounts/tokens",
        { name: "x" },
        bearer(stolen.token),
      );
      assert.equal(mint.status, 403);
      const revoke = await anonymous.request(
        "DELETE",
        `/api/accounts/tokens/${sibling.id}`,
        bearer(stolen.token),
      );
      assert.equal(revoke.status, 403);
      assert.ok(await alive(sibling.token));
      // Names are not credentials: the token may still change those.
      const names = await anonymous.post("/api/accounts/update/user-info", {
        userId,
        email: own.address,
        firstName: "Carol",
        lastName: "",
      }, bearer(stolen.token));
      assert.equal(names.status, 200, JSON.stringify(names.body));
      const [row] = await server.db.query<{ email: string; username: string }>(
        "select email, username from users where id = $1",
        [userId],
      );
      assert.deepEqual(row, { email: own.address, username: "carol" });
    });

    await t.step("the owner logs in and resets the password to her own mailbox", async () => {
      await testClient(server.url).login("carol", "carol-password");
      assert.equal((await anonymous.post("/auth/reset-password", "carol")).status, 200);
      const [reset] = await readMail(own, 1);
      const link = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(reset.text);
      assert.ok(link, reset.text);
      const done = await anonymous.post("/auth/reset-password/complete", {
        token: link[1],
        newPassword: "carol-new-password",
      });
      assert.equal(done.status, 204);
      // The reset ends the tokens with the sessions.
      assert.equal(await alive(stolen.token), false);
      assert.equal(await alive(sibling.token), false);
      await carol.login("carol", "carol-new-password");
    });

    await t.step("an address change needs a recent login and tells the old address", async () => {
      // The same session, opened 31 minutes ago: too old to move the address or mint tokens.
      await server.db.query(
        "update sessions set created_at = now() - interval '31 minutes' where user_id = $1",
        [userId],
      );
      const profile = { userId, email: next.address, firstName: "Carol", lastName: "" };
      const stale = await carol.post("/api/accounts/update/user-info", profile);
      assert.equal(stale.status, 403);
      assert.match(messageOf(stale.body), /within the last 30 minutes/);
      assert.equal((await carol.post("/api/accounts/tokens", { name: "x" })).status, 403);
      await carol.login("carol", "carol-new-password");
      const moved = await carol.post("/api/accounts/update/user-info", profile);
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      const [, notice] = await readMail(own, 2);
      assert.equal(notice.subject, "Your e-mail address was changed");
      assert.ok(notice.text.includes(next.address), notice.text);
      assert.match(notice.text, /ask your administrator/);
    });

    await t.step("a password change ends the tokens, not the session that made it", async () => {
      const token = await newToken(carol, "ci");
      const changed = await carol.post("/api/accounts/update/password", {
        userId,
        username: "carol",
        oldPassword: "carol-new-password",
        newPassword: "carol-third-password",
      });
      assert.equal(changed.status, 204, JSON.stringify(changed.body));
      assert.equal(await alive(token.token), false);
      assert.equal((await carol.get("/auth/allowed")).status, 200);
    });

    await t.step(
      "an admin's password reset ends the tokens; an admin token cannot edit its own account",
      async () => {
        const token = await newToken(carol, "ci");
        const admin = testClient(server.url);
        await admin.login("admin", ADMIN_PASSWORD);
        const account = (await admin.get(`/api/accounts/user/${userId}`)).body as Record<
          string,
          unknown
        >;
        const reset = await admin.post("/api/accounts/update/user", {
          ...account,
          password: "set-by-admin-1",
        });
        assert.equal(reset.status, 200, JSON.stringify(reset.body));
        assert.equal(await alive(token.token), false);

        const adminToken = await newToken(admin, "admin ci");
        const self = (await admin.get("/api/accounts/user/1")).body as Record<string, unknown>;
        const takeover = await anonymous.post("/api/accounts/update/user", {
          ...self,
          email: "attacker@evil.example",
          password: "",
        }, bearer(adminToken.token));
        assert.equal(takeover.status, 403);
        // User management by token still works on others (the CLI's `users update`).
        const other = await anonymous.post("/api/accounts/update/user", {
          ...account,
          firstName: "Caroline",
          password: "",
        }, bearer(adminToken.token));
        assert.equal(other.status, 200, JSON.stringify(other.body));
      },
    );
  } finally {
    await server.close();
  }
});
