/**
 * Keys of the submission outbox (docs/order_submission.md, "Outbox"): a row fingerprint per
 * incoming order row, and one key per (vendor, batch, rows), so that a re-delivered e-mail, a
 * re-run or a crash between sending and recording never sends the same orders to a vendor twice.
 */
import { sha256Hex } from "../sha256.ts";

/** Version prefix: changing what goes into a key changes this, never silently the hash. */
const KEY_VERSION = "submission-v1";

/** Normalises a cell for fingerprints: trimmed, inner whitespace collapsed. */
function normaliseCell(cell: string): string {
  return cell.trim().replace(/\s+/g, " ");
}

/**
 * Fingerprints of order rows: SHA-256 over the row's cells (trimmed, trailing empties dropped)
 * and the occurrence number of identical rows in the same file, so two identical lines in one
 * file stay two orders while the same line in a re-delivered file is the same order.
 *
 * @example await rowFingerprints([["PO-1", "Hammer", "2"]]) // ["3f1c…"] (64 hex digits)
 */
export async function rowFingerprints(rows: readonly (readonly string[])[]): Promise<string[]> {
  const seen = new Map<string, number>();
  const out: string[] = [];
  for (const row of rows) {
    const cells = row.map(normaliseCell);
    while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
    const body = JSON.stringify(cells);
    const n = seen.get(body) ?? 0;
    seen.set(body, n + 1);
    out.push(await sha256Hex(`${KEY_VERSION}\nrow\n${body}\n${n}`));
  }
  return out;
}

/** What identifies one sending. */
export interface SubmissionKeyInput {
  vendorId: number;
  /** The batch: e.g. `source:3/day:2026-11-23` (daily) or `vendor:7/due:2026-11-30` (non-daily). */
  batch: string;
  /** PO numbers of the rows (order and duplicates do not matter). */
  poNumbers: readonly string[];
  /** Fingerprints of the rows ({@link rowFingerprints}; order does not matter). */
  rowHashes: readonly string[];
}

/**
 * The outbox's idempotency key: stable for the same vendor, batch and set of rows whatever their
 * order, different when any of them changes. 64 hex digits prefixed with `sub1_`.
 */
export async function submissionKey(input: SubmissionKeyInput): Promise<string> {
  const pos = [...new Set(input.poNumbers.map(normaliseCell))].filter((p) => p !== "").sort();
  const rows = [...input.rowHashes].sort();
  const text = [
    KEY_VERSION,
    `vendor:${input.vendorId}`,
    `batch:${input.batch.trim()}`,
    `po:${JSON.stringify(pos)}`,
    `rows:${rows.join(",")}`,
  ].join("\n");
  return "sub1_" + await sha256Hex(text);
}

/**
 * The Message-ID of a submission e-mail, derived from its key, so that recovery after a crash
 * between sending and recording can look for the message (e.g. IMAP `SEARCH HEADER Message-ID`
 * in the send-from mailbox's Sent folder) and a retry of the same outbox row reuses the id.
 *
 * @example submissionMessageId("sub1_ab…", "shop.example.com") // "<sub1_ab….submission@shop.example.com>"
 */
export function submissionMessageId(key: string, domain: string): string {
  const host = domain.trim().replace(/^.*@/, "").replace(/[^A-Za-z0-9.-]/g, "") || "localhost";
  return `<${key}.submission@${host}>`;
}

/**
 * Rows not yet sent to the vendor: those whose fingerprint is not in `alreadySent` (the
 * vendor's row ledger). Keeps the rows' order.
 */
export function unsentRows<T>(
  rows: readonly T[],
  fingerprints: readonly string[],
  alreadySent: ReadonlySet<string>,
): { rows: T[]; fingerprints: string[]; skipped: number } {
  const out: T[] = [];
  const prints: string[] = [];
  rows.forEach((row, i) => {
    if (alreadySent.has(fingerprints[i])) return;
    out.push(row);
    prints.push(fingerprints[i]);
  });
  return { rows: out, fingerprints: prints, skipped: rows.length - out.length };
}
