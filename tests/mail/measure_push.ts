/**
 * Measures, with default settings (IMAP IDLE on, MAIL_POLL_SECONDS 300, JOBS_TICK_SECONDS 5, the
 * embedded database) on the loopback Postfix → Dovecot and OpenSSH:
 * - a mailed supplier file → its inventory import run finished → the generated file renamed into
 *   place on the SFTP server (`sftp_delivered_at`, set after the rename);
 * - a mailed order file (order submission) → the vendor's e-mail in the vendor's Dovecot mailbox
 *   (seen by an IMAP session polling the mailbox every 100 ms);
 * each one by one and in a burst sent at once:
 * `deno run -A tests/mail/measure_push.ts [count] [burst]` (default 10 and 20). Writes the
 * "## Mail push" section of docs/benchmarks.md. It lives beside the mail tests, not in bench/,
 * because it needs the test servers' helpers (tests/services), which bench/ may not import.
 *
 * Every mail of a burst carries all the catalogue's items with a quantity: a file that drops most
 * of the previously active items is held by the guard and delivered only on release
 * (docs/inventory.md, "The guard"), which an earlier version of this script ran into.
 */
import type { ImapFlow } from "imapflow";
import {
  addMailUser,
  connectImap,
  type MailUser,
  readServices,
  sendMail,
  sftpConnectOptions,
} from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { sourcePayload } from "../support/inventory.ts";
import { insertSource, insertVendor } from "../support/order_submission.ts";
import { sourceFor, uniqueName } from "./support.ts";

const count = Number(Deno.args[0] ?? 10);
const burstSize = Number(Deno.args[1] ?? 20);
const RESULTS = new URL("../../docs/benchmarks.md", import.meta.url).pathname;
const SENDER = "stock@acme.example";
const CUSTOMER = "orders@customer.example";
/** How long a mail may take before the script stops waiting for it (the target is 60 s). */
const GIVE_UP_MS = 180_000;

const uptime = async () =>
  new TextDecoder().decode((await new Deno.Command("uptime").output()).stdout).trim();
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (value: Date | string) => new Date(value).getTime();

/** What one series measured: times from acceptance, and how the runs ended. */
interface Series {
  label: string;
  times: number[];
  /** For a burst: the last arrival after the first acceptance. */
  all?: number;
  note: string;
}

