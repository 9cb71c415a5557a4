/**
 * The OpenAPI 3.1 document of the API, generated at start from the app's route table and the
 * features' route documents (`api/http/route_docs.ts` says where each part comes from). No shape is
 * written twice: request schemas are the validators' zod schemas, answers the contract's zod
 * schemas, both turned into JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) by
 * `z.toJSONSchema`.
 */
import { z } from "zod";
import { requestOf, type RouteAccess, type RouteDoc } from "./route_docs.ts";

/** A route of Hono's route table (`app.routes`). */
export interface TableRoute {
  method: string;
  path: string;
  handler: unknown;
}

/** The route documents of one feature and its default access. */
export interface DocSource {
  flag: RouteAccess;
  docs?: readonly RouteDoc[];
}

type Json = Record<string, unknown>;

/** The error answer of every call (api/http/errors.ts); a 500 adds the request id. */
export const errorAnswer = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional().describe("field → messages"),
  requestId: z.string().optional().describe("on a 500: the id of the request in the logs"),
});

/** Hono's `/user/:id` → OpenAPI's `/user/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");
}

/** Is a route-table entry one of the API's operations (not a `.use` middleware, not a page)? */
export function isOperation(route: TableRoute): boolean {
  return route.method !== "ALL" && !route.path.endsWith("*") &&
    /^\/(api|auth)(\/|$)|^\/(health|ready)$/.test(route.path);
}

/** The `maxLength` of a string schema, or of the string branch of an `anyOf` (nullable). */
function maxLengthOf(json: Json): number | undefined {
  if (typeof json.maxLength === "number") return json.maxLength;
  for (const branch of (json.anyOf ?? []) as Json[]) {
    const max = maxLengthOf(branch);
    if (max !== undefined) return max;
  }
  return undefined;
}

/**
 * A string trimmed or normalised before its length is checked (`z.string().trim().pipe(
 * boundedString(200))`) shows no limit on its input side, though the server refuses longer values:
 * the input's string schema gets the `maxLength` of the pipe's output (issue 28, finding 7). The
 * limit then applies to the value as trimmed, so a client that keeps to it is never refused.
 */
function showLimitAfterTransform(
  ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: Json },
): void {
  const def = ctx.zodSchema._zod.def;
  if (def.type !== "pipe") return;
  const json = ctx.jsonSchema;
  const strings = json.type === "string"
    ? [json]
    : ((json.anyOf ?? []) as Json[]).filter((branch) => branch.type === "string");
  if (!strings.length || strings.some((branch) => branch.maxLength !== undefined)) return;
  const max = maxLengthOf(
    z.toJSONSchema(def.out, { io: "output", unrepresentable: "any" }) as Json,
  );
  if (max !== undefined) { for (const branch of strings) branch.maxLength = max; }
}

/** Converts schemas, hoisting nested `$defs` into `components.schemas`. */
class SchemaWriter {
  readonly components: Record<string, unknown> = {};
  #count = 0;

  write(schema: z.ZodType, io: "input" | "output"): Json {
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
      target: "draft-2020-12",
      override: io === "input" ? showLimitAfterTransform : undefined,
    }) as Json;
    delete json.$schema;
    const defs = json.$defs as Record<string, unknown> | undefined;
    if (!defs) return json;
    delete json.$defs;
    const names = new Map<string, string>();
    for (const key of Object.keys(defs)) names.set(key, `S${++this.#count}_${key}`);
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (!value || typeof value !== "object") return value;
      const out: Json = {};
      for (const [k, v] of Object.entries(value)) {
        if (k === "$ref" && typeof v === "string") {
          const local = /^#\/\$defs\/(.+)$/.exec(v)?.[1];
          out[k] = local ? `#/components/schemas/${names.get(local)}` : v === "#" ? v : v;
        } else out[k] = rewrite(v);
      }
      return out;
    };
    for (const [key, def] of Object.entries(defs)) this.components[names.get(key)!] = rewrite(def);
    return rewrite(json) as Json;
  }
}

/** The properties of an object schema's JSON Schema as parameters `in` a request part. */
function parameters(json: Json, where: "path" | "query"): Json[] {
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    schema,
  }));
}

const ACCESS_TEXT: Record<RouteAccess, string> = {
  public: "No login.",
  any: "Any signed-in user.",
  anyFlag: "A user with at least one flag (or Admin).",
  admin: "Admin only.",
  orderUser: "Users with the orderUser flag.",
  inventoryUser: "Users with the inventoryUser flag.",
  submissionUser: "Users with the submissionUser flag.",
};

/**
 * Builds the document. Throws when a document names a route the table lacks (a stale entry):
 * the tests compare both ways.
 *
 * @example
 * ```ts ignore
 * const document = openApiDocument(app.routes, FEATURES);
 * ```
 */
