/** Contract tests of the /api/email-sources calls over real HTTP (PGlite or DATABASE_URL). */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";

const SECRET = "mailbox-secret-Qx7";

const source = {
  id: 0,
  username: "orders@example.test",
  email: "orders@example.test",
  password: SECRET,
  incomingServer: "127.0.0.1",
  outgoingServer: "127.0.0.1",
  incomingPort: 9,
  outgoingPort: 9,
  ssl: false,
  isMsal: false,
  msalClientId: "",
  msalTennentId: "",
};

Deno.test("e-mail sources contract", async (t) => {
  const server = await startTestServer();
  const { url, db } = server;
  const admin = testClient(url);
  await admin.login("admin", ADMIN_PASSWORD);
  let id = 0;
  try {
    await t.step("the list starts empty and the picker too", async () => {
      assert.deepEqual((await admin.get("/api/email-sources/emails")).body, []);
      assert.deepEqual((await admin.get("/api/email-sources/email-list")).body, []);
    });

    await t.step("saving id 0 creates a source and answers it with the placeholder", async () => {
      const response = await admin.post("/api/email-sources/email/save", source);
      assert.equal(response.status, 200);
      const saved = response.body as Record<string, unknown>;
      id = saved.id as number;
      assert.ok(id > 0);
      assert.equal(saved.password, "********");
      assert.equal(saved.msalTennentId, "");
      assert.equal(saved.activeStatus, true);
    });

    await t.step("the stored secret is encrypted with a key id and not readable", async () => {
      const [row] = await db.query<{ passwordEnc: string }>(
        `select password_enc as "passwordEnc" from email_sources where id = $1`,
        [id],
      );
      assert.match(row.passwordEnc, /^v1\.[0-9a-f]{8}\./);
      assert.ok(!row.passwordEnc.includes(SECRET));
      const dump = await db.query(`select * from email_sources`);
      assert.ok(!JSON.stringify(dump).includes(SECRET));
      assert.equal(await server.server.deps.secrets.decrypt(row.passwordEnc), SECRET);
    });

    await t.step(
      "get answers every field with the contract's spelling, secret hidden",
      async () => {
        const response = await admin.get(`/api/email-sources/email/${id}`);
        assert.equal(response.status, 200);
        const body = response.body as Record<string, unknown>;
        for (
          const key of [
            "username",
            "email",
            "password",
            "incomingServer",
            "outgoingServer",
            "incomingPort",
            "outgoingPort",
            "ssl",
            "isMsal",
            "msalClientId",
            "msalTennentId",
          ]
        ) assert.ok(key in body, key);
        assert.equal(body.password, "********");
        assert.equal(body.incomingPort, 9);
        assert.ok(!JSON.stringify(body).includes(SECRET));
      },
    );

    await t.step("saving the placeholder keeps the secret; a new one replaces it", async () => {
      const keep = await admin.post("/api/email-sources/email/save", {
        ...source,
        id,
        email: "renamed@example.test",
        password: "********",
      });
      assert.equal(keep.status, 200);
      const account = await secretOf(id);
      assert.equal(account, SECRET);
      const msal = await admin.post("/api/email-sources/email/save", {
        ...source,
        id,
        password: "client-secret",
        isMsal: true,
        msalClientId: "client-1",
        msalTennentId: "tenant-1",
      });
      assert.equal(msal.status, 200);
      const got = (await admin.get(`/api/email-sources/email/${id}`)).body as Record<
        string,
        unknown
      >;
      assert.equal(got.isMsal, true);
      assert.equal(got.msalTennentId, "tenant-1");
      await admin.post("/api/email-sources/email/save", { ...source, id, password: "new-secret" });
      assert.equal(await secretOf(id), "new-secret");
    });

    await t.step(
      "the placeholder cannot move the secret to another server or account",
      async () => {
        const changes: Record<string, unknown>[] = [
          { incomingServer: "127.0.0.2" },
          { incomingPort: 10 },
          { outgoingServer: "LOCALHOST" },
          { outgoingPort: 10 },
          { ssl: true },
          { username: "someone-else@example.test" },
          { isMsal: true },
          { isMsal: true, msalClientId: "client-2", msalTennentId: "tenant-1" },
        ];
        for (const change of changes) {
          const response = await admin.post("/api/email-sources/email/save", {
            ...source,
            id,
            password: "********",
            ...change,
          });
          assert.equal(response.status, 400, JSON.stringify(change));
          const body = response.body as { message: string; errors: Record<string, string[]> };
          assert.match(body.message, /Enter the password again/);
          assert.ok(body.errors.password);
        }
        assert.equal(await secretOf(id), "new-secret");
        const stored = (await admin.get(`/api/email-sources/email/${id}`)).body as Record<
          string,
          unknown
        >;
        assert.equal(stored.incomingServer, "127.0.0.1");
        assert.equal(stored.incomingPort, 9);
      },
    );

    await t.step("keys are matched without case (Id, Username)", async () => {
      const response = await admin.post("/api/email-sources/email/save", {
        Id: id,
        Username: "orders@example.test",
        Email: "orders@example.test",
        Password: "new-secret",
        SSL: true,
        IncomingPort: "993",
      });
      assert.equal(response.status, 200);
      const body = response.body as Record<string, unknown>;
      assert.equal(body.id, id);
      assert.equal(body.ssl, true);
      assert.equal(body.incomingPort, 993);
      assert.equal(await secretOf(id), "new-secret");
    });

    await t.step("validation messages follow the spec", async () => {
      const bad = await admin.post("/api/email-sources/email/save", {
        ...source,
        username: "",
        email: "not-an-address",
        password: "ab",
      });
      assert.equal(bad.status, 400);
      const errors = (bad.body as { errors: Record<string, string[]> }).errors;
      assert.deepEqual(errors.username, ["Required"]);
      assert.deepEqual(errors.email, ["Enter a valid email address"]);
      assert.deepEqual(errors.password, ["Required"]);
      const empty = await admin.post("/api/email-sources/email/save", { ...source, email: "" });
      assert.deepEqual((empty.body as { errors: Record<string, string[]> }).errors.email, [
        "Required",
      ]);
      const newWithPlaceholder = await admin.post("/api/email-sources/email/save", {
        ...source,
        password: "********",
      });
      assert.equal(newWithPlaceholder.status, 400);
      assert.match((newWithPlaceholder.body as { message: string }).message, /password/i);
      const badPort = await admin.post("/api/email-sources/email/save", {
        ...source,
        incomingPort: 70000,
      });
      assert.equal(badPort.status, 400);
    });

    await t.step("the list shows the source with its poll status fields", async () => {
      const list = (await admin.get("/api/email-sources/emails")).body as Record<string, unknown>[];
      assert.equal(list.length, 1);
      assert.equal(list[0].id, id);
      assert.equal(list[0].password, "********");
      assert.equal(list[0].lastSuccessfulPoll, null);
      assert.equal(list[0].lastPollError, null);
    });

    await t.step("email-list pairs name sources by username, unique", async () => {
      const other = await admin.post("/api/email-sources/email/save", {
        ...source,
        email: "second@example.test",
      });
      const otherId = (other.body as { id: number }).id;
      const pairs = (await admin.get("/api/email-sources/email-list")).body;
      assert.deepEqual(pairs, [
        { item1: "orders@example.test (orders@example.test)", item2: id },
        { item1: "orders@example.test (second@example.test)", item2: otherId },
      ]);
      assert.equal((await admin.post(`/api/email-sources/delete/${otherId}`)).status, 204);
      assert.deepEqual((await admin.get("/api/email-sources/email-list")).body, [
        { item1: "orders@example.test", item2: id },
      ]);
    });

    await t.step("send-test-email needs its fields, and says why sending failed", async () => {
      const missing = await admin.post("/api/email-sources/send-test-email", {
        ToEmail: "someone@example.test",
        SubjectLine: "",
        MessageContent: "hello",
        FileData: null,
        EmailSource: { id },
      });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, { message: "Please fill in all required fields." });
      const noSource = await admin.post("/api/email-sources/send-test-email", {
        ToEmail: "someone@example.test",
        SubjectLine: "s",
        MessageContent: "m",
        FileData: null,
        EmailSource: null,
      });
      assert.equal(noSource.status, 400);
      const badFile = await admin.post("/api/email-sources/send-test-email", {
        ToEmail: "someone@example.test",
        SubjectLine: "s",
        MessageContent: "m",
        FileData: { FileName: "a.csv", FileData: "%%%not base64" },
        EmailSource: { id },
      });
      assert.equal(badFile.status, 400);
      assert.match((badFile.body as { message: string }).message, /base64/);
      // Port 9 on loopback (discard) refuses connections: a clear error, no secret in it.
      await admin.post("/api/email-sources/email/save", {
        ...source,
        id,
        ssl: false,
        outgoingPort: 9,
        password: "new-secret",
      });
      const unreachable = await admin.post("/api/email-sources/send-test-email", {
        ToEmail: "someone@example.test",
        SubjectLine: "s",
        MessageContent: "m",
        FileData: null,
        EmailSource: { id, password: "********" },
      });
      assert.equal(unreachable.status, 502);
      const message = (unreachable.body as { message: string }).message;
      assert.match(message, /127\.0\.0\.1:9/);
      assert.ok(!message.includes("new-secret"));
    });

    await t.step("Check now on an unreachable mailbox records the error on the list", async () => {
      const response = await admin.post(`/api/email-sources/poll/${id}`);
      assert.equal(response.status, 200);
      const result = response.body as { polled: boolean; error: string };
      assert.equal(result.polled, true);
      assert.match(result.error, /incoming server 127\.0\.0\.1:9/);
      const [listed] = (await admin.get("/api/email-sources/emails")).body as Record<
        string,
        unknown
      >[];
      assert.match(String(listed.lastPollError), /127\.0\.0\.1:9/);
      assert.equal(listed.lastSuccessfulPoll, null);
      assert.ok(listed.lastPollErrorAt);
    });

    await t.step("guards: not logged in 401, no flag 403, any flag allowed", async () => {
      assert.equal((await testClient(url).get("/api/email-sources/emails")).status, 401);
      await server.createUser({ username: "noflags", password: "noflags-password" });
      const none = testClient(url);
      await none.login("noflags", "noflags-password");
      assert.equal((await none.get("/api/email-sources/emails")).status, 403);
      assert.equal((await none.post(`/api/email-sources/delete/${id}`)).status, 403);
      await server.createUser({
        username: "stock",
        password: "stock-password",
        inventoryUser: true,
      });
      const stock = testClient(url);
      await stock.login("stock", "stock-password");
      assert.equal((await stock.get("/api/email-sources/emails")).status, 200);
    });

    await t.step("delete hides the source; unknown ids are 404", async () => {
      assert.equal((await admin.post(`/api/email-sources/delete/${id}`)).status, 204);
      assert.deepEqual((await admin.get("/api/email-sources/emails")).body, []);
      assert.equal((await admin.get(`/api/email-sources/email/${id}`)).status, 404);
      assert.equal((await admin.post(`/api/email-sources/delete/${id}`)).status, 404);
      assert.equal((await admin.get("/api/email-sources/email/abc")).status, 400);
    });
  } finally {
    await server.close();
  }

  async function secretOf(sourceId: number): Promise<string> {
    const [row] = await db.query<{ passwordEnc: string }>(
      `select password_enc as "passwordEnc" from email_sources where id = $1`,
      [sourceId],
    );
    return await server.server.deps.secrets.decrypt(row.passwordEnc);
  }
});
