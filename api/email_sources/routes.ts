/** The /api/email-sources calls of the contract, plus "Check now" (poll one mailbox at once). */
import { Hono } from "hono";
import {
  emailSourceSave,
  MISSING_TEST_EMAIL_FIELDS,
  sendTestEmailRequest,
} from "../../shared/contract/email_sources.ts";
import { decodeBase64 } from "../../shared/base64.ts";
import type { AppEnv } from "../deps.ts";
import { createWithinBound } from "../db/row_bound.ts";
import { requireAnyFlag } from "../auth/guards.ts";
import { ApiError, badRequest } from "../http/errors.ts";
import { allowBody, FILE_BODY_LIMIT } from "../http/body_limit.ts";
import { requireSendAllowance } from "../http/send_limit.ts";
import { body, idParam } from "../http/validate.ts";
import { sendFromSource } from "../mail/source_mail.ts";
import { pollMailbox } from "../ingest/mailbox_poll.ts";
import { loadMailAccount } from "../mail/accounts.ts";
import {
  deleteEmailSource,
  emailSourcePairs,
  getEmailSource,
  listEmailSources,
  saveEmailSource,
} from "./queries.ts";

/** E-mail sources that are not deleted count against MAX_SOURCES_PER_AREA (docs/limits.md). */
const EMAIL_SOURCE_BOUND = {
  table: "email_sources",
  counts: "deleted_at is null",
  noun: "e-mail sources",
  variable: "MAX_SOURCES_PER_AREA",
};

export const emailSourceRoutes = new Hono<AppEnv>()
  .use(requireAnyFlag())
  .get(
    "/emails",
    async (c) => c.json(await listEmailSources(c.var.deps.db, c.var.deps.config.MAIL_POLL_SECONDS)),
  )
  .get("/email-list", async (c) => c.json(await emailSourcePairs(c.var.deps.db)))
  .get("/email/:id", body("param", idParam), async (c) => {
    const { db, config } = c.var.deps;
    return c.json(await getEmailSource(db, c.req.valid("param").id, config.MAIL_POLL_SECONDS));
  })
  .post("/email/save", body("json", emailSourceSave), async (c) => {
    const { db, secrets, config } = c.var.deps;
    const input = c.req.valid("json");
    const bound = input.id === 0
      ? { ...EMAIL_SOURCE_BOUND, limit: config.MAX_SOURCES_PER_AREA }
      : null;
    const id = await createWithinBound(db, bound, (tx) => saveEmailSource(tx, secrets, input));
    return c.json(await getEmailSource(db, id));
  })
  .post("/delete/:id", body("param", idParam), async (c) => {
    await deleteEmailSource(c.var.deps.db, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .post(
    "/send-test-email",
    allowBody(FILE_BODY_LIMIT),
    body("json", sendTestEmailRequest),
    async (c) => {
      const { db, secrets, config } = c.var.deps;
      const request = c.req.valid("json");
      const to = request.toEmail?.trim();
      const sourceId = request.emailSource?.id;
      if (!to || !request.subjectLine?.trim() || !request.messageContent?.trim() || !sourceId) {
        throw badRequest(MISSING_TEST_EMAIL_FIELDS);
      }
      const attachments = [];
      if (request.fileData) {
        let content: Uint8Array;
        try {
          content = decodeBase64(request.fileData.fileData.replace(/^data:[^,]*,/, ""));
        } catch {
          throw badRequest("The attachment is not valid base64.");
        }
        // TEST_EMAIL_MAX_ATTACHMENT_BYTES (docs/limits.md, "Sending"); 10 MB by default.
        const max = config.TEST_EMAIL_MAX_ATTACHMENT_BYTES;
        if (content.length > max) {
          throw badRequest(
            max === 0
              ? "Test e-mails cannot carry an attachment on this server."
              : `The attachment must be at most ${max} bytes (TEST_EMAIL_MAX_ATTACHMENT_BYTES).`,
          );
        }
        attachments.push({ filename: request.fileData.fileName, content });
      }
      // The stored source is used whatever the dialog sent: its secret never travels to the client.
      const account = await loadMailAccount(db, secrets, sourceId);
      // Counted before the send, a failed send included (docs/limits.md, "Sending").
      await requireSendAllowance(c.var.deps, "testEmail", c.var.user.userId);
      try {
        const sent = await sendFromSource(config, account, {
          to,
          subject: request.subjectLine!,
          text: request.messageContent!,
          attachments,
        });
        if (!sent.accepted.length) throw new Error(`The server accepted no recipient for ${to}.`);
        return c.json({ success: true, message: `Test email sent to ${to}.`, ...sent });
      } catch (error) {
        throw new ApiError(502, (error as Error).message);
      }
    },
  )
  .post("/poll/:id", body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    await getEmailSource(c.var.deps.db, id);
    return c.json(await pollMailbox(c.var.deps, id, { processRuns: true }));
  });
