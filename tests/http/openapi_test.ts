/**
 * The OpenAPI document (issue 15): valid OpenAPI 3.1 (a third-party validator), every contracted
 * call of both spec documents (section 7) with its request and answer shapes, and the same
 * operations as the app's route table, both ways. The reference page renders them all.
 */
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { startTestServer } from "../support/server.ts";
import { createApp } from "../../api/app.ts";
import { isOperation, openApiPath } from "../../api/http/openapi.ts";
import { CONTRACT_CALLS } from "../support/contract_calls.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** A contracted call: method, path (placeholders as `{}`), whether it sends a body. */
interface Call {
  method: string;
  path: string;
  body: boolean;
  text: string;
}

const normalise = (path: string) =>
  ("/" + path.replace(/^\//, "")).replace(/\?.*$/, "").replace(/\.$/, "").replace(
    /\{[^}]*\}/g,
    "{}",
  );

/**
 * Section 7 of a spec document. The spec lives beside the repository (`SPEC_DIR`, else a
 * `spec/` or `shared/spec/` folder in the repository or one of its parents); null when absent.
 */
async function section7(name: string): Promise<string | null> {
  const dirs: string[] = Deno.env.get("SPEC_DIR") ? [Deno.env.get("SPEC_DIR")!] : [];
  let dir = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
  while (dir) {
    dirs.push(`${dir}/spec`, `${dir}/shared/spec`);
    dir = dir.slice(0, dir.lastIndexOf("/"));
  }
  for (const candidate of dirs) {
    try {
      const text = await Deno.readTextFile(`${candidate}/${name}`);
      return text.slice(text.indexOf("## 7."), text.indexOf("## 8."));
    } catch { /* next place */ }
  }
  return null;
}

