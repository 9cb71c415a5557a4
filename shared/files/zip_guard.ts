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

/**
 * The refusal of a workbook that ends early: a zip's directory is written last, so a transfer
 * cut off anywhere leaves the file without it (or with parts running past the end).
 */
export function truncated(detail: string): FileRefusedError {
  return new FileRefusedError(
    "truncated_file",
    `The workbook ends early (${detail}): it was cut off in transfer; nothing was read. ` +
      "Send the whole file again.",
  );
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

/** Whether the end-of-central-directory record is where a zip keeps it (its last 64 kB). */
export function hasZipEnd(b: Uint8Array): boolean {
  for (let i = b.length - 22; i >= 0 && i >= b.length - 22 - 0xffff; i--) {
    if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 5 && b[i + 3] === 6) return true;
  }
  return false;
}

/**
 * Lists the entries the way SheetJS will read them: the last end-of-central-directory
 * record, then for every central entry the sizes in its local header (which SheetJS trusts).
 *
 * @throws {FileRefusedError} `truncated_file`, `zip_too_many_entries`, `encrypted` or `corrupt`
 */
export function listZipEntries(b: Uint8Array, limits: FileLimits): ZipEntry[] {
  let eocd = b.length - 22;
  while (
    eocd >= 0 &&
    !(b[eocd] === 0x50 && b[eocd + 1] === 0x4b && b[eocd + 2] === 5 && b[eocd + 3] === 6)
  ) {
    eocd--;
  }
  if (eocd < 0) {
    // It starts as a zip (a local entry header) and has no end: cut off.
    if (u32(b, 0) === 0x04034b50) throw truncated("its zip directory is missing");
    throw corrupt("no zip directory");
  }
  const count = u16(b, eocd + 10);
  if (count > limits.maxZipEntries) {
    throw new FileRefusedError(
      "zip_too_many_entries",
      `The workbook holds ${count} parts, more than the ${limits.maxZipEntries} allowed.`,
    );
  }
  let p = u32(b, eocd + 16);
  // A directory said to start past the end record: the bytes before that record were cut.
  if (p > eocd && u32(b, eocd + 16) !== 0xffffffff) throw truncated("its zip directory is cut");
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
    const dataOffset = local + 30 + lNameLen + lExtraLen;
    const compressedSize = lx.csz || cd.csz;
    if (dataOffset + compressedSize > b.length) truncatedEntry(name);
    entries.push({
      name,
      method: u16(b, local + 8),
      // SheetJS sizes its output buffer from the local header; the central one must agree too.
      declaredSize: Math.max(lx.usz, cd.usz),
      compressedSize,
      dataOffset,
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function truncatedEntry(name: string): never {
  throw truncated(`the part ${name} runs past the end of the file`);
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
async function inflatedSize(
  bytes: Uint8Array,
  entry: ZipEntry,
  cap: number,
  tails?: Map<ZipEntry, Uint8Array>,
): Promise<number> {
  let total = 0;
  let tail: Uint8Array = EMPTY;
  for await (const piece of inflateEntry(bytes, entry)) {
    total += piece.byteLength;
    if (total > cap) return total;
    if (tails) tail = keepTail(tail, piece);
  }
  tails?.set(entry, tail);
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
  tails?: Map<ZipEntry, Uint8Array>,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  let tail: Uint8Array = EMPTY;
  for await (const piece of inflateEntry(bytes, entry)) {
    total += piece.byteLength;
    if (entry.method !== 0 && total > entry.declaredSize) throw new Overflow();
    if (tails) tail = keepTail(tail, piece);
    for (let at = 0; at < piece.length; at += READ_PIECE) {
      yield at === 0 && piece.length <= READ_PIECE ? piece : piece.subarray(at, at + READ_PIECE);
    }
  }
  sizes.set(entry, total);
  tails?.set(entry, tail);
}

const EMPTY: Uint8Array = new Uint8Array(0);
/**
 * Bytes kept of the end of an inflated part: enough for `</x:worksheet>` and spaces after, or a
 * whole empty root such as POI's `<sst count="0" uniqueCount="0" xmlns="…"/>`.
 */
const TAIL_BYTES = 256;

/** The last {@link TAIL_BYTES} of `tail` followed by `piece` (a copy: pieces are reused). */
function keepTail(tail: Uint8Array, piece: Uint8Array): Uint8Array {
  if (piece.length >= TAIL_BYTES) return piece.slice(piece.length - TAIL_BYTES);
  const out = new Uint8Array(Math.min(TAIL_BYTES, tail.length + piece.length));
  const fromTail = out.length - piece.length;
  out.set(tail.subarray(tail.length - fromTail), 0);
  out.set(piece, fromTail);
  return out;
}

/** The root element each kind of part must close with, by the part's path. */
const CLOSING_ROOT: [RegExp, string][] = [
  [/^xl\/worksheets\/[^/]+\.xml$/i, "worksheet"],
  [/^xl\/sharedStrings\.xml$/i, "sst"],
];

/**
 * Refuses a workbook whose sheet (or shared strings) XML stops before its root element closes:
 * a zip intact around a part that was cut off when it was written. SheetJS reads such a sheet
 * as far as it goes, which would pass a half sheet for a whole one. `tails` holds the last
 * bytes of every part (see {@link checkInflatedSizes}).
 *
 * @throws {FileRefusedError} `truncated_file`
 */
export function checkPartsClosed(
  entries: ZipEntry[],
  tails: ReadonlyMap<ZipEntry, Uint8Array>,
): void {
  for (const e of entries) {
    const root = CLOSING_ROOT.find(([path]) => path.test(e.name))?.[1];
    const tail = tails.get(e);
    if (root === undefined || tail === undefined) continue;
    const text = new TextDecoder("latin1").decode(tail).trimEnd().replace(/\0+$/, "");
    const closed = new RegExp(`</(?:[\\w.-]+:)?${root}\\s*>$|<(?:[\\w.-]+:)?${root}\\b[^<>]*/>$`);
    if (!closed.test(text)) {
      throw truncated(`the XML of ${e.name} stops before its end`);
    }
  }
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
 * is the same whichever entries were counted before. With `tails`, the last bytes of every
 * entry are left there for {@link checkPartsClosed} (entries whose tail is there already are
 * not inflated again).
 *
 * @throws {FileRefusedError} `zip_*` or `corrupt`
 */
export async function checkInflatedSizes(
  bytes: Uint8Array,
  entries: ZipEntry[],
  limits: FileLimits,
  known: ReadonlyMap<ZipEntry, number> = new Map(),
  tails?: Map<ZipEntry, Uint8Array>,
): Promise<void> {
  let actualTotal = 0;
  for (const e of entries) {
    if (e.method === 0) {
      actualTotal += e.compressedSize;
      tails?.set(e, keepTail(EMPTY, bytes.subarray(e.dataOffset, e.dataOffset + e.compressedSize)));
      continue;
    }
    if (e.method !== 8) throw corrupt(`unsupported compression in ${e.name}`);
    let size = known.get(e);
    if (size === undefined || (tails && !tails.has(e))) {
      try {
        size = await inflatedSize(bytes, e, Math.min(limits.maxEntryBytes, e.declaredSize), tails);
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
