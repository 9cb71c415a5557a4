/** The OpenAPI descriptions of /health and /ready (beyond the contract; docs/operations.md). */
import { z } from "zod";
import { routeDocs } from "../http/route_docs.ts";

/** The answer of /ready (503 with the same shape when a check fails). */
export const readiness = z.object({
  status: z.enum(["ok", "failing"]),
  checks: z.record(
    z.string(),
    z.object({ ok: z.boolean(), detail: z.string().optional() }),
  ).describe("database, migrations, jobs"),
});

export const healthDocs = routeDocs([
  {
    method: "GET",
    path: "/health",
    summary: "The process is up (no database access)",
    response: z.object({ status: z.literal("ok") }),
  },
  {
    method: "GET",
    path: "/ready",
    summary: "Ready for traffic: database reachable, migrations applied, jobs ticking",
    description: "503 with the same body, naming the failing checks.",
    response: readiness,
  },
]);
