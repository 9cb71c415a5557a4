/**
 * Payloads of /api/order-submission/* (order submission sources, order vendor sources and their
 * aliases), shared by the server and the web app: spec part 2, sections 3, 5 and 7. Field names
 * are the spec's, odd spellings included (`linkClickPreceededByText`).
 *
 * Two kinds of schema: the save requests (what the API validates; numbers as numbers, ids as
 * ids) and the edit forms (what the screens hold: numbers as typed text, the e-mail source and
 * parent source as the selected id in text). `...FormToSave` converts one into the other.
 */
import { z } from "zod";
import { boundedString, dbId, MAX_ID, MAX_LENGTH, optionalText } from "./fields.ts";
import { MAX_REGEX_CHARS, regexError } from "../patterns/linear_regex.ts";

// ---------------------------------------------------------------------------------------------
// Building blocks

/** The one message of every required field on these screens (spec section 5). */
export const REQUIRED = "Required";
/** Message of an invalid e-mail address. */
export const INVALID_EMAIL = "Enter a valid email address";
/** Message of a list of addresses holding an invalid one. */
export const INVALID_EMAIL_LIST = "Enter valid email addresses separated by commas";
/** Message of a template that is not .xls or .xlsx. */
export const TEMPLATE_TYPE_MESSAGE = "The template must be an .xls or .xlsx file";
/** Message of a header row index below 1. */
export const HEADER_ROW_MESSAGE = "Enter the template's header row number (1 is the first row)";
/** Message of an every-X-days value out of range. */
export const EVERY_X_DAYS_MESSAGE = "Enter a number of days from 1 to 365";

// `prefault("")`: an absent field is checked as "" and so answers "Required".
const requiredName = boundedString(MAX_LENGTH.name).trim().min(1, REQUIRED).prefault("");
const requiredText = boundedString(MAX_LENGTH.text).trim().min(1, REQUIRED).prefault("");
const emailAddress = z.email(INVALID_EMAIL);

/** Splits a list of addresses (comma, semicolon or whitespace separated) into its addresses. */
export function splitEmailList(list: string): string[] {
  return list.split(/[,;\s]+/).map((a) => a.trim()).filter((a) => a !== "");
}

/** True when every address of a list is valid (an empty list is valid). */
export function isEmailList(list: string): boolean {
  return splitEmailList(list).every((a) => emailAddress.safeParse(a).success);
}

/**
 * The error of a vendor's item description regex, or null when it can be used: JavaScript
 * patterns without slashes or flags (`^[^(]+`), run on a linear-time engine (RE2 semantics), so
 * backreferences and lookaround are refused with a message saying so (docs/order_submission.md).
 */
export { regexError };

/** A whole number typed into a form: "" allowed (caught by the rule that uses it). */
const typedInteger = z.string().regex(/^\s*\d{0,10}\s*$/, "Enter a whole number");

/** A count of at least 1, as a number or a numeric string; empty or absent answers "Required". */
function countAtLeastOne() {
  return z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce.number({ message: REQUIRED }).int("Enter a whole number").min(1, "Must be at least 1")
      .max(MAX_ID, "Too large"),
  );
}

/** A required id chosen in a select: 0 or absent means none chosen. */
const requiredId = z.preprocess(
  (v) => (v === "" || v === null || v === undefined ? 0 : v),
  dbId.refine((id) => id > 0, REQUIRED),
);

/** The largest template accepted, decoded (the feeds' file cap). */
export const MAX_TEMPLATE_BYTES = 10 * 1024 * 1024;

/** Spec section 3 "existing template file": what the server holds, for download. */
export const templateFile = z.object({
  fileName: boundedString(MAX_LENGTH.name),
  /** base64 without a data-URL prefix (resent by the form, ignored by the server) */
  fileData: z.string().max(Math.ceil(MAX_TEMPLATE_BYTES / 3) * 4, "The template is too large"),
});
export type TemplateFile = z.infer<typeof templateFile>;

/** True when a template file name is a spreadsheet the vendor screen accepts (.xls, .xlsx). */
export function isTemplateFileName(name: string): boolean {
  return /\.xlsx?$/i.test(name.trim());
}

// ---------------------------------------------------------------------------------------------
// Order submission source

