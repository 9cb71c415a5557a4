import assert from "node:assert/strict";
import { encodeBase64 } from "../base64.ts";
import { readTable, writeTable } from "../files/mod.ts";
import { processInventory, type ProcessInventoryInput } from "./process.ts";
import { DAY_MS, type QuantitySnapshot } from "./prediction.ts";
import { csvFile, NOW, sampleFile, testSource } from "./testing.ts";

const FIXTURES = new URL("../../tests/fixtures/files/", import.meta.url);
const fixture = (name: string) => ({
  name,
  bytes: Deno.readFileSync(new URL(name, FIXTURES)),
});

/** The generated file read back as rows of text (header row included when present). */
async function outputRows(
  outcome: Awaited<ReturnType<typeof processInventory>>,
  hasHeaders = true,
): Promise<string[][]> {
  assert.ok(outcome.output, outcome.result.message);
  const t = await readTable(outcome.output.bytes, {
    name: outcome.output.fileName,
    hasHeaders,
    headerRow: hasHeaders ? undefined : undefined,
  });
  return hasHeaders ? [t.headers, ...t.rows] : t.rows;
}

function run(
  partial: Partial<ProcessInventoryInput> & Pick<ProcessInventoryInput, "source" | "supplierFile">,
) {
  return processInventory({ now: NOW, ...partial });
}

Deno.test("real-producer files: rules, zero stripping, row errors, missing items", async () => {
  const files = [
    "inventory.xlsx",
    "inventory_utf8.csv",
    "inventory_utf8_bom.csv",
    "inventory_1252.csv",
    "inventory_utf16.txt",
    "inventory_semicolon.csv",
    "inventory_pipe.txt",
  ];
  for (const name of files) {
    const source = testSource(
      { fileType: name.split(".").pop()!, stripLeadingZeroes: true },
      { userActivatedItemNumbers: "123, 456\nA-77, 0, 999" },
    );
    const o = await run({ source, supplierFile: fixture(name) });
    assert.equal(o.refused, null, `${name}: ${o.result.message}`);
    assert.deepEqual(
      o.items.map((i) => [i.itemNumber, i.status, i.quantity, i.decidedBy]),
      [
        ["123", "Active", 5, "quantity"],
        ["456", "Active", 1250, "quantity"],
        ["A-77", "Inactive", null, "no quantity"],
        ["0", "Inactive", 0, "quantity"],
        ["999", "Inactive", null, "missing"],
      ],
      name,
    );
    assert.deepEqual(o.rowErrors, [{
      row: 4,
      column: "Qty",
      message: '"N/A" is not a number (item A-77); the row was skipped',
    }], name);
    assert.deepEqual(o.result.errors, [
      'Row 4, Qty: "N/A" is not a number (item A-77); the row was skipped',
    ]);
    assert.equal(o.counts.missing, 1);
    assert.equal(o.result.success, true);
    assert.equal(o.result.processedCount, 5);
    assert.equal(o.result.activeCount, 2);
    assert.equal(o.result.inactiveCount, 3);
    assert.deepEqual(o.result.columnInfo, {
      expectedItemColumn: "Item Number",
      itemColumnIndex: 1,
      expectedQtyColumn: "Qty",
      qtyColumnIndex: 3,
      hasHeaders: true,
      foundHeaders: ["Item Number", "Description", "Qty", "Price", "Updated"],
    });
    assert.equal(o.result.processingSummary!.totalRows, 4);
    assert.equal(o.result.processingSummary!.skippedRows, 1);
    assert.ok(o.result.processingLogs.some((l) => l.includes("1 missing (written Inactive)")));
    assert.deepEqual(await outputRows(o), [
      ["Item", "Status", "Date"],
      ["123", "Active", "2026-03-10"],
      ["456", "Active", "2026-03-10"],
      ["A-77", "Inactive", "2026-03-10"],
      ["0", "Inactive", "2026-03-10"],
      ["999", "Inactive", "2026-03-10"],
    ]);
    // Snapshots for the next runs: found items with a readable quantity, keyed like the rule.
    assert.deepEqual(o.snapshots.map((s) => [s.itemNumber, s.quantity]), [
      ["123", 5],
      ["456", 1250],
      ["0", 0],
    ]);
  }
});

