/**
 * Inventory SFTP failures on the real test OpenSSH (issue 12: "an SFTP server that refuses the
 * login or is down: the run fails with the reason, the file is kept, a retry works"). The SFTP
 * server is reached through a loopback TCP relay the test opens and closes: closed, nothing
 * listens on the source's port (the server is down); open, the port leads to the test sshd. The
 * relay also counts connections, so "delivered exactly once" is checked on the wire too.
 */
import assert from "node:assert/strict";
import { runDueJobs } from "../../api/jobs/runner.ts";
import { enqueueDueSchedules } from "../../api/jobs/schedules.ts";
import { inventorySchedules, SFTP_PULL_JOB } from "../../api/inventory/jobs.ts";
import { decodeBase64 } from "../../shared/base64.ts";
import { saveMailbox, sourcePayload, stockCsv, upload } from "../support/inventory.ts";
import { readServices, sftpConnectOptions } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { uniqueName } from "./support.ts";

const DELIVER = "inventory-deliver";
const API = "/api/inventory-sources";

/** A TCP relay from a fixed loopback port to the test sshd, started and stopped at will. */
class SftpRelay {
  readonly port: number;
  connections = 0;
  #listener: Deno.Listener | null = null;
  #open = new Set<Deno.Conn>();

  constructor() {
    // A port nobody listens on once this probe is closed: the "server down" address.
    const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.port = (probe.addr as Deno.NetAddr).port;
    probe.close();
  }

  /** The server comes (back) up on the port. */
  start() {
    const target = sftpConnectOptions();
    const listener = Deno.listen({ hostname: "127.0.0.1", port: this.port });
    this.#listener = listener;
    (async () => {
      for await (const client of listener) {
        this.connections++;
        this.#open.add(client);
        Deno.connect({ hostname: target.host, port: target.port }).then((server) => {
          this.#open.add(server);
          const close = () => {
            for (const c of [client, server]) {
              this.#open.delete(c);
              try {
                c.close();
              } catch { /* already closed */ }
            }
          };
          Promise.allSettled([
            client.readable.pipeTo(server.writable),
            server.readable.pipeTo(client.writable),
          ]).then(close);
        }, () => {
          this.#open.delete(client);
          client.close();
        });
      }
    })().catch(() => {});
  }

  /** The server goes down: nothing listens on the port, open sessions are cut. */
  stop() {
    this.#listener?.close();
    this.#listener = null;
    for (const c of this.#open) {
      try {
        c.close();
      } catch { /* already closed */ }
    }
    this.#open.clear();
  }
}

async function setup(relay: SftpRelay, overrides: { password?: string; inbox?: string } = {}) {
  const server = await startTestServer();
  const admin = testClient(server.url);
  await admin.login("admin", ADMIN_PASSWORD);
  const mailbox = await saveMailbox(admin);
  const sftp = sftpConnectOptions();
  const outName = `${uniqueName("seller")}.csv`;
  const payload = (password: string) =>
    sourcePayload(mailbox, {
      sftpServerAddress: "127.0.0.1",
      sftpPort: relay.port,
      sftpUsername: sftp.username,
      sftpPassword: password,
      sftpInboxFolder: overrides.inbox ?? "",
      fileData: { inventoryFileName: outName },
    });
  const saved = await admin.post(
    `${API}/inventory/save`,
    payload(overrides.password ?? sftp.password),
  );
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const sourceId = (saved.body as { id: number }).id;
  return {
    server,
    admin,
    sourceId,
    outName,
    deps: server.server.deps,
    onServer: `${readServices().sftp.uploadDir}/${outName}`,
    /** Saves the source again with `password` (as the edit screen does). */
    resave: async (password: string) => {
      const res = await admin.post(`${API}/inventory/save`, { ...payload(password), id: sourceId });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    },
  };
}

type Fixture = Awaited<ReturnType<typeof setup>>;

interface RunView {
  status: string;
  error: string | null;
  deliveryStatus: string;
  deliveryError: string | null;
  sftpDeliveredAt: string | null;
  deliveryLog: string[];
}

/** A manual upload that asks for SFTP delivery, as the screen's Process button sends it. */
async function processWithSftp(f: Fixture) {
  const res = await upload(f.admin, f.server.url, `${API}/manually-process`, {
    name: "stock.csv",
    bytes: stockCsv([["A1", 4], ["A2", 0], ["A3", 7]]),
  }, { sourceId: String(f.sourceId), sendEmailNotification: "false", submitViaSftp: "true" });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as {
    success: boolean;
    message: string;
    errors: string[];
    processingLogs: string[];
    fileData: string | null;
    runId: number;
    runStatus: string;
    deliveryStatus: string;
  };
}

