/**
 * /api/inventory-sources: the contracted calls (spec part 2, section 7) and the additions of
 * docs/inventory.md ("Server"): settings, preview, runs, release, delivery retry, forgetting a
 * pinned SFTP host key. Every route needs inventoryUser.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import {
  inventorySourceSave,
  manualProcessFields,
  type ManualProcessResult,
} from "../../shared/contract/inventory.ts";
import { dbId } from "../../shared/contract/fields.ts";
import { UPLOAD_LIMITS } from "../../shared/files/limits.ts";
import { debugModifyInventoryFile, fileTypeProblem } from "../../shared/inventory/mod.ts";
import { FileWorkTimeoutError, processInventoryOffThread } from "../ingest/file_work.ts";
import { encodeBase64 } from "../../shared/base64.ts";
import { requireFlag } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import { allowBody, FILE_BODY_LIMIT } from "../http/body_limit.ts";
import { createWithinBound } from "../db/row_bound.ts";
import {
  ApiError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  validationError,
} from "../http/errors.ts";
import { readUploadForm } from "../http/multipart.ts";
import { body, idParam } from "../http/validate.ts";
import { createRun, getRun, processRun } from "../ingest/import_runs.ts";
import { storeImportFile } from "../ingest/import_files.ts";
import { deliverRun, releaseRun } from "./delivery.ts";
import { sftpWatch } from "./jobs.ts";
import { engineHistory, guardThresholdOf, inventoryRecipients } from "./feed.ts";
import {
  deleteInventorySource,
  findInventorySource,
  listInventorySources,
  saveInventorySource,
} from "./queries.ts";
import { forgetHostKeys } from "./sftp.ts";

/** The spec's manual upload cap (section 9): 10485760 bytes. */
const MANUAL_MAX_BYTES = UPLOAD_LIMITS.maxBytes;

/** Inventory sources that are not deleted count against MAX_SOURCES_PER_AREA (docs/limits.md). */
const INVENTORY_SOURCE_BOUND = {
  table: "inventory_sources",
  counts: "not deleted_status",
  noun: "inventory sources",
  variable: "MAX_SOURCES_PER_AREA",
};

const guard = requireFlag("inventoryUser");
const runParam = z.object({ runId: dbId });

/** The multipart form of an upload (clients send `SourceId` or `sourceId`). */
async function readUpload(c: Context<AppEnv>) {
  const { file, text } = await readUploadForm(c);
  if (!file) {
    throw badRequest("Choose a file to process.", { file: ["Required"] });
  }
  const parsed = manualProcessFields.safeParse({
    sourceId: text("sourceId") === undefined ? undefined : Number(text("sourceId")),
    sendEmailNotification: text("sendEmailNotification")?.toLowerCase(),
    submitViaSftp: text("submitViaSftp")?.toLowerCase(),
  });
  if (!parsed.success) throw validationError(parsed.error);
  const source = await findInventorySource(c.var.deps.db, parsed.data.sourceId);
  if (!source) throw notFound(`Inventory source ${parsed.data.sourceId}`);
  if (file.size > MANUAL_MAX_BYTES) throw badRequest("File size must be less than 10MB");
  const typeProblem = fileTypeProblem(source.fileType, file.name);
  if (typeProblem) throw badRequest(typeProblem);
  if (file.size === 0) throw badRequest(`The file "${file.name}" is empty.`);
  return {
    source,
    file: { name: file.name, bytes: file.bytes },
    options: parsed.data,
    dryRun: text("dryRun")?.toLowerCase() === "true",
    // `cli inventory process --source` says so (issue 15); the screen's upload sends nothing.
    trigger: text("trigger")?.toLowerCase() === "cli" ? "cli" as const : "upload" as const,
  };
}

/** The preview: the engine against the last delivered run, nothing stored. */
async function preview(c: Context<AppEnv>, upload: Awaited<ReturnType<typeof readUpload>>) {
  const deps = c.var.deps;
  const now = new Date();
  const history = await engineHistory(deps.db, upload.source, now);
  const outcome = await processInventoryOffThread(deps, {
    source: upload.source,
    supplierFile: upload.file,
    ...history,
    guardThreshold: guardThresholdOf(deps, upload.source),
    now,
    limits: UPLOAD_LIMITS,
  }).catch((error) => {
    // A preview past FILE_WORK_SECONDS: the user reads why, as for a refused file.
    throw error instanceof FileWorkTimeoutError ? badRequest(error.message) : error;
  });
  if (outcome.refused) throw badRequest(outcome.result.message);
  const { flips, ...verdict } = outcome.guard;
  return c.json({ ...outcome.result, dryRun: true, held: outcome.held, flips, guard: verdict });
}

