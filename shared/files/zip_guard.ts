import { FileRefusedError } from "./errors.ts";
import { type FileLimits, formatBytes } from "./limits.ts";

/** One entry of a zip container, with the sizes its headers declare. */
export interface ZipEntry {
  name: string;
  method: number;
  declaredSize: number;
  compressedSize: number;
  dataOffset: number;
}

const RATIO_MIN_BYTES = 1024 * 1024;

function u16(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8);
}
function u32(b: Uint8Array, i: number): number {
  return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16)) + b[i + 3] * 0x1000000;
}
function u64(b: Uint8Array, i: number): number {
  return u32(b, i) + u32(b, i + 4) * 0x100000000;
}

function corrupt(detail: string): FileRefusedError {
  return new FileRefusedError("corrupt", `The workbook is damaged and cannot be read (${detail}).`);
}

/** Sizes from a ZIP64 extra field, which override 0xFFFFFFFF placeholders. */
function zip64Sizes(b: Uint8Array, start: number, end: number, usz: number, csz: number) {
  for (let p = start; p + 4 <= end;) {
    const id = u16(b, p), len = u16(b, p + 2);
    if (id === 1) {
      let q = p + 4;
      if (usz === 0xffffffff && q + 8 <= end) usz = u64(b, q), q += 8;
      if (csz === 0xffffffff && q + 8 <= end) csz = u64(b, q);
    }
    p += 4 + len;
  }
  return { usz, csz };
}

/**
 * Lists the entries the way SheetJS will read them: the last end-of-central-directory
 * record, then for every central entry the sizes in its local header (which SheetJS trusts).
 *
 * @throws {FileRefusedError} `zip_too_many_entries`, `encrypted` or `corrupt`
 */
export function listZipEntries(b: Uint8Array, limits: FileLimits): ZipEntry[] {
  let eocd = b.length - 22;
  while (
    eocd >= 0 &&
    !(b[eocd] === 0x50 && b[eocd + 1] === 0x4b && b[eocd + 2] === 5 && b[eocd + 3] === 6)
  ) {
    eocd--;
  }
  if (eocd < 0) throw corrupt("no zip directory");
  const count = u16(b, eocd + 10);
  if (count > limits.maxZipEntries) {
    throw new FileRefusedError(
      "zip_too_many_entries",
      `The workbook holds ${count} parts, more than the ${limits.maxZipEntries} allowed.`,
    );
  }
  let p = u32(b, eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > b.length || u32(b, p) !== 0x02014b50) throw corrupt("bad directory entry");
    const nameLen = u16(b, p + 28), extraLen = u16(b, p + 30), commentLen = u16(b, p + 32);
    const name = new TextDecoder().decode(b.subarray(p + 46, p + 46 + nameLen));
    const cd = zip64Sizes(
      b,
      p + 46 + nameLen,
      p + 46 + nameLen + extraLen,
      u32(b, p + 24),
      u32(b, p + 20),
    );
    let local = u32(b, p + 42);
    if (local === 0xffffffff) {
      // ZIP64: the extra field holds, in order, only the sizes whose 32-bit slot overflowed.
      for (let q = p + 46 + nameLen; q + 4 <= p + 46 + nameLen + extraLen;) {
        if (u16(b, q) === 1) {
          let at = q + 4;
          if (u32(b, p + 24) === 0xffffffff) at += 8;
          if (u32(b, p + 20) === 0xffffffff) at += 8;
          local = u64(b, at);
        }
        q += 4 + u16(b, q + 2);
      }
    }
    if (local + 30 > b.length || u32(b, local) !== 0x04034b50) throw corrupt("bad entry header");
    if (u16(b, local + 6) & 0x41) {
      throw new FileRefusedError(
        "encrypted",
        "The workbook is password-protected; remove the password and send it again.",
      );
    }
    const lNameLen = u16(b, local + 26), lExtraLen = u16(b, local + 28);
    const lx = zip64Sizes(
      b,
      local + 30 + lNameLen,
      local + 30 + lNameLen + lExtraLen,
      u32(b, local + 22),
      u32(b, local + 18),
    );
    entries.push({
      name,
      method: u16(b, local + 8),
      // SheetJS sizes its output buffer from the local header; the central one must agree too.
      declaredSize: Math.max(lx.usz, cd.usz),
      compressedSize: lx.csz || cd.csz,
      dataOffset: local + 30 + lNameLen + lExtraLen,
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Compressed bytes fed per step; at deflate's best ratio (about 1032:1) a step yields ≤ 17 MB. */
const FEED_STEP = 16 * 1024;

/**
 * Inflates one entry's data in pieces: compressed bytes go in {@link FEED_STEP} at a time and
 * each inflated piece is handed out as it comes, so neither side is ever held whole. Stopping
 * early (leaving the loop) cancels the rest. Stored entries come out as one piece.
 */
export async function* inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
): AsyncGenerator<Uint8Array> {
  const data = bytes.subarray(
    entry.dataOffset,
    Math.min(bytes.length, entry.dataOffset + entry.compressedSize),
  );
  if (entry.method === 0) {
    yield data;
    return;
  }
  if (entry.method !== 8) throw corrupt(`unsupported compression in ${entry.name}`);
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  let stop = false;
  // The decompressor emits one output chunk per input chunk, so feeding small slices keeps
  // memory bounded however far the data would expand.
  const feeding = (async () => {
    for (let at = 0; at < data.length && !stop; at += FEED_STEP) {
      await writer.write(data.slice(at, at + FEED_STEP));
    }
    if (!stop) await writer.close();
  })().catch(() => {});
  const reader = stream.readable.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    stop = true;
    if (!finished) await reader.cancel().catch(() => {});
    await feeding;
  }
}

/** Inflates one entry, counting bytes and stopping as soon as `cap` is passed. */
async function inflatedSize(bytes: Uint8Array, entry: ZipEntry, cap: number): Promise<number> {
  let total = 0;
  for await (const piece of inflateEntry(bytes, entry)) {
    total += piece.byteLength;
    if (total > cap) return total;
  }
  return total;
}

/** Raised inside a reader when an entry inflates past its declared size. */
class Overflow extends Error {}

/**
 * {@link inflateEntry} that counts as it goes and throws as soon as the entry grows past its
 * declared size (already checked against the caps), so a reader is never handed more than the
 * directory allowed. The size of an entry read to its end is recorded in `sizes`, which
 * {@link checkInflatedSizes} then takes instead of inflating the entry again.
 */
export async function* inflateCounted(
  bytes: Uint8Array,
  entry: ZipEntry,
  sizes: Map<ZipEntry, number>,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const piece of inflateEntry(bytes, entry)) {
    total += piece.byteLength;
    if (entry.method !== 0 && total > entry.declaredSize) throw new Overflow();
    for (let at = 0; at < piece.length; at += READ_PIECE) {
      yield at === 0 && piece.length <= READ_PIECE ? piece : piece.subarray(at, at + READ_PIECE);
    }
  }
  sizes.set(entry, total);
}

