/**
 * Recognising the columns of an incoming order file by their header names. Each order field
 * (the vendor column and every `mapX` field of spec section 3) has a list of synonyms; a header
 * matches a synonym when both are equal after normalising (lower case, everything but letters and
 * digits removed: "P.O. #" → "po", "Ship-To Name" → "shiptoname"). The lists are documented in
 * docs/order_submission.md; the first synonym is the field's canonical header name.
 */
import type { MapField } from "../contract/order_submission.ts";

/** The fields recognised in an incoming order file: the vendor and every mapped field. */
export type IncomingField = "vendor" | MapField;

/** Header synonyms per field, in the order they are tried; the first is the canonical name. */
export const INCOMING_SYNONYMS: Readonly<Record<IncomingField, readonly string[]>> = {
  vendor: [
    "Vendor",
    "Vendor Name",
    "Supplier",
    "Supplier Name",
    "Vendor ID",
    "Vendor Code",
    "Manufacturer",
    "Mfr",
    "Brand",
    "Distributor",
  ],
  mapBatch: ["Batch", "Batch Number", "Batch No", "Batch ID", "Batch #"],
  mapRep: ["Rep", "Sales Rep", "Representative", "Rep Name", "Salesperson", "Sales Person"],
  mapVendorAddress: ["Vendor Address", "Supplier Address"],
  mapVendorPhone: ["Vendor Phone", "Supplier Phone", "Vendor Telephone"],
  mapVendorFax: ["Vendor Fax", "Supplier Fax"],
  mapPo: [
    "PO",
    "PO Number",
    "PO No",
    "PO #",
    "Purchase Order",
    "Purchase Order Number",
    "Purchase Order No",
    "Customer PO",
    "Customer PO Number",
    "Cust PO",
    "Order Number",
    "Order No",
    "Order #",
    "Order ID",
  ],
  mapOrderDate: ["Order Date", "PO Date", "Date Ordered", "Purchase Date", "Date"],
  mapReqShipDate: [
    "Req Ship Date",
    "Requested Ship Date",
    "Request Ship Date",
    "Required Ship Date",
    "Ship Date",
    "Ship By",
    "Ship By Date",
    "Requested Date",
    "Need By",
    "Due Date",
  ],
  mapShipVia: ["Ship Via", "Shipping Method", "Ship Method", "Carrier", "Shipping Service", "Via"],
  mapShipTo: [
    "Ship To",
    "Ship To Name",
    "Ship Name",
    "Recipient",
    "Recipient Name",
    "Customer Name",
    "Customer",
    "Name",
  ],
  mapAddress1: [
    "Address 1",
    "Address1",
    "Address Line 1",
    "Ship To Address",
    "Ship To Address 1",
    "Street",
    "Street Address",
    "Address",
  ],
  mapCareOf: ["Care Of", "C/O", "In Care Of"],
  mapAttention: ["Attention", "Attn", "Contact", "Contact Name"],
  mapAddress2: ["Address 2", "Address2", "Address Line 2", "Ship To Address 2", "Suite", "Apt"],
  mapCity: ["City", "Ship To City", "Town"],
  mapState: ["State", "Ship To State", "Province", "Region", "ST"],
  mapZipCode: [
    "Zip Code",
    "Zip",
    "Postal Code",
    "Postcode",
    "Ship To Zip",
    "Zipcode",
  ],
  mapPhone: ["Phone", "Phone Number", "Ship To Phone", "Telephone", "Tel", "Customer Phone"],
  mapEmail: ["Email", "E-mail", "Email Address", "Customer Email", "Ship To Email"],
  mapItemDescription: [
    "Item Description",
    "Description",
    "Product Description",
    "Product",
    "Product Name",
    "Item Name",
    "Item",
    "Item Number",
    "SKU",
    "Part Number",
    "Style",
  ],
  mapUnitPrice: ["Unit Price", "Price", "Unit Cost", "Cost", "Price Each", "Each"],
  mapQty: ["Qty", "Quantity", "Qty Ordered", "Order Qty", "Quantity Ordered", "Units", "Pieces"],
  mapProvidedAccountNumber: [
    "Account Number",
    "Account No",
    "Account #",
    "Account",
    "Acct",
    "Acct Number",
    "Vendor Account Number",
    "Customer Number",
  ],
  mapTotal: ["Total", "Line Total", "Extended Price", "Ext Price", "Amount", "Total Price"],
};

/** Normalises a header for comparison: lower case, letters and digits only. */
export function normaliseHeader(header: string): string {
  return header.normalize("NFKD").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Where each recognised field is in the file's headers (0-based); absent fields are missing. */
export type IncomingColumns = Partial<Record<IncomingField, number>>;

/**
 * Finds the incoming file's columns by header name. A header is claimed by at most one field;
 * fields are matched synonym by synonym in their list order, so an exact "PO" beats a later
 * "Order Number", and a more specific synonym of another field ("Ship To Address") is tried
 * before a generic one ("Address") only when it comes earlier in its own list.
 *
 * All (field, header) pairs whose names agree are ranked by the synonym's position in its
 * field's list; the best-ranked pairs are assigned first. A header no field names stays
 * unrecognised (it still goes into "all data").
 *
 * @example recogniseColumns(["Supplier", "P.O. #", "Qty"]) // { vendor: 0, mapPo: 1, mapQty: 2 }
 */
export function recogniseColumns(headers: readonly string[]): IncomingColumns {
  const normalised = headers.map(normaliseHeader);
  // Every (field, header) candidate with the synonym's rank; lower ranks win.
  const candidates: { field: IncomingField; column: number; rank: number }[] = [];
  for (
    const [field, synonyms] of Object.entries(INCOMING_SYNONYMS) as [
      IncomingField,
      readonly string[],
    ][]
  ) {
    synonyms.forEach((synonym, rank) => {
      const wanted = normaliseHeader(synonym);
      normalised.forEach((h, column) => {
        if (h !== "" && h === wanted) candidates.push({ field, column, rank });
      });
    });
  }
  candidates.sort((a, b) => a.rank - b.rank || a.column - b.column);
  const found: IncomingColumns = {};
  const taken = new Set<number>();
  for (const { field, column } of candidates) {
    if (found[field] !== undefined || taken.has(column)) continue;
    found[field] = column;
    taken.add(column);
  }
  return found;
}
