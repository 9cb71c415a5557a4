import assert from "node:assert/strict";
import { rowFingerprints, submissionKey, submissionMessageId, unsentRows } from "./idempotency.ts";

Deno.test("rowFingerprints: whitespace-insensitive, identical lines in one file stay distinct", async () => {
  const a = await rowFingerprints([["PO-1", " Hammer ", "2", ""], ["PO-1", "Hammer", "2"]]);
  assert.equal(a.length, 2);
  assert.match(a[0], /^[0-9a-f]{64}$/);
  assert.notEqual(a[0], a[1]);
  const b = await rowFingerprints([["PO-1", "Hammer", "2"]]);
  assert.equal(b[0], a[0]);
});

Deno.test("submissionKey: order-independent, sensitive to vendor, batch and rows", async () => {
  const rows = await rowFingerprints([["PO-1", "a"], ["PO-2", "b"]]);
  const base = {
    vendorId: 7,
    batch: "source:3/day:2026-11-23",
    poNumbers: ["PO-1", "PO-2"],
    rowHashes: rows,
  };
  const key = await submissionKey(base);
  assert.match(key, /^sub1_[0-9a-f]{64}$/);
  assert.equal(
    await submissionKey({
      ...base,
      poNumbers: ["PO-2", "PO-1", "PO-1"],
      rowHashes: [...rows].reverse(),
    }),
    key,
  );
  assert.notEqual(await submissionKey({ ...base, vendorId: 8 }), key);
  assert.notEqual(await submissionKey({ ...base, batch: "source:3/day:2026-11-24" }), key);
  assert.notEqual(await submissionKey({ ...base, rowHashes: rows.slice(0, 1) }), key);
});

Deno.test("submissionMessageId and unsentRows", () => {
  assert.equal(
    submissionMessageId("sub1_abc", "orders@shop.example.com"),
    "<sub1_abc.submission@shop.example.com>",
  );
  assert.equal(submissionMessageId("sub1_abc", ""), "<sub1_abc.submission@localhost>");
  const out = unsentRows(["r1", "r2", "r3"], ["h1", "h2", "h3"], new Set(["h2"]));
  assert.deepEqual(out, { rows: ["r1", "r3"], fingerprints: ["h1", "h3"], skipped: 1 });
});
