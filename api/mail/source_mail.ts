/**
 * Sending through an e-mail source's own outgoing server (test e-mail, inventory files, vendor
 * submissions), with a password or, for Microsoft 365, XOAUTH2.
 */
// @ts-types="@types/nodemailer"
import nodemailer from "nodemailer";
import { Buffer } from "node:buffer";
import type { Config } from "../config.ts";
import type { MailAccount } from "./accounts.ts";
import { mailLogin, smtpEndpoint, tokenRefusedHint } from "./endpoints.ts";
import { tlsCaOption, tlsMismatchHint } from "./tls.ts";
import { OutboundRefused, resolveOutbound } from "../net/outbound.ts";

/** One attachment. */
export interface OutgoingAttachment {
  filename: string;
  content: Uint8Array;
  contentType?: string;
}

/** A message sent from a source; the sender is the source's e-mail address. */
export interface SourceMessage {
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: OutgoingAttachment[];
  /** A fixed Message-ID (`<id@domain>`), e.g. derived from an outbox key; default: generated. */
  messageId?: string;
}

/** What the server accepted. */
export interface SentResult {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

const address = (a: string | { address: string }) => typeof a === "string" ? a : a.address;

/**
 * Sends `message` through the source's outgoing server. Errors carry the server's reason
 * (unreachable, refused login) and never the secret.
 *
 * @example
 * ```ts ignore
 * await sendFromSource(config, account, { to: "a@b.c", subject: "Hi", text: "Hello" });
 * ```
 */
export async function sendFromSource(
  config: Config,
  account: MailAccount,
  message: SourceMessage,
): Promise<SentResult> {
  const endpoint = smtpEndpoint(account);
  // The policy first: a refused address gets no connection, and no token is fetched for it.
  const target = await resolveOutbound(config, endpoint.host, endpoint.port, "the outgoing server")
    .catch((error) => {
      throw new Error(describeSendError(error, endpoint.host, endpoint.port, account.secret));
    });
  const login = account.isMsal || account.secret ? await mailLogin(config, account) : null;
  const transport = nodemailer.createTransport({
    // The checked address, so DNS cannot answer differently at connect time; the name for TLS.
    host: target.address,
    port: endpoint.port,
    secure: endpoint.tls === "implicit",
    requireTLS: endpoint.tls === "starttls",
    ignoreTLS: endpoint.tls === "none",
    auth: !login
      ? undefined
      : login.kind === "password"
      ? { user: login.user, pass: login.pass }
      : { type: "OAuth2", user: login.user, accessToken: login.accessToken },
    tls: { ca: await tlsCaOption(config), servername: target.servername },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  try {
    const sent = await transport.sendMail({
      from: account.email,
      to: message.to,
      cc: message.cc,
      bcc: message.bcc,
      subject: message.subject,
      messageId: message.messageId,
      text: message.text,
      html: message.html,
      attachments: message.attachments?.map((a) => ({
        filename: a.filename,
        content: Buffer.from(a.content),
        contentType: a.contentType,
      })),
    });
    return {
      messageId: sent.messageId,
      accepted: sent.accepted.map(address),
      rejected: sent.rejected.map(address),
    };
  } catch (error) {
    throw new Error(
      describeSendError(
        error,
        endpoint.host,
        endpoint.port,
        account.secret,
        login?.kind === "oauth2" ? login.user : "",
      ),
    );
  } finally {
    transport.close();
  }
}

/**
 * A readable reason for a failed send. A refused address, a refused connection, a time-out and a
 * missing greeting read the same (telling them apart would map the network); the detail goes to
 * the server log.
 */
function describeSendError(
  error: unknown,
  host: string,
  port: number,
  secret: string,
  tokenUser = "",
): string {
  const e = error as { code?: string; message?: string; response?: string };
  const where = `${host}:${port}`;
  const mask = (text: string) => secret ? text.replaceAll(secret, "********") : text;
  let text: string;
  if (error instanceof OutboundRefused) {
    console.warn(`SMTP ${where}: ${error.message}`);
    text = `Could not connect to the outgoing server ${where}.`;
  } else if (tlsMismatchHint(e.message ?? "")) {
    text = `Sending through ${where} failed: ${tlsMismatchHint(e.message ?? "")}.`;
  } else if (
    e.code === "ECONNECTION" || e.code === "ETIMEDOUT" || e.code === "ESOCKET" ||
    e.code === "EDNS" || e.code === "EGREETING"
  ) {
    console.warn(mask(`SMTP ${where}: ${e.code} ${e.message ?? ""}`));
    text = `Could not connect to the outgoing server ${where}.`;
  } else if (e.code === "EAUTH" && tokenUser) {
    text = `The outgoing server ${where} refused the login: ${tokenRefusedHint(tokenUser, "SMTP")}`;
  } else if (e.code === "EAUTH") {
    text = `The outgoing server ${where} refused the login: ${e.response ?? e.message}`;
  } else if (e.code === "EENVELOPE") {
    text = `The outgoing server ${where} refused the recipients: ${e.response ?? e.message}`;
  } else {
    text = `Sending through ${where} failed: ${e.message ?? String(error)}`;
  }
  return mask(text);
}
