import assert from "node:assert/strict";
import { createApp } from "../app.ts";
import type { Deps } from "../deps.ts";
import { ACTIVITY_RULES, matchRule } from "./rules.ts";

Deno.test("every activity rule names a route of the app (a renamed route is caught here)", () => {
  // The route table only; no request is served, so no dependencies are needed.
  const app = createApp({} as Deps);
  const routes = new Set(
    app.routes.filter((r) => r.method !== "ALL").map((r) =>
      `${r.method} ${r.path.replace(/\/$/, "")}`
    ),
  );
  for (const rule of ACTIVITY_RULES) {
    assert.ok(
      routes.has(`${rule.method} ${rule.path}`),
      `${rule.method} ${rule.path} is not a route`,
    );
  }
});

Deno.test("rules match numeric ids only, so a literal path is never taken for an id", () => {
  assert.equal(matchRule("POST", "/api/inventory-sources/inventory/save")?.rule.action, "save");
  assert.equal(matchRule("POST", "/api/inventory-sources/inventory/7")?.rule.action, "deleted");
  assert.equal(matchRule("DELETE", "/api/accounts/tokens/current")?.params.id, undefined);
  assert.equal(matchRule("DELETE", "/api/accounts/tokens/3")?.params.id, "3");
  assert.equal(matchRule("POST", "/api/notification-settings/")?.rule.action, "created");
  assert.equal(matchRule("POST", "/api/notification-settings/4/test"), undefined);
  assert.equal(matchRule("GET", "/api/activity"), undefined);
});
