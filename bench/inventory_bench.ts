/**
 * Inventory benchmark (DESIGN.md section 10, "manual inventory processing of a 10 MB file"):
 * a supplier XLSX of about 10 MB with 100,000 user-activated items, processed end to end by the
 * engine (read, rules, prediction over 30 days of snapshots, guard, output XLSX written) against
 * reading the same file alone. Each case runs in its own process with the app's V8 flags.
 *
 * `inventorySection()` returns the "## Inventory" section of docs/benchmarks.md; run alone
 * (`deno run -A bench/inventory_bench.ts`) it rewrites that section itself. Sizes:
 * BENCH_INVENTORY_ITEMS (100000), BENCH_INVENTORY_ROWS (supplier rows, 134000),
 * BENCH_INVENTORY_DAYS (30), BENCH_INVENTORY_RUNS (4), BENCH_INVENTORY_ROUNDS (2).
 */
import * as XLSX from "xlsx";
import { readTable, writeTable } from "../shared/files/mod.ts";
import { encodeBase64 } from "../shared/base64.ts";
import {
  DAY_MS,
  type ItemStatusEntry,
  NEW_INVENTORY_SOURCE,
  processInventory,
  type QuantitySnapshot,
  type SnapshotRun,
} from "../shared/inventory/mod.ts";
import type { InventorySource } from "../shared/contract/inventory.ts";
import { appV8Flags } from "./file_read_bench.ts";
import { rezip } from "./rezip.ts";

const ITEMS = Number(Deno.env.get("BENCH_INVENTORY_ITEMS") ?? 100_000);
const ROWS = Number(Deno.env.get("BENCH_INVENTORY_ROWS") ?? 134_000);
const DAYS = Number(Deno.env.get("BENCH_INVENTORY_DAYS") ?? 30);
const RUNS = Number(Deno.env.get("BENCH_INVENTORY_RUNS") ?? 4);
const ROUNDS = Number(Deno.env.get("BENCH_INVENTORY_ROUNDS") ?? 2);
const NOW = new Date("2026-03-10T08:00:00Z");

const HEADERS = [
  "Item Number",
  "Description",
  "Qty",
  "Status",
  "Warehouse",
  "UPC",
  "Brand",
  "Category",
  "Unit Price",
  "MSRP",
  "Weight",
  "Dimensions",
  "Lead Time",
  "Next Arrival",
  "Supplier SKU",
  "Country",
  "Notes",
];
const WORDS = [
  "steel",
  "oak",
  "brass",
  "linen",
  "matte",
  "gloss",
  "large",
  "small",
  "round",
  "flat",
];

/** Item number of catalogue entry i (zero-padded, as suppliers write them). */
const itemNumber = (i: number) => String(100_000 + i * 7).padStart(9, "0");

