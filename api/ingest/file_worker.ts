/**
 * The worker of the file-work pool (api/ingest/file_work.ts): reads supplier and order files and
 * runs the inventory engine away from the thread that answers requests. One task at a time;
 * the pool terminates a worker whose task passes the time limit and starts a new one.
 *
 * Message in: `{ id, task, input }`; out: `{ id, output }` or `{ id, error }`, with the
 * ArrayBuffers of the output transferred (the inventory's generated file is not copied).
 */
/// <reference lib="deno.worker" />
import { readTable, type Table } from "../../shared/files/mod.ts";
import { processInventory } from "../../shared/inventory/mod.ts";
import { parseForm } from "../http/form_data.ts";
import { errorFields } from "../db/pglite_protocol.ts";
import type { FileTask } from "./file_work.ts";

const tasks: { [K in FileTask["task"]]: (input: never) => Promise<unknown> } = {
  readTable: (input: Extract<FileTask, { task: "readTable" }>["input"]) =>
    readTable(input.bytes, input.options),
  processInventory: (input: Extract<FileTask, { task: "processInventory" }>["input"]) =>
    processInventory(input),
  readForm: (input: Extract<FileTask, { task: "readForm" }>["input"]) =>
    parseForm(input.body, input.contentType),
};

/** The ArrayBuffers under `value` (a few levels deep) that can move instead of being copied. */
function buffersOf(value: unknown, found = new Set<ArrayBuffer>(), depth = 0): ArrayBuffer[] {
  if (value instanceof Uint8Array) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (value && typeof value === "object" && depth < 4 && !Array.isArray(value)) {
    for (const inner of Object.values(value)) buffersOf(inner, found, depth + 1);
  }
  return [...found];
}

/**
 * A table's rows go back in messages of this many rows before the rest of the table: the
 * thread that answers requests takes each message as a task of its own, so copying in 40,000
 * rows (40–80 ms in one message) no longer holds every request meanwhile.
 */
const ROWS_PER_MESSAGE = 2_000;

self.onmessage = async (event: MessageEvent<FileTask & { id: number }>) => {
  const { id, task, input } = event.data;
  try {
    const output = await tasks[task](input as never);
    if (task === "readTable") {
      const table = output as Table;
      for (let start = 0; start < table.rows.length; start += ROWS_PER_MESSAGE) {
        self.postMessage({
          id,
          rows: table.rows.slice(start, start + ROWS_PER_MESSAGE),
          rowNumbers: table.rowNumbers.slice(start, start + ROWS_PER_MESSAGE),
        });
      }
      self.postMessage({ id, output: { ...table, rows: [], rowNumbers: [] } });
      return;
    }
    self.postMessage({ id, output }, { transfer: buffersOf(output) });
  } catch (error) {
    self.postMessage({ id, error: errorFields(error) });
  }
};

// The pool starts a task's clock only once the worker is ready: its modules loaded and the
// reader's code compiled by reading a two-line file, so that a fresh worker's first file (after
// one was stopped at FILE_WORK_SECONDS) is not charged the compiling: a 20-row file took longer
// than 10 ms in a fresh worker, and 2 ms in a used one.
await readTable(new TextEncoder().encode("Item,Quantity\nA-1,5\n"), {}).catch(() => {});
self.postMessage({ ready: true });
