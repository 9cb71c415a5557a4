/**
 * Writing a file's order records inside the import run's transaction, so that a failure leaves
 * nothing behind. New keys go straight from JSON chunks into `orders` (one statement per chunk,
 * tracking numbers included); keys the source already has are staged in a temporary table and
 * merged with a few set-based statements. No statement runs per row.
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
 * The statements that read only the batch's own rows (its JSON, the stage), and the lock and the
 * settings around them, are kept prepared (`QueryOptions.prepare`): each batch planned them
 * again, and a write to `orders` (41 indexes) is dear to plan (docs/architecture.md, "What a
 * batch costs"). Their texts depend only on the file's columns (the insert's `on conflict` finds
 * a stored key through the unique index, whatever the plan). The statements that read
 * `orders` or `tracking_numbers` are planned each time: a plan kept while the table was small
 * reads it whole ever after (PGlite never analyzes on its own), and a 40,000-row import into a
 * table of 2,000 orders took 50 s instead of 20 with them kept. upsert_test.ts holds that rule.
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

/** Counts of a merge that wrote nothing, to add to. */
export const noCounts = (): UpsertCounts => ({
  inserted: 0,
  updated: 0,
  restored: 0,
  unchanged: 0,
  stillDeleted: 0,
});

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
    "order_id bigint",
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
      order_id: null,
      row_no: record.row,
      unique_key: record.uniqueKey,
      keep: record.keep.length ? `,${record.keep.map(snakeCase).join(",")},` : null,
      tracking: plan.hasTracking ? (record.trackingNumbers ?? []).join("\n") : null,
    };
    for (const field of plan.fields) row[snakeCase(field)] = record.values[field as never] ?? null;
    return row;
  }));
}

/** The keys of `records` that the source already has (deleted orders included). */
async function storedKeys(tx: Db, sourceId: number, records: OrderRecord[]): Promise<Set<string>> {
  const rows = await tx.query<{ key: string }>(
    `select unique_key as key from orders
      where order_tracking_source_id = $1 and unique_key = any($2::text[])`,
    [sourceId, records.map((record) => record.uniqueKey)],
  );
  return new Set(rows.map((row) => row.key));
}

/**
 * Merges `records` into the orders of `sourceId`: inserts new keys, updates changed orders
 * (only the fields the file has; notes never), restores deleted orders the file lists when it
 * arrived after their deletion, and marks every listed order as seen at `receivedAt`.
 *
 * @param fields the order fields the file has a column for
 * @param expectNew most of the keys are likely new (the batch before was mostly new orders):
 *   insert first. Either way gives the same result; only the cost differs.
 */
export async function upsertOrders(
  tx: Db,
  sourceId: number,
  records: OrderRecord[],
  fields: readonly OrderField[],
  receivedAt: Date,
  expectNew = false,
): Promise<UpsertCounts> {
  // One import per source at a time: two files of one source would race on the same keys.
  await tx.query("select pg_advisory_xact_lock(7243004, $1)", [sourceId], KEPT);
  if (!records.length) return noCounts();
  const plan = planFor(fields);
  const received = receivedAt.toISOString();
  // Expecting new orders, the insert goes first and reports the keys the source has; otherwise
  // those keys are looked up first and only the others inserted (no statement per batch wasted
  // on either kind of file: see `insertNew`).
  const stored = expectNew
    ? await insertNew(tx, sourceId, records, plan, received)
    : await storedKeys(tx, sourceId, records);
  const known = records.filter((record) => stored.has(record.uniqueKey));
  const counts = known.length ? await mergeKnown(tx, sourceId, known, plan, received) : noCounts();
  if (!expectNew && known.length < records.length) {
    const fresh = records.filter((record) => !stored.has(record.uniqueKey));
    await insertNew(tx, sourceId, fresh, plan, received);
  }
  counts.inserted = records.length - known.length;
  return counts;
}

/**
 * Runs `write` (statements that insert tracking numbers) with sequential scans off, then as
 * before. Each tracking number's foreign key check looks its order up with a plan the connection
 * caches for its lifetime. Planned while `orders` was small (the first batch of a fresh
 * database), it was a sequential scan: every later check read the whole table, so each batch
 * cost more than the one before (a 200-row batch 0.2 s at first, 19 s at 40,000 orders on
 * PGlite, which never re-plans without an ANALYZE). Planned with sequential scans off, the
 * check's cached plan is the primary key's.
 *
 * Only around these statements: for a whole batch, the statements joining the batch's stage
 * to `orders` were planned as if every plan cost the same (a plan with a forbidden scan is
 * priced 10^10, and plans within 1 % are taken as equal): at 200,000 orders on PostgreSQL a
 * 100-row batch took 1.1–1.9 s instead of 50–100 ms. And a cost of 10^10 is past
 * `jit_above_cost`: PostgreSQL compiled each such statement (about 230 ms), so JIT is off here
 * too. Planning each check anew (`plan_cache_mode = force_custom_plan`) cost about 100 ms per
 * batch on PGlite on disk.
 */
async function withIndexedChecks(tx: Db, write: () => Promise<unknown>): Promise<void> {
  const [was] = await tx.query<{ seqscan: string; jit: string }>(
    `select current_setting('enable_seqscan') as seqscan, current_setting('jit') as jit,
            set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`,
    [],
    KEPT,
  );
  await write();
  await tx.query(
    "select set_config('enable_seqscan', $1, true), set_config('jit', $2, true)",
    [was.seqscan, was.jit],
    KEPT,
  );
}