Deno.test("without zero stripping, 00123 is not 123", async () => {
  const source = testSource({}, { userActivatedItemNumbers: "123, 00123" });
  const o = await run({ source, supplierFile: fixture("inventory_utf8.csv") });
  assert.deepEqual(o.items.map((i) => [i.itemNumber, i.status]), [
    ["123", "Inactive"],
    ["00123", "Active"],
  ]);
});

Deno.test("minimum to be active, status supersedes quantity", async () => {
  const supplier = csvFile([
    ["Item Number", "Qty", "Availability"],
    ["A", "0", "In Stock"],
    ["B", "10", " discontinued "],
    ["C", "10", "weird"],
    ["D", "abc", "IN STOCK"],
    ["E", "0", ""],
    ["F", "4", ""],
    ["G", "5", ""],
  ]);
  const cases: { min: number | null; supersedes: boolean; want: string }[] = [
    { min: null, supersedes: true, want: "A+ B- C+ D+ E- F+ G+" },
    { min: 5, supersedes: true, want: "A+ B- C+ D+ E- F- G+" },
    { min: 5, supersedes: false, want: "A- B+ C+ D- E- F- G+" },
  ];
  for (const c of cases) {
    const source = testSource({
      minItemsToBeActive: c.min,
      statusSupersedesQuantity: c.supersedes,
      statusAvailableList: "In Stock, available",
      statusOutOfStockList: "Discontinued,Out of stock",
      itemStatusColumnName: "availability",
    }, { userActivatedItemNumbers: "A,B,C,D,E,F,G" });
    const o = await run({ source, supplierFile: supplier });
    assert.equal(
      o.items.map((i) => i.itemNumber + (i.status === "Active" ? "+" : "-")).join(" "),
      c.want,
      JSON.stringify(c),
    );
    assert.equal(o.rowErrors.length, 1);
    assert.equal(o.rowErrors[0].row, 5);
    if (c.supersedes) assert.equal(o.counts.decidedByStatus, 3);
  }
});

Deno.test("duplicate item rows: quantities summed, logged", async () => {
  const supplier = csvFile([
    ["Item Number", "Qty"],
    ["A", "2"],
    ["B", "1"],
    [" A ", "2"],
    ["B", "x"],
  ]);
  const source = testSource({ minItemsToBeActive: 3 }, { userActivatedItemNumbers: "A\nB" });
  const o = await run({ source, supplierFile: supplier });
  assert.deepEqual(o.items.map((i) => [i.itemNumber, i.quantity, i.status]), [
    ["A", 4, "Active"],
    ["B", 1, "Inactive"],
  ]);
  assert.equal(o.counts.duplicateItems, 2);
  assert.ok(
    o.result.processingLogs.includes("2 items on more than one row: their quantities were summed."),
  );
});

Deno.test("a missing configured column names it and lists the headers found", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [
      { qtyColumnName: "Quantity" },
      'Column "Quantity" was not found. Headers found: "Item Number", "Description", "Qty", "Price", "Updated".',
    ],
    [
      { itemNumberColumnName: "SKU" },
      'Column "SKU" was not found. Headers found: "Item Number", "Description", "Qty", "Price", "Updated".',
    ],
    [
      { statusSupersedesQuantity: true, itemStatusColumnName: "Status" },
      'Column "Status" was not found. Headers found: "Item Number", "Description", "Qty", "Price", "Updated".',
    ],
    [{ qtyColumnName: "9" }, "Column 9 is beyond the 5 columns of the file."],
  ];
  for (const [overrides, message] of cases) {
    const o = await run({
      source: testSource(overrides),
      supplierFile: fixture("inventory_utf8.csv"),
    });
    assert.equal(o.refused?.code, "column_not_found");
    assert.ok(o.result.message.startsWith(message), o.result.message);
    assert.equal(o.result.success, false);
    assert.equal(o.output, null);
    assert.equal(o.result.processedCount, 0);
  }
});

