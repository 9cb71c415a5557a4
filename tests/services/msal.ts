/**
 * Microsoft 365 as the tests see it: app registrations in the login stand-in
 * (tests/services/msal_login.ts, started by up.sh) and the mailboxes each app may open on the test
 * Dovecot (what Exchange's `Add-MailboxPermission` grants). See docs/test_services.md.
 */
import type { AppRegistration } from "./msal_login.ts";
import { mailAddress, type UserRef } from "./mail_users.ts";
import { readCaPem, readServices, type ServicesInfo } from "./services_info.ts";

/** A registered app: what an MSAL e-mail source is configured with. */
export interface MsalApp {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** `MSAL_AUTHORITY_HOST` for the app under test. */
  authorityHost: string;
}

let client: Deno.HttpClient | undefined;

/**
 * The stand-in's part of env.json; an instance started by an older up.sh has none, and the
 * error says to restart it (the other tests keep working with such an instance).
 */
export function msalServices(info: ServicesInfo = readServices()): ServicesInfo["msal"] {
  if (!info.msal) {
    throw new Error(
      "The running test services predate the Microsoft login stand-in. Restart them: " +
        "`bash tests/services/down.sh && bash tests/services/up.sh`.",
    );
  }
  return info.msal;
}

/** `MSAL_AUTHORITY_HOST` for the app under test: the stand-in. */
export const msalAuthorityHost = (): string => msalServices().authorityHost;

async function standIn(path: string, init: RequestInit = {}, info = readServices()) {
  msalServices(info);
  client ??= Deno.createHttpClient({ caCerts: [readCaPem(info)] });
  const response = await fetch(`${info.msal.authorityHost}${path}`, { ...init, client });
  const body = await response.json();
  if (!response.ok && path.startsWith("/stand-in/")) {
    throw new Error(`the Microsoft login stand-in answered ${response.status}: ${body.message}`);
  }
  return { status: response.status, body };
}

/**
 * Registers an app in a tenant of the stand-in: fresh GUIDs for tenant and client and a fresh
 * secret unless given. `consented: false` makes token requests fail as without admin consent;
 * `tokenLifetimeSeconds` shortens the tokens' life (default 3599, like Microsoft's).
 */
export async function registerMsalApp(
  options: Partial<AppRegistration> = {},
): Promise<MsalApp> {
  const info = readServices();
  const app: AppRegistration = {
    tenantId: crypto.randomUUID(),
    clientId: crypto.randomUUID(),
    clientSecret: `Qx8~${crypto.randomUUID().replaceAll("-", "")}`,
    ...options,
  };
  await standIn("/stand-in/apps", { method: "POST", body: JSON.stringify(app) }, info);
  return {
    tenantId: app.tenantId,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    authorityHost: info.msal.authorityHost,
  };
}

/** Changes a registered app (e.g. grants consent later); the other fields stay. */
export async function updateMsalApp(
  app: MsalApp,
  changes: Partial<AppRegistration>,
): Promise<void> {
  const { authorityHost: _, ...registration } = app;
  await standIn("/stand-in/apps", {
    method: "POST",
    body: JSON.stringify({ ...registration, ...changes }),
  });
}

/** How many token requests the stand-in got for this client id, answered or refused. */
export async function msalTokenRequests(clientId: string): Promise<number> {
  return (await standIn(`/stand-in/apps/${encodeURIComponent(clientId)}`)).body.tokenRequests;
}

/** A token by client credentials straight from the stand-in (not through the app). */
export async function msalToken(app: MsalApp): Promise<string> {
  const { status, body } = await standIn(
    `/${encodeURIComponent(app.tenantId)}/oauth2/v2.0/token`,
    {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: app.clientId,
        client_secret: app.clientSecret,
        scope: "https://outlook.office365.com/.default",
      }),
    },
  );
  if (status !== 200) throw new Error(`no token: ${body.error_description}`);
  return body.access_token;
}

function grantPath(info: ServicesInfo, clientId: string, user: UserRef) {
  if (!/^[A-Za-z0-9-]+$/.test(clientId)) throw new Error(`not a client id: ${clientId}`);
  const address = mailAddress(typeof user === "string" ? user : user.address, info);
  return { dir: `${msalServices(info).grantsDir}/${clientId}`, address };
}

/**
 * Lets the app open the mailbox with its tokens (IMAP and SMTP), like
 * `Add-MailboxPermission -User <service principal> -AccessRights FullAccess` in Exchange Online.
 * Takes effect at once: Dovecot opens a new file on the next login.
 */
export function grantMailbox(app: MsalApp | string, user: UserRef): void {
  const info = readServices();
  const { dir, address } = grantPath(info, typeof app === "string" ? app : app.clientId, user);
  const { gid } = Deno.statSync(msalServices(info).grantsDir);
  Deno.mkdirSync(dir, { recursive: true, mode: 0o750 });
  // Dovecot's auth process runs unprivileged and reads through the directory's group.
  Deno.chownSync(dir, 0, gid);
  Deno.chmodSync(dir, 0o750);
  Deno.writeTextFileSync(`${dir}/${address}.new`, `${address}:::::::nopassword=y\n`, {
    mode: 0o640,
  });
  Deno.chownSync(`${dir}/${address}.new`, 0, gid);
  Deno.renameSync(`${dir}/${address}.new`, `${dir}/${address}`);
}

/** Takes the mailbox away from the app again (`Remove-MailboxPermission`). */
export function revokeMailbox(app: MsalApp | string, user: UserRef): void {
  const info = readServices();
  const { dir, address } = grantPath(info, typeof app === "string" ? app : app.clientId, user);
  Deno.removeSync(`${dir}/${address}`);
}
