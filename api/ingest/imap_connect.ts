/** Opens an IMAP session to a source's incoming server (password login, or XOAUTH2 for MSAL). */
import { ImapFlow } from "imapflow";
import type { Config } from "../config.ts";
import type { MailAccount } from "../mail/accounts.ts";
import { imapEndpoint, mailLogin, tokenRefusedHint } from "../mail/endpoints.ts";
import { tlsCaOption, tlsMismatchHint } from "../mail/tls.ts";
import { OutboundRefused, resolveOutbound } from "../net/outbound.ts";

/** Options of {@link connectImap}. */
export interface ConnectOptions {
  /** A listener's IDLE is ended and restarted after this many ms (keeps the session alive). */
  maxIdleTime?: number;
}

/**
 * Connects and logs in; a failure says which server and why, never the secret.
 *
 * @example
 * ```ts ignore
 * const client = await connectImap(config, account);
 * try { await client.mailboxOpen("INBOX"); } finally { await client.logout(); }
 * ```
 */
export async function connectImap(
  config: Config,
  account: MailAccount,
  options: ConnectOptions = {},
): Promise<ImapFlow> {
  const endpoint = imapEndpoint(account);
  const where = `${endpoint.host}:${endpoint.port}`;
  // The policy first: a refused address gets no connection, and no token is fetched for it.
  const target = await resolveOutbound(config, endpoint.host, endpoint.port, "the incoming server")
    .catch((error) => {
      throw new Error(describeImapError(error, where, account.secret));
    });
  const login = await mailLogin(config, account);
  const client = new ImapFlow({
    // The checked address, so DNS cannot answer differently at connect time; the name for TLS.
    host: target.address,
    servername: target.servername,
    port: endpoint.port,
    secure: endpoint.tls === "implicit",
    doSTARTTLS: endpoint.tls === "starttls" ? true : endpoint.tls === "none" ? false : undefined,
    auth: login.kind === "password"
      ? { user: login.user, pass: login.pass }
      : { user: login.user, accessToken: login.accessToken },
    tls: { ca: await tlsCaOption(config), servername: target.servername },
    logger: false,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 5 * 60_000,
    // The poll reads each mailbox in one pass; there is nothing to wait for in between. The
    // listener calls idle() itself.
    disableAutoIdle: true,
    ...(options.maxIdleTime && { maxIdleTime: options.maxIdleTime }),
  });
  // Without a listener a socket error is an unhandled 'error' event and ends the process; the
  // pending command fails anyway, and the poll reconnects.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    client.close();
    throw new Error(
      describeImapError(error, where, account.secret, login.kind === "oauth2" ? login.user : ""),
    );
  }
  return client;
}

/**
 * A readable reason for a failed IMAP connection or login (`tokenUser`: the mailbox a Microsoft
 * token was refused for). Whether the address was refused by the
 * outbound policy, refused the connection, timed out or did not greet is not told apart (that
 * would map the network for whoever edits a source); the detail goes to the server log.
 */
export function describeImapError(
  error: unknown,
  where: string,
  secret = "",
  tokenUser = "",
): string {
  const e = error as {
    authenticationFailed?: boolean;
    code?: string;
    message?: string;
    responseText?: string;
  };
  let text: string;
  if (error instanceof OutboundRefused) {
    console.warn(`IMAP ${where}: ${error.message}`);
    text = `Could not connect to the incoming server ${where}.`;
  } else if (e.authenticationFailed && tokenUser) {
    text = `The incoming server ${where} refused the login: ${tokenRefusedHint(tokenUser, "IMAP")}`;
  } else if (e.authenticationFailed) {
    text = `The incoming server ${where} refused the login${
      e.responseText ? `: ${e.responseText}` : "."
    }`;
  } else if (/unsupported authentication mechanism/i.test(e.message ?? "")) {
    text = `The incoming server ${where} refused the login: it does not offer this ` +
      "authentication method (XOAUTH2 for Microsoft accounts, a password otherwise).";
  } else if (tlsMismatchHint(e.message ?? "")) {
    text = `The incoming server ${where} failed: ${tlsMismatchHint(e.message ?? "")}.`;
  } else if (e.code || /greeting|timeout|timed out|closed|socket|connect/i.test(e.message ?? "")) {
    console.warn(mask(`IMAP ${where}: ${e.code ?? ""} ${e.message ?? ""}`, secret));
    text = `Could not connect to the incoming server ${where}.`;
  } else {
    text = `The incoming server ${where} failed: ${e.responseText ?? e.message ?? String(error)}`;
  }
  return mask(text, secret);
}

const mask = (text: string, secret: string) => secret ? text.replaceAll(secret, "********") : text;
