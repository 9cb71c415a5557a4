/**
 * Writing a file's order records inside the import run's transaction, so that a failure leaves
 * nothing behind. Every record is staged in a temporary table together with the order its key
 * finds (one statement per chunk, which also counts what the merge will do); then a few
 * set-based statements insert the new keys (tracking numbers included), update the changed
 * orders and mark the unchanged ones as seen. No statement runs per row.
 */
import type { Db } from "../../db/client.ts";
import { snakeCase } from "../../db/names.ts";
import {
  DATE_FIELDS,
  NUMBER_FIELDS,
  ORDER_FIELDS,
  type OrderField,
} from "../../../shared/contract/order_tracking.ts";
import type { OrderRecord } from "../../../shared/order_files/rows.ts";

const CHUNK = 5000;
/**
 * The import's statements are kept prepared (`QueryOptions.prepare`): each batch planned them
 * again, and a statement on `orders` (41 indexes) costs about 1 ms to plan, more than most of them
 * take to run (docs/architecture.md, "What a batch costs"). Their texts depend only on the file's
 * columns. A plan kept while `orders` was small must not read it whole ever after (PGlite never
 * analyzes on its own: a 40,000-row import into a table of 2,000 orders took 50 s instead of 20
 * with such plans), so a kept statement reads `orders` only by its unique key, in a lateral
 * lookup planned with sequential scans off (`indexedOnly`); the statements that join the stage to
 * `orders` or `tracking_numbers` are planned each time. upsert_test.ts holds both rules.
 */
const KEPT = { prepare: true } as const;
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

/** Which columns a file feeds, in SQL terms. */
interface Plan {
  fields: readonly string[];
  columns: string[];
  hasTracking: boolean;
  /** `json_to_recordset` column list of a chunk. */
  recordType: string;
}

function planFor(fields: readonly OrderField[]): Plan {
  const valueFields = VALUE_FIELDS.filter((field) => fields.includes(field));
  const columns = valueFields.map(snakeCase);
  const recordType = [
    "row_no integer",
    "unique_key text",
    "keep text",
    "tracking text",
    ...valueFields.map((field) => `${snakeCase(field)} ${sqlType(field)}`),
  ].join(", ");
  return {
    fields: valueFields,
    columns,
    hasTracking: fields.includes("trackingNumbers"),
    recordType,
  };
}

/** The JSON text of records for `json_to_recordset` with the plan's record type. */
function chunkJson(records: OrderRecord[], plan: Plan): string {
  return JSON.stringify(records.map((record) => {
    const row: Record<string, unknown> = {
      row_no: record.row,
      unique_key: record.uniqueKey,
      keep: record.keep.length ? `,${record.keep.map(snakeCase).join(",")},` : null,
      tracking: plan.hasTracking ? (record.trackingNumbers ?? []).join("\n") : null,
    };
    for (const field of plan.fields) row[snakeCase(field)] = record.values[field as never] ?? null;
    return row;
  }));
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
  await tx.query("select pg_advisory_xact_lock(7243004, $1)", [sourceId], KEPT);
  if (!records.length) {
    return { inserted: 0, updated: 0, restored: 0, unchanged: 0, stillDeleted: 0 };
  }
  const plan = planFor(fields);
  const received = receivedAt.toISOString();
  const counts = await indexedOnly(
    tx,
    () => merge(tx, sourceId, records, plan, received),
    CREATE_STAGE,
  );
  // The update and the tracking numbers' rewrite are left out when no order changed: a batch of
  // new or unchanged orders (a file mailed again is mostly the latter) is `merge`'s statement.
  if (counts.updated + counts.restored > 0) {
    await writeChanged(tx, plan, received);
    if (plan.hasTracking) await rewriteTrackingNumbers(tx, received);
  }
  return counts;
}

