/** Reading and writing order tracking sources and their column normalisation. */
import type { Db } from "../../db/client.ts";
import {
  type ColumnNormalizationValues,
  ORDER_FIELDS,
  type OrderTrackingSource,
  type SourceSaveRequest,
} from "../../../shared/contract/order_tracking.ts";
import { invalid, notFound } from "../../db/errors.ts";
import { snakeCase } from "../../db/names.ts";

const normalizationColumns = ORDER_FIELDS.map((field) => `n.${snakeCase(field)} as "${field}"`)
  .join(", ");

const sourceSelect = `
  select s.id, s.source_name as "sourceName", s.email_source_id as "emailSourceId",
         s.file_type as "fileType", s.from_email as "fromEmail", s.subject_value as "subjectValue",
         s.contains_not_exact as "containsNotExact",
         s.expected_attachment_count as "expectedAttachmentCount",
         s.attachment_name as "attachmentName", s.columns_to_ignore as "columnsToIgnore",
         s.secondary_delimiter as "secondaryDelimiter", s.unique_column as "uniqueColumn",
         s.delete_after_days as "deleteAfterDays", s.active_status as "activeStatus",
         s.deleted_status as "deletedStatus",
         n.id as "normalizationId", ${normalizationColumns}
    from order_tracking_sources s
    left join order_tracking_column_normalizations n on n.order_tracking_source_id = s.id`;

type SourceRow = Omit<OrderTrackingSource, "columnNormalizationValues"> & {
  normalizationId: number | null;
} & Record<string, unknown>;

function toSource(row: SourceRow): OrderTrackingSource {
  const values = { id: row.normalizationId ?? 0 } as ColumnNormalizationValues;
  for (const field of ORDER_FIELDS) values[field] = (row[field] as string | null) ?? null;
  return {
    id: row.id,
    sourceName: row.sourceName,
    emailSourceId: row.emailSourceId,
    fileType: row.fileType,
    fromEmail: row.fromEmail,
    subjectValue: row.subjectValue,
    containsNotExact: row.containsNotExact,
    expectedAttachmentCount: row.expectedAttachmentCount,
    attachmentName: row.attachmentName,
    columnsToIgnore: row.columnsToIgnore,
    secondaryDelimiter: row.secondaryDelimiter,
    uniqueColumn: row.uniqueColumn,
    deleteAfterDays: row.deleteAfterDays,
    activeStatus: row.activeStatus,
    deletedStatus: row.deletedStatus,
    columnNormalizationValues: values,
  };
}

/** The sources not deleted (active or not), by name. */
export async function listSources(db: Db): Promise<OrderTrackingSource[]> {
  const rows = await db.query<SourceRow>(
    `${sourceSelect} where not s.deleted_status order by lower(s.source_name), s.id`,
    [],
    { prepare: true },
  );
  return rows.map(toSource);
}

/** One source that is not deleted, or null. */
export async function findSource(db: Db, id: number): Promise<OrderTrackingSource | null> {
  const [row] = await db.query<SourceRow>(
    `${sourceSelect} where s.id = $1 and not s.deleted_status`,
    [id],
    { prepare: true },
  );
  return row ? toSource(row) : null;
}

/**
 * The e-mail source a save names must exist and not be deleted: 400 naming the field otherwise
 * (the foreign key would answer too, less clearly). A source keeping the e-mail source it has
 * passes even when that one was deleted since, so its other fields can still be edited.
 */
async function requireEmailSource(tx: Db, id: number, emailSourceId: number): Promise<void> {
  const [row] = await tx.query<{ live: boolean; kept: boolean }>(
    `select exists (select 1 from email_sources where id = $2 and deleted_at is null) as live,
            exists (select 1 from order_tracking_sources s join email_sources e
                      on e.id = s.email_source_id
                     where s.id = $1 and s.email_source_id = $2) as kept`,
    [id, emailSourceId],
  );
  if (row.live || row.kept) return;
  const message = `E-mail source ${emailSourceId} does not exist.`;
  throw invalid(message, { emailSourceId: [message] });
}

/**
 * Creates (id 0 or absent) or updates a source and its column normalisation in one transaction.
 *
 * @throws 404 when updating a source that does not exist or is deleted
 */
export async function saveSource(db: Db, input: SourceSaveRequest): Promise<OrderTrackingSource> {
  return await db.transaction(async (tx) => {
    const values = [
      input.sourceName,
      input.emailSourceId,
      input.fileType,
      input.fromEmail,
      input.subjectValue,
      input.containsNotExact,
      input.expectedAttachmentCount,
      input.attachmentName,
      input.columnsToIgnore,
      input.secondaryDelimiter,
      input.uniqueColumn,
      input.deleteAfterDays,
      input.activeStatus,
    ];
    let id = input.id ?? 0;
    const creating = id === 0;
    await requireEmailSource(tx, id, input.emailSourceId);
    if (creating) {
      const [row] = await tx.query<{ id: number }>(
        `insert into order_tracking_sources
           (source_name, email_source_id, file_type, from_email, subject_value,
            contains_not_exact, expected_attachment_count, attachment_name, columns_to_ignore,
            secondary_delimiter, unique_column, delete_after_days, active_status)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning id`,
        values,
      );
      id = row.id;
    } else {
      const updated = await tx.query(
        `update order_tracking_sources
            set source_name = $1, email_source_id = $2, file_type = $3, from_email = $4,
                subject_value = $5, contains_not_exact = $6, expected_attachment_count = $7,
                attachment_name = $8, columns_to_ignore = $9, secondary_delimiter = $10,
                unique_column = $11, delete_after_days = $12, active_status = $13,
                updated_at = now()
          where id = $14 and not deleted_status
          returning id`,
        [...values, id],
      );
      if (updated.length === 0) throw notFound(`Order tracking source ${id}`);
    }
    // An absent normalisation keeps the stored one; a given one replaces every field.
    if (input.columnNormalizationValues || creating) {
      const normalization = input.columnNormalizationValues;
      const columns = ORDER_FIELDS.map(snakeCase);
      const params = ORDER_FIELDS.map((field) => normalization?.[field] ?? null);
      await tx.query(
        `insert into order_tracking_column_normalizations
           (order_tracking_source_id, ${columns.join(", ")})
         values ($1, ${columns.map((_, i) => `$${i + 2}`).join(", ")})
         on conflict (order_tracking_source_id) do update
           set ${columns.map((c) => `${c} = excluded.${c}`).join(", ")}`,
        [id, ...params],
      );
    }
    const saved = await findSource(tx, id);
    if (!saved) throw notFound(`Order tracking source ${id}`);
    return saved;
  });
}

/**
 * Soft-deletes a source: it stops reading mail; its orders stay searchable.
 *
 * @returns false when no live source has that id
 */
export async function deleteSource(db: Db, id: number): Promise<boolean> {
  const rows = await db.query(
    `update order_tracking_sources
        set deleted_status = true, active_status = false, updated_at = now()
      where id = $1 and not deleted_status returning id`,
    [id],
  );
  return rows.length > 0;
}
