/**
 * Reading and writing notification settings (docs/notifications.md): the settings table, the
 * sources a setting names (one table per source type) and the users who receive notifications.
 */
import type { Db } from "../db/client.ts";
import { sourceTypeLabel } from "../../shared/catalog/display_names.ts";
import {
  type NotificationSetting,
  type NotificationSettingSave,
  type NotificationSourceOption,
  type SourceTypeId,
  sourceTypeName,
} from "../../shared/contract/notifications.ts";
import type { RecipientUser } from "../../shared/notifications/recipients.ts";
import { serverTimeZone } from "../../shared/notifications/schedule.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { requireSecretForRebind, SECRET_PLACEHOLDER, type SecretBox } from "../secrets.ts";

/**
 * Where the sources of each type live (docs/notifications.md, "How a setting names its source"):
 * the table, its name column and the condition of a live (not soft-deleted) row. OrderVendor
 * sources are the vendors, named by the vendor name their order files carry.
 */
export const SOURCE_TABLES: Record<
  SourceTypeId,
  { table: string; nameColumn: string; notDeleted: string }
> = {
  1: { table: "inventory_sources", nameColumn: "source_name", notDeleted: "not deleted_status" },
  2: {
    table: "order_submission_sources",
    nameColumn: "source_name",
    notDeleted: "not deleted_status",
  },
  3: {
    table: "order_tracking_sources",
    nameColumn: "source_name",
    notDeleted: "not deleted_status",
  },
  4: {
    table: "vendor_sources",
    nameColumn: "vendor_name_from_file",
    notDeleted: "not deleted_status",
  },
};

/** A setting as stored, with the server-owned fields the job layer needs. */
export interface StoredSetting extends NotificationSetting {
  lastScheduled: Date;
}

const settingSelect = `
  select id, name, source_type_id as "sourceTypeId", source_id as "sourceId",
         source_name as "sourceName", notification_enabled as "notificationEnabled",
         notification_interval as "notificationInterval",
         notification_day_of_week as "notificationDayOfWeek", cron_expression as "cronExpression",
         time_zone as "timeZone", include_status_changes as "includeStatusChanges",
         include_quantity_changes as "includeQuantityChanges",
         include_zero_quantity_alerts as "includeZeroQuantityAlerts",
         include_daily_breakdown as "includeDailyBreakdown",
         include_item_details as "includeItemDetails", include_error_alerts as "includeErrorAlerts",
         include_success_alerts as "includeSuccessAlerts",
         override_email_recipients as "overrideEmailRecipients",
         email_subject_prefix as "emailSubjectPrefix", consolidated_email as "consolidatedEmail",
         last_notification_sent as "lastNotificationSent", last_scheduled as "lastScheduled",
         webhook_preset as "webhookPreset", webhook_host as "webhookHost",
         case when webhook_url_secret_enc is null then '' else '${SECRET_PLACEHOLDER}' end
           as "webhookUrl",
         case when webhook_secret_enc is null then '' else '${SECRET_PLACEHOLDER}' end
           as "webhookSecret"
    from notification_settings`;

type SettingRow = Omit<StoredSetting, "sourceType" | "lastNotificationSent" | "lastScheduled"> & {
  lastNotificationSent: Date | string | null;
  lastScheduled: Date | string;
};

/** An instant from either driver as ISO 8601 (null stays null). */
export function isoOrNull(value: Date | string | null | undefined): string | null {
  return value == null ? null : new Date(value).toISOString();
}

async function tableExists(db: Db, table: string): Promise<boolean> {
  const [row] = await db.query<{ found: boolean }>(
    `select to_regclass($1) is not null as found`,
    [table],
  );
  return row?.found ?? false;
}

/**
 * The current names of the sources of one type, by id ({} when the type's table is missing).
 * Live sources only, unless `includeDeleted` (the loaders name the runs of deleted sources too).
 */
