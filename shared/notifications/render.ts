/**
 * The content of notification e-mails (docs/notifications.md, "Content"): from a setting, its data
 * window and what the feeds recorded, a subject, an HTML part readable in a phone's mail app
 * (one column, tables, inline styles, every value escaped) and a plain-text part with the same
 * content. Also consolidated mails and mailbox-health alerts. Pure: the caller loads the data.
 */
import {
  type NotificationSetting,
  type SourceTypeId,
  sourceTypeName,
} from "../contract/notifications.ts";
import { type DataWindow, formatInZone } from "./schedule.ts";
import { appLink } from "../app_link.ts";
import { sourceTypeLabel } from "../catalog/display_names.ts";

/** An instant as the feeds store it. */
export type Instant = Date | string;

/** An import run of the window (inventory files, order files, tracking files). */
export interface ImportRunRecord {
  id: number;
  sourceName: string;
  status: "queued" | "succeeded" | "failed" | "held";
  fileName: string;
  /** When it finished; queued runs have none. */
  finishedAt: Instant | null;
  /** The run's counts (processed, active, inactive, rows, ...). */
  counts: Record<string, number>;
  /** Row errors and the run's error, as text. */
  errors: string[];
}

/** An inventory item whose status changed (Active to Inactive and back). */
export interface ItemStatusChange {
  sourceName: string;
  itemNumber: string;
  from: string;
  to: string;
  at: Instant;
}

/** An inventory item whose quantity changed between two snapshots. */
export interface QuantityChange {
  sourceName: string;
  itemNumber: string;
  from: number | null;
  to: number;
  at: Instant;
}

/** An item at quantity zero at the end of the window. */
export interface ZeroQuantityItem {
  sourceName: string;
  itemNumber: string;
  /** Since when it is at zero, when known. */
  since: Instant | null;
}

/** One order change (a new order, a status change) recorded by the tracking or submission feed. */
export interface OrderChange {
  sourceName: string;
  orderNumber: string;
  change: string;
  at: Instant;
}

/**
 * A vendor sending of the order submission feed. `uncertain`: interrupted between the send and its
 * record, not resent; a person must check it (docs/order_submission.md, "Recovery"). Failed and
 * uncertain sendings are reported with the errors.
 */
export interface VendorSending {
  vendorName: string;
  sentAt: Instant;
  status: "sent" | "failed" | "uncertain";
  orderCount: number;
  recipients: string;
  error: string | null;
  /** The PO numbers the e-mail carried, when known. */
  poNumbers?: string[];
}

/**
 * Something that went out incompletely without failing a run (an unmatched vendor's rows, a short
 * batch); shown under "Warnings" with the error alerts.
 */
export interface FeedWarning {
  sourceName: string;
  /** What it is about (a file, a batch day). */
  subject: string;
  message: string;
  at: Instant;
}

/** Everything the feeds recorded in the window, for the setting's source(s); all optional. */
export interface NotificationData {
  importRuns?: ImportRunRecord[];
  statusChanges?: ItemStatusChange[];
  quantityChanges?: QuantityChange[];
  zeroQuantityItems?: ZeroQuantityItem[];
  orderChanges?: OrderChange[];
  vendorSendings?: VendorSending[];
  warnings?: FeedWarning[];
}

/** The fields of a setting the content depends on. */
export type RenderSetting = Pick<
  NotificationSetting,
  | "id"
  | "name"
  | "sourceTypeId"
  | "sourceId"
  | "sourceName"
  | "notificationInterval"
  | "includeStatusChanges"
  | "includeQuantityChanges"
  | "includeZeroQuantityAlerts"
  | "includeDailyBreakdown"
  | "includeItemDetails"
  | "includeErrorAlerts"
  | "includeSuccessAlerts"
  | "emailSubjectPrefix"
>;

/** What one setting's mail is made from. */
export interface RenderInput {
  setting: RenderSetting;
  window: DataWindow;
  data: NotificationData;
  /** PUBLIC_URL: links back to the application start here; null: the mail carries no links. */
  publicUrl: string | null;
  /** The zone dates are shown in (the setting's). */
  timeZone: string;
}

/** A mail ready for the mailer. */
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** Rows shown per list before "... and N more" (the full data stays in the application). */
export const MAX_ROWS = 200;
/**
 * Said in place of the links when the server knows no public address (`PUBLIC_URL` unset): a
 * link built from anything else could point anywhere (docs/auth.md, "Mailed links").
 */
