/**
 * Payloads of the /api/notification-settings calls (spec part 2, sections 3, 5, 7 and 9; decisions
 * in docs/notifications.md). These zod schemas are the single source of the payload types: the
 * server validates requests with them and the web's edit form uses `notificationSettingForm`.
 */
import { z } from "zod";
import { boundedString, dbId, MAX_LENGTH, optionalText } from "./fields.ts";
import { cronProblem, isTimeZone } from "../notifications/cron.ts";

/** Source types by id (spec part 2, section 3). */
export const SOURCE_TYPES = {
  1: "Inventory",
  2: "OrderSubmission",
  3: "OrderTracking",
  4: "OrderVendor",
} as const;
export type SourceTypeId = keyof typeof SOURCE_TYPES;
export type SourceTypeName = (typeof SOURCE_TYPES)[SourceTypeId];
export const SOURCE_TYPE_IDS = [1, 2, 3, 4] as const satisfies readonly SourceTypeId[];

/** The name of a source type id ("Inventory" for 1). */
export function sourceTypeName(id: SourceTypeId): SourceTypeName {
  return SOURCE_TYPES[id];
}

/** The schedules a setting can have. */
export const NOTIFICATION_INTERVALS = ["Daily", "Weekly", "Monthly", "Custom", "None"] as const;
export type NotificationInterval = (typeof NOTIFICATION_INTERVALS)[number];

/** Weekday codes 1 Monday to 7 Sunday (spec part 2, section 9); index 0 is "Any day". */
export const WEEKDAY_NAMES = [
  "Any day",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;

/** Messages of the edit form (spec part 2, section 5) and of the server's checks. */
export const NOTIFICATION_MESSAGES = {
  nameRequired: "Notification name is required",
  sourceTypeRequired: "Source type is required",
  intervalRequired: "Notification interval is required",
  cronRequired: "Cron expression is required for a Custom interval",
  cronCheckFailed: "Error validating cron expression",
  saveFailed: "Failed to save notification setting",
  loadFailed: "Failed to load notification setting",
  testFailed: "Failed to send test notification",
  testSent: "Test notification sent successfully",
  saveFirst: "Please save the notification setting first before testing",
} as const;

/**
 * Where a setting posts besides e-mail (docs/notifications.md, "Webhooks"): "" none, or the body
 * format of the webhook: plain JSON, Slack's or Microsoft Teams' incoming webhook.
 */
export const WEBHOOK_PRESETS = ["", "json", "slack", "teams"] as const;
export type WebhookPreset = (typeof WEBHOOK_PRESETS)[number];

/** The presets in words, for the form and the CLI. */
export const WEBHOOK_PRESET_LABELS: Record<WebhookPreset, string> = {
  "": "None (e-mail only)",
  json: "JSON",
  slack: "Slack",
  teams: "Microsoft Teams",
};

/** What a stored secret reads as in answers; sending it back keeps the stored one. */
export const STORED_SECRET = "********";

/** Messages of the webhook fields. */
export const WEBHOOK_MESSAGES = {
  urlRequired: "Webhook URL is required when a webhook format is chosen",
  urlInvalid: "Webhook URL must be an http:// or https:// address without a user name or password",
  noWebhook: "This notification setting has no webhook",
  testFailed: "Failed to send the test message to the webhook",
} as const;

/** True for an absolute http(s) URL without credentials in it (they would be logged by proxies). */
export function isWebhookUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.username === "" &&
      url.password === "" && url.hostname !== "";
  } catch {
    return false;
  }
}

const webhookPresetField = z.enum(WEBHOOK_PRESETS, {
  error: 'webhookPreset must be "", "json", "slack" or "teams"',
}).nullish().transform((value) => value ?? "");

/** A write-only secret: "" none, `STORED_SECRET` keep the stored one, else the new value. */
const webhookUrlField = optionalText(MAX_LENGTH.text).transform((value) => value.trim());
const webhookSecretField = optionalText(MAX_LENGTH.secret);

/** Splits a recipient list (commas or semicolons) into trimmed addresses and the malformed ones. */
export function parseRecipientList(text: string | null | undefined): {
  addresses: string[];
  invalid: string[];
} {
  const parts = (text ?? "").split(/[,;]/).map((part) => part.trim()).filter((part) => part !== "");
  const addresses: string[] = [];
  const invalid: string[] = [];
  for (const part of parts) {
    if (part.length <= MAX_LENGTH.email && z.email().safeParse(part).success) {
      if (!addresses.some((known) => known.toLowerCase() === part.toLowerCase())) {
        addresses.push(part);
      }
    } else invalid.push(part);
  }
  return { addresses, invalid };
}

