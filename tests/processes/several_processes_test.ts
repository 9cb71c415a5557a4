/**
 * The deployment of docs/operations.md ("Several processes") on one PostgreSQL: two web
 * processes (`api/main.ts` with RUN_JOBS=false) and two workers (`api/worker.ts`), staff using
 * both web processes throughout. One worker is killed with SIGKILL in the middle of an inventory
 * run, another in the middle of a vendor sending; a new worker is started each time, as an
 * orchestrator would. Nothing is lost, nothing is sent twice, and the run history agrees. The
 * processes reach PostgreSQL through PgBouncer in transaction pooling mode (`?prepare=false`).
 * Needs the loopback mail and SFTP servers (tests/services/up.sh) and PostgreSQL.
 */
import assert from "node:assert/strict";
import { freshPostgresDatabase } from "../support/db.ts";
import { loadConfig } from "../../api/config.ts";
import { openDeps } from "../../api/server.ts";
import type { Db } from "../../api/db/client.ts";
import { hashPassword } from "../../api/auth/password.ts";
import { saveEmailSource } from "../../api/email_sources/queries.ts";
import { emailSourceSave } from "../../shared/contract/email_sources.ts";
import { IMPORT_RUN_JOB } from "../../api/ingest/import_runs.ts";
import { SEND_JOB } from "../../api/order_submission/processing/outbox.ts";
import { readServices, sendMail, sftpConnectOptions } from "../services/services.ts";
import { sourceFor, uniqueName } from "../mail/support.ts";
import { testClient } from "../support/http.ts";
import { sourcePayload, stockCsv } from "../support/inventory.ts";
import {
  insertSource,
  insertVendor,
  newMailbox,
  settledMessages,
} from "../support/order_submission.ts";
import { startDelayRelay } from "../../bench/relay.ts";
import { type AppProcess, startProcess } from "../../bench/app_process.ts";
import { startPgBouncer } from "./pgbouncer.ts";
import { processEnv } from "./env.ts";

