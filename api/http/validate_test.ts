import assert from "node:assert/strict";
import { z } from "zod";
import { alignKeys, caseInsensitive } from "./validate.ts";

const schema = z.object({
  id: z.number(),
  pageSize: z.number().optional(),
  fileData: z.object({ inventoryFileName: z.string() }).nullable().optional(),
  aliases: z.array(z.object({ vendorAliasNameFromFile: z.string() })).default([]),
  sortParams: z.record(z.string(), z.boolean()).optional(),
});

Deno.test("keys are aligned to the schema's spelling at every depth", () => {
  assert.deepEqual(
    alignKeys({
      Id: 3,
      PAGESIZE: 10,
      FileData: { InventoryFileName: "a.csv" },
      Aliases: [{ VendorAliasNameFromFile: "Acme" }],
      SortParams: { PoNumber: true },
      Extra: 1,
    }, schema),
    {
      id: 3,
      pageSize: 10,
      fileData: { inventoryFileName: "a.csv" },
      aliases: [{ vendorAliasNameFromFile: "Acme" }],
      // Record keys are data, not field names: kept as sent.
      sortParams: { PoNumber: true },
      Extra: 1,
    },
  );
});

Deno.test("an exact-case key wins over a differently cased duplicate", () => {
  assert.deepEqual(alignKeys({ id: 1, Id: 2 }, schema), { id: 1 });
  assert.deepEqual(alignKeys({ Id: 2, id: 1 }, schema), { id: 1 });
});

Deno.test("caseInsensitive validates after aligning", () => {
  assert.deepEqual(caseInsensitive(schema).parse({ ID: 1 }), { id: 1, aliases: [] });
  assert.throws(() => caseInsensitive(schema).parse({ ID: "x" }));
});

Deno.test("alignKeys drops a __proto__ key instead of following it", () => {
  const schema = z.object({ firstName: z.string().optional() });
  const aligned = alignKeys(JSON.parse('{"__proto__":{"x":1},"FirstName":"Al"}'), schema);
  assert.deepEqual(aligned, { firstName: "Al" });
  assert.equal(Object.getPrototypeOf(aligned), Object.prototype);
});
