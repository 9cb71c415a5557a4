/**
 * Many staff at once (DESIGN.md section 10, issue 29): the application started as people start
 * it (`api/main.ts` in a process of its own, with its background jobs), an order table of
 * BENCH_LOAD_ORDERS orders, and staff signed in with their own sessions.
 *
 * - *staff*: each member acts every 3–10 s at random (the order list as people use it: empty,
 *   1–3 characters, a broad term, one PO, a deep sorted page; an order; a note; the home page;
 *   the runs; the sources) while a 20,000-row order file is imported over the API every
 *   BENCH_LOAD_SECONDS. Levels from BENCH_LOAD_STAFF ("10,50,200,1000"), each BENCH_LOAD_SECONDS
 *   long or longer: long enough that the rarest kind gets BENCH_LOAD_MIN_PER_KIND requests
 *   (`levelSeconds`), since a p95 of four requests is their maximum.
 * - *capacity*: 50 connections without think time for BENCH_LOAD_CAPACITY_SECONDS, set beside
 *   the same queries called straight on the database (PostgreSQL) at the same concurrency.
 * - `/health` is asked every 200 ms throughout; the server process's CPU and memory, and the
 *   CPU of the PostgreSQL processes and of this generator, are read from /proc.
 * - Each kind's p95 is also split by whether the request ended while the level's import ran,
 *   and set beside the p95 of the time inside the app (its `Server-Timing`): where the tail is.
 * - BENCH_APP_V8_FLAGS and BENCH_APP_DENO_ARGS pass flags to the app for a diagnosis
 *   (`--trace-gc`; `--inspect=127.0.0.1:9229` to take a CPU profile of it under load).
 *
 * `BENCH_ONLY=load deno task bench` runs it alone; BENCH_LOAD_DB ("pglite,postgres") picks the
 * databases; PostgreSQL from BENCH_DATABASE_URL or DATABASE_URL (a database `bench_load` is
 * created on it and dropped after). Loopback only; every loop is bounded in time.
 */
import postgres from "postgres";
import { type Db, openDb } from "../api/db/client.ts";
import { migrate } from "../api/db/migrate.ts";
import { hashPassword } from "../api/auth/password.ts";
import { searchOrders } from "../api/order_tracking/search.ts";
import { findOrder, orderUpdateStats, saveNote } from "../api/order_tracking/queries.ts";
import { listSources } from "../api/order_tracking/sources/queries.ts";
import { listRuns } from "../api/ingest/import_runs.ts";
import { FEATURES } from "../api/features.ts";
import type { Feature } from "../api/feature.ts";
import { createSource, csvText, fillOrders, HEADERS, orderRows } from "./order_tracking_bench.ts";
import { processUsage, startProcess } from "./app_process.ts";
import { quantile } from "./stats.ts";
import { LoadError, type Recorder, signIn, type Staff } from "./load_client.ts";

const env = (name: string, fallback: string) => Deno.env.get(name) ?? fallback;
const ORDERS = Number(env("BENCH_LOAD_ORDERS", "200000"));
const LEVELS = env("BENCH_LOAD_STAFF", "10,50,200,1000").split(",").map(Number);
const LEVEL_SECONDS = Number(env("BENCH_LOAD_SECONDS", "60"));
const MIN_PER_KIND = Number(env("BENCH_LOAD_MIN_PER_KIND", "20"));
const CAPACITY_SECONDS = Number(env("BENCH_LOAD_CAPACITY_SECONDS", "20"));
const CAPACITY_CONNECTIONS = 50;
const CAPACITY_ROUNDS = Number(env("BENCH_LOAD_CAPACITY_ROUNDS", "3"));
const IMPORT_ROWS = Number(env("BENCH_LOAD_IMPORT_ROWS", "20000"));
const DATABASES = env("BENCH_LOAD_DB", "pglite,postgres").split(",").map((s) => s.trim());
const PG_URL = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/test";
const PASSWORD = "bench-load-password";

// ---------------------------------------------------------------------------------------------
// Figures

/** Latencies per kind, with failures counted. */
class Figures implements Recorder {
  readonly ms = new Map<string, number[]>();
  /** The same latencies split: the requests that ended while the level's import ran, the rest. */
  readonly duringImport = new Map<string, number[]>();
  readonly otherwise = new Map<string, number[]>();
  /** The time inside the app (its `Server-Timing`), per kind. */
  readonly appMs = new Map<string, number[]>();
  importing = false;
  readonly failures = new Map<string, number>();
  readonly errors: string[] = [];
  record(kind: string, ms: number, ok: boolean, appMs?: number) {
    const add = (lists: Map<string, number[]>, value: number) => {
      const list = lists.get(kind);
      if (list) list.push(value);
      else lists.set(kind, [value]);
    };
    add(this.ms, ms);
    add(this.importing ? this.duringImport : this.otherwise, ms);
    if (appMs !== undefined) add(this.appMs, appMs);
    if (!ok) this.failures.set(kind, (this.failures.get(kind) ?? 0) + 1);
  }
  get total() {
    return [...this.ms.values()].reduce((sum, list) => sum + list.length, 0);
  }
  get failed() {
    return [...this.failures.values()].reduce((sum, n) => sum + n, 0);
  }
}

