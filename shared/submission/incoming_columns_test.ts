import assert from "node:assert/strict";
import { normaliseHeader, recogniseColumns } from "./incoming_columns.ts";

Deno.test("normaliseHeader drops case, spaces and punctuation", () => {
  assert.equal(normaliseHeader(" P.O. # "), "po");
  assert.equal(normaliseHeader("Ship-To  Name"), "shiptoname");
  assert.equal(normaliseHeader("Zip_Code"), "zipcode");
});

Deno.test("recogniseColumns: synonyms, best-ranked synonym wins, a header serves one field", () => {
  assert.deepEqual(
    recogniseColumns([
      "Supplier",
      "P.O. #",
      "Order Number",
      "QUANTITY",
      "Description",
      "SKU",
      "Notes",
    ]),
    { vendor: 0, mapPo: 1, mapQty: 3, mapItemDescription: 4 },
  );
  // "Order Number" stands in for PO when there is no better PO column.
  assert.deepEqual(recogniseColumns(["Vendor Name", "Order Number", "Item"]), {
    vendor: 0,
    mapPo: 1,
    mapItemDescription: 2,
  });
  assert.deepEqual(recogniseColumns(["Ship To Name", "Address", "Address 2", "Zip"]), {
    mapShipTo: 0,
    mapAddress1: 1,
    mapAddress2: 2,
    mapZipCode: 3,
  });
  assert.deepEqual(recogniseColumns([]), {});
});