export const NO_LINKS_NOTE =
  "Links to the application are left out because its web address is not configured; " +
  "ask your administrator for it.";
/** The text of a mail whose window recorded nothing. */
export const NOTHING_HAPPENED = "Nothing happened in this period.";

// ---- The document model: rendered once to HTML and once to text, so both parts agree. ----

interface Table {
  headers: string[];
  rows: string[][];
  /** Rows left out beyond MAX_ROWS. */
  more: number;
}

interface Section {
  title: string;
  tone: "plain" | "good" | "bad";
  lines: string[];
  table?: Table;
}

interface Block {
  heading: string;
  lines: string[];
  sections: Section[];
  links: Array<{ label: string; url: string }>;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

export { appLink };

/** The screen of a setting's source (the list of its area, or the source's edit page). */
export function sourceLink(
  publicUrl: string,
  sourceTypeId: SourceTypeId,
  sourceId: number | null,
): string {
  switch (sourceTypeId) {
    case 1:
      return appLink(
        publicUrl,
        sourceId ? `/inventory-sources/edit/${sourceId}` : "/inventory-sources",
      );
    case 2:
      return appLink(publicUrl, "/order-submission/sources");
    case 3:
      return appLink(publicUrl, "/order-tracking-sources");
    case 4:
      return appLink(publicUrl, "/order-submission/vendor");
  }
}

const table = (headers: string[], rows: string[][]): Table => ({
  headers,
  rows: rows.slice(0, MAX_ROWS),
  more: Math.max(0, rows.length - MAX_ROWS),
});

/** A plain section of changes: its count line, and its rows only when item details are on. */
function changeSection(
  title: string,
  line: string,
  details: boolean,
  headers: string[],
  rows: () => string[][],
): Section {
  return {
    title,
    tone: "plain",
    lines: [line],
    table: details ? table(headers, rows()) : undefined,
  };
}

const toDate = (value: Instant) => (value instanceof Date ? value : new Date(value));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const poText = (sending: VendorSending) =>
  sending.poNumbers?.length ? ` (PO ${sending.poNumbers.join(", ")})` : "";
const countsText = (counts: Record<string, number>) =>
  Object.entries(counts).map(([key, value]) => `${key} ${value}`).join(", ");

/** The data of the window, sorted by time, each list defaulting to empty. */
function normalise(data: NotificationData) {
  const byTime = <T>(list: T[] | undefined, at: (item: T) => Instant | null) =>
    [...(list ?? [])].sort((a, b) => {
      const x = at(a), y = at(b);
      return (x ? toDate(x).getTime() : Infinity) - (y ? toDate(y).getTime() : Infinity);
    });
  return {
    importRuns: byTime(data.importRuns, (run) => run.finishedAt),
    statusChanges: byTime(data.statusChanges, (change) => change.at),
    quantityChanges: byTime(data.quantityChanges, (change) => change.at),
    zeroQuantityItems: [...(data.zeroQuantityItems ?? [])].sort((a, b) =>
      a.sourceName.localeCompare(b.sourceName) || a.itemNumber.localeCompare(b.itemNumber)
    ),
    orderChanges: byTime(data.orderChanges, (change) => change.at),
    vendorSendings: byTime(data.vendorSendings, (sending) => sending.sentAt),
    warnings: byTime(data.warnings, (warning) => warning.at),
  };
}

/** The heading, overview lines and sections of one setting's mail. */
function settingBlock(input: RenderInput): Block {
  const { setting, window, publicUrl, timeZone } = input;
  const data = normalise(input.data);
  const when = (value: Instant | null) => (value ? formatInZone(toDate(value), timeZone) : "");
  const type = sourceTypeLabel(sourceTypeName(setting.sourceTypeId));
  const source = setting.sourceName || `All ${type} sources`;
  const failedRuns = data.importRuns.filter((run) => run.status === "failed");
  const goodRuns = data.importRuns.filter((run) => run.status === "succeeded");
  const failedSendings = data.vendorSendings.filter((sending) => sending.status !== "sent");
  const goodSendings = data.vendorSendings.filter((sending) => sending.status === "sent");
  const details = setting.includeItemDetails;
  const sections: Section[] = [];

  const lines = [
    `${type} summary for ${source}`,
    `Period: ${when(window.from)} to ${when(window.to)} (${timeZone})`,
  ];
  const empty = data.importRuns.length + data.statusChanges.length +
      data.quantityChanges.length + data.zeroQuantityItems.length + data.orderChanges.length +
      data.vendorSendings.length + data.warnings.length === 0;
  if (empty) lines.push(NOTHING_HAPPENED);
  else {
    const overview = [
      `${
        plural(data.importRuns.length, "import run")
      } (${goodRuns.length} succeeded, ${failedRuns.length} failed)`,
    ];
    if (data.vendorSendings.length > 0) {
      overview.push(
        `${plural(data.vendorSendings.length, "vendor sending")} (${failedSendings.length} failed)`,
      );
    }
    lines.push(overview.join("; "));
  }

  if (setting.includeErrorAlerts && (failedRuns.length > 0 || failedSendings.length > 0)) {
    const rows = [
      ...failedRuns.map((run) => [
        when(run.finishedAt),
        `${run.sourceName}: ${run.fileName || "(no file)"}`,
        run.errors.length > 0 ? run.errors.slice(0, 5).join("; ") : "failed",
      ]),
      ...failedSendings.map((sending) => [
        when(sending.sentAt),
        `Vendor ${sending.vendorName}${poText(sending)}`,
        sending.status === "uncertain"
          ? `uncertain whether it went out${sending.error ? `: ${sending.error}` : ""}`
          : sending.error || "sending failed",
      ]),
    ];
    sections.push({
      title: "Errors",
      tone: "bad",
      lines: [`${plural(rows.length, "failure")} in this period.`],
      table: table(["When", "What", "Error"], rows),
    });
  }

  if (setting.includeErrorAlerts && data.warnings.length > 0) {
    sections.push({
      title: "Warnings",
      tone: "bad",
      lines: [`${plural(data.warnings.length, "warning")} in this period.`],
      table: table(
        ["When", "What", "Warning"],
        data.warnings.map((warning) => [
          when(warning.at),
          `${warning.sourceName}: ${warning.subject}`,
          warning.message,
        ]),
      ),
    });
  }

  if (setting.includeSuccessAlerts && (goodRuns.length > 0 || goodSendings.length > 0)) {
    const rows = [
      ...goodRuns.map((run) => [
        when(run.finishedAt),
        `${run.sourceName}: ${run.fileName || "(no file)"}`,
        countsText(run.counts),
      ]),
      ...goodSendings.map((sending) => [
        when(sending.sentAt),
        `Vendor ${sending.vendorName}${poText(sending)}`,
        `${plural(sending.orderCount, "order")} to ${sending.recipients}`,
      ]),
    ];
    sections.push({
      title: "Successful runs",
      tone: "good",
      lines: [`${plural(rows.length, "successful run")} in this period.`],
      table: details ? table(["When", "What", "Result"], rows) : undefined,
    });
  }

  if (setting.includeStatusChanges) {
    if (data.statusChanges.length > 0) {
      sections.push(changeSection(
        "Status changes",
        `${plural(data.statusChanges.length, "item")} changed status.`,
        details,
        ["When", "Source", "Item", "Change"],
        () =>
          data.statusChanges.map((change) => [
            when(change.at),
            change.sourceName,
            change.itemNumber,
            `${change.from} → ${change.to}`,
          ]),
      ));
    }
    if (data.orderChanges.length > 0) {
      sections.push(changeSection(
        "Order changes",
        `${plural(data.orderChanges.length, "order change")}.`,
        details,
        ["When", "Source", "Order", "Change"],
        () =>
          data.orderChanges.map((change) => [
            when(change.at),
            change.sourceName,
            change.orderNumber,
            change.change,
          ]),
      ));
    }
  }

  if (setting.includeQuantityChanges && data.quantityChanges.length > 0) {
    sections.push(changeSection(
      "Quantity changes",
      `${plural(data.quantityChanges.length, "quantity change")}.`,
      details,
      ["When", "Source", "Item", "Quantity"],
      () =>
        data.quantityChanges.map((change) => [
          when(change.at),
          change.sourceName,
          change.itemNumber,
          `${change.from ?? "–"} → ${change.to}`,
        ]),
    ));
  }

  if (setting.includeZeroQuantityAlerts && data.zeroQuantityItems.length > 0) {
    sections.push({
      title: "Zero quantity alerts",
      tone: "bad",
      lines: [`${plural(data.zeroQuantityItems.length, "item")} at quantity zero.`],
      table: table(
        ["Source", "Item", "Zero since"],
        data.zeroQuantityItems.map((item) => [item.sourceName, item.itemNumber, when(item.since)]),
      ),
    });
  }

  if (setting.includeDailyBreakdown && !empty) {
    const days = new Map<string, number[]>(); // runs ok, runs failed, item changes, order changes
    const bump = (at: Instant | null, column: number) => {
      if (!at) return;
      const day = when(at).slice(0, 10);
      const row = days.get(day) ?? [0, 0, 0, 0];
      row[column]++;
      days.set(day, row);
    };
    for (const run of data.importRuns) {
      if (run.status === "succeeded") bump(run.finishedAt, 0);
      if (run.status === "failed") bump(run.finishedAt, 1);
    }
    for (const change of [...data.statusChanges, ...data.quantityChanges]) bump(change.at, 2);
    for (const change of data.orderChanges) bump(change.at, 3);
    for (const sending of data.vendorSendings) {
      bump(sending.sentAt, sending.status === "sent" ? 0 : 1);
    }
    const rows = [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map((
      [day, counts],
    ) => [day, ...counts.map(String)]);
    sections.push({
      title: "Daily breakdown",
      tone: "plain",
      lines: [],
      table: table(["Day", "Succeeded", "Failed", "Item changes", "Order changes"], rows),
    });
  }

  return {
    heading: setting.name || `${type} notification`,
    lines,
    sections,
    links: publicUrl
      ? [
        {
          label: `Open ${source}`,
          url: sourceLink(publicUrl, setting.sourceTypeId, setting.sourceId),
        },
        {
          label: "Notification settings",
          url: appLink(publicUrl, `/notification-settings/edit/${setting.id}`),
        },
      ]
      : [],
  };
}

/** A subject with the prefix (when set) in front. */
function prefixed(prefix: string, subject: string): string {
  const trimmed = prefix.trim();
  return trimmed ? `${trimmed} ${subject}` : subject;
}

/** The subject of one setting's mail: prefix, what, source, period, and failures when any. */
function subjectOf(input: RenderInput): string {
  const { setting, window, timeZone, data } = input;
  const type = sourceTypeLabel(sourceTypeName(setting.sourceTypeId));
  const source = setting.sourceName || `All ${type} sources`;
  const from = formatInZone(window.from, timeZone).slice(0, 10);
  const to = formatInZone(window.to, timeZone).slice(0, 10);
  const period = from === to ? to : `${from} to ${to}`;
  const failures = (data.importRuns ?? []).filter((run) => run.status === "failed").length +
    (data.vendorSendings ?? []).filter((sending) => sending.status !== "sent").length;
  const alert = setting.includeErrorAlerts && failures > 0
    ? ` – ${plural(failures, "failure")}`
    : "";
  return oneLine(
    prefixed(setting.emailSubjectPrefix, `${type} summary: ${source}, ${period}${alert}`),
  );
}

/** Subjects are one line: control characters and line breaks become spaces. */
function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001F\u007F-\u009F]+/g, " ").replace(/\s+/g, " ").trim();
}

