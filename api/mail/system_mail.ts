/**
 * System mail (password reset, notifications) through the SMTP server of the configuration.
 */
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";
import type { SystemMailer, SystemMessage } from "../deps.ts";

export type { SystemMailer, SystemMessage };

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
