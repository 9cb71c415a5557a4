/**
 * Payloads of /api/inventory-sources/* (spec part 2, sections 3, 5 and 7), shared by the server,
 * the web app and the CLI. The zod schemas are the single source of the payload types; keys are
 * matched case-insensitively by the server's validator.
 */
import { z } from "zod";
import { boundedString, dbId, MAX_LENGTH, optionalText } from "./fields.ts";

/** File types an inventory source reads (the supplier's file). */
export const INVENTORY_FILE_TYPES = ["csv", "xlsx", "xls", "txt"] as const;
/** File types a sample (template) file may have (spec section 9). */
export const SAMPLE_FILE_TYPES = ["csv", "xlsx", "xls"] as const;

/** Default share of previously active items that may turn inactive before a run is held. */
export const DEFAULT_GUARD_THRESHOLD = 0.5;

/** Status texts written into the generated file. */
export const STATUS_ACTIVE = "Active";
export const STATUS_INACTIVE = "Inactive";
export type ItemStatus = typeof STATUS_ACTIVE | typeof STATUS_INACTIVE;

/** The success text of the debug modification (spec section 8). */
export const DEBUG_SUCCESS_TEXT =
  "File has been modified with test quantities. Review changes below and download when ready.";

// ---------------------------------------------------------------------------------------------
// Reusable field shapes
// ---------------------------------------------------------------------------------------------

/** A whole number sent as a number, a numeric string, or empty ("" and null mean none). */
/** The label of the per-source SFTP interval (form and messages). */
export const SFTP_POLL_LABEL = "SFTP Check Interval (seconds)";

function optionalInt(label: string, min: number, max: number) {
  return z.preprocess(
    (value) => {
      if (value === "" || value === null || value === undefined) return null;
      if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return Number(value);
      return value;
    },
    z.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`)
      .nullable(),
  );
}

/** A decimal sent as a number, a numeric string, or empty (null). */
function optionalDecimal(label: string, min: number, max: number) {
  return z.preprocess(
    (value) => {
      if (value === "" || value === null || value === undefined) return null;
      if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
      return value;
    },
    z.number({ error: `${label} must be a number` }).min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`).nullable(),
  );
}

const flag = (fallback: boolean) => z.boolean().nullish().transform((value) => value ?? fallback);
const name = optionalText(MAX_LENGTH.name);
const text = optionalText(MAX_LENGTH.text);
const base64 = z.string().max(
  // 10 MB of bytes is 13,981,016 base64 characters; samples may be up to 50 MB (feeds' cap).
  70_000_000,
  "The file is too large",
).regex(/^[A-Za-z0-9+/=\s]*$/, "The file must be base64 text").nullish().transform((value) =>
  value ? value.replace(/\s+/g, "") : null
);

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** fileData as the server answers it inside an inventory source. */
export const inventoryFileDataSchema = z.object({
  /** Item numbers, one per line or comma separated (the seller's catalogue). */
  userActivatedItemNumbers: z.string().max(MAX_LENGTH.longText),
  /** The stored sample file's name and bytes (base64); null when none is stored. */
  inventoryFileName: boundedString(MAX_LENGTH.name).nullable(),
  inventoryFileData: z.string().nullable(),
  activeStatus: z.boolean(),
  /** 1-based row of the generated file's header; null means the sample's own header row. */
  headerRowIndex: z.number().int().nullable(),
  fileHasHeader: z.boolean(),
  /** Columns of the generated file: header name, 1-based index or column letter. */
  itemNumberColumnName: boundedString(MAX_LENGTH.name),
  itemStatusColumnName: boundedString(MAX_LENGTH.name),
  itemStatusDateColumnName: boundedString(MAX_LENGTH.name),
});
export type InventoryFileData = z.infer<typeof inventoryFileDataSchema>;