export async function sourceNames(
  db: Db,
  typeId: SourceTypeId,
  includeDeleted = false,
): Promise<Map<number, string>> {
  const spec = SOURCE_TABLES[typeId];
  if (!await tableExists(db, spec.table)) return new Map();
  const rows = await db.query<{ id: number; name: string }>(
    `select id, ${spec.nameColumn} as name from ${spec.table}
      where ${includeDeleted ? "true" : spec.notDeleted}`,
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The live sources of one type for the edit screen's picker, by name (at most 5 000). */
export async function sourceOptions(
  db: Db,
  typeId: SourceTypeId,
): Promise<NotificationSourceOption[]> {
  const spec = SOURCE_TABLES[typeId];
  if (!await tableExists(db, spec.table)) return [];
  return await db.query<NotificationSourceOption>(
    `select id, ${spec.nameColumn} as "sourceName" from ${spec.table}
      where ${spec.notDeleted} order by lower(${spec.nameColumn}), id limit 5000`,
  );
}

async function withCurrentNames(db: Db, rows: SettingRow[]): Promise<StoredSetting[]> {
  const names = new Map<SourceTypeId, Map<number, string>>();
  for (const typeId of new Set(rows.map((row) => row.sourceTypeId))) {
    names.set(typeId, await sourceNames(db, typeId));
  }
  return rows.map((row) => ({
    ...row,
    sourceType: sourceTypeName(row.sourceTypeId),
    sourceName: row.sourceId == null
      ? ""
      : names.get(row.sourceTypeId)?.get(row.sourceId) ?? row.sourceName,
    lastNotificationSent: isoOrNull(row.lastNotificationSent),
    lastScheduled: new Date(row.lastScheduled),
  }));
}

/** The answer's shape of a stored setting (drops the server-only fields). */
export function toContract(setting: StoredSetting): NotificationSetting {
  const { lastScheduled: _, ...rest } = setting;
  return rest;
}

/** Every setting, by id. */
export async function listSettings(db: Db): Promise<StoredSetting[]> {
  return await withCurrentNames(db, await db.query<SettingRow>(`${settingSelect} order by id`));
}

/** One setting, or null. */
export async function findSetting(db: Db, id: number): Promise<StoredSetting | null> {
  const rows = await db.query<SettingRow>(`${settingSelect} where id = $1`, [id]);
  return (await withCurrentNames(db, rows))[0] ?? null;
}

/**
 * Resolves the source a request names: `sourceId` must exist in the type's table; `sourceName`
 * alone is looked up case-insensitively; neither means every source of the type.
 */
async function resolveSource(
  db: Db,
  input: NotificationSettingSave,
): Promise<{ sourceId: number | null; sourceName: string }> {
  const names = await sourceNames(db, input.sourceTypeId);
  const type = sourceTypeLabel(sourceTypeName(input.sourceTypeId));
  if (input.sourceId != null) {
    const name = names.get(input.sourceId);
    if (name === undefined) {
      throw badRequest(`Unknown source: no ${type} source has id ${input.sourceId}.`, {
        sourceId: [`Unknown ${type} source ${input.sourceId}`],
      });
    }
    return { sourceId: input.sourceId, sourceName: name };
  }
  const wanted = input.sourceName.trim().toLowerCase();
  if (wanted === "") return { sourceId: null, sourceName: "" };
  for (const [id, name] of names) {
    if (name.trim().toLowerCase() === wanted) return { sourceId: id, sourceName: name };
  }
  throw badRequest(`Unknown source: no ${type} source is named "${input.sourceName.trim()}".`, {
    sourceName: [`Unknown ${type} source "${input.sourceName.trim()}"`],
  });
}

/** The stored webhook columns a save writes. */
interface WebhookColumns {
  preset: string;
  urlEnc: string | null;
  host: string;
  secretEnc: string | null;
}

/**
 * The webhook columns of a save (docs/notifications.md, "Webhooks"). The address and the signing
 * secret are write-only: "********" keeps the stored one, "" clears it. Like every stored secret
 * (docs/outbound.md), a kept signing secret may not follow a changed address: 400 on
 * `webhookSecret` then. No preset clears all three.
 */
async function webhookColumns(
  db: Db,
  secrets: SecretBox,
  id: number,
  input: NotificationSettingSave,
): Promise<WebhookColumns> {
  if (input.webhookPreset === "") return { preset: "", urlEnc: null, host: "", secretEnc: null };
  const [stored] = id === 0
    ? []
    : await db.query<{ urlEnc: string | null; secretEnc: string | null }>(
      `select webhook_url_secret_enc as "urlEnc", webhook_secret_enc as "secretEnc"
       from notification_settings where id = $1 for update`,
      [id],
    );
  const keepUrl = input.webhookUrl === SECRET_PLACEHOLDER;
  if (keepUrl && !stored?.urlEnc) {
    throw badRequest("Enter the webhook URL: none is stored.", { webhookUrl: ["Required"] });
  }
  const keepSecret = input.webhookSecret === SECRET_PLACEHOLDER;
  if (keepSecret && !stored?.secretEnc) {
    throw badRequest("Enter the webhook secret: none is stored.", { webhookSecret: ["Required"] });
  }
  const oldUrl = stored?.urlEnc ? await secrets.decrypt(stored.urlEnc) : "";
  const url = keepUrl ? oldUrl : input.webhookUrl;
  // The signing key is bound to the address it was entered for.
  requireSecretForRebind(
    keepSecret,
    { "webhook address": oldUrl },
    { "webhook address": url },
    "webhookSecret",
  );
  return {
    preset: input.webhookPreset,
    urlEnc: keepUrl ? stored!.urlEnc : await secrets.encrypt(url),
    host: new URL(url).hostname,
    secretEnc: keepSecret
      ? stored!.secretEnc
      : input.webhookSecret === ""
      ? null
      : await secrets.encrypt(input.webhookSecret),
  };
}

/** A setting's webhook with its secrets in clear, for the one post that needs them; or null. */
export async function loadWebhook(
  db: Db,
  secrets: SecretBox,
  id: number,
): Promise<
  { preset: "json" | "slack" | "teams"; url: string; secret: string | null; name: string } | null
> {
  const [row] = await db.query<
    { preset: string; urlEnc: string | null; secretEnc: string | null; name: string }
  >(
    `select webhook_preset as preset, webhook_url_secret_enc as "urlEnc",
            webhook_secret_enc as "secretEnc", name
       from notification_settings where id = $1`,
    [id],
  );
  if (!row || row.preset === "" || !row.urlEnc) return null;
  return {
    preset: row.preset as "json" | "slack" | "teams",
    url: await secrets.decrypt(row.urlEnc),
    secret: row.secretEnc ? await secrets.decrypt(row.secretEnc) : null,
    name: row.name,
  };
}

/**
 * Creates (id 0) or updates a setting. A change of the schedule (interval, day, cron, zone) or
 * switching it on resets `last_scheduled` to now, so due times of the old schedule never fire.
 * Run it in a transaction (the routes do): the webhook's stored secrets are read `for update`.
 */
export async function saveSetting(
  db: Db,
  secrets: SecretBox,
  id: number,
  input: NotificationSettingSave,
): Promise<StoredSetting> {
  const source = await resolveSource(db, input);
  const webhook = await webhookColumns(db, secrets, id, input);
  const timeZone = input.timeZone || serverTimeZone();
  const values = [
    input.name,
    input.sourceTypeId,
    source.sourceId,
    source.sourceName,
    input.notificationEnabled,
    input.notificationInterval,
    input.notificationDayOfWeek,
    input.cronExpression,
    timeZone,
    input.includeStatusChanges,
    input.includeQuantityChanges,
    input.includeZeroQuantityAlerts,
    input.includeDailyBreakdown,
    input.includeItemDetails,
    input.includeErrorAlerts,
    input.includeSuccessAlerts,
    input.overrideEmailRecipients,
    input.emailSubjectPrefix,
    input.consolidatedEmail,
    webhook.preset,
    webhook.urlEnc,
    webhook.host,
    webhook.secretEnc,
  ];
  if (id === 0) {
    const [row] = await db.query<{ id: number }>(
      `insert into notification_settings (name, source_type_id, source_id, source_name,
         notification_enabled, notification_interval, notification_day_of_week, cron_expression,
         time_zone, include_status_changes, include_quantity_changes, include_zero_quantity_alerts,
         include_daily_breakdown, include_item_details, include_error_alerts,
         include_success_alerts, override_email_recipients, email_subject_prefix,
         consolidated_email, webhook_preset, webhook_url_secret_enc, webhook_host,
         webhook_secret_enc)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
               $20, $21, $22, $23)
       returning id`,
      values,
    );
    return (await findSetting(db, row.id))!;
  }
  const rows = await db.query<{ id: number }>(
    `update notification_settings set name = $2, source_type_id = $3, source_id = $4,
       source_name = $5, notification_enabled = $6, notification_interval = $7,
       notification_day_of_week = $8, cron_expression = $9, time_zone = $10,
       include_status_changes = $11, include_quantity_changes = $12,
       include_zero_quantity_alerts = $13, include_daily_breakdown = $14,
       include_item_details = $15, include_error_alerts = $16, include_success_alerts = $17,
       override_email_recipients = $18, email_subject_prefix = $19, consolidated_email = $20,
       webhook_preset = $21, webhook_url_secret_enc = $22, webhook_host = $23,
       webhook_secret_enc = $24,
       last_scheduled = case
         when notification_interval is distinct from $7
           or notification_day_of_week is distinct from $8
           or cron_expression is distinct from $9 or time_zone is distinct from $10
           or (not notification_enabled and $6) then now()
         else last_scheduled end,
       updated_at = now()
     where id = $1 returning id`,
    [id, ...values],
  );
  if (rows.length === 0) throw notFound(`Notification setting ${id}`);
  return (await findSetting(db, id))!;
}

/** Deletes a setting; false when there was none. */
export async function deleteSetting(db: Db, id: number): Promise<boolean> {
  const rows = await db.query(`delete from notification_settings where id = $1 returning id`, [id]);
  return rows.length > 0;
}

/** The user fields that decide who receives notifications (every user; the filter is pure). */
export async function recipientUsers(db: Db): Promise<RecipientUser[]> {
  return await db.query<RecipientUser>(
    `select email, active_status as "activeStatus",
            send_notifications_to_email as "sendNotificationsToEmail",
            inventory_user as "inventoryUser", order_user as "orderUser",
            submission_user as "submissionUser"
       from users`,
  );
}
