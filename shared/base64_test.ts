import assert from "node:assert/strict";
import { decodeBase64, encodeBase64 } from "./base64.ts";

Deno.test("encodeBase64 matches btoa for every length and byte", () => {
  const btoaOf = (b: Uint8Array) => btoa(Array.from(b, (c) => String.fromCharCode(c)).join(""));
  for (let n = 0; n < 70; n++) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) & 255);
    assert.equal(encodeBase64(bytes), btoaOf(bytes), `length ${n}`);
    assert.deepEqual(decodeBase64(encodeBase64(bytes)), bytes);
  }
  const all = Uint8Array.from({ length: 256 * 3 }, (_, i) => i & 255);
  assert.equal(encodeBase64(all), btoaOf(all));
  const big = Uint8Array.from({ length: 200_001 }, (_, i) => (i * i + 7 * i) & 255);
  assert.equal(encodeBase64(big), btoaOf(big));
});
