/**
 * The loaders of a notification's window (docs/notifications.md, "Content per source type") over
 * rows as the inventory and order submission feeds record them, and the mail each source type's
 * data renders to with the sections its switches ask for. Runs on PGlite, or on the PostgreSQL of
 * DATABASE_URL.
 */
import assert from "node:assert/strict";
import { openTestDb } from "../../tests/support/db.ts";
import type { Db } from "../db/client.ts";
import type { SourceTypeId } from "../../shared/contract/notifications.ts";
import {
  type NotificationData,
  renderNotification,
  type RenderSetting,
} from "../../shared/notifications/render.ts";
import {
  loadInventoryData,
  loadNotificationData,
  loadOrderSubmissionData,
  loadOrderVendorData,
  type LoadScope,
} from "./content.ts";

const WINDOW = { from: new Date("2026-03-10T07:00:00Z"), to: new Date("2026-03-11T07:00:00Z") };
const at = (hours: number) => new Date(WINDOW.from.getTime() + hours * 3_600_000).toISOString();

async function one<T>(db: Db, sql: string, params: unknown[] = []): Promise<T> {
  const [row] = await db.query<T>(sql, params);
  return row;
}

async function insertRun(db: Db, run: {
  feed: string;
  sourceId: number;
  status: string;
  fileName: string;
  finishedAt: string;
  counts?: Record<string, number>;
  rowErrors?: unknown[];
  error?: string | null;
}): Promise<number> {
  const row = await one<{ id: number }>(
    db,
    `insert into import_runs (feed, source_id, trigger, status, file_name, received_at,
       finished_at, counts, row_errors, error)
     values ($1, $2, 'mail', $3, $4, $5, $5, $6::text::jsonb, $7::text::jsonb, $8) returning id`,
    [
      run.feed,
      run.sourceId,
      run.status,
      run.fileName,
      run.finishedAt,
      JSON.stringify(run.counts ?? {}),
      JSON.stringify(run.rowErrors ?? []),
      run.error ?? null,
    ],
  );
  return row.id;
}

/**
 * Inventory "Acme Stock": a run the day before the window (A 5, B 0, C 3, D 2), a delivered run in
 * the window (C to zero and Inactive, D up, E new), a held run (A down; its flip not delivered), a
 * failed run, and a run after the window (ignored). "Beta Stock" has nothing; "Gone Stock" is
 * deleted.
 */
