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

function fetchNetwork(config: Config, client: Deno.HttpClient | undefined): INetworkModule {
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

// One application per registration and secret: MSAL caches its tokens until shortly before expiry.
const apps = new Map<string, Promise<ConfidentialClientApplication>>();

async function application(
  config: Config,
  credentials: MsalCredentials,
): Promise<ConfidentialClientApplication> {
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
      return new ConfidentialClientApplication({
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
          ),
          loggerOptions: { loggerCallback: () => {}, piiLoggingEnabled: false },
        },
      });
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
  try {
    const app = await application(config, credentials);
    result = await app.acquireTokenByClientCredential({ scopes });
  } catch (error) {
    if (error instanceof OutboundRefused) console.warn(`MSAL: ${error.message}`);
    const detail = error instanceof OutboundRefused
      ? error.publicMessage
      : error instanceof Error
      ? error.message.split("\n")[0]
      : String(error);
    throw new Error(`Could not get a Microsoft access token: ${detail}`.replaceAll(
      credentials.clientSecret,
      "********",
    ));
  }
  if (!result?.accessToken) throw new Error("Microsoft returned no access token.");
  return result.accessToken;
}
