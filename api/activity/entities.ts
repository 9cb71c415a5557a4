/**
 * The records the activity log names, and how to read one as a flat set of fields before and
 * after a request so that the changed fields can be listed (docs/activity.md). Each record is
 * read with plain SQL from its tables: the log reads other areas' tables but imports none of
 * their code (docs/conventions.md, "Layers").
 *
 * Secrets are compared, never kept: a column holding a password, a client secret or a token's
 * hash becomes "password changed". A file (bytea) becomes "file changed", without contents.
 */
import type { Db } from "../db/client.ts";
import type { ActivityChange, EntityType } from "../../shared/contract/activity.ts";

/** One field's value as read; `hidden` values are compared by content and never stored. */
interface FieldValue {
  label: string;
  value: unknown;
  hidden?: "secret" | "file";
}

/** A record as read at one moment. */
export interface Snapshot {
  name: string;
  fields: Map<string, FieldValue>;
}

/** A table whose one row (by `key`) belongs to the record; its fields are prefixed. */
interface Part {
  table: string;
  key: string;
  prefix: string;
  labelPrefix: string;
}

interface EntitySpec {
  table: string;
  /** SQL expression over the main row (alias `t`) naming the record. */
  name: string;
  parts?: Part[];
  /** Lists of child names, as one field each (a vendor's aliases). */
  lists?: { field: string; label: string; sql: string }[];
}

const SPECS: Record<EntityType, EntitySpec> = {
  "email-source": { table: "email_sources", name: "t.email" },
  "order-tracking-source": {
    table: "order_tracking_sources",
    name: "t.source_name",
    parts: [{
      table: "order_tracking_column_normalizations",
      key: "order_tracking_source_id",
      prefix: "column.",
      labelPrefix: "Column: ",
    }],
  },
  "inventory-source": {
    table: "inventory_sources",
    name: "t.source_name",
    parts: [{
      table: "inventory_file_data",
      key: "inventory_source_id",
      prefix: "file.",
      labelPrefix: "File data: ",
    }],
  },
  "order-submission-source": { table: "order_submission_sources", name: "t.source_name" },
  "vendor": {
    table: "vendor_sources",
    name: "t.vendor_name_from_file",
    parts: [
      {
        table: "vendor_field_mappings",
        key: "vendor_source_id",
        prefix: "mapping.",
        labelPrefix: "Mapping: ",
      },
      {
        table: "vendor_templates",
        key: "vendor_source_id",
        prefix: "template.",
        labelPrefix: "Template: ",
      },
    ],
    lists: [{
      field: "aliases",
      label: "Aliases",
      sql: `select vendor_alias_name_from_file as name from vendor_aliases
             where vendor_source_id = $1 and not deleted_status order by id`,
    }],
  },
  "notification-setting": { table: "notification_settings", name: "t.name" },
  "user": { table: "users", name: "t.username" },
  "access-token": { table: "access_tokens", name: "t.name" },
  "run": {
    table: "import_runs",
    name: "t.file_name",
  },
};

/** Columns that change by themselves or say nothing a reader of the log needs. */
const IGNORED = new Set([
  "id",
  "created_at",
  "updated_at",
  "created_on",
  "deleted_at",
  "deleted_status",
  "last_login",
  "last_used_at",
  "revoked_at",
  "last_notification_sent",
  "last_scheduled",
  "token_hint",
  // a token's hash never changes; its creation and revocation are the entries
  "token_hash",
  "sha256",
  "order_tracking_source_id",
  "inventory_source_id",
  "vendor_source_id",
  "user_id",
]);

/** Columns holding a secret (or a token's hash): compared, never kept. */
const SECRET = /password|secret|token_hash/;

/** Labels where the column's name does not read well. */
const LABELS: Record<string, string> = {
  active_status: "Active",
  subject_value: "Subject",
  password_enc: "Password",
  password_hash: "Password",
  sftp_password_enc: "SFTP password",
  webhook_url_secret_enc: "Webhook URL",
  webhook_secret_enc: "Webhook signing secret",
  is_admin: "Admin",
  is_msal: "Microsoft 365 (MSAL)",
  ssl: "SSL",
  email_source_id: "E-mail source",
  send_from_email_source_id: "Send-from e-mail source",
  order_submission_source_id: "Order submission source",
  source_type_id: "Source type",
  inventory_file_data: "Template file",
  data: "File",
};

const WORDS: Record<string, string> = {
  sftp: "SFTP",
  msal: "MSAL",
  pdf: "PDF",
  po: "PO",
  cc: "CC",
  bcc: "BCC",
  qty: "Qty",
  id: "ID",
  email: "e-mail",
  emails: "e-mails",
};

