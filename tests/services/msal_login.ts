/**
 * The stand-in for Microsoft's identity platform (login.microsoftonline.com) that the test
 * services run next to Dovecot and Postfix: the only mocked service in the suite
 * (docs/test_services.md, "Microsoft login stand-in"). It answers where the app and msal-node
 * touch Microsoft, the way Microsoft answers:
 *
 * - `GET /common/discovery/instance?api-version=1.1&authorization_endpoint=…` (instance metadata),
 * - `GET /{tenant}/v2.0/.well-known/openid-configuration` (OpenID discovery; an unknown tenant
 *   gets AADSTS90002 as Microsoft sends it),
 * - `POST /{tenant}/oauth2/v2.0/token` with `grant_type=client_credentials` and a `/.default`
 *   scope: a bearer token with `expires_in`, or Microsoft's error answers (AADSTS codes).
 *
 * Exchange Online checks the token itself; the test Dovecot asks `POST /exchange/introspect`
 * (RFC 7662 form `token=…`) instead, which says whether the token is live and for which app.
 * Which mailbox an app may open is Exchange's `Add-MailboxPermission`; in the tests that is a file
 * Dovecot reads (`grantMailbox` in msal.ts), not state of this server.
 *
 * Tests register app registrations at run time with `POST /stand-in/apps` (msal.ts), each with
 * unique ids, so parallel tests never share one.
 *
 * Run by tests/services/up.sh: `deno run --allow-net --allow-read msal_login.ts <port> <cert> <key>`.
 */

/** An app registration in a tenant, as a test registers it. */
export interface AppRegistration {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** Whether the tenant's administrator granted consent to the app's permissions (default yes). */
  consented?: boolean;
  /** Lifetime of the tokens issued (`expires_in`), seconds; Microsoft's is about an hour. */
  tokenLifetimeSeconds?: number;
  /** The tenant's mail domain: tokens are good only for mailboxes of it (default test.local). */
  domain?: string;
  /** Display name (Microsoft quotes it in consent errors). */
  name?: string;
}

interface Issued {
  clientId: string;
  tenantId: string;
  domain: string;
  expiresAt: number;
}

/** What the server keeps; exported so a test can run the handler in-process. */
export interface StandInState {
  apps: Map<string, AppRegistration>;
  tokens: Map<string, Issued>;
  /** Token requests per client id, answered or refused. */
  tokenRequests: Map<string, number>;
}

/** A fresh, empty state. */
export function newState(): StandInState {
  return { apps: new Map(), tokens: new Map(), tokenRequests: new Map() };
}

const OUTLOOK_RESOURCE = "https://outlook.office365.com";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Microsoft's error body: error, description with trace lines, codes, ids, error_uri. */
function aadError(status: number, error: string, code: number, text: string, extra = {}) {
  const trace = crypto.randomUUID();
  const correlation = crypto.randomUUID();
  const timestamp = new Date().toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
  return Response.json({
    error,
    error_description: `AADSTS${code}: ${text} Trace ID: ${trace} Correlation ID: ${correlation}` +
      ` Timestamp: ${timestamp}`,
    error_codes: [code],
    timestamp,
    trace_id: trace,
    correlation_id: correlation,
    error_uri: `https://login.microsoftonline.com/error?code=${code}`,
    ...extra,
  }, { status });
}

const tenantNotFound = (status: number, error: string, tenant: string) =>
  aadError(
    status,
    error,
    90002,
    `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are ` +
      "signing into the correct cloud. Check with your subscription administrator, this may " +
      "happen if there are no active subscriptions for the tenant.",
  );

function tenantKnown(state: StandInState, tenant: string): boolean {
  for (const app of state.apps.values()) if (app.tenantId === tenant) return true;
  return false;
}

