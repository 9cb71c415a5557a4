import assert from "node:assert/strict";
import { openTestDb } from "../../tests/support/db.ts";
import { FILE_PART_BYTES, readImportFile, storeImportFile } from "./import_files.ts";

/** Bytes that differ at every position, so a part out of order or missing changes the file. */
const bytesOf = (size: number, seed: number) =>
  Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed * 7 + (i >> 8)) % 251);

Deno.test("stored files: every size comes back byte for byte, once per content", async (t) => {
  const { db, close } = await openTestDb();
  try {
    const sizes = [
      0,
      1,
      FILE_PART_BYTES - 1,
      FILE_PART_BYTES,
      FILE_PART_BYTES + 1,
      3 * FILE_PART_BYTES + 5,
    ];
    for (const [seed, size] of sizes.entries()) {
      await t.step(`${size} bytes`, async () => {
        const bytes = bytesOf(size, seed);
        const id = await storeImportFile(db, bytes);
        assert.deepEqual(await readImportFile(db, id), bytes);
        assert.equal(await storeImportFile(db, bytes.slice()), id, "the same content, stored once");
        const [{ parts }] = await db.query<{ parts: number }>(
          "select count(*)::int as parts from import_file_parts where file_id = $1",
          [id],
        );
        assert.equal(parts, Math.ceil(size / FILE_PART_BYTES));
      });
    }

    await t.step(
      "a store cut off half-way is not read, and the next store completes it",
      async () => {
        const bytes = bytesOf(2 * FILE_PART_BYTES + 10, 99);
        const id = await storeImportFile(db, bytes);
        await db.query("update import_files set stored = false where id = $1", [id]);
        await db.query("delete from import_file_parts where file_id = $1 and part > 0", [id]);
        assert.equal(await readImportFile(db, id), null);
        assert.equal(await storeImportFile(db, bytes), id);
        assert.deepEqual(await readImportFile(db, id), bytes);
      },
    );

    await t.step("a file stored whole before parts existed is still read", async () => {
      const bytes = bytesOf(1000, 5);
      const [{ id }] = await db.query<{ id: number }>(
        `insert into import_files (sha256, size, bytes) values ('old', $1, $2) returning id`,
        [bytes.length, bytes],
      );
      assert.deepEqual(await readImportFile(db, id), bytes);
    });

    await t.step("no such file", async () => {
      assert.equal(await readImportFile(db, 999_999), null);
    });
  } finally {
    await close();
  }
});
