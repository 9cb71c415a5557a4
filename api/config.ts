/**
 * The only module that reads the environment. Every setting is checked by zod at start; a wrong
 * value stops the process with one line naming the variable.
 */
import { z } from "zod";
import { parseAllowList } from "./net/outbound.ts";

const port = z.coerce.number().int().min(0).max(65535);
const flag = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) =>
  ["true", "1", "yes"].includes(v)
);
const optionalText = z.string().trim().min(1).optional();
/** A limit: a whole number from 1 up. */
const count = z.coerce.number().int().min(1).max(1_000_000);

const schema = z.object({
  PORT: port.default(8000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must start with postgres://").optional(),
  /** PostgreSQL connections each process may open (docs/operations.md, "Connection budget"). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  SECRET_KEY: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "must be 32 bytes in base64").optional(),
  /** The only origin mailed links use (never the request's Host: docs/auth.md, "Mailed links"). */
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .optional(),
  SMTP_HOST: optionalText,
  SMTP_PORT: port.default(587),
  SMTP_SECURITY: z.enum(["none", "starttls", "tls"]).default("starttls"),
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  SMTP_FROM: z.email().optional(),
  SMTP_CA_FILE: optionalText,
  MAIL_POLL_SECONDS: z.coerce.number().int().min(5).default(300),
  /** Listen on every active mailbox with IMAP IDLE (the poll stays as the safety net). */
  MAIL_IDLE: flag.default(true),
  MAIL_LOOKBACK_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
  MAIL_MOVE_TO: optionalText,
  MAIL_CA_FILE: optionalText,
  MSAL_AUTHORITY_HOST: z.url().default("https://login.microsoftonline.com"),
  JOBS_TICK_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(86400).default(300),
  MAILBOX_ALERT_HOURS: z.coerce.number().min(0).max(8760).default(24),
  /** Failed polls in a row that make a mailbox-health incident (0: only the age counts). */
  MAILBOX_ALERT_FAILURES: z.coerce.number().int().min(0).max(10_000).default(5),
  MAX_SOURCE_FILE_BYTES: z.coerce.number().int().min(1024).default(50 * 1024 * 1024),
  /** Host names, addresses and CIDR ranges outbound connections may reach though not public. */
  OUTBOUND_ALLOW: z.string().superRefine((value, ctx) => {
    try {
      parseAllowList(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
    }
  }).optional(),
  DEBUG_TOOLS: flag.default(false),
  TRUST_PROXY: flag.default(false),
  BODY_READ_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** Inventory guard: share of previously active items that may turn inactive (docs/inventory.md). */
  INVENTORY_GUARD_RATIO: z.coerce.number().min(0).max(1).default(0.5),
  /** How often SFTP inbox folders are looked at, unless a source sets its own interval. */
  INVENTORY_SFTP_POLL_SECONDS: z.coerce.number().int().min(5).max(86400).default(30),
  /** Time-out of one look at a URL feed, redirects and body included (docs/url_feeds.md). */
  URL_FEED_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(60),
  /** Days the activity log keeps an entry; the daily job removes older ones (docs/activity.md). */
  ACTIVITY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Run the background jobs in the web process too (false: only `deno task worker` runs them). */
  RUN_JOBS: flag.default(true),
  /** On SIGTERM: how long requests in flight and the job in hand may take before the exit. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(20),
  /** Send limits per hour (docs/limits.md, "Sending"): "Send Test Email" per user and in all. */
  TEST_EMAILS_PER_USER_PER_HOUR: count.default(20),
  TEST_EMAILS_PER_HOUR: count.default(100),
  /** The largest attachment of a test e-mail, decoded (0: none; at most the 10 MB upload cap). */
  TEST_EMAIL_MAX_ATTACHMENT_BYTES: z.coerce.number().int().min(0).max(10 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  /** Notification "test" sends per user and in all, per hour. */
  NOTIFICATION_TESTS_PER_USER_PER_HOUR: count.default(20),
  NOTIFICATION_TESTS_PER_HOUR: count.default(100),
  /** Order files downloaded behind links (link-click sources) per source and in all, per hour. */
  LINK_DOWNLOADS_PER_SOURCE_PER_HOUR: count.default(100),
  LINK_DOWNLOADS_PER_HOUR: count.default(500),
  /** Sources per area (e-mail, order tracking, inventory, order submission, notifications). */
  MAX_SOURCES_PER_AREA: count.default(200),
  /** Vendors of all order submission sources together. */
  MAX_VENDORS: count.default(1000),
  /** Workers reading files and running the inventory engine off the request thread. */
  FILE_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  /** The time one file may take to read or process before its run fails (docs/architecture.md). */
  FILE_WORK_SECONDS: z.coerce.number().min(0.01).max(86400).default(120),
  /** Order rows of a batch of an import, the ledger's unit (docs/architecture.md, "Batched imports"). */
  IMPORT_BATCH_ROWS: z.coerce.number().int().min(1).max(1_000_000).default(25),
  /**
   * The time one transaction of an import aims at: it writes as many batches as this holds at
   * the last one's pace (0: one batch a transaction; docs/architecture.md, "Batched imports").
   */
  IMPORT_BATCH_MS: z.coerce.number().int().min(0).max(60_000).default(50),
  /**
   * The same while people are using the embedded database (a request's statement within the last ten
   * seconds, `Db.othersActive`): its one connection makes their statements wait for the transaction.
   */
  IMPORT_BATCH_BUSY_MS: z.coerce.number().int().min(0).max(60_000).default(10),
  /** `deno task worker` serves /health and /ready on this port (for container health checks). */
  WORKER_HEALTH_PORT: port.optional(),
});

/** Settings of one process, parsed from the environment. */
export type Config = z.infer<typeof schema>;

/** The warning about a missing `PUBLIC_URL`: in the start-up log and on the admin's pages. */
export const PUBLIC_URL_UNSET =
  "PUBLIC_URL is not set: password-reset and notification e-mails carry no links to the " +
  "application and tell users to ask their administrator. Set PUBLIC_URL to the address users " +
  "open the application at (docs/operations.md).";

/**
 * What an administrator should fix in a configuration that starts but leaves something out:
 * logged once at start (server and worker) and shown on the admin's pages.
 */
export function configWarnings(config: Pick<Config, "PUBLIC_URL">): string[] {
  return config.PUBLIC_URL ? [] : [PUBLIC_URL_UNSET];
}

/** Thrown when a variable is wrong; its message is the single line to print. */
export class ConfigError extends Error {}

/**
 * Parses settings from an environment map (Deno.env by default).
 *
 * @example
 * ```ts
 * const config = loadConfig({ PORT: "8080" }); // config.PORT === 8080
 * ```
 */
export function loadConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  // Empty strings mean "unset" so that `VAR=` in a compose file falls back to the default.
  const present = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key in schema.shape && value !== ""),
  );
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ConfigError(`Invalid ${String(issue.path[0])}: ${issue.message}`);
}
