/**
 * System mail (password reset, notifications) through the SMTP server of the configuration.
 */
import nodemailer from "nodemailer";
import type { Buffer } from "node:buffer";
import type { Config } from "../config.ts";

/** One message from the system. */
export interface SystemMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text` (notifications). */
  html?: string;
  /** Files to attach (the inventory feed's generated file). */
  attachments?: { filename: string; content: Buffer }[];
}

/** Sends system mail; `configured` is false when no SMTP server is set. */
export interface SystemMailer {
  configured: boolean;
  send(message: SystemMessage): Promise<void>;
}

/**
 * A mailer over the `SMTP_*` settings. Without `SMTP_HOST` sending fails with a clear error, so a
 * caller can tell the user that mail is not set up.
 */
export async function systemMailer(config: Config): Promise<SystemMailer> {
  if (!config.SMTP_HOST) {
    return {
      configured: false,
      send: () => Promise.reject(new Error("System mail is not configured (SMTP_HOST is unset).")),
    };
  }
  const ca = config.SMTP_CA_FILE ? await Deno.readTextFile(config.SMTP_CA_FILE) : undefined;
  const transport = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURITY === "tls",
    requireTLS: config.SMTP_SECURITY === "starttls",
    ignoreTLS: config.SMTP_SECURITY === "none",
    auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD } : undefined,
    tls: ca ? { ca } : undefined,
    connectionTimeout: 15_000,
  });
  const from = config.SMTP_FROM ?? config.SMTP_USER ?? "no-reply@localhost";
  return {
    configured: true,
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}