/**
 * Inserts the orders whose keys the source does not have, with their tracking numbers, and
 * returns the keys it has (deleted orders included), which the merge then handles. The unique
 * key's index decides (`on conflict do nothing`), so the statement reads `orders` through no
 * plan and is kept prepared. For a batch of new orders this saves the lookup of `storedKeys`, a
 * statement planned each time (1.6 ms of a 25-row batch's 11.5 on PGlite, docs/architecture.md
 * "What a batch costs"); for a batch of known orders the insert that finds them all is the
 * dearer way (`upsertOrders`'s `expectNew`). An order found has still drawn an id from the
 * sequence, which stays unused.
 */
async function insertNew(
  tx: Db,
  sourceId: number,
  records: OrderRecord[],
  plan: Plan,
  received: string,
): Promise<Set<string>> {
  const { columns } = plan;
  // The id is drawn in the materialized CTE, once per row and in file order, so one statement
  // writes an order and its tracking numbers without a round trip to reserve ids first.
  const statement = `with r as materialized (
       select nextval('orders_id_seq') as id, r.*
         from json_to_recordset($1::text::json) as r(${plan.recordType})),
     added as (
       insert into orders (id, order_tracking_source_id, unique_key, ${columns.join(", ")},
                           tracking_search, last_updated, last_seen_at)
       select id, $2, unique_key, ${columns.join(", ")}, coalesce(tracking, ''), now(),
              $3::timestamptz
         from r
       on conflict (order_tracking_source_id, unique_key) do nothing
       returning id),
     tracked as (
       insert into tracking_numbers (order_id, tracking_number)
       select r.id, t.number
         from r join added on added.id = r.id
        cross join lateral unnest(string_to_array(r.tracking, E'\\n')) as t(number)
        where r.tracking <> '')
     select r.unique_key as key from r where not exists (select from added where added.id = r.id)`;
  const stored = new Set<string>();
  await withIndexedChecks(tx, () =>
    pipelined(
      records,
      (chunk) => chunkJson(chunk, plan),
      // ::text first: postgres.js would otherwise encode the JSON text a second time.
      async (json) => {
        const rows = await tx.query<{ key: string }>(statement, [json, sourceId, received], KEPT);
        for (const row of rows) stored.add(row.key);
      },
    ));
  return stored;
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

/** Updates, restores or marks as seen the orders whose keys the source has. */
async function mergeKnown(
  tx: Db,
  sourceId: number,
  records: OrderRecord[],
  plan: Plan,
  received: string,
): Promise<UpsertCounts> {
  const { columns, hasTracking } = plan;
  // The stage lives as long as the connection and is emptied at each commit: created in each
  // batch's transaction it cost 4.5 ms a batch on PGlite, and a table dropped at commit would
  // make the kept statements that read it plan again.
  await tx.exec(
    `create temp table if not exists order_stage (
       row_no integer, unique_key text, keep text, tracking text,
       ${VALUE_FIELDS.map((field) => `${snakeCase(field)} ${sqlType(field)}`).join(", ")},
       order_id bigint, was_deleted boolean, deleted_at timestamptz, changed boolean
     ) on commit delete rows;
     delete from order_stage;`,
  );
  await pipelined(records, (chunk) => chunkJson(chunk, plan), (json) =>
    tx.query(
      `insert into order_stage (order_id, row_no, unique_key, keep, tracking,
                                ${columns.join(", ")})
       select * from json_to_recordset($1::text::json) as r(${plan.recordType})`,
      [json],
      KEPT,
    ));
  const differs = [
    ...columns.map((column) =>
      `(o.${column} is distinct from s.${column} and not ${keptByFile(column)})`
    ),
    ...(hasTracking ? ["o.tracking_search is distinct from s.tracking"] : []),
  ];
  await tx.query(
    `update order_stage s
        set order_id = o.id, was_deleted = o.deleted_status, deleted_at = o.deleted_at,
            changed = ${differs.length ? differs.join(" or ") : "false"}
       from orders o
      where o.order_tracking_source_id = $1 and o.unique_key = s.unique_key`,
    [sourceId],
  );
  const [counts] = await tx.query<UpsertCounts>(
    `select 0 as inserted,
            count(*) filter (where changed and not was_deleted)::int as updated,
            count(*) filter (where was_deleted and deleted_at < $1::timestamptz)::int as restored,
            count(*) filter (where not changed and not was_deleted)::int as unchanged,
            count(*) filter (where was_deleted and deleted_at >= $1::timestamptz)::int
              as "stillDeleted"
       from order_stage`,
    [received],
    KEPT,
  );
  // A statement with no row to write is left out: a file mailed again is mostly unchanged orders,
  // and for a batch of them the update, the tracking numbers' rewrite and their settings were
  // most of its statements (each planned, or a round trip to PGlite's worker).
  if (counts.updated + counts.restored > 0) {
    await writeChanged(tx, plan, received);
    if (hasTracking) await rewriteTrackingNumbers(tx, received);
  }
  if (counts.unchanged > 0) await markSeen(tx, received);
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

/**
 * Marks the staged orders that did not change as seen, in `order_seen` (migration 0035): a new
 * version of the order would write an entry in each of its indexes. (The foreign key's check of
 * each row needs the indexed plan as the tracking numbers' does.)
 */
async function markSeen(tx: Db, received: string): Promise<void> {
  await withIndexedChecks(tx, () =>
    tx.query(
      `insert into order_seen as seen (order_id, seen_at)
       select s.order_id, $1::timestamptz from order_stage s
        where not s.changed and not s.was_deleted
       on conflict (order_id) do update set seen_at = excluded.seen_at
        where seen.seen_at < excluded.seen_at`,
      [received],
      KEPT,
    ));
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
  await withIndexedChecks(tx, () =>
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