export function openApiDocument(
  routes: readonly TableRoute[],
  features: readonly DocSource[],
  info: { title?: string; version?: string } = {},
): Json {
  const writer = new SchemaWriter();
  const errorSchema = writer.write(errorAnswer, "output");
  writer.components.ErrorAnswer = errorSchema;
  const errorRef = { $ref: "#/components/schemas/ErrorAnswer" };
  const errorResponse = (description: string) => ({
    description,
    content: { "application/json": { schema: errorRef } },
  });
  const paths: Record<string, Record<string, Json>> = {};
  for (const feature of features) {
    for (const doc of feature.docs ?? []) {
      const handlers = routes.filter((r) =>
        r.path === doc.path && (r.method === doc.method || r.method === "ALL")
      );
      if (!handlers.some((r) => r.method === doc.method)) {
        throw new Error(`Documented ${doc.method} ${doc.path} is not a route of the app.`);
      }
      const operation: Json = {
        operationId: `${doc.method.toLowerCase()}${
          openApiPath(doc.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, ch?: string) =>
            ch ? ch.toUpperCase() : "")
        }`,
        summary: doc.summary,
      };
      const access = doc.access ?? feature.flag;
      operation.description = [doc.description, `Access: ${ACCESS_TEXT[access]}`]
        .filter(Boolean).join("\n\n");
      operation["x-access"] = access;
      if (access !== "public") operation.security = [{ session: [] }, { token: [] }];
      const params: Json[] = [];
      for (const route of handlers) {
        const request = requestOf(route.handler);
        if (!request) continue;
        if (request.target === "param") {
          params.push(...parameters(writer.write(request.schema, "input"), "path"));
        } else if (request.target === "query") {
          params.push(...parameters(writer.write(request.schema, "input"), "query"));
        } else if (request.target === "json") {
          operation.requestBody = {
            required: true,
            content: { "application/json": { schema: writer.write(request.schema, "input") } },
          };
        } else if (request.target === "form") {
          operation.requestBody = {
            required: true,
            content: { "multipart/form-data": { schema: writer.write(request.schema, "input") } },
          };
        }
      }
      if (doc.request?.multipart) {
        operation.requestBody = {
          required: true,
          content: {
            "multipart/form-data": { schema: writer.write(doc.request.multipart, "input") },
          },
        };
      }
      // A path parameter no validator declares is still a parameter.
      for (const name of doc.path.match(/:(\w+)/g) ?? []) {
        if (!params.some((p) => p.in === "path" && p.name === name.slice(1))) {
          params.push({
            name: name.slice(1),
            in: "path",
            required: true,
            schema: { type: "string" },
          });
        }
      }
      if (params.length) operation.parameters = params;
      const responses: Json = {};
      if (doc.response === "empty") responses["204"] = { description: "Done; no body." };
      else if (doc.response === "file") {
        responses["200"] = {
          description: "The file.",
          content: {
            "application/octet-stream": {
              schema: { type: "string", contentMediaType: "application/octet-stream" },
            },
          },
        };
      } else {
        responses["200"] = {
          description: "Success.",
          content: { "application/json": { schema: writer.write(doc.response, "output") } },
        };
      }
      if (operation.requestBody || params.length) {
        responses["400"] = errorResponse("Invalid request: `errors` names the fields.");
      }
      if (access !== "public") {
        responses["401"] = errorResponse("Not logged in, or the session expired.");
        if (access !== "any") responses["403"] = errorResponse("Logged in, not allowed.");
      }
      for (const [status, text] of Object.entries(doc.errors ?? {})) {
        responses[status] = errorResponse(text);
      }
      responses["default"] = errorResponse(
        "Any other error: 404, 409, 413, 422, 429 (with `Retry-After`) `{ message }`; 500 adds `requestId`.",
      );
      operation.responses = responses;
      (paths[openApiPath(doc.path)] ??= {})[doc.method.toLowerCase()] = operation;
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: info.title ?? "Source manager API",
      version: info.version ?? "1",
      description:
        "The HTTP contract of the back office (spec section 7 of both parts) and the calls " +
        "added beyond it. Keys of request bodies are matched case-insensitively. Generated " +
        "from the server's zod schemas (docs/api.md).",
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: writer.components,
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: "X-Access-Token",
          description:
            "The session cookie set by POST /auth/login (refreshed by /auth/refresh-token).",
        },
        token: {
          type: "http",
          scheme: "bearer",
          description:
            "A personal access token (`smt_...`) from the account page or `cli login`; it acts " +
            "with its user's current flags (docs/auth.md).",
        },
      },
    },
  };
}
