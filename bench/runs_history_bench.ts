/**
 * The run history at scale (docs/runs.md, "Cost"): the history's list and the per-day series
 * timed over BENCH_RUNS_ROWS import runs (1,000,000 unless told) spread over two years, three
 * feeds and 60 sources, on PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL). The database
 * `bench_runs_<rows>` is filled once and reused (BENCH_RUNS_KEEP=1 keeps it, else it is
 * dropped). `runsHistorySection()` returns the "## Run history at scale" section of
 * docs/benchmarks.md (`BENCH_ONLY=runs deno task bench`).
 */
import postgres from "postgres";
import type { Db } from "../api/db/client.ts";
import { openDb } from "../api/db/client.ts";
import { migrate } from "../api/db/migrate.ts";
import { listRunHistory, runSeriesOf } from "../api/runs/queries.ts";
import type { RunArea } from "../shared/contract/runs.ts";

const ROWS = Number(Deno.env.get("BENCH_RUNS_ROWS") ?? 1_000_000);
const KEEP = Deno.env.get("BENCH_RUNS_KEEP") === "1";
const PG_URL = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/test";
const REPEAT = 7;
const ALL: RunArea[] = ["order-tracking", "inventory", "order-submission"];

/** Fills `rows` runs: newest now, one every (2 years / rows); 5 % failed, 3 % with row errors. */
async function fill(db: Db, rows: number): Promise<void> {
  await db.exec(`
    insert into import_runs (feed, source_id, trigger, status, file_name, received_at,
      created_at, finished_at, counts, row_errors)
    select (array['order-tracking', 'inventory', 'order-submission'])[1 + i % 3],
      1 + i % 60, 'mail',
      case when i % 20 = 0 then 'failed' when i % 97 = 0 then 'held' else 'succeeded' end,
      'file-' || i || '.csv', t, t, t + interval '2 seconds',
      jsonb_build_object('rows', 100 + i % 50, 'inserted', i % 7, 'updated', i % 11),
      case when i % 33 = 0 then '[{"row": 2, "message": "bad"}]'::jsonb else '[]'::jsonb end
    from (select i, now() - (i * (interval '730 days' / ${rows})) as t
            from generate_series(1, ${rows}) as i) s`);
  await db.exec("analyze import_runs");
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The cases timed, each a call the pages or the CLI make. */
function cases(db: Db): [string, () => Promise<unknown>][] {
  return [
    ["history, all areas, newest 100", () => listRunHistory(db, { areas: ALL, limit: 100 })],
    [
      "history, one area, failed, newest 100",
      () => listRunHistory(db, { areas: ["inventory"], state: "failed", limit: 100 }),
    ],
    [
      "history, one source, last day",
      () =>
        listRunHistory(db, {
          areas: ["order-tracking"],
          sourceId: 3,
          from: new Date(Date.now() - 86_400_000).toISOString(),
          limit: 100,
        }),
    ],
    [
      "history, all areas, held, a month a year ago",
      () =>
        listRunHistory(db, {
          areas: ALL,
          state: "held",
          from: new Date(Date.now() - 395 * 86_400_000).toISOString(),
          to: new Date(Date.now() - 365 * 86_400_000).toISOString(),
          limit: 100,
        }),
    ],
    ["series, all areas, 30 days", () => runSeriesOf(db, { areas: ALL, days: 30 })],
    ["series, all areas, 90 days", () => runSeriesOf(db, { areas: ALL, days: 90 })],
    [
      "series, one source, 30 days",
      () => runSeriesOf(db, { areas: ["order-tracking"], sourceId: 3, days: 30 }),
    ],
  ];
}

/** The "## Run history at scale" section of docs/benchmarks.md. */
export async function runsHistorySection(): Promise<string> {
  const name = `bench_runs_${ROWS}`;
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
  const exists = (await admin`select 1 from pg_database where datname = ${name}`).length > 0;
  if (!exists) await admin.unsafe(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const db = await openDb({ url: url.href });
  const lines: string[] = [];
  try {
    await migrate(db);
    const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from import_runs");
    if (n !== ROWS) {
      await db.exec("truncate import_runs restart identity cascade");
      const t = performance.now();
      await fill(db, ROWS);
      console.log(`  ${ROWS} runs filled in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
    for (const [label, fn] of cases(db)) {
      const ms = await median(fn);
      lines.push(`| ${label} | ${ms.toFixed(1)} |`);
      console.log(`  ${label}: ${ms.toFixed(1)} ms`);
    }
  } finally {
    await db.close();
    if (!KEEP) await admin.unsafe(`drop database if exists ${name}`);
    await admin.end();
  }
  const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  return [
    "## Run history at scale",
    "",
    `GET /api/runs and /api/runs/daily over ${
      ROWS.toLocaleString("en-US")
    } import runs (two years, three feeds, 60 sources) on PostgreSQL; median of ${REPEAT} ` +
    `calls after one warm-up, in ms (load average ${load}). docs/runs.md, "Cost".`,
    "",
    "| call | ms |",
    "| ---- | -- |",
    ...lines,
    "",
  ].join("\n");
}

if (import.meta.main) console.log(await runsHistorySection());
