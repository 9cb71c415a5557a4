import assert from "node:assert/strict";
import {
  cronValidationRequest,
  NEW_NOTIFICATION_FORM,
  notificationSettingForm,
  notificationSettingSave,
  parseRecipientList,
} from "../contract/notifications.ts";

const valid = { name: "Daily stock", sourceTypeId: 1, notificationInterval: "Daily" };
const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

Deno.test("save: defaults of section 9 and normalised values", () => {
  const parsed = notificationSettingSave.parse({
    ...valid,
    sourceId: "7",
    notificationDayOfWeek: 0,
    overrideEmailRecipients: " a@x.com ;b@y.com, ",
    lastNotificationSent: "2026-01-01T00:00:00Z",
    sourceType: "Whatever",
  });
  assert.deepEqual(parsed, {
    id: 0,
    name: "Daily stock",
    sourceTypeId: 1,
    sourceId: 7,
    sourceName: "",
    notificationEnabled: false,
    notificationInterval: "Daily",
    notificationDayOfWeek: null,
    cronExpression: "",
    timeZone: "",
    includeStatusChanges: true,
    includeQuantityChanges: true,
    includeZeroQuantityAlerts: false,
    includeDailyBreakdown: true,
    includeItemDetails: true,
    includeErrorAlerts: true,
    includeSuccessAlerts: true,
    overrideEmailRecipients: "a@x.com, b@y.com",
    emailSubjectPrefix: "",
    consolidatedEmail: false,
    webhookPreset: "",
    webhookUrl: "",
    webhookSecret: "",
  });
});

Deno.test("save: wrong input gives the messages", () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ ...valid, name: "" }, /^Notification name is required$/],
    [{ ...valid, sourceTypeId: undefined }, /^Source type is required$/],
    [{ ...valid, sourceTypeId: 9 }, /Source type must be 1/],
    [{ ...valid, notificationInterval: undefined }, /^Notification interval is required$/],
    [{ ...valid, notificationInterval: "Hourly" }, /must be Daily, Weekly/],
    [{ ...valid, notificationDayOfWeek: 8 }, /1 \(Monday\) to 7 \(Sunday\)/],
    [{ ...valid, webhookPreset: "slack" }, /^Webhook URL is required/],
    [
      { ...valid, webhookPreset: "json", webhookUrl: "ftp://x.example/" },
      /http:\/\/ or https:\/\//,
    ],
    [{ ...valid, webhookPreset: "json", webhookUrl: "https://u:p@x.example/" }, /without a user/],
    [{ ...valid, webhookPreset: "discord" }, /webhookPreset must be/],
    [{ ...valid, notificationDayOfWeek: "Monday" }, /1 \(Monday\) to 7 \(Sunday\)/],
    [{ ...valid, includeStatusChanges: "yes" }, /^includeStatusChanges must be true or false$/],
    [{ ...valid, notificationEnabled: 1 }, /^notificationEnabled must be true or false$/],
    [{ ...valid, overrideEmailRecipients: "ok@x.com, bad, also@bad" }, /"bad", "also@bad"/],
    [{ ...valid, notificationInterval: "Custom" }, /Cron expression is required/],
    [{ ...valid, notificationInterval: "Custom", cronExpression: "61 * * * *" }, /minute/],
    [{ ...valid, timeZone: "Mars/Base" }, /Unknown time zone/],
    [{ ...valid, sourceId: -1 }, /Expected an id/],
    [{ ...valid, name: "a\u0000b" }, /Control characters/],
    [{ ...valid, name: "x".repeat(201) }, /at most 200/],
  ];
  for (const [input, message] of cases) {
    const result = notificationSettingSave.safeParse(input);
    assert.equal(result.success, false, JSON.stringify(input));
    assert.ok(messages(result).some((m) => message.test(m)), `${messages(result)} ~ ${message}`);
  }
});

Deno.test("save: accepted variants", () => {
  const weekly = notificationSettingSave.parse({
    ...valid,
    notificationInterval: "Weekly",
    notificationDayOfWeek: "7",
    includeItemDetails: "False",
    timeZone: "America/New_York",
    cronExpression: null,
    sourceId: null,
  });
  assert.equal(weekly.notificationDayOfWeek, 7);
  assert.equal(weekly.includeItemDetails, false);
  assert.equal(weekly.timeZone, "America/New_York");
  assert.equal(weekly.sourceId, null);
  const custom = notificationSettingSave.parse({
    ...valid,
    notificationInterval: "Custom",
    cronExpression: " 0 7 * * 1-5 ",
  });
  assert.equal(custom.cronExpression, "0 7 * * 1-5");
});

Deno.test("parseRecipientList splits, trims, dedupes and names the malformed", () => {
  assert.deepEqual(parseRecipientList("a@x.com,, A@x.com; <b>"), {
    addresses: ["a@x.com"],
    invalid: ["<b>"],
  });
  assert.deepEqual(parseRecipientList(null), { addresses: [], invalid: [] });
});

Deno.test("form: section 5 messages and section 9 defaults", () => {
  const empty = notificationSettingForm.safeParse({
    ...NEW_NOTIFICATION_FORM,
    notificationInterval: "",
  });
  assert.deepEqual(messages(empty).sort(), [
    "Notification interval is required",
    "Notification name is required",
    "Source type is required",
  ]);
  assert.equal(NEW_NOTIFICATION_FORM.notificationInterval, "Weekly");
  assert.equal(NEW_NOTIFICATION_FORM.notificationEnabled, false);
  assert.equal(NEW_NOTIFICATION_FORM.includeZeroQuantityAlerts, false);
  assert.equal(NEW_NOTIFICATION_FORM.consolidatedEmail, false);
  assert.ok(
    notificationSettingForm.safeParse({ ...NEW_NOTIFICATION_FORM, name: "n", sourceTypeId: 2 })
      .success,
  );
});

Deno.test("cron validation request", () => {
  assert.deepEqual(cronValidationRequest.parse({ cronExpression: " 0 7 * * * " }), {
    cronExpression: "0 7 * * *",
    timeZone: "",
  });
  assert.equal(cronValidationRequest.safeParse({ cronExpression: 5 }).success, false);
});
