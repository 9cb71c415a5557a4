/**
 * What every server command shares: `--json`, an example in `--help`, the connection from the
 * global `--server`/`--token`, one way to print results, errors and progress, and exit codes.
 *
 * @module
 */
import type { Command } from "commander";
import {
  ApiClient,
  CliError,
  type ConnectionOptions,
  EXIT,
  oneLine,
  resolveConnection,
} from "./client.ts";

/** What an action gets: the API, the output mode and the progress line. */
export interface Ctx {
  api: ApiClient;
  json: boolean;
  /** Prints the result: JSON as is with --json, else the human text. */
  print(data: unknown, human: () => string): void;
  /** A progress line (only when stdout is a terminal and not --json). */
  progress(step: string): void;
}

/** Adds a subcommand with `--json` and an example in its help. */
export function subcommand(
  parent: Command,
  nameAndArgs: string,
  description: string,
  examples: string[],
): Command {
  return parent
    .command(nameAndArgs)
    .description(description)
    .option("--json", "print JSON for machines (on every path, errors included)")
    .addHelpText("after", `\nExample:\n${examples.map((e) => `  $ ${e}`).join("\n")}\n`);
}

const encoder = new TextEncoder();

/** Prints an error as one line (stderr) or as JSON (stdout). */
export function printError(error: unknown, json: boolean): number {
  const e = error instanceof CliError
    ? error
    : new CliError(`unexpected error: ${oneLine((error as Error)?.message ?? String(error))}`);
  if (json) {
    console.log(JSON.stringify({
      error: {
        message: e.message,
        exitCode: e.exitCode,
        status: e.status ?? null,
        errors: e.errors ?? null,
      },
    }));
  } else {
    console.error(`error: ${e.message}`);
    for (const [field, messages] of Object.entries(e.errors ?? {})) {
      console.error(`  ${field}: ${messages.join("; ")}`);
    }
  }
  return e.exitCode;
}

/** Builds the context for a command from its options and the global ones. */
export async function contextOf(command: Command): Promise<Ctx> {
  const options = command.optsWithGlobals() as ConnectionOptions & { json?: boolean };
  const json = options.json === true;
  const tty = !json && Deno.stdout.isTerminal();
  let shown = false;
  return {
    api: new ApiClient(await resolveConnection(options)),
    json,
    print(data, human) {
      if (shown && tty) Deno.stdout.writeSync(encoder.encode("\r\x1b[2K"));
      shown = false;
      console.log(json ? JSON.stringify(data, null, 2) : human());
    },
    progress(step) {
      if (!tty) return;
      shown = true;
      Deno.stdout.writeSync(encoder.encode(`\r\x1b[2K${step}…`));
    },
  };
}

/**
 * Wraps an action: builds the context, runs it, prints a `CliError` and sets the exit code. The
 * handler answers its exit code (default 0).
 */
// deno-lint-ignore no-explicit-any
export function action<A extends any[]>(
  handler: (ctx: Ctx, ...args: A) => Promise<number | void>,
  // deno-lint-ignore no-explicit-any
): (...args: any[]) => Promise<void> {
  return async (...args) => {
    const command = args.at(-1) as Command;
    const json = command.opts().json === true;
    try {
      const ctx = await contextOf(command);
      Deno.exitCode = (await handler(ctx, ...(args.slice(0, -1) as A))) ?? EXIT.ok;
    } catch (error) {
      Deno.exitCode = printError(error, json);
    }
  };
}

/** A plain text table: a header row and aligned columns. */
export function table(
  rows: Record<string, unknown>[],
  columns: [key: string, header: string][],
): string {
  if (!rows.length) return "(none)";
  const text = (v: unknown) =>
    v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
  const cells = rows.map((row) => columns.map(([key]) => oneLine(text(row[key]))));
  const widths = columns.map(([, header], i) =>
    Math.min(60, Math.max(header.length, ...cells.map((r) => r[i].length)))
  );
  const line = (values: string[]) =>
    values.map((v, i) =>
      (v.length > widths[i] ? v.slice(0, widths[i] - 1) + "…" : v).padEnd(widths[i])
    )
      .join("  ").trimEnd();
  return [line(columns.map(([, h]) => h)), ...cells.map(line)].join("\n");
}

/** "key: value" lines of an object (nested values as JSON). */
export function details(record: Record<string, unknown>, skip: string[] = []): string {
  const keys = Object.keys(record).filter((k) => !skip.includes(k));
  const width = Math.max(...keys.map((k) => k.length));
  return keys.map((k) => {
    const v = record[k];
    const text = v !== null && typeof v === "object" ? JSON.stringify(v) : String(v ?? "");
    return `${k.padEnd(width)}  ${text.length > 200 ? text.slice(0, 199) + "…" : text}`;
  }).join("\n");
}

/** A positive whole number argument (an id), or a CliError. */
export function parseId(value: string, what: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > 2_147_483_647) {
    throw new CliError(`${what} must be a positive whole number, got "${value}"`);
  }
  return Number(value);
}

/**
 * Finds a record by id (digits) or by name (case-insensitive) in a list; CliError naming the
 * value when there is none, or when a name is ambiguous.
 */
export function pick<T extends object>(
  list: T[],
  idOrName: string,
  nameKey: string,
  what: string,
  idKey = "id",
): T {
  const field = (r: T, key: string) => (r as Record<string, unknown>)[key];
  const trimmed = idOrName.trim();
  if (/^\d+$/.test(trimmed)) {
    const found = list.find((r) => Number(field(r, idKey)) === Number(trimmed));
    if (found) return found;
  }
  const matches = list.filter((r) =>
    String(field(r, nameKey) ?? "").trim().toLowerCase() === trimmed.toLowerCase()
  );
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new CliError(
      `${matches.length} ${what}s are named "${trimmed}": give the id (${
        matches.map((m) => field(m, idKey)).join(", ")
      })`,
    );
  }
  throw new CliError(`no ${what} "${trimmed}" (give its id or its name; list them with --json)`);
}
