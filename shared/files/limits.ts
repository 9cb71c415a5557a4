/** Caps that keep one hostile or oversized file from exhausting the server. */
export interface FileLimits {
  /** Size of the file as received, checked before anything is parsed. */
  maxBytes: number;
  /** File rows, blank rows included (a file of newlines is a cheap attack otherwise). */
  maxRows: number;
  /** Cells in one row. */
  maxColumns: number;
  /** Non-blank rows × their cells. */
  maxCells: number;
  /** Characters in one cell: Excel's own cap (32,767), so any cell could be written back. */
  maxCellChars: number;
  /** Entries in an XLSX (zip) container. */
  maxZipEntries: number;
  /** Uncompressed size of one zip entry. */
  maxEntryBytes: number;
  /** Uncompressed size of all zip entries together. */
  maxUncompressedBytes: number;
  /** Uncompressed ÷ compressed size of an entry, checked for entries over 1 MiB. */
  maxCompressionRatio: number;
}

const MIB = 1024 * 1024;

/** Limits for a manual upload: 10 MB is the spec's limit (10485760 bytes). */
export const UPLOAD_LIMITS: Readonly<FileLimits> = Object.freeze({
  maxBytes: 10 * MIB,
  maxRows: 1_000_000,
  maxColumns: 16_384,
  maxCells: 20_000_000,
  maxCellChars: 32_767,
  maxZipEntries: 1_000,
  maxEntryBytes: 256 * MIB,
  maxUncompressedBytes: 400 * MIB,
  maxCompressionRatio: 100,
});

/** Limits for files fetched from mailboxes and SFTP: same as uploads but 50 MB. */
export const FEED_LIMITS: Readonly<FileLimits> = Object.freeze({
  ...UPLOAD_LIMITS,
  maxBytes: 50 * MIB,
});

/**
 * Fills unset limits from {@link UPLOAD_LIMITS}.
 *
 * @example
 * ```ts
 * resolveLimits({ maxBytes: 50 * 1024 * 1024 }).maxRows // 1000000
 * ```
 */
export function resolveLimits(partial?: Partial<FileLimits>): FileLimits {
  return { ...UPLOAD_LIMITS, ...partial };
}

/** Formats a byte count the way the messages show it ("10 MB", "512 KB"). */
export function formatBytes(n: number): string {
  if (n >= MIB) return `${+(n / MIB).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