/** What a staff member sees of a failed delivery: the answer, the run, the import run, the file. */
async function assertFailedAndKept(
  f: Fixture,
  answer: Awaited<ReturnType<typeof processWithSftp>>,
  reason: string,
) {
  const message = `Delivery failed: ${reason}`;
  assert.equal(answer.success, false);
  assert.equal(answer.message, message);
  assert.equal(answer.errors[0], message);
  assert.equal(answer.processingLogs.at(-1), message);
  assert.deepEqual([answer.runStatus, answer.deliveryStatus], ["failed", "failed"]);
  assert.ok(answer.fileData, "the generated file comes with the answer");
  const file = decodeBase64(answer.fileData);
  assert.match(new TextDecoder().decode(file), /A1,Active/);

  const run = (await f.admin.get(`${API}/runs/${answer.runId}`)).body as RunView;
  assert.deepEqual(
    [run.status, run.error, run.deliveryStatus, run.deliveryError, run.sftpDeliveredAt],
    ["failed", message, "failed", message, null],
  );
  assert.ok(run.deliveryLog.includes(message));
  const importRun = (await f.admin.get(`/api/import-runs/${answer.runId}`)).body as {
    status: string;
    error: string;
  };
  assert.deepEqual([importRun.status, importRun.error], ["failed", message]);
  const kept = await f.admin.get(`${API}/runs/${answer.runId}/file`);
  assert.equal(kept.status, 200);
  assert.equal(kept.body, new TextDecoder().decode(file));
  assert.equal(await exists(f.onServer), false, "nothing reached the server");
  return file;
}

/** The run as delivered: succeeded, no error, the file on the server once, no temporary file. */
async function assertDeliveredOnce(f: Fixture, runId: number, file: Uint8Array) {
  const run = (await f.admin.get(`${API}/runs/${runId}`)).body as RunView;
  assert.deepEqual(
    [run.status, run.error, run.deliveryStatus, run.deliveryError],
    ["succeeded", null, "delivered", null],
  );
  assert.ok(run.sftpDeliveredAt);
  assert.match(run.deliveryLog.at(-1) ?? "", /^Delivered "seller-.*\.csv" to the SFTP server/);
  assert.deepEqual(await Deno.readFile(f.onServer), file);
  // Readable by all, writable by its owner only (issue 28): not the 0666 of a bare upload.
  assert.equal(((await Deno.stat(f.onServer)).mode ?? 0) & 0o777, 0o644);
  const dir = f.onServer.slice(0, f.onServer.lastIndexOf("/"));
  for await (const e of Deno.readDir(dir)) {
    assert.ok(!e.name.startsWith(`.${f.outName}`), `temporary file left: ${e.name}`);
  }
}

async function exists(path: string) {
  return await Deno.stat(path).then(() => true, () => false);
}

/** The delivery job's row of run `runId`. */
async function deliverJob(f: Fixture, runId: number) {
  const [job] = await f.server.db.query<
    { status: string; lastError: string | null; attempts: number; due: boolean }
  >(
    `select status, last_error as "lastError", attempts, run_at <= now() as due from jobs
      where kind = $1 and payload->>'runId' = $2 order by id desc limit 1`,
    [DELIVER, String(runId)],
  );
  return job;
}

/** Runs the due delivery jobs, as the worker's next tick would; returns how many ran. */
function runDeliveryJobs(f: Fixture): Promise<number> {
  return runDueJobs(f.deps, { kinds: [DELIVER], log: () => {} });
}

/** Time passes: the job's back-off is over. */
async function backOffOver(f: Fixture) {
  await f.server.db.query(`update jobs set run_at = now() where status = 'queued'`);
}

Deno.test("an SFTP server that is down: the run fails with the reason, the file is kept, the job's retry delivers it once", async () => {
  const relay = new SftpRelay();
  const f = await setup(relay);
  try {
    const reason = `Could not connect to the SFTP server 127.0.0.1:${relay.port}.`;
    const answer = await processWithSftp(f);
    const file = await assertFailedAndKept(f, answer, reason);

    // The delivery job tries again while the server is still down: same reason, back-off.
    assert.equal(await runDeliveryJobs(f), 1);
    let job = await deliverJob(f, answer.runId);
    assert.deepEqual([job.status, job.lastError, job.due], [
      "queued",
      `Delivery failed: ${reason}`,
      false,
    ]);
    assert.equal(
      ((await f.admin.get(`${API}/runs/${answer.runId}`)).body as RunView).status,
      "failed",
    );

    // The server is back; the job's next attempt delivers.
    relay.start();
    await backOffOver(f);
    assert.equal(await runDeliveryJobs(f), 1);
    job = await deliverJob(f, answer.runId);
    assert.deepEqual([job.status, job.lastError], ["succeeded", null]);
    await assertDeliveredOnce(f, answer.runId, file);
    assert.equal(relay.connections, 1);

    // Retrying again delivers nothing twice: the run says delivered, no new connection.
    await Deno.remove(f.onServer);
    const again = await f.admin.post(`${API}/runs/${answer.runId}/deliver`);
    assert.equal(again.status, 200);
    assert.equal((again.body as { deliveryStatus: string }).deliveryStatus, "delivered");
    assert.equal(await runDeliveryJobs(f), 0);
    assert.equal(relay.connections, 1);
    assert.equal(await exists(f.onServer), false);
  } finally {
    relay.stop();
    await f.server.close();
  }
});