/** POST /api/order-submission/sources/save (spec section 3 "Order submission source"). */
export const orderSubmissionSourceSave = z.object({
  id: dbId.default(0),
  sourceName: requiredName,
  emailSourceId: requiredId,
  fileType: optionalText(MAX_LENGTH.name),
  fromEmail: boundedString(MAX_LENGTH.email).trim().min(1, REQUIRED).pipe(emailAddress)
    .prefault(""),
  subjectValue: boundedString(MAX_LENGTH.name).trim().min(3, "Enter at least 3 characters")
    .prefault(""),
  containsNotExact: z.boolean().default(false),
  expectedAttachmentCount: countAtLeastOne(),
  expectedNumberOfBatchEmails: countAtLeastOne(),
  attachmentName: optionalText(MAX_LENGTH.name),
  noAttachmentsNeedsLinkClick: z.boolean().default(false),
  ordersAreAllQuantityOne: z.boolean().default(false),
  linkClickPreceededByText: optionalText(MAX_LENGTH.text),
  linkClickAlwaysContainsText: optionalText(MAX_LENGTH.text),
  downloadSpreadsheet: z.boolean().default(false),
  downloadPdf: z.boolean().default(false),
  spreadsheetDownloadButtonText: optionalText(MAX_LENGTH.name),
  pdfDownloadButtonText: optionalText(MAX_LENGTH.name),
  spreadsheetType: optionalText(MAX_LENGTH.name),
  spreadsheetDownloadName: optionalText(MAX_LENGTH.name),
  pdfDownloadName: optionalText(MAX_LENGTH.name),
  activeStatus: z.boolean().default(true),
  deletedStatus: z.boolean().default(false),
});
export type OrderSubmissionSourceSave = z.input<typeof orderSubmissionSourceSave>;
export type OrderSubmissionSourceValues = z.output<typeof orderSubmissionSourceSave>;

/** GET /api/order-submission/sources/get/{id} and one entry of .../sources/active. */
export type OrderSubmissionSource = OrderSubmissionSourceValues;

/** POST .../sources/save answer: the saved source (with its id). */
export type OrderSubmissionSourceSaveAnswer = OrderSubmissionSource;

/** The edit form's values: counts and the e-mail source id as typed/selected text. */
export const orderSubmissionSourceForm = z.object({
  sourceName: requiredName,
  emailSourceId: z.string().trim().min(1, REQUIRED).regex(/^\d+$/, REQUIRED).refine(
    (v) => Number(v) > 0,
    REQUIRED,
  ),
  fileType: boundedString(MAX_LENGTH.name),
  fromEmail: boundedString(MAX_LENGTH.email).trim().min(1, REQUIRED).pipe(emailAddress),
  subjectValue: boundedString(MAX_LENGTH.name).trim().min(3, "Enter at least 3 characters"),
  containsNotExact: z.boolean(),
  expectedAttachmentCount: typedInteger.refine((v) => Number(v) >= 1, "Must be at least 1"),
  expectedNumberOfBatchEmails: typedInteger.refine((v) => Number(v) >= 1, "Must be at least 1"),
  attachmentName: boundedString(MAX_LENGTH.name),
  noAttachmentsNeedsLinkClick: z.boolean(),
  ordersAreAllQuantityOne: z.boolean(),
  linkClickPreceededByText: boundedString(MAX_LENGTH.text),
  linkClickAlwaysContainsText: boundedString(MAX_LENGTH.text),
  downloadSpreadsheet: z.boolean(),
  downloadPdf: z.boolean(),
  spreadsheetDownloadButtonText: boundedString(MAX_LENGTH.name),
  pdfDownloadButtonText: boundedString(MAX_LENGTH.name),
  spreadsheetType: boundedString(MAX_LENGTH.name),
  spreadsheetDownloadName: boundedString(MAX_LENGTH.name),
  pdfDownloadName: boundedString(MAX_LENGTH.name),
  activeStatus: z.boolean(),
  deletedStatus: z.boolean(),
});
export type OrderSubmissionSourceForm = z.infer<typeof orderSubmissionSourceForm>;

/** A new order submission source's form: one attachment, one e-mail per batch, active. */
export const NEW_ORDER_SUBMISSION_SOURCE_FORM: OrderSubmissionSourceForm = {
  sourceName: "",
  emailSourceId: "",
  fileType: "",
  fromEmail: "",
  subjectValue: "",
  containsNotExact: false,
  expectedAttachmentCount: "1",
  expectedNumberOfBatchEmails: "1",
  attachmentName: "",
  noAttachmentsNeedsLinkClick: false,
  ordersAreAllQuantityOne: false,
  linkClickPreceededByText: "",
  linkClickAlwaysContainsText: "",
  downloadSpreadsheet: false,
  downloadPdf: false,
  spreadsheetDownloadButtonText: "",
  pdfDownloadButtonText: "",
  spreadsheetType: "",
  spreadsheetDownloadName: "",
  pdfDownloadName: "",
  activeStatus: true,
  deletedStatus: false,
};

