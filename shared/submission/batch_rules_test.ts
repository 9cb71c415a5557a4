import assert from "node:assert/strict";
import { addDays, dayIn, daysBetween, decideBatch, isVendorDue } from "./batch_rules.ts";

const at = (iso: string) => new Date(iso);

Deno.test("dayIn follows the time zone; day arithmetic", () => {
  assert.equal(dayIn(at("2026-11-24T03:00:00Z"), "UTC"), "2026-11-24");
  assert.equal(dayIn(at("2026-11-24T03:00:00Z"), "America/Chicago"), "2026-11-23");
  assert.equal(daysBetween("2026-11-23", "2026-12-01"), 8);
  assert.equal(addDays("2026-02-27", 2), "2026-03-01");
});

Deno.test("decideBatch: wait, complete, extra, short at the day's end", () => {
  const base = { expected: 3, day: "2026-11-23", completedEarlier: false };
  const noon = at("2026-11-23T12:00:00Z");
  assert.deepEqual(decideBatch({ ...base, pending: 2, now: noon }), { action: "wait", missing: 1 });
  assert.deepEqual(decideBatch({ ...base, pending: 3, now: noon }), {
    action: "send",
    reason: "complete",
  });
  assert.deepEqual(decideBatch({ ...base, pending: 4, now: noon }), {
    action: "send",
    reason: "complete",
  });
  assert.deepEqual(decideBatch({ ...base, pending: 1, completedEarlier: true, now: noon }), {
    action: "send",
    reason: "extra_after_complete",
  });
  assert.deepEqual(decideBatch({ ...base, pending: 2, now: at("2026-11-24T00:00:01Z") }), {
    action: "send",
    reason: "day_ended_short",
  });
  // In Chicago it is still the 23rd.
  assert.deepEqual(
    decideBatch({
      ...base,
      pending: 2,
      now: at("2026-11-24T03:00:00Z"),
      timeZone: "America/Chicago",
    }),
    { action: "wait", missing: 1 },
  );
  assert.deepEqual(decideBatch({ ...base, pending: 0, now: noon }), { action: "wait", missing: 3 });
  assert.deepEqual(decideBatch({ ...base, expected: 0, pending: 1, now: noon }), {
    action: "send",
    reason: "complete",
  });
});

Deno.test("isVendorDue: daily vendors, non-daily every X days, first sending, default 7", () => {
  const now = at("2026-11-23T08:00:00Z");
  const vendor = {
    vendorWantsNonDailySubmission: true,
    vendorCustomSubmitEveryXDay: 3,
    now,
  };
  assert.deepEqual(
    isVendorDue({ ...vendor, lastSentAt: null, oldestPendingAt: null }),
    { due: false, nextDueDay: null },
  );
  assert.deepEqual(
    isVendorDue({
      ...vendor,
      vendorWantsNonDailySubmission: false,
      lastSentAt: at("2026-11-23T07:00:00Z"),
      oldestPendingAt: now,
    }),
    { due: true, nextDueDay: "2026-11-23" },
  );
  assert.deepEqual(
    isVendorDue({
      ...vendor,
      lastSentAt: at("2026-11-21T23:00:00Z"),
      oldestPendingAt: at("2026-11-22T10:00:00Z"),
    }),
    { due: false, nextDueDay: "2026-11-24" },
  );
  assert.deepEqual(
    isVendorDue({
      ...vendor,
      lastSentAt: at("2026-11-20T23:00:00Z"),
      oldestPendingAt: at("2026-11-22T10:00:00Z"),
    }),
    { due: true, nextDueDay: "2026-11-23" },
  );
  // Never sent: counted from the oldest waiting row's day.
  assert.deepEqual(
    isVendorDue({ ...vendor, lastSentAt: null, oldestPendingAt: at("2026-11-23T07:00:00Z") }),
    { due: false, nextDueDay: "2026-11-26" },
  );
  assert.deepEqual(
    isVendorDue({
      ...vendor,
      vendorCustomSubmitEveryXDay: null,
      lastSentAt: null,
      oldestPendingAt: at("2026-11-16T07:00:00Z"),
    }),
    { due: true, nextDueDay: "2026-11-23" },
  );
});
