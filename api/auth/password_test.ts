import assert from "node:assert/strict";
import { argon2id } from "hash-wasm";
import { closePasswordPool, hashPassword, POOL_SIZE, verifyPassword } from "./password.ts";

Deno.test("hashes keep the PHC form and verify; unknown users still cost a check", async () => {
  const hash = await hashPassword("correct horse");
  assert.match(hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  assert.equal(await verifyPassword("correct horse", hash), true);
  assert.equal(await verifyPassword("wrong horse", hash), false);
  assert.equal(await verifyPassword("correct horse", null), false);
  assert.equal(await verifyPassword("correct horse", "not a hash"), false);
});

Deno.test("a hash made on the event loop before the pool (stored hashes) still verifies", async () => {
  const old = await argon2id({
    password: "battery staple",
    salt: crypto.getRandomValues(new Uint8Array(16)),
    parallelism: 1,
    iterations: 2,
    memorySize: 19456,
    hashLength: 32,
    outputType: "encoded",
  });
  assert.equal(await verifyPassword("battery staple", old), true);
});

Deno.test("many checks at once leave the event loop free", async () => {
  const hash = await hashPassword("pool");
  let worstLag = 0;
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
      worstLag = Math.max(worstLag, performance.now() - started - 5);
    }
  })();
  const results = await Promise.all(
    Array.from({ length: 4 * POOL_SIZE + 2 }, (_, i) => verifyPassword(i % 2 ? "pool" : "x", hash)),
  );
  running = false;
  await probe;
  assert.deepEqual(results, results.map((_, i) => i % 2 === 1));
  // One Argon2id check alone takes tens of milliseconds; on the event loop the lag would be the
  // sum of them all.
  assert.ok(worstLag < 250, `event loop lagged ${worstLag.toFixed(0)} ms`);
});

Deno.test("a check the pool could not make is an error, not a wrong password", async () => {
  const hash = await hashPassword("correct horse");
  const checking = verifyPassword("correct horse", hash);
  closePasswordPool(); // the worker holding the check ends before answering
  await assert.rejects(checking, /password pool closed/);
  assert.equal(await verifyPassword("correct horse", hash), true); // a new pool answers again
});
