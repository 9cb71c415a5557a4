import assert from "node:assert/strict";
import { explainItem } from "./explain.ts";
import { processInventory } from "./process.ts";
import { testSource } from "./testing.ts";

const source = {
  minItemsToBeActive: 5,
  statusAvailableList: "in stock",
  statusOutOfStockList: "gone",
};

Deno.test("explainItem words each rule the engine decided by", () => {
  const cases: [Parameters<typeof explainItem>, string][] = [
    [
      [{ status: "Inactive", quantity: 3, decidedBy: "quantity" }, source],
      "Quantity 3 is below the minimum quantity of 5",
    ],
    [
      [{ status: "Active", quantity: 5, decidedBy: "quantity" }, source],
      "Quantity 5 is at least the minimum quantity of 5",
    ],
    [[{ status: "Active", quantity: 1, decidedBy: "quantity" }, {
      ...source,
      minItemsToBeActive: null,
    }], "Quantity 1 is above 0"],
    [[{ status: "Inactive", quantity: 0, decidedBy: "quantity" }, {
      ...source,
      minItemsToBeActive: null,
    }], "Quantity 0 is not above 0"],
    [
      [{ status: "Inactive", quantity: null, decidedBy: "missing" }, source],
      "Missing from the supplier's file",
    ],
    [
      [{ status: "Inactive", quantity: null, decidedBy: "no quantity" }, source],
      "No readable quantity in the supplier's file",
    ],
    [
      [{ status: "Inactive", quantity: 9, decidedBy: "status" }, source, " Gone "],
      'Out-of-stock status "Gone" in the supplier\'s file',
    ],
    [
      [{ status: "Active", quantity: 0, decidedBy: "status" }, source, "In Stock"],
      'Available status "In Stock" in the supplier\'s file',
    ],
    [
      [{ status: "Inactive", quantity: 9, decidedBy: "status" }, source, "in stock"],
      "Out-of-stock status in the supplier's file",
    ],
    [
      [
        { status: "Inactive", quantity: 40, decidedBy: "prediction" },
        source,
        undefined,
        "Predicted: quantity 40 is below the required stock 86 (selling 3/day): made Inactive",
      ],
      "Predicted to sell out before the next file: quantity 40 is below the required stock 86 (selling 3/day)",
    ],
  ];
  for (const [args, expected] of cases) assert.equal(explainItem(...args), expected);
});

Deno.test("keepRows: each item's last row (bounded) and reason; off by default", async () => {
  const src = testSource({ minItemsToBeActive: 2 }, { userActivatedItemNumbers: "A1\nA2" });
  const file = {
    name: "s.csv",
    bytes: new TextEncoder().encode(
      `Item Number,Qty,Note\r\nA1,5,${"x".repeat(300)}\r\nA2,1,b\r\n`,
    ),
  };
  const now = new Date("2026-11-24T10:00:00Z");
  const off = await processInventory({ source: src, supplierFile: file, now });
  assert.equal(off.items[0].row, undefined);
  assert.equal(off.supplierHeaders, undefined);
  const on = await processInventory({ source: src, supplierFile: file, now, keepRows: true });
  assert.deepEqual(on.supplierHeaders, ["Item Number", "Qty", "Note"]);
  assert.equal(on.items[0].row![2].length, 200);
  assert.equal(on.items[0].rowNumber, 2);
  assert.deepEqual(on.items[1].row, ["A2", "1", "b"]);
  assert.equal(on.items[1].reason, "Quantity 1 is below the minimum quantity of 2");
});
