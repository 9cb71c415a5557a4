/**
 * Payloads of /api/order-tracking/* and /api/order-tracking-sources/*, shared by the server and
 * the web app (spec part 1, sections 3, 5 and 7).
 */
import { z } from "zod";
import { boundedString, MAX_ID, MAX_LENGTH } from "./fields.ts";
import type { OrderTrackingColumn } from "./order_columns.ts";
import {
  fieldsOfKind,
  type FileFields,
  fileFieldsOf,
  labelsOf,
  recordSchema,
  searchFieldsOf,
  uniqueChoicesOf,
} from "../catalog/catalog.ts";
import { ORDER_CATALOG } from "../catalog/orders.ts";

/** One order field fed by a file column: every list column but notes, which only people write. */
export type OrderField = FileFields<typeof ORDER_CATALOG>;
/** The order fields a source column can feed (spec section 3, columnNormalizationValues). */
export const ORDER_FIELDS: readonly OrderField[] = fileFieldsOf(ORDER_CATALOG);

/** Order fields that hold dates (ISO text in answers, `YYYY-MM-DDTHH:MM:SS`). */
export const DATE_FIELDS = fieldsOfKind(ORDER_CATALOG, "date");
/** Order fields that hold numbers. */
export const NUMBER_FIELDS = fieldsOfKind(ORDER_CATALOG, "number");
/** Field → label, for column headers and the normalisation editor. */
export const ORDER_LABELS: Record<OrderTrackingColumn, string> = labelsOf(ORDER_CATALOG);

/** The fixed choices of a source's unique column, as the spec spells them. */
export const UNIQUE_COLUMNS = uniqueChoicesOf(ORDER_CATALOG);
/** One unique column choice. */
export type UniqueColumn = typeof UNIQUE_COLUMNS[number];

/**
 * The order field a unique column choice stands for: the choices are the fields' PascalCase
 * names (`QTY` is `qty`), so they match ignoring case.
 *
 * @example
 * ```ts
 * uniqueColumnField("QTYFulfilled") // "qtyFulfilled"
 * ```
 */
export function uniqueColumnField(choice: string): OrderField | null {
  const wanted = choice.trim().toLowerCase();
  return ORDER_FIELDS.find((field) => field.toLowerCase() === wanted) ?? null;
}

/** File types a source can read. */
export const FILE_TYPES = ["csv", "xlsx", "xls", "txt"] as const;

/** Page sizes of the order list. */
export const PAGE_SIZES = [10, 25, 50, 100, 250] as const;

/** One tracking number of an order. */
export const trackingNumber = z.object({ id: z.number().int(), trackingNumber: z.string() });
export type TrackingNumber = z.infer<typeof trackingNumber>;

/** An order as the list shows it (from the order catalog): `id`, then every column in order. */
export const orderSchema = recordSchema(ORDER_CATALOG);
/** An order as the list shows it. Dates are ISO text without a zone; empty cells are null. */
export type Order = z.infer<typeof orderSchema>;

/** GET /api/order-tracking/order/{id}: the order plus its bookkeeping. */
export const orderDetail = orderSchema.extend({
  lastUpdated: z.string(),
  orderTrackingSourceId: z.number().int(),
  activeStatus: z.boolean(),
  deletedStatus: z.boolean(),
});
export type OrderDetail = z.infer<typeof orderDetail>;

/** POST /api/order-tracking/list answer. */
export const orderListResult = z.object({
  orders: z.array(orderSchema),
  /** The number of matches; with `countCapped`, a lower bound ("more than" it). */
  totalRecordCount: z.number().int(),
  /**
   * Present (true) only when there are more matches than were counted (more than 10,000, or
   * than the requested page's end): `totalRecordCount` is then "more than", not exact.
   */
  countCapped: z.literal(true).optional(),
});
export type OrderListResult = z.infer<typeof orderListResult>;

/**
 * The results a person can page through (Elasticsearch's `max_result_window`): a page whose first
 * row lies past them is refused (400, `beyondWindowMessage`) without searching, and the list's
 * pager never offers one. Every page size divides it, so the window ends on a page boundary.
 */
export const RESULT_WINDOW = 10_000;

/** The last page inside `RESULT_WINDOW` at `pageSize` rows a page (200 at 50). */
export function lastWindowPage(pageSize: number): number {
  return Math.ceil(RESULT_WINDOW / pageSize);
}

/** The 400's message for a page past the window. */
export function beyondWindowMessage(pageIndex: number): string {
  return `Page ${pageIndex.toLocaleString("en-US")} is beyond the first ${
    RESULT_WINDOW.toLocaleString("en-US")
  } results; narrow the search (add terms) to see more.`;
}

const searchTerm = boundedString(MAX_LENGTH.name, "Search terms are at most 200 characters")
  .nullish();

/** POST /api/order-tracking/list */
export const orderListRequest = z.object({
  PageSize: z.number().int().refine(
    (n) => (PAGE_SIZES as readonly number[]).includes(n),
    `Page size must be one of ${PAGE_SIZES.join(", ")}`,
  ),
  PageIndex: z.number().int().min(1, "Page index starts at 1").max(
    MAX_ID,
    "Page index is too large",
  ),
  PoNumberParam: searchTerm,
  ItemNumberParam: searchTerm,
  ShipToNameParam: searchTerm,
  SupplierNameParam: searchTerm,
  BrandNameParam: searchTerm,
  TrackingNumberParam: searchTerm,
  AndOrParam: z.boolean().nullish(),
  SortParams: z.record(boundedString(MAX_LENGTH.name), z.boolean()).nullish(),
});
export type OrderListRequest = z.infer<typeof orderListRequest>;

