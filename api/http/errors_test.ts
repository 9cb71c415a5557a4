/**
 * `handleError`: a request the client abandoned is not logged as a failure (the order list aborts
 * its previous search as the user types), while the same error on a live request still is.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { handleError } from "./errors.ts";
import { type LogLevel, setLogSink } from "./log.ts";

Deno.test("an error after the client went away is a cancelled request, not a failure", async () => {
  const lines: { line: string; level: LogLevel }[] = [];
  setLogSink((line, level) => lines.push({ line, level }));
  try {
    const controller = new AbortController();
    const app = new Hono();
    app.onError(handleError);
    app.post("/list", () => {
      controller.abort(); // the client leaves while the query runs; the query then fails
      throw new DOMException("The request has been cancelled.", "AbortError");
    });
    app.post("/broken", () => {
      throw new Error("boom");
    });

    const cancelled = await app.request("/list", { method: "POST", signal: controller.signal });
    assert.equal(cancelled.status, 499);
    assert.deepEqual(lines.map((l) => l.level), ["info"]);
    assert.match(lines[0].line, /POST \/list cancelled: the client went away/);

    lines.length = 0;
    const failed = await app.request("/broken", { method: "POST" });
    assert.equal(failed.status, 500);
    assert.deepEqual(lines.map((l) => l.level), ["error"]);
  } finally {
    setLogSink(null);
  }
});
