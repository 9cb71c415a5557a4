/**
 * Sending through a source's outgoing server: the test e-mail reaches a Dovecot mailbox through
 * Postfix (plain SMTP, and STARTTLS with login on the submission port); a refused login is a
 * clear error; an MSAL source gets its token from the Microsoft login stand-in by client
 * credentials and logs in with XOAUTH2 (tests/mail/msal_test.ts goes further). Needs
 * tests/services/up.sh.
 */
import assert from "node:assert/strict";
import PostalMime from "postal-mime";
import { encodeBase64 } from "../../shared/base64.ts";
import { pollMailbox } from "../../api/ingest/mailbox_poll.ts";
import {
  addMailUser,
  connectImap,
  grantMailbox,
  type MailUser,
  msalAuthorityHost,
  msalTokenRequests,
  readServices,
  registerMsalApp,
  waitForMessages,
} from "../services/services.ts";
import { mailFixture, sourceFor, uniqueName } from "./support.ts";

async function lastMessage(user: MailUser) {
  const client = await connectImap(user);
  try {
    await client.mailboxOpen("INBOX");
    const message = await client.fetchOne("*", { source: true });
    if (!message || !message.source) throw new Error("no message");
    return await PostalMime.parse(message.source);
  } finally {
    await client.logout();
  }
}

Deno.test("sending through an e-mail source", async (t) => {
  const info = readServices();
  const fixture = await mailFixture({ env: { MSAL_AUTHORITY_HOST: msalAuthorityHost() } });
  const { admin, user, emailSourceId, server } = fixture;
  const app = await registerMsalApp();
  grantMailbox(app, user);
  try {
    await t.step("the test e-mail with its attachment arrives in the mailbox", async () => {
      const recipient = await addMailUser(uniqueName("rcpt"));
      const response = await admin.post("/api/email-sources/send-test-email", {
        ToEmail: recipient.address,
        SubjectLine: "Hello from the source",
        MessageContent: "This is a test.",
        FileData: {
          FileName: "report.csv",
          FileData: encodeBase64(new TextEncoder().encode("a,b\n1,2\n")),
        },
        EmailSource: { id: emailSourceId, username: user.address, password: "********" },
      });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      await waitForMessages(recipient, 1);
      const email = await lastMessage(recipient);
      assert.equal(email.subject, "Hello from the source");
      assert.equal(email.from?.address, user.address);
      assert.equal(email.text?.trim(), "This is a test.");
      assert.equal(email.attachments.length, 1);
      assert.equal(email.attachments[0].filename, "report.csv");
      assert.equal(
        new TextDecoder().decode(email.attachments[0].content as ArrayBuffer),
        "a,b\n1,2\n",
      );
    });

    await t.step("with SSL on the submission port: STARTTLS and login", async () => {
      const recipient = await addMailUser(uniqueName("tls"));
      await admin.post("/api/email-sources/email/save", {
        ...sourceFor(user, emailSourceId),
        outgoingPort: info.ports.submission,
        ssl: true,
      });
      const response = await admin.post("/api/email-sources/send-test-email", {
        ToEmail: recipient.address,
        SubjectLine: "Over TLS",
        MessageContent: "Encrypted.",
        FileData: null,
        EmailSource: { id: emailSourceId },
      });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      await waitForMessages(recipient, 1);
      assert.equal((await lastMessage(recipient)).subject, "Over TLS");
    });

    await t.step("a refused login is a clear error", async () => {
      await admin.post("/api/email-sources/email/save", {
        ...sourceFor(user, emailSourceId),
        password: "not-the-password",
        outgoingPort: info.ports.submission,
        ssl: true,
      });
      const response = await admin.post("/api/email-sources/send-test-email", {
        ToEmail: user.address,
        SubjectLine: "s",
        MessageContent: "m",
        EmailSource: { id: emailSourceId },
      });
      assert.equal(response.status, 502);
      const message = (response.body as { message: string }).message;
      assert.match(message, /refused the login/);
      assert.ok(!message.includes("not-the-password"));
    });

    await t.step("MSAL: a token by client credentials, then XOAUTH2", async () => {
      await admin.post("/api/email-sources/email/save", {
        ...sourceFor(user, emailSourceId),
        password: app.clientSecret,
        incomingPort: info.ports.imaps,
        outgoingPort: info.ports.submission,
        ssl: true,
        isMsal: true,
        msalClientId: app.clientId,
        msalTennentId: app.tenantId,
      });
      const recipient = await addMailUser(uniqueName("msal"));
      const response = await admin.post("/api/email-sources/send-test-email", {
        ToEmail: recipient.address,
        SubjectLine: "With a token",
        MessageContent: "m",
        EmailSource: { id: emailSourceId },
      });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      await waitForMessages(recipient, 1);
      assert.equal((await lastMessage(recipient)).subject, "With a token");
      // Polling logs in to IMAP with the same (cached) token.
      const poll = await pollMailbox(server.server.deps, emailSourceId, { log: () => {} });
      assert.equal(poll.error, null);
      assert.equal(await msalTokenRequests(app.clientId), 1);
    });

    await t.step("SSL on a port that does not speak TLS is named as such", async () => {
      await admin.post("/api/email-sources/email/save", {
        ...sourceFor(user, emailSourceId),
        ssl: true,
        incomingPort: info.ports.imap,
      });
      const poll = await pollMailbox(server.server.deps, emailSourceId, { log: () => {} });
      assert.match(poll.error!, /did not answer with TLS/);
    });

    await t.step("MSAL: a wrong client secret names the token step", async () => {
      await admin.post("/api/email-sources/email/save", {
        ...sourceFor(user, emailSourceId),
        password: "wrong-secret",
        isMsal: true,
        msalClientId: app.clientId,
        msalTennentId: app.tenantId,
      });
      const response = await admin.post("/api/email-sources/send-test-email", {
        ToEmail: user.address,
        SubjectLine: "s",
        MessageContent: "m",
        EmailSource: { id: emailSourceId },
      });
      assert.equal(response.status, 502);
      const message = (response.body as { message: string }).message;
      assert.match(message, /Could not get a Microsoft access token/);
      assert.ok(!message.includes("wrong-secret"));
    });
  } finally {
    await server.close();
  }
});
