/** Calls of the /api/email-sources contract (spec part 2, section 7) and the import history. */
import type { ClientResponse } from "hono/client";
import type {
  EmailSource,
  ImportRunDetails,
  ImportRunSummary,
  PollResult,
} from "../../../shared/contract/email_sources.ts";
import { api } from "./client.ts";
import { apiFetch, isSuccess, readErrorMessage, readJson, type ResponseLike } from "./http.ts";

export type { EmailSource, ImportRunDetails, ImportRunSummary, PollResult };

const sources = api.api["email-sources"];
const runs = api.api["import-runs"];

/** A call that did not answer 200/204: its status and the server's message. */
export class RequestError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

// deno-lint-ignore no-explicit-any
async function answer<T>(call: Promise<ClientResponse<T, any, any>>): Promise<T> {
  const response = await call;
  if (!isSuccess(response)) {
    const message = (await readErrorMessage(response)) ?? `Request failed (${response.status}).`;
    throw new RequestError(response.status, message);
  }
  return (await readJson<T>(response)) as T;
}

/** GET /api/email-sources/emails */
export function fetchEmailSources(): Promise<EmailSource[]> {
  return answer(sources.emails.$get()) as Promise<EmailSource[]>;
}

/** GET /api/email-sources/email/{id} */
export function fetchEmailSource(id: number): Promise<EmailSource> {
  return answer(sources.email[":id"].$get({ param: { id: String(id) } })) as Promise<EmailSource>;
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

/** POST /api/email-sources/email/save; the caller reads the status (200/204 is success). */
export function saveEmailSource(payload: EmailSourcePayload): Promise<ResponseLike> {
  return sources.email.save.$post({ json: payload });
}

/** POST /api/email-sources/delete/{id}, no body. */
export async function deleteEmailSource(id: number): Promise<void> {
  await answer(sources.delete[":id"].$post({ param: { id: String(id) } }));
}

/** POST /api/email-sources/send-test-email */
export async function sendTestEmail(request: {
  ToEmail: string;
  SubjectLine: string;
  MessageContent: string;
  FileData: { FileName: string; FileData: string } | null;
  EmailSource: EmailSource;
}): Promise<void> {
  // The contract's PascalCase keys: the server matches keys without case.
  const response = await apiFetch("/api/email-sources/send-test-email", {
    method: "POST",
    body: JSON.stringify(request),
  });
  if (!isSuccess(response)) {
    const message = (await readErrorMessage(response)) ?? `Request failed (${response.status}).`;
    throw new RequestError(response.status, message);
  }
}

/** POST /api/email-sources/poll/{id}: "Check now". */
export function pollEmailSource(id: number): Promise<PollResult> {
  return answer(sources.poll[":id"].$post({ param: { id: String(id) } })) as Promise<PollResult>;
}

/** GET /api/import-runs?feed=&sourceId= */
export function fetchImportRuns(
  filter: { feed?: string; sourceId?: number } = {},
): Promise<ImportRunSummary[]> {
  const query: Record<string, string> = {};
  if (filter.feed) query.feed = filter.feed;
  if (filter.sourceId) query.sourceId = String(filter.sourceId);
  return answer(runs.$get({ query })) as Promise<ImportRunSummary[]>;
}

/** GET /api/import-runs/{id} */
export function fetchImportRun(id: number): Promise<ImportRunDetails> {
  return answer(runs[":id"].$get({ param: { id: String(id) } })) as Promise<ImportRunDetails>;
}

/** POST /api/import-runs/{id}/rerun: a new run from the stored file. */
export function rerunImportRun(id: number): Promise<ImportRunDetails> {
  return answer(runs[":id"].rerun.$post({ param: { id: String(id) } })) as Promise<
    ImportRunDetails
  >;
}