/**
 * The label of a column: `from_email` → "From e-mail", with the exceptions of {@link LABELS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { columnLabel } from "./entities.ts";
 * assert.equal(columnLabel("subject_value"), "Subject");
 * assert.equal(columnLabel("sftp_server_address"), "SFTP server address");
 * ```
 */
export function columnLabel(column: string): string {
  if (LABELS[column]) return LABELS[column];
  const words = column.split("_").map((word) => WORDS[word] ?? word);
  const first = words[0] ?? "";
  return [first.charAt(0).toUpperCase() + first.slice(1), ...words.slice(1)].join(" ");
}

/** Longest value kept for one field; longer ones are cut (an e-mail body, an item list). */
const MAX_VALUE_CHARS = 200;

function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string") {
    return value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value;
  }
  if (value !== null && typeof value === "object") return plain(JSON.stringify(value));
  return value ?? null;
}

function addRow(
  fields: Map<string, FieldValue>,
  row: Record<string, unknown>,
  prefix = "",
  labelPrefix = "",
): void {
  for (const [column, value] of Object.entries(row)) {
    if (IGNORED.has(column)) continue;
    const label = labelPrefix + columnLabel(column);
    if (value instanceof Uint8Array) {
      fields.set(prefix + column, { label, value, hidden: "file" });
    } else if (SECRET.test(column)) {
      fields.set(prefix + column, { label, value, hidden: "secret" });
    } else {
      fields.set(prefix + column, { label, value: plain(value) });
    }
  }
}

/**
 * Reads the record `type` `id` as fields, or null when there is no such row. The values of
 * secrets and files are held only in memory, for the comparison.
 *
 * @example
 * ```ts ignore
 * const before = await readEntity(db, "order-tracking-source", 3);
 * ```
 */
export async function readEntity(db: Db, type: EntityType, id: number): Promise<Snapshot | null> {
  const spec = SPECS[type];
  const [row] = await db.query<Record<string, unknown>>(
    `select ${spec.name} as "__name", t.* from ${spec.table} t where t.id = $1`,
    [id],
  );
  if (!row) return null;
  const { __name, ...columns } = row;
  const fields = new Map<string, FieldValue>();
  addRow(fields, columns);
  for (const part of spec.parts ?? []) {
    const [partRow] = await db.query<Record<string, unknown>>(
      `select * from ${part.table} where ${part.key} = $1`,
      [id],
    );
    if (partRow) addRow(fields, partRow, part.prefix, part.labelPrefix);
  }
  for (const list of spec.lists ?? []) {
    const rows = await db.query<{ name: string }>(list.sql, [id]);
    fields.set(list.field, { label: list.label, value: plain(rows.map((r) => r.name).join(", ")) });
  }
  return { name: String(__name ?? ""), fields };
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.length === b.length && a.every((byte, i) => byte === b[i]);
  }
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The fields that differ between two readings of a record, in column order. A secret or file
 * is listed without values; a created record lists its non-empty fields.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { diffSnapshots } from "./entities.ts";
 * const snap = (subject: string, password: string) => ({
 *   name: "Acme",
 *   fields: new Map<string, { label: string; value: unknown; hidden?: "secret" | "file" }>([
 *     ["subject_value", { label: "Subject", value: subject }],
 *     ["password_enc", { label: "Password", value: password, hidden: "secret" }],
 *   ]),
 * });
 * assert.deepEqual(diffSnapshots(snap("a", "x"), snap("b", "y")), [
 *   { field: "subject_value", label: "Subject", before: "a", after: "b" },
 *   { field: "password_enc", label: "Password", hidden: "secret" },
 * ]);
 * ```
 */
export function diffSnapshots(before: Snapshot | null, after: Snapshot | null): ActivityChange[] {
  const keys = new Set([...(before?.fields.keys() ?? []), ...(after?.fields.keys() ?? [])]);
  const changes: ActivityChange[] = [];
  for (const key of keys) {
    const old = before?.fields.get(key);
    const now = after?.fields.get(key);
    const field = now ?? old!;
    if (!before) {
      // A new record: the fields it was given (empty ones say nothing).
      if (now?.value === null || now?.value === "" || now?.value === undefined) continue;
    } else if (!after) {
      continue;
    } else if (same(old?.value, now?.value)) continue;
    if (field.hidden) {
      changes.push({ field: key, label: field.label, hidden: field.hidden });
    } else {
      changes.push({
        field: key,
        label: field.label,
        ...(before ? { before: old?.value ?? null } : {}),
        after: now?.value ?? null,
      });
    }
  }
  return changes;
}
