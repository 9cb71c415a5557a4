import assert from "node:assert/strict";
import { sha256Hex } from "./sha256.ts";

Deno.test("sha256Hex matches the standard test vectors for text and bytes", async () => {
  const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  assert.equal(await sha256Hex("abc"), abc);
  assert.equal(await sha256Hex(new Uint8Array([0x61, 0x62, 0x63])), abc);
  assert.equal(
    await sha256Hex(""),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
});
