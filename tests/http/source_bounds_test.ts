/**
 * A bound on sources per area (issue 28, finding 4; docs/limits.md, "Sources per area"): with
 * MAX_SOURCES_PER_AREA=2 and MAX_VENDORS=2, the third creation in each area answers 400 naming
 * the limit, while editing at the limit works and a deleted source makes room again.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { type TestClient, testClient } from "../support/http.ts";
import { sourcePayload as inventoryPayload } from "../support/inventory.ts";
import { sourcePayload as trackingPayload } from "../support/order_tracking.ts";

const full = (noun: string, variable = "MAX_SOURCES_PER_AREA", limit = 2) => ({
  message: `There are already ${limit} ${noun}, the limit (${variable}). ` +
    "Delete one that is no longer used, or ask the administrator to raise the limit.",
});

function mailbox(name: string, id = 0) {
  return {
    id,
    username: name,
    email: `${name}@example.test`,
    password: "secret-password",
    incomingServer: "127.0.0.1",
    incomingPort: 1,
    outgoingServer: "127.0.0.1",
    outgoingPort: 1,
    ssl: false,
    isMsal: false,
    msalClientId: "",
    msalTennentId: "",
  };
}

function submissionPayload(emailSourceId: number, sourceName: string) {
  return {
    Id: 0,
    sourceName,
    emailSourceId,
    fileType: "csv",
    fromEmail: "orders@customer.example",
    subjectValue: `orders ${sourceName}`,
    containsNotExact: true,
    expectedAttachmentCount: 1,
    expectedNumberOfBatchEmails: 1,
    attachmentName: "orders",
    activeStatus: true,
  };
}

function vendorPayload(sourceId: number, emailSourceId: number, name: string) {
  return {
    Id: 0,
    orderSubmissionSourceId: sourceId,
    vendorNameFromFile: name,
    sendFromEmailSourceModelId: emailSourceId,
    submitEmails: "orders@vendor.example",
    submitEmailSubjectLine: "Orders",
    submitEmailBodyText: "Please ship.",
    vendorWantsSpreadsheet: false,
    vendorWantsForwardedEmail: true,
    submitFileHeaderRowIndex: 1,
    activeStatus: true,
  };
}

/** Posts and expects 200; returns the answer's id. */
async function created(client: TestClient, path: string, body: unknown): Promise<number> {
  const response = await client.post(path, body);
  assert.equal(response.status, 200, `${path}: ${JSON.stringify(response.body)}`);
  return (response.body as { id: number }).id;
}

async function refused(client: TestClient, path: string, body: unknown, expected: object) {
  const response = await client.post(path, body);
  assert.equal(response.status, 400, `${path}: ${JSON.stringify(response.body)}`);
  assert.deepEqual(response.body, expected);
}

Deno.test("sources per area: the creation past the bound answers 400 naming the limit", async (t) => {
  const server = await startTestServer({ env: { MAX_SOURCES_PER_AREA: "2", MAX_VENDORS: "2" } });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const save = "/api/email-sources/email/save";
    let first = 0;
    let third = 0;

    await t.step(
      "e-mail sources: a deleted one makes room, editing at the bound works",
      async () => {
        first = await created(admin, save, mailbox("one"));
        const second = await created(admin, save, mailbox("two"));
        await refused(admin, save, mailbox("three"), full("e-mail sources"));
        assert.equal((await admin.post(save, { ...mailbox("one-renamed", first) })).status, 200);
        assert.equal((await admin.post(`/api/email-sources/delete/${second}`)).status, 204);
        third = await created(admin, save, mailbox("three"));
        await refused(admin, save, mailbox("four"), full("e-mail sources"));
      },
    );

    await t.step("order tracking sources", async () => {
      const path = "/api/order-tracking-sources/save";
      await created(admin, path, trackingPayload({ sourceName: "T1", emailSourceId: first }));
      await created(admin, path, trackingPayload({ sourceName: "T2", emailSourceId: third }));
      await refused(
        admin,
        path,
        trackingPayload({ sourceName: "T3", emailSourceId: first }),
        full("order tracking sources"),
      );
    });

    await t.step("inventory sources: a deleted one makes room", async () => {
      const path = "/api/inventory-sources/inventory/save";
      const one = await created(admin, path, inventoryPayload(first, { sourceName: "I1" }));
      await created(admin, path, inventoryPayload(first, { sourceName: "I2" }));
      await refused(
        admin,
        path,
        inventoryPayload(first, { sourceName: "I3" }),
        full("inventory sources"),
      );
      assert.equal((await admin.post(`/api/inventory-sources/inventory/${one}`)).status, 204);
      await created(admin, path, inventoryPayload(first, { sourceName: "I3" }));
    });

    await t.step("order submission sources and vendors (MAX_VENDORS)", async () => {
      const path = "/api/order-submission/sources/save";
      const source = await created(admin, path, submissionPayload(first, "S1"));
      await created(admin, path, submissionPayload(third, "S2"));
      await refused(
        admin,
        path,
        submissionPayload(first, "S3"),
        full("order submission sources"),
      );
      const vendors = "/api/order-submission/vendor/save";
      await created(admin, vendors, vendorPayload(source, first, "Acme"));
      await created(admin, vendors, vendorPayload(source, first, "Bolt"));
      await refused(
        admin,
        vendors,
        vendorPayload(source, first, "Cogs"),
        full("vendors", "MAX_VENDORS"),
      );
    });

    await t.step("notification settings: a deleted one makes room", async () => {
      const path = "/api/notification-settings";
      const setting = (name: string) => ({
        name,
        sourceTypeId: 1,
        notificationEnabled: false,
        notificationInterval: "Daily",
      });
      const one = await created(admin, path, setting("N1"));
      await created(admin, path, setting("N2"));
      await refused(admin, path, setting("N3"), full("notification settings"));
      assert.equal((await admin.request("DELETE", `${path}/${one}`)).status, 204);
      await created(admin, path, setting("N3"));
    });
  } finally {
    await server.close();
  }
});

Deno.test("sources per area: parallel creations never pass the bound together", async () => {
  const server = await startTestServer({ env: { MAX_SOURCES_PER_AREA: "3" } });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        admin.post("/api/notification-settings", {
          name: `Parallel ${i}`,
          sourceTypeId: 1,
          notificationEnabled: false,
          notificationInterval: "Daily",
        })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 400, 400, 400, 400, 400]);
    const [{ n }] = await server.db.query<{ n: number }>(
      "select count(*)::int as n from notification_settings",
    );
    assert.equal(n, 3);
  } finally {
    await server.close();
  }
});
