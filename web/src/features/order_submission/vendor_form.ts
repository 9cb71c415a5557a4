/** Labels and conversions of the vendor edit page (spec part 2, sections 2, 3, 5, 8). */
import {
  type MapField,
  NEW_ORDER_VENDOR_SOURCE_FORM,
  type OrderVendorSource,
  type OrderVendorSourceForm,
} from "../../../../shared/contract/order_submission.ts";

/** The visible label of each field mapping input. */
export const MAP_LABELS: Record<MapField, string> = {
  mapBatch: "Batch",
  mapRep: "Rep",
  mapVendorAddress: "Vendor Address",
  mapVendorPhone: "Vendor Phone",
  mapVendorFax: "Vendor Fax",
  mapPo: "PO Number",
  mapOrderDate: "Order Date",
  mapReqShipDate: "Requested Ship Date",
  mapShipVia: "Ship Via",
  mapShipTo: "Ship To",
  mapAddress1: "Address 1",
  mapCareOf: "Care Of",
  mapAttention: "Attention",
  mapAddress2: "Address 2",
  mapCity: "City",
  mapState: "State",
  mapZipCode: "Zip Code",
  mapPhone: "Phone",
  mapEmail: "Email",
  mapItemDescription: "Item Description",
  mapUnitPrice: "Unit Price",
  mapQty: "Quantity",
  mapProvidedAccountNumber: "Provided Account Number",
  mapTotal: "Total",
};

/** Texts of the vendor pages (spec part 2, sections 2 and 8). */
export const VENDOR_TEXTS = {
  loadVendorFailed: "Failed to load vendor data",
  loadEmailSourcesFailed: "Failed to load email sources",
  loadSourcesFailed: "Failed to load order submission sources",
  unexpectedStatus: "Failed to save. Server returned an unexpected status.",
  wildcardNote:
    "The wildcards {poNumbers}, {originalSubject} and {originalBody} work only when the vendor wants the original e-mail forwarded.",
} as const;

/** How long the red banner stays (spec section 9: 5000 ms). */
export const BANNER_MS = 5000;

/** The form's values of a stored vendor (ids and numbers as text). */
export function vendorToForm(vendor: OrderVendorSource): OrderVendorSourceForm {
  const form = { ...NEW_ORDER_VENDOR_SOURCE_FORM };
  const values = vendor as unknown as Record<string, unknown>;
  for (const key of Object.keys(form) as (keyof OrderVendorSourceForm)[]) {
    const value = values[key];
    (form as Record<string, unknown>)[key] = typeof form[key] === "boolean"
      ? Boolean(value)
      : value === null || value === undefined
      ? ""
      : String(value);
  }
  // The form's file name is the newly chosen file's; the stored one shows beside it.
  form.submitFileTemplateFileName = "";
  return form;
}
