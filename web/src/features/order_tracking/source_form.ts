/**
 * The order tracking source form: its values (all text, as typed), the spec's validation rules
 * and messages (part 1, section 5), and the conversion to the save payload.
 */
import { z } from "zod";
import {
  ORDER_FIELDS,
  type OrderField,
  type OrderTrackingSource,
  UNIQUE_COLUMNS,
} from "../../../../shared/contract/order_tracking.ts";

const REQUIRED = "Required";
const atLeast3 = "Must be at least 3 characters";

/** The form's schema; numbers are text until saved. */
export const sourceFormSchema = z.object({
  sourceName: z.string().min(1, REQUIRED),
  emailSourceName: z.string().min(1, REQUIRED),
  fileType: z.string().min(3, atLeast3),
  fromEmail: z.string().min(1, REQUIRED).pipe(z.email("Enter a valid email address")),
  subjectValue: z.string().min(3, atLeast3),
  containsNotExact: z.boolean(),
  expectedAttachmentCount: z.string().min(1, REQUIRED).regex(/^\s*\d+\s*$/, "Enter a whole number"),
  attachmentName: z.string().min(1, REQUIRED),
  columnsToIgnore: z.string(),
  secondaryDelimiter: z.string().max(1, "At most 1 character"),
  uniqueColumn: z.string().min(3, "Choose a unique column").refine(
    (value) => (UNIQUE_COLUMNS as readonly string[]).includes(value),
    "Choose a unique column",
  ),
  deleteAfterDays: z.string().regex(/^\s*\d*\s*$/, "Enter a whole number"),
  activeStatus: z.boolean(),
  normalization: z.record(z.string(), z.string()),
});
/** What the form holds. */
export type SourceFormValues = z.infer<typeof sourceFormSchema>;

/** An empty form for a new source. */
export function emptySourceForm(): SourceFormValues {
  return {
    sourceName: "",
    emailSourceName: "",
    fileType: "",
    fromEmail: "",
    subjectValue: "",
    containsNotExact: false,
    expectedAttachmentCount: "",
    attachmentName: "",
    columnsToIgnore: "",
    secondaryDelimiter: "",
    uniqueColumn: "",
    deleteAfterDays: "",
    activeStatus: true,
    normalization: Object.fromEntries(ORDER_FIELDS.map((field) => [field, ""])),
  };
}

/** The form values of a stored source, its e-mail source shown by name. */
export function sourceToForm(
  source: OrderTrackingSource,
  emailSourceName: string,
): SourceFormValues {
  const normalization = Object.fromEntries(
    ORDER_FIELDS.map((field) => [field, source.columnNormalizationValues[field] ?? ""]),
  );
  return {
    sourceName: source.sourceName,
    emailSourceName,
    fileType: source.fileType,
    fromEmail: source.fromEmail,
    subjectValue: source.subjectValue,
    containsNotExact: source.containsNotExact,
    expectedAttachmentCount: source.expectedAttachmentCount?.toString() ?? "",
    attachmentName: source.attachmentName,
    columnsToIgnore: source.columnsToIgnore ?? "",
    secondaryDelimiter: source.secondaryDelimiter ?? "",
    uniqueColumn: source.uniqueColumn,
    deleteAfterDays: source.deleteAfterDays?.toString() ?? "",
    activeStatus: source.activeStatus,
    normalization,
  };
}

/** Text to an integer, or null when empty (spec: deleteAfterDays, expectedAttachmentCount). */
function toInt(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === "" ? null : Number.parseInt(trimmed, 10);
}

/** The save payload: the form plus Id, the e-mail source name replaced by its id. */
export function formToPayload(
  values: SourceFormValues,
  id: number,
  emailSourceId: number,
  normalizationId: number,
): Record<string, unknown> {
  const columnNormalizationValues: Record<string, unknown> = { id: normalizationId };
  for (const field of ORDER_FIELDS) {
    columnNormalizationValues[field] = values.normalization[field as OrderField] || null;
  }
  return {
    Id: id,
    sourceName: values.sourceName,
    emailSourceId,
    fileType: values.fileType,
    fromEmail: values.fromEmail,
    subjectValue: values.subjectValue,
    containsNotExact: values.containsNotExact,
    expectedAttachmentCount: toInt(values.expectedAttachmentCount),
    attachmentName: values.attachmentName,
    columnsToIgnore: values.columnsToIgnore,
    secondaryDelimiter: values.secondaryDelimiter,
    uniqueColumn: values.uniqueColumn,
    deleteAfterDays: toInt(values.deleteAfterDays),
    activeStatus: values.activeStatus,
    columnNormalizationValues,
  };
}

/** Labels of the order fields in the normalisation editor. */
export const FIELD_LABELS: Record<OrderField, string> = {
  accountNumber: "Account Number",
  brandName: "Brand Name",
  customerName: "Customer Name",
  customerNumber: "Customer Number",
  customerPoNumber: "Customer PO Number",
  documentNumber: "Document Number",
  estimatedArrivalDate: "Estimated Arrival Date",
  itemNumber: "Item Number",
  itemStatus: "Item Status",
  lineStatus: "Line Status",
  orderDate: "Order Date",
  poDate: "PO Date",
  qty: "Qty",
  qtyFulfilled: "Qty Fulfilled",
  shipToName: "Ship To Name",
  shippedDate: "Shipped Date",
  supplierName: "Supplier Name",
  supplierOrderStatus: "Supplier Order Status",
  trackingNumbers: "Tracking Numbers",
  wildcard1: "Wildcard 1",
  wildcard2: "Wildcard 2",
};
