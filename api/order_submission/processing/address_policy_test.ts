import assert from "node:assert/strict";
import { checkDownloadHost, DownloadRefused, isNonPublicAddress } from "./address_policy.ts";

Deno.test("non-public addresses are recognised", () => {
  const cases: [string, boolean][] = [
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["8.8.8.8", false],
    ["::1", true],
    ["fd00::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["2606:4700::1111", false],
  ];
  for (const [address, expected] of cases) {
    assert.equal(isNonPublicAddress(address), expected, address);
  }
});

Deno.test("loopback is refused unless the allow-list admits it", async () => {
  await assert.rejects(() => checkDownloadHost("127.0.0.1", []), DownloadRefused);
  await assert.rejects(() => checkDownloadHost("localhost", ["10.0.0.0/8"]), DownloadRefused);
  assert.deepEqual(await checkDownloadHost("127.0.0.1", ["127.0.0.0/8"]), ["127.0.0.1"]);
  assert.ok((await checkDownloadHost("localhost", ["localhost"])).length > 0);
});