/** Where the staff's requests are recorded: each phase points it at its own figures. */
const sink = { target: new Figures() };
const recorder: Recorder = {
  record: (kind, ms, ok, appMs) => sink.target.record(kind, ms, ok, appMs),
};

const fmt = (ms: number) => Number.isNaN(ms) ? "–" : ms < 10 ? ms.toFixed(1) : ms.toFixed(0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds used so far by every process whose command is `name` (e.g. the PostgreSQL backends). */
function commandCpu(name: string): number {
  let ticks = 0;
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== name) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* the process ended meanwhile */ }
  }
  return ticks / 100;
}

// ---------------------------------------------------------------------------------------------
// The application under load

/**
 * Starts the app as `deno task start` runs it, in a process of its own; `more` adds settings
 * (`RUN_JOBS: "false"` for a second web process).
 */
async function startApp(
  database: Record<string, string>,
  more: Record<string, string> = {},
): Promise<App> {
  const app = await startProcess("web", {
    ...database,
    HOST: "127.0.0.1",
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: "warn",
    OUTBOUND_ALLOW: "127.0.0.0/8",
    ...more,
  });
  return { url: app.url!, pid: app.pid, stop: app.stop };
}

interface App {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

interface Prepared {
  label: string;
  database: Record<string, string>;
  /** The same queries straight on the database (PostgreSQL only). */
  direct?: () => ReturnType<typeof openDb>;
  cleanup(): Promise<void>;
}

/** Fills a fresh database with the orders, the order tracking source and the staff users. */
async function prepare(kind: string, staffCount: number): Promise<Prepared> {
  let database: Record<string, string>;
  let cleanup: () => Promise<void>;
  let open: () => ReturnType<typeof openDb>;
  if (kind === "postgres") {
    const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe("drop database if exists bench_load with (force)");
    await admin.unsafe("create database bench_load");
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = "/bench_load";
    database = { DATABASE_URL: url.href };
    open = () => openDb({ url: url.href });
    cleanup = async () => {
      const again = postgres(PG_URL, { max: 1, onnotice: () => {} });
      await again.unsafe("drop database if exists bench_load with (force)");
      await again.end();
    };
  } else {
    const dir = await Deno.makeTempDir({ prefix: "bench-load-" });
    database = { DATA_DIR: dir };
    open = () => openDb({ dataDir: `${dir}/pglite` });
    cleanup = () => Deno.remove(dir, { recursive: true });
  }
  const db = await open();
  try {
    await migrate(db);
    const sourceId = await createSource(db);
    await fillOrders(db, sourceId, ORDERS);
    // Vacuumed as a system that grew by imports is (each large one vacuumed its new pages on
    // PGlite; autovacuum on PostgreSQL); `fillOrders` has analyzed it. Without it the first
    // level's statistics job vacuumed all 200,000 orders at once, a stall no running system sees.
    await db.exec("vacuum orders");
    const hash = await hashPassword(PASSWORD);
    await db.query(
      `insert into users (username, password_hash, email, active_status, order_user,
         inventory_user, submission_user)
       select 'staff-' || i, $1, '', true, true, true, true from generate_series(1, $2) as i`,
      [hash, staffCount],
    );
  } finally {
    await db.close();
  }
  return {
    label: kind === "postgres" ? "PostgreSQL" : "PGlite (embedded default)",
    database,
    direct: kind === "postgres" ? open : undefined,
    cleanup,
  };
}

// ---------------------------------------------------------------------------------------------
// What staff do

const LETTERS = "abcdefghiklmnoprstuvw";
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];
const po = () => `PO-${String(1 + Math.floor(Math.random() * ORDERS)).padStart(7, "0")}`;
const someOrder = () => 1 + Math.floor(Math.random() * ORDERS);

/** The order list's requests as the screen sends them, by kind. */
const SEARCHES: [string, () => Record<string, unknown>][] = [
  ["list: no terms", () => ({})],
  ["list: 1 character", () => ({ ShipToNameParam: pick([...LETTERS]) })],
  ["list: 2 characters", () => ({ PoNumberParam: String(10 + Math.floor(Math.random() * 90)) })],
  ["list: 3 characters", () => ({ ShipToNameParam: pick(["sto", "wal", "ren", "mar"]) })],
  ["list: broad term", () => ({ SupplierNameParam: "Supplier" })],
  ["list: one PO", () => ({ PoNumberParam: po() })],
  ["list: page 200, sorted", () => ({ PageIndex: 200, SortParams: { customerName: true } })],
];

/** One action of a member of staff, chosen with the weights people show. */
async function act(staff: Staff): Promise<void> {
  const roll = Math.random();
  if (roll < 0.55) {
    const [kind, terms] = pick(SEARCHES);
    await staff.call(kind, "POST", "/api/order-tracking/list", {
      PageSize: 50,
      PageIndex: 1,
      AndOrParam: true,
      ...terms(),
    });
  } else if (roll < 0.7) {
    await staff.call("order", "GET", `/api/order-tracking/order/${someOrder()}`);
  } else if (roll < 0.78) {
    await staff.call("note", "POST", "/api/order-tracking/notes", {
      orderId: someOrder(),
      note: `called the supplier ${new Date().toISOString()}`,
    });
  } else if (roll < 0.9) {
    await staff.call("home stats", "GET", "/api/order-tracking/list/update-stats");
  } else if (roll < 0.96) {
    await staff.call("runs", "GET", "/api/import-runs?limit=50");
  } else {
    await staff.call("sources", "GET", "/api/order-tracking-sources/active");
  }
}

