/**
 * The one place the activity log is written (docs/activity.md): an app-wide middleware that,
 * for a request matching a rule of ./rules.ts, reads the record before the handler runs and
 * again after it succeeded, and writes who did what to which record with the fields that
 * changed. Handlers know nothing of it. A failure to record is logged and never fails the
 * request (the change itself is already committed).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../deps.ts";
import { clientAddress } from "../http/client.ts";
import { logError } from "../http/log_error.ts";
import type { ActivityAction, ActivityChange } from "../../shared/contract/activity.ts";
import { diffSnapshots, readEntity, type Snapshot } from "./entities.ts";
import { insertActivity } from "./queries.ts";
import { type ActivityRule, matchRule } from "./rules.ts";

/** The JSON body of a request, read once (Hono keeps it for the validator), or undefined. */
async function jsonBody(c: Context<AppEnv>): Promise<Record<string, unknown> | undefined> {
  if (!c.req.header("content-type")?.toLowerCase().includes("json")) return undefined;
  try {
    const value = await c.req.json();
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined; // the route's validator answers the malformed body
  }
}

/** The record id in the JSON answer under one of `keys`, or null. */
async function idFromAnswer(c: Context<AppEnv>, keys: readonly string[]): Promise<number | null> {
  if (!c.res.headers.get("content-type")?.includes("json")) return null;
  const answer = await c.res.clone().json().catch(() => null) as Record<string, unknown> | null;
  for (const key of keys) {
    const value = Number(answer?.[key]);
    if (Number.isInteger(value) && value > 0) return value;
  }
  return null;
}

/** The validated login name (the validator has run when the handler answered). */
function attemptedUsername(c: Context<AppEnv>): string | undefined {
  try {
    const valid = (c.req.valid as (target: string) => { username?: unknown })("json");
    return typeof valid?.username === "string" ? valid.username : undefined;
  } catch {
    return undefined;
  }
}

async function recordSignIn(c: Context<AppEnv>): Promise<void> {
  const status = c.res.status;
  // 400 is a malformed request, not an attempt; 401 a wrong name or password; 429 throttled.
  if (status !== 200 && status !== 401 && status !== 429) return;
  const username = attemptedUsername(c);
  if (username === undefined) return;
  const { db } = c.var.deps;
  const address = clientAddress(c);
  if (status === 200) {
    const [user] = await db.query<{ id: number; username: string }>(
      "select id, username from users where lower(username) = lower($1)",
      [username],
    );
    await insertActivity(db, {
      userId: user?.id ?? null,
      username: user?.username ?? username,
      action: "signed in",
      entityType: "user",
      entityId: user?.id ?? null,
      entityName: user?.username ?? username,
      address,
      changes: [],
    });
    return;
  }
  const changes: ActivityChange[] = status === 429
    ? [{ field: "reason", label: "Reason", after: "too many attempts" }]
    : [];
  await insertActivity(db, {
    userId: null,
    username,
    action: "sign-in failed",
    entityType: "user",
    entityId: null,
    entityName: username,
    address,
    changes,
  });
}

async function recordChange(
  c: Context<AppEnv>,
  rule: ActivityRule,
  beforeId: number | null,
  before: Snapshot | null,
): Promise<void> {
  const user = c.get("user");
  if (!user) return;
  const { db } = c.var.deps;
  let id = beforeId;
  const changes: ActivityChange[] = [];
  if (rule.fromAnswer) {
    const answered = await idFromAnswer(c, rule.fromAnswer);
    if (rule.action === "re-ran") {
      if (answered) changes.push({ field: "new_run", label: "New run", after: answered });
    } else id = id ?? answered;
  }
  if (id === null && rule.entity === "access-token" && user.sessionId.startsWith("token:")) {
    id = Number(user.sessionId.slice(6)) || null;
  }
  if (id === null) return;
  const after = await readEntity(db, rule.entity, id);
  const action: ActivityAction = rule.action === "save"
    ? (before ? "changed" : "created")
    : rule.action as ActivityAction;
  if (action === "created" || action === "changed") changes.push(...diffSnapshots(before, after));
  // A save that changed nothing is not worth a line.
  if (action === "changed" && changes.length === 0) return;
  await insertActivity(db, {
    userId: user.userId,
    username: user.username,
    action,
    entityType: rule.entity,
    entityId: id,
    entityName: before?.name || after?.name || "",
    address: clientAddress(c),
    changes,
  });
}

/**
 * App-wide middleware recording the requests named in ./rules.ts. Register it once, after the
 * body limit and before the routes (`api/app.ts`).
 *
 * @example
 * ```ts ignore
 * app.use(recordActivity);
 * ```
 */
export const recordActivity: MiddlewareHandler<AppEnv> = async (c, next) => {
  const found = c.req.method === "GET" ? undefined : matchRule(c.req.method, c.req.path);
  if (!found) return await next();
  const { rule, params } = found;
  if (rule.action === "sign-in") {
    await next();
    await recordSignIn(c).catch((error) => logError("Recording a sign-in", error));
    return;
  }
  let beforeId: number | null = null;
  let before: Snapshot | null = null;
  try {
    const body = rule.readsBody ? await jsonBody(c) : undefined;
    beforeId = (await rule.before?.({ params, body, db: c.var.deps.db })) ?? null;
    if (beforeId !== null) before = await readEntity(c.var.deps.db, rule.entity, beforeId);
    // A save naming a record that does not exist fails in its handler; nothing to record.
    if (beforeId !== null && !before && rule.action === "save") beforeId = null;
  } catch (error) {
    logError("Reading a record for the activity log", error);
  }
  await next();
  if (c.res.status >= 400) return;
  await recordChange(c, rule, beforeId, before).catch((error) =>
    logError("Recording activity", error)
  );
};
