/** Sending test mail through the test Postfix with nodemailer. */
// @ts-types="@types/nodemailer"
import nodemailer from "nodemailer";
import { resolveMailUser, type UserRef } from "./mail_users.ts";
import { readCaPem, readServices } from "./services_info.ts";

/** What Postfix answered to one message. */
export interface SentMail {
  messageId: string;
  /** Envelope recipients Postfix accepted. */
  accepted: string[];
  rejected: string[];
  /** Postfix's final reply, e.g. `250 2.0.0 Ok: queued as …`. */
  response: string;
}

/** Options for {@link sendMail}. */
export interface SendMailOptions {
  /**
   * Send over the submission port (STARTTLS required, SMTP AUTH as this user) instead of the
   * plain SMTP port, which accepts mail from loopback without authentication.
   */
  authAs?: UserRef;
}

/**
 * Builds a nodemailer transport for the test Postfix. TLS trusts the test CA with verification
 * on; with `authAs` it uses the submission port and requires STARTTLS and SMTP AUTH.
 */
export function smtpTransport(options: SendMailOptions = {}): nodemailer.Transporter {
  const info = readServices();
  const tls = { ca: readCaPem(info), servername: "localhost" };
  if (options.authAs === undefined) {
    return nodemailer.createTransport({
      host: info.host,
      port: info.ports.smtp,
      secure: false,
      tls,
    });
  }
  const { address, password } = resolveMailUser(options.authAs, info);
  return nodemailer.createTransport({
    host: info.host,
    port: info.ports.submission,
    secure: false,
    requireTLS: true,
    auth: { user: address, pass: password },
    tls,
  });
}

/**
 * Sends one message through the test Postfix and returns nodemailer's result. Recipients in the
 * test domain land in their own mailbox; all others land in the outbound catch-all mailbox.
 */
export async function sendMail(
  message: nodemailer.SendMailOptions,
  options: SendMailOptions = {},
): Promise<SentMail> {
  const transport = smtpTransport(options);
  try {
    const sent = await transport.sendMail(message);
    const address = (a: string | { address: string }) => typeof a === "string" ? a : a.address;
    return {
      messageId: sent.messageId,
      accepted: sent.accepted.map(address),
      rejected: sent.rejected.map(address),
      response: sent.response,
    };
  } finally {
    transport.close();
  }
}
