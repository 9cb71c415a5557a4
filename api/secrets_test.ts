import assert from "node:assert/strict";
import { generateSecretKey, loadSecretKey, requireSecretForRebind, secretBox } from "./secrets.ts";
import { mailSecretBinding } from "./mail/endpoints.ts";

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

Deno.test("a kept secret may not follow a changed binding", async (t) => {
  const base = {
    username: "orders",
    incomingServer: "imap.example.com",
    incomingPort: null as number | null,
    outgoingServer: "smtp.example.com",
    outgoingPort: null as number | null,
    ssl: true,
    isMsal: false,
    msalClientId: "",
    msalTenantId: "",
  };
  const cases: [string, Partial<typeof base>, boolean][] = [
    ["nothing changed", {}, true],
    ["host case and the default port spelled out", {
      incomingServer: "IMAP.example.com",
      incomingPort: 993,
    }, true],
    ["MSAL ids while MSAL is off", { msalClientId: "c" }, true],
    ["incoming host", { incomingServer: "evil.example" }, false],
    ["incoming port", { incomingPort: 1993 }, false],
    ["outgoing host", { outgoingServer: "evil.example" }, false],
    ["outgoing port", { outgoingPort: 25 }, false],
    ["SSL off", { ssl: false }, false],
    ["username", { username: "other" }, false],
    ["MSAL on", { isMsal: true }, false],
  ];
  for (const [name, change, allowed] of cases) {
    await t.step(name, () => {
      const run = () =>
        requireSecretForRebind(
          true,
          mailSecretBinding(base),
          mailSecretBinding({ ...base, ...change }),
        );
      if (allowed) run();
      else assert.throws(run, /Enter the password again/);
      // A new secret may go anywhere.
      requireSecretForRebind(
        false,
        mailSecretBinding(base),
        mailSecretBinding({ ...base, ...change }),
      );
    });
  }
  const msal = { ...base, isMsal: true, msalClientId: "c", msalTenantId: "t" };
  assert.throws(
    () =>
      requireSecretForRebind(
        true,
        mailSecretBinding(msal),
        mailSecretBinding({ ...msal, msalTenantId: "x" }),
      ),
    /tenant ID/,
  );
});
