/** The /api/email-sources calls of the contract, plus "Check now" (poll one mailbox at once). */
import { Hono } from "hono";
import {
  emailSourceSave,
  MISSING_TEST_EMAIL_FIELDS,
  sendTestEmailRequest,
} from "../../shared/contract/email_sources.ts";
import { decodeBase64 } from "../../shared/base64.ts";
import type { AppEnv } from "../deps.ts";
import { requireAnyFlag } from "../auth/guards.ts";
import { ApiError, badRequest } from "../http/errors.ts";
import { allowBody, FILE_BODY_LIMIT } from "../http/body_limit.ts";
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

/** Largest attachment the test dialog may send (decoded). */
const MAX_TEST_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export const emailSourceRoutes = new Hono<AppEnv>()
  .use(requireAnyFlag())
  .get("/emails", async (c) => c.json(await listEmailSources(c.var.deps.db)))
  .get("/email-list", async (c) => c.json(await emailSourcePairs(c.var.deps.db)))
  .get("/email/:id", body("param", idParam), async (c) => {
    return c.json(await getEmailSource(c.var.deps.db, c.req.valid("param").id));
  })
  .post("/email/save", body("json", emailSourceSave), async (c) => {
    const { db, secrets } = c.var.deps;
    const id = await saveEmailSource(db, secrets, c.req.valid("json"));
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
        if (content.length > MAX_TEST_ATTACHMENT_BYTES) {
          throw badRequest("The attachment must be less than 10MB.");
        }
        attachments.push({ filename: request.fileData.fileName, content });
      }
      // The stored source is used whatever the dialog sent: its secret never travels to the client.
      const account = await loadMailAccount(db, secrets, sourceId);
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
