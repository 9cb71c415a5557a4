/** Helpers for order tracking tests: a valid source payload and importing a file directly. */
import type { Db } from "../../api/db/client.ts";
import type { ImportOutcome } from "../../api/ingest/feeds.ts";
import { importOrderFile } from "../../api/order_tracking/feed/feed.ts";
import type { TestClient } from "./http.ts";

/** A source save payload that passes validation; `overrides` replace its fields. */
export function sourcePayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Id: 0,
    sourceName: "Acme Supply",
    emailSourceId: 1,
    fileType: "csv",
    fromEmail: "reports@acme.example",
    subjectValue: "Daily order status",
    containsNotExact: true,
    expectedAttachmentCount: 1,
    attachmentName: "orders",
    columnsToIgnore: "",
    secondaryDelimiter: ";",
    uniqueColumn: "CustomerPoNumber",
    deleteAfterDays: 30,
    activeStatus: true,
    columnNormalizationValues: {
      id: 0,
      customerPoNumber: "PO #",
      itemNumber: "SKU",
      customerName: "Customer",
      shipToName: "Ship To",
      supplierName: "Vendor",
      brandName: "Brand",
      trackingNumbers: "Tracking",
      orderDate: "Order Date",
      shippedDate: "Ship Date",
      qty: "Qty Ordered",
      qtyFulfilled: "Qty Shipped",
      lineStatus: "Status",
    },
    ...overrides,
  };
}

/** The mailbox that test sources read from unless they name another: no server, never polled. */
export const TEST_MAILBOX = "orders-mailbox@acme.example";

/**
 * The id of the test sources' default e-mail source, created on first use (a foreign key holds
 * order tracking sources to it). On a fresh database it is the first e-mail source: id 1, the
 * `emailSourceId` of `sourcePayload`.
 */
export async function defaultEmailSourceId(client: TestClient): Promise<number> {
  const pairs = (await client.get("/api/email-sources/email-list")).body as {
    item1: string;
    item2: number;
  }[];
  const found = pairs.find((pair) => pair.item1 === TEST_MAILBOX);
  if (found) return found.item2;
  const saved = await client.post("/api/email-sources/email/save", {
    id: 0,
    username: TEST_MAILBOX,
    email: TEST_MAILBOX,
    password: "not-used-secret",
    incomingServer: "",
    outgoingServer: "",
    ssl: false,
  });
  if (saved.status !== 200) throw new Error(`e-mail source save answered ${saved.status}`);
  return (saved.body as { id: number }).id;
}

/**
 * Saves a source over HTTP and returns its id; throws unless the answer is 200. Without an
 * `emailSourceId` it reads from the default test mailbox.
 */
export async function createSource(
  client: TestClient,
  overrides: Record<string, unknown> = {},
): Promise<number> {
  if (!("emailSourceId" in overrides)) {
    overrides = { ...overrides, emailSourceId: await defaultEmailSourceId(client) };
  }
  const response = await client.post("/api/order-tracking-sources/save", sourcePayload(overrides));
  if (response.status !== 200) {
    throw new Error(`save answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return (response.body as { id: number }).id;
}

/** Imports `content` as file `fileName` of source `sourceId` in one transaction, like a run. */
export async function importFile(
  db: Db,
  sourceId: number,
  content: string | Uint8Array,
  options: { fileName?: string; receivedAt?: Date } = {},
): Promise<ImportOutcome> {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const outcome = await db.transaction((tx) =>
    importOrderFile(tx, {
      runId: 0,
      sourceId,
      fileName: options.fileName ?? "orders.csv",
      bytes,
      trigger: "cli",
      receivedAt: options.receivedAt ?? new Date(),
    })
  );
  await outcome.afterCommit?.(db);
  return outcome;
}

/** A CSV text from rows of cells (quoted where needed), CRLF line ends like Excel writes. */
export function csv(rows: (string | number)[][]): string {
  return rows.map((row) =>
    row.map((cell) => {
      const text = String(cell);
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    }).join(",")
  ).join("\r\n") + "\r\n";
}

/** The header row matching {@link sourcePayload}'s column normalisation. */
export const HEADERS = [
  "PO #",
  "SKU",
  "Customer",
  "Ship To",
  "Vendor",
  "Brand",
  "Tracking",
  "Order Date",
  "Ship Date",
  "Qty Ordered",
  "Qty Shipped",
  "Status",
  "Internal Code",
];

/**
 * One data row under HEADERS: an open order `po` for `customer` (shipped to the same name) from
 * `vendor`, ordered 2026-11-01, one tracking number.
 */
export function orderRow(po: string, customer = "Ann", vendor = "Acme"): (string | number)[] {
  return [
    po,
    `SKU-${po}`,
    customer,
    customer,
    vendor,
    "B",
    "1Z",
    "2026-11-01",
    "",
    1,
    0,
    "Open",
    "x",
  ];
}

/**
 * An order tracking source written straight to the database (with the mailbox it needs), for
 * tests that fill `orders` themselves; answers its id.
 */
export async function insertOrderSource(db: Db, name = "Search"): Promise<number> {
  const [{ id: mailboxId }] = await db.query<{ id: number }>(
    `insert into email_sources (username, email) values ('orders', 'orders@example.test')
     returning id`,
  );
  const [{ id }] = await db.query<{ id: number }>(
    `insert into order_tracking_sources (source_name, email_source_id, file_type, from_email,
       subject_value, attachment_name, unique_column)
     values ($1, $2, 'csv', 'a@example.test', 'Orders', 'orders', 'Id') returning id`,
    [name, mailboxId],
  );
  return id;
}
