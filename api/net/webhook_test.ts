import assert from "node:assert/strict";
import { signWebhook, webhookBody } from "./webhook.ts";

const meta = { sentAt: new Date("2026-01-05T07:00:00Z"), setting: { id: 3, name: "Ops" } };

Deno.test("the three presets carry title, text and link in their receiver's format", () => {
  const message = {
    title: "Acme <feed> & co failing",
    text: "3 runs failed",
    link: "https://bo.example.com/runs",
    kind: "incident" as const,
  };
  const slack = webhookBody("slack", message, meta) as {
    text: string;
    blocks: { text?: { text: string }; elements?: { text: string }[] }[];
  };
  assert.equal(slack.text, "Acme <feed> & co failing: 3 runs failed");
  assert.equal(slack.blocks[0].text!.text, "*Acme &lt;feed&gt; &amp; co failing*\n3 runs failed");
  assert.equal(
    slack.blocks[1].elements![0].text,
    "<https://bo.example.com/runs|Open in the back office>",
  );

  const teams = webhookBody("teams", message, meta) as {
    type: string;
    attachments: {
      content: { body: { text: string; color?: string }[]; actions: { url: string }[] };
    }[];
  };
  assert.equal(teams.type, "message");
  assert.equal(teams.attachments[0].content.body[0].text, message.title);
  assert.equal(teams.attachments[0].content.body[0].color, "Attention");
  assert.equal(teams.attachments[0].content.actions[0].url, message.link);

  assert.deepEqual(webhookBody("json", message, meta), {
    kind: "incident",
    title: message.title,
    text: "3 runs failed",
    link: message.link,
    sentAt: "2026-01-05T07:00:00.000Z",
    setting: { id: 3, name: "Ops" },
  });
});

Deno.test("a long summary is cut to what chat apps show, ending with an ellipsis", () => {
  const text = "x".repeat(10_000);
  const slack = webhookBody("slack", { title: "T", text, kind: "summary" }, meta) as {
    blocks: { text: { text: string } }[];
  };
  assert.ok(slack.blocks[0].text.text.length < 3_000);
  assert.ok(slack.blocks[0].text.text.endsWith("…"));
  const json = webhookBody("json", { title: "T", text, kind: "summary" }, meta) as { text: string };
  assert.equal(json.text.length, 10_000);
});

Deno.test("the signature is HMAC-SHA256 over timestamp, a dot and the body", async () => {
  // printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac key
  assert.equal(
    await signWebhook("key", 1700000000, '{"a":1}'),
    "t=1700000000,v1=a438e398bfafc57e4396bb7fc2304422f0f768e965d073ca313cb52e22e6ad03",
  );
});