// ---- HTML: one column, at most 640 px wide, tables, inline styles, escaped values. ----

const FONT = "font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;";
const TONE_COLOR = { plain: "#1f2937", good: "#166534", bad: "#b91c1c" } as const;

function htmlTable(t: Table): string {
  const th = t.headers.map((h) =>
    `<th align="left" style="${FONT}font-size:12px;color:#6b7280;padding:4px 6px;border-bottom:1px solid #e5e7eb;">${
      escapeHtml(h)
    }</th>`
  ).join("");
  const rows = t.rows.map((row) =>
    `<tr>${
      row.map((cell) =>
        `<td valign="top" style="${FONT}font-size:13px;color:#111827;padding:4px 6px;border-bottom:1px solid #f3f4f6;word-break:break-word;">${
          escapeHtml(cell)
        }</td>`
      ).join("")
    }</tr>`
  ).join("");
  const more = t.more > 0
    ? `<p style="${FONT}font-size:12px;color:#6b7280;margin:4px 0 0;">… and ${t.more} more</p>`
    : "";
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%;"><tr>${th}</tr>${rows}</table>${more}`;
}

function htmlBlock(block: Block): string {
  const paragraph = (text: string) =>
    `<p style="${FONT}font-size:14px;color:#374151;margin:0 0 6px;">${escapeHtml(text)}</p>`;
  const sections = block.sections.map((section) =>
    `<tr><td style="padding:12px 0 0;"><h3 style="${FONT}font-size:15px;margin:0 0 6px;color:${
      TONE_COLOR[section.tone]
    };">${escapeHtml(section.title)}</h3>${section.lines.map(paragraph).join("")}${
      section.table ? htmlTable(section.table) : ""
    }</td></tr>`
  ).join("");
  const links = block.links.length === 0
    ? `<p style="${FONT}font-size:13px;color:#6b7280;margin:0;">${escapeHtml(NO_LINKS_NOTE)}</p>`
    : block.links.map((link) =>
      `<a href="${escapeHtml(link.url)}" style="${FONT}font-size:14px;color:#2563eb;">${
        escapeHtml(link.label)
      }</a>`
    ).join(" &nbsp;|&nbsp; ");
  return `<tr><td style="padding:16px 0 0;"><h2 style="${FONT}font-size:18px;margin:0 0 8px;color:#111827;">${
    escapeHtml(block.heading)
  }</h2>${
    block.lines.map(paragraph).join("")
  }</td></tr>${sections}<tr><td style="padding:12px 0 8px;border-bottom:1px solid #e5e7eb;">${links}</td></tr>`;
}

