import assert from "node:assert/strict";
import {
  cronProblem,
  dueNow,
  formatInZone,
  isTimeZone,
  nextDue,
  resolveTimeZone,
  type ScheduleSetting,
  serverTimeZone,
  validateCron,
  windowFor,
} from "./schedule.ts";

const base: ScheduleSetting = {
  notificationEnabled: true,
  notificationInterval: "Daily",
  notificationDayOfWeek: null,
  cronExpression: "",
};
const at = (iso: string) => new Date(iso);
const setting = (overrides: Partial<ScheduleSetting>): ScheduleSetting => ({
  ...base,
  ...overrides,
});

Deno.test("nextDue: the table of schedules, zones, month ends, leap days and DST changes", () => {
  const cases: Array<[string, Partial<ScheduleSetting>, string, string, string | null]> = [
    // [what, setting, zone, after, expected next due]
    ["daily before 07:00", {}, "UTC", "2026-05-10T06:59:00Z", "2026-05-10T07:00:00.000Z"],
    [
      "daily exactly at 07:00 is strict",
      {},
      "UTC",
      "2026-05-10T07:00:00Z",
      "2026-05-11T07:00:00.000Z",
    ],
    [
      "daily in Berlin summer",
      {},
      "Europe/Berlin",
      "2026-07-01T12:00:00Z",
      "2026-07-02T05:00:00.000Z",
    ],
    ["daily year end", {}, "UTC", "2026-12-31T08:00:00Z", "2027-01-01T07:00:00.000Z"],
    // DST: spring forward and fall back move the UTC instant, the local hour stays 07:00.
    [
      "NY spring forward day",
      {},
      "America/New_York",
      "2026-03-07T13:00:00Z",
      "2026-03-08T11:00:00.000Z",
    ],
    [
      "NY day before spring forward",
      {},
      "America/New_York",
      "2026-03-06T13:00:00Z",
      "2026-03-07T12:00:00.000Z",
    ],
    [
      "NY fall back day",
      {},
      "America/New_York",
      "2026-10-31T12:00:00Z",
      "2026-11-01T12:00:00.000Z",
    ],
    [
      "Berlin spring forward",
      {},
      "Europe/Berlin",
      "2026-03-28T07:00:00Z",
      "2026-03-29T05:00:00.000Z",
    ],
    ["Berlin fall back", {}, "Europe/Berlin", "2026-10-24T07:00:00Z", "2026-10-25T06:00:00.000Z"],
    // Weekly: codes 1 Monday .. 7 Sunday; 2026-05-11 is a Monday.
    ...[1, 2, 3, 4, 5, 6, 7].map((
      code,
    ): [string, Partial<ScheduleSetting>, string, string, string] => [
      `weekly code ${code}`,
      { notificationInterval: "Weekly", notificationDayOfWeek: code },
      "UTC",
      "2026-05-10T12:00:00Z", // a Sunday after 07:00
      `2026-05-${String(10 + code).padStart(2, "0")}T07:00:00.000Z`,
    ]),
    [
      "weekly any day (null) is Monday",
      { notificationInterval: "Weekly" },
      "UTC",
      "2026-05-10T12:00:00Z",
      "2026-05-11T07:00:00.000Z",
    ],
    [
      "weekly any day (0) is Monday",
      { notificationInterval: "Weekly", notificationDayOfWeek: 0 },
      "UTC",
      "2026-05-12T00:00:00Z",
      "2026-05-18T07:00:00.000Z",
    ],
    [
      "weekly Sunday across Berlin spring forward",
      { notificationInterval: "Weekly", notificationDayOfWeek: 7 },
      "Europe/Berlin",
      "2026-03-22T07:00:00Z",
      "2026-03-29T05:00:00.000Z",
    ],
    // Monthly: the 1st at 07:00, across month ends and leap years.
    [
      "monthly from Jan 31",
      { notificationInterval: "Monthly" },
      "UTC",
      "2026-01-31T23:00:00Z",
      "2026-02-01T07:00:00.000Z",
    ],
    [
      "monthly from Feb 29 (leap)",
      { notificationInterval: "Monthly" },
      "UTC",
      "2028-02-29T10:00:00Z",
      "2028-03-01T07:00:00.000Z",
    ],
    [
      "monthly Dec to Jan",
      { notificationInterval: "Monthly" },
      "UTC",
      "2026-12-01T07:00:00Z",
      "2027-01-01T07:00:00.000Z",
    ],
    [
      "monthly in New York (EST)",
      { notificationInterval: "Monthly" },
      "America/New_York",
      "2026-11-15T00:00:00Z",
      "2026-12-01T12:00:00.000Z",
    ],
    // Custom cron.
    [
      "custom Feb 29 only",
      { notificationInterval: "Custom", cronExpression: "0 7 29 2 *" },
      "UTC",
      "2026-01-01T00:00:00Z",
      "2028-02-29T07:00:00.000Z",
    ],
    [
      "custom the 31st skips short months",
      { notificationInterval: "Custom", cronExpression: "0 7 31 * *" },
      "UTC",
      "2026-01-31T08:00:00Z",
      "2026-03-31T07:00:00.000Z",
    ],
    [
      "custom in the NY DST gap runs after the gap",
      { notificationInterval: "Custom", cronExpression: "30 2 * * *" },
      "America/New_York",
      "2026-03-07T12:00:00Z",
      "2026-03-08T07:00:00.000Z",
    ],
    [
      "custom in the NY repeated hour runs once",
      { notificationInterval: "Custom", cronExpression: "30 1 * * *" },
      "America/New_York",
      "2026-11-01T05:31:00Z",
      "2026-11-02T06:30:00.000Z",
    ],
    [
      "custom weekday 7 is Sunday",
      { notificationInterval: "Custom", cronExpression: "0 9 * * 7" },
      "UTC",
      "2026-05-11T00:00:00Z",
      "2026-05-17T09:00:00.000Z",
    ],
    [
      "custom never runs",
      { notificationInterval: "Custom", cronExpression: "0 0 30 2 *" },
      "UTC",
      "2026-01-01T00:00:00Z",
      null,
    ],
    [
      "custom invalid",
      { notificationInterval: "Custom", cronExpression: "nonsense" },
      "UTC",
      "2026-01-01T00:00:00Z",
      null,
    ],
    [
      "custom empty",
      { notificationInterval: "Custom", cronExpression: "" },
      "UTC",
      "2026-01-01T00:00:00Z",
      null,
    ],
    ["none never", { notificationInterval: "None" }, "UTC", "2026-01-01T00:00:00Z", null],
  ];
  for (const [what, overrides, zone, after, expected] of cases) {
    const next = nextDue(setting(overrides), at(after), zone);
    assert.equal(next?.toISOString() ?? null, expected, what);
  }
});

