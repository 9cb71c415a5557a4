/**
 * One conditional GET of a URL feed (docs/url_feeds.md): https only, every hop (the first URL
 * and each redirect, followed by hand, at most `maxRedirects`) checked against the outbound policy
 * (`api/net/outbound.ts`) and connected to the very address checked (node:https with a pinned
 * `lookup`; fetch cannot pin), one time-out for the whole exchange, the size cap enforced on the
 * declared length and on the bytes read, `If-None-Match` / `If-Modified-Since` from the last file
 * taken. Credentials go only to the first URL's origin: a redirect elsewhere is fetched without.
 */
import https from "node:https";
import type { IncomingMessage } from "node:http";
import type { Config } from "../config.ts";
import { tlsCaOption } from "../mail/tls.ts";
import { writeLog } from "../http/log.ts";
import { OutboundRefused, parseIp, resolveOutbound } from "../net/outbound.ts";

/** A look that failed; the message is safe to show on the source page and the run. */
export class UrlFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UrlFetchError";
  }
}

/** What to ask for. */
export interface UrlRequest {
  url: string;
  /** Extra request headers (Authorization, a token header), sent to the first URL's origin only. */
  headers: Record<string, string>;
  etag: string | null;
  lastModified: string | null;
}

/** What to respect. */
export interface UrlLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

/** The answer: unchanged (304), or a file with its validators. */
export type UrlFetched =
  | { status: "not-modified"; url: string }
  | {
    status: "fetched";
    url: string;
    fileName: string;
    bytes: Uint8Array;
    etag: string | null;
    lastModified: string | null;
  };

/** One hop's answer: status, headers (lower-case names) and the body, not yet read. */
interface Hop {
  status: number;
  statusText: string;
  header(name: string): string | null;
  body: AsyncIterable<Uint8Array>;
  discard(): void;
}

/**
 * One GET over node:https to the address the outbound policy checked: `lookup` answers that
 * address whatever DNS says now (no rebinding between check and connect), while the host name
 * stays the TLS server name and Host header (docs/outbound.md).
 */
function getPinned(
  url: URL,
  address: string,
  headers: Record<string, string>,
  ca: string[] | undefined,
  signal: AbortSignal,
): Promise<Hop> {
  const family = address.includes(":") ? 6 : 4;
  return new Promise((resolve, reject) => {
    const request = https.request({
      method: "GET",
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: Number(url.port) || 443,
      path: `${url.pathname}${url.search}`,
      headers,
      ca,
      servername: parseIp(url.hostname) ? undefined : url.hostname,
      signal,
      agent: false,
      lookup: ((_host: string, options: { all?: boolean }, callback: LookupCallback) => {
        if (options?.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      }) as never,
    }, (response: IncomingMessage) => {
      resolve({
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? "",
        header: (name) => {
          const value = response.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
        },
        body: response as AsyncIterable<Uint8Array>,
        discard: () => response.destroy(),
      });
    });
    request.on("error", reject);
    request.end();
  });
}

type LookupCallback = (
  error: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

function fileNameOf(url: URL, disposition: string | null): string {
  const plain = /filename\*?\s*=\s*(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? "");
  let name = plain?.[1]?.trim() ?? "";
  if (!name) {
    try {
      name = decodeURIComponent(url.pathname.split("/").pop() ?? "");
    } catch {
      name = "";
    }
  }
  return (name.replace(/[\/\\]/g, "_") || "download").slice(0, 255);
}

/** Reads a body up to `max` bytes; throws past it (the rest is not read). */
async function readCapped(body: AsyncIterable<Uint8Array>, max: number, url: string) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      throw new UrlFetchError(`The file at ${url} is larger than the ${max}-byte cap.`);
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

/**
 * Fetches `request.url` once within `limits`.
 *
 * @throws {UrlFetchError} for a refused or unreachable host (the policy's public wording), a
 *   non-https hop, too many redirects, an error status, a time-out or a file over the cap
 *
 * @example
 * ```ts ignore
 * const got = await fetchFeedUrl(config, { url, headers: {}, etag: null, lastModified: null },
 *   { maxBytes: 1 << 20, timeoutMs: 30_000, maxRedirects: 5 });
 * ```
 */
export async function fetchFeedUrl(
  config: Config,
  request: UrlRequest,
  limits: UrlLimits,
): Promise<UrlFetched> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const ca = await tlsCaOption(config);
  const origin = new URL(request.url).origin;
  let url = new URL(request.url);
  try {
    for (let hop = 0;; hop++) {
      if (url.protocol !== "https:") {
        throw new UrlFetchError(`Only https:// URLs are fetched (a redirect led to ${url.href}).`);
      }
      const port = Number(url.port) || 443;
      let address: string;
      try {
        address = (await resolveOutbound(config, url.hostname, port, "the feed URL's server"))
          .address;
      } catch (error) {
        if (!(error instanceof OutboundRefused)) throw error;
        writeLog("warn", `URL feed ${url.host}: ${error.message}`.slice(0, 300));
        // The policy's wording: refused and unreachable look alike (docs/outbound.md).
        throw new UrlFetchError(`Could not connect to ${url.host}.`);
      }
      const headers: Record<string, string> = { "user-agent": "source-manager url feed" };
      if (url.origin === origin) {
        for (const [name, value] of Object.entries(request.headers)) {
          headers[name.toLowerCase()] = value;
        }
      }
      if (request.etag) headers["if-none-match"] = request.etag;
      if (request.lastModified) headers["if-modified-since"] = request.lastModified;
      let response: Hop;
      try {
        response = await getPinned(url, address, headers, ca, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        writeLog("warn", `URL feed ${url.host}: ${(error as Error).message}`.slice(0, 300));
        throw new UrlFetchError(`Could not connect to ${url.host}.`);
      }
      if (response.status === 304) {
        response.discard();
        return { status: "not-modified", url: url.href };
      }
      if (response.status >= 300 && response.status < 400) {
        response.discard();
        const location = response.header("location");
        if (!location) throw new UrlFetchError(`${url.href} answered ${response.status}.`);
        if (hop >= limits.maxRedirects) {
          throw new UrlFetchError(`The URL redirected more than ${limits.maxRedirects} times.`);
        }
        url = new URL(location, url);
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        response.discard();
        const hint = response.status === 401 || response.status === 403
          ? " (check the URL authentication)"
          : "";
        throw new UrlFetchError(
          `${url.href} answered ${response.status} ${response.statusText}${hint}.`,
        );
      }
      const declared = Number(response.header("content-length") ?? "0");
      if (declared > limits.maxBytes) {
        response.discard();
        throw new UrlFetchError(
          `The file at ${url.href} is ${declared} bytes, larger than the ${limits.maxBytes}-byte cap.`,
        );
      }
      let bytes: Uint8Array;
      try {
        bytes = await readCapped(response.body, limits.maxBytes, url.href);
      } finally {
        response.discard();
      }
      return {
        status: "fetched",
        url: url.href,
        fileName: fileNameOf(url, response.header("content-disposition")),
        bytes,
        etag: response.header("etag")?.slice(0, 1000) ?? null,
        lastModified: response.header("last-modified")?.slice(0, 200) ?? null,
      };
    }
  } catch (error) {
    if (signal.aborted) {
      throw new UrlFetchError(
        `The URL did not answer within ${Math.round(limits.timeoutMs / 1000)} s.`,
      );
    }
    if (error instanceof UrlFetchError) throw error;
    throw new UrlFetchError(`Fetching the URL failed: ${(error as Error).message}`.slice(0, 500));
  }
}