Deno.test("an SFTP server that refuses the login: the run fails with the reason, the file is kept, a retry after fixing the password delivers it once", async () => {
  const relay = new SftpRelay();
  relay.start();
  const f = await setup(relay, { password: "not-the-password" });
  try {
    const user = sftpConnectOptions().username;
    const reason = `The SFTP server 127.0.0.1:${relay.port} refused the login of "${user}".`;
    const answer = await processWithSftp(f);
    const file = await assertFailedAndKept(f, answer, reason);
    const [pinned] = await f.server.db.query<{ n: number }>(
      "select count(*)::int as n from inventory_sftp_host_keys",
    );
    assert.equal(pinned.n, 0, "no host key is pinned by a refused login");

    // The delivery job tries once more, then stops: only a new password can mend a refused
    // login, and a server may ban an address that keeps failing to log in.
    let before = relay.connections;
    await backOffOver(f);
    assert.equal(await runDeliveryJobs(f), 1);
    const job = await deliverJob(f, answer.runId);
    assert.deepEqual([job.status, job.lastError], ["failed", `Delivery failed: ${reason}`]);
    assert.equal(relay.connections, before + 1);
    await backOffOver(f);
    assert.equal(await runDeliveryJobs(f), 0);

    // The staff member enters the right password and retries (POST runs/{id}/deliver).
    await f.resave(sftpConnectOptions().password);
    before = relay.connections;
    const retried = await f.admin.post(`${API}/runs/${answer.runId}/deliver`);
    assert.equal(retried.status, 200);
    const r = retried.body as { deliveryStatus: string; delivery: { error: string | null } };
    assert.deepEqual([r.deliveryStatus, r.delivery.error], ["delivered", null]);
    await assertDeliveredOnce(f, answer.runId, file);
    assert.equal(relay.connections, before + 1);

    // Another POST deliver finds the run delivered and connects to nothing.
    await Deno.remove(f.onServer);
    assert.equal((await f.admin.post(`${API}/runs/${answer.runId}/deliver`)).status, 200);
    assert.equal(relay.connections, before + 1);
    assert.equal(await exists(f.onServer), false);
  } finally {
    relay.stop();
    await f.server.close();
  }
});

Deno.test("an SFTP inbox whose server is down: that poll fails with the reason, the next poll takes the file", async () => {
  const relay = new SftpRelay();
  const inbox = uniqueName("inbox");
  const info = readServices();
  await Deno.mkdir(`${info.sftp.uploadDir}/${inbox}`);
  await Deno.writeFile(`${info.sftp.uploadDir}/${inbox}/stock.csv`, stockCsv([["A1", 9]]));
  const f = await setup(relay, { inbox });
  const poll = async () => {
    await f.server.db.query(
      "update job_schedules set next_run_at = now() where name = $1",
      [`${SFTP_PULL_JOB}:${f.sourceId}`],
    );
    assert.ok((await enqueueDueSchedules(f.server.db)).includes(`${SFTP_PULL_JOB}:${f.sourceId}`));
    assert.equal(await runDueJobs(f.deps, { kinds: [SFTP_PULL_JOB], log: () => {} }), 1);
    const [job] = await f.server.db.query<{ status: string; lastError: string | null }>(
      `select status, last_error as "lastError" from jobs where kind = $1 order by id desc limit 1`,
      [SFTP_PULL_JOB],
    );
    return job;
  };
  try {
    await inventorySchedules(f.deps);
    const down = await poll();
    assert.deepEqual(down, {
      status: "failed",
      lastError: `SFTP inbox of inventory source "Acme stock": Could not connect to the SFTP ` +
        `server 127.0.0.1:${relay.port}.`,
    });
    const runs = () => f.admin.get(`${API}/inventory/${f.sourceId}/runs`);
    assert.deepEqual((await runs()).body, []);

    relay.start();
    // The next poll sees the file, the one after takes it (stable size and mtime) once.
    assert.deepEqual(await poll(), { status: "succeeded", lastError: null });
    assert.deepEqual((await runs()).body, []);
    assert.deepEqual(await poll(), { status: "succeeded", lastError: null });
    assert.deepEqual(await poll(), { status: "succeeded", lastError: null });
    const taken = (await runs()).body as { trigger: string; status: string; fileName: string }[];
    assert.deepEqual(
      taken.map((r) => [r.trigger, r.status, r.fileName]),
      [["sftp", "succeeded", "stock.csv"]],
    );

    // A folder the server does not have fails the poll with a reason too.
    await f.server.db.query("update inventory_sources set sftp_inbox_folder = $1", [
      `${inbox}-gone`,
    ]);
    const missing = await poll();
    assert.equal(missing.status, "failed");
    assert.match(
      missing.lastError ?? "",
      new RegExp(
        `^SFTP inbox of inventory source "Acme stock": The folder "${inbox}-gone" ` +
          "could not be listed: .*No such file",
      ),
    );
  } finally {
    relay.stop();
    await f.server.close();
  }
});