Deno.test("nextDue: the setting's own zone is used when none is passed", () => {
  const next = nextDue(setting({ timeZone: "Asia/Tokyo" }), at("2026-05-10T00:00:00Z"));
  assert.equal(next?.toISOString(), "2026-05-10T22:00:00.000Z");
});

Deno.test("validateCron: valid with the next execution, invalid with the reason", () => {
  const now = at("2026-05-10T12:00:00Z");
  const cases: Array<[string, string, boolean, string | null, RegExp]> = [
    [
      "0 7 * * 1",
      "UTC",
      true,
      "2026-05-11T07:00:00.000Z",
      /^Valid cron expression; next run 2026-05-11 07:00 \(UTC\)$/,
    ],
    [
      "0 7 * * 1",
      "Europe/Berlin",
      true,
      "2026-05-11T05:00:00.000Z",
      /2026-05-11 07:00 \(Europe\/Berlin\)/,
    ],
    ["@daily", "UTC", true, "2026-05-11T00:00:00.000Z", /Valid/],
    ["0 0 7 * * *", "UTC", true, "2026-05-11T07:00:00.000Z", /Valid/],
    ["*/5 * * * * *", "UTC", false, null, /at most once a minute/],
    ["61 * * * *", "UTC", false, null, /^Invalid cron expression: .*minute/],
    ["bad", "UTC", false, null, /^Invalid cron expression/],
    ["* * *", "UTC", false, null, /^Invalid cron expression/],
    ["", "UTC", false, null, /required/],
    ["0 0 30 2 *", "UTC", false, null, /never runs/],
  ];
  for (const [expression, zone, isValid, next, message] of cases) {
    const result = validateCron(expression, now, zone);
    assert.equal(result.isValid, isValid, expression);
    assert.equal(result.nextExecution, next, expression);
    assert.match(result.message, message, expression);
  }
});