/** The save request of a validated form ("Id" added, typed numbers converted). */
export function orderSubmissionSourceFormToSave(
  id: number,
  form: OrderSubmissionSourceForm,
): OrderSubmissionSourceSave {
  return {
    ...form,
    id,
    emailSourceId: Number(form.emailSourceId),
    expectedAttachmentCount: Number(form.expectedAttachmentCount),
    expectedNumberOfBatchEmails: Number(form.expectedNumberOfBatchEmails),
  };
}

// ---------------------------------------------------------------------------------------------
// Field mapping

/**
 * The order fields a vendor's template can receive, in the spec's order (section 3 "Field
 * mapping"): each `mapX` of a vendor names the template column(s) receiving field X.
 */
export const MAP_FIELDS = [
  "mapBatch",
  "mapRep",
  "mapVendorAddress",
  "mapVendorPhone",
  "mapVendorFax",
  "mapPo",
  "mapOrderDate",
  "mapReqShipDate",
  "mapShipVia",
  "mapShipTo",
  "mapAddress1",
  "mapCareOf",
  "mapAttention",
  "mapAddress2",
  "mapCity",
  "mapState",
  "mapZipCode",
  "mapPhone",
  "mapEmail",
  "mapItemDescription",
  "mapUnitPrice",
  "mapQty",
  "mapProvidedAccountNumber",
  "mapTotal",
] as const;
/** One `mapX` field name. */
export type MapField = typeof MAP_FIELDS[number];

/** The five static data pairs: `staticFileDataN` is written into the columns `mapStaticFileDataN`. */
export const STATIC_FIELDS = [1, 2, 3, 4, 5] as const;

/** Splits a mapping ("Ship To, Name") into its template column names, trimmed, empties dropped. */
export function mappedColumns(mapping: string | null | undefined): string[] {
  return (mapping ?? "").split(",").map((c) => c.trim()).filter((c) => c !== "");
}

const mappingText = optionalText(MAX_LENGTH.text);
const mappingShape = Object.fromEntries(MAP_FIELDS.map((f) => [f, mappingText])) as Record<
  MapField,
  typeof mappingText
>;
const staticText = optionalText(MAX_LENGTH.text);
const staticShape = {
  staticFileData1: staticText,
  mapStaticFileData1: mappingText,
  staticFileData2: staticText,
  mapStaticFileData2: mappingText,
  staticFileData3: staticText,
  mapStaticFileData3: mappingText,
  staticFileData4: staticText,
  mapStaticFileData4: mappingText,
  staticFileData5: staticText,
  mapStaticFileData5: mappingText,
};

// ---------------------------------------------------------------------------------------------
// Vendor alias

/** One alias of a vendor (spec section 3 "Vendor alias"), saved with the vendor. */
export const vendorAliasSave = z.object({
  id: dbId.default(0),
  parentVendorSourceId: dbId.nullish().transform((v) => v ?? 0),
  vendorAliasNameFromFile: requiredName,
  vendorProvidedAccountNumber: optionalText(MAX_LENGTH.name),
  activeStatus: z.boolean().default(true),
  deletedStatus: z.boolean().default(false),
});
export type VendorAliasSave = z.input<typeof vendorAliasSave>;
export type VendorAlias = z.output<typeof vendorAliasSave>;

/** The alias editor's values (Add Vendor Alias / inline edit). */
export const vendorAliasForm = z.object({
  vendorAliasNameFromFile: requiredName,
  vendorProvidedAccountNumber: boundedString(MAX_LENGTH.name),
});
export type VendorAliasForm = z.infer<typeof vendorAliasForm>;

// ---------------------------------------------------------------------------------------------
// Order vendor source

const everyXDays = z.preprocess(
  (v) => (v === "" || v === undefined || (typeof v === "string" && v.trim() === "") ? null : v),
  z.coerce.number({ message: EVERY_X_DAYS_MESSAGE }).int(EVERY_X_DAYS_MESSAGE).min(
    1,
    EVERY_X_DAYS_MESSAGE,
  ).max(365, EVERY_X_DAYS_MESSAGE).nullable(),
);

