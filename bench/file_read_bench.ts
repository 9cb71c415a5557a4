import * as XLSX from "xlsx";
import { toCsvText } from "../shared/files/write_table.ts";
import { rezip } from "./rezip.ts";
import {
  openpyxlParts,
  producerXlsx,
  pythonXlsx,
  sxssfParts,
  xlsxwriterParts,
} from "./xlsx_producers.ts";

/** One row of the results table. */
export interface Result {
  name: string;
  what: string;
  rows: number;
  fileBytes: number;
  rowsPerSecond: number;
  peakBytes: number;
}

export const HEADERS = [
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

/** The XLSX files of the bench: one per producer, all holding the rows of the CSV. */
export interface BenchFiles {
  csv: string;
  /** Laid out as Excel writes it: text in shared strings, parts deflated by zlib. */
  excel: string;
  /** Written by SheetJS with its default options. */
  sheetjs: string;
  /** Converted from the CSV by LibreOffice; null when it could not run (see `libreofficeNote`). */
  libreoffice: string | null;
  libreofficeNote: string | null;
  /** Written by openpyxl (inline strings): the real package when python3 has it, else generated. */
  openpyxl: string;
  /** Written by XlsxWriter (shared strings, a style on every cell): real or generated. */
  xlsxwriter: string;
  /** Laid out as Apache POI's SXSSF writes it (inline strings, a line break after each row). */
  sxssf: string;
  /** Which openpyxl and XlsxWriter were used: "pip packages …" or why the generators stood in. */
  pythonNote: string;
}

/**
 * Has LibreOffice convert the CSV to XLSX, as a user saving it would; null and why when it is
 * not installed or the conversion fails. A profile of its own keeps it from waiting on (or
 * disturbing) another LibreOffice running on the machine.
 */
async function libreofficeXlsx(
  dir: string,
  csv: string,
): Promise<{ path: string | null; note: string | null }> {
  const out = `${dir}/libreoffice`;
  Deno.mkdirSync(out, { recursive: true });
  try {
    const done = await new Deno.Command("libreoffice", {
      args: [
        `-env:UserInstallation=file://${dir}/lo_profile`,
        "--headless",
        "--convert-to",
        "xlsx",
        "--outdir",
        out,
        csv,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    const path = `${out}/${csv.split("/").pop()!.replace(/\.csv$/, ".xlsx")}`;
    if (done.success && Deno.statSync(path).isFile) return { path, note: null };
    return {
      path: null,
      note: `libreoffice failed: ${new TextDecoder().decode(done.stderr).trim().slice(0, 200)}`,
    };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return { path: null, note: "libreoffice is not installed (not on PATH)" };
    }
    return { path: null, note: `libreoffice failed: ${e instanceof Error ? e.message : e}` };
  }
}

/**
 * Writes the bench files into `dir`; returns their paths. The same rows as CSV and as XLSX
 * from six producers: laid out as Excel writes it (text in shared strings, parts deflated by
 * zlib), as SheetJS writes it with its default options (text as `t="str"` cells, parts stored
 * uncompressed), and as LibreOffice writes it (converted from the CSV when it is installed).
 */
export async function writeBenchFiles(dir: string, count: number): Promise<BenchFiles> {
  const rows = orderRows(count);
  const csv = `${dir}/orders.csv`, excel = `${dir}/orders.xlsx`;
  const sheetjs = `${dir}/orders_sheetjs.xlsx`;
  Deno.writeTextFileSync(csv, toCsvText([HEADERS, ...rows]));
  const ws = XLSX.utils.aoa_to_sheet([
    HEADERS,
    ...rows.map((r) => r.map((c, i) => (i === 4 || i === 5 || i === 6 ? Number(c) : c))),
  ]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "Orders");
  const written = XLSX.write(wb, { type: "array", bookType: "xlsx", bookSST: true });
  Deno.writeFileSync(excel, await rezip(new Uint8Array(written)));
  Deno.writeFileSync(
    sheetjs,
    new Uint8Array(XLSX.write(wb, { type: "array", bookType: "xlsx" })),
  );
  const lo = await libreofficeXlsx(dir, csv);
  const sxssf = `${dir}/orders_sxssf.xlsx`;
  Deno.writeFileSync(sxssf, await producerXlsx(sxssfParts(HEADERS, rows)));
  const python = await pythonXlsx(dir, csv);
  let openpyxl: string, xlsxwriter: string, pythonNote: string;
  if ("note" in python) {
    openpyxl = `${dir}/orders_openpyxl_generated.xlsx`;
    xlsxwriter = `${dir}/orders_xlsxwriter_generated.xlsx`;
    Deno.writeFileSync(openpyxl, await producerXlsx(openpyxlParts(HEADERS, rows)));
    Deno.writeFileSync(xlsxwriter, await producerXlsx(xlsxwriterParts(HEADERS, rows)));
    pythonNote = `generated by bench/xlsx_producers.ts (${python.note})`;
  } else {
    ({ openpyxl, xlsxwriter } = python);
    pythonNote = `written by the real packages (${await pythonVersions()})`;
  }
  return {
    csv,
    excel,
    sheetjs,
    libreoffice: lo.path,
    libreofficeNote: lo.note,
    openpyxl,
    xlsxwriter,
    sxssf,
    pythonNote,
  };
}

/** "openpyxl 3.1.5, XlsxWriter 3.2.9" as python3 reports them. */
async function pythonVersions(): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: [
      "-c",
      "import openpyxl, xlsxwriter; print(f'openpyxl {openpyxl.__version__}, XlsxWriter {xlsxwriter.__version__}')",
    ],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
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

const ROWS = Number(Deno.env.get("BENCH_ROWS") ?? 100_000);
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 6);
const XLSX_RUNS = Number(Deno.env.get("BENCH_XLSX_RUNS") ?? 3);
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);

const mb = (n: number) => (n / 2 ** 20).toFixed(1);

/** The 1-minute load average, so a reader can tell how busy the shared machine was. */
function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
  } catch {
    return "unknown";
  }
}

