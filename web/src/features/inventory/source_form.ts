/**
 * The edit form's values and the save payload (spec part 2, sections 3, 4, 5 and 7): numbers are
 * typed as text and sent as numbers or null, the e-mail source is chosen by name and sent as its
 * id, the file data's active flag follows the source's, and the sample file is either the newly
 * chosen one (base64 without a data-URL prefix) or the loaded one resent.
 */
import type {
  InventorySource,
  InventorySourceForm,
  InventorySourceSaveInput,
} from "../../../../shared/contract/inventory.ts";
import type { PickerPair } from "./api.ts";

/** A new source: active, headers on in both files (spec section 9 defaults). */
export const NEW_INVENTORY_SOURCE_FORM: InventorySourceForm = {
  id: 0,
  sourceName: "",
  emailSourceName: "",
  fileType: "",
  fromEmail: "",
  activeStatus: true,
  subjectValue: "",
  containsNotExact: false,
  attachmentName: "",
  expectedAttachmentCount: "",
  daysUntilNoUpdateNotification: "",
  sftpServerAddress: "",
  sftpPort: "",
  sftpUsername: "",
  sftpPassword: "",
  sftpInboxFolder: "",
  sftpPollSeconds: "",
  fileHasHeader: true,
  stripLeadingZeroes: false,
  itemNumberColumnName: "",
  qtyColumnName: "",
  statusSupersedesQuantity: false,
  statusAvailableList: "",
  statusOutOfStockList: "",
  itemStatusColumnName: "",
  minItemsToBeActive: "",
  usesPredictiveAlgorithm: false,
  lookbackDays: "",
  minDataPoints: "",
  safetyMultiplier: "",
  safetyPadding: "",
  largeDropThreshold: "",
  largeDropMultiplier: "",
  guardThreshold: "",
  fileData: {
    userActivatedItemNumbers: "",
    inventoryFile: null,
    inventoryFileName: null,
    inventoryFileData: null,
    headerRowIndex: "",
    fileHasHeader: true,
    itemNumberColumnName: "",
    itemStatusColumnName: "",
    itemStatusDateColumnName: "",
  },
};

const text = (value: number | null | undefined) =>
  value === null || value === undefined ? "" : String(value);

/** The name of an e-mail source id among the picker pairs ("" when unknown). */
export function emailSourceNameOf(id: number | null, pairs: readonly PickerPair[]): string {
  return pairs.find((pair) => pair.item2 === id)?.item1 ?? "";
}

/** The form's values of a stored source. */
export function sourceToForm(
  source: InventorySource,
  pairs: readonly PickerPair[],
): InventorySourceForm {
  const f = source.fileData;
  return {
    id: source.id,
    sourceName: source.sourceName,
    emailSourceName: emailSourceNameOf(source.emailSourceId, pairs),
    fileType: source.fileType,
    fromEmail: source.fromEmail,
    activeStatus: source.activeStatus,
    subjectValue: source.subjectValue,
    containsNotExact: source.containsNotExact,
    attachmentName: source.attachmentName,
    expectedAttachmentCount: text(source.expectedAttachmentCount),
    daysUntilNoUpdateNotification: text(source.daysUntilNoUpdateNotification),
    sftpServerAddress: source.sftpServerAddress,
    sftpPort: text(source.sftpPort),
    sftpUsername: source.sftpUsername,
    sftpPassword: source.sftpPassword,
    sftpInboxFolder: source.sftpInboxFolder ?? "",
    sftpPollSeconds: text(source.sftpPollSeconds ?? null),
    fileHasHeader: source.fileHasHeader,
    stripLeadingZeroes: source.stripLeadingZeroes,
    itemNumberColumnName: source.itemNumberColumnName,
    qtyColumnName: source.qtyColumnName,
    statusSupersedesQuantity: source.statusSupersedesQuantity,
    statusAvailableList: source.statusAvailableList,
    statusOutOfStockList: source.statusOutOfStockList,
    itemStatusColumnName: source.itemStatusColumnName,
    minItemsToBeActive: text(source.minItemsToBeActive),
    usesPredictiveAlgorithm: source.usesPredictiveAlgorithm,
    lookbackDays: text(source.lookbackDays),
    minDataPoints: text(source.minDataPoints),
    safetyMultiplier: text(source.safetyMultiplier),
    safetyPadding: text(source.safetyPadding),
    largeDropThreshold: text(source.largeDropThreshold),
    largeDropMultiplier: text(source.largeDropMultiplier),
    guardThreshold: text(source.guardThreshold),
    fileData: {
      userActivatedItemNumbers: f.userActivatedItemNumbers,
      inventoryFile: null,
      inventoryFileName: f.inventoryFileName,
      inventoryFileData: f.inventoryFileData,
      headerRowIndex: text(f.headerRowIndex),
      fileHasHeader: f.fileHasHeader,
      itemNumberColumnName: f.itemNumberColumnName,
      itemStatusColumnName: f.itemStatusColumnName,
      itemStatusDateColumnName: f.itemStatusDateColumnName,
    },
  };
}