const headerRowIndex = z.preprocess(
  (v) => (v === "" || v === null || v === undefined ? undefined : v),
  z.coerce.number({ message: REQUIRED }).int(HEADER_ROW_MESSAGE).min(1, HEADER_ROW_MESSAGE).max(
    1_048_576,
    HEADER_ROW_MESSAGE,
  ),
);

// At most 1,000 characters: matching costs up to pattern length × text length (docs/limits.md).
const regexField = optionalText(MAX_REGEX_CHARS).superRefine((pattern, ctx) => {
  const error = pattern === "" ? null : regexError(pattern);
  if (error) ctx.addIssue({ code: "custom", message: error });
});

const requiredEmailList = boundedString(MAX_LENGTH.text).trim().min(1, REQUIRED).refine(
  isEmailList,
  INVALID_EMAIL_LIST,
).prefault("");
const optionalEmailList = optionalText(MAX_LENGTH.text).refine(isEmailList, INVALID_EMAIL_LIST);

/** POST /api/order-submission/vendor/save: the vendor with its aliases and template. */
export const orderVendorSourceSave = z.object({
  id: dbId.default(0),
  orderSubmissionSourceId: requiredId,
  vendorNameFromFile: requiredName,
  vendorProvidedAccountNumber: optionalText(MAX_LENGTH.name),
  sendFromEmailSourceModelId: requiredId,
  submitEmails: requiredEmailList,
  submitCcEmails: optionalEmailList,
  submitBccEmails: optionalEmailList,
  submitEmailSubjectLine: requiredText,
  submitEmailBodyText: optionalText(MAX_LENGTH.longText),
  vendorWantsTrimmedItemDescription: z.boolean().default(false),
  /**
   * JavaScript regex source, run on RE2 semantics; an invalid one, or one using a backreference
   * or lookaround, is refused even while trimming is off.
   */
  vendorRegexForItemDescription: regexField,
  vendorWantsNonDailySubmission: z.boolean().default(false),
  vendorWantsAllAlignedLeft: z.boolean().default(false),
  /** Empty becomes null (spec section 3). */
  vendorCustomSubmitEveryXDay: everyXDays.default(null),
  vendorWantsPDF: z.boolean().default(false),
  vendorWantsSpreadsheet: z.boolean().default(true),
  vendorWantsForwardedEmail: z.boolean().default(false),
  vendorWantsAllData: z.boolean().default(false),
  /** 1-based, as a spreadsheet program numbers rows (docs/order_submission.md). */
  submitFileHeaderRowIndex: headerRowIndex,
  /** A newly chosen template, base64 without a data-URL prefix; empty keeps the stored one. */
  submitFileTemplate: z.string().max(
    Math.ceil(MAX_TEMPLATE_BYTES / 3) * 4,
    "The template is too large",
  )
    .nullish().transform((v) => v ?? ""),
  submitFileTemplateFileName: optionalText(MAX_LENGTH.name),
  /** The stored template as loaded (resent unchanged by the form; the server ignores it). */
  existingTemplate: templateFile.nullish().transform((v) => v ?? null),
  activeStatus: z.boolean().default(true),
  deletedStatus: z.boolean().default(false),
  vendorSourceAliases: z.array(vendorAliasSave).max(1_000, "Too many aliases").default([]),
  ...mappingShape,
  ...staticShape,
}).superRefine((vendor, ctx) => {
  if (vendor.submitFileTemplate !== "" && !isTemplateFileName(vendor.submitFileTemplateFileName)) {
    ctx.addIssue({
      code: "custom",
      path: ["submitFileTemplateFileName"],
      message: TEMPLATE_TYPE_MESSAGE,
    });
  }
});
export type OrderVendorSourceSave = z.input<typeof orderVendorSourceSave>;
export type OrderVendorSourceValues = z.output<typeof orderVendorSourceSave>;

/** GET /api/order-submission/vendor/get/{id}: the vendor; the template as `existingTemplate`. */
export type OrderVendorSource =
  & Omit<
    OrderVendorSourceValues,
    "submitFileTemplate" | "submitFileTemplateFileName"
  >
  & {
    submitFileTemplate: "";
    submitFileTemplateFileName: string;
  };

/** One entry of GET /api/order-submission/vendor/active (the list's columns, no template). */
export type OrderVendorSourceListEntry = Omit<OrderVendorSource, "existingTemplate"> & {
  orderSubmissionSourceName: string;
  hasTemplate: boolean;
};

