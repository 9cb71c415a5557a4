/**
 * The order tracking feed: which sources read which mailbox, and turning one delivered file
 * into orders (docs/design.md section 6, "Order tracking"). The order tracking feature
 * (`../feature.ts`) hands it to the ingest seam.
 */
import type { Db } from "../../db/client.ts";
import { snakeCase } from "../../db/names.ts";
import {
  type DeliveryRule,
  type Feed,
  type ImportFile,
  type ImportOutcome,
  type MailRule,
  type PreparedImport,
} from "../../ingest/feeds.ts";
import type { Deps } from "../../deps.ts";
import { readOrderFileOffThread } from "../../ingest/file_work.ts";
import { FEED_LIMITS } from "../../../shared/files/mod.ts";
import {
  ORDER_FIELDS,
  type OrderField,
  uniqueColumnField,
} from "../../../shared/contract/order_tracking.ts";
import {
  type OrderFileRecords,
  readOrderFile,
} from "../../../shared/order_files/read_order_file.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { ANALYZE_ORDERS_JOB, needsAnalyze } from "./statistics_job.ts";
import { noCounts, type UpsertCounts, upsertOrders } from "./upsert.ts";
import { countListWrite, listWritten } from "../list_versions.ts";

/** The active sources reading mailbox `emailSourceId`. */
export async function orderTrackingMailRules(db: Db, emailSourceId: number): Promise<MailRule[]> {
  return await db.query<MailRule>(
    `select id as "sourceId", source_name as "sourceName", email_source_id as "emailSourceId",
            from_email as "fromEmail", subject_value as "subjectValue",
            contains_not_exact as "containsNotExact", attachment_name as "attachmentName",
            file_type as "fileType", expected_attachment_count as "expectedAttachmentCount"
       from order_tracking_sources
      where email_source_id = $1 and active_status and not deleted_status
      order by id`,
    [emailSourceId],
  );
}

interface ImportSource {
  sourceName: string;
  uniqueColumn: string;
  columnsToIgnore: string | null;
  secondaryDelimiter: string | null;
  normalization: Partial<Record<OrderField, string | null>>;
}

async function loadSource(db: Db, sourceId: number): Promise<ImportSource | null> {
  const [row] = await db.query<Record<string, string | null>>(
    `select s.source_name as "sourceName", s.unique_column as "uniqueColumn",
            s.columns_to_ignore as "columnsToIgnore", s.secondary_delimiter as "secondaryDelimiter",
            ${ORDER_FIELDS.map((field) => `n.${snakeCase(field)} as "${field}"`).join(", ")}
       from order_tracking_sources s
       left join order_tracking_column_normalizations n on n.order_tracking_source_id = s.id
      where s.id = $1 and not s.deleted_status`,
    [sourceId],
  );
  if (!row) return null;
  const normalization: Partial<Record<OrderField, string | null>> = {};
  for (const field of ORDER_FIELDS) normalization[field] = row[field];
  return {
    sourceName: row.sourceName!,
    uniqueColumn: row.uniqueColumn!,
    columnsToIgnore: row.columnsToIgnore,
    secondaryDelimiter: row.secondaryDelimiter,
    normalization,
  };
}

/**
 * Reads one order file for `file.sourceId` (in the file workers when `deps` has them). A file
 * that cannot be read at all, or has no unique column, throws; bad rows become row errors.
 */
async function readFileOfSource(
  db: Db,
  deps: Deps | null,
  file: ImportFile,
): Promise<OrderFileRecords> {
  const source = await loadSource(db, file.sourceId);
  if (!source) throw new Error(`Order tracking source ${file.sourceId} does not exist.`);
  const uniqueField = uniqueColumnField(source.uniqueColumn);
  if (!uniqueField) {
    throw new Error(
      `The unique column "${source.uniqueColumn}" of the source is not an order field.`,
    );
  }
  const options = { name: file.fileName, limits: FEED_LIMITS };
  const settings = {
    normalization: source.normalization,
    columnsToIgnore: source.columnsToIgnore,
    uniqueField,
    secondaryDelimiter: source.secondaryDelimiter,
  };
  // The run's bytes are a copy made for this import: they move to the worker.
  return deps
    ? await readOrderFileOffThread(deps, file.bytes, options, settings, true)
    : await readOrderFile(file.bytes, options, settings);
}