Deno.test("columns by index and letter in a file without headers", async () => {
  const supplier = csvFile([["x", "00A7", "3"], ["y", "0000", "0"], ["z", "B", "7"]]);
  const source = testSource(
    {
      fileHasHeader: false,
      itemNumberColumnName: "2",
      qtyColumnName: "C",
      stripLeadingZeroes: true,
    },
    { userActivatedItemNumbers: "A7, 0, B" },
  );
  const o = await run({ source, supplierFile: supplier });
  assert.deepEqual(o.items.map((i) => [i.itemNumber, i.status]), [
    ["A7", "Active"],
    ["0", "Inactive"],
    ["B", "Active"],
  ]);
  assert.equal(o.result.columnInfo?.itemColumnIndex, 2);
  assert.equal(o.result.columnInfo?.qtyColumnIndex, 3);
});

Deno.test("output in the sample's format (CSV, XLSX, XLS), read back cell by cell", async () => {
  // Written by hand: the project's writers would escape the formula-looking item themselves.
  const supplier = {
    name: "stock.csv",
    bytes: new TextEncoder().encode("Item Number,Qty\nA1,5\n=cmd|x,3\n-5,1\n"),
  };
  for (const format of ["csv", "xlsx", "xls"] as const) {
    const sample = sampleFile(format);
    const source = testSource({}, {
      userActivatedItemNumbers: "A1, =cmd|x, -5, Z9",
      inventoryFileName: sample.name,
      inventoryFileData: encodeBase64(sample.bytes),
    });
    const o = await run({ source, supplierFile: supplier });
    assert.equal(o.output?.format, format);
    assert.equal(o.output?.fileName, `seller_feed.${format}`);
    assert.deepEqual(await outputRows(o), [
      ["Item", "Status", "Date"],
      ["A1", "Active", "2026-03-10"],
      ["'=cmd|x", "Active", "2026-03-10"],
      ["-5", "Active", "2026-03-10"],
      ["Z9", "Inactive", "2026-03-10"],
    ], format);
    assert.equal(o.result.fileData, encodeBase64(o.output!.bytes));
  }
});

Deno.test("output header row at headerRowIndex (1-based), title rows kept; and without headers", async () => {
  const supplier = csvFile([["Item Number", "Qty"], ["A1", "5"], ["B2", "0"]]);
  for (const format of ["xlsx", "csv"] as const) {
    const template = writeTable([], [["Seller feed"], ["SKU", "Note", "State", "As of"], [
      "old",
      "",
      "x",
      "y",
    ]], format);
    const source = testSource({}, {
      userActivatedItemNumbers: "A1, B2",
      inventoryFileName: `template.${format}`,
      inventoryFileData: encodeBase64(template),
      headerRowIndex: 2,
      itemNumberColumnName: "sku",
      itemStatusColumnName: "State",
      itemStatusDateColumnName: "As of",
    });
    const o = await run({ source, supplierFile: supplier });
    const t = await readTable(o.output!.bytes, { name: `t.${format}`, hasHeaders: false });
    assert.deepEqual(t.rows.map((r) => r.slice(0, 4)), [
      ["Seller feed", "", "", ""],
      ["SKU", "Note", "State", "As of"],
      ["A1", "", "Active", "2026-03-10"],
      ["B2", "", "Inactive", "2026-03-10"],
    ], format);
  }
  const noHeaders = testSource({}, {
    userActivatedItemNumbers: "A1, B2",
    fileHasHeader: false,
    itemNumberColumnName: "A",
    itemStatusColumnName: "3",
    itemStatusDateColumnName: "B",
  });
  const o = await run({ source: noHeaders, supplierFile: supplier });
  assert.deepEqual(await outputRows(o, false), [
    ["A1", "2026-03-10", "Active"],
    ["B2", "2026-03-10", "Inactive"],
  ]);
});