const loadBefore = await uptime();
// Default settings: only what points the app at the loopback servers and a fresh database.
const server = await startTestServer({ env: { MAIL_CA_FILE: readServices().caPath }, jobs: true });
const series: Series[] = [];
try {
  const admin = testClient(server.url);
  await admin.login("admin", ADMIN_PASSWORD);
  const saveMailbox = async (user: MailUser) => {
    const saved = await admin.post("/api/email-sources/email/save", sourceFor(user));
    if (saved.status !== 200) throw new Error(`mailbox save: ${JSON.stringify(saved.body)}`);
    return (saved.body as { id: number }).id;
  };
  const waitListening = async (id: number) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [row] = await server.db.query<{ mode: string }>(
        "select mode from mailbox_listeners where email_source_id = $1",
        [id],
      );
      if (row?.mode === "idle") return;
      if (Date.now() > deadline) throw new Error("no listener");
      await sleep(100);
    }
  };

  // --- Supplier mail → inventory file on the SFTP server ---------------------------------------
  const user = await addMailUser(uniqueName("push"));
  const sftp = sftpConnectOptions();
  const mailboxId = await saveMailbox(user);
  const outName = `${uniqueName("push")}.csv`;
  const source = await admin.post(
    "/api/inventory-sources/inventory/save",
    sourcePayload(mailboxId, {
      fromEmail: SENDER,
      sftpServerAddress: sftp.host,
      sftpPort: sftp.port,
      sftpUsername: sftp.username,
      sftpPassword: sftp.password,
      fileData: { inventoryFileName: outName },
    }),
  );
  if (source.status !== 200) throw new Error(`source save: ${JSON.stringify(source.body)}`);

  // --- Order mail → the vendor's mailbox -------------------------------------------------------
  const orderInbox = await addMailUser(uniqueName("orders"));
  const sendFrom = await addMailUser(uniqueName("sendfrom"));
  const vendor = await addMailUser(uniqueName("vendor"));
  const orderInboxId = await saveMailbox(orderInbox);
  const orderSourceId = await insertSource(server.db, {
    sourceName: "Customer orders",
    emailSourceId: orderInboxId,
    fromEmail: CUSTOMER,
    subjectValue: "order file",
    containsNotExact: true,
    fileType: "csv",
    attachmentName: "orders",
  });
  await insertVendor(server.db, {
    sourceId: orderSourceId,
    name: "Acme",
    sendFrom: await saveMailbox(sendFrom),
    to: vendor.address,
    subject: "Orders",
  });

  await waitListening(mailboxId);
  await waitListening(orderInboxId);
  // Let the first polls (at start) pass, so every mail below waits for push or for 300 s.
  await sleep(3000);

  /** Runs of supplier mails whose subject starts with `prefix`, with their delivery. */
  const inventoryRuns = (prefix: string) =>
    server.db.query<
      {
        subject: string;
        status: string;
        finishedAt: Date | string | null;
        deliveredAt: Date | string | null;
        outputBytes: Uint8Array | null;
      }
    >(
      `select m.subject, r.status, r.finished_at as "finishedAt",
         ir.sftp_delivered_at as "deliveredAt", ir.output_bytes as "outputBytes"
         from import_runs r join mail_messages m on m.id = r.mail_message_id
         left join inventory_runs ir on ir.import_run_id = r.id
        where m.subject like $1`,
      [`${prefix}%`],
    );
  const stockCsv = (i: number) => `Item Number,Qty\nA1,${i + 1}\nA2,0\nA3,7\nA4,${(i % 5) + 1}\n`;

  /** Sends `n` supplier mails (at once or one by one) and times each to its run and its file. */
  const inventorySeries = async (n: number, atOnce: boolean) => {
    const tag = `stock report ${atOnce ? "burst" : "single"} ${crypto.randomUUID().slice(0, 6)} `;
    const accepted = new Map<string, number>();
    const send = async (i: number) => {
      const subject = `${tag}${i}`;
      await sendMail({
        from: SENDER,
        to: user.address,
        subject,
        attachments: [{ filename: "stock.csv", content: stockCsv(i) }],
      });
      accepted.set(subject, Date.now()); // Postfix answered 250: the mail is accepted
      return subject;
    };
    const waitAll = async (want: number) => {
      const first = Math.min(...accepted.values());
      for (;;) {
        const runs = await inventoryRuns(tag);
        const settled = runs.filter((r) => r.deliveredAt || ["held", "failed"].includes(r.status));
        if (settled.length >= want) return runs;
        if (Date.now() - first > GIVE_UP_MS) return runs;
        await sleep(50);
      }
    };
    if (atOnce) await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
    else {
      for (let i = 0; i < n; i++) {
        await send(i);
        await waitAll(i + 1);
        await sleep(500);
      }
    }
    let runs = await waitAll(n);
    await sleep(3000); // a second run of one mail would show up meanwhile
    runs = await inventoryRuns(tag);
    const delivered = runs.filter((r) => r.deliveredAt);
    const finished = runs.filter((r) => r.finishedAt);
    const name = `${n} ${atOnce ? "in a burst" : "one by one"}`;
    series.push({
      label: `supplier mail, ${name}: run finished`,
      times: finished.map((r) => ms(r.finishedAt!) - accepted.get(r.subject)!),
      note: "",
    });
    // What a user sees: the file on the server is the one of the run delivered last.
    const last = [...delivered].sort((a, b) => ms(a.deliveredAt!) - ms(b.deliveredAt!)).at(-1);
    const onServer = await Deno.readFile(`${readServices().sftp.uploadDir}/${outName}`);
    const latest = last?.outputBytes &&
      new Uint8Array(last.outputBytes).every((b, i) => onServer[i] === b) &&
      onServer.length === last.outputBytes.length;
    const statuses = Object.entries(
      runs.reduce<Record<string, number>>((acc, r) => {
        acc[r.status] = (acc[r.status] ?? 0) + 1;
        return acc;
      }, {}),
    ).map(([k, v]) => `${v} ${k}`).join(", ");
    series.push({
      label: `supplier mail, ${name}: file on the SFTP server`,
      times: delivered.map((r) => ms(r.deliveredAt!) - accepted.get(r.subject)!),
      all: atOnce && delivered.length
        ? Math.max(...delivered.map((r) => ms(r.deliveredAt!))) - Math.min(...accepted.values())
        : undefined,
      note: `${runs.length} runs for ${n} mails (${statuses}), ${delivered.length} delivered; ` +
        `the file on the server is the last delivered run's: ${latest ? "yes" : "no"}`,
    });
  };

  /** Sends `n` order mails and times each to the vendor's e-mail in the vendor's mailbox. */
  const orderSeries = async (n: number, atOnce: boolean, imap: ImapFlow) => {
    const tag = crypto.randomUUID().slice(0, 6);
    const po = (i: number) => `PO-${tag}-${i}`;
    const accepted = new Map<string, number>();
    const arrived = new Map<string, number[]>();
    let seen = imap.mailbox ? imap.mailbox.exists : 0;
    /** Message-ID → arrival times in the vendor's mailbox. */
    const byMessageId = new Map<string, number[]>();
    const look = async () => {
      await imap.noop();
      const exists = imap.mailbox ? imap.mailbox.exists : 0;
      if (exists > seen) {
        const now = Date.now();
        for await (const message of imap.fetch(`${seen + 1}:*`, { envelope: true })) {
          const id = message.envelope?.messageId ?? "";
          byMessageId.set(id, [...(byMessageId.get(id) ?? []), now]);
        }
        seen = exists;
      }
      // Which orders those e-mails carried: the submissions sent with those Message-IDs.
      const sent = await server.db.query<{ messageId: string; poNumbers: string[] }>(
        `select message_id as "messageId", po_numbers as "poNumbers" from submissions
          where message_id = any($1::text[])`,
        [[...byMessageId.keys()]],
      );
      arrived.clear();
      for (const { messageId, poNumbers } of sent) {
        for (const number of poNumbers) {
          arrived.set(number, [...(arrived.get(number) ?? []), ...byMessageId.get(messageId)!]);
        }
      }
    };
    const send = async (i: number) => {
      await sendMail({
        from: CUSTOMER,
        to: orderInbox.address,
        subject: `Daily order file ${tag} ${i}`,
        messageId: `<${crypto.randomUUID()}@customer.example>`,
        text: "Today's orders attached.",
        attachments: [{
          filename: "orders.csv",
          content: `PO Number,Vendor,Item Description,Qty,Unit Price,Ship To\r\n${
            po(i)
          },Acme,Hammer,${i + 1},10.5,Alice\r\n`,
        }],
      });
      accepted.set(po(i), Date.now());
    };
    const waitFor = async (keys: string[]) => {
      const first = Math.min(...accepted.values());
      while (keys.some((k) => !arrived.has(k)) && Date.now() - first < GIVE_UP_MS) {
        await look();
        await sleep(100);
      }
    };
    if (atOnce) await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
    else {
      for (let i = 0; i < n; i++) {
        await send(i);
        await waitFor([po(i)]);
        await sleep(500);
      }
    }
    await waitFor(Array.from({ length: n }, (_, i) => po(i)));
    const settle = Date.now() + 3000; // a second e-mail of one order would arrive meanwhile
    while (Date.now() < settle) {
      await look();
      await sleep(200);
    }
    const keys = Array.from({ length: n }, (_, i) => po(i)).filter((k) => arrived.has(k));
    const twice = keys.filter((k) => arrived.get(k)!.length > 1).length;
    series.push({
      label: `order mail, ${n} ${atOnce ? "in a burst" : "one by one"}: in the vendor's mailbox`,
      times: keys.map((k) => arrived.get(k)![0] - accepted.get(k)!),
      all: atOnce && keys.length
        ? Math.max(...keys.map((k) => arrived.get(k)![0])) - Math.min(...accepted.values())
        : undefined,
      note: `${keys.length} of ${n} orders arrived, ${twice} twice`,
    });
  };

  await inventorySeries(count, false);
  await inventorySeries(burstSize, true);
  const imap = await connectImap(vendor);
  try {
    await imap.mailboxOpen("INBOX");
    await orderSeries(count, false, imap);
    await orderSeries(burstSize, true, imap);
  } finally {
    await imap.logout().catch(() => {});
  }
} finally {
  await server.close();
}
const loadAfter = await uptime();
const cpu = Deno.readTextFileSync("/proc/cpuinfo").match(/model name\s*:\s*(.*)/)?.[1] ?? "CPU";
const fmt = (value: number | undefined) =>
  value === undefined ? "–" : `${(value / 1000).toFixed(2)} s`;
