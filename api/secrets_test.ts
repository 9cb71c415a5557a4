import assert from "node:assert/strict";
import { generateSecretKey, loadSecretKey, secretBox } from "./secrets.ts";

Deno.test("a secret round-trips and is not readable in its stored form", async () => {
  const box = await secretBox(generateSecretKey());
  const stored = await box.encrypt("mailbox-password-42");
  assert.match(stored, new RegExp(`^v1\\.${box.keyId}\\.`));
  assert.doesNotMatch(stored, /mailbox-password-42/);
  assert.equal(await box.decrypt(stored), "mailbox-password-42");
  // Fresh IV each time: equal secrets do not look equal at rest.
  assert.notEqual(await box.encrypt("same"), await box.encrypt("same"));
});

Deno.test("a secret stored under another key or tampered with is refused", async () => {
  const box = await secretBox(generateSecretKey());
  const other = await secretBox(generateSecretKey());
  const stored = await box.encrypt("x");
  await assert.rejects(() => other.decrypt(stored), /encrypted with key/);
  const tampered = stored.slice(0, -4) + (stored.endsWith("AAAA") ? "BBBB" : "AAAA");
  await assert.rejects(() => box.decrypt(tampered));
});

Deno.test("the key file is created once in the data directory and reused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await loadSecretKey(undefined, dir);
    assert.equal(await loadSecretKey(undefined, dir), first);
    assert.equal((await Deno.stat(`${dir}/secret.key`)).mode! & 0o777, 0o600);
    assert.equal(await loadSecretKey("configured", dir), "configured");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