Deno.test("cronProblem is null for good expressions", () => {
  assert.equal(cronProblem("15 6 * * 1-5"), null);
  assert.notEqual(cronProblem("15 6 * * 8"), null);
});

Deno.test("time zones: Intl-validated, the server's by default", () => {
  assert.equal(isTimeZone("Europe/Berlin"), true);
  assert.equal(isTimeZone("UTC"), true);
  assert.equal(isTimeZone("Mars/Olympus"), false);
  assert.equal(isTimeZone(""), false);
  assert.equal(resolveTimeZone("Mars/Olympus"), serverTimeZone());
  assert.equal(resolveTimeZone(""), serverTimeZone());
  assert.equal(resolveTimeZone("America/New_York"), "America/New_York");
  assert.equal(isTimeZone(serverTimeZone()), true);
});

Deno.test("dueNow: one send after downtime, standing for the latest missed due time", () => {
  const daily = setting({ timeZone: "UTC" });
  const cases: Array<{
    what: string;
    s: ScheduleSetting;
    lastSent: string | null;
    lastScheduled: string;
    now: string;
    due: boolean;
    scheduledFor: string | null;
    missed: number;
    nextAt: string | null;
  }> = [
    {
      what: "before the due time",
      s: daily,
      lastSent: null,
      lastScheduled: "2026-05-10T07:00:00Z",
      now: "2026-05-11T06:59:59Z",
      due: false,
      scheduledFor: null,
      missed: 0,
      nextAt: "2026-05-11T07:00:00.000Z",
    },
    {
      what: "exactly at the due time",
      s: daily,
      lastSent: null,
      lastScheduled: "2026-05-10T07:00:00Z",
      now: "2026-05-11T07:00:00Z",
      due: true,
      scheduledFor: "2026-05-11T07:00:00.000Z",
      missed: 0,
      nextAt: "2026-05-12T07:00:00.000Z",
    },
    {
      what: "restart across one due time (server down 06:00-09:00)",
      s: daily,
      lastSent: "2026-05-10T07:00:05Z",
      lastScheduled: "2026-05-10T07:00:00Z",
      now: "2026-05-11T09:00:00Z",
      due: true,
      scheduledFor: "2026-05-11T07:00:00.000Z",
      missed: 0,
      nextAt: "2026-05-12T07:00:00.000Z",
    },
    {
      what: "ten days down: one send, nine missed",
      s: daily,
      lastSent: "2026-05-01T07:00:05Z",
      lastScheduled: "2026-05-01T07:00:00Z",
      now: "2026-05-11T08:00:00Z",
      due: true,
      scheduledFor: "2026-05-11T07:00:00.000Z",
      missed: 9,
      nextAt: "2026-05-12T07:00:00.000Z",
    },
    {
      what: "weekly Friday, three weeks down",
      s: setting({ notificationInterval: "Weekly", notificationDayOfWeek: 5, timeZone: "UTC" }),
      lastSent: null,
      lastScheduled: "2026-04-17T07:00:00Z",
      now: "2026-05-10T00:00:00Z",
      due: true,
      scheduledFor: "2026-05-08T07:00:00.000Z",
      missed: 2,
      nextAt: "2026-05-15T07:00:00.000Z",
    },
    {
      what: "a later lastSent moves the anchor (sent, but lastScheduled not stored)",
      s: daily,
      lastSent: "2026-05-11T07:00:02Z",
      lastScheduled: "2026-05-10T07:00:00Z",
      now: "2026-05-11T07:01:00Z",
      due: false,
      scheduledFor: null,
      missed: 0,
      nextAt: "2026-05-12T07:00:00.000Z",
    },
    {
      what: "disabled is never due",
      s: setting({ notificationEnabled: false }),
      lastSent: null,
      lastScheduled: "2026-05-01T07:00:00Z",
      now: "2026-05-11T08:00:00Z",
      due: false,
      scheduledFor: null,
      missed: 0,
      nextAt: null,
    },
    {
      what: "None is never due",
      s: setting({ notificationInterval: "None" }),
      lastSent: null,
      lastScheduled: "2026-05-01T07:00:00Z",
      now: "2026-05-11T08:00:00Z",
      due: false,
      scheduledFor: null,
      missed: 0,
      nextAt: null,
    },
    {
      what: "every minute for a year down: one send (capped count)",
      s: setting({ notificationInterval: "Custom", cronExpression: "* * * * *", timeZone: "UTC" }),
      lastSent: null,
      lastScheduled: "2025-05-11T08:00:00Z",
      now: "2026-05-11T08:00:30Z",
      due: true,
      scheduledFor: "2026-05-11T08:00:00.000Z",
      missed: 999,
      nextAt: "2026-05-11T08:01:00.000Z",
    },
  ];
  for (const c of cases) {
    const decision = dueNow(
      c.s,
      c.lastSent ? at(c.lastSent) : null,
      at(c.lastScheduled),
      at(c.now),
    );
    assert.equal(decision.due, c.due, c.what);
    assert.equal(decision.scheduledFor?.toISOString() ?? null, c.scheduledFor, c.what);
    assert.equal(decision.missed, c.missed, c.what);
    assert.equal(decision.nextAt?.toISOString() ?? null, c.nextAt, c.what);
  }
});

