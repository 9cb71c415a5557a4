import * as XLSX from "xlsx";
import { toCsvText } from "../shared/files/write_table.ts";
import { rezip } from "./rezip.ts";

/** One row of the results table. */
export interface Result {
  name: string;
  what: string;
  rows: number;
  fileBytes: number;
  rowsPerSecond: number;
  peakBytes: number;
}

const HEADERS = [
  "PO Number",
  "Order Date",
  "Item Number",
  "Description",
  "Qty",
  "Unit Price",
  "Total",
  "Customer",
  "Ship To",
  "City",
  "State",
  "Zip",
  "Tracking Number",
];

/** A deterministic 13-column order file, the shape the order tracking feeds receive. */
export function orderRows(count: number): string[][] {
  const rows: string[][] = [];
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
  for (let i = 0; i < count; i++) {
    const qty = 1 + rnd(40);
    const price = (100 + rnd(90000)) / 100;
    rows.push([
      `PO-${100000 + i}`,
      `${1 + rnd(12)}/${1 + rnd(28)}/2024`,
      String(rnd(1_000_000)).padStart(7, "0"),
      `Widget ${rnd(5000)}, size ${rnd(40)}`,
      String(qty),
      price.toFixed(2),
      (qty * price).toFixed(2),
      `Customer ${rnd(20000)}`,
      `Store #${rnd(900)}`,
      ["Springfield", "Riverside", "Fairview", "Madison"][rnd(4)],
      ["CA", "TX", "NY", "OH", "WA"][rnd(5)],
      String(10000 + rnd(89999)),
      `1Z${rnd(1e9)}${rnd(1e9)}`,
    ]);
  }
  return rows;
}

/**
 * Writes the bench files into `dir`; returns their paths. The XLSX is laid out as Excel and
 * LibreOffice write it: text in shared strings, parts deflated by zlib.
 */
export async function writeBenchFiles(
  dir: string,
  count: number,
): Promise<{ csv: string; xlsx: string }> {
  const rows = orderRows(count);
  const csv = `${dir}/orders.csv`, xlsx = `${dir}/orders.xlsx`;
  Deno.writeTextFileSync(csv, toCsvText([HEADERS, ...rows]));
  const ws = XLSX.utils.aoa_to_sheet([
    HEADERS,
    ...rows.map((r) => r.map((c, i) => (i === 4 || i === 5 || i === 6 ? Number(c) : c))),
  ]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "Orders");
  const written = XLSX.write(wb, { type: "array", bookType: "xlsx", bookSST: true });
  Deno.writeFileSync(xlsx, await rezip(new Uint8Array(written)));
  return { csv, xlsx };
}

/**
 * The V8 flags the app's processes run with (the `start` task in deno.json), so each case is
 * measured as the app would run it.
 */
export function appV8Flags(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  return (config.tasks.start as string).match(/--v8-flags=\S+/g) ?? [];
}

/**
 * Runs one case in its own process (with the app's V8 flags): the best time of the runs after the first (the machine
 * is shared, and the best run is the one least disturbed by others), peak memory of the first.
 */
export async function measure(
  kind: string,
  file: string,
  runs: number,
): Promise<{ rows: number; seconds: number; peakBytes: number }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...appV8Flags(),
      new URL("./measure_file_read.ts", import.meta.url).pathname,
      kind,
      file,
      String(runs),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`bench case ${kind} failed`);
  const r = JSON.parse(new TextDecoder().decode(out.stdout));
  return { rows: r.rows, seconds: Math.min(...r.seconds.slice(1)), peakBytes: r.peakBytes };
}
