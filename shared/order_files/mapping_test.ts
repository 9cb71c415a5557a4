import assert from "node:assert/strict";
import { mapColumns } from "./mapping.ts";

const headers = ["PO", "Item Number", "Tracking #", "Customer PO Number", "Quantity", "Notes"];

Deno.test("mapColumns: configured, automatic and ignored columns", async (t) => {
  const cases: {
    name: string;
    normalization: Record<string, string | null>;
    ignore?: string;
    expected: Record<string, number>;
    fatal?: RegExp;
    log?: RegExp;
  }[] = [
    {
      name: "a configured header wins over the header named like the field",
      normalization: { customerPoNumber: "po", trackingNumbers: "Tracking #" },
      expected: { customerPoNumber: 0, itemNumber: 1, trackingNumbers: 2, qty: 4 },
    },
    {
      name: "without configuration, headers spelled like the field are read",
      normalization: {},
      expected: { customerPoNumber: 3, itemNumber: 1, trackingNumbers: 2, qty: 4 },
    },
    {
      name: "a column letter or 1-based index is accepted",
      normalization: { customerPoNumber: "A", itemNumber: "3" },
      expected: { customerPoNumber: 0, itemNumber: 2, qty: 4 },
    },
    {
      name: "ignored columns feed nothing",
      normalization: { customerPoNumber: "PO" },
      ignore: " item number ,QUANTITY, tracking #",
      expected: { customerPoNumber: 0 },
    },
    {
      name: "a configured column that is missing is logged",
      normalization: { customerPoNumber: "PO", brandName: "Brand" },
      expected: { customerPoNumber: 0, itemNumber: 1, trackingNumbers: 2, qty: 4 },
      log: /Column "Brand" for brandName is not in the file/,
    },
    {
      name: "a configured header differing only in spacing and punctuation is found",
      normalization: { customerPoNumber: "P.O.", itemNumber: "ItemNumber", brandName: "#" },
      expected: { customerPoNumber: 0, itemNumber: 1, trackingNumbers: 2, qty: 4 },
      log: /Column "#" for brandName is not in the file/,
    },
    {
      name: "a missing unique column is fatal and lists the headers",
      normalization: { customerPoNumber: "Order Ref" },
      expected: { itemNumber: 1, trackingNumbers: 2, qty: 4 },
      fatal: /unique field customerPoNumber \(configured as "Order Ref"\)\. Headers found: "PO"/,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const mapping = mapColumns(headers, {
        normalization: c.normalization,
        columnsToIgnore: c.ignore ?? null,
        uniqueField: "customerPoNumber",
      });
      assert.deepEqual(mapping.columns, c.expected);
      if (c.fatal) assert.match(mapping.fatal ?? "", c.fatal);
      else assert.equal(mapping.fatal, null);
      if (c.log) assert.match(mapping.log.join("\n"), c.log);
    });
  }
});

Deno.test("mapColumns: unconfigured fields prefer the header named like the field", () => {
  const file = ["PO Number", "Tracking", "Customer PO", "Tracking Number", "Vendor", "Quantity"];
  const mapping = mapColumns(file, {
    normalization: {},
    columnsToIgnore: "quantity",
    uniqueField: "customerPoNumber",
  });
  // "Vendor" is no spelling of supplierName: a column nobody named feeds nothing
  assert.deepEqual(mapping.columns, { customerPoNumber: 0, trackingNumbers: 3 });
  assert.equal(mapping.fatal, null);
});