/** Runs `work` until `until`, recording failures instead of stopping. */
async function loop(figures: Figures, until: number, work: () => Promise<void>) {
  while (performance.now() < until) {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof LoadError)) figures.record("transport", 0, false);
      if (figures.errors.length < 5) figures.errors.push(String(error).slice(0, 300));
    }
  }
}

/** `/health` every 200 ms until `until`. */
async function probeHealth(url: string, until: number): Promise<number[]> {
  const times: number[] = [];
  while (performance.now() < until) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/health`);
      await response.body?.cancel();
    } catch { /* counted as slow below */ }
    times.push(performance.now() - started);
    await sleep(Math.max(0, 200 - (performance.now() - started)));
  }
  return times;
}

function importFile(rows: number): Uint8Array {
  // Orders that already exist (updates) and new ones, as a day's file has.
  const lines = orderRows(rows).map((row, i) => {
    const copy = [...row];
    copy[0] = `PO-${String(i % 2 ? ORDERS + 1 + i : 1 + i).padStart(7, "0")}`;
    return copy;
  });
  return new TextEncoder().encode(csvText([HEADERS, ...lines]));
}

// ---------------------------------------------------------------------------------------------
// The shapes

/** The share of actions of the rarest kind (the sources list, `act`). */
const RAREST_SHARE = 0.04;
/** The pause between one person's actions: 3 s, plus up to 7 s at random. */
const THINK_MIN_MS = 3000;
const THINK_SPREAD_MS = 7000;
/** The mean of that pause, in seconds. */
const MEAN_THINK_S = (THINK_MIN_MS + THINK_SPREAD_MS / 2) / 1000;

/**
 * How long a level of `staff` lasts: BENCH_LOAD_SECONDS, or longer when fewer people would not
 * send the rarest kind MIN_PER_KIND times (at 10 staff, 325 s), in whole import periods.
 */
function levelSeconds(staff: number): number {
  const needed = MIN_PER_KIND / (RAREST_SHARE * staff / MEAN_THINK_S);
  return Math.max(1, Math.ceil(needed / LEVEL_SECONDS)) * LEVEL_SECONDS;
}

interface LevelResult {
  staff: number;
  figures: Figures;
  health: number[];
  /** Each import's seconds (null: it failed). */
  imports: (number | null)[];
  seconds: number;
  cpuShare: number;
  /** CPU of the PostgreSQL processes and of this generator, in cores, over the level. */
  postgresShare: number;
  generatorShare: number;
  rssMB: number;
}

/**
 * Each kind's median on the idle app, one client: sent back to back (`hot`), and `paced`, each
 * request after a pause of PACED_IDLE_MS, as one person with nobody else about sends them. The
 * pause costs by itself: on this machine's 2 virtual cores a request after 300 ms of quiet took
 * 2–2.6 × one sent right after another, on either database, inside the app (1.0 → 1.9 ms for one
 * order on PostgreSQL) and in the client alike (the threads and processes wake from idle); the
 * staff, who act every 3–10 s, pay it on every request. Both baselines are reported, both
 * measured once the machine is quiet (`waitForQuiet`); the paced one in PACED_PASSES passes.
 */
async function idleMedians(
  staff: Staff,
): Promise<{ hot: Baseline; paced: Baseline; quiet: Quiet }> {
  // Fresh terms and orders each round, as the staff shape picks them.
  const round = (): [string, string, string, unknown?][] => [
    ...SEARCHES.map(([kind, terms]): [string, string, string, unknown] => [
      kind,
      "POST",
      "/api/order-tracking/list",
      { PageSize: 50, PageIndex: 1, AndOrParam: true, ...terms() },
    ]),
    ["order", "GET", `/api/order-tracking/order/${someOrder()}`],
    ["note", "POST", "/api/order-tracking/notes", { orderId: someOrder(), note: "idle" }],
    ["home stats", "GET", "/api/order-tracking/list/update-stats"],
    ["runs", "GET", "/api/import-runs?limit=50"],
    ["sources", "GET", "/api/order-tracking-sources/active"],
  ];
  const pass = async (rounds: number, pauseMs: number): Promise<Baseline> => {
    const figures = sink.target = new Figures();
    for (let n = 0; n < rounds; n++) {
      for (const [kind, method, path, body] of round()) {
        if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
        await staff.call(kind, method, path, body);
      }
    }
    return new Map([...figures.ms].map(([kind, list]) => [kind, quantile(list, 0.5)]));
  };
  const quiet = await waitForQuiet();
  const hot = await pass(15, 0);
  // The paced baseline in passes, each kind's lowest pass median kept: a pass that met another
  // process's work (session 30: paced medians twice the run before's, back-to-back ones the same)
  // made the ratios low because their denominators were high. The lowest is the strict choice.
  const passes: Baseline[] = [];
  for (let n = 0; n < PACED_PASSES; n++) passes.push(await pass(10, PACED_IDLE_MS));
  const paced: Baseline = new Map(
    [...passes[0].keys()].map((kind) => [
      kind,
      Math.min(...passes.map((one) => one.get(kind) ?? Infinity)),
    ]),
  );
  return { hot, paced, quiet };
}

/** How many passes of the paced idle baseline (`idleMedians`). */
const PACED_PASSES = 2;

/** The whole machine's idle share since the last call, from /proc/stat. */
function machineIdle(): () => number {
  const read = () => {
    const fields = Deno.readTextFileSync("/proc/stat").split("\n")[0].trim().split(/\s+/)
      .slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle and iowait are the machine at rest.
    return { idle: fields[3] + fields[4], total: fields.slice(0, 8).reduce((a, b) => a + b, 0) };
  };
  let last = read();
  return () => {
    const now = read();
    const share = (now.idle - last.idle) / Math.max(1, now.total - last.total);
    last = now;
    return share;
  };
}

/**
 * Waits (at most QUIET_MAX_S) until the machine has been at least 90 % idle for three seconds in
 * a row, so the idle baselines do not measure what another process left running (PostgreSQL's
 * checkpoint after the fill, a database dropped by the run before). Answers the seconds waited
 * and whether it got quiet.
 */
async function waitForQuiet(): Promise<Quiet> {
  const idle = machineIdle();
  const started = performance.now();
  let calm = 0;
  while (calm < 3 && performance.now() - started < QUIET_MAX_S * 1000) {
    await sleep(1000);
    calm = idle() >= 0.9 ? calm + 1 : 0;
  }
  return { seconds: (performance.now() - started) / 1000, quiet: calm >= 3 };
}

/** The longest wait for a quiet machine before the idle baselines. */
const QUIET_MAX_S = 180;

/** What `waitForQuiet` found. */
interface Quiet {
  seconds: number;
  quiet: boolean;
}

/** Each kind's idle median (ms). */
type Baseline = Map<string, number>;

/** The pause before each request of the paced idle baseline. */
const PACED_IDLE_MS = 500;

async function staffLevel(
  app: App,
  staff: Staff[],
  importer: Staff,
  sourceId: number,
  file: Uint8Array,
): Promise<LevelResult> {
  const figures = sink.target = new Figures();
  const started = performance.now();
  const until = started + levelSeconds(staff.length) * 1000;
  const before = processUsage(app.pid);
  const postgresBefore = commandCpu("postgres");
  const generatorBefore = processUsage(Deno.pid).cpuS;
  const health = probeHealth(app.url, until);
  const imports: (number | null)[] = [];
  // One import at the start of every BENCH_LOAD_SECONDS of the level, as files keep arriving.
  const importing = (async () => {
    for (let at = started; at < until; at += LEVEL_SECONDS * 1000) {
      await sleep(Math.max(0, at - performance.now()));
      const t = performance.now();
      figures.importing = true;
      try {
        await importer.upload(
          `import (${IMPORT_ROWS.toLocaleString("en")} rows)`,
          `/api/order-tracking-sources/${sourceId}/import`,
          "orders.csv",
          file,
        );
        imports.push((performance.now() - t) / 1000);
      } catch (error) {
        imports.push(null);
        figures.errors.push(String(error).slice(0, 300));
      } finally {
        figures.importing = false;
      }
    }
  })();
  await Promise.all(staff.map(async (member) => {
    // Spread the first actions over the think time, as people arrive over time.
    await sleep(Math.random() * 10_000);
    await loop(figures, until, async () => {
      await act(member);
      await sleep(THINK_MIN_MS + Math.random() * THINK_SPREAD_MS);
    });
  }));
  await importing;
  const after = processUsage(app.pid);
  const seconds = (performance.now() - started) / 1000;
  return {
    staff: staff.length,
    figures,
    health: await health,
    imports,
    seconds,
    cpuShare: (after.cpuS - before.cpuS) / seconds,
    postgresShare: (commandCpu("postgres") - postgresBefore) / seconds,
    generatorShare: (processUsage(Deno.pid).cpuS - generatorBefore) / seconds,
    rssMB: after.rssMB,
  };
}

async function capacity(staff: Staff[], figures: Figures): Promise<number> {
  sink.target = figures;
  const before = figures.total;
  const started = performance.now();
  const until = started + CAPACITY_SECONDS * 1000;
  await Promise.all(staff.map((member) => loop(figures, until, () => act(member))));
  return (figures.total - before) / ((performance.now() - started) / 1000);
}

/**
 * The capacity paragraph: rounds of the app's rate and the database's own, in turns, so that
 * both see the same moments of the machine (autovacuum, another process); each rate is the
 * median of its rounds. Where wrk is installed (Debian's `wrk`), each round also runs the same
 * mix from wrk (bench/capacity.lua), a generator that takes a fraction of this process's CPU a
 * request: on a machine the app shares with its database and its generator, that CPU goes to
 * the app.
 */
async function capacityLines(
  server: { pid: number; url: string },
  staff: Staff[],
  prepared: Prepared,
) {
  const figures = new Figures();
  const app = new Rounds();
  const direct = new Rounds();
  const wrk = await hasWrk() ? new Rounds() : null;
  const wrkRuns: WrkRun[] = [];
  // The straight runs share one pool that stays open and warm, as the app's does.
  const db = prepared.direct ? await prepared.direct() : null;
  // On PostgreSQL, a second web process (jobs off, as docs/operations.md deploys it): one per
  // core, each sent half the connections by a wrk of its own.
  const second = wrk && db ? await startApp(prepared.database, { RUN_JOBS: "false" }) : null;
  const pair = second ? new Rounds() : null;
  const pairRuns: WrkRun[] = [];
  // The second process's first seconds under this load, not counted: its code is not compiled
  // yet (the first process's was, by the staff levels before), and its first requests waited
  // up to 2.5 s (docs/operations.md, "A process that has just started").
  let coldStart: WrkRun | null = null;
  try {
    if (db) await directCapacity(db, 5);
    if (second) {
      coldStart = await wrkCapacity(second.url, staff.slice(staff.length / 2), { s: 0 }, 5);
    }
    for (let round = 0; round < CAPACITY_ROUNDS; round++) {
      await app.measure([server.pid], () => capacity(staff, figures));
      if (db) await direct.measure([Deno.pid], () => directCapacity(db));
      if (wrk) {
        const cpu = { s: 0 };
        await wrk.measure([server.pid], async () => {
          const run = await wrkCapacity(server.url, staff, cpu);
          wrkRuns.push(run);
          return run.rate;
        }, () => cpu.s);
      }
      if (pair && second) {
        const cpus = [{ s: 0 }, { s: 0 }];
        const half = staff.length / 2;
        await pair.measure([server.pid, second.pid], async () => {
          const runs = await Promise.all([
            wrkCapacity(server.url, staff.slice(0, half), cpus[0]),
            wrkCapacity(second.url, staff.slice(half), cpus[1]),
          ]);
          pairRuns.push(...runs);
          return runs[0].rate + runs[1].rate;
        }, () => cpus[0].s + cpus[1].s);
      }
    }
  } finally {
    await db?.close();
    await second?.stop();
  }
  // PGlite runs inside the server process: there is no PostgreSQL process to read.
  const postgresCpu = (rounds: Rounds) =>
    db === null
      ? ""
      : `, PostgreSQL processes ${rounds.cpu("postgres")} (${
        rounds.pgMsPerRequest.toFixed(2)
      } ms of CPU a request)`;
  const share = (rounds: Rounds) =>
    db === null
      ? ""
      : `: **${(rounds.rate / direct.rate * 100).toFixed(0)} %** of the database's rate`;
  const p95 = fmt(quantile([...figures.ms.values()].flat(), 0.95));
  const lines = [
    `Capacity, ${CAPACITY_CONNECTIONS} connections without think time, ${CAPACITY_ROUNDS} rounds ` +
    `of ${CAPACITY_SECONDS} s: **${
      app.rate.toFixed(0)
    } req/s** through the app (median of ${app.rates()}; ${figures.failed} errors; server process ${
      app.cpu("process")
    }${postgresCpu(app)}, this ` +
    `generator ${app.cpu("generator")}; p95 ${p95} ms)` +
    (db === null ? "." : `; the same queries straight on the database, each round right after ` +
      `the app's: ${direct.rate.toFixed(0)} req/s (median of ${direct.rates()}; PostgreSQL ` +
      `processes ${direct.cpu("postgres")} (${direct.pgMsPerRequest.toFixed(2)} ms of CPU a ` +
      `request), this process ${direct.cpu("process")}), so the app reaches **${
        (app.rate / direct.rate * 100).toFixed(0)
      } %** of the database's rate.`),
  ];
  // The wrk rounds' paragraphs: what ran, then the same figures for each kind of round.
  const wrkParagraph = (what: string, rounds: Rounds, runs: WrkRun[], servers: string) =>
    `${what}: **${rounds.rate.toFixed(0)} req/s** (median of ${rounds.rates()}; ${
      wrkFailures(runs)
    }; ${servers} ${rounds.cpu("process")}${postgresCpu(rounds)}, wrk ${
      rounds.cpu("generator")
    }; p50 ${runs.map((run) => fmt(run.p50)).join(", ")} ms, ` +
    `p99 ${runs.map((run) => fmt(run.p99)).join(", ")} ms)${share(rounds)}.`;
  if (wrk) {
    lines.push(
      "",
      wrkParagraph(
        `The same mix from wrk (\`wrk -t1 -c${CAPACITY_CONNECTIONS}\`, bench/capacity.lua), each ` +
          "round right after the straight one",
        wrk,
        wrkRuns,
        "server process",
      ),
    );
  }
  if (pair) {
    lines.push(
      "",
      wrkParagraph(
        `Two web processes (the second with RUN_JOBS=false), each sent ${
          CAPACITY_CONNECTIONS / 2
        } of the ${CAPACITY_CONNECTIONS} connections by a wrk of its own, each round right after ` +
          "the one above (p50 and p99 of each process of each round)",
        pair,
        pairRuns,
        "server processes",
      ),
    );
  }
  if (coldStart) {
    lines.push(
      "",
      `Before those rounds the second process, just started, was sent ${
        CAPACITY_CONNECTIONS / 2
      } connections for 5 s alone, not counted: ${coldStart.rate.toFixed(0)} req/s, ${
        wrkFailures([coldStart])
      }, p50 ${fmt(coldStart.p50)} ms, p99 ${fmt(coldStart.p99)} ms.`,
    );
  }
  return lines;
}