/** GET /api/inventory-sources/inventory/{id}: one source with its nested fileData. */
export const inventorySourceSchema = z.object({
  id: dbId,
  emailSourceId: dbId.nullable(),
  sourceName: boundedString(MAX_LENGTH.name),
  fileType: boundedString(MAX_LENGTH.name),
  fromEmail: boundedString(MAX_LENGTH.email),
  daysUntilNoUpdateNotification: z.number().int().nullable(),
  expectedAttachmentCount: z.number().int().nullable(),
  subjectValue: boundedString(MAX_LENGTH.text),
  containsNotExact: z.boolean(),
  attachmentName: boundedString(MAX_LENGTH.text),
  /** Supplier file columns: header name, 1-based index or column letter. */
  itemNumberColumnName: boundedString(MAX_LENGTH.name),
  qtyColumnName: boundedString(MAX_LENGTH.name),
  statusSupersedesQuantity: z.boolean(),
  /** Comma-separated status values, compared trimmed and case-insensitively. */
  statusAvailableList: boundedString(MAX_LENGTH.text),
  statusOutOfStockList: boundedString(MAX_LENGTH.text),
  itemStatusColumnName: boundedString(MAX_LENGTH.name),
  minItemsToBeActive: z.number().int().nullable(),
  fileHasHeader: z.boolean(),
  stripLeadingZeroes: z.boolean(),
  usesPredictiveAlgorithm: z.boolean(),
  lookbackDays: z.number().int().nullable(),
  minDataPoints: z.number().int().nullable(),
  safetyMultiplier: z.number().nullable(),
  safetyPadding: z.number().int().nullable(),
  largeDropThreshold: z.number().int().nullable(),
  largeDropMultiplier: z.number().nullable(),
  sftpServerAddress: boundedString(MAX_LENGTH.host),
  sftpPort: z.number().int().nullable(),
  sftpUsername: boundedString(MAX_LENGTH.name),
  /** "********" when a password is stored, "" when none: never the secret itself. */
  sftpPassword: boundedString(MAX_LENGTH.secret),
  /** Not in the spec (DESIGN.md: "when one is configured: add the field"): SFTP folder to pull supplier files from; "" = no pulling. */
  sftpInboxFolder: boundedString(MAX_LENGTH.text),
  /** Not in the spec: seconds between two looks at the inbox folder; null = the server's default. */
  sftpPollSeconds: z.number().int().nullable().optional(),
  /** Not in the spec: how the inbox folder is watched (null without an inbox folder). */
  sftpWatch: z.object({
    /** Seconds between two looks (the source's interval, else INVENTORY_SFTP_POLL_SECONDS). */
    everySeconds: z.number().int(),
    /** When the folder was last looked at, and why that look failed (null: it worked). */
    lastCheckAt: z.string().nullable(),
    lastCheckError: z.string().nullable(),
  }).nullable().optional(),
  /** Not in the spec: share (0–1) of previously active items that may turn inactive before a run is held; null = 0.5. */
  guardThreshold: z.number().nullable(),
  activeStatus: z.boolean(),
  fileData: inventoryFileDataSchema,
});
export type InventorySource = z.infer<typeof inventorySourceSchema>;

/** One entry of GET /api/inventory-sources/inventories (the list's columns and card facts). */
export const inventorySourceListEntrySchema = z.object({
  id: dbId,
  sourceName: boundedString(MAX_LENGTH.name),
  fileType: boundedString(MAX_LENGTH.name),
  fromEmail: boundedString(MAX_LENGTH.email),
  expectedAttachmentCount: z.number().int().nullable(),
  subjectValue: boundedString(MAX_LENGTH.text),
  attachmentName: boundedString(MAX_LENGTH.text),
  itemNumberColumnName: boundedString(MAX_LENGTH.name),
  qtyColumnName: boundedString(MAX_LENGTH.name),
  minItemsToBeActive: z.number().int().nullable(),
  activeStatus: z.boolean(),
});
export type InventorySourceListEntry = z.infer<typeof inventorySourceListEntrySchema>;

// ---------------------------------------------------------------------------------------------
// Save request
// ---------------------------------------------------------------------------------------------

