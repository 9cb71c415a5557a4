/**
 * Password reset end to end: the request enqueues a job, the server's background jobs send the
 * link by real mail (Postfix → Dovecot), and it works once.
 */
import assert from "node:assert/strict";
import { addMailUser, connectImap, readServices, waitForMessages } from "../services/services.ts";
import { startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";

Deno.test("a reset link arrives by e-mail, sets the password once and ends old sessions", async () => {
  const info = readServices();
  const mailbox = await addMailUser(`reset-${crypto.randomUUID().slice(0, 8)}`);
  // Background jobs on (and ticking every second): the reset mail goes through the job queue.
  const server = await startTestServer({
    jobs: true,
    env: {
      JOBS_TICK_SECONDS: "1",
      SMTP_HOST: info.host,
      SMTP_PORT: String(info.ports.smtp),
      SMTP_SECURITY: "none",
      SMTP_FROM: `back-office@${info.domain}`,
      // The link's origin (the only one mailed links use: tests/http/mailed_links_test.ts).
      PUBLIC_URL: "http://backoffice.example.test",
    },
  });
  try {
    await server.createUser({
      username: "rosa",
      password: "rosa-old-password",
      email: mailbox.address,
    });
    const rosa = testClient(server.url);
    await rosa.login("rosa", "rosa-old-password");

    const asked = await testClient(server.url).post("/auth/reset-password", "rosa");
    assert.equal(asked.status, 200);
    await waitForMessages(mailbox, 1, 15_000);
    const imap = await connectImap(mailbox);
    let text = "";
    try {
      await imap.mailboxOpen("INBOX");
      const message = await imap.fetchOne("*", { source: true, envelope: true });
      assert.ok(message && message.source);
      assert.equal(message.envelope?.subject, "Password reset");
      text = new TextDecoder().decode(message.source).replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    } finally {
      await imap.logout();
    }
    const link = /http:\/\/\S+\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
    assert.ok(link, `no reset link in:\n${text}`);
    assert.ok(link[0].startsWith("http://backoffice.example.test/reset-password?token="));

    const done = await testClient(server.url).post("/auth/reset-password/complete", {
      token: link[1],
      newPassword: "rosa-new-password",
    });
    assert.equal(done.status, 204);
    assert.equal((await rosa.get("/auth/allowed")).status, 401);
    await testClient(server.url).login("rosa", "rosa-new-password");
    const old = await testClient(server.url).post("/auth/login", {
      username: "rosa",
      password: "rosa-old-password",
    });
    assert.equal(old.status, 401);
    const reused = await testClient(server.url).post("/auth/reset-password/complete", {
      token: link[1],
      newPassword: "rosa-third-password",
    });
    assert.equal(reused.status, 400);
  } finally {
    await server.close();
  }
});
