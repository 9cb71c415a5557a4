/**
 * The Microsoft 365 part of the test services: the login stand-in answers like Microsoft's
 * identity platform, and the real Dovecot and Postfix take its tokens (XOAUTH2, OAUTHBEARER) for
 * the mailboxes the app was granted, and refuse expired or foreign ones. Needs up.sh.
 */
import assert from "node:assert/strict";
import { ImapFlow } from "imapflow";
// @ts-types="@types/nodemailer"
import nodemailer from "nodemailer";
import {
  addMailUser,
  grantMailbox,
  msalAuthorityHost,
  msalToken,
  readCaPem,
  readServices,
  registerMsalApp,
  waitForMessages,
} from "./services.ts";

const info = readServices();
const http = Deno.createHttpClient({ caCerts: [readCaPem(info)] });
const base = msalAuthorityHost();

async function get(path: string) {
  const response = await fetch(`${base}${path}`, { client: http });
  return { status: response.status, body: await response.json() };
}

async function tokenRequest(tenant: string, form: Record<string, string>) {
  const response = await fetch(`${base}/${tenant}/oauth2/v2.0/token`, {
    method: "POST",
    body: new URLSearchParams(form),
    client: http,
  });
  return { status: response.status, body: await response.json() };
}

/** An IMAP login with a token through imapflow (which picks what the server advertises). */
async function imapTokenLogin(user: string, accessToken: string): Promise<string> {
  const client = new ImapFlow({
    host: info.host,
    port: info.ports.imaps,
    secure: true,
    auth: { user, accessToken },
    tls: { ca: readCaPem(info) },
    logger: false,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.mailboxOpen("INBOX");
    await client.logout();
    return "ok";
  } catch (error) {
    client.close();
    return (error as { responseText?: string }).responseText ?? (error as Error).message;
  }
}

/** A raw IMAP exchange: the greeting's capabilities and the answer to one AUTHENTICATE. */
async function rawAuthenticate(mechanism: string, payload: string) {
  const conn = await Deno.connect({ hostname: info.host, port: info.ports.imap });
  const reader = conn.readable.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const until = async (pattern: RegExp) => {
    while (!pattern.test(buffer)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
    }
    return buffer;
  };
  const greeting = await until(/\r\n/);
  const writer = conn.writable.getWriter();
  await writer.write(
    new TextEncoder().encode(`a1 AUTHENTICATE ${mechanism} ${btoa(payload)}\r\n`),
  );
  let answer = await until(/^(a1 .*|\+.*)\r\n/m);
  if (/^\+/m.test(answer.slice(greeting.length))) {
    await writer.write(new TextEncoder().encode("\r\n"));
    answer = await until(/^a1 .*\r\n/m);
  }
  await writer.close().catch(() => {});
  reader.releaseLock();
  return { greeting, answer: /^a1 (.*)\r\n/m.exec(answer)?.[1] ?? answer };
}

Deno.test("the Microsoft login stand-in answers where msal-node asks, like Microsoft", async (t) => {
  const app = await registerMsalApp();

  await t.step("instance metadata and OpenID discovery", async () => {
    const instance = await get(
      `/common/discovery/instance?api-version=1.1&authorization_endpoint=${
        encodeURIComponent(`${base}/${app.tenantId}/oauth2/v2.0/authorize`)
      }`,
    );
    assert.equal(instance.status, 200);
    assert.equal(
      instance.body.tenant_discovery_endpoint,
      `${base}/${app.tenantId}/v2.0/.well-known/openid-configuration`,
    );
    const discovery = await get(`/${app.tenantId}/v2.0/.well-known/openid-configuration`);
    assert.equal(discovery.status, 200);
    assert.equal(discovery.body.token_endpoint, `${base}/${app.tenantId}/oauth2/v2.0/token`);
    assert.equal(discovery.body.issuer, `${base}/${app.tenantId}/v2.0`);
  });

  const form = {
    grant_type: "client_credentials",
    client_id: app.clientId,
    client_secret: app.clientSecret,
    scope: "https://outlook.office365.com/.default",
  };

  await t.step("client credentials for outlook.office365.com give a bearer token", async () => {
    const answer = await tokenRequest(app.tenantId, form);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.token_type, "Bearer");
    assert.equal(answer.body.expires_in, 3599);
    assert.ok(answer.body.access_token.length > 40);
  });

  await t.step("a wrong secret: 401 invalid_client, AADSTS7000215", async () => {
    const answer = await tokenRequest(app.tenantId, { ...form, client_secret: "wrong" });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error, "invalid_client");
    assert.deepEqual(answer.body.error_codes, [7000215]);
    assert.match(answer.body.error_description, /^AADSTS7000215: Invalid client secret provided/);
  });

  await t.step(
    "an unknown tenant: AADSTS90002 from discovery and from the token endpoint",
    async () => {
      const tenant = crypto.randomUUID();
      const discovery = await get(`/${tenant}/v2.0/.well-known/openid-configuration`);
      assert.equal(discovery.status, 400);
      assert.equal(discovery.body.error, "invalid_tenant");
      assert.match(
        discovery.body.error_description,
        new RegExp(`^AADSTS90002: Tenant '${tenant}'`),
      );
      const token = await tokenRequest(tenant, form);
      assert.equal(token.status, 400);
      assert.deepEqual(token.body.error_codes, [90002]);
    },
  );

  await t.step("no admin consent: 400 invalid_grant, AADSTS65001", async () => {
    const unconsented = await registerMsalApp({ consented: false });
    const answer = await tokenRequest(unconsented.tenantId, {
      ...form,
      client_id: unconsented.clientId,
      client_secret: unconsented.clientSecret,
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, "invalid_grant");
    assert.equal(answer.body.suberror, "consent_required");
    assert.match(answer.body.error_description, /^AADSTS65001: The user or administrator/);
  });

  await t.step("a scope without /.default is refused as Microsoft does", async () => {
    const answer = await tokenRequest(app.tenantId, { ...form, scope: "IMAP.AccessAsApp" });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body.error_codes, [1002012]);
  });
});

