/**
 * Heavy work on files off the request thread (docs/architecture.md, "File work"): reading an
 * order or supplier file and the inventory engine run in a small pool of workers
 * (FILE_WORKERS, default 1), each task within FILE_WORK_SECONDS (default 120). A task that passes
 * the limit is stopped by terminating its worker (a fresh one takes its place) and fails with
 * `FileWorkTimeoutError`, whose message staff read on the run. The file's bytes are handed to the
 * worker without a copy when the caller gives them up (`handOver`).
 */
import type { Config } from "../config.ts";
import type { Deps, FileTask, FileWork } from "../deps.ts";

export type { FileTask, FileWork };
import {
  FileRefusedError,
  type ReadOptions,
  readTable,
  type Table,
} from "../../shared/files/mod.ts";
import {
  type InventoryOutcome,
  processInventory,
  type ProcessInventoryInput,
} from "../../shared/inventory/mod.ts";
import {
  type OrderFileRecords,
  type OrderFileSettings,
  readOrderFile,
} from "../../shared/order_files/read_order_file.ts";
import { errorFrom } from "../db/pglite_protocol.ts";

/** A task stopped at the time limit; `message` says so in words staff can act on. */
export class FileWorkTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FileWorkTimeoutError";
  }
}

interface Slot {
  worker: Worker;
  /** Settles when the worker has loaded its modules (not counted in a task's time). */
  ready: Promise<void>;
  busy: boolean;
}

function startWorker(): Pick<Slot, "worker" | "ready"> {
  const worker = new Worker(new URL("./file_worker.ts", import.meta.url), { type: "module" });
  // An error outside a task (the worker could not load) must not end this process; the task
  // waiting for it fails at its limit.
  worker.addEventListener("error", (event) => event.preventDefault());
  const ready = new Promise<void>((resolve) => {
    const onReady = (event: MessageEvent) => {
      if (event.data?.ready !== true) return;
      worker.removeEventListener("message", onReady);
      resolve();
    };
    worker.addEventListener("message", onReady);
  });
  return { worker, ready };
}

/**
 * A pool of `size` workers with a limit of `seconds` per task. Workers start on first use.
 *
 * @example
 * ```ts ignore
 * const pool = fileWorkPool({ size: 1, seconds: 120 });
 * const table = await pool.run<Table>({ task: "readTable", input: { bytes, options } },
 *   { what: "Reading the file" });
 * pool.close();
 * ```
 */
export function fileWorkPool(options: { size: number; seconds: number }): FileWork {
  const slots: Slot[] = [];
  const waiting: Array<(slot: Slot) => void> = [];
  let nextId = 0;
  let closed = false;

  const start = (): Slot => ({ ...startWorker(), busy: false });
  const acquire = async (): Promise<Slot> => {
    const free = slots.find((slot) => !slot.busy);
    if (free) return free;
    if (slots.length < options.size) {
      const slot = start();
      slots.push(slot);
      return slot;
    }
    return await new Promise<Slot>((resolve) => waiting.push(resolve));
  };
  const release = (slot: Slot) => {
    slot.busy = false;
    const next = waiting.shift();
    if (next) {
      slot.busy = true;
      next(slot);
    }
  };
  /** Ends the slot's worker (stuck or crashed) and puts a fresh one in its place. */
  const replace = (slot: Slot) => {
    slot.worker.terminate();
    if (!closed) Object.assign(slot, startWorker());
  };

  return {
    async run<T>(
      task: FileTask,
      how: { what: string; transfer?: ArrayBuffer[]; seconds?: number },
    ): Promise<T> {
      const seconds = how.seconds ?? options.seconds;
      if (closed) throw new Error("The file workers are stopped.");
      const slot = await acquire();
      slot.busy = true;
      const id = ++nextId;
      try {
        // Loading the worker's modules is not the file's time; a worker that never loads (a
        // broken deployment) fails the task a minute later.
        let waited: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          slot.ready,
          new Promise((resolve) => waited = setTimeout(resolve, 60_000)),
        ]);
        clearTimeout(waited);
        const worker = slot.worker;
        return await new Promise<T>((resolve, reject) => {
          const timer = setTimeout(() => {
            cleanup();
            replace(slot);
            reject(
              new FileWorkTimeoutError(
                `${how.what} took longer than ${seconds} s; it was stopped so that it ` +
                  "does not hold up other work. Split the file or simplify its patterns, or ask " +
                  "the administrator to raise FILE_WORK_SECONDS.",
              ),
            );
          }, seconds * 1000);
          // Long lists of the output arrive in parts before the rest (file_worker.ts, PARTED).
          const lists: Record<string, unknown[]> = {};
          const onMessage = (event: MessageEvent) => {
            if (event.data.id !== id) return;
            if (event.data.parts) {
              for (const [key, part] of Object.entries(event.data.parts as typeof lists)) {
                const list = lists[key] ??= [];
                for (const entry of part) list.push(entry);
              }
              // The next part after other tasks of this thread had their turn.
              setTimeout(() => worker.postMessage({ next: true }), 0);
              return;
            }
            cleanup();
            if (event.data.error) reject(rebuild(event.data.error));
            else resolve({ ...event.data.output, ...lists } as T);
          };
          const onError = (event: ErrorEvent) => {
            event.preventDefault();
            cleanup();
            replace(slot);
            reject(new Error(`${how.what} failed: the file worker stopped (${event.message}).`));
          };
          const cleanup = () => {
            clearTimeout(timer);
            worker.removeEventListener("message", onMessage);
            worker.removeEventListener("error", onError);
          };
          worker.addEventListener("message", onMessage);
          worker.addEventListener("error", onError);
          worker.postMessage({ id, ...task }, { transfer: how.transfer ?? [] });
        });
      } finally {
        release(slot);
      }
    },
    close() {
      closed = true;
      for (const slot of slots) slot.worker.terminate();
      slots.length = 0;
    },
  };
}

