/**
 * Limits on mail the server sends for a user (issue 28, finding 4; docs/limits.md, "Sending"),
 * on the real Postfix and Dovecot: past the limit per user, then past the limit of everyone
 * together, "Send Test Email" answers 429 with `Retry-After` and a message naming the limit, and
 * no further mail reaches the mailbox; notification tests likewise. On PostgreSQL the sends are
 * spread over two server processes on one database, which share the count.
 */
import assert from "node:assert/strict";
import { encodeBase64 } from "../../shared/base64.ts";
import { startServer } from "../../api/server.ts";
import {
  addMailUser,
  connectImap,
  type MailUser,
  readServices,
  sendMail,
  waitForMessages,
} from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "../support/server.ts";
import { type TestClient, testClient } from "../support/http.ts";
import { mailFixture, uniqueName } from "./support.ts";

/** The subjects in `user`'s INBOX, sorted. */
async function subjects(user: MailUser): Promise<string[]> {
  const client = await connectImap(user);
  try {
    await client.mailboxOpen("INBOX");
    const found: string[] = [];
    for await (const message of client.fetch("1:*", { envelope: true })) {
      found.push(message.envelope?.subject ?? "");
    }
    return found.sort();
  } finally {
    await client.logout();
  }
}

/**
 * Sends a marker through the test Postfix and waits for it: once it is in, a mail the server had
 * sent before it would be too, so the count that follows is final without a timed wait.
 */
async function countAfterMarker(user: MailUser, expected: number): Promise<string[]> {
  await sendMail({
    from: `marker@${readServices().domain}`,
    to: user.address,
    subject: "zz marker",
    text: "marker",
  });
  await waitForMessages(user, expected + 1, 20_000);
  return (await subjects(user)).filter((s) => s !== "zz marker");
}

/** One key for both processes: each would make its own, and one could not read the other's secrets. */
const SECRET_KEY = encodeBase64(crypto.getRandomValues(new Uint8Array(32)));

/** A second server process on the test server's PostgreSQL database; none on PGlite. */
async function secondProcess(server: TestServer) {
  if (!server.config.DATABASE_URL) return null;
  return await startServer(server.config, { log: () => {}, jobs: false });
}

function assertLimited(
  response: { status: number; headers: Headers; body: unknown },
  message: RegExp,
) {
  assert.equal(response.status, 429, JSON.stringify(response.body));
  const retry = Number(response.headers.get("retry-after"));
  assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 3600, `Retry-After ${retry}`);
  assert.deepEqual(Object.keys(response.body as object), ["message"]);
  assert.match((response.body as { message: string }).message, message);
}

Deno.test("test e-mails: past the limit per user and in total 429, and no extra mail", async (t) => {
  const f = await mailFixture({
    env: {
      TEST_EMAILS_PER_USER_PER_HOUR: "2",
      TEST_EMAILS_PER_HOUR: "3",
      TEST_EMAIL_MAX_ATTACHMENT_BYTES: "1000",
      SECRET_KEY,
    },
  });
  const second = await secondProcess(f.server);
  try {
    const recipient = await addMailUser(uniqueName("limited"));
    const send = (client: TestClient, subject: string, attachment?: Uint8Array) =>
      client.post("/api/email-sources/send-test-email", {
        ToEmail: recipient.address,
        SubjectLine: subject,
        MessageContent: "Testing the limit.",
        FileData: attachment
          ? { FileName: "orders.csv", FileData: encodeBase64(attachment) }
          : null,
        EmailSource: { id: f.emailSourceId },
      });

    await t.step("an attachment over the cap is refused and costs nothing", async () => {
      const big = await send(f.admin, "too big", new Uint8Array(1001).fill(65));
      assert.equal(big.status, 400);
      assert.deepEqual(big.body, {
        message: "The attachment must be at most 1000 bytes (TEST_EMAIL_MAX_ATTACHMENT_BYTES).",
      });
      const fits = await send(f.admin, "admin 1", new Uint8Array(1000).fill(65));
      assert.equal(fits.status, 200, JSON.stringify(fits.body));
    });

    await t.step("a user's third send in the hour: 429 naming the per-user limit", async () => {
      assert.equal((await send(f.admin, "admin 2")).status, 200);
      assertLimited(
        await send(f.admin, "admin 3"),
        /^You have sent 2 test e-mails in the last hour, the limit \(TEST_EMAILS_PER_USER_PER_HOUR\)\. Try again in \d+ minutes?\.$/,
      );
    });

    await t.step("another user, on another process: the total limit", async () => {
      await f.server.createUser({
        username: "stock",
        password: "stock-password",
        inventoryUser: true,
      });
      const stock = testClient(second?.url ?? f.server.url);
      await stock.login("stock", "stock-password");
      assert.equal((await send(stock, "stock 1")).status, 200);
      assertLimited(
        await send(stock, "stock 2"),
        /^The server has sent 3 test e-mails in the last hour, the limit for everyone together \(TEST_EMAILS_PER_HOUR\)\. Try again in \d+ minutes?\.$/,
      );
      // The admin's own count holds on the other process too.
      const adminThere = testClient(second?.url ?? f.server.url);
      await adminThere.login("admin", ADMIN_PASSWORD);
      assertLimited(await send(adminThere, "admin 4"), /^You have sent 2 test e-mails/);
    });

    await t.step("the mailbox holds the three sent mails and no more", async () => {
      assert.deepEqual(await countAfterMarker(recipient, 3), ["admin 1", "admin 2", "stock 1"]);
    });
  } finally {
    await second?.shutdown();
    await f.server.close();
  }
});

Deno.test("notification tests: past the limit per user 429, and no extra mail", async () => {
  const info = readServices();
  const mailbox = await addMailUser(uniqueName("notify-limit"));
  const server = await startTestServer({
    env: {
      SMTP_HOST: info.host,
      SMTP_PORT: String(info.ports.smtp),
      SMTP_SECURITY: "none",
      SMTP_FROM: `back-office@${info.domain}`,
      PUBLIC_URL: "https://backoffice.example.com",
      NOTIFICATION_TESTS_PER_USER_PER_HOUR: "2",
      NOTIFICATION_TESTS_PER_HOUR: "10",
      SECRET_KEY,
    },
  });
  const second = await secondProcess(server);
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const created = await admin.post("/api/notification-settings", {
      name: "Everything",
      sourceTypeId: 1,
      notificationEnabled: true,
      notificationInterval: "Daily",
      timeZone: "UTC",
      overrideEmailRecipients: mailbox.address,
      emailSubjectPrefix: "[limit]",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = (created.body as { id: number }).id;
    const other = testClient(second?.url ?? server.url);
    await other.login("admin", ADMIN_PASSWORD);
    assert.equal((await admin.post(`/api/notification-settings/${id}/test`)).status, 200);
    assert.equal((await other.post(`/api/notification-settings/${id}/test`)).status, 200);
    assertLimited(
      await admin.post(`/api/notification-settings/${id}/test`),
      /^You have sent 2 notification tests in the last hour, the limit \(NOTIFICATION_TESTS_PER_USER_PER_HOUR\)\./,
    );
    assert.equal((await countAfterMarker(mailbox, 2)).length, 2);
  } finally {
    await second?.shutdown();
    await server.close();
  }
});