/** A deterministic supplier file: the catalogue's items plus others, some rows duplicated. */
function supplierRows(): (string | number)[][] {
  let seed = 5;
  // The high bits: an LCG's low bits repeat with a short period.
  const rnd = (n: number) => Math.floor((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 * n);
  const rows: (string | number)[][] = [];
  for (let r = 0; r < ROWS; r++) {
    // 98 % of the catalogue is in the file; the rest of the rows are other items.
    const i = r < ITEMS ? r : ITEMS + r;
    if (r < ITEMS && r % 50 === 49) continue;
    rows.push([
      itemNumber(i),
      `${WORDS[rnd(10)]} ${WORDS[rnd(10)]} fitting ${rnd(1000)}, ${rnd(40)} mm`,
      rnd(8) === 0 ? 0 : rnd(400),
      ["In Stock", "Backorder", "Discontinued", "Limited"][rnd(4)],
      `WH-${rnd(30)}`,
      String(600_000_000_000 + rnd(1e9) * 97),
      `Brand ${rnd(300)}`,
      `Category ${rnd(60)} / ${WORDS[rnd(10)]}`,
      (100 + rnd(90000)) / 100,
      (200 + rnd(90000)) / 100,
      rnd(5000) / 100,
      `${rnd(90)}x${rnd(90)}x${rnd(90)} cm`,
      `${rnd(30)} days`,
      `2026-0${1 + rnd(9)}-${10 + rnd(18)}`,
      `SUP-${rnd(1e7)}`,
      ["US", "DE", "CN", "MX", "IT"][rnd(5)],
      rnd(4) === 0 ? `check ${WORDS[rnd(10)]} batch ${rnd(1e5)}` : "",
    ]);
  }
  return rows;
}

/** The benchmark's source: prediction on (30 days), status column off, XLSX sample. */
export function benchSource(): InventorySource {
  const sample = writeTable(["Item", "Status", "Date"], [], "xlsx");
  const catalogue: string[] = [];
  for (let i = 0; i < ITEMS; i++) catalogue.push(itemNumber(i));
  return {
    ...NEW_INVENTORY_SOURCE,
    id: 1,
    sourceName: "Bench supplier",
    fileType: "xlsx",
    itemNumberColumnName: "Item Number",
    qtyColumnName: "Qty",
    stripLeadingZeroes: true,
    minItemsToBeActive: 5,
    usesPredictiveAlgorithm: true,
    lookbackDays: DAYS,
    minDataPoints: 5,
    safetyMultiplier: 1.2,
    safetyPadding: 10,
    largeDropThreshold: 150,
    largeDropMultiplier: 1.5,
    fileData: {
      ...NEW_INVENTORY_SOURCE.fileData,
      userActivatedItemNumbers: catalogue.join("\n"),
      inventoryFileName: "seller_feed.xlsx",
      inventoryFileData: encodeBase64(sample),
      itemNumberColumnName: "Item",
      itemStatusColumnName: "Status",
      itemStatusDateColumnName: "Date",
    },
  };
}

/** Snapshots of the last DAYS daily runs, in time order, as the store's cursor yields them. */
export function* snapshots(): Generator<QuantitySnapshot> {
  for (let d = DAYS; d >= 1; d--) {
    const takenAt = new Date(NOW.getTime() - d * DAY_MS).toISOString();
    for (let i = 0; i < ITEMS; i++) {
      yield {
        itemNumber: String(100_000 + i * 7),
        quantity: 300 - ((i + d * 3) % 37) * d / 3,
        takenAt,
      };
    }
  }
}

/**
 * The same quantities as columnar runs: one record per run, the item list stored once per
 * catalogue version and shared by the runs that used it (docs/inventory.md, "Prediction").
 */
export function* snapshotRuns(): Generator<SnapshotRun> {
  const itemNumbers = new Array<string>(ITEMS);
  for (let i = 0; i < ITEMS; i++) itemNumbers[i] = String(100_000 + i * 7);
  for (let d = DAYS; d >= 1; d--) {
    const takenAt = new Date(NOW.getTime() - d * DAY_MS).toISOString();
    const quantities = new Float64Array(ITEMS);
    for (let i = 0; i < ITEMS; i++) quantities[i] = 300 - ((i + d * 3) % 37) * d / 3;
    yield { takenAt, itemNumbers, quantities };
  }
}

/** The last delivered statuses: every item Active (the guard compares all of them). */
export function previousStatuses(): ItemStatusEntry[] {
  const out: ItemStatusEntry[] = [];
  for (let i = 0; i < ITEMS; i++) out.push({ itemNumber: itemNumber(i), status: "Active" });
  return out;
}

/** Writes the supplier workbook (laid out as Excel writes it) into `dir`; returns its path. */
async function writeSupplierFile(dir: string): Promise<string> {
  const ws = XLSX.utils.aoa_to_sheet([HEADERS, ...supplierRows()]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "Stock");
  const written = XLSX.write(wb, { type: "array", bookType: "xlsx", bookSST: true });
  const path = `${dir}/supplier_stock.xlsx`;
  Deno.writeFileSync(path, await rezip(new Uint8Array(written)));
  return path;
}

function status(field: string): number {
  const line = Deno.readTextFileSync("/proc/self/status").split("\n").find((l) =>
    l.startsWith(field)
  );
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024;
}

/** One case in this process: prints `{ rows, seconds: [...], peakBytes, detail }`. */
async function measureHere(kind: string, file: string, runs: number): Promise<void> {
  const bytes = Deno.readFileSync(file);
  const source = benchSource();
  const previous = kind.startsWith("engine") ? previousStatuses() : [];
  const base = status("VmRSS:");
  const seconds: number[] = [];
  let peakBytes = 0, rows = 0, detail = "";
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    if (kind === "read") {
      const t = await readTable(bytes, { name: "supplier_stock.xlsx", limits: { maxBytes: 1e9 } });
      rows = t.rows.length;
    } else {
      const o = await processInventory({
        source,
        supplierFile: { name: "supplier_stock.xlsx", bytes },
        ...(kind === "engine-rows" ? { snapshots: snapshots() } : { snapshotRuns: snapshotRuns() }),
        previousStatuses: previous,
        now: NOW,
        limits: { maxBytes: 1e9 },
      });
      if (o.refused) throw new Error(o.result.message);
      rows = o.counts.totalRows;
      detail =
        `${o.counts.items} items, ${o.counts.active} active, ${o.counts.predictedInactive} made inactive by the prediction, ${o.counts.missing} missing, output ${
          (o.output!.bytes.length / 2 ** 20).toFixed(1)
        } MB, held ${o.held}`;
    }
    seconds.push((performance.now() - t0) / 1000);
    if (i === 0) peakBytes = status("VmHWM:") - base;
  }
  console.log(JSON.stringify({ rows, seconds, peakBytes, detail }));
}

