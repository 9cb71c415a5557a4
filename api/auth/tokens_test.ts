import assert from "node:assert/strict";
import { sha256Hex } from "../../shared/sha256.ts";
import { hashToken, randomToken } from "./tokens.ts";

Deno.test("a token hashes as the stored hashes were made (WebCrypto SHA-256), so sessions survive", async () => {
  for (const token of ["abc", randomToken(), randomToken(), "ünïcödé-tøkén", ""]) {
    assert.equal(hashToken(token), await sha256Hex(token), token);
  }
  assert.equal(
    hashToken("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
});