/** POST .../vendor/save answer: the saved vendor (ids of new aliases filled in). */
export type OrderVendorSourceSaveAnswer = OrderVendorSource;

/** GET /api/order-submission/order-submission-list: picker pairs (item1 name, item2 id). */
export const pickerPair = z.object({ item1: z.string(), item2: z.number().int() });
export type PickerPair = z.infer<typeof pickerPair>;
export const pickerList = z.array(pickerPair);

/**
 * The answer schemas of the submission calls, for the OpenAPI document: a source is the output
 * of its save schema (`OrderSubmissionSource`); a vendor too, its template as a name only
 * (`OrderVendorSource`), and a list entry adds the parent's name and whether a template is stored.
 */
export const orderSubmissionSourceAnswer = orderSubmissionSourceSave;
export const orderVendorSourceAnswer = orderVendorSourceSave.describe(
  'the vendor; submitFileTemplate is always "" (the template is existingTemplate)',
);
export const orderVendorSourceListEntry = z.intersection(
  orderVendorSourceSave,
  z.object({ orderSubmissionSourceName: z.string(), hasTemplate: z.boolean() }),
).describe("a vendor of the list, without existingTemplate");

/** Error answer shape of these calls (`{ message, errors? }`). */
export interface ErrorAnswer {
  message: string;
  errors?: Record<string, string[]>;
}

/** The vendor name unique constraint: its name in a 409 answer selects the banner text. */
export const VENDOR_NAME_CONSTRAINT = "vendor_sources_vendor_name_unique";

/**
 * The vendor screen's banner text for a failed save (spec section 8), from the answer's text.
 *
 * @example vendorSaveErrorText(409, 'duplicate key value violates unique constraint
 *   "vendor_sources_vendor_name_unique" Key (vendor_name_from_file)=(Acme) already exists.')
 *   // 'A vendor with the name "Acme" already exists. Please use a different vendor name.'
 */
export function vendorSaveErrorText(status: number | null, text: string): string {
  if (text.includes(VENDOR_NAME_CONSTRAINT)) {
    const value = /\)=\((.*)\) already exists/s.exec(text)?.[1]?.split(/,\s*/).pop();
    return `A vendor with the name "${
      value || "this value"
    }" already exists. Please use a different vendor name.`;
  }
  if (/unique constraint|duplicate key/i.test(text)) {
    return "This vendor name already exists. Please use a different name.";
  }
  if (/database|sql|postgres/i.test(text) && status !== null && status >= 500) {
    return "A database error occurred. Please check your data and try again.";
  }
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === "string" && message !== "") return message;
  } catch {
    // not JSON: fall through
  }
  return status === null || status === 0
    ? "An error occurred while saving. Please try again."
    : text.trim() || "An error occurred while saving. Please try again.";
}