async function measure(kind: string, file: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...appV8Flags(),
      new URL(import.meta.url).pathname,
      "measure",
      kind,
      file,
      String(RUNS),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`inventory bench case ${kind} failed`);
  const r = JSON.parse(new TextDecoder().decode(out.stdout));
  return {
    rows: r.rows as number,
    seconds: Math.min(...(r.seconds as number[]).slice(1)),
    peakBytes: r.peakBytes as number,
    detail: r.detail as string,
  };
}

const mb = (n: number) => (n / 2 ** 20).toFixed(1);

/** Runs the cases and returns the "## Inventory" section of docs/benchmarks.md. */
export async function inventorySection(machine: string): Promise<string> {
  const dir = Deno.makeTempDirSync({ prefix: "bench_inventory_" });
  try {
    const file = await writeSupplierFile(dir);
    const fileBytes = Deno.statSync(file).size;
    const best = new Map<string, Awaited<ReturnType<typeof measure>>>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ["read", "engine", "engine-rows"]) {
        const r = await measure(kind, file);
        const prev = best.get(kind);
        best.set(kind, prev ? { ...prev, seconds: Math.min(prev.seconds, r.seconds) } : r);
        console.log(`inventory ${kind}: ${r.seconds.toFixed(2)} s, peak ${mb(r.peakBytes)} MB`);
      }
    }
    const read = best.get("read")!, engine = best.get("engine")!;
    const rowsCase = best.get("engine-rows")!;
    const ratio = engine.seconds / read.seconds;
    const peak = engine.peakBytes / fileBytes;
    const rowsRatio = rowsCase.seconds / read.seconds;
    return [
      "## Inventory",
      "",
      `Command: \`deno task bench\` (BENCH_INVENTORY_ITEMS=${ITEMS}, BENCH_INVENTORY_ROWS=${ROWS}, BENCH_INVENTORY_DAYS=${DAYS}, BENCH_INVENTORY_RUNS=${RUNS}, BENCH_INVENTORY_ROUNDS=${ROUNDS}). Machine: ${machine}.`,
      `Measured ${new Date().toISOString().slice(0, 10)}. A ${mb(fileBytes)} MB supplier XLSX (${
        read.rows.toLocaleString("en-US")
      } rows × ${HEADERS.length} columns, laid out as Excel writes it) and a catalogue of ${
        ITEMS.toLocaleString("en-US")
      } user-activated items (98 % of them in the file). The engine case is \`processInventory\` end to end: read, zero stripping, the active rule, the prediction over ${DAYS} days of snapshots (${DAYS} columnar runs of ${
        ITEMS.toLocaleString("en-US")
      } quantities sharing one item list, generated during the timed run as the recommended store returns them; the engine-rows case streams the same ${
        (ITEMS * DAYS).toLocaleString("en-US")
      } quantities as one object each, in time order), the guard against ${
        ITEMS.toLocaleString("en-US")
      } previous statuses, the output XLSX written into the sample and base64 for the result (${engine.detail}). Each case runs in its own process with the app's V8 flags (${
        appV8Flags().map((f) => `\`${f}\``).join(" ") || "none"
      }); time is the best run after each process's first over ${ROUNDS} rounds; peak memory is the rise of the resident high-water mark during the first run.`,
      "",
      "| case | what | time | peak memory | peak ÷ file |",
      "| --- | --- | ---: | ---: | ---: |",
      `| read | \`readTable\` on the supplier XLSX alone | ${read.seconds.toFixed(2)} s | ${
        mb(read.peakBytes)
      } MB | ${(read.peakBytes / fileBytes).toFixed(1)} × |`,
      `| engine | \`processInventory\` end to end | ${engine.seconds.toFixed(2)} s | ${
        mb(engine.peakBytes)
      } MB | ${peak.toFixed(1)} × |`,
      `| engine-rows | the same with the snapshots as ${
        (ITEMS * DAYS).toLocaleString("en-US")
      } \`{ itemNumber, quantity, takenAt }\` objects | ${rowsCase.seconds.toFixed(2)} s | ${
        mb(rowsCase.peakBytes)
      } MB | ${(rowsCase.peakBytes / fileBytes).toFixed(1)} × |`,
      "",
      "| target | measured | met |",
      "| --- | --- | --- |",
      `| engine within 2 × reading the file alone | ${ratio.toFixed(2)} × | ${
        ratio <= 2 ? "yes" : "no"
      } |`,
      `| engine peak memory ≤ 10 × file size | ${peak.toFixed(1)} × | ${
        peak <= 10 ? "yes" : "no"
      } |`,
      `| engine-rows within 2 × reading the file alone | ${rowsRatio.toFixed(2)} × | ${
        rowsRatio <= 2 ? "yes" : "no"
      } |`,
      "",
    ].join("\n");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "measure") {
    await measureHere(Deno.args[1], Deno.args[2], Number(Deno.args[3] ?? 3));
  } else if (Deno.args[0] === "write") {
    console.log(await writeSupplierFile(Deno.args[1] ?? "."));
  } else {
    const results = new URL("../docs/benchmarks.md", import.meta.url).pathname;
    const cpu = Deno.readTextFileSync("/proc/cpuinfo").match(/model name\s*:\s*(.*)/)?.[1] ??
      "unknown CPU";
    const machine = `${cpu}, ${navigator.hardwareConcurrency} cores, ${
      (Deno.systemMemoryInfo().total / 2 ** 30).toFixed(0)
    } GiB RAM, ${Deno.build.os}; Deno ${Deno.version.deno} (V8 ${Deno.version.v8})`;
    const section = await inventorySection(machine);
    const doc = Deno.readTextFileSync(results);
    const start = doc.indexOf("\n## Inventory\n");
    const next = start < 0 ? -1 : doc.indexOf("\n## ", start + 1);
    const updated = start < 0
      ? doc.trimEnd() + "\n\n" + section
      : doc.slice(0, start + 1) + section + (next < 0 ? "" : "\n" + doc.slice(next + 1));
    Deno.writeTextFileSync(results, updated.trimEnd() + "\n");
    await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", results] }).output();
    console.log(`written to ${results}`);
  }
}
