/**
 * Everything one vendor's e-mail needs, built from its rows: the filled template, the PDF, the
 * subject and body, the PO numbers, the row fingerprints and the outbox key. Pure: the caller
 * loads the vendor and template, records the outbox row, and sends.
 */
import type { OrderVendorSourceValues } from "../contract/order_submission.ts";
import { writeTable } from "../files/mod.ts";
import { fieldValues, type FillContext, fillVendorTemplate } from "./template_fill.ts";
import { trimDescriptions } from "./description_trim.ts";
import { renderOrderPdf } from "./order_pdf.ts";
import { vendorMailText } from "./forwarding.ts";
import { rowFingerprints, submissionKey } from "./idempotency.ts";
import { type OrderRow, poNumbers } from "./vendor_split.ts";
import { MAP_FIELDS } from "../contract/order_submission.ts";
import { INCOMING_SYNONYMS } from "./incoming_columns.ts";

/** The vendor fields used here. */
export type VendorForSubmission =
  & Pick<
    OrderVendorSourceValues,
    | "submitEmailSubjectLine"
    | "submitEmailBodyText"
    | "vendorNameFromFile"
    | "vendorWantsPDF"
    | "vendorWantsSpreadsheet"
    | "vendorWantsForwardedEmail"
  >
  & Parameters<typeof fillVendorTemplate>[2]
  & { id: number };

/** An attachment to send. */
export interface SubmissionAttachment {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** One vendor's e-mail, ready for the outbox. */
export interface VendorSubmission {
  key: string;
  vendorId: number;
  batch: string;
  poNumbers: string[];
  rowHashes: string[];
  rowNumbers: number[];
  subject: string;
  body: string;
  attachments: SubmissionAttachment[];
}

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A file name safe in a MIME header and on every file system. */
export function safeFileName(name: string): string {
  // deno-lint-ignore no-control-regex
  return name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, "_").replace(/\s+/g, " ").trim().slice(
    0,
    120,
  ) ||
    "orders";
}

/**
 * Builds one vendor's e-mail. Without a stored template (or when the vendor does not want the
 * spreadsheet) no spreadsheet is attached, except that a vendor who wants neither spreadsheet
 * nor PDF nor a forward still gets a plain XLSX of the mapped fields, so rows are never sent
 * without their data. The forward's original attachments are the caller's to add.
 */
export async function buildVendorSubmission(input: {
  vendor: VendorForSubmission;
  rows: readonly OrderRow[];
  accountNumbers?: readonly string[];
  template: { bytes: Uint8Array; fileName: string } | null;
  context: FillContext;
  batch: string;
  /** The original e-mail, for wildcards in forwards. */
  original: { subject: string; body: string };
  /** Day for file names (`YYYY-MM-DD`). */
  day: string;
}): Promise<VendorSubmission> {
  const rows = await trimDescriptions(input.rows, input.vendor);
  // The descriptions are trimmed above, in slices under a time budget; not again while filling.
  const vendor = { ...input.vendor, vendorWantsTrimmedItemDescription: false };
  const pos = poNumbers(rows);
  const rowHashes = await rowFingerprints(rows.map((r) => r.cells));
  const key = await submissionKey({
    vendorId: vendor.id,
    batch: input.batch,
    poNumbers: pos,
    rowHashes,
  });
  const base = safeFileName(`${vendor.vendorNameFromFile} orders ${input.day}`);
  const attachments: SubmissionAttachment[] = [];
  let table: { headers: string[]; rows: import("../files/mod.ts").CellValue[][] };
  if (input.template) {
    const filled = await fillVendorTemplate(
      input.template.bytes,
      input.template.fileName,
      vendor,
      rows,
      input.context,
      input.accountNumbers,
    );
    table = { headers: filled.headers, rows: filled.rows };
    if (vendor.vendorWantsSpreadsheet) {
      attachments.push({
        fileName: `${base}.${filled.format}`,
        contentType: filled.format === "xls" ? "application/vnd.ms-excel" : XLSX_TYPE,
        bytes: filled.bytes,
      });
    }
  } else {
    // No template: the recognised fields under their canonical names, plus all data if asked.
    const values = rows.map((r, i) =>
      fieldValues(r, vendor, input.context, input.accountNumbers?.[i] ?? "")
    );
    const used = MAP_FIELDS.filter((f) => values.some((v) => v[f] !== null && v[f] !== ""));
    const extra = vendor.vendorWantsAllData ? [...input.context.incomingHeaders] : [];
    table = {
      headers: [...used.map((f) => INCOMING_SYNONYMS[f][0]), ...extra],
      rows: rows.map((r, i) => [
        ...used.map((f) => values[i][f]),
        ...extra.map((_, k) => r.cells[k] ?? ""),
      ]),
    };
    if (
      vendor.vendorWantsSpreadsheet || (!vendor.vendorWantsPDF && !vendor.vendorWantsForwardedEmail)
    ) {
      attachments.push({
        fileName: `${base}.xlsx`,
        contentType: XLSX_TYPE,
        bytes: writeTable(table.headers, table.rows, "xlsx"),
      });
    }
  }
  if (vendor.vendorWantsPDF) {
    attachments.push({
      fileName: `${base}.pdf`,
      contentType: "application/pdf",
      bytes: await renderOrderPdf({
        title: `${vendor.vendorNameFromFile}: orders ${input.day}`,
        headers: table.headers,
        rows: table.rows,
        allLeft: vendor.vendorWantsAllAlignedLeft,
      }),
    });
  }
  const text = vendorMailText(
    vendor.submitEmailSubjectLine,
    vendor.submitEmailBodyText,
    vendor.vendorWantsForwardedEmail,
    { poNumbers: pos, originalSubject: input.original.subject, originalBody: input.original.body },
  );
  return {
    key,
    vendorId: vendor.id,
    batch: input.batch,
    poNumbers: pos,
    rowHashes,
    rowNumbers: rows.map((r) => r.rowNumber),
    subject: text.subject,
    body: text.body,
    attachments,
  };
}