const rows = series.map((s) => {
  const sorted = [...s.times].sort((a, b) => a - b);
  return `| ${s.label} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 95))} | ${
    fmt(sorted[0])
  } | ${fmt(sorted.at(-1))} | ${fmt(s.all)} |`;
});
const notes = series.filter((s) => s.note).map((s) => `- ${s.label}: ${s.note}.`);
const section = `## Mail push

Command: \`deno run -A tests/mail/measure_push.ts ${count} ${burstSize}\` (needs the loopback test
servers). Machine: ${cpu}, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno};
measured ${new Date().toISOString().slice(0, 10)}. Load (\`uptime\`) before: \`${loadBefore}\`;
after: \`${loadAfter}\` (2 cores shared with other work). Default settings (IMAP IDLE on,
\`MAIL_POLL_SECONDS\` 300, \`JOBS_TICK_SECONDS\` 5, embedded PGlite). Each mail is timed from Postfix
accepting it (\`250\`): a supplier mail with a CSV attachment to its inventory import run finished
(\`finished_at\`) and to its generated file renamed into place on the loopback OpenSSH server
(\`sftp_delivered_at\`, set after the rename); an order mail (order submission, one vendor) to the
vendor's e-mail in the vendor's Dovecot mailbox (an IMAP session polling every 100 ms). "all" is the
last arrival after the first mail of a burst was accepted. Targets (issue 25): one by one p50 ≤ 5 s
and p95 ≤ 15 s; every mail of a burst within 60 s, none twice. Every supplier mail's run delivers its
own file over the same name: what the server keeps is the file of the run delivered last.

| mails | p50 | p95 | min | max | all |
| ----- | --: | --: | --: | --: | --: |
${rows.join("\n")}

${notes.join("\n")}

Without the listener the same mails wait for the next poll: up to 300 s, about 150 s on average.
`;
let doc = Deno.readTextFileSync(RESULTS);
const start = doc.indexOf("\n## Mail push\n");
if (start < 0) doc = doc.trimEnd() + "\n\n" + section;
else {
  const next = doc.indexOf("\n## ", start + 1);
  doc = doc.slice(0, start + 1) + section + (next < 0 ? "" : "\n" + doc.slice(next + 1));
}
Deno.writeTextFileSync(RESULTS, doc.trimEnd() + "\n");
await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", RESULTS] }).output();
console.log(rows.join("\n"));
console.log(notes.join("\n"));
Deno.exit(0);
