/**
 * The dashboard call at volume (issue 29: home calls ≤ 5 ms at 1M orders changed in the last 24
 * hours, on both databases). The call reads no order, and each source's last run, last message
 * and last vendor e-mail is one index probe; this bench fills a database as a busy install would
 * look after a long time — 1M orders all changed today, 300,000 import runs, 200,000 mailed
 * messages, 100,000 vendor e-mails over 140 sources, 100 vendors and 20 mailboxes — and times
 * `dashboardSummary` (what GET /api/dashboard runs) for every area.
 *
 * `BENCH_ONLY=dashboard deno task bench`; `BENCH_DASHBOARD_ORDERS` changes the order count.
 */
import postgres from "postgres";
import type { Db } from "../api/db/client.ts";
import { openDb } from "../api/db/client.ts";
import { migrate } from "../api/db/migrate.ts";
import type { Config } from "../api/config.ts";
import { dashboardSummary } from "../api/dashboard/summary.ts";
import { DASHBOARD_AREAS } from "../shared/contract/dashboard.ts";

const ORDERS = Number(Deno.env.get("BENCH_DASHBOARD_ORDERS") ?? 1_000_000);
const CALLS = 50;
const PG_URL = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/test";

/** Fills a migrated database; statements in SQL, so the fill takes seconds, not minutes. */
async function fill(db: Db): Promise<void> {
  await db.exec(`
    insert into email_sources (username, email, incoming_server, incoming_port)
      select 'box' || i, 'box' || i || '@bench.example', '127.0.0.1', 993
        from generate_series(1, 20) i;
    insert into mailbox_state (email_source_id, mailbox, last_poll_at, last_success_at)
      select id, 'INBOX', now(), now() from email_sources;
    insert into order_tracking_sources (source_name, email_source_id, file_type, from_email,
        subject_value, attachment_name, unique_column)
      select 'Tracking ' || i, 1 + i % 20, 'csv', 'a@x.example', 's', 'a', 'CustomerPoNumber'
        from generate_series(1, 50) i;
    insert into inventory_sources (source_name, email_source_id)
      select 'Stock ' || i, 1 + i % 20 from generate_series(1, 50) i;
    insert into order_submission_sources (source_name, email_source_id, from_email, subject_value)
      select 'Orders ' || i, 1 + i % 20, 'o@x.example', 's' from generate_series(1, 40) i;
    insert into vendor_sources (order_submission_source_id, vendor_name_from_file,
        send_from_email_source_id, submit_emails, submit_email_subject_line)
      select 1 + i % 40, 'Vendor ' || i, 1 + i % 20, 'v@x.example', 'Orders'
        from generate_series(1, 100) i;
  `);
  await db.exec(`
    insert into import_runs (feed, source_id, trigger, status, file_name, received_at, counts,
        created_at, finished_at)
      select (array['order-tracking', 'inventory', 'order-submission'])[1 + i % 3],
             1 + (i / 3) % 40, 'mail', 'succeeded', 'file-' || i || '.csv',
             now() - make_interval(secs => i), '{"rows": 10, "inserted": 2}',
             now() - make_interval(secs => i), now() - make_interval(secs => i)
        from generate_series(1, 300000) i;
    insert into mail_messages (email_source_id, mailbox, uidvalidity, uid, message_key, subject,
        status, claimed_at)
      select 1 + i % 20, 'INBOX', 1, i, 'key-' || i, 'Report ' || i,
             (array['matched', 'ignored'])[1 + i % 2], now() - make_interval(secs => i)
        from generate_series(1, 200000) i;
    insert into submissions (vendor_source_id, idempotency_key, batch, row_count,
        send_from_email_source_id, to_addresses, subject, body, message_id, status, created_at,
        sent_at)
      select 1 + i % 100, 'k' || i, 'b', 3, 1, 'v@x.example', 's', 'b', 'm' || i || '@x', 'sent',
             now() - make_interval(secs => i), now() - make_interval(secs => i)
        from generate_series(1, 100000) i;
  `);
  // 1M orders, all changed in the last 24 hours (the counters of migration 0016 follow).
  for (let from = 1; from <= ORDERS; from += 250_000) {
    const to = Math.min(ORDERS, from + 249_999);
    await db.query(
      `insert into orders (order_tracking_source_id, unique_key, last_updated)
         select 1 + i % 50, 'PO-' || i, now() - make_interval(secs => i % 80000)
           from generate_series($1::integer, $2::integer) i`,
      [from, to],
    );
  }
  await db.exec("analyze");
}

/** Median and 95th percentile of CALLS calls after five warm-up calls, in milliseconds. */
async function time(
  db: Db,
): Promise<{ min: number; median: number; p95: number; lines: number }> {
  const deps = { db, config: { MAILBOX_ALERT_HOURS: 24 } as Config };
  let lines = 0;
  for (let i = 0; i < 5; i++) lines = (await dashboardSummary(deps, DASHBOARD_AREAS)).lines.length;
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    await dashboardSummary(deps, DASHBOARD_AREAS);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    min: times[0],
    median: times[CALLS >> 1],
    p95: times[Math.floor(CALLS * 0.95)],
    lines,
  };
}

async function onPglite() {
  const db = await openDb({ dataDir: "memory://" });
  try {
    await migrate(db);
    await fill(db);
    return await time(db);
  } finally {
    await db.close();
  }
}

async function onPostgres() {
  const name = `bench_dashboard_${crypto.randomUUID().slice(0, 8)}`;
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    await admin.end();
    console.log(`  dashboard: no PostgreSQL (${error instanceof Error ? error.message : error})`);
    return null;
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const db = await openDb({ url: url.href });
  try {
    await migrate(db);
    await fill(db);
    return await time(db);
  } finally {
    await db.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** The "## Dashboard" section of docs/benchmarks.md. */
export async function dashboardSection(machine: string): Promise<string> {
  const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  const before = load();
  const pg = await onPostgres();
  const lite = await onPglite();
  const ms = (v: number) => v.toFixed(1);
  const row = (name: string, r: Awaited<ReturnType<typeof time>> | null) =>
    r
      ? `| ${name} | ${r.lines} | ${ms(r.min)} | ${ms(r.median)} | ${ms(r.p95)} |`
      : `| ${name} | — | — | — | — |`;
  return [
    "## Dashboard",
    "",
    `\`GET /api/dashboard\`'s work (\`dashboardSummary\`, every area) over ${
      ORDERS.toLocaleString("en-US")
    } orders changed in the last 24 hours, 300,000 import runs, 200,000 mailed messages and ` +
    "100,000 vendor e-mails; 50 order tracking, 50 inventory and 40 order submission sources, " +
    `100 vendors, 20 mailboxes. ${CALLS} calls after 5 warm-up calls, in milliseconds. Target ` +
    "(issue 29): ≤ 5 ms on both databases. Command: `BENCH_ONLY=dashboard deno task bench`.",
    "",
    "| database | lines | fastest | median | p95 |",
    "| --- | ---: | ---: | ---: | ---: |",
    row("PostgreSQL", pg),
    row("PGlite (in its worker)", lite),
    "",
    `Machine: ${machine}. Load average before → after: ${before} → ${load()}.`,
    "",
  ].join("\n");
}
