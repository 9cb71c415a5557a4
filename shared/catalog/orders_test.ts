import assert from "node:assert/strict";
import {
  columnsOf,
  defineCatalog,
  fieldsOfKind,
  fileFieldsOf,
  labelsOf,
  recordSchema,
  searchFieldsOf,
  uniqueChoicesOf,
} from "./catalog.ts";
import { ORDER_CATALOG } from "./orders.ts";
import {
  DATE_FIELDS,
  NUMBER_FIELDS,
  ORDER_FIELDS,
  SEARCH_FIELDS,
  UNIQUE_COLUMNS,
} from "../contract/order_tracking.ts";
import { ORDER_TRACKING_COLUMNS } from "../contract/order_columns.ts";

Deno.test("the order lists are the ones the spec names", () => {
  assert.deepEqual(DATE_FIELDS, ["estimatedArrivalDate", "orderDate", "poDate", "shippedDate"]);
  assert.deepEqual(NUMBER_FIELDS, ["qty", "qtyFulfilled"]);
  assert.equal(ORDER_TRACKING_COLUMNS.length, 22);
  assert.deepEqual(ORDER_FIELDS, ORDER_TRACKING_COLUMNS.filter((c) => c !== "notes"));
  assert.equal(UNIQUE_COLUMNS.length, 20);
  assert.equal(UNIQUE_COLUMNS[12], "QTY");
  assert.deepEqual(SEARCH_FIELDS.map((f) => f.key), [
    "PoNumberParam",
    "ItemNumberParam",
    "TrackingNumberParam",
    "ShipToNameParam",
    "SupplierNameParam",
    "BrandNameParam",
  ]);
});

Deno.test("adding a date column is one catalog line", () => {
  // A throw-away copy of the catalog with one more date field, as the next migration would add.
  const catalog = defineCatalog({
    ...ORDER_CATALOG,
    promisedDate: { label: "Promised Date", kind: "date", unique: "PromisedDate" },
  });
  assert.equal(columnsOf(catalog).at(-1), "promisedDate");
  assert.deepEqual(fieldsOfKind(catalog, "date"), [...DATE_FIELDS, "promisedDate"]);
  assert.deepEqual(fieldsOfKind(catalog, "number"), NUMBER_FIELDS);
  assert.ok(fileFieldsOf(catalog).includes("promisedDate"));
  assert.equal(labelsOf(catalog).promisedDate, "Promised Date");
  assert.equal(uniqueChoicesOf(catalog).at(-1), "PromisedDate");
  assert.deepEqual(searchFieldsOf(catalog), searchFieldsOf(ORDER_CATALOG));

  const schema = recordSchema(catalog);
  const order = Object.fromEntries([
    ["id", 1],
    ...columnsOf(ORDER_CATALOG).map((c) => [c, c === "trackingNumbers" ? [] : null]),
    ["promisedDate", "2024-03-05T00:00:00"],
  ]);
  const parsed = schema.parse(order);
  // The inferred type has the new field, as `string | null`.
  const promised: string | null = parsed.promisedDate;
  assert.equal(promised, "2024-03-05T00:00:00");
  assert.throws(() => schema.parse({ ...order, promisedDate: 5 }));
});
