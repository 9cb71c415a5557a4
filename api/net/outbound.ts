/**
 * The one outbound connection policy (docs/outbound.md): every connection the server opens on a
 * user's behalf (IMAP, SMTP, SFTP, link downloads, Microsoft's login endpoint) first asks
 * `resolveOutbound` for the address to connect to. The host is resolved here, every resolved
 * address is checked, and the caller connects to the checked address (keeping the host name for
 * TLS), so a DNS answer that changes between check and connect cannot smuggle in a private address.
 * Loopback, link-local (cloud metadata), private, CGNAT, unspecified, multicast and reserved
 * ranges are refused unless `OUTBOUND_ALLOW` admits them.
 */
import { lookup } from "node:dns/promises";

/** 16 bytes; an IPv4 address is held as its IPv4-mapped IPv6 form (::ffff:a.b.c.d). */
type Ip = Uint8Array;

interface Cidr {
  base: Ip;
  bits: number;
}

/** A parsed `OUTBOUND_ALLOW`: host names (exact, or `*.suffix`) and address ranges. */
export interface AllowList {
  names: string[];
  ranges: Cidr[];
}

/** Why a connection was not made; its message is for the server log, `publicMessage` for users. */
export class OutboundRefused extends Error {
  constructor(message: string, readonly publicMessage: string) {
    super(message);
  }
}

const V4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

function parseV4(text: string): Ip | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  if (bytes.some((b) => !(b >= 0 && b <= 255))) return null;
  return new Uint8Array([...V4_MAPPED_PREFIX, ...bytes]);
}

