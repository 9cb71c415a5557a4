/**
 * The worker of the file-work pool (api/ingest/file_work.ts): reads supplier and order files and
 * runs the inventory engine away from the thread that answers requests. One task at a time;
 * the pool terminates a worker whose task passes the time limit and starts a new one.
 *
 * Message in: `{ id, task, input }`; out: `{ id, output }` or `{ id, error }`, with the
 * ArrayBuffers of the output transferred (the inventory's generated file is not copied).
 */
/// <reference lib="deno.worker" />
import { readTable } from "../../shared/files/mod.ts";
import { processInventory } from "../../shared/inventory/mod.ts";
import { parseForm } from "../http/form_data.ts";
import { readOrderFile } from "../../shared/order_files/read_order_file.ts";
import { errorFields } from "../db/pglite_protocol.ts";
import type { FileTask } from "./file_work.ts";

const tasks: { [K in FileTask["task"]]: (input: never) => Promise<unknown> } = {
  readTable: (input: Extract<FileTask, { task: "readTable" }>["input"]) =>
    readTable(input.bytes, input.options),
  processInventory: (input: Extract<FileTask, { task: "processInventory" }>["input"]) =>
    processInventory(input),
  readForm: (input: Extract<FileTask, { task: "readForm" }>["input"]) =>
    parseForm(input.body, input.contentType),
  readOrderFile: (input: Extract<FileTask, { task: "readOrderFile" }>["input"]) =>
    readOrderFile(input.bytes, input.options, input.settings),
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
 * The long lists of a task's output, sent back in messages of PART_LENGTH entries before the
 * rest of the output (file_work.ts puts them together again), each after the pool asked for it:
 * copying in 40,000 order records took the thread that answers requests 130–170 ms in one go,
 * and messages that are already waiting are all taken in one turn of its event loop.
 */
const PARTED: { [K in FileTask["task"]]?: string[] } = {
  readTable: ["rows", "rowNumbers"],
  readOrderFile: ["records"],
};
const PART_LENGTH = 2_000;
/**
 * Settles when the pool has taken the last part sent and asks for more (one task at a time: one
 * waiter at most). Every part is answered, so no request for more outlives its task.
 */
let nextPart: (() => void) | null = null;

self.onmessage = async (event: MessageEvent<(FileTask & { id: number }) | { next: true }>) => {
  if ("next" in event.data) return nextPart?.();
  const { id, task, input } = event.data;
  try {
    const output = await tasks[task](input as never);
    const lists = PARTED[task];
    if (lists) {
      const rest = { ...output as Record<string, unknown[]> };
      const length = Math.max(...lists.map((key) => rest[key].length));
      for (let start = 0; start < length; start += PART_LENGTH) {
        const parts = Object.fromEntries(
          lists.map((key) => [key, rest[key].slice(start, start + PART_LENGTH)]),
        );
        const asked = new Promise<void>((resolve) => nextPart = resolve);
        self.postMessage({ id, parts });
        await asked;
      }
      for (const key of lists) rest[key] = [];
      self.postMessage({ id, output: rest });
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
