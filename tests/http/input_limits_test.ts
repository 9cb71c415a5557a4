/**
 * Size and shape limits of input over HTTP (issue 10, findings 3 and 6): request bodies, string
 * lengths, control characters, ids beyond the database's integer, malformed percent-encoding.
 * See docs/limits.md.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { DEFAULT_BODY_LIMIT, FILE_BODY_LIMIT } from "../../api/http/body_limit.ts";
import { MAX_LENGTH } from "../../shared/contract/fields.ts";

const isErrorShape = (body: unknown) =>
  typeof body === "object" && body !== null && typeof (body as { message?: unknown }).message ===
    "string";

Deno.test("input limits over HTTP", async (t) => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  await admin.login("admin", ADMIN_PASSWORD);
  try {
    await t.step("a body over 1 MiB is 413 with the error shape, read or declared", async () => {
      const big = { username: "x".repeat(DEFAULT_BODY_LIMIT), password: "p" };
      const declared = await testClient(server.url).post("/auth/login", big);
      assert.equal(declared.status, 413);
      assert.ok(isErrorShape(declared.body), JSON.stringify(declared.body));
      // Chunked, without Content-Length: counted while read.
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > 2 * DEFAULT_BODY_LIMIT) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      const chunked = await admin.request("POST", "/api/accounts/update/user-info", {
        rawBody: stream,
        headers: { "content-type": "application/json" },
      });
      assert.equal(chunked.status, 413);
      assert.ok(isErrorShape(chunked.body));
    });

    await t.step("a body just under the limit is read and validated", async () => {
      const response = await admin.post("/api/order-tracking/notes", {
        orderId: 1,
        note: "n".repeat(DEFAULT_BODY_LIMIT - 100),
      });
      assert.equal(response.status, 400);
      assert.match((response.body as { message: string }).message, /note/);
    });

    await t.step("send-test-email takes a 10 MB attachment's body, not more", async () => {
      const file = "A".repeat(Math.ceil(10 * 1024 * 1024 / 3) * 4 - 8);
      const ok = await admin.post("/api/email-sources/send-test-email", {
        toEmail: "a@example.test",
        subjectLine: "s",
        messageContent: "m",
        fileData: { fileName: "f.csv", fileData: file },
        emailSource: { id: 2147483647 },
      });
      assert.equal(ok.status, 404, JSON.stringify(ok.body));
      const tooBig = await admin.post("/api/email-sources/send-test-email", {
        fileData: { fileName: "f.csv", fileData: "A".repeat(FILE_BODY_LIMIT) },
      });
      assert.equal(tooBig.status, 413);
      // Other routes keep the 1 MiB limit.
      const other = await admin.post("/api/email-sources/email/save", { password: file });
      assert.equal(other.status, 413);
    });

    await t.step(
      "login with a 1 MB or a NUL-holding username is 400 or 413, never 500",
      async () => {
        const anonymous = testClient(server.url);
        for (
          const username of ["u".repeat(1_000_000), "u".repeat(MAX_LENGTH.username + 1), "ad\0min"]
        ) {
          const response = await anonymous.post("/auth/login", { username, password: "x" });
          assert.ok([400, 413].includes(response.status), `${response.status}`);
          assert.ok(isErrorShape(response.body));
        }
        const nul = await anonymous.post("/auth/login", { username: "ad\0min", password: "x" });
        assert.equal(nul.status, 400);
        assert.match((nul.body as { message: string }).message, /username: Control characters/);
      },
    );

    await t.step("NUL and other control characters are 400 naming the field", async () => {
      const cases: [string, unknown, RegExp][] = [
        [
          "/api/order-tracking/list",
          { PageSize: 10, PageIndex: 1, PoNumberParam: "a\0" },
          /PoNumberParam/,
        ],
        ["/api/accounts/update/user-info", { userId: 0, firstName: "Al\u0007" }, /firstName/],
        [
          "/api/email-sources/email/save",
          { username: "bo\0x", email: "a@example.test", password: "secret" },
          /username/,
        ],
        ["/auth/reset-password", "al\u001bice", /Control characters/],
      ];
      for (const [path, body, field] of cases) {
        const response = await admin.post(path, body);
        assert.equal(response.status, 400, `${path}: ${JSON.stringify(response.body)}`);
        assert.match((response.body as { message: string }).message, field);
      }
    });

    await t.step("strings over their limit are 400", async () => {
      const response = await admin.post("/api/email-sources/email/save", {
        username: "u".repeat(MAX_LENGTH.email + 1),
        email: "a@example.test",
        password: "secret",
      });
      assert.equal(response.status, 400);
      assert.match((response.body as { message: string }).message, /username/);
    });

    await t.step("ids beyond 2147483647 are 400 on every id route", async () => {
      const routes: [string, string][] = [
        ["GET", "/api/accounts/user/:id"],
        ["POST", "/api/accounts/delete/:id"],
        ["GET", "/api/email-sources/email/:id"],
        ["POST", "/api/email-sources/delete/:id"],
        ["POST", "/api/email-sources/poll/:id"],
        ["GET", "/api/import-runs/:id"],
        ["GET", "/api/import-runs/:id/file"],
        ["POST", "/api/import-runs/:id/rerun"],
        ["GET", "/api/order-tracking/order/:id"],
        ["POST", "/api/order-tracking/delete/:id"],
        ["GET", "/api/order-tracking-sources/get/:id"],
        ["POST", "/api/order-tracking-sources/delete/:id"],
      ];
      for (const [method, route] of routes) {
        for (const id of ["2147483648", "99999999999999999999", "1e400"]) {
          const response = await admin.request(method, route.replace(":id", id), {
            body: method === "POST" ? {} : undefined,
          });
          assert.equal(response.status, 400, `${method} ${route} ${id}`);
          assert.ok(isErrorShape(response.body));
        }
      }
      const bodies: [string, unknown][] = [
        ["/api/order-tracking/notes", { orderId: 2147483648, note: "x" }],
        ["/api/accounts/update/user-info", { userId: 2147483648 }],
        ["/api/accounts/update/order-tracking-settings", { id: 2147483648, enabledColumns: {} }],
        ["/api/order-tracking/list", { PageSize: 10, PageIndex: 2147483648 }],
        ["/api/email-sources/send-test-email", { emailSource: { id: 2147483648 } }],
      ];
      for (const [path, body] of bodies) {
        const response = await admin.post(path, body);
        assert.equal(response.status, 400, `${path}: ${JSON.stringify(response.body)}`);
      }
      const query = await admin.get("/api/accounts/order-tracking-settings?userId=2147483648");
      assert.equal(query.status, 400);
      const runs = await admin.get("/api/import-runs?sourceId=2147483648");
      assert.equal(runs.status, 400);
    });

    await t.step("malformed percent-encoding in a path is 400 with the error shape", async () => {
      for (
        const path of [
          "/%",
          "/%zz",
          "/orders/%E0%A4%A",
          "/api/%",
          "/api/accounts/user/%zz",
          "/auth/%c3%28",
        ]
      ) {
        for (const method of ["GET", "POST"]) {
          const response = await admin.request(method, path, {
            body: method === "POST" ? {} : undefined,
          });
          assert.equal(response.status, 400, `${method} ${path}`);
          assert.ok(isErrorShape(response.body), `${path}: ${JSON.stringify(response.body)}`);
        }
      }
      // Well-formed escapes still reach their routes.
      assert.equal((await admin.get("/api/accounts/user-info/%61dmin")).status, 200);
    });
  } finally {
    await server.close();
  }
});
