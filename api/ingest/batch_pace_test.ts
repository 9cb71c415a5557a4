import assert from "node:assert/strict";
import { MOST_BATCHES_A_TRANSACTION, nextBatchCount } from "./batch_pace.ts";

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
