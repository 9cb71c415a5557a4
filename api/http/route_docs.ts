/**
 * What the OpenAPI document (`api/http/openapi.ts`) is generated from, one source per shape:
 *
 * - **Requests**: the zod schema a route validates with. `body(target, schema)` (validate.ts)
 *   tags its middleware with the schema via {@link tagRequest}; the generator finds it among the
 *   route's handlers in the app's route table (`app.routes`), so the schema that checks a request
 *   is the one documented.
 * - **Everything else** (summary, answer schema, who may call): a {@link RouteDoc} in the area's
 *   `docs.ts`, listed in its feature object (`Feature.docs`). Answer schemas are the zod schemas
 *   of `shared/contract/` whose `z.infer` types the handlers answer with.
 *
 * Platform layer: no area is imported here.
 */
import type { MiddlewareHandler } from "hono";
import type { z } from "zod";

/** The request parts a schema can describe. */
export type RequestTarget = "json" | "query" | "param" | "form" | "header" | "cookie";

/** Who may call a route (the guards of `api/auth/guards.ts`). */
export type RouteAccess =
  | "public"
  | "any"
  | "anyFlag"
  | "admin"
  | "orderUser"
  | "inventoryUser"
  | "submissionUser";

/** One documented operation of the API. */
export interface RouteDoc {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The full path as mounted, in Hono's syntax (`/api/accounts/user/:id`). */
  path: string;
  summary: string;
  /** Longer text; contracted calls say where in the spec they come from. */
  description?: string;
  /**
   * The answer: a zod schema of the JSON body (status 200), `"empty"` for 204 without a body,
   * `"file"` for a download (application/octet-stream).
   */
  response: z.ZodType | "empty" | "file";
  /** Request parts no validator middleware declares (a multipart form read by the handler). */
  request?: { multipart?: z.ZodType };
  /** Who may call it; the feature's flag when absent. */
  access?: RouteAccess;
  /**
   * Error answers worth their own description (status → text), replacing the generic one of
   * that status (a 400 that is not about a field, say).
   */
  errors?: Record<string, string>;
}

const REQUEST = Symbol("requestSchema");

/** A middleware carrying the schema it validates. */
type Tagged = MiddlewareHandler & { [REQUEST]?: { target: RequestTarget; schema: z.ZodType } };

/** Marks a validator middleware with the schema it checks (called by `body()`). */
export function tagRequest<M extends MiddlewareHandler>(
  middleware: M,
  target: RequestTarget,
  schema: z.ZodType,
): M {
  (middleware as Tagged)[REQUEST] = { target, schema };
  return middleware;
}

/** The request schema a handler validates with, if it is a tagged validator. */
export function requestOf(
  handler: unknown,
): { target: RequestTarget; schema: z.ZodType } | undefined {
  return typeof handler === "function" ? (handler as Tagged)[REQUEST] : undefined;
}

/**
 * Declares an area's route documents, keeping them typed.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { routeDocs } from "./route_docs.ts";
 * const docs = routeDocs([
 *   { method: "GET", path: "/ping", summary: "Ping", response: z.object({ ok: z.boolean() }) },
 * ]);
 * if (docs.length !== 1) throw new Error();
 * ```
 */
export function routeDocs(docs: readonly RouteDoc[]): readonly RouteDoc[] {
  return docs;
}
