/** The dashboard's state rules, without a database (docs/dashboard.md, "States"). */
import assert from "node:assert/strict";
import { durationText, everyText, feedSourceState, type RunFacts, runResultText } from "./state.ts";

const NOW = new Date("2026-11-25T12:00:00Z");
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
const run = (over: Partial<RunFacts> = {}): RunFacts => ({
  status: "succeeded",
  fileName: "f.csv",
  receivedAt: hoursAgo(1),
  finishedAt: hoursAgo(1),
  counts: { rows: 3, inserted: 2, updated: 0 },
  error: null,
  ...over,
});
const facts = (over: Record<string, unknown> = {}) => ({
  area: "order-tracking" as const,
  active: true,
  createdAt: hoursAgo(100),
  lastRun: run(),
  alertWindowHours: 24,
  ...over,
});

Deno.test("a feed source's state", () => {
  const cases: [string, ReturnType<typeof facts>, string][] = [
    [
      "inactive wins over everything",
      facts({ active: false, lastRun: run({ status: "failed" }) }),
      "inactive",
    ],
    ["a failed last run", facts({ lastRun: run({ status: "failed", error: "x" }) }), "failing"],
    ["a failed delivery", facts({ lastRun: run({ deliveryStatus: "failed" }) }), "failing"],
    [
      "an inventory run held for review",
      facts({ area: "inventory", lastRun: run({ status: "held", deliveryStatus: "held" }) }),
      "held",
    ],
    [
      "an order submission batch waiting is not held",
      facts({ area: "order-submission", lastRun: run({ status: "held" }) }),
      "ok",
    ],
    [
      "silent longer than the window",
      facts({ lastRun: run({ receivedAt: hoursAgo(25) }) }),
      "stale",
    ],
    ["silent within the window", facts({ lastRun: run({ receivedAt: hoursAgo(23) }) }), "ok"],
    ["never a file, set up long ago", facts({ lastRun: null }), "stale"],
    ["never a file, set up just now", facts({ lastRun: null, createdAt: hoursAgo(1) }), "ok"],
    ["no window: never stale", facts({ alertWindowHours: null, lastRun: null }), "ok"],
  ];
  for (const [name, input, want] of cases) {
    assert.equal(feedSourceState(input, NOW).state, want, name);
  }
  const stale = feedSourceState(facts({ lastRun: run({ receivedAt: hoursAgo(30) }) }), NOW);
  assert.equal(stale.reason, "No file for 30 hours (alert after 24 hours).");
  assert.equal(stale.since?.toISOString(), hoursAgo(6).toISOString());
});

Deno.test("results and durations in words", () => {
  assert.equal(runResultText(run(), "order-tracking"), "Succeeded: Rows: 3, New: 2");
  assert.equal(
    runResultText(run({ status: "failed", error: "No Qty column" }), "x"),
    "Failed: No Qty column",
  );
  assert.equal(runResultText(run({ status: "queued" }), "x"), "Being processed");
  assert.equal(runResultText(run({ status: "held", counts: {} }), "inventory"), "Held for review");
  assert.equal(durationText(90 * 60_000), "1 hour");
  assert.equal(durationText(50 * 3_600_000), "2 days");
  assert.equal(everyText(300), "Every 5 minutes");
  assert.equal(everyText(30), "Every 30 seconds");
  assert.equal(everyText(3600), "Every hour");
});
