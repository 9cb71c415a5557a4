/**
 * The soak (issue 29, docs/benchmarks.md "Load and soak"): the app as `deno task start` runs it,
 * staff acting every 3–10 s, supplier stock files and order status files mailed in all along,
 * and the mailbox (IMAP) and SFTP servers "stopped" and "started" again several times — the
 * app reaches them through relays that cut every connection and refuse new ones while down.
 * At the end every mailed file must have been processed exactly once, every stock file's feed
 * delivered, no job stuck, and each outage shown on the e-mail source and cleared after it.
 *
 * `tests/processes/soak_test.ts` runs it for 3 minutes in the suite; the 30-minute version with
 * 50 staff: `SOAK_MINUTES=30 SOAK_STAFF=50 deno task test tests/processes/soak_test.ts`.
 */
import { freshPostgresDatabase } from "../support/db.ts";
import { loadConfig } from "../../api/config.ts";
import { openDeps } from "../../api/server.ts";
import { hashPassword } from "../../api/auth/password.ts";
import { saveEmailSource } from "../../api/email_sources/queries.ts";
import { emailSourceSave } from "../../shared/contract/email_sources.ts";
import { addMailUser, readServices, sendMail, sftpConnectOptions } from "../services/services.ts";
import { sourceFor, uniqueName } from "../mail/support.ts";
import { testClient } from "../support/http.ts";
import { sourcePayload as inventoryPayload, stockCsv } from "../support/inventory.ts";
import { csv, HEADERS, sourcePayload as orderSourcePayload } from "../support/order_tracking.ts";
import { processEnv } from "./env.ts";
import { processUsage, startProcess } from "../../bench/app_process.ts";
import { startSwitchableRelay } from "../../bench/relay.ts";
import { signIn, type Staff } from "../../bench/load_client.ts";

/** How long and how many. */
export interface SoakOptions {
  minutes: number;
  staff: number;
  /** Seconds between two outages, and how long each lasts. */
  outageEverySeconds: number;
  outageSeconds: number;
}