Deno.test("prediction over snapshots of several days: modifications and logs", async () => {
  // Item P sells 10 a day (100, 90, 80, 70, now 60); Q is steady at 60; R restocks.
  const snapshots: QuantitySnapshot[] = [];
  const add = (item: string, quantities: number[]) =>
    quantities.forEach((quantity, i) =>
      snapshots.push({
        itemNumber: item,
        quantity,
        takenAt: new Date(NOW.getTime() - (quantities.length - i) * DAY_MS).toISOString(),
      })
    );
  add("P", [100, 90, 80, 70]);
  add("Q", [60, 60, 60, 60]);
  add("R", [5, 200, 150, 100]);
  snapshots.sort((a, b) => String(a.takenAt).localeCompare(String(b.takenAt)));
  const supplier = csvFile([["Item Number", "Qty"], ["P", "60"], ["Q", "60"], ["R", "60"], [
    "S",
    "60",
  ]]);
  const source = testSource({
    usesPredictiveAlgorithm: true,
    lookbackDays: 30,
    minDataPoints: 5,
    safetyMultiplier: 2,
    safetyPadding: 45,
    largeDropThreshold: 1000,
    largeDropMultiplier: 1.5,
  }, { userActivatedItemNumbers: "P, Q, R, S" });
  const o = await run({ source, supplierFile: supplier, snapshots });
  // P: 10/day × 1 day × 2 + 45 = 65 > 60 → Inactive. Q: 0 × 2 + 45 = 45 ≤ 60 → Active.
  // R: (50 + 50 + 40) / 4 days = 35/day → 115 > 60 → Inactive. S: one data point → no rule.
  assert.deepEqual(o.items.map((i) => [i.itemNumber, i.status, i.decidedBy]), [
    ["P", "Inactive", "prediction"],
    ["Q", "Active", "quantity"],
    ["R", "Inactive", "prediction"],
    ["S", "Active", "quantity"],
  ]);
  const mods = o.result.processingSummary!.modifications;
  assert.deepEqual(mods.map((m) => [m.rowIndex, m.itemNumber, m.originalQuantity, m.newQuantity]), [
    [2, "P", 60, 0],
    [4, "R", 60, 0],
  ]);
  assert.match(mods[0].reason, /quantity 60 is below the required stock 65/);
  assert.equal(o.result.modificationsCount, 2);
  assert.ok(o.result.processingLogs.some((l) => l.startsWith("Item P: Predicted: quantity 60")));
  assert.ok(o.result.processingLogs.includes("Prediction made 2 items Inactive."));
  // The columnar form (one record per run) decides the same, and the run returns its own.
  const runs = [4, 3, 2, 1].map((daysAgo) => {
    const takenAt = new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString();
    const of = snapshots.filter((s) => s.takenAt === takenAt);
    return {
      takenAt,
      itemNumbers: of.map((s) => s.itemNumber),
      quantities: of.map((s) => s.quantity),
    };
  });
  const columnar = await run({ source, supplierFile: supplier, snapshotRuns: runs });
  assert.deepEqual(columnar.items, o.items);
  assert.deepEqual(columnar.snapshotRun?.itemNumbers, ["P", "Q", "R", "S"]);
  assert.deepEqual(Array.from(columnar.snapshotRun!.quantities), [60, 60, 60, 60]);
  // With a given 3-day update interval Q stays active (no sales) and P needs 10×3×2+45.
  const o3 = await run({ source, supplierFile: supplier, snapshots, updateIntervalDays: 3 });
  assert.match(o3.result.processingSummary!.modifications[0].reason, /required stock 105/);
});

