/** Calls of the /api/email-sources contract (spec part 2, section 7). */
import type {
  EmailSource,
  PollResult,
  SendTestEmailRequest,
} from "../../../../shared/contract/email_sources.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";

export type { EmailSource, PollResult };

const sources = api.api["email-sources"];

/** GET /api/email-sources/emails */
export function fetchEmailSources(signal?: AbortSignal): Promise<EmailSource[]> {
  return call(sources.emails.$get(undefined, { init: { signal } })) as Promise<EmailSource[]>;
}

/** GET /api/email-sources/email/{id} */
export function fetchEmailSource(id: number, signal?: AbortSignal): Promise<EmailSource> {
  return call(
    sources.email[":id"].$get({ param: { id: String(id) } }, { init: { signal } }),
  ) as Promise<EmailSource>;
}

/** One e-mail source for a dropdown: display name (item1) and id (item2). */
export interface EmailSourceItem {
  item1: string;
  item2: number;
}

/** GET /api/email-sources/email-list: names and ids for the other areas' dropdowns. */
export function fetchEmailSourceList(signal?: AbortSignal): Promise<EmailSourceItem[]> {
  return call(sources["email-list"].$get(undefined, { init: { signal } })) as Promise<
    EmailSourceItem[]
  >;
}

/** The save payload: every field of the source plus its id. */
export interface EmailSourcePayload {
  id: number;
  username: string;
  email: string;
  password: string;
  incomingServer: string;
  outgoingServer: string;
  incomingPort: number | null;
  outgoingPort: number | null;
  ssl: boolean;
  isMsal: boolean;
  msalClientId: string;
  msalTennentId: string;
}

/** POST /api/email-sources/email/save; answers the saved source. */
export function saveEmailSource(payload: EmailSourcePayload): Promise<EmailSource | undefined> {
  return call(sources.email.save.$post({ json: payload })) as Promise<EmailSource | undefined>;
}

/** POST /api/email-sources/delete/{id}, no body. */
export async function deleteEmailSource(id: number): Promise<void> {
  await call(sources.delete[":id"].$post({ param: { id: String(id) } }));
}

/** POST /api/email-sources/send-test-email */
export async function sendTestEmail(request: {
  ToEmail: string;
  SubjectLine: string;
  MessageContent: string;
  FileData: { FileName: string; FileData: string } | null;
  EmailSource: EmailSource;
}): Promise<void> {
  // Sent with the contract's PascalCase keys; the server matches keys without case, the typed
  // client's payload type spells them in camelCase.
  const json = request as unknown as SendTestEmailRequest;
  await call(sources["send-test-email"].$post({ json }));
}

/** POST /api/email-sources/poll/{id}: "Check now". */
export function pollEmailSource(id: number): Promise<PollResult> {
  return call(sources.poll[":id"].$post({ param: { id: String(id) } })) as Promise<PollResult>;
}
