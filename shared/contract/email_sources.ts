/** Payloads of the /api/email-sources calls (spec part 2, sections 3, 5 and 7). */
import { z } from "zod";
import { boundedString, dbId, MAX_LENGTH, optionalText } from "./fields.ts";

/** A port field: a number, a numeric string, or empty (null). */
const port = z.preprocess(
  (value) => (value === "" || value === undefined ? null : value),
  z.coerce.number({ message: "Enter a port number" }).int("Enter a port number").min(
    1,
    "Ports run from 1 to 65535",
  ).max(65535, "Ports run from 1 to 65535").nullable(),
);

/** An e-mail address that must be given. */
const requiredEmail = boundedString(MAX_LENGTH.email).trim().min(1, "Required").pipe(
  z.email("Enter a valid email address"),
);

/** POST /api/email-sources/email/save (and the edit form). */
export const emailSourceSave = z.object({
  id: dbId.default(0),
  /** The mailbox login: often an e-mail address. */
  username: boundedString(MAX_LENGTH.email).trim().min(1, "Required"),
  email: requiredEmail,
  /** The placeholder ("********") keeps the stored secret. */
  password: boundedString(MAX_LENGTH.secret).min(3, "Required"),
  incomingServer: optionalText(MAX_LENGTH.host),
  outgoingServer: optionalText(MAX_LENGTH.host),
  incomingPort: port,
  outgoingPort: port,
  ssl: z.boolean().default(true),
  isMsal: z.boolean().default(false),
  msalClientId: optionalText(MAX_LENGTH.name),
  msalTennentId: optionalText(MAX_LENGTH.name),
  /** Not on the spec's form; kept as stored when absent. */
  activeStatus: z.boolean().optional(),
});
export type EmailSourceSave = z.input<typeof emailSourceSave>;

/** GET /api/email-sources/email/{id}, and one entry of GET /api/email-sources/emails. */
export const emailSource = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  /** "********" when a secret is stored, "" when none: never the secret itself. */
  password: z.string().describe('"********" when a secret is stored, "" when none'),
  incomingServer: z.string(),
  outgoingServer: z.string(),
  incomingPort: z.number().int().nullable(),
  outgoingPort: z.number().int().nullable(),
  ssl: z.boolean(),
  isMsal: z.boolean(),
  msalClientId: z.string(),
  msalTennentId: z.string(),
  activeStatus: z.boolean(),
  /** Mailbox polling: when the last poll succeeded, and the last error (null once one succeeds). */
  lastSuccessfulPoll: z.string().nullable(),
  lastPollError: z.string().nullable(),
  lastPollErrorAt: z.string().nullable(),
  /**
   * Not in the spec: how the mailbox is watched. `listening`: an IMAP IDLE listener is connected
   * (new mail is read at once); `no-idle`: the server has no IDLE, the mailbox is polled every
   * `pollSeconds`; `polling`: no listener is connected now (starting, reconnecting, or no process
   * runs jobs), the poll every `pollSeconds` reads it. `lastCheckAt`: the last poll, whatever its
   * outcome.
   */
  watch: z.object({
    mode: z.enum(["listening", "polling", "no-idle"]),
    pollSeconds: z.number().int(),
    lastCheckAt: z.string().nullable(),
  }).optional(),
});
export type EmailSource = z.infer<typeof emailSource>;

/** GET /api/email-sources/email-list: picker pairs. */
export const pickerPair = z.object({ item1: z.string(), item2: z.number().int() });
export type PickerPair = z.infer<typeof pickerPair>;

/** What the test e-mail dialog sends as an attachment. */
export const testEmailFile = z.object({
  fileName: boundedString(MAX_LENGTH.fileName).trim().min(1, "The attachment needs a file name"),
  fileData: boundedString(MAX_LENGTH.base64File, "The attachment must be less than 10MB."),
});

/** POST /api/email-sources/send-test-email */
export const sendTestEmailRequest = z.object({
  toEmail: boundedString(MAX_LENGTH.email).trim().nullish(),
  subjectLine: boundedString(MAX_LENGTH.subject).nullish(),
  messageContent: boundedString(MAX_LENGTH.longText).nullish(),
  fileData: testEmailFile.nullish(),
  /** The whole selected source; the server sends through the stored one with this id. */
  emailSource: z.object({ id: dbId }).passthrough().nullish(),
});
export type SendTestEmailRequest = z.input<typeof sendTestEmailRequest>;

/** The one message the dialog and the server use for missing fields. */
export const MISSING_TEST_EMAIL_FIELDS = "Please fill in all required fields.";

/** POST /api/email-sources/poll/{id} ("Check now"). */
export const pollResult = z.object({
  emailSourceId: z.number().int(),
  /** False when another process was polling this mailbox at that moment. */
  polled: z.boolean(),
  /** Messages looked at, claimed for a feed, ignored (no source wanted them), unreadable. */
  seen: z.number().int(),
  matched: z.number().int(),
  ignored: z.number().int(),
  failed: z.number().int(),
  /** Import runs created. */
  runs: z.number().int(),
  error: z.string().nullable(),
});
export type PollResult = z.infer<typeof pollResult>;

/** The edit form's values: ports as typed text, converted on submit (spec part 2, section 5). */
export const emailSourceForm = z.object({
  username: z.string().trim().min(1, "Required"),
  email: z.string().trim().min(1, "Required").pipe(z.email("Enter a valid email address")),
  password: z.string().min(3, "Required"),
  incomingServer: z.string(),
  incomingPort: z.string().regex(/^\s*\d{0,5}\s*$/, "Enter a port number"),
  outgoingServer: z.string(),
  outgoingPort: z.string().regex(/^\s*\d{0,5}\s*$/, "Enter a port number"),
  ssl: z.boolean(),
  isMsal: z.boolean(),
  msalClientId: z.string(),
  msalTennentId: z.string(),
});
export type EmailSourceForm = z.infer<typeof emailSourceForm>;

/** A new source's form: SSL on (spec part 2, section 9). */
export const NEW_EMAIL_SOURCE_FORM: EmailSourceForm = {
  username: "",
  email: "",
  password: "",
  incomingServer: "",
  incomingPort: "",
  outgoingServer: "",
  outgoingPort: "",
  ssl: true,
  isMsal: false,
  msalClientId: "",
  msalTennentId: "",
};

/** One import run in a list (GET /api/import-runs). */
export const importRunSummary = z.object({
  id: z.number().int(),
  feed: z.string(),
  sourceId: z.number().int(),
  trigger: z.enum(["mail", "sftp", "upload", "cli", "rerun", "url"]),
  status: z.enum(["queued", "succeeded", "failed", "held"]),
  fileName: z.string(),
  fileSize: z.number().int().nullable(),
  sha256: z.string().nullable(),
  receivedAt: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  mailMessageId: z.number().int().nullable(),
  rerunOf: z.number().int().nullable(),
  counts: z.record(z.string(), z.number()),
  warnings: z.array(z.string()),
  error: z.string().nullable(),
  rowErrorCount: z.number().int(),
});
export type ImportRunSummary = z.infer<typeof importRunSummary>;

/** One run with its row errors and log (GET /api/import-runs/{id}). */
export const importRunDetails = importRunSummary.extend({
  rowErrors: z.array(
    z.object({ row: z.number().int(), column: z.string().optional(), message: z.string() }),
  ),
  log: z.array(z.string()),
});
export type ImportRunDetails = z.infer<typeof importRunDetails>;
