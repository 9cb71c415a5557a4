/**
 * Downloading the order file behind a link (`noAttachmentsNeedsLinkClick`): http(s) only, a
 * time-out, the size cap of files from mailboxes, redirects followed by hand with every hop
 * checked against the outbound policy (`api/net/outbound.ts`, `OUTBOUND_ALLOW`) again.
 */
import { checkOutboundUrl, OutboundRefused } from "../../net/outbound.ts";

/** A download refused or failed; the message is safe to show on the run. */
export class DownloadRefused extends Error {}

/** Limits of one download. */
export interface DownloadLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** The configuration's `OUTBOUND_ALLOW`. */
  outboundAllow?: string;
}

/** A downloaded file. */
export interface DownloadedFile {
  url: string;
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** The file name of a download: Content-Disposition's, else the URL path's last part. */
function fileNameOf(url: URL, disposition: string | null): string {
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition ?? "");
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ""));
    } catch { /* fall through */ }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition ?? "");
  if (plain) return plain[1].trim();
  const last = decodeURIComponent(url.pathname.split("/").pop() ?? "");
  return last || "download";
}

/**
 * Downloads `link` within `limits`.
 *
 * @throws {DownloadRefused} for a refused scheme or address, a time-out, too many redirects,
 *   an error status or a file over the cap
 */
export async function downloadLink(link: string, limits: DownloadLimits): Promise<DownloadedFile> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = new URL(link);
  try {
    for (let hop = 0;; hop++) {
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new DownloadRefused(`Only http and https links are downloaded (${url.protocol}).`);
      }
      if (url.username || url.password) {
        throw new DownloadRefused("Links with a user name or password are not downloaded.");
      }
      try {
        await checkOutboundUrl(
          { OUTBOUND_ALLOW: limits.outboundAllow },
          url.href,
          "the download link",
        );
      } catch (error) {
        if (!(error instanceof OutboundRefused)) throw error;
        // The policy's public wording: refused and unreachable look alike (docs/outbound.md).
        throw new DownloadRefused(error.publicMessage);
      }
      const response = await fetch(url, { redirect: "manual", signal });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        const location = response.headers.get("location");
        if (!location) throw new DownloadRefused(`The link answered ${response.status}.`);
        if (hop >= limits.maxRedirects) {
          throw new DownloadRefused(`The link redirected more than ${limits.maxRedirects} times.`);
        }
        url = new URL(location, url);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new DownloadRefused(`The link answered ${response.status} ${response.statusText}.`);
      }
      const declared = Number(response.headers.get("content-length") ?? "0");
      if (declared > limits.maxBytes) {
        await response.body?.cancel();
        throw new DownloadRefused(
          `The linked file is ${declared} bytes, over the limit of ${limits.maxBytes}.`,
        );
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of response.body ?? new ReadableStream<Uint8Array>()) {
        size += chunk.length;
        if (size > limits.maxBytes) {
          throw new DownloadRefused(
            `The linked file is over the limit of ${limits.maxBytes} bytes.`,
          );
        }
        chunks.push(chunk);
      }
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        bytes.set(c, at);
        at += c.length;
      }
      return {
        url: url.href,
        fileName: fileNameOf(url, response.headers.get("content-disposition")),
        contentType: response.headers.get("content-type") ?? "",
        bytes,
      };
    }
  } catch (error) {
    if (error instanceof DownloadRefused) throw error;
    if (signal.aborted) {
      throw new DownloadRefused(`The download timed out after ${limits.timeoutMs} ms.`);
    }
    throw new DownloadRefused(`The download failed: ${(error as Error).message}`);
  }
}
