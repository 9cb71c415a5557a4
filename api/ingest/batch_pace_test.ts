import assert from "node:assert/strict";
import { batchTargetMs, MOST_BATCHES_A_TRANSACTION, nextBatchCount } from "./batch_pace.ts";

Deno.test("a transaction writes as many batches as the target holds at the last pace", () => {
  const cases: [count: number, ms: number, targetMs: number, next: number][] = [
    [1, 20, 50, 2], // fast: doubles, no more
    [1, 1, 50, 2],
    [2, 40, 50, 2], // 20 ms a batch: two fit
    [4, 80, 50, 2], // slower than the target: fewer
    [1, 70, 50, 1], // one batch over the target: still one
    [3, 0, 50, 6], // a transaction too fast to time
    [MOST_BATCHES_A_TRANSACTION, 1, 50, MOST_BATCHES_A_TRANSACTION],
    [8, 1, 0, 1], // a target of 0: one batch a transaction
  ];
  for (const [count, ms, targetMs, next] of cases) {
    assert.equal(nextBatchCount(count, ms, targetMs), next, `${count} batches in ${ms} ms`);
  }
});

Deno.test("a transaction aims shorter while people use a database that makes them wait", () => {
  const cases: [othersActive: boolean, normalMs: number, busyMs: number, targetMs: number][] = [
    [false, 50, 10, 50], // nobody waits (or PostgreSQL): the normal pace
    [true, 50, 10, 10], // people wait for each transaction on PGlite: short ones
    [true, 5, 10, 5], // never longer than the normal target
    [true, 0, 10, 0], // 0 stays one batch a transaction
  ];
  for (const [othersActive, normalMs, busyMs, targetMs] of cases) {
    assert.equal(batchTargetMs(othersActive, normalMs, busyMs), targetMs);
  }
});