/** The run's outcome from what was read and what the writes counted. */
async function finishImport(
  tx: Db,
  read: OrderFileRecords,
  counts: UpsertCounts,
): Promise<ImportOutcome> {
  // Orders the import wrote. None when the file only lists orders again unchanged (a daily
  // open-order list, a feed polled again): those go to `order_seen`, which no list search reads.
  const written = counts.inserted + counts.updated + counts.restored;
  await refreshStatistics(tx, written);
  const [counted] = written > 0
    ? await tx.query<{ version: string }>(countListWrite("orders"))
    : [];
  const log = [...read.log];
  log.push(
    `Orders: ${counts.inserted} new, ${counts.updated} updated, ${counts.restored} restored, ` +
      `${counts.unchanged} unchanged; ${read.skipped} rows skipped, ` +
      `${read.duplicates} rows repeated an earlier key.`,
  );
  if (counts.stillDeleted) {
    log.push(
      `${counts.stillDeleted} orders were deleted after this file arrived and stay deleted.`,
    );
  }
  const failed = read.rows > 0 && read.records.length === 0;
  if (failed) log.push("No row of the file could be imported.");
  return {
    // Once the import is in, the list's remembered page starts are recounted (page_seek.ts).
    // While its batches commit, a deep page continues after the order it remembered, as keyset
    // paging does (no order twice or lost at a boundary paged with Next), and is not walked
    // again from the start for every batch. An import that wrote no order moved no page start.
    afterCommit: counted
      ? (db) => Promise.resolve(listWritten(db, "orders", Number(counted.version)))
      : undefined,
    status: failed ? "failed" : "succeeded",
    counts: {
      rows: read.rows,
      ...counts,
      skipped: read.skipped,
      duplicates: read.duplicates,
      rowErrors: read.rowErrors.length,
    },
    rowErrors: read.rowErrors,
    log,
  };
}

/**
 * Imports one order file for `file.sourceId` inside `tx`, in one transaction (the CLI and tests;
 * the server's runs use `prepareOrderImport`). A file that cannot be read at all, or has no
 * unique column, throws (the run fails and nothing is written); bad rows become row errors and
 * the other rows are imported.
 */
export async function importOrderFile(tx: Db, file: ImportFile): Promise<ImportOutcome> {
  const read = await readFileOfSource(tx, null, file);
  const counts = await upsertOrders(tx, file.sourceId, read.records, read.fields, file.receivedAt);
  return await finishImport(tx, read, counts);
}

/**
 * The batched import (docs/architecture.md, "Batched imports"): the file is read in the file
 * workers, outside any transaction, and its records are written in batches of IMPORT_BATCH_ROWS,
 * a few batches a transaction (as many as IMPORT_BATCH_MS holds), so other users' statements run
 * between them. Records have distinct keys, so batches in file order give each order what one
 * transaction gave it.
 */
export async function prepareOrderImport(
  db: Db,
  deps: Deps,
  file: ImportFile,
): Promise<PreparedImport> {
  const read = await readFileOfSource(db, deps, file);
  const size = deps.config.IMPORT_BATCH_ROWS;
  // A file is mostly new orders (a first delivery) or mostly known ones (a list mailed again):
  // each batch takes the cheaper way for what the one before found.
  let expectNew = true;
  return {
    batches: Math.ceil(read.records.length / size),
    async apply(tx, index, count) {
      const batch = read.records.slice(index * size, (index + count) * size);
      const counts = await upsertOrders(
        tx,
        file.sourceId,
        batch,
        read.fields,
        file.receivedAt,
        expectNew,
      );
      expectNew = counts.inserted * 2 >= batch.length;
      return { ...counts };
    },
    async finish(tx, counts) {
      return await finishImport(tx, read, { ...noCounts(), ...counts } as UpsertCounts);
    },
    // The batches written may have added or moved orders: their page starts go, everywhere.
    async afterPartialFailure(db) {
      const [counted] = await db.query<{ version: string }>(countListWrite("orders"));
      listWritten(db, "orders", Number(counted.version));
    },
  };
}

/**
 * After an import that changed many orders, a job refreshes their statistics
 * (`statistics_job.ts`): enqueued in the import's transaction, it runs once that commits, on the
 * next jobs tick, outside the import (ANALYZE takes seconds on PGlite).
 */
async function refreshStatistics(tx: Db, changed: number): Promise<void> {
  if (await needsAnalyze(tx, changed)) {
    await enqueueJob(tx, { kind: ANALYZE_ORDERS_JOB, dedupeKey: ANALYZE_ORDERS_JOB });
  }
}

/** The feed as the ingest seam sees it. */
export const orderTrackingFeed = {
  name: "order-tracking" as const,
  mailRules: orderTrackingMailRules,
  async emailSourceUsers(db, emailSourceId) {
    const rows = await db.query<{ sourceName: string }>(
      `select source_name as "sourceName" from order_tracking_sources
        where email_source_id = $1 and not deleted_status order by lower(source_name), id`,
      [emailSourceId],
    );
    return rows.map((r) => `order tracking source "${r.sourceName}"`);
  },
  process: (tx, _deps, file) => importOrderFile(tx, file),
  prepare: prepareOrderImport,
  // Sources that may pull their file from a URL (docs/url_feeds.md): the active ones.
  deliveries: {
    url: (db) =>
      db.query<DeliveryRule>(
        `select id as "sourceId", source_name as "sourceName" from order_tracking_sources
          where active_status and not deleted_status order by id`,
      ),
  },
} satisfies Feed;
