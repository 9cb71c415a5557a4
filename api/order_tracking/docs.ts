/** The OpenAPI descriptions of /api/order-tracking and its sources (spec part 1, section 7). */
import { z } from "zod";
import { routeDocs } from "../http/route_docs.ts";
import { UPLOAD_LIMITS } from "../../shared/files/limits.ts";
import {
  beyondWindowMessage,
  lastWindowPage,
  orderDetail,
  orderListResult,
  orderTrackingSource,
  RESULT_WINDOW,
} from "../../shared/contract/order_tracking.ts";
import { importRunDetails } from "../../shared/contract/email_sources.ts";

const P1 = "Spec part 1, section 7.";

export const orderTrackingDocs = routeDocs([
  {
    method: "POST",
    path: "/api/order-tracking/list",
    summary: "Search the orders, one page",
    response: orderListResult,
    description: `${P1} Pages can be read up to the first ${
      RESULT_WINDOW.toLocaleString("en-US")
    } results (page ${lastWindowPage(50)} of 50 rows, ${
      lastWindowPage(10)
    } of 10): a deeper page is refused without searching. \`countCapped\` true means \`totalRecordCount\` is a lower bound ("more than").`,
    errors: {
      "400": `Invalid request (\`errors\` names the fields), or a page beyond the first ${
        RESULT_WINDOW.toLocaleString("en-US")
      } results, answered at once with \`{ "message": "${
        beyondWindowMessage(lastWindowPage(50) + 1)
      }" }\` (here for page ${lastWindowPage(50) + 1} of 50 rows): narrow the search to see more.`,
    },
  },
  {
    method: "GET",
    path: "/api/order-tracking/order/:id",
    summary: "One order",
    response: orderDetail,
    description: P1,
  },
  {
    method: "POST",
    path: "/api/order-tracking/notes",
    summary: "Save an order's note",
    response: z.object({ orderId: z.number().int(), note: z.string().nullable() }),
    description: P1,
  },
  {
    method: "POST",
    path: "/api/order-tracking/delete/:id",
    summary: "Delete an order",
    response: "empty",
    description: P1,
  },
  {
    method: "GET",
    path: "/api/order-tracking-sources/active",
    summary: "Every order tracking source",
    response: z.array(orderTrackingSource),
    description: P1,
  },
  {
    method: "GET",
    path: "/api/order-tracking-sources/get/:id",
    summary: "One order tracking source",
    response: orderTrackingSource,
    description: P1,
  },
  {
    method: "POST",
    path: "/api/order-tracking-sources/save",
    summary: "Create (Id 0) or update an order tracking source",
    response: orderTrackingSource,
    description: P1,
  },
  {
    method: "POST",
    path: "/api/order-tracking-sources/delete/:id",
    summary: "Delete an order tracking source",
    response: "empty",
    description: P1,
  },
  {
    method: "POST",
    path: "/api/order-tracking-sources/:id/import",
    summary: "Import an order file for a source, as a mailed file would be (CLI and CI)",
    description: "Beyond the contract: multipart with `file`; answers the import run.",
    response: importRunDetails,
    request: {
      multipart: z.object({
        file: z.string().meta({
          contentMediaType: "application/octet-stream",
          description: `the order file (binary, at most ${UPLOAD_LIMITS.maxBytes} bytes)`,
        }),
      }),
    },
  },
]);
