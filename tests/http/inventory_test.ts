/**
 * /api/inventory-sources over HTTP: the contract (list, read, save, delete, manual processing,
 * debug modification), permissions (401, 403), bad input (400 with a message), the sample file
 * kept or replaced, the SFTP secret behind its placeholder and bound to its server, the preview,
 * a run held by the guard and released.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { saveMailbox, sourcePayload, stockCsv, upload } from "../support/inventory.ts";
import { writeTable } from "../../shared/files/mod.ts";
import { cutCsv, cutSheetXml, cutZip, withSheetXml } from "../../shared/files/truncated_testing.ts";

const fixture = (name: string) =>
  Deno.readFile(new URL(`../fixtures/files/${name}`, import.meta.url));

Deno.test("inventory sources: contract, permissions, manual processing, guard", async (t) => {
  const server = await startTestServer({ env: { DEBUG_TOOLS: "true" } });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    await server.createUser({ username: "inv", password: "inv-password-1", inventoryUser: true });
    await server.createUser({ username: "ord", password: "ord-password-1", orderUser: true });
    const inv = testClient(server.url);
    await inv.login("inv", "inv-password-1");
    const ord = testClient(server.url);
    await ord.login("ord", "ord-password-1");
    const mailbox = await saveMailbox(admin);
    let id = 0;

    await t.step("permissions: anonymous 401, other flags 403", async () => {
      assert.equal(
        (await testClient(server.url).get("/api/inventory-sources/inventories")).status,
        401,
      );
      assert.equal((await ord.get("/api/inventory-sources/inventories")).status, 403);
      assert.equal(
        (await ord.post("/api/inventory-sources/inventory/save", sourcePayload(mailbox))).status,
        403,
      );
    });

    await t.step("save validates, creates, answers the nested fileData", async () => {
      const bad = await inv.post("/api/inventory-sources/inventory/save", {
        ...sourcePayload(mailbox),
        sourceName: "",
        fileData: { ...sourcePayload(mailbox).fileData, inventoryFile: null },
      });
      assert.equal(bad.status, 400);
      const errors = (bad.body as { errors: Record<string, string[]> }).errors;
      assert.deepEqual(errors.sourceName, ["Source name is required"]);
      assert.deepEqual(errors["fileData.inventoryFile"], [
        "Sample inventory file is required for new sources",
      ]);
      const saved = await inv.post(
        "/api/inventory-sources/inventory/save",
        // keys in any case
        {
          ...sourcePayload(mailbox, {
            sftpServerAddress: "127.0.0.1",
            sftpUsername: "u",
            sftpPassword: "pw-1",
          }),
          Id: 0,
        },
      );
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      id = (saved.body as { id: number }).id;
      const got = await inv.get(`/api/inventory-sources/inventory/${id}`);
      assert.equal(got.status, 200);
      const body = got.body as Record<string, unknown> & { fileData: Record<string, unknown> };
      assert.equal(body.sourceName, "Acme stock");
      assert.equal(body.sftpPassword, "********");
      assert.equal(body.debugTools, true);
      assert.equal(body.fileData.inventoryFileName, "seller_feed.csv");
      assert.ok(typeof body.fileData.inventoryFileData === "string");
      assert.equal(body.fileData.activeStatus, true);
      const list = (await inv.get("/api/inventory-sources/inventories")).body as { id: number }[];
      assert.deepEqual(list.map((s) => s.id), [id]);
    });

    await t.step("re-sending the loaded file keeps it; a new one replaces it", async () => {
      const got = (await inv.get(`/api/inventory-sources/inventory/${id}`)).body as
        & Record<string, unknown>
        & {
          fileData: Record<string, unknown>;
        };
      const resent = await inv.post("/api/inventory-sources/inventory/save", {
        ...got,
        activeStatus: false,
        fileData: { ...got.fileData, inventoryFile: null },
      });
      assert.equal(resent.status, 200, JSON.stringify(resent.body));
      const after = (await inv.get(`/api/inventory-sources/inventory/${id}`)).body as {
        activeStatus: boolean;
        fileData: Record<string, unknown>;
      };
      assert.equal(after.fileData.inventoryFileData, got.fileData.inventoryFileData);
      assert.equal(after.fileData.activeStatus, false);
      const replaced = await inv.post("/api/inventory-sources/inventory/save", {
        ...got,
        fileData: {
          ...got.fileData,
          inventoryFile: btoa("Item,Status,Date\r\n"),
          inventoryFileName: "new_sample.csv",
        },
      });
      assert.equal(replaced.status, 200);
      const now = (await inv.get(`/api/inventory-sources/inventory/${id}`)).body as {
        fileData: Record<string, unknown>;
      };
      assert.equal(now.fileData.inventoryFileName, "new_sample.csv");
      assert.equal(now.fileData.inventoryFileData, btoa("Item,Status,Date\r\n"));
    });

    await t.step("the SFTP password: placeholder keeps it, a new host needs it again", async () => {
      const got = (await inv.get(`/api/inventory-sources/inventory/${id}`)).body as Record<
        string,
        unknown
      >;
      const moved = await inv.post("/api/inventory-sources/inventory/save", {
        ...got,
        sftpServerAddress: "sftp.elsewhere.example",
      });
      assert.equal(moved.status, 400);
      assert.match((moved.body as { message: string }).message, /Enter the password again/);
      const [row] = await server.db.query<{ enc: string }>(
        "select sftp_password_enc as enc from inventory_sources where id = $1",
        [id],
      );
      assert.ok(row.enc && !row.enc.includes("pw-1"));
    });

    await t.step("manual processing: bad inputs are 400 with a message", async () => {
      const path = "/api/inventory-sources/manually-process";
      const fields = {
        sourceId: String(id),
        sendEmailNotification: "false",
        submitViaSftp: "false",
      };
      const wrong = await upload(inv, server.url, path, {
        name: "stock.xlsx",
        bytes: await fixture("inventory.xlsx"),
      }, fields);
      assert.equal(wrong.status, 400);
      assert.equal(
        (wrong.body as { message: string }).message,
        "Invalid file type. Expected .csv but got .xlsx",
      );
      const big = await upload(inv, server.url, path, {
        name: "big.csv",
        bytes: new Uint8Array(10_485_761),
      }, fields);
      assert.equal(big.status, 400);
      assert.equal((big.body as { message: string }).message, "File size must be less than 10MB");
      const empty = await upload(inv, server.url, path, {
        name: "empty.csv",
        bytes: new Uint8Array(0),
      }, fields);
      assert.equal(empty.status, 400);
      const noColumn = await upload(inv, server.url, path, {
        name: "other.csv",
        bytes: new TextEncoder().encode("Sku,Amount\r\nA1,3\r\n"),
      }, fields);
      assert.equal(noColumn.status, 400);
      assert.match((noColumn.body as { message: string }).message, /Item Number/);
      assert.equal(
        (await upload(
          ord,
          server.url,
          path,
          { name: "s.csv", bytes: stockCsv([["A1", 1]]) },
          fields,
        )).status,
        403,
      );
    });

    await t.step(
      "manual processing of a real fixture: row errors, result, import run",
      async () => {
        // The fixture's header is "Item Number,Description,Qty,...": A-77 has "N/A".
        const saved = await inv.post("/api/inventory-sources/inventory/save", {
          ...sourcePayload(mailbox, { id, stripLeadingZeroes: true, sftpPassword: "" }),
          fileData: {
            ...sourcePayload(mailbox).fileData,
            userActivatedItemNumbers: "123\n456\nA-77\nZZ",
          },
        });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        const res = await upload(inv, server.url, "/api/inventory-sources/manually-process", {
          name: "inventory_utf8.csv",
          bytes: await fixture("inventory_utf8.csv"),
        }, { SourceId: String(id), sendEmailNotification: "false", submitViaSftp: "false" });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const r = res.body as Record<string, unknown> & {
          errors: string[];
          fileData: string;
          runId: number;
        };
        assert.equal(r.success, true);
        assert.equal(r.processedCount, 4);
        assert.equal(r.activeCount, 2);
        assert.equal(r.inactiveCount, 2);
        assert.ok(r.errors.some((e) => e.includes("N/A")), JSON.stringify(r.errors));
        const csv = new TextDecoder().decode(
          Uint8Array.from(atob(r.fileData), (ch) => ch.charCodeAt(0)),
        );
        assert.match(csv, /123,Active/);
        assert.match(csv, /ZZ,Inactive/);
        const run = (await inv.get(`/api/import-runs/${r.runId}`)).body as {
          status: string;
          trigger: string;
        };
        assert.equal(run.status, "succeeded");
        assert.equal(run.trigger, "upload");
        const runs = (await inv.get(`/api/inventory-sources/inventory/${id}/runs`)).body as {
          deliveryStatus: string;
        }[];
        assert.equal(runs[0].deliveryStatus, "delivered");
      },
    );

    await t.step("preview shows flips; the guard holds a run until released", async () => {
      const saved = await inv.post("/api/inventory-sources/inventory/save", {
        ...sourcePayload(mailbox, { id, sftpPassword: "" }),
      });
      assert.equal(saved.status, 200);
      const path = "/api/inventory-sources/manually-process";
      const fields = {
        sourceId: String(id),
        sendEmailNotification: "false",
        submitViaSftp: "false",
      };
      const first = await upload(inv, server.url, path, {
        name: "s.csv",
        bytes: stockCsv([["A1", 5], ["A2", 5], ["A3", 5], ["A4", 5]]),
      }, fields);
      assert.equal(first.status, 200);
      const crash = {
        name: "s.csv",
        bytes: stockCsv([["A1", 0], ["A2", 0], ["A3", 0], ["A4", 5]]),
      };
      const preview = await upload(
        inv,
        server.url,
        "/api/inventory-sources/preview",
        crash,
        fields,
      );
      assert.equal(preview.status, 200);
      const p = preview.body as { held: boolean; flips: { itemNumber: string; to: string }[] };
      assert.equal(p.held, true);
      assert.deepEqual(p.flips.map((f) => f.itemNumber), ["A1", "A2", "A3"]);
      const held = await upload(inv, server.url, path, crash, fields);
      assert.equal(held.status, 200);
      const h = held.body as { held: boolean; runId: number; runStatus: string };
      assert.equal(h.held, true);
      assert.equal(h.runStatus, "held");
      const run = (await inv.get(`/api/inventory-sources/runs/${h.runId}`)).body as {
        deliveryStatus: string;
      };
      assert.equal(run.deliveryStatus, "held");
      assert.equal((await ord.post(`/api/inventory-sources/runs/${h.runId}/release`)).status, 403);
      const released = await inv.post(`/api/inventory-sources/runs/${h.runId}/release`);
      assert.equal(released.status, 200, JSON.stringify(released.body));
      const rel = released.body as { status: string; deliveryStatus: string; releasedBy: string };
      assert.equal(rel.status, "succeeded");
      assert.equal(rel.deliveryStatus, "delivered");
      assert.equal(rel.releasedBy, "inv");
      assert.equal((await inv.post(`/api/inventory-sources/runs/${h.runId}/release`)).status, 409);
      // The released run is now the one compared with: the same file flips nothing.
      const again = await upload(inv, server.url, "/api/inventory-sources/preview", crash, fields);
      assert.deepEqual((again.body as { flips: unknown[] }).flips, []);
    });

    await t.step("debug-modify-file answers a debug result", async () => {
      const res = await upload(inv, server.url, "/api/inventory-sources/debug-modify-file", {
        name: "s.csv",
        bytes: stockCsv([["A1", 5], ["A2", 5]]),
      }, { sourceId: String(id) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const r = res.body as {
        success: boolean;
        isDebugResult: boolean;
        modificationsCount: number;
      };
      assert.equal(r.success, true);
      assert.equal(r.isDebugResult, true);
      assert.equal(r.modificationsCount, 2);
      assert.equal(
        ((await inv.get("/api/inventory-sources/settings")).body as { debugTools: boolean })
          .debugTools,
        true,
      );
    });

    await t.step("delete is POST inventory/{id}", async () => {
      assert.equal((await inv.post(`/api/inventory-sources/inventory/${id}`)).status, 204);
      assert.equal((await inv.get(`/api/inventory-sources/inventory/${id}`)).status, 404);
      assert.equal((await inv.post(`/api/inventory-sources/inventory/${id}`)).status, 404);
      assert.equal((await inv.post("/api/inventory-sources/inventory/abc")).status, 400);
    });
  } finally {
    await server.close();
  }
});

Deno.test("debug-modify-file is refused while DEBUG_TOOLS is off", async () => {
  const server = await startTestServer();
  try {
    await server.createUser({ username: "inv", password: "inv-password-1", inventoryUser: true });
    const inv = testClient(server.url);
    await inv.login("inv", "inv-password-1");
    const res = await upload(inv, server.url, "/api/inventory-sources/debug-modify-file", {
      name: "s.csv",
      bytes: stockCsv([["A1", 5]]),
    }, { sourceId: "1" });
    assert.equal(res.status, 403);
    assert.equal(
      ((await inv.get("/api/inventory-sources/settings")).body as { debugTools: boolean })
        .debugTools,
      false,
    );
  } finally {
    await server.close();
  }
});

Deno.test("manual processing of a file cut off in transfer: 400 with the reason, the run failed, nothing generated or delivered", async () => {
  const server = await startTestServer();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const mailbox = await saveMailbox(admin);
    const headers = ["Item Number", "Qty", "Note"];
    const rows = Array.from({ length: 30 }, (_, i) => [`A${i}`, "3", `two\nlines ${i}`]);
    const cases: [string, "csv" | "xlsx", Uint8Array, RegExp][] = [
      [
        "stock.csv",
        "csv",
        cutCsv(writeTable(headers, rows, "csv")),
        /^The file ends inside a quoted field that opens in row \d+: it was cut off/,
      ],
      [
        "stock.xlsx",
        "xlsx",
        cutZip(writeTable(headers, rows, "xlsx"), 0.7),
        /^The workbook ends early \(its zip directory is missing\)/,
      ],
      [
        "stock.xlsx",
        "xlsx",
        withSheetXml(writeTable(headers, rows, "xlsx"), (x) => cutSheetXml(x, 0.5)),
        /^The workbook ends early \(the XML of xl\/worksheets\/sheet1\.xml stops before its end\)/,
      ],
    ];
    for (const [name, fileType, bytes, reason] of cases) {
      const saved = await admin.post(
        "/api/inventory-sources/inventory/save",
        sourcePayload(mailbox, { sourceName: `Cut ${name} ${fileType}`, fileType }),
      );
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const sourceId = (saved.body as { id: number }).id;
      const fields = {
        sourceId: String(sourceId),
        sendEmailNotification: "false",
        submitViaSftp: "false",
      };
      const path = "/api/inventory-sources/manually-process";
      const preview = await upload(admin, server.url, path, { name, bytes }, {
        ...fields,
        dryRun: "true",
      });
      assert.equal(preview.status, 400, name);
      assert.match((preview.body as { message: string }).message, reason);
      const res = await upload(admin, server.url, path, { name, bytes }, fields);
      assert.equal(res.status, 400, name);
      const message = (res.body as { message: string }).message;
      assert.match(message, reason);
      assert.doesNotMatch(message, /\n/);
      const [run] = (await admin.get(`/api/import-runs?feed=inventory&sourceId=${sourceId}`))
        .body as { id: number; status: string; error: string }[];
      assert.deepEqual([run.status, run.error], ["failed", message]);
      const [stored] = await server.db.query<{ noFile: boolean; statuses: number; jobs: number }>(
        `select i.output_bytes is null as "noFile",
           (select count(*) from inventory_delivered_statuses where inventory_source_id = $2)::int
             as statuses,
           (select count(*) from jobs where kind = 'inventory-deliver'
              and payload->>'runId' = $3)::int as jobs
           from inventory_runs i where i.import_run_id = $1`,
        [run.id, sourceId, String(run.id)],
      );
      assert.deepEqual(stored, { noFile: true, statuses: 0, jobs: 0 });
    }
  } finally {
    await server.close();
  }
});