Deno.test("guard: a run turning most active items inactive is held; flips listed", async () => {
  const supplier = csvFile([["Item Number", "Qty"], ["A", "0"], ["B", "0"], ["C", "5"], [
    "D",
    "5",
  ]]);
  const source = testSource({}, { userActivatedItemNumbers: "A, B, C, D" });
  const previousStatuses = [
    { itemNumber: "A", status: "Active" as const },
    { itemNumber: "B", status: "Active" as const },
    { itemNumber: "C", status: "Active" as const },
    { itemNumber: "D", status: "Inactive" as const },
  ];
  const o = await run({ source, supplierFile: supplier, previousStatuses });
  assert.equal(o.held, true);
  assert.deepEqual(o.flips, [
    { itemNumber: "A", from: "Active", to: "Inactive" },
    { itemNumber: "B", from: "Active", to: "Inactive" },
    { itemNumber: "D", from: "Inactive", to: "Active" },
  ]);
  assert.match(o.result.message, /Held by the guard/);
  assert.ok(o.result.processingLogs.some((l) => l.startsWith("Held:")));
  assert.ok(o.output, "the file is still generated, for the preview and a later release");
  const relaxed = await run({
    source,
    supplierFile: supplier,
    previousStatuses,
    guardThreshold: 0.7,
  });
  assert.equal(relaxed.held, false);
  const perSource = await run({
    source: { ...source, guardThreshold: 0.7 },
    supplierFile: supplier,
    previousStatuses,
  });
  assert.equal(perSource.held, false);
});

Deno.test("refused inputs: configuration, file type, empty, too large", async () => {
  const good = fixture("inventory_utf8.csv");
  const cases: [Partial<ProcessInventoryInput>, string, RegExp][] = [
    [
      { source: testSource({}, { inventoryFileData: null }) },
      "config",
      /no sample inventory file/,
    ],
    [{ source: testSource({ qtyColumnName: "" }) }, "config", /set the quantity column/],
    [
      { source: testSource({}, { itemStatusColumnName: "item" }) },
      "config",
      /three different columns/,
    ],
    [
      { source: testSource({ fileType: "csv" }), supplierFile: fixture("inventory.xlsx") },
      "wrong_type",
      /^Invalid file type\. Expected \.csv but got \.xlsx$/,
    ],
    [{ supplierFile: { name: "x.csv", bytes: new Uint8Array() } }, "empty", /is empty/],
    [{ limits: { maxBytes: 10 } }, "too_large", /files must be at most/],
    [
      { supplierFile: fixture("image_named.csv") },
      "content_mismatch",
      /./,
    ],
  ];
  for (const [partial, code, message] of cases) {
    const o = await run({ source: testSource(), supplierFile: good, ...partial });
    assert.equal(o.refused?.code, code, o.result.message);
    assert.match(o.result.message, message);
    assert.equal(o.result.success, false);
    assert.deepEqual(o.result.errors, [o.result.message]);
  }
});

