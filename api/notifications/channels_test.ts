/**
 * Webhooks of notification settings against a real HTTP server on loopback (Deno.serve): the
 * address and secret are write-only, the body and its signature arrive as documented, a receiver
 * answering 500 gets the message again from the durable job, the outbound policy refuses an
 * address (and a redirect hop) it does not admit, and a scheduled summary posts once.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "../../tests/support/server.ts";
import { testClient } from "../../tests/support/http.ts";
import { runDueJobs } from "../jobs/runner.ts";
import { DELIVERY_HEADER, SIGNATURE_HEADER } from "../net/webhook.ts";
import { postToChannels, WEBHOOK_JOB } from "./channels.ts";
import { enqueueDueNotifications, NOTIFICATION_SEND_JOB } from "./jobs.ts";

const SECRET = "whsec-test-key";

interface Received {
  path: string;
  headers: Headers;
  body: string;
}

/** A receiver on loopback answering the statuses of `answers` in turn (then 200). */
function receiver(answers: number[] = [], hostname = "127.0.0.1") {
  const received: Received[] = [];
  const server = Deno.serve(
    { hostname, port: 0, onListen: () => {} },
    async (request) => {
      received.push({
        path: new URL(request.url).pathname,
        headers: request.headers,
        body: await request.text(),
      });
      return new Response("ok", { status: answers.shift() ?? 200 });
    },
  );
  const url = `http://${hostname}:${server.addr.port}/hooks/T000-secret-path`;
  return { received, url, server };
}

async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
}

function settingBody(fields: Record<string, unknown>) {
  return {
    name: "Ops alerts",
    sourceTypeId: 1,
    notificationEnabled: true,
    notificationInterval: "Daily",
    timeZone: "UTC",
    overrideEmailRecipients: "ops@example.com",
    ...fields,
  };
}

async function admin(server: TestServer) {
  const client = testClient(server.url);
  await client.login("admin", ADMIN_PASSWORD);
  return client;
}

function runWebhookJobs(server: TestServer) {
  return runDueJobs(server.server.deps, { kinds: [WEBHOOK_JOB], log: () => {} });
}