/** What the soak saw. */
export interface SoakResult {
  database: string;
  mailed: { orders: number; stock: number };
  runs: { total: number; succeeded: number; perMessageMax: number; messages: number };
  ordersStored: number;
  ordersExpected: number;
  inventoryDelivered: number;
  stuckJobs: number;
  outages: number;
  /** Outages during which the e-mail source showed a poll error. */
  outagesShown: number;
  /** The e-mail source's poll error after the last outage (null: recovered). */
  pollErrorAtEnd: string | null;
  staffRequests: number;
  staffFailures: string[];
  /** Resident memory of the app process (MB), sampled every 10 s, with the minute taken. */
  memory: { minute: number; rssMB: number }[];
  drainSeconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SUPPLIER = "stock@supplier.example";
const ORDERS_FROM = "orders@acme.example";
const PASSWORD = "soak-staff-password";
const ITEMS = Array.from({ length: 500 }, (_, i) => `SKU${String(i).padStart(4, "0")}`);

/** Runs the soak and reports; it throws only when the set-up fails. */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const info = readServices();
  const pgUrl = Deno.env.get("DATABASE_URL");
  const database = pgUrl ? await freshPostgresDatabase(pgUrl) : null;
  const dataDir = database ? null : await Deno.makeTempDir({ prefix: "soak-" });
  const env = processEnv(database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir! }, {
    LOG_LEVEL: "error",
  });
  const imap = await startSwitchableRelay(info.host, info.ports.imap);
  const sftpServer = sftpConnectOptions();
  const sftp = await startSwitchableRelay(sftpServer.host, sftpServer.port);
  const mailbox = await addMailUser(uniqueName("soak"));
  let app: Awaited<ReturnType<typeof startProcess>> | undefined;
  try {
    // Staff and the mailbox (reached through the IMAP relay), written before the app opens the
    // database (PGlite has one owner).
    const deps = await openDeps(loadConfig(env), () => {});
    let emailSourceId: number;
    try {
      const hash = await hashPassword(PASSWORD);
      await deps.db.query(
        `insert into users (username, password_hash, active_status, order_user, inventory_user)
         select 'soak-' || i, $1, true, true, true from generate_series(1, $2) as i`,
        [hash, options.staff],
      );
      emailSourceId = await saveEmailSource(
        deps.db,
        deps.secrets,
        emailSourceSave.parse({ ...sourceFor(mailbox), incomingPort: imap.port }),
      );
    } finally {
      await deps.db.close();
    }

    app = await startProcess("web", env);
    const url = app.url!;
    const admin = testClient(url);
    await admin.login("admin", env.ADMIN_PASSWORD);
    const outName = `${uniqueName("soakfeed")}.csv`;
    const inventory = await admin.post(
      "/api/inventory-sources/inventory/save",
      inventoryPayload(emailSourceId, {
        fromEmail: SUPPLIER,
        sftpServerAddress: sftpServer.host,
        sftpPort: sftp.port,
        sftpUsername: sftpServer.username,
        sftpPassword: sftpServer.password,
        fileData: { inventoryFileName: outName, userActivatedItemNumbers: ITEMS.join("\n") },
      }),
    );
    if (inventory.status !== 200) throw new Error(`inventory save: ${inventory.status}`);
    const inventorySourceId = (inventory.body as { id: number }).id;
    const orders = await admin.post(
      "/api/order-tracking-sources/save",
      orderSourcePayload({ emailSourceId, fromEmail: ORDERS_FROM }),
    );
    if (orders.status !== 200) throw new Error(`order source save: ${JSON.stringify(orders.body)}`);

    const staffFailures: string[] = [];
    let staffRequests = 0;
    const recorder = {
      record(kind: string, _ms: number, ok: boolean) {
        staffRequests++;
        if (!ok) staffFailures.push(kind);
      },
    };
    const staff: Staff[] = [];
    for (let i = 1; i <= options.staff; i++) {
      staff.push(await signIn(url, `soak-${i}`, PASSWORD, recorder));
    }

    const started = Date.now();
    const until = started + options.minutes * 60_000;
    const memory: SoakResult["memory"] = [];
    const mailed = { orders: 0, stock: 0 };
    let ordersExpected = 0;
    let outages = 0;
    let outagesShown = 0;

    const staffLoops = staff.map(async (member) => {
      await sleep(Math.random() * 10_000);
      while (Date.now() < until) {
        const kind = Math.random();
        try {
          if (kind < 0.6) {
            await member.call("orders", "POST", "/api/order-tracking/list", {
              PageSize: 50,
              PageIndex: 1,
              AndOrParam: true,
              PoNumberParam: Math.random() < 0.5 ? "" : `SOAK-${Math.floor(Math.random() * 50)}`,
            });
          } else if (kind < 0.8) {
            await member.call("stats", "GET", "/api/order-tracking/list/update-stats");
          } else {
            await member.call(
              "runs",
              "GET",
              `/api/inventory-sources/inventory/${inventorySourceId}/runs`,
            );
          }
        } catch (error) {
          staffFailures.push(String(error).slice(0, 200));
        }
        await sleep(3000 + Math.random() * 7000);
      }
    });

    const mailLoop = (async () => {
      let n = 0;
      while (Date.now() < until) {
        n++;
        if (n % 2) {
          const rows = Array.from({ length: 5 }, (_, i) => {
            const row = HEADERS.map(() => "");
            row[0] = `SOAK-${n}-${i}`;
            row[1] = `ITEM-${i}`;
            return row;
          });
          ordersExpected += rows.length;
          await sendMail({
            from: ORDERS_FROM,
            to: mailbox.address,
            subject: `Daily order status ${n}`,
            attachments: [{ filename: "orders.csv", content: csv([HEADERS, ...rows]) }],
          });
          mailed.orders++;
        } else {
          const stock = stockCsv(ITEMS.map((item, i) => [item, (i + n) % 4]));
          await sendMail({
            from: SUPPLIER,
            to: mailbox.address,
            subject: `Daily stock report ${n}`,
            attachments: [{ filename: "stock.csv", content: new TextDecoder().decode(stock) }],
          });
          mailed.stock++;
        }
        await sleep(8_000);
      }
    })();

    const outageLoop = (async () => {
      while (Date.now() + (options.outageEverySeconds + options.outageSeconds) * 1000 < until) {
        await sleep(options.outageEverySeconds * 1000);
        outages++;
        imap.down();
        sftp.down();
        let shown = false;
        const back = Date.now() + options.outageSeconds * 1000;
        while (Date.now() < back) {
          await sleep(1000);
          let answer = await admin.get(`/api/email-sources/email/${emailSourceId}`);
          // The admin's access token lasts 15 minutes and this client does not refresh it: in a
          // longer soak the check read 401 answers from then on and saw no outage.
          if (answer.status === 401) {
            await admin.login("admin", env.ADMIN_PASSWORD);
            answer = await admin.get(`/api/email-sources/email/${emailSourceId}`);
          }
          if (answer.status !== 200) throw new Error(`e-mail source: ${answer.status}`);
          if ((answer.body as { lastPollError: string | null }).lastPollError) shown = true;
        }
        if (shown) outagesShown++;
        imap.up();
        sftp.up();
      }
    })();

    const memoryLoop = (async () => {
      while (Date.now() < until) {
        memory.push({
          minute: (Date.now() - started) / 60_000,
          rssMB: processUsage(app!.pid).rssMB,
        });
        await sleep(10_000);
      }
    })();

    await Promise.all([...staffLoops, mailLoop, outageLoop, memoryLoop]);
    imap.up();
    sftp.up();

    // The admin's access token lasts 15 minutes, and this client does not refresh as the web
    // app does: a soak longer than that signs in again for its checks.
    await admin.login("admin", env.ADMIN_PASSWORD);
    // Drain: every mailed file run, every feed delivered (retries back off 30 s, 60 s, ...).
    const drainStarted = Date.now();
    const totalMailed = mailed.orders + mailed.stock;
    let runs = { total: 0, succeeded: 0, perMessageMax: 0, messages: 0 };
    let inventoryDelivered = 0;
    while (Date.now() - drainStarted < 300_000) {
      const list = (await admin.get("/api/import-runs?limit=500")).body as {
        status: string;
        feed: string;
      }[];
      const deliveries = (await admin.get(
        `/api/inventory-sources/inventory/${inventorySourceId}/runs`,
      )).body as { deliveryStatus: string }[];
      inventoryDelivered = deliveries.filter((r) => r.deliveryStatus === "delivered").length;
      const finished = list.filter((r) => r.status !== "queued").length;
      if (finished >= totalMailed && inventoryDelivered >= mailed.stock) break;
      await sleep(2_000);
    }
    const drainSeconds = (Date.now() - drainStarted) / 1000;
    await sleep(6_000); // one more poll: nothing new may appear
    const source = (await admin.get(`/api/email-sources/email/${emailSourceId}`)).body as {
      lastPollError: string | null;
    };
    await app.stop();
    app = undefined;

    // The figures, read straight from the database now that the app has let it go.
    const reader = await openDeps(loadConfig(env), () => {});
    try {
      const [counts] = await reader.db.query<{
        total: number;
        succeeded: number;
        perMessageMax: number;
        messages: number;
        orders: number;
        stuck: number;
      }>(
        `select (select count(*)::int from import_runs) as total,
           (select count(*)::int from import_runs where status = 'succeeded') as succeeded,
           (select coalesce(max(n), 0)::int from (select count(*) as n from import_runs
              where mail_message_id is not null group by mail_message_id) m) as "perMessageMax",
           (select count(*)::int from mail_messages) as messages,
           (select count(*)::int from orders where deleted_status = false) as orders,
           (select count(*)::int from jobs where status = 'running'
              or (status = 'queued' and run_at < now() - interval '2 minutes')) as stuck`,
      );
      runs = {
        total: counts.total,
        succeeded: counts.succeeded,
        perMessageMax: counts.perMessageMax,
        messages: counts.messages,
      };
      return {
        database: database ? "PostgreSQL" : "PGlite",
        mailed,
        runs,
        ordersStored: counts.orders,
        ordersExpected,
        inventoryDelivered,
        stuckJobs: counts.stuck,
        outages,
        outagesShown,
        pollErrorAtEnd: source.lastPollError,
        staffRequests,
        staffFailures,
        memory,
        drainSeconds,
      };
    } finally {
      await reader.db.close();
    }
  } finally {
    await app?.stop();
    imap.close();
    sftp.close();
    await database?.drop();
    if (dataDir) await Deno.remove(dataDir, { recursive: true });
  }
}