async function seedInventory(db: Db) {
  const { id: acme } = await one<{ id: number }>(
    db,
    `insert into inventory_sources (source_name) values ('Acme Stock') returning id`,
  );
  await db.query(`insert into inventory_sources (source_name) values ('Beta Stock')`);
  const { id: gone } = await one<{ id: number }>(
    db,
    `insert into inventory_sources (source_name, deleted_status) values ('Gone Stock', true)
     returning id`,
  );
  const runs: Array<{
    hours: number;
    status: string;
    quantities: Record<string, number>;
    flips: unknown[];
    delivery: string;
    sourceId?: number;
  }> = [
    {
      hours: -23,
      status: "succeeded",
      quantities: { A: 5, B: 0, C: 3, D: 2 },
      flips: [{ itemNumber: "B", from: "Active", to: "Inactive" }],
      delivery: "delivered",
    },
    {
      hours: 1,
      status: "succeeded",
      quantities: { A: 5, B: 0, C: 0, D: 4, E: 1 },
      flips: [{ itemNumber: "C", from: "Active", to: "Inactive" }],
      delivery: "delivered",
    },
    {
      hours: 13,
      status: "held",
      quantities: { A: 2, B: 0, C: 0, D: 4, E: 1 },
      flips: [{ itemNumber: "A", from: "Active", to: "Inactive" }],
      delivery: "held",
    },
    {
      hours: 26,
      status: "succeeded",
      quantities: { A: 9, B: 9, C: 7, D: 4, E: 1 },
      flips: [{ itemNumber: "B", from: "Inactive", to: "Active" }],
      delivery: "delivered",
    },
    // a deleted source's run: its history is kept, its items are no longer alerted
    {
      hours: 2,
      status: "succeeded",
      quantities: { X: 0 },
      flips: [],
      delivery: "delivered",
      sourceId: gone,
    },
  ];
  for (const [index, run] of runs.entries()) {
    const sourceId = run.sourceId ?? acme;
    const runId = await insertRun(db, {
      feed: "inventory",
      sourceId,
      status: run.status,
      fileName: `stock-${index}.csv`,
      finishedAt: at(run.hours),
      counts: { processed: Object.keys(run.quantities).length, flips: run.flips.length },
    });
    await db.query(
      `insert into inventory_runs (import_run_id, inventory_source_id, output_file_name, flips,
         delivery_status, delivered_at, created_at)
       values ($1, $2, 'out.csv', $3::text::jsonb, $4, $5, $6)`,
      [
        runId,
        sourceId,
        JSON.stringify(run.flips),
        run.delivery,
        run.delivery === "delivered" ? at(run.hours + 0.1) : null,
        at(run.hours),
      ],
    );
    for (const [item, quantity] of Object.entries(run.quantities)) {
      await db.query(
        `insert into inventory_item_snapshots (inventory_source_id, import_run_id, item_number,
           quantity, taken_at) values ($1, $2, $3, $4, $5)`,
        [sourceId, runId, item, quantity, at(run.hours)],
      );
    }
  }
  await insertRun(db, {
    feed: "inventory",
    sourceId: acme,
    status: "failed",
    fileName: "broken.csv",
    finishedAt: at(5),
    error: 'Column "Qty" not found',
    rowErrors: [{ row: 4, column: "Qty", message: "not a number" }],
  });
  return { acme, gone };
}

/**
 * Order submission "Orders In" with vendors "Acme Supply" and "Bolt Co": a run in the window with
 * three new rows (PO-1 twice, PO-2) and two rows of an unknown vendor, a short batch released in
 * the window, and vendor e-mails: sent, failed, uncertain, pending (not reported) and one sent
 * before the window.
 */
