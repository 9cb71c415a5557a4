/**
 * Reading and writing order submission sources and vendor sources (with their aliases, template
 * and field mapping). Column names are the contract's field names in snake_case.
 */
import {
  MAP_FIELDS,
  type OrderSubmissionSource,
  type OrderSubmissionSourceValues,
  type OrderVendorSource,
  type OrderVendorSourceListEntry,
  type OrderVendorSourceValues,
  type PickerPair,
  type TemplateFile,
  VENDOR_NAME_CONSTRAINT,
  type VendorAlias,
} from "../../shared/contract/order_submission.ts";
import { decodeBase64, encodeBase64 } from "../../shared/base64.ts";
import { sha256Hex } from "../../shared/sha256.ts";
import { SubmissionError, validateVendorTemplate } from "../../shared/submission/mod.ts";
import { type Db, isUniqueViolation } from "../db/client.ts";
import { snakeCase } from "../db/names.ts";
import { badRequest, conflict, notFound } from "../http/errors.ts";

// ---------------------------------------------------------------------------------------------
// Order submission sources

/** The source's stored fields, in the contract's order (id, activeStatus, deletedStatus aside). */
const SOURCE_FIELDS = [
  "sourceName",
  "emailSourceId",
  "fileType",
  "fromEmail",
  "subjectValue",
  "containsNotExact",
  "expectedAttachmentCount",
  "expectedNumberOfBatchEmails",
  "attachmentName",
  "noAttachmentsNeedsLinkClick",
  "ordersAreAllQuantityOne",
  "linkClickPreceededByText",
  "linkClickAlwaysContainsText",
  "downloadSpreadsheet",
  "downloadPdf",
  "spreadsheetDownloadButtonText",
  "pdfDownloadButtonText",
  "spreadsheetType",
  "spreadsheetDownloadName",
  "pdfDownloadName",
  "activeStatus",
] as const satisfies readonly (keyof OrderSubmissionSourceValues)[];

const sourceSelect = `select s.id, ${
  SOURCE_FIELDS.map((f) => `s.${snakeCase(f)} as "${f}"`).join(", ")
}, s.deleted_status as "deletedStatus" from order_submission_sources s`;

/** The live order submission sources (active or not), by name. */
export async function listSubmissionSources(db: Db): Promise<OrderSubmissionSource[]> {
  return await db.query<OrderSubmissionSource>(
    `${sourceSelect} where not s.deleted_status order by lower(s.source_name), s.id`,
  );
}

/** One live order submission source, or null. */
export async function findSubmissionSource(
  db: Db,
  id: number,
): Promise<OrderSubmissionSource | null> {
  const [row] = await db.query<OrderSubmissionSource>(
    `${sourceSelect} where s.id = $1 and not s.deleted_status`,
    [id],
  );
  return row ?? null;
}

/** Picker pairs of the live sources (item1 name, item2 id), for the vendor screen. */
export async function submissionSourcePicker(db: Db): Promise<PickerPair[]> {
  return await db.query<PickerPair>(
    `select source_name as item1, id as item2 from order_submission_sources
      where not deleted_status order by lower(source_name), id`,
  );
}

/** 400 naming `field` unless `id` is a live e-mail source. */
async function checkEmailSource(db: Db, id: number, field: string): Promise<void> {
  const rows = await db.query(
    "select 1 from email_sources where id = $1 and deleted_at is null",
    [id],
  );
  if (rows.length === 0) {
    const message = `E-mail source ${id} does not exist.`;
    throw badRequest(`Invalid request. ${field}: ${message}`, { [field]: [message] });
  }
}

/**
 * Creates (id 0) or updates an order submission source. `deletedStatus` true soft-deletes it.
 *
 * @throws 400 naming `emailSourceId` when that e-mail source does not exist; 404 when updating a
 *   source that does not exist or is deleted
 */
export async function saveSubmissionSource(
  db: Db,
  input: OrderSubmissionSourceValues,
): Promise<OrderSubmissionSource> {
  return await db.transaction(async (tx) => {
    await checkEmailSource(tx, input.emailSourceId, "emailSourceId");
    const values = [...SOURCE_FIELDS.map((f) => input[f]), input.deletedStatus];
    const columns = [...SOURCE_FIELDS.map(snakeCase), "deleted_status"];
    let id = input.id;
    if (id === 0) {
      const [row] = await tx.query<{ id: number }>(
        `insert into order_submission_sources (${columns.join(", ")}, deleted_at)
         values (${columns.map((_, i) => `$${i + 1}`).join(", ")},
                 case when $${columns.length}::boolean then now() end)
         returning id`,
        values,
      );
      id = row.id;
    } else {
      const rows = await tx.query(
        `update order_submission_sources
            set ${columns.map((c, i) => `${c} = $${i + 1}`).join(", ")},
                deleted_at = case when $${columns.length}::boolean then now() end,
                updated_at = now()
          where id = $${columns.length + 1} and not deleted_status returning id`,
        [...values, id],
      );
      if (rows.length === 0) throw notFound(`Order submission source ${id}`);
    }
    const [saved] = await tx.query<OrderSubmissionSource>(`${sourceSelect} where s.id = $1`, [id]);
    return saved;
  });
}

