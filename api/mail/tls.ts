/**
 * Extra certificate authorities trusted for mailbox servers and the Microsoft login endpoint
 * (`MAIL_CA_FILE`), on top of the system's roots: a company CA, or the test servers' CA.
 */
import { rootCertificates } from "node:tls";
import type { Config } from "../config.ts";

const cache = new Map<string, Promise<string>>();

/** The PEM text of `MAIL_CA_FILE`, or undefined when unset; read once per file. */
export function extraCaPem(config: Config): Promise<string | undefined> {
  const path = config.MAIL_CA_FILE;
  if (!path) return Promise.resolve(undefined);
  let pem = cache.get(path);
  if (!pem) {
    pem = Deno.readTextFile(path).catch((error) => {
      cache.delete(path);
      throw new Error(`MAIL_CA_FILE ${path} cannot be read: ${error.message}`);
    });
    cache.set(path, pem);
  }
  return pem;
}

/**
 * The `ca` option for node TLS clients (imapflow, nodemailer): undefined keeps Node's defaults;
 * with an extra CA, the system roots are listed too, since `ca` replaces them.
 */
export async function tlsCaOption(config: Config): Promise<string[] | undefined> {
  const extra = await extraCaPem(config);
  return extra ? [...rootCertificates, extra] : undefined;
}

/** The TLS server name for SNI: a host name, never an IP address (which TLS forbids there). */
export function serverName(host: string): string | undefined {
  return /^[\d.]+$/.test(host) || host.includes(":") ? undefined : host;
}

/** A hint when TLS met a server that speaks plain text on that port (the SSL switch is wrong). */
export function tlsMismatchHint(message: string): string | null {
  return /wrong version number|ssl3_get_record|InvalidContentType|packet length too long/i.test(
      message,
    )
    ? "the server did not answer with TLS on that port (check the port and the Use SSL switch)"
    : null;
}