/**
 * Runs `write` with sequential scans off, then as before. Two kinds of plan are made there and
 * kept: the stage's lookup of each key in `orders`, and each foreign key check of a tracking
 * number or seen mark, which looks its order up with a plan the connection caches for its
 * lifetime. Planned while `orders` was small (the first batch of a fresh database), either was a
 * sequential scan: every later one read the whole table, so each batch cost more than the one
 * before (a 200-row batch 0.2 s at first, 19 s at 40,000 orders on PGlite, which never re-plans
 * without an ANALYZE). Planned with sequential scans off, they use the unique key and the primary
 * key.
 *
 * Only around these statements: for a whole batch, the statements joining the batch's stage
 * to `orders` were planned as if every plan cost the same (a plan with a forbidden scan is
 * priced 10^10, and plans within 1 % are taken as equal): at 200,000 orders on PostgreSQL a
 * 100-row batch took 1.1–1.9 s instead of 50–100 ms. And a cost of 10^10 is past
 * `jit_above_cost`: PostgreSQL compiled each such statement (about 230 ms), so JIT is off here
 * too. Planning each check anew (`plan_cache_mode = force_custom_plan`) cost about 100 ms per
 * batch on PGlite on disk. "To default" is the session's own value: nothing sets these two for a
 * session.
 *
 * @param first statements to run before, in the same round trip (the stage's creation)
 */
async function indexedOnly<T>(tx: Db, write: () => Promise<T>, first = ""): Promise<T> {
  await tx.exec(`${first} set local enable_seqscan = off; set local jit = off;`);
  const result = await write();
  await tx.exec("set local enable_seqscan to default; set local jit to default");
  return result;
}

/**
 * Writes `records` in chunks of CHUNK, one statement at a time, building each chunk's JSON
 * while the database still works on the previous statement: the JavaScript side and the
 * database side overlap instead of taking turns.
 */