/** The worker's error as the caller would have seen it in-thread (FileRefusedError kept). */
function rebuild(fields: Record<string, unknown>): Error {
  if (fields.name === "FileRefusedError") {
    return new FileRefusedError(fields.code as never, String(fields.message));
  }
  return errorFrom(fields);
}

/** The pool of a process's config (FILE_WORKERS workers, FILE_WORK_SECONDS each task). */
export function fileWorkFor(config: Config): FileWork {
  return fileWorkPool({ size: config.FILE_WORKERS, seconds: config.FILE_WORK_SECONDS });
}

/** The buffer of `bytes` when the view covers all of it (then it can move, not be copied). */
function movable(bytes: Uint8Array, handOver: boolean): ArrayBuffer[] {
  return handOver && bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength
    ? [bytes.buffer]
    : [];
}

/**
 * `readTable` in the process's file workers (in this thread when it has none: CLI, some tests).
 * With `handOver`, `bytes` moves to the worker and is unusable here afterwards.
 */
export async function readTableOffThread(
  deps: Deps,
  bytes: Uint8Array,
  options: ReadOptions,
  handOver = false,
): Promise<Table> {
  if (!deps.files) return await readTable(bytes, options);
  return await deps.files.run<Table>(
    { task: "readTable", input: { bytes, options } },
    { what: "Reading the file", transfer: movable(bytes, handOver) },
  );
}

/**
 * `readOrderFile` in the process's file workers (in this thread when it has none). With
 * `handOver`, `bytes` moves to the worker and is unusable here afterwards.
 */
export async function readOrderFileOffThread(
  deps: Deps,
  bytes: Uint8Array,
  options: ReadOptions & { name: string },
  settings: OrderFileSettings,
  handOver = false,
): Promise<OrderFileRecords> {
  if (!deps.files) return await readOrderFile(bytes, options, settings);
  return await deps.files.run<OrderFileRecords>(
    { task: "readOrderFile", input: { bytes, options, settings } },
    { what: "Reading the file", transfer: movable(bytes, handOver) },
  );
}

/** `processInventory` in the process's file workers (in this thread when it has none). */
export async function processInventoryOffThread(
  deps: Deps,
  input: Omit<ProcessInventoryInput, "onProgress">,
  handOver = false,
): Promise<InventoryOutcome> {
  if (!deps.files) return await processInventory(input);
  return await deps.files.run<InventoryOutcome>(
    { task: "processInventory", input },
    {
      what: "Processing the inventory file",
      transfer: movable(input.supplierFile.bytes, handOver),
    },
  );
}
