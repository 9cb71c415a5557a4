/** The OpenAPI descriptions of /api/email-sources (spec part 2, section 7). */
import { z } from "zod";
import { routeDocs } from "../http/route_docs.ts";
import { emailSource, pickerPair, pollResult } from "../../shared/contract/email_sources.ts";

const P2 = "Spec part 2, section 7.";

export const emailSourcesDocs = routeDocs([
  {
    method: "GET",
    path: "/api/email-sources/emails",
    summary: "Every e-mail source (secrets as a placeholder)",
    response: z.array(emailSource),
    description: P2,
  },
  {
    method: "GET",
    path: "/api/email-sources/email-list",
    summary: "Picker pairs: item1 name, item2 id",
    response: z.array(pickerPair),
    description: `${P2} Also spec part 1, section 7.`,
  },
  {
    method: "GET",
    path: "/api/email-sources/email/:id",
    summary: "One e-mail source",
    response: emailSource,
    description: P2,
  },
  {
    method: "POST",
    path: "/api/email-sources/email/save",
    summary: "Create (id 0) or update an e-mail source; the placeholder keeps the stored secret",
    response: emailSource,
    description: P2,
  },
  {
    method: "POST",
    path: "/api/email-sources/delete/:id",
    summary: "Delete an e-mail source",
    response: "empty",
    description: P2,
  },
  {
    method: "POST",
    path: "/api/email-sources/send-test-email",
    summary: "Send a test e-mail through a stored source",
    response: z.looseObject({ success: z.boolean(), message: z.string() }),
    description: `${P2} 502 when the mail server refuses; 429 with \`Retry-After\` past ` +
      "TEST_EMAILS_PER_USER_PER_HOUR or TEST_EMAILS_PER_HOUR (docs/limits.md).",
  },
  {
    method: "POST",
    path: "/api/email-sources/poll/:id",
    summary: "Poll one mailbox now (beyond the contract)",
    response: pollResult,
  },
]);
