import assert from "node:assert/strict";
import {
  addressAllowed,
  formatIp,
  OutboundRefused,
  parseAllowList,
  parseIp,
  refusedRange,
  resolveOutbound,
} from "./outbound.ts";

Deno.test("addresses parse to one 16-byte form (IPv4 as IPv4-mapped IPv6)", () => {
  const cases: [string, string | null][] = [
    ["127.0.0.1", "127.0.0.1"],
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::FFFF:7f00:1", "127.0.0.1"],
    ["[::1]", "::1"],
    ["::", "::"],
    ["fe80::1%eth0", "fe80::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:db8::", "2001:db8::"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
    ["256.0.0.1", null],
    ["1.2.3", null],
    ["1::2::3", null],
    ["1:2:3:4:5:6:7:8:9", null],
    ["mail.example.com", null],
    ["0x7f.1", null],
  ];
  for (const [text, expected] of cases) {
    const ip = parseIp(text);
    assert.equal(ip ? formatIp(ip) : null, expected, text);
  }
});

Deno.test("refused ranges: loopback, link-local, private, CGNAT, unspecified, multicast", () => {
  const cases: [string, boolean][] = [
    ["127.0.0.1", true],
    ["127.255.255.254", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:10.1.2.3", true],
    ["::127.0.0.1", true],
    ["64:ff9b::a9fe:a9fe", true], // NAT64 of 169.254.169.254
    ["64:ff9b::808:808", false], // NAT64 of 8.8.8.8
    ["169.254.169.254", true],
    ["fe80::1", true],
    ["10.0.0.1", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["100.64.0.1", true],
    ["100.127.255.255", true],
    ["100.128.0.1", false],
    ["fc00::1", true],
    ["fd12:3456::1", true],
    ["0.0.0.0", true],
    ["::", true],
    ["224.0.0.1", true],
    ["ff02::1", true],
    ["255.255.255.255", true],
    ["8.8.8.8", false],
    ["93.184.216.34", false],
    ["2606:4700::1111", false],
  ];
  for (const [text, refused] of cases) {
    assert.equal(refusedRange(parseIp(text)!) !== null, refused, text);
  }
});

Deno.test("the allow list admits by CIDR (v4 and v6) and by host name", () => {
  const list = parseAllowList(
    " 127.0.0.0/8, ::1 ,10.1.0.0/16,fd00::/8,mail.corp.example,*.lan.example.",
  );
  const cases: [string, string, boolean][] = [
    ["x", "127.0.0.1", true],
    ["x", "::ffff:127.0.0.1", true],
    ["x", "::1", true],
    ["x", "::2", false],
    ["x", "10.1.200.3", true],
    ["x", "10.2.0.1", false],
    ["x", "fd99::1", true],
    ["x", "fe80::1", false],
    ["x", "169.254.169.254", false],
    ["MAIL.corp.example", "10.9.9.9", true],
    ["other.corp.example", "10.9.9.9", false],
    ["imap.lan.example", "192.168.0.2", true],
    ["lan.example", "192.168.0.2", false],
    ["x", "8.8.8.8", true],
  ];
  for (const [host, address, allowed] of cases) {
    assert.equal(addressAllowed(list, host, parseIp(address)!), allowed, `${host} ${address}`);
  }
  assert.deepEqual(parseAllowList(""), { names: [], ranges: [] });
  for (const bad of ["10.0.0.0/33", "::/129", "not a host", "1.2.3.4/8/1", "a_b.example"]) {
    assert.throws(() => parseAllowList(bad), new RegExp(bad.replace(/[./*]/g, "\\$&")), bad);
  }
});

Deno.test("resolveOutbound connects to the checked address and hides why it refused", async () => {
  const resolver = (answers: Record<string, string[]>) => (host: string) =>
    answers[host] ? Promise.resolve(answers[host]) : Promise.reject(new Error("ENOTFOUND"));
  const dns = resolver({
    "mail.example.com": ["93.184.216.34"],
    "rebind.example.com": ["10.0.0.5"],
    "mixed.example.com": ["10.0.0.5", "2606:4700::1111"],
    "mail.corp.example": ["10.0.0.7"],
  });
  const config = { OUTBOUND_ALLOW: "mail.corp.example,127.0.0.0/8" };
  assert.deepEqual(await resolveOutbound(config, "mail.example.com", 993, "the server", dns), {
    host: "mail.example.com",
    address: "93.184.216.34",
    servername: "mail.example.com",
  });
  assert.equal(
    (await resolveOutbound(config, "mixed.example.com", 993, "x", dns)).address,
    "2606:4700::1111",
  );
  assert.equal(
    (await resolveOutbound(config, "mail.corp.example", 993, "x", dns)).address,
    "10.0.0.7",
  );
  assert.deepEqual(await resolveOutbound(config, "127.0.0.1", 143, "x", dns), {
    host: "127.0.0.1",
    address: "127.0.0.1",
    servername: undefined,
  });
  for (
    const host of ["rebind.example.com", "10.0.0.5", "::ffff:169.254.169.254", "nowhere.example"]
  ) {
    await assert.rejects(
      resolveOutbound(config, host, 993, "the incoming server", dns),
      (error) => {
        assert.ok(error instanceof OutboundRefused);
        assert.equal(error.publicMessage, `Could not connect to the incoming server ${host}:993.`);
        return true;
      },
    );
  }
  await assert.rejects(resolveOutbound({}, "127.0.0.1", 993, "x", dns), OutboundRefused);
});