async function seedSubmission(db: Db) {
  const { id: box } = await one<{ id: number }>(
    db,
    `insert into email_sources (username, email) values ('orders', 'orders@example.test')
     returning id`,
  );
  const { id: source } = await one<{ id: number }>(
    db,
    `insert into order_submission_sources (source_name, email_source_id, from_email,
       subject_value, expected_number_of_batch_emails)
     values ('Orders In', $1, 'shop@example.test', 'Orders', 2) returning id`,
    [box],
  );
  const vendor = async (name: string) =>
    (await one<{ id: number }>(
      db,
      `insert into vendor_sources (order_submission_source_id, vendor_name_from_file,
         send_from_email_source_id, submit_emails, submit_cc_emails, submit_email_subject_line)
       values ($1, $2, $3, $4, $5, 'PO') returning id`,
      [source, name, box, `${name.split(" ")[0].toLowerCase()}@vendor.test`, ""],
    )).id;
  const acme = await vendor("Acme Supply");
  const bolt = await vendor("Bolt Co");
  const runId = await insertRun(db, {
    feed: "order-submission",
    sourceId: source,
    status: "succeeded",
    fileName: "orders-0310.csv",
    finishedAt: at(2),
    counts: { rows: 5, vendors: 2, newRows: 3, unmatchedRows: 2 },
    rowErrors: [
      { row: 5, column: "Vendor", message: 'No vendor named "Zed Parts"; not sent.' },
      { row: 6, column: "Vendor", message: 'No vendor named "Zed Parts"; not sent.' },
    ],
  });
  const rows: Array<[number, string, number]> = [[acme, "PO-1", 2], [acme, "PO-1", 3], [
    bolt,
    "PO-2",
    4,
  ]];
  for (const [vendorId, po, rowNumber] of rows) {
    await db.query(
      `insert into submission_rows (vendor_source_id, row_fingerprint, import_run_id, row_number,
         po_number, cells, fields, vendor_name, received_at)
       values ($1, $2, $3, $4, $5, '[]', '{}', '', $6)`,
      [vendorId, `fp-${rowNumber}`, runId, rowNumber, po, at(1.9)],
    );
  }
  await db.query(
    `insert into submission_inbound (import_run_id, order_submission_source_id, batch_day,
       received_at, status) values ($1, $2, '2026-03-09', $3, 'released')`,
    [runId, source, at(-8)],
  );
  await db.query(
    `insert into submission_batches (order_submission_source_id, batch_day, released_at, reason)
     values ($1, '2026-03-09', $2, 'day_ended_short')`,
    [source, at(3)],
  );
  const submissions: Array<{
    vendorId: number;
    status: string;
    po: string[];
    rows: number;
    sentAt: string | null;
    sendingAt: string | null;
    error?: string;
  }> = [
    { vendorId: acme, status: "sent", po: ["PO-1"], rows: 2, sentAt: at(4), sendingAt: at(4) },
    {
      vendorId: bolt,
      status: "failed",
      po: ["PO-2"],
      rows: 1,
      sentAt: null,
      sendingAt: at(5),
      error: "Sending to vendor Bolt Co failed: 550 mailbox unavailable",
    },
    { vendorId: acme, status: "uncertain", po: ["PO-3"], rows: 1, sentAt: null, sendingAt: at(6) },
    { vendorId: acme, status: "pending", po: ["PO-4"], rows: 1, sentAt: null, sendingAt: null },
    { vendorId: acme, status: "sent", po: ["PO-0"], rows: 1, sentAt: at(-5), sendingAt: at(-5) },
  ];
  for (const [index, s] of submissions.entries()) {
    await db.query(
      `insert into submissions (vendor_source_id, idempotency_key, batch, po_numbers, row_count,
         send_from_email_source_id, to_addresses, subject, body, message_id, status, last_error,
         created_at, sending_at, sent_at)
       values ($1, $2, 'b', $3::text[], $4, $5, $6, 'PO', 'body', $7, $8, $9, $10, $11, $12)`,
      [
        s.vendorId,
        `key-${index}`,
        s.po,
        s.rows,
        box,
        s.vendorId === acme ? "acme@vendor.test" : "bolt@vendor.test",
        `<m${index}@example.test>`,
        s.status,
        s.error ?? null,
        s.sendingAt ?? at(6.5),
        s.sendingAt,
        s.sentAt,
      ],
    );
  }
  return { source, acme, bolt };
}

const scope = (sourceTypeId: SourceTypeId, sourceId: number | null): LoadScope => ({
  sourceTypeId,
  sourceId,
  window: WINDOW,
});

const iso = (value: Date | string | null) => value == null ? null : new Date(value).toISOString();

function setting(
  sourceTypeId: SourceTypeId,
  sourceName: string,
  switches: Partial<RenderSetting> = {},
): RenderSetting {
  return {
    id: 7,
    name: "Summary",
    sourceTypeId,
    sourceId: 1,
    sourceName,
    notificationInterval: "Daily",
    includeStatusChanges: true,
    includeQuantityChanges: true,
    includeZeroQuantityAlerts: true,
    includeDailyBreakdown: true,
    includeItemDetails: true,
    includeErrorAlerts: true,
    includeSuccessAlerts: true,
    emailSubjectPrefix: "[BO]",
    ...switches,
  };
}

const render = (s: RenderSetting, data: NotificationData) =>
  renderNotification({
    setting: s,
    window: WINDOW,
    data,
    publicUrl: "https://bo.example.test",
    timeZone: "UTC",
  });

/** The section titles of a rendered text part (a title is followed by a dashed underline). */
function sectionTitles(text: string): string[] {
  const lines = text.split("\n");
  return lines.filter((line, i) => /^-+$/.test(lines[i + 1] ?? "") && line !== "");
}

