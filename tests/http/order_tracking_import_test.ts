/**
 * Order files becoming orders (docs/design.md section 6): mapping, dates and numbers, tracking numbers,
 * upsert by the unique column, notes kept, restore, row errors, rollback, the deletion job and
 * the home stats. Files are imported through the feed; results are read over HTTP.
 */
import assert from "node:assert/strict";
import { deleteStaleOrders } from "../../api/order_tracking/feed/deletion_job.ts";
import { feedByName } from "../../api/ingest/feeds.ts";
import { tick } from "../../api/jobs/runner.ts";
import type { Order } from "../../shared/contract/order_tracking.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { type TestClient, testClient } from "../support/http.ts";
import { createSource, csv, HEADERS, importFile } from "../support/order_tracking.ts";
import { upload } from "../support/inventory.ts";
import { loadNotificationData } from "../../api/notifications/content.ts";
import { writeTable } from "../../shared/files/mod.ts";
import { cutCsv, cutSheetXml, cutZip, withSheetXml } from "../../shared/files/truncated_testing.ts";

const fixture = (name: string) =>
  Deno.readFile(new URL(`../fixtures/orders/${name}`, import.meta.url));

async function list(client: TestClient, body: Record<string, unknown> = {}): Promise<Order[]> {
  const response = await client.post("/api/order-tracking/list", {
    PageSize: 250,
    PageIndex: 1,
    SortParams: { customerPoNumber: true },
    ...body,
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return (response.body as { orders: Order[] }).orders;
}

async function byPo(client: TestClient, po: string): Promise<Order | undefined> {
  return (await list(client, { PoNumberParam: po })).find((o) => o.customerPoNumber === po);
}

Deno.test("order tracking import", async (t) => {
  const server = await startTestServer();
  const { db } = server;
  const admin = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const acme = await createSource(admin, { columnsToIgnore: "Internal Code, Wildcard1" });

    await t.step(
      "the feed is registered and answers the mail rules of active sources",
      async () => {
        const feed = feedByName("order-tracking");
        const rules = await feed.mailRules(db, 1);
        assert.deepEqual(rules.map((r) => [r.sourceId, r.fromEmail, r.containsNotExact]), [
          [acme, "reports@acme.example", true],
        ]);
        assert.deepEqual(await feed.mailRules(db, 2), []);
      },
    );

    await t.step("a producer's CSV becomes orders, mapped, typed and split", async () => {
      const outcome = await importFile(db, acme, await fixture("acme_orders.csv"), {
        fileName: "acme_orders.csv",
      });
      assert.equal(outcome.status, "succeeded");
      assert.equal(outcome.counts.inserted, 4);
      assert.equal(outcome.counts.rows, 5);
      assert.equal(outcome.counts.skipped, 1);
      assert.deepEqual(outcome.rowErrors, [
        {
          row: 5,
          column: "PO #",
          message: "The unique column (customerPoNumber) is empty; the row was not imported.",
        },
        {
          row: 6,
          column: "Order Date",
          message: '"TBD" is not a date; orderDate was left as it was.',
        },
        {
          row: 6,
          column: "Qty Ordered",
          message: '"three" is not a number; qty was left as it was.',
        },
      ]);
      const orders = await list(admin);
      assert.deepEqual(orders.map((o) => o.customerPoNumber), [
        "PO-1001",
        "PO-1002",
        "PO-1003",
        "PO-1005",
      ]);
      const first = orders[0];
      assert.equal(first.itemNumber, "00417");
      assert.equal(first.customerName, "Smith, John");
      assert.equal(first.orderDate, "2024-03-05T00:00:00");
      assert.equal(first.shippedDate, "2024-03-07T00:00:00");
      assert.equal(first.qty, 2);
      assert.equal(first.lineStatus, "Shipped");
      assert.equal(first.notes, null);
      assert.deepEqual(first.trackingNumbers.map((n) => n.trackingNumber), [
        "1Z999AA10123456784",
        "1Z999AA10123456785",
      ]);
      const third = orders[2];
      assert.equal(third.qty, 1200);
      assert.equal(third.shipToName, "123 Main St, Suite 4");
      assert.equal(third.orderDate, "2023-12-31T00:00:00");
      assert.equal(orders[3].orderDate, null);
      assert.equal(orders[3].qty, null);
    });

    await t.step(
      "columns in columnsToIgnore are not read even when named like a field",
      async () => {
        const id = await createSource(admin, {
          sourceName: "Ignorer",
          columnsToIgnore: "wildcard1",
          columnNormalizationValues: { customerPoNumber: "PO" },
        });
        await importFile(
          db,
          id,
          csv([["PO", "Wildcard1", "Wildcard2"], ["IGN-1", "secret", "shown"]]),
        );
        const order = await byPo(admin, "IGN-1");
        assert.equal(order?.wildcard1, null);
        assert.equal(order?.wildcard2, "shown");
      },
    );

    await t.step("the same file again changes nothing; a changed row is one update", async () => {
      const again = await importFile(db, acme, await fixture("acme_orders.csv"));
      assert.equal(again.counts.inserted, 0);
      assert.equal(again.counts.updated, 0);
      assert.equal(again.counts.unchanged, 4);
      const before = await byPo(admin, "PO-1002");
      const note = await admin.post("/api/order-tracking/notes", {
        orderId: before!.id,
        note: "Customer called",
      });
      assert.equal(note.status, 200);
      const changed = await importFile(
        db,
        acme,
        csv([
          HEADERS,
          [
            "PO-1002",
            "SKU-88",
            "Jane Doe",
            "Doe Warehouse",
            "Northwind Traders",
            "Fabrikam",
            " 1Z1;1Z2 ; 1z1;N/A",
            "3/6/2024",
            "3/9/2024",
            "1",
            "1",
            "Shipped",
            "X2",
          ],
        ]),
      );
      assert.equal(changed.counts.updated, 1);
      const after = await byPo(admin, "PO-1002");
      assert.equal(after?.id, before?.id);
      assert.equal(after?.lineStatus, "Shipped");
      assert.equal(after?.shippedDate, "2024-03-09T00:00:00");
      assert.equal(after?.notes, "Customer called");
      assert.deepEqual(after?.trackingNumbers.map((n) => n.trackingNumber), ["1Z1", "1Z2"]);
      // Orders missing from this file are untouched.
      assert.equal((await byPo(admin, "PO-1001"))?.lineStatus, "Shipped");
    });

    await t.step("a tracking number kept by a newer file keeps its id", async () => {
      const before = await byPo(admin, "PO-1002");
      await importFile(db, acme, csv([["PO #", "Tracking"], ["PO-1002", "1Z2;1Z3"]]));
      const after = await byPo(admin, "PO-1002");
      const kept = before!.trackingNumbers.find((n) => n.trackingNumber === "1Z2");
      assert.deepEqual(after?.trackingNumbers[0], kept);
      assert.deepEqual(after?.trackingNumbers.map((n) => n.trackingNumber), ["1Z2", "1Z3"]);
      // A file without the other columns leaves them as they were.
      assert.equal(after?.lineStatus, "Shipped");
    });

    await t.step("the unique key is unique within a source only", async () => {
      const other = await createSource(admin, { sourceName: "Other Co" });
      await importFile(db, other, csv([["PO #", "SKU"], ["PO-1001", "OTHER-SKU"]]));
      const matches = await list(admin, { PoNumberParam: "PO-1001" });
      assert.deepEqual(matches.map((o) => o.itemNumber).sort(), ["00417", "OTHER-SKU"]);
    });

    await t.step(
      "a repeated key in one file is merged: last row wins, numbers combined",
      async () => {
        const outcome = await importFile(
          db,
          acme,
          csv([["PO #", "SKU", "Tracking"], ["PO-2000", "A", "T1"], ["PO-2000", "B", "T2"]]),
        );
        assert.equal(outcome.counts.duplicates, 1);
        const order = await byPo(admin, "PO-2000");
        assert.equal(order?.itemNumber, "B");
        assert.deepEqual(order?.trackingNumbers.map((n) => n.trackingNumber), ["T1", "T2"]);
      },
    );

    await t.step("an XLSX from LibreOffice imports the same values as its CSV", async () => {
      const xlsx = await createSource(admin, { sourceName: "Acme XLSX", fileType: "xlsx" });
      const outcome = await importFile(db, xlsx, await fixture("acme_orders.xlsx"), {
        fileName: "acme_orders.xlsx",
      });
      assert.equal(outcome.counts.inserted, 4);
      assert.equal(outcome.rowErrors.length, 3);
      const [row] = await db.query<{ item: string; date: string; qty: number; tracking: string }>(
        `select item_number as item, to_char(order_date, 'YYYY-MM-DD') as date, qty,
                tracking_search as tracking
           from orders where order_tracking_source_id = $1 and unique_key = 'PO-1001'`,
        [xlsx],
      );
      assert.deepEqual(row, {
        item: "00417",
        date: "2024-03-05",
        qty: 2,
        tracking: "1Z999AA10123456784\n1Z999AA10123456785",
      });
      // Its orders repeat the CSV's PO numbers; the later steps search by PO number.
      await db.query("delete from orders where order_tracking_source_id = $1", [xlsx]);
    });

    await t.step("a file without the unique column fails and writes nothing", async () => {
      const count = async () =>
        (await db.query<{ n: number }>("select count(*)::int as n from orders"))[0].n;
      const before = await count();
      await assert.rejects(
        importFile(db, acme, csv([["SKU", "Customer"], ["X", "Y"]])),
        /no column for the unique field customerPoNumber \(configured as "PO #"\). Headers found: "SKU", "Customer"/,
      );
      await assert.rejects(importFile(db, acme, "\u0000\u0001binary"), Error);
      assert.equal(await count(), before);
    });

    await t.step("a crash after the rows are written rolls the whole file back", async () => {
      await assert.rejects(
        db.transaction(async (tx) => {
          const feed = feedByName("order-tracking");
          await feed.process(tx, server.server.deps, {
            runId: 0,
            sourceId: acme,
            fileName: "late.csv",
            bytes: new TextEncoder().encode(csv([["PO #"], ["PO-CRASH"]])),
            trigger: "cli",
            receivedAt: new Date(),
          });
          throw new Error("disk full");
        }),
        /disk full/,
      );
      assert.equal(await byPo(admin, "PO-CRASH"), undefined);
    });

    await t.step(
      "a deleted order comes back with its notes when a newer file lists it",
      async () => {
        const order = await byPo(admin, "PO-1002");
        assert.equal((await admin.post(`/api/order-tracking/delete/${order!.id}`)).status, 204);
        assert.equal(await byPo(admin, "PO-1002"), undefined);
        // A file that arrived before the deletion does not undo it.
        const old = await importFile(db, acme, csv([["PO #"], ["PO-1002"]]), {
          receivedAt: new Date(Date.now() - 3_600_000),
        });
        assert.equal(old.counts.stillDeleted, 1);
        assert.equal(await byPo(admin, "PO-1002"), undefined);
        const newer = await importFile(db, acme, csv([["PO #"], ["PO-1002"]]), {
          receivedAt: new Date(Date.now() + 1000),
        });
        assert.equal(newer.counts.restored, 1);
        const back = await byPo(admin, "PO-1002");
        assert.equal(back?.id, order?.id);
        assert.equal(back?.notes, "Customer called");
      },
    );

    await t.step("the deletion job deletes orders unseen for deleteAfterDays", async () => {
      const days = 86_400_000;
      const now = new Date();
      const quiet = await createSource(admin, { sourceName: "Quiet", deleteAfterDays: 10 });
      const keep = await createSource(admin, { sourceName: "Keeper", deleteAfterDays: null });
      const paused = await createSource(admin, {
        sourceName: "Paused",
        deleteAfterDays: 1,
        activeStatus: false,
      });
      await importFile(db, quiet, csv([["PO #"], ["Q-OLD"]]), {
        receivedAt: new Date(now.getTime() - 11 * days),
      });
      await importFile(db, quiet, csv([["PO #"], ["Q-RECENT"]]), {
        receivedAt: new Date(now.getTime() - 9 * days),
      });
      await importFile(db, keep, csv([["PO #"], ["K-OLD"]]), {
        receivedAt: new Date(now.getTime() - 400 * days),
      });
      await importFile(db, paused, csv([["PO #"], ["P-OLD"]]), {
        receivedAt: new Date(now.getTime() - 5 * days),
      });
      // The job runner's tick schedules the daily job and runs it.
      await tick(server.server.deps, "test-worker", () => {});
      const [job] = await db.query<{ status: string }>(
        "select status from jobs where kind = 'order-tracking-delete-stale'",
      );
      assert.equal(job?.status, "succeeded");
      assert.equal(await byPo(admin, "Q-OLD"), undefined);
      assert.ok(await byPo(admin, "Q-RECENT"));
      assert.ok(await byPo(admin, "K-OLD"));
      assert.ok(await byPo(admin, "P-OLD"));
      const again = await deleteStaleOrders(db, now);
      assert.deepEqual(again.filter((d) => [quiet, keep, paused].includes(d.sourceId)), []);
      await importFile(db, quiet, csv([["PO #"], ["Q-NEW"]]), {
        receivedAt: new Date(now.getTime() - 20 * days),
      });
      assert.deepEqual(await deleteStaleOrders(db, now), [
        { sourceId: quiet, sourceName: "Quiet", deleted: 1 },
      ]);
    });

    await t.step("an order listed again unchanged counts as seen then", async () => {
      const days = 86_400_000;
      const now = new Date();
      const daily = await createSource(admin, { sourceName: "Daily", deleteAfterDays: 10 });
      const file = csv([["PO #"], ["D-RELISTED"], ["D-DROPPED"]]);
      const first = await importFile(db, daily, file, {
        receivedAt: new Date(now.getTime() - 30 * days),
      });
      assert.equal(first.counts.inserted, 2);
      // Both listed again unchanged 20 days ago, then only one of them 5 days ago.
      const again = await importFile(db, daily, file, {
        receivedAt: new Date(now.getTime() - 20 * days),
      });
      assert.equal(again.counts.unchanged, 2);
      const relisted = await importFile(
        db,
        daily,
        csv([["PO #"], ["D-RELISTED"]]),
        {
          receivedAt: new Date(now.getTime() - 5 * days),
        },
      );
      assert.equal(relisted.counts.unchanged, 1);
      const deleted = await deleteStaleOrders(db, now);
      assert.deepEqual(deleted.filter((d) => d.sourceId === daily), [
        { sourceId: daily, sourceName: "Daily", deleted: 1 },
      ]);
      assert.ok(await byPo(admin, "D-RELISTED"));
      assert.equal(await byPo(admin, "D-DROPPED"), undefined);
    });

    await t.step("update-stats counts per source for the past 24 hours", async () => {
      await db.query(
        `update orders set last_updated = now() - interval '25 hours'
          where unique_key = 'PO-1003' and order_tracking_source_id = $1`,
        [acme],
      );
      const response = await admin.get("/api/order-tracking/list/update-stats");
      assert.equal(response.status, 200);
      const rows = response.body as {
        orderTrackingSourceName: string;
        ordersUpdated: number;
        ordersDeleted: number;
      }[];
      const byName = Object.fromEntries(rows.map((r) => [r.orderTrackingSourceName, r]));
      // PO-1001, PO-1002 (restored), PO-1005, PO-2000 changed today; PO-1003 did not.
      assert.deepEqual(byName["Acme Supply"], {
        orderTrackingSourceName: "Acme Supply",
        ordersUpdated: 4,
        ordersDeleted: 0,
      });
      assert.deepEqual(byName["Quiet"], {
        orderTrackingSourceName: "Quiet",
        ordersUpdated: 3,
        ordersDeleted: 2,
      });
      assert.equal(byName["Paused"].ordersUpdated, 1);
      await server.createUser({ username: "ines", password: "ines-password", inventoryUser: true });
      const other = testClient(server.url);
      await other.login("ines", "ines-password");
      assert.equal((await other.get("/api/order-tracking/list/update-stats")).status, 200);
    });
  } finally {
    await server.close();
  }
});

/** Imports a file over HTTP as `cli orders import` does: a stored run, processed at once. */
async function importOverHttp(
  client: TestClient,
  origin: string,
  sourceId: number,
  file: { name: string; bytes: Uint8Array },
) {
  const res = await upload(
    client,
    origin,
    `/api/order-tracking-sources/${sourceId}/import`,
    file,
    {},
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const run = res.body as { id: number; status: string; error: string | null };
  const shown = (await client.get(`/api/import-runs/${run.id}`)).body as {
    status: string;
    error: string | null;
    counts: Record<string, number>;
    rowErrors: { row: number; column?: string; message: string }[];
  };
  return shown;
}

Deno.test("order tracking import: dates that cannot exist keep their rows out; the run, the list and the notification agree", async () => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const acme = await createSource(admin);
    const row = (
      po: string,
      date: string,
    ) => [po, "SKU", "Cust", "Ship", "Vendor", "Brand", "", date, "", 1, 0, "Open", ""];
    const file = csv([
      HEADERS,
      row("PO-A", "3/5/2024"),
      row("PO-FEB30", "2/30/2024"),
      row("PO-M13", "2024-13-01"),
      row("PO-Y1850", "1/2/1850"),
      row("PO-Y2300", "2300-01-02"),
      row("PO-E", "2/29/2024"),
    ]);
    const before = new Date(Date.now() - 1000);
    const run = await importOverHttp(admin, server.url, acme, {
      name: "orders.csv",
      bytes: new TextEncoder().encode(file),
    });
    assert.equal(run.status, "succeeded");
    assert.deepEqual(
      [run.counts.rows, run.counts.inserted, run.counts.skipped, run.counts.rowErrors],
      [6, 2, 4, 4],
    );
    assert.deepEqual(
      run.rowErrors.map((e) => [e.row, e.column, e.message.replace(/ \(.*\)/, "")]),
      [
        [3, "Order Date", '"2/30/2024" is not a date that exists; the row was not imported.'],
        [4, "Order Date", '"2024-13-01" is not a date that exists; the row was not imported.'],
        [5, "Order Date", '"1/2/1850" is not a date that exists; the row was not imported.'],
        [6, "Order Date", '"2300-01-02" is not a date that exists; the row was not imported.'],
      ],
    );
    const orders = await list(admin);
    assert.deepEqual(orders.map((o) => [o.customerPoNumber, o.orderDate]), [
      ["PO-A", "2024-03-05T00:00:00"],
      ["PO-E", "2024-02-29T00:00:00"],
    ]);
    // The summary mail's order changes come from what was stored: only the two new orders.
    const data = await loadNotificationData(server.db, {
      sourceTypeId: 3,
      sourceId: acme,
      window: { from: before, to: new Date(Date.now() + 1000) },
    });
    assert.deepEqual(
      (data.orderChanges ?? []).map((c) => [c.orderNumber, c.change]),
      [["PO-A", "New"], ["PO-E", "New"]],
    );
  } finally {
    await server.close();
  }
});

