import assert from "node:assert/strict";
import {
  inventorySourceForm,
  inventorySourceSave,
  manualProcessResultSchema,
} from "../contract/inventory.ts";
import { failedResult } from "../contract/inventory.ts";
import { NEW_INVENTORY_SOURCE, parseInventorySource } from "./source.ts";

const validSave = {
  id: 0,
  emailSourceId: 3,
  sourceName: "Acme",
  fileType: ".CSV",
  fromEmail: "stock@acme.test",
  subjectValue: "Stock",
  attachmentName: "stock",
  itemNumberColumnName: "Item",
  qtyColumnName: "Qty",
  minItemsToBeActive: "5",
  lookbackDays: "",
  safetyMultiplier: "1.5",
  fileData: {
    userActivatedItemNumbers: "A1,B2",
    inventoryFile: "SXRlbQ==",
    inventoryFileName: "feed.csv",
    itemNumberColumnName: "Item",
    itemStatusColumnName: "Status",
    itemStatusDateColumnName: "Date",
  },
};

Deno.test("save request: numbers as numbers or null, file type normalised, defaults", () => {
  const r = inventorySourceSave.parse(validSave);
  assert.equal(r.fileType, "csv");
  assert.equal(r.minItemsToBeActive, 5);
  assert.equal(r.lookbackDays, null);
  assert.equal(r.safetyMultiplier, 1.5);
  assert.equal(r.activeStatus, true);
  assert.equal(r.fileData.fileHasHeader, true);
  assert.equal(r.sftpInboxFolder, "");
  assert.equal(r.guardThreshold, null);
});

Deno.test("save request: every message of spec section 5", () => {
  const blank = {
    id: 0,
    emailSourceId: null,
    sourceName: " ",
    fileType: "",
    fromEmail: "",
    subjectValue: "",
    attachmentName: "",
    itemNumberColumnName: "",
    qtyColumnName: "",
    fileData: {
      userActivatedItemNumbers: "",
      itemNumberColumnName: "",
      itemStatusColumnName: "",
      itemStatusDateColumnName: "",
    },
  };
  const r = inventorySourceSave.safeParse(blank);
  assert.equal(r.success, false);
  const messages = new Map(r.error!.issues.map((i) => [i.path.join("."), i.message]));
  assert.deepEqual(Object.fromEntries(messages), {
    emailSourceId: "Email source is required",
    sourceName: "Source name is required",
    fileType: "File type is required",
    fromEmail: "From email is required",
    subjectValue: "Subject value is required",
    attachmentName: "Attachment name is required",
    itemNumberColumnName: "Item number column is required",
    qtyColumnName: "Quantity column is required",
    "fileData.userActivatedItemNumbers": "User activated items are required",
    "fileData.itemNumberColumnName": "Item number column is required",
    "fileData.itemStatusColumnName": "Item status column is required",
    "fileData.itemStatusDateColumnName": "Item status date column is required",
    "fileData.inventoryFile": "Sample inventory file is required for new sources",
  });
  const noFile = inventorySourceSave.safeParse({
    ...validSave,
    fileData: { ...validSave.fileData, inventoryFile: null },
  });
  assert.deepEqual(noFile.error?.issues.map((i) => [i.path.join("."), i.message]), [
    ["fileData.inventoryFile", "Sample inventory file is required for new sources"],
  ]);
  // An existing source keeps its file when none is sent.
  assert.ok(
    inventorySourceSave.safeParse({
      ...validSave,
      id: 4,
      fileData: { ...validSave.fileData, inventoryFile: null },
    }).success,
  );
  const bounds = inventorySourceSave.safeParse({ ...validSave, lookbackDays: 400 });
  assert.equal(bounds.error?.issues[0].message, "Lookback days must be at most 365");
  const long = inventorySourceSave.safeParse({ ...validSave, sourceName: "x".repeat(201) });
  assert.equal(long.error?.issues[0].message, "Use at most 200 characters");
});

Deno.test("edit form: the sample file rule on the file field, only for new sources", () => {
  const form = {
    id: 0,
    sourceName: "Acme",
    emailSourceName: "Main box",
    fileType: "csv",
    fromEmail: "a@b.test",
    activeStatus: true,
    subjectValue: "Stock",
    containsNotExact: false,
    attachmentName: "stock",
    expectedAttachmentCount: "",
    daysUntilNoUpdateNotification: "3",
    sftpServerAddress: "",
    sftpPort: "",
    sftpUsername: "",
    sftpPassword: "",
    sftpInboxFolder: "",
    sftpPollSeconds: "",
    fileHasHeader: true,
    stripLeadingZeroes: false,
    itemNumberColumnName: "Item",
    qtyColumnName: "Qty",
    statusSupersedesQuantity: false,
    statusAvailableList: "",
    statusOutOfStockList: "",
    itemStatusColumnName: "",
    minItemsToBeActive: "",
    usesPredictiveAlgorithm: false,
    lookbackDays: "30",
    minDataPoints: "5",
    safetyMultiplier: "1.2",
    safetyPadding: "50",
    largeDropThreshold: "500",
    largeDropMultiplier: "1.5",
    guardThreshold: "",
    fileData: {
      userActivatedItemNumbers: "A1",
      inventoryFile: null,
      inventoryFileName: null,
      inventoryFileData: null,
      headerRowIndex: "1",
      fileHasHeader: true,
      itemNumberColumnName: "Item",
      itemStatusColumnName: "Status",
      itemStatusDateColumnName: "Date",
    },
  };
  const r = inventorySourceForm.safeParse(form);
  assert.deepEqual(r.error?.issues.map((i) => [i.path.join("."), i.message]), [
    ["fileData.inventoryFile", "Sample inventory file is required for new sources"],
  ]);
  assert.ok(inventorySourceForm.safeParse({ ...form, id: 2 }).success);
  const empty = inventorySourceForm.safeParse({ ...form, sourceName: "", qtyColumnName: "" });
  assert.deepEqual(
    empty.error?.issues.map((i) => i.message).filter((m) => m.endsWith("is required")),
    ["Source name is required", "Quantity column is required"],
  );
});

Deno.test("GET shape: keys in any case, absent fields defaulted, numbers as text accepted", () => {
  const s = parseInventorySource({
    SourceName: "Acme",
    MINITEMSTOBEACTIVE: "4",
    fileData: { InventoryFileName: "x.csv", headerRowIndex: null },
    unknownField: 1,
  });
  assert.equal(s.sourceName, "Acme");
  assert.equal(s.minItemsToBeActive, 4);
  assert.equal(s.fileData.inventoryFileName, "x.csv");
  assert.equal(s.fileData.fileHasHeader, true);
  assert.equal(s.activeStatus, NEW_INVENTORY_SOURCE.activeStatus);
  assert.throws(() => parseInventorySource({ fileHasHeader: "yes" }));
});

Deno.test("a failed result has every field of section 3 with zero counts", () => {
  const r = manualProcessResultSchema.parse(failedResult("Failed to process file"));
  assert.equal(r.success, false);
  assert.equal(r.processedCount, 0);
  assert.deepEqual(r.errors, ["Failed to process file"]);
});
