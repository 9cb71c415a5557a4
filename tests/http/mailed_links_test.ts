/**
 * Mailed links never follow the request (issue 28): the reset and notification mails delivered
 * through Postfix into Dovecot link to `PUBLIC_URL` whatever `Host` or `X-Forwarded-Host` the
 * request named (even with `TRUST_PROXY`), and without `PUBLIC_URL` carry no link at all, say to
 * ask the administrator, and the admin's pages say what is missing.
 */
import assert from "node:assert/strict";
import { addMailUser, readServices } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { rawRequest } from "../support/raw_http.ts";
import { readMail } from "../support/mail_read.ts";
import { NO_LINKS_NOTE } from "../../shared/notifications/render.ts";

const PUBLIC_URL = "https://backoffice.example.test/bo";
const EVIL = "evil.example:8111";

/** A server with real system mail and background jobs ticking every second. */
function mailServer(env: Record<string, string>): Promise<TestServer> {
  const info = readServices();
  return startTestServer({
    jobs: true,
    env: {
      JOBS_TICK_SECONDS: "1",
      SMTP_HOST: info.host,
      SMTP_PORT: String(info.ports.smtp),
      SMTP_SECURITY: "none",
      SMTP_FROM: `back-office@${info.domain}`,
      ...env,
    },
  });
}

/** POST /auth/reset-password the way an attacker sends it: any Host, any forwarding headers. */
async function forgedReset(server: TestServer, username: string, headers: Record<string, string>) {
  const answer = await rawRequest(server.url, "POST", "/auth/reset-password", {
    "content-type": "application/json",
    ...headers,
  }, JSON.stringify(username));
  assert.equal(answer.status, 200, answer.body);
}

/** A notification setting mailing `address`, sent once as a test with a forged Host. */
async function forgedNotificationTest(server: TestServer, address: string): Promise<number> {
  const admin = testClient(server.url);
  await admin.login("admin", ADMIN_PASSWORD);
  const created = await admin.post("/api/notification-settings", {
    name: "Tracking daily",
    sourceTypeId: 3,
    sourceId: null,
    notificationEnabled: true,
    notificationInterval: "Daily",
    timeZone: "UTC",
    includeErrorAlerts: true,
    overrideEmailRecipients: address,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id = (created.body as { id: number }).id;
  // The Origin matches the forged Host, so the CSRF check (which compares with the request's own
  // origin) lets it through: only the link's origin is under test here.
  const sent = await rawRequest(server.url, "POST", `/api/notification-settings/${id}/test`, {
    host: EVIL,
    origin: `http://${EVIL}`,
    cookie: `X-Access-Token=${admin.cookies.get("X-Access-Token")!.value}`,
    "x-forwarded-host": EVIL,
  });
  assert.equal(sent.status, 200, sent.body);
  return id;
}

Deno.test("with PUBLIC_URL, a forged Host or X-Forwarded-Host never reaches a mailed link", async () => {
  const mailbox = await addMailUser(`links-${crypto.randomUUID().slice(0, 8)}`);
  const server = await mailServer({ PUBLIC_URL, TRUST_PROXY: "true" });
  try {
    await server.createUser({
      username: "alice",
      password: "alice-password",
      email: mailbox.address,
    });

    await forgedReset(server, "alice", { host: EVIL });
    const [first] = await readMail(mailbox, 1);
    assert.equal(first.subject, "Password reset");
    assert.match(first.text, /https:\/\/backoffice\.example\.test\/bo\/reset-password\?token=\S+/);
    assert.doesNotMatch(first.text, /evil/);

    // Behind a trusted proxy the forwarding headers decide the client's address and scheme,
    // never the link's origin.
    await forgedReset(server, "alice", {
      host: EVIL,
      "x-forwarded-host": EVIL,
      "x-forwarded-proto": "http",
      "x-forwarded-for": "203.0.113.9",
    });
    const [, second] = await readMail(mailbox, 2);
    const link = /https:\/\/backoffice\.example\.test\/bo\/reset-password\?token=([A-Za-z0-9_-]+)/
      .exec(second.text);
    assert.ok(link, second.text);
    assert.doesNotMatch(second.text, /evil/);
    // The link's token is the real one: the owner sets her password with it.
    const done = await testClient(server.url).post("/auth/reset-password/complete", {
      token: link[1],
      newPassword: "alice-new-password",
    });
    assert.equal(done.status, 204);
    await testClient(server.url).login("alice", "alice-new-password");

    const settingId = await forgedNotificationTest(server, mailbox.address);
    const [, , notification] = await readMail(mailbox, 3);
    assert.ok(
      notification.text.includes(`${PUBLIC_URL}/notification-settings/edit/${settingId}`),
      notification.text,
    );
    assert.doesNotMatch(notification.text + notification.html, /evil/);

    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    assert.deepEqual((await admin.get("/api/accounts/config-warnings")).body, { warnings: [] });
  } finally {
    await server.close();
  }
});

Deno.test("without PUBLIC_URL mails carry no link, say to ask the administrator, and admins are told", async () => {
  const mailbox = await addMailUser(`nolink-${crypto.randomUUID().slice(0, 8)}`);
  // An empty value is unset (api/config.ts), whatever the environment of the test run holds.
  const server = await mailServer({ PUBLIC_URL: "" });
  try {
    await server.createUser({ username: "bob", password: "bob-password", email: mailbox.address });
    await forgedReset(server, "bob", { host: EVIL });
    const [reset] = await readMail(mailbox, 1);
    assert.equal(reset.subject, "Password reset");
    assert.doesNotMatch(reset.text, /https?:|reset-password\?token|evil/);
    assert.match(reset.text, /ask your administrator to reset your password/);
    // No token that could be used was made: the one counted for the rate limit is spent.
    const live = await server.db.query(
      "select 1 from password_reset_tokens where used_at is null",
    );
    assert.equal(live.length, 0);

    await forgedNotificationTest(server, mailbox.address);
    const [, notification] = await readMail(mailbox, 2);
    assert.doesNotMatch(notification.text, /https?:|evil/);
    assert.doesNotMatch(notification.html, /href=|evil/);
    assert.ok(notification.text.includes(NO_LINKS_NOTE), notification.text);

    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const warnings = await admin.get("/api/accounts/config-warnings");
    assert.equal(warnings.status, 200);
    const [warning] = (warnings.body as { warnings: string[] }).warnings;
    assert.match(warning, /PUBLIC_URL is not set/);
    const user = testClient(server.url);
    await user.login("bob", "bob-password");
    assert.equal((await user.get("/api/accounts/config-warnings")).status, 403);
  } finally {
    await server.close();
  }
});
