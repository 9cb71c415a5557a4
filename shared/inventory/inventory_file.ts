/**
 * The file type that process.ts and tally.ts share; its own module so that tally.ts need not
 * import process.ts, which imports tally.ts (tests/layers_test.ts finds import loops).
 */

/** A file by name and bytes. */
export interface InventoryFile {
  name: string;
  bytes: Uint8Array;
}