Deno.test("a webhook's address and secret are stored but never answered", async () => {
  const server = await startTestServer();
  const hook = receiver();
  try {
    const client = await admin(server);
    const created = await client.post(
      "/api/notification-settings",
      settingBody({ webhookPreset: "slack", webhookUrl: hook.url, webhookSecret: SECRET }),
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = (created.body as { id: number }).id;
    for (const answer of [created, await client.get(`/api/notification-settings/${id}`)]) {
      const text = JSON.stringify(answer.body);
      assert.ok(!text.includes("secret-path") && !text.includes(SECRET), text);
      assert.equal((answer.body as Record<string, string>).webhookUrl, "********");
      assert.equal((answer.body as Record<string, string>).webhookSecret, "********");
      assert.equal((answer.body as Record<string, string>).webhookHost, "127.0.0.1");
    }
    const list = await client.get("/api/notification-settings");
    assert.ok(!JSON.stringify(list.body).includes("secret-path"));
    const [stored] = await server.db.query<{ url: string }>(
      `select webhook_url_secret_enc as url from notification_settings where id = $1`,
      [id],
    );
    assert.ok(!stored.url.includes("secret-path"), "the address is stored encrypted");

    // Sending the placeholders back keeps both; a new address with the kept secret is refused.
    const kept = await client.request("PUT", `/api/notification-settings/${id}`, {
      body: settingBody({
        webhookPreset: "slack",
        webhookUrl: "********",
        webhookSecret: "********",
      }),
    });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    assert.equal((kept.body as Record<string, string>).webhookSecret, "********");
    const moved = await client.request("PUT", `/api/notification-settings/${id}`, {
      body: settingBody({
        webhookPreset: "slack",
        webhookUrl: "https://attacker.example/collect",
        webhookSecret: "********",
      }),
    });
    assert.equal(moved.status, 400);
    assert.ok((moved.body as { errors: Record<string, string[]> }).errors.webhookSecret);
    const bad = await client.post(
      "/api/notification-settings",
      settingBody({ webhookPreset: "json", webhookUrl: "ftp://example.com/x" }),
    );
    assert.equal(bad.status, 400);
    assert.ok((bad.body as { errors: Record<string, string[]> }).errors.webhookUrl);

    // No preset clears the webhook.
    const cleared = await client.request("PUT", `/api/notification-settings/${id}`, {
      body: settingBody({ webhookPreset: "", webhookUrl: "********" }),
    });
    assert.equal((cleared.body as Record<string, string>).webhookUrl, "");
    assert.equal((cleared.body as Record<string, string>).webhookHost, "");
  } finally {
    await hook.server.shutdown();
    await server.close();
  }
});

Deno.test("the test post arrives as JSON with a signature over timestamp and body", async () => {
  const server = await startTestServer({ env: { PUBLIC_URL: "https://backoffice.example.com" } });
  const hook = receiver();
  try {
    const client = await admin(server);
    const created = await client.post(
      "/api/notification-settings",
      settingBody({ webhookPreset: "json", webhookUrl: hook.url, webhookSecret: SECRET }),
    );
    const id = (created.body as { id: number }).id;
    const before = Math.floor(Date.now() / 1000);
    const test = await client.post(`/api/notification-settings/${id}/test-webhook`);
    assert.equal(test.status, 200, JSON.stringify(test.body));
    assert.equal((test.body as { success: boolean }).success, true);
    assert.equal(hook.received.length, 1);
    const [post] = hook.received;
    assert.equal(post.path, "/hooks/T000-secret-path");
    assert.equal(post.headers.get("content-type"), "application/json");
    const body = JSON.parse(post.body);
    assert.equal(body.kind, "test");
    assert.match(body.title, /Ops alerts/);
    assert.equal(body.link, `https://backoffice.example.com/notification-settings/edit/${id}`);
    assert.deepEqual(body.setting, { id, name: "Ops alerts" });
    const signature = post.headers.get(SIGNATURE_HEADER)!;
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
    assert.ok(match, signature);
    assert.ok(Number(match[1]) >= before && Number(match[1]) <= before + 60);
    assert.equal(match[2], await hmacHex(SECRET, `${match[1]}.${post.body}`));
    assert.ok(post.headers.get(DELIVERY_HEADER));
  } finally {
    await hook.server.shutdown();
    await server.close();
  }
});

Deno.test("a receiver answering 500 gets the message again from the durable job", async () => {
  const server = await startTestServer();
  const hook = receiver([500, 503]);
  try {
    const client = await admin(server);
    const created = await client.post(
      "/api/notification-settings",
      settingBody({ webhookPreset: "teams", webhookUrl: hook.url, webhookSecret: SECRET }),
    );
    const id = (created.body as { id: number }).id;
    const message = { title: "Acme feed is failing", text: "3 runs failed", kind: "incident" };
    assert.equal(
      await postToChannels(server.server.deps, { id }, message as never, { onceKey: "i-1" }),
      1,
    );
    // The same incident seen again queues nothing.
    assert.equal(
      await postToChannels(server.server.deps, { id }, message as never, { onceKey: "i-1" }),
      0,
    );
    await runWebhookJobs(server);
    const [waiting] = await server.db.query<{ status: string; later: boolean; error: string }>(
      `select status, run_at > now() as later, last_error as error from jobs where kind = $1`,
      [WEBHOOK_JOB],
    );
    assert.equal(waiting.status, "queued");
    assert.ok(waiting.later, "the retry waits for its back-off");
    assert.match(waiting.error, /answered 500/);
    assert.ok(!waiting.error.includes("secret-path"), "the error names the host only");
    for (let i = 0; i < 2; i++) {
      await server.db.query(`update jobs set run_at = now() where kind = $1`, [WEBHOOK_JOB]);
      await runWebhookJobs(server);
    }
    const [done] = await server.db.query<{ status: string; attempts: number }>(
      `select status, attempts from jobs where kind = $1`,
      [WEBHOOK_JOB],
    );
    assert.deepEqual(done, { status: "succeeded", attempts: 3 });
    assert.equal(hook.received.length, 3);
    const ids = new Set(hook.received.map((post) => post.headers.get(DELIVERY_HEADER)));
    assert.equal(ids.size, 1, "every attempt carries the same delivery id");
    const card = JSON.parse(hook.received[2].body);
    assert.equal(card.type, "message");
    assert.equal(card.attachments[0].contentType, "application/vnd.microsoft.card.adaptive");
    assert.equal(card.attachments[0].content.body[0].text, "Acme feed is failing");
  } finally {
    await hook.server.shutdown();
    await server.close();
  }
});

Deno.test("the outbound policy refuses a loopback webhook, and a redirect hop", async () => {
  // Only 127.0.0.1 is admitted: the redirect's target on 127.0.0.2 is not.
  const server = await startTestServer({ env: { OUTBOUND_ALLOW: "127.0.0.1/32" } });
  const target = receiver([], "127.0.0.2");
  const redirecting = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(null, { status: 307, headers: { location: target.url } }),
  );
  try {
    const client = await admin(server);
    const refusedUrl = target.url;
    const created = await client.post(
      "/api/notification-settings",
      settingBody({ webhookPreset: "json", webhookUrl: refusedUrl }),
    );
    const id = (created.body as { id: number }).id;
    const test = await client.post(`/api/notification-settings/${id}/test-webhook`);
    assert.equal(test.status, 502);
    assert.match((test.body as { message: string }).message, /outbound policy/);
    assert.ok(!(test.body as { message: string }).message.includes("secret-path"));

    // The durable post gives up at once: the policy does not change by waiting.
    await postToChannels(server.server.deps, { id }, {
      title: "t",
      text: "x",
      kind: "incident",
    });
    await runWebhookJobs(server);
    const [job] = await server.db.query<{ status: string }>(
      `select status from jobs where kind = $1`,
      [WEBHOOK_JOB],
    );
    assert.equal(job.status, "failed");

    const hop = await client.request("PUT", `/api/notification-settings/${id}`, {
      body: settingBody({
        webhookPreset: "json",
        webhookUrl: `http://127.0.0.1:${redirecting.addr.port}/hooks/x`,
      }),
    });
    assert.equal(hop.status, 200, JSON.stringify(hop.body));
    const viaRedirect = await client.post(`/api/notification-settings/${id}/test-webhook`);
    assert.equal(viaRedirect.status, 502);
    assert.match((viaRedirect.body as { message: string }).message, /outbound policy/);
    assert.equal(target.received.length, 0, "the refused address saw no connection");
  } finally {
    await redirecting.shutdown();
    await target.server.shutdown();
    await server.close();
  }
});

