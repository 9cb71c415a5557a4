/** The OpenAPI descriptions of /api/order-submission (spec part 2, section 7). */
import { z } from "zod";
import { routeDocs } from "../http/route_docs.ts";
import {
  orderSubmissionSourceAnswer,
  orderVendorSourceAnswer,
  orderVendorSourceListEntry,
  pickerPair,
} from "../../shared/contract/order_submission.ts";

const P2 = "Spec part 2, section 7.";

export const orderSubmissionDocs = routeDocs([
  {
    method: "GET",
    path: "/api/order-submission/sources/active",
    summary: "Every order submission source",
    response: z.array(orderSubmissionSourceAnswer),
    description: P2,
  },
  {
    method: "GET",
    path: "/api/order-submission/sources/get/:id",
    summary: "One order submission source",
    response: orderSubmissionSourceAnswer,
    description: P2,
  },
  {
    method: "POST",
    path: "/api/order-submission/sources/save",
    summary: "Create (Id 0) or update an order submission source",
    response: orderSubmissionSourceAnswer,
    description: P2,
  },
  {
    method: "POST",
    path: "/api/order-submission/sources/delete/:id",
    summary: "Delete an order submission source",
    response: "empty",
    description: P2,
  },
  {
    method: "GET",
    path: "/api/order-submission/order-submission-list",
    summary: "Picker of order submission sources: item1 name, item2 id",
    response: z.array(pickerPair),
    description: P2,
  },
  {
    method: "GET",
    path: "/api/order-submission/vendor/active",
    summary: "Every vendor source",
    response: z.array(orderVendorSourceListEntry),
    description: P2,
  },
  {
    method: "GET",
    path: "/api/order-submission/vendor/get/:id",
    summary: "One vendor source with its aliases and stored template",
    response: orderVendorSourceAnswer,
    description: P2,
  },
  {
    method: "POST",
    path: "/api/order-submission/vendor/save",
    summary: "Create (id 0) or update a vendor with its aliases and template",
    response: orderVendorSourceAnswer,
    description: `${P2} 409 names the constraint and the duplicate key.`,
  },
  {
    method: "POST",
    path: "/api/order-submission/vendor/delete/:id",
    summary: "Delete a vendor source",
    response: "empty",
    description: P2,
  },
  {
    method: "POST",
    path: "/api/order-submission/vendor/alias/delete/:id",
    summary: "Delete a vendor alias",
    response: "empty",
    description: P2,
  },
]);
