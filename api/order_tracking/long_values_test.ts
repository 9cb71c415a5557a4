/**
 * Long values (docs/order_tracking.md, "Long values"): a file cell of thousands of random
 * characters in any sortable text column is stored whole and the list sorts by it (the sort
 * indexes hold the first 512 characters, migration 0033); a unique value longer than 500
 * characters is a row error; a 4,000-character note saves and sorts.
 */
import assert from "node:assert/strict";
import type { Order } from "../../shared/contract/order_tracking.ts";
import { ADMIN_PASSWORD, startTestServer } from "../../tests/support/server.ts";
import { type TestClient, testClient } from "../../tests/support/http.ts";
import { createSource, csv } from "../../tests/support/order_tracking.ts";
import { upload } from "../../tests/support/inventory.ts";

/** Every text field a file feeds, the list sorts by it; documentNumber is the unique column. */
const LONG_FIELDS = [
  "accountNumber",
  "brandName",
  "customerName",
  "customerNumber",
  "customerPoNumber",
  "itemNumber",
  "itemStatus",
  "lineStatus",
  "shipToName",
  "supplierName",
  "supplierOrderStatus",
  "trackingNumbers",
  "wildcard1",
  "wildcard2",
] as const;

/** Characters of 1 to 4 bytes in UTF-8; no `;` (the source's tracking number delimiter). */
const ALPHABET = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'()*+,-./:<=>?@[]^_{|}~\"",
  "é",
  "ß",
  "ж",
  "Ω",
  "中",
  "語",
  "€",
  "😀",
  "𝄞",
];

/** `length` random characters (code points), incompressible. */
function random(length: number): string {
  const out: string[] = [];
  for (let i = 0; i < length; i++) out.push(ALPHABET[Math.floor(Math.random() * ALPHABET.length)]);
  return out.join("");
}

/** The first `n` characters (code points) of `text`, as PostgreSQL's left() counts them. */
const left = (text: string, n: number) => Array.from(text).slice(0, n).join("");

async function list(client: TestClient, sort: Record<string, boolean>): Promise<Order[]> {
  const response = await client.post("/api/order-tracking/list", {
    PageSize: 50,
    PageIndex: 1,
    SortParams: sort,
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return (response.body as { orders: Order[] }).orders;
}

/** A field's value as the list shows it (tracking numbers joined as the file had them). */
function shown(order: Order, field: string): unknown {
  const value = (order as unknown as Record<string, unknown>)[field];
  if (field !== "trackingNumbers") return value;
  return (value as { trackingNumber: string }[]).map((t) => t.trackingNumber).join(";");
}

Deno.test("long values: stored whole, sorted by their first 512 characters; a too-long unique value is a row error", async (t) => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const headers = ["Document", ...LONG_FIELDS.map((field) => `H ${field}`)];
    const source = await createSource(admin, {
      uniqueColumn: "DocumentNumber",
      columnNormalizationValues: {
        id: 0,
        documentNumber: "Document",
        ...Object.fromEntries(LONG_FIELDS.map((field) => [field, `H ${field}`])),
      },
    });
    // DOC-1: 3,000 random characters after a "Z" in every field; DOC-2: short values; DOC-3:
    // DOC-1's first 512 characters and another tail, so it ties with DOC-1 in the sort.
    const long = Object.fromEntries(LONG_FIELDS.map((field) => [field, "Z" + random(2999)]));
    const tied = Object.fromEntries(
      LONG_FIELDS.map((field) => [field, left(long[field], 512) + random(2000)]),
    );
    const keyOf500 = random(500);
    const file = csv([
      headers,
      ["DOC-1", ...LONG_FIELDS.map((field) => long[field])],
      ["DOC-2", ...LONG_FIELDS.map(() => "a-short")],
      ["DOC-3", ...LONG_FIELDS.map((field) => tied[field])],
      [keyOf500, ...LONG_FIELDS.map(() => "")],
      [random(501), ...LONG_FIELDS.map(() => "b")],
    ]);
    const uploaded = await upload(
      admin,
      server.url,
      `/api/order-tracking-sources/${source}/import`,
      { name: "long.csv", bytes: new TextEncoder().encode(file) },
      {},
    );
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    const run = (await admin.get(`/api/import-runs/${(uploaded.body as { id: number }).id}`))
      .body as {
        status: string;
        error: string | null;
        counts: Record<string, number>;
        rowErrors: { row: number; column?: string; message: string }[];
      };

    await t.step("the run succeeds; only the row with a too-long unique value is left out", () => {
      assert.equal(run.status, "succeeded", run.error ?? "");
      assert.deepEqual([run.counts.inserted, run.counts.skipped], [4, 1]);
      assert.deepEqual(run.rowErrors, [{
        row: 6,
        column: "Document",
        message:
          "The unique column (documentNumber) is longer than 500 characters; the row was not imported.",
      }]);
    });

    const ids = async () => {
      const orders = await list(admin, { id: true });
      return new Map(orders.map((order) => [order.documentNumber, order]));
    };

    await t.step("the long values are stored whole", async () => {
      const orders = await ids();
      assert.deepEqual([...orders.keys()], ["DOC-1", "DOC-2", "DOC-3", keyOf500]);
      for (const field of LONG_FIELDS) {
        assert.equal(shown(orders.get("DOC-1")!, field), long[field], field);
        assert.equal(shown(orders.get("DOC-3")!, field), tied[field], field);
      }
    });

    // Ascending: "a-short", then the two ties by id; descending the reverse, ties by id
    // descending; the order without values is last both ways.
    const cases = LONG_FIELDS.flatMap((field) => [
      { field, ascending: true, expected: ["DOC-2", "DOC-1", "DOC-3", keyOf500] },
      { field, ascending: false, expected: ["DOC-3", "DOC-1", "DOC-2", keyOf500] },
    ]);
    await t.step("the list sorts by each long column", async () => {
      for (const { field, ascending, expected } of cases) {
        const orders = await list(admin, { [field]: ascending });
        // Tracking numbers are never empty in the list's sort (an empty text sorts first).
        const got = orders.map((order) => order.documentNumber);
        const want = field === "trackingNumbers"
          ? (ascending ? [keyOf500, ...expected.slice(0, 3)] : expected)
          : expected;
        assert.deepEqual(got, want, `${field} ${ascending ? "asc" : "desc"}`);
      }
    });

    await t.step("a 4,000-character note saves and sorts; a longer one is a 400", async () => {
      const orders = await ids();
      const note = "Z" + random(3999);
      const cases = [
        { document: "DOC-1", note, status: 200 },
        { document: "DOC-3", note: left(note, 512) + random(100), status: 200 },
        { document: "DOC-2", note: note + "x", status: 400 },
      ];
      for (const { document, note, status } of cases) {
        const saved = await admin.post("/api/order-tracking/notes", {
          orderId: orders.get(document)!.id,
          note,
        });
        assert.equal(saved.status, status, `${document}: ${JSON.stringify(saved.body)}`);
      }
      const byNotes = await list(admin, { notes: true });
      assert.deepEqual(byNotes.map((order) => order.documentNumber).slice(0, 2), [
        "DOC-1",
        "DOC-3",
      ]);
      assert.equal(byNotes[0].notes, note);
      const back = await list(admin, { notes: false });
      assert.deepEqual(back.map((order) => order.documentNumber).slice(0, 2), ["DOC-3", "DOC-1"]);
    });
  } finally {
    await server.close();
  }
});
