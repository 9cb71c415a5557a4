/**
 * What the server knows about the client of a request: its address and whether it came over
 * HTTPS. Behind a reverse proxy (`TRUST_PROXY=true`) both come from the proxy's headers;
 * otherwise those headers are ignored, since any client can send them.
 */
import type { Context } from "hono";
import { getConnInfo } from "hono/deno";
import type { Config } from "../config.ts";

function proxyTrusted(c: Context): boolean {
  return (c.var.deps?.config as Config | undefined)?.TRUST_PROXY === true;
}

/**
 * The client's address: with `TRUST_PROXY`, the first address of `X-Forwarded-For`; else the
 * peer of the TCP connection.
 */
export function clientAddress(c: Context): string {
  if (proxyTrusted(c)) {
    const first = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    // An address is short; anything else is not one (and must not grow the throttle table).
    if (first && first.length <= 64 && /^[0-9A-Fa-f:.[\]]+$/.test(first)) return first;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * True when the browser reached the app over HTTPS: `PUBLIC_URL` decides when set; else, with
 * `TRUST_PROXY`, `X-Forwarded-Proto: https`; else the request's own scheme.
 */
export function isHttps(c: Context): boolean {
  const config = c.var.deps?.config as Config | undefined;
  if (config?.PUBLIC_URL) return config.PUBLIC_URL.startsWith("https:");
  if (config?.TRUST_PROXY) {
    const proto = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
    if (proto) return proto === "https";
  }
  return new URL(c.req.url).protocol === "https:";
}
