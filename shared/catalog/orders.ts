/**
 * The order catalog (spec part 1, sections 3 and 5): every column of an order, in the spec's
 * order. Adding an order column is one line here plus its migration; the columns, labels, date
 * and number fields, unique-column choices, search boxes and the `Order` schema follow.
 */
import { defineCatalog } from "./catalog.ts";

/** The order fields. */
export const ORDER_CATALOG = defineCatalog({
  accountNumber: { label: "Account Number", kind: "text", unique: "AccountNumber" },
  brandName: {
    label: "Brand Name",
    kind: "text",
    unique: "BrandName",
    search: { key: "BrandNameParam", label: "Brand Name", position: 6 },
  },
  customerName: { label: "Customer Name", kind: "text", unique: "CustomerName" },
  customerNumber: { label: "Customer Number", kind: "text", unique: "CustomerNumber" },
  customerPoNumber: {
    label: "Customer PO Number",
    kind: "text",
    unique: "CustomerPoNumber",
    search: { key: "PoNumberParam", label: "PO Number", position: 1 },
  },
  documentNumber: { label: "Document Number", kind: "text", unique: "DocumentNumber" },
  estimatedArrivalDate: {
    label: "Estimated Arrival Date",
    kind: "date",
    unique: "EstimatedArrivalDate",
  },
  itemNumber: {
    label: "Item Number",
    kind: "text",
    unique: "ItemNumber",
    search: { key: "ItemNumberParam", label: "Item Number", position: 2 },
  },
  itemStatus: { label: "Item Status", kind: "text", unique: "ItemStatus" },
  lineStatus: { label: "Line Status", kind: "text", unique: "LineStatus" },
  notes: { label: "Notes", kind: "text", fromFile: false },
  orderDate: { label: "Order Date", kind: "date", unique: "OrderDate" },
  poDate: { label: "PO Date", kind: "date", unique: "PoDate" },
  qty: { label: "Qty", kind: "number", unique: "QTY" },
  qtyFulfilled: { label: "Qty Fulfilled", kind: "number", unique: "QTYFulfilled" },
  shipToName: {
    label: "Ship To Name",
    kind: "text",
    unique: "ShipToName",
    search: { key: "ShipToNameParam", label: "Customer/Ship To", position: 4 },
  },
  shippedDate: { label: "Shipped Date", kind: "date", unique: "ShippedDate" },
  supplierName: {
    label: "Supplier Name",
    kind: "text",
    unique: "SupplierName",
    search: { key: "SupplierNameParam", label: "Supplier Name", position: 5 },
  },
  supplierOrderStatus: {
    label: "Supplier Order Status",
    kind: "text",
    unique: "SupplierOrderStatus",
  },
  trackingNumbers: {
    label: "Tracking Numbers",
    kind: "trackingNumbers",
    search: { key: "TrackingNumberParam", label: "Tracking Number", position: 3 },
  },
  wildcard1: { label: "Wildcard 1", kind: "text", unique: "Wildcard1" },
  wildcard2: { label: "Wildcard 2", kind: "text", unique: "Wildcard2" },
});
