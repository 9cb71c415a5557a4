/** The OpenAPI descriptions of /api/inventory-sources (spec part 2, section 7, and beyond). */
import { z } from "zod";
import { routeDocs } from "../http/route_docs.ts";
import { UPLOAD_LIMITS } from "../../shared/files/limits.ts";
import {
  inventorySourceListEntrySchema,
  inventorySourceSchema,
  manualProcessFields,
  manualProcessResultSchema,
} from "../../shared/contract/inventory.ts";
import { itemDetail, itemListPage, runItemChanges } from "../../shared/contract/inventory_items.ts";

const P2 = "Spec part 2, section 7.";

/** The multipart form of the uploads: the file plus the text fields. */
const uploadForm = manualProcessFields.extend({
  file: z.string().meta({
    contentMediaType: "application/octet-stream",
    description: `the supplier file (binary part, at most ${UPLOAD_LIMITS.maxBytes} bytes)`,
  }),
  dryRun: z.enum(["true", "false"]).optional().describe("true: preview only, nothing stored"),
});

/** A run of an inventory source with its delivery (columns of inventory_runs and import_runs). */
const inventoryRun = z.looseObject({
  runId: z.number().int(),
  sourceId: z.number().int(),
  status: z.string(),
  fileName: z.string(),
  deliveryStatus: z.string().nullable(),
  flipCount: z.number().int().nullable(),
});

export const inventoryDocs = routeDocs([
  {
    method: "GET",
    path: "/api/inventory-sources/inventories",
    summary: "Every inventory source",
    response: z.array(inventorySourceListEntrySchema),
    description: P2,
  },
  {
    method: "GET",
    path: "/api/inventory-sources/settings",
    summary: "Server settings the screens need (beyond the contract)",
    response: z.object({
      debugTools: z.boolean(),
      guardThreshold: z.number(),
      maxUploadBytes: z.number().int(),
    }),
  },
  {
    method: "GET",
    path: "/api/inventory-sources/inventory/:id",
    summary: "One inventory source with its sample file data",
    response: inventorySourceSchema.extend({ debugTools: z.boolean() }),
    description: P2,
  },
  {
    method: "POST",
    path: "/api/inventory-sources/inventory/save",
    summary: "Create (id 0) or update an inventory source",
    response: z.object({ id: z.number().int() }),
    description: P2,
  },
  {
    method: "POST",
    path: "/api/inventory-sources/inventory/:id",
    summary: "Delete an inventory source (the contract's odd delete)",
    response: "empty",
    description: P2,
  },
  {
    method: "POST",
    path: "/api/inventory-sources/manually-process",
    summary: "Process an uploaded supplier file (optionally deliver by SFTP / e-mail)",
    request: { multipart: uploadForm },
    response: manualProcessResultSchema.extend({
      runId: z.number().int().optional(),
      runStatus: z.string().optional(),
      held: z.boolean().optional(),
      deliveryStatus: z.string().optional(),
      dryRun: z.boolean().optional(),
    }),
    description: `${P2} With dryRun=true the answer is the preview (flips and guard verdict).`,
  },
  {
    method: "POST",
    path: "/api/inventory-sources/preview",
    summary: "What processing a file would change, nothing stored (beyond the contract)",
    request: { multipart: uploadForm },
    response: manualProcessResultSchema.extend({
      dryRun: z.literal(true),
      held: z.boolean(),
      flips: z.array(z.unknown()),
      guard: z.record(z.string(), z.unknown()),
    }),
  },
  {
    method: "POST",
    path: "/api/inventory-sources/debug-modify-file",
    summary: "A test file with changed quantities (DEBUG_TOOLS only)",
    request: { multipart: uploadForm },
    response: manualProcessResultSchema,
    description: P2,
  },
  {
    method: "GET",
    path: "/api/inventory-sources/inventory/:id/runs",
    summary: "The runs of an inventory source (beyond the contract)",
    response: z.array(inventoryRun),
  },
  {
    method: "POST",
    path: "/api/inventory-sources/inventory/:id/forget-host-key",
    summary: "Forget the pinned SFTP host keys of a source",
    response: z.object({ forgotten: z.number().int() }),
  },
  {
    method: "GET",
    path: "/api/inventory-sources/runs/:runId",
    summary: "One inventory run with its flips and delivery log",
    response: inventoryRun,
  },
  {
    method: "GET",
    path: "/api/inventory-sources/runs/:runId/file",
    summary: "The generated file of an inventory run",
    response: "file",
  },
  {
    method: "POST",
    path: "/api/inventory-sources/runs/:runId/release",
    summary: "Release a run held by the guard and deliver it",
    response: inventoryRun.extend({ delivery: z.record(z.string(), z.unknown()) }),
  },
  {
    method: "POST",
    path: "/api/inventory-sources/runs/:runId/deliver",
    summary: "Deliver a run again",
    response: inventoryRun.extend({ delivery: z.record(z.string(), z.unknown()) }),
  },
  {
    method: "GET",
    path: "/api/inventory-sources/inventory/:id/items",
    summary: "The catalogue items of a source with the rule that decided each (issue 23)",
    description:
      'Search (part of the item number), filters (inactive, changed in the last run, missing from the file), sort and page. docs/inventory.md, "Items".',
    response: itemListPage,
  },
  {
    method: "GET",
    path: "/api/inventory-sources/inventory/:id/items/:item",
    summary: "One catalogue item: quantities over time, the runs that changed it, its raw row",
    response: itemDetail,
  },
  {
    method: "GET",
    path: "/api/inventory-sources/runs/:runId/items",
    summary: "What an inventory run changed: items turned Active and Inactive, with the reason",
    response: runItemChanges,
  },
]);