/** A run of an inventory source with its delivery, as GET runs answers it. */
async function runsOf(c: Context<AppEnv>, filter: { sourceId?: number; runId?: number }) {
  return await c.var.deps.db.query<Record<string, unknown>>(
    `select r.id as "runId", ir.inventory_source_id as "sourceId", r.trigger, r.status,
       r.file_name as "fileName", r.received_at as "receivedAt", r.created_at as "createdAt",
       r.finished_at as "finishedAt", r.error, r.counts,
       ir.output_file_name as "outputFileName", ir.delivery_status as "deliveryStatus",
       ir.delivery_error as "deliveryError", ir.delivered_at as "deliveredAt",
       ir.deliver_sftp as "deliverSftp", ir.deliver_email as "deliverEmail",
       ir.sftp_delivered_at as "sftpDeliveredAt", ir.email_sent_at as "emailSentAt",
       ir.guard, jsonb_array_length(ir.flips) as "flipCount", ir.released_at as "releasedAt",
       u.username as "releasedBy"
       ${filter.runId ? ', ir.flips, ir.delivery_log as "deliveryLog", r.log' : ""}
       from inventory_runs ir join import_runs r on r.id = ir.import_run_id
       left join users u on u.id = ir.released_by
      where ($1::int is null or ir.inventory_source_id = $1)
        and ($2::bigint is null or ir.import_run_id = $2)
      order by r.created_at desc, r.id desc limit 200`,
    [filter.sourceId ?? null, filter.runId ?? null],
  );
}

async function oneRun(c: Context<AppEnv>, runId: number) {
  const [run] = await runsOf(c, { runId });
  if (!run) throw notFound(`Inventory run ${runId}`);
  return run;
}

