/**
 * Posting a message to a webhook (docs/notifications.md, "Webhooks"): the body in one of three
 * formats (plain JSON, Slack's and Microsoft Teams' incoming webhooks), signed with HMAC-SHA256
 * like Stripe and GitHub do, sent under the outbound policy (docs/outbound.md) to the address and
 * to every redirect hop. The address is a secret (a Slack or Teams address is its own credential):
 * errors and logs name its host only.
 */
import { checkOutboundUrl, OutboundRefused, type Resolver, systemResolver } from "./outbound.ts";

/** The body formats. */
export type WebhookFormat = "json" | "slack" | "teams";

/** What an alert says, whatever carries it. */
export interface ChannelMessage {
  title: string;
  text: string;
  /** A page of the app that shows more (absolute, from PUBLIC_URL). */
  link?: string;
  /** What the message is about: a summary, an incident, its recovery, or a test. */
  kind: "summary" | "incident" | "recovered" | "test";
}

/** The header carrying the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = "X-Webhook-Signature";
/** The header naming one message; the same on every retry, so receivers can drop repeats. */
export const DELIVERY_HEADER = "X-Webhook-Id";
/** How long one post may take, connection included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Redirects followed (307 and 308 only: they keep the method and the body). */
export const MAX_REDIRECTS = 3;
/** Slack shows at most 3 000 characters in a section block; Teams cards stay well under 28 KB. */
const CHAT_TEXT_LIMIT = 2_900;
/** The plain JSON body carries the whole text up to this length. */
const JSON_TEXT_LIMIT = 100_000;

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** Slack's mrkdwn needs &, < and > escaped; everything else is shown as written. */
function slackEscape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * The JSON body of a message in a format. `json`: `{ kind, title, text, link, sentAt, setting }`;
 * `slack`: `text` (the notification fallback) and mrkdwn `blocks`; `teams`: a message with one
 * Adaptive Card, the format Teams' Workflows ("When a Teams webhook request is received") and
 * incoming webhooks accept.
 *
 * @example
 * ```ts
 * const body = webhookBody("slack", { title: "Feed failing", text: "3 runs failed", kind: "incident" }, {
 *   sentAt: new Date("2026-01-01T07:00:00Z"),
 *   setting: { id: 1, name: "Ops" },
 * });
 * // body.text === "Feed failing: 3 runs failed"
 * ```
 */
export function webhookBody(
  format: WebhookFormat,
  message: ChannelMessage,
  meta: { sentAt: Date; setting: { id: number; name: string } },
): Record<string, unknown> {
  const text = message.text.trim();
  if (format === "slack") {
    const body = `*${slackEscape(message.title)}*\n${slackEscape(clip(text, CHAT_TEXT_LIMIT))}`;
    const blocks: Record<string, unknown>[] = [
      { type: "section", text: { type: "mrkdwn", text: body } },
    ];
    if (message.link) {
      blocks.push({
        type: "context",
        elements: [{ type: "mrkdwn", text: `<${message.link}|Open in the back office>` }],
      });
    }
    return { text: clip(`${message.title}: ${text}`, CHAT_TEXT_LIMIT), blocks };
  }
  if (format === "teams") {
    const card: Record<string, unknown> = {
      $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
      type: "AdaptiveCard",
      version: "1.4",
      body: [
        {
          type: "TextBlock",
          text: message.title,
          weight: "Bolder",
          size: "Medium",
          wrap: true,
          color: message.kind === "incident" ? "Attention" : "Default",
        },
        { type: "TextBlock", text: clip(text, CHAT_TEXT_LIMIT), wrap: true },
      ],
    };
    if (message.link) {
      card.actions = [{
        type: "Action.OpenUrl",
        title: "Open in the back office",
        url: message.link,
      }];
    }
    return {
      type: "message",
      summary: message.title,
      attachments: [{
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: card,
      }],
    };
  }
  return {
    kind: message.kind,
    title: message.title,
    text: clip(text, JSON_TEXT_LIMIT),
    link: message.link ?? null,
    sentAt: meta.sentAt.toISOString(),
    setting: meta.setting,
  };
}

