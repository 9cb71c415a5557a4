/**
 * Microsoft's refusals as staff read them: the AADSTS codes a misconfigured app registration
 * produces are explained, anything else is Microsoft's first sentence without trace ids.
 * (tests/mail/msal_test.ts sees them come from the login stand-in, through msal-node.)
 */
import assert from "node:assert/strict";
import { describeMsalFailure } from "./msal.ts";

const ids = { tenantId: "contoso.onmicrosoft.com", clientId: "0f1e2d3c" };
const aad = (error: string, code: number | null, text: string) => ({
  error,
  code,
  description: `${code ? `AADSTS${code}: ` : ""}${text} Trace ID: 1 Correlation ID: 2 Timestamp: x`,
});

Deno.test("an expired secret asks for a new one", () => {
  assert.match(
    describeMsalFailure(
      aad("invalid_client", 7000222, "The provided client secret keys are expired."),
      ids,
    )!,
    /client secret of the app registration 0f1e2d3c has expired\. Create a new one/,
  );
});

Deno.test("an application unknown in the tenant names both ids", () => {
  assert.match(
    describeMsalFailure(aad("unauthorized_client", 700016, "Application not found."), ids)!,
    /does not know the application "0f1e2d3c" in the tenant "contoso\.onmicrosoft\.com"/,
  );
});

Deno.test("a discovery answer without codes but invalid_tenant is an unknown tenant", () => {
  assert.match(
    describeMsalFailure(aad("invalid_tenant", null, "Tenant not found."), ids)!,
    /does not know the tenant "contoso\.onmicrosoft\.com"/,
  );
});

Deno.test("other refusals keep Microsoft's sentence, not its trace ids", () => {
  assert.equal(
    describeMsalFailure(
      aad("temporarily_unavailable", 90033, "A transient error has occurred."),
      ids,
    ),
    "Microsoft answered: AADSTS90033: A transient error has occurred.",
  );
  assert.equal(describeMsalFailure(null, ids), null);
});
