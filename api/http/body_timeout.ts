/**
 * A deadline on reading a request body. `Deno.serve` reads bodies only as the handler asks, and
 * has no time-out of its own: a client that announces a body and then trickles (or stops) would
 * hold the handler, and its connection, for as long as it likes. Here the body stream is wrapped:
 * a pause of more than {@link BODY_IDLE_SECONDS} between two chunks, or a body still unread after
 * `BODY_READ_TIMEOUT_SECONDS`, ends the request with 408 and closes the connection. A small JSON
 * body of declared length is read whole under one deadline instead (`SMALL_BODY_BYTES`). It runs
 * before the size limit, which reads a body of no declared length whole (api/app.ts).
 * (Headers are out of the app's reach: docs/operations.md, "Time-outs".)
 */
import type { MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../deps.ts";

/** The longest pause between two chunks of a body. */
export const BODY_IDLE_SECONDS = 30;
const MESSAGE = "The request body arrived too slowly.";

/** An HTTP error (408), so that a reader it reaches first answers it rather than logs a failure. */
class BodyTimeout extends HTTPException {
  constructor() {
    super(408, { message: MESSAGE });
  }
}

/**
 * A JSON body of at most this many bytes, its length declared, is read whole under one deadline
 * (the idle one, or the total when shorter): nearly every API request. The stream wrapped chunk
 * by chunk cost about 5 % of the server's CPU of an order list request at capacity
 * (docs/benchmarks.md, "Load and soak", session 20), for a body that arrives in one chunk.
 */
export const SMALL_BODY_BYTES = 64 * 1024;

/** The 408 answer; the connection is closed, so the rest of the body is never waited for. */
const tooSlow = () =>
  new Response(JSON.stringify({ message: MESSAGE }), {
    status: 408,
    headers: { "content-type": "application/json", connection: "close" },
  });

/** Wraps the request body (when there is one) with the idle and total deadlines. */
export const bodyReadTimeout: MiddlewareHandler<AppEnv> = async (c, next) => {
  const raw = c.req.raw;
  if (!raw.body) return await next();
  const totalMs = c.var.deps.config.BODY_READ_TIMEOUT_SECONDS * 1000;
  const length = Number(raw.headers.get("content-length") ?? NaN);
  if (
    length <= SMALL_BODY_BYTES &&
    /^application\/json\b/i.test(raw.headers.get("content-type") ?? "")
  ) {
    // Hono's readers (`c.req.json()`, the validators) take the text from its body cache.
    const text = raw.text();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arrived = await Promise.race([
      text.then(() => true, () => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), Math.min(BODY_IDLE_SECONDS * 1000, totalMs));
      }),
    ]);
    clearTimeout(timer);
    if (!arrived) {
      text.catch(() => {});
      return tooSlow();
    }
    // Its type says the text; what it holds, and what the readers await, is the read's promise.
    (c.req.bodyCache as { text?: Promise<string> }).text = text;
    return await next();
  }
  const deadline = Date.now() + totalMs;
  const reader = raw.body.getReader();
  let timedOut = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const wait = Math.max(0, Math.min(BODY_IDLE_SECONDS * 1000, deadline - Date.now()));
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new BodyTimeout()), wait);
      });
      try {
        const { done, value } = await Promise.race([reader.read(), timeout]);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        if (error instanceof BodyTimeout) timedOut = true;
        reader.cancel().catch(() => {});
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  // Built from the parts, passing on `raw`'s signal: it aborts when the client goes away (only
  // then: deno.json opts in to `no-legacy-abort`, so a successful response does not abort it),
  // which is how a handler stops work nobody waits for (the order list cancels its query).
  c.req.raw = new Request(raw.url, {
    method: raw.method,
    headers: raw.headers,
    body: stream,
    duplex: "half",
    signal: raw.signal,
  } as RequestInit);
  await next();
  // Whatever the reader made of the failed read (a 400 for "malformed JSON", a 500), the cause
  // was the client's pace.
  if (timedOut) c.res = tooSlow();
};