async function pipelined(
  records: OrderRecord[],
  build: (chunk: OrderRecord[]) => string,
  send: (json: string) => Promise<unknown>,
): Promise<void> {
  let previous: Promise<unknown> | undefined;
  for (let start = 0; start < records.length; start += CHUNK) {
    const json = build(records.slice(start, start + CHUNK));
    if (previous) await previous;
    const statement = send(json);
    // Handled at once, so that a failure while the next chunk is built is not an unhandled
    // rejection; awaiting it below still throws.
    statement.catch(() => {});
    previous = statement;
    // Let the driver hand the statement to the database before the next chunk is built. With
    // no next chunk (a batch of the ledger is one), the turn would only delay the statement
    // after it, by up to 4 ms when the timer is nested.
    if (start + CHUNK < records.length) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (previous) await previous;
}

/**
 * The condition on a staged row (alias `s`) whose cell for `column` could not be read
 * (`OrderRecord.keep`): the order keeps its stored value there.
 */
const keptByFile = (column: string) => `strpos(coalesce(s.keep, ''), ',${column},') > 0`;

/**
 * The stage: the records of one transaction whose orders the file changes or brings back, with
 * their orders' ids. It lives as long as the connection and is emptied at each commit: created in
 * each batch's transaction it cost 4.5 ms a batch on PGlite, and a table dropped at commit would
 * make the kept statements that read it plan again.
 */
const CREATE_STAGE = `create temp table if not exists order_stage (
    row_no integer, unique_key text, keep text, tracking text,
    ${VALUE_FIELDS.map((field) => `${snakeCase(field)} ${sqlType(field)}`).join(", ")},
    order_id bigint, was_deleted boolean, deleted_at timestamptz, changed boolean
  ) on commit delete rows;
  delete from order_stage;`;

/**
 * Looks each record's key up in `orders` (deleted orders included), and in the same kept
 * statement per chunk: inserts the new orders with their tracking numbers, marks the orders the
 * file lists unchanged as seen, stages the ones it changes or brings back (for `writeChanged`),
 * and counts each kind. Run in `indexedOnly`. The ids of new orders are drawn in the materialized
 * `fresh`, once per row and in file order, so no round trip reserves them first.
 *
 * The seen marks go to `order_seen` (migration 0035): a new version of the order would write an
 * entry in each of its indexes.
 */
async function merge(
  tx: Db,
  sourceId: number,
  records: OrderRecord[],
  plan: Plan,
  received: string,
): Promise<UpsertCounts> {
  const { columns, hasTracking } = plan;
  const list = (prefix: string) => columns.map((column) => `${prefix}${column}, `).join("");
  const differs = [
    ...columns.map((column) =>
      `(o.${column} is distinct from s.${column} and not ${keptByFile(column)})`
    ),
    ...(hasTracking ? ["o.tracking_search is distinct from s.tracking"] : []),
  ];
  const statement = `with looked as materialized (
       select s.*, o.id as found_id, o.deleted_status as found_deleted,
              o.deleted_at as found_deleted_at,
              o.id is not null and (${differs.join(" or ") || "false"}) as changed
         from json_to_recordset($1::text::json) as s(${plan.recordType})
         left join lateral (
           select ${list("")}id, deleted_status, deleted_at, tracking_search
             from orders
            where order_tracking_source_id = $2 and unique_key = s.unique_key
            limit 1) as o on true),
     fresh as materialized (
       select nextval('orders_id_seq') as id, f.*
         from (select * from looked where found_id is null order by row_no offset 0) as f),
     added as (
       insert into orders (id, order_tracking_source_id, unique_key, ${list("")}tracking_search,
                           last_updated, last_seen_at)
       select id, $2, unique_key, ${list("")}coalesce(tracking, ''), now(), $3::timestamptz
         from fresh),
     numbers as (
       insert into tracking_numbers (order_id, tracking_number)
       select fresh.id, t.number
         from fresh cross join lateral unnest(string_to_array(fresh.tracking, E'\\n')) as t(number)
        where fresh.tracking <> ''),
     staged as (
       insert into order_stage (row_no, unique_key, keep, tracking, ${list("")}order_id,
                                was_deleted, deleted_at, changed)
       select row_no, unique_key, keep, tracking, ${list("")}found_id, found_deleted,
              found_deleted_at, changed
         from looked where changed or found_deleted),
     seen as (
       insert into order_seen as seen (order_id, seen_at)
       select found_id, $3::timestamptz from looked
        where found_id is not null and not changed and not found_deleted
       on conflict (order_id) do update set seen_at = excluded.seen_at
        where seen.seen_at < excluded.seen_at)
     select count(*) filter (where found_id is null)::int as inserted,
            count(*) filter (where changed and not found_deleted)::int as updated,
            count(*) filter (where found_deleted and found_deleted_at < $3::timestamptz)::int
              as restored,
            count(*) filter (where found_id is not null and not changed and not found_deleted)::int
              as unchanged,
            count(*) filter (where found_deleted and found_deleted_at >= $3::timestamptz)::int
              as "stillDeleted"
       from looked`;
  const counts = { inserted: 0, updated: 0, restored: 0, unchanged: 0, stillDeleted: 0 };
  await pipelined(records, (chunk) => chunkJson(chunk, plan), async (json) => {
    const [chunkCounts] = await tx.query<UpsertCounts>(
      statement,
      [json, sourceId, received],
      KEPT,
    );
    for (const key of Object.keys(counts) as (keyof UpsertCounts)[]) {
      counts[key] += chunkCounts[key];
    }
  });
  return counts;
}

/** Writes the staged orders that changed, and deleted ones the file brings back. */
async function writeChanged(tx: Db, plan: Plan, received: string): Promise<void> {
  const { columns, hasTracking } = plan;
  const updates = [
    ...columns.map((column) =>
      `${column} = case when ${keptByFile(column)} then o.${column} else s.${column} end`
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
}

/** Makes each written order's tracking numbers the file's, keeping the ids of the ones kept. */
async function rewriteTrackingNumbers(tx: Db, received: string): Promise<void> {
  const rewritten = `(s.changed or s.was_deleted)
                     and (not s.was_deleted or s.deleted_at < $1::timestamptz)`;
  await tx.query(
    `delete from tracking_numbers t using order_stage s
      where t.order_id = s.order_id and ${rewritten}
        and not (t.tracking_number = any(string_to_array(s.tracking, E'\\n')))`,
    [received],
  );
  await indexedOnly(tx, () =>
    tx.query(
      `insert into tracking_numbers (order_id, tracking_number)
     select s.order_id, t.number
       from order_stage s
       cross join lateral unnest(string_to_array(s.tracking, E'\\n')) with ordinality
         as t(number, position)
      where ${rewritten} and s.tracking <> ''
      order by s.order_id, t.position
     on conflict (order_id, md5(tracking_number)) do nothing`,
      [received],
      KEPT,
    ));
}
