/**
 * /api/notification-settings (spec part 2, section 7): list, read, create, update, delete,
 * email-info, validate-cron, test and test-webhook, and `sources` (the edit screen's source picker,
 * docs/notifications.md). Any of the three flags or Admin may use them (spec section 6); each
 * route carries its own guard. The static paths come before `/:id`. Create answers 200 with the
 * stored setting (the spec's forms treat only 200/204 as saved).
 */
import { Hono } from "hono";
import {
  cronValidationRequest,
  notificationSettingSave,
  notificationSourcesQuery,
} from "../../shared/contract/notifications.ts";
import { emailInfoRecipients } from "../../shared/notifications/recipients.ts";
import { validateCron } from "../../shared/notifications/schedule.ts";
import { requireAnyFlag } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import { createWithinBound } from "../db/row_bound.ts";
import { notFound } from "../http/errors.ts";
import { requireSendAllowance } from "../http/send_limit.ts";
import { body, idParam } from "../http/validate.ts";
import { sendTestNotification } from "./jobs.ts";
import { sendWebhookTest } from "./channels.ts";
import {
  deleteSetting,
  findSetting,
  listSettings,
  recipientUsers,
  saveSetting,
  sourceOptions,
  toContract,
} from "./queries.ts";

const guard = requireAnyFlag(true);

/** Notification settings (deleted ones are gone) count against MAX_SOURCES_PER_AREA. */
const NOTIFICATION_BOUND = {
  table: "notification_settings",
  counts: "true",
  noun: "notification settings",
  variable: "MAX_SOURCES_PER_AREA",
};

export const notificationRoutes = new Hono<AppEnv>()
  .get("/", guard, async (c) => c.json((await listSettings(c.var.deps.db)).map(toContract)))
  .get("/email-info", guard, async (c) => {
    const { config, db } = c.var.deps;
    return c.json({
      fromEmail: config.SMTP_FROM ?? config.SMTP_USER ?? "",
      recipients: emailInfoRecipients(await recipientUsers(db)),
      note: "Without override recipients, a notification goes to the active users with " +
        '"send notifications to e-mail" and the flag of its area (Inventory: inventory users; ' +
        "Order Submission and Order Vendor: submission users; Order Tracking: order users).",
    });
  })
  .get("/sources", guard, body("query", notificationSourcesQuery), async (c) => {
    const { sourceTypeId } = c.req.valid("query");
    return c.json(await sourceOptions(c.var.deps.db, sourceTypeId));
  })
  .post("/validate-cron", guard, body("json", cronValidationRequest), (c) => {
    const { cronExpression, timeZone } = c.req.valid("json");
    return c.json(validateCron(cronExpression, new Date(), timeZone || null));
  })
  .post("/", guard, body("json", notificationSettingSave), async (c) => {
    const { db, config } = c.var.deps;
    const input = c.req.valid("json");
    const bound = { ...NOTIFICATION_BOUND, limit: config.MAX_SOURCES_PER_AREA };
    const saved = await createWithinBound(
      db,
      bound,
      (tx) => saveSetting(tx, c.var.deps.secrets, 0, input),
    );
    return c.json(toContract(saved));
  })
  .get("/:id", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const setting = await findSetting(c.var.deps.db, id);
    if (!setting) throw notFound(`Notification setting ${id}`);
    return c.json(toContract(setting));
  })
  .put("/:id", guard, body("param", idParam), body("json", notificationSettingSave), async (c) => {
    const { id } = c.req.valid("param");
    const { db, secrets } = c.var.deps;
    if (!await findSetting(db, id)) throw notFound(`Notification setting ${id}`);
    const saved = await db.transaction((tx) => saveSetting(tx, secrets, id, c.req.valid("json")));
    return c.json(toContract(saved));
  })
  .delete("/:id", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    if (!await deleteSetting(c.var.deps.db, id)) throw notFound(`Notification setting ${id}`);
    return c.body(null, 204);
  })
  .post("/:id/test", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const setting = await findSetting(c.var.deps.db, id);
    if (!setting) throw notFound(`Notification setting ${id}`);
    await requireSendAllowance(c.var.deps, "notificationTest", c.var.user.userId);
    // The links use PUBLIC_URL only, never this request's Host (docs/auth.md, "Mailed links").
    return c.json(await sendTestNotification(c.var.deps, setting));
  })
  .post("/:id/test-webhook", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const setting = await findSetting(c.var.deps.db, id);
    if (!setting) throw notFound(`Notification setting ${id}`);
    await requireSendAllowance(c.var.deps, "notificationTest", c.var.user.userId);
    return c.json(await sendWebhookTest(c.var.deps, setting));
  });