/** Whether wrk is on the PATH. */
async function hasWrk(): Promise<boolean> {
  try {
    await new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" })
      .output();
    return true;
  } catch {
    return false;
  }
}

/**
 * A round of wrk: its rate, its answers that were not 2xx (by status), its socket errors (by
 * kind; a time-out is a request unanswered after wrk's 2 s), its latencies (ms).
 */
interface WrkRun {
  rate: number;
  statuses: Record<string, number>;
  socket: Record<"connect" | "read" | "write" | "timeout", number>;
  p50: number;
  p99: number;
}

/** How many requests of `runs` were not answered 2xx, by status and socket error. */
function wrkFailures(runs: WrkRun[]): string {
  const counts = new Map<string, number>();
  const add = (what: string, n: number) => n && counts.set(what, (counts.get(what) ?? 0) + n);
  for (const run of runs) {
    for (const [status, n] of Object.entries(run.statuses)) add(`status ${status}`, n);
    for (const [kind, n] of Object.entries(run.socket)) add(`socket ${kind}`, n);
  }
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return total === 0
    ? "0 answers not 2xx or failed"
    : `${total} answers not 2xx or failed (${
      [...counts].map(([what, n]) => `${what}: ${n}`).join(", ")
    })`;
}

/**
 * One capacity round of bench/capacity.lua in wrk, a connection for each of `staff` with their
 * sessions; `cpu.s` follows wrk's CPU seconds while it runs (read every 100 ms: its last tenth of
 * a second is not seen).
 */