Deno.test("Dovecot takes the stand-in's tokens for granted mailboxes only", async (t) => {
  const app = await registerMsalApp();
  const mailbox = await addMailUser(`msal-${crypto.randomUUID().slice(0, 8)}`);
  const other = await addMailUser(`msal-${crypto.randomUUID().slice(0, 8)}`);
  grantMailbox(app, mailbox);
  const token = await msalToken(app);

  await t.step(
    "IMAP offers and accepts XOAUTH2 (Exchange Online's only token mechanism)",
    async () => {
      // The SASL string imapflow sends to Exchange Online (which offers no OAUTHBEARER).
      const { greeting, answer } = await rawAuthenticate(
        "XOAUTH2",
        `user=${mailbox.address}\x01auth=Bearer ${token}\x01\x01`,
      );
      assert.match(greeting, /AUTH=XOAUTH2/);
      assert.match(answer, /^OK/);
    },
  );

  await t.step("and OAUTHBEARER, which imapflow prefers when offered", async () => {
    assert.equal(await imapTokenLogin(mailbox.address, token), "ok");
    const payload = `n,a=${mailbox.address},\x01host=${info.host}\x01port=${info.ports.imap}` +
      `\x01auth=Bearer ${token}\x01\x01`;
    assert.match((await rawAuthenticate("OAUTHBEARER", payload)).answer, /^OK/);
  });

  await t.step("a mailbox the app was not granted is refused", async () => {
    assert.match(await imapTokenLogin(other.address, token), /Authentication failed/);
  });

  await t.step("a made-up token is refused", async () => {
    assert.match(await imapTokenLogin(mailbox.address, `${token}x`), /Authentication failed/);
  });

  await t.step("an expired token is refused", async () => {
    const shortLived = await registerMsalApp({ tokenLifetimeSeconds: 1 });
    grantMailbox(shortLived, mailbox);
    const old = await msalToken(shortLived);
    assert.equal(await imapTokenLogin(mailbox.address, old), "ok");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.match(await imapTokenLogin(mailbox.address, old), /Authentication failed/);
  });

  await t.step("Postfix's submission port sends with XOAUTH2 through Dovecot", async () => {
    const transport = nodemailer.createTransport({
      host: info.host,
      port: info.ports.submission,
      secure: false,
      requireTLS: true,
      auth: { type: "OAuth2", user: mailbox.address, accessToken: token },
      tls: { ca: readCaPem(info) },
    });
    try {
      await transport.sendMail({
        from: mailbox.address,
        to: other.address,
        subject: "sent with a token",
        text: "hello",
      });
      await waitForMessages(other, 1);
      const refused = await transport.sendMail({
        from: other.address,
        to: mailbox.address,
        subject: "x",
        text: "x",
        // deno-lint-ignore no-explicit-any
        auth: { user: other.address, accessToken: token } as any,
      }).then(() => "sent", (error) => (error as { code?: string }).code);
      assert.equal(refused, "EAUTH");
    } finally {
      transport.close();
    }
  });
});