/** The vendor edit form's values: ids as selected text, numbers as typed text. */
export const orderVendorSourceForm = z.object({
  orderSubmissionSourceId: z.string().trim().regex(/^[1-9]\d*$/, REQUIRED),
  vendorNameFromFile: requiredName,
  vendorProvidedAccountNumber: boundedString(MAX_LENGTH.name),
  sendFromEmailSourceModelId: z.string().trim().regex(/^[1-9]\d*$/, REQUIRED),
  submitEmails: requiredEmailList,
  submitCcEmails: boundedString(MAX_LENGTH.text).refine(isEmailList, INVALID_EMAIL_LIST),
  submitBccEmails: boundedString(MAX_LENGTH.text).refine(isEmailList, INVALID_EMAIL_LIST),
  submitEmailSubjectLine: requiredText,
  submitEmailBodyText: boundedString(MAX_LENGTH.longText),
  vendorWantsTrimmedItemDescription: z.boolean(),
  vendorRegexForItemDescription: boundedString(MAX_REGEX_CHARS).superRefine((pattern, ctx) => {
    const error = pattern.trim() === "" ? null : regexError(pattern.trim());
    if (error) ctx.addIssue({ code: "custom", message: error });
  }),
  vendorWantsNonDailySubmission: z.boolean(),
  vendorWantsAllAlignedLeft: z.boolean(),
  vendorCustomSubmitEveryXDay: typedInteger,
  vendorWantsPDF: z.boolean(),
  vendorWantsSpreadsheet: z.boolean(),
  vendorWantsForwardedEmail: z.boolean(),
  vendorWantsAllData: z.boolean(),
  submitFileHeaderRowIndex: z.string().trim().min(1, REQUIRED).regex(/^\d+$/, HEADER_ROW_MESSAGE)
    .refine((v) => Number(v) >= 1, HEADER_ROW_MESSAGE),
  /** The chosen file's name, "" when none was chosen (the stored template is kept). */
  submitFileTemplateFileName: boundedString(MAX_LENGTH.name).refine(
    (name) => name === "" || isTemplateFileName(name),
    TEMPLATE_TYPE_MESSAGE,
  ),
  activeStatus: z.boolean(),
  deletedStatus: z.boolean(),
  ...Object.fromEntries(MAP_FIELDS.map((f) => [f, boundedString(MAX_LENGTH.text)])) as Record<
    MapField,
    ReturnType<typeof boundedString>
  >,
  staticFileData1: boundedString(MAX_LENGTH.text),
  mapStaticFileData1: boundedString(MAX_LENGTH.text),
  staticFileData2: boundedString(MAX_LENGTH.text),
  mapStaticFileData2: boundedString(MAX_LENGTH.text),
  staticFileData3: boundedString(MAX_LENGTH.text),
  mapStaticFileData3: boundedString(MAX_LENGTH.text),
  staticFileData4: boundedString(MAX_LENGTH.text),
  mapStaticFileData4: boundedString(MAX_LENGTH.text),
  staticFileData5: boundedString(MAX_LENGTH.text),
  mapStaticFileData5: boundedString(MAX_LENGTH.text),
}).superRefine((form, ctx) => {
  const days = form.vendorCustomSubmitEveryXDay.trim();
  if (days !== "" && !(Number(days) >= 1 && Number(days) <= 365)) {
    ctx.addIssue({
      code: "custom",
      path: ["vendorCustomSubmitEveryXDay"],
      message: EVERY_X_DAYS_MESSAGE,
    });
  }
});
export type OrderVendorSourceForm = z.infer<typeof orderVendorSourceForm>;

/** A new vendor's form: spreadsheet wanted, header on row 1, active. */
export const NEW_ORDER_VENDOR_SOURCE_FORM: OrderVendorSourceForm = {
  orderSubmissionSourceId: "",
  vendorNameFromFile: "",
  vendorProvidedAccountNumber: "",
  sendFromEmailSourceModelId: "",
  submitEmails: "",
  submitCcEmails: "",
  submitBccEmails: "",
  submitEmailSubjectLine: "",
  submitEmailBodyText: "",
  vendorWantsTrimmedItemDescription: false,
  vendorRegexForItemDescription: "",
  vendorWantsNonDailySubmission: false,
  vendorWantsAllAlignedLeft: false,
  vendorCustomSubmitEveryXDay: "",
  vendorWantsPDF: false,
  vendorWantsSpreadsheet: true,
  vendorWantsForwardedEmail: false,
  vendorWantsAllData: false,
  submitFileHeaderRowIndex: "1",
  submitFileTemplateFileName: "",
  activeStatus: true,
  deletedStatus: false,
  ...Object.fromEntries(MAP_FIELDS.map((f) => [f, ""])) as Record<MapField, string>,
  staticFileData1: "",
  mapStaticFileData1: "",
  staticFileData2: "",
  mapStaticFileData2: "",
  staticFileData3: "",
  mapStaticFileData3: "",
  staticFileData4: "",
  mapStaticFileData4: "",
  staticFileData5: "",
  mapStaticFileData5: "",
};

/**
 * The save request of a validated vendor form: ids and numbers converted, every-X-days "" →
 * null, the aliases and the template (base64, or "" to keep the stored one) added.
 */
export function orderVendorSourceFormToSave(
  id: number,
  form: OrderVendorSourceForm,
  aliases: VendorAliasSave[],
  template: { fileName: string; base64: string } | null,
  existingTemplate: TemplateFile | null = null,
): OrderVendorSourceSave {
  const days = form.vendorCustomSubmitEveryXDay.trim();
  return {
    ...form,
    id,
    orderSubmissionSourceId: Number(form.orderSubmissionSourceId),
    sendFromEmailSourceModelId: Number(form.sendFromEmailSourceModelId),
    submitFileHeaderRowIndex: Number(form.submitFileHeaderRowIndex),
    vendorCustomSubmitEveryXDay: days === "" ? null : Number(days),
    submitFileTemplate: template?.base64 ?? "",
    submitFileTemplateFileName: template?.fileName ?? existingTemplate?.fileName ?? "",
    existingTemplate,
    vendorSourceAliases: aliases,
  };
}
