import assert from "node:assert/strict";
import { cronError, nextCronTime, parseCron } from "./cron.ts";

Deno.test("cron: next times in UTC", () => {
  const cases: [string, string, string | null][] = [
    ["*/15 * * * *", "2026-11-25T10:07:30Z", "2026-11-25T10:15:00.000Z"],
    ["0 6 * * *", "2026-11-25T06:00:00Z", "2026-11-26T06:00:00.000Z"],
    ["30 8 * * 1-5", "2026-11-27T09:00:00Z", "2026-11-30T08:30:00.000Z"], // Friday → Monday
    ["0 0 1 * *", "2026-12-15T00:00:00Z", "2027-01-01T00:00:00.000Z"],
    ["0 12 * * 7", "2026-11-25T00:00:00Z", "2026-11-29T12:00:00.000Z"], // 7 = Sunday
    ["0 0 13 * 5", "2026-11-25T00:00:00Z", "2026-11-27T00:00:00.000Z"], // either day field
    ["5/20 * * * *", "2026-11-25T10:26:00Z", "2026-11-25T10:45:00.000Z"],
    ["0 0 31 2 *", "2026-01-01T00:00:00Z", null],
  ];
  for (const [expr, after, want] of cases) {
    assert.equal(nextCronTime(parseCron(expr), new Date(after))?.toISOString() ?? null, want, expr);
  }
});

Deno.test("cron: errors name the field", () => {
  assert.match(cronError("* * *") ?? "", /five fields/);
  assert.match(cronError("60 * * * *") ?? "", /minute field "60"/);
  assert.match(cronError("* 24 * * *") ?? "", /hour field/);
  assert.match(cronError("* * * 13 *") ?? "", /month field/);
  assert.match(cronError("*/0 * * * *") ?? "", /step of 0/);
  assert.equal(cronError("0,30 6-18/2 * * mon"), 'The day of week field "mon" is not valid.');
  assert.equal(cronError("0,30 6-18/2 * * 1-5"), null);
});