Deno.test("order tracking import: a file cut off in transfer fails its run with the reason and stores no order", async () => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const acme = await createSource(admin);
    const rows = Array.from({ length: 30 }, (_, i) => [
      `PO-${i}`,
      "SKU",
      "Cust",
      `Line one\nline two ${i}`,
      "Vendor",
      "Brand",
      "",
      "3/5/2024",
      "",
      1,
      0,
      "Open",
      "",
    ]);
    const whole = writeTable(HEADERS, rows, "csv");
    const cuts: [string, Uint8Array, RegExp][] = [
      ["orders.csv", cutCsv(whole), /^The file ends inside a quoted field that opens in row \d+/],
      ["orders.xlsx", cutZip(writeTable(HEADERS, rows, "xlsx")), /^The workbook ends early/],
      [
        "orders.xlsx",
        withSheetXml(writeTable(HEADERS, rows, "xlsx"), (x) => cutSheetXml(x, 0.6)),
        /^The workbook ends early \(the XML of xl\/worksheets\/sheet1\.xml stops/,
      ],
    ];
    for (const [name, bytes, reason] of cuts) {
      const run = await importOverHttp(admin, server.url, acme, { name, bytes });
      assert.equal(run.status, "failed", name);
      assert.match(run.error ?? "", reason);
      assert.doesNotMatch(run.error ?? "", /\n/);
      assert.deepEqual(await list(admin), [], `${name}: no order stored`);
    }
  } finally {
    await server.close();
  }
});

