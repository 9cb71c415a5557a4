/**
 * PGlite in a Deno Worker of its own (docs/architecture.md, "The embedded database"): the WASM
 * PostgreSQL runs its statements here, so the thread that answers requests never waits on one.
 * The protocol is small and the main thread (api/db/pglite_remote.ts) is its only client:
 *
 * - `{ type: "open", dataDir }` → `{ type: "opened" }` or `{ type: "failed", error }`;
 * - `{ id, type: "query", sql, params, tx, prepare }` → `{ id, rows }`; `exec` → `{ id }`;
 *   `begin` / `commit` / `rollback` with the transaction's id `tx`;
 * - `{ id, type: "close" }` → `{ id }`, after which the main thread terminates the worker.
 *
 * Every failure comes back as `{ id, error }`, the error's fields copied (SQLSTATE `code`,
 * `constraint`, `detail`, …) so that callers see the same error shape as before.
 */
/// <reference lib="deno.worker" />
import { parse, PGlite, protocol, types as pgliteTypes } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { preparedTexts } from "./db.ts";
import { errorFields, type Request } from "./pglite_protocol.ts";

// int8 and numeric come back as numbers, as on PostgreSQL (api/db/client.ts).
const toNumber = (value: string) => Number(value);

/**
 * bytea crosses PGlite's wire as hex text. PGlite's own codec makes one string per byte: storing
 * a 4.8 MB order file took 0.7–0.9 s and reading it back 0.35 s, the connection held meanwhile.
 * Uint8Array's built-in hex codec converts it in about 10 ms (storing then takes 0.2–0.45 s, what
 * PGlite takes to pass any 9.6 MB parameter; reading 30 ms).
 */
const bytesToHex = (value: unknown): string => {
  if (!(value instanceof Uint8Array)) throw new Error("Invalid input for bytea type");
  return `\\x${value.toHex()}`;
};
const hexToBytes = (value: string): Uint8Array => Uint8Array.fromHex(value.slice(2));

let pg: PGlite | null = null;

/** Statements kept prepared (`QueryOptions.prepare`): the name and parameter types of each text. */
const prepared = new Map<string, { name: string; types: number[] }>();
let preparedNames = 0;
/** Which texts may be kept: the first `MAX_PREPARED` asked for, as on PostgreSQL's connections. */
let keepPrepared = preparedTexts();

/**
 * Runs `sql` as a named prepared statement, parsed and described on its first use: PGlite's
 * `query` parses and plans every statement again, which for the session lookup (three tables) was
 * 0.4–0.8 ms of the 0.5–0.9 ms it held the connection; kept prepared it takes about 0.1 ms.
 * The messages are those PGlite's own `query` sends (parse, describe, bind, describe, execute,
 * sync), with the parse and the statement's description done once.
 */
async function queryPrepared(db: PGlite, sql: string, params: readonly unknown[]) {
  const { serialize } = protocol;
  const send = async (message: Uint8Array) =>
    (await db.execProtocol(message, { syncToFs: false })).messages;
  return await db.runExclusive(async () => {
    const messages = [];
    try {
      let statement = prepared.get(sql);
      if (!statement) {
        // A fresh name each time: a parse whose describe failed leaves its name taken.
        const name = `p${++preparedNames}`;
        await send(serialize.parse({ name, text: sql }));
        const types = parse.parseDescribeStatementResults(
          await send(serialize.describe({ type: "S", name })),
        );
        statement = { name, types };
        prepared.set(sql, statement);
      }
      const { name, types } = statement;
      const values = params.map((value, i) =>
        value === null || value === undefined
          ? null
          : (db.serializers[types[i]]?.(value) ?? String(value))
      );
      messages.push(...await send(serialize.bind({ statement: name, values })));
      messages.push(...await send(serialize.describe({ type: "P" })));
      messages.push(...await send(serialize.execute({})));
    } finally {
      messages.push(...await send(serialize.sync()));
    }
    if (openTx === null) await db.syncToFs();
    return parse.parseResults(messages, db.parsers)[0]?.rows ?? [];
  });
}
// The transaction now open (PGlite has one connection): a statement of another one is refused,
// which only a bug in the main thread's queue could cause.
let openTx: number | null = null;

async function handle(message: Request): Promise<Record<string, unknown>> {
  if (message.type === "open") {
    pg = await PGlite.create({
      dataDir: message.dataDir,
      extensions: { pg_trgm },
      parsers: {
        [pgliteTypes.INT8]: toNumber,
        [pgliteTypes.NUMERIC]: toNumber,
        [pgliteTypes.BYTEA]: hexToBytes,
      },
      serializers: { [pgliteTypes.BYTEA]: bytesToHex },
    });
    // Two settings keep any one statement short (docs/architecture.md, "The embedded database"):
    // a new 16 MB WAL segment was written full of zeros by the commit that needed it, holding
    // the connection 0.2–0.26 s every few thousand imported orders; and the trigram indexes'
    // pending lists were merged 4 MB at a time (50–70 ms in one insert) instead of 512 kB.
    await pg.exec("set wal_init_zero = off; set gin_pending_list_limit = '512kB'");
    return {};
  }
  if (!pg) throw new Error("The embedded database is not open.");
  if (message.type === "close") {
    await pg.close();
    pg = null;
    prepared.clear();
    keepPrepared = preparedTexts();
    return {};
  }
  if (message.tx !== openTx && message.type !== "begin") {
    throw new Error(`Statement of transaction ${message.tx} while ${openTx} is open.`);
  }
  switch (message.type) {
    case "query":
      if (message.prepare && keepPrepared(message.sql)) {
        return { rows: await queryPrepared(pg, message.sql, message.params) };
      }
      return { rows: (await pg.query(message.sql, message.params as unknown[])).rows };
    case "exec":
      await pg.exec(message.sql);
      return {};
    case "begin":
      if (openTx !== null) throw new Error(`Transaction ${openTx} is still open.`);
      await pg.exec("begin");
      openTx = message.tx;
      return {};
    case "commit": {
      openTx = null;
      const [result] = await pg.exec("commit");
      // A failed statement whose error the caller swallowed turns COMMIT into ROLLBACK; PGlite's
      // own transaction() reports it the same way.
      if (result?.command === "ROLLBACK") throw new Error("The transaction was rolled back.");
      return {};
    }
    case "rollback":
      openTx = null;
      await pg.exec("rollback");
      return {};
  }
}

self.onmessage = async (event: MessageEvent<Request>) => {
  const message = event.data;
  try {
    self.postMessage({ id: message.id, ...await handle(message) });
  } catch (error) {
    self.postMessage({ id: message.id, error: errorFields(error) });
  }
};
