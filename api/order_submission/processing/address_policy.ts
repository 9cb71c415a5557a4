/**
 * Which addresses a link download may reach. Interim: the project's one outbound policy
 * (`api/net/outbound.ts`, `OUTBOUND_ALLOW`, branch sec-outbound) had not landed in main when this
 * was written; when it has, `checkDownloadHost` should call its `resolveOutbound` instead. The
 * allow-list is read from the same setting, `OUTBOUND_ALLOW` (comma-separated host names,
 * `*.suffix`, addresses and IPv4 CIDR ranges), when the configuration carries it.
 */
import { lookup } from "node:dns/promises";
import type { Config } from "../../config.ts";

/** A download refused by the address policy; the message is safe to show on the run. */
export class DownloadRefused extends Error {}

/** The allow-list of the configuration (`OUTBOUND_ALLOW`), split; empty when unset. */
export function outboundAllow(config: Config): string[] {
  const value = (config as Config & { OUTBOUND_ALLOW?: string }).OUTBOUND_ALLOW ?? "";
  return value.split(",").map((v) => v.trim().toLowerCase()).filter(Boolean);
}

function v4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) {
    return null;
  }
  return parts.map(Number);
}

/** True for loopback, private, link-local, CGNAT, unspecified, multicast and reserved addresses. */
export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip4 = v4(mapped ? mapped[1] : address);
  if (ip4) {
    const [a, b] = ip4;
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19)) ||
      a >= 224;
  }
  const v6 = address.toLowerCase().replace(/^\[|\]$/g, "");
  return v6 === "::" || v6 === "::1" || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) ||
    /^ff/.test(v6) || v6.startsWith("::ffff:") || v6.startsWith("64:ff9b:");
}

function inCidr(address: string, cidr: string): boolean {
  const [base, bits] = cidr.split("/");
  const a = v4(address);
  const b = v4(base);
  if (!a || !b) return address === base;
  const n = bits === undefined ? 32 : Number(bits);
  const toInt = (x: number[]) => ((x[0] << 24) | (x[1] << 16) | (x[2] << 8) | x[3]) >>> 0;
  const mask = n === 0 ? 0 : (0xffffffff << (32 - n)) >>> 0;
  return (toInt(a) & mask) === (toInt(b) & mask);
}

function allowed(host: string, address: string, allow: string[]): boolean {
  return allow.some((entry) =>
    entry === host || (entry.startsWith("*.") && host.endsWith(entry.slice(1))) ||
    inCidr(address, entry)
  );
}

/**
 * Resolves `host` and checks every address: a non-public one is refused unless the allow-list
 * names the host or the address. Returns the addresses.
 *
 * @throws {DownloadRefused} naming the host (never the resolved address map)
 */
export async function checkDownloadHost(host: string, allow: string[]): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  let addresses: string[];
  try {
    addresses = (await lookup(bare, { all: true })).map((a) => a.address);
  } catch {
    throw new DownloadRefused(`The download host ${bare} could not be resolved.`);
  }
  for (const address of addresses) {
    if (isNonPublicAddress(address) && !allowed(bare, address, allow)) {
      throw new DownloadRefused(
        `The download link points at a private or loopback address (${bare}); refused.`,
      );
    }
  }
  return addresses;
}
