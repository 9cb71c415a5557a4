/**
 * The soak in the suite (3 minutes, 10 staff, an outage of the mailbox and SFTP servers every
 * 45 s for 15 s): every mailed file is processed exactly once, every feed delivered, no job
 * stuck, each outage shown on the e-mail source and cleared after it, and staff never see an
 * error. `SOAK_MINUTES`, `SOAK_STAFF` lengthen it (docs/benchmarks.md, "Load and soak").
 * Needs the loopback mail and SFTP servers (tests/services/up.sh).
 */
import assert from "node:assert/strict";
import { runSoak } from "./soak.ts";

const minutes = Number(Deno.env.get("SOAK_MINUTES") ?? 3);
const staff = Number(Deno.env.get("SOAK_STAFF") ?? 10);

Deno.test(`soak: ${minutes} minutes, ${staff} staff, mail and SFTP servers dropping out`, async () => {
  const result = await runSoak({ minutes, staff, outageEverySeconds: 45, outageSeconds: 15 });
  console.log(JSON.stringify({ ...result, memory: result.memory.map((m) => m.rssMB) }));
  const mailed = result.mailed.orders + result.mailed.stock;
  assert.ok(result.mailed.stock >= 2 && result.mailed.orders >= 2, "files were mailed throughout");
  assert.equal(result.runs.messages, mailed, "every mailed file was claimed once");
  assert.equal(result.runs.total, mailed, "one run per mailed file");
  assert.equal(result.runs.perMessageMax, 1, "no file ran twice");
  assert.equal(result.runs.succeeded, mailed, "every run succeeded");
  assert.equal(result.ordersStored, result.ordersExpected, "every order row stored once");
  assert.equal(result.inventoryDelivered, result.mailed.stock, "every feed delivered");
  assert.equal(result.stuckJobs, 0, "no job stuck");
  assert.ok(result.outages >= 2, "the servers dropped out more than once");
  assert.equal(result.outagesShown, result.outages, "each outage was shown on the source");
  assert.equal(result.pollErrorAtEnd, null, "the source recovered");
  assert.deepEqual(result.staffFailures, [], "staff never saw an error");
  assert.ok(result.staffRequests > staff, "staff kept working");
});