Deno.test("order file import over HTTP: a body that is not a file names what is missing", async (t) => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const acme = await createSource(admin);
    const path = `/api/order-tracking-sources/${acme}/import`;
    const origin = new URL(server.url).origin;
    const cases: { name: string; body: BodyInit; type?: string; message: string; file?: true }[] = [
      {
        name: "JSON",
        body: '{"file":"orders.csv"}',
        type: "application/json",
        message: "Send a file.",
        file: true,
      },
      {
        name: "a URL-encoded form",
        body: new URLSearchParams({ file: "orders.csv" }),
        message: "Send a file.",
        file: true,
      },
      {
        name: "a form without its file",
        body: new FormData(),
        message: "Send a file.",
        file: true,
      },
      {
        name: "a multipart body that is not one",
        body: "these are not parts",
        type: "multipart/form-data; boundary=x",
        message: "Send the file as multipart/form-data.",
      },
    ];
    for (const c of cases) {
      await t.step(c.name, async () => {
        const response = await admin.request("POST", path, {
          rawBody: c.body,
          headers: { origin, ...(c.type && { "content-type": c.type }) },
        });
        assert.equal(response.status, 400);
        const body = response.body as { message: string; errors?: Record<string, string[]> };
        assert.equal(body.message, c.message);
        assert.deepEqual(body.errors?.file, c.file ? ["Required"] : undefined);
      });
    }
    const runs = await admin.get(`/api/runs?area=order-tracking&sourceId=${acme}`);
    assert.equal(runs.status, 200);
    assert.deepEqual((runs.body as { runs: unknown[] }).runs, [], "no run was stored");
  } finally {
    await server.close();
  }
});