/** The message for malformed recipient addresses, naming each of them. */
export function invalidRecipientsMessage(invalid: string[]): string {
  return `Not valid e-mail addresses: ${invalid.map((value) => `"${value}"`).join(", ")}`;
}

/** overrideEmailRecipients: "" or comma-separated valid addresses, stored as "a@x.com, b@y.com". */
const recipientList = optionalText(MAX_LENGTH.text).superRefine((value, ctx) => {
  const { invalid } = parseRecipientList(value);
  if (invalid.length > 0) {
    ctx.addIssue({ code: "custom", message: invalidRecipientsMessage(invalid) });
  }
}).transform((value) => parseRecipientList(value).addresses.join(", "));

/** A switch: a JSON boolean, or "true"/"false" in any case. */
function flag(field: string, fallback: boolean) {
  return z.union([
    z.boolean(),
    z.string().max(5).regex(/^(true|false)$/i).transform((value) => value.toLowerCase() === "true"),
  ], { error: `${field} must be true or false` }).nullish().transform((value) => value ?? fallback);
}

const sourceTypeIdField = z.coerce.number({ error: NOTIFICATION_MESSAGES.sourceTypeRequired })
  .int(NOTIFICATION_MESSAGES.sourceTypeRequired)
  .refine(
    (value) => (SOURCE_TYPE_IDS as readonly number[]).includes(value),
    "Source type must be 1 (Inventory), 2 (OrderSubmission), 3 (OrderTracking) or 4 (OrderVendor)",
  ).transform((value) => value as SourceTypeId);

