/**
 * Loading what processing needs from the order submission tables (migration 0010): a source's
 * settings and mail rule, its vendors with aliases, field mapping and template.
 */
import type { Db } from "../../db/client.ts";
import { snakeCase } from "../../db/names.ts";
import type { MailRule } from "../../ingest/feeds.ts";
import { MAP_FIELDS, STATIC_FIELDS } from "../../../shared/contract/order_submission.ts";
import type { VendorForSubmission } from "../../../shared/submission/mod.ts";

/** The source fields processing uses (contract names). */
export interface SubmissionSourceSettings {
  id: number;
  sourceName: string;
  emailSourceId: number;
  fileType: string;
  attachmentName: string;
  expectedAttachmentCount: number;
  expectedNumberOfBatchEmails: number;
  noAttachmentsNeedsLinkClick: boolean;
  ordersAreAllQuantityOne: boolean;
  linkClickPreceededByText: string;
  linkClickAlwaysContainsText: string;
  downloadSpreadsheet: boolean;
  downloadPdf: boolean;
  spreadsheetDownloadButtonText: string;
  pdfDownloadButtonText: string;
  spreadsheetType: string;
  activeStatus: boolean;
}

const SOURCE_COLUMNS = `id, source_name as "sourceName", email_source_id as "emailSourceId",
  file_type as "fileType", attachment_name as "attachmentName",
  expected_attachment_count as "expectedAttachmentCount",
  expected_number_of_batch_emails as "expectedNumberOfBatchEmails",
  no_attachments_needs_link_click as "noAttachmentsNeedsLinkClick",
  orders_are_all_quantity_one as "ordersAreAllQuantityOne",
  link_click_preceeded_by_text as "linkClickPreceededByText",
  link_click_always_contains_text as "linkClickAlwaysContainsText",
  download_spreadsheet as "downloadSpreadsheet", download_pdf as "downloadPdf",
  spreadsheet_download_button_text as "spreadsheetDownloadButtonText",
  pdf_download_button_text as "pdfDownloadButtonText", spreadsheet_type as "spreadsheetType",
  active_status as "activeStatus"`;

/**
 * The mail rules of the active order submission sources reading mailbox `emailSourceId`. Every
 * rule asks for the whole message: the feed chooses the attachment (or the download link) and
 * keeps the original e-mail for forwards.
 */
export async function submissionMailRules(db: Db, emailSourceId: number): Promise<MailRule[]> {
  const rules = await db.query<MailRule>(
    `select id as "sourceId", source_name as "sourceName", email_source_id as "emailSourceId",
            from_email as "fromEmail", subject_value as "subjectValue",
            contains_not_exact as "containsNotExact", attachment_name as "attachmentName",
            file_type as "fileType", expected_attachment_count as "expectedAttachmentCount"
       from order_submission_sources
      where email_source_id = $1 and active_status and not deleted_status
      order by id`,
    [emailSourceId],
  );
  return rules.map((rule) => ({ ...rule, wholeMessage: true }));
}

/** One source's settings; null when it does not exist or was deleted. */
export async function loadSubmissionSource(
  db: Db,
  sourceId: number,
): Promise<SubmissionSourceSettings | null> {
  const [row] = await db.query<SubmissionSourceSettings>(
    `select ${SOURCE_COLUMNS} from order_submission_sources where id = $1 and not deleted_status`,
    [sourceId],
  );
  return row ?? null;
}

/** Ids of the active, non-deleted sources (for the periodic release of batches and holds). */
export async function activeSubmissionSourceIds(db: Db): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `select id from order_submission_sources where active_status and not deleted_status
      order by id`,
  );
  return rows.map((r) => r.id);
}

