/**
 * Sending through a source's outgoing server: the test e-mail reaches a Dovecot mailbox through
 * Postfix (plain SMTP, and STARTTLS with login on the submission port); a refused login is a
 * clear error; an MSAL source gets its token from the (local) Microsoft login endpoint by client
 * credentials and logs in with XOAUTH2. Needs tests/services/up.sh.
 */
import assert from "node:assert/strict";
import PostalMime from "postal-mime";
import { encodeBase64 } from "../../shared/base64.ts";
import { pollMailbox } from "../../api/ingest/mailbox_poll.ts";
import {
  addMailUser,
  connectImap,
  type MailUser,
  readServices,
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

/** A stand-in for Microsoft's login service on HTTPS (the only stand-in the tests use). */
function tokenEndpoint() {
  const info = readServices();
  const requests: URLSearchParams[] = [];
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: Deno.readTextFileSync(`${info.stateDir}/tls/server.crt`),
    key: Deno.readTextFileSync(`${info.stateDir}/tls/server.key`),
    onListen: () => {},
  }, async (request) => {
    const url = new URL(request.url);
    const tenant = url.pathname.split("/")[1];
    const base = `${url.origin}/${tenant}`;
    if (url.pathname.endsWith("/.well-known/openid-configuration")) {
      return Response.json({
        token_endpoint: `${base}/oauth2/v2.0/token`,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${base}/oauth2/v2.0/logout`,
        issuer: `${base}/v2.0`,
        jwks_uri: `${base}/discovery/v2.0/keys`,
      });
    }
    if (url.pathname.endsWith("/oauth2/v2.0/token") && request.method === "POST") {
      const form = new URLSearchParams(await request.text());
      requests.push(form);
      if (form.get("client_secret") !== "right-secret") {
        return Response.json({
          error: "invalid_client",
          error_description: "AADSTS7000215: Invalid client secret provided.",
        }, { status: 401 });
      }
      return Response.json({
        token_type: "Bearer",
        expires_in: 3600,
        access_token: `token-for-${form.get("client_id")}`,
      });
    }
    return new Response("not found", { status: 404 });
  });
  return { url: `https://127.0.0.1:${server.addr.port}`, requests, close: () => server.shutdown() };
}

Deno.test("sending through an e-mail source", async (t) => {
  const login = tokenEndpoint();
  const fixture = await mailFixture({ env: { MSAL_AUTHORITY_HOST: login.url } });
  const { admin, user, emailSourceId, server } = fixture;
  const info = readServices();
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
        password: "right-secret",
        incomingPort: info.ports.imaps,
        outgoingPort: info.ports.submission,
        ssl: true,
        isMsal: true,
        msalClientId: "app-123",
        msalTennentId: "tenant-abc",
      });
      const response = await admin.post("/api/email-sources/send-test-email", {
        ToEmail: user.address,
        SubjectLine: "s",
        MessageContent: "m",
        EmailSource: { id: emailSourceId },
      });
      const [request] = login.requests;
      assert.equal(request.get("grant_type"), "client_credentials");
      assert.equal(request.get("client_id"), "app-123");
      assert.equal(request.get("client_secret"), "right-secret");
      assert.match(request.get("scope") ?? "", /https:\/\/outlook\.office365\.com\/\.default/);
      // The test Postfix offers no XOAUTH2: the login with the token is refused, and said so.
      assert.equal(response.status, 502);
      assert.match((response.body as { message: string }).message, /refused the login/);
      // Polling uses the same token path (cached) for IMAP.
      const poll = await pollMailbox(server.server.deps, emailSourceId, { log: () => {} });
      assert.match(poll.error!, /incoming server .* refused the login/);
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
        msalClientId: "app-123",
        msalTennentId: "tenant-abc",
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
    await login.close();
  }
});
