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

const schema = z.object({
  PORT: port.default(8000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must start with postgres://").optional(),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  SECRET_KEY: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "must be 32 bytes in base64").optional(),
  PUBLIC_URL: z.url().optional(),
  SMTP_HOST: optionalText,
  SMTP_PORT: port.default(587),
  SMTP_SECURITY: z.enum(["none", "starttls", "tls"]).default("starttls"),
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  SMTP_FROM: z.email().optional(),
  SMTP_CA_FILE: optionalText,
  MAIL_POLL_SECONDS: z.coerce.number().int().min(5).default(300),
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
  /** How often SFTP inbox folders of inventory sources are looked at. */
  INVENTORY_SFTP_POLL_SECONDS: z.coerce.number().int().min(5).default(300),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Run the background jobs in the web process too (false: only `deno task worker` runs them). */
  RUN_JOBS: flag.default(true),
  /** On SIGTERM: how long requests in flight and the job in hand may take before the exit. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(20),
  /** `deno task worker` serves /health and /ready on this port (for container health checks). */
  WORKER_HEALTH_PORT: port.optional(),
});

/** Settings of one process, parsed from the environment. */
export type Config = z.infer<typeof schema>;

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
