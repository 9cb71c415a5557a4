/**
 * One measurement in a fresh process, so peak memory belongs to one parser alone.
 * Usage: deno run -A bench/measure_file_read.ts <case> <file> <runs>
 * Prints JSON: { rows, seconds: [...], peakBytes }.
 */
import Papa from "papaparse";
import * as XLSX from "xlsx";
import { readTable } from "../shared/files/mod.ts";

const [kind, file, runsArg] = Deno.args;
const runs = Number(runsArg ?? 3);

function status(field: string): number {
  const line = Deno.readTextFileSync("/proc/self/status").split("\n").find((l) =>
    l.startsWith(field)
  );
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024;
}

const cases: Record<string, (bytes: Uint8Array) => Promise<number> | number> = {
  "ours-csv": async (b) =>
    (await readTable(b, { name: "orders.csv", limits: { maxBytes: 1e9 } })).rows.length,
  "bare-papaparse": (b) => Papa.parse<string[]>(new TextDecoder().decode(b)).data.length - 2,
  "ours-xlsx": async (b) =>
    (await readTable(b, { name: "orders.xlsx", limits: { maxBytes: 1e9 } })).rows.length,
  "bare-sheetjs": (b) => {
    const wb = XLSX.read(b, { type: "array" });
    return XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[0]], { header: 1 }).length -
      1;
  },
};

const bytes = await Deno.readFile(file);
const run = cases[kind];
if (!run) throw new Error(`unknown case ${kind}`);
const base = status("VmRSS:");
const seconds: number[] = [];
let rows = 0;
let peakBytes = 0;
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  rows = await run(bytes);
  seconds.push((performance.now() - t0) / 1000);
  // The first run's high-water mark is the parser's peak before later runs reuse its heap.
  if (i === 0) peakBytes = status("VmHWM:") - base;
}
console.log(JSON.stringify({ rows, seconds, peakBytes }));