/** Part 1's table rows and part 2's bullets, parsed from the spec; null without the spec. */
async function specCalls(): Promise<Call[] | null> {
  const calls: Call[] = [];
  const part1 = await section7("part-1-platform-orders-accounts.md");
  const part2 = await section7("part-2-sources-inventory-submission-notifications.md");
  if (part1 === null || part2 === null) return null;
  for (const line of part1.split("\n")) {
    const m = /^\|\s*(GET|POST|PUT|DELETE)\s+(\S+)\s*\|([^|]*)\|([^|]*)\|/.exec(line);
    if (!m) continue;
    const payload = m[3].trim();
    calls.push({
      method: m[1],
      path: normalise(m[2]),
      body: !/^(none|empty body)$/i.test(payload),
      text: m[4],
    });
  }
  for (const line of part2.split("\n")) {
    const m = /^-\s*(GET|POST|PUT|DELETE)\s+([^\s:]+):?(.*)$/.exec(line);
    if (!m) continue;
    const text = m[3];
    calls.push({
      method: m[1],
      path: normalise(m[2]),
      body: /form|fields|body|multipart|\{cron/i.test(text) && !/no body/i.test(text),
      text,
    });
  }
  return calls;
}

/** Keys the spec names in an answer, checked in the document's answer schema. */
const ANSWER_KEYS: Record<string, string[]> = {
  "GET /auth/user": ["role", "inventoryUser", "orderUser", "submissionUser"],
  "GET /api/accounts/user-info/{}": [
    "userId",
    "username",
    "email",
    "firstName",
    "lastName",
    "lastLogin",
    "createdOn",
  ],
  "GET /api/accounts/order-tracking-settings": ["id", "userId", "enabledColumns"],
  "GET /api/accounts/order-tracking-settings/username": ["enabledColumns"],
  "POST /api/accounts/update/user-info": ["email", "firstName", "lastName"],
  "POST /api/accounts/update/order-tracking-settings": ["enabledColumns"],
  "POST /api/order-tracking/list": ["orders", "totalRecordCount"],
  "GET /api/email-sources/email/{}": [
    "username",
    "email",
    "password",
    "incomingServer",
    "outgoingServer",
    "incomingPort",
    "outgoingPort",
    "ssl",
    "isMsal",
    "msalClientId",
    "msalTennentId",
  ],
  "GET /api/email-sources/email-list": ["item1", "item2"],
  "GET /api/order-submission/order-submission-list": ["item1", "item2"],
  "GET /api/notification-settings/email-info": ["fromEmail", "recipients", "note"],
  "POST /api/notification-settings/validate-cron": ["isValid", "message", "nextExecution"],
  "GET /api/inventory-sources/inventory/{}": ["fileData"],
};

/** Request keys the spec names, checked in the request body schema. */
const REQUEST_KEYS: Record<string, string[]> = {
  "POST /auth/login": ["username", "password"],
  "POST /api/accounts/update/username": ["userId", "oldUsername", "newUsername"],
  "POST /api/accounts/update/password": ["userId", "username", "oldPassword", "newPassword"],
  "POST /api/order-tracking/list": ["PageSize", "PageIndex", "AndOrParam", "SortParams"],
  "POST /api/order-tracking/notes": ["orderId", "note"],
  "POST /api/email-sources/send-test-email": [
    "toEmail",
    "subjectLine",
    "messageContent",
    "fileData",
    "emailSource",
  ],
  "POST /api/notification-settings/validate-cron": ["cronExpression"],
  "POST /api/inventory-sources/manually-process": [
    "file",
    "sourceId",
    "sendEmailNotification",
    "submitViaSftp",
  ],
};

/** The property names of a schema (through items, anyOf/allOf and component references). */
function keysOf(schema: Json | undefined, document: Json, depth = 0): Set<string> {
  const keys = new Set<string>();
  if (!schema || depth > 6) return keys;
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").pop() ?? "";
    return keysOf(document.components.schemas[name], document, depth + 1);
  }
  for (const key of Object.keys(schema.properties ?? {})) keys.add(key);
  for (const part of [schema.items, ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) {
    for (const key of keysOf(part, document, depth + 1)) keys.add(key);
  }
  return keys;
}

/**
 * Every string a request may carry (bodies, path and query parameters) that shows no `maxLength`,
 * as "METHOD path where.field". Enumerations and constants are bounded by their values; a binary
 * part (`contentMediaType`) by the body limit in bytes, which its description states.
 */
function stringsWithoutMaxLength(document: Json): string[] {
  const missing: string[] = [];
  const open = new Set<Json>();
  const walk = (schema: Json | undefined, where: string) => {
    if (!schema || typeof schema !== "object") return;
    if (typeof schema.$ref === "string") {
      const target = document.components.schemas[schema.$ref.split("/").pop()!];
      if (open.has(target)) return; // a recursive schema: its fields are walked once
      open.add(target);
      walk(target, where);
      open.delete(target);
      return;
    }
    const types = [schema.type].flat();
    const bounded = schema.maxLength !== undefined || schema.enum || "const" in schema ||
      schema.contentMediaType;
    if (types.includes("string") && !bounded) missing.push(where);
    for (const [key, value] of Object.entries(schema.properties ?? {})) {
      walk(value as Json, `${where}.${key}`);
    }
    walk(schema.items, `${where}[]`);
    if (typeof schema.additionalProperties === "object") {
      walk(schema.additionalProperties, `${where}{}`);
    }
    for (const part of [...schema.anyOf ?? [], ...schema.oneOf ?? [], ...schema.allOf ?? []]) {
      walk(part, where);
    }
  };
  for (const [path, operations] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(operations as Record<string, Json>)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const [type, content] of Object.entries(op.requestBody?.content ?? {})) {
        walk((content as Json).schema, `${at} ${type} body`);
      }
      for (const p of op.parameters ?? []) walk(p.schema, `${at} ${p.in} ${p.name}`);
    }
  }
  return missing;
}

/** The schema of `field` in the JSON body of `METHOD path`, `$ref`s followed. */
function bodyField(document: Json, method: string, path: string, field: string): Json {
  const resolve = (schema: Json): Json =>
    schema?.$ref ? resolve(document.components.schemas[schema.$ref.split("/").pop()!]) : schema;
  const op = document.paths[path][method];
  return resolve(resolve(op.requestBody.content["application/json"].schema).properties[field]);
}