const pgUrl = Deno.env.get("DATABASE_URL");
const ITEMS = 40_000;
const SUPPLIER = "stock@supplier.example";
const CUSTOMER = "orders@customer.example";
const VENDORS = ["Acme", "Bolt Co", "Cog Ltd", "Dyna"];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` answers a value (not undefined), polling every 20 ms. */
async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await sleep(20);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** The pid of the process that holds a running job of `kind` (its `locked_by` names it). */
async function holderOf(db: Db, kind: string): Promise<number | undefined> {
  const [row] = await db.query<{ lockedBy: string }>(
    `select locked_by as "lockedBy" from jobs where kind = $1 and status = 'running'
      order by id limit 1`,
    [kind],
  );
  return row ? Number(row.lockedBy.split(":")[1]) : undefined;
}

/** Staff asking both web processes for lists, orders and runs until stopped. */
function staffLoad(urls: string[], users: string[], password: string) {
  let stop = false;
  const failures: string[] = [];
  let requests = 0;
  const running = Promise.all(users.map(async (username, i) => {
    const client = testClient(urls[i % urls.length]);
    await client.login(username, password);
    while (!stop) {
      for (
        const [method, path, body] of [
          ["POST", "/api/order-tracking/list", { PageSize: 50, PageIndex: 1, AndOrParam: true }],
          ["GET", "/api/order-tracking/list/update-stats"],
          ["GET", "/api/import-runs?limit=20"],
          ["GET", "/api/inventory-sources/inventories"],
        ] as [string, string, unknown?][]
      ) {
        requests++;
        try {
          const response = await client.request(method, path, { body });
          if (response.status !== 200) failures.push(`${path}: ${response.status}`);
        } catch (error) {
          failures.push(`${path}: ${error}`);
        }
      }
      await sleep(300);
    }
  }));
  return {
    async stop() {
      stop = true;
      await running;
      return { requests, failures };
    },
  };
}

Deno.test({
  name: "two web processes and two workers: a worker killed in an inventory run and in a vendor " +
    "sending loses nothing and sends nothing twice",
  ignore: !pgUrl,
  async fn() {
    const info = readServices();
    const database = await freshPostgresDatabase(pgUrl!);
    const bouncer = await startPgBouncer(pgUrl!);
    const throughBouncer = new URL(bouncer.via(database.url));
    throughBouncer.searchParams.set("prepare", "false");
    const env = processEnv({ DATABASE_URL: throughBouncer.href, DATA_DIR: "memory://" }, {
      // A killed worker's jobs are taken over once their lease runs out.
      JOB_LEASE_SECONDS: "3",
      LOG_LEVEL: "warn",
    });
    const processes: AppProcess[] = [];
    let load: ReturnType<typeof staffLoad> | undefined;
    // The test reads and prepares the database directly.
    const deps = await openDeps(loadConfig({ ...env, DATABASE_URL: database.url }), () => {});
    const relay = await startDelayRelay(info.host, info.ports.smtp, 250);
    try {
      const { db } = deps;
      // Staff, the mailboxes, and the order submission source with four vendors.
      const hash = await hashPassword("staff-password-1");
      const staff = Array.from({ length: 8 }, (_, i) => `staff-${i}`);
      for (const username of staff) {
        await db.query(
          `insert into users (username, password_hash, active_status, order_user, inventory_user,
             submission_user) values ($1, $2, true, true, true, true)`,
          [username, hash],
        );
      }
      const stockBox = await newMailbox("stock");
      const orderBox = await newMailbox("orders");
      const sender = await newMailbox("sender");
      const save = (user: typeof stockBox) =>
        saveEmailSource(db, deps.secrets, emailSourceSave.parse(sourceFor(user)));
      const stockSourceId = await save(stockBox);
      const orderSourceId = await save(orderBox);
      const senderSourceId = await save(sender);
      // Every vendor e-mail passes a relay that delays the server's answers: a sending lasts
      // long enough for the kill to land in its middle.
      await db.query("update email_sources set outgoing_port = $1 where id = $2", [
        relay.port,
        senderSourceId,
      ]);
      const submissionSourceId = await insertSource(db, {
        sourceName: "Customer orders",
        emailSourceId: orderSourceId,
        fromEmail: CUSTOMER,
        subjectValue: "order file",
        containsNotExact: true,
        fileType: "csv",
        attachmentName: "orders",
      });
      const vendorBoxes = [];
      for (const name of VENDORS) {
        const box = await newMailbox(name.toLowerCase().replace(/\W/g, ""));
        vendorBoxes.push(box);
        await insertVendor(db, {
          sourceId: submissionSourceId,
          name,
          sendFrom: senderSourceId,
          to: box.address,
          subject: `Orders for ${name}`,
          wantsPdf: true,
        });
      }

      // Two web processes without jobs, two workers.
      for (let i = 0; i < 2; i++) {
        processes.push(await startProcess("web", { ...env, RUN_JOBS: "false" }));
      }
      processes.push(await startProcess("worker", env), await startProcess("worker", env));
      const webUrls = processes.filter((p) => p.url).map((p) => p.url!);

      // The inventory source, saved over the first web process, delivering to the SFTP server.
      const admin = testClient(webUrls[0]);
      await admin.login("admin", env.ADMIN_PASSWORD);
      const items = Array.from({ length: ITEMS }, (_, i) => `SKU${String(i).padStart(6, "0")}`);
      const sftp = sftpConnectOptions();
      const outName = `${uniqueName("feed")}.csv`;
      const saved = await admin.post(
        "/api/inventory-sources/inventory/save",
        sourcePayload(stockSourceId, {
          fromEmail: SUPPLIER,
          sftpServerAddress: sftp.host,
          sftpPort: sftp.port,
          sftpUsername: sftp.username,
          sftpPassword: sftp.password,
          fileData: { inventoryFileName: outName, userActivatedItemNumbers: items.join("\n") },
        }),
      );
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const inventorySourceId = (saved.body as { id: number }).id;

      load = staffLoad(webUrls, staff, "staff-password-1");

      // 1. A supplier file; the worker that processes it is killed in the middle.
      const stock = stockCsv(items.map((item, i) => [item, i % 3 === 0 ? 0 : 5]));
      await sendMail({
        from: SUPPLIER,
        to: stockBox.address,
        subject: "Daily stock report",
        attachments: [{ filename: "stock.csv", content: new TextDecoder().decode(stock) }],
      });
      const inventoryPid = await until(
        "a worker running the inventory run",
        60_000,
        () => holderOf(db, IMPORT_RUN_JOB),
      );
      const victim = processes.find((p) => p.pid === inventoryPid);
      assert.ok(victim, `the job's holder ${inventoryPid} is one of the workers`);
      victim.kill();
      processes.push(await startProcess("worker", env));

      const delivered = await until("the inventory run delivered", 120_000, async () => {
        const [row] = await db.query<{ status: string }>(
          `select r.delivery_status as status from inventory_runs r
             join import_runs i on i.id = r.import_run_id
            where i.source_id = $1 and r.delivery_status = 'delivered'`,
          [inventorySourceId],
        );
        return row?.status;
      });
      assert.equal(delivered, "delivered");
      const inventoryRuns = await db.query<{ status: string; attempts: number }>(
        `select i.status, (select max(attempts) from jobs j
            where j.kind = $2 and (j.payload->>'runId')::int = i.id)::int as attempts
           from import_runs i where i.feed = 'inventory' and i.source_id = $1`,
        [inventorySourceId, IMPORT_RUN_JOB],
      );
      assert.deepEqual(inventoryRuns.map((r) => r.status), ["succeeded"], "one run, succeeded");
      assert.equal(inventoryRuns[0].attempts, 2, "the killed attempt and the one that finished");
      const feed = await Deno.readTextFile(`${info.sftp.uploadDir}/${outName}`);
      const lines = feed.trim().split(/\r?\n/);
      assert.equal(lines.length, ITEMS + 1, "every catalogue item once, with the header");
      assert.match(lines[1], /^SKU000000,Inactive,/);
      assert.match(lines[2], /^SKU000001,Active,/);

      // 2. An order file for four vendors; the worker sending to one of them is killed.
      const orders = [
        "PO Number,Vendor,Item Description,Qty,Unit Price,Ship To",
        ...VENDORS.flatMap((vendor, v) =>
          [1, 2].map((n) => `PO-${v}${n},${vendor},Part ${n},${n},9.5,Store ${v}`)
        ),
      ].join("\r\n");
      await sendMail({
        from: CUSTOMER,
        to: orderBox.address,
        subject: "Daily order file",
        attachments: [{ filename: "orders.csv", content: orders }],
      });
      const sendingPid = await until(
        "a worker sending to a vendor",
        60_000,
        () => holderOf(db, SEND_JOB),
      );
      const sending = processes.find((p) => p.pid === sendingPid && p.alive);
      assert.ok(sending, `the sending job's holder ${sendingPid} is a live worker`);
      sending.kill();
      processes.push(await startProcess("worker", env));

      // The interrupted sending is looked for in the Sent folder when its job runs again: found,
      // it is "sent"; not found, it is "uncertain" and never sent blindly a second time (the run
      // says so: docs/order_submission.md). Every other vendor's is sent once.
      const settled = await until("every vendor's submission settled", 120_000, async () => {
        const rows = await db.query<{ vendor: string; status: string; error: string | null }>(
          `select v.vendor_name_from_file as vendor, s.status, s.last_error as error
             from submissions s join vendor_sources v on v.id = s.vendor_source_id
            where v.order_submission_source_id = $1 order by v.id`,
          [submissionSourceId],
        );
        return rows.length === VENDORS.length &&
            rows.every((r) => r.status === "sent" || r.status === "uncertain")
          ? rows
          : undefined;
      });
      const uncertain = settled.filter((r) => r.status === "uncertain");
      assert.ok(uncertain.length <= 1, "only the interrupted sending can be uncertain");
      for (const [i, box] of vendorBoxes.entries()) {
        const row = settled[i];
        const messages = await settledMessages(box, row.status === "sent" ? 1 : 0);
        if (row.status === "sent") {
          assert.equal(messages.length, 1, `${VENDORS[i]} gets exactly one e-mail`);
          assert.equal(messages[0].subject, `Orders for ${VENDORS[i]}`);
        } else {
          assert.ok(messages.length <= 1, `${VENDORS[i]}: never twice`);
          assert.match(row.error ?? "", /interrupted; whether it went out is unknown/);
        }
      }
      const orderRuns = await db.query<{ status: string }>(
        `select status from import_runs where feed = 'order-submission' and source_id = $1`,
        [submissionSourceId],
      );
      assert.deepEqual(orderRuns.map((r) => r.status), [uncertain.length ? "failed" : "succeeded"]);
      const [{ messages }] = await db.query<{ messages: number }>(
        "select count(*)::int as messages from mail_messages",
      );
      assert.equal(messages, 2, "each mailed file claimed once");

      const { requests, failures } = await load.stop();
      assert.ok(requests > 0);
      assert.deepEqual(failures, [], "staff never saw an error while workers died");
    } finally {
      await load?.stop();
      for (const process of processes) await process.stop();
      relay.close();
      await deps.db.close();
      await bouncer.stop();
      await database.drop();
    }
  },
});
