/**
 * Which requests the activity log records: one line per state-changing route, naming the record
 * it touches, the action, and where the record's id is found (docs/activity.md). The routes stay
 * as they are; `recordActivity` (./middleware.ts) looks requests up here.
 */
import type { Db } from "../db/client.ts";
import type { ActivityAction, EntityType } from "../../shared/contract/activity.ts";

/** What a rule sees of the request: path parameters and (for saves) the JSON body. */
export interface RequestParts {
  params: Record<string, string>;
  body: Record<string, unknown> | undefined;
  db: Db;
}

/** One recorded route. `save` becomes created (no id before) or changed. */
export interface ActivityRule {
  method: "POST" | "PUT" | "DELETE";
  /** The full path; `:name` matches a number. */
  path: string;
  entity: EntityType;
  action: ActivityAction | "save" | "sign-in";
  /** The record's id before the request (null: a new one, or known only from the answer). */
  before?: (parts: RequestParts) => number | null | Promise<number | null>;
  /** Read the JSON body before the request (saves carry the id there). */
  readsBody?: boolean;
  /** The record's id from the JSON answer (a created record, a new run). */
  fromAnswer?: readonly string[];
}

const param = (name: string) => ({ params }: RequestParts) => Number(params[name]) || null;

/** The id in a save's body (`id`, or `userId` for users), any case; 0 means a new record. */
const bodyId = (...keys: string[]) => ({ body }: RequestParts) => {
  if (!body) return null;
  for (const [key, value] of Object.entries(body)) {
    if (keys.includes(key.toLowerCase())) return Number(value) > 0 ? Number(value) : null;
  }
  return null;
};

const save = (path: string, entity: EntityType, ...keys: string[]): ActivityRule => ({
  method: "POST",
  path,
  entity,
  action: "save",
  readsBody: true,
  before: bodyId(...(keys.length ? keys : ["id"])),
  fromAnswer: ["id", "userId"],
});

const remove = (
  path: string,
  entity: EntityType,
  method: ActivityRule["method"] = "POST",
): ActivityRule => ({ method, path, entity, action: "deleted", before: param("id") });

/** Every recorded route, in the contract's paths. */
export const ACTIVITY_RULES: readonly ActivityRule[] = [
  { method: "POST", path: "/auth/login", entity: "user", action: "sign-in" },
  save("/api/email-sources/email/save", "email-source"),
  remove("/api/email-sources/delete/:id", "email-source"),
  save("/api/order-tracking-sources/save", "order-tracking-source"),
  remove("/api/order-tracking-sources/delete/:id", "order-tracking-source"),
  {
    method: "POST",
    path: "/api/order-tracking-sources/:id/import",
    entity: "run",
    action: "manually processed",
    fromAnswer: ["id"],
  },
  save("/api/inventory-sources/inventory/save", "inventory-source"),
  remove("/api/inventory-sources/inventory/:id", "inventory-source"),
  {
    method: "POST",
    path: "/api/inventory-sources/manually-process",
    entity: "run",
    action: "manually processed",
    // A preview (dry run) answers no run id, and so is not recorded.
    fromAnswer: ["runId"],
  },
  {
    method: "POST",
    path: "/api/inventory-sources/runs/:runId/release",
    entity: "run",
    action: "released",
    before: param("runId"),
  },
  {
    method: "POST",
    path: "/api/import-runs/:id/rerun",
    entity: "run",
    action: "re-ran",
    before: param("id"),
    fromAnswer: ["id"],
  },
  save("/api/order-submission/sources/save", "order-submission-source"),
  remove("/api/order-submission/sources/delete/:id", "order-submission-source"),
  save("/api/order-submission/vendor/save", "vendor"),
  remove("/api/order-submission/vendor/delete/:id", "vendor"),
  {
    // An alias is part of its vendor: the vendor's "Aliases" field changes.
    method: "POST",
    path: "/api/order-submission/vendor/alias/delete/:id",
    entity: "vendor",
    action: "changed",
    before: async ({ params, db }) => {
      const [row] = await db.query<{ vendorId: number }>(
        `select vendor_source_id as "vendorId" from vendor_aliases where id = $1`,
        [Number(params.id)],
      );
      return row?.vendorId ?? null;
    },
  },
  {
    method: "POST",
    path: "/api/notification-settings",
    entity: "notification-setting",
    action: "created",
    fromAnswer: ["id"],
  },
  {
    method: "PUT",
    path: "/api/notification-settings/:id",
    entity: "notification-setting",
    action: "changed",
    before: param("id"),
  },
  remove("/api/notification-settings/:id", "notification-setting", "DELETE"),
  save("/api/accounts/update/user", "user", "userid"),
  remove("/api/accounts/delete/:id", "user"),
  {
    method: "POST",
    path: "/api/accounts/update/user-info",
    entity: "user",
    action: "changed",
    readsBody: true,
    before: bodyId("userid"),
  },
  {
    method: "POST",
    path: "/api/accounts/update/username",
    entity: "user",
    action: "changed",
    readsBody: true,
    before: bodyId("userid"),
  },
  {
    method: "POST",
    path: "/api/accounts/update/password",
    entity: "user",
    action: "changed",
    readsBody: true,
    before: bodyId("userid"),
  },
  {
    method: "POST",
    path: "/api/accounts/tokens",
    entity: "access-token",
    action: "created",
    fromAnswer: ["id"],
  },
  // The token of the request itself: its id is known once the guard has read it.
  {
    method: "DELETE",
    path: "/api/accounts/tokens/current",
    entity: "access-token",
    action: "deleted",
  },
  remove("/api/accounts/tokens/:id", "access-token", "DELETE"),
];

interface CompiledRule {
  rule: ActivityRule;
  pattern: RegExp;
  names: string[];
}

const COMPILED: CompiledRule[] = ACTIVITY_RULES.map((rule) => {
  const names: string[] = [];
  const source = rule.path.split("/").map((part) => {
    if (!part.startsWith(":")) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    names.push(part.slice(1));
    return "(\\d+)";
  }).join("/");
  return { rule, names, pattern: new RegExp(`^${source}/?$`) };
});

/**
 * The rule for a request and its path parameters, or undefined when it is not recorded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchRule } from "./rules.ts";
 * const found = matchRule("POST", "/api/import-runs/12/rerun");
 * assert.equal(found?.rule.action, "re-ran");
 * assert.deepEqual(found?.params, { id: "12" });
 * assert.equal(matchRule("GET", "/api/import-runs/12"), undefined);
 * ```
 */
export function matchRule(
  method: string,
  path: string,
): { rule: ActivityRule; params: Record<string, string> } | undefined {
  for (const { rule, pattern, names } of COMPILED) {
    if (rule.method !== method) continue;
    const match = pattern.exec(path);
    if (!match) continue;
    return { rule, params: Object.fromEntries(names.map((name, i) => [name, match[i + 1]])) };
  }
  return undefined;
}
