/**
 * Stored files (`import_files`, one row per content by sha256) with their bytes in parts of
 * FILE_PART_BYTES, each written and read by a statement of its own (migration 0028): on the
 * embedded database every statement holds the one connection, and a whole 4.8 MB file in one
 * statement held it for 0.15–0.26 s while other users' searches waited (docs/architecture.md,
 * "Files in parts"). Call `storeImportFile` with the pool (`deps.db`) before the transaction that
 * records the run, so that the parts take turns with other users' statements; `createRun` inside
 * the transaction then finds the file by its hash.
 */
import type { Db } from "../db/client.ts";
import { sha256Hex } from "../../shared/sha256.ts";

/** The size of one stored part: one statement of about 10 ms on the embedded database. */
export const FILE_PART_BYTES = 256 * 1024;

/**
 * Stores `bytes` once per content and returns the file's id. Outside a transaction each part is
 * its own statement; a store cut off half-way leaves the file unmarked, and the next store of
 * the same content writes its parts again.
 *
 * @example
 * ```ts ignore
 * const fileId = await storeImportFile(deps.db, bytes); // then createRun in a transaction
 * ```
 */
export async function storeImportFile(db: Db, bytes: Uint8Array): Promise<number> {
  const sha = await sha256Hex(bytes);
  const [file] = await db.query<{ id: number; stored: boolean }>(
    `insert into import_files (sha256, size, stored) values ($1, $2, false)
     on conflict (sha256) do update set sha256 = excluded.sha256
     returning id, stored`,
    [sha, bytes.length],
  );
  if (file.stored) return file.id;
  // A store cut off half-way, or one running beside this one, wrote the same parts: overwrite.
  for (let part = 0; part * FILE_PART_BYTES < bytes.length; part++) {
    const start = part * FILE_PART_BYTES;
    await db.query(
      `insert into import_file_parts (file_id, part, bytes) values ($1, $2, $3)
       on conflict (file_id, part) do update set bytes = excluded.bytes`,
      // A copy of the part: a view would send the whole file's buffer to the database's worker.
      [file.id, part, bytes.slice(start, start + FILE_PART_BYTES)],
    );
  }
  await db.query("update import_files set stored = true where id = $1", [file.id]);
  return file.id;
}

/** A stored file's bytes (null when there is no such stored file), read part by part. */
export async function readImportFile(
  db: Db,
  fileId: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const [file] = await db.query<{ size: number; bytes: Uint8Array | null; stored: boolean }>(
    "select size, bytes, stored from import_files where id = $1",
    [fileId],
  );
  if (!file?.stored) return null;
  if (file.bytes) return new Uint8Array(file.bytes);
  const bytes = new Uint8Array(file.size);
  let at = 0;
  for (let part = 0; at < file.size; part++) {
    const [row] = await db.query<{ bytes: Uint8Array }>(
      "select bytes from import_file_parts where file_id = $1 and part = $2",
      [fileId, part],
    );
    if (!row) throw new Error(`Stored file ${fileId} is missing part ${part}.`);
    if (at + row.bytes.length > file.size) throw new Error(`Stored file ${fileId} is too long.`);
    bytes.set(row.bytes, at);
    at += row.bytes.length;
  }
  return bytes;
}