/** A vendor as processing uses it. */
export type ProcessingVendor = VendorForSubmission & {
  orderSubmissionSourceId: number;
  sendFromEmailSourceId: number;
  submitEmails: string;
  submitCcEmails: string;
  submitBccEmails: string;
  vendorWantsNonDailySubmission: boolean;
  vendorCustomSubmitEveryXDay: number | null;
  activeStatus: boolean;
  deletedStatus: boolean;
  vendorSourceAliases: {
    vendorAliasNameFromFile: string;
    vendorProvidedAccountNumber: string;
    activeStatus: boolean;
    deletedStatus: boolean;
  }[];
};

const mappingColumns = [
  ...MAP_FIELDS,
  ...STATIC_FIELDS.flatMap((n) => [`staticFileData${n}`, `mapStaticFileData${n}`]),
].map((field) => `coalesce(m.${snakeCase(field)}, '') as "${field}"`).join(", ");

const VENDOR_COLUMNS = `v.id, v.order_submission_source_id as "orderSubmissionSourceId",
  v.vendor_name_from_file as "vendorNameFromFile",
  v.vendor_provided_account_number as "vendorProvidedAccountNumber",
  v.send_from_email_source_id as "sendFromEmailSourceId", v.submit_emails as "submitEmails",
  v.submit_cc_emails as "submitCcEmails", v.submit_bcc_emails as "submitBccEmails",
  v.submit_email_subject_line as "submitEmailSubjectLine",
  v.submit_email_body_text as "submitEmailBodyText",
  v.vendor_wants_trimmed_item_description as "vendorWantsTrimmedItemDescription",
  v.vendor_regex_for_item_description as "vendorRegexForItemDescription",
  v.vendor_wants_non_daily_submission as "vendorWantsNonDailySubmission",
  v.vendor_wants_all_aligned_left as "vendorWantsAllAlignedLeft",
  v.vendor_custom_submit_every_x_day as "vendorCustomSubmitEveryXDay",
  v.vendor_wants_pdf as "vendorWantsPDF", v.vendor_wants_spreadsheet as "vendorWantsSpreadsheet",
  v.vendor_wants_forwarded_email as "vendorWantsForwardedEmail",
  v.vendor_wants_all_data as "vendorWantsAllData",
  v.submit_file_header_row_index as "submitFileHeaderRowIndex",
  v.active_status as "activeStatus", v.deleted_status as "deletedStatus", ${mappingColumns},
  coalesce((select jsonb_agg(jsonb_build_object(
      'vendorAliasNameFromFile', a.vendor_alias_name_from_file,
      'vendorProvidedAccountNumber', a.vendor_provided_account_number,
      'activeStatus', a.active_status, 'deletedStatus', a.deleted_status) order by a.id)
    from vendor_aliases a where a.vendor_source_id = v.id), '[]'::jsonb) as "vendorSourceAliases"`;

/** The active, non-deleted vendors of a source, with aliases and mapping, in id order. */
export async function loadVendors(db: Db, sourceId: number): Promise<ProcessingVendor[]> {
  return await db.query<ProcessingVendor>(
    `select ${VENDOR_COLUMNS} from vendor_sources v
       left join vendor_field_mappings m on m.vendor_source_id = v.id
      where v.order_submission_source_id = $1 and v.active_status and not v.deleted_status
      order by v.id`,
    [sourceId],
  );
}

/** One vendor by id (deleted or inactive included: its accumulated rows name it). */
export async function loadVendor(db: Db, vendorId: number): Promise<ProcessingVendor | null> {
  const [row] = await db.query<ProcessingVendor>(
    `select ${VENDOR_COLUMNS} from vendor_sources v
       left join vendor_field_mappings m on m.vendor_source_id = v.id where v.id = $1`,
    [vendorId],
  );
  return row ?? null;
}

/** A vendor's stored template, or null. */
export async function loadTemplate(
  db: Db,
  vendorId: number,
): Promise<{ bytes: Uint8Array; fileName: string } | null> {
  const [row] = await db.query<{ data: Uint8Array; fileName: string }>(
    `select data, file_name as "fileName" from vendor_templates where vendor_source_id = $1`,
    [vendorId],
  );
  return row ? { bytes: new Uint8Array(row.data), fileName: row.fileName } : null;
}