export const inventoryRoutes = new Hono<AppEnv>()
  .get("/inventories", guard, async (c) => c.json(await listInventorySources(c.var.deps.db)))
  /** Beyond the contract: what the screens need from the server's configuration. */
  .get("/settings", guard, (c) =>
    c.json({
      debugTools: c.var.deps.config.DEBUG_TOOLS,
      guardThreshold: c.var.deps.config.INVENTORY_GUARD_RATIO,
      maxUploadBytes: MANUAL_MAX_BYTES,
    }))
  .get("/inventory/:id", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const source = await findInventorySource(c.var.deps.db, id);
    if (!source) throw notFound(`Inventory source ${id}`);
    const watch = await sftpWatch(c.var.deps, id);
    return c.json({ ...source, sftpWatch: watch, debugTools: c.var.deps.config.DEBUG_TOOLS });
  })
  .post(
    "/inventory/save",
    guard,
    allowBody(FILE_BODY_LIMIT),
    body("json", inventorySourceSave),
    async (c) => {
      const { db, secrets, config } = c.var.deps;
      const input = c.req.valid("json");
      const bound = input.id === 0
        ? { ...INVENTORY_SOURCE_BOUND, limit: config.MAX_SOURCES_PER_AREA }
        : null;
      return c.json({
        id: await createWithinBound(db, bound, (tx) => saveInventorySource(tx, secrets, input)),
      });
    },
  )
  .post("/inventory/:id", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    if (!await deleteInventorySource(c.var.deps.db, id)) throw notFound(`Inventory source ${id}`);
    return c.body(null, 204);
  })
  .post("/manually-process", guard, allowBody(FILE_BODY_LIMIT), async (c) => {
    const upload = await readUpload(c);
    if (upload.dryRun) return await preview(c, upload);
    const deps = c.var.deps;
    const { source, file, options } = upload;
    if (options.submitViaSftp && source.sftpServerAddress.trim() === "") {
      throw badRequest("The source has no SFTP server to submit the file to.");
    }
    let emailTo = "";
    if (options.sendEmailNotification) {
      const [me] = await deps.db.query<{ email: string }>(
        "select email from users where id = $1",
        [c.var.user.userId],
      );
      const to = new Set(await inventoryRecipients(deps.db));
      if (me?.email) to.add(me.email);
      emailTo = [...to].join(", ");
    }
    await storeImportFile(deps.db, file.bytes);
    const runId = await deps.db.transaction(async (tx) => {
      const id = await createRun(tx, {
        feed: "inventory",
        sourceId: source.id,
        trigger: upload.trigger,
        fileName: file.name,
        bytes: file.bytes,
        startedBy: c.var.user.userId,
        // Processed below, in this request.
        jobAfterSeconds: deps.config.JOB_LEASE_SECONDS,
        log: [
          upload.trigger === "cli"
            ? `Sent by ${c.var.user.username} from the CLI.`
            : `Uploaded by ${c.var.user.username}.`,
        ],
      });
      await tx.query(
        `insert into inventory_runs (import_run_id, inventory_source_id, deliver_sftp,
           deliver_email, email_to) values ($1, $2, $3, $4, $5)`,
        [id, source.id, options.submitViaSftp, options.sendEmailNotification, emailTo],
      );
      return id;
    });
    const status = await processRun(deps, runId);
    if (status === "failed") {
      const run = await getRun(deps.db, runId);
      throw new ApiError(400, run.error ?? "Failed to process file");
    }
    const delivery = await deliverRun(deps, runId);
    const [stored] = await deps.db.query<
      { result: ManualProcessResult; bytes: Uint8Array | null }
    >(
      "select result, output_bytes as bytes from inventory_runs where import_run_id = $1",
      [runId],
    );
    const result: ManualProcessResult = {
      ...stored.result,
      fileData: stored.bytes ? encodeBase64(new Uint8Array(stored.bytes)) : null,
      processingLogs: [...stored.result.processingLogs, ...delivery.log],
    };
    if (delivery.error) {
      result.success = false;
      result.message = delivery.error;
      result.errors = [delivery.error, ...result.errors];
    }
    return c.json({
      ...result,
      runId,
      runStatus: delivery.error ? "failed" : status,
      held: status === "held",
      deliveryStatus: delivery.status,
    });
  })
  .post("/preview", guard, allowBody(FILE_BODY_LIMIT), async (c) => {
    return await preview(c, await readUpload(c));
  })
  .post("/debug-modify-file", guard, allowBody(FILE_BODY_LIMIT), async (c) => {
    if (!c.var.deps.config.DEBUG_TOOLS) {
      throw forbidden("Debug tools are turned off on this server (DEBUG_TOOLS).");
    }
    const upload = await readUpload(c);
    const outcome = await debugModifyInventoryFile({
      source: upload.source,
      supplierFile: upload.file,
      limits: UPLOAD_LIMITS,
    });
    if (!outcome.result.success) throw badRequest(outcome.result.message);
    return c.json(outcome.result);
  })
  .get("/inventory/:id/runs", guard, body("param", idParam), async (c) => {
    return c.json(await runsOf(c, { sourceId: c.req.valid("param").id }));
  })
  .post("/inventory/:id/forget-host-key", guard, body("param", idParam), async (c) => {
    return c.json({ forgotten: await forgetHostKeys(c.var.deps, c.req.valid("param").id) });
  })
  .get("/runs/:runId", guard, body("param", runParam), async (c) => {
    return c.json(await oneRun(c, c.req.valid("param").runId));
  })
  .get("/runs/:runId/file", guard, body("param", runParam), async (c) => {
    const { runId } = c.req.valid("param");
    const [row] = await c.var.deps.db.query<{ name: string; bytes: Uint8Array | null }>(
      `select output_file_name as name, output_bytes as bytes from inventory_runs
        where import_run_id = $1`,
      [runId],
    );
    if (!row?.bytes) throw notFound(`The generated file of inventory run ${runId}`);
    const name = row.name.replace(/[^\w.\- ]/g, "_");
    return c.body(new Uint8Array(row.bytes), 200, {
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="${name}"`,
    });
  })
  .post("/runs/:runId/release", guard, body("param", runParam), async (c) => {
    const { runId } = c.req.valid("param");
    await oneRun(c, runId);
    const outcome = await releaseRun(c.var.deps, runId, c.var.user.userId);
    if (!outcome) throw conflict(`Inventory run ${runId} is not held.`);
    return c.json({ ...await oneRun(c, runId), delivery: outcome });
  })
  .post("/runs/:runId/deliver", guard, body("param", runParam), async (c) => {
    const { runId } = c.req.valid("param");
    const run = await oneRun(c, runId);
    if (run.deliveryStatus === "held") {
      throw conflict(`Inventory run ${runId} is held: release it.`);
    }
    const outcome = await deliverRun(c.var.deps, runId);
    return c.json({ ...await oneRun(c, runId), delivery: outcome });
  });
