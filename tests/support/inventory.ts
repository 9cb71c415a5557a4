/** Helpers for the inventory server tests: a source saved over HTTP, multipart uploads. */
import type { TestClient, TestResponse } from "./http.ts";
import { sampleFile } from "../../shared/inventory/testing.ts";
import { encodeBase64 } from "../../shared/base64.ts";

/** The fields of a save with the test sample (Item/Status/Date CSV). */
export function sourcePayload(emailSourceId: number, overrides: Record<string, unknown> = {}) {
  const sample = sampleFile("csv");
  return {
    id: 0,
    emailSourceId,
    sourceName: "Acme stock",
    fileType: "csv",
    fromEmail: "stock@acme.example",
    subjectValue: "stock report",
    containsNotExact: true,
    attachmentName: "stock",
    itemNumberColumnName: "Item Number",
    qtyColumnName: "Qty",
    activeStatus: true,
    sftpServerAddress: "",
    sftpPort: null,
    sftpUsername: "",
    sftpPassword: "",
    ...overrides,
    fileData: {
      userActivatedItemNumbers: "A1\nA2\nA3\nA4",
      inventoryFile: encodeBase64(sample.bytes),
      inventoryFileName: sample.name,
      itemNumberColumnName: "Item",
      itemStatusColumnName: "Status",
      itemStatusDateColumnName: "Date",
      fileHasHeader: true,
      ...(overrides.fileData as Record<string, unknown> ?? {}),
    },
  };
}

/** An e-mail source saved through the API (never polled by these tests unless they say so). */
export async function saveMailbox(admin: TestClient, username = "inventory@test.example") {
  const saved = await admin.post("/api/email-sources/email/save", {
    id: 0,
    username,
    email: username,
    password: "secret-password",
    incomingServer: "127.0.0.1",
    incomingPort: 1,
    outgoingServer: "127.0.0.1",
    outgoingPort: 1,
    ssl: false,
    isMsal: false,
    msalClientId: "",
    msalTennentId: "",
  });
  if (saved.status !== 200) throw new Error(`e-mail source save: ${saved.status}`);
  return (saved.body as { id: number }).id;
}

/** A supplier CSV (header Item Number,Qty) from item → quantity pairs. */
export function stockCsv(rows: [string, string | number][]): Uint8Array {
  return new TextEncoder().encode(
    ["Item Number,Qty", ...rows.map(([i, q]) => `${i},${q}`)].join("\r\n") + "\r\n",
  );
}

/** POSTs a multipart upload (from the server's own origin, as the browser does). */
export async function upload(
  client: TestClient,
  origin: string,
  path: string,
  file: { name: string; bytes: Uint8Array },
  fields: Record<string, string>,
): Promise<TestResponse> {
  const form = new FormData();
  form.set("file", new File([file.bytes as BlobPart], file.name));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return await client.request("POST", path, {
    rawBody: form,
    headers: { origin: new URL(origin).origin },
  });
}
