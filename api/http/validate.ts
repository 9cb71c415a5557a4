/**
 * Request validation. The clients the contract was written for send keys in any case (`Id` beside
 * camelCase, `PageSize`), so keys are matched to the schema's keys case-insensitively first.
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import { z } from "zod";
import { dbId } from "../../shared/contract/fields.ts";
import { validationError } from "./errors.ts";
import { type RequestTarget, tagRequest } from "./route_docs.ts";

/** Peels optional/nullable/default/pipe wrappers to reach an object or array schema. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema as z.ZodType & { def?: Record<string, unknown> };
  for (let i = 0; i < 10; i++) {
    const def = current.def as { type: string; innerType?: z.ZodType; in?: z.ZodType } | undefined;
    if (!def) break;
    if (def.innerType) current = def.innerType as typeof current;
    else if (def.type === "pipe" && def.in) current = def.in as typeof current;
    else break;
  }
  return current;
}

/** Each object schema's keys by their lower case, worked out once (every request used to). */
const lowerKeysOf = new WeakMap<z.ZodType, Map<string, string>>();

function lowerKeys(schema: z.ZodType, shape: Record<string, z.ZodType>): Map<string, string> {
  let found = lowerKeysOf.get(schema);
  if (!found) {
    found = new Map(Object.keys(shape).map((key) => [key.toLowerCase(), key]));
    lowerKeysOf.set(schema, found);
  }
  return found;
}

/**
 * Renames the keys of `value` to the spelling `schema` uses, ignoring case, recursively through
 * objects, arrays and records of objects. Unknown keys are kept as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * const aligned = alignKeys({ Id: 1, PAGESIZE: 10 }, z.object({ id: z.number(), pageSize: z.number() }));
 * assert.deepEqual(aligned, { id: 1, pageSize: 10 });
 * ```
 */
export function alignKeys(value: unknown, schema: z.ZodType): unknown {
  const inner = unwrap(schema);
  if (Array.isArray(value) && inner instanceof z.ZodArray) {
    return value.map((item) => alignKeys(item, inner.element as z.ZodType));
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  if (inner instanceof z.ZodObject) {
    const shape = inner.shape as Record<string, z.ZodType>;
    const byLower = lowerKeys(inner, shape);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // JSON.parse makes "__proto__" an own key; copying it would set the object's prototype.
      if (key === "__proto__") continue;
      const target = byLower.get(key.toLowerCase()) ?? key;
      // An exact-case key wins over a differently cased duplicate.
      if (target in out && key !== target) continue;
      out[target] = Object.hasOwn(shape, target) ? alignKeys(item, shape[target]) : item;
    }
    return out;
  }
  return value;
}

/** Wraps `schema` so that it aligns key case before validating; typed as `schema` itself. */
export function caseInsensitive<T extends z.ZodType>(schema: T): T {
  // The pipe's own input type is `unknown`; keeping T's type lets the typed client see the payload.
  return z.preprocess((value) => alignKeys(value, schema), schema) as unknown as T;
}

/**
 * Validates one request part with a zod schema, keys matched case-insensitively, and answers a
 * bad payload with 400 `{ message, errors }`. The middleware carries `schema` for the OpenAPI
 * document.
 *
 * @example
 * ```ts ignore
 * app.post("/save", body("json", sourceSchema), (c) => c.json(c.req.valid("json")));
 * ```
 */
export function body<T extends z.ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  const validator = zValidator(target, caseInsensitive(schema), (result) => {
    if (!result.success) throw validationError(result.error);
  });
  // The OpenAPI document reads the schema from here (api/http/route_docs.ts).
  return tagRequest(validator, target as RequestTarget, schema);
}

/**
 * Parses a numeric path parameter; a non-integer, or one beyond the database's `integer`, is a 400
 * naming the parameter.
 */
export const idParam = z.object({ id: dbId });
