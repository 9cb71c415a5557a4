/** E-mail sources: the mailboxes the feeds read, their polling (job and schedules) and IDLE listeners. */
import { defineFeature } from "../feature.ts";
import { emailSourcesDocs } from "./docs.ts";
import { MAIL_POLL_JOB, mailPollJob, mailPollSchedules } from "../ingest/mailbox_poll.ts";
import { mailListenerService } from "../ingest/mail_listeners.ts";
import { emailSourceRoutes } from "./routes.ts";

/** The e-mail sources feature. */
export const emailSources = defineFeature({
  name: "email_sources",
  flag: "anyFlag",
  routes: [{ path: "/api/email-sources", router: emailSourceRoutes }],
  jobHandlers: { [MAIL_POLL_JOB]: mailPollJob },
  scheduleSources: [mailPollSchedules],
  services: [mailListenerService],
  docs: emailSourcesDocs,
});
