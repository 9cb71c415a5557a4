/**
 * Where and how a source's mail servers are reached, and with which credentials. The spec's one
 * "Use SSL" switch is mapped onto the usual ports (decided, docs/mail_ingestion.md): IMAP uses
 * implicit TLS except on 143 (STARTTLS); SMTP uses implicit TLS on 465 and STARTTLS elsewhere.
 * Without SSL nothing is encrypted (for a relay on a trusted network or the loopback test servers).
 */
import type { Config } from "../config.ts";
import type { MailAccount } from "./accounts.ts";
import { msalAccessToken } from "./msal.ts";
import type { SecretBinding } from "../secrets.ts";

/** How the connection is secured. */
export type TlsMode = "implicit" | "starttls" | "none";

/** One server of a source. */
export interface Endpoint {
  host: string;
  port: number;
  tls: TlsMode;
}

/** Microsoft 365's servers, used when an MSAL source leaves a server empty. */
export const MICROSOFT_IMAP = "outlook.office365.com";
export const MICROSOFT_SMTP = "smtp.office365.com";

type ServerFields = Pick<
  MailAccount,
  "incomingServer" | "incomingPort" | "outgoingServer" | "outgoingPort" | "ssl" | "isMsal"
>;

/** The IMAP server of a source; throws a readable error when none is set. */
export function imapEndpoint(account: ServerFields): Endpoint {
  const host = account.incomingServer.trim() || (account.isMsal ? MICROSOFT_IMAP : "");
  if (!host) throw new Error("The e-mail source has no incoming server.");
  const ssl = account.ssl || account.isMsal;
  const port = account.incomingPort ?? (ssl ? 993 : 143);
  return { host, port, tls: !ssl ? "none" : port === 143 ? "starttls" : "implicit" };
}

/** The SMTP server of a source; throws a readable error when none is set. */
export function smtpEndpoint(account: ServerFields): Endpoint {
  const host = account.outgoingServer.trim() || (account.isMsal ? MICROSOFT_SMTP : "");
  if (!host) throw new Error("The e-mail source has no outgoing server.");
  const ssl = account.ssl || account.isMsal;
  const port = account.outgoingPort ?? 587;
  return { host, port, tls: !ssl ? "none" : port === 465 ? "implicit" : "starttls" };
}

/** Login of a source: a password, or (MSAL) an access token for the mailbox's address. */
export type MailLogin =
  | { kind: "password"; user: string; pass: string }
  | { kind: "oauth2"; user: string; accessToken: string };

/** The login for a source's servers; an MSAL source fetches a token first. */
export async function mailLogin(config: Config, account: MailAccount): Promise<MailLogin> {
  if (!account.isMsal) return { kind: "password", user: account.username, pass: account.secret };
  const accessToken = await msalAccessToken(config, {
    tenantId: account.msalTenantId,
    clientId: account.msalClientId,
    clientSecret: account.secret,
  });
  // Exchange Online logs in the mailbox by its address; the username is that address too mostly.
  return { kind: "oauth2", user: account.email || account.username, accessToken };
}

/** What a source's secret is bound to, for `requireSecretForRebind` (api/secrets.ts). */
export function mailSecretBinding(
  account: ServerFields & Pick<MailAccount, "username" | "msalClientId" | "msalTenantId">,
): SecretBinding {
  const describe = (endpoint: () => Endpoint) => {
    try {
      const { host, port, tls } = endpoint();
      return `${host.toLowerCase()}:${port} ${tls}`;
    } catch {
      return "none";
    }
  };
  return {
    "incoming server": describe(() => imapEndpoint(account)),
    "outgoing server": describe(() => smtpEndpoint(account)),
    username: account.username.trim(),
    "Microsoft login": account.isMsal ? "on" : "off",
    "tenant ID": account.isMsal ? account.msalTenantId.trim() : "",
    "client ID": account.isMsal ? account.msalClientId.trim() : "",
  };
}

/**
 * Why a mail server refuses an application token that Microsoft issued: Exchange Online lets an
 * app registration into a mailbox only when it was granted that mailbox. Said for the staff member
 * who set the source up, naming what the Exchange administrator has to do.
 */
export function tokenRefusedHint(mailbox: string, permission: "IMAP" | "SMTP"): string {
  return `Microsoft 365 did not let the application into the mailbox ${mailbox}. The Exchange ` +
    `administrator must grant it (the app registration needs ${permission}.${
      permission === "IMAP" ? "AccessAsApp" : "SendAsApp"
    }, its service principal registered with New-ServicePrincipal and given the mailbox with ` +
    "Add-MailboxPermission), and the E-mail field must be that mailbox's address.";
}
