/**
 * Writing a file's order records: staged in a temporary table in chunks, then merged into
 * `orders` with a few set-based statements (no statement per row), inside the import run's
 * transaction so that a failure leaves nothing behind.
 */
import type { Db } from "../../db/client.ts";
import { snakeCase } from "../../db/names.ts";
import {
  DATE_FIELDS,
  NUMBER_FIELDS,
  ORDER_FIELDS,
  type OrderField,
} from "../../../shared/contract/order_tracking.ts";
import type { OrderRecord } from "./rows.ts";

const CHUNK = 5000;
const dateFields = new Set<string>(DATE_FIELDS);
const numberFields = new Set<string>(NUMBER_FIELDS);
const VALUE_FIELDS = ORDER_FIELDS.filter((field) => field !== "trackingNumbers");

/** What the merge did. */
export interface UpsertCounts {
  inserted: number;
  updated: number;
  restored: number;
  unchanged: number;
  /** Rows matching an order deleted after the file arrived: left deleted. */
  stillDeleted: number;
}

function sqlType(field: string): string {
  if (dateFields.has(field)) return "timestamp";
  if (numberFields.has(field)) return "numeric";
  return "text";
}

/**
 * Merges `records` into the orders of `sourceId`: inserts new keys, updates changed orders
 * (only the fields the file has; notes never), restores deleted orders the file lists when it
 * arrived after their deletion, and marks every listed order as seen at `receivedAt`.
 *
 * @param fields the order fields the file has a column for
 */