Deno.test("notification content per source type", async (t) => {
  const { db, close } = await openTestDb();
  try {
    const inventory = await seedInventory(db);
    const submission = await seedSubmission(db);

    await t.step("inventory: flips, quantity changes, zero-quantity items", async () => {
      const data = await loadInventoryData(db, scope(1, inventory.acme));
      assert.deepEqual(
        data.statusChanges!.map((c) => [c.sourceName, c.itemNumber, c.from, c.to, iso(c.at)]),
        [["Acme Stock", "C", "Active", "Inactive", at(1.1)]],
      );
      assert.deepEqual(
        data.quantityChanges!.map((c) => [c.itemNumber, c.from, c.to, iso(c.at)]),
        [
          ["C", 3, 0, at(1)],
          ["D", 2, 4, at(1)],
          ["E", null, 1, at(1)],
          ["A", 5, 2, at(13)],
        ],
      );
      assert.ok(data.quantityChanges!.every((c) => c.sourceName === "Acme Stock"));
      assert.deepEqual(
        data.zeroQuantityItems!.map((z) => [z.sourceName, z.itemNumber, iso(z.since)]),
        [["Acme Stock", "B", null], ["Acme Stock", "C", at(1)]],
      );

      // every source: the same (Beta has nothing; the deleted source's items are not alerted,
      // its delivered flips would still count, it had none)
      const all = await loadInventoryData(db, scope(1, null));
      assert.deepEqual(all.quantityChanges, data.quantityChanges);
      assert.deepEqual(all.zeroQuantityItems, data.zeroQuantityItems);
      assert.deepEqual(all.statusChanges, data.statusChanges);

      // a window with a source's very first run: no changes from nothing
      const first = await loadInventoryData(db, {
        ...scope(1, inventory.acme),
        window: { from: new Date(at(-30)), to: new Date(at(-20)) },
      });
      assert.deepEqual(first.quantityChanges, []);
      assert.deepEqual(first.zeroQuantityItems!.map((z) => z.itemNumber), ["B"]);
    });

    await t.step("inventory: import runs of the window with their errors", async () => {
      const data = await loadNotificationData(db, scope(1, inventory.acme));
      assert.deepEqual(
        data.importRuns!.map((r) => [r.status, r.fileName, iso(r.finishedAt)]),
        [
          ["succeeded", "stock-1.csv", at(1)],
          ["failed", "broken.csv", at(5)],
          ["held", "stock-2.csv", at(13)],
        ],
      );
      assert.deepEqual(data.importRuns![1].errors, [
        'Column "Qty" not found',
        "Row 4: not a number",
      ]);
      assert.deepEqual(data.importRuns![0].counts, { processed: 5, flips: 1 });
      // runs of a deleted source keep its name
      const all = await loadNotificationData(db, scope(1, null));
      assert.ok(all.importRuns!.some((r) => r.sourceName === "Gone Stock"));
    });

    await t.step("order submission: rows received, unmatched vendors, short batch", async () => {
      const data = await loadOrderSubmissionData(db, scope(2, submission.source));
      assert.deepEqual(
        data.orderChanges!.map((c) => [c.sourceName, c.orderNumber, c.change, iso(c.at)]),
        [
          ["Orders In", "PO-1", "Received for vendor Acme Supply: 2 rows", at(1.9)],
          ["Orders In", "PO-2", "Received for vendor Bolt Co: 1 row", at(1.9)],
        ],
      );
      assert.deepEqual(data.warnings!.map((w) => [w.subject, w.message, iso(w.at)]), [
        ["orders-0310.csv", 'Unmatched vendor "Zed Parts": 2 rows not sent', at(2)],
        ["Batch of 2026-03-09", "Short batch: 1 of 2 e-mails, sent at the day's end", at(3)],
      ]);
      assert.deepEqual(await loadOrderSubmissionData(db, scope(2, null)), data);
      const other = await loadOrderSubmissionData(db, scope(2, submission.source + 100));
      assert.deepEqual(other, { orderChanges: [], warnings: [] });
    });

    await t.step("order vendor: sent, failed and uncertain sendings", async () => {
      const data = await loadOrderVendorData(db, scope(4, null));
      assert.deepEqual(
        data.vendorSendings!.map((s) => [
          s.vendorName,
          s.status,
          s.poNumbers,
          s.orderCount,
          s.recipients,
          s.error,
          iso(s.sentAt),
        ]),
        [
          ["Acme Supply", "sent", ["PO-1"], 1, "acme@vendor.test", null, at(4)],
          [
            "Bolt Co",
            "failed",
            ["PO-2"],
            1,
            "bolt@vendor.test",
            "Sending to vendor Bolt Co failed: 550 mailbox unavailable",
            at(5),
          ],
          ["Acme Supply", "uncertain", ["PO-3"], 1, "acme@vendor.test", null, at(6)],
        ],
      );
      const bolt = await loadOrderVendorData(db, scope(4, submission.bolt));
      assert.deepEqual(bolt.vendorSendings!.map((s) => s.status), ["failed"]);
    });

    await t.step("rendered mails show the sections their switches ask for", async () => {
      const inv = render(
        setting(1, "Acme Stock"),
        await loadNotificationData(db, scope(1, inventory.acme)),
      );
      assert.deepEqual(sectionTitles(inv.text), [
        "Errors",
        "Successful runs",
        "Status changes",
        "Quantity changes",
        "Zero quantity alerts",
        "Daily breakdown",
      ]);
      assert.match(inv.subject, /^\[BO\] Inventory summary: Acme Stock, .* – 1 failure$/);
      for (const expected of ["broken.csv", "Active → Inactive", "5 → 2", "– → 1", "3 → 0"]) {
        assert.ok(inv.text.includes(expected), expected);
        assert.ok(inv.html.includes(expected.replace(">", "&gt;")), expected);
      }
      const quiet = render(
        setting(1, "Acme Stock", {
          includeQuantityChanges: false,
          includeZeroQuantityAlerts: false,
          includeDailyBreakdown: false,
          includeSuccessAlerts: false,
        }),
        await loadNotificationData(db, scope(1, inventory.acme)),
      );
      assert.deepEqual(sectionTitles(quiet.text), ["Errors", "Status changes"]);

      const sub = render(
        setting(2, "Orders In"),
        await loadNotificationData(db, scope(2, submission.source)),
      );
      assert.deepEqual(sectionTitles(sub.text), [
        "Warnings",
        "Successful runs",
        "Order changes",
        "Daily breakdown",
      ]);
      assert.ok(sub.text.includes('Unmatched vendor "Zed Parts": 2 rows not sent'));
      assert.ok(sub.text.includes("Short batch: 1 of 2 e-mails"));
      assert.ok(sub.html.includes("Unmatched vendor &quot;Zed Parts&quot;"));
      const subNoAlerts = render(
        setting(2, "Orders In", { includeErrorAlerts: false, includeStatusChanges: false }),
        await loadNotificationData(db, scope(2, submission.source)),
      );
      assert.deepEqual(sectionTitles(subNoAlerts.text), ["Successful runs", "Daily breakdown"]);

      const vendor = render(
        setting(4, "", { sourceId: null }),
        await loadNotificationData(db, scope(4, null)),
      );
      assert.deepEqual(sectionTitles(vendor.text), [
        "Errors",
        "Successful runs",
        "Daily breakdown",
      ]);
      assert.match(vendor.subject, /All Submission Vendor sources, .* – 2 failures$/);
      assert.ok(vendor.text.includes("3 vendor sendings (2 failed)"));
      assert.ok(vendor.text.includes("Vendor Bolt Co (PO PO-2)"));
      assert.ok(vendor.text.includes("550 mailbox unavailable"));
      assert.ok(vendor.text.includes("uncertain whether it went out"));
      assert.ok(vendor.text.includes("Vendor Acme Supply (PO PO-1) | 1 order to acme@vendor.test"));
    });
  } finally {
    await close();
  }
});
