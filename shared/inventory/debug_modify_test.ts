import assert from "node:assert/strict";
import { decodeBase64 } from "../base64.ts";
import { readTable } from "../files/mod.ts";
import { DEBUG_SUCCESS_TEXT } from "../contract/inventory.ts";
import { debugModifyInventoryFile, successRate, testQuantities } from "./debug_modify.ts";
import { testSource } from "./testing.ts";

const FIXTURES = new URL("../../tests/fixtures/files/", import.meta.url);

Deno.test("debug modify: test quantities in the upload's own format, success rate", async () => {
  for (const name of ["inventory_utf8.csv", "inventory.xlsx", "inventory_semicolon.csv"]) {
    const source = testSource(
      { stripLeadingZeroes: true, minItemsToBeActive: 5 },
      { userActivatedItemNumbers: "123, 456, A-77" },
    );
    const bytes = Deno.readFileSync(new URL(name, FIXTURES));
    const { result, output } = await debugModifyInventoryFile({
      source,
      supplierFile: { name, bytes },
    });
    assert.equal(result.success, true, result.message);
    assert.equal(result.message, DEBUG_SUCCESS_TEXT);
    assert.equal(result.isDebugResult, true);
    assert.equal(result.modificationsCount, 3);
    assert.equal(successRate(result.modificationsCount, result.processingSummary!.totalRows), 75);
    assert.deepEqual(
      result.processingSummary!.modifications.map((m) => [
        m.rowIndex,
        m.itemNumber,
        m.originalQuantity,
        m.newQuantity,
      ]),
      [[2, "00123", 5, 0], [3, "00456", 1250, 4], [4, "A-77", null, 5]],
      name,
    );
    assert.equal(output!.fileName, name.replace(".", "_debug."));
    assert.deepEqual(decodeBase64(result.fileData!), output!.bytes);
    const t = await readTable(output!.bytes, { name: output!.fileName });
    assert.deepEqual(t.headers, ["Item Number", "Description", "Qty", "Price", "Updated"]);
    assert.deepEqual(t.rows.map((r) => [r[0], r[2]]), [
      ["00123", "0"],
      ["00456", "4"],
      ["A-77", "5"],
      ["0", "0"],
    ], name);
    assert.equal(t.rows[1][1], 'Größe 12" pipe, "heavy"\nsecond line');
    assert.ok(result.debugLogs.at(-1)!.startsWith("Modified 3 of 4 rows (75 %)"));
  }
});

Deno.test("debug modify: a missing column fails with the message", async () => {
  const { result, output } = await debugModifyInventoryFile({
    source: testSource({ qtyColumnName: "Stock" }),
    supplierFile: {
      name: "inventory_utf8.csv",
      bytes: Deno.readFileSync(new URL("inventory_utf8.csv", FIXTURES)),
    },
  });
  assert.equal(result.success, false);
  assert.equal(result.isDebugResult, true);
  assert.match(result.message, /^Column "Stock" was not found\. Headers found: "Item Number"/);
  assert.equal(output, null);
});

Deno.test("debug test quantities and success rate", () => {
  assert.deepEqual(testQuantities(null), [0, 1, 10]);
  assert.deepEqual(testQuantities(5), [0, 4, 5, 15]);
  assert.deepEqual(testQuantities(1), [0, 1, 11]);
  assert.equal(successRate(2, 3), 67);
  assert.equal(successRate(0, 0), 0);
});