/** A numeric text field as sent: a number, or null when empty (spec section 5). */
export function numberOrNull(value: string): number | null {
  const trimmed = value.trim();
  return trimmed === "" ? null : Number(trimmed);
}

/** A newly chosen sample file, read for the save. */
export interface ChosenFile {
  name: string;
  /** Base64 content without a data-URL prefix. */
  base64: string;
}

/** The save payload of the form's values (`file`: the newly chosen sample file, if any). */
export function formToSave(
  sourceId: number,
  values: InventorySourceForm,
  pairs: readonly PickerPair[],
  file: ChosenFile | null,
): InventorySourceSaveInput {
  const emailSourceId = pairs.find((pair) => pair.item1 === values.emailSourceName)?.item2 ?? 0;
  const f = values.fileData;
  return {
    id: sourceId,
    emailSourceId,
    sourceName: values.sourceName.trim(),
    fileType: values.fileType.trim(),
    fromEmail: values.fromEmail.trim(),
    daysUntilNoUpdateNotification: numberOrNull(values.daysUntilNoUpdateNotification),
    expectedAttachmentCount: numberOrNull(values.expectedAttachmentCount),
    subjectValue: values.subjectValue,
    containsNotExact: values.containsNotExact,
    attachmentName: values.attachmentName,
    itemNumberColumnName: values.itemNumberColumnName.trim(),
    qtyColumnName: values.qtyColumnName.trim(),
    statusSupersedesQuantity: values.statusSupersedesQuantity,
    statusAvailableList: values.statusAvailableList,
    statusOutOfStockList: values.statusOutOfStockList,
    itemStatusColumnName: values.itemStatusColumnName.trim(),
    minItemsToBeActive: numberOrNull(values.minItemsToBeActive),
    fileHasHeader: values.fileHasHeader,
    stripLeadingZeroes: values.stripLeadingZeroes,
    usesPredictiveAlgorithm: values.usesPredictiveAlgorithm,
    lookbackDays: numberOrNull(values.lookbackDays),
    minDataPoints: numberOrNull(values.minDataPoints),
    safetyMultiplier: numberOrNull(values.safetyMultiplier),
    safetyPadding: numberOrNull(values.safetyPadding),
    largeDropThreshold: numberOrNull(values.largeDropThreshold),
    largeDropMultiplier: numberOrNull(values.largeDropMultiplier),
    sftpServerAddress: values.sftpServerAddress.trim(),
    sftpPort: numberOrNull(values.sftpPort),
    sftpUsername: values.sftpUsername.trim(),
    sftpPassword: values.sftpPassword,
    sftpInboxFolder: values.sftpInboxFolder.trim(),
    sftpPollSeconds: numberOrNull(values.sftpPollSeconds),
    guardThreshold: numberOrNull(values.guardThreshold),
    activeStatus: values.activeStatus,
    fileData: {
      userActivatedItemNumbers: f.userActivatedItemNumbers,
      ...(file
        ? { inventoryFile: file.base64, inventoryFileName: file.name, inventoryFileData: null }
        : {
          inventoryFile: null,
          inventoryFileName: f.inventoryFileName,
          inventoryFileData: f.inventoryFileData,
        }),
      // Spec section 4: the file data's active flag equals the source's.
      activeStatus: values.activeStatus,
      headerRowIndex: f.fileHasHeader ? numberOrNull(f.headerRowIndex) : null,
      fileHasHeader: f.fileHasHeader,
      itemNumberColumnName: f.itemNumberColumnName.trim(),
      itemStatusColumnName: f.itemStatusColumnName.trim(),
      itemStatusDateColumnName: f.itemStatusDateColumnName.trim(),
    },
  };
}

/**
 * How the source's SFTP inbox folder is watched: "Checking every N s, last check …" (null
 * without an inbox folder).
 *
 * @example
 * ```ts
 * import { sftpWatchText } from "./source_form.ts";
 * const watch = { everySeconds: 30, lastCheckAt: null, lastCheckError: null };
 * console.assert(sftpWatchText(watch, String) === "Checking every 30 s, last check never");
 * ```
 */
export function sftpWatchText(
  watch: InventorySource["sftpWatch"],
  formatDate: (iso: string) => string,
): string | null {
  if (!watch) return null;
  const last = watch.lastCheckAt ? formatDate(watch.lastCheckAt) : "never";
  return `Checking every ${watch.everySeconds} s, last check ${last}`;
}
