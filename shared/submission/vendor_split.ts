/**
 * Reading an incoming order file and splitting its rows by vendor (DESIGN.md section 6, "Order
 * submission and vendors"): the vendor column's value is matched to each vendor's
 * `vendorNameFromFile` and its aliases, trimmed and case-insensitive.
 */
import { FEED_LIMITS, readTable, type Table } from "../files/mod.ts";
import type { MapField } from "../contract/order_submission.ts";
import { INCOMING_SYNONYMS, type IncomingColumns, recogniseColumns } from "./incoming_columns.ts";

/** A refusal of the order processing, worded for the person who set it up or sent the file. */
export class SubmissionError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "SubmissionError";
    this.code = code;
  }
}

/** What the split needs of a vendor (the contract's vendor has every field). */
export interface VendorForMatching {
  id: number;
  vendorNameFromFile: string;
  vendorProvidedAccountNumber?: string | null;
  activeStatus?: boolean;
  deletedStatus?: boolean;
  vendorSourceAliases?: readonly {
    vendorAliasNameFromFile: string;
    vendorProvidedAccountNumber?: string | null;
    activeStatus?: boolean;
    deletedStatus?: boolean;
  }[];
}

/** One incoming order row: its file row number, its cells, and the recognised fields' values. */
export interface OrderRow {
  /** 1-based file row (as a spreadsheet program shows it). */
  rowNumber: number;
  cells: readonly string[];
  /** Values of the recognised fields, trimmed. */
  fields: Partial<Record<MapField, string>>;
  /** The vendor cell as written in the file (trimmed). */
  vendorName: string;
}

/** The rows of one vendor. */
export interface VendorGroup<V extends VendorForMatching = VendorForMatching> {
  vendor: V;
  rows: OrderRow[];
  /** The account number of the alias the rows matched by, else the vendor's (may be ""). */
  accountNumbers: string[];
}

/** Rows whose vendor matched no vendor (or had no vendor at all: name ""). */
export interface UnmatchedVendor {
  name: string;
  rowNumbers: number[];
}

/** The split of an order file. */
export interface VendorSplit<V extends VendorForMatching = VendorForMatching> {
  headers: string[];
  columns: IncomingColumns;
  /** Groups in the order the vendors first appear in the file. */
  groups: VendorGroup<V>[];
  unmatched: UnmatchedVendor[];
  /** Data rows read. */
  rowCount: number;
}

/** The match key of a vendor name: trimmed, inner spaces collapsed, case-insensitive. */
export function vendorKey(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLocaleLowerCase("en-US");
}

/**
 * Reads an incoming order file (CSV, TXT, XLS or XLSX) with the feeds' limits.
 *
 * @throws {FileRefusedError} when the file cannot be read
 */
export function readOrderFile(bytes: Uint8Array, name?: string): Promise<Table> {
  return readTable(bytes, { name, limits: FEED_LIMITS });
}

/**
 * Groups an order table's rows by vendor. Inactive or deleted vendors and aliases do not match.
 * When two vendors claim the same name (a vendor's name and another's alias), the vendor's own
 * name wins, then the first vendor in the list.
 *
 * @throws {SubmissionError} `no_vendor_column` when no header is a vendor synonym, naming the
 *   headers found
 */
export function splitByVendor<V extends VendorForMatching>(
  table: Pick<Table, "headers" | "rows" | "rowNumbers">,
  vendors: readonly V[],
): VendorSplit<V> {
  const columns = recogniseColumns(table.headers);
  if (columns.vendor === undefined) {
    const found = table.headers.filter((h) => h !== "");
    throw new SubmissionError(
      "no_vendor_column",
      `The order file has no vendor column (a header named ${
        INCOMING_SYNONYMS.vendor.map((s) => `"${s}"`).join(", ")
      }). Headers found: ${found.length > 0 ? found.map((h) => `"${h}"`).join(", ") : "none"}.`,
    );
  }
  const byName = new Map<string, { vendor: V; account: string }>();
  const live = vendors.filter((v) => v.activeStatus !== false && v.deletedStatus !== true);
  for (const vendor of live) {
    const key = vendorKey(vendor.vendorNameFromFile);
    if (key !== "" && !byName.has(key)) {
      byName.set(key, { vendor, account: (vendor.vendorProvidedAccountNumber ?? "").trim() });
    }
  }
  for (const vendor of live) {
    for (const alias of vendor.vendorSourceAliases ?? []) {
      if (alias.activeStatus === false || alias.deletedStatus === true) continue;
      const key = vendorKey(alias.vendorAliasNameFromFile);
      if (key === "" || byName.has(key)) continue;
      const account = (alias.vendorProvidedAccountNumber ?? "").trim() ||
        (vendor.vendorProvidedAccountNumber ?? "").trim();
      byName.set(key, { vendor, account });
    }
  }

  const groups = new Map<number, VendorGroup<V>>();
  const unmatched = new Map<string, UnmatchedVendor>();
  const fieldColumns = Object.entries(columns).filter(([f]) => f !== "vendor") as [
    MapField,
    number,
  ][];
  table.rows.forEach((cells, i) => {
    const vendorName = (cells[columns.vendor!] ?? "").trim();
    const fields: Partial<Record<MapField, string>> = {};
    for (const [field, c] of fieldColumns) fields[field] = (cells[c] ?? "").trim();
    const row: OrderRow = { rowNumber: table.rowNumbers[i], cells, fields, vendorName };
    const hit = byName.get(vendorKey(vendorName));
    if (!hit) {
      const key = vendorKey(vendorName);
      const entry = unmatched.get(key) ?? { name: vendorName, rowNumbers: [] };
      entry.rowNumbers.push(row.rowNumber);
      unmatched.set(key, entry);
      return;
    }
    let group = groups.get(hit.vendor.id);
    if (!group) {
      group = { vendor: hit.vendor, rows: [], accountNumbers: [] };
      groups.set(hit.vendor.id, group);
    }
    group.rows.push(row);
    group.accountNumbers.push(hit.account);
  });
  return {
    headers: table.headers,
    columns,
    groups: [...groups.values()],
    unmatched: [...unmatched.values()],
    rowCount: table.rows.length,
  };
}

/** The distinct PO numbers of rows, in the order they first appear (blank ones left out). */
export function poNumbers(rows: readonly OrderRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) {
    const po = row.fields.mapPo ?? "";
    if (po !== "") seen.add(po);
  }
  return [...seen];
}