function parseV6(text: string): Ip | null {
  let body = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (body.includes(".")) {
    // A trailing dotted IPv4 part (::ffff:127.0.0.1) becomes its two 16-bit groups.
    const lastColon = body.lastIndexOf(":");
    const v4 = parseV4(body.slice(lastColon + 1));
    if (!v4) return null;
    const hex = (i: number) => ((v4[i] << 8) | v4[i + 1]).toString(16);
    body = `${body.slice(0, lastColon + 1)}${hex(12)}:${hex(14)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const group = (s: string) => (s === "" ? [] : s.split(":"));
  const head = group(halves[0]);
  const rest = halves.length === 2 ? group(halves[1]) : [];
  const words = [...head, ...rest].map((w) => (/^[0-9a-f]{1,4}$/i.test(w) ? parseInt(w, 16) : NaN));
  if (words.some(Number.isNaN)) return null;
  const needed = 8;
  let all: number[];
  if (halves.length === 2) {
    if (words.length >= needed) return null;
    const zeros = new Array(needed - words.length).fill(0);
    all = [...words.slice(0, head.length), ...zeros, ...words.slice(head.length)];
  } else {
    if (words.length !== needed) return null;
    all = words;
  }
  const out = new Uint8Array(16);
  all.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

/** The 16-byte form of an IPv4 or IPv6 literal, or null when `text` is not one. */
export function parseIp(text: string): Ip | null {
  const trimmed = text.trim();
  return trimmed.includes(":") ? parseV6(trimmed) : parseV4(trimmed);
}

/** An address as text: dotted for IPv4 (and IPv4-mapped), else IPv6 groups. */
export function formatIp(ip: Ip): string {
  if (V4_MAPPED_PREFIX.every((b, i) => ip[i] === b)) return Array.from(ip.slice(12)).join(".");
  const words = Array.from(
    { length: 8 },
    (_, i) => ((ip[2 * i] << 8) | ip[2 * i + 1]).toString(16),
  );
  return words.join(":").replace(/(^|:)0(:0)+(:|$)/, "::").replace(/:{3,}/, "::");
}

function parseCidr(text: string): Cidr | null {
  const [address, prefix, extra] = text.split("/");
  if (extra !== undefined) return null;
  const base = parseIp(address);
  if (!base) return null;
  const v4 = !address.includes(":");
  const max = v4 ? 32 : 128;
  const length = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  if (!(length >= 0 && length <= max)) return null;
  return { base, bits: v4 ? 96 + length : length };
}

function inCidr(ip: Ip, { base, bits }: Cidr): boolean {
  for (let i = 0; i < 16; i++) {
    const take = Math.max(0, Math.min(8, bits - 8 * i));
    if (take === 0) return true;
    const mask = (0xff << (8 - take)) & 0xff;
    if ((ip[i] & mask) !== (base[i] & mask)) return false;
  }
  return true;
}

const HOST_NAME =
  /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Parses `OUTBOUND_ALLOW`: comma-separated host names (`mail.corp.example`, `*.corp.example`),
 * addresses and CIDR ranges (`127.0.0.0/8`, `fd00::/8`). Throws naming the first bad entry.
 *
 * @example
 * parseAllowList("127.0.0.0/8,::1,mail.corp.example");
 */
export function parseAllowList(text: string | undefined): AllowList {
  const list: AllowList = { names: [], ranges: [] };
  for (const raw of (text ?? "").split(",")) {
    const entry = raw.trim().toLowerCase().replace(/\.$/, "");
    if (!entry) continue;
    const range = parseCidr(entry);
    if (range) list.ranges.push(range);
    else if (!entry.includes("/") && HOST_NAME.test(entry)) list.names.push(entry);
    else throw new Error(`"${raw.trim()}" is not a host name, address or CIDR range`);
  }
  return list;
}

/** Ranges no connection may reach unless allowed, with the name the log gives them. */
const REFUSED: [string, Cidr][] = (
  [
    ["0.0.0.0/8", "unspecified"],
    ["10.0.0.0/8", "private"],
    ["100.64.0.0/10", "shared address space (CGNAT)"],
    ["127.0.0.0/8", "loopback"],
    ["169.254.0.0/16", "link-local (cloud metadata)"],
    ["172.16.0.0/12", "private"],
    ["192.0.0.0/24", "IETF protocol assignments"],
    ["192.168.0.0/16", "private"],
    ["198.18.0.0/15", "benchmarking"],
    ["224.0.0.0/4", "multicast"],
    ["240.0.0.0/4", "reserved or broadcast"],
    ["::/96", "unspecified, loopback or IPv4-compatible"],
    ["64:ff9b:1::/48", "local-use IPv4/IPv6 translation"],
    ["100::/64", "discard-only"],
    ["fc00::/7", "unique local (private)"],
    ["fe80::/10", "link-local"],
    ["fec0::/10", "site-local"],
    ["ff00::/8", "multicast"],
  ] as const
).map(([cidr, name]) => [name, parseCidr(cidr)!]);

const NAT64 = parseCidr("64:ff9b::/96")!;

/**
 * The refused range an address falls in, or null for a public address. NAT64 addresses
 * (64:ff9b::/96) are judged by the IPv4 address they carry.
 */
export function refusedRange(ip: Ip): string | null {
  if (inCidr(ip, NAT64)) {
    return refusedRange(new Uint8Array([...V4_MAPPED_PREFIX, ...ip.slice(12)]));
  }
  for (const [name, range] of REFUSED) if (inCidr(ip, range)) return name;
  return null;
}

/** True when the allow list admits `host` by name (exact or `*.suffix`). */
function nameAllowed(list: AllowList, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return list.names.some((entry) =>
    entry.startsWith("*.") ? name.endsWith(entry.slice(1)) : entry === name
  );
}

/** True when `ip` is public, or the allow list admits it (by range or by the host's name). */
export function addressAllowed(list: AllowList, host: string, ip: Ip): boolean {
  return refusedRange(ip) === null || nameAllowed(list, host) ||
    list.ranges.some((range) => inCidr(ip, range));
}

/** Resolves a host to its addresses (all families); tests substitute their own. */
export type Resolver = (host: string) => Promise<string[]>;

/**
 * The system's resolver (getaddrinfo: /etc/hosts, then DNS), the same answers the mail libraries
 * would get on their own.
 */
export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

const allowLists = new Map<string, AllowList>();

function allowListOf(setting: string | undefined): AllowList {
  const key = setting ?? "";
  let list = allowLists.get(key);
  if (!list) allowLists.set(key, list = parseAllowList(key));
  return list;
}

/** Where to connect: the checked address, and the name to present for TLS (SNI, certificate). */
export interface OutboundTarget {
  host: string;
  address: string;
  /** The host name for SNI and certificate checks; undefined when `host` is an IP literal. */
  servername: string | undefined;
}

/**
 * Resolves `host` and returns the first address the policy admits; throws `OutboundRefused`
 * when the name does not resolve or every address is refused. `what` names the server for the
 * user ("the incoming server"); the public message never tells refused from unreachable.
 *
 * @example
 * const target = await resolveOutbound(config, "imap.example.com", 993, "the incoming server");
 * new ImapFlow({ host: target.address, servername: target.servername, ... });
 */
export async function resolveOutbound(
  config: { OUTBOUND_ALLOW?: string },
  host: string,
  port: number,
  what: string,
  resolver: Resolver = systemResolver,
): Promise<OutboundTarget> {
  const publicMessage = `Could not connect to ${what} ${host}:${port}.`;
  const name = host.trim().replace(/^\[|\]$/g, "");
  const literal = parseIp(name);
  let addresses: string[];
  if (literal) addresses = [name];
  else {
    try {
      addresses = await resolver(name);
    } catch (error) {
      throw new OutboundRefused(
        `${host} does not resolve: ${(error as Error).message}`,
        publicMessage,
      );
    }
  }
  const list = allowListOf(config.OUTBOUND_ALLOW);
  const refused: string[] = [];
  for (const address of addresses) {
    const ip = parseIp(address);
    if (!ip) continue;
    if (addressAllowed(list, name, ip)) {
      return { host: name, address: formatIp(ip), servername: literal ? undefined : name };
    }
    refused.push(`${address} (${refusedRange(ip)})`);
  }
  throw new OutboundRefused(
    refused.length
      ? `connection to ${host}:${port} refused by the outbound policy: ${
        refused.join(", ")
      } not admitted by OUTBOUND_ALLOW`
      : `${host} resolved to no address`,
    publicMessage,
  );
}

/**
 * Checks a URL's host for a fetch (link downloads, the Microsoft login endpoint). fetch connects
 * by name itself, so this cannot pin the address as the socket clients do (docs/outbound.md).
 */
export async function checkOutboundUrl(
  config: { OUTBOUND_ALLOW?: string },
  url: string,
  what: string,
  resolver: Resolver = systemResolver,
): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new OutboundRefused(`${url}: only http(s) is fetched`, `Could not connect to ${what}.`);
  }
  const port = Number(parsed.port) || (parsed.protocol === "https:" ? 443 : 80);
  await resolveOutbound(config, parsed.hostname, port, what, resolver);
}