const intervalField = z.enum(NOTIFICATION_INTERVALS, {
  error: (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ""
      ? NOTIFICATION_MESSAGES.intervalRequired
      : "Notification interval must be Daily, Weekly, Monthly, Custom or None",
});

/** 1 Monday to 7 Sunday; null, "", 0 mean "Any day" (stored as null). */
const dayOfWeekField = z.preprocess(
  (value) => (value === "" || value === undefined || value === 0 || value === "0" ? null : value),
  z.coerce.number({ error: "notificationDayOfWeek must be 1 (Monday) to 7 (Sunday) or null" })
    .int("notificationDayOfWeek must be 1 (Monday) to 7 (Sunday) or null")
    .min(1, "notificationDayOfWeek must be 1 (Monday) to 7 (Sunday) or null")
    .max(7, "notificationDayOfWeek must be 1 (Monday) to 7 (Sunday) or null")
    .nullable(),
);

/** An IANA time zone name; "" (or absent) means the server's zone, filled in by the server. */
const timeZoneField = optionalText(MAX_LENGTH.name).refine(
  (value) => value === "" || isTimeZone(value),
  { message: "Unknown time zone (use an IANA name such as Europe/Berlin)" },
);

/** Which source the setting is about: an id in the type's source table; null or 0 means all. */
const sourceIdField = z.preprocess(
  (value) => (value === "" || value === undefined || value === 0 || value === "0" ? null : value),
  dbId.nullable(),
);

/**
 * POST /api/notification-settings and PUT /api/notification-settings/{id}. Unknown keys (and
 * `sourceType`, `lastNotificationSent`, which the server owns) are dropped. A wrong type gives a
 * 400 naming the field. The source is named by `sourceId`; when only `sourceName` is sent the
 * server looks the name up among the type's sources (docs/notifications.md).
 */
export const notificationSettingSave = z.object({
  id: dbId.default(0),
  name: boundedString(MAX_LENGTH.name).trim().min(1, NOTIFICATION_MESSAGES.nameRequired),
  sourceTypeId: sourceTypeIdField,
  sourceId: sourceIdField.default(null),
  sourceName: optionalText(MAX_LENGTH.name),
  notificationEnabled: flag("notificationEnabled", false),
  notificationInterval: intervalField,
  notificationDayOfWeek: dayOfWeekField.default(null),
  cronExpression: optionalText(MAX_LENGTH.name),
  timeZone: timeZoneField,
  includeStatusChanges: flag("includeStatusChanges", true),
  includeQuantityChanges: flag("includeQuantityChanges", true),
  includeZeroQuantityAlerts: flag("includeZeroQuantityAlerts", false),
  includeDailyBreakdown: flag("includeDailyBreakdown", true),
  includeItemDetails: flag("includeItemDetails", true),
  includeErrorAlerts: flag("includeErrorAlerts", true),
  includeSuccessAlerts: flag("includeSuccessAlerts", true),
  overrideEmailRecipients: recipientList,
  emailSubjectPrefix: optionalText(MAX_LENGTH.name),
  consolidatedEmail: flag("consolidatedEmail", false),
  webhookPreset: webhookPresetField,
  webhookUrl: webhookUrlField,
  webhookSecret: webhookSecretField,
}).superRefine((value, ctx) => {
  if (value.webhookPreset !== "") {
    if (value.webhookUrl === "") {
      ctx.addIssue({ code: "custom", path: ["webhookUrl"], message: WEBHOOK_MESSAGES.urlRequired });
    } else if (value.webhookUrl !== STORED_SECRET && !isWebhookUrl(value.webhookUrl)) {
      ctx.addIssue({ code: "custom", path: ["webhookUrl"], message: WEBHOOK_MESSAGES.urlInvalid });
    }
  }
  if (value.notificationInterval === "Custom") {
    if (value.cronExpression === "") {
      ctx.addIssue({
        code: "custom",
        path: ["cronExpression"],
        message: NOTIFICATION_MESSAGES.cronRequired,
      });
    } else {
      const problem = cronProblem(value.cronExpression);
      if (problem) ctx.addIssue({ code: "custom", path: ["cronExpression"], message: problem });
    }
  }
});
export type NotificationSettingSaveInput = z.input<typeof notificationSettingSave>;
export type NotificationSettingSave = z.output<typeof notificationSettingSave>;

/** GET /api/notification-settings/{id}, and each entry of GET /api/notification-settings. */
export const notificationSetting = z.object({
  id: z.number().int(),
  name: z.string(),
  sourceTypeId: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  sourceType: z.enum(["Inventory", "OrderSubmission", "OrderTracking", "OrderVendor"]),
  /** null: every source of the type. */
  sourceId: z.number().int().nullable(),
  /** The source's current name ("" when sourceId is null). */
  sourceName: z.string(),
  notificationEnabled: z.boolean(),
  notificationInterval: z.enum(NOTIFICATION_INTERVALS),
  notificationDayOfWeek: z.number().int().min(1).max(7).nullable(),
  cronExpression: z.string(),
  /** The IANA zone the schedule runs in. */
  timeZone: z.string(),
  includeStatusChanges: z.boolean(),
  includeQuantityChanges: z.boolean(),
  includeZeroQuantityAlerts: z.boolean(),
  includeDailyBreakdown: z.boolean(),
  includeItemDetails: z.boolean(),
  includeErrorAlerts: z.boolean(),
  includeSuccessAlerts: z.boolean(),
  overrideEmailRecipients: z.string(),
  emailSubjectPrefix: z.string(),
  consolidatedEmail: z.boolean(),
  /** "" none, else the webhook's body format (docs/notifications.md, "Webhooks"). */
  webhookPreset: z.enum(WEBHOOK_PRESETS),
  /** Write-only: "********" when an address is stored, "" when none. */
  webhookUrl: z.string(),
  /** The stored address's host name (the address itself is a secret); "" when none. */
  webhookHost: z.string(),
  /** Write-only: "********" when a signing secret is stored, "" when none. */
  webhookSecret: z.string(),
  /** ISO 8601: when the mail server last accepted this setting's mail; null for never. */
  lastNotificationSent: z.string().nullable(),
});
export type NotificationSetting = z.infer<typeof notificationSetting>;
/** One row of GET /api/notification-settings: the whole setting. */
export type NotificationSettingListEntry = NotificationSetting;
export const notificationSettingList = z.array(notificationSetting);

/** GET /api/notification-settings/email-info */
export const emailInfo = z.object({
  fromEmail: z.string(),
  recipients: z.object({
    inventory: z.array(z.string()),
    submission: z.array(z.string()),
    order: z.array(z.string()),
  }),
  note: z.string(),
});
export type EmailInfo = z.infer<typeof emailInfo>;

/** GET /api/notification-settings/sources?sourceTypeId=N: the edit screen's source picker. */
export const notificationSourcesQuery = z.object({ sourceTypeId: sourceTypeIdField });

/** One live source of a type (OrderVendor: a vendor by its name in the files). */
export const notificationSourceOption = z.object({ id: z.number(), sourceName: z.string() });
export type NotificationSourceOption = z.infer<typeof notificationSourceOption>;

/** POST /api/notification-settings/validate-cron */
export const cronValidationRequest = z.object({
  cronExpression: boundedString(MAX_LENGTH.name).nullish().transform((value) =>
    (value ?? "").trim()
  ),
  /** Optional: the zone for nextExecution ("" = the server's). */
  timeZone: timeZoneField,
});
export type CronValidationRequest = z.input<typeof cronValidationRequest>;

/** The answer of validate-cron. */
export const cronValidationResult = z.object({
  isValid: z.boolean(),
  message: z.string(),
  /** ISO 8601 instant of the next run; null when invalid or never. */
  nextExecution: z.string().nullable(),
});
export type CronValidationResult = z.infer<typeof cronValidationResult>;

/** POST /api/notification-settings/{id}/test: what was sent and to whom. */
export const notificationTestResult = z.object({
  success: z.boolean(),
  message: z.string(),
  subject: z.string(),
  recipients: z.array(z.string()),
  /** ISO 8601 data window the mail covered. */
  windowFrom: z.string(),
  windowTo: z.string(),
  details: z.string(),
});
export type NotificationTestResult = z.infer<typeof notificationTestResult>;

/** POST /api/notification-settings/{id}/test-webhook: one post, answered with its outcome. */
export const webhookTestResult = z.object({
  success: z.boolean(),
  message: z.string(),
  /** The HTTP status the webhook answered with; null when none was reached. */
  status: z.number().int().nullable(),
});
export type WebhookTestResult = z.infer<typeof webhookTestResult>;

/** The edit form's values (spec part 2, sections 5 and 9); 0 / "" mean "not chosen". */
export const notificationSettingForm = z.object({
  name: boundedString(MAX_LENGTH.name).trim().min(1, NOTIFICATION_MESSAGES.nameRequired),
  sourceTypeId: z.number({ error: NOTIFICATION_MESSAGES.sourceTypeRequired }).int().min(
    1,
    NOTIFICATION_MESSAGES.sourceTypeRequired,
  ).max(4, NOTIFICATION_MESSAGES.sourceTypeRequired),
  sourceId: dbId.nullable(),
  sourceName: boundedString(MAX_LENGTH.name),
  notificationEnabled: z.boolean(),
  notificationInterval: z.union([z.enum(NOTIFICATION_INTERVALS), z.literal("")]).refine(
    (value) => value !== "",
    NOTIFICATION_MESSAGES.intervalRequired,
  ),
  notificationDayOfWeek: z.number().int().min(0).max(7).nullable(),
  cronExpression: boundedString(MAX_LENGTH.name),
  timeZone: boundedString(MAX_LENGTH.name).refine(
    (value) => value.trim() === "" || isTimeZone(value.trim()),
    "Unknown time zone (use an IANA name such as Europe/Berlin)",
  ),
  includeStatusChanges: z.boolean(),
  includeQuantityChanges: z.boolean(),
  includeZeroQuantityAlerts: z.boolean(),
  includeDailyBreakdown: z.boolean(),
  includeItemDetails: z.boolean(),
  includeErrorAlerts: z.boolean(),
  includeSuccessAlerts: z.boolean(),
  overrideEmailRecipients: boundedString(MAX_LENGTH.text).superRefine((value, ctx) => {
    const { invalid } = parseRecipientList(value);
    if (invalid.length > 0) {
      ctx.addIssue({ code: "custom", message: invalidRecipientsMessage(invalid) });
    }
  }),
  emailSubjectPrefix: boundedString(MAX_LENGTH.name),
  consolidatedEmail: z.boolean(),
  webhookPreset: z.enum(WEBHOOK_PRESETS),
  webhookUrl: boundedString(MAX_LENGTH.text),
  webhookSecret: boundedString(MAX_LENGTH.secret),
}).superRefine((value, ctx) => {
  const url = value.webhookUrl.trim();
  if (value.webhookPreset === "") return;
  if (url === "") {
    ctx.addIssue({ code: "custom", path: ["webhookUrl"], message: WEBHOOK_MESSAGES.urlRequired });
  } else if (url !== STORED_SECRET && !isWebhookUrl(url)) {
    ctx.addIssue({ code: "custom", path: ["webhookUrl"], message: WEBHOOK_MESSAGES.urlInvalid });
  }
});
export type NotificationSettingForm = z.infer<typeof notificationSettingForm>;

/** A new setting's form: the defaults of spec part 2, section 9. */
export const NEW_NOTIFICATION_FORM: NotificationSettingForm = {
  name: "",
  sourceTypeId: 0,
  sourceId: null,
  sourceName: "",
  notificationEnabled: false,
  notificationInterval: "Weekly",
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
  overrideEmailRecipients: "",
  emailSubjectPrefix: "",
  consolidatedEmail: false,
  webhookPreset: "",
  webhookUrl: "",
  webhookSecret: "",
};
