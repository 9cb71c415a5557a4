import assert from "node:assert/strict";
import fc from "fast-check";
import { readTable } from "./read_table.ts";
import { FileRefusedError } from "./errors.ts";

const dir = new URL("../../tests/fixtures/files/", import.meta.url);
const seeds = await Promise.all(
  ["orders_titled.xlsx", "orders_titled.xls", "inventory_utf16.txt", "inventory_semicolon.csv"].map(
    (n) => Deno.readFile(new URL(n, dir)),
  ),
);
const names = fc.constantFrom("f.csv", "f.txt", "f.xlsx", "f.xls", "f");

/** Reading may refuse the file, but must never throw anything else; tables stay well formed. */
async function readsOrRefuses(bytes: Uint8Array, name: string) {
  try {
    const t = await readTable(bytes, { name });
    assert.equal(t.rows.length, t.rowNumbers.length);
    for (const row of t.rows) assert.ok(row.length >= t.headers.length);
    for (const e of t.errors) {
      assert.ok(Number.isInteger(e.row) && e.row >= 1 && e.message.length > 0);
    }
  } catch (e) {
    if (!(e instanceof FileRefusedError)) throw e;
    assert.ok(e.message.length > 0);
  }
}

// The timeout turns a hang into a failure instead of a stuck test run.
const params = { numRuns: 150, timeout: 20_000 };

Deno.test("property: random bytes are read or refused, never crash the reader", async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), names, readsOrRefuses),
    params,
  );
});

Deno.test("property: random delimited text is read or refused", async () => {
  const chars = fc.constantFrom(
    ",",
    ";",
    "\t",
    "|",
    '"',
    "\n",
    "\r",
    " ",
    "a",
    "0",
    "1",
    "é",
    "=",
    "N/A",
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(chars, { maxLength: 400 }).map((a) => new TextEncoder().encode(a.join(""))),
      names,
      readsOrRefuses,
    ),
    params,
  );
});

Deno.test("property: damaged real workbooks and files are read or refused", async () => {
  const damaged = fc.tuple(
    fc.constantFrom(...seeds.keys()),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 20 }),
    fc.option(fc.nat(), { nil: undefined }),
  ).map(([i, edits, cut]) => {
    const b = seeds[i].slice(0, cut === undefined ? undefined : cut % (seeds[i].length + 1));
    for (const [at, v] of edits) if (b.length > 0) b[at % b.length] = v;
    return b;
  });
  await fc.assert(fc.asyncProperty(damaged, names, readsOrRefuses), { ...params, numRuns: 100 });
});