export async function upsertOrders(
  tx: Db,
  sourceId: number,
  records: OrderRecord[],
  fields: readonly OrderField[],
  receivedAt: Date,
): Promise<UpsertCounts> {
  // One import per source at a time: two files of one source would race on the same keys.
  await tx.query("select pg_advisory_xact_lock(7243004, $1)", [sourceId]);
  const valueFields = VALUE_FIELDS.filter((field) => fields.includes(field));
  const hasTracking = fields.includes("trackingNumbers");
  const columns = valueFields.map(snakeCase);
  await tx.exec(
    `create temp table if not exists order_stage (
       row_no integer, unique_key text, keep text, tracking text,
       ${VALUE_FIELDS.map((field) => `${snakeCase(field)} ${sqlType(field)}`).join(", ")},
       order_id bigint, was_deleted boolean, deleted_at timestamptz, changed boolean,
       inserted boolean not null default true
     ) on commit drop;
     truncate order_stage;`,
  );
  // Every record gets a fresh id up front; records that match an order take its id instead.
  // Reserving in one query is cheaper than numbering the new rows of the stage afterwards.
  const ids = await tx.query<{ id: number }>(
    `select nextval(pg_get_serial_sequence('orders', 'id')) as id
       from generate_series(1, $1::int)`,
    [records.length],
  );
  const recordType = [
    "order_id bigint",
    "row_no integer",
    "unique_key text",
    "keep text",
    "tracking text",
    ...valueFields.map((field) => `${snakeCase(field)} ${sqlType(field)}`),
  ].join(", ");
  for (let start = 0; start < records.length; start += CHUNK) {
    const chunk = records.slice(start, start + CHUNK).map((record, i) => {
      const row: Record<string, unknown> = {
        order_id: ids[start + i].id,
        row_no: record.row,
        unique_key: record.uniqueKey,
        keep: record.keep.length ? `,${record.keep.map(snakeCase).join(",")},` : null,
        tracking: hasTracking ? (record.trackingNumbers ?? []).join("\n") : null,
      };
      for (const field of valueFields) {
        row[snakeCase(field)] = record.values[field as never] ?? null;
      }
      return row;
    });
    await tx.query(
      `insert into order_stage (order_id, row_no, unique_key, keep, tracking,
                                ${columns.join(", ")})
       -- ::text first: postgres.js would otherwise encode the JSON text a second time
       select * from json_to_recordset($1::text::json) as r(${recordType})`,
      [JSON.stringify(chunk)],
    );
  }
  const kept = (column: string) => `strpos(coalesce(s.keep, ''), ',${column},') > 0`;
  const differs = [
    ...columns.map((column) =>
      `(o.${column} is distinct from s.${column} and not ${kept(column)})`
    ),
    ...(hasTracking ? ["o.tracking_search is distinct from s.tracking"] : []),
  ];
  await tx.query(
    `update order_stage s
        set order_id = o.id, inserted = false, was_deleted = o.deleted_status,
            deleted_at = o.deleted_at,
            changed = ${differs.length ? differs.join(" or ") : "false"}
       from orders o
      where o.order_tracking_source_id = $1 and o.unique_key = s.unique_key`,
    [sourceId],
  );
  const received = receivedAt.toISOString();
  // Changed orders, and deleted ones the file brings back.
  const updates = [
    ...columns.map((column) =>
      `${column} = case when ${kept(column)} then o.${column} else s.${column} end`
    ),
    ...(hasTracking ? ["tracking_search = s.tracking"] : []),
  ];
  await tx.query(
    `update orders o
        set ${updates.length ? `${updates.join(", ")},` : ""}
            last_updated = now(), last_seen_at = greatest(o.last_seen_at, $1::timestamptz),
            deleted_status = false, active_status = true, deleted_at = null
       from order_stage s
      where o.id = s.order_id and (s.changed or s.was_deleted)
        and (not s.was_deleted or s.deleted_at < $1::timestamptz)`,
    [received],
  );
  // Unchanged orders are only marked as seen (a heap-only update: no index touched).
  await tx.query(
    `update orders o set last_seen_at = $1::timestamptz
       from order_stage s
      where o.id = s.order_id and not s.changed and not s.was_deleted
        and o.last_seen_at < $1::timestamptz`,
    [received],
  );
  await tx.query(
    `insert into orders (id, order_tracking_source_id, unique_key, ${columns.join(", ")},
                         tracking_search, last_updated, last_seen_at)
     select s.order_id, $1, s.unique_key, ${columns.map((column) => `s.${column}`).join(", ")},
            coalesce(s.tracking, ''), now(), $2::timestamptz
       from order_stage s where s.inserted`,
    [sourceId, received],
  );
  if (hasTracking) await writeTrackingNumbers(tx, received);
  const [counts] = await tx.query<UpsertCounts>(
    `select count(*) filter (where inserted)::int as inserted,
            count(*) filter (where not inserted and changed and not was_deleted)::int as updated,
            count(*) filter (where was_deleted and deleted_at < $1::timestamptz)::int as restored,
            count(*) filter (where not inserted and not changed and not was_deleted)::int
              as unchanged,
            count(*) filter (where was_deleted and deleted_at >= $1::timestamptz)::int
              as "stillDeleted"
       from order_stage`,
    [received],
  );
  return counts;
}

/** Makes each written order's tracking numbers the file's, keeping the ids of the ones kept. */
async function writeTrackingNumbers(tx: Db, received: string): Promise<void> {
  const rewritten = `not s.inserted and (s.changed or s.was_deleted)
                     and (not s.was_deleted or s.deleted_at < $1::timestamptz)`;
  await tx.query(
    `delete from tracking_numbers t using order_stage s
      where t.order_id = s.order_id and ${rewritten}
        and not (t.tracking_number = any(string_to_array(s.tracking, E'\\n')))`,
    [received],
  );
  await tx.query(
    `insert into tracking_numbers (order_id, tracking_number)
     select s.order_id, t.number
       from order_stage s
       cross join lateral unnest(string_to_array(s.tracking, E'\\n')) with ordinality
         as t(number, position)
      where ${rewritten} and s.tracking <> ''
      order by s.order_id, t.position
     on conflict (order_id, tracking_number) do nothing`,
    [received],
  );
  // New orders: numbers are unique per order already (split de-duplicates), so no conflict
  // check; the lateral unnest yields them in the file's order.
  await tx.exec(
    `insert into tracking_numbers (order_id, tracking_number)
     select s.order_id, t.number
       from order_stage s
       cross join lateral unnest(string_to_array(s.tracking, E'\\n')) as t(number)
      where s.inserted and s.tracking <> ''`,
  );
}
