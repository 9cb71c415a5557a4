/**
 * The order tracking feed: which sources read which mailbox, and turning one delivered file
 * into orders (docs/design.md section 6, "Order tracking"). The order tracking feature
 * (`../feature.ts`) hands it to the ingest seam.
 */
import type { Db } from "../../db/client.ts";
import { snakeCase } from "../../db/names.ts";
import {
  type Feed,
  type ImportFile,
  type ImportOutcome,
  type MailRule,
} from "../../ingest/feeds.ts";
import { FEED_LIMITS, readTable } from "../../../shared/files/mod.ts";
import {
  ORDER_FIELDS,
  type OrderField,
  uniqueColumnField,
} from "../../../shared/contract/order_tracking.ts";
import { mapColumns } from "./mapping.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { ANALYZE_ORDERS_JOB, needsAnalyze } from "./statistics_job.ts";
import { readRecords } from "./rows.ts";
import { upsertOrders } from "./upsert.ts";

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
 * Imports one order file for `file.sourceId` inside `tx`. A file that cannot be read at all, or
 * has no unique column, throws (the run fails and nothing is written); bad rows become row
 * errors and the other rows are imported.
 */
export async function importOrderFile(tx: Db, file: ImportFile): Promise<ImportOutcome> {
  const source = await loadSource(tx, file.sourceId);
  if (!source) throw new Error(`Order tracking source ${file.sourceId} does not exist.`);
  const uniqueField = uniqueColumnField(source.uniqueColumn);
  if (!uniqueField) {
    throw new Error(
      `The unique column "${source.uniqueColumn}" of the source is not an order field.`,
    );
  }
  const table = await readTable(file.bytes, { name: file.fileName, limits: FEED_LIMITS });
  const log = [
    `Read "${file.fileName}"${
      table.sheet ? ` (sheet "${table.sheet}")` : ""
    }: ${table.rows.length} data rows` +
    `${table.headerRow ? `, headers on row ${table.headerRow}` : ""}.`,
  ];
  const mapping = mapColumns(table.headers, {
    normalization: source.normalization,
    columnsToIgnore: source.columnsToIgnore,
    uniqueField,
  });
  log.push(...mapping.log);
  if (mapping.fatal) throw new Error(mapping.fatal);
  const result = readRecords(table, mapping.columns, uniqueField, source.secondaryDelimiter);
  const fields = Object.keys(mapping.columns) as OrderField[];
  const counts = await upsertOrders(tx, file.sourceId, result.records, fields, file.receivedAt);
  await refreshStatistics(tx, counts.inserted + counts.updated + counts.restored);
  const rowErrors = [...table.errors, ...result.errors].sort((a, b) => a.row - b.row);
  log.push(
    `Orders: ${counts.inserted} new, ${counts.updated} updated, ${counts.restored} restored, ` +
      `${counts.unchanged} unchanged; ${result.skipped} rows skipped, ` +
      `${result.duplicates} rows repeated an earlier key.`,
  );
  if (counts.stillDeleted) {
    log.push(
      `${counts.stillDeleted} orders were deleted after this file arrived and stay deleted.`,
    );
  }
  const failed = table.rows.length > 0 && result.records.length === 0;
  if (failed) log.push("No row of the file could be imported.");
  return {
    status: failed ? "failed" : "succeeded",
    counts: {
      rows: table.rows.length,
      ...counts,
      skipped: result.skipped,
      duplicates: result.duplicates,
      rowErrors: rowErrors.length,
    },
    rowErrors,
    log,
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
} satisfies Feed;
