/**
 * `announce`: the one way a source's incident (or its end) reaches people (docs/dashboard.md,
 * "Alerts"). Today it e-mails the recipients of the notification settings that cover the source
 * and have error alerts on; further channels (webhooks) plug in here, beside the e-mail.
 */
import type { Deps } from "../deps.ts";
import type { Db } from "../db/client.ts";
import { appLink } from "../../shared/app_link.ts";
import {
  AREA_LABELS,
  type DashboardArea,
  type DashboardLine,
  type SourceState,
  STATE_LABELS,
} from "../../shared/contract/dashboard.ts";
import type { SourceTypeId } from "../../shared/contract/notifications.ts";
import { recipientsFor, type RecipientUser } from "../../shared/notifications/recipients.ts";
import { escapeHtml } from "../../shared/notifications/render.ts";
import { postToChannels } from "../notifications/channels.ts";
import { durationText } from "./state.ts";

/** A source became failing, held or stale (`incident`), or is fine again (`recovered`). */
export interface SourceEvent {
  kind: "incident" | "recovered";
  /** The source as it is now. */
  line: DashboardLine;
  /** The incident's state (for `recovered`, the state that ended). */
  state: SourceState;
  /** When the incident started. */
  since: Date;
  /** When it was noticed (for `recovered`: when it ended). */
  at: Date;
}

/** The notification source type of each kind of line (mailboxes have none: every setting). */
const SOURCE_TYPE: Record<DashboardArea, SourceTypeId | null> = {
  inventory: 1,
  "order-submission": 2,
  "order-tracking": 3,
  vendor: 4,
  mailbox: null,
};

interface SettingRow {
  id: number;
  sourceTypeId: SourceTypeId;
  override: string;
  prefix: string;
}

/**
 * The addresses an event goes to: every enabled setting with error alerts on that covers the
 * source (its type with all sources, or this source) — its override list, else the area's users
 * with "send notifications to e-mail". Each address once. The first such setting's subject
 * prefix is used.
 */
export async function alertRecipients(
  db: Db,
  area: DashboardArea,
  sourceId: number,
): Promise<{ addresses: string[]; prefix: string; settingIds: number[] }> {
  const type = SOURCE_TYPE[area];
  const settings = await db.query<SettingRow>(
    `select id, source_type_id as "sourceTypeId", override_email_recipients as override,
            email_subject_prefix as prefix
       from notification_settings
      where notification_enabled and include_error_alerts
        and ($1::integer is null or (source_type_id = $1 and (source_id is null or source_id = $2)))
      order by id`,
    [type, sourceId],
  );
  const settingIds = settings.map((s) => s.id);
  if (settings.length === 0) return { addresses: [], prefix: "", settingIds };
  const users = await db.query<RecipientUser>(
    `select email, active_status as "activeStatus",
            send_notifications_to_email as "sendNotificationsToEmail",
            inventory_user as "inventoryUser", order_user as "orderUser",
            submission_user as "submissionUser"
       from users`,
  );
  const seen = new Map<string, string>();
  for (const s of settings) {
    for (const address of recipientsFor(s.sourceTypeId, s.override, users).addresses) {
      if (!seen.has(address.toLowerCase())) seen.set(address.toLowerCase(), address);
    }
  }
  return {
    addresses: [...seen.values()],
    prefix: settings.find((s) => s.prefix)?.prefix ?? "",
    settingIds,
  };
}

/** The message of an event: subject and text (links only with PUBLIC_URL). */
export function renderEvent(
  event: SourceEvent,
  publicUrl: string | null,
  prefix = "",
): { subject: string; text: string; html: string } {
  const { line } = event;
  const what = `${AREA_LABELS[line.area]} source "${line.name}"`;
  const head = event.kind === "incident"
    ? `${STATE_LABELS[event.state]}: ${what}`
    : `Recovered: ${what}`;
  const subject = prefix ? `${prefix} ${head}` : head;
  const lines = event.kind === "incident"
    ? [
      `${what} is ${STATE_LABELS[event.state].toLowerCase()} since ${event.since.toISOString()}.`,
      line.reason,
    ]
    : [
      `${what} is ${STATE_LABELS[line.state].toLowerCase()} again: it was ${
        STATE_LABELS[event.state].toLowerCase()
      } for ${
        durationText(event.at.getTime() - event.since.getTime())
      }, from ${event.since.toISOString()}.`,
      line.reason,
    ];
  if (line.lastResult) lines.push(`Last result: ${line.lastResult}`);
  const links: Array<[string, string]> = [];
  if (publicUrl) {
    links.push(["The source", appLink(publicUrl, line.sourcePath)]);
    if (line.runsPath) links.push(["Its runs", appLink(publicUrl, line.runsPath)]);
    links.push(["The dashboard", appLink(publicUrl, "/home")]);
  }
  const text = [
    ...lines,
    "",
    ...(links.length
      ? links.map(([label, url]) => `${label}: ${url}`)
      : ["Open the application's home page to see it (ask your administrator for its address)."]),
  ].join("\n");
  const html = `<div>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}${
    links.length
      ? `<p>${
        links.map(([label, url]) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`).join(
          " · ",
        )
      }</p>`
      : "<p>Open the application's home page to see it (ask your administrator for its address).</p>"
  }</div>`;
  return { subject, text, html };
}

/**
 * Tells people about an event, through every channel of the notification settings that cover
 * the source (see `alertRecipients`): e-mail to their recipients, and a post to each one's
 * webhook (queued once per event, so a retried tick does not post twice). Returns how many
 * addresses and webhooks it went to (0 and 0: nobody asked for alerts about this source). Throws
 * when the e-mail fails, so that the incidents job tries again at its next run.
 */
export async function announce(
  deps: Pick<Deps, "db" | "config" | "mailer">,
  event: SourceEvent,
): Promise<{ emailed: number; posted: number }> {
  const { addresses, prefix, settingIds } = await alertRecipients(
    deps.db,
    event.line.area,
    event.line.sourceId,
  );
  if (settingIds.length === 0) return { emailed: 0, posted: 0 };
  const publicUrl = deps.config.PUBLIC_URL ?? null;
  const message = renderEvent(event, publicUrl, prefix);
  let posted = 0;
  const onceKey =
    `${event.kind}:${event.line.area}:${event.line.sourceId}:${event.since.toISOString()}`;
  for (const id of settingIds) {
    posted += await postToChannels(deps, { id }, {
      title: message.subject,
      text: message.text,
      link: publicUrl ? appLink(publicUrl, event.line.sourcePath) : undefined,
      kind: event.kind,
    }, { onceKey });
  }
  if (addresses.length > 0) await deps.mailer.send({ to: addresses.join(", "), ...message });
  return { emailed: addresses.length, posted };
}