Deno.test("a scheduled summary posts to the webhook once, beside its e-mail", async () => {
  const server = await startTestServer();
  const hook = receiver();
  try {
    const sent: unknown[] = [];
    const deps = {
      ...server.server.deps,
      mailer: {
        configured: true,
        send: (message: unknown) => Promise.resolve(void sent.push(message)),
      },
    };
    const client = await admin(server);
    const created = await client.post(
      "/api/notification-settings",
      settingBody({ webhookPreset: "slack", webhookUrl: hook.url }),
    );
    const id = (created.body as { id: number }).id;
    await server.db.query(
      `update notification_settings set last_scheduled = now() - interval '2 days' where id = $1`,
      [id],
    );
    await enqueueDueNotifications(deps);
    await runDueJobs(deps, { kinds: [NOTIFICATION_SEND_JOB], log: () => {} });
    await runDueJobs(deps, { kinds: [WEBHOOK_JOB], log: () => {} });
    assert.equal(sent.length, 1, "the e-mail went out");
    assert.equal(hook.received.length, 1);
    const slack = JSON.parse(hook.received[0].body);
    assert.match(slack.text, /Inventory summary/);
    assert.equal(slack.blocks[0].type, "section");
    assert.equal(hook.received[0].headers.get(SIGNATURE_HEADER), null, "no secret, no signature");
    // Nothing more is due: no second post.
    await enqueueDueNotifications(deps);
    await runDueJobs(deps, { kinds: [NOTIFICATION_SEND_JOB, WEBHOOK_JOB], log: () => {} });
    assert.equal(hook.received.length, 1);
  } finally {
    await hook.server.shutdown();
    await server.close();
  }
});