/**
 * Most bytes a reader gets at once. The XML readers turn each piece into a string; one over
 * V8's large-object size (128 kB) is promoted to the old generation the first time a scavenge
 * finds it in use and stays there until a full collection, which a 10 MB workbook may never
 * trigger: pieces of 133 kB (what 16 kB of a typical sheet inflates to) left about 14 MB of
 * dead text in the heap (docs/benchmarks.md, "Inventory"). 32 kB stays small even as UTF-16.
 */
const READ_PIECE = 32 * 1024;

/**
 * The checks that need no inflating: the entry count, each entry's declared size and ratio,
 * and their total. Returns the entries.
 *
 * @throws {FileRefusedError} `zip_*`, `encrypted` or `corrupt`
 */
export function checkZipDirectory(bytes: Uint8Array, limits: FileLimits): ZipEntry[] {
  const entries = listZipEntries(bytes, limits);
  let declaredTotal = 0;
  for (const e of entries) {
    checkEntrySize(e.name, e.declaredSize, e.compressedSize, limits);
    declaredTotal += e.declaredSize;
    checkTotal(declaredTotal, limits);
  }
  return entries;
}

/**
 * The checks on real sizes: every entry inflated natively while counting (entries whose size
 * `known` already holds, counted by {@link inflateCounted}, are not inflated again), so sizes
 * that lie in the headers are caught. Entries are checked in directory order, so the refusal
 * is the same whichever entries were counted before.
 *
 * @throws {FileRefusedError} `zip_*` or `corrupt`
 */
export async function checkInflatedSizes(
  bytes: Uint8Array,
  entries: ZipEntry[],
  limits: FileLimits,
  known: ReadonlyMap<ZipEntry, number> = new Map(),
): Promise<void> {
  let actualTotal = 0;
  for (const e of entries) {
    if (e.method === 0) {
      actualTotal += e.compressedSize;
      continue;
    }
    if (e.method !== 8) throw corrupt(`unsupported compression in ${e.name}`);
    let size = known.get(e);
    if (size === undefined) {
      try {
        size = await inflatedSize(bytes, e, Math.min(limits.maxEntryBytes, e.declaredSize));
      } catch {
        throw corrupt(`${e.name} does not inflate`);
      }
    }
    if (size > e.declaredSize) {
      throw new FileRefusedError(
        "zip_entry_too_large",
        `The workbook part ${e.name} is larger than its header declares; the file was tampered with.`,
      );
    }
    checkEntrySize(e.name, size, e.compressedSize, limits);
    actualTotal += size;
    checkTotal(actualTotal, limits);
  }
}

/**
 * Refuses zip bombs before SheetJS inflates anything: {@link checkZipDirectory}, then
 * {@link checkInflatedSizes} over every entry.
 *
 * @throws {FileRefusedError} `zip_*`, `encrypted` or `corrupt`
 */
export async function checkZipBomb(bytes: Uint8Array, limits: FileLimits): Promise<void> {
  await checkInflatedSizes(bytes, checkZipDirectory(bytes, limits), limits);
}

function checkEntrySize(name: string, size: number, compressed: number, limits: FileLimits) {
  if (size > limits.maxEntryBytes) {
    throw new FileRefusedError(
      "zip_entry_too_large",
      `The workbook part ${name} unpacks to more than ${
        formatBytes(limits.maxEntryBytes)
      }, over the limit.`,
    );
  }
  if (size > RATIO_MIN_BYTES && size > compressed * limits.maxCompressionRatio) {
    throw new FileRefusedError(
      "zip_ratio",
      `The workbook part ${name} expands ${
        Math.round(size / Math.max(compressed, 1))
      } times when unpacked (limit ${limits.maxCompressionRatio}); it looks like a zip bomb.`,
    );
  }
}

function checkTotal(total: number, limits: FileLimits) {
  if (total > limits.maxUncompressedBytes) {
    throw new FileRefusedError(
      "zip_too_large",
      `The workbook unpacks to more than ${
        formatBytes(limits.maxUncompressedBytes)
      }, over the limit.`,
    );
  }
}
