/**
 * `GET /health`: the process answers (no database access: cheap enough for a load balancer to ask
 * every second). `GET /ready`: this process can serve, checked: the database answers, every
 * migration of `api/db/migrations` is applied, and the jobs started by this process are ticking
 * (docs/operations.md, "Health"). 503 with the failing checks otherwise.
 */
import { Hono } from "hono";
import type { AppEnv, Deps } from "../deps.ts";
import { readMigrations } from "../db/migrate.ts";
import { jobsProblem, jobsStatus } from "../jobs/runner.ts";

export const healthRoutes = new Hono<AppEnv>().get("/", (c) => c.json({ status: "ok" as const }));

type Check = { ok: boolean; detail?: string };

let migrationNames: Promise<string[]> | undefined;

/** The checks of /ready, each with what failed. */
export async function readinessChecks(deps: Deps): Promise<Record<string, Check>> {
  const checks: Record<string, Check> = {};
  let applied: Set<string> | null = null;
  try {
    const rows = await deps.db.query<{ name: string }>("select name from schema_migrations");
    applied = new Set(rows.map((row) => row.name));
    checks.database = { ok: true };
  } catch (error) {
    // Only the class: a driver's error may carry connection details.
    checks.database = {
      ok: false,
      detail: `the database does not answer (${(error as Error).name})`,
    };
  }
  if (applied) {
    migrationNames ??= readMigrations().then((list) => list.map((m) => m.name));
    const missing = (await migrationNames).filter((name) => !applied.has(name));
    checks.migrations = missing.length
      ? { ok: false, detail: `not applied: ${missing.join(", ")}` }
      : { ok: true };
  } else checks.migrations = { ok: false, detail: "unknown: no database" };
  const status = jobsStatus(deps);
  if (!status) checks.jobs = { ok: true, detail: "jobs are not run by this process" };
  else {
    const problem = jobsProblem(status);
    checks.jobs = problem ? { ok: false, detail: problem } : { ok: true };
  }
  return checks;
}

export const readyRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const checks = await readinessChecks(c.var.deps);
  const ok = Object.values(checks).every((check) => check.ok);
  return c.json({ status: ok ? "ok" as const : "failing" as const, checks }, ok ? 200 : 503);
});