Deno.test("dueNow: ticking a clock across a restart sends exactly once per due time", () => {
  const daily = setting({ timeZone: "Europe/Berlin" });
  let lastScheduled = at("2026-03-27T12:00:00Z");
  let lastSent: Date | null = null;
  const sends: string[] = [];
  // Tick every 5 minutes for 5 days across the spring-forward night, with a 30-hour outage.
  for (let t = lastScheduled.getTime(); t < at("2026-04-01T12:00:00Z").getTime(); t += 300_000) {
    const now = new Date(t);
    if (now >= at("2026-03-29T00:00:00Z") && now < at("2026-03-30T06:00:00Z")) continue; // down
    const decision = dueNow(daily, lastSent, lastScheduled, now);
    if (decision.due) {
      sends.push(`${decision.scheduledFor!.toISOString()} at ${now.toISOString()}`);
      lastScheduled = decision.scheduledFor!;
      lastSent = now;
    }
  }
  assert.deepEqual(sends, [
    "2026-03-28T06:00:00.000Z at 2026-03-28T06:00:00.000Z",
    // Berlin 07:00 on the 29th (05:00Z) and the 30th (05:00Z) were missed: one send on restart.
    "2026-03-30T05:00:00.000Z at 2026-03-30T06:00:00.000Z",
    "2026-03-31T05:00:00.000Z at 2026-03-31T05:00:00.000Z",
    "2026-04-01T05:00:00.000Z at 2026-04-01T05:00:00.000Z",
  ]);
});

Deno.test("windowFor: 24 h, 7 days, 30 days; Custom and None since the last send", () => {
  const now = at("2026-03-01T07:00:00Z");
  const cases: Array<[Parameters<typeof windowFor>[0], string | null, string]> = [
    ["Daily", null, "2026-02-28T07:00:00.000Z"],
    ["Weekly", null, "2026-02-22T07:00:00.000Z"],
    ["Monthly", null, "2026-01-30T07:00:00.000Z"],
    ["Daily", "2026-02-01T00:00:00Z", "2026-02-28T07:00:00.000Z"],
    ["Custom", null, "2026-02-28T07:00:00.000Z"],
    ["Custom", "2026-02-27T10:00:00Z", "2026-02-27T10:00:00.000Z"],
    ["Custom", "2025-01-01T00:00:00Z", "2026-01-30T07:00:00.000Z"],
    ["None", null, "2026-02-22T07:00:00.000Z"],
    ["None", "2026-02-28T19:00:00Z", "2026-02-28T19:00:00.000Z"],
  ];
  for (const [interval, lastSent, from] of cases) {
    const window = windowFor(interval, now, lastSent ? at(lastSent) : null);
    assert.equal(window.from.toISOString(), from, `${interval} ${lastSent}`);
    assert.equal(window.to.toISOString(), now.toISOString());
  }
});

Deno.test("formatInZone", () => {
  assert.equal(formatInZone(at("2026-03-08T07:00:00Z"), "America/New_York"), "2026-03-08 03:00");
  assert.equal(formatInZone(at("2026-01-01T00:00:00Z"), "UTC"), "2026-01-01 00:00");
});
