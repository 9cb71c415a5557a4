/**
 * The idle cost of listening: CPU and memory of one process holding IMAP IDLE sessions on N
 * mailboxes (default 50) of the loopback Dovecot, against the same process before it listened.
 * `deno run -A tests/mail/measure_idle_cost.ts [mailboxes] [seconds]` writes the "## Mail
 * listeners, idle cost" section of docs/benchmarks.md (beside the mail tests: it needs
 * tests/services).
 */
import { addMailUser, readServices } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { startMailListeners } from "../../api/ingest/mail_listeners.ts";
import { sourceFor, uniqueName } from "./support.ts";

const count = Number(Deno.args[0] ?? 50);
const seconds = Number(Deno.args[1] ?? 60);
const RESULTS = new URL("../../docs/benchmarks.md", import.meta.url).pathname;

/** CPU seconds (user + system) of this process so far. */
function cpuSeconds(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
}

async function window(): Promise<{ cpuPercent: number; rssMb: number }> {
  const cpu = cpuSeconds();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsed = (performance.now() - started) / 1000;
  return {
    cpuPercent: ((cpuSeconds() - cpu) / elapsed) * 100,
    rssMb: Deno.memoryUsage().rss / 2 ** 20,
  };
}

const uptime = async () =>
  new TextDecoder().decode((await new Deno.Command("uptime").output()).stdout).trim();

const server = await startTestServer({ env: { MAIL_CA_FILE: readServices().caPath } });
const listeners = startMailListeners(server.server.deps, { owner: "idle-cost" });
let before, after;
const loadBefore = await uptime();
try {
  const admin = testClient(server.url);
  await admin.login("admin", ADMIN_PASSWORD);
  before = await window();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const user = await addMailUser(uniqueName("idle"));
    const saved = await admin.post("/api/email-sources/email/save", sourceFor(user));
    ids.push((saved.body as { id: number }).id);
  }
  await listeners.reconcile();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const [row] = await server.db.query<{ n: number }>(
      "select count(*)::int as n from mailbox_listeners where mode = 'idle'",
    );
    if (row.n === count) break;
    if (Date.now() > deadline) throw new Error(`only ${row.n} listeners`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The catch-up polls after connecting are over; what follows is listening alone.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  after = await window();
} finally {
  await listeners.stop();
  await server.close();
}
const loadAfter = await uptime();
const f1 = (n: number) => n.toFixed(1);
const section = `## Mail listeners, idle cost

Command: \`deno run -A tests/mail/measure_idle_cost.ts ${count} ${seconds}\` (needs the loopback
test servers); measured ${new Date().toISOString().slice(0, 10)}, Deno ${Deno.version.deno}. One
process (server, embedded PGlite, jobs off, \`JOBS_TICK_SECONDS\` 5) measured for ${seconds} s before
it listened and ${seconds} s while ${count} IDLE listeners were connected to ${count} mailboxes of
the loopback Dovecot (the lease renewal every 5 s included). CPU is the process's user + system
time over the window; memory is its resident set at the end. Load (\`uptime\`) before:
\`${loadBefore}\`; after: \`${loadAfter}\`.

| state                   |   CPU | resident memory |
| ----------------------- | ----: | --------------: |
| no listener             | ${f1(before.cpuPercent)} % | ${f1(before.rssMb)} MB |
| ${count} mailboxes listened to | ${f1(after.cpuPercent)} % | ${f1(after.rssMb)} MB |
`;
let doc = Deno.readTextFileSync(RESULTS);
const start = doc.indexOf("\n## Mail listeners, idle cost\n");
if (start < 0) doc = doc.trimEnd() + "\n\n" + section;
else {
  const next = doc.indexOf("\n## ", start + 1);
  doc = doc.slice(0, start + 1) + section + (next < 0 ? "" : "\n" + doc.slice(next + 1));
}
Deno.writeTextFileSync(RESULTS, doc.trimEnd() + "\n");
await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", RESULTS] }).output();
console.log(before, after);
Deno.exit(0);