async function wrkCapacity(
  url: string,
  staff: Staff[],
  cpu: { s: number },
  seconds = CAPACITY_SECONDS,
): Promise<WrkRun> {
  const cookies = await Deno.makeTempFile({ prefix: "wrk-cookies-" });
  try {
    await Promise.all(staff.map((member) => member.renew()));
    await Deno.writeTextFile(cookies, staff.map((member) => member.cookie()).join("\n") + "\n");
    const child = new Deno.Command("wrk", {
      args: [
        "-t1",
        `-c${staff.length}`,
        `-d${seconds}s`,
        "--latency",
        "-s",
        new URL("./capacity.lua", import.meta.url).pathname,
        url,
      ],
      env: { WRK_COOKIES: cookies, WRK_ORIGIN: new URL(url).origin, WRK_ORDERS: String(ORDERS) },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const poll = setInterval(() => {
      try {
        cpu.s = processUsage(child.pid).cpuS;
      } catch { /* it ended */ }
    }, 100);
    const output = await child.output();
    clearInterval(poll);
    const text = new TextDecoder().decode(output.stdout);
    if (!output.success) throw new Error(`wrk failed: ${new TextDecoder().decode(output.stderr)}`);
    const number = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
    const ms = (pattern: RegExp) => {
      const found = pattern.exec(text);
      if (!found) return NaN;
      const scale = { us: 0.001, ms: 1, s: 1000 }[found[2] as "us" | "ms" | "s"] ?? NaN;
      return Number(found[1]) * scale;
    };
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
      .exec(text)?.slice(1).map(Number) ?? [0, 0, 0, 0];
    return {
      rate: number(/Requests\/sec:\s+([\d.]+)/),
      statuses: Object.fromEntries(
        [...text.matchAll(/^status (\d+): (\d+)$/gm)].map((found) => [found[1], Number(found[2])]),
      ),
      socket: { connect: socket[0], read: socket[1], write: socket[2], timeout: socket[3] },
      p50: ms(/\s50%\s+([\d.]+)(us|ms|s)/),
      p99: ms(/\s99%\s+([\d.]+)(us|ms|s)/),
    };
  } finally {
    await Deno.remove(cookies);
  }
}

/** Rates of capacity rounds, with the CPU the processes used meanwhile. */
class Rounds {
  readonly list: number[] = [];
  seconds = 0;
  requests = 0;
  readonly cpuS = { process: 0, postgres: 0, generator: 0 };
  /**
   * Runs one round of `work` (answering its rate) and adds its CPU, `pids` being the server
   * processes and `generatorCpu` the CPU seconds of the generator (by default this process).
   */
  async measure(
    pids: number[],
    work: () => Promise<number>,
    generatorCpu = () => processUsage(Deno.pid).cpuS,
  ) {
    const serverCpu = () => pids.reduce((sum, pid) => sum + processUsage(pid).cpuS, 0);
    const before = { process: serverCpu(), postgres: commandCpu("postgres") };
    const generator = generatorCpu();
    const t0 = performance.now();
    const rate = await work();
    const seconds = (performance.now() - t0) / 1000;
    this.list.push(rate);
    this.seconds += seconds;
    this.requests += rate * seconds;
    this.cpuS.process += serverCpu() - before.process;
    this.cpuS.postgres += commandCpu("postgres") - before.postgres;
    this.cpuS.generator += generatorCpu() - generator;
  }
  get rate() {
    return quantile(this.list, 0.5);
  }
  get pgMsPerRequest() {
    return this.cpuS.postgres * 1000 / this.requests;
  }
  rates() {
    return this.list.map((n) => n.toFixed(0)).join(", ");
  }
  cpu(what: keyof Rounds["cpuS"]) {
    return `${(this.cpuS[what] / this.seconds * 100).toFixed(0)} %`;
  }
}

/** The feeds whose runs the staff read (they hold every feature's flag), as the route lists them. */
const STAFF_FEEDS = (FEATURES as readonly Feature[]).flatMap((feature) =>
  feature.feed ? [feature.feed.name] : []
);

/**
 * The same mix's queries called straight on the database at the same concurrency: the functions
 * the routes call, so the statements are the app's.
 */
async function directCapacity(db: Db, seconds = CAPACITY_SECONDS): Promise<number> {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CAPACITY_CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const roll = Math.random();
        if (roll < 0.55) {
          const [, terms] = pick(SEARCHES);
          await searchOrders(
            db,
            {
              PageSize: 50,
              PageIndex: 1,
              AndOrParam: true,
              ...terms(),
            } as Parameters<typeof searchOrders>[1],
          );
        } else if (roll < 0.7) await findOrder(db, someOrder());
        else if (roll < 0.78) await saveNote(db, someOrder(), "direct");
        else if (roll < 0.9) await orderUpdateStats(db);
        else if (roll < 0.96) await listRuns(db, { feeds: STAFF_FEEDS, limit: 50 });
        else await listSources(db);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

// ---------------------------------------------------------------------------------------------
// The section

/**
 * The p95 of `kind`'s requests that ended while the level's import ran, and of the others: which
 * of the two makes the tail.
 */
function splitP95(figures: Figures, kind: string): string {
  if (kind.startsWith("import")) return "–";
  const during = figures.duringImport.get(kind) ?? [];
  const rest = figures.otherwise.get(kind) ?? [];
  const one = (list: number[]) =>
    list.length ? `${fmt(quantile(list, 0.95))} (${list.length})` : "–";
  return `${one(during)} / ${one(rest)}`;
}

/** "import 6.5 s", or "5 imports 6.3–7.1 s" (a failed one said). */
function importsText(imports: (number | null)[]): string {
  const done = imports.filter((s): s is number => s !== null);
  const failed = imports.length - done.length ? `, ${imports.length - done.length} failed` : "";
  if (done.length <= 1) return `import ${done.length ? done[0].toFixed(1) + " s" : "–"}${failed}`;
  return `${done.length} imports ${Math.min(...done).toFixed(1)}–${
    Math.max(...done).toFixed(1)
  } s${failed}`;
}

function levelRows(result: LevelResult, idle: { hot: Baseline; paced: Baseline }): string[] {
  const rows: string[] = [];
  let worst = 0;
  let worstPaced = 0;
  for (const [kind, list] of [...result.figures.ms].sort(([a], [b]) => a.localeCompare(b))) {
    const p95 = quantile(list, 0.95);
    const ratioTo = (median: number | undefined) => median ? p95 / median : NaN;
    const ratio = ratioTo(idle.hot.get(kind));
    const paced = ratioTo(idle.paced.get(kind));
    if (!kind.startsWith("import")) {
      if (!Number.isNaN(ratio)) worst = Math.max(worst, ratio);
      if (!Number.isNaN(paced)) worstPaced = Math.max(worstPaced, paced);
    }
    const median = (baseline: Baseline) => {
      const value = baseline.get(kind);
      return value ? fmt(value) : "–";
    };
    const times = (value: number) => Number.isNaN(value) ? "–" : value.toFixed(1) + " ×";
    rows.push(
      `| ${result.staff} | ${kind} | ${list.length} | ${fmt(quantile(list, 0.5))} | ${fmt(p95)} | ${
        fmt(quantile(list, 0.99))
      } | ${median(idle.hot)} / ${median(idle.paced)} | ${times(ratio)} / ${times(paced)} | ${
        splitP95(result.figures, kind)
      } | ${fmt(quantile(result.figures.appMs.get(kind) ?? [], 0.95))} | ${
        result.figures.failures.get(kind) ?? 0
      } |`,
    );
  }
  rows.push(
    `| ${result.staff} | \`/health\` every 200 ms | ${result.health.length} | ${
      fmt(quantile(result.health, 0.5))
    } | ${fmt(quantile(result.health, 0.95))} | ${fmt(quantile(result.health, 0.99))} | | max ${
      fmt(Math.max(...result.health))
    } | | | 0 |`,
  );
  rows.push(
    `| ${result.staff} | **level** | ${result.figures.total} requests | server CPU ${
      (result.cpuShare * 100).toFixed(0)
    } % of a core | RSS ${result.rssMB.toFixed(0)} MB | ${importsText(result.imports)}, ${
      result.seconds.toFixed(0)
    } s | | worst p95 ÷ idle ${worst.toFixed(1)} × / ${worstPaced.toFixed(1)} × | PostgreSQL ${
      (result.postgresShare * 100).toFixed(0)
    } %, generator ${(result.generatorShare * 100).toFixed(0)} % | | ${result.figures.failed} |`,
  );
  return rows;
}

async function runOn(kind: string): Promise<string[]> {
  const maxStaff = Math.max(...LEVELS, CAPACITY_CONNECTIONS);
  console.log(`load: preparing ${kind} with ${ORDERS} orders and ${maxStaff} staff`);
  const prepared = await prepare(kind, maxStaff + 1);
  const app = await startApp(prepared.database);
  const lines: string[] = [`### ${prepared.label}`, ""];
  try {
    const staff: Staff[] = [];
    // Signing in costs an Argon2 check each: in groups, as people arrive.
    for (let i = 0; i < maxStaff; i += 20) {
      const group = Array.from({ length: Math.min(20, maxStaff - i) }, (_, j) => i + j + 1);
      staff.push(
        ...await Promise.all(
          group.map((n) => signIn(app.url, `staff-${n}`, PASSWORD, recorder)),
        ),
      );
    }
    const importer = await signIn(app.url, `staff-${maxStaff + 1}`, PASSWORD, recorder);
    const sources = await importer.call("sources", "GET", "/api/order-tracking-sources/active") as {
      id: number;
    }[];
    const sourceId = sources[0].id;
    const file = importFile(IMPORT_ROWS);

    const idle = await idleMedians(staff[0]);
    const t = performance.now();
    await importer.upload(
      "import",
      `/api/order-tracking-sources/${sourceId}/import`,
      "orders.csv",
      file,
    );
    const idleImportS = (performance.now() - t) / 1000;
    lines.push(
      `Idle: ${IMPORT_ROWS.toLocaleString("en")}-row import alone ${idleImportS.toFixed(1)} s; ` +
        (idle.quiet.quiet
          ? `the baselines began after ${
            idle.quiet.seconds.toFixed(0)
          } s of waiting for a quiet machine.`
          : `the machine was not quiet (90 % idle for 3 s) within ${QUIET_MAX_S} s: the baselines ` +
            "were measured anyway."),
      "",
      "| staff | kind | requests | p50 ms | p95 ms | p99 ms | idle median ms: back to back / paced | p95 ÷ idle: back to back / paced | p95 during / after the import | p95 inside the app | errors |",
      "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const level of LEVELS) {
      console.log(`load: ${kind}, ${level} staff for ${levelSeconds(level)} s`);
      const result = await staffLevel(app, staff.slice(0, level), importer, sourceId, file);
      lines.push(...levelRows(result, idle));
      if (result.figures.errors.length) {
        console.log(`  first errors: ${result.figures.errors.join(" | ")}`);
      }
    }
    console.log(`load: ${kind}, capacity at ${CAPACITY_CONNECTIONS} connections`);
    lines.push(
      "",
      ...await capacityLines(
        { pid: app.pid, url: app.url },
        staff.slice(0, CAPACITY_CONNECTIONS),
        prepared,
      ),
    );
    lines.push(
      "",
      `Server memory at the end: ${processUsage(app.pid).rssMB.toFixed(0)} MB resident, peak ${
        processUsage(app.pid).peakMB.toFixed(0)
      } MB.`,
      "",
    );
  } finally {
    await app.stop();
    await prepared.cleanup();
  }
  return lines;
}

/** Runs the load shapes and returns the "## Load and soak" section of docs/benchmarks.md. */
export async function loadSection(machine: string): Promise<string> {
  const started = new Date();
  const loadBefore = Deno.loadavg();
  const parts: string[] = [];
  for (const kind of DATABASES) parts.push(...await runOn(kind));
  const loadAfter = Deno.loadavg();
  return [
    "## Load and soak",
    "",
    `Command: \`BENCH_ONLY=load deno task bench\` (BENCH_LOAD_ORDERS=${ORDERS}, BENCH_LOAD_STAFF=${
      LEVELS.join(",")
    }, BENCH_LOAD_SECONDS=${LEVEL_SECONDS}, BENCH_LOAD_MIN_PER_KIND=${MIN_PER_KIND}, BENCH_LOAD_DB=${
      DATABASES.join(",")
    }). Machine: ${machine}.`,
    `Measured ${started.toISOString().slice(0, 16)}Z; load average ${
      loadBefore.map((n) => n.toFixed(1)).join(" / ")
    } before, ${loadAfter.map((n) => n.toFixed(1)).join(" / ")} after.`,
    "The app runs as `deno task start` runs it (its own process, background jobs on); the",
    "generator is this process. Each member of staff signs in with a session of their own and acts",
    "every 3–10 s at random: 55 % order list (empty, 1–3 characters, a broad term, one PO, page",
    "200 sorted), 15 % one order, 8 % a note, 12 % the home page's stats, 6 % runs, 4 % sources.",
    `A ${
      IMPORT_ROWS.toLocaleString("en")
    }-row order file is imported over the API every ${LEVEL_SECONDS} s`,
    `of each level. A level lasts ${LEVEL_SECONDS} s, or longer where fewer staff would send the rarest kind`,
    `(the sources, 4 %) fewer than ${MIN_PER_KIND} times (a p95 of a handful of requests is their`,
    "maximum); its row gives its length. `/health` is asked every 200 ms. Idle medians: one client,",
    "nothing else running,",
    `its requests sent back to back, and paced (each after ${PACED_IDLE_MS} ms of quiet, as one person`,
    "sends them; a request after a pause costs about twice one sent right after another on this",
    `machine, on either database), in ${PACED_PASSES} passes, each kind's lowest pass median kept;`,
    "both begin once the machine has been 90 % idle for 3 s. Where wrk is installed (`apt install wrk`), each capacity round",
    "also sends the same mix from wrk (bench/capacity.lua).",
    "",
    ...parts,
  ].join("\n");
}

if (import.meta.main) console.log(await loadSection("(run directly)"));
