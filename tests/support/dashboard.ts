/**
 * Real data for the dashboard's tests (HTTP and browser): sources saved over the API, files run
 * through the real feeds, a mailbox whose poll really fails (nothing listens on its port).
 */
import type { TestServer } from "./server.ts";
import { testClient } from "./http.ts";
import { createSource, csv, HEADERS, orderRow } from "./order_tracking.ts";
import { saveMailbox, sourcePayload as inventoryPayload, stockCsv, upload } from "./inventory.ts";
import { runImport } from "../../api/ingest/import_runs.ts";
import { pollMailbox } from "../../api/ingest/mailbox_poll.ts";

/** The ids of what `seedDashboard` made. */
export interface DashboardSeed {
  mailboxId: number;
  okSourceId: number;
  failingSourceId: number;
  inactiveSourceId: number;
  inventoryId: number;
  heldRunId: number;
}

export const STAFF = { username: "staff", password: "staff-password-1" };

/**
 * A failing mailbox, an order tracking source that works, one whose last file failed, an inactive
 * one, and an inventory source whose last run the guard held. Makes user `staff` (every flag).
 */
export async function seedDashboard(t: TestServer): Promise<DashboardSeed> {
  await t.createUser({
    ...STAFF,
    email: "staff@test.example",
    orderUser: true,
    inventoryUser: true,
    submissionUser: true,
  });
  const staff = testClient(t.url);
  await staff.login(STAFF.username, STAFF.password);
  const deps = t.server.deps;

  // Port 1 on loopback: the poll fails with "connection refused", as a wrong port would.
  const mailboxId = await saveMailbox(staff, "stock-inbox@test.example");
  await pollMailbox(deps, mailboxId, { log: () => {} });

  const okSourceId = await createSource(staff, { sourceName: "Acme Supply" });
  const good = csv([HEADERS, orderRow("PO-1")]);
  await runImport(deps, {
    feed: "order-tracking",
    sourceId: okSourceId,
    trigger: "cli",
    fileName: "acme-orders.csv",
    bytes: new TextEncoder().encode(good),
  });
  const failingSourceId = await createSource(staff, { sourceName: "Bolt Parts" });
  await runImport(deps, {
    feed: "order-tracking",
    sourceId: failingSourceId,
    trigger: "cli",
    fileName: "bolt-orders.csv",
    bytes: new TextEncoder().encode(csv([["Nothing", "Here"], ["a", "b"]])),
  });
  const inactiveSourceId = await createSource(staff, {
    sourceName: "Old Supplier",
    activeStatus: false,
  });

  const saved = await staff.post(
    "/api/inventory-sources/inventory/save",
    inventoryPayload(mailboxId, { sourceName: "Acme stock", guardThreshold: 0.5 }),
  );
  if (saved.status !== 200) throw new Error(`inventory save: ${JSON.stringify(saved.body)}`);
  const inventoryId = (saved.body as { id: number }).id;
  const fields = {
    sourceId: String(inventoryId),
    sendEmailNotification: "false",
    submitViaSftp: "false",
  };
  const path = "/api/inventory-sources/manually-process";
  await upload(staff, t.url, path, {
    name: "stock-monday.csv",
    bytes: stockCsv([["A1", 5], ["A2", 5], ["A3", 5], ["A4", 5]]),
  }, fields);
  const held = await upload(staff, t.url, path, {
    name: "stock-tuesday.csv",
    bytes: stockCsv([["A1", 0], ["A2", 0], ["A3", 0], ["A4", 5]]),
  }, fields);
  const heldRunId = (held.body as { runId: number; held: boolean }).runId;
  if (!(held.body as { held: boolean }).held) throw new Error("the inventory run was not held");
  return { mailboxId, okSourceId, failingSourceId, inactiveSourceId, inventoryId, heldRunId };
}
