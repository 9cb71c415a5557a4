/**
 * Access tokens for Microsoft 365 mailboxes (IMAP and SMTP with XOAUTH2), by the client
 * credentials grant of @azure/msal-node. The authority host is `MSAL_AUTHORITY_HOST`, so tests
 * point it at a local token endpoint; MSAL's HTTP goes through fetch here so that endpoint can be
 * trusted through `MAIL_CA_FILE`.
 */
import {
  ConfidentialClientApplication,
  type INetworkModule,
  type NetworkRequestOptions,
  type NetworkResponse,
} from "@azure/msal-node";
import type { Config } from "../config.ts";
import { extraCaPem } from "./tls.ts";
import { checkOutboundUrl, OutboundRefused } from "../net/outbound.ts";

/** The scope that grants IMAP and SMTP access to Exchange Online for an app registration. */
export const OUTLOOK_SCOPE = "https://outlook.office365.com/.default";

/** What a token request needs from a source. */
export interface MsalCredentials {
  tenantId: string;
  clientId: string;
  clientSecret: string;
}

const TIMEOUT_MS = 15_000;

/** Microsoft's answer to a refused request: `error`, and `AADSTS<code>: text` in the description. */
export interface AadError {
  error: string;
  code: number | null;
  description: string;
}

/**
 * The last error answer Microsoft sent for one registration. msal-node drops the body of a failed
 * OpenID discovery (an unknown tenant) and reports only "could not resolve endpoints", so the
 * network module keeps it for `describeMsalFailure`.
 */
interface ErrorHolder {
  last: AadError | null;
}

function aadError(body: unknown): AadError | null {
  const b = body as { error?: unknown; error_description?: unknown; error_codes?: unknown };
  if (typeof b?.error !== "string") return null;
  const description = typeof b.error_description === "string" ? b.error_description : "";
  const code = Array.isArray(b.error_codes) && typeof b.error_codes[0] === "number"
    ? b.error_codes[0]
    : Number(/AADSTS(\d+)/.exec(description)?.[1] ?? NaN);
  return { error: b.error, code: Number.isFinite(code) ? code : null, description };
}

function fetchNetwork(
  config: Config,
  client: Deno.HttpClient | undefined,
  errors: ErrorHolder,
): INetworkModule {
  const send = async <T>(
    method: "GET" | "POST",
    url: string,
    options?: NetworkRequestOptions,
  ): Promise<NetworkResponse<T>> => {
    // Every request MSAL makes (metadata, then the token endpoint the metadata names) passes the
    // outbound policy.
    await checkOutboundUrl(config, url, "the Microsoft login endpoint");
    const response = await fetch(url, {
      method,
      headers: options?.headers,
      body: method === "POST" ? options?.body : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      client,
    });
    const text = await response.text();
    let body: unknown = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = { error: "invalid_response", error_description: text.slice(0, 200) };
    }
    if (!response.ok) errors.last = aadError(body) ?? errors.last;
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: body as T,
    };
  };
  return {
    sendGetRequestAsync: (url, options) => send("GET", url, options),
    sendPostRequestAsync: (url, options) => send("POST", url, options),
  };
}

interface Application {
  app: ConfidentialClientApplication;
  errors: ErrorHolder;
}

// One application per registration and secret: MSAL caches its tokens until shortly before expiry.
const apps = new Map<string, Promise<Application>>();

async function application(
  config: Config,
  credentials: MsalCredentials,
): Promise<Application> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(
      [
        config.MSAL_AUTHORITY_HOST,
        credentials.tenantId,
        credentials.clientId,
        credentials.clientSecret,
      ]
        .join("\n"),
    ),
  );
  const key = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  let app = apps.get(key);
  if (!app) {
    app = (async () => {
      const ca = await extraCaPem(config);
      const host = new URL(config.MSAL_AUTHORITY_HOST);
      const errors: ErrorHolder = { last: null };
      const app = new ConfidentialClientApplication({
        auth: {
          clientId: credentials.clientId,
          clientSecret: credentials.clientSecret,
          authority: new URL(encodeURIComponent(credentials.tenantId), host).href,
          // A host other than Microsoft's (a sovereign cloud, the tests' endpoint) is trusted as
          // given rather than checked against Microsoft's instance discovery.
          knownAuthorities: [host.host],
        },
        system: {
          networkClient: fetchNetwork(
            config,
            ca ? Deno.createHttpClient({ caCerts: [ca] }) : undefined,
            errors,
          ),
          loggerOptions: { loggerCallback: () => {}, piiLoggingEnabled: false },
        },
      });
      return { app, errors };
    })();
    apps.set(key, app);
  }
  return await app;
}