Deno.test("the OpenAPI document: valid, complete, and the route table's", async (t) => {
  const server = await startTestServer();
  try {
    const response = await fetch(`${server.url}/api/openapi.json`);
    assert.equal(response.status, 200);
    const document = await response.json() as Json;

    await t.step("validates against the OpenAPI 3.1 schema", async () => {
      const result = await new Validator().validate(structuredClone(document));
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 3000));
      assert.equal(document.openapi, "3.1.0");
    });

    const operations = new Map<string, Json>();
    for (const [path, ops] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(ops)) {
        operations.set(`${method.toUpperCase()} ${normalise(path)}`, op as Json);
      }
    }

    await t.step("the contract table matches the spec documents", async (s) => {
      const parsed = await specCalls();
      if (!parsed) {
        console.warn("spec/ not found (set SPEC_DIR): the contract table is not compared");
        return;
      }
      const table = CONTRACT_CALLS.map(([method, path, body]) => ({ method, path, body }));
      assert.deepEqual(parsed.map(({ method, path, body }) => ({ method, path, body })), table);
      void s;
    });

    await t.step("every contracted call, with its request and answer", () => {
      const calls = CONTRACT_CALLS.map(([method, path, body]) => ({ method, path, body }));
      assert.equal(calls.length, 58);
      for (const call of calls) {
        const key = `${call.method} ${call.path}`;
        const op = operations.get(key);
        assert.ok(op, `${key} is not in the OpenAPI document`);
        const ok = op.responses["200"] ?? op.responses["204"];
        assert.ok(ok, `${key} has no success answer`);
        if (op.responses["200"]) {
          const content = op.responses["200"].content ?? {};
          const schema = Object.values(content)[0] as Json | undefined;
          assert.ok(schema?.schema, `${key}: the answer has no schema`);
        }
        if (call.body) assert.ok(op.requestBody, `${key}: the request body is not described`);
        for (const name of ANSWER_KEYS[key] ?? []) {
          const schema = op.responses["200"]?.content?.["application/json"]?.schema;
          assert.ok(keysOf(schema, document).has(name), `${key}: answer key ${name} missing`);
        }
        for (const name of REQUEST_KEYS[key] ?? []) {
          const content = op.requestBody?.content ?? {};
          const schema = (Object.values(content)[0] as Json | undefined)?.schema;
          assert.ok(keysOf(schema, document).has(name), `${key}: request key ${name} missing`);
        }
      }
      // Every checked key table names contracted calls.
      const contracted = new Set(calls.map((c) => `${c.method} ${c.path}`));
      for (const key of [...Object.keys(ANSWER_KEYS), ...Object.keys(REQUEST_KEYS)]) {
        assert.ok(contracted.has(key), `${key} is not a contracted call`);
      }
    });

    await t.step("every string of a request shows the server's maxLength", () => {
      assert.deepEqual(stringsWithoutMaxLength(document), []);
      // Limits checked after trimming or normalising are shown too (issue 28, finding 7).
      const cases: [string, string, string, number][] = [
        ["post", "/api/inventory-sources/inventory/save", "sourceName", 200],
        ["post", "/api/inventory-sources/inventory/save", "itemNumberColumnName", 200],
        ["post", "/api/inventory-sources/inventory/save", "fromEmail", 254],
        ["post", "/api/accounts/update/username", "newUsername", 100],
        ["post", "/api/accounts/update/user", "firstName", 100],
        ["post", "/api/accounts/update/user-info", "email", 254],
      ];
      for (const [method, path, field, max] of cases) {
        const schema = bodyField(document, method, path, field);
        const shown = schema.maxLength ??
          (schema.anyOf ?? []).find((s: Json) => s.maxLength)?.maxLength;
        assert.equal(shown, max, `${method} ${path} ${field}`);
      }
    });

    await t.step("the order list's 400 says a page past the result window is refused", () => {
      const list = operations.get("POST /api/order-tracking/list")!;
      assert.match(
        list.responses["400"].description,
        /Page 201 is beyond the first 10,000 results; narrow the search \(add terms\) to see more\./,
      );
      assert.match(list.description, /up to the first 10,000 results/);
    });

    await t.step("path and query parameters come from the validators", () => {
      const user = operations.get("GET /api/accounts/user/{}")!;
      assert.deepEqual(user.parameters.map((p: Json) => [p.name, p.in]), [["id", "path"]]);
      assert.equal(user.parameters[0].schema.type, "integer");
      const settings = operations.get("GET /api/accounts/order-tracking-settings")!;
      assert.deepEqual(settings.parameters.map((p: Json) => [p.name, p.in]), [["userId", "query"]]);
    });

    await t.step("the same operations as the app's route table", () => {
      const app = createApp(server.server.deps);
      const table = new Set(
        app.routes.filter(isOperation).map((r) => `${r.method} ${normalise(openApiPath(r.path))}`),
      );
      const documented = new Set(operations.keys());
      const undocumented = [...table].filter((k) => !documented.has(k));
      const stale = [...documented].filter((k) => !table.has(k));
      assert.deepEqual(undocumented, [], "routes without a description in a docs.ts");
      assert.deepEqual(stale, [], "documented operations that are no route");
    });

    await t.step("the reference page lists every operation, without scripts", async () => {
      const page = await fetch(`${server.url}/api/docs`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /text\/html/);
      assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
      const html = await page.text();
      assert.doesNotMatch(html, /<script/i);
      for (const path of Object.keys(document.paths)) {
        assert.ok(html.includes(path.replace(/&/g, "&#38;")), `${path} missing from /api/docs`);
      }
    });
  } finally {
    await server.close();
  }
});