Deno.test("large XLSX output (rows appended to the sheet XML) reads like fillTemplate's", async () => {
  const { fillTemplate } = await import("../files/mod.ts");
  const items = Array.from({ length: 2500 }, (_, i) => `IT-${i}${i % 7 === 0 ? " & <co>" : ""}`);
  items[5] = "=HYPERLINK(1)";
  const supplier = csvFile([["Item Number", "Qty"], ...items.map((it, i) => [it, String(i % 3)])]);
  const cases: { name: string; rows: string[][]; fileData: Record<string, unknown> }[] = [
    { name: "header row 1", rows: [["Item", "Status", "Date"]], fileData: {} },
    {
      name: "title rows, header in row 3, extra columns",
      rows: [["Feed"], [], ["Note", "SKU", "As of", "State", "Other"], ["x", "y", "z", "w", "v"]],
      fileData: {
        headerRowIndex: 3,
        itemNumberColumnName: "SKU",
        itemStatusColumnName: "state",
        itemStatusDateColumnName: "C",
      },
    },
    {
      name: "no headers",
      rows: [["a", "b", "c"]],
      fileData: {
        fileHasHeader: false,
        itemNumberColumnName: "B",
        itemStatusColumnName: "1",
        itemStatusDateColumnName: "D",
      },
    },
  ];
  for (const c of cases) {
    const template = writeTable([], c.rows, "xlsx");
    const source = testSource({}, {
      userActivatedItemNumbers: items.join("\n"),
      inventoryFileName: "feed.xlsx",
      inventoryFileData: encodeBase64(template),
      ...c.fileData,
    });
    const o = await run({ source, supplierFile: supplier });
    assert.equal(o.refused, null, o.result.message);
    const fd = source.fileData;
    const expected = await fillTemplate(template, {
      name: "feed.xlsx",
      hasHeaders: fd.fileHasHeader,
      headerRow: fd.headerRowIndex ?? undefined,
      rows: o.items.map((it) => ({
        [fd.itemNumberColumnName]: it.itemNumber,
        [fd.itemStatusColumnName]: it.status,
        [fd.itemStatusDateColumnName]: new Date("2026-03-10"),
      })),
    });
    const read = (bytes: Uint8Array) => readTable(bytes, { name: "x.xlsx", hasHeaders: false });
    const [got, want] = [await read(o.output!.bytes), await read(expected.bytes)];
    assert.deepEqual(got.rows, want.rows, c.name);
    assert.deepEqual(got.rowNumbers, want.rowNumbers, c.name);
    assert.ok(got.rows.some((r) => r.includes("'=HYPERLINK(1)")), c.name);
  }
});

Deno.test("a supplier XLSX read row by row gives the outcome of the same rows as CSV", async () => {
  // Over the 50 rows the header is looked for in, so the XLSX is streamed; the CSV is read whole.
  const rows: string[][] = [["Report"], ["Item Number", "Desc", "Qty", "Status"]];
  for (let i = 0; i < 130; i++) {
    const qty = i % 17 === 0 ? "n/a" : i % 23 === 0 ? "" : String((i * 7) % 40);
    const row = [`00${i % 110}`, `thing ${i}`, qty, i % 5 === 0 ? "Discontinued" : "In Stock"];
    if (i % 9 === 0) row.push(String(i)); // beyond the headers: a row error, and column E
    rows.push(row);
  }
  const catalogue = Array.from({ length: 120 }, (_, i) => `${i}`).join(",");
  const outcomes = async (overrides: Parameters<typeof testSource>[0]) => {
    const got = [];
    for (const format of ["csv", "xlsx"] as const) {
      const source = testSource(
        { fileType: format, stripLeadingZeroes: true, minItemsToBeActive: 3, ...overrides },
        { userActivatedItemNumbers: catalogue },
      );
      const file = { name: `stock.${format}`, bytes: writeTable([], rows, format) };
      const o = await run({ source, supplierFile: file });
      got.push({
        refused: o.refused,
        items: o.items,
        rowErrors: o.rowErrors,
        counts: o.counts,
        summary: o.result.processingSummary,
        columns: o.result.columnInfo,
        snapshots: o.snapshots,
        logs: o.result.processingLogs.slice(1),
      });
    }
    return got;
  };
  for (
    const overrides of [
      {},
      {
        statusSupersedesQuantity: true,
        itemStatusColumnName: "status",
        statusOutOfStockList: "Discontinued",
      },
      { qtyColumnName: "E" },
      { qtyColumnName: "F" },
      { qtyColumnName: "Nope" },
    ]
  ) {
    const [csv, xlsx] = await outcomes(overrides);
    assert.deepEqual(xlsx, csv, JSON.stringify(overrides));
  }
});