/**
 * The signature header's value: `t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`,
 * the timestamp in Unix seconds. A receiver recomputes it over the raw body and refuses old
 * timestamps (replays).
 *
 * @example
 * ```ts
 * await signWebhook("key", 1700000000, "{}"); // "t=1700000000,v1=…"
 * ```
 */
export async function signWebhook(
  secret: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    new TextEncoder().encode(`${timestamp}.${body}`),
  );
  const hex = Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
  return `t=${timestamp},v1=${hex}`;
}

/** Why a post failed. `retry`: worth trying again later; `status`: the answer's, when one came. */
export class WebhookError extends Error {
  constructor(message: string, readonly retry: boolean, readonly status: number | null = null) {
    super(message);
    this.name = "WebhookError";
  }
}

/** The host (and port when given) of an address: what errors and logs may name. */
export function webhookHostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the webhook";
  }
}

/** Statuses worth retrying: the receiver is busy or broken for now. */
function retryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 425 || status === 429;
}

/**
 * Posts `body` to `url`: the outbound policy checks the address and each redirect hop (307/308,
 * at most {@link MAX_REDIRECTS}; other redirects fail, since a POST would become a GET and lose the
 * message), signs when a secret is given, and answers the final status. Throws `WebhookError`
 * naming the host only: `retry` for time-outs, network errors and 5xx/408/425/429; not for a
 * refusal by the policy or another 4xx, which only a person can mend.
 */
export async function postWebhook(
  config: { OUTBOUND_ALLOW?: string },
  request: { url: string; body: string; secret?: string | null; deliveryId: string },
  options: { resolver?: Resolver; now?: () => Date; timeoutMs?: number } = {},
): Promise<{ status: number }> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "back-office-webhooks/1",
    [DELIVERY_HEADER]: request.deliveryId,
  };
  if (request.secret) {
    const timestamp = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
    headers[SIGNATURE_HEADER] = await signWebhook(request.secret, timestamp, request.body);
  }
  let url = request.url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const host = webhookHostOf(url);
    try {
      await checkOutboundUrl(
        config,
        url,
        `the webhook ${host}`,
        options.resolver ?? systemResolver,
      );
    } catch (error) {
      if (error instanceof OutboundRefused) {
        throw new WebhookError(
          `Refused by the outbound policy (OUTBOUND_ALLOW): ${redact(error.message, url)}`,
          false,
        );
      }
      throw error;
    }
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers,
        body: request.body,
        redirect: "manual",
        signal: AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
      });
    } catch (error) {
      const reason = error instanceof DOMException && error.name === "TimeoutError"
        ? "no answer in time"
        : "connection failed";
      throw new WebhookError(`Could not reach the webhook at ${host}: ${reason}.`, true);
    }
    // The answer's text is not needed (and may echo the message): drop it.
    await response.body?.cancel();
    if (response.status === 307 || response.status === 308) {
      const location = response.headers.get("location");
      if (!location) {
        throw new WebhookError(`The webhook at ${host} redirected without an address.`, false);
      }
      url = new URL(location, url).toString();
      continue;
    }
    if (response.status >= 300 && response.status < 400) {
      throw new WebhookError(
        `The webhook at ${host} answered ${response.status} (a redirect that would drop the ` +
          "message); enter the final address.",
        false,
        response.status,
      );
    }
    if (response.status >= 200 && response.status < 300) return { status: response.status };
    throw new WebhookError(
      `The webhook at ${host} answered ${response.status}.`,
      retryable(response.status),
      response.status,
    );
  }
  throw new WebhookError(
    `The webhook at ${webhookHostOf(request.url)} redirected more than ${MAX_REDIRECTS} times.`,
    false,
  );
}

/** A message with the address (or its path, the secret part) replaced by its host. */
function redact(message: string, url: string): string {
  const host = webhookHostOf(url);
  let path = "";
  try {
    path = new URL(url).pathname;
  } catch { /* not a URL: nothing to hide beyond the whole text */ }
  let out = message.replaceAll(url, host);
  if (path.length > 1) out = out.replaceAll(path, "/…");
  return out;
}