function htmlDocument(title: string, blocks: Block[]): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${
    escapeHtml(title)
  }</title></head><body style="margin:0;padding:0;background:#f3f4f6;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;"><tr><td align="center" style="padding:12px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:640px;width:100%;background:#ffffff;border-radius:6px;"><tr><td style="padding:8px 16px 16px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0">${
    blocks.map(htmlBlock).join("")
  }</table></td></tr></table></td></tr></table></body></html>`;
}

// ---- Plain text ----

function textBlock(block: Block): string {
  const out = [block.heading, "=".repeat(Math.min(block.heading.length, 60)), ...block.lines];
  for (const section of block.sections) {
    out.push("", section.title, "-".repeat(Math.min(section.title.length, 60)), ...section.lines);
    if (section.table) {
      // The column headings first, so each value's meaning is readable without the HTML part.
      out.push(section.table.headers.join(" | "));
      for (const row of section.table.rows) {
        out.push(`- ${row.filter((cell) => cell !== "").join(" | ")}`);
      }
      if (section.table.more > 0) out.push(`... and ${section.table.more} more`);
    }
  }
  out.push(
    "",
    ...(block.links.length === 0
      ? [NO_LINKS_NOTE]
      : block.links.map((link) => `${link.label}: ${link.url}`)),
  );
  return out.join("\n");
}

function textDocument(blocks: Block[]): string {
  return `${blocks.map(textBlock).join("\n\n")}\n`;
}

/** One setting's mail. */
export function renderNotification(input: RenderInput): RenderedMail {
  const subject = subjectOf(input);
  const block = settingBlock(input);
  return { subject, html: htmlDocument(subject, [block]), text: textDocument([block]) };
}

/**
 * One mail combining several settings for one recipient: a part per setting, in the given order.
 * The subject uses the first non-empty prefix and counts the settings and failures.
 */
export function renderConsolidated(inputs: readonly RenderInput[]): RenderedMail {
  if (inputs.length === 1) return renderNotification(inputs[0]);
  const prefix = inputs.map((input) => input.setting.emailSubjectPrefix.trim()).find((p) => p) ??
    "";
  const failures = inputs.reduce(
    (sum, input) =>
      sum +
      (input.setting.includeErrorAlerts
        ? (input.data.importRuns ?? []).filter((run) => run.status === "failed").length +
          (input.data.vendorSendings ?? []).filter((sending) => sending.status !== "sent").length
        : 0),
    0,
  );
  const subject = oneLine(prefixed(
    prefix,
    `Notification summary: ${plural(inputs.length, "setting")}${
      failures > 0 ? ` – ${plural(failures, "failure")}` : ""
    }`,
  ));
  const blocks = inputs.map(settingBlock);
  return { subject, html: htmlDocument(subject, blocks), text: textDocument(blocks) };
}

// ---- Mailbox health ----

/** The fields of a mailbox (e-mail source) that its health depends on. */
export interface MailboxState {
  id: number;
  email: string;
  activeStatus: boolean;
  lastSuccessfulPoll: Instant | null;
  lastPollError: string | null;
  lastPollErrorAt: Instant | null;
  /** Polls failed in a row since the last success (0 when unknown). */
  consecutiveFailures?: number;
  /** When the mailbox was added: the start of "no successful poll yet". */
  createdAt: Instant;
}

/** When a mailbox counts as unhealthy. */
export interface MailboxHealthLimits {
  /** A last successful poll older than this is an incident. */
  maxAgeMs: number;
  /** This many failed polls in a row is an incident. */
  maxFailures: number;
}

/** An unhealthy mailbox. */
export interface MailboxProblem {
  kind: "stale" | "failing";
  /** The same for the whole incident (it ends with the next successful poll): alert once per key. */
  incidentKey: string;
  /** The last successful poll (or the mailbox's creation when none). */
  since: Date;
}

/**
 * Whether an active mailbox is unhealthy at `now`: its last successful poll (or its creation, when
 * it never had one) is older than `maxAgeMs`, or it failed `maxFailures` polls in a row.
 */
export function mailboxProblem(
  mailbox: MailboxState,
  now: Date,
  limits: MailboxHealthLimits,
): MailboxProblem | null {
  if (!mailbox.activeStatus) return null;
  const since = toDate(mailbox.lastSuccessfulPoll ?? mailbox.createdAt);
  const incidentKey = `mailbox-health:${mailbox.id}:${
    mailbox.lastSuccessfulPoll ? toDate(mailbox.lastSuccessfulPoll).toISOString() : "never"
  }`;
  if ((mailbox.consecutiveFailures ?? 0) >= limits.maxFailures) {
    return { kind: "failing", incidentKey, since };
  }
  if (now.getTime() - since.getTime() > limits.maxAgeMs) {
    return { kind: "stale", incidentKey, since };
  }
  return null;
}

/** The error alert for an unhealthy mailbox, with a link to the e-mail sources screen. */
export function renderMailboxHealthAlert(input: {
  mailbox: MailboxState;
  problem: MailboxProblem;
  now: Date;
  /** null: no link (`PUBLIC_URL` unset), the note says whom to ask. */
  publicUrl: string | null;
  timeZone: string;
  subjectPrefix?: string;
}): RenderedMail {
  const { mailbox, problem, now, timeZone } = input;
  const when = (value: Instant) => formatInZone(toDate(value), timeZone);
  const hours = Math.floor((now.getTime() - problem.since.getTime()) / 3_600_000);
  const lines = [
    mailbox.lastSuccessfulPoll
      ? `Last successful poll: ${when(mailbox.lastSuccessfulPoll)} (${timeZone}), ${
        plural(hours, "hour")
      } ago.`
      : `No successful poll since it was added on ${when(mailbox.createdAt)} (${timeZone}).`,
  ];
  if (problem.kind === "failing") {
    lines.push(`${plural(mailbox.consecutiveFailures ?? 0, "poll")} failed in a row.`);
  }
  if (mailbox.lastPollError) {
    lines.push(
      `Last error${
        mailbox.lastPollErrorAt ? ` (${when(mailbox.lastPollErrorAt)})` : ""
      }: ${mailbox.lastPollError}`,
    );
  }
  lines.push("Files sent to this mailbox are not being imported until this is fixed.");
  const title = problem.kind === "failing"
    ? `Mailbox ${mailbox.email} keeps failing`
    : `Mailbox ${mailbox.email} has not been polled successfully`;
  const block: Block = {
    heading: title,
    lines: [],
    sections: [{ title: "Error alert", tone: "bad", lines }],
    links: input.publicUrl
      ? [{
        label: "Open the e-mail source",
        url: appLink(input.publicUrl, `/email-sources/edit/${mailbox.id}`),
      }]
      : [],
  };
  const subject = oneLine(prefixed(input.subjectPrefix ?? "", title));
  return { subject, html: htmlDocument(subject, [block]), text: textDocument([block]) };
}
