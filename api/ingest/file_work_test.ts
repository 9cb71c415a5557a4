/**
 * The file-work pool: a file is read in a worker with the same result as in this thread, a
 * refused file keeps its reason, and a task past the limit fails with a sentence staff can read
 * while the pool goes on with a fresh worker.
 */
import assert from "node:assert/strict";
import { FileRefusedError, readTable, type Table } from "../../shared/files/mod.ts";
import { fileWorkPool, FileWorkTimeoutError } from "./file_work.ts";
import { type OrderFileRecords, readOrderFile } from "../../shared/order_files/read_order_file.ts";

const csv = (rows: number) =>
  new TextEncoder().encode(
    "PO,Item,Qty\n" +
      Array.from({ length: rows }, (_, i) => `PO-${i},SKU-${i % 977},${i % 13}`).join("\n"),
  );

Deno.test("file work: read in a worker, refused files keep their reason", async () => {
  const pool = fileWorkPool({ size: 1, seconds: 60 });
  try {
    const bytes = csv(2000);
    const expected = await readTable(bytes, { name: "orders.csv" });
    const table = await pool.run<Table>(
      { task: "readTable", input: { bytes, options: { name: "orders.csv" } } },
      { what: "Reading the file" },
    );
    assert.deepEqual(table, expected);
    await assert.rejects(
      pool.run({
        task: "readTable",
        input: { bytes: new Uint8Array(), options: { name: "a.csv" } },
      }, {
        what: "Reading the file",
      }),
      (error) => error instanceof FileRefusedError && error.code === "empty",
    );
  } finally {
    pool.close();
  }
});

Deno.test("file work: long outputs come back in parts and whole, however many rows", async (t) => {
  const pool = fileWorkPool({ size: 1, seconds: 60 });
  const settings = {
    normalization: { customerPoNumber: "PO" },
    columnsToIgnore: null,
    uniqueField: "customerPoNumber" as const,
    secondaryDelimiter: null,
  };
  try {
    // Parts hold 2,000 entries: none, less than one, exactly two, two and a bit.
    for (const rows of [0, 3, 4_000, 5_001]) {
      await t.step(`${rows} rows`, async () => {
        const options = { name: "orders.csv" };
        const bytes = rows ? csv(rows) : new TextEncoder().encode("PO,Item,Qty\n");
        const table = await pool.run<Table>(
          { task: "readTable", input: { bytes, options } },
          { what: "Reading the file" },
        );
        assert.deepEqual(table, await readTable(bytes, options));
        const read = await pool.run<OrderFileRecords>(
          { task: "readOrderFile", input: { bytes, options, settings } },
          { what: "Reading the file" },
        );
        assert.deepEqual(read, await readOrderFile(bytes, options, settings));
        assert.equal(read.records.length, rows);
      });
    }
  } finally {
    pool.close();
  }
});

Deno.test("file work: a file past the time limit fails with the reason; the next one is read", async () => {
  // A quarter second: less than reading 900,000 rows takes (1 s was beaten on a quiet machine), more
  // than three rows take on a loaded one.
  const pool = fileWorkPool({ size: 1, seconds: 0.25 });
  try {
    const big = csv(900_000);
    await assert.rejects(
      pool.run({
        task: "readTable",
        input: { bytes: big, options: { name: "big.csv", limits: { maxBytes: 2 ** 30 } } },
      }, {
        what: "Reading the file",
        transfer: [big.buffer],
      }),
      (error) =>
        error instanceof FileWorkTimeoutError &&
        error.message.startsWith("Reading the file took longer than 0.25 s;"),
    );
    assert.equal(big.byteLength, 0, "the bytes moved to the worker instead of being copied");
    const table = await pool.run<Table>(
      { task: "readTable", input: { bytes: csv(3), options: { name: "small.csv" } } },
      { what: "Reading the file" },
    );
    assert.equal(table.rows.length, 3);
  } finally {
    pool.close();
  }
});