/**
 * A bearer token for the app registration of a source, by client credentials.
 * Errors name the failing step and never contain the secret.
 *
 * @example
 * ```ts ignore
 * const token = await msalAccessToken(config, { tenantId, clientId, clientSecret });
 * ```
 */
export async function msalAccessToken(
  config: Config,
  credentials: MsalCredentials,
  scopes: string[] = [OUTLOOK_SCOPE],
): Promise<string> {
  const missing = [
    ["Client ID", credentials.clientId],
    ["Tenant ID", credentials.tenantId],
    ["Client Secret", credentials.clientSecret],
  ].filter(([, value]) => !value.trim()).map(([name]) => name);
  if (missing.length) {
    throw new Error(`Microsoft authentication needs the ${missing.join(", ")} of the source.`);
  }
  let result;
  let errors: ErrorHolder = { last: null };
  try {
    const entry = await application(config, credentials);
    errors = entry.errors;
    errors.last = null;
    result = await entry.app.acquireTokenByClientCredential({ scopes });
  } catch (error) {
    if (error instanceof OutboundRefused) console.warn(`MSAL: ${error.message}`);
    const detail = error instanceof OutboundRefused
      ? error.publicMessage
      : describeMsalFailure(errors.last, credentials) ??
        (error instanceof Error ? error.message.split("\n")[0] : String(error));
    throw new Error(`Could not get a Microsoft access token: ${detail}`.replaceAll(
      credentials.clientSecret,
      "********",
    ));
  }
  if (!result?.accessToken) throw new Error("Microsoft returned no access token.");
  return result.accessToken;
}

/**
 * What a staff member can do about Microsoft's refusal, for the errors a misconfigured app
 * registration produces (AADSTS codes as Microsoft sends them); `null` for others, which are shown
 * with Microsoft's own first sentence.
 */
export function describeMsalFailure(
  failure: AadError | null,
  credentials: Pick<MsalCredentials, "tenantId" | "clientId">,
): string | null {
  if (!failure) return null;
  const tenant = credentials.tenantId.trim();
  const client = credentials.clientId.trim();
  switch (failure.code) {
    case 7000215:
      return "Microsoft refused the client secret. Enter the secret's Value (not its Secret ID) " +
        `from "Certificates & secrets" of the app registration ${client} in Microsoft Entra ID.`;
    case 7000222:
      return `The client secret of the app registration ${client} has expired. Create a new one ` +
        'under "Certificates & secrets" in Microsoft Entra ID and enter its Value here.';
    case 90002:
    case 900023:
      return `Microsoft does not know the tenant "${tenant}". Enter the Directory (tenant) ID ` +
        "from the Overview page of the app registration in Microsoft Entra ID.";
    case 700016:
      return `Microsoft does not know the application "${client}" in the tenant "${tenant}". ` +
        "Enter the Application (client) ID from the Overview page of the app registration, and " +
        "check the Tenant ID.";
    case 65001:
      return "The tenant's administrator has not consented to the application's permissions. " +
        'An administrator must open the app registration in Microsoft Entra ID, "API permissions", ' +
        'and choose "Grant admin consent" for IMAP.AccessAsApp and SMTP.SendAsApp.';
    case 500011:
      return "The tenant has no Exchange Online: Microsoft does not know the resource " +
        "https://outlook.office365.com in it.";
  }
  if (failure.error === "invalid_tenant") {
    return describeMsalFailure({ ...failure, code: 90002 }, credentials);
  }
  // Microsoft's first sentence; its trace and correlation ids help nobody at the counter.
  const sentence = failure.description.replace(/\s*Trace ID:[\s\S]*$/, "").split(/\r?\n/)[0];
  return sentence ? `Microsoft answered: ${sentence}` : null;
}
