/**
 * `deno task bench`: measures, side by side in one run, and writes docs/benchmarks.md.
 * Each benchmark owns one "## " section of that file and replaces only its own, so other
 * benchmarks can add theirs. The "## Mail push" section (issue 25: mail → file on the SFTP server,
 * order mail → the vendor's mailbox) needs the loopback test servers, which bench/ may not import:
 * it is written by `deno run -A tests/mail/measure_push.ts 10 20`, and this run says so.
 */
import { fileReadingSection } from "./file_read_bench.ts";
import { orderTrackingSection } from "./order_tracking_bench.ts";
import { loginLoadSection } from "./login_bench.ts";
import { inventorySection } from "./inventory_bench.ts";
import { searchScaleSection } from "./search_scale_bench.ts";
import { loadSection } from "./load_bench.ts";
import { runsHistorySection } from "./runs_history_bench.ts";
import { dashboardSection } from "./dashboard_bench.ts";
import { inventoryItemsSection } from "./inventory_items_bench.ts";

const RESULTS = new URL("../docs/benchmarks.md", import.meta.url).pathname;

function machine(): string {
  const cpu = Deno.readTextFileSync("/proc/cpuinfo").match(/model name\s*:\s*(.*)/)?.[1] ??
    "unknown CPU";
  const cores = navigator.hardwareConcurrency;
  const memGiB = (Deno.systemMemoryInfo().total / 2 ** 30).toFixed(0);
  return `${cpu}, ${cores} cores, ${memGiB} GiB RAM, ${Deno.build.os}; Deno ${Deno.version.deno} (V8 ${Deno.version.v8})`;
}

/** Replaces (or appends) one "## " section, leaving the other sections as they are. */
function replaceSection(doc: string, title: string, section: string): string {
  const start = doc.indexOf(`\n${title}\n`);
  if (start < 0) return doc.trimEnd() + "\n\n" + section;
  const next = doc.indexOf("\n## ", start + 1);
  return doc.slice(0, start + 1) + section + (next < 0 ? "" : "\n" + doc.slice(next + 1));
}

let doc: string;
try {
  doc = Deno.readTextFileSync(RESULTS);
} catch {
  doc =
    "# Benchmarks\n\nFigures from `deno task bench`; targets in docs/design.md section 10. Each section is rewritten by its own benchmark.\n";
}
// BENCH_ONLY=files, orders, auth, inventory, inventory-items, search-scale, load, runs or dashboard
// runs one part; the other sections are left as they were.
const only = Deno.env.get("BENCH_ONLY");
if (!only || only === "files") {
  doc = replaceSection(doc, "## File reading", await fileReadingSection(machine()));
}
if (!only || only === "orders") {
  doc = replaceSection(doc, "## Order tracking", await orderTrackingSection());
}
if (!only || only === "auth") {
  doc = replaceSection(doc, "## Login load", await loginLoadSection(machine()));
}
if (!only || only === "inventory") {
  doc = replaceSection(doc, "## Inventory", await inventorySection(machine()));
}
if (!only || only === "search-scale") {
  doc = replaceSection(doc, "## Order list at scale", await searchScaleSection());
}
if (!only || only === "inventory-items") {
  doc = replaceSection(doc, "## Inventory items", await inventoryItemsSection(machine()));
}
if (!only || only === "load") {
  doc = replaceSection(doc, "## Load and soak", await loadSection(machine()));
}
if (!only || only === "runs") {
  doc = replaceSection(doc, "## Run history at scale", await runsHistorySection());
}
if (!only || only === "dashboard") {
  doc = replaceSection(doc, "## Dashboard", await dashboardSection(machine()));
}
Deno.writeTextFileSync(RESULTS, doc.trimEnd() + "\n");
// Formatted like the rest of the repository, so `deno fmt --check` stays green after a run.
await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", RESULTS] }).output();
console.log(`written to ${RESULTS}`);
console.log(
  'The "## Mail push" section is measured apart, on the loopback test servers: ' +
    "deno run -A tests/mail/measure_push.ts 10 20",
);
