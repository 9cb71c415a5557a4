/**
 * The pure core of order submission: reading an incoming order file and splitting it by vendor,
 * filling each vendor's template, the PDF, the e-mail text, the download link of link-click
 * e-mails, the outbox keys and the batch rules. docs/order_submission.md says what was decided.
 *
 * @module
 */
export {
  INCOMING_SYNONYMS,
  type IncomingColumns,
  type IncomingField,
  normaliseHeader,
  recogniseColumns,
} from "./incoming_columns.ts";
export {
  type OrderRow,
  poNumbers,
  readOrderFile,
  splitByVendor,
  SubmissionError,
  type UnmatchedVendor,
  type VendorForMatching,
  type VendorGroup,
  vendorKey,
  type VendorSplit,
} from "./vendor_split.ts";
export {
  fieldValues,
  type FillContext,
  type FilledVendorFile,
  fillVendorTemplate,
  validateVendorTemplate,
  type VendorTemplateSettings,
} from "./template_fill.ts";
export {
  itemDescriptionRegex,
  MAX_REGEX_INPUT,
  TRIM_BUDGET_MS,
  trimDescriptions,
  trimItemDescription,
} from "./description_trim.ts";
export { alignAllLeft, leftAlignStyles } from "./align_left.ts";
export { type OrderPdfInput, renderOrderPdf, wrapText } from "./order_pdf.ts";
export {
  forwardedBody,
  type ForwardFacts,
  type OriginalMessage,
  replaceWildcards,
  vendorMailText,
} from "./forwarding.ts";
export {
  type Anchor,
  chooseDownloadLinks,
  decodeEntities,
  type DownloadLink,
  extractAnchors,
  httpUrl,
  type LinkClickSettings,
  textUrls,
} from "./link_click.ts";
export {
  rowFingerprints,
  submissionKey,
  type SubmissionKeyInput,
  submissionMessageId,
  unsentRows,
} from "./idempotency.ts";
export {
  addDays,
  type BatchDecision,
  type BatchInput,
  dayIn,
  daysBetween,
  decideBatch,
  DEFAULT_EVERY_X_DAYS,
  isVendorDue,
  type VendorDue,
  type VendorDueInput,
} from "./batch_rules.ts";
export {
  buildVendorSubmission,
  safeFileName,
  type SubmissionAttachment,
  type VendorForSubmission,
  type VendorSubmission,
} from "./vendor_submission.ts";