/**
 * Soft-deletes an order submission source (its vendors stay, pointing at it).
 *
 * @returns false when no live source has that id
 */
export async function deleteSubmissionSource(db: Db, id: number): Promise<boolean> {
  const rows = await db.query(
    `update order_submission_sources
        set deleted_status = true, active_status = false, deleted_at = now(), updated_at = now()
      where id = $1 and not deleted_status returning id`,
    [id],
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Vendor sources

/** The vendor's own columns (contract field → column), id and statuses aside. */
const VENDOR_COLUMNS: [keyof OrderVendorSourceValues, string][] = [
  ["orderSubmissionSourceId", "order_submission_source_id"],
  ["vendorNameFromFile", "vendor_name_from_file"],
  ["vendorProvidedAccountNumber", "vendor_provided_account_number"],
  ["sendFromEmailSourceModelId", "send_from_email_source_id"],
  ["submitEmails", "submit_emails"],
  ["submitCcEmails", "submit_cc_emails"],
  ["submitBccEmails", "submit_bcc_emails"],
  ["submitEmailSubjectLine", "submit_email_subject_line"],
  ["submitEmailBodyText", "submit_email_body_text"],
  ["vendorWantsTrimmedItemDescription", "vendor_wants_trimmed_item_description"],
  ["vendorRegexForItemDescription", "vendor_regex_for_item_description"],
  ["vendorWantsNonDailySubmission", "vendor_wants_non_daily_submission"],
  ["vendorWantsAllAlignedLeft", "vendor_wants_all_aligned_left"],
  ["vendorCustomSubmitEveryXDay", "vendor_custom_submit_every_x_day"],
  ["vendorWantsPDF", "vendor_wants_pdf"],
  ["vendorWantsSpreadsheet", "vendor_wants_spreadsheet"],
  ["vendorWantsForwardedEmail", "vendor_wants_forwarded_email"],
  ["vendorWantsAllData", "vendor_wants_all_data"],
  ["submitFileHeaderRowIndex", "submit_file_header_row_index"],
  ["activeStatus", "active_status"],
  ["deletedStatus", "deleted_status"],
];

/** The mapping table's columns: every `mapX` and the five static data pairs. */
const MAPPING_FIELDS = [
  ...MAP_FIELDS,
  ...[1, 2, 3, 4, 5].flatMap((n) => [`staticFileData${n}`, `mapStaticFileData${n}`]),
] as (keyof OrderVendorSourceValues)[];

const vendorSelect = `
  select v.id, ${VENDOR_COLUMNS.map(([f, c]) => `v.${c} as "${f}"`).join(", ")},
         ${MAPPING_FIELDS.map((f) => `coalesce(m.${snakeCase(f)}, '') as "${f}"`).join(", ")},
         coalesce(t.file_name, '') as "submitFileTemplateFileName",
         t.vendor_source_id is not null as "hasTemplate",
         coalesce(s.source_name, '') as "orderSubmissionSourceName"
    from vendor_sources v
    left join vendor_field_mappings m on m.vendor_source_id = v.id
    left join vendor_templates t on t.vendor_source_id = v.id
    left join order_submission_sources s on s.id = v.order_submission_source_id`;

type VendorRow = Omit<OrderVendorSourceListEntry, "vendorSourceAliases" | "submitFileTemplate">;

const aliasSelect = `
  select id, vendor_source_id as "parentVendorSourceId",
         vendor_alias_name_from_file as "vendorAliasNameFromFile",
         vendor_provided_account_number as "vendorProvidedAccountNumber",
         active_status as "activeStatus", deleted_status as "deletedStatus"
    from vendor_aliases`;

/** The live aliases of `vendorIds`, grouped by vendor, in the order they were added. */
async function aliasesOf(db: Db, vendorIds: number[]): Promise<Map<number, VendorAlias[]>> {
  const byVendor = new Map<number, VendorAlias[]>(vendorIds.map((id) => [id, []]));
  if (vendorIds.length === 0) return byVendor;
  const rows = await db.query<VendorAlias>(
    `${aliasSelect} where vendor_source_id = any($1::int[]) and not deleted_status order by id`,
    [vendorIds],
  );
  for (const row of rows) byVendor.get(row.parentVendorSourceId)?.push(row);
  return byVendor;
}

/** The live vendors (active or not) with their aliases, by vendor name; no template bytes. */
export async function listVendors(db: Db): Promise<OrderVendorSourceListEntry[]> {
  const rows = await db.query<VendorRow>(
    `${vendorSelect} where not v.deleted_status order by lower(v.vendor_name_from_file), v.id`,
  );
  const aliases = await aliasesOf(db, rows.map((r) => r.id));
  return rows.map((row) => ({
    ...row,
    submitFileTemplate: "",
    vendorSourceAliases: aliases.get(row.id) ?? [],
  }));
}

/** One live vendor with its aliases and its template (base64), or null. */
export async function findVendor(db: Db, id: number): Promise<OrderVendorSource | null> {
  const [row] = await db.query<VendorRow>(
    `${vendorSelect} where v.id = $1 and not v.deleted_status`,
    [id],
  );
  if (!row) return null;
  const aliases = await aliasesOf(db, [id]);
  const template = await storedTemplate(db, id);
  const { hasTemplate: _h, orderSubmissionSourceName: _n, ...vendor } = row;
  return {
    ...vendor,
    submitFileTemplate: "",
    existingTemplate: template
      ? { fileName: template.fileName, fileData: encodeBase64(template.data) }
      : null,
    vendorSourceAliases: aliases.get(id) ?? [],
  };
}

/** The vendor's stored template, or null. */
export async function storedTemplate(
  db: Db,
  vendorId: number,
): Promise<{ fileName: string; data: Uint8Array } | null> {
  const [row] = await db.query<{ fileName: string; data: Uint8Array }>(
    `select file_name as "fileName", data from vendor_templates where vendor_source_id = $1`,
    [vendorId],
  );
  return row ? { fileName: row.fileName, data: new Uint8Array(row.data) } : null;
}

/** 400 naming `field` with `message`. */
function fieldError(field: string, message: string) {
  return badRequest(`Invalid request. ${field}: ${message}`, { [field]: [message] });
}

/** The new template's bytes from the request, or null when the stored one is kept. */
function newTemplate(input: OrderVendorSourceValues): TemplateFile & { data: Uint8Array } | null {
  if (input.submitFileTemplate === "") return null;
  let data: Uint8Array;
  try {
    data = decodeBase64(input.submitFileTemplate.replace(/\s+/g, ""));
  } catch {
    throw fieldError("submitFileTemplate", "The template is not valid base64.");
  }
  if (data.length === 0) throw fieldError("submitFileTemplate", "The template file is empty.");
  return {
    fileName: input.submitFileTemplateFileName,
    fileData: input.submitFileTemplate,
    data,
  };
}

/**
 * Creates (id 0) or updates a vendor with its field mapping, its template (a new one replaces the
 * stored one; none keeps it) and its aliases (id 0 inserted, others updated, absent ones left;
 * an alias with `deletedStatus` is soft-deleted). The template, new or stored, is checked against
 * the header row index and the mapping on every save.
 *
 * @throws 400 naming the field for an unknown parent source, send-from mailbox or alias, or a
 *   template that does not fit; 404 when updating a vendor that does not exist or is deleted;
 *   409 naming `vendor_sources_vendor_name_unique` and the name when a live vendor has it
 */
export async function saveVendor(
  db: Db,
  input: OrderVendorSourceValues,
): Promise<OrderVendorSource> {
  const template = newTemplate(input);
  try {
    return await db.transaction(async (tx) => {
      const parent = await tx.query(
        "select 1 from order_submission_sources where id = $1 and not deleted_status",
        [input.orderSubmissionSourceId],
      );
      if (parent.length === 0) {
        throw fieldError(
          "orderSubmissionSourceId",
          `Order submission source ${input.orderSubmissionSourceId} does not exist.`,
        );
      }
      await checkEmailSource(tx, input.sendFromEmailSourceModelId, "sendFromEmailSourceModelId");
      let id = input.id;
      const checked = template ?? (id === 0 ? null : await storedTemplate(tx, id));
      if (checked) {
        try {
          await validateVendorTemplate(checked.data, checked.fileName, input);
        } catch (error) {
          if (error instanceof SubmissionError) {
            throw fieldError(
              template ? "submitFileTemplate" : "submitFileHeaderRowIndex",
              error.message,
            );
          }
          throw error;
        }
      }
      const values = VENDOR_COLUMNS.map(([f]) => input[f]);
      const deletedParam = VENDOR_COLUMNS.length; // deleted_status is the last column
      if (id === 0) {
        const [row] = await tx.query<{ id: number }>(
          `insert into vendor_sources (${VENDOR_COLUMNS.map(([, c]) => c).join(", ")}, deleted_at)
           values (${VENDOR_COLUMNS.map((_, i) => `$${i + 1}`).join(", ")},
                   case when $${deletedParam}::boolean then now() end)
           returning id`,
          values,
        );
        id = row.id;
      } else {
        const rows = await tx.query(
          `update vendor_sources
              set ${VENDOR_COLUMNS.map(([, c], i) => `${c} = $${i + 1}`).join(", ")},
                  deleted_at = case when $${deletedParam}::boolean then now() end,
                  updated_at = now()
            where id = $${VENDOR_COLUMNS.length + 1} and not deleted_status returning id`,
          [...values, id],
        );
        if (rows.length === 0) throw notFound(`Vendor source ${id}`);
      }
      const mapColumns = MAPPING_FIELDS.map(snakeCase);
      await tx.query(
        `insert into vendor_field_mappings (vendor_source_id, ${mapColumns.join(", ")})
         values ($1, ${mapColumns.map((_, i) => `$${i + 2}`).join(", ")})
         on conflict (vendor_source_id) do update
           set ${mapColumns.map((c) => `${c} = excluded.${c}`).join(", ")}`,
        [id, ...MAPPING_FIELDS.map((f) => input[f] ?? "")],
      );
      if (template) {
        await tx.query(
          `insert into vendor_templates (vendor_source_id, file_name, data, sha256)
           values ($1, $2, $3, $4)
           on conflict (vendor_source_id) do update
             set file_name = excluded.file_name, data = excluded.data, sha256 = excluded.sha256,
                 updated_at = now()`,
          [id, template.fileName, template.data, await sha256Hex(template.data)],
        );
      }
      await saveAliases(tx, id, input.vendorSourceAliases);
      const saved = await tx.query<VendorRow>(`${vendorSelect} where v.id = $1`, [id]);
      const aliases = await aliasesOf(tx, [id]);
      const stored = await storedTemplate(tx, id);
      const { hasTemplate: _h, orderSubmissionSourceName: _n, ...vendor } = saved[0];
      return {
        ...vendor,
        submitFileTemplate: "",
        existingTemplate: stored
          ? { fileName: stored.fileName, fileData: encodeBase64(stored.data) }
          : null,
        vendorSourceAliases: aliases.get(id) ?? [],
      } satisfies OrderVendorSource;
    });
  } catch (error) {
    if (
      isUniqueViolation(error) &&
      (error.constraint ?? error.constraint_name) === VENDOR_NAME_CONSTRAINT
    ) {
      // The index is on lower(name); the answer names the value as the user typed it.
      throw conflict(
        `duplicate key value violates unique constraint "${VENDOR_NAME_CONSTRAINT}". ` +
          `Key (vendor_name_from_file)=(${input.vendorNameFromFile}) already exists.`,
      );
    }
    throw error;
  }
}

/** Inserts new aliases, updates given ones (of this vendor only), leaves absent ones. */
async function saveAliases(tx: Db, vendorId: number, aliases: VendorAlias[]): Promise<void> {
  for (const [index, alias] of aliases.entries()) {
    const values = [
      alias.vendorAliasNameFromFile,
      alias.vendorProvidedAccountNumber,
      alias.activeStatus,
      alias.deletedStatus,
    ];
    if (alias.id === 0) {
      if (alias.deletedStatus) continue;
      await tx.query(
        `insert into vendor_aliases (vendor_source_id, vendor_alias_name_from_file,
                                     vendor_provided_account_number, active_status, deleted_status)
         values ($1, $2, $3, $4, $5)`,
        [vendorId, ...values],
      );
    } else {
      const rows = await tx.query(
        `update vendor_aliases
            set vendor_alias_name_from_file = $1, vendor_provided_account_number = $2,
                active_status = $3, deleted_status = $4,
                deleted_at = case when $4::boolean then coalesce(deleted_at, now()) end,
                updated_at = now()
          where id = $5 and vendor_source_id = $6 returning id`,
        [...values, alias.id, vendorId],
      );
      if (rows.length === 0) {
        throw fieldError(
          `vendorSourceAliases.${index}.id`,
          `Vendor alias ${alias.id} does not belong to this vendor.`,
        );
      }
    }
  }
}

/**
 * Soft-deletes a vendor (its aliases, template and past submissions stay).
 *
 * @returns false when no live vendor has that id
 */
export async function deleteVendor(db: Db, id: number): Promise<boolean> {
  const rows = await db.query(
    `update vendor_sources
        set deleted_status = true, active_status = false, deleted_at = now(), updated_at = now()
      where id = $1 and not deleted_status returning id`,
    [id],
  );
  return rows.length > 0;
}

/**
 * Soft-deletes one vendor alias.
 *
 * @returns false when no live alias has that id
 */
export async function deleteVendorAlias(db: Db, id: number): Promise<boolean> {
  const rows = await db.query(
    `update vendor_aliases
        set deleted_status = true, active_status = false, deleted_at = now(), updated_at = now()
      where id = $1 and not deleted_status returning id`,
    [id],
  );
  return rows.length > 0;
}