/** One XLSX producer of the bench. */
interface Producer {
  key: string;
  label: string;
  file: string | null;
  note: string | null;
}

/**
 * The "## File reading" section of docs/benchmarks.md: `readTable` against bare papaparse on
 * the CSV and against bare SheetJS on the XLSX of each producer (DESIGN.md section 10: at least
 * 5 × faster for workbooks written by Excel, LibreOffice and SheetJS).
 */
export async function fileReadingSection(machine: string): Promise<string> {
  const dir = Deno.makeTempDirSync({ prefix: "bench_files_" });
  try {
    const loadBefore = loadAverage();
    const files = await writeBenchFiles(dir, ROWS);
    if (files.libreofficeNote) console.log(`LibreOffice case skipped: ${files.libreofficeNote}`);
    const producers: Producer[] = [
      { key: "excel", label: "Excel-style", file: files.excel, note: null },
      { key: "sheetjs", label: "SheetJS-written", file: files.sheetjs, note: null },
      {
        key: "libreoffice",
        label: "LibreOffice-written",
        file: files.libreoffice,
        note: files.libreofficeNote,
      },
      { key: "openpyxl", label: "openpyxl-written", file: files.openpyxl, note: null },
      { key: "xlsxwriter", label: "XlsxWriter-written", file: files.xlsxwriter, note: null },
      { key: "sxssf", label: "POI SXSSF-style", file: files.sxssf, note: null },
    ];
    // BENCH_PRODUCERS=openpyxl,sxssf measures only those producers (the CSV cases always run).
    const wanted = Deno.env.get("BENCH_PRODUCERS")?.split(",").map((p) => p.trim());
    if (wanted) {
      for (const p of producers) {
        if (!wanted.includes(p.key) && p.file) {
          p.file = null;
          p.note = "not selected in BENCH_PRODUCERS";
        }
      }
    }
    // [name, measure_file_read case, file, what]
    const cases: [string, string, string, string][] = [
      ["bare-papaparse", "bare-papaparse", files.csv, "papaparse bare: `Papa.parse(decoded text)`"],
      [
        "ours-csv",
        "ours-csv",
        files.csv,
        "`readTable` on the CSV (detection, limits, header, rows)",
      ],
    ];
    for (const p of producers) {
      if (!p.file) continue;
      cases.push(
        [
          `bare-sheetjs/${p.key}`,
          "bare-sheetjs",
          p.file,
          `SheetJS bare on the ${p.label} XLSX: \`XLSX.read(bytes)\` + \`sheet_to_json(header: 1)\``,
        ],
        [
          `ours-xlsx/${p.key}`,
          "ours-xlsx",
          p.file,
          `\`readTable\` on the ${p.label} XLSX (zip-bomb checks while inflating, streamed sheet XML, cells as feed text)`,
        ],
      );
    }
    // Other work on a shared machine slows runs at random; rounds interleave the cases so
    // each gets quiet moments, and the best run of all rounds counts.
    const best = new Map<string, { rows: number; seconds: number; peakBytes: number }>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, kind, file] of cases) {
        const r = await measure(
          kind,
          file,
          kind.startsWith("ours-x") || kind === "bare-sheetjs" ? XLSX_RUNS : RUNS,
        );
        const prev = best.get(name);
        best.set(name, prev ? { ...prev, seconds: Math.min(prev.seconds, r.seconds) } : r);
      }
    }
    const loadAfter = loadAverage();
    const results: Result[] = [];
    for (const [name, , file, what] of cases) {
      const r = best.get(name)!;
      const fileBytes = Deno.statSync(file).size;
      results.push({
        name,
        what,
        rows: r.rows,
        fileBytes,
        rowsPerSecond: r.rows / r.seconds,
        peakBytes: r.peakBytes,
      });
      console.log(`${name}: ${Math.round(r.rows / r.seconds)} rows/s, peak ${mb(r.peakBytes)} MB`);
    }
    const by = (n: string) => results.find((r) => r.name === n);
    /** How many times the first case's time the second case takes. */
    const ratio = (ours: string, bare: string) => by(bare)!.rowsPerSecond / by(ours)!.rowsPerSecond;
    const csvRatio = ratio("ours-csv", "bare-papaparse");
    const excelRatio = by("ours-xlsx/excel")
      ? ratio("ours-xlsx/excel", "bare-sheetjs/excel")
      : null;
    const speedRows = producers.map((p) => {
      const target = `XLSX (${p.label}) ≥ 5 × faster than bare SheetJS`;
      if (!p.file) return `| ${target} | not measured (${p.note}) | no |`;
      const faster = 1 / ratio(`ours-xlsx/${p.key}`, `bare-sheetjs/${p.key}`);
      return `| ${target} | ${faster.toFixed(1)} × | ${faster >= 5 ? "yes" : "no"} |`;
    });
    const memoryRows = [
      "ours-csv",
      ...producers.filter((p) => p.file).map((p) => `ours-xlsx/${p.key}`),
    ]
      .map((n) => {
        const f = by(n)!.peakBytes / by(n)!.fileBytes;
        return `| ${n}: peak memory ≤ 10 × file size | ${f.toFixed(1)} × | ${
          f <= 10 ? "yes" : "no"
        } |`;
      });
    const lines = [
      "## File reading",
      "",
      `Command: \`BENCH_ONLY=files deno task bench\` (BENCH_ROWS=${ROWS}, BENCH_RUNS=${RUNS}, BENCH_XLSX_RUNS=${XLSX_RUNS}, BENCH_ROUNDS=${ROUNDS}). Machine: ${machine}.`,
      `Measured ${
        new Date().toISOString().slice(0, 10)
      }; load average (1 min) ${loadBefore} at the start and ${loadAfter} at the end (2 cores shared with other work).`,
      `A ${
        ROWS.toLocaleString("en-US")
      }-row, 13-column order file, generated at bench time as CSV and as XLSX from six producers, same rows:`,
      "**excel**, laid out as Excel writes it (text in shared strings, parts deflated with zlib, about 86 % smaller",
      'than the XML); **sheetjs**, written by SheetJS with its default options (`XLSX.write(wb, { type: "array", bookType: "xlsx" })`:',
      'text as `t="str"` cells, parts stored uncompressed); **libreoffice**, the CSV converted by',
      "`libreoffice --headless --convert-to xlsx` (text in shared strings, all-digit columns as numbers, row and",
      `cell attributes as LibreOffice writes them)${
        files.libreofficeNote ? ` — not measured this time: ${files.libreofficeNote}` : ""
      }; **openpyxl** (\`Workbook()\`, \`ws.append(row)\`, prices formatted 0.00: text as inline strings \`t="inlineStr"\`,
      \`r\` on every cell, numbers printed \`%.16g\`) and **xlsxwriter** (a border format on every cell, prices 0.00:
      text in shared strings, \`s\` on every cell, \`spans\` on rows, numbers printed \`%.16G\`), ${files.pythonNote};
      **sxssf**, laid out as Apache POI's SXSSFWorkbook writes it (generated by bench/xlsx_producers.ts: inline strings,
      a line break after each \`<row>\` and \`</row>\`, numbers \`t="n"\` printed by Java's Double.toString, an empty
      shared strings part). Each case runs in its own process with the app's V8 flags (${
        appV8Flags().map((f) => `\`${f}\``).join(" ") || "none"
      }, from deno.json), in rounds that alternate the cases: rows/s is`,
      "from the best run after each process's first (the machine is shared with other work); peak memory is the",
      "rise of the process's resident high-water mark during its first run (first round).",
      "",
      "| case | what | file | rows/s | peak memory | peak ÷ file |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
      ...results.map((r) =>
        `| ${r.name} | ${r.what} | ${mb(r.fileBytes)} MB | ${
          Math.round(r.rowsPerSecond).toLocaleString("en-US")
        } | ${mb(r.peakBytes)} MB | ${(r.peakBytes / r.fileBytes).toFixed(1)} × |`
      ),
      "",
      "| target | measured | met |",
      "| --- | --- | --- |",
      `| CSV path within 1.3 × bare papaparse | ${csvRatio.toFixed(2)} × | ${
        csvRatio <= 1.3 ? "yes" : "no"
      } |`,
      ...(excelRatio === null ? [] : [
        `| XLSX path within 1.3 × bare SheetJS (Excel-style) | ${excelRatio.toFixed(2)} × | ${
          excelRatio <= 1.3 ? "yes" : "no"
        } |`,
      ]),
      ...speedRows,
      ...memoryRows,
      "",
    ];
    return lines.join("\n");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}
