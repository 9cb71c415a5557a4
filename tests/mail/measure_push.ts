/**
 * Measures mailed supplier file → finished import run → generated file renamed into place on the
 * loopback SFTP server, with default settings (IMAP IDLE on,
 * MAIL_POLL_SECONDS 300, JOBS_TICK_SECONDS 5, the embedded database), on the loopback Postfix →
 * Dovecot: `deno run -A tests/mail/measure_push.ts [count]` (default 10 mails, one by one). Writes
 * the "## Mail push" section of docs/benchmarks.md. It lives beside the mail tests, not in
 * bench/, because it needs the test servers' helpers (tests/services), which bench/ may not import.
 */
import { addMailUser, readServices, sendMail, sftpConnectOptions } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { sourcePayload } from "../support/inventory.ts";
import { sourceFor, uniqueName } from "./support.ts";

const count = Number(Deno.args[0] ?? 10);
const RESULTS = new URL("../../docs/benchmarks.md", import.meta.url).pathname;
const SENDER = "stock@acme.example";

const uptime = async () =>
  new TextDecoder().decode((await new Deno.Command("uptime").output()).stdout).trim();

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const loadBefore = await uptime();
// Default settings: only what points the app at the loopback servers and a fresh database.
const server = await startTestServer({ env: { MAIL_CA_FILE: readServices().caPath }, jobs: true });
const times: number[] = [];
const onSftp: number[] = [];
const burstSftp: number[] = [];
const burstSize = Number(Deno.args[1] ?? 20);
const burst: number[] = [];
let burstRuns = 0;
let burstAll = 0;
try {
  const admin = testClient(server.url);
  await admin.login("admin", ADMIN_PASSWORD);
  const user = await addMailUser(uniqueName("push"));
  const sftp = sftpConnectOptions();
  const mailbox = await admin.post("/api/email-sources/email/save", sourceFor(user));
  const mailboxId = (mailbox.body as { id: number }).id;
  const source = await admin.post(
    "/api/inventory-sources/inventory/save",
    sourcePayload(mailboxId, {
      fromEmail: SENDER,
      sftpServerAddress: sftp.host,
      sftpPort: sftp.port,
      sftpUsername: sftp.username,
      sftpPassword: sftp.password,
      fileData: { inventoryFileName: `${uniqueName("push")}.csv` },
    }),
  );
  if (source.status !== 200) throw new Error(`source save: ${JSON.stringify(source.body)}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = await server.db.query<{ mode: string }>(
      "select mode from mailbox_listeners where email_source_id = $1",
      [mailboxId],
    );
    if (row?.mode === "idle") break;
    if (Date.now() > deadline) throw new Error("no listener");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Let the first poll (at start) pass, so every mail below waits for push or for 300 s.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  for (let i = 1; i <= count; i++) {
    const subject = `stock report ${i} ${crypto.randomUUID().slice(0, 6)}`;
    const csv = `Item Number,Qty\nA1,${i}\nA2,0\nA3,7\nA4,2\n`;
    await sendMail({
      from: SENDER,
      to: user.address,
      subject,
      attachments: [{ filename: "stock.csv", content: csv }],
    });
    const accepted = Date.now(); // Postfix answered 250: the mail is accepted
    let finished: number | null = null;
    let delivered: number | null = null;
    while (delivered === null) {
      const [run] = await server.db.query<
        { finishedAt: Date | string | null; deliveredAt: Date | string | null }
      >(
        `select r.finished_at as "finishedAt", ir.sftp_delivered_at as "deliveredAt"
           from import_runs r join mail_messages m on m.id = r.mail_message_id
           left join inventory_runs ir on ir.import_run_id = r.id
          where m.subject = $1 and r.status <> 'queued'`,
        [subject],
      );
      if (run?.finishedAt) finished = new Date(run.finishedAt).getTime();
      if (run?.deliveredAt) delivered = new Date(run.deliveredAt).getTime();
      else if (Date.now() - accepted > 400_000) throw new Error(`mail ${i} never arrived`);
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    times.push(finished! - accepted);
    onSftp.push(delivered - accepted);
    console.log(`mail ${i}: run ${finished! - accepted} ms, on SFTP ${delivered - accepted} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  // A burst: `burstSize` mails sent at once; each timed from its own acceptance.
  const tag = crypto.randomUUID().slice(0, 6);
  const accepted = new Map<string, number>();
  await Promise.all(Array.from({ length: burstSize }, async (_, i) => {
    const subject = `stock report burst ${tag} ${i}`;
    await sendMail({
      from: SENDER,
      to: user.address,
      subject,
      attachments: [{ filename: "stock.csv", content: `Item Number,Qty\nA1,${i}\nA2,3\n` }],
    });
    accepted.set(subject, Date.now());
  }));
  const burstStart = Math.min(...accepted.values());
  for (;;) {
    const runs = await server.db.query<
      { subject: string; finishedAt: Date | string; deliveredAt: Date | string }
    >(
      `select m.subject, r.finished_at as "finishedAt", ir.sftp_delivered_at as "deliveredAt"
         from import_runs r join mail_messages m on m.id = r.mail_message_id
         join inventory_runs ir on ir.import_run_id = r.id
        where m.subject like $1 and r.status <> 'queued' and ir.sftp_delivered_at is not null`,
      [`stock report burst ${tag} %`],
    );
    if (runs.length >= burstSize) {
      burstRuns = runs.length;
      for (const run of runs) {
        burst.push(new Date(run.finishedAt).getTime() - accepted.get(run.subject)!);
        burstSftp.push(new Date(run.deliveredAt).getTime() - accepted.get(run.subject)!);
      }
      burstAll = Math.max(...runs.map((r) => new Date(r.deliveredAt).getTime())) - burstStart;
      break;
    }
    if (Date.now() - burstStart > 400_000) throw new Error("the burst did not arrive");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const [again] = await server.db.query<{ n: number }>(
    `select count(*)::int as n from import_runs r join mail_messages m on m.id = r.mail_message_id
      where m.subject like $1`,
    [`stock report burst ${tag} %`],
  );
  burstRuns = again.n;
} finally {
  await server.close();
}
const loadAfter = await uptime();
const ascending = (values: number[]) => [...values].sort((a, b) => a - b);
const sorted = ascending(times);
const burstSorted = ascending(burst);
const cpu = Deno.readTextFileSync("/proc/cpuinfo").match(/model name\s*:\s*(.*)/)?.[1] ?? "CPU";
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const row = (label: string, values: number[]) =>
  [label, percentile(values, 50), percentile(values, 95), values[0], values.at(-1)!]
    .map((v) => typeof v === "string" ? v : fmt(v)).join(" | ");
const section = `## Mail push

Command: \`deno run -A tests/mail/measure_push.ts ${count} ${burstSize}\` (needs the loopback test servers).
Machine: ${cpu}, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}; measured
${new Date().toISOString().slice(0, 10)}. Load (\`uptime\`) before: \`${loadBefore}\`; after:
\`${loadAfter}\` (2 cores shared with other work). Default settings (IMAP IDLE on,
\`MAIL_POLL_SECONDS\` 300, \`JOBS_TICK_SECONDS\` 5, embedded PGlite): ${count} supplier mails with a CSV
attachment sent one by one through Postfix to Dovecot, each timed from Postfix accepting it
(\`250\`) to its inventory import run finished (\`finished_at\`) and to its generated file renamed
into place on the loopback OpenSSH server (\`sftp_delivered_at\`, set after the rename); then a burst
of ${burstSize} mails sent at once (all of them on the SFTP server ${
  fmt(burstAll)
} after the first was accepted; ${burstRuns} runs for ${burstSize} mails). Targets (issue 25): p50 ≤ 5 s
and p95 ≤ 15 s one by one, every mail of the burst within 60 s, none twice.

| mails | p50 | p95 | min | max |
| ----- | --: | --: | --: | --: |
| ${row(`${count} one by one, run finished`, sorted)} |
| ${row(`${count} one by one, on the SFTP server`, ascending(onSftp))} |
| ${row(`${burstSize} in a burst, run finished`, burstSorted)} |
| ${row(`${burstSize} in a burst, on the SFTP server`, ascending(burstSftp))} |

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
const sftpSorted = ascending(onSftp);
console.log(
  `on SFTP: p50 ${fmt(percentile(sftpSorted, 50))}, p95 ${fmt(percentile(sftpSorted, 95))}`,
);
Deno.exit(0);
