/** Contract tests of /api/order-tracking-sources/* over real HTTP, on PGlite or PostgreSQL. */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource, defaultEmailSourceId, sourcePayload } from "../support/order_tracking.ts";

Deno.test("order tracking sources contract", async (t) => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    // The mailbox the payloads name (emailSourceId 1): a foreign key holds sources to it.
    assert.equal(await defaultEmailSourceId(admin), 1);

    await t.step(
      "creating a source answers it with every field and its normalisation",
      async () => {
        const response = await admin.post("/api/order-tracking-sources/save", sourcePayload());
        assert.equal(response.status, 200);
        const source = response.body as Record<string, unknown>;
        assert.equal(typeof source.id, "number");
        assert.deepEqual(
          { ...source, id: 1, columnNormalizationValues: undefined },
          {
            id: 1,
            sourceName: "Acme Supply",
            emailSourceId: 1,
            fileType: "csv",
            fromEmail: "reports@acme.example",
            subjectValue: "Daily order status",
            containsNotExact: true,
            expectedAttachmentCount: 1,
            attachmentName: "orders",
            columnsToIgnore: null,
            secondaryDelimiter: ";",
            uniqueColumn: "CustomerPoNumber",
            deleteAfterDays: 30,
            activeStatus: true,
            deletedStatus: false,
            columnNormalizationValues: undefined,
          },
        );
        const normalization = source.columnNormalizationValues as Record<string, unknown>;
        assert.equal(normalization.customerPoNumber, "PO #");
        assert.equal(normalization.wildcard1, null);
        assert.equal(typeof normalization.id, "number");
        assert.equal(Object.keys(normalization).length, 22);
      },
    );

    await t.step("get answers the saved source; active lists live sources", async () => {
      const [first] = (await admin.get("/api/order-tracking-sources/active")).body as {
        id: number;
      }[];
      const got = await admin.get(`/api/order-tracking-sources/get/${first.id}`);
      assert.equal(got.status, 200);
      assert.equal((got.body as { sourceName: string }).sourceName, "Acme Supply");
    });

    await t.step(
      "editing keeps the id; text numbers and PascalCase keys are accepted",
      async () => {
        const id = await createSource(admin, { sourceName: "Beta Parts" });
        const payload = sourcePayload({
          sourceName: "Beta Parts Ltd",
          uniqueColumn: "qtyfulfilled",
        });
        for (
          const key of ["deleteAfterDays", "expectedAttachmentCount", "columnNormalizationValues"]
        ) {
          delete payload[key];
        }
        const response = await admin.post("/api/order-tracking-sources/save", {
          ...payload,
          Id: id,
          DeleteAfterDays: "",
          ExpectedAttachmentCount: "2",
          ColumnNormalizationValues: {
            Id: 0,
            CustomerPoNumber: "Order Ref",
            Wildcard1: " Notes A ",
          },
        });
        assert.equal(response.status, 200, JSON.stringify(response.body));
        const saved = response.body as Record<string, unknown> & {
          columnNormalizationValues: Record<string, unknown>;
        };
        assert.equal(saved.id, id);
        assert.equal(saved.sourceName, "Beta Parts Ltd");
        assert.equal(saved.uniqueColumn, "QTYFulfilled");
        assert.equal(saved.deleteAfterDays, null);
        assert.equal(saved.expectedAttachmentCount, 2);
        assert.equal(saved.columnNormalizationValues.customerPoNumber, "Order Ref");
        assert.equal(saved.columnNormalizationValues.wildcard1, "Notes A");
        assert.equal(saved.columnNormalizationValues.itemNumber, null);
      },
    );

    await t.step("each validation rule of the form answers 400 naming the field", async () => {
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ sourceName: "" }, "sourceName", /Required/],
        [{ emailSourceId: 0 }, "emailSourceId", /e-mail source/],
        [{ fileType: "pdf" }, "fileType", /csv, xlsx, xls, txt/],
        [{ fromEmail: "" }, "fromEmail", /Required/],
        [{ fromEmail: "not-an-address" }, "fromEmail", /Enter a valid email address/],
        [{ subjectValue: "ab" }, "subjectValue", /at least 3/],
        [{ expectedAttachmentCount: 0 }, "expectedAttachmentCount", /at least 1/],
        [{ expectedAttachmentCount: "two" }, "expectedAttachmentCount", /whole number/],
        [{ attachmentName: "" }, "attachmentName", /Required/],
        [{ secondaryDelimiter: ";;" }, "secondaryDelimiter", /At most 1 character/],
        [{ uniqueColumn: "Notes" }, "uniqueColumn", /Choose one of AccountNumber/],
        [{ uniqueColumn: "" }, "uniqueColumn", /Required/],
        [{ deleteAfterDays: -3 }, "deleteAfterDays", /at least 1/],
      ];
      for (const [override, field, message] of cases) {
        const response = await admin.post(
          "/api/order-tracking-sources/save",
          sourcePayload(override),
        );
        assert.equal(response.status, 400, field);
        const body = response.body as { message: string; errors: Record<string, string[]> };
        assert.match(body.errors[field]?.join(" ") ?? "", message, field);
        assert.match(body.message, new RegExp(field));
      }
    });

    await t.step("an e-mail source that does not exist is a 400 naming the field", async () => {
      for (const emailSourceId of [999, 2147483647]) {
        const response = await admin.post(
          "/api/order-tracking-sources/save",
          sourcePayload({ sourceName: "Nowhere", emailSourceId }),
        );
        assert.equal(response.status, 400);
        const body = response.body as { message: string; errors: Record<string, string[]> };
        assert.match(body.message, new RegExp(`E-mail source ${emailSourceId} does not exist`));
        assert.ok(body.errors.emailSourceId);
      }
      const deleted = await admin.post("/api/email-sources/email/save", {
        id: 0,
        username: "gone@acme.example",
        email: "gone@acme.example",
        password: "gone-secret",
      });
      const goneId = (deleted.body as { id: number }).id;
      assert.equal((await admin.post(`/api/email-sources/delete/${goneId}`)).status, 204);
      const response = await admin.post(
        "/api/order-tracking-sources/save",
        sourcePayload({ sourceName: "Nowhere", emailSourceId: goneId }),
      );
      assert.equal(response.status, 400);
    });

    await t.step("the database refuses a dangling e-mail source id too", async () => {
      await assert.rejects(
        server.db.query(
          `insert into order_tracking_sources (source_name, email_source_id, file_type,
             from_email, subject_value, attachment_name, unique_column)
           values ('x', 424242, 'csv', 'a@b.example', 'abc', 'x', 'CustomerPoNumber')`,
        ),
        (error: { code?: string }) => error.code === "23503",
      );
    });

    await t.step("an e-mail source in use cannot be deleted: 409 naming its users", async () => {
      const response = await admin.post("/api/email-sources/delete/1");
      assert.equal(response.status, 409);
      assert.match((response.body as { message: string }).message, /"Acme Supply"/);
      assert.equal((await admin.get("/api/email-sources/email/1")).status, 200);
    });

    await t.step(
      "a second live source with the same name is a 409 naming the constraint",
      async () => {
        const response = await admin.post(
          "/api/order-tracking-sources/save",
          sourcePayload({ sourceName: "acme supply" }),
        );
        assert.equal(response.status, 409);
        assert.match(
          (response.body as { message: string }).message,
          /order_tracking_sources_name_key/,
        );
      },
    );

    await t.step("delete hides the source; unknown ids are 404", async () => {
      const id = await createSource(admin, { sourceName: "Gamma" });
      assert.equal((await admin.post(`/api/order-tracking-sources/delete/${id}`)).status, 204);
      assert.equal((await admin.get(`/api/order-tracking-sources/get/${id}`)).status, 404);
      const names = ((await admin.get("/api/order-tracking-sources/active")).body as {
        sourceName: string;
      }[]).map((s) => s.sourceName);
      assert.deepEqual(names, ["Acme Supply", "Beta Parts Ltd"]);
      assert.equal((await admin.post(`/api/order-tracking-sources/delete/${id}`)).status, 404);
      const missing = await admin.post("/api/order-tracking-sources/save", {
        ...sourcePayload({ sourceName: "Delta" }),
        id: 999,
      });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: "Order tracking source 999 not found." });
      assert.equal((await admin.get("/api/order-tracking-sources/get/abc")).status, 400);
      // A deleted source's name is free again.
      await createSource(admin, { sourceName: "Gamma" });
    });

    await t.step("only orderUser may use the sources; others get 403, strangers 401", async () => {
      await server.createUser({ username: "olly", password: "olly-password", orderUser: true });
      await server.createUser({ username: "ivan", password: "ivan-password", inventoryUser: true });
      const orderUser = testClient(server.url);
      await orderUser.login("olly", "olly-password");
      assert.equal((await orderUser.get("/api/order-tracking-sources/active")).status, 200);
      const other = testClient(server.url);
      await other.login("ivan", "ivan-password");
      const stranger = testClient(server.url);
      for (
        const [method, path] of [
          ["GET", "/api/order-tracking-sources/active"],
          ["GET", "/api/order-tracking-sources/get/1"],
          ["POST", "/api/order-tracking-sources/save"],
          ["POST", "/api/order-tracking-sources/delete/1"],
        ]
      ) {
        const options = method === "POST" ? { body: sourcePayload({ sourceName: "Nope" }) } : {};
        assert.equal((await other.request(method, path, options)).status, 403, path);
        assert.equal((await stranger.request(method, path, options)).status, 401, path);
      }
      const names = ((await admin.get("/api/order-tracking-sources/active")).body as {
        sourceName: string;
      }[]).map((s) => s.sourceName);
      assert.ok(!names.includes("Nope"));
    });
  } finally {
    await server.close();
  }
});