const required = (label: string, max: number) =>
  z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`).pipe(
    boundedString(max),
  );

/** fileData of POST /api/inventory-sources/inventory/save. */
export const inventoryFileDataSave = z.object({
  userActivatedItemNumbers: z.string({ error: "User activated items are required" }).trim().min(
    1,
    "User activated items are required",
  ).pipe(boundedString(MAX_LENGTH.longText)),
  /** A newly chosen sample file: base64 without a data-URL prefix (with inventoryFileName). */
  inventoryFile: base64,
  inventoryFileName: optionalText(MAX_LENGTH.name),
  /** The previously loaded file, resent unchanged to keep it. */
  inventoryFileData: base64,
  activeStatus: flag(true),
  headerRowIndex: optionalInt("Header row index", 0, 1_048_576),
  fileHasHeader: flag(true),
  itemNumberColumnName: required("Item number column", MAX_LENGTH.name),
  itemStatusColumnName: required("Item status column", MAX_LENGTH.name),
  itemStatusDateColumnName: required("Item status date column", MAX_LENGTH.name),
});

/** POST /api/inventory-sources/inventory/save (section 5's rules, enforced by the server too). */
export const inventorySourceSave = z.object({
  id: dbId.nullish().transform((value) => value ?? 0),
  emailSourceId: z.preprocess(
    (value) => (value === "" || value === null || value === undefined ? 0 : value),
    dbId,
  ).refine((id) => id > 0, "Email source is required"),
  sourceName: required("Source name", MAX_LENGTH.name),
  fileType: required("File type", MAX_LENGTH.name).transform((value) =>
    value.replace(/^\./, "").toLowerCase()
  ).pipe(z.enum(INVENTORY_FILE_TYPES, {
    error: `File type must be one of ${INVENTORY_FILE_TYPES.join(", ")}`,
  })),
  fromEmail: required("From email", MAX_LENGTH.email),
  daysUntilNoUpdateNotification: optionalInt("Alert after (days)", 1, 3650),
  expectedAttachmentCount: optionalInt("Expected attachments", 1, 1000),
  subjectValue: required("Subject value", MAX_LENGTH.text),
  containsNotExact: flag(false),
  attachmentName: required("Attachment name", MAX_LENGTH.text),
  itemNumberColumnName: required("Item number column", MAX_LENGTH.name),
  qtyColumnName: required("Quantity column", MAX_LENGTH.name),
  statusSupersedesQuantity: flag(false),
  statusAvailableList: text,
  statusOutOfStockList: text,
  itemStatusColumnName: name,
  minItemsToBeActive: optionalInt("Min items to keep product active", 0, 1_000_000_000),
  fileHasHeader: flag(true),
  stripLeadingZeroes: flag(false),
  usesPredictiveAlgorithm: flag(false),
  lookbackDays: optionalInt("Lookback days", 1, 365),
  minDataPoints: optionalInt("Min data points", 1, 100),
  safetyMultiplier: optionalDecimal("Safety multiplier", 1, 5),
  safetyPadding: optionalInt("Safety padding", 0, 10_000),
  largeDropThreshold: optionalInt("Large drop threshold", 1, 100_000),
  largeDropMultiplier: optionalDecimal("Large drop multiplier", 1, 5),
  sftpServerAddress: optionalText(MAX_LENGTH.host),
  sftpPort: optionalInt("SFTP port", 1, 65535),
  sftpUsername: name,
  /** The placeholder keeps the stored password. */
  sftpPassword: z.string().max(MAX_LENGTH.secret).nullish().transform((value) => value ?? ""),
  sftpInboxFolder: text,
  /** Absent: the stored interval stays; null or "": the server's default (docs/inventory.md). */
  sftpPollSeconds: optionalInt(SFTP_POLL_LABEL, 5, 86_400).optional(),
  guardThreshold: optionalDecimal("Guard threshold", 0, 1),
  activeStatus: flag(true),
  fileData: inventoryFileDataSave,
}).superRefine((value, ctx) => {
  if (value.statusSupersedesQuantity && value.itemStatusColumnName === "") {
    ctx.addIssue({
      code: "custom",
      path: ["itemStatusColumnName"],
      message: "Status column is required when status supersedes quantity",
    });
  }
  if (value.id === 0 && !value.fileData.inventoryFile && !value.fileData.inventoryFileData) {
    ctx.addIssue({
      code: "custom",
      path: ["fileData", "inventoryFile"],
      message: "Sample inventory file is required for new sources",
    });
  }
});
export type InventorySourceSave = z.output<typeof inventorySourceSave>;
export type InventorySourceSaveInput = z.input<typeof inventorySourceSave>;

// ---------------------------------------------------------------------------------------------
// Manual process result
// ---------------------------------------------------------------------------------------------

/** One quantity changed by the debug modification, or an item the prediction made inactive. */
export const modificationSchema = z.object({
  /** 1-based file row (as a spreadsheet program shows it). */
  rowIndex: z.number().int(),
  itemNumber: z.string(),
  originalQuantity: z.number().nullable(),
  newQuantity: z.number().nullable(),
  reason: z.string(),
});
export type Modification = z.infer<typeof modificationSchema>;

/** Where the configured supplier columns were found (1-based; null when not found). */
export const columnInfoSchema = z.object({
  expectedItemColumn: z.string(),
  itemColumnIndex: z.number().int().nullable(),
  expectedQtyColumn: z.string(),
  qtyColumnIndex: z.number().int().nullable(),
  hasHeaders: z.boolean(),
  foundHeaders: z.array(z.string()),
});
export type ColumnInfo = z.infer<typeof columnInfoSchema>;

/** Row counts of the supplier file and the modifications made. */
export const processingSummarySchema = z.object({
  totalRows: z.number().int(),
  processedRows: z.number().int(),
  skippedRows: z.number().int(),
  activeItemsFound: z.number().int(),
  itemsModified: z.number().int(),
  modifications: z.array(modificationSchema),
});
export type ProcessingSummary = z.infer<typeof processingSummarySchema>;

/** POST manually-process and debug-modify-file answers (spec section 3). */
export const manualProcessResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  errors: z.array(z.string()),
  processedCount: z.number().int(),
  activeCount: z.number().int(),
  inactiveCount: z.number().int(),
  processingLogs: z.array(z.string()),
  fileName: z.string().nullable(),
  /** The generated (or debug-modified) file, base64. */
  fileData: z.string().nullable(),
  isDebugResult: z.boolean(),
  debugLogs: z.array(z.string()),
  modificationsCount: z.number().int(),
  columnInfo: columnInfoSchema.nullable(),
  processingSummary: processingSummarySchema.nullable(),
});
export type ManualProcessResult = z.infer<typeof manualProcessResultSchema>;

/** The multipart fields of POST manually-process besides the file ("true"/"false" as text). */
export const manualProcessFields = z.object({
  sourceId: dbId,
  sendEmailNotification: z.enum(["true", "false"]).nullish().transform((v) => v === "true"),
  submitViaSftp: z.enum(["true", "false"]).nullish().transform((v) => v === "true"),
});

/** A failed result with zero counts (what the screen builds on a failure, too). */
export function failedResult(message: string, errors: string[] = [message]): ManualProcessResult {
  return {
    success: false,
    message,
    errors,
    processedCount: 0,
    activeCount: 0,
    inactiveCount: 0,
    processingLogs: [],
    fileName: null,
    fileData: null,
    isDebugResult: false,
    debugLogs: [],
    modificationsCount: 0,
    columnInfo: null,
    processingSummary: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Edit form
// ---------------------------------------------------------------------------------------------

const formText = (max: number) => boundedString(max);
const formRequired = (message: string, max: number) =>
  z.string().trim().min(1, message).pipe(boundedString(max));
const numberText = z.string().regex(/^\s*(\d+(\.\d+)?)?\s*$/, "Enter a number");

/**
 * The edit form's values: numbers as typed text (converted to numbers or null on submit), the
 * e-mail source by name (swapped for its id on submit), section 5's messages.
 */
export const inventorySourceForm = z.object({
  id: z.number().int().min(0),
  sourceName: formRequired("Source name is required", MAX_LENGTH.name),
  emailSourceName: formRequired("Email source is required", MAX_LENGTH.name),
  fileType: formRequired("File type is required", MAX_LENGTH.name),
  fromEmail: formRequired("From email is required", MAX_LENGTH.email),
  activeStatus: z.boolean(),
  subjectValue: formRequired("Subject value is required", MAX_LENGTH.text),
  containsNotExact: z.boolean(),
  attachmentName: formRequired("Attachment name is required", MAX_LENGTH.text),
  expectedAttachmentCount: numberText,
  daysUntilNoUpdateNotification: numberText,
  sftpServerAddress: formText(MAX_LENGTH.host),
  sftpPort: numberText,
  sftpUsername: formText(MAX_LENGTH.name),
  sftpPassword: formText(MAX_LENGTH.secret),
  sftpInboxFolder: formText(MAX_LENGTH.text),
  sftpPollSeconds: numberText,
  fileHasHeader: z.boolean(),
  stripLeadingZeroes: z.boolean(),
  itemNumberColumnName: formRequired("Item number column is required", MAX_LENGTH.name),
  qtyColumnName: formRequired("Quantity column is required", MAX_LENGTH.name),
  statusSupersedesQuantity: z.boolean(),
  statusAvailableList: formText(MAX_LENGTH.text),
  statusOutOfStockList: formText(MAX_LENGTH.text),
  itemStatusColumnName: formText(MAX_LENGTH.name),
  minItemsToBeActive: numberText,
  usesPredictiveAlgorithm: z.boolean(),
  lookbackDays: numberText,
  minDataPoints: numberText,
  safetyMultiplier: numberText,
  safetyPadding: numberText,
  largeDropThreshold: numberText,
  largeDropMultiplier: numberText,
  guardThreshold: numberText,
  fileData: z.object({
    userActivatedItemNumbers: formRequired(
      "User activated items are required",
      MAX_LENGTH.longText,
    ),
    /** The chosen file (browser File) or null; checked by the refinement below. */
    inventoryFile: z.unknown().nullable(),
    inventoryFileName: z.string().nullable(),
    inventoryFileData: z.string().nullable(),
    headerRowIndex: numberText,
    fileHasHeader: z.boolean(),
    itemNumberColumnName: formRequired("Item number column is required", MAX_LENGTH.name),
    itemStatusColumnName: formRequired("Item status column is required", MAX_LENGTH.name),
    itemStatusDateColumnName: formRequired(
      "Item status date column is required",
      MAX_LENGTH.name,
    ),
  }),
}).superRefine((value, ctx) => {
  const hasStored = Boolean(value.fileData.inventoryFileData);
  if (value.id === 0 && !hasStored && value.fileData.inventoryFile == null) {
    ctx.addIssue({
      code: "custom",
      path: ["fileData", "inventoryFile"],
      message: "Sample inventory file is required for new sources",
    });
  }
});
export type InventorySourceForm = z.infer<typeof inventorySourceForm>;