function tokenAnswer(state: StandInState, tenant: string, form: URLSearchParams): Response {
  const clientId = form.get("client_id") ?? "";
  state.tokenRequests.set(clientId, (state.tokenRequests.get(clientId) ?? 0) + 1);
  if (form.get("grant_type") !== "client_credentials") {
    return aadError(
      400,
      "unsupported_grant_type",
      70003,
      "The app requested an unsupported grant type.",
    );
  }
  if (!tenantKnown(state, tenant)) {
    if (!GUID.test(tenant) && !tenant.includes(".")) {
      return aadError(
        400,
        "invalid_request",
        900023,
        `Specified tenant identifier '${tenant}' is neither a valid DNS name, nor a valid external domain.`,
      );
    }
    return tenantNotFound(400, "invalid_request", tenant);
  }
  const app = state.apps.get(clientId);
  if (!app || app.tenantId !== tenant) {
    return aadError(
      400,
      "unauthorized_client",
      700016,
      `Application with identifier '${clientId}' was not found in the directory '${tenant}'. ` +
        "This can happen if the application has not been installed by the administrator of the " +
        "tenant or consented to by any user in the tenant. You may have sent your authentication " +
        "request to the wrong tenant.",
    );
  }
  if (form.get("client_secret") !== app.clientSecret) {
    return aadError(
      401,
      "invalid_client",
      7000215,
      "Invalid client secret provided. Ensure the secret being sent in the request is the client " +
        `secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
    );
  }
  const scopes = (form.get("scope") ?? "").split(" ").filter((s) => s);
  const resource = scopes.find((s) => s.endsWith("/.default"));
  if (!resource) {
    return aadError(
      400,
      "invalid_scope",
      1002012,
      `The provided value for scope ${scopes.join(" ")} is not valid. Client credential flows ` +
        "must have a scope value with /.default suffixed to the resource identifier " +
        "(application ID URI).",
    );
  }
  if (resource !== `${OUTLOOK_RESOURCE}/.default`) {
    return aadError(
      400,
      "invalid_resource",
      500011,
      `The resource principal named ${resource.slice(0, -"/.default".length)} was not found in ` +
        `the tenant named ${tenant}. This can happen if the application has not been installed ` +
        "by the administrator of the tenant or consented to by any user in the tenant.",
    );
  }
  if (app.consented === false) {
    return aadError(
      400,
      "invalid_grant",
      65001,
      `The user or administrator has not consented to use the application with ID '${clientId}'` +
        ` named '${app.name ?? clientId}'. Send an interactive authorization request for this ` +
        "user and resource.",
      { suberror: "consent_required" },
    );
  }
  const lifetime = app.tokenLifetimeSeconds ?? 3599;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = "eyJ0eXAiOiJKV1Qi." + btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, "");
  state.tokens.set(token, {
    clientId,
    tenantId: tenant,
    domain: app.domain ?? "test.local",
    expiresAt: Date.now() + lifetime * 1000,
  });
  return Response.json({
    token_type: "Bearer",
    expires_in: lifetime,
    ext_expires_in: lifetime,
    access_token: token,
  });
}

/** Exchange's side: is the token live, and for which app and tenant domain (for Dovecot). */
function introspect(state: StandInState, token: string): Response {
  const issued = state.tokens.get(token);
  const live = !!issued && issued.expiresAt > Date.now();
  if (issued && !live) state.tokens.delete(token);
  // Dovecot compares the domain of `tenant_user` with the login's (`username_format = %d`) and
  // needs it even for a dead token, or it reports an internal failure instead of a refusal.
  return Response.json({
    active: live ? "true" : "false",
    tenant_user: `app@${live ? issued.domain : "invalid.invalid"}`,
    appid: live ? issued.clientId : "",
    tid: live ? issued.tenantId : "",
    aud: OUTLOOK_RESOURCE,
  });
}

/** The request handler. */
export function handler(state: StandInState): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const parts = url.pathname.split("/").filter((p) => p).map(decodeURIComponent);
    const origin = url.origin;
    if (request.method === "GET" && url.pathname === "/common/discovery/instance") {
      const authorize = url.searchParams.get("authorization_endpoint") ?? "";
      const tenant = new URL(authorize, origin).pathname.split("/")[1] ?? "common";
      return Response.json({
        tenant_discovery_endpoint: `${origin}/${tenant}/v2.0/.well-known/openid-configuration`,
        "api-version": "1.1",
        metadata: [{
          preferred_network: url.host,
          preferred_cache: url.host,
          aliases: [url.host],
        }],
      });
    }
    if (
      request.method === "GET" && parts.length === 4 && parts[1] === "v2.0" &&
      parts[2] === ".well-known" && parts[3] === "openid-configuration"
    ) {
      const tenant = parts[0];
      if (!tenantKnown(state, tenant)) return tenantNotFound(400, "invalid_tenant", tenant);
      const base = `${origin}/${encodeURIComponent(tenant)}`;
      return Response.json({
        token_endpoint: `${base}/oauth2/v2.0/token`,
        token_endpoint_auth_methods_supported: [
          "client_secret_post",
          "private_key_jwt",
          "client_secret_basic",
        ],
        jwks_uri: `${base}/discovery/v2.0/keys`,
        response_modes_supported: ["query", "fragment", "form_post"],
        subject_types_supported: ["pairwise"],
        id_token_signing_alg_values_supported: ["RS256"],
        response_types_supported: ["code", "id_token", "code id_token", "id_token token"],
        scopes_supported: ["openid", "profile", "email", "offline_access"],
        issuer: `${base}/v2.0`,
        request_uri_parameter_supported: false,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
        http_logout_supported: true,
        frontchannel_logout_supported: true,
        end_session_endpoint: `${base}/oauth2/v2.0/logout`,
        tenant_region_scope: "EU",
        cloud_instance_name: "microsoftonline.com",
        cloud_graph_host_name: "graph.windows.net",
        msgraph_host: "graph.microsoft.com",
      });
    }
    if (
      request.method === "POST" && parts.length === 4 && parts[1] === "oauth2" &&
      parts[2] === "v2.0" && parts[3] === "token"
    ) {
      return tokenAnswer(state, parts[0], new URLSearchParams(await request.text()));
    }
    if (request.method === "POST" && url.pathname === "/exchange/introspect") {
      const form = new URLSearchParams(await request.text());
      return introspect(state, form.get("token") ?? "");
    }
    if (request.method === "POST" && url.pathname === "/stand-in/apps") {
      const app = await request.json() as AppRegistration;
      if (!app.tenantId || !app.clientId || !app.clientSecret) {
        return Response.json({ message: "tenantId, clientId and clientSecret are required" }, {
          status: 400,
        });
      }
      state.apps.set(app.clientId, app);
      return Response.json(app);
    }
    if (request.method === "GET" && parts[0] === "stand-in" && parts[1] === "apps" && parts[2]) {
      return Response.json({ tokenRequests: state.tokenRequests.get(parts[2]) ?? 0 });
    }
    return aadError(404, "invalid_request", 900561, `The endpoint ${url.pathname} is not known.`);
  };
}

if (import.meta.main) {
  const [port, cert, key] = Deno.args;
  Deno.serve({
    hostname: "127.0.0.1",
    port: Number(port),
    cert: Deno.readTextFileSync(cert),
    key: Deno.readTextFileSync(key),
    onListen: ({ port }) => console.log(`Microsoft login stand-in on https://127.0.0.1:${port}`),
  }, handler(newState()));
}