/** The search fields of the list, in the order the filter bar shows them. */
export const SEARCH_FIELDS = searchFieldsOf(ORDER_CATALOG);
/** One search parameter key. */
export type SearchParamKey = typeof SEARCH_FIELDS[number]["key"];

/** POST /api/order-tracking/notes */
export const noteRequest = z.object({
  orderId: z.number().int().min(1, "orderId must be a positive integer").max(
    MAX_ID,
    "orderId is out of range",
  ),
  note: boundedString(MAX_LENGTH.text, "Notes are at most 4000 characters").nullable(),
});
export type NoteRequest = z.infer<typeof noteRequest>;

/** The column names feeding each order field; null or "" means the header named like the field. */
export type ColumnNormalizationValues = { id: number } & Record<OrderField, string | null>;

/** An order tracking source as the API answers it. */
export const orderTrackingSource = z.object({
  id: z.number().int(),
  sourceName: z.string(),
  emailSourceId: z.number().int(),
  fileType: z.string(),
  fromEmail: z.string(),
  subjectValue: z.string(),
  containsNotExact: z.boolean(),
  expectedAttachmentCount: z.number().int().nullable(),
  attachmentName: z.string(),
  columnsToIgnore: z.string().nullable(),
  secondaryDelimiter: z.string().nullable(),
  uniqueColumn: z.enum(UNIQUE_COLUMNS as unknown as [UniqueColumn, ...UniqueColumn[]]),
  deleteAfterDays: z.number().int().nullable(),
  activeStatus: z.boolean(),
  deletedStatus: z.boolean(),
  columnNormalizationValues: z.object({
    id: z.number().int(),
    ...Object.fromEntries(ORDER_FIELDS.map((field) => [field, z.string().nullable()])),
  }).describe(
    "order field → the file column feeding it (null: the header named like it)",
  ) as unknown as z.ZodType<ColumnNormalizationValues>,
});
export type OrderTrackingSource = z.infer<typeof orderTrackingSource>;

/** An integer sent as a number or as text; "" and null mean none. */
const optionalInt = (label: string, min: number) =>
  z.preprocess(
    (value) => {
      if (value === "" || value === null || value === undefined) return null;
      if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return Number(value);
      return value;
    },
    z.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`).nullable(),
  );

const columnName = boundedString(MAX_LENGTH.name, "Column names are at most 200 characters").trim()
  .nullish().transform((value) => value || null);

/** The column normalisation part of a save. */
export const columnNormalizationRequest = z.object({
  id: z.number().int().min(0).max(MAX_ID).nullish(),
  ...Object.fromEntries(ORDER_FIELDS.map((field) => [field, columnName])) as Record<
    OrderField,
    typeof columnName
  >,
});

/** POST /api/order-tracking-sources/save (spec section 5's rules, enforced by the server too). */
export const sourceSaveRequest = z.object({
  id: z.number().int().min(0).max(MAX_ID).nullish(),
  sourceName: boundedString(MAX_LENGTH.name, "At most 200 characters").trim().min(1, "Required"),
  emailSourceId: z.number({ error: "Choose an e-mail source" }).int().min(
    1,
    "Choose an e-mail source",
  ).max(MAX_ID, "Choose an e-mail source"),
  fileType: boundedString(MAX_LENGTH.name).trim().transform((value) =>
    value.replace(/^\./, "").toLowerCase()
  ).pipe(
    z.enum(FILE_TYPES, { error: `File type must be one of ${FILE_TYPES.join(", ")}` }),
  ),
  fromEmail: boundedString(MAX_LENGTH.email).trim().min(1, "Required").pipe(
    z.email("Enter a valid email address"),
  ),
  subjectValue: boundedString(MAX_LENGTH.subject).trim().min(3, "Must be at least 3 characters"),
  containsNotExact: z.boolean().nullish().transform((value) => value ?? false),
  expectedAttachmentCount: optionalInt("Expected attachment count", 1),
  attachmentName: boundedString(MAX_LENGTH.subject).trim().min(1, "Required"),
  columnsToIgnore: boundedString(MAX_LENGTH.text).trim().nullish().transform((value) =>
    value || null
  ),
  secondaryDelimiter: boundedString(1, "At most 1 character").nullish()
    .transform((value) => value || null),
  uniqueColumn: boundedString(MAX_LENGTH.name).trim().min(3, "Required").transform((value, ctx) => {
    const choice = UNIQUE_COLUMNS.find((c) => c.toLowerCase() === value.toLowerCase());
    if (!choice) {
      ctx.addIssue({ code: "custom", message: `Choose one of ${UNIQUE_COLUMNS.join(", ")}` });
      return z.NEVER;
    }
    return choice;
  }),
  deleteAfterDays: optionalInt("Delete after days", 1),
  activeStatus: z.boolean().nullish().transform((value) => value ?? true),
  columnNormalizationValues: columnNormalizationRequest.nullish(),
});
export type SourceSaveRequest = z.infer<typeof sourceSaveRequest>;
